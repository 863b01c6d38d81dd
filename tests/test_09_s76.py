"""Lesson 09, the thirty-eighth reading (t38_09): rows A10 and B5 read lesson 02's launches of the split alone
as their check reads them, where every launch holds a finding to explain (#1); rounds that the work-scaled
reference reaches are no finding under a bound beyond noise, in the rows and the note alike (#2); row A19 ranks
neighbours only where their spreads separate them (#3); row B14 keeps lesson 01's range (#4); row B2 prints
every message time in whole µs, as row B10 does (#5); row B12 calls a tie a tie (#6); PowerSGD, expandable
segments and DistributedSampler are defined where first used (#7). Every branch on fabricated figures."""

from __future__ import annotations

from test_articles_checked import _figures, _recorded

from utils import machine
from utils.lessons.articles_checked import claims, evidence, split_alone, verdicts

# lesson 02's own verdicts, one per launch, as the ledger keeps them (``naive.launch_fields``)
FOUND = [{"where": "section 3", "verdict": "within noise: no effect shown; 3 of 5 rounds above the bound: the "
          "other 2: 1 of them beyond the rounds' spread of the median (± 0.06): a finding to explain"},
         {"where": "section 5", "verdict": "above the bound: a finding to explain"},
         {"where": "section 8", "verdict": "above the bound, within the work-scaled reference: explained by the "
          "reference, except 1.09x past the median + spread: a finding to explain"}]
QUIET = [FOUND[0] | {"verdict": "within noise: no effect shown"}, *FOUND[1:]]


def _m(launch_rounds):
    split = _recorded(1.0, 1.0, reference=1.04, lesson="02", launches=[1.00, 1.03, 1.04],
                      launch_spreads=[0.06, 0.01, 0.02], launch_rounds=launch_rounds, rounds=[1.0] * 5)
    return _figures(naive_split=split, pipeline=_recorded(1.6, 1.78), ddp=_recorded(1.6))


def test_launches_that_each_hold_a_finding_read_above_the_bound_in_the_evidence_and_the_check():
    m = _m(FOUND)
    for claim_id in ("A10", "B5"):
        row = verdicts.judge(claims.BY_ID[claim_id], m, {})
        assert row.check == verdicts.ABOVE, (claim_id, row.check)
        assert f"against a 1x bound, {split_alone.FINDING_IN_EVERY_LAUNCH}: a finding to explain" in row.evidence
        assert split_alone.LAUNCHES_DISAGREE not in row.evidence


def test_launches_where_one_holds_no_finding_stay_inconclusive_in_both():
    m = _m(QUIET)
    for claim_id in ("A10", "B5"):
        row = verdicts.judge(claims.BY_ID[claim_id], m, {})
        assert row.check == verdicts.NOISY, (claim_id, row.check)
        assert f"against a 1x bound, {split_alone.LAUNCHES_DISAGREE}" in row.evidence


def test_b2_prints_every_message_time_in_whole_microseconds_as_b10_does():
    sizes = evidence.LINK_SIZES
    times = [1.07e-4 if n == 4 else 1.15e-4 if n == 2**12 else 1e-4 + n / 4e9 for n in sizes]
    m = _figures() | {"link": machine.link_fit("gloo", sizes, times),
                      "threads": {"step_s": 0.019, "gradient_bytes": 1_700_000}}
    b2 = verdicts.judge(claims.BY_ID["B2"], m, {}).evidence
    b10 = verdicts.judge(claims.BY_ID["B10"], m, {}).evidence
    assert "1 MiB 362 µs and 4 MiB 1149 µs" in b2, b2
    assert "1 MiB 362 µs" in b10 and "0.36 ms" not in b2


# --- #2: one rule for rounds above a bound, in the row and in the note under §1's counts ----------------------

ZBV = {"value": 1.83, "bound": 1.92, "reference": 1.98, "rounds": [1.96, 1.83, 1.79, 1.81, 1.94]}


def test_rounds_the_work_scaled_reference_reaches_are_no_finding_under_a_bound_beyond_noise():
    from utils.lessons.articles_checked import figures
    assert not figures.rounds_finding(ZBV)  # 1.83x + 0.07 < 1.92x, and 1.98x + 0.07 reaches both rounds
    assert figures.rounds_finding(ZBV | {"reference": 1.85})  # a reference that reaches neither: a finding


# --- #4: lesson 01's range where its rounds disagree ----------------------------------------------------------

def test_b14_keeps_lesson_01s_range_where_its_rounds_disagree():
    from utils.lessons.articles_checked import lesson_01_pairs
    gelu = {"value": 4.38, "fastest": 3.84, "slow_ms": 13.3, "fast_ms": 3.46,
            "rounds": [4.38, 3.84, 3.02, 4.45, 4.77]}
    said, _ = lesson_01_pairs.lesson_01_figures(gelu, ("GELU op by op", "fused"))
    assert said.endswith("median 4.38x ± 0.31 (lesson 01 §5: known only as 3.84x to 4.38x: its rounds disagree)")
    agree = gelu | {"fastest": 4.30, "slow_ms": 13.3, "fast_ms": 3.09}
    assert "known only" not in lesson_01_pairs.lesson_01_figures(agree, ("GELU op by op", "fused"))[0]


# --- #6: zeroed weights within noise of the dense layer are a tie, never a gain or a loss -------------------

def test_b12_calls_a_ratio_within_noise_the_same_time():
    from utils.lessons.articles_checked import zeroed
    for rounds in ([0.99, 0.98, 1.00, 0.99, 1.01], [1.01, 1.02, 1.00, 0.99, 1.01]):
        said = zeroed.reading({"dense": 1e-3, "zeroed": 1e-3, "zeroed_rounds": rounds}, 0.02)
        assert "within noise of 1x, the same time, no gain and no loss" in said, said
        assert "faster," not in said and "slower" not in said
    beyond = zeroed.reading({"dense": 1e-3, "zeroed": 1.1e-3, "zeroed_rounds": [1.10, 1.09, 1.11, 1.10, 1.12]}, 0.02)
    assert " (slower, beyond" in beyond, beyond


# --- #3: row A19 ranks neighbours only where their spreads separate them --------------------------------------

def test_a19_says_neighbours_within_noise_tie_and_names_each_as_nearest():
    from utils.lessons.articles_checked import wording
    run = {"interleaved 1F1B": (1.88, 0.03), "ZBV": (1.83, 0.07), "pipeline": (1.78, 0.05),
           "data parallel": (1.74, 0.04), "interleaved ZB": (1.71, 0.02)}
    said = wording.ranking_words(run)
    assert ("interleaved 1F1B (1.88x ± 0.03), ZBV (1.83x ± 0.07), pipeline (1.78x ± 0.05), data parallel (1.74x "
            "± 0.04) and interleaved ZB (1.71x ± 0.02) tie, each within noise of the next") in said, said
    assert "below" not in said
    kept = {name: x / 2 for name, (x, _) in run.items()}
    nearest = wording.kept_most_words(kept, spreads={name: t for name, (_, t) in run.items()})
    assert "(interleaved 1F1B and ZBV came nearest, 94% and 92%, within noise of each other)" in nearest, nearest


# --- #7: terms defined where the page first uses them ---------------------------------------------------------

def test_powersgd_expandable_segments_and_distributed_sampler_are_defined_at_first_use():
    from utils.lessons.articles_checked import figures
    assert "expandable segments, PyTorch's allocator setting that lets a reserved segment grow" in \
        claims.BY_ID["B7"].why
    assert "PowerSGD sends a low-rank approximation of each gradient matrix" in claims.BY_ID["B8"].why
    walk = [("sampler", "no error, but both ranks train on the same batches (no DistributedSampler; losses 1, 1)")]
    assert "a DistributedSampler, the sampler that gives each rank its own share of the data" in \
        figures.walk_told(walk)


# t39 run: section 5's launch, slower than one device, held a finding only against its work-scaled reference
AGAINST_REFERENCE = [FOUND[0], {"where": "section 5", "verdict": "slower than one device: no speed-up; above its "
                                "work-scaled reference (0.94x) by more than the rounds' spread (± 0.00): a finding "
                                "to explain"}, FOUND[2]]


def test_a_launch_whose_only_finding_is_against_its_reference_holds_none_past_the_1x_bound():
    assert split_alone.launch_findings(_m(AGAINST_REFERENCE)["results"]["naive_split"].record) == [True, False, True]
    for claim_id in ("A10", "B5"):
        row = verdicts.judge(claims.BY_ID[claim_id], _m(AGAINST_REFERENCE), {})
        assert split_alone.FINDING_IN_EVERY_LAUNCH not in row.evidence
        assert f"against a 1x bound, {split_alone.LAUNCHES_DISAGREE}" in row.evidence


# t40 run: every launch's median within noise of 1x, each with a round lesson 02 reads as a finding
ROUNDS_ONLY = [{"where": w, "verdict": "within noise: no effect shown; 2 of 5 rounds above the bound (up to 1.12x): "
                "1 of them beyond the rounds' spread of the median (± 0.03): a finding to explain"}
               for w in ("section 3", "section 5", "section 8")]


def test_launches_alike_in_their_medians_but_each_with_a_round_finding_read_above_the_bound():
    for claim_id in ("A10", "B5"):
        row = verdicts.judge(claims.BY_ID[claim_id], _m(ROUNDS_ONLY), {})
        assert f"against a 1x bound, {split_alone.FINDING_IN_EVERY_LAUNCH}: a finding to explain" in row.evidence
        assert "none of its 3 launches above the 1x bound" not in row.evidence
