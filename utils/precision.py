"""The arithmetic a training step runs in, per device: what lessons 02 and 03 time on a GPU.

Introduced in lesson 03 (``notebooks/03_ddp.ipynb``), whose timed runs train in it; lesson 02's timing
workers use ``fp32_matmuls``. Why it matters: in plain fp32 (no TF32) a GPU computes a step 8-16x slower
than its tensor cores allow, so the computation hides any communication and two workers look ideal; in the
regime a practitioner trains in, the step is short, and bucket sizes, overlap and the link decide the time.

    regime = training_regime(gpu.compute_capability)   # "bf16" on an A100/H100, "fp16" on a T4, "fp32" on a CPU
    with autocast(regime, device):                       # in a worker: the forward (and so the backward)
        loss = model(x, y)[1]
    scaler = grad_scaler(regime, device)                 # fp16 only: scale the loss so gradients do not underflow

Regimes: ``fp32`` (IEEE fp32 matmuls, the reference every correctness check uses), ``tf32`` (fp32 tensors,
matmuls on TF32 tensor cores: 10 bits of mantissa), ``bf16`` and ``fp16`` (autocast: matmuls in 16 bits,
weights, optimizer and reductions in fp32). Nothing here touches CUDA until a worker calls it.
"""

from __future__ import annotations

import contextlib

import torch

REGIMES = ("fp32", "tf32", "bf16", "fp16")
TENSOR_CORE_CC = (7, 0)  # fp16 tensor cores from Volta (V100) and Turing (T4) on
AMPERE_CC = (8, 0)  # bf16 and TF32 tensor cores from the A100 on; before it bf16 is emulated (slow)
AUTOCAST = {"bf16": torch.bfloat16, "fp16": torch.float16}


def training_regime(compute_capability: tuple[int, int] | None) -> str:
    """What a practitioner trains in on a GPU of this compute capability (None: a CPU, or unknown): bf16
    autocast from Ampere on, fp16 autocast with a gradient scaler on tensor cores before it (T4, V100), fp32
    where there are none (and on a CPU, where the course's lessons time fp32)."""
    if compute_capability is None:
        return "fp32"
    cc = tuple(compute_capability)
    return "bf16" if cc >= AMPERE_CC else "fp16" if cc >= TENSOR_CORE_CC else "fp32"


def fp32_regime(compute_capability: tuple[int, int] | None) -> str:
    """How fp32 matmuls run where a step stays in fp32 tensors (lesson 02's pipelines): on TF32 tensor cores
    from Ampere on (``torch.backends.cuda.matmul.allow_tf32``), in IEEE fp32 elsewhere."""
    return "tf32" if compute_capability and tuple(compute_capability) >= AMPERE_CC else "fp32"


def use(regime: str) -> None:
    """Set this process's fp32 matmuls for ``regime``: TF32 tensor cores for "tf32", IEEE fp32 otherwise (so
    that "fp32" means fp32, whatever the process set before). Call it in a worker, before its first matmul."""
    if regime not in REGIMES:
        raise ValueError(f"precision must be one of {', '.join(REGIMES)}, got {regime!r}")
    torch.backends.cuda.matmul.allow_tf32 = regime == "tf32"
    torch.backends.cudnn.allow_tf32 = regime == "tf32"


def fp32_matmuls(device) -> str:
    """In a timing worker of lesson 02: fp32 matmuls on ``device`` as a practitioner's GPU runs them (TF32 from
    Ampere on, ``fp32_regime``); returns the regime used ("fp32" on a CPU). Correctness checks do not call it."""
    device = torch.device(device)
    cc = torch.cuda.get_device_capability(device) if device.type == "cuda" else None
    regime = fp32_regime(cc)
    use(regime)
    return regime


def autocast(regime: str, device):
    """The context a step's forward runs in: autocast to bf16/fp16 on ``device``'s type, nothing for fp32
    and tf32 (lesson 03's plan picks fp32 on a CPU)."""
    device = torch.device(device)
    if regime in AUTOCAST:
        return torch.autocast(device_type=device.type, dtype=AUTOCAST[regime])
    return contextlib.nullcontext()


def grad_scaler(regime: str, device) -> torch.amp.GradScaler:
    """fp16's gradient scaler (the loss times a large factor, so that small gradients do not flush to zero in
    16 bits; the optimizer step is skipped when a gradient overflowed); disabled, a pass-through, otherwise."""
    return torch.amp.GradScaler(torch.device(device).type, enabled=regime == "fp16")
