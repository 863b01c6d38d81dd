"""Lesson 03, the thirty-sixth reading (t36_0304 #1): section 2 read "fewer messages paid: 1.31x faster, beyond
29% noise" by taking a 29% share of a step as ± 0.29 on the multiple. The noise is a share, so its ± on 1.31x
is 0.38 (as lesson 04 works a speedup's spread), which covers 1x; the difference is real only because every
by-hand step was slower than every 25 MiB step, and the line now says so. Fabricated figures."""

from utils.lessons.compression.measure import printed_ratio_spread
from utils.lessons.ddp import stepread

HAND, LARGE, SMALL = ("by hand", 86.5, 141.0), ("DDP, 25 MiB buckets", 66.1, 81.2), ("DDP, 1 MiB", 67.7, 74.5)
SPANS = {"hand": HAND, "large": LARGE, "small": SMALL}


def test_the_spread_is_the_noise_share_of_the_printed_multiple_as_lesson_04_works_it():
    assert stepread.ratio_spread(92.5 / 70.6, 0.29) == 0.38
    assert stepread.ratio_spread(92.5 / 70.6, 0.29) == printed_ratio_spread(1.31, 0.29)
    assert stepread.ratio_spread(1 / 1.31, 0.29) == 0.38    # a slower step: the multiple printed, 1.31x


def test_a_share_that_covers_1x_reads_within_noise_unless_the_ranges_lie_apart():
    ratio = 92.5 / 70.6
    assert stepread.read_ratio(ratio, 0.29) == "within noise"             # no ranges: the ± decides
    assert stepread.read_ratio(ratio, 0.29, HAND, LARGE) == "shorter"     # every by-hand step slower
    overlapping = ("by hand", 80.0, 141.0)
    assert stepread.read_ratio(ratio, 0.29, overlapping, LARGE) == "within noise"
    assert stepread.read_ratio(1 / ratio, 0.29, LARGE, HAND) == "longer"  # the other way round


def test_the_answer_gives_the_reason_that_decided_each_reading():
    line = stepread.answer(0.0925, 0.0706, 0.0692, 0.11, 0.29, SPANS)
    assert line.startswith("Answer: overlap within noise (1.02x apart, noise 11%, half the steps' range over their median: ± 0.11 on 1.02x); ")
    assert ("fewer messages paid: 1.31x faster, within 29% noise (± 0.38 on 1.31x), but every step of "
            "\"by hand\" (86.5–141.0 ms) was slower than every step of \"DDP, 25 MiB buckets\" (66.1–81.2 ms)."
            in line)
    # past the ± itself: the noise is the reason, and the ranges are not needed
    past = stepread.answer(0.0925, 0.0706, 0.0692, 0.11, 0.20, SPANS)
    assert "fewer messages paid: 1.31x faster, beyond 20% noise (± 0.26 on 1.31x)." in past
    # a slower way whose steps all lie above: "cost", the slower way named first
    cost = stepread.answer(0.0600, 0.0925, 0.0925, 0.05, 0.40, {**SPANS, "hand": ("by hand", 50.0, 60.0),
                                                                  "large": ("25 MiB", 86.5, 141.0)})
    assert "fewer messages cost: 1.54x slower, within 40% noise (± 0.62 on 1.54x), but every step of " \
           "\"25 MiB\" (86.5–141.0 ms) was slower than every step of \"by hand\" (50.0–60.0 ms)." in cost


def test_the_ranges_are_the_rank_shown_s_fastest_and_slowest_steps_as_printed():
    def ranks(*steps_ms):
        steps = [{"step": s / 1e3} for s in steps_ms]
        return [{"step": max(steps_ms) / 1e3, "steps": steps}]
    got = stepread.ranges({"h": ranks(86.54, 141.0, 92.5), "l": ranks(66.1, 81.2), "s": ranks(67.7, 74.5)},
                          "h", "l", "s")
    assert got == {"hand": ("h", 86.5, 141.0), "large": ("l", 66.1, 81.2), "small": ("s", 67.7, 74.5)}
