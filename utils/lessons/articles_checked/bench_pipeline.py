"""make bench's runs of lesson 02's pipeline, as lesson 09's note reads them: each median against its own
2m/(m+1), with its rounds' spread where kept (no row's check reads them). Split from ``report`` (re-exported
there). Introduced in lesson 09."""

from __future__ import annotations

import re

from utils.claims import as_printed, half_up, percent, runs_agree, speedup_verdict
from utils.lessons.articles_checked.checks import (PIPELINE_EXPLAINED, explained_by_reference, past_bound, spread_of,
                                                   work_scaled_reference)
from utils.lessons.articles_checked.figures import LEDGER_NOISE, rounds_above, rounds_past_two_words
from utils.lessons.articles_checked.reference_rounds import past_reference_clauses
from utils.lessons.model_split.noise import round_text


def pipeline_bound(config: str) -> float | None:
    """2m/(m+1) for a configuration named "batch 128 gpipe m=2" (None where it names no m)."""
    found = re.search(r"\bm=(\d+)", config)
    return None if found is None else 2 * int(found.group(1)) / (int(found.group(1)) + 1)


def bench_medians(m: dict) -> list[tuple[str, float, float, float]]:
    """make bench's medians of lesson 02's pipeline, each against its own 2m/(m+1) with its noise: the
    configuration it reported ("reported": its second run, with its rounds' spread), then each configuration
    of the first run, which chose it (no rounds kept: spread None). No row's check reads them."""
    found = m["results"].get("pipeline_configs")
    if found is None:
        return []
    r = found.record
    out = []
    if r.get("m") and r.get("bound"):
        out.append((f"reported: batch {r.get('batch')} {r.get('schedule', '')} m={r['m']}", r["value"], r["bound"],
                    spread_of(r) if r.get("rounds") else None))
    out += [(f"first run: {name}", x, bound, None) for name, x in r.get("choosing_run", {}).items()
            if (bound := pipeline_bound(name)) is not None]
    return [(name.replace("gpipe", "GPipe").replace("1f1b", "1F1B"), *rest) for name, *rest in out]


def past_in_noise(x: float, bound: float, spread: float | None) -> bool:
    """Past its bound by more than its rounds' spread, judged as printed (two decimals), as lesson 02 judges
    it. A median kept without rounds (spread None) is never counted past: see ``past_no_spread``."""
    return spread is not None and past_bound(speedup_verdict(half_up(x, 2), as_printed(bound, 2), spread))


def past_no_spread(x: float, bound: float, spread: float | None) -> bool:
    """A median kept without rounds that lies past its bound beyond the 2% floor: the noise rule reads it
    'no spread recorded' (inconclusive), so it is named apart and never counted as passing its bound. The 2%
    floor only decides 'within'."""
    return spread is None and past_bound(speedup_verdict(half_up(x, 2), as_printed(bound, 2), LEDGER_NOISE * x))


def bench_text(x: float) -> str:
    """A make bench median as printed: half up, as a reader rounds (1.365 -> 1.37x; ``:.2f`` gives 1.36, the
    float being 1.36499...), and as ``past_in_noise`` and ``past_no_spread`` judge it."""
    return f"{half_up(x, 2):.2f}x"


def unspread_words(bench: list) -> str:
    """The medians without rounds past their bound, named apart ("" where none)."""
    found = [f"{name} {bench_text(x)} against {bound:.2f}x" for name, x, bound, spread in bench
             if past_no_spread(x, bound, spread)]
    return (f"; past it with no spread recorded (that run kept no rounds; inconclusive, not counted past): "
            f"{len(found)}: {', '.join(found)}" if found else "")


def bench_words(m: dict, lead: bool = True) -> str:
    """make bench's two runs of lesson 02's pipeline: which chose the configuration, which reported it, and
    the medians past their own 2m/(m+1) beyond their noise, each with its figure ("" where make bench has not
    run it): ``bench_paragraphs`` as one text."""
    said = bench_paragraphs(m)
    if not said or lead:
        return " ".join(said)
    return said[0][0].lower() + " ".join(said)[1:-1]  # the text inside another sentence: no capital, no stop


def bench_paragraphs(m: dict) -> list[str]:
    """``bench_words`` in two paragraphs, each a sentence: the two runs (which chose the configuration, which
    reported it, beside lesson 02's), then the medians past their own 2m/(m+1) ([] where make bench has not run
    it)."""
    bench = bench_medians(m)
    if not bench:
        return []
    found = m["results"]["pipeline_configs"]
    r, reference = found.record, work_scaled_reference(found.record)
    past = [(name, x, bound) for name, x, bound, spread in bench if past_in_noise(x, bound, spread)]
    listed = ", ".join(f"{name} {bench_text(x)} against {bound:.2f}x"
                       + (bench_past_reading(r, reference) if name.startswith("reported") else "")
                       for name, x, bound in past)
    kept = sum(spread is not None for *_, spread in bench)  # medians with their rounds: the rule reads these
    first = {name.removeprefix("first run: "): x for name, x, _, _ in bench if name.startswith("first run")}
    chosen = bench[0][0].removeprefix("reported: ") if bench[0][0].startswith("reported") else ""
    chose = (f"a first run over {len(first)} configurations chose {chosen} ("
             + (f"{bench_text(first[chosen])} there; " if chosen in first else "")
             + "that run kept no rounds and no work-scaled references), and " if first and chosen else "")
    text = (f"make bench timed lesson 02's pipeline in two runs, which no row's check reads: {chose}a second run "
            f"of the chosen configuration alone reported {bench_text(r['value'])}{bench_rounds_counted(r)} "
            f"against {r['bound']:.2f}x" + (f" (its work-scaled reference {reference:.2f}x)" if reference else "")
            + bench_rounds_past_two(r)
            + f"; each run gives its own median{lesson_02_beside(m)}.")
    past_text = ("Make bench's configurations past their own 2m/(m+1) beyond their rounds' spread: "
                 + (f"{len(past) or 'none'} of the {kept} with rounds kept" if kept else "none kept its rounds")
                 + (f": {listed}" if past else "") + unspread_words(bench) + f" [{found.kind}: {found.detail}].")
    return [f"{text[0].upper()}{text[1:]}", past_text]


def bench_rounds_counted(record: dict) -> str:
    """make bench's reported median's spread and its rounds above the bound, counted (the rule that reads it
    "beyond their rounds' spread" shown on the page): " ± 0.06 (12 of 15 rounds above the bound, up to
    2.02x)"; "" where the run kept no rounds."""
    rounds = record.get("rounds")
    if not rounds:
        return ""
    above = rounds_above(record)[0]
    counted = (f"{len(above)} of {len(rounds)} rounds above the bound, up to {round_text(max(above))}x" if above
               else f"none of its {len(rounds)} rounds above the bound")
    return f" ± {spread_of(record):.2f} ({counted})"


def bench_past_reading(record: dict, reference: float | None) -> str:
    """make bench's reported median past its bound, read as lesson 02 §5 reads its own (``PIPELINE_EXPLAINED``):
    within its work-scaled reference (plus the rounds' spread) in the median, explained by the reference;
    past it too, or with none kept, a finding to explain."""
    said = ", above the bound"
    if reference is None:
        return said + " (a finding to explain), with no work-scaled reference kept"
    ref = as_printed(reference, 2)
    if not explained_by_reference(record):
        return f"{said} (a finding to explain) and past its work-scaled reference too, {ref:.2f}x"
    within = "" if half_up(record["value"], 2) <= ref else f" plus the rounds' spread (± {spread_of(record):.2f})"
    return f"{said}, within its work-scaled reference {ref:.2f}x{within} in the median: {PIPELINE_EXPLAINED}"


def bench_rounds_past_two(record: dict) -> str:
    """make bench's reported rounds past its work-scaled reference, read as lesson 02's figures are
    (``reference_rounds.past_reference_clauses``: a round past it beyond the rounds' spread is a finding no
    reference explains), then its rounds past 2 devices' 2x (``rounds_past_two_words``), a finding whatever
    the reference; "" where none is, as printed."""
    reference = work_scaled_reference(record)
    said = (past_reference_clauses(record, as_printed(reference, 2), "that reference")
            if reference is not None and record.get("rounds") else [])
    rounds = rounds_past_two_words(record)
    return "".join(f"; {clause}" for clause in said + ([rounds] if rounds else []))


def same_configuration(bench: dict, lesson: dict) -> bool:
    """make bench's reported configuration is the one lesson 02 §5 recorded (its ``what`` names "1f1b m=8,
    batch 128"): the two medians time one set-up, so the page must say why they differ."""
    what = lesson.get("what", "")
    return bool(bench.get("m")) and f"{bench.get('schedule')} m={bench['m']}" in what and \
        f"batch {bench.get('batch')}" in what


def lesson_02_beside(m: dict) -> str:
    """Where make bench reported the configuration lesson 02 §5 recorded, the two medians set side by side by the
    noise rule between runs (``claims.runs_agree``) first: within noise, there is no gap to explain, and each
    against its own work-scaled reference (bound / the stages' measured work, lesson 02's reference) says
    whether the stages did about the same work. Where they disagree: about the same share of each (within the
    2% floor, as printed) with the work differing says the runs' stages did different work, which neither run
    explains; shares that differ say the work does not account for the gap either ("" where the set-ups
    differ or a reference is missing)."""
    bench, lesson = m["results"].get("pipeline_configs"), m["results"].get("pipeline")
    if bench is None or lesson is None or not same_configuration(bench.record, lesson.record):
        return ""
    pairs = []
    for r in (bench.record, lesson.record):
        reference = work_scaled_reference(r)
        if reference is None or not r.get("bound"):
            return ""
        x, ref = half_up(r["value"], 2), as_printed(reference, 2)
        bound = as_printed(r["bound"], 2)  # the work, from the bound and reference as printed (1.78 / 1.94)
        pairs.append((x, ref, x / ref, half_up(bound / ref, 2), spread_of(r)))
    (bx, bref, bshare, bwork, bspread), (lx, lref, lshare, lwork, lspread) = pairs
    said = (f"; lesson 02 §5 timed the same configuration at {lx:.2f}x: make bench {bx:.2f}x against its "
            f"work-scaled reference {bref:.2f}x ({percent(bshare)} of it), lesson 02 {lx:.2f}x against {lref:.2f}x "
            f"({percent(lshare)})")
    if runs_agree(bx, bspread, lx, lspread):
        return said + f": {agreeing_work_words(bx, bspread, lx, lspread, bwork, lwork)}"
    # the two runs disagree, said with both medians and spreads as the DDP and quantize paragraphs say it
    said += (f": {bx:.2f}x ± {bspread:.2f} and {lx:.2f}x ± {lspread:.2f}, neither covering the other's, so the "
             "two runs disagree")
    if abs(half_up(bshare * 100, 0) - half_up(lshare * 100, 0)) <= LEDGER_NOISE * 100:
        if same_work(bwork, lwork):  # same share, same work: nothing on the page accounts for the gap
            return said + (f"; about the same share of each and the same work ({work_text(bwork, lwork)} one "
                           "device's, bound "
                           "over reference), yet the medians disagree, which neither run explains")
        return said + (f"; about the same share of each, so the two runs' stages did different work (about "
                       f"{bwork:.2f}x and {lwork:.2f}x one device's, each bound over its reference), which neither "
                       "run explains")
    return said + ("; the shares differ too, so the stages' work does not account for the gap between the "
                   "medians, which neither run explains")


def agreeing_work_words(bx: float, bspread: float, lx: float, lspread: float, bwork: float, lwork: float) -> str:
    """Two medians within noise of each other (no gap to explain), then the stages' work each run measured:
    the same as printed, or different work that the medians do not show beyond noise."""
    said = (f"within noise of each other ({bx:.2f}x ± {bspread:.2f} and {lx:.2f}x ± {lspread:.2f}: one median ± "
            "its spread covers the other's)")
    if same_work(bwork, lwork):
        return said + (f"; both runs' stages did about the same work ({work_text(bwork, lwork)} one device's, "
                       "bound over reference)")
    return said + (f"; their stages' work differs (about {bwork:.2f}x and {lwork:.2f}x one device's, each bound "
                   "over its reference), a gap the medians do not show beyond noise")


def same_work(bwork: float, lwork: float) -> bool:
    """Two runs' stage work (each bound over its reference, as printed, kept without rounds) read by the note's
    noise rule for such figures: within 2% of each other (``LEDGER_NOISE``), so 0.92x and 0.91x are the same
    work (t33_09 #4), never told apart by their last digit."""
    return round(abs(bwork - lwork), 9) <= LEDGER_NOISE * max(bwork, lwork)


def work_text(bwork: float, lwork: float) -> str:
    """The same work as printed: "0.92x", or its two ends where the digits differ: "0.91-0.92x"."""
    low, high = sorted((bwork, lwork))
    return f"{low:.2f}x" if low == high else f"{low:.2f}-{high:.2f}x"
