"""Lab 08: whether the slow script's forward and backward timed alone agrees with the profile's. The profiler
only adds work, so a step timed alone at the slow script's thread count should take no longer than the same
step under the profiler. Where it takes longer beyond the rounds' noise, something outside the step differed
between the two timings (thirty-sixth reading: 3676.8 ms alone against 515.5 ms profiled, a test run sharing
the cores), which the run does not measure, so no saving is read from the two (t38: nor a speed-up stated
first, nor a cause named). Split from ``threads_cost`` to keep it under 600 lines.

    timings_disagree(outcome["threads"], fb_ms)     # True: read no saving from them
    profiler_slowed(outcome["threads"], fb_ms)      # True: the page may say the profiler slowed the step
"""

from __future__ import annotations

import statistics

from utils import claims
from utils.labs.make_it_fast import script


def _slow_rounds(timed: dict | None) -> tuple[float, float] | None:
    """The slow count's median ms a micro-batch and the rounds' ± (claims' ``printed_spread``), both as printed
    (0.1 ms); None where this run kept no rounds' ms."""
    if not timed or not timed.get("slow_ms"):
        return None
    return (claims.as_printed(statistics.median(timed["slow_ms"]), 1),
            claims.printed_spread(timed["slow_ms"], 1))


def _profiled_micro_batch(fb_ms: float) -> float:
    """The profile's forward and backward a micro-batch, as printed (515.5 / 4 = 128.9)."""
    return claims.half_up(claims.as_printed(fb_ms, 1) / script.ACCUMULATE, 1)


def timings_disagree(timed: dict | None, fb_ms: float) -> bool:
    """Whether a micro-batch timed alone took longer than one under the profiler beyond the rounds' noise:
    the profiled micro-batch below the rounds' median - their ± (919.2 - 40.0 = 879.2 against 128.9). The
    profiler only adds work, so the two timings cannot both describe the same conditions."""
    rounds = _slow_rounds(timed)
    if rounds is None:
        return False
    return _profiled_micro_batch(fb_ms) < _edge(*rounds)


def _edge(median: float, spread: float) -> float:
    """The least a micro-batch alone may take within noise of the rounds: their median less their ±, or less
    a tenth of it where the ± is narrower (the course's ``within``: two separate timings of the same work
    differ by more than one run's rounds do), as printed (919.2 - 91.9 = 827.3)."""
    return claims.half_up(median - max(spread, claims.half_up(median / 10, 1)), 1)


def profiler_slowed(timed: dict | None, fb_ms: float) -> bool:
    """Whether this run saw the profiler slow the slow script: forward and backward took longer a micro-batch
    under it than the rounds' median timed alone, as printed. False where nothing was timed alone: the page
    then does not say it (a sentence about a measured outcome follows from the run)."""
    rounds = _slow_rounds(timed)
    return rounds is not None and _profiled_micro_batch(fb_ms) > rounds[0]


def disagree_text(timed: dict, fb_ms: float, miss_ms: float | None) -> str:
    """The worked block's words where the two timings disagree (``timings_disagree``): both figures, the
    rounds' edge the profiled one falls below, and that no saving is read from them."""
    median, spread = _slow_rounds(timed)
    edge, noise = _edge(median, spread), claims.as_printed(median - _edge(median, spread), 1)
    profiled = claims.as_printed(fb_ms, 1)
    what = (f"how much of the prediction's {miss_ms:.0f} ms miss the threads explain" if miss_ms and miss_ms > 0
            else "what the thread count saves a step")
    return (f". At {timed['slow']} threads a micro-batch took a median {median:.1f} ms timed alone (± "
            f"{spread:.1f}); under the profiler, forward and backward took {profiled:.1f} ms a step, "
            f"{profiled:.1f} / {script.ACCUMULATE} = {_profiled_micro_batch(fb_ms):.1f} ms a micro-batch, below "
            f"the rounds' median less their noise ({median:.1f} - {noise:.1f} = {edge:.1f} ms, the larger of their "
            f"± and a tenth). The profiler only adds "
            "work, so the two timings disagree: something outside the step differed between them (the machine's "
            "load, the workers' set-up), which this run does not measure. So no saving is read from them: "
            f"{what} is not measured here")


def disagree_short(timed: dict, fb_ms: float, what: str) -> str:
    """The kept sentence where the two timings disagree: the disagreement first and no speed-up, since the run
    throws its own timing out (t38: "ran a median 17.83x as fast" opened a sentence that then discarded it),
    and no cause the run did not measure. ``what``: what the saving would be of ("a step", or the miss)."""
    median, _ = _slow_rounds(timed)
    slow = timed["slow"]
    return (f"Timed without the profiler, the slow script's forward and backward took a median {median:.1f} ms a "
            f"micro-batch at its own {slow} thread{'s' if slow > 1 else ''}, against {_profiled_micro_batch(fb_ms):.1f}"
            " ms under the profiler; the profiler only adds work, so the two timings disagree, for a reason this "
            f"run does not measure. So neither the speed-up with fewer threads nor what it saves {what} is measured")


def profiler_words(timed: dict | None, fb_ms: float) -> str:
    """After "timed under the profiler": ", which slowed it here" where this run saw it do so
    (``profiler_slowed``), else nothing (thirty-sixth reading: "which slows it" beside a timing alone 7.1x the
    profiled one)."""
    return ", which slowed it here" if profiler_slowed(timed, fb_ms) else ""
