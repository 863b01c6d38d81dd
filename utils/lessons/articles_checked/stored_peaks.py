"""Rows B13 and B15's matmul peaks beside the machine profile lesson 00 keeps (``results/machine-profile.json``):
this run times the peaks again, in interleaved rounds, for their ratios; the stored profile's ratio is printed
beside this run's, and an fp32 peak that fell below the stored one beyond its own spread is flagged, since a
low fp32 peak inflates every ratio over it. Read only: nothing is measured or written here. Introduced in
lesson 09."""

from __future__ import annotations

import json

from utils import claims as words
from utils import machine


def stored_peaks(path=machine.PROFILE_PATH) -> dict[str, float]:
    """This machine's stored matmul peaks (the most threads, 1024³), by dtype, in units a second; {} where
    lesson 00 has not stored a profile of this machine (or not these peaks). Never measures."""
    if not path.is_file():
        return {}
    entry = json.loads(path.read_text()).get(machine.machine_key("cpu"), {})
    found: dict[str, tuple[int, float]] = {}
    for c in entry.get("ceilings", {}).values():
        if c.get("kind") == "matmul peak" and c.get("size") == "1024³":
            threads = c.get("threads") or 0
            if threads >= found.get(c["dtype"], (-1, 0.0))[0]:
                found[c["dtype"]] = (threads, c["best"])
    return {dtype: best for dtype, (_, best) in found.items()}


def stored_words(stored: dict[str, float], dtype: str, fp32) -> str:
    """"; the stored profile's (lesson 00) ratio 4.2x (827.9 / 196.8 G/s)", then, where this run's fp32 peak
    (``fp32``: its Ceiling) lies below the stored one by more than its own spread, the flag that the ratios
    above are inflated by it. "" where the stored profile lacks either peak."""
    if dtype not in stored or "fp32" not in stored:
        return ""
    other, base = (words.as_printed(stored[k], 1, scale=1e9) for k in (dtype, "fp32"))
    said = (f"; the stored profile's (lesson 00) ratio {words.as_printed(other / base, 1):.1f}x ({other:.1f} / "
            f"{base:.1f} G/s)")
    here = words.as_printed(fp32.best, 1, scale=1e9)
    spread = words.as_printed(fp32.spread, 2)
    if here * (1 + spread) < base:  # below the stored peak even at the top of this run's own spread
        below = words.as_printed(1 - here / base, 0, scale=0.01)
        said += (f"; this run's fp32 peak, {here:.1f} G/s, lies {below:.0f}% below the stored {base:.1f}, beyond "
                 f"its own {spread:.0%} spread: a slow fp32 run, which inflates this run's ratios over it")
    return said
