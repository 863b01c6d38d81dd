"""Lesson 09's reading of lesson 08's two-device step (rows A3, A24): the figure, its spread and its words.

Lesson 08 reads its two-device step from paired rounds ("within noise (paired rounds 1.09x, 0.90x, 1.00x:
median 1.00x ± 0.10)"). Where the ledger keeps that step's spread (``steps["two devices"]["spread"]``), this
page reads it with it; where it keeps only the step's median (in its text: "two devices 1.00x (not kept)"),
with the page's floor for a figure kept without rounds (``LEDGER_NOISE`` of its value), so that a step lesson
08 found within noise of one device is never read here as "no faster" (row A3 disagreeing on a tie).
"""

from __future__ import annotations

from utils import claims as words
from utils.lessons.articles_checked.figures import LEDGER_NOISE, capstone_two_devices

BOUND = 2.0  # two devices: at most twice one device's throughput


def two_devices_spread(record: dict) -> tuple[float, bool]:
    """The step's ± and whether it is its rounds' own (True) or the page's floor (False)."""
    step = record.get("steps", {}).get("two devices", {})
    if "spread" in step:
        return step["spread"], True
    return LEDGER_NOISE * capstone_two_devices(record), False


def two_devices_verdict(record: dict) -> str:
    """The course's words for the step beside 1x and its 2x bound: "within noise: no effect shown"."""
    speedup = words.half_up(capstone_two_devices(record), 2)  # as printed: the reader checks it from the page
    spread, _ = two_devices_spread(record)
    return words.speedup_verdict(speedup, BOUND, words.half_up(spread, 2), slower="slower than one device")


def two_devices_text(record: dict) -> str:
    """The step as this page prints it, with its ± and where that comes from, and its verdict words:
    "1.00x ± 0.02 (the 2% floor for a figure kept without rounds) against a bound of 2x: within noise: no
    effect shown"."""
    spread, own = two_devices_spread(record)
    rounds = record.get("steps", {}).get("two devices", {}).get("rounds") or []
    source = (f"its {len(rounds)} paired rounds' spread" if own and rounds else "its rounds' spread" if own
              else f"the {LEDGER_NOISE:.0%} floor for a figure kept without rounds")
    return (f"{capstone_two_devices(record):.2f}x ± {spread:.2f} ({source}) against a bound of {BOUND:g}x: "
            f"{two_devices_verdict(record)}")


def within_noise_of_one(record: dict) -> bool:
    """Whether the step is within noise of one device's throughput (no effect shown either way)."""
    return two_devices_verdict(record).startswith("within noise")
