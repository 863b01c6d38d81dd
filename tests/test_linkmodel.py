"""The alpha-beta fit (utils.linkmodel) recovers a known model, reports residuals, refuses nonsense."""

import numpy as np
import pytest

from utils.linkmodel import fit_alpha_beta

SIZES = [2**k for k in range(10, 27, 2)]


def test_the_fit_recovers_alpha_and_beta_within_the_noise():
    rng = np.random.default_rng(0)
    seconds = [(5e-6 + n / 8e9) * (1 + 0.02 * rng.standard_normal()) for n in SIZES]
    fit = fit_alpha_beta(SIZES, seconds)
    assert fit.alpha == pytest.approx(5e-6, rel=0.1) and fit.beta == pytest.approx(8e9, rel=0.05)
    assert fit.worst_residual < 0.08 and len(fit.residuals) == len(SIZES)
    assert fit.half_bandwidth_size == pytest.approx(fit.alpha * fit.beta)
    assert fit.bandwidth(1) < fit.bandwidth(2**30) < fit.beta


def test_small_sizes_count_as_much_as_large_ones():
    # A model whose small points are 2x off must show it in the residuals, not hide it behind the large ones.
    seconds = [(5e-6 + n / 8e9) * (2 if n < 2**14 else 1) for n in SIZES]
    assert fit_alpha_beta(SIZES, seconds).worst_residual > 0.2


def test_data_without_a_bandwidth_is_refused_with_the_reason():
    with pytest.raises(ValueError, match="at least two different sizes"):
        fit_alpha_beta([1024, 1024], [1e-6, 1e-6])
    with pytest.raises(ValueError, match="does not grow with size"):
        fit_alpha_beta([1024, 2**20, 2**24], [1e-3, 1e-4, 1e-5])
