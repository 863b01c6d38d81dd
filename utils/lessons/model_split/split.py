"""Cut a model into pipeline stages, and the naive split that runs them one after the other (lesson 02).

Lesson 02 (``notebooks/02_model_split.ipynb``) starts here:

    stages = split_sequential(gpt.as_sequential(), [3])   # [embed, block 0, block 1] | [block 2, block 3, head]
    model = SplitModel(stages, ["cuda:0", "cuda:1"])      # stage 0 on one device, stage 1 on the other
    logits = model(tokens)                                # stage 0, move the activation, stage 1

and checks every split against the unsplit model with ``reference_step``, ``stage_grads_of`` and ``max_gap``.
"""

from __future__ import annotations

import copy
from typing import Sequence

import torch
from torch import nn


def stage_ranges(n_layers: int, split_points: Sequence[int]) -> list[tuple[int, int]]:
    """Layer index ranges of the stages: ``stage_ranges(6, [3])`` is ``[(0, 3), (3, 6)]``.

    A split point k starts a new stage at layer k, so the points must rise strictly inside (0, n_layers).
    """
    points = [int(k) for k in split_points]
    if any(b <= a for a, b in zip([0] + points, points + [n_layers])):
        raise ValueError(f"split points {list(split_points)} must rise strictly between 0 and {n_layers} "
                         f"(the number of layers): every stage needs at least one layer")
    bounds = [0] + points + [n_layers]
    return list(zip(bounds[:-1], bounds[1:]))


def layer_names(start: int, stop: int, depth: int) -> str:
    """"embedding, blocks 0-1": layers ``start`` to ``stop - 1`` of ``GPT.as_sequential()``, whose list is
    [embedding, block 0, ..., block depth-1, head], in words."""
    blocks = [k - 1 for k in range(start, stop) if 1 <= k <= depth]
    names = ["embedding"] if start == 0 else []
    if blocks:
        names.append(f"block {blocks[0]}" if len(blocks) == 1 else f"blocks {blocks[0]}-{blocks[-1]}")
    return ", ".join(names + (["head"] if stop > depth + 1 else []))


def split_sequential(model: nn.Sequential, split_points: Sequence[int]) -> list[nn.Sequential]:
    """Cut ``model`` before each split point: a list of ``nn.Sequential`` stages sharing its layers.

    The stages hold the very same modules (no copy): a gradient computed through a stage lands in the
    original model's parameters, so split and unsplit results compare directly.
    """
    layers = list(model)
    return [nn.Sequential(*layers[a:b]) for a, b in stage_ranges(len(layers), split_points)]


class SplitModel(nn.Module):
    """The naive split: stage k on ``devices[k]``, run one after the other, the activation moved in between.

    Nothing runs in parallel: while one stage works, the other waits. (To count the bytes that cross, see
    ``instrument.InputBytes``.)
    """

    def __init__(self, stages: Sequence[nn.Module], devices: Sequence[str]):
        super().__init__()
        if len(stages) != len(devices):
            raise ValueError(f"{len(stages)} stages but {len(devices)} devices")
        self.devices = [torch.device(d) for d in devices]
        self.stages = nn.ModuleList(stage.to(d) for stage, d in zip(stages, self.devices))

    def forward(self, x: torch.Tensor) -> torch.Tensor:  # the GPT: token ids (B, T)
        for stage, device in zip(self.stages, self.devices):
            x = stage(x.to(device))  # from stage 1 on, the activation (B, T, C) moves to this stage's device
        return x  # logits (B, T, vocab), on the last device


def output_shape(module: nn.Module, x: torch.Tensor) -> tuple[int, ...]:
    """Shape of ``module(x)`` without computing it (on the ``meta`` device: shapes only, no data)."""
    with torch.no_grad():
        return tuple(copy.deepcopy(module).to("meta")(x.to("meta")).shape)


# --- the split against the unsplit model ------------------------------------------------------------------


def grads_of(module: nn.Module) -> dict[str, torch.Tensor]:
    """A CPU copy of every gradient of ``module``, by parameter name."""
    return {name: p.grad.detach().cpu().clone() for name, p in module.named_parameters() if p.grad is not None}


def reference_step(task, batch: int, seed: int = 1, model: nn.Sequential | None = None) -> dict:
    """The unsplit model's step on ``task``'s batch: output, loss and gradients by parameter name."""
    model = model or task.build()
    x, y = task.make_batch(batch, seed)
    out = model(x)
    loss = task.loss_fn(out, y)
    loss.backward()
    return {"grads": grads_of(model), "output": out.detach(), "loss": float(loss.detach()), "model": model}


def stage_grads_of(reference: dict, stages: Sequence[nn.Sequential], model: nn.Sequential) -> list[dict]:
    """The reference gradients regrouped by stage, under the stage's own parameter names."""
    param_name = {id(p): name for name, p in model.named_parameters()}
    return [{name: reference["grads"][param_name[id(p)]] for name, p in stage.named_parameters()} for stage in stages]


def max_gap(a: dict, b: dict) -> float:
    """Largest absolute difference between two dicts of tensors with the same keys."""
    if a.keys() != b.keys():
        raise KeyError(f"different parameters: {sorted(set(a) ^ set(b))[:4]}")
    return max(((a[k].double() - b[k].double()).abs().max().item() for k in a), default=0.0)
