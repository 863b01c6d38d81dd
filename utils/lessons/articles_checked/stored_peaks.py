"""Rows B13 and B15's matmul peaks beside the machine profile lesson 00 keeps (``results/machine-profile.json``):
this run times the peaks again, in interleaved rounds, for their ratios; the stored profile's ratio is printed
beside this run's, and an fp32 peak that fell below the stored one beyond both runs' spreads is flagged, since a
low fp32 peak inflates every ratio over it. Read only: nothing is measured or written here. Introduced in
lesson 09."""

from __future__ import annotations

import json

from utils import claims as words
from utils import machine


def _stored_ceilings(path) -> dict[str, dict]:
    """This machine's stored matmul peaks (the most threads, 1024³), each its stored ceiling, by dtype; {} where
    lesson 00 has not stored a profile of this machine (or not these peaks). Never measures."""
    if not path.is_file():
        return {}
    entry = json.loads(path.read_text()).get(machine.machine_key("cpu"), {})
    found: dict[str, tuple[int, dict]] = {}
    for c in entry.get("ceilings", {}).values():
        if c.get("kind") == "matmul peak" and c.get("size") == "1024³":
            threads = c.get("threads") or 0
            if threads >= found.get(c["dtype"], (-1, {}))[0]:
                found[c["dtype"]] = (threads, c)
    return {dtype: c for dtype, (_, c) in found.items()}


def stored_peaks(path=machine.PROFILE_PATH) -> dict[str, float]:
    """This machine's stored matmul peaks (the most threads, 1024³), by dtype, in units a second."""
    return {dtype: c["best"] for dtype, c in _stored_ceilings(path).items()}


def stored_spreads(path=machine.PROFILE_PATH) -> dict[str, float]:
    """The stored peaks' own spreads ((slowest - fastest) / median of their timed runs), by dtype: a stored
    figure is a run too, and a gap to it is read with both runs' spreads."""
    return {dtype: c["spread"] for dtype, c in _stored_ceilings(path).items() if c.get("spread") is not None}


# Where the stored peaks are printed: lesson 00 stores the profile, lesson 01 prints its matmul peaks
STORED = "the stored machine profile's (lesson 01's table of it)"


def stored_words(stored: dict[str, float], dtype: str, fp32, spreads: dict[str, float] | None = None) -> str:
    """"; the stored machine profile's (lesson 01's table of it) ratio 4.2x (827.9 / 196.8 G/s)", then, where
    the stored fp32 peak lies above this run's even at the top of this run's own spread (``fp32``: its
    Ceiling), that gap worked on the base the test uses, and read with the stored peak's own spread
    (``spreads``, by dtype): within it, neither run can be called slow; beyond it too (or none kept), a slow
    fp32 run, which inflates the ratios over it. "" where the stored profile lacks either peak."""
    if dtype not in stored or "fp32" not in stored:
        return ""
    other, base = (words.as_printed(stored[k], 1, scale=1e9) for k in (dtype, "fp32"))
    said = f"; {STORED} ratio {words.as_printed(other / base, 1):.1f}x ({other:.1f} / {base:.1f} G/s)"
    here = words.as_printed(fp32.best, 1, scale=1e9)
    spread = words.as_printed(fp32.spread, 2)
    top = words.as_printed(here * (1 + spread), 1)
    if top >= base:  # the stored peak within this run's own spread: no gap to read
        return said
    said += (f"; the stored fp32 peak, {base:.1f} G/s, lies above this run's {here:.1f} even at the top of this "
             f"run's {spread:.0%} spread ({here:.1f} x (1 + {spread:.0%}) = {top:.1f})")
    theirs = (spreads or {}).get("fp32")
    if theirs is None:
        return said + (": a slow fp32 run by this run's spread alone (the stored profile keeps none of its own), "
                       "which inflates this run's ratios over it")
    theirs = words.as_printed(theirs, 2)
    low = words.as_printed(base / (1 + theirs), 1)
    if low <= here:  # the stored peak's own spread reaches this run's
        return said + (f", but within the stored peak's own {theirs:.0%} spread ({base:.1f} / (1 + {theirs:.0%}) = "
                       f"{low:.1f}, under {here:.1f}): neither run can be called slow")
    return said + (f", and beyond the stored peak's own {theirs:.0%} spread ({base:.1f} / (1 + {theirs:.0%}) = "
                   f"{low:.1f}, above {here:.1f}): a slow fp32 run, which inflates this run's ratios over it")
