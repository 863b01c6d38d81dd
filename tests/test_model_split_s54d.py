"""Lesson 02, fifteenth reading (t15_02): section 3's rounds past median + spread are read in every branch of
its closing and of the claims row of the naive split; section 7's two shares are worded from their figures;
the naive timeline names the round it draws; the per-process rounds at or below 1x are counted."""

import json
from pathlib import Path

from utils.claims import medians_divide_to
from utils.lessons.model_split import noise, report, runs
from utils.timeline import Span

NOTEBOOK = Path(__file__).resolve().parents[1] / "notebooks" / "02_model_split.ipynb"

# the run t15_02 read: section 3's rounds and per-process references
ROUNDS = (1.11, 1.03, 0.96, 0.997, 0.97)
REFERENCES = (1.11, 1.11, 1.14, 0.94, 0.93)


def _naive(speedups=ROUNDS, process_bounds=REFERENCES):
    return runs.Row(32, 1, "gpipe", 0.203, 0.195, [0.083, 0.088], naive=True, speedups=list(speedups),
                    process_bounds=list(process_bounds), cpu=[0.08, 0.08], baseline_cpu=0.195,
                    alone=[0.083, 0.088])


# --- new contradiction 1: "nothing left to explain" beside a round past median + spread --------------------


def test_the_closing_reads_a_round_past_median_and_spread_within_noise_of_1x():
    said = report.naive_closing(_naive())
    # t24_02 #3: round 1 is not past its own round's per-process reference (1.11x), so no finding
    assert said == ("In short, this run's naive split: 1.00x ± 0.03 against its 1x bound; within noise of it, as "
                    "theory says, and nothing left to explain: 1 of 5 rounds (1.11x) lies above the 1.00x bound and past the median + the "
                    "spread (1.00 + 0.03 = 1.03); round 1 is not past its own round's per-process reference "
                    "(1.11x / 1.11x = 1.00x): no finding left.")
    # the same round past its own round's reference (1.11x / 1.00x, past the ratios' 0.98 + 0.03): a finding
    found = report.naive_closing(_naive(process_bounds=(1.05, 1.11, 1.14, 1.06, 1.07)))
    assert found.endswith("(1.00 + 0.03 = 1.03): a finding to explain.")
    # t25_02 #1: a reference itself within noise of 1x (1.00x ± 0.06) reaches no round: a finding, said why
    weak = report.naive_closing(_naive(process_bounds=(1.00, 1.11, 1.14, 1.00, 0.99)))
    assert weak.endswith("(1.00 + 0.03 = 1.03); the per-process reference (1.00x ± 0.06) is itself within noise "
                         "of 1x: it explains no round: a finding to explain.")
    # the other outcome: no round past 1.03: nothing left to explain
    # t30_02 #1: rounds 4 and 5 lie past their own rounds' references (0.997x / 0.94x = 1.06x), but under the 1x
    # bound, within the rounds' spread: no reference is set beside them, neither in the block nor the closing
    past_own = report.naive_closing(_naive((1.03, 1.02, 0.96, 0.997, 0.97)))
    assert past_own.endswith("within noise of it, as theory says: nothing left to explain."), past_own
    assert "lie past their own rounds' references" not in report.naive_process_reading(
        _naive((1.03, 1.02, 0.96, 0.997, 0.97)))
    # the other outcome: no round past 1.03 nor past its own reference: nothing left to explain
    calm = report.naive_closing(_naive((1.03, 1.02, 0.96, 0.997, 0.97), (1.03, 1.02, 0.96, 0.997, 0.97)))
    assert calm.endswith("within noise of it, as theory says: nothing left to explain."), calm
    assert "past the median" not in calm


def test_every_branch_of_the_closing_keeps_the_rounds_past_the_spread():
    # slower than one device, one round far above 1x: the slower verdict, then the round
    slow = report.naive_closing(_naive((0.90, 0.91, 0.92, 0.91, 1.20)))
    assert "slower than one device, as the bound allows" in slow
    assert slow.endswith("Round by round, 1 of 5 rounds (1.20x) lies above the 1.00x bound and past the median "
                         "+ the spread (0.91 + 0.01 = 0.92): a finding to explain.")
    # above 1x, explained by the per-process reference (1.10x): the explanation, then the round
    within = report.naive_closing(_naive((1.08, 1.10, 1.09, 1.14, 1.11), (1.08, 1.10, 1.09, 1.14, 1.11)))
    # its verdict is "above the bound": its rounds are read with the median, not one by one (t16_02 #4)
    assert "explained by each stage's lower cost" in within
    assert "Round by round" not in within
    # the same branch with no round past: no sentence added
    quiet = report.naive_closing(_naive((1.08, 1.10, 1.09, 1.11, 1.11), (1.08, 1.10, 1.09, 1.14, 1.11)))
    assert "Round by round" not in quiet and quiet.endswith("is not measured.")


def test_the_claims_row_keeps_each_launchs_rounds_past_the_spread():
    s5 = runs.Row(32, 1, "gpipe", 0.149, 0.149, [0.07, 0.07], speedups=[1.15, 1.03, 0.81, 1.00, 0.96])
    s8 = runs.Row(32, 1, "gpipe", 0.193, 0.203, [0.09, 0.10], speedups=[1.18, 1.09, 0.91, 1.06, 0.95])
    claim = report.launches_claim("naive", [("section 3", "a", _naive()), ("section 5", "b", s5),
                                            ("section 8", "c", s8)])
    assert claim.verdict.startswith("within noise of 1x in every launch: no effect shown, as the bound says")
    # t24_02 #3: section 3's 1.11x is not past its own round's per-process reference (1.11x): left out
    assert claim.verdict.endswith("; rounds that stay findings to explain (past the spread, reached by no "
                                  "reference): section 5 1.15x, section 8 1.18x")
    # one launch's round only: singular; none: no clause
    ONE_LABEL = "; a round that stays a finding to explain (past the spread, reached by no reference): "
    calm = _naive((1.03, 1.02, 0.96, 0.997, 0.97))
    one = report.launches_claim("naive", [("section 3", "a", calm), ("section 5", "b", s5)]).verdict
    assert one.endswith(f"{ONE_LABEL}section 5 1.15x")
    none = report.launches_claim("naive", [("section 3", "a", calm)]).verdict
    assert "to explain" not in none and "no effect shown" in none


# --- new contradiction 3: "shares that cancel" beside 11% and 16% ------------------------------------------


def _balance(slow_speedups, fast_speedups, predicted):
    slow = runs.Row(32, 4, "gpipe", 0.140, 0.153, [0.04, 0.12], speedups=list(slow_speedups), split_points=(2,))
    fast = runs.Row(32, 4, "gpipe", 0.117, 0.153, [0.08, 0.08], speedups=list(fast_speedups), split_points=(3,))
    return report.balance_reading(slow, fast, predicted)[0]


def test_shares_that_differ_are_said_to_differ_by_their_points():
    # t15_02: 1.09x of 1.22x (11% below), 1.32x of 1.57x (16% below): ratio 1.21x within ± of 1.29x
    said = _balance((1.09,) * 5, (1.32, 1.20, 1.89, 1.30, 1.48), {(2,): 1.22, (3,): 1.57})
    assert "by 11% (unbalanced) and 16% (balanced): shares that differ by 5 points; the paired ratio (" in said
    assert "shares that cancel" not in said and "1.32 / 1.09" not in said  # t39_02 #2: never the medians' division
    # the other outcome: equal shares print "cancel"
    said = _balance((1.20, 1.16, 1.18, 0.93, 1.12), (1.51, 1.46, 1.49, 1.17, 1.41), {(2,): 1.23, (3,): 1.55})
    assert "by 6% (unbalanced) and 6% (balanced): shares that cancel in the ratio" in said


# --- item 2: the lead's half-up division, printed unchanged by lesson 02 ----------------------------------


def test_the_steps_note_prints_the_half_up_division():
    assert medians_divide_to(1.75, 706, 400) == 1.77
    row = runs.Row(128, 8, "gpipe", 0.400, 0.706, [0.3, 0.3], speedups=[1.75, 1.57, 1.83, 1.74, 1.76])
    assert "706 / 400 = 1.77x, beside 1.75x" in noise.steps_note([row])


# --- other problems: the drawn round, the per-process rounds at or below 1x -------------------------------


def test_the_naive_timeline_names_the_round_it_draws():
    spans = [Span("stage 0", "forward", 0, 0.0, 0.09), Span("stage 1", "forward", 0, 0.09, 0.21)]
    label = report.plot_schedule(spans, simulated=True, rounds=list(ROUNDS)).axes[0].get_xlabel()
    assert label.endswith("; bars and busy: round 4 of 5, the median speedup's (0.997x), which need not be the median step")
    source = "".join(json.loads(NOTEBOOK.read_text())["cells"][17]["source"])
    assert "rounds=row.speedups)" in source


def test_the_per_process_rounds_at_or_below_1x_are_counted():
    said = report.naive_process_reading(_naive())
    # t31_02 #1: every such round printed under 1x reads "below"; one printed at 1x, "at or below"
    assert "though 2 of 5 rounds are below 1x (0.94x, 0.93x): a tendency, not a law" in said
    assert "the lowest round" not in said
    one = report.naive_process_reading(_naive(process_bounds=(1.11, 1.11, 1.14, 0.94, 1.05)))
    assert "though 1 of 5 rounds is below 1x (0.94x)" in one
    at = report.naive_process_reading(_naive(process_bounds=(1.11, 1.11, 1.14, 1.0, 1.05)))
    assert "though 1 of 5 rounds is at or below 1x (1.00x)" in at
    every = report.naive_process_reading(_naive(process_bounds=(1.11, 1.11, 1.14, 1.04, 1.05)))
    assert "in every round the two stages alone cost less" in every
