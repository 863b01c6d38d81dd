"""The article's split (attention on one worker, FFN on the other) as lesson 07 §1 timed it, beside this page's
own paired rounds of the same worker on the same blocks (rows A11 and A19). Lesson 07 records it in the ledger
as ``article_split_speedup`` (its median, its 1x bound, every round's ratio); an older ledger has none, and the
rows say so. Introduced in lesson 09."""

from __future__ import annotations

from utils import claims as words
from utils.lessons.articles_checked import sections
from utils.lessons.articles_checked.figures import paired, recorded_verdict, spread_of
from utils.lessons.articles_checked.lesson_01_pairs import GAP_BETWEEN_RUNS  # one wording for a gap between runs
from utils.lessons.articles_checked.shares import share_text
from utils.lessons.articles_checked.timed_rows import LESSON_07_PASSES

# What the two runs share and what they do not: the same worker (``timelines.article_worker``), blocks and
# threads; each its own launch, its own count of rounds and its own moment on the machine
SAME = "the same worker, blocks and threads"


def lesson_07_split(m) -> dict | None:
    """Lesson 07 §1's recorded article split, or None where the ledger keeps none."""
    found = m["results"].get("article_split")
    return found.record if found is not None else None


def agree(mine: tuple[float, float], theirs: tuple[float, float]) -> bool:
    """The course's one noise rule between two runs' medians, as printed: either median ± its spread covers the
    other's (lesson 02's rule for one step timed in two launches)."""
    return words.runs_agree(*mine, *theirs)


def lesson_07_split_words(m) -> str:
    """"; lesson 07 §1's own run of it: 0.80x ± 0.02 (median of 10 paired rounds), slower than one device:
    ...": lesson 07's figure beside this page's rounds, whether the two agree by the noise rule, and, where
    they do not, what differs between the runs (not what caused it: neither run measures that); the row's check
    reads this page's rounds. Where the ledger keeps none: the lesson to run ("" where this page kept no
    rounds: nothing to set it beside)."""
    rounds = m["passes"].get("article split rounds")
    if not rounds:
        return ""
    where = sections.cite(LESSON_07_PASSES)
    record = lesson_07_split(m)
    if record is None:
        return (f"; {where} times the same split on the same blocks in its own run; the ledger keeps no figure "
                "of it (lesson 07 records only its tensor-parallel pass), so this page cannot set the two side "
                "by side")
    mine = paired(rounds)
    theirs = (words.as_printed(record["value"], 2), spread_of(record))
    n = len(record.get("rounds") or [])
    said = (f"; {where}'s own run of it ({SAME}): {theirs[0]:.2f}x ± {theirs[1]:.2f} (median of {n} paired "
            f"rounds), {share_text(theirs[0])}% of one device's rate each, {recorded_verdict(record, 1.0)}")
    if agree(mine, theirs):
        return (f"{said}: within noise of this page's {mine[0]:.2f}x ± {mine[1]:.2f} (one median ± its spread "
                "covers the other's)")
    return (f"{said}: outside this page's {mine[0]:.2f}x ± {mine[1]:.2f} (neither median ± its spread covers the "
            f"other's): {GAP_BETWEEN_RUNS}. The two runs differ only in their launch, their moment on the "
            f"machine and their count of rounds ({len(rounds)} here, {n} there), so this run cannot separate those "
            "causes; one launch's ± understates how far the figure moves between launches. The check reads this "
            "page's rounds")
