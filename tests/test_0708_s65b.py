"""Lessons 07 and 08, the twenty-seventh reading's long cells (t27_0708 other problems): 07 cell 38's decode
loss as one sentence and a narrow table under it (decode_loss.answer, decode_loss.loss_table), 08 cell 24's
two-devices gap as one sentence (two_devices.gap_answer) with the all-reduce's weighing collapsed, 07 cell 11
short with its detail collapsed. Every figure is fabricated, not one run's."""
from pathlib import Path

import nbformat
import pytest

from utils.lessons.putting_it_together import ladder, script, two_devices
from utils.lessons.tensor_parallel import decode_loss

ROOT = Path(__file__).resolve().parents[1]

# rank 0 spent 6.00 ms a token inside its 8 all-reduces, 5.00 ms of it with both ranks inside
INSIDE = {"rank 0": 6.0e-3, "rank 1": 5.8e-3, "both inside": 5.0e-3, "calls": 8.0}


def _table(one: float, tp: float, inside: dict = INSIDE, price: float = 1.0e-3, extra: float = 0.02e-3):
    rows = decode_loss.loss_rows(one, tp, inside, price, 0.30, extra)
    text = decode_loss.loss_table(one, tp, inside, price, 0.30, extra, "t").to_text()
    return {what: round(size * 1e3, 2) for what, size in rows}, text


def test_the_loss_table_cuts_an_exchange_above_its_price_into_the_price_and_the_rest():
    rows, text = _table(1.0e-3, 8.0e-3)   # loss 7.00 ms; price 1.00 ms ± 30%: 5.00 lies above 1.30
    assert rows == {"inside rank 0's all-reduces": 6.0, "- both ranks inside: section 4's price": 1.0,
                    "- both ranks inside: beyond the price (exchange or a late return)": 4.0,
                    "- waiting for rank 1 or returning late": 1.0, "outside the all-reduces": 1.0,
                    "- the extra operations' fixed cost": 0.02, "the loss (tensor parallel - one device)": 7.0}
    # each group adds up to the row it splits, as printed; shares of the loss half up: 6 / 7 = 85.7%
    assert "inside rank 0's all-reduces" in text and "86%" in text and "57%" in text and "100%" in text
    assert all(len(line) <= 110 for line in text.splitlines())
    table = decode_loss.loss_table(1.0e-3, 8.0e-3, INSIDE, 1.0e-3, 0.30, 0.02e-3, "t")
    assert len(table.columns) == 3   # narrow


@pytest.mark.parametrize("price, word", [(4.5e-3, "within"), (8.0e-3, "below")])
def test_an_exchange_within_or_below_its_price_is_one_row_named_so(price, word):
    rows, _ = _table(1.0e-3, 8.0e-3, price=price)   # 5.00 ms against 4.50 ± 30% (3.15 to 5.85), or 8.00
    assert rows[f"- both ranks inside ({word} section 4's price ±30%)"] == 5.0
    assert not any("beyond the price" in what for what in rows)


def test_calls_longer_than_the_loss_leave_a_negative_rest_and_no_wait_row_where_none():
    no_wait = dict(INSIDE, **{"both inside": 6.0e-3})
    rows, text = _table(1.0e-3, 5.0e-3, inside=no_wait)   # loss 4.00, 6.00 inside: outside -2.00
    assert rows["outside the all-reduces"] == -2.0 and "-50%" in text and "150%" in text
    assert not any("waiting" in what or "extra operations" in what for what in rows)


def test_the_answer_says_each_outcome_in_one_sentence():
    lost = decode_loss.answer(1.0e-3, 8.0e-3, "0.13x ± 0.02", "slower than one device: no speed-up", INSIDE)
    assert lost == ("Tensor parallel: 8.00 ms a token against one device's 1.00 ms, 0.13x ± 0.02 one device's "
                    "speed: slower than one device: no speed-up; of its 7.00 ms loss a token, 6.00 ms (86%) was "
                    "rank 0's time inside its 8 all-reduces (the block below takes the loss apart)")
    noise = decode_loss.answer(1.0e-3, 1.1e-3, "0.91x ± 0.20", "within noise: no effect shown", INSIDE)
    assert noise.endswith("so this run shows neither method faster") and "loss" not in noise
    won = decode_loss.answer(1.0e-3, 0.6e-3, "1.67x ± 0.05", "faster than the baseline", INSIDE)
    assert won.endswith("; the halved weight bytes won")


def _compared(before_s: float, ratio: float):
    kept = ladder.Rung("baseline", script.Settings(batch_per_worker=16, context=64), 1, None, "")
    rung = ladder.Rung("two devices", kept.settings.scaled(), 2, 2.0, "")
    run = {"cpu_s": 1.0, "timed_s": 1.0, "final_loss": 2.9, "wall_s": 1.0}
    return ladder.Compared(rung, kept, [dict(run, tokens_per_s=1024 / before_s)] * 3,
                           [dict(run, tokens_per_s=1024 / before_s * ratio)] * 3)


def test_the_two_devices_answer_gives_the_gap_as_the_collapsed_paragraph_works_it():
    c = _compared(0.1243, 1.29)   # 124.3 / 1.29 = 96.36 -> 96.4; 124.3 / 2 = 62.15 -> 62.2 (half up)
    said = two_devices.gap_answer(c)
    assert said == ("Worked from the paired gain, the step took 96.4 ms against 62.2 ms at the bound: 34.2 ms a "
                    "step the bound does not see (the block below sets the all-reduce against it).")
    assert "34.2 ms a step the bound does not see" in ladder.two_devices_gap(c, 4.0e9, 1.6e6, simulated=False)
    at_bound = two_devices.gap_answer(_compared(0.1243, 2.0))   # 62.2 against 62.2
    assert at_bound.endswith("at the bound: no time a step above the bound's, as printed.")


def _cells(name: str):
    return nbformat.read(ROOT / "notebooks" / name, as_version=4).cells


def test_the_long_cells_show_one_sentence_and_keep_the_rest_collapsed():
    seven, eight = _cells("07_tensor_parallel.ipynb"), _cells("08_putting_it_together.ipynb")
    decode = next(c.source for c in seven if "DECODE = launch(decode.decode_worker" in c.source)
    assert 'say(decode_loss.answer(one_t, tp_t, DECODE_ROW.measured, TP_VERDICT, DECODE["all_reduces"])' in decode
    assert decode.count("say(") == 1 and "how_measured(\"where the split token's time goes" in decode
    assert "decode_loss.loss_table(" in decode and "*LOSS_TABLE, *LOSS_NOTE, *WHY)" in decode
    chart = next(c.source for c in seven if c.cell_type == "markdown" and "In this split both rows" in c.source)
    short, _, collapsed = chart.partition("<details>")
    assert "</details>" in collapsed and "α" in collapsed and len(short.splitlines()) <= 8
    run_step = next(c.source for c in eight if "def run_step(name):" in c.source)
    assert "say(two_devices.gap_answer(c))" in run_step
    assert 'how_measured("the two-devices gap, against the all-reduce", textwrap.fill(gap, 110))' in run_step
