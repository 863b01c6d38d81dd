"""Lesson 07, section 4: the split step's miss against the cost model, cut into the parts ``report._cause``
ranks. Where both ranks timed each call on one clock, a rank's time after both had arrived holds two kinds of
time: the exchange, which alpha + n/beta prices, and any time it stayed inside after the other rank had
returned (a late return), which no exchange explains. The two are parts of their own, as section 1 cuts them
(``timelines``), so which part of the miss is the largest never rests on counting a late return as exchange.
"""

from __future__ import annotations

from utils.claims import as_printed, half_up

COMPUTE_PART = "the compute beyond t1/2 and its 5 %"   # the compute's miss, less the lesson's 5 % allowance
AFTER_PART = ("the exchange after both arrived (less the late return) beyond alpha + n/beta and the fit's "
              "error")
WAIT_PART = "waiting for the other rank"   # observed on one clock: no allowance (``report._cause``)
LATE_PART = "the late return (inside after the other had returned)"


def miss_parts(m: dict, slow: dict) -> dict:
    """The slower rank's miss in parts (name -> seconds): the compute beyond t1/2 and its 5 %, the
    all-reduces beyond alpha + n/beta (where both ranks timed each call: the wait, the exchange after both
    arrived less the late return, and the late return). Each worked from its operands as printed, half up, as
    a reader does (2.00 - 0.44 - 0.92 x 1.33 = 0.34)."""
    def ms(key, of=slow):   # a figure as the table prints it, in ms
        return as_printed(of[key], 2, 1e-3)
    parts = {COMPUTE_PART: ms("compute") - 1.05 * ms("model_compute", m)}
    if not m.get("paired"):
        parts["the all-reduces"] = ms("allreduce") - ms("model_comm", m)
    else:
        late = ms("after_other")   # no more than the time after both arrived, as the table prints it
        parts[WAIT_PART] = ms("waited")
        parts[AFTER_PART] = ms("after_both") - late - ms("model_comm", m) * (1 + as_printed(m["residual"], 2))
        parts[LATE_PART] = late
    return {k: max(half_up(v, 2), 0.0) * 1e-3 for k, v in parts.items()}


def longer_step(raw: list[dict], shown: list[dict]) -> tuple[int, str]:
    """The rank the miss is read on, and how the page names it: the rank whose step, as printed (``shown``),
    took longer; where both print the same (a step ends when both ranks have finished, so they often do), the
    longer before rounding (``raw``), said as a tie so no reader looks for a difference the table lacks."""
    steps = [as_printed(r["step"], 2, 1e-3) for r in shown]
    if steps[0] != steps[1]:
        i = int(steps[1] > steps[0])
        return i, f"On rank {i}, the rank whose split step took longer (the longer-step rank below), the step took"
    i = int(raw[1]["step"] > raw[0]["step"])
    return i, (f"Both ranks' split steps took {steps[0]:.2f} ms as printed (a step ends when both have finished); "
               f"rank {i}'s, longer before rounding, is read (the longer-step rank below): it took")
