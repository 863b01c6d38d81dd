"""Reader t31_09 #1: row B18 (and row A10's check) read the split alone's single rounds as rows A10 and B5 and
lesson 02 §3 do: a round within its own round's per-process reference is no finding, on fabricated figures."""

from utils.lessons.articles_checked import split_alone, summary_rows


def _split(**extra):
    # three launches reading differently (within noise, slower, within noise): B18 names the split as no gain;
    # §3's rounds: 1.13 past 0.99 + 0.04 and past its own reference (1.07), 1.06 past it but within its own (1.06)
    return {"value": 0.99, "bound": 1.0, "reference": 1.06, "per_process": True,
            "rounds": [1.131, 0.989, 0.993, 1.057, 0.993], "reference_rounds": [1.07, 1.06, 1.01, 1.06, 1.0],
            "launches": [0.99, 0.97, 1.0], "launch_spreads": [0.04, 0.01, 0.05]} | extra


def test_b18_reads_a_round_within_its_own_reference_as_no_finding():
    words, _ = summary_rows.split_no_gain("B5's split", _split(), "row B5's check")
    assert ("its single rounds: 2 of 5 rounds above the bound (up to 1.13x): 1.06x past the rounds' spread, but "
            "not past its own round's per-process reference: no finding; the other round: beyond the rounds' "
            "spread of the median (± 0.04): a finding to explain; row B5's check") in words, words


def test_b18_adds_no_rounds_clause_where_every_round_lies_within_its_own_reference():
    record = _split(reference_rounds=[1.14, 1.06, 1.01, 1.06, 1.0])
    assert not split_alone.split_rounds_finding(record)
    words, _ = summary_rows.split_no_gain("B5's split", record, "row B5's check")
    assert "its single rounds" not in words and words.endswith("so none decides alone; row B5's check"), words


def test_split_rounds_finding_without_reference_rounds_reads_the_spread_alone():
    record = _split(reference_rounds=None)
    assert split_alone.split_rounds_finding(record)  # 1.13 and 1.06 past 0.99 + 0.04: no reference to reach
    words, _ = summary_rows.split_no_gain("B5's split", record, "")
    assert "its single rounds: 2 of 5 rounds above the bound (up to 1.13x): beyond the rounds' spread" in words
    assert not split_alone.split_rounds_finding(_split(rounds=None))
    assert split_alone.split_rounds_finding(_split(rounds=[2.03, 0.99, 0.99, 0.98, 0.99]))  # past 2x


def test_a_round_printed_equal_to_its_own_reference_lies_at_it():
    # t31_09 #6: 1.06x / 1.06x = 1.00x as printed: "at", not "under"; 0.98x: under
    record = _split() | {"bound": 1.0}
    said = split_alone.within_own_words(record, split_alone.split_row(record))
    assert "the 1.06x round lies at its own round's reference (1.06x / 1.06x = 1.00x)" in said, said
    lower = _split(reference_rounds=[1.07, 1.06, 1.01, 1.08, 1.0]) | {"bound": 1.0}
    said = split_alone.within_own_words(lower, split_alone.split_row(lower))
    assert "the 1.06x round lies under its own round's reference (1.06x / 1.08x = 0.98x)" in said, said
