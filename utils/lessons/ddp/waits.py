"""Where each exposed time of lesson 03's section 2 went, one table row per way: work outside the all-reduce
calls after the backward, each rank's wait inside the calls, how much later the other rank's last gradient
came, and how much of the exposed time was that wait (lesson 03, ``notebooks/03_ddp.ipynb``).

    row = waits.row("by hand", slow["by hand"], overlap.waiting(timelines["by hand"]), charted=True)
    show(Table(waits.COLUMNS, [row, ...]))   # under waits.KEY, which says what each column holds

``r`` is a row of section 2's table (``overlap.slowest``: seconds), ``wait`` what ``overlap.waiting`` measured
for the same way (seconds). Every figure is worked from the table's figures as printed (0.1 ms).
"""

from __future__ import annotations

from utils.claims import as_printed, percent, printed_ratio
from utils.lessons.ddp.overlap import MOSTLY, printed_difference, waiting_share

COLUMNS = ["way, rank shown", "outside the calls", "waits in calls: its / other's", "other rank's last gradient",
           "exposed: of it waiting", "so it was"]

# by hand, every call runs after the backward, so all its waiting is exposed; with DDP, the part after the
# backward is the other rank's lag to its last gradient (its last bucket cannot finish before that)
KEY = ("Where each exposed time went, one row per way of the table above (medians over the steps). Outside the "
       "calls: how much longer the exposed time is than the time inside the all-reduce calls, work after the "
       "backward that the step pays too (by hand: Python dividing each gradient; DDP: copying the buckets back); "
       "— where it is not longer. Waits in calls: summed over the row's calls, how long the rank shown, then the "
       "other rank, waited for the other to start the same all-reduce. Other rank's last gradient: how much "
       "later, or earlier, the other rank finished its backward; * marks a charted way, whose chart draws the "
       "step with that median lag. Of it waiting: by hand, the rank's wait in every call (all its calls come "
       "after the backward); with DDP, how much later the other rank's last gradient came (the last bucket "
       "cannot finish before it). Not waiting is the all-reduce's transfer and sums, which this run does not "
       f"time apart. So it was: mostly waiting above {MOSTLY:.0%} of the exposed time, about half from "
       f"{1 - MOSTLY:.0%} to {MOSTLY:.0%}, mostly not waiting below {1 - MOSTLY:.0%} (the share as printed).")


def _ms(seconds: float) -> str:
    return f"{as_printed(seconds, 1, 1e-3):.1f} ms"


def lag_words(lag: float) -> str:
    """The other rank's last gradient against the rank shown's, from ``lag`` (seconds, signed) as printed:
    "2.0 ms later" (the rank shown waited), "1.7 ms earlier" (the other rank waited) or "level"."""
    shown = as_printed(lag, 1, 1e-3)
    return f"{shown:.1f} ms later" if shown > 0 else f"{-shown:.1f} ms earlier" if shown < 0 else "level (0.0 ms)"


def exposed_wait(way: str, r: dict, wait: dict) -> float:
    """Seconds of ``r``'s exposed time that were waiting for the other rank: by hand, its wait in every call
    (capped at the exposed time); with DDP, the other rank's lag to its last gradient (``wait["exposed"]``)."""
    return min(wait["in_calls"], r["exposed"]) if way == "by hand" else wait["exposed"]


def row(way: str, r: dict, wait: dict, charted: bool = False) -> tuple[str, ...]:
    """One row of ``COLUMNS`` for ``way``: the figures as printed, the share worked from the two ms printed
    beside it, and its reading (``overlap.waiting_share``)."""
    gap = printed_difference(r["exposed"], r["communication"])  # ms, from the section table's two figures
    waited = exposed_wait(way, r, wait)
    share = printed_ratio(waited, r["exposed"], 1, 1e-3)
    reading = waiting_share(as_printed(waited, 1, 1e-3), as_printed(r["exposed"], 1, 1e-3))
    calls = f"{as_printed(wait['in_calls'], 1, 1e-3):.1f} / {_ms(wait['other_in_calls'])}"
    return (f"{way}, rank {wait['me']}", f"{gap:.1f} ms" if gap > 0 else "—", calls,
            lag_words(wait["lag"]) + (" *" if charted else ""),
            f"{_ms(r['exposed'])}: {_ms(waited)} ({percent(share)})", reading)
