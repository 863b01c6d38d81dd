"""Lab 08, exercise B's first part: the learner predicts, from the slow script's profile, the step a script
takes that keeps forward and backward and the optimizer as profiled and spends in its training process
only the rest of the work a step needs; the take-aways set the prediction beside what the learner's script
measured.

    show_prediction(predicted_step_ms, DIAGNOSIS)    # prints the learner's prediction, never judges it
    check_prediction(predicted_step_ms, DIAGNOSIS)   # on the check's reading, and on readings never seen
    prediction_sentence(predicted_step_ms, DIAGNOSIS, ms, source)   # the take-away: predicted against measured
"""

from __future__ import annotations

import math
from collections.abc import Callable

from utils import checks, claims
from utils.checks import expect, run_check
from utils.labs.make_it_fast import script
from utils.labs.make_it_fast.checks import ALL_REDUCES, BANK, Diagnosis
from utils.labs.make_it_fast.threads_agree import timings_disagree
from utils.labs.make_it_fast.threads_cost import gathered, profiler_gap_ms

NAME = "your prediction from the profile"
PART = "B-prediction"  # its own hints (hints.toml): B's first asks how fast the compute could run
# Readings the learner's function never sees: the check's reading with some regions' times scaled (the step
# grows or shrinks by as much), so that a prediction must come from the reading it is given.
HIDDEN_SCALES = ({"load": 3.0, "evaluate": 0.5}, {"load": 0.2, "checkpoint": 4.0, "optimizer": 2.0})
# And one whose step alone grows, no region changed: a step also runs work no region names (zero_grad, each
# micro-batch's .item(), which on a GPU waits for the device), and that work still runs in the fast script.
# Summing the kept regions drops it and misses this reading by a tenth of its step (thirty-third reading).
HIDDEN_REST_SCALE = 1.1
TOLERANCE = 0.01  # of the step: a prediction rounded to whole milliseconds passes


def needed_step_ms(reading: dict) -> float:
    """The step with forward and backward and the optimizer as profiled, and in the training process only the
    other work a step needs: no read (loader processes read ahead, lab 05's rule), the held-out loss and the
    checkpoint only as often as the specification asks (every ``EVAL_EVERY``-th, every ``CHECKPOINT_EVERY``-th
    step)."""
    return (reading["step"] - reading["load"] - reading["evaluate"] * (1 - 1 / script.EVAL_EVERY)
            - reading["checkpoint"] * (1 - 1 / script.CHECKPOINT_EVERY))


def hidden_readings(reading: dict) -> list[dict]:
    """The check's reading with some regions scaled, the step changed by as much (``HIDDEN_SCALES``); then the
    check's reading with its step alone scaled by ``HIDDEN_REST_SCALE``, the work no region names grown."""
    cases = []
    for scales in HIDDEN_SCALES:
        case = dict(reading)
        for region, factor in scales.items():
            case[region] = reading[region] * factor
            case["step"] += case[region] - reading[region]
        cases.append(case)
    cases.append(dict(reading, step=reading["step"] * HIDDEN_REST_SCALE))
    return cases


def _predicted(predict: Callable, reading: dict) -> float:
    """The learner's prediction for ``reading`` (a copy: the function may not change the check's)."""
    value = predict(dict(reading))
    expect(isinstance(value, (int, float)) and math.isfinite(value),
           f"predicted_step_ms returned {type(value).__name__} {value!r}: it returns a number, ms a step")
    return float(value)


def printed_reading(reading: dict) -> dict:
    """``reading`` as cell 11's table prints it: the step to whole ms, each region to 0.1 ms, the all-reduce
    count unchanged. The prediction the page prints comes from these figures, so that a reader who works it
    from the table (770 - 86.1 - 5/6 x (220.0 + 27.4) = 477.7) finds the printed 478, not 477 from 769.6 ms."""
    return {key: value if key == ALL_REDUCES else claims.as_printed(value, 0 if key == "step" else 1)
            for key, value in reading.items()}


def _printed_prediction(predict: Callable, diagnosis: Diagnosis) -> float:
    """The learner's prediction for the check's reading as the table prints it (``printed_reading``)."""
    return _predicted(predict, printed_reading(diagnosis.reference))


def check_prediction(predict: Callable, diagnosis: Diagnosis, show: bool = True) -> checks.Verdict:
    """The learner's prediction on the check's reading of the profile and on ``HIDDEN_SCALES``' readings,
    against ``needed_step_ms``; a failure says on which reading, never the expected value."""

    def body():
        readings = [("the slow script's reading", diagnosis.reference)]
        hidden = hidden_readings(diagnosis.reference)
        readings += [(f"a reading you never saw ({i})", r) for i, r in enumerate(hidden, 1)]
        # the last one differs only in its step: say so, or a sum of the kept rows is sent to re-read the rows
        where, rest = readings[-1]
        readings[-1] = (f"{where}, its regions as the slow script's, its step longer", rest)
        for where, reading in readings:
            value, step = _predicted(predict, reading), reading["step"]
            expect(abs(value - needed_step_ms(reading)) <= TOLERANCE * step,
                   f"for {where} (a step of {step:.0f} ms), your prediction is {value:.0f} ms, more than "
                   f"{TOLERANCE:.0%} of the step from the work that step needs: which regions would still "
                   "run in the training process, and how often would each run?")
        mine = _printed_prediction(predict, diagnosis)  # judged above on the unrounded reading
        slow = diagnosis.reference["step"]
        # "passed" judges the prediction's rule, not a forecast of the fixed step (t42 reading: 1662 ms read as
        # a good guess beside a fixed step of 188 ms)
        return (f"{mine:.0f} ms a step predicted from the slow script's {slow:.0f} ms (the regions your fixes "
                f"keep, at their profiled cost: not your fixed step's time), and right on {len(hidden)} readings "
                "you never saw")

    return run_check(NAME, body, show=show, hint=checks.stub_message(BANK, PART))


def show_prediction(predict: Callable, diagnosis: Diagnosis) -> None:
    """Print the learner's prediction beside the slow step it comes from; the check judges it later."""
    try:
        value = _printed_prediction(predict, diagnosis)
    except NotImplementedError:
        print("⏳ your prediction is not done yet: it appears here once predicted_step_ms returns a number")
        return
    except Exception as exc:  # noqa: BLE001 - the learner's error: the check says what is wrong
        print(f"your prediction raised {type(exc).__name__}: its check says what is wrong")
        return
    slow = diagnosis.reference["step"]
    print(f"your prediction: {value:.0f} ms a step, against the slow script's {slow:.0f} ms (timed under the "
          "profiler)\nthe take-aways set it beside your script's step, measured")


def _printed_pair(predict: Callable, diagnosis: Diagnosis, measured: float) -> tuple[float, float]:
    """The prediction and the measured step (ms) as the take-away prints them, whole ms: judged and subtracted
    as printed, 983 - 215 is 768 on the page, whatever 982.9 - 215.4 gives."""
    return claims.as_printed(_printed_prediction(predict, diagnosis), 0), claims.as_printed(measured, 0)


def prediction_miss(predict: Callable, diagnosis: Diagnosis, measured: float,
                    within: float = 0.1) -> float | None:
    """The ms by which the step measured fell under the prediction, as ``prediction_sentence`` prints it where
    it says so (more than ``within`` under); None on its other branches (no miss under to account for)."""
    predicted, measured = _printed_pair(predict, diagnosis, measured)
    return predicted - measured if measured < (1 - within) * predicted else None


def _threads_timed(diagnosis: Diagnosis) -> bool:
    """Whether this run timed the slow script's thread counts against each other (``threads_cost``) in rounds
    that gather around one figure: then the take-away's next sentence measures part of the miss apart. Rounds
    in two groups measure no part of it (``threads_cost.gathered``)."""
    ratios = diagnosis.threads.get("ratios") if diagnosis.threads else None
    return bool(ratios) and gathered(ratios)


def kept_words(eval_every: int = script.EVAL_EVERY, checkpoint_every: int = script.CHECKPOINT_EVERY) -> str:
    """What a prediction from the profile keeps of it, as ``needed_step_ms`` works it: all of it but the
    reading, and the held-out loss and the checkpoint only as often as the specification asks (twenty-third
    reading: the take-away named forward and backward and the optimizer only)."""
    if eval_every == checkpoint_every:
        rarer = f"'evaluate' and 'checkpoint' at 1/{eval_every} of their profiled cost"
    else:
        rarer = f"'evaluate' at 1/{eval_every} and 'checkpoint' at 1/{checkpoint_every} of their profiled cost"
    return f"forward and backward and the optimizer as profiled, {rarer}, and no 'load'"


def prediction_sentence(predict: Callable, diagnosis: Diagnosis, measured: float, source: str,
                        within: float = 0.1) -> str:
    """The learner's prediction against the step their script measured (``measured`` ms a step; ``source``:
    where that figure comes from, in words, e.g. the speed check's median): under it by more than ``within``,
    within it, or over it; each branch says what follows."""
    predicted, measured = _printed_pair(predict, diagnosis, measured)
    slow = diagnosis.reference["step"]
    said = (f"Your prediction from the profile: {predicted:.0f} ms a step, with {kept_words()} (the slow "
            f"script's step: {slow:.0f} ms, under the profiler{diagnosis.profiler_words}); your script measured "
            f"{measured:.0f} ms a step ({source})")
    if measured < (1 - within) * predicted:
        apart = ("the threads' part timed below; the rest not measured apart" if _threads_timed(diagnosis)
                 else "not measured apart")
        if timings_disagree(diagnosis.threads, diagnosis.reference.get("forward and backward", 0.0)):
            apart = "not measured apart: the threads' timing below disagrees with the profile"
        return (said + f": {predicted - measured:.0f} ms under the prediction, saved inside the regions it "
                f"kept as profiled, and in the profiler's own overhead on the slow script's step ({apart}). A "
                "region's time alone does not say how fast it could run: the rate under the table, against what "
                "a core can do, does.")
    if measured <= (1 + within) * predicted:
        return (said + f": within {within:.0%} of it, so the work the prediction leaves out is what your "
                "script saved.")
    return (said + f": more than {within:.0%} over it, so your script waits for something the slow script's "
            "profile did not show: profile your own script's steps.")


def _overhead_words(diagnosis: Diagnosis) -> str:
    """What the short take-away adds after "the profiler's own overhead": the ms a step it cost, where thread
    rounds that gather around one figure measured it (``profiler_gap_ms``); "not measured apart" where rounds
    were timed but give no figure (thirty-second reading: rounds in two groups printed 562 ms beside a block
    that says they cannot); nothing where no rounds were timed."""
    gap = None
    if _threads_timed(diagnosis):
        gap = profiler_gap_ms(diagnosis.threads, diagnosis.reference["forward and backward"])
    if gap:
        return f": under the profiler, forward and backward took {gap:.0f} ms a step more than timed alone"
    if diagnosis.threads and diagnosis.threads.get("ratios"):
        return ", not measured apart"
    return ""


def prediction_short(predict: Callable, diagnosis: Diagnosis, measured: float, within: float = 0.1) -> str:
    """``prediction_sentence``'s outcome in one sentence, for the take-aways a learner keeps (twenty-seventh
    reading: the take-aways ran to thirty lines); the working stays in ``prediction_sentence``, collapsed."""
    predicted, measured = _printed_pair(predict, diagnosis, measured)
    said = f"Your prediction from the profile, {predicted:.0f} ms a step, against your script's {measured:.0f} ms"
    if measured < (1 - within) * predicted:
        # twenty-eighth reading: a miss many times the step, left unexplained, names its largest candidate
        return said + (f": {predicted - measured:.0f} ms under it, saved inside the regions it kept as profiled "
                       f"(and the profiler's own overhead{_overhead_words(diagnosis)}).")
    if measured <= (1 + within) * predicted:
        return said + f": within {within:.0%}, so what your script saved is the work the prediction leaves out."
    return said + f": more than {within:.0%} over it, so your script waits for something the profile did not show."
