"""make bench's runs of lesson 03's data parallel, of lesson 08's two-device step and of lesson 04's int8 MLP,
set beside the lessons' own runs (the ledger's, which the rows quote), as ``bench_pipeline.lesson_02_beside``
sets make bench's pipeline beside lesson 02's. Introduced in lesson 09 (readers t28_09 #2, t29_09 #3).

Two runs of one set-up give two medians; the course's one noise rule between runs (``claims.runs_agree``:
one median ± its spread covers the other's) says whether they differ. Where they do and both runs kept a
work-scaled reference (the bound over the work each worker measured against one worker's), each median's
share of its own reference says whether the workers' work accounts for the gap; where a reference is
missing, the page says the two disagree and that neither run says why. No row's check reads these.
"""

from __future__ import annotations

import re

from utils import claims
from utils.lessons.articles_checked.checks import work_scaled_reference
from utils.lessons.articles_checked.figures import LEDGER_NOISE, capstone_two_devices
from utils.lessons.articles_checked.sources import LEDGER
from utils.lessons.articles_checked.wording import int8_reference_words

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


def read_spread(x: float, spread: float) -> float:
    """The ± two runs are compared by: never under the course's 2% noise floor (as printed), so that a ± of
    0.00, from a middle half that ties, never decides a disagreement (as ``zeroed.read_spread`` reads it)."""
    return max(spread, claims.half_up(LEDGER_NOISE * x, 2))


def figure_text(x: float, spread: float, rounds: list) -> str:
    """"1.29x ± 0.00 (4 rounds, 1.25x to 1.39x; the middle rounds tie; its ± read at the 2% floor, ± 0.03)": the
    median, its ±, and its rounds' count and range; a ± of 0.00 says why (the middle half ties), and a ± under
    the floor says that the comparison reads it at the floor (``read_spread``)."""
    if not rounds:
        return f"{x:.2f}x ± {spread:.2f} (no rounds kept: the {LEDGER_NOISE:.0%} floor)"
    low, high = (claims.half_up(r, 2) for r in (min(rounds), max(rounds)))
    tie = "; the middle rounds tie" if f"{spread:.2f}" == "0.00" and low != high else ""
    floor = (f"; its ± read at the {LEDGER_NOISE:.0%} floor, ± {read_spread(x, spread):.2f}"
             if read_spread(x, spread) > spread else "")
    return f"{x:.2f}x ± {spread:.2f} ({len(rounds)} rounds, {low:.2f}x to {high:.2f}x{tie}{floor})"


def runs_agree(bx: float, bs: float, lx: float, ls: float) -> bool:
    """The noise rule between two runs (``claims.runs_agree``), each ± read at no less than the floor."""
    return claims.runs_agree(bx, read_spread(bx, bs), lx, read_spread(lx, ls))


def beside_words(what: str, lesson: str, bench: dict, recorded: dict, bound: float) -> str:
    """make bench's median of ``what`` beside ``lesson``'s, by the noise rule between runs; where they differ,
    each against its own work-scaled reference where both runs kept one (about the same share of each, within
    the 2% floor: the workers did different work, which neither run explains; shares that differ: the work does
    not account for the gap either), else that the two disagree and neither run says why."""
    (bx, bs, brounds, bref), (lx, ls, lrounds, lref) = run_figures(bench), run_figures(recorded)
    said = (f"make bench timed {what} at {figure_text(bx, bs, brounds)}, {lesson}, whose figure the rows "
            f"quote, at {figure_text(lx, ls, lrounds)}")
    if runs_agree(bx, bs, lx, ls):
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


# --- lesson 04's int8 MLP (rows B11 and B13 quote it): a speed-up against a roofline reference, no rounds kept -----


def int8_figures(record: dict, percent_printed: bool = False) -> tuple[float, float, str]:
    """One run's int8 speed-up as printed, its ± (its rounds' noise where the record keeps it, lesson 04's
    relative ``noise``; else the 2% floor) and where that ± comes from. ``percent_printed``: the run's page
    prints that noise in whole percent (lesson 04's "9%"), so the ± is worked from it: 3.87x at 9% is ± 0.35."""
    x = claims.half_up(record["value"], 2)
    if "noise" in record:
        noise = noise_as_printed(record["noise"]) if percent_printed else record["noise"]
        return x, claims.half_up(noise * x, 2), "its rounds' noise"
    return x, claims.half_up(LEDGER_NOISE * x, 2), f"no noise kept: the {LEDGER_NOISE:.0%} floor"


def noise_as_printed(noise: float) -> float:
    """Lesson 04's relative noise as its tables print it (``:.0%``, whole percent): 0.0899 -> 0.09."""
    return int(f"{noise:.0%}".rstrip("%")) / 100


def kept_setup(record: dict) -> dict[str, str]:
    """What a record says of its set-up: its batch (from its words) and threads, where kept."""
    batch = re.search(r"batch (\d+)", record.get("what", "") + " " + record.get("note", ""))
    kept = {"batch": batch.group(1)} if batch else {}
    return kept | ({"threads": str(record["threads"])} if "threads" in record else {})


def setup_words(bench: dict, recorded: dict, lesson: str = "lesson 04") -> str:
    """"both at batch 256; lesson 04 on 1 thread, make bench's record keeps no thread count": the set-up each
    record keeps, the same where both keep it alike, each named where they differ or one keeps none."""
    b, r = kept_setup(bench), kept_setup(recorded)
    said = []
    for key in ("batch", "threads"):
        if key in b and b.get(key) == r.get(key):
            said.append(f"both {setup_text(key, b[key])}")
        elif key in b and key in r:
            said.append(f"make bench {setup_text(key, b[key])}, {lesson} {setup_text(key, r[key])}: different "
                        "set-ups, which may account for a gap")
        else:
            missing = [who for who, kept in (("make bench's", b), ("the ledger's", r)) if key not in kept]
            what = "thread count" if key == "threads" else key
            said.append(f"neither record keeps a {what}" if len(missing) == 2 else
                        f"{missing[0]} record keeps no {what}")
    return "; ".join(said)


def setup_text(key: str, value: str) -> str:
    """"at batch 256", "on 1 thread", "on 2 threads"."""
    if key == "batch":
        return f"at batch {value}"
    return f"on {value} thread{'' if value == '1' else 's'}"


def bench_reference_words(bench: dict) -> str:
    """make bench's int8 reference as make bench printed it: "~8.1x (rough)" where its note or
    ``reference_rough`` marks it rough (a matmul rate it rests on spread too far), as lesson 04's beside it;
    else "8.14x" (t35_09 #6)."""
    kept = re.match(r"reference: (~\d+(?:\.\d+)?x \(rough\))", bench.get("note", ""))
    if kept:
        return kept.group(1)
    if bench.get("reference_rough"):
        return f"~{claims.half_up(bench['bound'], 1):.1f}x (rough)"
    return f"{claims.half_up(bench['bound'], 2):.2f}x"


def quantize_beside_words(bench: dict, recorded: dict) -> str:
    """make bench's int8 MLP beside lesson 04's by the noise rule between runs; where they differ, each
    against its own reference (int8 over fp32 matmul rates each run measured) by the share of that reference's
    gain reached, as lesson 04 scores it, unless lesson 04 marked its reference rough: it scores no share then."""
    (bx, bs, bwhy), (lx, ls, lwhy) = int8_figures(bench), int8_figures(recorded, percent_printed=True)
    lref = int8_reference_words(recorded)
    said = (f"make bench timed lesson 04's int8 MLP (torchao int8 compiled, against fp32) at {bx:.2f}x ± {bs:.2f} "
            f"({bwhy}) against its reference {bench_reference_words(bench)}, lesson 04, whose figure rows B11 and B13 "
            f"quote, at {lx:.2f}x ± {ls:.2f} ({lwhy}) against {lref} ({setup_words(bench, recorded)})")
    if claims.runs_agree(bx, bs, lx, ls):
        return said + ": within noise of each other (one median ± its spread covers the other's)"
    said += ": neither median ± its spread covers the other's, so the two runs disagree"
    if "rough" in lref:
        return said + ("; lesson 04 marks its reference rough (a matmul rate it rests on spread too far), so it "
                       "scores no share of it, and neither does this page: neither run says why they differ")
    shares = [(x - 1) / (claims.half_up(ref, 2) - 1)  # lesson 04's score: the share of the printed reference's gain
              for x, ref in ((bx, bench["bound"]), (lx, recorded["bound"]))]
    said += (f"; make bench reached {claims.percent(shares[0])} of its reference's gain, lesson 04 "
             f"{claims.percent(shares[1])} of its own")
    if abs(claims.half_up(shares[0] * 100, 0) - claims.half_up(shares[1] * 100, 0)) <= LEDGER_NOISE * 100:
        return said + (": about the same share, so the gap follows the two runs' references (each its own "
                       "measured int8 over fp32 rates)")
    return said + ": the shares differ too, so the references do not account for the gap, which neither run explains"


# --- lesson 02's split alone (rows A10 and B5 quote it): past its 1x bound in both runs ----------------------------


def split_alone_words(bench: dict, recorded: dict) -> str:
    """make bench's split alone against its 1x bound, round by round as lesson 02 counts them (``bounds.
    round_above``), beside its per-process reference where kept (each stage alone in its process: a rate
    measured here, so a reference, not a bound; t35_09 #5), then beside lesson 02's run by the noise rule between runs."""
    from utils.lessons.model_split.bounds import round_above  # lesson 02's rule: a round as printed

    (bx, bs, brounds, _), (lx, ls, lrounds, _) = run_figures(bench), run_figures(recorded)
    above = sum(round_above(r, bench["bound"]) for r in brounds)
    said = (f"make bench timed lesson 02's split alone at {figure_text(bx, bs, brounds)} against its "
            f"{bench['bound']:.0f}x bound: {above} of its {len(brounds)} rounds above it")
    if bench.get("process_bound"):
        reference = claims.as_printed(bench["process_bound"], 2)  # a rate measured here: a reference (t35_09 #5)
        said += (f"; measured per process (each stage alone in its own process, in the same launch) its per-process "
                 f"reference is {reference:.2f}x, "
                 + ("which its median does not pass beyond its spread: the stages' own times explain it"
                    if bx - bs <= reference else "past that too: a finding to explain"))
    said += (f"; lesson 02, whose figure rows A10 and B5 quote, at {figure_text(lx, ls, lrounds)} "
             f"({setup_words(bench, recorded, 'lesson 02')})")
    if runs_agree(bx, bs, lx, ls):
        return said + ": within noise of each other (one median ± its spread covers the other's)"
    return said + ": neither median ± its spread covers the other's, so the two runs disagree, and neither says why"


def split_alone_beside(results: dict) -> str:
    """make bench's split alone beside lesson 02's, with where it ran ("" where either is missing, or where the
    ledger lacks lesson 02's)."""
    bench, recorded = results.get("naive_split_bench"), results.get("naive_split")
    if bench is None or recorded is None or recorded.kind != LEDGER:
        return ""
    return split_alone_words(bench.record, recorded.record) + f" [{bench.kind}: {bench.detail}]"


def quantize_beside(results: dict) -> str:
    """make bench's int8 MLP beside lesson 04's, with where it ran ("" where either is missing, or where the
    ledger lacks lesson 04's and the rows quote make bench's own)."""
    bench, recorded = results.get("quantize_bench"), results.get("quantize")
    if bench is None or recorded is None or recorded.kind != LEDGER:
        return ""
    return quantize_beside_words(bench.record, recorded.record) + f" [{bench.kind}: {bench.detail}]"


def bench_beside_paragraphs(m: dict) -> list[str]:
    """make bench's DDP, capstone two-device, split alone and int8 MLP runs beside lessons 03, 08, 02 and 04's,
    one paragraph each (none where make bench or the ledger lacks the figure: where the ledger lacks it, the
    rows quote make bench's own)."""
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
    said += [text for text in (split_alone_beside(results), quantize_beside(results)) if text]
    return [f"{text[0].upper()}{text[1:]}." for text in said]


def bench_beside_lessons(m: dict) -> str:
    """``bench_beside_paragraphs`` as one text ("" where it has none)."""
    return " ".join(bench_beside_paragraphs(m))
