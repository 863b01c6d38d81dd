"""Lab 01's ops: three kinds lesson 01 never placed on its roofline, and what each one really does.

Introduced in ``labs/01_predict_the_roofline.ipynb``. An op is a ``LabOp``:

- ``embedding``: a lookup of ``op.ids`` (token ids, with the repeats a text has) in a (vocab x width) table;
- ``conv2d``: a 2-D convolution, stride 1, no bias, ``padding`` zeros on each side;
- ``attention``: ``scaled_dot_product_attention`` of (batch, heads, length, head_dim) queries, keys and
  values, with or without the causal mask.

What an op does and moves (the checks' reference) is in ``reference.py``, which the lab does not import.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Callable

import torch
import torch.nn.functional as F


KINDS = ("embedding", "conv2d", "attention")


def text_like_ids(vocab: int, tokens: int, seed: int = 0) -> torch.Tensor:
    """``tokens`` ids drawn as a text's words are: a few very often, most rarely (Zipf's law, rank r with
    weight 1 / r), so that a batch repeats ids."""
    g = torch.Generator().manual_seed(seed)
    weights = 1.0 / torch.arange(1, vocab + 1, dtype=torch.float64)
    ranks = torch.multinomial(weights, tokens, replacement=True, generator=g)
    return torch.randperm(vocab, generator=g)[ranks]  # which id is frequent: shuffled over the table


@dataclass(frozen=True, eq=False)
class LabOp:
    """One op to count. ``dims`` names its sizes: ``embedding`` vocab, width (and ``ids``); ``conv2d`` batch,
    in_channels, height, width, out_channels, kernel, padding; ``attention`` batch, heads, length, head_dim,
    causal."""

    name: str
    kind: str
    dims: dict = field(default_factory=dict)
    dtype: torch.dtype = torch.float32
    ids: torch.Tensor | None = None  # the embedding's token ids (int64)

    def with_length(self, length: int, batch: int | None = None) -> "LabOp":
        """The same attention at another sequence length (and batch: named wherever one is given, batch 1 too, so
        that two rows sized for the same work read alike in a table of times)."""
        dims = dict(self.dims, length=int(length), batch=int(batch or self.dims["batch"]))
        named = f"{self.name.split(',')[0]}, length {length}"
        if batch is not None or dims["batch"] != self.dims["batch"]:  # said in the name: a table of times shows it
            named += f", batch {dims['batch']}"
        return replace(self, name=named, dims=dims)

    def operands(self, device: str = "cpu") -> tuple[torch.Tensor, ...]:
        """The op's inputs, random, in its dtype, on ``device``."""
        d, g = self.dims, dict(dtype=self.dtype, device=device)
        if self.kind == "embedding":
            return torch.randn(d["vocab"], d["width"], **g), self.ids.to(device)
        if self.kind == "conv2d":
            return (torch.randn(d["batch"], d["in_channels"], d["height"], d["width"], **g),
                    torch.randn(d["out_channels"], d["in_channels"], d["kernel"], d["kernel"], **g))
        shape = (d["batch"], d["heads"], d["length"], d["head_dim"])
        return tuple(torch.randn(shape, **g) for _ in range(3))

    def call(self, operands) -> torch.Tensor:
        """Run the op once on ``operands``."""
        if self.kind == "embedding":
            return F.embedding(operands[1], operands[0])
        if self.kind == "conv2d":
            return F.conv2d(*operands, padding=self.dims["padding"])
        return F.scaled_dot_product_attention(*operands, is_causal=self.dims["causal"])

    def timed_call(self, device: str = "cpu") -> Callable[[], object]:
        """The call to time, operands built once. The lookup writes into an output allocated once (as a GPU's
        caching allocator would hand it back: on a CPU a fresh 32 MiB tensor is new pages, and their faults
        would be timed), as lesson 01 times its row-wise ops."""
        operands = self.operands(device)
        if self.kind == "embedding":
            table, ids = operands
            out = torch.empty(ids.numel(), table.shape[1], dtype=table.dtype, device=device)
            return lambda: torch.index_select(table, 0, ids, out=out)
        return lambda: self.call(operands)
