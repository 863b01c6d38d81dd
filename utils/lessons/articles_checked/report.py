"""Lesson 09's tables: the claims by group (at most 8 rows each), the verdict count, the checks' count, and
README's summary.

Introduced in lesson 09. ``readme_markdown()`` is the table README's "The articles' claims, checked" holds;
``tests/test_articles_checked.py`` checks that README and this agree.
"""

from __future__ import annotations

import re
from collections import Counter

from utils.claims import as_printed, printed_ratio
from utils.lessons.articles_checked import claims, sections, short_evidence
from utils.lessons.articles_checked.pipeline_reference import median_two_words, work_scaled_reference
from utils.lessons.articles_checked.figures import DEVICES
from utils.lessons.articles_checked.checks import (ABOVE, AGREES, BUSY, DISAGREES, EXPLAINED_MARGIN, NOISY,
                                                   LAUNCHES_DISAGREE, launches_text,
                                                   READ_AS_LESSON_02, SUMMED, WAITING, explained_by_reference,
                                                   past_bound, read_by_rounds, rounds_above_words, rounds_finding,
                                                   speedup_words, work_scaled_reference)
# lesson 02 §3's per-process reference in lesson 02's words, and its rounds read round by round (PER_PROCESS_IS
# re-exported: tests read it here)
from utils.lessons.articles_checked.split_alone import PER_PROCESS_IS, split_rounds_finding, split_rounds_reading
from utils.lessons.articles_checked.split_alone import note_figure as split_note_figure
from utils.lessons.articles_checked.lesson_01_pairs import GAP_BETWEEN_RUNS
from utils.lessons.articles_checked.figures import (LEDGER_NOISE, TWO_STAGES, WHERE_TO_RECORD, median_text,
                                                    no_spread, reference_past_two_words, rounds_above,
                                                    rounds_past_two_words)
from utils.lessons.model_split.noise import round_text
from utils.lessons.articles_checked.timed_rows import LESSON_07_PASSES, rounds_found_here
# lesson 02 §9's readings of its schedules with two stages per device (re-exported: tests read them here)
from utils.lessons.articles_checked.two_stages import (capitalised, explained_words,  # noqa: F401
                                                       lesson_02_rounds_reading, lesson_02_two_stages_reading,
                                                       split_above_words, split_quoted_past)
from utils.lessons.articles_checked.verdicts import (PIPELINE_SECTION, SPLIT_SECTION, TWO_STAGES_SECTION, Row,
                                                    pipeline_label, pipeline_setup, two_stages_read_words)
from utils.lessons.articles_checked.wording import _listed
from utils.lessons.articles_checked.bench_lessons import bench_beside_paragraphs
from utils.lessons.articles_checked.bench_pipeline import (  # noqa: F401  (split from here; tests read them here)
    bench_medians, bench_paragraphs, bench_past_reading, bench_rounds_counted, bench_rounds_past_two, bench_text,
    bench_words,
    past_in_noise, past_no_spread, pipeline_bound, unspread_words)
from utils.tables import Table

# In each article's reading order; a group is one section of the lesson and one table.
GROUPS = [("Article 1: why two GPUs, and what they buy", ["A1", "A23", "A2", "A24", "A3", "A21", "A4"]),
          ("Article 1: how two GPUs talk", ["A5", "A6", "A18", "A7", "A8", "A9"]),
          ("Article 1: split the model, simplify it, and the code", ["A10", "A11", "A12", "A22", "A20", "A13",
                                                                     "A14"]),
          ("Article 1: distributed training, and the summary", ["A15", "A16", "A17", "A19"]),
          ("Article 2: its opening, and four reasons for slowness", ["B20", "B1", "B2", "B3", "B4"]),
          ("Article 2: cures for compute and transfers", ["B5", "B6", "B7", "B8", "B9", "B10"]),
          ("Article 2: cures for complexity and algorithms", ["B11", "B12", "B13", "B14", "B15",
                                                              "B16", "B21"]),
          ("Article 2: the case study, and the summary", ["B17", "B19", "B22", "B18"])]


# An inconclusive check, whatever made it so: a spread that covers the comparison, a figure kept with no spread,
# a link's message times out of size order (rows B2, B10), or one step's launches that disagree on its bound (rows
# A10, B5: lesson 02's split alone): every cause named, and the row's evidence says which applies (t27_09 #6).
NOISY_WHY = ("within a spread, with none recorded, timings out of order, or launches that disagree: its evidence "
             "says which")
NOISY_WORDS = f"inconclusive, noise-bound ({NOISY_WHY})"


def verdict_cell(row: Row) -> str:
    """"true under conditions: why (lesson 03 §3)", with what it was judged by where nothing was measured,
    and a warning where this run's evidence disagrees."""
    judged = f" (judged by {row.judged_by})" if row.judged_by else ""
    warning = {DISAGREES: " -- THIS RUN DISAGREES: see its evidence",
               ABOVE: " -- A FIGURE PASSED ITS BOUND: a finding to explain (the note under §1's counts says "
                      "what its lesson found)",
               BUSY: " -- INCONCLUSIVE on a busy or loaded machine: see its evidence",
               NOISY: f" -- INCONCLUSIVE, noise-bound ({NOISY_WHY})"}.get(row.check, "")
    return f"{row.verdict}{judged}{warning}: {row.why} ({row.where})"


# A summary row's check reads the checks of the rows it sums up, each against that row's own verdict: it
# times nothing of its own, so its cell says so rather than a bare "agrees".
SUMMARY_CHECK = "check (of the rows it sums up, each against its own verdict; none times the summary itself)"


def evidence_cell(row: Row) -> str:
    if not row.check:
        return row.evidence
    return f"{row.evidence}; {SUMMARY_CHECK if row.id in SUMMED else 'check'}: {row.check}"


def group_table(title: str, ids: list[str], rows: list[Row]) -> Table:
    """One group's rows: id | the article says | verdict: why (where) | evidence [kind: where it ran], wrapped to
    the course's 110 columns; each evidence cell short (what decides its check: ``short_evidence``), the whole
    in ``full_evidence``'s block."""
    by_id = {r.id: r for r in rows}
    return Table(["#", "the article says", "verdict: why (where)", "evidence [kind: where it ran]"],
                 [(i, by_id[i].says, short_evidence.visible_verdict(verdict_cell(by_id[i]), by_id[i].why),
                   short_cell(by_id[i])) for i in ids],
                 title=title, wrap=36)


def short_cell(row: Row) -> str:
    """A row's evidence cell as its table shows it (at most about ``short_evidence.VISIBLE`` characters)."""
    full = evidence_cell(row)
    return short_evidence.visible_cell(row.parts, row.check, full, full[len(row.evidence):])


def full_evidence(ids: list[str], rows: list[Row]) -> list[str]:
    """Every row's whole evidence cell, one text a row, and each long verdict's whole reason after its row's, for
    the collapsed block under its group's table."""
    by_id = {r.id: r for r in rows}
    texts = [(short_evidence.block_text(i, evidence_cell(by_id[i])), short_evidence.verdict_block(i, by_id[i].why))
             for i in ids]
    return [text for pair in texts for text in pair if text]


def verdict_counts(rows: list[Row]) -> Table:
    counts = Counter(r.verdict for r in rows)
    return Table(["verdict", "claims"], [(v, counts.get(v, 0)) for v in claims.VERDICTS])


# Rows that quote a figure past its bound while their own check, reading all their figures, answers otherwise
# (A10 and B5 quoting lesson 02's split alone, inconclusive on its launches): a state beside the checks' own, so
# every count that lists the checks lists these rows too (t29_09 #4), never leaving them among the rest.
QUOTES_PAST = "quotes a figure past its bound"
QUOTES_PAST_WORDS = ("rows that quote a figure past its bound, whose own check, reading all their figures, answers "
                     "otherwise")


def check_counts(rows: list[Row]) -> dict[str, list[str]]:
    """The ids of the rows each check answered: agrees, disagrees, waits for a figure, inconclusive (a busy
    machine, or a spread), above a bound, and unchecked (judged by datasheets, published figures or arithmetic,
    a framing, or not testable here); and, beside those (each of its rows also counted by its check),
    ``QUOTES_PAST``: the rows that quote a figure past its bound whose check answered otherwise."""
    out: dict[str, list[str]] = {AGREES: [], DISAGREES: [], WAITING: [], BUSY: [], NOISY: [], ABOVE: [],
                                 "unchecked": []}
    for r in rows:
        out[r.check or "unchecked"].append(r.id)
    return out | {QUOTES_PAST: quoting_past_bound(rows)}


def quoting_words(rows: list[Row]) -> str:
    """"rows that quote a figure past its bound, whose own check ... answers otherwise: A10, B5", or "" where no
    row does: the clause the checks' sentences (cell 5's and the summary's) carry."""
    quoting = check_counts(rows)[QUOTES_PAST]
    return f"{QUOTES_PAST_WORDS}: {', '.join(quoting)}" if quoting else ""


def own_measurement(rows: list[Row]) -> list[Row]:
    """The rows with a measurement of their own: every row but the summaries, which follow the rows they sum up
    (``SUMMED``) and so must not add to a count of agreement."""
    return [r for r in rows if r.id not in SUMMED]


def summaries_words(rows: list[Row]) -> str:
    """"the summary rows follow them (A17 agrees, B18 agrees)"."""
    said = [f"{r.id}: {r.check or 'unchecked'}" for r in rows if r.id in SUMMED]
    return f"the summary rows follow them, each row against its own verdict ({', '.join(said)})"


def quoting_past_bound(own: list[Row]) -> list[str]:
    """Rows that quote a figure past its bound ("a finding to explain") while their check answers otherwise
    first (a contradiction is said before a finding; a busy machine or a spread): row A19 quoting lesson 02
    §9's ZBV past 2x beside data parallel's share, say. A gap between two runs of one step is no figure past a
    bound: its rows say ``GAP_BETWEEN_RUNS``, never "a finding to explain", and ``gaps_between_runs`` lists them."""
    return [r.id for r in own if r.check not in (None, ABOVE) and "a finding to explain" in r.evidence]


def gaps_between_runs(own: list[Row]) -> list[str]:
    """Rows whose evidence sets this page's run of a step beside a lesson's, outside each other's spread
    (``GAP_BETWEEN_RUNS``), in its evidence or in its verdict's note on this run (row A21's): a gap to explain
    that no bound names, listed on its own, whatever the row's check."""
    return [r.id for r in own if GAP_BETWEEN_RUNS in r.evidence or GAP_BETWEEN_RUNS in r.why]


def gaps_words(rows: list[Row]) -> str:
    """"a gap between runs to explain (...; each row is counted by its own check too): A21 (inconclusive:
    noise-bound), B4 (agrees)", whatever those rows' checks, or "". Each row names its check, so that a reader
    who adds the lists sees why they sum to more than the rows (t38_09 #3)."""
    gaps = [r for r in rows if r.id in gaps_between_runs(rows)]
    listed = ", ".join(f"{r.id} ({r.check or 'not checkable'})" for r in gaps)
    return (f"{GAP_BETWEEN_RUNS.split(',')[0]} (this page's and a lesson's, neither ± its spread covering the "
            f"other's; each row is counted by its own check too): {listed}" if gaps else "")


def checks_sentence(rows: list[Row]) -> str:
    """"checked and agreeing: 31 of 33 rows with their own measurement; the summary rows follow them (A17
    agrees, B18 agrees); disagreeing: none; ...; not checkable (10): A2, ..."."""
    own = own_measurement(rows)
    c = check_counts(own)
    checkable = len(own) - len(c["unchecked"])
    named = ((DISAGREES, "disagreeing"), (ABOVE, "a figure the rows read above its bound (a finding to explain)"),
             (WAITING, "waiting for a lesson's figure"), (BUSY, "inconclusive on a busy machine"),
             (NOISY, NOISY_WORDS))
    others = [f"{name}: {', '.join(c[state]) or 'none'}" for state, name in named]
    if quoting := quoting_words(own):  # beside the rows above their bound: no finding hides in a count
        others.insert(2, quoting)
    if gaps := gaps_words(own):  # two runs of one step apart: not a bound passed, and not hidden either
        others.insert(2, gaps)
    return (f"checked and agreeing: {len(c[AGREES])} of {checkable} rows with their own measurement; "
            f"{summaries_words(rows)}; " + "; ".join(others)
            + f"; not checkable ({len(c['unchecked'])}): {', '.join(c['unchecked'])}")


# Figures a check reads against a bound, and what the lesson that recorded them found where one passed it.
def recorded_speedups() -> dict[str, str]:
    """The recorded speed-ups the rows' checks read, each named by where it comes from (lesson 02's pipeline
    figure is its §5 sweep's best, not the best of every schedule lesson 02 times)."""
    return {"naive_split": "lesson 02's split alone", "pipeline": pipeline_label(),
            "ddp": "lesson 03's two DDP workers",
            "tensor_parallel": f"{sections.cite(LESSON_07_PASSES)}'s tensor-parallel pass",  # row A21 reads it
            # lesson 02 §9's schedules, which row A19 reads
            **{name: f"{sections.cite(TWO_STAGES_SECTION)}'s {schedule}" for name, schedule in TWO_STAGES.items()}}
PIPELINE_ABOVE = (
    "Lesson 02 reads a pipeline past 2m/(m+1) against its work-scaled reference: that bound assumes the "
    "two stages' work adds up to one device's; where the stages' work, measured in the pipeline's own run "
    "(each stage's CPU time in its process, device time on a GPU, summed over one device's step's), came to "
    "less, the reference rises by that factor, and "
    "lesson 02 §5 gives the factor of its run in its 'How this was measured' block.")


def pipeline_above_words(record: dict) -> str:
    """``PIPELINE_ABOVE`` and why that reference does not explain this run's median: the median is printed past
    2 devices' 2x (rule 4: past it beyond its spread, or at it within noise; either way no reference explains
    it), or past the reference too, or the ledger keeps none."""
    if as_printed(record["value"], 2) > DEVICES:
        why = median_two_words(record).replace("the median ", "This median is ", 1)
    elif work_scaled_reference(record) is None:
        why = "The ledger keeps no reference for this figure"
    else:
        why = "This figure is past that reference too"
    return f"{PIPELINE_ABOVE} {why}, so nothing on this page explains it: the rows keep 'a finding to explain' and " \
           "point here."


NOISE_RULE = (
    " The noise rule: a figure kept with its paired rounds is read with their spread (the course's rule); one kept "
    f"without them (the ledger keeps a median, its bound and its reference) is read within {LEDGER_NOISE:.0%} of "
    "what it is set beside, the course's noise floor, except past its bound: there it reads 'no spread recorded' "
    "(inconclusive), never 'above the bound' on that floor alone.")


def above_bound_answer(rows: list[Row]) -> str:
    """The short answer printed before ``above_bound_note``'s collapsed block: which rows passed a bound in this
    run (or none), the details left to the block."""
    above = check_counts(rows)[ABOVE]
    if not above:
        return ("No row is above its bound in this run. The note below reads the recorded medians against their "
                "bounds and gives the noise rule.")
    # counted as §1's sentence counts them (the summary rows aside), the summary rows named apart (t42_09 #3)
    own, summed = [i for i in above if i not in SUMMED], [i for i in above if i in SUMMED]
    named = f"{'the summary rows' if len(summed) > 1 else 'the summary row'} {', '.join(summed)}"
    rows_words = (f"{len(own)} row{'s' if len(own) > 1 else ''} above a bound in this run ({', '.join(own)})"
                  if own else f"{named} above a bound in this run")
    also = f", and {named} through them" if own and summed else ""
    return (f"{capitalised(rows_words)}{also}: a finding to explain, never agreement. The "
            "note below names the figure each quotes and what the lesson that recorded it found.")


def above_bound_note(m: dict, rows: list[Row]) -> str:
    """Lesson 09's one note on the rows whose figure passed its bound, as one text (``above_bound_paragraphs``)."""
    return " ".join(above_bound_paragraphs(m, rows))


def above_bound_paragraphs(m: dict, rows: list[Row]) -> list[str]:
    """Lesson 09's note on the rows whose figure passed its bound, printed under §1's counts, one paragraph a
    topic so that each leads with its figures: which figure each row quotes (and what the lesson that
    recorded it found), lesson 02's explanation of its pipeline, make bench's runs, where lesson 02 reads its
    other configurations, and the noise rule."""
    above = check_counts(rows)[ABOVE]
    explained = pipeline_explained(m)
    if not above:
        counted = not explained  # the medians sentence counts lesson 02 §9's medians among the rest
        return [part for part in (explained or medians_sentence(m) + pipeline_rounds(m), two_stages_past(m),
                                  split_paragraph(m, []).strip(), *bench_beside_paragraphs(m), configs_tail(m, counted).strip(),
                                  NOISE_RULE.strip()) if part]
    labels = recorded_speedups()
    found = [name for name in labels if m["results"].get(name) is not None
             and past_bound(speedup_words(m, name))]
    # each median with its rounds' spread where kept: the verdict above the bound is read with it
    figures = {name: f"{labels[name]}, " + (split_note_figure(m["results"][name].record) if name == "naive_split"
                                             else f"{median_text(m['results'][name].record)} against a bound of "
                                                  f"{m['results'][name].record['bound']:.2f}x") for name in found}
    figures |= dict(zip(rounds_found(m, found), rounds_found_words(m, found))) | rounds_found_here(m)
    _, elsewhere = figures_by_row(figures, above)
    summaries = [i for i in above if i in SUMMED]  # a summary row carries the finding of a row it sums up
    plural = len(summaries) > 1
    note = (rows_above_words(figures, [i for i in above if i not in SUMMED] or above)
            + (f". {' and '.join(summaries)} {'are summary rows' if plural else 'is a summary row'}, above a "
               f"bound through the rows {'they sum' if plural else 'it sums'} up" if summaries and len(summaries)
               < len(above) else "") + "." + quoted_elsewhere_words(elsewhere, rows))
    if "pipeline" in found and not explained:
        note += " " + pipeline_above_words(m["results"]["pipeline"].record)
    note += split_paragraph(m, found)
    others = [WHERE_TO_RECORD[name] for name in found
              if name not in ("pipeline", "naive_split") and name not in TWO_STAGES]
    if others:
        note += f" For the others, {' and '.join(dict.fromkeys(others))} reads the figure in its own section."
    note += "".join(f" {lesson_02_two_stages_reading(m['results'][name].record, TWO_STAGES[name])}"
                    for name in found if name in TWO_STAGES)
    # a figure named by its single rounds: what lesson 02 found about them, beside the reference it printed
    note += "".join(f" {rounds_reading(read_by_rounds(name, m['results'][name].record), name)}"
                    for name in rounds_found(m, found))
    named = [name for name in TWO_STAGES if name in found or name in rounds_found(m, found)]
    # make bench's runs, a paragraph each (t29_09): lesson 02's pipeline, then each run beside its lesson's
    return [part for part in (note, explained, *bench_paragraphs(m), *bench_beside_paragraphs(m),
                              configs_tail(m, False, named).strip(), NOISE_RULE.strip()) if part]


def two_stages_past(m: dict) -> str:
    """Lesson 02 §9's reading of each of its schedules whose median passed its bound, whatever the rows' checks
    answered (t36_09 #2: the medians sentence marks them "(past it)", and row A19 points here for them)."""
    return " ".join(lesson_02_two_stages_reading(m["results"][name].record, label)
                    for name, label in TWO_STAGES.items()
                    if m["results"].get(name) is not None and past_bound(speedup_words(m, name)))


def split_paragraph(m: dict, found: list[str]) -> str:
    """Lesson 02's reading of its split alone wherever a row quotes a figure of it past 1x (t35_09 #2): its
    median past its bound (in ``found``), a round lesson 02 calls a finding, or a launch past 1x or read so by
    lesson 02: from the per-process reference this run recorded, then each launch as lesson 02 read it."""
    split = m["results"].get("naive_split")
    if split is None or not ("naive_split" in found or "naive_split" in rounds_found(m, found)
                             or split_quoted_past(split.record)):
        return ""
    return " " + split_above_words(split.record)


# The rows that quote each recorded speed-up (the figures ``above_bound_note`` names), so that the note credits
# a row only with the figures it shows
QUOTED_BY = {"naive_split": ("A10", "B5"), "pipeline": ("A10", "B5", "A19"),
             "ddp": ("A24", "A3", "A4", "A19", "B5", "B16", "B21"), "tensor_parallel": ("A21", "B2"),
             **{name: ("A19",) for name in TWO_STAGES}, "tensor parallel rounds": ("A21",),  # this page's rounds
             "article split rounds": ("A11", "A19"), "cnn_ddp rounds": ("B22",), "compressed rounds": ("B8",)}


def figures_by_row(figures: dict[str, str], above: list[str]) -> tuple[list[str], dict[tuple, list[str]]]:
    """The figures past their bounds that a row above its bound quotes, and the others, by the rows quoting
    them (rows whose checks said something else first: a contradiction, a busy machine, a spread)."""
    mine, elsewhere = [], {}
    for name, text in figures.items():
        quoting = QUOTED_BY.get(name, ())
        if not quoting or set(quoting) & set(above):
            mine.append(text)
        else:
            elsewhere.setdefault(quoting, []).append(text)
    return mine, elsewhere


def rows_above_words(figures: dict[str, str], above: list[str]) -> str:
    """"Rows A10, B5 are above a bound through X; row A19 through X; Y": each row above its bound credited only
    with the figures it quotes (``QUOTED_BY``), rows quoting the same figures named together."""
    groups: dict[tuple[str, ...], list[str]] = {}
    for row in above:
        texts = tuple(text for name, text in figures.items()
                      if not QUOTED_BY.get(name) or row in QUOTED_BY[name])
        groups.setdefault(texts, []).append(row)
    said = []
    for texts, ids in groups.items():
        who = f"rows {', '.join(ids)} are" if len(ids) > 1 else f"row {ids[0]} is"
        said.append(f"{who} above a bound through {'; '.join(texts) or 'a figure of theirs'}")
    return ". ".join(capitalised(piece) for piece in said)


def quoted_elsewhere_words(elsewhere: dict[tuple, list[str]], rows: list[Row]) -> str:
    """" Row A19 also quotes ... past their bounds (row A19's check: disagrees, which it says before a figure
    past its bound)." for each group of figures no row above its bound quotes."""
    checks = {r.id: r.check for r in rows}
    out = ""
    for quoting, texts in elsewhere.items():
        ids = [i for i in quoting if i in checks] or list(quoting)
        said = "; ".join(f"row {i}'s check: {checks[i]}" for i in ids if i in checks)
        out += (f" {'Rows' if len(ids) > 1 else 'Row'} {', '.join(ids)} also quote{'' if len(ids) > 1 else 's'} "
                f"{'; '.join(texts)}, past {'their bounds' if len(texts) > 1 else 'its bound'}"
                + (f" ({said}; each row's check weighs all its figures together, so one "
                   "figure past its bound does not decide it)" if said else "") + ".")
    return out


def rounds_found(m: dict, found: list[str]) -> list[str]:
    """The names ``rounds_found_words`` gives: lesson 02's pipelines read by their single rounds."""
    return [name for name in READ_AS_LESSON_02 if name not in found and m["results"].get(name) is not None
            and _finding(name, read_by_rounds(name, m["results"][name].record))]


def _finding(name: str, record: dict) -> bool:
    """Lesson 02's rule on a figure's single rounds; the split alone's each against its own round's per-process
    reference, as §3 and rows A10 and B5 read them (``split_rounds_finding``)."""
    return split_rounds_finding(record) if name == "naive_split" else rounds_finding(record)


def rounds_reading(record: dict, name: str) -> str:
    """Lesson 02's reading of a figure named by its single rounds, one treatment for each (``two_stages.
    lesson_02_rounds_reading``): §9's schedules and §5's pipeline against their work-scaled references, §3's
    split alone against its per-process reference: round by round, each round against its own round's
    reference, where the ledger kept them (``split_alone.split_rounds_reading``, lesson 02 §3's rule); an older
    entry, which kept the median only, against that."""
    if name in TWO_STAGES:
        return lesson_02_rounds_reading(record, TWO_STAGES[name])
    if name == "pipeline":
        return lesson_02_rounds_reading(record, "its best GPipe/1F1B configuration", PIPELINE_SECTION)
    return split_rounds_reading(record) or lesson_02_rounds_reading(
        record, "the split alone", SPLIT_SECTION, "per-process reference", PER_PROCESS_IS)


def rounds_found_words(m: dict, found: list[str]) -> list[str]:
    """Lesson 02's pipelines whose median is not past its bound but whose single rounds lesson 02 reads as a
    finding to explain (one past 2x, or one above the bound and above the median + the rounds' spread, round
    by round: ``figures.rounds_finding``): each with the count of its rounds above the bound; their reading,
    round by round, is the rows' (not repeated here)."""
    labels = recorded_speedups()
    out = []
    for name in rounds_found(m, found):
        r = read_by_rounds(name, m["results"][name].record)
        above = rounds_above(r)[0]
        out.append(f"{labels[name]}, {median_text(r)} against a bound of {r['bound']:.2f}x, by its single rounds: "
                   f"{len(above)} of {len(r['rounds'])} rounds above the bound (up to {round_text(max(above))}x; "
                   "the rows quoting it read each)")
    return out


def checked_medians(m: dict) -> list[tuple[str, bool]]:
    """The recorded medians the rows' checks read against a bound: (whose, past it by the course's words); one
    past it with no spread recorded is not counted past, and its label says so, as it says of lesson 02's
    split alone whose launches disagree on the bound (``split_alone.launches_words``)."""
    said = {name: speedup_words(m, name) for name in recorded_speedups() if m["results"].get(name) is not None}
    return [(label + (" (past it, no spread recorded)" if no_spread(said[name]) else "")
             + (f" (its launches disagree on it: {launches_text(m['results'][name].record)})"
                if said[name].startswith(LAUNCHES_DISAGREE) else ""), past_bound(said[name]))
            for name, label in recorded_speedups().items() if name in said]


def medians_sentence(m: dict) -> str:
    """One count over every recorded median read against a bound, from the same lists it then names: the
    ones the rows' checks read (none past, in this branch), and make bench's of lesson 02's pipeline."""
    checked, bench = checked_medians(m), bench_medians(m)
    past = [item for item in bench if past_in_noise(*item[1:])]
    past_checked = [label for label, is_past in checked if is_past]
    total = len(checked) + len(bench)
    unspread = sum(past_no_spread(*item[1:]) for item in bench)
    head = (f"Of the {total} recorded medians read against a bound, "
            + (f"{len(past) + len(past_checked)} passed it" if past or past_checked else "none passed it")
            + (f" ({unspread} more lie past it with no spread recorded: not counted)" if unspread else ""))
    named = ", ".join(label + (" (past it)" if is_past else "") for label, is_past in checked)
    mine = (f"{len(past_checked) or 'none'} of the {len(checked)} the rows' checks read ({named})" if checked
            else "no row's check reads one yet")
    return f"{head}: {mine}; {bench_words(m, lead=False)}".rstrip("; ") + "."


def configs_tail(m: dict, counted: bool, named: list[str] = ()) -> str:
    """Where lesson 02's own configurations are read; ``counted``: the medians sentence above counted lesson 02
    §9's medians (the branch without a figure past its bound); else ``named``: those of §9's schedules the
    note above names (past their bound, or by their single rounds), from the same lists its opening prints."""
    where = sections.cite(("02", "How close do GPipe"))
    return (f" {where[0].upper()}{where[1:]} reads each configuration of its own run whose median passed its "
            "2m/(m+1) against its work-scaled reference (2m/(m+1) divided by w, the two stages' CPU time in the "
            "pipeline's step over one device's); the ledger keeps only the best, so this lesson cannot read "
            f"them itself. {capitalised(two_stages_read_words(m))}" + two_stages_named(m, counted, named))


# Row A19 reads lesson 02 §9's medians against their bounds (a count of rounds above, at most); lesson 02 prints them
ROUNDS_WHERE = (f" (row A19 reads them against their bounds; {sections.cite(TWO_STAGES_SECTION)} prints their "
                "rounds)")


def two_stages_named(m: dict, counted: bool, named: list[str]) -> str:
    """``configs_tail``'s last words: which of lesson 02 §9's medians row A19 reads are among those above."""
    read = [name for name in TWO_STAGES if m["results"].get(name) is not None]
    if not read:
        return "."
    if counted:
        return "; those it reads are among the medians counted above."
    inside = [TWO_STAGES[name] for name in read if name in named]
    outside = [TWO_STAGES[name] for name in read if name not in named]
    if not inside:
        return f"; none of them is among the figures named above{ROUNDS_WHERE}."
    are = "is" if len(inside) == 1 else "are"
    if not outside:
        return f"; {_listed(inside)} {are} among the figures named above{ROUNDS_WHERE}."
    return (f"; {_listed(inside)} {are} among the figures named above; {_listed(outside)} "
            f"{'is' if len(outside) == 1 else 'are'} not{ROUNDS_WHERE}.")


def pipeline_rounds(m: dict) -> str:
    """" Lesson 02's best pipeline, 1.75x: 1 of 5 rounds above the bound ...", or what the ledger lacks to say it
    ("" where lesson 02 has not recorded the figure)."""
    found = m["results"].get("pipeline")
    if found is None:
        return ""
    verb = "has" if found.record.get("rounds") else "is"  # "has 3 of 5 rounds above", "is a median of rounds"
    return (f" {capitalised(pipeline_label())}, {median_text(found.record)} against {found.record['bound']:.2f}x, "
            f"{verb} {rounds_above_words(found.record)}.")


def pipeline_explained(m: dict) -> str:
    """Where lesson 02's best pipeline passed 2m/(m+1) within its work-scaled reference (an older entry: by
    less than ``EXPLAINED_MARGIN``): what it measured, on which set-up, and lesson 02's explanation of it, in
    the median only, with what no reference explains (``past_two_words``), beside a verdict that stays "a
    finding to explain" ("" where it did not pass, or passed the reference too)."""
    found = m["results"].get("pipeline")
    if found is None or not past_bound(speedup_words(m, "pipeline")):
        return ""
    if not explained_by_reference(found.record):
        return ""
    r = found.record
    reference = work_scaled_reference(r)
    within = (f"within its work-scaled reference of {reference:.2f}x (recorded by lesson 02) in the median"
              if reference else f"under {EXPLAINED_MARGIN:.0%}")
    return (f"{capitalised(pipeline_setup(m))}, {median_text(r)}, passed its 2m/(m+1) bound of "
            f"{r['bound']:.2f}x by {printed_ratio(r['value'], r['bound']) - 1:.0%}, {within}: lesson 02 §5 "
            "explains such a median by its work-scaled reference: 2m/(m+1) assumes the two stages' work adds up "
            "to one device's, and the stages' work, measured in the pipeline's own run (each stage's CPU time "
            "in its process, device time on a GPU, summed over one device's step's), came to less, which "
            "raises the reference by that factor (its 'How this was measured' block gives the "
            f"factor).{past_two_words(r, reference)} That is an explanation, not agreement: no row reads a "
            "figure past its bound as agreeing, and each that quotes it gives this explanation beside its "
            "check; a median past its reference too would have none here.")


def past_two_words(record: dict, reference: float | None) -> str:
    """What lesson 02's work-scaled reference cannot explain, as lesson 02 §5 reads it, each a sentence of its
    own: a reference itself past 2 devices' 2x (``reference_past_two_words``), and single rounds past 2x
    (``rounds_past_two_words``), a finding no reference explains ("" where neither, as printed)."""
    return "".join(f" {capitalised(said)}." for said in (reference_past_two_words(reference),
                                                          rounds_past_two_words(record)) if said)


def stops_as_written(row: Row) -> bool:
    """Whether a code block's row says its first step, as written, raised: "1. ...Error..." up to the next ";"
    (a row may open with a definition before its steps, as A12 defines the meta device)."""
    return any(re.search(r"(?:^|\s)1\. [^;]*Error", p.text) for p in row.parts)


def group_sentence(ids: list[str], rows: list[Row]) -> str:
    """What this run made of one group's rows: which checks agree, disagree or wait, which rows were judged
    without a measurement, and which this machine cannot test."""
    by_id = {r.id: r for r in rows}
    states = [(AGREES, "agreeing"), (DISAGREES, "DISAGREEING (read the evidence)"),
              (ABOVE, "a figure ABOVE ITS BOUND (a finding to explain)"), (WAITING, "waiting for a lesson's figure"),
              (BUSY, "inconclusive (other programs held the cores, or a lesson marked its figure's machine loaded)"),
              (NOISY, "inconclusive (noise-bound: see the row's evidence)")]
    said = [f"{verb}: {', '.join(hit)}" for state, verb in states
            if (hit := [i for i in ids if by_id[i].check == state and i not in SUMMED])]
    said += [gaps] if (gaps := gaps_words([by_id[i] for i in ids if i not in SUMMED])) else []
    said += [f"the summary row {i} follows the rows it sums up, each against its own verdict ({by_id[i].check})"
             for i in ids
             if i in SUMMED and by_id[i].check]
    unchecked = [f"{i} by {by_id[i].judged_by}" for i in ids if by_id[i].judged_by]
    untestable = [i for i in ids if by_id[i].verdict == claims.NOT_TESTABLE]
    framing = [i for i in ids if by_id[i].verdict == claims.FRAMING]
    sentence = "Checked in this run: " + ("; ".join(said) if said else "none") + "."
    if unchecked:
        sentence += " Judged without a measurement: " + "; ".join(unchecked) + "."
    if untestable:
        sentence += " Not testable on this machine: " + ", ".join(untestable) + " (each says what it needs)."
    if framing:
        sentence += " Not testable as stated: " + ", ".join(framing) + " (a framing: its row says why)."
    return sentence


def readme_verdict(claim: claims.Claim) -> str:
    """The verdict the lesson prints; a claim that needs hardware reads as the lesson does without it."""
    if claim.needs:
        return f"{claims.NOT_TESTABLE} (needs {claims.NEEDS[claim.needs]})"
    return claim.verdict


def readme_markdown() -> str:
    """README's summary: claim, the course's reading, where the course measures it (cited from the headings)."""
    lines = ["| # | the article says | verdict | where the course measures it |", "| --- | --- | --- | --- |"]
    order = [i for _, ids in GROUPS for i in ids]
    lines += [f"| {c.id} | {c.says} | {readme_verdict(c)} | {readme_where(c)} |"
              for c in sorted(claims.CLAIMS, key=lambda c: order.index(c.id))]
    return "\n".join(lines)


def readme_where(claim: claims.Claim) -> str:
    """The sections, cited as the lesson cites them; "this lesson" names itself in README: "lesson 09"."""
    return sections.cite_all(claim.refs).replace("this lesson", f"lesson {sections.THIS_LESSON}")
