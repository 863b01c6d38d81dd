"""Checks for ``labs/00_fix_the_article.ipynb``: each runs the learner's fix and compares with a reference.

- ``check_split(SplitModel)``: article 1's model split, fixed (shapes and devices).
- ``check_ddp(train_worker)``: article 1's DDP loop, fixed, launched on 2 workers; its losses and final
  weights must equal a single process that trains on the same global batches.
- ``check_cnn(train_cnn_worker)``: article 2's CNN case study, fixed, launched on 2 workers on the digits.
"""

from __future__ import annotations

import torch
from torch import nn

from utils import article, devices
from utils.checks import CheckFailed, Verdict, expect, expect_at_least, expect_close, run_check
from utils.launch import launch
from utils.lessons.ddp.replay import global_batches

SEED = 0
DDP_STEPS, DDP_BATCH_PER_RANK, DDP_LR = 20, 16, 0.05
CNN_EPOCHS, CNN_BATCH_PER_RANK, CNN_LR, CNN_TARGET_ACCURACY = 2, 32, 0.05, 0.85
WORLD = 2


# --- Part A: the model split ------------------------------------------------------------------------------


def check_split(split_model_cls) -> Verdict:
    """``split_model_cls(dev0, dev1)``: layer1 on dev0, layer2 on dev1, same output as the unsplit model."""

    def body():
        dev0, dev1 = devices.plan(2).devices
        torch.manual_seed(SEED)
        reference = article.ArticleModel()
        x = torch.randn(100, article.IN_FEATURES)
        model = split_model_cls(dev0, dev1)
        _load_reference(model, reference)
        out = model(x.to(dev0))
        expect_close(out, reference(x), atol=1e-6, what="the split model's output")
        expect(model.layer1.weight.device == torch.device(dev0), f"layer1 is on {model.layer1.weight.device}, "
                                                                 f"expected {dev0}")
        expect(model.layer2.weight.device == torch.device(dev1), f"layer2 is on {model.layer2.weight.device}, "
                                                                 f"expected {dev1}")
        other = article.second_device((dev0, dev1))
        try:
            moved = split_model_cls(dev0, other)(x.to(dev0))
        except RuntimeError as exc:
            raise CheckFailed(f"with layer2 on another device ({other}) the forward pass fails: "
                              f"{str(exc).splitlines()[0]}") from None
        expect(moved.device == torch.device(other), f"the output is on {moved.device}, expected {other}")
        return f"output equals the unsplit model's on {dev0}/{dev1}, and the activation moves between devices"

    return run_check("model split", body, hint="one model, not two copies: layer1 (128→64) on dev0, layer2 "
                                               "(64→32) on dev1, and move the activation with .to(dev1)")


def _load_reference(model: nn.Module, reference: nn.Module) -> None:
    try:
        model.load_state_dict(reference.state_dict())
    except RuntimeError as exc:
        raise CheckFailed("the model's parameters do not match article 1's (layer1: Linear(128, 64), "
                          f"layer2: Linear(64, 32)): {str(exc).splitlines()[0]}") from None


# --- Helpers shared by parts B and C ------------------------------------------------------------------


def _launch_two(worker, args: tuple, keys: set[str], timeout: float) -> list[dict]:
    """Run the learner's worker on 2 processes; each must return a dict with ``keys``."""
    results = launch(worker, *args, nprocs=WORLD, timeout=timeout)
    wanted = ", ".join(f"'{k}': ..." for k in sorted(keys))
    for rank, r in enumerate(results):
        expect(isinstance(r, dict) and keys <= set(r), f"rank {rank} returned {type(r).__name__}; return {{{wanted}}}")
    return results


def _expect_ranks_in_sync(results: list[dict], atol: float) -> None:
    """After DDP training every rank holds the same weights: the gradients were averaged every step."""
    for name, value in results[0]["state"].items():
        expect_close(results[1]["state"][name], value, atol=atol,
                     what=f"rank 1's {name} compared with rank 0's (gradients not synchronised?)")


# --- Part B: article 1's DDP loop ------------------------------------------------------------------------


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
    """Launch ``train_worker(steps, batch_per_rank, lr)`` on 2 workers; compare with ``reference_ddp``."""

    def body():
        results = _launch_two(train_worker, (DDP_STEPS, DDP_BATCH_PER_RANK, DDP_LR), {"losses", "state"},
                              timeout=120)
        for rank, r in enumerate(results):
            expect(len(r["losses"]) == DDP_STEPS, f"rank {rank} made {len(r['losses'])} steps, expected {DDP_STEPS}")
        _expect_ranks_in_sync(results, atol=1e-7)
        ref_losses, ref_state = reference_ddp()
        mean_losses = torch.tensor([sum(ls) / WORLD for ls in zip(*(r["losses"] for r in results))])
        expect_close(mean_losses, torch.tensor(ref_losses), atol=1e-5,
                     what="the mean of the ranks' losses at each step")
        for name, value in ref_state.items():
            expect_close(results[0]["state"][name], value, atol=1e-5, what=f"the final {name}")
        return (f"2 ranks stayed in sync; the final loss {mean_losses[-1]:.4f} equals one process on the same "
                f"global batches ({ref_losses[-1]:.4f})")

    return run_check("DDP loop (article 1)", body,
                     hint="init the group with launch.current_backend(), seed before building the model, "
                          "DistributedSampler(shuffle=True, seed=0, drop_last=True) with set_epoch, "
                          "optimizer.step() (not ddp_model.step()), and return the state of model, not ddp_model")


# --- Part C: article 2's CNN case study ------------------------------------------------------------------


def check_cnn(train_cnn_worker) -> Verdict:
    """Launch ``train_cnn_worker(epochs, batch_per_rank, lr)`` on 2 workers; accuracy and sync checked."""

    def body():
        results = _launch_two(train_cnn_worker, (CNN_EPOCHS, CNN_BATCH_PER_RANK, CNN_LR), {"accuracy", "state"},
                              timeout=300)
        _expect_ranks_in_sync(results, atol=1e-6)
        accuracy = results[0]["accuracy"]
        expect(0 <= accuracy <= 1, f"the accuracy is {accuracy}: return a fraction between 0 and 1, as "
                                   "models.accuracy does (not a percentage)")
        expect_at_least(accuracy, CNN_TARGET_ACCURACY, "test accuracy after "
                                                       f"{CNN_EPOCHS} epochs")
        return f"2 ranks in sync; test accuracy {accuracy:.1%} (target {CNN_TARGET_ACCURACY:.0%})"

    return run_check("CNN case study (article 2)", body,
                     hint="DDP(model) with device_ids=None on CPU, DistributedSampler + set_epoch, "
                          "CrossEntropyLoss, an SGD optimizer that steps, and models.accuracy(model, test set)")
