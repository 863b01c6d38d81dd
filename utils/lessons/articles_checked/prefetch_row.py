"""Row B9 (prefetching), from lesson 05's figures: this run's ledger entry first (the epoch lesson 05 printed on
this machine), then ``make bench``'s run of every configuration, labelled apart as the benchmark's (it may come
from another machine). Split from ``verdicts``. Introduced in lesson 09."""

from __future__ import annotations

from utils.lessons.articles_checked.figures import quote
from utils.lessons.articles_checked.sources import BENCH, Part
from utils.lessons.articles_checked.wording import load_and_compute

SIMULATED = "simulated on CPU (reads that wait like storage, a CPU step held to a GPU's pace)"  # what stood in


def configs_words(r: dict) -> str:
    """make bench's configurations of lesson 05 as the row prints them, every bound worked from the load and
    compute as printed (``load_and_compute``)."""
    configs = r["configs"]
    none, thread = configs["no workers"], configs["Prefetcher thread"]
    load, compute = load_and_compute(none["bound"], thread["bound"], r["bound"])
    return (f"an epoch: load {load:.2f} s, compute {compute:.2f} s (as printed; each bound from these two); "
            f"no prefetch {none['seconds']:.2f} s (load + compute {load + compute:.2f} s); one Prefetcher "
            f"thread {thread['seconds']:.2f} s (max(load, compute) {max(load, compute):.2f} s); 2 loader "
            f"workers and the Prefetcher {r['value']:.2f} s (max(load / 2, compute) "
            f"{max(load / 2, compute):.2f} s)")


def best_words(r: dict) -> str:
    """Lesson 05's best epoch as its ledger entry keeps it (no configurations): what it ran, its time and bound."""
    what = r.get("what", "").split(":")[0]
    return (f"lesson 05's best{f' ({what})' if what else ''}: {r['value']:.2f} s an epoch against its bound "
            f"{r['bound']:.2f} s")


def _simulated(m, part: Part) -> Part:
    if m["plan"].simulated and "simulated on CPU" in part.detail:  # say what stood in for what
        return Part(part.text, part.kind, part.detail.replace("simulated on CPU", SIMULATED))
    return part


def b9(m):
    """This run's lesson 05 epoch (the ledger) where recorded, else make bench's; make bench's configurations
    beside it, in their own part, where the ledger's entry keeps none."""
    first = _simulated(m, quote(m, "prefetch", lambda r: configs_words(r) if r.get("configs") else best_words(r)))
    found, bench = m["results"].get("prefetch"), m["results"].get("prefetch_configs")
    if found is None or found.kind == BENCH or found.record.get("configs") or bench is None:
        return [first]
    return [first, _simulated(m, bench.part(f"make bench's run of lesson 05's configurations, timed apart from "
                                            f"this run: {configs_words(bench.record)}"))]
