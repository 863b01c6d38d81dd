"""The worker's other threads (gloo's) as a candidate for one rank finishing its compute after the other:
read from both ranks' figures as the miss table prints them (ms, two decimals), so that the sentence never
names one rank's CPU time as a cause that the other rank's, printed beside it, contradicts. Lesson 07."""

from __future__ import annotations

from utils.claims import as_printed


def gap_candidate(ranks: list[dict], later: int, why: str) -> str:
    """Gloo's threads as the candidate for ``why`` (rank ``later`` computing longer, or being waited for),
    against the other rank's: a candidate only where the later rank's threads used more CPU, as printed;
    otherwise the two figures and that they do not explain the gap by themselves. '' where neither used
    any."""
    ms = [as_printed(max(r.get("other_threads_cpu") or 0.0, 0.0), 2, 1e-3) for r in ranks]
    first = 1 - later   # the rank that did not finish late
    if ms[later] <= 0 and ms[first] <= 0:
        return ""
    used = (f"the worker's other threads (gloo's) used {ms[first]:.2f} ms of CPU on rank {first} and "
            f"{ms[later]:.2f} ms on rank {later}, the rank waited for")
    if ms[later] > ms[first]:
        return (f"; one candidate for {why} this run does not rule out: {used}, beside the step's thread, so "
                "each process asked for more CPU than its one core (oversubscription)")
    return (f"; {used}: they do not explain {why} by themselves (oversubscription on both ranks is not "
            "ruled out)")
