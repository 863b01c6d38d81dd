"""The checks of lab 04 (``labs/04_compress_under_budget.ipynb``): the learner's model must be at least 3.5x
smaller, at least 1.5x faster, and lose at most 0.01 of test accuracy (one percentage point), all measured in
the run against the trained baseline.

``candidate`` is a model or a function that returns one: it is called inside the check, so that an
unfinished exercise reports "not done yet" instead of stopping the notebook.

    check_smaller(model, candidate)              # model_bytes ratio
    check_faster(model, candidate, x_bench)      # fastest runs, interleaved with the baseline, on x's device
    check_accuracy(model, candidate, test_set)   # utils.models.accuracy, a fraction
"""

from __future__ import annotations

import torch
from torch import nn

from utils import checks, models
from utils.lessons.compression.measure import model_bytes, speedup
from utils.lessons.compression.plan import device_label

__all__ = ["check_smaller", "check_faster", "check_accuracy"]


def _build(candidate) -> nn.Module:
    """The model ``candidate`` is, or returns when called."""
    model = candidate() if callable(candidate) and not isinstance(candidate, nn.Module) else candidate
    checks.expect(isinstance(model, nn.Module), f"expected a torch model, got {type(model).__name__}")
    return model


def check_smaller(baseline: nn.Module, candidate, target: float = 3.5, show: bool = True) -> checks.Verdict:
    """Lab 04: the candidate's stored bytes (state dict, ``model_bytes``) are at least ``target`` times fewer."""

    def body():
        before, after = model_bytes(baseline), model_bytes(_build(candidate))
        checks.expect_at_least(before / after, target, "the size ratio (baseline bytes / your bytes)", "x")
        return f"{before / after:.2f}x smaller ({before:,} -> {after:,} stored bytes, state dict)"

    return checks.run_check(f"at least {target}x smaller", body, show=show,
                            hint="int8 weights take 1 byte instead of 4; pruned zeros are still stored")


def check_faster(baseline: nn.Module, candidate, x: torch.Tensor, target: float = 1.5, rounds: int = 21,
                 label: str | None = None, show: bool = True) -> checks.Verdict:
    """Lab 04: fastest latency on ``x``, measured interleaved with the baseline on ``x``'s device, is ``target``
    times lower. ``label`` says where it was measured (default: from ``x``'s device, e.g. " (on the CPU)")."""
    where = device_label(str(x.device)) if label is None else label

    def body():
        model = _build(candidate)
        ratio = speedup(baseline, model, x, rounds=rounds)
        checks.expect_at_least(ratio, target, f"the speedup (baseline time / your time){where}", "x")
        fewer = model_bytes(baseline) / model_bytes(model)
        return (f"{ratio:.2f}x faster{where}, batch of {len(x)} (fastest of {rounds} interleaved runs each); "
                f"reference {fewer:.2f}x: your model stores {fewer:.2f}x fewer bytes, what a layer limited by moving "
                "its weights would gain (compute-bound kernels can exceed it)")

    return checks.run_check(f"at least {target}x faster", body, show=show,
                            hint="fewer stored bytes alone are not enough, and stored zeros do not skip work: look "
                                 "for a change that both shrinks the bytes and lets the kernels do cheaper work "
                                 "(lesson 04's tables show which technique does both)")


def check_accuracy(baseline: nn.Module, candidate, test_set, max_drop: float = 0.01,
                   show: bool = True) -> checks.Verdict:
    """Lab 04: test accuracy (a fraction, ``utils.models.accuracy``) at most ``max_drop`` below the baseline's."""

    def body():
        before, after = models.accuracy(baseline, test_set), models.accuracy(_build(candidate), test_set)
        checks.expect_at_most(before - after, max_drop, "the accuracy drop (a fraction of the test set)")
        return f"accuracy {before:.2%} -> {after:.2%}: a drop of {before - after:.4f} (limit {max_drop:g})"

    return checks.run_check(f"accuracy drop at most {max_drop:g}", body, show=show,
                            hint="a drop of 0.01 is one percentage point; 8 bits per weight keep accuracy, fewer "
                                 "bits or removing neurons without fine-tuning lose it")
