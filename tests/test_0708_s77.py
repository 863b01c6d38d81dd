"""Session 77, lessons 07 and 08 (reader t38_0708): the timed compute printed once in lesson 08's section 2;
the guide's "needs N devices" arithmetic quoting the state and the room as the guide prints them; lesson 07's
inference ± defined where it is first printed; the ledger's held-out loss to the 4 decimals its tolerance
needs; section 4's "How to read it" with its answer visible and its detail collapsed."""

import json
import math
import re
from pathlib import Path

from utils.lessons.putting_it_together import fit, plan, profile_words, report
from utils.lessons.putting_it_together.link_cost import _gb
from utils.lessons.tensor_parallel import inference

NB_07 = Path(__file__).parents[1] / "notebooks" / "07_tensor_parallel.ipynb"
# the committed run's table: step 0.1946 s, load 0.0001 s, so the compute prints 194.5 ms
SHARES = {"load": 0.0001, "matmul": 0.1418, "memory-bound": 0.0430, "Python & dispatch": 0.0097}


def _cell(index: int) -> str:
    return "".join(json.loads(NB_07.read_text())["cells"][index]["source"])


def test_the_timed_compute_is_one_figure_in_the_loading_and_the_profiled_sentences():
    """08 cell 10: "(194.5 ms of compute)" and "the timed compute's median (194 ms)" in one paragraph."""
    loading = profile_words.loading_sentence(SHARES)
    profiled = profile_words.profiled_against_timed(0.1910, SHARES)
    assert "(194.5 ms of compute)" in loading
    assert "took 191.0 ms, -2% against the timed compute's median (194.5 ms)" in profiled   # 191.0 / 194.5 - 1
    assert "(194 ms)" not in profiled


def test_the_profiled_step_writes_each_branch_from_the_printed_compute():
    assert "+3% against the timed compute's median (194.5 ms): a profiled step also records" in \
        profile_words.profiled_against_timed(0.2000, SHARES)   # 200.0 / 194.5 = +2.8%
    assert "within 1% of the timed compute's median (194.5 ms)" in \
        profile_words.profiled_against_timed(0.1942, SHARES)


def test_the_devices_needed_arithmetic_quotes_the_state_and_the_room_as_the_guide_prints_them():
    """08 cell 36: "16 B x 6.86 bn = 110 GB" then "= 109.8 GB", "10.9 GB usable" then "10.87 GB usable"."""
    room = 10.87e9
    said = fit.devices_needed_arithmetic(plan.LARGE, room)
    assert f"= {_gb(16 * plan.LARGE.parameters())} over ({_gb(room)} usable - " in said
    assert "109.8" not in said and "10.87" not in said
    total, usable, acts, gathered = (float(x) for x in re.findall(r"([\d.]+) GB", said)[:4])
    need = fit.devices_needed(plan.LARGE, room)
    assert math.ceil(total / (usable - acts - gathered)) == need and f"= {need} devices, rounded up" in said


def test_the_inference_plus_minus_is_defined_before_its_first_figure():
    """07 cell 34: "0.41x ± 0.18" read as the paired ± of sections 1 and 4; its definition came lines later."""
    rows = [{"batch": b, "one device": 1.0, "tensor parallel": 1.0 / x, "pipeline": 1.0 / x,
             "spread": {"one device": 0.04, "tensor parallel": n, "pipeline": n}}
            for b, x, n in ((1, 0.41, 0.43), (4, 0.63, 0.33))]
    said = inference.batch_trend(rows, 1, ("tensor parallel",))
    definition = said.index("each ± is the speed-up times the rounds' spread")
    assert definition < said.index("0.41x ± 0.18")
    source = _cell(34)   # the notebook's sentence naming the rounds' spread precedes the lines that use it
    assert source.index("the rounds' spread is \"") < source.index("inference.winner(")


def test_the_ledger_prints_the_held_out_loss_to_four_decimals():
    """08 cell 31: "2.970" and "2.968" beside a 0.001 tolerance and the summary's 2.9678."""
    row = {"step": "precision", "kept": True, "mfu": math.nan, "bound": 2.83, "x_base": 1.5,
           "tokens_per_s": 7732.0, "x_prev": 1.5, "peak": 83.1 * 2**20, "loss": 2.96784, "same_maths": True}
    assert report.headline_table([row]).rows[0][5] == "2.9678"


def test_section_4s_how_to_read_it_keeps_its_answer_visible_and_its_detail_collapsed():
    """07 cell 28: one 368-word visible paragraph."""
    source = _cell(28)
    visible, collapsed = source.split("<details>")
    assert len(visible.split()) <= 130 and "</details>" in collapsed
    for term in ("**longer-step rank**", "**waiting**", "**after both had arrived**"):
        assert term in visible   # the terms the miss table below prints are defined where a learner reads
