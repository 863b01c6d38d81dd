"""Lesson 06 cell 16, thirtieth reading (t30_0506, other problems): the selective pair's part-over-whole share
is set against the plain pair's share with the plain pair's own ± printed beside it, and the two are judged by
the noise rule between two figures (either ± covering the other share). Fabricated figures."""

from utils.lessons.memory import policy_cost

MS = 1e-3


def _note(part, whole, spread, plain=(19.3, 20.3), plain_spread=0.03):
    return policy_cost.part_over_whole("selective blocks' forward", part * MS, "selective forward", whole * MS,
                                       spread, "then this", share=(plain[0] * MS, plain[1] * MS),
                                       share_spread=plain_spread)


def test_the_plain_pairs_share_prints_its_own_pm():
    said = _note(24.7, 23.8, 0.04)   # 1.04x ± 0.04 against 0.95x ± 0.03: neither covers the other
    assert ("1.04x the whole's time (the fastest run of each; its ± 0.04 from their paired rounds' own ratios), "
            "against 0.95x ± 0.03 in the plain pair (19.3 / 20.3 ms, also the fastest of each; its ± from its own "
            "paired rounds;") in said, said
    assert "beyond their noise, a cause not timed apart here; then this." in said


def test_the_plain_pairs_pm_alone_may_cover_the_selective_share():
    # 0.99x ± 0.02 does not reach 0.95x, but 0.95x ± 0.04 reaches 0.99x: the two agree, and the part is shorter
    assert _note(22.8, 23.0, 0.02, plain_spread=0.04) == ""
    # longer than its whole, within noise: still noted, with the verdict
    said = _note(23.4, 23.0, 0.02, plain=(22.4, 23.0), plain_spread=0.03)   # 1.02 against 0.97 ± 0.03... beyond
    assert "against 0.97x ± 0.03" in said and "beyond their noise" in said
    said = _note(23.4, 23.0, 0.02, plain=(22.9, 23.0), plain_spread=0.03)   # 1.02 against 1.00 ± 0.03: within
    assert "took longer than the selective forward" in said and "within their noise; then this." in said


def test_the_plain_pm_is_at_least_the_floor_and_absent_without_it():
    assert "against 0.95x ± 0.02 in the plain pair" in _note(24.7, 23.8, 0.04, plain_spread=0.004)
    said = policy_cost.part_over_whole("selective blocks' forward", 24.7 * MS, "selective forward", 23.8 * MS,
                                       0.04, "then this", share=(19.3 * MS, 20.3 * MS))
    assert "against 0.95x in the plain pair (19.3 / 20.3 ms, also the fastest of each; the head" in said
