"""Lesson 01, section 3: this run's link beside lesson 00's run of it (``between_runs_sentence``), in the
measurement block: how far the link moved between the two lessons' runs, each size's ratio, the sizes set apart
by lesson 00's outlier test, and the profile's line both runs are tested against. ``report`` re-exports it."""

from __future__ import annotations

from types import SimpleNamespace as NS

from utils import claims
from utils.lessons.start_here.line_check import EDGE, _size, check_line, miss_text  # lesson 00's tests of a line
from utils.lessons.why_slow.neighbours import off_line_said, off_neighbours
from utils.lessons.why_slow.transfers import PREDICTS


def _run_us(sizes, seconds) -> dict[int, float]:
    """A run's one-way times by size, in µs to one decimal as both lessons print them."""
    return {int(n): claims.as_printed(t, 1, 1e-6) or 0.1 for n, t in zip(sizes, seconds)}


def _when(record: dict) -> str:
    """" on <date> at <time>": when lesson 00 kept its run (lesson 00 prints the same, under its closing table),
    so that a reader can tell which of lesson 00's runs is quoted (t24_0001 #1); as much as the record holds."""
    date, time = record.get("date"), record.get("time")
    return (f" on {date}" if date else "") + (f" at {time}" if date and time else "")


def between_runs_sentence(link, record: dict | None, kept=None) -> str:
    """This section's messages beside lesson 00's run of the same link (``record``: the ledger's
    ``LESSON00_RUN``, or None), at the sizes both timed: each pair of µs and their ratio (this run over lesson
    00's, from the µs as printed, two decimals). Reader t23_0001 #2: both lessons' runs passed the line check
    while one size took 1.88x as long in one as in the other; a line's ± is one run's, and how far the link
    itself moves between runs is this. Within ``EDGE`` (one noisy median's miss) at every size: it held still.
    Past it, the move is set beside the profile's line (``_against_line``; ``kept``: the profile's link, or
    None), the one line both lessons test their run against. A size off the straight line through its two
    neighbours in either run (``_outliers``: lesson 00's outlier test), is set apart from the range, named with
    its ratio and the two µs its neighbours' line is drawn through."""
    if record is None:
        return ("Lesson 00's run of the link (its section 3, kept in the ledger): none recorded (run lesson 00 "
                "first), so this run has no second run to be set beside.")
    head = f"Lesson 00's run of the link (its section 3, kept in the ledger{_when(record)}): "
    if record.get("what") != link.name:
        return head + f"of another path ({record.get('what')}), so it says nothing about this link's move."
    theirs, mine = _run_us(record["sizes"], record["seconds"]), _run_us(link.fit.sizes, link.seconds)
    shared = sorted(set(theirs) & set(mine))
    if not shared:
        return head + "no size in common with this section's, so the two runs cannot be set side by side."
    every = {n: claims.half_up(mine[n] / theirs[n], 2) for n in shared}
    pairs = "; ".join(f"{_size(n)} {theirs[n]:,.1f} and {mine[n]:,.1f} ({every[n]:.2f}x)" for n in shared)
    said = (head + f"at the sizes both timed, one way, lesson 00's µs and this section's (this over lesson "
            f"00's): {pairs}. ")
    # a size off its neighbours' line in either run is set apart, as lesson 00's line check sets one apart: one
    # median a one-off busy moment can make is no measure of the link's move (t35_0001 #1)
    odd = _outliers(link, record)
    apart = "; ".join(f"{_size(n)} set apart, {every[n]:.2f}x: {odd[n]}"
                      for n in shared if n in odd)
    ratio = {n: r for n, r in every.items() if n not in odd}
    if not ratio:
        return said + f"Every size both timed is set apart ({apart}), so the two runs cannot be compared here."
    aside = f" ({apart})" if apart else ""
    if all(claims.half_up(abs(r - 1), 2) <= EDGE for r in ratio.values()):  # 1.10x: within ±10%
        but = "" if not apart else " but those set apart" if len(every) - len(ratio) > 1 else " but the one set apart"
        return said + (f"Every pair{but} agrees within the ±{EDGE:.0%} one "
                       f"noisy median may miss by: the link held still between the two lessons' runs{aside}.")
    # the kept sizes past the ±10% by name, and one range, of every size (t42_0001 #3: a range of the kept sizes
    # held one within it; t38_0001 #3): what a time from one run is worth, no bound on a third run (t29_0001)
    past = [f"{_size(n)} ({r:.2f}x)" for n, r in ratio.items() if claims.half_up(abs(r - 1), 2) > EDGE]
    within = [f"{_size(n)} ({r:.2f}x)" for n, r in ratio.items() if claims.half_up(abs(r - 1), 2) <= EDGE]
    kept_said = f"Of the {len(ratio)} sizes {'kept' if apart else 'both timed'}{aside}, "
    every_said = f"{_span(every.values())} at the same size{' (every size both timed, those set apart included)' if apart else ''}"
    return said + (kept_said + f"{_and(past)} {'lies' if len(past) == 1 else 'lie'} past the ±{EDGE:.0%} one noisy "
                   "median may miss by" + (f", {_and(within)} within it" if within else "")
                   + f": {_against_line(ratio, link, record, kept)}. "
                   f"These two runs differed by {every_said}: a time measured or fitted in one run is no better a "
                   "guide to another than that.")


def _and(items: list[str]) -> str:
    """"a", "a and b", "a, b and c"."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _span(ratios) -> str:
    """"0.79x to 1.38x", or "0.83x" where every ratio is the same."""
    low, high = min(ratios), max(ratios)
    return f"{low:.2f}x" if low == high else f"{low:.2f}x to {high:.2f}x"


def _usable(link, kept) -> bool:
    """Whether the profile keeps a line of this path that its own verdict accepted: both runs are tested on it."""
    return kept is not None and kept.name == link.name and kept.accuracy <= PREDICTS


def _checks(link, record: dict, kept) -> dict:
    """Lesson 00's test (``check_line``) of each run against the profile's line, by the run's name."""
    theirs = NS(fit=NS(sizes=record["sizes"]), seconds=record["seconds"])
    return {"lesson 00's run": check_line(kept, theirs), "this run": check_line(kept, link)}


def _outliers(link, record: dict) -> dict[int, str]:
    """The sizes off their neighbours' line in either run (``off_neighbours``), each with whose neighbours
    ("this run's", "lesson 00's", "both runs'") and, for each such run, the line worked from the two µs it is
    drawn through (``off_line_said``), so that a reader can redraw it. Every size between two others is tested,
    whatever the run's grade against the profile's line: testing only the one size that grade singles out left
    two sizes off their neighbours carrying the move (t36_0001 #1). The test needs no profile line."""
    runs = {"lesson 00's": _run_us(record["sizes"], record["seconds"]),
            "this run's": _run_us(link.fit.sizes, link.seconds)}
    found: dict[int, list[tuple[str, str]]] = {}
    for whose, us_by_size in runs.items():
        for n in off_neighbours(us_by_size):
            found.setdefault(n, []).append((whose, off_line_said(n, us_by_size)))
    return {n: _outlier_said(off) for n, off in found.items()}


def _outlier_said(off: list[tuple[str, str]]) -> str:
    """"an outlier among this run's neighbours, its 600.0 µs against ...": whose neighbours, with their line."""
    if len(off) == 1:
        whose, line = off[0]
        return f"an outlier among {whose} neighbours, its {line}"
    return "an outlier among both runs' neighbours, " + " and ".join(f"{whose} {line}" for whose, line in off)


def _moved_said(ratio: dict[int, float]) -> str:
    """What the ratios past ``EDGE`` (named just before, by ``between_runs_sentence``) say of the link between the
    two runs: two sizes or more past it, that it moved; one alone is one median, which a one-off busy moment can
    make (lesson 00's rule for a line), so not shown. The move is read from the two runs' own ratios, not from
    either run's grade against the profile's line: a run off that line moved since the profile, not since the
    other run (t35_0001 #1)."""
    past = [n for n, r in ratio.items() if claims.half_up(abs(r - 1), 2) > EDGE]
    if len(past) == 1:
        return ("that one size's median alone, which a one-off busy moment can make, so whether the link itself "
                "moved between the two runs is not shown")
    return f"{len(past)} sizes past it, so the link itself moved between the two runs"


def runs_apart(a: float) -> float:
    """How many times one run's time can be another's where both lie within ±``a`` of one line, as printed (two
    decimals). A miss is a share of the measured time, (m - line) / m, so m runs from line / (1 + a) to
    line / (1 - a): (1 + a) / (1 - a) apart, 2.64x for ±45% (reader t26_0001 #1: a move of 1.61x was called
    more than a ±45% line allows, while both runs lay on it). None at ±100% or more: no bound."""
    return claims.half_up((1 + a) / (1 - a), 2) if a < 1 else None


def _against_line(ratio: dict[int, float], link, record: dict, kept) -> str:
    """The runs' ratios (``ratio``: by size, as printed, outliers set apart) beside the profile's line
    (``kept``), the one line both lessons test their run against (``check_line``): where both runs lie on it
    (within its ±, or at the edge: then its ± plus ``EDGE``), how far apart that line lets two runs be
    (``runs_apart``), every branch. A fit of one run (this section's) says nothing of another run's times, so it
    is not a yardstick here; where a run is off the line, the move is read from the ratios (``_moved_said``)."""
    low, high = min(ratio.values()), max(ratio.values())
    if not _usable(link, kept):
        return (f"{_moved_said(ratio)} (the profile keeps no line of this path that both runs were tested "
                "against, to set the move beside)")
    checks = _checks(link, record, kept)
    off = [name for name, c in checks.items() if c.grade in ("one side", "beyond")]
    if off:
        return (f"{_moved_said(ratio)}; {' and '.join(off)} {'do' if len(off) > 1 else 'does'} not lie on the "
                "profile's line (lesson 00's test), so that line sets no bound on how far apart the two runs may be")
    # one size alone off the line is lesson 00's "not shown", not "off the line" (reader t31_0001 #3)
    alone = {name: c for name, c in checks.items() if c.grade == "one size"}
    if alone:
        where = " and ".join(f"{name} at {_size(c.worst[0])} ({miss_text(c.worst[3])})" for name, c in alone.items())
        return (f"{_moved_said(ratio)}; {where} misses the profile's line at one size alone, which lesson 00's "
                "test leaves not shown (one median, which a one-off busy moment can make as well as a changed "
                "link), so that line sets no bound on how far apart the two runs may be")
    edge = any(c.grade == "edge" for c in checks.values())
    a = claims.half_up(claims.half_up(checks["this run"].error, 2) + (EDGE if edge else 0), 2)
    band = f"±{a:.0%}" + (f" (its ±{a - EDGE:.0%} plus the {EDGE:.0%} edge)" if edge else "")
    worst = ", ".join(f"{name} {miss_text(c.worst[3])} at {_size(c.worst[0])}" for name, c in checks.items())
    return _apart_sentence(low, high, a, f"both runs lie on the profile's line, within {band} (worst: {worst})")


def _apart_sentence(low: float, high: float, a: float, on: str) -> str:
    """``on`` (both runs lie within ±``a`` of one line), then whether their ratios (as printed) stay within the
    ``runs_apart`` that line allows two such runs, either way."""
    bound = runs_apart(a)
    if bound is None:
        return f"{on}, a band so wide it does not bound how far apart two runs can be"
    allows = (f"two runs each within ±{a:.0%} of one line can take {1 / bound:.2f}x to {bound:.2f}x each other's "
              f"time (a miss is a share of the measured time: (1 + {a:.2f}) / (1 - {a:.2f}) = {bound:.2f})")
    if 1 / bound <= low and high <= bound:
        return f"{on}; {allows}: the line holds both runs, and the moves between them are within what it allows"
    return f"{on}, yet the runs are further apart than {allows}: the link itself moved between the two runs"
