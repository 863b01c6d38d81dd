"""A figure's median and its single rounds against the reference lesson 02 printed for it (§3's per-process one,
§5's and §9's work-scaled ones, make bench's), counted over every round as printed: a reference under the bound
is passed by rounds under the bound too, so the rounds above the bound alone would miscount them. One rule for
the note's paragraphs on lesson 02 (``two_stages``), row A19 (``wording``) and make bench's runs (``report``).
"""

from __future__ import annotations

from utils.claims import as_printed, within_noise
from utils.lessons.articles_checked.checks import spread_of
from utils.lessons.articles_checked.figures import DEVICES, rounds_above, rounds_past_spread
from utils.lessons.model_split.bounds import round_above
from utils.lessons.model_split.noise import round_text


def median_past_reference(record: dict, ref: float) -> str:
    """Lesson 02's reading of a median against its reference (``ref``, as printed), by the noise rule on the
    figures as printed: "by more than the rounds' spread (± 0.17): a finding to explain"; "within the rounds'
    spread (± 0.21)"; "" where the median is not above it (or no rounds were kept to give a spread)."""
    value = as_printed(record["value"], 2)
    if not record.get("rounds") or value <= ref:
        return ""
    spread = spread_of(record)
    if within_noise(value, spread, ref):
        return f"within the rounds' spread (± {spread:.2f})"
    return f"by more than the rounds' spread (± {spread:.2f}): a finding to explain"


def median_words(record: dict, ref: float, name: str = "its reference") -> str:
    """``median_past_reference`` as a clause of its own: "its median, 1.83x, above its reference (1.61x) by more
    than the rounds' spread (± 0.17): a finding to explain"; "" where the median is not above it."""
    past = median_past_reference(record, ref)
    value = as_printed(record["value"], 2)
    shown = name if name == "it" else f"{name} ({ref:.2f}x)"  # "it": the reference just named
    return f"its median, {value:.2f}x, above {shown} {past}" if past else ""


def rounds_past_reference(record: dict, ref: float) -> tuple[list[float], ...]:
    """Every round past the reference (each as lesson 02 prints it), in five groups, by lesson 02's rule
    (``rounds_above.work_reference_reaches``): beyond the median + the rounds' spread and beyond the reference +
    that spread (a finding); past 2 devices' 2x but not beyond both (a finding too); within the spread
    (explained by it); beyond the spread but within the reference + the spread (explained by the reference);
    beyond the spread and above the bound, where the reference is not above the bound (a finding: lesson 02
    lets a reference explain a round above the bound only where the stages' work is below one device's, so
    the reference lies above the bound; t40_09 #2)."""
    past_ref = [x for x in record["rounds"] if round_above(x, ref)]
    beyond_spread = rounds_past_spread(record | {"bound": ref})
    past_two = rounds_above(record)[1]
    top = reference_top(record, ref)
    beyond = [x for x in past_ref if x in beyond_spread and round_above(x, top)]
    two = [x for x in past_ref if x not in beyond and x in past_two]
    within = [x for x in past_ref if x not in beyond_spread and x not in past_two]
    reached = [x for x in past_ref if x in beyond_spread and x not in beyond and x not in past_two]
    bound = as_printed(record["bound"], 2)
    unexplained = [x for x in reached if as_printed(ref, 2) <= bound and round_above(x, bound)]
    return beyond, two, within, [x for x in reached if x not in unexplained], unexplained


def reference_top(record: dict, ref: float) -> float:
    """The reference + the rounds' spread, as printed: the highest round lesson 02 reads as the reference's."""
    return as_printed(as_printed(ref, 2) + spread_of(record), 2)


def past_reference_clauses(record: dict, ref: float, it: str = "it") -> list[str]:
    """The rounds past the reference, each group with what explains it (the first names the count of rounds and
    the spread): beyond the median + the spread and the reference + the spread, a finding no reference explains;
    past 2 devices' 2x, a finding by that alone (rule 1: equal work on two devices gives at most 2x), even where
    the reference + the spread would reach it (the clause says so, with the sum); within the spread, explained
    by it (noise around the median: where the median is itself past the reference beyond it, a finding, the
    clause says they lie around it); beyond the spread but within the reference + the spread, explained by the
    reference, as lesson 02 reads it. "too" (past the bound too) only where the reference is at or above the
    bound, so every round past it is above it."""
    too = " too" if ref >= as_printed(record["bound"], 2) else ""
    # a median past the reference beyond its spread is a finding itself: rounds around it are not explained
    median_finding = median_past_reference(record, ref).endswith("a finding to explain")
    around = ", around a median itself past it" if median_finding else ", which explains {them}"
    top = f"{as_printed(ref, 2):.2f}x + {spread_of(record):.2f} = {reference_top(record, ref):.2f}"
    groups = [(0, "beyond the rounds' spread{spread} and the reference + that spread (" + top
               + "): a finding to explain, which no reference explains"),
              (1, f"past {DEVICES} devices' {DEVICES}x: a finding to explain by that alone (rule 1), whatever the "
               "spread or the reference say{reach}"),
              (2, "within the rounds' spread{spread}" + around),
              (3, "beyond the rounds' spread{spread} but within the reference + that spread (" + top
               + "), which explains {them}"),
              (4, "beyond the rounds' spread{spread}: a finding to explain (a reference not above the bound, "
               + f"{as_printed(ref, 2):.2f}x against {as_printed(record['bound'], 2):.2f}x, explains no round "
               + "above it)")]
    split = rounds_past_reference(record, ref)
    # the count leads with every round past the reference: no group's count reads as the whole (t38_09)
    total, several = sum(map(len, split)), sum(bool(rounds) for rounds in split) > 1
    said = []
    for index, words in groups:
        rounds = split[index]
        if not rounds:
            continue
        first = not said  # the first group says of how many rounds, and the spread
        head = f"{total} of its {len(record['rounds'])} rounds past {it}{too}" if first else ""
        count = (f"{head}: {len(rounds)} ({listed(rounds)})" if several and first else
                 f"{len(rounds)} ({listed(rounds)})" if several else f"{head} ({listed(rounds)})")
        spread = f" of the median (± {spread_of(record):.2f})" if first else ""
        said.append(f"{count}, " + words.format(spread=spread, them="it" if len(rounds) == 1 else "them",
                                                reach=two_reach(record, ref, rounds) if index == 1 else ""))
    return said


def two_reach(record: dict, ref: float, rounds: list[float]) -> str:
    """Beside rounds past 2x: where the reference + the spread reaches them all, say so, with the sum, so that a
    reader sees that only rule 1 makes them findings (t33_09 #2): " (within the reference + that spread, 1.96x +
    0.08 = 2.04, which would otherwise explain it)"; "" where a round lies past that sum too."""
    top = reference_top(record, ref)
    if as_printed(ref, 2) > DEVICES or any(round_above(x, top) for x in rounds):  # past 2x it explains none
        return ""
    them = "it" if len(rounds) == 1 else "them"
    return (f" (within the reference + that spread, {as_printed(ref, 2):.2f}x + {spread_of(record):.2f} = "
            f"{top:.2f}, which would otherwise explain {them})")


def listed(rounds: list[float]) -> str:
    """Rounds as lesson 02 prints them: "2.01x, 1.99x"."""
    return ", ".join(f"{round_text(x)}x" for x in rounds)
