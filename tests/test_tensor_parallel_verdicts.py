"""Lesson 07's sentences that read an inequality or a ranking from the run, each branch."""

import pytest

from utils import gpu_specs
from utils.lessons.tensor_parallel import cost, verdicts
from utils.lessons.tensor_parallel.plan import DATASHEET_PAIRS


def test_the_cpu_row_reads_its_inequality_in_every_outcome():
    held = {"ranks": [{"thread_cpu": 15.57e-3, "compute": 15.18e-3},
                      {"thread_cpu": 15.29e-3, "compute": 15.31e-3}]}
    said = verdicts.cpu_row_verdict(held)
    assert "rank 0 15.57 ms against 15.18 ms: at or above it" in said
    assert "rank 1 15.29 ms against 15.31 ms: below it by 0.02 ms, within the 5 % tolerance" in said
    lost = verdicts.cpu_row_verdict({"ranks": [{"thread_cpu": 12.0e-3, "compute": 15.0e-3}]})
    assert "beyond the 5 % tolerance: the model is broken there" in lost and "at least 3.00 ms" in lost
    assert verdicts.cpu_row_verdict({"ranks": [{"thread_cpu": None, "compute": 1.0}]}) == ""


def test_the_real_width_sentence_says_the_ratio_decides_and_isolates_the_link_on_one_gpu():
    rows = [(g, link, d, gpu_specs.KNOWN_GPUS[g].peak_flops[d], gpu_specs.LINKS[link])
            for g, link, d in DATASHEET_PAIRS]
    at = {f"{g}, {link}": cost.model_speedup(p, bw, 0.0, 256, 2, 4096) for g, link, _, p, bw in rows}
    said = verdicts.real_width_sentence(rows, at, 4096, 256)
    assert "the ratio of compute speed to link speed decides it" in said
    assert "every NVLink pair" not in said
    fake = [("A", "slow", "bf16", 1e14, 1e10), ("B", "fast", "bf16", 1e14, 1e11),
            ("C", "x", "bf16", 5e13, 1e10)]
    gains = {"A, slow": 1.9, "B, fast": 1.4, "C, x": 1.5}   # against the model's order: both branches read
    said = verdicts.real_width_sentence(fake, gains, 4096, 256)
    assert "the ratio alone does not order the pairs" in said and "keeps no more of the 2x" in said


def test_the_call_above_the_model_is_worked_from_the_printed_figures():
    """Session 50's reader: 0.49 ms with a 28% residual allows 0.14 ms more (a call up to 0.63 ms, not 0.62),
    and 0.81 - 0.63 = 0.18."""
    above, allowance, allowed, beyond = verdicts.residual_allowance(0.4903e-3, 0.8104e-3, 0.2837)
    assert [f"{x * 1e3:.2f}" for x in (above, allowance, allowed, beyond)] == ["0.32", "0.14", "0.63", "0.18"]
    above, allowance, allowed, beyond = verdicts.residual_allowance(0.4903e-3, 0.5504e-3, 0.2837)   # within it
    assert beyond < 0 and f"{above * 1e3:.2f}" == "0.06"


def test_the_residual_s_allowance_is_named_as_an_excess_beside_the_call_s_excess():
    """Tenth reading: "0.48 ms a call above the model; the residual allows up to 0.48 ms, so 0.36 ms of it
    lies beyond" read as an allowed excess of 0.48 ms. Now the allowance is the excess it allows (0.36 x 32%
    = 0.12 ms), the whole allowed call named apart, and 0.48 - 0.12 = 0.36."""
    said = verdicts.call_against_model(0.36e-3, 0.8401e-3, 0.3190, parts=True)
    assert said.startswith("0.48 ms a call above the model; the fit's 32% residual allows 0.12 ms of that "
                           "excess (a call up to 0.48 ms), so 0.36 ms lies beyond the residual: inside a pass")
    assert "the rank's wait" in verdicts.call_against_model(0.36e-3, 0.8401e-3, 0.3190, parts=False)


def test_a_call_within_or_below_the_residual_says_so():
    assert verdicts.call_against_model(0.36e-3, 0.48e-3, 0.32, parts=True).startswith(
        "within the fit's residual")   # 0.12 above, 0.12 allowed: as printed, nothing lies beyond
    assert verdicts.call_against_model(0.36e-3, 0.24e-3, 0.32, parts=True).startswith(
        "within the fit's residual")   # 0.12 below, 0.12 allowed
    assert verdicts.call_against_model(0.36e-3, 0.22e-3, 0.32, parts=True).startswith(
        "below the model by more than its residual")   # 0.14 below, 0.12 allowed: 0.02 past it
    assert verdicts.call_against_model(0.36e-3, 0.23e-3, 0.32, parts=True).startswith(
        "below the model at the edge of its residual")   # 0.01 past it: the last digit printed (t30_0708)


def _lesson_cells():
    import json
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "notebooks" / "07_tensor_parallel.ipynb"
    return [(c["cell_type"], " ".join("".join(c["source"]).split()))
            for c in json.loads(path.read_text())["cells"]]


def test_the_gantt_caption_says_which_pass_is_drawn_and_how_it_compares_with_the_timed_ones():
    """Session 50's reader: the chart drew a 52.0 ms pass beside timed split passes of 29.6-44.7 ms and one
    device's fastest at 39.9 ms, and said so only in a collapsed block."""
    split, alone = [0.0296, 0.0402, 0.0447], [0.0399, 0.0450]
    slow = verdicts.drawn_pass_caption(1, [0.0520, 0.0530], split, alone)
    assert slow.startswith("The chart draws recorded pass 1 of 2, 52.0 ms")
    assert "slower than every one of 3 timed passes (29.6 to 44.7 ms) of the split" in slow
    assert "slower than every one of 2 timed passes (39.9 to 45.0 ms) on one device" in slow
    # t33_0708 other #5: "slower than every one" is not said again as "slower than one device's fastest"
    assert "slower than one device's fastest pass" not in slow
    assert "on one device: the chart shows who computes and who waits, in what order, not the speed-up" in slow
    quick = verdicts.drawn_pass_caption(2, [0.0520, 0.0290], split, alone)
    assert "faster than every one of 3 timed passes" in quick and "slower than one device's" not in quick
    inside = verdicts.drawn_pass_caption(1, [0.0399], split, alone)   # 39.9 ms: level with one device's best
    assert "within the range of 3 timed passes" in inside and "slower than one device's" not in inside


def test_the_inference_plot_caption_reads_each_line_against_one_devices():
    """Session 50's reader: the plot of section 5 stood without a sentence saying what it shows."""
    def rows(tp, pipe):   # seconds of 8 new tokens per batch; one device at 4.2, 10.1, 35.4 ms a step
        return {"new_tokens": 8, "rows": [
            {"batch": b, "one device": 8 * one, "tensor parallel": 8 * t, "pipeline": 8 * p}
            for b, one, t, p in zip((1, 4, 16), (4.2e-3, 10.1e-3, 35.4e-3), tp, pipe)]}
    said = verdicts.inference_plot_caption(rows((11.0e-3, 20.3e-3, 36.7e-3), (4.5e-3, 15.7e-3, 35.9e-3)))
    assert "one device from 238 to 452, tensor parallel from 91 to 436" in said
    assert "tensor parallel's line lies below one device's at every batch" in said
    assert "pipeline's line lies below one device's at every batch" in said and "latency case" in said
    mixed = verdicts.inference_plot_caption(rows((11.0e-3, 20.3e-3, 30.0e-3), (4.2e-3, 15.7e-3, 35.9e-3)))
    assert "tensor parallel's line lies below one device's at batch 1 and 4, above one device's at batch 16" \
        in mixed
    assert "pipeline's line lies level with one device's at batch 1, below one device's at batch 4 and 16" \
        in mixed


@pytest.mark.parametrize("term, meaning", [
    ("middle half's range", "set aside the highest quarter and the lowest quarter"),
    ("fastest-of ratio", "one device's fastest pass over the split's fastest pass"),
    ("longer-step rank", "the one whose split step took longer")])
def test_the_lessons_terms_are_defined_in_markdown_before_their_first_use(term, meaning):
    first = next((kind, text) for kind, text in _lesson_cells() if term in text)
    assert first[0] == "markdown" and meaning in first[1], f"'{term}' is used before it is defined"


def test_the_pages_captions_and_the_by_construction_bytes_are_in_the_lesson():
    code = " ".join(text for kind, text in _lesson_cells() if kind == "code")
    assert "verdicts.drawn_pass_caption(" in code and "verdicts.inference_plot_caption(" in code
    assert "half the work a rank" not in code   # session 50's reader: an ungrammatical clause
    markdown = [text for kind, text in _lesson_cells() if kind == "markdown" and "same bytes" in text]
    assert markdown and all("by construction" in text for text in markdown)


def test_section_1s_tensor_parallel_pass_goes_to_the_ledger_with_its_rounds(monkeypatch, tmp_path):
    """Session 51: lesson 09's row A21 reads section 1's figure: the median the section prints (report.timed_split),
    the plan's bound and every round's ratio, under ``tensor_parallel_speedup``; the section's cell records it."""
    from utils import devices, ledger
    from utils.lessons.tensor_parallel import report, timelines

    monkeypatch.setenv(ledger.ENV, str(tmp_path))
    alone, split = [0.020] * 5, [0.015, 0.016, 0.0155, 0.0152, 0.0158]
    timelines.record_speedup(alone, split, 2.0, timelines.Blocks())
    got = ledger.read(devices.mode())["tensor_parallel_speedup"]
    printed = report.timed_split(alone, split, 2.0).measured   # "1.30x ± 0.01": the figure section 1 prints
    assert printed.startswith(f"{got['value']:.2f}x") and (got["unit"], got["bound"], got["lesson"]) == ("x", 2.0, "07")
    assert got["rounds"] == [a / s for a, s in zip(alone, split)] and "median of 5 paired rounds" in got["what"]
    assert any("timelines.record_speedup(parallel[0][\"alone_rounds\"], parallel[0][\"split_rounds\"], S.bound, "
               "S.blocks)" in source and "report.timed_split(" in source for kind, source in _lesson_cells())


def test_the_timed_split_reads_rounds_all_on_one_side_as_lesson_09_reads_the_ledger():
    from utils.lessons.tensor_parallel import report

    # 1.04x ± 0.04 covers 1x, but every round is above it: not noise (claims.speedup_verdict's rounds rule);
    # above it as printed (1.01x, not 1.001x, which prints 1.00x: claims.one_side reads rounds as printed)
    one_side = report.timed_split([0.02 * x for x in (1.01, 1.012, 1.04, 1.08, 1.09)], [0.02] * 5, 2.0)
    assert one_side.measured == "1.04x ± 0.04" and one_side.verdict.endswith("(every round above 1.00x)"), one_side
    both_sides = report.timed_split([0.02 * x for x in (0.99, 1.002, 1.04, 1.08, 1.09)], [0.02] * 5, 2.0)
    assert both_sides.verdict == "within noise: no effect shown", both_sides


def test_figures_worked_from_others_use_the_courses_one_rule_as_printed():
    """Session 51: lesson 07 works its sums and ratios from the figures as printed with ``utils.claims`` (no copy
    of the rule of its own): seconds printed in ms to 2 decimals, given back in seconds for the cells' sums."""
    import re

    from utils import claims

    assert verdicts.seconds_as_printed(0.0012345) == claims.as_printed(0.0012345, 2, 1e-3) * 1e-3
    assert f"{verdicts.seconds_as_printed(0.0012345) * 1e3:.2f}" == "1.23"
    assert not hasattr(verdicts, "as_printed")   # one rule, in utils.claims
    code = [text for kind, text in _lesson_cells() if kind == "code"]
    assert not [text for text in code if re.search(r"\bround\(", text)]   # no inline copy in the notebook
    assert any("claims.printed_ratio(measured_x, predicted_x)" in text for text in code)


def test_a_recorded_pass_is_timed_on_rank_0_and_a_longer_window_is_said():
    """Fifth reading, 07 N1: the caption printed 24.1 ms (first span to the next pass's first span) beside a
    27.70 ms window; rank 1 stayed 3.74 ms in the last all-reduce. A pass is rank 0's first span to its last,
    as the timed rounds time it; where the chart's window is longer the caption says by how much and why."""
    from utils.timeline import Span
    from utils.lessons.tensor_parallel import timelines

    def span(rank, name, k, start, end):
        return Span(f"rank {rank} (cpu)", name, k, start, end)
    spans = [span(0, "attention", 0, 0.0, 0.010), span(0, "all-reduce", None, 0.010, 0.012),
             span(0, "ffn", 0, 0.012, 0.024), span(1, "attention", 0, 0.000, 0.010),
             span(1, "all-reduce", None, 0.010, 0.0276), span(1, "ffn", 0, 0.0276, 0.0277),
             span(0, "attention", 1, 0.0241, 0.040), span(1, "attention", 1, 0.0278, 0.040)]
    rank_0 = timelines.pass_bounds([s for s in spans if s.device.startswith("rank 0")])
    assert rank_0 == [(0.0, 0.024), (0.0241, 0.040)]
    drawn = timelines.pass_spans(spans, 0)
    assert len(drawn) == 6 and max(s.end for s in drawn) == 0.0277   # rank 1's late return is drawn
    split, alone = [0.0270, 0.0448], [0.0300]
    back = timelines.late_return_at_end(drawn)   # rank 1 left its last all-reduce 15.60 ms after rank 0
    late = verdicts.drawn_pass_caption(1, [0.0241, 0.0159], split, alone, 0.0277, 0.0, back)
    assert "24.1 ms" in late and "faster than every one of 2 timed passes (27.0 to 44.8 ms)" in late
    assert "The chart's window is longer, 27.70 ms" in late and "rank 1 ended 3.60 ms after rank 0, having " \
        "stayed 15.60 ms in the pass's last all-reduce after rank 0 had returned (a late return), its last " \
        "sub-layer 12.00 ms quicker than rank 0's" in late   # 0.1 ms against rank 0's 12 ms
    early = verdicts.drawn_pass_caption(1, [0.0241], split, alone, 0.0277, 0.0011)
    assert "rank 1 started 1.10 ms before rank 0 and ended 2.50 ms after rank 0: its last sub-layer" in early
    same = verdicts.drawn_pass_caption(1, [0.0241], split, alone, 0.024104, 0.0)
    assert "window is longer" not in same
    assert "window" not in verdicts.drawn_pass_caption(1, [0.0241], split, alone)
    code = " ".join(text for kind, text in _lesson_cells() if kind == "code")
    assert "timelines.pass_bounds(timeline.flatten(parallel[0][\"spans\"]))" in code
    assert "timelines.pass_spans(every_span, k_fast)" in code
