"""Lab 03's article exercises (``labs/03_ddp_from_scratch.ipynb``, exercises C and D): the two articles' DDP
repairs, which need lesson 03 (they were lab 00's parts B and C; issue 26 moved them where DDP is taught).

- ``check_ddp(train_worker)``: article 1's DDP loop, fixed, launched on 2 workers and watched
  (``utils.checks.DistributedWatch``): a DDP model that all-reduces, each rank its own share of the data in
  a new order each epoch, and losses and final weights equal to one process on the same global batches.
- ``check_cnn(train_cnn_worker)``: article 2's CNN case study on the digits, watched the same way (a
  DDP-less or sampler-less worker reaches the accuracy too: the watch is what fails it), ranks in sync,
  the accuracy target met.
"""

from __future__ import annotations

import torch
from torch import nn

from utils import article, checks, devices
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
from utils.lessons.ddp.replay import global_batches

SEED = 0
DDP_STEPS, DDP_BATCH_PER_RANK, DDP_LR = 20, 16, 0.05
CNN_EPOCHS, CNN_BATCH_PER_RANK, CNN_LR, CNN_TARGET_ACCURACY = 2, 32, 0.05, 0.85
WORLD = 2
BANK = "labs/ddp_from_scratch"


# --- Tolerances: where the learner's code ran ------------------------------------------------------------


def tolerance(plan: devices.Plan) -> float:
    """How far the 2-worker result may be from the single-process CPU reference.

    On the CPU both sum in the same kernels: equal to float32 rounding (1e-5 on losses near 1). On a GPU the
    kernels sum in another order (and convolutions may use TF32 on Ampere and later), so after 20 steps the
    results differ by more than rounding yet far less than a mistake would make them (a missing sampler or
    an unsynchronised rank: 1e-2 and more).
    """
    return 1e-5 if plan.simulated else 1e-3


# --- Helpers shared by exercises C and D ------------------------------------------------------------------


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


# --- Exercise C: article 1's DDP loop ------------------------------------------------------------------------


def reference_ddp(steps: int = DDP_STEPS, batch_per_rank: int = DDP_BATCH_PER_RANK, lr: float = DDP_LR):
    """One process training on the global batches: what 2-rank DDP must reproduce. Returns (losses, state)."""
    data = article.regression_data()
    torch.manual_seed(SEED)
    model = article.ArticleModel()
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    losses = []
    for idx in global_batches(len(data), batch_per_rank, WORLD, SEED, count=steps):  # all ranks' rows of a step
        x, y = data[idx]
        optimizer.zero_grad()
        loss = nn.functional.mse_loss(model(x), y)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return losses, model.state_dict()


def check_ddp(train_worker) -> Verdict:
    """Skill: a DDP training loop that shares the data out and steps the optimizer.

    Launch ``train_worker(steps, batch_per_rank, lr)`` on 2 workers, watched; compare with ``reference_ddp``.
    """

    def body():
        results, reports = _launch_two(train_worker, (DDP_STEPS, DDP_BATCH_PER_RANK, DDP_LR),
                                       {"losses", "state"}, timeout=120)
        for rank, r in enumerate(results):
            expect(len(r["losses"]) == DDP_STEPS,
                   f"rank {rank} made {len(r['losses'])} steps, expected {DDP_STEPS}")
        expect_wrapped_in_ddp(reports)
        expect_own_share_each_epoch(reports, min_epochs=2)  # 20 steps of 16 rows per rank: 2 epochs of 512
        _expect_ranks_in_sync(results, atol=1e-7)
        ref_losses, ref_state = reference_ddp()
        atol = tolerance(devices.plan(WORLD))  # the reference runs on the CPU; the workers may not
        mean_losses = torch.tensor([sum(ls) / WORLD for ls in zip(*(r["losses"] for r in results))])
        expect_close(mean_losses, torch.tensor(ref_losses), atol=atol,
                     what="the mean of the ranks' losses at each step")
        for name, value in ref_state.items():
            expect_close(results[0]["state"][name], value, atol=atol, what=f"the final {name}")
        return (f"DDP all-reduced the gradients; each rank read its own share; the final loss "
                f"{mean_losses[-1]:.4f} equals one process on the same "
                f"global batches ({ref_losses[-1]:.4f})")

    return run_check("DDP loop (article 1)", body,
                     hint=checks.stub_message(BANK, "C"))


# --- Exercise D: article 2's CNN case study ------------------------------------------------------------------


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
        accuracy = results[0]["accuracy"]
        expect(0 <= accuracy <= 1, f"the accuracy is {accuracy}: return a fraction between 0 and 1, as "
                                   "models.accuracy does (not a percentage)")
        expect_at_least(accuracy, CNN_TARGET_ACCURACY, "test accuracy after "
                                                       f"{CNN_EPOCHS} epochs")
        return f"{shares}; 2 ranks in sync; test accuracy {accuracy:.1%} (target {CNN_TARGET_ACCURACY:.0%})"

    return run_check("CNN case study (article 2)", body,
                     hint=checks.stub_message(BANK, "D"))
