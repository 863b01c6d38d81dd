"""Lab 01's lookup against its own ceiling (``report.miss_sentences`` prints the sentence).

The memory roof counts STREAM's bytes, while a CPU reads a cache line before writing it (write-allocate): each
byte an op writes costs two. Lesson 01 works out how far an op's counted bytes can then flow against that roof
(``roofline.headroom``). A lookup writes one row per id it looks up, repeats included, while it reads each
distinct row from memory once at best, so on a CPU its ceiling lies below the roof, and judging it against
80 % of the roof itself would call a lookup that runs as fast as its bytes allow a shortfall. The ceiling here
is worked from the bytes as the sentence prints them (MB, two decimals), so that a reader can redo it.
"""

from __future__ import annotations

from dataclasses import dataclass

from utils import claims
from utils.claims import within_noise
from utils.lessons.why_slow import roofline

MB = 1e6
NOISE_MARGIN = 0.1  # below its ceiling, a gap must pass the rounds' spread by this much to be a shortfall


@dataclass(frozen=True)
class LookupCeiling:
    """The most of its memory roof a lookup's bytes can reach without a cache's help (``room``, x the roof, as
    printed: two decimals), and the bytes it was worked from, as printed (MB)."""

    room: float
    read_mb: float
    written_mb: float
    counted: int = 0  # the roof's STREAM kernel: arrays it counts, and arrays the memory moves (0: a GPU)
    moved: int = 0


def lookup_ceiling(op, bandwidth_name: str, cpu: bool) -> LookupCeiling:
    """Lesson 01's headroom for ``op`` (its ``bytes`` and ``written``) under the roof ``bandwidth_name``,
    worked from the MB as printed: moved / counted x (read + written) / (read + 2 x written). On a GPU (no
    read before a full-line write) the roof itself: 1.0."""
    read = claims.as_printed(op.bytes - op.written, 2, MB)
    written = claims.as_printed(op.written, 2, MB)
    if not cpu:
        return LookupCeiling(1.0, read, written)
    counted, moved = roofline.STREAM_TRAFFIC["add" if "STREAM add" in bandwidth_name else "copy"]
    traffic = (read + 2 * written) or 1.0  # no bytes at all: nothing to cap
    return LookupCeiling(claims.half_up(moved / counted * (read + written) / traffic, 2), read, written,
                         counted, moved)


def ceiling_words(f: float, ceiling: LookupCeiling) -> str:
    """Where the lookup's ceiling comes from, and its share ``f`` of the roof as a share of that ceiling."""
    if not ceiling.counted:
        return "on a GPU nothing is read before a write, so its write-allocate bound is the roof itself"
    of_ceiling = claims.half_up(f / ceiling.room, 2)
    return (f"its write-allocate bound is {ceiling.room:.2f}x that roof, worked as lesson 01 does: the roof counts "
            f"STREAM's bytes ({ceiling.moved} arrays moved for {ceiling.counted} counted), while each byte "
            f"the lookup writes costs two (write-allocate), and it writes one row per id, repeats included, "
            f"and it reads each distinct row from memory once at best ({ceiling.read_mb:.2f} MB read, "
            f"{ceiling.written_mb:.2f} MB written). {claims.percent(f)} of the roof is "
            f"{claims.percent(of_ceiling)} of that bound")


def _above_words(f: float, ceiling: LookupCeiling, over: float, spread: float) -> str:
    """A share ``f`` above the lookup's bound as printed (``over`` points of the roof): what can put it there,
    told apart where the run can (every branch written). Not its rounds' ``spread`` (as printed in the block,
    named here so a wide one does not read as a cause, t33_labs03): every op keeps its fastest run, and a busy
    machine only slows a kernel, so noise cannot lift a share above a bound. What can: the
    bandwidth probe measuring low in these rounds (a roof set too low lifts every share against it), or, on a
    CPU, stores that skip write-allocate (nothing read before a write, so its bound becomes the roof's
    moved / counted, 4/3 = 1.33x for STREAM add). A share past that too rules those stores out as the whole
    cause."""
    points = round(over * 100)
    said = (f"above that bound by {points} point{'' if points == 1 else 's'} of the roof. Its rounds' "
            f"spread of {claims.percent(spread)} cannot lift it there: that spread is its slower rounds, and "
            "each op keeps its fastest run (a busy machine only slows a kernel). ")
    if not ceiling.counted:  # a GPU: no write-allocate to skip
        return said + ("Write-allocate does not explain it either: the bandwidth probe measured low in these "
                       "rounds, or a cache served some of its bytes; this run does not tell which.")
    skip = claims.half_up(ceiling.moved / ceiling.counted, 2)  # its bound with nothing read before a write
    lifts = f"lifts its bound to the roof's {ceiling.moved}/{ceiling.counted} = {skip:.2f}x"
    if f <= skip:
        return said + ("Two causes can, and this run does not tell them apart: the bandwidth probe measured low "
                       "in these rounds, or its stores skipped write-allocate (nothing read before a write), "
                       f"which {lifts}, and {claims.percent(f)} is within that. Either way, reading only the rows "
                       "its ids name, it moved what you counted about as fast as the memory allows.")
    return said + (f"Stores that skip write-allocate (nothing read before a write) do not explain it alone: that "
                   f"{lifts}, and {claims.percent(f)} is above even that. The bandwidth probe measured low in "
                   "these rounds, or a cache kept some of its bytes from memory; this run does not tell which.")


def lookup_sentence(f: float, spread: float, ceiling: LookupCeiling) -> str:
    """The lookup's share ``f`` of its memory roof, judged against its own ceiling (``lookup_ceiling``) by the
    course's noise rule (``claims.within_noise``) with a margin: below it, a shortfall is shown only where the
    gap passes the rounds' spread by more than ``NOISE_MARGIN`` (every branch written). Every gap is said in
    points of the roof, worked from the two printed shares ("77 - 61 = 16"), never of the ceiling's share, and
    so is the spread: a spread of 19 % of the median share 61 % is 0.19 x 61 = 12 points, not 19."""
    from utils.labs.predict_the_roofline.report import AT_ROOF, rough_note  # the rules every op's share reads

    f, spread, room = claims.half_up(f, 2), claims.half_up(spread, 2), ceiling.room  # as printed: whole %, half up
    of_ceiling = claims.half_up(f / room, 2)
    gap = claims.half_up(room - f, 2)  # in points of the roof
    points = claims.half_up(spread * f, 2)  # the spread is relative to the median share: in points of the roof
    spread_said = (f"its rounds' spread of {claims.percent(spread)} (the slowest round minus the fastest, over "
                   f"their median: {points * 100:.0f} points of the roof at {claims.percent(f)})")
    # the spread and the margin in whole points, and their sum, as a reader adds them: "12 + 10 = 22"
    allowed = (f"{points * 100:.0f} + {NOISE_MARGIN * 100:.0f} = "
               f"{round((points + NOISE_MARGIN) * 100):.0f} points")
    over = claims.half_up(f - room, 2)  # above the bound, in points of the roof
    text = (f"The lookup reached {claims.percent(f)} of its memory roof; {ceiling_words(f, ceiling)}: " + (
        _above_words(f, ceiling, over, spread)
        if over > 0 else
        f"at or below that bound, but {AT_ROOF:.0%} of it or more: reading only the rows its ids name, it "
        "moved what you counted about as fast as the memory allows."
        if of_ceiling >= AT_ROOF else
        f"below {AT_ROOF:.0%} of it; the gap to the bound, {room * 100:.0f} - {f * 100:.0f} = {gap * 100:.0f} "
        f"points of the roof, is within {spread_said}: within noise: no effect shown."
        if within_noise(f, points, room) else
        f"below it by {gap * 100:.0f} points of the roof, against {spread_said}. A gap counts as a "
        f"shortfall only past the spread by over {NOISE_MARGIN * 100:.0f} points ({allowed}); "
        f"{gap * 100:.0f} does not pass it: within noise: no effect shown."
        if gap <= round(points + NOISE_MARGIN, 9) else
        f"below it by {gap * 100:.0f} points of the roof, past {spread_said} by over "
        f"{NOISE_MARGIN * 100:.0f} points ({gap * 100:.0f} against {allowed}): a limit the two roofs leave "
        "out. One candidate: a gather reads rows scattered through the table, where STREAM streams long "
        "arrays; this run does not measure it."))
    return text + rough_note(spread)
