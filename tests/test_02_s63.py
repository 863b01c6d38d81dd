"""Lesson 02, the twenty-fifth reading (t25_02): a round past the rounds' spread under a per-process reference
that is itself within noise of 1x stays a finding in every place that reads it (section 3's sentence, the
same-step note's verdict, the claims row), and the reference's own ± is printed. Fabricated figures."""

from utils.lessons.model_split import report  # loads first: it re-exports naive, which reads it
from utils.lessons.model_split import naive, reference, rounds_above, runs


def _naive(speedups, references):
    return runs.Row(32, 1, "naive", 0.1, 0.1, [0.05, 0.05], naive=True, speedups=list(speedups),
                    process_bounds=list(references), alone=[0.07, 0.074])


# a split within noise of 1x (0.92x ± 0.10), one round (1.12x) past 0.92 + 0.10; its own round's reference
# 1.20x reaches it, but the reference 1.06x ± 0.12 covers 1x (its rounds on both sides)
WEAK = _naive([1.12, 0.92, 0.77, 0.79, 0.98], [1.20, 0.96, 0.97, 1.21, 1.06])
# the same split under a reference clear of 1x (1.20x ± 0.01): its own round's reference reaches round 1
STRONG = _naive([1.12, 0.92, 0.77, 0.79, 0.98], [1.20, 1.19, 1.21, 1.20, 1.20])


def test_weak_reference_explains_no_round_whatever_the_median():
    assert reference.process_reference_noise(WEAK) and reference.own_reference_explains(WEAK) == []
    assert reference.findings_past(WEAK) == [1.12]
    said = naive.rounds_past_words(WEAK)
    assert said.endswith("; the per-process reference (1.06x ± 0.12) is itself within noise of 1x: it explains "
                         "no round: a finding to explain")
    assert "no finding left" not in naive.naive_closing(WEAK)


def test_strong_reference_explains_its_own_round_everywhere():
    assert not reference.process_reference_noise(STRONG)
    assert reference.own_reference_explains(STRONG) == [1] and reference.findings_past(STRONG) == []
    assert naive.rounds_past_words(STRONG).endswith(": no finding left")
    words = rounds_above.rounds_above_bound(STRONG)  # the verdict the same-step note and tables print
    assert words.endswith("1.12x past the rounds' spread, but not past its own round's per-process reference: "
                          "no finding") and "a finding to explain" not in words
    weak = rounds_above.rounds_above_bound(WEAK)
    assert "a finding to explain" in weak and "per-process" not in weak


def test_claims_row_and_same_step_note_agree_with_section_3():
    for row, finding in ((WEAK, True), (STRONG, False)):
        entries = [("section 3", "hand-written", row)]
        claim = naive.launches_claim("naive", entries)
        note = naive.same_step_note(entries)
        assert ("reached by no reference): section 3 1.12x" in claim.verdict) == finding
        assert ("a finding to explain" in note) == finding
        assert ("a finding to explain" in report.headline_verdict(row)) == finding


def test_process_reading_prints_the_references_spread():
    said = naive.naive_process_reading(WEAK)
    assert "gives the per-process reference: 1.06x ± 0.12, the median of those ratios ± their spread" in said
    assert "its ± 0.12 covers 1x, so the reference is itself within noise of 1x" in said
    assert "covers 1x" not in naive.naive_process_reading(STRONG)


# --- #2: section 8's extra time beyond the messages, split by the stages' measured work ------------------------

from utils.lessons.model_split import placement  # noqa: E402


def _worked(seconds, cpu, cpu_workers=True):
    return runs.Row(32, 1, "x", seconds, 0.583, [0.05, 0.05], naive=True, speedups=[1.0], cpu=cpu,
                    baseline_cpu=0.5, cpu_workers=cpu_workers)


def _placements(placed_cpu, layers_cpu=(0.080, 0.080)):
    """+97.4 ± 12.6 ms for 12 more messages (12 x 0.106 = 1.3 ms fixed, 12 x 0.49 = 5.9 ms of bytes)."""
    extra = [0.0800, 0.0848, 0.0974, 0.1100, 0.1200]  # median 97.4, middle three 84.8-110.0: ± 12.6
    return {"layers": {"row": _worked(0.160, list(layers_cpu)), "crossings": 1},
            "attn/ffn": {"row": _worked(0.160 + 0.0974, placed_cpu), "crossings": 7},
            "extra_rounds": extra, "message": {"tiny": 1.06e-4, "activation": 5.96e-4, "activation_bytes": 2**20}}


def test_a_work_rise_short_of_the_rest_accounts_for_part_of_it_the_rest_is_waiting():
    got = _placements([0.0945, 0.0945])  # +29 ms, as the table prints each stage (whole ms)
    more = placement.printed_work_rise(got)
    assert 0 < more < 90.2
    line, said = placement.placement_split(got), placement.placement_reading(got, "gloo")
    note = placement.extra_note(got)
    assert f"the other {97 - more:.0f} ms is waiting" in line  # at the line's digits: whole ms, not "68.0"
    assert (f"97.4 - 1.3 - 5.9 leaves 90.2 ms that the messages do not explain: of the 90.2 ms, the stages' "
            f"measured work accounts for up to {more:+.0f} ms (their CPU time, sends and receives included); the "
            "rest is waiting (for a message, or for the other stage)") in said
    assert "did not measure" not in said and "not explained by this run" not in note
    assert note.endswith(f"its extra messages explain 7.2 ms, of the other 90.2 ms, the stages' measured work "
                         f"accounts for up to {more:+.0f} ms (their CPU time, sends and receives included); the "
                         "rest is waiting")


def test_a_work_rise_at_or_below_zero_and_no_work_measured():
    fell = _placements([0.075, 0.075])  # the work fell: none of the extra time is work
    assert placement.printed_work_rise(fell) < 0
    assert "the stages' measured work accounts for none (it rose by -10 ms" in placement.extra_note(fell)
    none = _placements([])  # no work measured: the run says so
    none["layers"]["row"].cpu = []
    assert placement.printed_work_rise(none) is None
    assert "this run did not measure where it went" in placement.placement_reading(none, "gloo")
    assert placement.extra_note(none).endswith("90.2 ms are not explained by this run")
    gpu = _placements([0.0945, 0.0945])
    for name, busy in (("layers", [0.080, 0.080]), ("attn/ffn", [0.0945, 0.0945])):  # device time on GPUs
        gpu[name]["row"].cpu_workers, gpu[name]["row"].busy = False, busy
    rise = placement.printed_work_rise(gpu)
    assert f"accounts for up to {rise:+.0f} ms (their device time); the rest is waiting" in placement.extra_note(gpu)
