"""Lesson 01, section 3: lesson 00's neighbour test on every size of a run of the link (a size whose µs miss the
straight line through its two neighbours' µs), and the words that let a reader redraw that line. Introduced in
lesson 01 (``notebooks/01_why_slow.ipynb``, section 3); ``link_report`` sets such a size apart when it sets two
runs of the link side by side.
"""

from __future__ import annotations

from utils import claims
from utils.lessons.start_here.line_check import EDGE, _size, neighbours_line


def off_neighbours(us_by_size: dict[int, float]) -> list[int]:
    """The sizes whose µs (as printed) miss the straight line through their two neighbours' µs by more than
    ``EDGE`` of their own time: lesson 00's test of a lone size (``LineCheck._lone``), run on every size that has
    a neighbour on each side. 1 MiB at 486.1 µs between 128.5 µs (512 KiB) and 2,092.9 µs (4 MiB): the line
    gives 409.1 µs, +16% of its time, off it. A wild size bends its neighbours' lines too, so a size is set apart
    only where, with it left out, each neighbour lies within ``EDGE`` of the line through that neighbour's other
    neighbour and the size's other neighbour: the size alone bent them. Where neighbours stay off without it,
    the sizes scatter together and none is singled out (t40_0001 #4: 256 KiB, on the line its runs agree on,
    was set apart by a line drawn through 64 KiB, itself off)."""
    off = [n for n, miss in _misses(us_by_size).items() if abs(miss) > EDGE * 100]
    return [n for n in off if _alone_bends(n, us_by_size)]


def _misses(us_by_size: dict[int, float]) -> dict[int, float]:
    """Each size with a neighbour on each side: its miss of their line, in the printed whole percent."""
    return {n: claims.half_up((us_by_size[n] - line) / us_by_size[n] * 100, 0)
            for n, (line, _, _) in _neighbour_lines(us_by_size).items()}


def _alone_bends(n: int, us_by_size: dict[int, float]) -> bool:
    """Whether every neighbour of ``n`` with two neighbours of its own lies within ``EDGE`` of its line once
    ``n`` is left out (a neighbour at either end of the sizes has no line to test)."""
    without = {m: t for m, t in us_by_size.items() if m != n}
    sizes = sorted(us_by_size)
    i = sizes.index(n)  # ``n`` has a neighbour on each side
    beside = {sizes[i - 1], sizes[i + 1]}
    return all(abs(miss) <= EDGE * 100 for m, miss in _misses(without).items() if m in beside)


def off_line_said(n: int, us_by_size: dict[int, float]) -> str:
    """Size ``n``'s µs against its neighbours' line, with the two µs the line is drawn through, so that a reader
    can redraw it: "600.0 µs against 419.5 µs on the line through 256 KiB's 155.3 µs and 4 MiB's 1,468.1 µs"."""
    line, lo, hi = _neighbour_lines(us_by_size)[n]
    return (f"{us_by_size[n]:,.1f} µs against {line:,.1f} µs on the line through {_size(lo)}'s "
            f"{us_by_size[lo]:,.1f} µs and {_size(hi)}'s {us_by_size[hi]:,.1f} µs")


def _neighbour_lines(us_by_size: dict[int, float]) -> dict[int, tuple[float, int, int]]:
    """Each size with a neighbour on each side: (the µs their straight line gives it, the lower neighbour, the
    upper neighbour)."""
    sizes = sorted(us_by_size)
    return {n: (neighbours_line(n, (lo, us_by_size[lo]), (hi, us_by_size[hi])), lo, hi)
            for lo, n, hi in zip(sizes, sizes[1:], sizes[2:])}
