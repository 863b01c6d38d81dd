"""make bench's runs of lesson 03's data parallel and of lesson 08's two-device step, set beside the lessons'
own runs (the ledger's, which the rows quote), as ``bench_pipeline.lesson_02_beside`` sets make bench's
pipeline beside lesson 02's. Introduced in lesson 09 (reader t28_09 #2).

Two runs of one set-up give two medians; the course's one noise rule between runs (``claims.runs_agree``:
one median ± its spread covers the other's) says whether they differ. Where they do and both runs kept a
work-scaled reference (the bound over the work each worker measured against one worker's), each median's
share of its own reference says whether the workers' work accounts for the gap; where a reference is
missing, the page says the two disagree and that neither run says why. No row's check reads these.
"""

from __future__ import annotations

from utils import claims
from utils.lessons.articles_checked.checks import work_scaled_reference
from utils.lessons.articles_checked.figures import LEDGER_NOISE, capstone_two_devices
from utils.lessons.articles_checked.sources import LEDGER

STEP = "two devices"  # lesson 08's step both runs time (its ``steps`` key)


def run_figures(record: dict) -> tuple[float, float, list, float | None]:
    """One run's median and ± as printed (two decimals, half up), its rounds, and its work-scaled reference
    (None where not kept). The ± is the record's own where it keeps one (lesson 08's steps), else worked from
    its rounds as the course prints it (``claims.printed_spread``), else the 2% floor."""
    rounds = record.get("rounds") or []
    if "spread" in record:
        spread = claims.half_up(record["spread"], 2)
    elif rounds:
        spread = claims.printed_spread(rounds)
    else:
        spread = claims.half_up(LEDGER_NOISE * record["value"], 2)
    return claims.half_up(record["value"], 2), spread, rounds, work_scaled_reference(record)


def figure_text(x: float, spread: float, rounds: list) -> str:
    """"1.29x ± 0.00 (4 rounds, 1.25x to 1.39x)": the median, its ±, and its rounds' count and range (a ± of
    0.00 from a middle half that ties is read beside the whole range)."""
    if not rounds:
        return f"{x:.2f}x ± {spread:.2f} (no rounds kept: the {LEDGER_NOISE:.0%} floor)"
    low, high = (claims.half_up(r, 2) for r in (min(rounds), max(rounds)))
    return f"{x:.2f}x ± {spread:.2f} ({len(rounds)} rounds, {low:.2f}x to {high:.2f}x)"


def beside_words(what: str, lesson: str, bench: dict, recorded: dict, bound: float) -> str:
    """make bench's median of ``what`` beside ``lesson``'s, by the noise rule between runs; where they differ,
    each against its own work-scaled reference where both runs kept one (about the same share of each, within
    the 2% floor: the workers did different work, which neither run explains; shares that differ: the work does
    not account for the gap either), else that the two disagree and neither run says why."""
    (bx, bs, brounds, bref), (lx, ls, lrounds, lref) = run_figures(bench), run_figures(recorded)
    said = (f"make bench timed {what} at {figure_text(bx, bs, brounds)}, {lesson}, whose figure the rows "
            f"quote, at {figure_text(lx, ls, lrounds)}")
    if claims.runs_agree(bx, bs, lx, ls):
        return said + ": within noise of each other (one median ± its spread covers the other's)"
    said += ": neither median ± its spread covers the other's, so the two runs disagree"
    if bref is None or lref is None:
        return said + f"; {references_kept(bx, bref, lx, lref, lesson)}, so whether the workers did different " \
                      "work is not read here, and neither run says why"
    shares = []
    for x, reference in ((bx, bref), (lx, lref)):
        ref = claims.as_printed(reference, 2)
        shares.append((ref, x / ref, claims.half_up(claims.as_printed(bound, 2) / ref, 2)))
    (bref, bshare, bwork), (lref, lshare, lwork) = shares
    said += (f"; make bench {bx:.2f}x against its work-scaled reference {bref:.2f}x ({claims.percent(bshare)} of "
             f"it), {lesson} {lx:.2f}x against {lref:.2f}x ({claims.percent(lshare)})")
    if abs(claims.half_up(bshare * 100, 0) - claims.half_up(lshare * 100, 0)) <= LEDGER_NOISE * 100:
        return said + (f": about the same share of each, so the two runs' workers did different work (about "
                       f"{bwork:.2f}x and {lwork:.2f}x one worker's, each bound over its reference), which "
                       "neither run explains")
    return said + (": the shares differ too, so the workers' work does not account for the gap, which neither "
                   "run explains")


def references_kept(bx: float, bref: float | None, lx: float, lref: float | None, lesson: str) -> str:
    """"neither run kept a work-scaled reference"; "only make bench kept a work-scaled reference (1.72x: 1.60x
    is 93% of it)", its share from both figures as printed."""
    if bref is None and lref is None:
        return "neither run kept a work-scaled reference"
    who, x, ref = ("make bench", bx, bref) if lref is None else (lesson, lx, lref)
    ref = claims.as_printed(ref, 2)
    return f"only {who} kept a work-scaled reference ({ref:.2f}x: {x:.2f}x is {claims.percent(x / ref)} of it)"


def capstone_step(record: dict) -> dict:
    """Lesson 08's two-device step as a run's figures: its median (``figures.capstone_two_devices``), its ± and
    rounds where kept, its reference where kept (neither the ledger nor make bench keeps one today)."""
    step = record.get("steps", {}).get(STEP, {})
    return {**step, "value": capstone_two_devices(record)}


def bench_beside_lessons(m: dict) -> str:
    """make bench's DDP and capstone two-device runs beside lessons 03 and 08's, one sentence each ("" where
    make bench or the ledger lacks the figure: where the ledger lacks it, the rows quote make bench's own)."""
    results, said = m["results"], []
    pairs = (("ddp_bench", "ddp", "lesson 03's data parallel (two workers against one)", "lesson 03", None),
             ("capstone_bench", "capstone", "lesson 08's two-device step", "lesson 08", capstone_step))
    for bench_name, name, what, lesson, step in pairs:
        bench, recorded = results.get(bench_name), results.get(name)
        if bench is None or recorded is None or recorded.kind != LEDGER:
            continue
        b, r = (step(bench.record), step(recorded.record)) if step else (bench.record, recorded.record)
        said.append(beside_words(what, lesson, b, r, r.get("bound") or b.get("bound") or 2.0)
                    + f" [{bench.kind}: {bench.detail}]")
    if not said:
        return ""
    text = "; ".join(said)
    return f"{text[0].upper()}{text[1:]}."
