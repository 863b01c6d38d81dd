"""Lesson 09's evidence cells, short: each table shows what decides a row's check (its figure, its bound, its
verdict) in at most ``VISIBLE`` characters; every row's whole evidence goes into the collapsed block under the
table (``report.full_evidence``), so nothing measured is lost.

Introduced in lesson 09. A row such as A19 reads six figures against their bounds: a learner first needs the
one its check turns on, and opens the block for the rest.
"""

from __future__ import annotations

import re
import textwrap

from utils.lessons.articles_checked.checks import ABOVE, BUSY, DISAGREES, NOISY
from utils.lessons.articles_checked.sources import CHECKABLE, Part

VISIBLE = 400  # characters of a row's evidence cell shown in its table
MORE = " (the rest: in the block below)"
# words that carry a clause's verdict: the clause a short cell keeps beside the figure
VERDICT_WORDS = ("a finding to explain", "faster", "slower", "under the bound", "above the bound", "at the bound",
                 "within noise", "no speed-up", "agree", "disagree", "no faster", "INCONCLUSIVE")
# the words that carry what a row's check turns on, most telling first: a short cell always keeps the first
# clause holding one of them (with the figure that clause compares), so the cell never reads "within noise"
# beside a check that says "above its bound"
# ("the launches disagree": lesson 02's split alone, its launches each a clause after it: split_alone.launches_words)
CHECK_WORDS = {ABOVE: ("a finding to explain", "above the bound"),
               NOISY: ("INCONCLUSIVE", "the launches disagree", "no spread recorded", "within noise"),
               DISAGREES: ("disagree", "slower", "no faster"),
               # a busy machine: this run's timing beside other programs, or a lesson's figure it marked loaded
               BUSY: ("rerun on a quiet machine", "so not evidence either way")}
SHORT_ASIDE = 12  # an aside this short, "(38.0x)" or "(6 MiB)", is a figure: it stays in a short cell


# "above the bound" as a verdict, not a count of rounds: "none of its 6 rounds above the bound" says no figure
# passed it (t39 run: A19's cell showed the article's split, none above, beside a check "above its bound")
ABOVE_AS_VERDICT = re.compile(r"(?<!rounds )above the bound")


def says(text: str, word: str) -> bool:
    """Whether ``text`` says ``word`` as a verdict: "above the bound" only where it is not a count of rounds
    ("4 of 5 rounds above the bound" is read beside the verdict, not as it)."""
    return bool(ABOVE_AS_VERDICT.search(text)) if word == "above the bound" else word in text


def top_clauses(text: str) -> list[str]:
    """``text`` cut at its "; " outside brackets: "a (b; c); d" -> ["a (b; c)", "d"]."""
    clauses, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if depth == 0 and text.startswith("; ", i):
            clauses.append(text[start:i])
            start = i + 2
    return clauses + [text[start:]]


def deciding_part(parts: tuple[Part, ...], check: str | None) -> Part:
    """The part a row's check turns on: above a bound, the first that names "a finding to explain" (else the
    first "above the bound" its lesson explains); on a busy machine, the first that says which timing was
    disturbed (``CHECK_WORDS``); where a
    summary row's check follows another row's (the part whose ``follows`` names that row, set by ``verdicts``)
    and is not "agrees", that part, so a cell beside "noise-bound" shows which row is noise-bound, not a
    summed-up row's own "within noise"; otherwise the first this run could contradict (measured, recorded, error messages), else the first."""
    if check == ABOVE:  # a finding first; else a figure past its bound that its lesson explains (lesson 02 §5)
        found = [p for p in parts if "a finding to explain" in p.text] or [p for p in parts
                                                                             if says(p.text, "above the bound")]
        if found:
            return found[0]
    if check == BUSY:  # the part that says which timing the busy machine took (t36 run: A19 showed another)
        found = [p for p in parts if any(w in p.text for w in CHECK_WORDS[BUSY])]
        if found:
            return found[0]
    follows = next((p for p in parts if p.follows), None)
    if follows is not None and check in (NOISY, DISAGREES):
        return follows
    return next((p for p in parts if p.kind in CHECKABLE), parts[0])


def deciding_clause(clauses: list[str], check: str | None) -> int:
    """The clause a short cell must keep: the first carrying its check's own words (``CHECK_WORDS``, most
    telling first), else the first with any verdict word, else the first."""
    for word in CHECK_WORDS.get(check, ()):
        found = next((i for i, c in enumerate(clauses) if says(c, word)), None)
        if found is not None:
            return found
    return next((i for i, c in enumerate(clauses) if any(w in c for w in VERDICT_WORDS)), 0)


def short_text(text: str, budget: int, check: str | None = None) -> str:
    """``text``'s first clause and the clause its check turns on (``deciding_clause``), with the other clauses
    in order while they fit in ``budget`` characters (none skipped: a clause read out of its place misleads);
    " … " where clauses are left out. Too long: the other clauses' asides go first, then the first clause is
    cut at a word, then the deciding clause's own asides go (t38 run: A10's 245-character clause); the
    deciding clause is never cut."""
    clauses = top_clauses(text)
    must = deciding_clause(clauses, check)
    # the asides go, but the deciding clause's own (its rounds' "(up to 1.14x)"); the first clause's set-up's go
    bare = [c if i == must != 0 else without_asides(c) for i, c in enumerate(clauses)]
    for version in (clauses, bare):  # the whole text where it fits, else without asides where that fits
        keep = _filled(version, {0, must}, budget)
        if len(keep) == len(version) and len(_joined(version, keep)) <= budget:
            return _joined(version, keep)
    said = _first_cut(bare, must, budget)
    if len(said) > budget and must != 0:  # the deciding clause's own asides too long: it keeps its verdict words
        said = _first_cut([*bare[:must], without_asides(bare[must]), *bare[must + 1:]], must, budget)
    if len(said) > budget:  # still too long: cut the whole at a word
        said = _cut(said, budget - 2) + " …"
    return said


def _first_cut(clauses: list[str], must: int, budget: int) -> str:
    """``clauses`` joined (the first, the deciding one and the others that fit), the first clause cut at a
    word where it is too long beside the deciding one."""
    keep = _filled(clauses, {0, must}, budget)
    said = _joined(clauses, keep)
    if len(said) > budget and must != 0:
        first = _cut_first(clauses[0], len(clauses[0]) - (len(said) - budget) - 2)
        said = _joined([first + (" …" if 1 in keep else ""), *clauses[1:]], keep)
    return said


def _filled(clauses: list[str], keep: set[int], budget: int) -> set[int]:
    """``keep`` with the clauses after the first, in order, while they fit in ``budget``."""
    keep = set(keep)
    for i in range(1, len(clauses)):
        if i not in keep:
            if len(_joined(clauses, keep | {i})) > budget:
                break
            keep.add(i)
    return keep


def without_asides(text: str) -> str:
    """``text`` without its bracketed asides that carry no verdict: "1.96x (the rounds' ratios), the same result
    (largest difference 6e-07)" -> "1.96x, the same result"; "(faster, under the bound: 79% of its gain)" stays."""
    kept, depth, start, last = [], 0, 0, 0
    for i, ch in enumerate(text):
        if ch == "(":
            start = i if depth == 0 else start
            depth += 1
        elif ch == ")" and depth:
            depth -= 1
            aside = text[start:i + 1]
            if depth == 0 and len(aside) > SHORT_ASIDE and not any(w in aside for w in VERDICT_WORDS):
                kept.append(text[last:start].rstrip(" "))
                last = i + 1
    return "".join(kept) + text[last:]


def _cut(text: str, size: int) -> str:
    """``text`` cut at a word within ``size`` characters (at least 40), before any bracket it leaves open."""
    said = text[:max(size, 40)].rsplit(" ", 1)[0]
    while said.count("(") > said.count(")") or said.count("[") > said.count("]"):
        said = said[:max(said.rfind("("), said.rfind("["))].rstrip(" ,:;")
    return said


def _cut_first(clause: str, size: int) -> str:
    """A first clause cut to ``size``: its set-up shortened before its headline figure ("…: 0.91x ± 0.09 one
    device's speed"), which stays; the figure's own words cut at a word where even they do not fit."""
    figure = re.search(r": [\d.]+x\b", clause)  # the set-up (what ran, how) ends where its figure begins
    if not figure or len(clause) <= size:
        return _cut(clause, size)
    rest = clause[figure.start() + 2:]
    room = size - len(rest) - 3
    if room >= 40:
        return _cut(clause[:figure.start()], room) + " … " + rest
    return "… " + _cut(rest, size - 2)


def _joined(clauses: list[str], keep: set[int]) -> str:
    out, last = "", -1
    for i in sorted(keep):
        out += ("; " if i == last + 1 else " … ") if out else ""
        out += clauses[i]
        last = i
    return out + (" …" if last < len(clauses) - 1 else "")


def visible_cell(parts: tuple[Part, ...], check: str | None, full: str, tail: str) -> str:
    """A row's evidence cell as its table shows it: ``full`` where it fits in ``VISIBLE`` characters; else the
    deciding part, short (``short_text``), with its kind and where it ran, a pointer to the block, and ``tail``
    (the cell's "; check: agrees")."""
    if len(full) <= VISIBLE:
        return full
    part = deciding_part(parts, check)
    # where it ran, without the machine's description after its first ": " (in the block): room for figures
    detail = without_asides(part.detail.split(": ", 1)[0])
    tag = f" [{part.kind}{': ' + detail if detail else ''}]"
    budget = max(VISIBLE - len(tag) - len(MORE) - len(tail), 80)
    return short_text(part.text, budget, check) + tag + MORE + tail


VERDICT_VISIBLE = 300  # characters of a verdict's reason shown in its table; the whole in the block
WHOLE_VERDICT = "verdict, whole"


def visible_verdict(cell: str, why: str) -> str:
    """A verdict cell as its table shows it: ``cell`` where its reason ``why`` is short; else the reason's first
    sentence (or clause), with a pointer to the block that holds the whole (``verdict_block``)."""
    if len(why) <= VERDICT_VISIBLE:
        return cell
    return cell.replace(why, short_why(why), 1) + MORE


def short_why(why: str) -> str:
    """The first sentence of a long reason, else its first clause, else its first words: "as stated, true of
    data parallel only. Read the way ..." -> "as stated, true of data parallel only …"."""
    first = re.split(r"(?<=[\w)'])\. (?=[A-Z]|[^\x00-\x7f])", why, maxsplit=1)[0]  # a capital or a CJK word
    if len(first) > VERDICT_VISIBLE:
        first = top_clauses(first)[0]
    if len(first) > VERDICT_VISIBLE:
        first = _cut(first, VERDICT_VISIBLE - 2)
    return first.rstrip(".") + " …"


def verdict_block(row_id: str, why: str, width: int = 106) -> str:
    """A long reason whole, for the block under its table ("" for a reason its table shows whole)."""
    if len(why) <= VERDICT_VISIBLE:
        return ""
    return textwrap.fill(f"{row_id}, {WHOLE_VERDICT}: {why}", width, subsequent_indent="  ", break_on_hyphens=False)


def block_text(row_id: str, full: str, width: int = 106) -> str:
    """One row's whole evidence for the collapsed block: "A19: ...", wrapped to the course's width."""
    return textwrap.fill(f"{row_id}: {full}", width, subsequent_indent="  ", break_on_hyphens=False)
