"""Lesson 01 §5's fused pairs (naive against fused attention, GELU op by op against one kernel) as lesson 01
timed them, beside this page's own rounds of the same pairs (rows B4 and B14). Lesson 01 records them in the
ledger as ``fused_attention_speedup`` and ``fused_gelu_speedup`` (the speed-up, its rounds' median, with its
spread; the fastest times' ratio apart, as ``fastest``; both times as it prints them, every round's ratio, the
sizes and the device: ``why_slow.fused_ledger``); an older ledger has none, and the rows keep their words for
that. Introduced in lesson 09."""

from __future__ import annotations

from utils import bench, claims
from utils.lessons.articles_checked.evidence import ATTENTION_DIMS, GELU_SIZE
from utils.lessons.articles_checked.figures import fused_figure, paired, spread_of
from utils.lessons.why_slow.algorithms import Comparison  # lesson 01's own reading of a pair's rounds

RESULTS = {"attention": "fused_attention", "gelu": "fused_gelu"}  # m["results"] keys (figures.read_results)
SIZES = {"attention": list(ATTENTION_DIMS), "gelu": [GELU_SIZE]}  # this page's sizes, as lesson 01 records them
# One step's two runs (this page's and the lesson's) outside each other's spread: a gap between the runs, not a
# figure past its bound; one wording for every row that sets two runs side by side (B4, B14, A11, A19), which
# the checks' sentence lists apart from the figures past a bound (``report.gaps_between_runs``)
GAP_BETWEEN_RUNS = "a gap between runs to explain, which neither run measures the cause of"


def same_setup(what: str, record: dict) -> bool:
    """Whether lesson 01 timed the pair as this page does: on the CPU, at this page's sizes, on this machine (a
    ledger copied from another machine holds another CPU's times)."""
    return (record.get("device") == "cpu" and record.get("sizes") == SIZES[what]
            and record.get("hardware") == bench.hardware_label())


def shared_conditions(what: str) -> str:
    """What the two pages share and what they do not, read from their code (not measured)."""
    shared = (", and there the op-by-op GELU shares each round with torch.compile's version too" if what == "gelu"
              else "")
    return ("the same two functions, sizes, one thread and timer (algorithms.compare, one warm-up call a round), "
            "but timed in lesson 01's own process at another moment" + shared)


def lesson_01_figures(record: dict, names: tuple[str, str]) -> tuple[str, tuple[float, float]]:
    """"naive attention 10.4 ms, fused 2.20 ms (its fastest times); its 5 rounds' own ratios: median 4.60x ±
    0.04": lesson 01 §5's times and the (median, spread) the noise
    rule reads, worked from its rounds as this page works its own (``figures.paired``): a spread sits beside the
    median it was measured around, not beside the fastest times' ratio. A record without rounds (an older
    ledger): its ratio ± its spread, as kept."""
    slow, fast = (claims.sig_text(record[k], 3) for k in ("slow_ms", "fast_ms"))
    rounds = record.get("rounds") or []
    # lesson 01 records its rounds' median as ``value`` and the fastest times' ratio apart, as ``fastest`` (since
    # t28); an older record kept the fastest times' ratio as ``value``
    times = f"{names[0]} {slow} ms, {names[1]} {fast} ms"
    if rounds:  # one figure for the speed-up, the rounds' median: the fastest times' ratio is not printed beside it
        theirs = (paired(rounds)[0], record.get("spread", spread_of(record)))
        return (f"{times} (its fastest times); its {len(rounds)} rounds' own ratios: median {theirs[0]:.2f}x "
                f"± {theirs[1]:.2f}{known_only_words(record)}", theirs)
    theirs = (record["value"], record.get("spread", spread_of(record)))
    return (f"{times}: {slow} / {fast} = {fastest_ratio(record):.2f}x ± {theirs[1]:.2f} (the ledger keeps no rounds: "
            "its ratio and spread as recorded)", theirs)


def known_only_words(record: dict) -> str:
    """Lesson 01's range where its rounds disagree (its fastest times' ratio and the rounds' median too far
    apart, ``why_slow.algorithms.Comparison.disturbed``): " (lesson 01 §5: known only as 2.70x to 5.04x: its
    rounds disagree)", as lesson 01 prints the pair, so that no single figure stands in for its range; "" where
    its rounds agree."""
    pair = Comparison(record.get("what", ""), "", "", record["slow_ms"] * 1e-3, record["fast_ms"] * 1e-3, 0.0,
                      round_ratios=tuple(record["rounds"]))
    if not pair.disturbed:
        return ""
    low, high = pair.known_range
    return f" (lesson 01 §5: known only as {low:.2f}x to {high:.2f}x: its rounds disagree)"


def fastest_ratio(record: dict) -> float:
    """Lesson 01's fastest times' ratio of a pair: ``fastest`` where the record keeps it apart (its ``value``
    then the rounds' median), else ``value`` (an older record, which kept that ratio as its figure)."""
    return record.get("fastest", record["value"])


def time_moved(c, record: dict, names: tuple[str, str]) -> str:
    """Which of the two times moved between the runs, from the times as both pages print them: each one there
    and here, and how far apart (the larger over the smaller, worked from the printed ms); the one further apart
    named first as the one that moved more, a tie as printed said as one."""
    here = [claims.as_printed_sig(t, 3, 1e-3) for t in (c.slow_seconds, c.fast_seconds)]
    there = [record["slow_ms"], record["fast_ms"]]
    apart = [claims.half_up(max(a, b) / min(a, b), 2) for a, b in zip(there, here)]
    who = [f"the {role} one ({name})" for role, name in zip(("slow", "fast"), names)]
    times = [f"{claims.sig_text(a, 3)} ms there, {claims.sig_text(b, 3)} ms here ({x:.2f}x apart)"
             for a, b, x in zip(there, here, apart)]
    if apart[0] == apart[1]:
        return f"both times moved by as much: {who[0]} {times[0]}, {who[1]} {times[1]}"
    i, j = (0, 1) if apart[0] > apart[1] else (1, 0)
    return f"of the two times, {who[i]} moved more: {times[i]}; {who[j]} {times[j]}"


def lesson_01_beside(c, names: tuple[str, str], record: dict) -> str:
    """Rows B4 and B14 on the CPU, where the ledger keeps lesson 01 §5's run of the pair: its times and ratio
    ± spread beside this page's, whether the two agree by the course's noise rule (``claims.runs_agree``),
    and, where they do not, that the gap is one between runs, which neither measures the cause of, with the time that
    moved. Where lesson 01 timed the pair on another set-up (``same_setup``): said, and not set beside
    this one."""
    if not same_setup(c.what, record):
        return (f"this run's ratio, not lesson 01 §5's: the ledger's lesson 01 §5 figure of the pair "
                f"({record['value']:.2f}x, {record.get('what', 'no set-up recorded')}) was timed on another "
                "set-up than this row's (another device, size or machine), so the two are not set side by side")
    said, theirs = lesson_01_figures(record, names)
    mine = fused_figure(c)
    lead = f"lesson 01 §5's own run of the pair, recorded {record['date']} ({shared_conditions(c.what)}): " + said
    if claims.runs_agree(*mine, *theirs):
        return (f"{lead}: within noise of this page's median {mine[0]:.2f}x ± {mine[1]:.2f} (one median ± its "
                "spread covers the other's)")
    return (f"{lead}: outside this page's median {mine[0]:.2f}x ± {mine[1]:.2f} (neither median ± its spread covers the "
            f"other's): {GAP_BETWEEN_RUNS}; "
            f"{time_moved(c, record, names)}. The row's verdict reads this page's rounds")


def fused_rounds_line(algorithms: dict) -> str:
    """The "How this was measured" line of rows B4 and B14: each round's own ratio (slow over fast in that
    round), as printed, the rounds their medians and spreads are worked from."""
    listed = "; ".join(f"{name} " + ", ".join(f"{r:.2f}x" for r in algorithms[key].round_ratios)
                       for name, key in (("attention (row B4)", "attention"), ("GELU (row B14)", "gelu"))
                       if key in algorithms)
    return f"Fused against unfused, one thread, each round's slow time over its fast time: {listed}"
