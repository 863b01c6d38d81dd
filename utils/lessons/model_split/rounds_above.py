"""Single rounds above a bound, in words, by the course's one per-round rule (``claims.rounds_past_spread``):
lesson 02's tables and lines, and lab 02's checks, read them here; ``report`` re-exports these functions.

    rounds_above_bound(row)   # rounds above the bound under a median at or below it
    rounds_in_noise(row)      # rounds above the bound where the median, above it as printed, is within noise
    rounds_past_devices(row)  # rounds above 2 devices' 2x: a finding, whatever the median
    past_reach_words(row)     # under a median the work-scaled reference explains: rounds past its reach

Every round is kept and counted in the median. A round above the bound is explained by the rounds' spread only
where it lies within it (at most the median + the spread, as printed); one above the bound AND above the median
+ the spread is a finding to explain, whatever the median, unless a reference measured here reaches it (section 3's
own round's per-process reference; the work-scaled reference + the spread where the stages' work is below one
device's). A round above the number of devices (2x on two),
which equal work overlapped on two devices cannot give, is a finding wherever it lies: no spread explains it.
"""

from __future__ import annotations

from utils.claims import as_printed, rounds_past_spread
from utils.lessons.model_split.bounds import round_above, round_as_printed, rounds_spread
from utils.lessons.model_split.noise import above_as_printed, printed, round_text
from utils.lessons.model_split.reference import own_reference_explains
from utils.lessons.model_split.runs import Row

# What a round past the devices' count can be: the same words wherever such a round is read.
PAST_DEVICES_CAUSE = "cheaper work, or a disturbed one-device step"


def rounds_past_devices(r: Row) -> str:
    """Rounds above the number of devices (2x on two), in words, whatever the median: equal work overlapped on
    that many devices cannot give them, so no spread and no reference explains them ("" where none)."""
    if not r.above_devices:
        return ""
    past = ", ".join(f"{round_text(s)}x" for s in r.above_devices)
    return (f"{len(r.above_devices)} of {len(r.speedups)} rounds above {r.devices} devices' {r.devices}x ({past}): "
            "a finding to explain")


def rounds_above_bound(r: Row) -> str:
    """Rounds above the bound under a median at or below it, in words, each read by the per-round rule
    (``spread_words``). "" if no round passed the bound or the median itself did (the headline's verdict
    reads that)."""
    above = [s for s in r.speedups if round_above(s, r.bound)]  # 1.78x beside a 1.78x bound is not above
    if not above or above_as_printed(r.speedup, r.bound):
        return ""
    past = [s for s in above if round_above(s, r.devices)]
    of_them = f", {len(past)} of them past {r.devices} devices' {r.devices}x" if past else ""
    said = f"{len(above)} of {len(r.speedups)} rounds above the bound (up to {round_text(max(above))}x{of_them})"
    return f"{said}: {spread_words(r, above)}"


def rounds_in_noise(r: Row) -> str:
    """Rounds above the bound where the median, above it as printed, is within noise of it: the same per-round
    rule as ``rounds_above_bound``, every round above read (``spread_words`` names a round past the devices'
    count as a finding); "" where no round is above, or every round is (not noise: claims' verdict says so)."""
    above = [s for s in r.speedups if round_above(s, r.bound)]
    if not above or not above_as_printed(r.speedup, r.bound):
        return ""
    if len(above) == len(r.speedups):  # every round above: not noise (claims' verdict says so)
        return ""
    past = [s for s in above if round_above(s, r.devices)]
    of_them = f", {len(past)} of them past {r.devices} devices' {r.devices}x" if past else ""
    said = f"{len(above)} of {len(r.speedups)} rounds above the bound (up to {round_text(max(above))}x{of_them})"
    return f"{said}: {spread_words(r, above)}"


def spread_words(r: Row, above: list[float]) -> str:
    """What the rounds' spread says of ``above`` (the rounds above the bound), round by round, as printed: a
    round past the devices' count first, a finding by that alone (cell 15's rule 1: equal work on two devices
    gives at most 2x), whatever the spread or a reference says (``past_devices_clause``; t33_02 #3: "beyond the
    spread" is no reason where the work-scaled reference + the spread reaches the round); then those beyond the
    median + the spread are a finding to explain (``claims.rounds_past_spread``); those within it are explained
    by it; those beyond it that their own round's per-process reference reaches (section 3), or the work-scaled
    reference + the spread (sections 5-9), are no finding."""
    spread = rounds_spread(r.speedups)
    two = [s for s in above if round_above(s, r.devices)]  # rule 1: said first, for that reason alone
    own = [r.speedups[i - 1] for i in own_reference_explains(r)]  # section 3: reached by their own round's reference
    above = [s for s in above if s not in own and s not in two]
    beyond = rounds_past_spread(above, r.speedup, spread, r.bound, shown=round_as_printed)
    work = work_reference_reaches(r, beyond, spread)  # sections 5-9: within the work-scaled reference + spread
    above, beyond = [s for s in above if s not in work], [s for s in beyond if s not in work]
    said = band_clauses(above, beyond, [], spread, r.devices, "") if above else ""
    reached = "; ".join(filter(None, [past_devices_clause(r, two, spread), _own_reference_clause(own),
                                      _work_reference_clause(r, work, spread)]))
    if reached and said:  # the count above covers the rounds named first: the band reads the others
        said = ("the other round: " if len(above) == 1 else f"the other {len(above)}: ") + said
    return "; ".join(filter(None, [reached, said]))


def past_devices_clause(r: Row, two: list[float], spread: float) -> str:
    """The rounds past the devices' count (``two``), a finding by that alone: "2.03x past 2 devices' 2x: a finding
    to explain by that alone (cheaper work, or a disturbed one-device step), even though the work-scaled
    reference + the spread (1.96x + 0.08 = 2.04) reaches it", the sum said where it reaches every such round, so
    that a reader sees why a round under 2x as far past the spread reads "no finding"; elsewhere "..., which
    neither the spread nor the work-scaled reference explains" ("a reference" where the row has none that
    scales with the work: section 3's per-process one). "" where none."""
    if not two:
        return ""
    shown = ", ".join(f"{round_text(s)}x" for s in two)
    said = f"{shown} past {r.devices} devices' {r.devices}x: a finding to explain by that alone ({PAST_DEVICES_CAUSE})"
    work = r.process_bound is None and r.work_bound is not None and r.work_bound > r.bound
    wb = as_printed(r.work_bound, 2) if work else 0.0
    if work and not any(round_above(s, wb + spread) for s in two):
        it = "it" if len(two) == 1 else "them"
        return (f"{said}, even though the work-scaled reference + the spread ({wb:.2f}x + {spread:.2f} = "
                f"{as_printed(wb + spread, 2):.2f}) reaches {it}")
    return f"{said}, which neither the spread nor {'the work-scaled reference' if work else 'a reference'} explains"


def rounds_past_reach(r: Row) -> list[float]:
    """The rounds above the bound past both the median + the rounds' spread (``claims.rounds_past_spread``) and
    the work-scaled reference + the spread (``work_reference_reaches``), as printed: what neither the spread nor
    the reference explains, so a finding to explain whatever the median (cell 15's rule). Read under a median the
    work-scaled reference explains, whose other rounds are read with it; a round past the devices' count is left
    out: the verdict names it on its own (``rounds_past_devices``)."""
    spread = rounds_spread(r.speedups)
    above = [s for s in r.speedups if round_above(s, r.bound)]
    beyond = rounds_past_spread(above, r.speedup, spread, r.bound, shown=round_as_printed)
    reached = work_reference_reaches(r, beyond, spread)
    return [s for s in beyond if s not in reached and not round_above(s, r.devices)]


def past_reach_words(r: Row) -> str:
    """``rounds_past_reach`` in words, with both sums a reader redoes from the page: "1.55x past the median +
    spread (1.43 + 0.05 = 1.48) and the work-scaled reference + spread (1.48 + 0.05 = 1.53): a finding to
    explain"; "" where none (or where the row has no work-scaled reference)."""
    past = rounds_past_reach(r) if r.work_bound is not None else []
    if not past:
        return ""
    (v, d), wb = printed(r), as_printed(r.work_bound, 2)
    shown = ", ".join(f"{round_text(s)}x" for s in past)
    return (f"{shown} past the median + spread ({v:.2f} + {d:.2f} = {as_printed(v + d, 2):.2f}) and the work-scaled "
            f"reference + spread ({wb:.2f} + {d:.2f} = {as_printed(wb + d, 2):.2f}): "
            + ("a finding to explain" if len(past) == 1 else "findings to explain"))


def work_reference_reaches(r: Row, beyond: list[float], spread: float) -> list[float]:
    """The rounds past the rounds' spread (``beyond``) that the work-scaled reference reaches: at most that
    reference + the spread, as printed, the rule a median above the bound is read by (cell 33: "with w below 1,
    a round above 2m/(m+1) can be right"). Only where the stages' work is below one device's (the reference
    above the bound) and the row prints that reference (not section 3's naive split); never a round past the
    devices' count, which no reference explains."""
    wb = r.work_bound
    if r.process_bound is not None or wb is None or wb <= r.bound:
        return []
    top = as_printed(wb, 2) + spread
    return [s for s in beyond if not round_above(s, top) and not round_above(s, r.devices)]


def _work_reference_clause(r: Row, work: list[float], spread: float) -> str:
    """The rounds past the rounds' spread that the work-scaled reference reaches (``work_reference_reaches``), as
    printed: "1.91x, 1.95x past the rounds' spread, but within the work-scaled reference (1.93x + 0.07 =
    2.00): no finding"; "" where none."""
    if not work:
        return ""
    wb = as_printed(r.work_bound, 2)
    shown = ", ".join(f"{round_text(s)}x" for s in work)
    return (f"{shown} past the rounds' spread, but within the work-scaled reference ({wb:.2f}x + {spread:.2f} = "
            f"{as_printed(wb + spread, 2):.2f}): no finding")


def _own_reference_clause(own: list[float]) -> str:
    """The rounds past the rounds' spread that their own round's per-process reference reaches (section 3's
    ``reference.own_reference_explains``, the one list its sentence and the claims row read): no finding."""
    if not own:
        return ""
    shown = ", ".join(f"{round_text(s)}x" for s in own)
    if len(own) == 1:
        return f"{shown} past the rounds' spread, but not past its own round's per-process reference: no finding"
    return f"{shown} past the rounds' spread, but not past their own rounds' per-process references: no finding"


def band_clauses(above: list[float], beyond: list[float], past: list[float], spread: float, devices: int,
                 finding: str) -> str:
    """The words for the rounds above a bound, read against the band median ± ``spread``: ``beyond`` (past
    the band: a finding to explain), the rest within it (explained by it), of which ``past`` lie past the
    devices' count (``finding``: no spread explains them). Lessons 02 and 09 print these same words; both name
    a round past the devices' count before the band, for that reason alone (``past_devices_clause``), and pass
    ``past`` empty."""
    band = f"the rounds' spread of the median (± {spread:.2f})"
    inside = [s for s in above if s not in beyond]  # equal rounds print alike, so read alike
    clauses = []
    if beyond:
        clauses.append(("" if len(beyond) == len(above) else f"{len(beyond)} of them ")
                       + f"beyond {band}: a finding to explain")
    if inside:
        within = f"within {band}" if not beyond else f"{len(inside)} within it"
        if not past:
            within += ", which explains " + ("it" if len(inside) == 1 else "them")  # one round: "it"
        elif len(past) == len(inside):
            within += f", but {finding}"
        else:
            within += f", which explains those up to {devices}x; {finding}"
        clauses.append(within)
    return "; ".join(clauses)
