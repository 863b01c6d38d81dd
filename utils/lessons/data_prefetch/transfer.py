"""Lesson 05's transfer compression: a batch of images moved as float32, or as uint8 and converted there.

    result = measure_compression(devices.plan(1), 32, "cuda:0")   # 3 x 224 x 224 images, 3 paired rounds
    result.byte_ratio, result.speedup, result.spread             # 4.0, net (the median round's), noise
    host_to_device(128, "cuda:0")                # {"pageable": s, "pinned": s}: the same copy from each memory
    gap = decoded_gap(images, "cuda:0")          # the uint8 path's images against the float32 path's
    tolerance_line(gap)                          # within tolerance, or: the speed-up does not count
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass

import torch

from utils import bench
from utils.claims import (Claim, as_printed, half_up, one_side, printed_percent, printed_ratio, round_above,
                          signed_percent, within_noise)
from utils.data import MNIST_STD
from utils.lessons.data_prefetch.dataset import decode_images, decode_into
# one batch's repeated link times live in their own module, with the noise floor and the tables' ms that both
# read; re-exported: the notebook, plan.py and the tests import them from here
from utils.lessons.data_prefetch.link_repeats import MS, NOISE_FLOOR, repeat_reading, repeats_reading  # noqa: F401


# A fit that misses a size it was fitted to by more than this is read as loose: its ceiling (the bytes' ratio)
# then describes the model, not this link. A reading threshold chosen here, not a law.
LOOSE_FIT = 0.10

# How far the uint8 path's images may lie from the float32 path's (normalised pixel units) for its speed-up
# to count: torch.testing's float32 atol. Both paths do the same arithmetic on the same stored bytes, so they
# may differ only by float32 rounding (another device, another order: a few 1e-7 on values up to 2.8); one
# stored level apart is ``LEVEL`` (1.3e-02), so a gap within the tolerance cannot have changed a pixel's level.
DECODE_TOLERANCE = 1e-5
LEVEL = 1 / 255 / MNIST_STD  # one step between stored uint8 levels, in normalised pixel units


# what a residual is, said wherever one is printed: a share of the measured time, not of the fit's, so a
# reader who divides 6.016 by 4.522 (+33%) is told why the page says +25% ((6.016 - 4.522) / 6.016)
RESIDUAL = "residual: measured - fit, as a share of the measured time"


def residual(measured: float, fitted: float) -> float:
    """(measured - fit) / measured for one size of the link's sweep (``RESIDUAL``), from the two times as the
    table prints them (ms, 3 decimals): 0.156 against 0.180 reads -15%, not the -16% of unrounded times. The
    same definition as ``linkmodel.fit_alpha_beta``'s residuals, which the fit's "within ±" uses (lesson 05)."""
    shown, fit = as_printed(measured, 3, MS), as_printed(fitted, 3, MS)
    return (shown - fit) / max(shown, 10 ** -3)


def fit_line(name: str, alpha: float, beta: float, sweep: dict[int, float]) -> str:
    """The link's fit in the details, its "within ±" the largest residual of its fitted sizes (``sweep``:
    size -> ``residual``) as the table prints them, with the definition named: a reader who redoes 4.793
    against 3.950 as a ratio finds +21%, the page's +18% is (4.793 - 3.950) / 4.793 (lesson 05)."""
    worst = max(abs(printed_percent(r)) for r in sweep.values())
    # "each of the N sizes it was fitted to": the table below also prints sizes left out of the fit, which
    # may miss by more
    return (f"{name}: alpha {alpha * 1e6:,.1f} µs, beta {beta / 1e9:.2f} GB/s (fits each of the {len(sweep)} "
            f"sizes it was fitted to within ±{worst:.0f}% of its measured time; {RESIDUAL})")


def printed_fit_time(alpha: float, beta: float, size: int) -> float:
    """The fit's time (seconds) for ``size`` bytes from alpha and beta as ``fit_line`` prints them (0.1 µs,
    0.01 GB/s), so that a reader who redoes alpha + n/beta from the page finds the fit's column: the unrounded
    beta (3.324 GB/s printed 3.32) once gave 5.140 ms where the printed figures give 5.146 (t40_0506 #3)."""
    return as_printed(alpha, 1, 1e-6) * 1e-6 + size / (as_printed(beta, 2, 1e9) * 1e9)


def farthest_printed(ratios: list[float], centre: float) -> float:
    """How far the farthest round lies from ``centre``, both as the page prints them (2 decimals): the ``±``
    beside "1.64x" is then 1.64 - 1.30 = 0.34 for a reader who redoes it, not 0.35 from unrounded ratios.
    Not ``claims.printed_spread`` (half the middle half of paired rounds): lesson 05's ± is the farthest
    round, so that no round lies outside the printed range."""
    shown = as_printed(centre, 2)
    return half_up(max(abs(as_printed(r, 2) - shown) for r in ratios), 2)   # 1.64 - 1.30 is 0.33999... in floats


@dataclass
class Compression:
    """A batch moved as float32, or as uint8 then converted on the device, in paired rounds (lesson 05).

    Each round crosses the link with both batches and times the conversion once, so that the three times of
    a round met the same machine. Seconds, one per round.
    """

    float_bytes: int
    uint8_bytes: int
    float_link: list[float]  # the float32 batch across the link
    uint8_link: list[float]  # the uint8 batch across the link
    convert: list[float]  # uint8 -> normalised float32, on the device where it landed

    @property
    def byte_ratio(self) -> float:
        return self.float_bytes / self.uint8_bytes

    @property
    def ratios(self) -> list[float]:
        """Per round: float32 across / (uint8 across + convert): the net speed-up of compressing, worked from
        the three times as the tables print them (ms, 3 decimals), so a reader who redoes it finds it."""
        return [as_printed(f, 3, MS) / max(u, 10 ** -3)
                for f, u in zip(self.float_link, self.printed_uint8_path)]

    @property
    def uint8_path(self) -> list[float]:
        """Per round: the uint8 batch across plus its conversion, the seconds the uint8 path takes."""
        return [u + c for u, c in zip(self.uint8_link, self.convert)]

    @property
    def printed_uint8_path(self) -> list[float]:
        """Per round: ``uint8_path`` in ms as printed, the sum of its two parts as printed (1.429 + 1.769 ms
        prints 3.198, where the unrounded sum may print 3.197: lesson 05's fourth reader)."""
        return [round(as_printed(u, 3, MS) + as_printed(c, 3, MS), 3)
                for u, c in zip(self.uint8_link, self.convert)]

    @property
    def link_ratios(self) -> list[float]:
        """Per round: float32 across / uint8 across, the link alone (alpha + n/beta keeps it under the bytes'
        ratio)."""
        # each from the two times as printed (ms)
        return [printed_ratio(f, u, 3, MS) for f, u in zip(self.float_link, self.uint8_link)]

    @property
    def link_ratio(self) -> float:
        """The link alone, the rounds' median of ``link_ratios``: the one figure every line quotes."""
        return statistics.median(self.link_ratios)

    @property
    def link_spread(self) -> float:
        """From ``link_ratio`` to the farthest round, never under the 2 % floor (as ``spread`` for the net)."""
        return max(farthest_printed(self.link_ratios, self.link_ratio), NOISE_FLOOR * self.link_ratio)

    @property
    def median_round(self) -> int:
        """The index of the median round by its net ratio (the lower middle one for an even count): one real
        round, so that its times, their sum and its ratio can be read together and recomputed."""
        middle = statistics.median_low(self.ratios)
        return self.ratios.index(middle)

    @property
    def speedup(self) -> float:
        """The median round's ratio (as lessons 02 and 08 judge, paired rounds): each round's float32 and uint8
        times met the same machine, so their ratio cancels what moved between rounds."""
        return self.ratios[self.median_round]

    @property
    def rounds_faster(self) -> int:
        """How many rounds the uint8 path (across + convert) took less time than float32 across, counted from
        the rounds' ratios as printed (``claims.round_above``): a round printed 1.00x is not faster."""
        return sum(round_above(r, 1.0) for r in self.ratios)

    @property
    def spread(self) -> float:
        """From the median to the farthest round, never under the lesson's 2 % noise floor: ``speedup
        ± spread`` covers every round, so rounds on both sides of 1x read as noise
        (``claims.speedup_verdict``)."""
        return max(farthest_printed(self.ratios, self.speedup), NOISE_FLOOR * self.speedup)

    def in_median_round(self, name: str) -> float:
        """``name``'s seconds (float_link, uint8_link, convert, uint8_path) in the median round."""
        return getattr(self, name)[self.median_round]


def slower_part(c: Compression) -> str:
    """Which part of the uint8 path, the crossing or the conversion, took longer: decided across the rounds,
    not from the median round alone, since one round's order can flip in the next. A part is named only where
    it was slower in every round beyond the lesson's 2 % floor (``claims.one_side`` on each round's ratio of
    the two times as printed); "about the same time" only where every round's ratio, as printed, lies
    within 2 % of 1x (``claims.within_noise``); otherwise neither part was the slower in every round, and
    each round's ratio is given, the rounds counted as printed (``claims.round_above``: a round printed 1.00x
    is neither part's). Lesson 05."""
    crossing_over = [printed_ratio(u, v, 3, MS) for u, v in zip(c.uint8_link, c.convert)]
    convert_over = [printed_ratio(v, u, 3, MS) for u, v in zip(c.uint8_link, c.convert)]
    n, table = len(crossing_over), c.median_round   # the table's round: its two times divide to its figure
    if one_side(crossing_over, 1 + NOISE_FLOOR) == "above":
        return (f"the crossing is the slower part of the uint8 path in all {n} rounds, beyond 2 % "
                f"({crossing_over[table]:.2f}x the conversion in the table's round)")
    if one_side(convert_over, 1 + NOISE_FLOOR) == "above":
        return (f"the conversion is the slower part of the uint8 path in all {n} rounds, beyond 2 % "
                f"({convert_over[table]:.2f}x the crossing in the table's round)")
    # the rounds as the sentence prints them (2 decimals): a round printed 1.00x took neither part longer
    crossing = sum(round_above(r, 1.0) for r in crossing_over)
    conversion = sum(round_above(r, 1.0, below=True) for r in crossing_over)
    each = ", ".join(f"{r:.2f}x" for r in crossing_over)
    # "about the same" is a claim about size: every round's ratio, as printed, within 2 % of 1x
    if all(within_noise(as_printed(r, 2), NOISE_FLOOR, 1.0) for r in crossing_over):
        return (f"the crossing and the conversion took about the same time: within 2 % of each other in all "
                f"{n} rounds (the crossing's time over the conversion's, each round: {each})")
    if n in (crossing, conversion):   # one part longer in every round, but not beyond 2 % in each
        part = "crossing" if crossing == n else "conversion"
        return (f"the {part} took the longer time in all {n} rounds, but not beyond 2 % in every one (the "
                f"crossing's time over the conversion's, each round: {each})")
    level = n - crossing - conversion
    level = f", level as printed in {level}" if level else ""
    return (f"neither part was the slower in every round (the crossing in {crossing} of {n}, the conversion in "
            f"{conversion}{level}; the crossing's time over the conversion's, each round: {each})")


def link_ratio_verdict(c: Compression) -> str:
    """The link alone (float32's time over uint8's, each round) against the bytes' ratio, the ceiling that
    alpha + n/beta sets (alpha does not shrink with the bytes), in the claims' words: every round above it beyond
    the 2 % floor is "above the bound: a finding to explain"; every round at or under it is as the model
    allows; otherwise the course's noise rule on the rounds' median ± its spread (to the farthest round), as
    printed (``claims.within_noise``): a median above the bound whose ± covers it is "above the bound, within
    noise", never a plain "at the bound". Lesson 05."""
    ratios, bound = c.link_ratios, c.byte_ratio
    if all(r > bound * (1 + NOISE_FLOOR) for r in ratios):
        return "above the bound: a finding to explain (every round above it, beyond 2 %)"
    if all(r <= bound for r in ratios):
        return "at or under the bound in every round, as alpha + n/beta allows"
    middle, spread = as_printed(c.link_ratio, 2), as_printed(c.link_spread, 2)
    if within_noise(middle, spread, bound):   # the median's side of the bound said, as printed
        return ("above the bound, within noise: its ± covers it, no breach shown" if middle > bound else
                "at the bound (within noise): its ± covers it, no breach shown")
    if middle > bound:
        return "above the bound: a finding to explain (beyond its ±)"
    return "under the bound beyond its ±, as alpha + n/beta allows"


def held_back(verdict: str, where: str, says: str) -> str:
    """A ``link_ratio_verdict`` breach ("above the bound: a finding to explain (why)") held back until the
    link's sweep, which times the same two batches again, agrees: the why kept, the claim conditional, in the
    one wording the visible line and the details share (t30_0506 #3). ``where``: where the sweep is timed
    (" below"); ``says``: where its reading is printed."""
    why = verdict[verdict.index("("):]
    return (f"above the bound {why}: a finding to explain only if the link's sweep{where}, timing the same two "
            f"batches again, agrees ({says})")


def link_alone_line(c: Compression) -> str:
    """Section 5's visible sentence on the link alone: the rounds' median (the one figure the details quote
    too, with each round) and ``link_ratio_verdict``; where it passed the bound, what that means for the net
    figure's bound. A breach is stated as provisional: the link's sweep, timed after this line, times the same
    two batches again and may disagree (``sweep_ratio_reading`` says whether it does). Lesson 05."""
    verdict = link_ratio_verdict(c)
    head = (f"The link alone, float32's time over uint8's: {c.link_ratio:.2f}x ± {c.link_spread:.2f} (the median "
            f"of {len(c.link_ratios)} rounds), against the bytes' ratio {c.byte_ratio:.0f}x, alpha + n/beta's "
            f"ceiling: ")
    if "a finding" in verdict:
        return (head + held_back(verdict, " below", "the last paragraph of its details says") + "; either way the "
                f"net figure's {c.byte_ratio:.0f}x is the model's ceiling, not one this link was shown to keep")
    head += verdict
    if verdict.startswith("above the bound, within noise"):
        # a median past the ceiling that its ± still covers: neither a ceiling kept nor a breach shown
        return (head + f": the bound is not shown to hold on this link, nor to break; only the net figure, "
                f"{c.speedup:.2f}x, answers whether compressing pays here")
    return head


def link_only_note(c: Compression, float_residual: float, uint8_residual: float,
                   sweep: dict[int, float] | None = None, predicted: float | None = None) -> str:
    """Section 5's link-alone ratio in the details: each round and ``link_ratio_verdict``; where it passed the
    bound, set beside what the link's sweep measured of the two batches (their residuals from its fit,
    (measured - fit) / measured) and of its own fitted sizes (``sweep``: size -> residual; ``sweep_reading``).
    ``predicted``: the fit's own float32 / uint8 ratio. Lesson 05."""
    each = ", ".join(f"{r:.2f}x" for r in c.link_ratios)
    verdict = link_ratio_verdict(c)
    figure = (f"{c.link_ratio:.2f}x ± {c.link_spread:.2f}, the median of their float32 / uint8 link times "
              f"(each round's own: {each})")
    if "a finding" not in verdict:
        return f"{figure}: against the bytes' ratio {c.byte_ratio:.0f}x, {verdict}"
    # held back as the visible line holds it (t30_0506 #3): the sweep's own reading closes these details
    said = held_back(verdict, "", "the last paragraph of these details says whether it does")
    return (f"{figure}: {said}; alpha + n/beta gives at most the bytes' ratio, {c.byte_ratio:.0f}x. "
            + sweep_reading(float_residual, uint8_residual, sweep, predicted, c.link_ratio))


def is_loose(sweep: dict[int, float], loose: float = LOOSE_FIT) -> bool:
    """Whether the link's fit misses one of its own sizes (``sweep``: size -> ``residual``) by more than
    ``loose``, judged on the residuals as printed (whole percents): -10% printed is within 10 %. Lesson 05."""
    return max(abs(printed_percent(r)) for r in sweep.values()) > half_up(loose * 100, 0)


def fit_prediction(predicted: float, sweep: dict[int, float], loose: float = LOOSE_FIT) -> str:
    """The fit's own float32 / uint8 ratio for the link alone, said as a prediction only where the fit keeps
    to its own sizes (``is_loose``): a fit that misses them by up to 79% cannot support one (lesson 05)."""
    if is_loose(sweep, loose):
        return (f"It would predict {predicted:.2f}x for the link alone, which a fit this loose (more than "
                f"{loose:.0%} off its own sizes) cannot support")
    return f"It predicts {predicted:.2f}x for the link alone"


def fit_reading(sweep: dict[int, float], byte_ratio: float, loose: float = LOOSE_FIT,
                link_verdict: str = "", breach: str = "", play: bool = False) -> str:
    """How well alpha + n/beta fits the link's own sweep (``sweep``: size -> ``residual``, as printed), and
    so what the bytes' ratio, its ceiling, means for this link: the section's visible answer (lesson 05).
    ``link_verdict``: ``link_ratio_verdict`` on the link alone's rounds, printed above this line; a close fit
    speaks for the model on its own sizes only, so the ceiling "stands" only where those rounds kept to it
    too, never where they read above it, within noise or beyond (t29_0506 #3). ``breach``: ``breach_outcome``,
    said after the reading where the rounds passed the ceiling, so the line says which it was (t31_0506 #2).
    ``play``: ``shows_play``, the sweep and the rounds disagreeing about the same two batches where either
    reaches past the ceiling: the ceiling then neither "stands" nor breaks, as the details say (t38_0506 #1)."""
    then = f"; {breach}" if breach else ""
    low, high = min(sweep.values()), max(sweep.values())
    head = (f"The link's fit, alpha + n/beta, misses the sizes it was fitted to by {signed_percent(low)} to "
            f"{signed_percent(high)} of their measured times (the details above)")
    if is_loose(sweep, loose):
        return (f"{head}: more than {loose:.0%}, so this link follows that model only loosely, and the bytes' "
                f"ratio, {byte_ratio:.0f}x, is the model's ceiling, not one this link was shown to keep{then}")
    close = f"{head}: within {loose:.0%}, so the fit supports that model on its own sizes"
    if link_verdict.startswith("above the bound, within noise"):
        return (f"{close}; the link alone's rounds (above) neither confirm nor break its ceiling, the bytes' "
                f"ratio, {byte_ratio:.0f}x")
    if "a finding" in link_verdict:
        return (f"{close}, but the link alone's rounds (above) read past its ceiling, the bytes' ratio, "
                f"{byte_ratio:.0f}x: not one this link was shown to keep{then}")
    if play:   # the same two batches timed twice disagree: the details' reading, said here too
        return (f"{close}; but its sweep and the paired rounds, the same two batches timed twice, disagree beyond "
                f"the rounds' ±, so this run shows the link's play, not the bytes' ratio, {byte_ratio:.0f}x, kept "
                f"or broken")
    return f"{close}, and the bytes' ratio, {byte_ratio:.0f}x, stands as its ceiling"


def sweep_ratio_reading(c: Compression, float_sweep: float, uint8_sweep: float) -> str:
    """The link-alone ratio the sweep's own two batches give (float32's time over uint8's, from the times as
    the sweep's table prints them, ms to 3 decimals), beside the paired rounds' median ± its spread and the
    bytes' ratio: the same two batches timed twice, so where the sweep's ratio lies outside the rounds' band the
    two measurements disagree, and a ratio past the bytes' ratio in either one shows the link's play, not the
    model's ceiling kept or broken. Lesson 05 (t25_0506 #2)."""
    ratio, middle, spread, low, high = _sweep_and_band(c, float_sweep, uint8_sweep)
    head = (f"the sweep's own two batches give {as_printed(float_sweep, 3, MS):.3f} / "
            f"{as_printed(uint8_sweep, 3, MS):.3f} = {ratio:.2f}x for the link alone")
    bound = f"past the bytes' ratio, {c.byte_ratio:.0f}x" if ratio > c.byte_ratio else \
        f"within the bytes' ratio, {c.byte_ratio:.0f}x"
    rounds = f"the paired rounds' {middle:.2f}x ± {spread:.2f} ({low:.2f}-{high:.2f}x)"
    if low <= ratio <= high:
        return f"{head}, {bound}, and within {rounds}: the two measurements agree"
    then = (", so this run shows the link's play, not the model's ceiling kept or broken"
            if shows_play(c, float_sweep, uint8_sweep) else "")
    return f"{head}, {bound}, and outside {rounds}: the two measurements disagree by more than the rounds' ±{then}"


def _sweep_and_band(c: Compression, float_sweep: float, uint8_sweep: float) -> tuple[float, ...]:
    """The sweep's ratio of the two batches and the rounds' median, ±, and band, each as the page prints it."""
    ratio = half_up(printed_ratio(float_sweep, uint8_sweep, 3, MS), 2)
    middle, spread = as_printed(c.link_ratio, 2), as_printed(c.link_spread, 2)
    return ratio, middle, spread, half_up(middle - spread, 2), half_up(middle + spread, 2)


def shows_play(c: Compression, float_sweep: float, uint8_sweep: float) -> bool:
    """Whether the sweep's ratio of the two batches lies outside the paired rounds' band while either reaches
    past the bytes' ratio: the same batches timed twice disagree there, so the run shows the link's play, not
    the model's ceiling kept or broken (``sweep_ratio_reading`` and ``fit_reading`` say so alike). Lesson 05."""
    ratio, _, _, low, high = _sweep_and_band(c, float_sweep, uint8_sweep)
    return not low <= ratio <= high and (ratio > c.byte_ratio or high > c.byte_ratio)


def scatter_reach(sweep: dict[int, float], predicted: float, measured: float) -> tuple[float, float]:
    """How far the measured link ratio lies from the fit's (``measured`` / ``predicted``, as printed), and the
    most the fit's own scatter can move a ratio: two fitted sizes at the residuals' ends set a ratio up to
    (1 - lowest) / (1 - highest) times the fit's (residuals as printed: -23% is -0.23). Both half up, 2
    decimals, as a reader redoes them from the page. Lesson 05."""
    factor = half_up(printed_ratio(measured, predicted), 2)
    low, high = (printed_percent(r) / 100 for r in (min(sweep.values()), max(sweep.values())))
    return factor, half_up((1 - low) / (1 - high), 2)


def breach_outcome(c: Compression, float_sweep: float, uint8_sweep: float, sweep: dict[int, float],
                   predicted: float) -> str:
    """Whether the link alone's breach of the bytes' ratio is a finding, by section 5's own rule: the rounds
    past it beyond their ± (``link_ratio_verdict``), the sweep agreeing (``sweep_ratio_reading``'s band) and
    the gap from the fit beyond what the fit's own scatter allows (``scatter_reach``): the visible line says
    the outcome, so the details' reasons never stand alone (t31_0506 #2). "" where the rounds show no breach."""
    if "a finding" not in link_ratio_verdict(c):
        return ""
    ratio, middle, _, low, high = _sweep_and_band(c, float_sweep, uint8_sweep)   # each as the page prints it
    past = f"the link alone read past {c.byte_ratio:.0f}x"
    if not low <= ratio <= high:
        return (f"{past} in its rounds ({middle:.2f}x), but its sweep ({ratio:.2f}x) disagrees beyond the rounds' "
                "±: not a finding")
    factor, reach = scatter_reach(sweep, predicted, c.link_ratio)
    both = f"{past} in rounds and sweep ({middle:.2f}x, {ratio:.2f}x)"
    if reach >= factor:
        return (f"{both}, within what this fit's scatter allows ({factor:.2f} against up to {reach:.2f}): not a "
                "finding against the model")
    return (f"{both}, beyond what this fit's scatter allows ({factor:.2f} against up to {reach:.2f}): a finding "
            "to explain (its cause is not tested here)")


def sweep_reading(float_residual: float, uint8_residual: float, sweep: dict[int, float] | None,
                  predicted: float | None, measured: float) -> str:
    """What the link's sweep shows beside a link ratio above the bytes' ratio, and only that: the two batches'
    residuals from the fit ((measured - fit) / measured), and how far the sweep's own fitted sizes scatter
    from it. A time t sits at fit / (1 - residual), so two sizes at the scatter's ends set a ratio up to
    (1 - lowest) / (1 - highest) times the fit's: where that reaches the measured / predicted factor, the link
    follows alpha + n/beta only that loosely. What sets the scatter is a hypothesis, not tested. Lesson 05."""
    text = (f"In the link's sweep above, the float32 batch sat {signed_percent(float_residual)} of its measured "
            f"time from the fit, the uint8 batch {signed_percent(uint8_residual)} of its own")
    if not sweep or not predicted:
        return text + ". Why is not measured here: no fit and fitted sizes to set the ratio beside"
    # worked from the figures as printed (two decimals, residuals in whole percents), half up as a reader
    # rounds, and compared as printed: a reader who redoes 4.43 / 3.80 finds the factor printed beside it
    factor, reach = scatter_reach(sweep, predicted, measured)
    low, high = min(sweep.values()), max(sweep.values())
    text += (f"; the fit's own ratio is {predicted:.2f}x, so {measured:.2f}x is {factor:.2f} times the "
             f"fit's ratio; the sweep's own fitted sizes sat from {signed_percent(low)} to {signed_percent(high)} "
             f"of their measured times off the same fit, a scatter that alone can move a ratio up to {reach:.2f} times")
    if reach >= factor:
        return (text + ": this link's times follow alpha + n/beta only that loosely, so two of them can pass its "
                "ceiling. What sets the scatter (the shared cores' scheduling, gloo's transport, caches or "
                "buffers) is a hypothesis, not tested here")
    return (text + ": less than that, so the gap stands out from the sweep's scatter. Its cause (a cache or "
            "buffer the larger message outgrows, for one) is a hypothesis, not tested here")


def net_caveat(link_name: str, simulated: bool) -> str:
    """Where section 5's net figure (the bytes saved against the conversion) was measured, and why it does
    not carry over: in cpu mode a copy between two CPU processes stands in for the host-to-device transfer and
    the conversion runs on that CPU; on a GPU it holds for that GPU and link. Lesson 05."""
    if simulated:
        return (f"Where this balance was measured: a copy between two CPU processes ({link_name}) stands in for "
                "the host-to-device transfer, and the conversion ran on the same CPU. On a GPU the bytes cross "
                "PCIe, slower than the GPU's own memory where it converts, so the balance differs there: only a "
                "run on a GPU measures it")
    return (f"Where this balance was measured: {link_name}, the conversion on that GPU; another GPU or link (PCIe "
            "generation, lanes) moves it")


def decoded_gap(images: torch.Tensor, device) -> float:
    """The largest gap between a batch as each path delivers it: decoded on the host, float32 (what
    ``decode_on_host=True`` sends across), and moved as uint8 to ``device`` then converted there by
    ``decode_into``, the conversion section 5 times. Cheap: one batch, no timing (lesson 05)."""
    reference = decode_images(images)   # the float32 path: converted before it crosses
    arrived = decode_into(images.to(device), torch.empty(images.shape, device=device))
    return (arrived.cpu() - reference).abs().max().item()


def within_tolerance(gap: float, tolerance: float = DECODE_TOLERANCE) -> bool:
    """Whether ``gap`` as printed (``{gap:.1e}``, what the reader sees) is within ``tolerance``."""
    return float(f"{gap:.1e}") <= tolerance


def tolerance_line(gap: float, tolerance: float = DECODE_TOLERANCE) -> str:
    """Section 5's end-to-end check, in words: a speed-up counts only where what arrives is what the float32
    path delivers, within ``tolerance`` (``DECODE_TOLERANCE``, and why it is that figure). Lesson 05."""
    head = (f"the uint8 path's images, converted on the device, lie at most {gap:.1e} from the float32 "
            "path's (converted on the host, what decode_on_host=True sends), against a tolerance of "
            f"{tolerance:.1e} (torch.testing's for float32: the same arithmetic on the same stored bytes "
            f"differs by rounding only; one stored level apart is {LEVEL:.1e})")
    if within_tolerance(gap, tolerance):
        return f"Same inputs: {head}: within it, so the net figure above compares like with like"
    return (f"Not the same inputs: {head}: beyond it, the conversion changed the images, so the net speed-up "
            "above does not count (a speed-up counts only for outputs within tolerance of the float32 path)")


def counted_claim(row: Claim, gap: float, tolerance: float = DECODE_TOLERANCE) -> Claim:
    """Section 5's row of the claims table, its verdict kept only where the images were within tolerance
    (``tolerance_line``); otherwise the verdict says the speed-up does not count. Lesson 05."""
    if within_tolerance(gap, tolerance):
        return row
    verdict = (f"does not count: the uint8 path's images lie {gap:.1e} from float32's, beyond the tolerance "
               f"{tolerance:.1e} (section 5)")
    return Claim(row.claim, row.measured, row.against, verdict)


def convert_seconds(n_images: int, device, side: int = 224, repeats: int = 5) -> float:
    """Median seconds to convert ``n_images`` uint8 3 x side x side images to normalised float32 on
    ``device``: ``decode_images``' arithmetic into a buffer allocated once, as a training loop's is after
    its first batch."""
    images = torch.randint(0, 256, (n_images, 3, side, side), dtype=torch.uint8, device=device)
    decoded = torch.empty(images.shape, device=device)  # float32, 4 bytes a pixel
    return bench.measure(lambda: decode_into(images, decoded), repeats=repeats, device=device).median


def measure_compression(link_plan, n_images: int, device, side: int = 224, rounds: int = 3) -> Compression:
    """``rounds`` paired rounds: the float32 and the uint8 batch across ``link_plan``'s link
    (``machine.measure_link``), and the conversion on ``device``. Lesson 05."""
    from utils import machine

    sizes = batch_bytes(n_images, side)
    result = Compression(sizes["float32"], sizes["uint8"], [], [], [])
    for _ in range(rounds):
        link = machine.measure_link(link_plan, [sizes["float32"], sizes["uint8"]])
        result.float_link.append(link.seconds[0])
        result.uint8_link.append(link.seconds[1])
        result.convert.append(convert_seconds(n_images, device, side))
    return result


def host_to_device(n_images: int, device, side: int = 224, repeats: int = 5) -> dict[str, float]:
    """Seconds to copy ``n_images`` float32 3 x side x side images to ``device`` from pageable and pinned memory.

    GPU only. From pageable memory the driver stages the bytes through its own page-locked buffer; from pinned
    memory the copy engine reads them directly. Both copies go into one buffer allocated once on the device.
    """
    pageable = torch.randint(0, 256, (n_images, 3, side, side), dtype=torch.uint8).float()
    sources = {"pageable": pageable, "pinned": pageable.pin_memory()}
    destination = torch.empty_like(pageable, device=device)
    return {name: bench.measure(lambda s=source: destination.copy_(s, non_blocking=True), repeats=repeats,
                                device=device).median
            for name, source in sources.items()}


def batch_bytes(n_images: int, side: int = 224) -> dict[str, int]:
    """Bytes of a batch of ``n_images`` 3 x side x side images as each dtype crosses the link (lesson 05)."""
    pixels = n_images * 3 * side * side
    return {"float32": pixels * 4, "uint8": pixels}


def input_link_plan(plan):
    """The plan whose link a batch of inputs crosses: in cpu mode the two workers' gloo link (the simulated
    link); on a GPU host to the first GPU (a one-device plan: ``machine.link_route`` names it)."""
    from utils import devices

    return plan if plan.simulated else devices.plan(1)


def link_sizes(batches: dict[str, int]) -> list[int]:
    """The sizes the link is measured at: 64 KiB to 16 MiB for its fit (the batches' range, where the bytes
    cost more than the message), then the batches themselves."""
    return [2**16, 2**18, 2**20, 2**22, 2**24] + sorted(batches.values())


def recorded_gpu_copy(folder=None) -> str | None:
    """The ``copy`` benchmark's pinned host-to-GPU figure from a results file recorded on a GPU, in one line
    with its hardware; None when no results file of a GPU mode holds one (lesson 05, cpu mode)."""
    import json
    from pathlib import Path

    folder = Path(folder or Path(__file__).resolve().parents[3] / "results")
    for mode in ("1gpu", "2gpu", "ngpu"):
        file = folder / f"bench-{mode}.json"
        entries = json.loads(file.read_text()) if file.is_file() else []
        for r in entries:
            if r.get("name") == "copy":
                return (f"{r['note']}: {r['measured']:.1f} {r['unit']} against a bound of {r['bound']:.1f} "
                        f"{r['unit']}, recorded on {r['hardware']} ({file.name})")
    return None
