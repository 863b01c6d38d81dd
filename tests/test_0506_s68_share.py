"""Lesson 06, twenty-ninth reading (t29_0506, other problems): where a timed part is set against its whole, the
note says plainly which figure is which: the ratio divides the fastest run of each (the ms the table prints),
only its ± comes from their paired rounds. Fabricated figures."""

from utils.lessons.memory import policy_cost

MS = 1e-3


def test_the_plain_pairs_note_names_the_fastest_runs_and_the_rounds_pm_apart():
    said = policy_cost.part_over_whole("blocks' forward", 28.4 * MS, "forward", 26.9 * MS, 0.02)
    assert "(1.06x the whole's time, the fastest run of each; its ± 0.02 from their paired rounds' own ratios: " \
        "beyond their noise" in said, said
