"""Lesson 05's link play: one batch's link times, measured more than once (the sweep once, each paired round
once), and how far they lie apart. Re-exported by ``transfer``, where the notebook finds them.

    repeats_reading([("float32", sweep_s, round_s), ("uint8", sweep_s, round_s)])   # said once for both
"""

from __future__ import annotations

from utils.claims import as_printed, half_up

NOISE_FLOOR = 0.02  # lesson 05's one noise rule: a gap under 2 % is noise, whatever the rounds' spread
MS = 1e-3  # the compression tables print seconds in ms, 3 decimals


def repeat_head(name: str, sweep_seconds: float, round_seconds: list[float]) -> tuple[str, float]:
    """One batch's link times, sweep and paired rounds, as the two tables print them (ms, 3 decimals), and
    their play: how far its quickest and slowest lie apart, in whole percent (lesson 05)."""
    sweep, rounds = as_printed(sweep_seconds, 3, MS), [as_printed(t, 3, MS) for t in round_seconds]
    low, high = min(sweep, *rounds), max(sweep, *rounds)
    play = half_up((high - low) / low * 100, 0)   # in whole percent, from the printed times
    return (f"the {name} batch took {sweep:.3f} ms in the sweep and {min(rounds):.3f}-{max(rounds):.3f} ms in the "
            f"paired rounds, {play:.0f}% from its quickest to its slowest"), play


def repeat_reading(name: str, sweep_seconds: float, round_seconds: list[float]) -> str:
    """How far one batch's link times lie apart when it is measured more than once (the sweep once, each paired
    round once), from the times as the two tables print them (ms, 3 decimals): the link's own play for one
    size, which a single measurement, sweep or round, carries and the link ratio's ± reflects. Lesson 05."""
    head, play = repeat_head(name, sweep_seconds, round_seconds)
    if play <= NOISE_FLOOR * 100:
        return head + ": within 2 %, this link repeats its time for that size"
    return (head + ": this link's time for one size moves that much between measurements, so each one, sweep or "
            "round, is read with that much play")


def repeats_reading(batches: list[tuple[str, float, list[float]]]) -> str:
    """``repeat_reading`` for several batches (name, sweep time, round times), its reading said once after
    all of them rather than once a batch; where only some move past 2 %, those are named (lesson 05)."""
    heads = [repeat_head(*batch) for batch in batches]
    text = "; ".join(head for head, _ in heads)
    moved = [name for (name, _, _), (_, play) in zip(batches, heads) if play > NOISE_FLOOR * 100]
    if not moved:
        return text + ": each within 2 %, this link repeats its time for one size"
    which = "" if len(moved) == len(batches) else f" ({' and '.join(moved)}; the rest within 2 %)"
    return (text + f": this link's time for one size moves that much between measurements{which}, so each "
            "one, sweep or round, is read with that much play")
