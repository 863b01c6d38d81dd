"""Eighteenth reading (t18_0304), lesson 03: cell 46 quotes this section's medians as its table prints them
(one decimal: 267.5, not 267), and works its ratios from them; cell 49 weighs the most a bucket size could
save against the defaults' range of rounds in ms as printed (5.1 ms against 100 - 95 = 5 ms is more)."""

from utils.lessons.ddp import knobs, scaling


def reader_rounds():
    """The reader's rounds (cell 46): medians 170.4 and 267.5 samples/s (round 2), section 2: 253 and 206."""
    return {"ratio": 1.57, "one": 170.4, "two": 267.46, "ones": [163.6, 170.4, 181.8],
            "twos": [257.3, 267.46, 340.7]}


def test_the_medians_are_quoted_as_the_table_prints_them():
    line = scaling.against_one_process(reader_rounds(), 253.0, 206.0, "the launcher's 2 thread(s)")
    assert "the two-worker figures agree within 10% (253 and 267.5 samples/s)" in line
    assert "and 267 samples/s" not in line
    assert "one worker's batch and threads, as each of the two has: 170.4 samples/s (median)" in line
    # 206 / 170.4 = 1.209: the reader's division from the figures the line prints
    assert "The references differ (206 against 170.4 samples/s: section 2's process ran 1.21x" in line
    assert "the gap is the references'" in line


def test_the_other_outcomes_quote_the_table_too():
    r = reader_rounds()
    # beyond 10%, within the load line: 230 / 267.5 = 0.86x, and the references within 5%: 175 / 170.4 = 1.03
    both = scaling.against_one_process(r, 230.0, 175.0, "2")
    assert "the two-worker figures differ (230 against 267.5 samples/s, 0.86x: beyond the 10% line" in both
    assert "The references agree within 5% (175 and 170.4 samples/s" in both
    # far apart and outside every round: the load changed, and the note quotes the median as the table does
    low = dict(r, twos=[257.3, 267.46, 280.0])
    assert scaling.load_changed(200.0, low)
    assert "ran 200 samples/s in section 2 and 267.5 in section 3" in scaling.disturbed_note(200.0, low)
    # far apart but inside the rounds' own range: the range as the table prints its rounds
    wide = dict(r, twos=[150.2, 267.46, 340.7])
    assert not scaling.load_changed(200.0, wide)
    spread = scaling.against_one_process(wide, 200.0, 175.0, "2")
    assert "inside the rounds' own range, 150.2-340.7 samples/s" in spread


def test_the_load_line_reads_the_median_as_printed():
    # 321 / 267.5 = 1.2000: not beyond the 20% line as printed; 267.46 unrounded would give 1.2002, beyond
    r = dict(reader_rounds(), twos=[257.3, 267.46, 280.0])
    assert scaling.against_table(321.0, 267.46) == 321 / 267.5
    assert not scaling.load_changed(321.0, r)


def test_a_saving_just_above_the_range_in_ms_is_more_than_the_spread():
    """Cell 49: 5.1 ms against the defaults' 95-100 ms rounds (5 ms), both 5% of the 97 ms median."""
    spread = (100 - 95) / 97
    said = knobs.knob_conclusion([], 5.1 / 97, spread, base_range=(95, 100), hideable=5.1)
    assert said.startswith("That is more than the defaults' spread (5.1 ms against 100 - 95 = 5 ms; "
                           "whole range/median: 5.2%, against the saving's 5.3%), so a knob that hid more")
    assert "no more than" not in said and "none had every round outside the defaults' 95-100 ms" in said


def test_a_saving_within_the_range_in_ms_is_no_more_than_the_spread():
    spread = (100 - 95) / 97
    tie = knobs.knob_conclusion([], 5.0 / 97, spread, base_range=(95, 100), hideable=5.0)
    assert tie.startswith("That is no more than the defaults' own spread from round to round (5.0 ms against "
                          "100 - 95 = 5 ms; whole range/median: 5.2%, against the saving's 5.2%; section 2's")
    assert "no saving can show here" in tie
    # shares apart at whole percents: the spread alone, as before
    small = knobs.knob_conclusion(["bucket_cap_mb=1"], 2.0 / 97, spread, base_range=(95, 100), hideable=2.0)
    assert "(2.0 ms against 100 - 95 = 5 ms; whole range/median: 5%; section 2's noise" in small
    assert "only bucket_cap_mb=1 had every round outside" in small


def test_the_shares_print_to_one_decimal_only_where_they_tie_as_whole_percents():
    assert knobs.spread_words(0.053, 0.052) == "whole range/median: 5.2%, against the saving's 5.3%"
    assert knobs.spread_words(0.02, 0.052) == "whole range/median: 5%"
