"""Checks for ``labs/00_fix_the_article.ipynb``: each runs the learner's fix and measures the skill.

- ``check_split(SplitModel)``: article 1's model split, fixed. Forward hooks record where each layer's
  parameters, input and output live; where both stages share one device (``cpu``, ``1gpu``) the model is
  also built with ``meta`` standing in for a second device, so that a model that leaves ``layer2`` on the
  first device and moves only the output fails. Run in a worker: on GPUs it touches CUDA, which must not
  start in the notebook (it would stop every later forked launch).
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
    CheckFailed,
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
hint = checks.hints_for("labs/fix_the_article")  # hint("A", 2): exercise A's second hint


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


LAYERS = ("layer1", "layer2")


def where_layers_ran(model: nn.Module, x: torch.Tensor) -> tuple[torch.Tensor, dict]:
    """``model(x)`` with forward hooks on ``layer1`` and ``layer2``: the output, and for each layer the device
    of its parameters, of its input and of its output (a layer that never ran has no input or output)."""
    seen = {name: {"parameters": str(getattr(model, name).weight.device)} for name in LAYERS}

    def recorder(name):
        def hook(module, inputs, output):
            seen[name].update(input=str(inputs[0].device), output=str(output.device))
        return hook

    handles = [getattr(model, name).register_forward_hook(recorder(name)) for name in LAYERS]
    try:
        out = model(x)
    finally:
        for handle in handles:
            handle.remove()
    return out, seen


def split_facts(split_model_cls, dev0: str, dev1: str) -> dict:
    """Run in a worker (on GPUs it touches CUDA, which must not start in the notebook): the learner's split
    model against article 1's, on (dev0, dev1) and on (dev0, a device that is really different), with plain
    answers for the notebook to check."""
    torch.manual_seed(SEED)
    reference = article.ArticleModel()
    x = torch.randn(100, article.IN_FEATURES)
    model = split_model_cls(dev0, dev1)
    try:
        model.load_state_dict(reference.state_dict())
    except RuntimeError as exc:
        return {"load_error": str(exc).splitlines()[0]}
    missing = [name for name in LAYERS if not isinstance(getattr(model, name, None), nn.Linear)]
    if missing:
        return {"load_error": f"no Linear layer named {missing[0]}"}
    output, layers = where_layers_ran(model, x.to(dev0))
    facts = {"output": output.detach().cpu(), "expected": reference(x).detach(), "layers": layers}
    facts["other"] = other = article.second_device((dev0, dev1))
    moved_model = split_model_cls(dev0, other)
    facts["moved_parameters"] = {name: {"parameters": str(getattr(moved_model, name).weight.device)}
                                 for name in LAYERS}  # recorded before forward, which may fail
    try:
        moved, facts["moved_layers"] = where_layers_ran(moved_model, x.to(dev0))
        facts["moved"] = str(moved.device)
    except RuntimeError as exc:
        facts["moved_error"] = str(exc).splitlines()[0]
    return facts


def _expect_layers_on(layers: dict, dev0: str, dev1: str, note: str = "", ran: bool = True) -> None:
    """layer1's parameters, input and output on dev0; layer2's on dev1 (as far as ``layers`` recorded them;
    ``ran``: each layer must have run in forward)."""
    for name, dev in zip(LAYERS, (dev0, dev1)):
        expect(not ran or "output" in layers[name], f"{name} never ran in forward{note}")
        for what in ("parameters", "input", "output"):
            if what not in layers[name]:
                continue
            where = layers[name][what]
            verb = "are" if what == "parameters" else "is"
            expect(torch.device(where) == torch.device(dev), f"{name}'s {what} {verb} on {where}, expected "
                                                             f"{dev}{note}")


def check_split(split_model_cls) -> Verdict:
    """Skill: split one model across two devices, each layer computing on its own device.

    ``split_model_cls(dev0, dev1)``: layer1 on dev0, layer2 on dev1, the same output as the unsplit model.
    """

    def body():
        dev0, dev1 = devices.plan(2).devices
        facts = launch(split_facts, split_model_cls, dev0, dev1, nprocs=1, timeout=120)[0]
        if "load_error" in facts:
            raise CheckFailed("the model's parameters do not match article 1's (layer1: Linear(128, 64), "
                              f"layer2: Linear(64, 32)): {facts['load_error']}")
        expect_close(facts["output"], facts["expected"], atol=1e-5, what="the split model's output")
        _expect_layers_on(facts["layers"], dev0, dev1)
        other = facts["other"]
        stand_in = f" (built with {other} as the second device, standing in for a second GPU)"
        _expect_layers_on(facts["moved_parameters"], dev0, other, stand_in, ran=False)
        if "moved_error" in facts:
            raise CheckFailed(f"with layer2 on another device ({other}) the forward pass fails: "
                              f"{facts['moved_error']}")
        _expect_layers_on(facts["moved_layers"], dev0, other, stand_in)
        expect(torch.device(facts["moved"]) == torch.device(other), f"the output is on {facts['moved']}, "
                                                                    f"expected {other}")
        return (f"output equals the unsplit model's; layer1 computes on {dev0}, layer2 on {dev1}, and with "
                f"{other} as the second device each layer still computes on its own device")

    return run_check("model split", body, hint="article 1 meant one model whose layers sit on two devices, "
                                               "not two copies; a layer computes only on inputs on its own "
                                               "device")


# --- Helpers shared by parts B and C ------------------------------------------------------------------


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
                     hint="a DDP loop: a process group, the same initial weights on every rank, each rank's "
                          "own share of the data every epoch, and the optimizer (not DDP) steps")


# --- Part C: article 2's CNN case study ------------------------------------------------------------------


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
                     hint="Exercise B's recipe: DDP, a DistributedSampler told each epoch, and the accuracy of "
                          "the unwrapped model as a fraction")
