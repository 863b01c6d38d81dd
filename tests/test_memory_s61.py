"""Twenty-third reading, lesson 06 (t23_0506): a round of the middle half, which the ± is made from, is never
named as lying beyond the ±, and the rounds named are counted, so that they are always the fewer (#1).
Twenty-seventh reading (t27_0506, other problems): a round is named only where it lies more than 0.02 (the
lesson's 2 % floor) past both bands, so the two extremes of 5 rounds are not named by construction."""
from utils.lessons.memory import summary, threads_rounds


def test_the_middle_half_is_what_the_spread_halves():
    assert threads_rounds.middle_half([0.93, 0.96, 0.93, 0.75, 0.90]) == (0.90, 0.93)
    assert threads_rounds.middle_half([1.04, 1.03, 1.07, 1.06, 1.06, 1.03, 1.04]) == (1.03, 1.06)
    assert threads_rounds.middle_half([1.11, 1.15, 1.50]) is None   # under 4 rounds: half the range instead


def test_a_round_at_the_middle_halfs_end_is_not_called_outlying():
    # 0.93x ± 0.02 from (0.93 - 0.90) / 2: the 0.90x round built the ± and lies in the middle half; the band
    # 0.90-0.95x: 0.98x lies 0.03 above it, 0.75x 0.15 below it, both named
    said = summary.time_verdict(0.93, 0.02, "fp32", [0.93, 0.98, 0.93, 0.75, 0.90])
    assert said == ("faster than fp32 beyond noise; round 2's 0.98x and round 4's 0.75x lie more than 0.02 "
                    "outside both the rounds' middle half (0.90-0.93x) and the ± (0.93 ± 0.02: 0.91-0.95x): 2 of "
                    "5 rounds, outlying moments of this run")
    assert "round 5" not in said
    # 0.96x and 0.97x lie within 0.02 above the band's 0.95x: the highest of 5, outside it by construction,
    # is not named; 0.75x alone is
    for high in (0.96, 0.97):
        one = summary.time_verdict(0.93, 0.02, "fp32", [0.93, high, 0.93, 0.75, 0.90])
        assert one.endswith("round 4's 0.75x lies more than 0.02 outside both the rounds' middle half "
                            "(0.90-0.93x) and the ± (0.93 ± 0.02: 0.91-0.95x): 1 of 5 rounds, an outlying moment of "
                            "this run") and "round 2" not in one, one


def test_the_margin_counts_on_both_sides():
    # 1.01 ± 0.04 from the middle half 0.97-1.05x (t27's cross-entropy): 0.95-1.07x named past, the rest not
    numbered = list(enumerate([1.05, 0.90, 0.97, 1.01, 1.06], 1))
    assert threads_rounds.outlying_rounds(numbered, 1.01, 0.04) == [(2, 0.90)]   # 1.06: 0.01 past 1.05
    assert threads_rounds.outlying_rounds(list(enumerate([1.05, 0.95, 0.97, 1.01, 1.08], 1)), 1.01, 0.04) \
        == [(5, 1.08)]                                                              # 0.95: 0.02, not more
    assert threads_rounds.outlying_rounds(list(enumerate([1.05, 0.94, 0.97, 1.01, 1.07], 1)), 1.01, 0.04) \
        == [(2, 0.94)]                                                              # 1.07: 0.02, not more
    assert threads_rounds.outlying_clause(list(enumerate([1.05, 0.96, 0.97, 1.01, 1.06], 1)), 1.01, 0.04) == ""
    # no margin: the band's edges alone, as before, said without "more than"
    bare = threads_rounds.outlying_clause(numbered, 1.01, 0.04, margin=0.0)
    assert bare == ("; round 2's 0.90x and round 5's 1.06x lie outside both the rounds' middle half (0.97-1.05x) "
                    "and the ± (1.01 ± 0.04: 0.97-1.05x): 2 of 5 rounds, outlying moments of this run")


def test_a_middle_half_of_one_value_prints_once_and_the_floor_still_counts():
    said = summary.time_verdict(0.91, 0.02, "fp32", [0.91, 0.91, 0.91, 0.77, 0.96])
    assert ("round 4's 0.77x and round 5's 0.96x lie more than 0.02 outside both the rounds' middle half (0.91x) "
            "and the ± (0.91 ± 0.02: 0.89-0.93x): 2 of 5 rounds") in said
    # 0.92x lies outside the middle half but within the ± (the 2 % floor): not named
    assert "round" not in summary.time_verdict(0.91, 0.02, "fp32", [0.91, 0.91, 0.91, 0.92, 0.90])


def test_a_middle_half_wider_than_the_spread_on_one_side_names_nothing_inside_it():
    # median 1.10, middle half 1.04-1.11, ± 0.04 (1.06-1.14): the 1.04x round lies beyond the ± but in the
    # middle half, so only the 1.01x and 1.30x rounds are named, each more than 0.02 past 1.04-1.14x
    rounds = [1.04, 1.10, 1.01, 1.10, 1.11, 1.30]
    numbered = list(enumerate(rounds, 1))
    assert threads_rounds.middle_half(rounds) == (1.04, 1.11)
    assert threads_rounds.outlying_rounds(numbered, 1.10, 0.04) == [(3, 1.01), (6, 1.30)]
    near = list(enumerate([1.04, 1.10, 1.03, 1.10, 1.11, 1.30], 1))   # 1.03x: 0.01 below the middle half's 1.04
    assert threads_rounds.outlying_rounds(near, 1.10, 0.04) == [(6, 1.30)]
    assert "2 of 6 rounds, outlying moments" in threads_rounds.outlying_clause(numbered, 1.10, 0.04)


def test_under_four_rounds_the_clause_reads_the_spread_alone():
    said = threads_rounds.outlying_clause([(1, 1.11), (2, 1.15), (3, 1.50)], 1.15, 0.20)
    assert said == ("; round 3's 1.50x lies more than 0.02 beyond the ± (1.15 ± 0.20: 0.95-1.35x): an outlying "
                    "moment of this run")
    assert threads_rounds.outlying_clause([(1, 1.03), (2, 1.04), (3, 1.05), (4, 1.04)], 1.04, 0.02) == ""
    # 0.95-1.35x: 1.37x and 0.93x lie 0.02 out, not more; 1.38x and 0.92x are named
    assert threads_rounds.outlying_clause([(1, 0.93), (2, 1.15), (3, 1.37)], 1.15, 0.20) == ""
    both = threads_rounds.outlying_clause([(1, 0.92), (2, 1.15), (3, 1.38)], 1.15, 0.20)
    assert both.startswith("; round 1's 0.92x and round 3's 1.38x lie more than 0.02 beyond the ±")


def test_the_same_step_timed_in_two_sections_is_reconciled_in_every_outcome():
    # #3: fabricated fastest rounds (s) against another section's; the gap worked from the ms as printed
    from utils.lessons.memory.report import same_step_apart
    above = same_step_apart("one batch here", 0.0890, 0.0839, "section 2's step", "the micro-batch steps")
    assert above.startswith("one batch here, 89.0 ms, is 6.1% above section 2's step (83.9 ms), beyond the "
                            "lesson's 2% noise")
    assert "(the micro-batch steps)" in above and "never a time from another section" in above
    below = same_step_apart("one batch here", 0.0800, 0.0839, "section 2's step", "x")
    assert below.startswith("one batch here, 80.0 ms, is 4.6% below section 2's step (83.9 ms), beyond")
    within = same_step_apart("fp32 here", 0.0843, 0.0839, "section 2's step", "x")
    assert within == ("fp32 here, 84.3 ms, is 0.5% above section 2's step (83.9 ms), within the lesson's 2% "
                      "noise: the same step, timed again")
    assert "within" in same_step_apart("a", 0.1020, 0.1000, "b", "x")   # 2.0% exactly: the floor is a ceiling
    assert "beyond" in same_step_apart("a", 0.1021, 0.1000, "b", "x")
    assert same_step_apart("a", 0.08394, 0.0839, "b", "x").startswith("a, 83.9 ms, prints as b (83.9 ms), within")


# the blocks' forward 1.05-1.06x the whole forward round by round (s): their median, as printed, 1.06x
ROUNDS = {"blocks' forward": [0.0284, 0.0286, 0.0285], "forward": [0.0269, 0.0270, 0.0271]}


def test_the_prediction_reads_the_blocks_forward_at_most_the_whole_forward():
    # #5: fabricated times (s). Blocks' forward 28.4 ms alone, 1.06x the whole forward in every paired round:
    # a range, both ends (the cap read pair by pair since t40_0506 #1: 28.4 / 1.06 = 26.8)
    from utils.lessons.memory import forward_bound as fb
    times = {"step": 0.0839, "checkpointed step": 0.1030, "blocks' forward": 0.0284, "forward": 0.0269}
    low, high = fb.blocks_forward_range(times, ROUNDS)
    assert (round(low * 1e3, 1), round(high * 1e3, 1)) == (26.8, 28.4)
    assert fb.predicted_speed(0.0839, low, high) == "1.32-1.34x"   # (83.9 + 26.8) / 83.9, (83.9 + 28.4) / 83.9
    assert fb.forward_words(times, ROUNDS) == ("26.8-28.4 ms: 28.4 timed alone, at most the whole forward that "
                                               "contains it, 28.4 / 1.06 = 26.8 (the median of their rounds' own "
                                               "ratios)")
    assert fb.forwards_cost(0.0191, low, high) == ("0.67-0.71 ± 0.10 of a forward (67%-71% of the predicted "
                                                   "extra time; ± at its floor, a tenth of a forward): less than the "
                                                   "predicted forward")
    # the whole forward longer, or not timed: one figure, as before
    one = fb.blocks_forward_range({"blocks' forward": 0.0250, "forward": 0.0270})
    assert one[0] == one[1] and fb.predicted_speed(0.0839, *one) == "1.30x"
    assert fb.forward_words({"blocks' forward": 0.0250}) == "25.0 ms"
    assert fb.blocks_forward_range({"blocks' forward": 0.0250})[0] == 0.025
    assert fb.forwards_cost(0.0250, *one) == "1.00 ± 0.10 of a forward (100% of the predicted extra time; ± at its " \
        "floor, a tenth of a forward): about one forward, as predicted"
    assert fb.forwards_cost(0.0300, *one).endswith("more than the predicted forward")   # 1.20: past 10 %


def test_a_range_that_reaches_one_forward_reads_as_predicted_and_noise_widens_it():
    from utils.lessons.memory import forward_bound as fb
    # 24.5 ms extra over 25.0-28.0 ms: 0.88-0.98 of a forward, within 10 % of one at the high end
    assert fb.forwards_cost(0.0245, 0.0250, 0.0280).endswith("about one forward, as predicted")
    # 20.0 over 25.0: 0.80, under 0.9; a ± of 6 ms (0.24 of the forward) reaches one
    assert fb.forwards_cost(0.0200, 0.0250, 0.0250).endswith("less than the predicted forward")
    assert fb.forwards_cost(0.0200, 0.0250, 0.0250, noise=0.006).endswith("about one forward, as predicted")


def test_the_summary_and_claims_row_print_the_range_and_the_part_over_whole_note_its_spread():
    from utils.lessons.memory import summary
    ckpt = {"step": 0.0839, "checkpointed step": 0.1030, "blocks' forward": 0.0284, "forward": 0.0269}
    said = summary.checkpointing_summary(ckpt, (1.23, 0.02, [1.23]), rounds=ROUNDS)   # 103.0 / 83.9 ms: 1.23x
    # (1.23 - 1) x 83.9 = 19.297 ms over 28.4 and 26.8 ms: the ratio read pair by pair, not 103.0 - 83.9
    assert "one extra forward, 1.32-1.34x here: 0.68-0.72 ± 0.10 of a forward" in said
    note = summary.part_over_whole("blocks' forward", 0.0284, "forward", 0.0269, "then this")
    assert note.endswith("the 1.5 ms gap comes from timing them apart, and then this.")
    # with the rounds, the share is read round by round: tests/test_0506_s79.py (t40_0506 #1)
