"""Read-back of the s53 review (items 3, 6, 8, 13, 14): lessons 03, 04 and 05 judge their sentences by the
shared rules of utils/claims.py on the figures as printed, never by a private rounding, noise test or count of
rounds."""

import pytest

from utils import claims, timeline
from utils.lessons.compression.quantruns import _whole_percent, compiled_slower, outside_words
from utils.lessons.data_prefetch import epoch, transfer
from utils.lessons.ddp import overlap, stepread

MS = 1e-3


# --- item 3: lesson 03 reads a step ratio with claims.within_noise, on the multiple and noise it prints -----


def test_a_step_ratio_is_read_by_the_one_noise_rule_on_the_printed_multiple_and_noise():
    # 0.91 is printed "1.10x slower": 9% of 1.10 is ± 0.10 (t36_0304 #1: the noise is a share of the step, so
    # of the multiple too), which reaches 1x: a tie, within noise; 0.89 (1.12x, ± 0.10) is past it
    assert overlap.pace(0.91) == "1.10x slower"
    assert stepread.read_ratio(0.91, 0.09) == "within noise" and claims.within_noise(1.10, 0.10)
    assert stepread.read_ratio(0.89, 0.09) == "longer" and not claims.within_noise(1.12, 0.10)
    for ratio in (0.80, 0.90, 0.91, 0.92, 0.95, 1.0, 1.04, 1.05, 1.06, 1.10, 1.25):
        for noise in (0.02, 0.05, 0.085, 0.09, 0.1):
            read = stepread.read_ratio(ratio, noise)
            inside = claims.within_noise(overlap.printed_multiple(ratio), stepread.ratio_spread(ratio, noise))
            assert (read == "within noise") == inside
            assert read == "within noise" or read == ("shorter" if ratio > 1 else "longer")


def test_the_noise_a_ratio_is_read_with_is_the_noise_printed_beside_it():
    assert overlap.noise_percent is claims.percent   # one printer, not a copy of it
    for k in range(1, 3001):   # 0.0001 .. 0.3: the share judged is the whole per cent printed
        noise = k / 10_000
        assert f"{claims.half_up(noise, 2) * 100:.0f}%" == claims.percent(noise)
    line = stepread.answer(0.1695, 0.0882, 0.0966, 0.0856, 0.099)
    assert "overlap within noise (1.10x apart, noise 9%, half the steps' range over their median: ± 0.10 on 1.10x)" in line


# --- item 14: the parts' share of the step difference never prints 0% (nor 100%) beside a rise -----------


def _row(ready_ms, exposed_ms, step_ms):
    return {"ready": ready_ms * MS, "exposed": exposed_ms * MS, "step": step_ms * MS}


def test_a_rise_that_rounds_to_0_percent_of_the_step_difference_reads_almost_none():
    # 0.1 ms of 30.0 ms is 0.3%: "rose 0.1 ms together, 0% of ..." read as if the parts had not risen
    low = overlap.parts_account(_row(83.8, 6.0, 119.6), _row(83.8, 5.9, 89.6), 5)
    assert "rose 0.1 ms together, almost none of the 30.0 ms the whole steps differ by" in low
    assert "the other 29.9 ms" in low and " 0% " not in low
    assert "the exposed rise is where the more buckets' fixed costs would show" in low
    # 0.2 of 30.0 ms prints 1%: the figure stays, as do 100% ("nearly all") and the shares between
    assert "rose 0.2 ms together, 1% of the 30.0 ms" in overlap.parts_account(
        _row(83.8, 6.1, 119.6), _row(83.8, 5.9, 89.6), 5)
    near = overlap.parts_account(_row(83.8, 35.8, 119.6), _row(83.8, 5.9, 89.6), 5)
    assert "nearly all of the 30.0 ms" in near


# --- item 6: lesson 04's percents are claims.percent (half up), in the words and in the comparisons ------


def test_lesson_04_prints_and_compares_whole_percents_half_up():
    assert _whole_percent(0.125) == 13 and f"{0.125:.0%}" == "12%" and round(12.5) == 12
    assert _whole_percent(0.012) == 1 and _whole_percent(0.0049) == 0
    line = outside_words(0.13, [("aten::copy_", 0.125), ("aten::t", 0.005)])
    assert line == "13% of its pass outside its matmul operators (aten::copy_ 13%, aten::t 1%; each " \
        "share is rounded on its own, so these add up to 14%, not 13%)"
    # 0.87x: 13% of the compiled pass; the fixed cost 12.5% prints 13%, so it is as much as the slowdown (half
    # to even printed 12% and read "less than the slowdown")
    said = compiled_slower(0.03, [("mkl::_mkl_linear", 0.875), ("Call CompiledFxGraph", 0.125)], 0.87)
    assert "at 0.87x, 13% of the compiled pass" in said and "take 13% of it" in said
    assert "as much as the slowdown, so they explain it only if fusing saved nothing" in said
    assert "fusing could save at most 3%" in said


# --- item 8: lesson 05 counts a part's rounds as printed (claims.round_above, within_noise) -------------


def _compression(uint8_ms, convert_ms):
    return transfer.Compression(4, 1, float_link=[7.5 * MS] * len(uint8_ms),
                                uint8_link=[u * MS for u in uint8_ms], convert=[c * MS for c in convert_ms])


def test_a_round_printed_1_00x_is_neither_part_s_longer_time():
    # 2.010 / 2.000 prints 1.00x: "the crossing took the longer time in all 3 rounds" beside it was false
    line = transfer.slower_part(_compression([2.010, 2.1, 2.1], [2.000] * 3))
    assert "each round: 1.00x, 1.05x, 1.05x)" in line and "took the longer time" not in line
    assert "neither part was the slower in every round (the crossing in 2 of 3, the conversion in 0, " \
        "level as printed in 1;" in line
    both = transfer.slower_part(_compression([2.1, 1.9, 2.0], [2.000] * 3))   # 1.05x, 0.95x, 1.00x
    assert "(the crossing in 1 of 3, the conversion in 1, level as printed in 1;" in both
    apart = transfer.slower_part(_compression([2.1, 1.9, 2.1], [2.000] * 3))   # no round level
    assert "(the crossing in 2 of 3, the conversion in 1; " in apart and "level" not in apart
    # the other outcome: every round printed above 1.00x, one of them not past 2 %
    close = transfer.slower_part(_compression([2.020, 2.1, 2.1], [2.000] * 3))
    assert "the crossing took the longer time in all 3 rounds, but not beyond 2 % in every one" in close
    slow = transfer.slower_part(_compression([1.980, 1.9, 1.9], [2.000] * 3))   # 0.99x, 0.95x, 0.95x
    assert "the conversion took the longer time in all 3 rounds, but not beyond 2 %" in slow


def test_about_the_same_time_is_the_one_noise_rule_on_each_round_as_printed():
    # 1.02x, 0.98x, 1.00x as printed: each within 2 % of 1x (1 / 0.98 = 1.0204 unrounded passed 1.02 before)
    same = transfer.slower_part(_compression([2.040, 1.960, 2.0], [2.000] * 3))
    assert "about the same time: within 2 % of each other in all 3 rounds" in same
    assert "each round: 1.02x, 0.98x, 1.00x)" in same
    # 1.03x is past 2 %: not "about the same", and not every round past it either
    past = transfer.slower_part(_compression([2.060, 1.960, 2.0], [2.000] * 3))
    assert "about the same" not in past and "each round: 1.03x, 0.98x, 1.00x)" in past
    # every round printed past 1.02x names the crossing (one_side, as before)
    named = transfer.slower_part(_compression([2.060, 2.1, 2.2], [2.000] * 3))
    assert "the crossing is the slower part of the uint8 path in all 3 rounds, beyond 2 %" in named


# --- item 13: a prefetching epoch drawn whole counts every read; a cut one draws the thread idle ------------


def _prefetching_epoch(n=6, read=49, step=40):
    """Literal spans (ms) of the eleventh reader's epoch: reads (49) outlast steps (40); batch k computes as
    its read ends, while the thread reads batch k + 1."""
    spans, reads, free = [], [], 0
    for k in range(n):
        done = read * (k + 1)
        spans += [timeline.Span("training process", "wait", k, free * MS, done * MS),
                  timeline.Span("training process", "compute", k, done * MS, (done + step) * MS)]
        reads.append(timeline.Span("prefetch thread", "load", k, read * k * MS, done * MS))
        free = done + step
    return epoch.EpochResult(free * MS, n, 0.0, spans), reads


def test_a_prefetching_epoch_drawn_whole_counts_the_read_a_cut_draws_idle():
    result, reads = _prefetching_epoch()
    whole = epoch.epoch_spans(result, loads=reads, batches=None)
    assert sorted((s.device, s.index) for s in whole if s.device == "prefetch thread") == [
        ("prefetch thread", k) for k in range(6)]   # no read left out
    shares = timeline.busy_fractions(whole)
    assert set(shares) == {"device (computes)", "prefetch thread"}   # the waits are not drawn
    assert shares["prefetch thread"] == pytest.approx(294 / 334)   # 6 reads of 49 ms over 0 .. 294 + 40 ms
    # cut at 3 batches, the read of batch 3 (147 .. 196 ms) is left out, drawn idle under step 2 (147 .. 187)
    cut = timeline.busy_fractions(epoch.epoch_spans(result, loads=reads, batches=3))
    assert cut["prefetch thread"] == pytest.approx(147 / 187)
    assert cut["prefetch thread"] < shares["prefetch thread"]
