"""Lab 01's ceilings beside lesson 01's (t35/t36_labs03: the lab measures its own and says they differ, but
not by how much). Lesson 01 quotes the machine profile's ceilings (``machine.saved_ceilings``, read only here:
the lab never measures or writes the profile); this sets the lab's peak, bandwidth and ridge beside them, each
as the two pages print it, in signed percent."""

from __future__ import annotations

import textwrap

from utils import claims
from utils.labs.predict_the_roofline.checks import printed_ceilings
from utils.lessons.why_slow.peak import Ceilings

ALIKE = 0.10  # the course's one-median noise line: two rates within 10 % of each other are one rate, twice
WIDTH = 110


def lesson_ceilings(saved, threads: int | None) -> Ceilings | None:
    """The fp32 peak and the memory bandwidth lesson 01 quoted from the profile ``saved`` (on ``threads``, as
    lesson 01 reads them; None: a GPU), as printed; None where the profile keeps none of them."""
    if saved is None:
        return None
    try:
        peak, bandwidth = saved.peak("fp32", threads), saved.bandwidth(threads)
    except KeyError:  # a profile from lesson 00 alone: no ceiling lesson 01 quoted
        return None
    return printed_ceilings(Ceilings(peak.best, bandwidth.best))


def lesson_ceilings_words(lab: Ceilings, lesson: Ceilings | None) -> str:
    """One line: the lab's ceilings (``lab``, as printed) against lesson 01's (``lesson``), every branch
    written: none kept; all three within ``ALIKE``; or which of them lie further apart. The percents are
    worked from the figures as printed (one decimal, the ridge two), so a reader who divides finds them."""
    if lesson is None:
        return ("Lesson 01's ceilings are not in this machine's profile: run lesson 01 first to compare them "
                "with these.")
    pairs = [("peak", lab.flops / 1e9, lesson.flops / 1e9, ".1f", " GFLOP/s"),
             ("bandwidth", lab.bandwidth / 1e9, lesson.bandwidth / 1e9, ".1f", " GB/s"),
             ("ridge", round(lab.ridge, 2), round(lesson.ridge, 2), ".2f", "")]
    moved = [name for name, here, there, *_ in pairs if abs(claims.printed_percent(here / there - 1)) > ALIKE * 100]
    said = "; ".join(f"{name} {here:{fmt}}{unit} against {there:{fmt}}{unit} ({claims.signed_percent(here / there - 1)})"
                     for name, here, there, fmt, unit in pairs)
    verdict = (f"all three within {ALIKE:.0%}, the course's noise line: the same machine at another moment"
               if not moved else
               f"{' and '.join(moved)} more than {ALIKE:.0%} apart: the rates moved with the moment, or the "
               "faster STREAM kernel was the other one; the lab's predictions use its own")
    return textwrap.fill(f"This lab's ceilings against lesson 01's (the machine profile's): {said}. {verdict}.",
                         WIDTH)
