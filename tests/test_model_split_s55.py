"""Lesson 02, sixteenth reading (t16_02, new contradictions 1-6): every verdict but "above the bound" reads its
rounds one by one; the split is judged against its per-process reference by paired per-round ratios, one
verdict in every place; opposite effects named by side; a tie of the largest link share said as a tie."""

from utils.lessons.model_split import report, runs

# section 3 of the run the reader saw: 1.04x ± 0.01, each round beside its own round's per-process reference
SPLIT_ROUNDS = [0.88, 1.06, 1.04, 1.02, 1.04]
REFERENCES = [0.98, 1.10, 1.22, 0.95, 0.95]


def _naive(speedups=SPLIT_ROUNDS, process_bounds=REFERENCES) -> runs.Row:
    return runs.Row(32, 1, "gpipe", 0.193, 0.189, [0.094, 0.092], naive=True, speedups=list(speedups),
                    process_bounds=list(process_bounds), alone=[0.094, 0.099], split_points=(3,))


def _layers(speedups=(0.98, 0.95, 0.98, 1.02, 0.97)) -> runs.Row:
    return runs.Row(32, 1, "layers", 0.161, 0.159, [0.075, 0.081], speedups=list(speedups))


def _gpipe_m1() -> runs.Row:
    return runs.Row(32, 1, "gpipe", 0.19, 0.188, [0.09, 0.09], speedups=[0.99, 1.02, 0.97, 1.02, 0.96])


def test_1_a_slower_verdict_counts_its_rounds_above_the_bound():
    said = report.headline_verdict(_layers())  # 0.98x ± 0.01, one round 1.02x past 0.99
    assert said == ("slower than one device: no speed-up; 1 of 5 rounds above the bound (up to 1.02x): beyond "
                    "the rounds' spread of the median (± 0.01): a finding to explain")
    # the other outcome: every round at or under the bound, nothing counted
    assert report.headline_verdict(_layers((0.98, 0.95, 0.98, 0.99, 0.97))) == "slower than one device: no speed-up"


def test_2_the_split_against_its_reference_is_one_paired_verdict_in_every_place():
    r = _naive()  # ratios 0.90 0.96 0.85 1.07 1.09: median 0.96x ± 0.09 covers 1, 3 of 5 under
    paired = ("within noise of the per-process reference, round by round (each round's speedup over its own "
              "round's reference: median 0.96x ± 0.09; 3 of 5 rounds under it)")
    head = report.headline_verdict(r)
    claim = report.reference_claim("c", r, r.process_bound, "per-process reference", r.process_bounds).verdict
    # t29_02: the headline verdict says only that the reference explains nothing; section 3's sentence sets the
    # pairing round by round beside it, a sentence of its own (no nested brackets)
    for said in (report.naive_reading(r, []), report.naive_process_reading(r), report.naive_closing(r), claim):
        assert paired in said and "by more than the rounds' spread" not in said
        assert "a finding to explain" in said  # the reference is itself within noise of 1x: it explains nothing
    assert paired not in head and "it explains nothing" in head and "a finding to explain" in head
    # above the reference round by round: a finding, everywhere
    above = _naive([1.20, 1.22, 1.21, 1.19, 1.20], [1.05, 1.06, 1.04, 1.05, 1.05])
    claim = report.reference_claim("c", above, above.process_bound, "per-process reference", above.process_bounds)
    for said in (report.headline_verdict(above), report.naive_process_reading(above), report.naive_closing(above),
                 claim.verdict):
        assert "above the per-process reference by more than the paired spread, round by round" in said
    # under a reference clear of 1x: explained by it, and the claims row reads the share of its gain
    under = _naive([1.08, 1.10, 1.09, 1.10, 1.09], [1.20, 1.22, 1.21, 1.19, 1.20])
    assert report.headline_verdict(under).startswith("above the bound, under the per-process reference, round by "
                                                     "round") and "explained by the reference" in \
        report.headline_verdict(under)
    claim = report.reference_claim("c", under, under.process_bound, "per-process reference", under.process_bounds)
    assert claim.verdict.endswith("every round under it): explained by the reference; round by round it falls 10% short of it (1 - 0.90)")  # t27_02, t34_02 #1


def test_3_an_at_the_bound_verdict_reads_every_round_above_it_round_by_round():
    zbv = runs.Row(128, 4, "ZBV", 0.369, 0.72, [0.3, 0.3], speedups=[2.05, 2.03, 1.82, 1.81, 1.95],
                   bound_override=1.92)
    said = report.headline_verdict(zbv)
    assert said.startswith("at the bound (within noise); 3 of 5 rounds above the bound (up to 2.05x, 2 of them past "
                           "2 devices' 2x): 2.05x, 2.03x past 2 devices' 2x: a finding to explain by that alone")
    assert said.endswith("the other round: within the rounds' spread of the median (± 0.11), which explains it")
    assert "read with the median" not in said
    # the other outcome: above the bound, the rounds are read with the median
    over = runs.Row(128, 4, "1f1b", 0.380, 0.639, [0.270, 0.267], speedups=[1.74, 1.68, 1.74, 1.66, 1.70])
    assert report.headline_verdict(over).endswith("; 5 of 5 rounds above the bound, read with the median")


def test_4_an_above_the_bound_split_reads_its_rounds_with_the_median_in_the_closing_and_claims_row():
    r = _naive()  # 1.06x lies past 1.04 + 0.01, but the verdict is "above the bound"
    assert report.headline_verdict(r).endswith("4 of 5 rounds above the bound, read with the median")
    assert "Round by round" not in report.naive_closing(r)
    claim = report.launches_claim("x", [("section 3", "a", r), ("section 8", "c", _layers())])
    assert claim.verdict.endswith("; a round that stays a finding to explain (past the spread, reached by no "
                                  "reference): section 8 1.02x; past the spread too, but read with its launch's "
                                  "median (above the bound, itself the finding to explain): section 3's 1.06x")  # t39_02
    # the other outcome: within noise of 1x, a round past the spread is read round by round
    noisy = _naive([1.00, 1.01, 0.99, 1.00, 1.05], [1.0, 1.0, 1.0, 1.0, 1.0])
    assert "but 1 of 5 rounds (1.05x) lies above the 1.00x bound" in report.naive_closing(noisy)


def test_5_launches_that_read_opposite_effects_are_named_by_side():
    entries = [("section 3", "a", _naive()), ("section 5", "b", _gpipe_m1()), ("section 8", "c", _layers())]
    note = report.same_step_note(entries)
    assert ("disagree on whether there is an effect: section 3 reads above 1x, section 8 reads below 1x, "
            "section 5 none") in note
    claim = report.launches_claim("x", entries)
    assert claim.verdict.startswith("by the noise rule, launch by launch: section 3 reads above 1x, section 8 "
                                    "reads below 1x, section 5 no effect")


def _traffic_row(schedule: str, seconds: float) -> runs.Row:
    return runs.Row(128, 4, schedule, seconds, 0.72, [0.3, 0.3], messages=40, bytes_sent=40 * 2**20)


def test_6_the_largest_link_share_says_a_tie_as_printed():
    alpha, beta = 168.1e-6, 1.77e9
    one, zb = _traffic_row("interleaved 1F1B", 0.391), _traffic_row("interleaved ZB", 0.392)
    assert f"{report.step_share(one, alpha, beta):.1%}" == f"{report.step_share(zb, alpha, beta):.1%}"
    top, name = report.largest_share([one, zb], alpha, beta)
    assert name == "tied as printed: batch 128 interleaved 1F1B m=4 and batch 128 interleaved ZB m=4"
    # the other outcome: one row alone at the top
    slow = _traffic_row("gpipe", 0.700)
    top, name = report.largest_share([slow, zb], alpha, beta)
    assert top is zb and name == "batch 128, interleaved ZB m=4"
