"""Lesson 02, the twenty-seventh reading (t27_02): one reading of a split within noise of its per-process
reference, everywhere (#1); section 8's bytes worked from the activation as printed, 0.775 ms (#2); the
claims row of the three launches read by the lesson's noise rule, with no other yardstick (#3); the closing
names every finding the block names. Fabricated figures, CPU only; each branch."""

from utils.lessons.model_split import report  # loads first: naive reads its verdicts
from utils.lessons.model_split import naive, noise, placement, runs


def _naive(speedups, references):
    return runs.Row(32, 1, "naive", 0.1267, 0.130, [0.06, 0.067], naive=True, speedups=list(speedups),
                    process_bounds=list(references), cpu=[0.06, 0.067], baseline_cpu=0.13, alone=[0.06, 0.067])


# --- #1: above 1x, within noise of a reference clear of 1x: "explained by the reference" everywhere ------------

# 1.17 / 1.16 = 1.01, 1.00, 1.00, 1.00, 1.06 / 1.12 = 0.95: the ratios 1.00 ± 0.00 cover 1; round 1 lies past
ABOVE = _naive([1.17, 1.05, 1.07, 1.01, 1.06], [1.16, 1.05, 1.07, 1.01, 1.12])


def test_a_split_above_1x_within_a_clear_reference_reads_explained_in_every_place():
    assert not noise.noise_of_one(ABOVE) and noise.reference_side(ABOVE, ABOVE.process_bounds) == "within noise"
    assert noise.reference_then(ABOVE, ABOVE.process_bounds) == "explained by the reference"
    claim = report.reference_claim("x", ABOVE, ABOVE.process_bound, "per-process reference", ABOVE.process_bounds)
    block = report.naive_process_reading(ABOVE)
    for said in (report.headline_verdict(ABOVE), block, claim.verdict):
        assert "the median and the other 4 rounds: explained by the reference" in said, said
        assert "no cause to read" not in said, said


def test_no_excess_over_1x_leaves_no_cause_to_read_and_a_weak_reference_explains_nothing():
    # within noise of 1x, and within noise of a clear reference: nothing to explain
    calm = _naive([1.00, 1.01, 0.99, 0.98, 1.01], [1.00, 1.01, 0.99, 0.98, 1.01])
    assert noise.noise_of_one(calm) and noise.reference_then(calm, calm.process_bounds) == "no cause to read"
    # slower than one device, within noise of its reference: nothing over 1x to explain either
    slow = _naive([0.86, 0.93, 0.94, 0.96, 0.99], [0.85, 0.92, 0.95, 0.96, 1.00])
    assert noise.reference_then(slow, slow.process_bounds) == "no cause to read"
    assert "no cause to read" in report.naive_process_reading(slow)
    # above 1x beside a reference itself within noise of 1x: no word here, the weak reference's words instead
    weak = _naive([1.23, 1.00, 1.09, 0.998, 1.08], [1.09, 1.27, 1.31, 0.97, 1.09])
    assert noise.reference_then(weak, weak.process_bounds) == ""
    assert "explained by the reference" not in report.naive_process_reading(weak)
    # not within noise of the reference: no word
    under = _naive([0.90, 0.91, 0.92, 0.91, 0.90], [1.06, 1.07, 1.08, 1.09, 1.10])
    assert noise.reference_then(under, under.process_bounds) == ""


# --- the closing names what the block names ----------------------------------------------------------------------

# within noise of 1x (1.00x ± 0.01); the reference 1.06x ± 0.01 clear of 1x; round 1's 1.00 / 0.96 = 1.04 lies
# past its own reference, though not above the 1x bound (so not past the median + the spread): the spread explains
# it, so no reference is set beside it (t30_02 #1: cell 15's round rule first, then the per-process one)
PAST_OWN = _naive([1.00, 1.01, 0.99, 0.98, 1.01], [0.96, 1.06, 1.06, 1.05, 1.07])


def test_the_closing_says_nothing_left_only_where_the_block_names_no_finding():
    assert noise.noise_of_one(PAST_OWN) and not noise.reference_in_noise_of_one(PAST_OWN.process_bounds)
    assert noise.rounds_past_reference(PAST_OWN, PAST_OWN.process_bounds) == []
    assert naive.rounds_past_words(PAST_OWN) == ""
    block, closing = report.naive_process_reading(PAST_OWN), report.naive_closing(PAST_OWN)
    assert "lies past its own round's reference" not in block and "a finding to explain" not in block
    assert closing.endswith("within noise of it, as theory says: nothing left to explain.")
    calm = _naive([1.00, 1.01, 0.99, 0.98, 1.01], [1.06, 1.06, 1.06, 1.05, 1.07])
    assert noise.rounds_past_reference(calm, calm.process_bounds) == []
    assert report.naive_closing(calm).endswith("within noise of it, as theory says: nothing left to explain.")


# --- #2: the bytes from the activation as printed (0.775 ms), not from 0.77 --------------------------------------


def _worked(seconds):
    return runs.Row(32, 1, "x", seconds, 0.583, [0.05, 0.05], naive=True, speedups=[1.0])


def _placements(activation):
    extra = [0.0090, 0.0099, 0.0124, 0.0149, 0.0160]  # median 12.4, middle three 9.9-14.9: ± 2.5
    return {"layers": {"row": _worked(0.160), "crossings": 1},
            "attn/ffn": {"row": _worked(0.160 + 0.0124), "crossings": 7},
            "extra_rounds": extra, "message": {"tiny": 5.2e-5, "activation": activation, "activation_bytes": 2**20}}


def test_the_bytes_are_worked_from_the_activation_as_the_block_prints_it():
    got = _placements(7.75e-4)
    extra, _, messages, fixed, in_bytes = placement.extra_time(got)
    assert messages == 12 and abs(in_bytes - 12 * (0.775 - 0.052)) < 1e-9  # 8.676, printed 8.7
    said = placement.placement_reading(got, "gloo")
    assert "a 1.0 MiB activation 0.775 ms" in said
    assert "12 x 0.052 = 0.6 ms of fixed cost and 8.7 ms of bytes" in said
    assert "12.4 - 0.6 - 8.7 leaves 3.1 ms" in said
    # an activation of 2 ms or more prints (and is used) to two decimals, three figures as before
    big = placement.extra_time(_placements(2.044e-3))
    assert abs(big[4] - 12 * (2.04 - 0.052)) < 1e-9


# --- #3: the three launches by the noise rule, no "within 0.05 of 1x" ------------------------------------------

S3 = _naive([1.05, 1.06, 1.04, 1.02, 1.11], [1.06, 1.06, 1.05, 1.05, 1.06])  # 1.05x ± 0.01: above 1x
S5 = _naive([0.96, 0.97, 0.96, 0.95, 0.97], [0.96] * 5)  # 0.96x ± 0.01: below 1x
S8 = _naive([1.00, 1.01, 0.99, 0.98, 1.01], [1.0] * 5)  # 1.00x ± 0.01: within noise of 1x


def test_the_claims_row_reads_each_launch_by_the_noise_rule_and_names_the_launch_above_1x_as_a_finding():
    entries = [("section 3", "a", S3), ("section 5", "b", S5), ("section 8", "c", S8)]
    said = report.launches_claim("naive", entries).verdict
    assert said.startswith("by the noise rule, launch by launch: section 3 reads above 1x, section 5 reads below "
                           "1x, section 8 no effect; above the 1x bound in section 3, beyond its noise: a finding to "
                           "explain there"), said
    assert " of 1x across" not in said and "within 0.0" not in said
    # every launch an effect, opposite directions: the same clause, no yardstick
    both = report.launches_claim("naive", [("section 3", "a", S3), ("section 5", "b", S5)]).verdict
    assert both.startswith("the launches disagree on the direction: section 3 above 1x; section 5 below; above "
                           "the 1x bound in section 3") and "within 0.0" not in both
    # none above 1x: no such clause; none with an effect: no effect shown, as the bound says
    slower = report.launches_claim("naive", [("section 5", "b", S5), ("section 8", "c", S8)]).verdict
    assert "theory's" not in slower and slower.startswith("by the noise rule, launch by launch: section 5 reads")
    none = report.launches_claim("naive", [("section 8", "c", S8)]).verdict
    assert none.startswith("within noise of 1x in every launch: no effect shown, as the bound says")
    # two launches above 1x, one within noise: both named
    two = report.launches_claim("naive", [("section 3", "a", S3), ("section 5", "b", S3),
                                          ("section 8", "c", S8)]).verdict
    assert "above the 1x bound in section 3 and section 5, beyond their noise" in two
