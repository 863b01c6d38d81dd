"""Lesson 02, the twenty-sixth reading (t26_02): section 3 names no round past its own round's per-process
reference where that reference is itself within noise of 1x (one list: ``reference.findings_past``); section
9's idle shares name the "more idle" workers too; a median under its work-scaled reference by more than d is
read by the share of its gain where it is measured; the probe's factor against α is worked from α as the
traffic tables print it; a tie for the largest share is said. Fabricated figures, CPU only; each branch."""

import json
from pathlib import Path

from utils.lessons.model_split import chunks, fit_accuracy, link, noise, report, runs
from utils.lessons.model_split.reference import findings_past, own_reference_explains
from utils.timeline import Span

NOTEBOOK = Path(__file__).resolve().parents[1] / "notebooks/02_model_split.ipynb"
SPANS = [Span("stage 0", "forward", 0, 0.0, 0.05), Span("stage 1", "forward", 0, 0.05, 0.1)]


def _naive(speedups, references):
    return runs.Row(32, 1, "naive", 0.1267, 0.130, [0.06, 0.067], naive=True, speedups=list(speedups),
                    process_bounds=list(references), cpu=[0.06, 0.067], baseline_cpu=0.13, alone=[0.06, 0.067])


# --- #1: a reference within noise of 1x names no round past it; one list everywhere ---------------------------

# the split within noise of 1x (1.03x ± 0.03); the reference 1.02x ± 0.03, itself within noise of 1x; round 1's
# 1.03 / 1.01 = 1.02 lies past the ratios' 0.97 + 0.02 = 0.99
WEAK = _naive([1.03, 1.04, 1.04, 0.98, 0.98], [1.01, 1.08, 1.07, 1.02, 0.98])


def test_a_reference_within_noise_of_1x_names_no_round_past_it_anywhere():
    assert noise.reference_in_noise_of_one(WEAK.process_bounds)
    # round 1's 1.03x lies within the split's own spread (1.03 + 0.03): no reference is set beside it (t30_02 #1)
    assert noise.rounds_past_reference(WEAK, WEAK.process_bounds) == []
    assert noise.past_reference_words(WEAK, WEAK.process_bounds) == ""  # but no place names it a finding
    assert own_reference_explains(WEAK) == [] and findings_past(WEAK) == []  # the one list: empty
    block = report.naive_process_reading(WEAK)
    claim = report.reference_claim("x", WEAK, WEAK.process_bound, "per-process reference", WEAK.process_bounds)
    closing = report.naive_closing(WEAK)
    for said in (block, claim.verdict, closing):
        assert "lies past its own round's reference" not in said and "a finding to explain" not in said, said
    assert block.endswith("under the per-process reference, round by round (each round's speedup over its own "
                          "round's reference: median 0.97x ± 0.02; 3 of 5 rounds under it).")
    assert closing.endswith("within noise of it, as theory says: nothing left to explain.")


def test_the_line_above_the_block_does_not_say_no_cause_while_the_block_reads_the_reference():
    said = report.naive_reading(WEAK, SPANS)
    assert "no cause to read against" not in said
    assert said.endswith("no effect shown, as the 1x bound says, so no excess over 1x for the per-process "
                         "reference (1.02x) to explain.")


def test_a_reference_clear_of_1x_still_names_the_round_past_it():
    # the other branch: the reference 1.10x ± 0.01 stands clear of 1x; rounds 1 and 5 (1.06, 1.07) lie past it
    clear = _naive([1.17, 1.05, 1.07, 1.01, 1.20], [1.10, 1.09, 1.10, 1.11, 1.12])
    assert not noise.reference_in_noise_of_one(clear.process_bounds)
    past = noise.rounds_past_reference(clear, clear.process_bounds)
    assert past == [1, 5] and "rounds 1 and 5 lie past their own rounds' references" in \
        noise.past_reference_words(clear, clear.process_bounds)


# --- #2: "more idle" is said, so that every worker is classed ------------------------------------------------


def _idle_row(schedule, busy, rounds):
    return runs.Row(128, 4, schedule, 0.5, 0.6, busy, speedups=[1.2, 1.19, 1.21, 1.2, 1.2], idle_rounds=rounds)


PLAIN = _idle_row("1f1b", [0.40, 0.385], [[0.20] * 5, [0.22, 0.22, 0.23, 0.24, 0.24]])  # 20 ± 0% / 23 ± 1%
# worker 0: 24 ± 1% wholly above 20 ± 0%; worker 1: 11 ± 1% wholly below 23 ± 1%
MIXED = _idle_row("interleaved ZB", [0.38, 0.445], [[0.23, 0.23, 0.24, 0.25, 0.25], [0.10, 0.10, 0.11, 0.12, 0.12]])


def test_a_worker_wholly_above_plain_1f1b_is_named_more_idle():
    assert chunks._idle_apart(MIXED, PLAIN) == ([1], [], [0])
    said = report.bubble_answer([MIXED], PLAIN, "section 5's launch")
    assert "on some workers only: interleaved ZB (worker 1 only)" in said
    assert " More idle than plain 1F1B (the share ± its spread wholly above it): interleaved ZB on worker 0." in said
    assert "Within what these rounds resolve" not in said


def test_no_worker_above_plain_1f1b_says_no_more_idle():
    less = _idle_row("ZBV", [0.45, 0.445], [[0.10, 0.10, 0.11, 0.12, 0.12]] * 2)
    assert chunks._idle_apart(less, PLAIN) == ([0, 1], [], [])
    assert "More idle" not in report.bubble_answer([less], PLAIN, "x")
    both = _idle_row("interleaved 1F1B", [0.30, 0.30], [[0.4] * 5, [0.4] * 5])  # more idle on both workers
    assert "More idle than plain 1F1B (the share ± its spread wholly above it): interleaved 1F1B on workers 0, 1." \
        in report.bubble_answer([both], PLAIN, "x")


# --- #3: under the work-scaled reference, the share of its gain where the row is measured ------------------------


def _row(m, speedups, cpu_ms, one_ms=814, batch=128, schedule="1f1b") -> runs.Row:
    return runs.Row(batch, m, schedule, 0.5, 0.817, [c / 1e3 for c in cpu_ms], cpu=[c / 1e3 for c in cpu_ms],
                    baseline_cpu=one_ms / 1e3, speedups=list(speedups))


def test_a_median_under_its_work_scaled_reference_by_more_than_d_prints_the_share_of_its_gain():
    under = _row(8, [1.70, 1.77, 1.77, 1.83, 1.60], [378, 411])  # 1.77x ± 0.03 under 1.84x: 0.77 / 0.84 = 92%
    said = report.headline_verdict(under)
    assert said.endswith("; under its work-scaled reference (1.84x): 92% of its gain"), said
    # the claims row prints the same share (one rule)
    claim = report.reference_claim("x", under, under.work_bound, "work-scaled reference")
    assert claim.verdict == "faster, under the reference: 92% of its gain"


def test_under_the_reference_within_d_or_within_noise_of_1x_prints_no_share():
    near = _row(8, [1.66, 1.72, 1.78, 1.84, 1.90], [378, 411])  # 1.78x ± 0.06 covers 1.84x
    assert report.headline_verdict(near).endswith("; within noise of its work-scaled reference (1.84x)")  # t28_02
    assert "% of its gain" not in report.headline_verdict(near)
    flat = _row(2, [0.95, 0.99, 1.01, 1.03, 1.05], [300, 300], one_ms=814)  # within noise of 1x: no gain to share
    assert noise.under_work_reference(flat, flat.work_bound) == ""
    assert noise.under_work_reference(_row(8, [0.90] * 5, [378, 411]), 1.84) == ""  # below 1x: no gain


def test_a_median_above_the_bound_keeps_within_the_work_scaled_reference():
    # 1.80x ± 0.04: at the bound (1.78x) within noise, its median above it, under the 2.07x reference by more
    # than d: section 5's promise, "within the work-scaled reference", stands, with the share "under" says
    # elsewhere of the same relation (t34_02, other: (1.80 - 1) / (2.07 - 1) = 75%)
    above = _row(8, [1.70, 1.76, 1.80, 1.84, 1.90], [350, 350])  # reference 1.78 / 0.86 = 2.07x
    assert report.median_verdict(above).startswith("at the bound (within noise)")
    assert report.past_work_reference(above) == ("within the work-scaled reference (2.07x) (under it by more than d: "
                                                 "75% of its gain)")
    # the median + d reaching the reference: within it, no share
    near = _row(8, [1.50, 1.63, 1.85, 2.07, 2.20], [350, 350])  # 1.85x ± 0.22 reaches 2.07x
    assert report.past_work_reference(near) == "within the work-scaled reference (2.07x)"


# --- #4: the probe against α as the tables print α --------------------------------------------------------------


def test_the_probe_is_divided_by_alpha_as_printed():
    fit = runs.Link(18.5e-6, 2.56e9, "pinned workers", 0.99, True)
    assert fit_accuracy.alpha_text(fit.alpha) == "18.5 µs = 0.0185 ms"
    said = link.fixed_cost_reading([], fit, 0.051e-3, 0.463e-3, 2**20)
    assert said.startswith("The 4-byte probe's 0.051 ms is 2.76x the fit's α (18.5 µs = 0.0185 ms)"), said
    assert "2.68x" not in said  # 0.051 / 0.019, the rounded α


# --- other: the tie for the largest share; the fit's accuracy beside the probe's price ---------------------------


def test_cell_38_names_the_largest_share_as_largest_share_does_a_tie_said():
    cells = json.loads(NOTEBOOK.read_text())["cells"]
    source = "".join(cells[38]["source"])
    assert "report.largest_share(sweep.rows, ALPHA, BETA)" in source and 'worst_name.startswith("tied")' in source
    a = runs.Row(128, 8, "gpipe", 0.310, 0.54, [0.2, 0.2], messages=16, bytes_sent=8 * 2**20, speedups=[1.75])
    b = runs.Row(128, 8, "1f1b", 0.312, 0.54, [0.2, 0.2], messages=16, bytes_sent=8 * 2**20, speedups=[1.77])
    top, name = link.largest_share([a, b], 18.5e-6, 2.56e9)
    assert top is a and name == "tied as printed: batch 128 gpipe m=8 and batch 128 1f1b m=8"


def test_a_band_the_fit_alone_cannot_decide_points_to_the_probe():
    rows = [runs.Row(b, 1, "naive", 1.0, 1.0, [0.5, 0.5], naive=True, speedups=[1.0] * 5) for b in (1, 2)]
    part = {id(rows[0]): 0.06, id(rows[1]): 0.30}
    said = link.fit_band(rows, part, 0.60)
    assert "not decided by the fit's accuracy alone (section 8's probe times one message" in said
    assert "not decided at this fit's accuracy" not in said
