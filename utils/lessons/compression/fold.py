"""BatchNorm folding, lesson 04 (``notebooks/04_compression.ipynb``): what really merges at inference time.

    folded = fold_batchnorm(cnn)    # each Conv2d + BatchNorm2d pair becomes one Conv2d (BN -> Identity)
"""

from __future__ import annotations

import copy

from torch import nn
from torch.nn.utils.fusion import fuse_conv_bn_eval

__all__ = ["fold_batchnorm"]


def fold_batchnorm(model: nn.Sequential) -> nn.Sequential:
    """A copy of ``model`` (eval mode) with each BatchNorm2d folded into the Conv2d just before it. Lesson 04.

    In eval mode BN is an affine map per channel, ``y = γ (x - μ) / sqrt(σ² + ε) + β``, so it can be
    multiplied into the convolution's weights and bias (``torch.nn.utils.fusion.fuse_conv_bn_eval``); the BN
    layer becomes ``nn.Identity``. Outputs are equal up to float rounding. Training mode cannot be folded:
    there BN uses the batch's statistics, which change every step.
    """
    folded = copy.deepcopy(model).eval()
    layers = list(folded.named_children())
    for (conv_name, conv), (bn_name, bn) in zip(layers, layers[1:]):
        if isinstance(conv, nn.Conv2d) and isinstance(bn, nn.BatchNorm2d):
            # W' = W·γ/s per output channel, b' = (b - μ)·γ/s + β, with s = sqrt(running_var + ε)
            setattr(folded, conv_name, fuse_conv_bn_eval(conv, bn))
            setattr(folded, bn_name, nn.Identity())  # the same position in the Sequential, doing nothing
    return folded
