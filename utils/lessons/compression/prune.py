"""Pruning with ``torch.nn.utils.prune``, lesson 04 (``notebooks/04_compression.ipynb``): masks, making them
permanent, and removing the channels that structured pruning zeroed (the only kind that gets faster).

    pruned = pruned_copy(cnn, "global unstructured", 0.5)   # masks in place: weight = weight_orig * mask
    remove_masks(pruned)                                     # prune.remove: the zeros stay, the masks go
    small = shrink_article_cnn(pruned_copy(cnn, "structured (channels)", 0.5))   # smaller tensors
    thin = shrink_mlp(mlp, keep=0.5)                         # half of each hidden layer's neurons removed
"""

from __future__ import annotations

import copy
from collections import OrderedDict

import torch
from torch import nn
from torch.nn.utils import prune

from utils.lessons.compression.measure import WEIGHT_LAYERS

__all__ = ["PRUNING_METHODS", "prunable", "pruned_copy", "remove_masks", "kept_channels", "shrink_article_cnn",
           "shrink_mlp"]

PRUNING_METHODS = ("unstructured, per layer", "global unstructured", "structured (channels)")


def prunable(model: nn.Module) -> list[tuple[nn.Module, str]]:
    """``(module, "weight")`` for every Conv2d and Linear: the list ``prune.global_unstructured`` takes."""
    return [(m, "weight") for m in model.modules() if isinstance(m, WEIGHT_LAYERS)]


def pruned_copy(model: nn.Module, method: str, amount: float) -> nn.Module:
    """A copy of ``model`` with ``amount`` (a fraction) of its weights or channels zeroed, masks in place.

    ``method`` is one of ``PRUNING_METHODS``; structured pruning expects the article CNN's layer names.
    Lesson 04.
    """
    model = copy.deepcopy(model)  # copy first: a model with pruning masks cannot be deep-copied
    if method == "unstructured, per layer":  # the smallest |w| of each layer
        for module, name in prunable(model):
            prune.l1_unstructured(module, name, amount=amount)
    elif method == "global unstructured":  # the smallest |w| of all layers together
        prune.global_unstructured(prunable(model), pruning_method=prune.L1Unstructured, amount=amount)
    elif method == "structured (channels)":  # whole output channels (dim 0) with the smallest L2 norm
        for module in (model.conv1, model.conv2, model.fc1):  # fc2 keeps its 10 classes
            prune.ln_structured(module, "weight", amount=amount, n=2, dim=0)
    else:
        raise ValueError(f"method must be one of {PRUNING_METHODS}, not {method!r}")
    return model


def remove_masks(model: nn.Module) -> nn.Module:
    """Make pruning permanent (``prune.remove``): drop ``weight_orig`` and ``weight_mask``, keep the zeros.

    Until then the state dict holds both the original weights and a same-sized mask (about twice the bytes).
    Lesson 04.
    """
    for module, name in prunable(model):
        if prune.is_pruned(module) and hasattr(module, f"{name}_mask"):
            prune.remove(module, name)
    return model


def kept_channels(weight: torch.Tensor) -> torch.Tensor:
    """Indices of the output channels (dim 0) of ``weight`` that are not entirely zero: what pruning left."""
    return weight.flatten(1).abs().sum(dim=1).nonzero().flatten()


def shrink_article_cnn(cnn: nn.Sequential) -> nn.Sequential:
    """Physically remove the output channels of conv1, conv2 and fc1 that structured pruning zeroed.
    Lesson 04.

    ``cnn`` has ``ArticleCNN``'s layer names (no BN), pruned with ``prune.ln_structured(..., dim=0)`` on
    conv1, conv2 and fc1 (masks in place or removed). Returns a smaller ``nn.Sequential`` with the same
    outputs (up to float rounding): a zeroed channel is not silent, it outputs ``relu(bias)``, a constant;
    that constant's effect on the next layer is folded into the next layer's bias before the channel goes.
    Shapes: conv1 (c1,1,5,5) -> (k1,1,5,5); conv2 (c2,c1,5,5) -> (k2,k1,5,5); fc1 (h, c2*16) -> (kh, k2*16);
    fc2 (10, h) -> (10, kh).
    """
    # Read the (masked) weights as plain tensors: a module with pruning masks cannot be deep-copied.
    w1, b1 = cnn.conv1.weight.detach().clone(), cnn.conv1.bias.detach().clone()  # (c1, 1, 5, 5), (c1,)
    w2, b2 = cnn.conv2.weight.detach().clone(), cnn.conv2.bias.detach().clone()  # (c2, c1, 5, 5), (c2,)
    wh, bh = cnn.fc1.weight.detach().clone(), cnn.fc1.bias.detach().clone()  # (h, c2*16), (h,)
    wo, bo = cnn.fc2.weight.detach().clone(), cnn.fc2.bias.detach().clone()  # (10, h), (10,)
    keep1, keep2, keep_h = kept_channels(w1), kept_channels(w2), kept_channels(wh)
    # Constant outputs of the dropped channels (max-pooling a constant leaves it unchanged).
    dead1 = torch.relu(b1) * (w1.flatten(1).abs().sum(1) == 0)  # (c1,)
    dead2 = torch.relu(b2) * (w2.flatten(1).abs().sum(1) == 0)  # (c2,)
    dead_h = torch.relu(bh) * (wh.abs().sum(1) == 0)  # (h,)
    # A valid (unpadded) convolution sees every input position: constant input c adds dead1[c] * sum(w).
    b2 = b2 + (w2.sum(dim=(2, 3)) * dead1).sum(dim=1)
    # fc1 reads conv2's channels flattened channel-major: channel c is columns c*16 .. c*16+15.
    bh = bh + wh.view(len(bh), -1, 16).sum(dim=2) @ dead2
    bo = bo + wo @ dead_h
    columns = (keep2[:, None] * 16 + torch.arange(16)).flatten()  # fc1 input features that survive
    layers = OrderedDict((name, copy.deepcopy(m)) for name, m in cnn.named_children()
                         if not isinstance(m, WEIGHT_LAYERS))  # ReLU, pooling, flatten: no state
    layers["conv1"] = _conv(w1[keep1], b1[keep1])
    layers["conv2"] = _conv(w2[keep2][:, keep1], b2[keep2])
    layers["fc1"] = _linear(wh[keep_h][:, columns], bh[keep_h])
    layers["fc2"] = _linear(wo[:, keep_h], bo)
    order = [name for name, _ in cnn.named_children()]
    return nn.Sequential(OrderedDict((name, layers[name]) for name in order)).eval()


def _conv(weight: torch.Tensor, bias: torch.Tensor) -> nn.Conv2d:
    """A stride-1, unpadded Conv2d holding ``weight`` (out, in, kh, kw) and ``bias`` (out,)."""
    conv = nn.Conv2d(weight.shape[1], weight.shape[0], tuple(weight.shape[2:]))
    conv.weight.data, conv.bias.data = weight.contiguous(), bias.contiguous()
    return conv


def _linear(weight: torch.Tensor, bias: torch.Tensor) -> nn.Linear:
    """A Linear layer holding ``weight`` (out, in) and ``bias`` (out,)."""
    linear = nn.Linear(weight.shape[1], weight.shape[0])
    linear.weight.data, linear.bias.data = weight.contiguous(), bias.contiguous()
    return linear


def shrink_mlp(mlp: nn.Sequential, keep: float) -> nn.Sequential:
    """A copy of ``mlp`` with only the ``keep`` fraction of each hidden layer's neurons: structured pruning
    that removes them, so the tensors (bytes) and the matrix multiplies (time) shrink. Lesson 04's lab.

    A hidden neuron is row j of one Linear's weight (and bias j) and column j of the next Linear's weight; the
    neurons with the largest L2 norm of their incoming weights stay (``prune.ln_structured``'s criterion).
    The output layer keeps all its classes. The copy is smaller but less accurate: fine-tune it afterwards.
    """
    mlp = copy.deepcopy(mlp)
    linears = [i for i, layer in enumerate(mlp) if isinstance(layer, nn.Linear)]
    for here, after in zip(linears[:-1], linears[1:]):  # every Linear but the last feeds hidden neurons
        first, second = mlp[here], mlp[after]
        count = max(1, round(first.out_features * keep))
        kept = first.weight.detach().norm(dim=1).topk(count).indices.sort().values  # (count,)
        mlp[here] = _linear(first.weight.detach()[kept], first.bias.detach()[kept])  # (count, in)
        mlp[after] = _linear(second.weight.detach()[:, kept], second.bias.detach().clone())  # (out, count)
    return mlp
