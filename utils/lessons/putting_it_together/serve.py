"""Lesson 08's last step: serving what was trained, in int8 with torchao, as lesson 04 teaches it
(``utils.lessons.compression.quantize``: ``quantize_torchao`` then ``compile_quantized``).

    report = serve_int8(model, dataset)     # latency, size and held-out loss: fp32 eager and compiled, int8

int8 is set against fp32 compiled the same way (paired by round), so that its gain is int8's own and not
compile's fusion; eager fp32 is the starting point.
"""

from __future__ import annotations

import warnings

import torch

from utils import bench
from utils.lessons.compression import quantize
from utils.lessons.compression.measure import model_bytes


def held_out_loss(model, dataset, batch: int, batches: int = 8) -> float:
    """The mean next-character loss on the first ``batches`` batches of held-out text (no shuffling)."""
    loader = torch.utils.data.DataLoader(dataset, batch_size=batch, drop_last=True)
    losses = []
    with torch.inference_mode():
        for (x, y), _ in zip(loader, range(batches)):
            losses.append(torch.nn.functional.cross_entropy(model(x).flatten(0, 1), y.flatten()).item())
    return sum(losses) / len(losses)


def serve_int8(model: torch.nn.Module, dataset, batch: int = 16, threads: int = 1) -> dict:
    """fp32 (eager, and compiled for one batch shape) against torchao's int8 weight-only model compiled the
    same way: latency (median of interleaved rounds; ``times`` by "fp32", "fp32 compiled", "int8"), bytes, held-out loss, the int8 model's output error against fp32's
    (``quantize.output_error``, with the tolerance its speed-up needs); and the compile's seconds."""
    model = model.eval()
    x = next(iter(torch.utils.data.DataLoader(dataset, batch_size=batch)))[0]
    with bench.threads(threads), warnings.catch_warnings():
        # torchao's Int8Tensor lacks a hash for compile's cache: a new process compiles again, no more
        warnings.filterwarnings("ignore", message=".*_stable_hash_for_caching.*")
        q = quantize.quantize_torchao(model, "int8_weight_only")
        fast, compile_s = quantize.compile_quantized(q, x)
        plain, _ = quantize.compile_quantized(model, x)  # compile alone: int8's own effect is against this
        with torch.inference_mode():
            times = {"fp32": [], "fp32 compiled": [], "int8": []}
            for _ in range(5):
                for name, m in (("fp32", model), ("fp32 compiled", plain), ("int8", fast)):
                    times[name] += bench.measure(lambda m=m: m(x), warmup=1, repeats=3).samples
        loss = {"fp32": held_out_loss(model, dataset, batch), "int8": held_out_loss(fast, dataset, batch)}
        error = quantize.output_error(fast, model, x)  # correct before fast: largest error over largest logit
    latency = {k: sorted(v)[len(v) // 2] for k, v in times.items()}
    return {"latency_s": latency, "times": times,
            "bytes": {"fp32": model_bytes(model), "int8": model_bytes(q)}, "loss": loss,
            "compile_s": compile_s, "output_error": error, "tolerance": quantize.TOLERANCE["int8"]}
