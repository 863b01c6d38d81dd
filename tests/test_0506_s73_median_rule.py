"""t34_0506 #2: the rounds tables' captions name the figure the prediction reads, the pair's rounds' median
(``policy_cost.policy_costs``), not the fastest of each, which is named apart as not used."""
from utils.lessons.memory import policy_cost, report

MS = 1e-3


def test_the_caption_names_the_median_the_prediction_uses_where_the_fastest_prints_otherwise():
    # the reader's case: blocks' fastest 26.3 / 22.1 = 1.19x; the rounds' own ratios give a median of 1.10x
    ms = {"blocks' forward": (22.1, 23.5, 22.8, 23.0, 22.6, 23.3, 22.9),
          "selective blocks' forward": (25.0, 26.3, 25.1, 25.3, 24.9, 25.6, 25.2)}
    rounds = {k: [x * MS for x in v] for k, v in ms.items()}
    said = report.median_rule(rounds, "selective blocks' forward", "blocks' forward", "The recompute's figure")
    median = policy_cost.policy_ratio(rounds, "selective blocks' forward", "blocks' forward")
    assert said.startswith(f"The recompute's figure is the rounds' median, as the prediction reads it: {median:.2f}x")
    assert "The fastest of each, 24.9 / 22.1 = 1.13x, as the ms parts use, is not the prediction's figure" in said
    assert f"{median:.2f}" != "1.13"   # the two figures differ here: the caption's figure is the median's


def test_the_caption_still_names_the_fastest_apart_where_both_print_alike():
    rounds = {"forward": [20.0 * MS] * 5, "selective forward": [22.0 * MS] * 5}
    said = report.median_rule(rounds, "selective forward", "forward", "The policy's figure")
    assert said.startswith("The policy's figure is the rounds' median, as the prediction reads it: 1.10x")
    assert said.endswith("The fastest of each, 22.0 / 20.0 = 1.10x, as the ms parts use, is not the prediction's "
                         "figure (both from round 1, that round's own ratio, not the median)")
