"""Lesson 06: the calculator against measurement, over a set of configurations (the ``memory_estimate``
benchmark and ``tests/test_memory.py`` run it).

    errors = estimate_errors(configurations(S.shape, S.batch), S.device)   # name -> (estimated, measured, error)
"""

from __future__ import annotations

from dataclasses import replace

import torch

from utils.lessons.memory.calculator import Shape, estimate
from utils.lessons.memory.measure import (batch_of, checkpointed_loss, measure_peak, new_model, plain_loss,
                                          training_step)
from utils.lessons.memory.tricks import LOSS_CHUNKS, autocast_loss, chunked_loss, selective_loss

# the model's dtype for each precision measured: autocast keeps fp32 weights
DTYPES = {"fp32": torch.float32, "bf16": torch.bfloat16, "bf16 autocast": torch.float32}


def configurations(shape: Shape, batch: int) -> dict[str, dict]:
    """The lesson's configurations and a few shapes around them: deeper, wider, a larger vocabulary, a small
    batch (where the optimizer step holds the peak). Lesson 06."""
    return {
        "as in the lesson": dict(shape=shape, batch=batch),
        "checkpointing": dict(shape=shape, batch=batch, checkpointing=True),
        "selective checkpointing": dict(shape=shape, batch=batch, checkpointing="selective"),
        "4 micro-batches": dict(shape=shape, batch=batch, micro_batches=4),
        "bf16": dict(shape=shape, batch=batch, precision="bf16"),
        "bf16 autocast": dict(shape=shape, batch=batch, precision="bf16 autocast"),
        "twice as deep": dict(shape=replace(shape, depth=2 * shape.depth), batch=batch),
        "twice as wide, a quarter of the batch": dict(shape=replace(shape, width=2 * shape.width),
                                                      batch=max(1, batch // 4)),
        "vocabulary x20": dict(shape=replace(shape, vocab=20 * shape.vocab), batch=batch),
        "vocabulary x40, chunked cross-entropy": dict(shape=replace(shape, vocab=40 * shape.vocab), batch=batch,
                                                      loss_chunks=LOSS_CHUNKS),
        "sgd, checkpointing + 2 micro-batches": dict(shape=shape, batch=batch, optimizer="sgd", checkpointing=True,
                                                      micro_batches=2),
    }


def measure_configuration(config: dict, device) -> float:
    """The measured peak of one training step in ``config`` (``estimate``'s arguments). Lesson 06."""
    shape, batch = config["shape"], config["batch"]
    model, optimizer = new_model(shape, device, dtype=DTYPES[config.get("precision", "fp32")])
    if config.get("optimizer", "adamw") == "sgd":
        optimizer = torch.optim.SGD(model.parameters(), lr=1e-3)
    x, y = batch_of(shape, batch, device)
    loss_fn = loss_function(config)
    step = training_step(model, optimizer, x, y, micro_batches=config.get("micro_batches", 1), loss_fn=loss_fn)
    return measure_peak(step, model, optimizer, device).peak


def loss_function(config: dict):
    """The loss of ``config``: plain, checkpointed (every block or selective), chunked, or under autocast.
    Lesson 06."""
    if config.get("precision", "fp32").endswith("autocast"):
        return autocast_loss(config["precision"].split()[0])
    if config.get("loss_chunks", 1) > 1:
        return chunked_loss
    return {"selective": selective_loss, True: checkpointed_loss}.get(config.get("checkpointing"), plain_loss)


def estimate_errors(configs: dict[str, dict], device) -> dict[str, tuple[float, float, float]]:
    """For each configuration: (calculator's peak, measured peak, relative error). Lesson 06."""
    out = {}
    for name, config in configs.items():
        predicted = estimate(**config).peak
        measured = measure_configuration(config, device)
        out[name] = (predicted, measured, (predicted - measured) / measured)
    return out
