"""Lab 08's kept sentence on the thread count (cell 33's short take-aways): what the slow script's forward and
backward did, timed without the profiler, at the launcher's count against its own, and the branch
``threads_cost.threads_sentence`` reaches, in words a newcomer parses. Split from ``threads_cost`` to keep it
under the course's 600 lines.

    threads_verdict(outcome["threads"], fb_ms, miss_ms, reading)   # "Timed without the profiler, ..."
"""

from __future__ import annotations

import statistics

from utils import claims
from utils.labs.make_it_fast.threads_cost import PART, _bases, _share_of_miss, gathered, kept_ms
from utils.labs.make_it_fast.threads_spread import _not_outlying, reach_below_one
from utils.labs.make_it_fast.threads_agree import disagree_short, timings_disagree
from utils.labs.make_it_fast.threads_groups import groups_verdict

# the branches of ``_share_of_miss``, as its words end (most specific first), and each in the kept sentence's
# words: "that" is the speed-up just stated, ``{miss}`` the ms the learner's step ran under the prediction
_VERDICTS = {
    "more than the whole miss, a finding to explain": "that saves more than all of {miss}: a finding to explain",
    PART: "that explains part of {miss}, not all of it",
    "the threads explain the whole miss, within noise": "that explains all of {miss}, within noise",
    "how much of that part the threads explain is not told apart here":
        "the other regions the prediction keeps could hold all of {miss}, so how much of it that explains is not "
        "told apart here",
    "whether the threads explain all of it is not told apart here":
        "whether that explains all of {miss} is not told apart here",
}


def _miss_words(miss_ms: float) -> str:
    """"the 419 ms your step ran under the prediction": the miss named where it is used (thirty-fifth reading:
    "it" pointed to a miss the bullet never mentioned)."""
    return f"the {miss_ms:.0f} ms your step ran under the prediction"


def _ran(timed: dict, how: tuple[str, str]) -> str:
    """"Timed without the profiler, the slow script's forward and backward ran 3.34x as fast with 1 thread a
    worker as with its own 2": the comparison named in full (thirty-fifth reading: "the launcher's count ran
    3.34x as fast" named no comparison, and a count does not run). ``how``: the speed-up and a note after the
    comparison ("" or " (rounds 2.13x to 22.07x)"), as ``_speed`` gives them."""
    launcher = timed["launcher"]
    return (f"Timed without the profiler, the slow script's forward and backward ran {how[0]} as fast with "
            f"{launcher} thread{'s' if launcher > 1 else ''} a worker as with its own {timed['slow']}{how[1]}")


def _speed(ratios: list) -> tuple[str, str]:
    """The speed-up as the kept sentence gives it: the median ± the spread, or, where that ± leaves out half the
    rounds or more or one it is worked from (``_not_outlying``), the median with the rounds' whole range, which it then does not give
    (thirty-fifth reading: "3.34x ± 0.70" beside rounds of 2.13x to 22.07x read as their spread)."""
    value, spread = claims.as_printed(statistics.median(ratios), 2), claims.printed_spread(ratios)
    reach = reach_below_one(value, spread)  # the rounds carry the verdict: the reason said where it is given
    if not _not_outlying(ratios):
        return f"{value:.2f}x ± {spread:.2f}", f" (every round above 1.00x{reach})" if reach else ""
    shown = [claims.as_printed(r, 2) for r in ratios]
    rounds = f"rounds {min(shown):.2f}x to {max(shown):.2f}x"
    if reach:  # the ± is not shown here: name it with its figure
        reach = reach.replace("the ±", f"the median's ± {spread:.2f}")
        return f"a median {value:.2f}x", f" ({rounds}, every one above 1.00x{reach})"
    return f"a median {value:.2f}x", f" ({rounds})"


def _no_faster(timed: dict, verdict: str, how: tuple[str, str], miss_ms: float | None) -> str:
    """The kept sentence where the launcher's count did not run faster (``verdict``: claims'
    ``speedup_verdict``): within noise of the same speed, slower, or the same speed as printed."""
    why = ("within noise of the same speed" if verdict.startswith("within noise")
           else "its own count ran faster" if verdict.startswith("slower") else "no faster")
    none = (f"the threads explain none of {_miss_words(miss_ms)}" if miss_ms and miss_ms > 0
            else "the thread count saved nothing measured here")
    return f"{_ran(timed, how)}: {why}, so {none}"


def threads_verdict(timed: dict | None, fb_ms: float, miss_ms: float | None, reading: dict | None = None) -> str:
    """The threads take-away's kept sentence, without its full stop (twenty-sixth reading: the point came last,
    after four sub-bullets; thirty-second reading: the worked block no longer repeats it): the branch
    ``threads_sentence`` reaches, worked the same way from the same figures. ``timed``: ``time_thread_counts``'
    outcome (None where not timed); ``fb_ms``: the profile's forward and backward; ``miss_ms``: the prediction
    over the learner's step, as printed (None or <= 0 where it did not miss); ``reading``: the profile's."""
    if not timed:
        return "This run did not time the two thread counts without the profiler"
    if not timed["ratios"]:
        return "The launcher gives the slow script's own thread count, so there was nothing to time"
    if not gathered(timed["ratios"]):
        said = groups_verdict(timed)
        return f"Timed without the profiler, {said}"
    ratios = timed["ratios"]
    value, spread = claims.as_printed(statistics.median(ratios), 2), claims.printed_spread(ratios)
    said = claims.speedup_verdict(value, None, spread, rounds=ratios)
    if not said.startswith("faster"):
        return _no_faster(timed, said, (f"{value:.2f}x ± {spread:.2f}", ""), miss_ms)
    if timings_disagree(timed, fb_ms):  # no saving read from timings that disagree (thirty-sixth reading)
        what = f"of {_miss_words(miss_ms)}" if miss_ms and miss_ms > 0 else "a step"
        return disagree_short(timed, fb_ms, what)
    if not miss_ms or miss_ms <= 0:
        return f"{_ran(timed, _speed(ratios))}, but your step did not show that saving: a finding to explain"
    said = _share_of_miss(_bases(timed, fb_ms), value, spread, ratios, miss_ms,
                          kept_ms(reading) if reading else (0.0, ""))
    verdict = next(v for k, v in _VERDICTS.items() if k in said)
    return f"{_ran(timed, _speed(ratios))}: {verdict.format(miss=_miss_words(miss_ms))}"
