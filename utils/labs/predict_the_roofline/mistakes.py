"""Lab 01's named mistakes: for a learner's count or turning length that is off, the plausible slip it matches,
said without the expected value (introduced in ``labs/01_predict_the_roofline.ipynb``).

Each candidate is the right answer with one slip applied; the first that matches names the mistake.
"""

from __future__ import annotations

from dataclasses import replace

import torch

from utils.labs.predict_the_roofline import reference as _reference
from utils.labs.predict_the_roofline.ops import LabOp


def _near(value: float, target: float, tol: float) -> bool:
    return abs(value - target) <= tol * abs(target) if target else value == 0


def _more_or_less(value: float, right: float) -> str:
    return "more" if value > right else "less"


def _flops_slips(op: LabOp, right: float) -> list[tuple[float, str]]:
    d = op.dims
    if op.kind == "conv2d":
        out = (d["height"] + 2 * d["padding"] - d["kernel"] + 1) * (d["width"] + 2 * d["padding"] - d["kernel"] + 1)
        return [(right / 2, "FLOPs without the factor 2: each term of an output is a multiply and an add"),
                (right * d["height"] * d["width"] / out, "FLOPs at the input's height and width: an output has as "
                                                         "many positions as the kernel can take"),
                (right / d["in_channels"], "FLOPs without the input channels: each output sums over all of them"),
                (right / d["kernel"] ** 2, "FLOPs without the kernel's area: each output sums over its k x k "
                                           "positions too")]
    if op.kind == "attention":
        share = _reference.kept_share(op)
        return [(right / share, "FLOPs for every score: with the causal mask a query sees only the keys up to "
                                "its own, and the fused kernel skips the rest (lesson 01 §5)"),
                (right / 2, "half the FLOPs: attention has two matmuls (scores, then weights times values), "
                            "each a multiply and an add per term, and without a mask every query sees every key"),
                (right / (d["batch"] * d["heads"]), "the FLOPs of one head: every head of every sequence does "
                                                    "this work"),
                (right / d["batch"], "the FLOPs of one sequence: the batch has more"),
                *_half_square(op, right)]
    return []


CAUSAL_HALF_SQUARE = "T²/2 scores under the causal mask: it keeps T(T+1)/2, the diagonal too"


def _half_square(op: LabOp, right: float) -> list[tuple[float, str]]:
    """A causal attention counted at T²/2 scores for the T(T+1)/2 its mask keeps: off by 1/T, so only a short
    one tells it (check 1's unseen ops hold one); check 2 names the same slip in the turning length."""
    if not op.dims["causal"]:
        return []
    T = op.dims["length"]
    return [(right * T / (T + 1), "FLOPs for " + CAUSAL_HALF_SQUARE)]


def _bytes_slips(op: LabOp, right: float) -> list[tuple[float, str]]:
    d, size = op.dims, op.dtype.itemsize
    slips = [(right / size, "elements, not bytes: multiply by the bytes of one element")]
    if size != 4:
        slips.append((right * 4 / size, f"4 bytes an element: {str(op.dtype).removeprefix('torch.')} has {size}"))
    if op.kind == "embedding":
        n, rows = op.ids.numel(), op.ids.unique().numel()
        ids, row = n * op.ids.element_size(), d["width"] * size
        ids_named = "the ids' bytes: token ids are int64, 8 bytes each (ask the tensor: ids.element_size())"
        slips += [(right - n * (op.ids.element_size() - 4), ids_named),  # ids taken as int32
                  (right - n * (op.ids.element_size() - size), ids_named),  # ids at the table's element size
                  (ids + (d["vocab"] + n) * row, "the whole table: a lookup reads only the rows its ids name"),
                  (ids + 2 * n * row, "a row for every id: ids repeat, and a row named twice needs reading "
                                      "from memory once"),
                  (ids + n * row, "the output only, or the rows only: a lookup reads rows and writes them out"),
                  (ids + rows * row, "the rows only: the output is written too")]
    elif op.kind == "conv2d":
        x = d["batch"] * d["in_channels"] * d["height"] * d["width"] * size
        slips += [(right + x * (d["kernel"] ** 2 - 1), "the unfolded input (every patch): a convolution need not "
                                                        "write its patches to memory, and every operand counts once"),
                  (x + d["out_channels"] * d["in_channels"] * d["kernel"] ** 2 * size
                   + d["batch"] * d["out_channels"] * d["height"] * d["width"] * size,
                   "an output as large as the input's height and width: count the positions the kernel can take")]
    else:
        t = d["batch"] * d["heads"] * d["length"] * d["head_dim"] * size
        scores = d["batch"] * d["heads"] * d["length"] ** 2 * size
        slips += [(right + scores, "the T x T scores: the fused kernel never writes them to memory (lesson 01 §5)"),
                  (right + scores * _reference.kept_share(op), "the scores the mask keeps: the fused kernel never writes "
                                                    "them to memory (lesson 01 §5)"),
                  (3 * t, "queries, keys and values only: the output is written too"),
                  (right + d["length"] ** 2, "a mask in memory: is_causal builds none")]
    return slips


def count_mistake(op: LabOp, flops: float, n_bytes: float, right_flops: float, right_bytes: float,
                  tol: float) -> str | None:
    """Why (``flops``, ``n_bytes``) is not what ``op`` does and moves, or None when both are within ``tol``."""
    if right_flops == 0 and flops != 0:
        return (f"{op.name}: your count has FLOPs: a lookup copies rows and does no arithmetic (torch's FLOP "
                "counter counts none)")
    if not _near(flops, right_flops, tol):
        slip = next((why for value, why in _flops_slips(op, right_flops) if _near(flops, value, tol)), None)
        return f"{op.name}: your count has " + (slip or f"{_more_or_less(flops, right_flops)} FLOPs than the op "
                                                         "does (torch's FLOP counter, the mask's share taken out)")
    if not _near(n_bytes, right_bytes, tol):
        slip = next((why for value, why in _bytes_slips(op, right_bytes) if _near(n_bytes, value, tol)), None)
        return f"{op.name}: your bytes count " + (slip or f"{_more_or_less(n_bytes, right_bytes)} than the "
                                                          "tensors the op must read and write, once each")
    return None


def turning_mistake(op: LabOp, c, answer: float, first_compute_bound, answers: dict) -> str | None:
    """Why ``answer`` is not the first length at which attention ``op`` is compute-bound on ceilings ``c``
    (exactly: the test ridges tie at no length, so ">" and ">=" agree and a token off is a slip, t31_labs03 #3),
    or None. ``answers``: {name: (op, length)} of the learner's lengths so far on the same ceilings."""
    def near(length):
        return answer == length

    where = f"{op.name} on a machine of ridge {c.ridge:g} FLOPs/byte"
    if answer != int(answer) or answer < 1:
        return f"{where}: return a whole number of tokens, at least 1"
    if near(first_compute_bound(op, c.ridge)):
        return None
    causal = op.dims["causal"]
    slips = [(op, c.bandwidth / c.flops, "takes the ridge upside down: it is the peak over the bandwidth "
                                         "(lesson 01 §2)"),
             (replace(op, dims=dict(op.dims, causal=not causal)), c.ridge,
              "counts every score: the causal mask halves the work, not the bytes" if causal else
              "assumes a mask this attention does not have")]
    if causal:  # T²/2 scores for T(T+1)/2 halves the unmasked intensity: the unmasked turn at twice the ridge
        slips.append((replace(op, dims=dict(op.dims, causal=False)), 2 * c.ridge,
                      "counts " + CAUSAL_HALF_SQUARE))
    if op.dtype != torch.float32:
        slips.append((replace(op, dtype=torch.float32), c.ridge,
                      f"assumes 4 bytes an element: this attention is {str(op.dtype)[6:]}"))
    named = [why for slipped, ridge, why in slips if near(first_compute_bound(slipped, ridge))]
    if named:  # two slips can give the same length: both are named
        return f"{where}: your length " + "; or it ".join(named)
    twin = next((name for name, (other, length) in answers.items() if length != answer
                 and other.dims["causal"] == causal and other.dtype == op.dtype), None)
    if twin:
        return (f"{where}: your length differs from the one for {twin}, which differs only in batch, heads and "
                "head width: what does attention's intensity depend on?")
    right = first_compute_bound(op, c.ridge)
    if answer == right - 1:  # a search that returns its low end: the last length below the ridge
        return f"{where}: your length is the last memory-bound one, a token short of the first compute-bound"
    return f"{where}: your length is {'longer' if answer > right else 'shorter'} than the first compute-bound one"
