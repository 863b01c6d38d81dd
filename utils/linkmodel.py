"""The alpha-beta model of a transfer: t(n) = alpha + n / beta, fitted to measured times.

Introduced in ``notebooks/00_start_here.ipynb`` (copies), used again in lesson 01 (what a transfer of a
batch costs) and lesson 07 (the all-reduce in a tensor-parallel block). ``alpha`` is the fixed cost of one
transfer (launch, set-up, a round trip), ``beta`` the bandwidth it approaches for large messages.

The fit minimises the *relative* error of every point (each equation is divided by its measured time), so
that a 64 KiB copy of 10 us counts as much as a 64 MiB copy of 10 ms; an unweighted fit would be decided by
the largest sizes alone.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class AlphaBeta:
    alpha: float  # seconds per transfer, whatever its size
    beta: float  # bytes per second, the asymptotic bandwidth
    sizes: tuple[int, ...]  # bytes of each fitted point
    residuals: tuple[float, ...]  # (measured - fitted) / measured, per point: the fit's honesty

    def time(self, n_bytes: float) -> float:
        """Predicted seconds for one transfer of ``n_bytes``."""
        return self.alpha + n_bytes / self.beta

    def bandwidth(self, n_bytes: float) -> float:
        """Predicted achieved bandwidth n / t(n) in bytes/s: far below beta while alpha dominates."""
        return n_bytes / self.time(n_bytes)

    @property
    def half_bandwidth_size(self) -> float:
        """n_1/2 = alpha * beta: the size at which a transfer reaches half of beta (Hockney's n-half)."""
        return self.alpha * self.beta

    @property
    def worst_residual(self) -> float:
        return max(abs(r) for r in self.residuals)


def fit_alpha_beta(sizes, seconds) -> AlphaBeta:
    """Least-squares fit of t = alpha + n / beta over all points (at least two sizes), relative errors.

    Raises ``ValueError`` when the data cannot give a model: fewer than two distinct sizes, or times that do
    not grow with size (a negative slope), which means the points were measured in different regimes (caches)
    or on a busy machine: fit a range where one mechanism moves the bytes."""
    n = np.asarray(sizes, dtype=float)
    t = np.asarray(seconds, dtype=float)
    if n.shape != t.shape or len(set(n.tolist())) < 2:
        raise ValueError(f"need times for at least two different sizes, got sizes={list(sizes)}")
    if np.any(t <= 0):
        raise ValueError("every measured time must be positive")
    # t_i = alpha * 1 + (1/beta) * n_i, each row divided by t_i: relative residuals.
    design = np.stack([np.ones_like(n), n], axis=1) / t[:, None]
    (alpha, inv_beta), *_ = np.linalg.lstsq(design, np.ones_like(t), rcond=None)
    if inv_beta <= 0:
        raise ValueError("time does not grow with size over these points: no single bandwidth describes them "
                         "(different cache regimes, or a busy machine); fit a narrower size range")
    alpha = max(float(alpha), 0.0)  # a slightly negative intercept is noise: no transfer is free of set-up
    fitted = alpha + n * inv_beta
    residuals = tuple(float(r) for r in (t - fitted) / t)
    return AlphaBeta(alpha, float(1 / inv_beta), tuple(int(x) for x in n), residuals)
