"""Latency against bandwidth (lesson 01, section 3): what moving a training batch over the two workers' link
costs, measured, and what the alpha-beta model of that link predicts.

Every transfer pays a fixed cost alpha before the first byte moves, then n / beta for its n bytes. The link is
the machine profile's (``utils.machine.measure_link``): gloo messages between two worker processes in cpu
mode, pinned host-to-GPU copies with one GPU, GPU 0 to GPU 1 with two; lesson 00 measures the same one.
Every size a batch sends is measured, so the table never rests on the fit alone: the fit predicts a time only
where it describes every measured size within ``PREDICTS``.
"""

from __future__ import annotations

from dataclasses import dataclass

from utils import claims
# α + n/β from the printed α and β: lesson 00's rule, the same for the profile's line and this section's fit
from utils.lessons.start_here.line_check import printed_time  # noqa: F401  (re-exported: link_report uses it)

EMPTY = 8  # bytes of the smallest message measured
SMALL = 4096  # a message this small is all latency: its bytes take under a microsecond on any link here
PREDICTS = 0.5  # a fit off by more than ±50 % at some measured size cannot predict a time
# ``latency``: named apart from the fitted α and the profile's α; the fastest of the small messages, not the
# smallest message's own time (a larger small message may be the fastest)
LATENCY_NAME = "the fastest small-message time"


@dataclass(frozen=True)
class BatchCost:
    what: str
    n_bytes: int  # in all
    transfers: int  # pieces it is sent in
    measured: float  # seconds: transfers x the measured time of one piece (one message of that size, timed)
    predicted: float  # seconds: transfers x (alpha + piece / beta), the piece's µs as printed
    latency_share: float  # transfers x ``latency(link)``, over ``measured``: what no bandwidth shortens; over 1
    # where the transfer ran faster than the latency counted (the fixed cost varies from moment to moment)


def batch_cases(batch: int, context: int, width: int) -> list[tuple[str, int, int]]:
    """(what, bytes in all, transfers): the token ids (int64) of a batch sent as one piece or one piece per
    sequence, and the activations (B, T, C) fp32 that a pipeline stage hands to the next (lesson 02)."""
    ids = batch * context * 8
    return [("token ids, one transfer", ids, 1),
            (f"token ids, {batch} x one message of {ids // batch:,} bytes (one per sequence)", ids, batch),
            ("activations (B, T, C) fp32", batch * context * width * 4, 1)]


def message_sizes(link_sizes, batch: int, context: int, width: int) -> list[int]:
    """The sizes to measure: the link's series, every piece a batch case sends, and an EMPTY message."""
    pieces = {n // k for _, n, k in batch_cases(batch, context, width)}
    return sorted(set(link_sizes) | pieces | {EMPTY})


def can_predict(link) -> bool:
    """Whether one alpha and one beta describe every measured size of ``link`` (a ``machine.LinkFit``)."""
    return link.accuracy <= PREDICTS


def latency(link) -> float:
    """The link's latency, measured directly (``LATENCY_NAME``): the fastest of its messages of at most SMALL
    bytes (the fastest, because a busy machine only ever delays a message). The fit's α is another figure for
    the same fixed cost, and the lesson names the two apart."""
    return min(s for n, s in zip(link.fit.sizes, link.seconds) if n <= SMALL)


def us(seconds: float) -> float:
    """A time in µs as section 3 prints it (one decimal): every figure worked from a time starts here."""
    return claims.as_printed(seconds, 1, 1e-6)


def printed_residual(fit, n: float, seconds: float) -> float:
    """(measured − predicted) / measured at ``n`` bytes, from the two µs as printed (``printed_time``)."""
    measured = us(seconds) or 0.1
    return (measured - us(printed_time(fit, n))) / measured


def batch_costs(link, batch: int, context: int, width: int) -> list[BatchCost]:
    """Each case of ``batch_cases`` on ``link`` (a ``machine.LinkFit`` measured at ``message_sizes``): the
    measured time, the fit's prediction (``printed_time``: k x one piece's, as printed), and the share of the
    time that is latency, worked from the µs as printed: k x 86.7 over k x 126.7 µs."""
    measured = dict(zip(link.fit.sizes, link.seconds))
    empty = us(latency(link))
    out = []
    for what, n_bytes, k in batch_cases(batch, context, width):
        piece = measured[n_bytes // k]
        # k x the piece's prediction as the table prints it (µs, one decimal): 16 x 91.6 µs = 1,465.6 µs
        predicted = k * us(printed_time(link.fit, n_bytes / k)) * 1e-6
        out.append(BatchCost(what, n_bytes, k, k * piece, predicted,
                             empty / (us(piece) or 0.1)))  # unclipped: over 1 where it ran faster than that
    return out
