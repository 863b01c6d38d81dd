"""Lesson 02 §9's readings of its schedules with two stages per device (interleaved 1F1B, interleaved ZB, ZBV),
as lesson 09's note under §1's counts gives them: a median past its bound against its work-scaled reference
(``lesson_02_two_stages_reading``), and single rounds past their bound against the same reference
(``lesson_02_rounds_reading``). Used by ``report``.
"""

from __future__ import annotations

from utils.claims import as_printed, within_noise
from utils.lessons.articles_checked import sections
from utils.lessons.articles_checked.checks import spread_of, work_scaled_reference
from utils.lessons.articles_checked.figures import (DEVICES, reference_past_two_words, rounds_above,
                                                    rounds_past_spread, rounds_past_two_words)
from utils.lessons.articles_checked.wording import TWO_STAGES_SECTION
from utils.lessons.model_split.bounds import round_above
from utils.lessons.model_split.noise import round_text
from utils.lessons.model_split.rounds_above import PAST_DEVICES_CAUSE  # lesson 02's words for a round past 2x

REFERENCE_IS = "the bound scaled by the work each stage measured, alone in its process, against one device's"


def capitalised(text: str) -> str:
    return text[0].upper() + text[1:]


def lesson_02_two_stages_reading(record: dict, schedule: str) -> str:
    """What lesson 02 §9 found for a schedule with two stages per device whose median passed its bound, by
    its rule on the figures the ledger keeps (the median, its rounds' spread, the work-scaled reference): a
    median past 2 devices' 2x is a finding no reference explains; one within the work-scaled reference (plus
    the rounds' spread) is explained by it; past that too, or with no reference kept, a finding to explain."""
    value, spread = as_printed(record["value"], 2), spread_of(record)
    head = f"{capitalised(sections.cite(TWO_STAGES_SECTION))} reads {schedule}, {value:.2f}x,"
    if value > DEVICES:
        return (f"{head} as past {DEVICES} devices' {DEVICES}x: a finding to explain, which no reference "
                "explains.")
    reference = work_scaled_reference(record)
    if reference is None:
        return f"{head} against a work-scaled reference the ledger does not keep: a finding to explain here."
    ref = as_printed(reference, 2)
    if ref > as_printed(record["bound"], 2) and value <= ref:
        return f"{head} within its work-scaled reference ({ref:.2f}x: {REFERENCE_IS})" + explained_words(record, ref)
    if ref > as_printed(record["bound"], 2) and within_noise(value, spread, ref):
        return (f"{head} within its work-scaled reference ({ref:.2f}x) plus the rounds' spread "
                f"(± {spread:.2f})" + explained_words(record, ref))
    return f"{head} past its work-scaled reference too ({ref:.2f}x, ± {spread:.2f}): a finding to explain."


def explained_words(record: dict, ref: float) -> str:
    """The end of a §9 median within its reference, in lesson 02's words: explained by the reference; where
    rounds print past 2 devices' 2x, only in the median (those rounds are a finding no reference explains),
    and a reference itself past 2x said to be one (``reference_past_two_words``: equal work on two devices gives
    no more than 2x)."""
    rounds = rounds_past_two_words(record)
    if not rounds:
        return ": explained by the reference."
    beyond = reference_past_two_words(ref)
    return f": explained by the reference in the median; {rounds}" + (f"; {beyond}" if beyond else "") + "."


def lesson_02_rounds_reading(record: dict, schedule: str, section: tuple = TWO_STAGES_SECTION,
                             kind: str = "work-scaled reference", reference_is: str = REFERENCE_IS) -> str:
    """What lesson 02 found about a figure named by its single rounds (its median within its bound): the
    reference it printed (§9's and §5's work-scaled one, §3's per-process one for the split alone: ``kind``,
    from ``section``), and which of the rounds above the bound lie past that reference too (each as lesson 02
    prints it). Read by the one per-round rule (``rounds_past_spread``): a round past the reference and beyond
    the median + the rounds' spread is a finding no reference explains; one past it within the spread is
    explained by the spread; a round past 2 devices' 2x is one whatever the reference, with the causes lesson
    02 names for it. One treatment for every such figure, so that like rounds read alike."""
    where = sections.cite(section)
    head = f"{capitalised(where)} printed {schedule}'s {kind}"
    reference = work_scaled_reference(record)
    if reference is None:
        return f"{head}: the ledger does not keep it, so its rounds above the bound are a finding to explain here."
    ref = as_printed(reference, 2)
    above, past, _ = rounds_above(record)
    spread_beyond = rounds_past_spread(record)
    beyond = [x for x in above if round_above(x, ref) and x in spread_beyond]
    # past the reference, within the spread, and not past 2x (a round past 2x no spread explains: said below)
    within = [x for x in above if round_above(x, ref) and x not in spread_beyond and x not in past]
    head += f", {ref:.2f}x ({reference_is})"
    said = [f"{len(beyond)} of its {len(record['rounds'])} rounds past it too ({listed(beyond)}), beyond the "
            f"rounds' spread of the median (± {spread_of(record):.2f}): a finding to explain, which no reference "
            "explains"] if beyond else []
    if within:
        said.append(f"{len(within)}" + ("" if beyond else f" of its {len(record['rounds'])} rounds")
                    + f" past it too ({listed(within)}), within the rounds' spread"
                    + ("" if beyond else f" of the median (± {spread_of(record):.2f})")
                    + f", which explains {'it' if len(within) == 1 else 'them'}")
    said = f"{head}: " + ("; ".join(said) if said else "its rounds above the bound lie within it")
    if past:  # lesson 02 §9 names what a round past 2x can be, beside its table
        counted = (f"{'both' if len(past) == 2 else len(past)} past {DEVICES} devices' {DEVICES}x too"
                   if set(past) <= set(beyond) else rounds_past_two_words(record))
        said += f"; {counted}: {where} names what such a round can be ({PAST_DEVICES_CAUSE})"
    beyond_two = reference_past_two_words(ref)
    return said + (f"; {beyond_two}" if beyond_two else "") + "."


def listed(rounds: list[float]) -> str:
    """Rounds as lesson 02 prints them: "2.01x, 1.99x"."""
    return ", ".join(f"{round_text(x)}x" for x in rounds)
