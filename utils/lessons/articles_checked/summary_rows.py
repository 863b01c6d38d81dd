"""Rows whose words follow another row's figures: A4 (cost, beside row A3's time), A19's reason (data parallel's
share of each GPU's rate) and B18 (the cures rows B5 to B16 time, those that gave no speed-up here named, each
with its own row's check). Used by ``verdicts``."""

from __future__ import annotations

from utils.claims import as_printed, percent
from utils.lessons.articles_checked.checks import (BOTH_WORKING, SUMMED, article_split_speedup,
                                                   compression_reading, read_by_rounds, run_check, speedup_words,
                                                   too_busy)
from utils.lessons.articles_checked.figures import (LEDGER_NOISE, LOADED, READ_AS_LESSON_02, capstone_two_devices,
                                                    disturbed, fused_verdict, quote, rounds_above_words,
                                                    rounds_finding, zeroed_no_faster, zeroed_ratio, zeroed_side)
from utils.lessons.articles_checked.shares import share_of_rate, share_text
from utils.lessons.articles_checked.split_alone import (LAUNCHES_DISAGREE, launch_readings, launches_text,
                                                        split_rounds_clause, split_rounds_finding)
from utils.lessons.articles_checked.zeroed import paired as zeroed_paired
from utils.lessons.articles_checked.sources import ARITHMETIC, ROWS, Part

# The cures rows B5 to B16 time against one device (or the plain way), each with the rows that quote it: B5's
# split alone too (the article's "split the model over nodes"), whose bound is one device's time
TIMED_CURES = (("split alone (lesson 02)", ("B5",), "naive_split"), ("data parallel", ("B5", "B16"), "ddp"),
               ("pipeline (lesson 02)", ("B5",), "pipeline"))
NO_GAIN = ("slower", "not faster", "no faster", "within noise")  # no speed-up (claims.speedup_verdict's words)
COUNT_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five"}


def a4(m):
    def cost(speedup: float) -> str:
        speedup = as_printed(speedup, 2)  # 2 / 1.34 = 1.49 from the figure as printed, not from 1.336
        saved = "past 2x: fewer, superlinear" if speedup > 2 else "not past 2x: none saved"
        return (f"{speedup:.2f}x (bound 2x): the time {percent(1 / speedup)} of one GPU's (per machine-hour or "
                f"against a deadline: {'less' if speedup > 1 else 'no less'} cost); 2 / {speedup:.2f} = "
                f"{2 / speedup:.2f}x the GPU-hours of one GPU ({saved})")
    # A4 adds the cost to A3's time: whether two GPUs cut the time at all is A3's check, named here, not A4's
    return [quote(m, "ddp", lambda r: f"two DDP workers, {m['setups']['03']}, {cost(r['value'])}"),
            quote(m, "capstone", lambda r: f"{m['setups']['08']}, {cost(capstone_two_devices(r))}"),
            Part(f"each cost above follows from its own speed-up as the verdict says; whether two GPUs cut the "
                 f"time at all is row A3's check ({run_check('A3', m, {})})", ROWS)]


def data_parallel_reason(m) -> Part | None:
    """Row A19's reason, "data parallel can keep both GPUs working", read from lesson 03's figure as printed:
    above the row's line, it did here; at or under it, no method of the article's kept both working in this
    run, which fails the verdict's reason (data parallel's exception), not its "false"."""
    found = m["results"].get("ddp")
    if found is None:
        return None
    # the whole per cent judged against the line, the share printed as every row prints it (99.5%, never 100%)
    share, line = share_of_rate(found.record["value"]), as_printed(BOTH_WORKING * 100, 0)
    shown = share_text(found.record["value"])
    if disturbed(m, "ddp"):
        return Part(f"data parallel's {shown}% of each GPU's rate was {LOADED}: whether it kept both GPUs "
                    "working here is for a rerun on a quiet machine to say", ARITHMETIC)
    if share > line:
        return Part(f"data parallel kept {shown}% of each GPU's rate, above the row's {line:.0f}% line: both GPUs "
                    "working in this run, as the verdict's reason says", ARITHMETIC)
    said = f"data parallel kept {shown}% of each GPU's rate, not above the row's {line:.0f}% line"
    split = article_split_speedup(m)[0]
    if share_of_rate(split) > line:  # the split kept both working too: the check reads that against the verdict
        return Part(said, ARITHMETIC)
    return Part(f"{said}: none of the article's three methods (its split {share_text(split)}%, data parallel "
                f"{shown}%, a merge none of a second GPU) kept both GPUs working in this run; a check that "
                "disagrees here disagrees with the verdict's reason (data parallel's exception), not with its "
                "'false'", ARITHMETIC)


def unpaid_cures(m) -> list[tuple[str, str]]:
    """The cures rows B5 to B16 time that gave no speed-up in this run: (the words, a speed-up's verdict words)
    for each, naming the rows that quote it and their own checks (row B8 with its condition)."""
    found = []
    for label, ids, name in TIMED_CURES:
        if m["results"].get(name) is None or disturbed(m, name):  # a loaded machine's figure: no evidence
            continue
        said = speedup_words(m, name)
        checks = ", ".join(f"row {i}'s check: {run_check(i, m, {})}" for i in ids)
        record = read_by_rounds(name, m["results"][name].record)
        named = f"{', '.join(ids)}'s {label}"
        if said.startswith(LAUNCHES_DISAGREE) and (split := split_no_gain(named, record, checks)):
            found.append(split)
            continue
        if said.startswith(NO_GAIN):
            value = as_printed(record["value"], 2)
            if name in READ_AS_LESSON_02 and _rounds_finding(name, record):
                # no gain in the median, but single rounds lesson 02 reads as a finding: named as its row names
                # them, in a clause of their own with the row's check, so that a short cell keeps it whole
                # (short_evidence); the median's verdict to its first clause (the row holds the rest)
                found.append((f"{named}, {value:.2f}x ({said.split('; ', 1)[0]}); its single rounds: "
                              f"{_rounds_words(name, record)}; {checks}", said))
                continue
            found.append((f"{named}, {value:.2f}x ({said}; {checks})", said))
    condition, said = compression_reading(m)
    if said.startswith(NO_GAIN) and not too_busy(m, "compressed", 2):
        state = {"fails": "failed", "holds": "held", "unread": "not read"}.get(condition, "at break-even")
        found.append((f"B8's compression ({said}; its condition {state}, which its verdict allows; row B8's "
                      f"check: {run_check('B8', m, {})})", said))
    if (zeroed := zeroed_unpaid(m)) is not None:
        found.append(zeroed)
    if "algorithms" in m and (said := fused_verdict(m["algorithms"]["gelu"])).startswith(NO_GAIN):
        found.append((f"B14's fusion ({said}; row B14's check: {run_check('B14', m, {})})", said))
    return found


def _rounds_finding(name: str, record: dict) -> bool:
    """Whether a figure's single rounds hold a finding by lesson 02's rule; the split alone's read against each
    round's own per-process reference, as lesson 02 §3 reads them (``split_rounds_finding``)."""
    return split_rounds_finding(record) if name == "naive_split" else rounds_finding(record)


def _rounds_words(name: str, record: dict) -> str:
    """A figure's single rounds in words; the split alone's in lesson 02 §3's words (``split_rounds_clause``)."""
    return split_rounds_clause(record) if name == "naive_split" else rounds_above_words(record)


def split_no_gain(named: str, record: dict, checks: str) -> tuple[str, str] | None:
    """Lesson 02's split alone where its launches disagree (``split_alone.launches_words``) and none is past the
    1x bound: no launch gained, so it is named among the cures that showed no gain, with every launch and its
    own reading (never one launch's verdict for all), its single rounds (a finding to explain where lesson 02
    reads one) and its row's check, in one item; None where a launch is past the bound (no "no gain" then)."""
    readings = launch_readings(record)
    if readings is None:
        return None
    # lesson 02 §3's reading of the rounds, as rows A10 and B5 print it: a round within its own round's
    # per-process reference is no finding (t31_09 #1), so the clause is only added where a round stays one
    rounds = f"; its single rounds: {split_rounds_clause(record)}" if split_rounds_finding(record) else ""
    return (f"{named}: none faster than one device beyond its noise; {launches_text(record)}; they read "
            f"differently ({readings}), so none decides alone{rounds}; {checks}",
            "within noise")


def zeroed_unpaid(m) -> tuple[str, str] | None:
    """Row B12's zeroed connections (half the weights zeroed, "remove unimportant connections") where they
    gave no speed-up by the line row B12's check reads (``zeroed_no_faster``: the paired rounds within noise of
    the dense time, or slower beyond it), their ratio as B12 prints it (None where they were faster, where only
    two fastest times decide nothing, or where the cores were busy: no evidence). Zeroed weights in dense
    kernels cost as much, as the verdict says: naming them is the run's outcome, not a contradiction."""
    if "prune" not in m or too_busy(m, "prune", 1) or not zeroed_no_faster(m["prune"]):
        return None
    said = ("within noise of the dense layer: no speed-up" if zeroed_side(m["prune"]) == "within" else
            "slower than the dense layer, beyond the noise: no speed-up")  # faster, or undecided: None above
    found = zeroed_paired(m["prune"])
    if found is None:  # no rounds kept: the fastest-of ratio, within the noise floor (zeroed.side)
        figure = f"{zeroed_ratio(m['prune']):.2f}x the dense time (two fastest times, no paired rounds)"
    else:  # only the paired figure reads against noise (the fastest times' ratio is row B12's, in its cell: a
        # summary row's cell keeps its deciding clause whole, so it quotes the one figure its verdict reads)
        figure = f"{found[0]:.2f}x ± {found[1]:.2f} the dense time in paired rounds"
    return (f"B12's zeroed connections, {figure} ({said}, which its verdict allows; row B12's check: "
            f"{run_check('B12', m, {})})", said)


def zeroed_faster_part(m) -> Part | None:
    """Where the zeroed layer ran faster than the dense one beyond its paired rounds' spread: row B12's
    "cost as much" fails, but a cure that ran faster is not against this row's "speed up" (its check counts
    rows B11 and B12 so, ``checks.FOR_B18``)."""
    if "prune" not in m or too_busy(m, "prune", 1) or zeroed_side(m["prune"]) != "faster":
        return None
    return Part(f"B12's zeroed connections ran faster than the dense layer ({zeroed_ratio(m['prune']):.2f}x, "
                f"beyond its paired rounds' spread; row B12's check: {run_check('B12', m, {})}): faster than its "
                "verdict expects, which is not against this row's 'speed up'", ROWS)


def b18(m):
    # Each cure's row is checked against its own, conditional verdict; every cure that gave no speed-up in this
    # run is named with its own row's check, so the count is the list's length, never a fixed "one".
    rows = "rows " + ", ".join(SUMMED["B18"])
    unpaid, faster = unpaid_cures(m), [p for p in (zeroed_faster_part(m),) if p is not None]
    if not unpaid:
        return [Part(rows, ROWS)] + faster
    slower = [said.startswith(("slower", "not faster", "no faster")) for _, said in unpaid]
    outcome = "did not pay" if all(slower) else "showed no gain" if not any(slower) else \
        "did not pay or showed no gain"
    n = len(unpaid)
    return [Part(f"{rows}; in this run {COUNT_WORDS.get(n, str(n))} cure{'s' if n > 1 else ''} {outcome}: "
                 # numbered: an item's own clauses are joined by "; " too, so that a short cell keeps them
                 + "; ".join(f"({k}) {words}" for k, (words, _) in enumerate(unpaid, 1)), ROWS)] + faster
