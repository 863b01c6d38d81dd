"""Lesson 07, section 1: the line under the Gantt chart that says why the chart's window (both ranks' spans)
is longer than the pass it draws (rank 0's): rank 1's lead before it, its late return from the last
all-reduce after it, each from the figures as printed (ms, two decimals)."""

from utils import claims

ROUNDING_MS = 0.015   # the rounding a remainder worked from three figures printed to 0.01 ms can carry (0.005 ms
#                       each): a remainder no larger is too small to give a cause


def window_note(drawn: float, window: float, early: float, late: float = 0.0) -> str:
    """Where the chart's ``window`` (both ranks' spans, seconds) is longer than the pass drawn (rank 0's,
    ``drawn``) as printed (ms, two decimals, as the block under the chart prints the window): how much lies
    before rank 0's pass (``early``) and after it, so that the two lengths printed under one chart do not
    read as a contradiction; '' where they print equal. Where rank 0's last span ends the window, the whole
    printed difference is rank 1's lead (rank 0 ended last: nothing of rank 1's lies after the pass, and
    ``late``, then rank 0's own, is not rank 1's). Else, of the time after, only ``late`` (seconds rank 1
    stayed in the pass's last all-reduce after rank 0's had returned, ``timelines.late_return_at_end``) is
    called a late return; the rest is rank 1's last sub-layer ending later."""
    shown, wide = (claims.as_printed(t, 2, scale=1e-3) for t in (drawn, window))
    if wide <= shown:
        return ""
    lead = claims.as_printed(early, 2, scale=1e-3)
    if _rank_0_ends_window(drawn, window, early):
        lead = claims.half_up(wide - shown, 2)   # the printed difference: a lead under 0.005 ms prints 0.00
    before = min(lead, claims.half_up(wide - shown, 2))
    after = claims.half_up(wide - shown - before, 2)   # the printed window less the printed pass and its lead
    parts = [f"started {before:.2f} ms before rank 0"] if before > 0 else []
    if after > 0:
        late_ms = claims.as_printed(late, 2, scale=1e-3)
        parts.append(f"ended {after:.2f} ms after rank 0" + _after_words(after, late_ms))
    return (f" The chart's window is longer, {wide:.2f} ms from the first span to the last on either rank, "
            f"against rank 0's pass of {shown:.2f} ms: rank 1 " + " and ".join(parts)
            + "; the timed rounds, like the pass above, time rank 0's pass.")


def _rank_0_ends_window(drawn: float, window: float, early: float) -> bool:
    """Whether rank 0's last span ends the chart's window (seconds): the window less rank 1's lead and rank
    0's pass leaves nothing after rank 0's end. A nanosecond absorbs the float error of the subtractions, a
    thousand times below the 0.005 ms that would print."""
    return window - early - drawn <= 1e-9


def _after_words(after: float, late: float) -> str:
    """What the ``after`` ms by which rank 1 ended after rank 0 hold: its ``late`` ms in the last all-reduce
    after rank 0 had returned (a late return), and the rest, its last sub-layer ending later (both ms as
    printed: the rest is worked from them, so a rest within their rounding is given no cause)."""
    if late <= 0:
        return ": its last sub-layer ended later (it did not stay in the last all-reduce after rank 0 had returned)"
    said = (f", having stayed {late:.2f} ms in the pass's last all-reduce after rank 0 had returned "
            "(a late return)")
    rest = claims.half_up(after - late, 2)
    if 0 < abs(rest) <= ROUNDING_MS:
        return said + (f"; the {abs(rest):.2f} ms between the two is within the rounding of the printed figures "
                       "it is worked from, too small to give a cause")
    if rest > 0:
        return said + f", and its last sub-layer ended {rest:.2f} ms later"
    return said + (f", its last sub-layer {-rest:.2f} ms quicker than rank 0's" if rest < 0 else "")
