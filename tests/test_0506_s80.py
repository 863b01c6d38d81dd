"""Round 80, lessons 05 and 06: the checkpointing prediction's forward read pair by pair (t40_0506 #1)."""

from utils.lessons.memory import forward_bound as fb

# t40's run (s): round 2's forward (20.9 ms) lies 3.2 ms below the other six; the blocks' forward / forward,
# round by round, has a median of 0.98x: the part is no longer than its whole
T40_ROUNDS = {"blocks' forward": [0.0235, 0.0249, 0.0237, 0.0237, 0.0238, 0.0233, 0.0245],
              "forward": [0.0258, 0.0209, 0.0243, 0.0242, 0.0241, 0.0248, 0.0245]}
T40_TIMES = {"step": 0.0620, "blocks' forward": 0.0233, "forward": 0.0209}


def test_an_outlying_rounds_forward_does_not_set_the_predictions_low_end():
    low, high = fb.blocks_forward_range(T40_TIMES, T40_ROUNDS)
    assert fb.blocks_forward_share(T40_ROUNDS) == 1.0   # their median, 0.98x, is under 1x: no cap
    assert low == high == 0.0233   # the fastest of each would give 20.9-23.3 ms
    assert fb.forward_words(T40_TIMES, T40_ROUNDS) == "23.3 ms"
    assert "-" not in fb.predicted_speed(T40_TIMES["step"], low, high)


def test_a_part_above_its_whole_in_the_rounds_is_capped_at_the_whole_pair_by_pair():
    rounds = {"blocks' forward": [0.0250, 0.0252, 0.0251], "forward": [0.0240, 0.0241, 0.0239]}   # 1.04-1.05x
    low, high = fb.blocks_forward_range({"blocks' forward": 0.0250}, rounds)
    assert (round(low * 1e3, 1), round(high * 1e3, 1)) == (23.8, 25.0)   # 25.0 / 1.05 = 23.8, half up
    assert fb.forward_words({"blocks' forward": 0.0250}, rounds).endswith("25.0 / 1.05 = 23.8 (the median of "
                                                                          "their rounds' own ratios)")


def test_a_part_within_noise_of_its_whole_sets_no_range():
    # t41's rounds: the blocks' forward / forward 0.99-1.13x, median 1.03x ± 0.03: within noise of 1x
    rounds = {"blocks' forward": [0.0304, 0.0296, 0.0259, 0.0268, 0.0266, 0.0287, 0.0270],
              "forward": [0.0270, 0.0280, 0.0261, 0.0260, 0.0265, 0.0272, 0.0269]}
    assert fb.blocks_forward_share(rounds) == 1.0
    assert fb.forward_words({"blocks' forward": 0.0259}, rounds) == "25.9 ms"
