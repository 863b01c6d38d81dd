"""Lesson 02's readings against its references, as lesson 09's note under §1's counts gives them: §9's schedules
with two stages per device (interleaved 1F1B, interleaved ZB, ZBV), a median past its bound against its
work-scaled reference (``lesson_02_two_stages_reading``); single rounds past their bound against the reference
lesson 02 printed (``lesson_02_rounds_reading``, §3's, §5's and §9's figures); §3's split alone against its
per-process reference (``split_above_words``). Used by ``report``.
"""

from __future__ import annotations

from utils.claims import as_printed, within_noise
from utils.lessons.articles_checked import sections
from utils.lessons.articles_checked.checks import launches, median_two_words, spread_of, work_scaled_reference
from utils.lessons.articles_checked.figures import (DEVICES, reference_past_two_words, rounds_above,
                                                    rounds_past_two_words, split_reference)
from utils.lessons.articles_checked.split_alone import launch_verdict, lesson_02_verdicts, past_bound
from utils.lessons.articles_checked.reference_rounds import (median_words, past_reference_clauses,
                                                             rounds_past_reference)
from utils.lessons.articles_checked.wording import TWO_STAGES_SECTION
from utils.lessons.model_split.noise import reference_in_noise_of_one, round_text, weak_reference_words
from utils.lessons.model_split.rounds_above import PAST_DEVICES_CAUSE  # lesson 02's words for a round past 2x

REFERENCE_IS = "the bound scaled by the stages' work, measured in the pipeline's own run, against one device's"


def capitalised(text: str) -> str:
    return text[0].upper() + text[1:]


def lesson_02_two_stages_reading(record: dict, schedule: str) -> str:
    """What lesson 02 §9 found for a schedule with two stages per device whose median passed its bound, by
    its rule on the figures the ledger keeps (the median, its rounds' spread, the work-scaled reference): a
    median printed past 2 devices' 2x is read by rule 4 (``median_two_words``), never by a reference; one within the work-scaled reference (plus
    the rounds' spread) is explained by it; past that too, or with no reference kept, a finding to explain."""
    value, spread = as_printed(record["value"], 2), spread_of(record)
    head = f"{capitalised(sections.cite(TWO_STAGES_SECTION))} reads {schedule}, {value:.2f}x,"
    if value > DEVICES:  # rule 4: past 2x beyond its spread, or at 2x within noise; no reference explains it
        return f"{head} above its bound: a finding to explain, {median_two_words(record)}."
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
    from ``section``): first its median against that reference by the noise rule, then which of its rounds lie
    past that reference (each as lesson 02 prints it), counted over all its rounds: a reference under the bound
    is passed below the bound too (``reference_rounds``). Read by the one per-round rule
    (``rounds_past_spread``): a round past the reference and beyond the median + the rounds' spread is a
    finding no reference explains; one past it within the spread is explained by the spread; a round past 2 devices' 2x is one whatever the reference, with the causes lesson
    02 names for it. One treatment for every such figure, so that like rounds read alike."""
    where = sections.cite(section)
    head = f"{capitalised(where)} printed {schedule}'s {kind}"
    reference = work_scaled_reference(record)
    if reference is None:
        return f"{head}: the ledger does not keep it, so its rounds above the bound are a finding to explain here."
    ref = as_printed(reference, 2)
    past = rounds_above(record)[1]
    # every round past the reference, above the bound or not (a reference under the bound is passed below it)
    beyond, two, *_ = rounds_past_reference(record, ref)
    head += f", {ref:.2f}x ({reference_is})"
    said = [median_words(record, ref, "it")] if median_words(record, ref, "it") else []
    said += past_reference_clauses(record, ref)
    said = f"{head}: " + ("; ".join(said) if said else "its rounds above the bound lie within it")
    if past:  # lesson 02 §9 names what a round past 2x can be, beside its table
        counted = past_two_counted(record, past, beyond, two)
        said += f"; {counted}{where} names what such a round can be ({PAST_DEVICES_CAUSE})"
    beyond_two = reference_past_two_words(ref)
    return said + (f"; {beyond_two}" if beyond_two else "") + "."


def past_two_counted(record: dict, past: list[float], beyond: list[float], two: list[float]) -> str:
    """Before lesson 02's causes of a round past 2x: which rounds those are, unless the clauses before said it
    ("" where every one was said past 2x; "the 2.09x round is past 2 devices' 2x too: " where each lies beyond
    the spread: the rounds named again, never a count, which would read as more rounds than those)."""
    if set(past) <= set(two):
        return ""
    if set(past) <= set(beyond) and not two:
        shown = [f"{round_text(x)}x" for x in past]
        listed = shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]
        rounds = "round is" if len(shown) == 1 else "rounds are"
        return f"the {listed} {rounds} past {DEVICES} devices' {DEVICES}x too: "
    return f"{rounds_past_two_words(record)}: "


# Lesson 02 §3's per-process reference, as the note names it
PER_PROCESS = ("Lesson 02 §3 reads its split alone against its per-process reference (one device's time over the "
               "two stages' times, each stage timed alone in its own process)")
SPLIT_LAUNCHES = (
    "Lesson 02 also runs the same step in later sections, with other code, and sets those launches beside §3's "
    "(whether they agree is its to say, from its own run); the ledger keeps §3's figure only, so rows A10 and B5 "
    "quote that one: read it with lesson 02's note on those launches.")
# Where the ledger keeps every launch (``split_alone.launches``): the rows read them together
EVERY_LAUNCH = ("Lesson 02 also runs the same step in later sections, with other code; the ledger keeps every "
                "launch, and rows A10 and B5 read them together, as lesson 02 does.")


def split_above_words(record: dict) -> str:
    """The note's paragraph on lesson 02's split alone past its 1x bound, from the per-process reference this
    run recorded (as printed): above 1x and clear of it, each stage alone measured less than its share of one
    device's work and a split within it is explained by it; within noise of 1x (its own rounds, where the ledger
    kept them) or at or under 1x, it explains no split above 1x; none kept, nothing here explains it."""
    reference, rounds = split_reference(record), record.get("reference_rounds")
    how = ("round by round, each round's speedup over its own round's reference, as lesson 02 §3 reads it"
           if rounds else "its median less the rounds' spread at or under it")
    if reference is None:
        reading = (": the ledger keeps none for this figure, so nothing on this page explains a split above 1x; "
                   "it stays a finding to explain.")
    elif as_printed(reference, 2) > 1 and rounds and reference_in_noise_of_one(rounds):
        reading = f", here {weak_reference_words(rounds)}, and no split above 1x is explained by it."
    elif as_printed(reference, 2) > 1:
        reading = (f", here {as_printed(reference, 2):.2f}x: each stage alone measured less than its share of one "
                   f"device's work, so a split within that reference ({how}) is 'explained by the reference'; "
                   "beyond it, the figure stays a finding to explain, and each row says which beside its finding.")
    else:
        reading = (f", here {as_printed(reference, 2):.2f}x, at or under the 1x bound: the stages alone cost at "
                   "least one device's work, so the reference offers no gain over 1x and explains no split above "
                   "it: a finding to explain, as each row says.")
    return (f"{PER_PROCESS}{reading} {EVERY_LAUNCH if launches(record) else SPLIT_LAUNCHES}"
            + (f" {split_launches_words(record)}" if launches(record) else ""))


def split_quoted_past(record: dict) -> bool:
    """Whether rows A10 and B5, quoting lesson 02's split alone, name a figure of it past its 1x bound, so that
    the note says what lesson 02 found (t35_09 #2): a launch past it by the course's rule, or a launch lesson
    02 read above the bound or with a round it calls a finding to explain."""
    said = lesson_02_verdicts(record) or []
    return (any(past_bound(launch_verdict(value, spread)) for value, spread in launches(record))
            or any(past_bound(text) or "a finding to explain" in text for text in said))


def split_launches_words(record: dict) -> str:
    """Each launch of lesson 02's split alone with what lesson 02 found for it, in its own words where the ledger
    keeps them ("section 3, 1.04x ± 0.01: above the bound, under the per-process reference ..."); an older entry,
    by the course's rule on the launch's median and spread."""
    said = lesson_02_verdicts(record)
    kept = record.get("launch_rounds") or []
    clauses = []
    for k, (value, spread) in enumerate(launches(record)):
        where = kept[k].get("where") if k < len(kept) and isinstance(kept[k], dict) else None
        verdict = said[k] if said else launch_verdict(value, spread)
        clauses.append(f"{where or f'launch {k + 1}'}, {value:.2f}x ± {spread:.2f}: {verdict}")
    return f"Lesson 02 reads each launch: {'; '.join(clauses)}." if clauses else ""

