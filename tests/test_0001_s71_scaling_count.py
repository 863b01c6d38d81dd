"""Thirty-second reading (t32_0001 #2), lesson 01 section 4: "within ±10% on 2 of 3 axes (width, context)" was
printed beside three misses all within 10%: the count is of the axes that hold, and depth was left out for its
negative fixed cost d, not its miss. The words now name both conditions where an axis is left out for its d; and
the flattest axis, compared with the best fit, is named as one whose fit holds only with a negative d.
Fabricated figures."""

from utils.lessons.why_slow import report, scaling


def axis(name, d, jitter):
    return [scaling.ScalePoint(name, i + 1, d + 1.4e-11 * f * (1 + j), f, 100 * (i + 1), 1)
            for i, (f, j) in enumerate(zip((0.7e9, 1.4e9, 2.8e9, 4.2e9), jitter))]


WIDTH, CONTEXT = axis("width", 8.2e-3, (0, 0.01, -0.01, 0)), axis("context", 5.3e-3, (0, 0.005, 0, 0))


def test_an_axis_left_out_for_its_negative_d_is_not_counted_as_a_miss():
    series = {"width": WIDTH, "depth": axis("depth", -1.0e-3, (0, 0, 0, 0)), "context": CONTEXT}
    assert report.scaling_holds(series, scaling.fit)["depth"] == "negative d"  # within 10%, d below zero
    head = ("fitted on each axis alone: within ±10% with d not below zero beyond its ± on 2 of 3 axes "
            "(width, context)")
    said, table = report.scaling_sentence(series, scaling.fit), report.scaling_verdict(series, scaling.fit)
    assert table.startswith(head + "; depth does not hold: only with a negative fixed cost") and head in said
    assert "within ±10% on 2 of 3" not in said + table
    # the flattest axis is depth here: named with why its fit is left out (t35_0001: not "the best fit")
    assert "depth is the flattest axis (1.09x) and its line misses least (0.0%), but only with a negative d" in said


def test_an_axis_left_out_for_its_miss_keeps_the_plain_count():
    # no axis left out for its d: "within ±10%" counts exactly the axes within it
    series = {"width": WIDTH, "depth": axis("depth", 0.5e-3, (0.3, -0.2, 0, 0.1)), "context": CONTEXT}
    assert report.scaling_holds(series, scaling.fit)["depth"] == "off"
    table = report.scaling_verdict(series, scaling.fit)
    assert table.startswith("fitted on each axis alone: within ±10% on 2 of 3 axes (width, context)"), table
    assert "whose fit holds only" not in report.scaling_sentence(series, scaling.fit)


# --- t32_0001 "other problems": lesson 00's wording ----------------------------------------------------------

def test_the_claims_rows_worst_miss_names_its_side():
    from utils.lessons.start_here import line_check

    assert line_check.side_words(-0.492) == "measured below the line"
    assert line_check.side_words(0.26) == "measured above the line"
    assert line_check.side_words(0.0004) == "on the line"   # prints 0.0%


def test_the_dram_rule_does_not_repeat_the_multiple_the_sentence_gave():
    from utils.lessons.start_here import regimes

    mib = 2**20
    said = regimes.dram_read_rule(960 * mib, 256 * mib, {"L3": 480 * mib}, cache_named=True)
    assert said == "also at least 2 x the 256 MiB largest copy" and "L3" not in said
