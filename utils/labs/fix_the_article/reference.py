"""Lab 00's reference arithmetic, what the checks use to name a wrong count: the bytes of the activation at a
cut. (Reading it before you solve the lab spoils exercise A; the lab's cells do not import it, its checks do,
under a private name, and refuse an answer that calls it.)"""

from __future__ import annotations

import torch


def activation_bytes(model, cut: int, x: torch.Tensor) -> int:
    """Bytes of ``model[:cut](x)``, 0 when there is no such cut."""
    if not 0 < cut < len(model):
        return 0
    with torch.no_grad():
        h = model[:cut](x)
    return h.numel() * h.element_size()
