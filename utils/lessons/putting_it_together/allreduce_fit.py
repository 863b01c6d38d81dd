"""Lesson 08's two-devices step beside lesson 07's fit of a whole all-reduce on this machine.

    fit = allreduce_fit.lesson_07()     # (alpha s, beta B/s, worst residual) from the course ledger, or None
    ladder.two_devices_gap(c, link_rate, parameters, simulated, fit)

Why: the guide prices DDP's all-reduce at lesson 00's one-way send/recv rate, an estimate with no fixed cost,
not a floor: a whole all-reduce's fitted rate can sit above or below a one-way copy's (lesson 07 prints the
ratio). Lesson 07 fits whole all-reduces on the same link; where it has, the gap is set against that price
too, and the two prices are set beside each other, so the page does not leave two figures unreconciled.
"""

from __future__ import annotations

from utils import bench, claims, ledger
from utils.lessons.putting_it_together.link_cost import _figure

RECORD = "allreduce_fit_beta"   # written by lesson 07 (tensor_parallel.link_words.record)


def lesson_07(record: dict | None = None) -> tuple[float, float, float] | None:
    """(alpha seconds, beta bytes/s, worst residual) of lesson 07's all-reduce fit in this mode's ledger, if
    it was measured on this hardware; else None. ``record`` stands in for the ledger's in tests."""
    record = record if record is not None else ledger.figure(RECORD)
    if not record or record.get("hardware") != bench.hardware_label() or "alpha_s" not in record:
        return None
    return record["alpha_s"], record["value"] * 1e9, record.get("worst_residual", 0.0)


def against_gap(fit: tuple[float, float, float], grad_bytes: float, gap_ms: float, other: str,
                estimate: tuple[float, float] | None = None) -> str:
    """One all-reduce of the gradients (``grad_bytes``) at lesson 07's fit, alpha + n/beta, set against the gap
    (ms as printed, one decimal, as ``ladder.two_devices_gap`` prints it): what share of it the call could be.
    DDP makes one call a bucket, each with its alpha, so one call is the least the fit prices. ``estimate``:
    (ms, one-way B/s) the guide's price and lesson 00's rate, as printed; where given, the call is set beside
    it (``beside_estimate``). Each term is worked from the figures the sentence prints (alpha in whole us, the
    GB to 4 decimals, beta in GB/s to 2), so "0.0129 GB / 2.49 GB/s = 5.18 ms" checks by hand; the gap less the call keeps the gap's one decimal (32.1
    - 4.74 prints 27.4, not 27.36: no more digits than the coarser figure has)."""
    alpha, beta, residual = fit
    alpha_ms = claims.half_up(claims.as_printed(alpha, 0, 1e-6) / 1e3, 2)
    bytes_ms = claims.half_up(claims.as_printed(grad_bytes, 4, 1e9) / claims.as_printed(beta, 2, 1e9) * 1e3, 2)
    call = claims.half_up(alpha_ms + bytes_ms, 2)
    said = (f"Lesson 07's fit of a whole all-reduce on this machine (alpha {alpha * 1e6:.0f} us, beta "
            f"{beta / 1e9:.2f} GB/s, worst residual {residual:.0%}: it also sums and waits for the other rank) "
            f"prices one call of the {grad_bytes / 1e9:.4f} GB of gradients at {alpha_ms:.2f} + {bytes_ms:.2f} = "
            f"{call:.2f} ms (DDP makes one call a bucket, each with its alpha)")
    beside = " " + beside_estimate(beta, call, *estimate) if estimate else ""
    if call >= gap_ms:
        return said + ": at that price the all-reduce alone could explain all of the gap, if none of it hid " \
                      "behind backward." + beside
    share = claims.half_up(100 * call / gap_ms, 0)
    return said + (f": {share:.0f}% of the gap, if none of it hid behind backward; the other "
                   f"{claims.half_up(gap_ms - call, 1):.1f} ms are {other}, more calls than one or the fit's "
                   "error, none measured apart here.") + beside


def beside_estimate(beta: float, call_ms: float, estimate_ms: float, one_way: float) -> str:
    """The fit's call (ms as printed) beside the guide's one-way estimate (``estimate_ms``, as printed) and the
    two rates (B/s; the fit's beta printed to 2 decimals, the one-way rate to 3 figures, as the guide prints
    it), their ratio worked from them as printed: why one price comes out below, above or equal to the other,
    so two prices of one all-reduce are never left unreconciled (t30_0708 #1)."""
    # the one-way rate exactly as the guide's table prints it (``:.3g``), so the ratio is the reader's division
    mine, theirs = claims.as_printed(beta, 2, 1e9), float(f"{one_way / 1e9:.3g}")
    rate = (f"Beside the guide's {_figure(estimate_ms)} ms: the fit's beta is {claims.percent(mine / theirs)} of "
            f"lesson 00's one-way {theirs:.3g} GB/s, and its alpha, a fixed cost a call, is one the guide leaves "
            "out")
    if call_ms < estimate_ms:
        return rate + f", so its {call_ms:.2f} ms come out below that estimate: its rate outweighs its alpha."
    if call_ms > estimate_ms:
        why = "its alpha outweighs its higher rate" if mine > theirs else "its rate is no higher"
        return rate + f", so its {call_ms:.2f} ms come out above that estimate: {why}."
    return rate + f"; its {call_ms:.2f} ms come out at that estimate, as printed."
