"""Lesson 02's claims row on the naive split's launches: which rounds past the spread each launch's verdict
names as findings to explain, and which it reads with its median instead (cell 15's two rules, each said)."""
from __future__ import annotations

from utils.lessons.model_split.bounds import rounds_spread
from utils.lessons.model_split.noise import round_text
from utils.lessons.model_split.reference import findings_past
from utils.lessons.model_split import report  # a module: report imports naive, which imports this one
from utils.lessons.model_split.rounds_above import rounds_past_reach, work_reference_reaches
from utils.lessons.model_split.runs import Row


def read_with_median(r: Row) -> bool:
    """Whether the row's verdict is "above the bound": its rounds above the bound are read with the median
    (section 3's rule, cell "How a verdict reads"), not one by one against the spread."""
    return report.headline_verdict(r).startswith("above the bound")


def launches_past(entries: list[tuple[str, str, Row]]) -> str:
    """The rounds each launch's verdict names as findings (``named_past``: past median + spread, and reached by no
    reference measured here), kept in the claims row as each section prints them: "; rounds that stay findings
    to explain (past the spread, reached by no reference): section 3 1.11x, section 5 1.15x"; then the launches
    whose such rounds are read with their median instead (``_held_by_median``), so that the label's set is whole
    (t31_02 #2, t39_02 #3); "" where neither."""
    named = [(where, past) for where, _, r in entries if (past := named_past(r))]
    said = ""
    if named:
        listed = ", ".join(f"{where} {_rounds(past)}" for where, past in named)
        many = sum(len(past) for _, past in named) > 1
        label = "rounds that stay findings" if many else "a round that stays a finding"
        said = f"; {label} to explain (past the spread, reached by no reference): {listed}"
    return said + _held_by_median(entries)


def named_past(r: Row) -> list[float]:
    """The rounds a launch's verdict names as findings: where it reads rounds one by one, past the spread and
    reached by no reference measured here: not their own round's per-process reference (``findings_past``), nor
    the work-scaled reference + d (``work_reference_reaches``: section 5's table says "within the work-scaled
    reference ...: no finding" of those); under a median the work-scaled reference explains, those past that
    reference + d too (``rounds_past_reach``), as the verdict prints them."""
    if not read_with_median(r):
        past = findings_past(r)
        reached = work_reference_reaches(r, past, rounds_spread(r.speedups))
        return [s for s in past if s not in reached]
    return rounds_past_reach(r) if "within the work-scaled reference" in report.headline_verdict(r) else []


def _held_by_median(entries: list[tuple[str, str, Row]]) -> str:
    """The other rule: a launch whose median is itself the finding (above the bound, no reference explains it)
    reads its rounds with that median, so its rounds past the spread that no reference reaches are not named one
    by one: said, with the rounds, so that a reader does not find them missing from the list above. "" where no
    launch has any."""
    held = [(where, past) for where, _, r in entries if (past := _median_holds(r))]
    if not held:
        return ""
    listed = ", ".join(f"{where}'s {_rounds(past)}" for where, past in held)
    return (f"; past the spread too, but read with its launch's median (above the bound, itself the finding "
            f"to explain): {listed}")


def _median_holds(r: Row) -> list[float]:
    """The rounds past the spread that no reference reaches (``named_past``'s test, one by one) in a launch whose
    median is itself the finding; [] in any other launch."""
    if not read_with_median(r) or "within the work-scaled reference" in report.headline_verdict(r):
        return []
    past = findings_past(r)
    reached = work_reference_reaches(r, past, rounds_spread(r.speedups))
    return [s for s in past if s not in reached]


def _rounds(rounds: list[float]) -> str:
    """"1.11x and 1.13x": rounds as every table prints them."""
    return " and ".join(f"{round_text(s)}x" for s in rounds)
