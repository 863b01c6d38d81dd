"""The checks of lab 04 (``labs/04_compress_under_budget.ipynb``): the learner's model must be at least 10x
smaller, at least 2x faster, and lose at most 0.02 of test accuracy (two percentage points), all measured in
the run against the trained baseline. No single technique of lesson 04 meets the three together: int8 alone
is 4x smaller, removing neurons alone costs accuracy until fine-tuned, and zeros are still stored.

The accuracy drop is paired: both models answer the same test images, and its standard error comes from the
images on which they disagree; the verdict prints it, and how many standard errors wide the budget is.

``candidate`` is a model or a function that returns one: it is called inside the check, so that an
unfinished exercise reports "not done yet" instead of stopping the notebook.

    check_smaller(model, candidate)              # model_bytes ratio
    check_faster(model, candidate, x_bench)      # fastest runs, interleaved with the baseline, on x's device
    check_accuracy(model, candidate, test_set)   # the paired drop, a fraction, with its standard error
"""

from __future__ import annotations

import textwrap

import torch
from torch import nn

from utils import checks, models
from utils.lessons.compression.measure import model_bytes, sparsity, speedup
from utils.lessons.compression.plan import device_label
from utils.lessons.compression.quantize import WeightOnlyInt8Linear, output_error

__all__ = ["check_smaller", "check_faster", "check_accuracy", "paired_drop", "regime_sentence"]

BANK = "labs/compress_under_budget"  # the lab's hints: utils/labs/compress_under_budget/hints.toml


def _build(candidate) -> nn.Module:
    """The model ``candidate`` is, or returns when called."""
    model = candidate() if callable(candidate) and not isinstance(candidate, nn.Module) else candidate
    checks.expect(isinstance(model, nn.Module), f"expected a torch model, got {type(model).__name__}")
    return model


def check_smaller(baseline: nn.Module, candidate, target: float = 10.0, show: bool = True) -> checks.Verdict:
    """Lab 04: the candidate's stored bytes (state dict, ``model_bytes``) are at least ``target`` times fewer."""

    def body():
        before, after = model_bytes(baseline), model_bytes(_build(candidate))
        checks.expect_at_least(before / after, target, "the size ratio (baseline bytes / your bytes)", "x")
        return f"{before / after:.2f}x smaller ({before:,} -> {after:,} stored bytes, state dict)"

    return checks.run_check(f"at least {target}x smaller", body, show=show,
                            hint=checks.stub_message(BANK, "A"))


def check_faster(baseline: nn.Module, candidate, x: torch.Tensor, target: float = 2.0, rounds: int = 21,
                 label: str | None = None, show: bool = True, reference=None) -> checks.Verdict:
    """Lab 04: fastest latency on ``x``, measured interleaved with the baseline on ``x``'s device, is ``target``
    times lower. ``label`` says where it was measured (default: from ``x``'s device, e.g. " (on the CPU)").
    ``reference``: lesson 04's ``int8_reference`` for the baseline at this batch (the regime its roofline
    finds), quoted beside the measurement; without it, the stored-bytes ratio is the reference."""
    where = device_label(str(x.device)) if label is None else label

    def body():
        model = _build(candidate)
        ratio = speedup(baseline, model, x, rounds=rounds)
        if ratio < target:
            raise checks.CheckFailed(f"the speedup (baseline time / your time){where} is {ratio:.3g}x, short of the "
                                     f"target {target:.3g}x by {target - ratio:.3g}x" + why_not_faster(model, reference))
        fewer = model_bytes(baseline) / model_bytes(model)
        off = output_error(model, baseline, x)  # beside the speed: how far its logits are from the baseline's
        said = (f"{ratio:.2f}x faster{where}, batch of {len(x)} (fastest of {rounds} interleaved runs each), "
                f"logits {off:.1%} off the baseline's (largest error over largest; the accuracy check judges it); ")
        if reference is None:
            return said + (f"reference {fewer:.2f}x: your model stores {fewer:.2f}x fewer bytes, what a layer "
                           "limited by moving its weights would gain (compute-bound kernels can exceed it)")
        return said + (f"int8's reference at this batch {reference.value:.2f}x ({reference.label}, lesson 04's "
                       f"roofline); your model stores {fewer:.2f}x fewer bytes")

    return checks.run_check(f"at least {target}x faster", body, show=show,
                            hint=checks.stub_message(BANK, "A"))


def paired_drop(baseline: nn.Module, model: nn.Module, test_set) -> tuple[float, float, float, float]:
    """Accuracy before and after, the drop (fractions) and its paired standard error. Lab 04.

    Per image, the difference is 1 (lost), -1 (gained) or 0 (same answer either way); the drop is its mean and
    the standard error its standard deviation over sqrt(n): only the images the two models disagree on count.
    """
    before, after = models.correct_answers(baseline, test_set), models.correct_answers(model, test_set)
    differences = before - after  # (n,)
    error = differences.std().item() / len(differences) ** 0.5 if len(differences) > 1 else float("nan")
    return before.mean().item(), after.mean().item(), differences.mean().item(), error


def check_accuracy(baseline: nn.Module, candidate, test_set, max_drop: float = 0.02,
                   show: bool = True) -> checks.Verdict:
    """Lab 04: the test accuracy drop (a fraction, paired: the same images) is at most ``max_drop``."""

    def body():
        before, after, drop, error = paired_drop(baseline, _build(candidate), test_set)
        width = (f"the budget is {max_drop / error:.1f} standard errors wide" if error > 0 else
                 "the two models agree on every image")
        spread = f"{drop * 100:.2f} ± {error * 100:.2f} points (paired standard error, {len(test_set):,} images)"
        checks.expect_at_most(drop, max_drop, f"the accuracy drop (a fraction of the test set; {spread})")
        return f"accuracy {before:.2%} -> {after:.2%}: a drop of {spread}; limit {max_drop * 100:g} points, {width}"

    return checks.run_check(f"accuracy drop at most {max_drop:g}", body, show=show,
                            hint=checks.stub_message(BANK, "A"))


def why_not_faster(model: nn.Module, reference) -> str:
    """Lab 04: the plausible reason a candidate is not faster, named from what it is and the regime."""
    weight_only = any(isinstance(m, WeightOnlyInt8Linear) for m in model.modules())
    if weight_only and (reference is None or reference.kind == "compute-bound"):
        return (": weight-only int8 stores fewer bytes but multiplies in floating point, so where the matmuls "
                "decide (compute-bound at this batch) it cannot be faster")
    if sparsity(model) > 0.3:
        return ": zeros from unstructured pruning are still stored and still multiplied"
    return ""


def regime_sentence(reference, batch: int, label: str = "") -> str:
    """Lab 04: what lesson 04's roofline says of the baseline at the timed batch, in one wrapped sentence."""
    if reference.kind == "compute-bound":
        what = ("the matmuls' rate decides, so int8 buys what an int8 matmul gains over fp32; fewer bytes alone "
                "(weight-only int8) buy nothing")
    else:
        what = "the bytes moved decide, so fewer bytes per weight buy speed even where the matmul stays float"
    text = (f"At a batch of {batch} the baseline's pass is {reference.label}{label}: {reference.intensity:.0f} "
            f"operations a byte against a balance of {reference.balance:.1f}; {what}. int8's reference: "
            f"{reference.value:.1f}x ({reference.why}).")
    return textwrap.fill(text, 110)
