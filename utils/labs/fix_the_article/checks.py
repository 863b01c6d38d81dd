"""Checks for ``labs/00_fix_the_article.ipynb``: each runs the learner's fix and compares with a reference.

- ``check_split(SplitModel)``: article 1's model split, fixed (shapes and devices); run in a worker, since on
  GPUs it touches CUDA, which must not start in the notebook (it would stop every later forked launch).
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


# --- Tolerances: where the learner's code ran ------------------------------------------------------------


def tolerance(plan: devices.Plan) -> float:
    """How far the 2-worker result may be from the single-process CPU reference.

    On the CPU both sum in the same kernels: equal to float32 rounding (1e-5 on losses near 1). On a GPU the
    kernels sum in another order (and convolutions may use TF32 on Ampere and later), so after 20 steps the
    results differ by more than rounding yet far less than a mistake would make them (a missing sampler or
    an unsynchronised rank: 1e-2 and more).
    """
    return 1e-5 if plan.simulated else 1e-3


# --- Part A: the model split ------------------------------------------------------------------------------


def split_facts(split_model_cls, dev0: str, dev1: str) -> dict:
    """Run in a worker (on GPUs it touches CUDA, which must not start in the notebook): the learner's split
    model against article 1's, with plain answers for the notebook to check."""
    torch.manual_seed(SEED)
    reference = article.ArticleModel()
    x = torch.randn(100, article.IN_FEATURES)
    model = split_model_cls(dev0, dev1)
    try:
        model.load_state_dict(reference.state_dict())
    except RuntimeError as exc:
        return {"load_error": str(exc).splitlines()[0]}
    facts = {"output": model(x.to(dev0)).detach().cpu(), "expected": reference(x).detach(),
             "layer1": str(model.layer1.weight.device), "layer2": str(model.layer2.weight.device)}
    other = article.second_device((dev0, dev1))
    try:
        facts["moved"] = str(split_model_cls(dev0, other)(x.to(dev0)).device)
    except RuntimeError as exc:
        facts["moved_error"] = str(exc).splitlines()[0]
    facts["other"] = other
    return facts


def check_split(split_model_cls) -> Verdict:
    """``split_model_cls(dev0, dev1)``: layer1 on dev0, layer2 on dev1, same output as the unsplit model."""

    def body():
        dev0, dev1 = devices.plan(2).devices
        facts = launch(split_facts, split_model_cls, dev0, dev1, nprocs=1, timeout=120)[0]
        if "load_error" in facts:
            raise CheckFailed("the model's parameters do not match article 1's (layer1: Linear(128, 64), "
                              f"layer2: Linear(64, 32)): {facts['load_error']}")
        expect_close(facts["output"], facts["expected"], atol=1e-5, what="the split model's output")
        for layer, dev in (("layer1", dev0), ("layer2", dev1)):
            expect(torch.device(facts[layer]) == torch.device(dev), f"{layer} is on {facts[layer]}, expected {dev}")
        if "moved_error" in facts:
            raise CheckFailed(f"with layer2 on another device ({facts['other']}) the forward pass fails: "
                              f"{facts['moved_error']}")
        expect(torch.device(facts["moved"]) == torch.device(facts["other"]),
               f"the output is on {facts['moved']}, expected {facts['other']}")
        return f"output equals the unsplit model's on {dev0}/{dev1}, and the activation moves between devices"

    return run_check("model split", body, hint="article 1 meant one model whose layers sit on two devices, not "
                                               "two copies; and a layer computes only on inputs that are on "
                                               "its own device")


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
        atol = tolerance(devices.plan(WORLD))  # the reference runs on the CPU; the workers may not
        mean_losses = torch.tensor([sum(ls) / WORLD for ls in zip(*(r["losses"] for r in results))])
        expect_close(mean_losses, torch.tensor(ref_losses), atol=atol,
                     what="the mean of the ranks' losses at each step")
        for name, value in ref_state.items():
            expect_close(results[0]["state"][name], value, atol=atol, what=f"the final {name}")
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
