"""Latency against bandwidth (lesson 01, section 3): lesson 00's copies, fitted with the alpha-beta model.

Every transfer pays a fixed cost alpha before the first byte moves, then n / beta for its n bytes. A batch of
token ids is a few KiB, far below n_1/2 = alpha x beta: its transfer is almost all latency, and sending it
as one piece (not one tensor per sequence) is what keeps the cost down.
"""

from __future__ import annotations

from dataclasses import dataclass

from utils.lessons.start_here import bandwidth
from utils.linkmodel import AlphaBeta, fit_alpha_beta


@dataclass(frozen=True)
class BatchCost:
    what: str
    n_bytes: int
    seconds: float  # alpha + n / beta
    latency_share: float  # alpha / t: the part of the time no bandwidth can shorten


def measure_and_fit(sizes: list[int], repeats: int = 5) -> tuple[str, list, AlphaBeta]:
    """Lesson 00's copies of the mode's link (host memcpy on CPU, pinned host-to-GPU on a GPU), fitted."""
    points = bandwidth.measure_copies(list(sizes), repeats=repeats)
    path = "host to GPU 0, pinned" if any(p.path.endswith("pinned") for p in points) else points[0].path
    mine = sorted((p for p in points if p.path == path), key=lambda p: p.size)
    return path, mine, fit_alpha_beta([p.size for p in mine], [p.seconds for p in mine])


def batch_costs(model: AlphaBeta, batch: int, context: int, width: int) -> list[BatchCost]:
    """What moving a training batch costs under ``model``: the token ids (int64), one sequence at a time or
    all at once, and the activations (B, T, C) fp32 that a pipeline stage hands to the next (lesson 02)."""
    ids = batch * context * 8
    cases = [("token ids, one transfer", ids, model.time(ids)),
             (f"token ids, {batch} transfers (one per sequence)", ids, batch * model.time(ids / batch)),
             ("activations (B, T, C) fp32", batch * context * width * 4,
              model.time(batch * context * width * 4))]
    transfers = {cases[1][0]: batch}
    return [BatchCost(what, n, t, transfers.get(what, 1) * model.alpha / t) for what, n, t in cases]
