"""Lesson 09, the twenty-ninth reading (t29_09): a launch of lesson 02's split alone whose median is past the 1x
bound beyond its spread is a finding by its own verdict, so its rounds are counted and read with the median, as
lesson 02 reads them, never listed as findings "that no launch's median shows"; the launch whose rounds lesson
02 §3 pairs with its per-process reference is named (#1). Every branch on fabricated figures."""

from __future__ import annotations

from utils.lessons.articles_checked import split_alone


def _split(launches, spreads, rounds, paired=None):
    kept = [{"where": f"section {k}", "rounds": r} for k, r in zip((3, 5, 8), rounds)]
    return {"value": launches[0], "bound": 1.0, "launches": launches, "launch_spreads": spreads,
            "rounds": paired or rounds[0], "launch_rounds": kept}


S5 = [0.98, 0.97, 1.03, 0.98, 1.0003]   # 1.03 and 1.0003 above 1x and beyond 0.98 + 0.01
S8 = [1.004, 1.064, 1.033, 0.968, 1.018]  # 4 of 5 above 1x; 1.06 beyond 1.02 + 0.01, but read with the median


def test_a_launch_past_the_bound_has_its_rounds_read_with_its_median():
    said = split_alone.launch_rounds_words(_split([0.99, 0.98, 1.02], [0.01, 0.01, 0.01], [[0.99] * 5, S5, S8]))
    assert said == ("rounds above the 1x bound beyond their launch's median + spread (lesson 02's rule), findings "
                    "to explain that no launch's median shows: section 5 (0.98x ± 0.01) 1.03x and 1.0003x "
                    "(launches in lesson 02's order); launches above the bound themselves, their rounds read with "
                    "the median (lesson 02's rule for a median past its bound): section 8 (1.02x ± 0.01) 4 of 5 "
                    "rounds above the bound"), said
    assert "1.06x" not in said


def test_with_no_other_launch_past_its_spread_none_of_the_other_rounds_is_named():
    said = split_alone.launch_rounds_words(_split([0.99, 0.98, 1.02], [0.01, 0.01, 0.01],
                                                  [[0.99] * 5, [0.98] * 4, S8]))
    assert said.startswith("none of the other launches' 9 rounds lies above the 1x bound beyond its launch's median "
                           "+ spread (lesson 02's rule); launches above the bound themselves"), said
    assert said.endswith("section 8 (1.02x ± 0.01) 4 of 5 rounds above the bound")


def test_no_launch_past_the_bound_reads_every_launch_round_by_round():
    said = split_alone.launch_rounds_words(_split([0.99, 0.98, 1.00], [0.01, 0.01, 0.03], [[0.99] * 5, S5, [1.0] * 5]))
    assert "read with the median" not in said and "section 5 (0.98x ± 0.01) 1.03x and 1.0003x" in said
    quiet = split_alone.launch_rounds_words(_split([0.99, 0.98, 1.00], [0.01, 0.01, 0.03], [[0.99] * 5] * 3))
    assert quiet.startswith("none of the launches' 15 rounds")


def test_the_paired_launch_is_named_by_its_rounds():
    record = _split([0.99, 0.98, 1.02], [0.01, 0.01, 0.01], [[0.99] * 5, S5, S8], paired=S5)
    assert split_alone.paired_launch_name(record) == "section 5"
    assert split_alone.paired_launch_name(record | {"rounds": [1.5] * 5}) == "section 3"   # none matches
    assert split_alone.paired_launch_name({"rounds": [1.0] * 5}) == "section 3"            # no launches kept


# --- #2: a ± of 0.00 from tied rounds is read at the 2% noise floor ----------------------------------------------

from test_articles_checked import _figures  # noqa: E402

from utils.lessons.articles_checked import claims, summary_rows, verdicts, zeroed  # noqa: E402


def _prune(rounds, zeroed_ms=1.0):
    return {"prune": {"dense": 1e-3, "zeroed": zeroed_ms * 1e-3, "removed": 0.5e-3, "zeroed_rounds": rounds},
            "csr": 0.25}


def test_a_tied_spread_is_read_at_the_noise_floor_within_noise():
    tied = _prune([1.04, 1.02, 0.94, 1.02, 1.02])  # 1.02x ± 0.00: the middle three tie, one round 6% faster
    assert zeroed.side(tied["prune"], 0.02) == zeroed.WITHIN
    assert zeroed.reading(tied["prune"], 0.02) == (
        " (within noise of 1x, the same time, no gain and no loss; its ± read at the 2% noise floor, as a ± under it is (the rounds range 0.94x to 1.04x))")
    m = _figures() | tied
    assert summary_rows.zeroed_unpaid(m)[1].startswith("within noise of the dense layer")
    assert "slower" not in verdicts.judge(claims.BY_ID["B12"], m, {}).evidence.split("half the neurons")[0]


def test_beyond_the_floor_or_every_round_on_one_side_is_still_slower_or_faster():
    beyond = _prune([1.01, 1.02, 1.03, 1.04, 1.05])  # 1.03x ± 0.01: 1.03 - 0.02 clears 1x
    assert zeroed.side(beyond["prune"], 0.02) == zeroed.SLOWER
    said = zeroed.reading(beyond["prune"], 0.02)
    assert " (slower, beyond the 2% noise floor; its ± read at the 2% noise floor" in said, said
    one_side = _prune([1.01, 1.01, 1.02, 1.02, 1.03])  # 1.02x ± 0.01 within the floor, but every round above
    assert zeroed.side(one_side["prune"], 0.02) == zeroed.SLOWER
    assert " (slower, every round on that side of 1x" in zeroed.reading(one_side["prune"], 0.02)
    faster = _prune([0.96, 0.97, 0.97, 0.97, 0.98])  # 0.97x ± 0.00: 0.97 + 0.02 still under 1x
    assert zeroed.side(faster["prune"], 0.02) == zeroed.FASTER
    wide = _prune([1.01, 1.05, 1.09, 1.13, 1.17])  # its own ± over the floor: read as it is, no note
    assert zeroed.reading(wide["prune"], 0.02).endswith(" (slower, beyond the rounds' spread)")
    assert zeroed.read_spread(0.0, 0.02) == 0.02 and zeroed.read_spread(0.05, 0.02) == 0.05
