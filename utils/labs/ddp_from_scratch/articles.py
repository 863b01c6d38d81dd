"""Lab 03's article exercise (``labs/03_ddp_from_scratch.ipynb``, exercise C): article 2's DDP case study
repaired, which needs lesson 03 (it was lab 00's part C; issue 26 moved it where DDP is taught). Article 1's
loop, lab 00's part B, is repaired step by step in lesson 03 §1, so the lab no longer asks for it again.

- ``check_cnn(train_cnn_worker)``: article 2's CNN case study on the digits, launched on 2 workers and
  watched (``utils.checks.DistributedWatch``; a DDP-less or sampler-less worker reaches the accuracy too: the
  watch is what fails it), ranks in sync, the accuracy target met, measured from the returned weights.
"""

from __future__ import annotations

import torch

from utils import checks, data, models
from utils.checks import (
    Verdict,
    expect,
    expect_at_least,
    expect_close,
    expect_own_share_each_epoch,
    expect_wrapped_in_ddp,
    run_check,
    watched,
)
from utils.launch import launch

SEED = 0
CNN_EPOCHS, CNN_BATCH_PER_RANK, CNN_LR, CNN_TARGET_ACCURACY = 2, 32, 0.05, 0.85
WORLD = 2
BANK = "labs/ddp_from_scratch"


# --- Helpers ---------------------------------------------------------------------------------------------------


def _launch_two(worker, args: tuple, keys: set[str], timeout: float) -> tuple[list[dict], list[dict]]:
    """Run the learner's worker on 2 processes, watched; each must return a dict with ``keys``.

    Returns each rank's result and each rank's ``DistributedWatch`` report.
    """
    outcome = launch(watched(worker), *args, nprocs=WORLD, timeout=timeout)
    results, reports = [r["result"] for r in outcome], [r["watch"] for r in outcome]
    wanted = ", ".join(f"'{k}': ..." for k in sorted(keys))
    for rank, r in enumerate(results):
        expect(isinstance(r, dict) and keys <= set(r),
               f"rank {rank} returned {type(r).__name__}; return {{{wanted}}}")
    return results, reports


def _expect_ranks_in_sync(results: list[dict], atol: float) -> None:
    """After DDP training every rank holds the same weights: the gradients were averaged every step."""
    for name, value in results[0]["state"].items():
        expect_close(results[1]["state"][name], value, atol=atol,
                     what=f"rank 1's {name} compared with rank 0's (gradients not synchronised?)")


# --- Exercise C: article 2's CNN case study ------------------------------------------------------------------


def check_cnn(train_cnn_worker) -> Verdict:
    """Skill: data-parallel training of a real model: DDP, a sampler told each epoch, a measured accuracy.

    Launch ``train_cnn_worker(epochs, batch_per_rank, lr)`` on 2 workers, watched: DDP all-reduces, each rank
    reads its own share in a new order each epoch, ranks in sync, the accuracy target met.
    """

    def body():
        results, reports = _launch_two(train_cnn_worker, (CNN_EPOCHS, CNN_BATCH_PER_RANK, CNN_LR),
                                       {"accuracy", "state"}, timeout=300)
        expect_wrapped_in_ddp(reports)
        shares = expect_own_share_each_epoch(reports, min_epochs=CNN_EPOCHS)
        _expect_ranks_in_sync(results, atol=1e-6)
        accuracy = _measured_accuracy(results[0]["state"])  # measured here, not taken from the worker
        expect_at_least(accuracy, CNN_TARGET_ACCURACY, "test accuracy after "
                                                       f"{CNN_EPOCHS} epochs")
        return f"{shares}; 2 ranks in sync; test accuracy {accuracy:.1%} (target {CNN_TARGET_ACCURACY:.0%})"

    return run_check("CNN case study (article 2)", body,
                     hint=checks.stub_message(BANK, "C"))


def _measured_accuracy(state: dict) -> float:
    """The test accuracy of the weights a rank returned, measured here on the digits' test split."""
    model = models.ArticleCNN(seed=SEED)
    try:
        model.load_state_dict({k: torch.as_tensor(v).cpu() for k, v in state.items()})
    except (RuntimeError, TypeError, AttributeError) as exc:
        expect(False, f"the returned state is not the CNN's state_dict ({type(exc).__name__}): return the "
                      "unwrapped model's state_dict, on the CPU")
    return models.accuracy(model, data.digits_28("test"))
