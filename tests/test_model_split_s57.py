"""Lesson 02, twenty-first reading (t21_02): (1) section 8's work rise set against the same readings of the
extra time as the messages' price ("+17 ms ... covers" beside 17.4 and 26.7 ms); (2) the link fit's accuracy is
a share of the *measured* time, so its tolerance is asymmetric (1/1.79 below, 4.76x above at ±79%); (3) the
paired ratios' ± worked from the divisions a reader makes (0.03, not 0.04). Synthetic figures; no timing."""

import dataclasses

from utils.lessons.model_split import fit_accuracy, link, noise, placement, runs


# --- item 1: the work against every reading of the extra time --------------------------------------------


def _worked(seconds, cpu):
    return runs.Row(32, 1, "x", seconds, 0.177, [0.05, 0.05], naive=True, speedups=[1.0], cpu=cpu,
                    baseline_cpu=0.177, cpu_workers=True)


def _placements(placed_cpu):
    """t21_02's section 8: +9.5 ± 7.9 ms (rounds -9.4 to +26.7), medians 178 and 164 ms, 12 messages at
    0.064 + 1.57 ms (18.9 ms); layers 81 + 84 ms of CPU work."""
    extra = [-0.0094, 0.0016, 0.0095, 0.0174, 0.0267]  # middle three 1.6-17.4: ± 7.9
    return {"layers": {"row": _worked(0.164, [0.081, 0.084]), "crossings": 1},
            "attn/ffn": {"row": _worked(0.178, placed_cpu), "crossings": 7}, "extra_rounds": extra,
            "message": {"tiny": 0.064e-3, "activation": 1.57e-3, "activation_bytes": 2**20}}


def test_a_work_rise_short_of_the_larger_readings_covers_only_the_ones_it_reaches():
    got = _placements([0.077, 0.105])  # (77 + 105) - (81 + 84) = +17
    line = placement.placement_split(got)
    assert "that alone covers" not in line
    assert ("rose by +17 ms against the layers split's (their CPU time on CPU workers, sends and receives included, "
            "summed from the table's ms per stage): that accounts for the median extra time (+9.5 ms) and 14 ms (the "
            "table's median steps' difference), not 26.7 ms (the highest of 5 rounds); within the ± 2 ms its whole-ms "
            "figures leave, it may or may not reach 17.4 ms (the paired median plus its spread)") in line  # t39_02 #1
    assert "the rest of the larger reading, beyond the work's rise, this run does not explain." in line  # t34_02 other
    note = placement.extra_note(got)  # the claims row: the same readings, the same words
    assert note.endswith("the stages' measured work, +17 ms, accounts for the median extra time (+9.5 ms) and 14 ms "
                         "(the table's median steps' difference), not 26.7 ms (the highest of 5 rounds); within the ± 2 "
                         "ms its whole-ms figures leave, it may or may not reach 17.4 ms (the paired median plus its "
                         "spread)"), note
    # the messages are read against the same readings (the largest: 26.7 ms)
    assert "not more than 26.7 ms, its largest reading" in note


def test_a_work_rise_past_every_reading_covers_the_extra_time():
    got = _placements([0.077, 0.120])  # +32, past 26.7
    assert ("that alone accounts for the extra step time at every reading of it, up to 26.7 ms (the highest of 5 "
            "rounds)") in placement.placement_split(got)
    assert placement.extra_note(got).endswith("+32 ms, accounts for every reading of the extra time, up to 26.7 ms (the "
                                              "highest of 5 rounds)")


def test_a_work_rise_within_the_medians_spread_only_and_one_beyond_it():
    got = _placements([0.077, 0.094])  # +6: 9.5 - 7.9 = 1.6 is under it
    assert ("that accounts for the median extra time within its spread (+9.5 ± 7.9 ms covers +6), not 14 ms"
            in placement.placement_split(got))
    got = _placements([0.077, 0.080])  # -8: short by more than the spread
    assert "the other 17.5 ms is waiting" in placement.placement_split(got)
    assert placement.extra_note(got).endswith("rose by -8 ms and the other 17.5 ms is waiting")


# --- item 2: the fit's accuracy, a share of the measured time: asymmetric factors -----------------------


def test_the_tolerance_is_the_residuals_band_on_each_side():
    assert fit_accuracy.tolerance(0.79) == (1.79, 4.76)  # 1 + 0.79 below; 1 / (1 - 0.79) above
    assert fit_accuracy.tolerance_text(0.79) == "a factor of 1.79 below, 4.76 above"
    assert fit_accuracy.tolerance_text(1.2) == "a factor of 2.20 below, any above"  # a miss past 100%
    assert fit_accuracy.accuracy_text(0.79) == "±79% of the measured time"
    # t21_02: 1.57 ms against 0.487 ms (3.2x) is a residual of 69%: within ±79%
    assert fit_accuracy.against_fit(1.57, 0.487, 0.79, 1) == "within"
    assert fit_accuracy.against_fit(2.50, 0.487, 0.79, 1) == "above"   # 5.1x, past 4.76
    assert fit_accuracy.against_fit(0.064, 0.363, 0.79) == "below"     # 1/5.67, past 1.79
    assert fit_accuracy.against_fit(0.25, 0.363, 0.79) == "within"     # 1/1.45


FIT = runs.Link(363.1e-6, 8.44e9, "pinned workers", 0.79, True)  # t21_02's fit: α 0.363 ms; 1 MiB: 0.487 ms


def test_the_probe_at_32x_the_fit_is_within_its_accuracy_and_past_it_beyond():
    said = link.probe_reading(1.57e-3, 2**20, FIT, 0.052)
    assert ("which took 1.57 ms here (3.22x that price): within the fit's accuracy (a factor of 1.79 below, 4.76 "
            "above)") in said
    said = link.probe_reading(2.60e-3, 2**20, FIT, 0.052)  # 2.60 / 0.487 = 5.3x
    assert "(5.34x that price): beyond the fit's accuracy (a factor of 1.79 below, 4.76 above)" in said


def test_a_coarse_fit_says_what_its_percent_is_a_share_of():
    coarse = runs.Link(363.1e-6, 8.44e9, "gloo loopback fitted now", 0.79, True)
    _, said = link.link_sources(None, coarse)
    assert ("A fit that far off (±79% of the measured time: a factor of 1.79 below, 4.76 above its line) makes "
            "every link time") in said
    assert "(±79%)" not in said


# --- item 3: the paired ratios' ± from the divisions a reader makes -------------------------------------


def _naive(speedups):
    return runs.Row(32, 1, "naive", 0.160, 0.164, [0.077, 0.087], naive=True, speedups=speedups)


def test_the_ratios_spread_is_worked_from_the_printed_rounds_unrounded():
    r = _naive([1.08, 0.94, 1.03, 1.03, 1.003])
    per_round = [1.04, 0.96, 0.98, 1.06, 1.05]  # ratios 1.038, 0.979, 1.051, 0.972, 0.955
    value, spread, under = noise.paired_reference(r, per_round)
    assert (value, spread, under) == (0.98, 0.03, 3)
    assert "median 0.98x ± 0.03; 3 of 5 rounds under it" in noise.reference_reading(r, per_round)
    # the other outcome: a wider middle gives a wider ± (ratios 0.90 ... 1.10 over a 1.00x reference)
    wide = noise.paired_reference(_naive([1.10, 0.90, 1.02, 1.00, 0.95]), [1.0] * 5)
    assert wide[:2] == (1.0, 0.04)  # middle three 0.95-1.02: ± 0.035, half up 0.04


# --- other 1: section 8's every round, printed --------------------------------------------------------------


def test_section_8_prints_every_round_behind_its_counts():
    got = _placements([0.077, 0.105])
    got["layers"]["row"] = dataclasses.replace(got["layers"]["row"], speedups=[1.07, 0.95, 1.09, 1.08, 1.06])
    got["attn/ffn"]["row"] = dataclasses.replace(got["attn/ffn"]["row"], speedups=[1.01, 0.92, 1.03, 1.02, 0.98])
    said = placement.rounds_note(got)
    assert said.splitlines() == [
        "layers, every round's speedup over one device: 1.07x, 0.95x, 1.09x, 1.08x, 1.06x",
        "attn/ffn, every round's speedup over one device: 1.01x, 0.92x, 1.03x, 1.02x, 0.98x",
        "attn/ffn minus layers, every round's paired difference: -9.4, +1.6, +9.5, +17.4, +26.7 ms"]
