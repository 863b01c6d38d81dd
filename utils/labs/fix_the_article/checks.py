"""Checks for ``labs/00_fix_the_article.ipynb``: each runs the learner's fix and measures the skill.

- ``check_split(SplitModel)``: article 1's model split, fixed. Forward hooks record where each layer's
  parameters, input and output live; where both stages share one device (``cpu``, ``1gpu``) the model is
  also built with ``meta`` standing in for a second device, so that a model that leaves ``layer2`` on the
  first device and moves only the output fails. Run in a worker: on GPUs it touches CUDA, which must not
  start in the notebook (it would stop every later forked launch).
- ``check_crossing(crossing_bytes)``: the bytes that cross between the two devices in one training step of
  the split model, for any batch (the activation forward, its gradient backward; never the weights).

The articles' DDP loop and CNN case study need lesson 03: they are lab 03's exercises C and D
(``utils.labs.ddp_from_scratch.articles``).
"""

from __future__ import annotations

import torch
from torch import nn

from utils import article, checks, devices
from utils.checks import CheckFailed, Verdict, expect, expect_close, run_check
from utils.launch import launch

SEED = 0
BANK = "labs/fix_the_article"


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


# --- Exercise B: what crosses between the devices -----------------------------------------------------------

CROSSING_BATCHES = (1, 100, 4096)


def crossing_mistake(n: int, answer: float) -> str | None:
    """Why ``answer`` is not the bytes that cross between the devices in one training step of a batch of ``n``
    rows of the split model (float32), or None when it is right."""
    itemsize = torch.float32.itemsize
    hidden = article.HIDDEN  # the width layer1 hands layer2
    activation = n * hidden * itemsize
    right = 2 * activation  # the activation forward, its gradient backward
    if answer == right:
        return None
    weights = sum(p.numel() for p in article.ArticleModel().parameters()) * itemsize
    named = {activation: "half of it: the forward activation only (backward sends its gradient back across the "
                         "same link), or 2 bytes an element (the model computes in float32)",
             activation * 8 * 2: "bits, not bytes",
             2 * n * article.IN_FEATURES * itemsize: "the input's size: the input never leaves the first device",
             right + weights: "the weights too: each layer's weights live on their device and never cross"}
    why = named.get(answer)
    if why is None and answer > right and answer - right in (weights, weights // 2):
        why = "the weights too: each layer's weights live on their device and never cross"
    return (f"crossing_bytes({n}) = {answer:,.0f}, expected {right:,}: you counted "
            + (why if why else "something else than what crosses between the two devices in one step"))


def check_crossing(crossing_bytes) -> Verdict:
    """Skill: what a model split sends over the link in one training step, for any batch size."""

    def body():
        for n in CROSSING_BATCHES:
            answer = crossing_bytes(n)
            expect(isinstance(answer, (int, float)), f"crossing_bytes({n}) returned {type(answer).__name__}; "
                                                     "return a number of bytes")
            mistake = crossing_mistake(n, answer)
            expect(mistake is None, mistake or "")
        return (f"one training step of {CROSSING_BATCHES[1]} rows sends {crossing_bytes(CROSSING_BATCHES[1]):,} "
                "bytes between the devices, in proportion to the batch; the weights stay where they are")

    return run_check("what crosses the link", body, hint=checks.stub_message(BANK, "B"))
