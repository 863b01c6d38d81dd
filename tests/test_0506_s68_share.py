"""Lesson 06, twenty-ninth reading (t29_0506, other problems): where a timed part is set against its whole, the
note says plainly which figure is which: the ratio divides the fastest run of each (the ms the table prints),
its share and ± from their paired rounds (t40_0506 #1). Fabricated figures."""

from utils.lessons.memory import policy_cost

MS = 1e-3


def test_the_plain_pairs_note_names_the_fastest_runs_and_reads_the_share_from_the_rounds():
    rounds = {"blocks' forward": [28.4 * MS, 28.6 * MS, 28.8 * MS, 28.9 * MS],
              "forward": [26.9 * MS, 27.0 * MS, 27.1 * MS, 27.0 * MS]}
    said = policy_cost.part_over_whole("blocks' forward", 28.4 * MS, "forward", 26.9 * MS, rounds=rounds)
    assert "(26.9 ms; the fastest run of each, both from round 1, that round's own ratio): in their rounds, " \
        "1.06x ± 0.02 the whole's time" in said, said
    assert "beyond their noise" in said
