"""Row B8's evidence and its reading in this run (lesson 09): 4 MiB of fp32 sent as they are against packed to
uint8, sent and unpacked, in the same rounds; the parts the condition weighs (the bytes saved against the
packing's cost), read as printed, and the same link's other timings beside them. Split out of ``timed_rows``
(which re-exports it) to keep each module under the course's 600 lines.
"""

from __future__ import annotations

from utils import claims
from utils.lessons.articles_checked.checks import (_median, busy_note, compression_reading, paired,
                                                   sizes_out_of_order, too_busy)
from utils.lessons.articles_checked.decode_loss import one_way_words
from utils.lessons.articles_checked.evidence import LINK_REPEATS
from utils.lessons.articles_checked.figures import PACKED_BOUND, _sends, compression_rounds, fixed_cost
from utils.lessons.articles_checked.sources import ARITHMETIC, MEASURED, Part, two_devices
from utils.lessons.articles_checked.timed_words import _us, rounds_above_note, rounds_words, size_words
from utils.lessons.articles_checked.wording import _lesson_05_differs


PARTS_GAP = 0.2  # the packed way's median off its parts' sum by more than this share: the parts do not add up
APART = "each part is timed apart (the packing alone, in one process; the bytes alone, half a round trip)"


def parts_gap_words(c: dict) -> str:
    """The packed way's median beside its parts' sum (the medians of the uint8 bytes and of the packing, timed
    apart in the same rounds), the statistic the row's other figures use: whether the parts add up, and what
    that means for the condition where they do not (less: parts that overlap; more: a cost the parts miss).
    The gap is a share of the sum, said so, and judged as printed (whole µs, whole per cent)."""
    whole = _us(_median(c["packed"]))
    parts = _us(_median(c["bytes"])) + _us(_median(c["packing"]))  # the sum of the two parts as printed
    gap = int(claims.as_printed(whole / parts - 1, 0, scale=0.01))  # per cent of the sum, from the printed µs
    side = "below" if gap < 0 else "above"
    said = (f"the packed way's median, {whole} µs, {abs(gap)}% {side} its parts' sum, {parts} µs (the gap as a "
            f"share of the sum; the rule: within {PARTS_GAP:.0%} of it)")
    if abs(gap) <= PARTS_GAP * 100:
        return f"; {said}: the parts add up"
    if gap < 0:
        return (f"; the parts do not add up: {said}: {APART}, so the condition weighs parts that overlap or run "
                "faster together, and the end-to-end time above decides")
    return (f"; the parts do not add up: {said}: {APART}, so the condition misses a cost the whole pays, and the "
            "end-to-end time above decides")


CONDITION_WORDS = {"holds": "less than they save: the condition holds",
                   "fails": "more than they save: the condition fails",
                   "break-even": "about what they save: at break-even, within the timings' noise",
                   "unread": ("less than the whole plain send, and the saving is lost in the timings' noise: "
                              "whether packing costs less than the bytes save is not read from this run")}


def saved_words(saved: int) -> str:
    """What the 3 MiB not sent saved, in whole µs as printed, by its sign: where the smaller message took as
    long or longer, no saving is read from the two times (fewer bytes cannot take longer by their own cost: the
    timings' noise), never "save -94 µs" nor "save nothing"."""
    if saved > 0:
        return f"so the 3 MiB not sent save {saved} µs"
    took = ("the two took the same time" if saved == 0 else
            f"the 1 MiB message took {-saved} µs longer than the 4 MiB one, and fewer bytes cannot take longer by "
            "their own cost")
    return f"so no saving is read from these two times ({took}: the timings' noise)"


def condition_words(condition: str, saved: int, plain: int = 0, packing: int = 0) -> str:
    """Packing against what it saves (``CONDITION_WORDS``). Where no saving is read (``saved_words``), the
    condition fails only for a reason the noise cannot touch: the packing alone cost at least the whole plain
    send (``plain``, ``packing``: whole µs as printed), so no saving from the bytes, at most that whole send,
    could repay it."""
    if saved <= 0 and condition == "fails":
        return (f"at least the whole plain send ({packing} against {plain} µs): no saving from the bytes, at most "
                "that whole send, could repay it, so the condition fails whatever the noise")
    return CONDITION_WORDS[condition]


def b8(m):
    c = m["compressed"]
    condition, said = compression_reading(m)
    ratios = compression_rounds(c)  # each from the whole µs the page prints
    plain, sent, packing = (_median(c[k]) * 1e6 for k in ("plain", "bytes", "packing"))
    saved = int(claims.as_printed(plain, 0)) - int(claims.as_printed(sent, 0))  # whole µs, as printed
    return [Part(f"gloo, 2 processes: 4 MiB of fp32 sent as they are, against packed to uint8 (1 MiB), sent and "
                 f"unpacked, end to end: the packed way {rounds_words(ratios)} the plain way's speed, bound "
                 f"{PACKED_BOUND}x (a quarter of the bytes; the fixed cost stays): {said}"
                 f"{rounds_above_note(ratios, PACKED_BOUND, devices=None)}"
                 f"{busy_note(m, 'compressed', 2)}", MEASURED, two_devices(m["plan"], m["hw"])),
            Part(f"the parts the condition weighs, medians of the same rounds: 4 MiB as fp32 {plain:.0f} µs, 1 MiB "
                 f"of uint8 {sent:.0f} µs, {saved_words(saved)}; packing and unpacking {packing:.0f} µs, "
                 f"{condition_words(condition, saved, *(int(claims.as_printed(x, 0)) for x in (plain, packing)))}"
                 f"{per_round_words(c)}"
                 f"{parts_gap_words(c)}{medians_words(c)}; "
                 f"{few_bytes_words(m)}"
                 f"{other_timing_words(m, plain, sent)}",
                 MEASURED, two_devices(m["plan"], m["hw"])),
            Part(_lesson_05_differs(m), ARITHMETIC)]


def medians_words(c: dict) -> str:
    """Row B8's paired figure beside the two medians it prints (4 MiB as fp32, the packed way's), where the two
    divide to another figure: the median of each round's own ratio need not be the ratio of the medians, which
    may come from different rounds, so the row says which it printed (``claims.medians_clause``); "" where the
    division gives the figure printed."""
    median = paired(compression_rounds(c))[0]  # the figure "the packed way 0.54x" prints
    plain, packed = _us(_median(c["plain"])), _us(_median(c["packed"]))  # whole µs, as the row prints them
    divided = claims.medians_divide_to(median, plain, packed, 2)
    if divided is None:
        return ""
    return "; " + claims.medians_clause(median, f"{plain} µs", f"{packed} µs", divided)


def per_round_words(c: dict) -> str:
    """The condition read round by round, from the whole µs the rounds' line prints: the medians above can
    sit between two clusters of rounds (the bytes alone took ~350 µs in some rounds, ~1500 in others), so the
    row says how far the saving ran and in how many rounds packing cost more than it."""
    saved = [_us(p) - _us(b) for p, b in zip(c["plain"], c["bytes"])]
    more = sum(_us(k) > s for k, s in zip(c["packing"], saved))
    count = "every" if more == len(saved) else "none" if not more else f"{more} of {len(saved)}"
    rounds = "round" if count == "every" else "rounds" if count != "none" else "of the rounds"
    below = " (below 0: the 1 MiB message took longer that round)" if min(saved) < 0 else ""
    return (f"; round by round (each round's µs: the block 'the code blocks, step by step, and the quick "
            f"measurements'), the saving ran from {min(saved)} to {max(saved)} µs{below}, and packing cost more "
            f"than it in {count} {rounds}")


def few_bytes_words(m) -> str:
    """A few-byte message's time, as row B10 reads it; where B10 finds this run's message times out of order,
    B8 does not quote it as a figure either."""
    if sizes_out_of_order(m):
        return "this run's message times are out of order (row B10), so no few-byte time is quoted"
    return f"a few-byte message still takes about {fixed_cost(m) * 1e6:.0f} µs here (row B10)"


def other_timing_words(m, plain_us: float, sent_us: float) -> str:
    """Row B8's messages beside rows B2 and B10's of the same sizes: the same link, timed two ways (each
    figure printed from the run; the cause of a difference is not measured)."""
    sec = _sends(m)
    # a size whose time is out of order beside another's is noise there: not set against this row's (row B10)
    noisy = {n for pair in sizes_out_of_order(m) for n in pair}
    kept = [(size, here) for size, here in ((2**22, plain_us), (2**20, sent_us)) if size not in noisy]
    # both timers return half a round trip (one way): the words say so, as cell 22's rounds do
    said = (f"; rows B2 and B10 time the same link otherwise, {one_way_words(LINK_REPEATS)}, in a row at one "
            "size")
    if noisy & {2**22, 2**20}:
        dropped = " and ".join(size_words(n) for n in (2**22, 2**20) if n in noisy)
        said += f"; their {dropped} time{'s are' if ' and ' in dropped else ' is'} out of order (row B10)"
        if not kept:
            return said + ", so this row compares its parts only with each other, within the same rounds"
    there = " and ".join(f"{size_words(n)} {_us(sec[n])} µs" for n, _ in kept)
    times = " and ".join(_times(here, _us(sec[n])) for n, here in kept)
    return (f"{said}: {there} there; here each is half of one round trip in a round that also sends the other "
            f"ways and packs: {times} {'those' if len(kept) > 1 else 'that'}. Which part of the timing makes "
            "that difference is not measured, so this row compares its parts only with each other, within the "
            "same rounds")


def _times(over_us: float, under_us: float) -> str:
    """"1.23x": the ratio of two times printed in whole µs, worked from them as printed, rounded half up."""
    return f"{claims.half_up(claims.printed_ratio(over_us, under_us, 0), 2):.2f}x"


def b8_in_this_run(m) -> str:
    """Row B8's verdict, as this run bears it out: whether the condition held, and what compression did."""
    condition, said = compression_reading(m)
    c = m["compressed"]
    if too_busy(m, "compressed", 2):
        return "; in this run: other programs held the cores, so neither is shown (rerun on a quiet machine)"
    if condition == "unread":
        return "; in this run the bytes' saving was lost in the timings' noise, so the condition is not read"
    if condition == "break-even" or said.startswith("within noise"):
        return "; in this run: at break-even or within noise, neither shown"
    if condition == "holds":
        return ("; in this run the condition held: " + ("compression cut the latency" if said.startswith("faster")
                                                        else f"yet compression did not cut the latency ({said})"))
    saved = _us(_median(c["plain"])) - _us(_median(c["bytes"]))  # whole µs, as row B8 prints them
    why = ("packing cost more than it saved" if saved > 0 else
           "the packing alone cost more than the whole plain send, which no saving could repay")
    return (f"; in this run the condition failed ({why}): "
            + ("compression added latency (no speed-up)" if not said.startswith("faster")
               else "yet compression cut the latency"))
