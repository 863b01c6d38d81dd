"""Lesson 06's losses that trade time or precision for memory, beyond checkpointing every block: selective
checkpointing (keep what is expensive to recompute), a chunked cross-entropy (never the whole B·T·V logits at
once) and mixed precision with ``torch.autocast``. Each is a ``loss_fn`` for ``measure.training_step``.

    step = training_step(model, optimizer, x, y, loss_fn=selective_loss)
    step = training_step(model, optimizer, x, y, loss_fn=chunked_loss)
    step = training_step(model, optimizer, x, y, loss_fn=autocast_loss("bf16"))
"""

from __future__ import annotations

from functools import partial

import torch
import torch.nn.functional as F
from torch.utils.checkpoint import CheckpointPolicy, checkpoint, create_selective_checkpoint_contexts

from utils import models

# The outputs selective checkpointing keeps: every matrix product and attention (expensive to recompute).
# LayerNorm, GELU and the residual additions are cheap: backward recomputes them.
_aten = torch.ops.aten
_ATTENTION = ("_scaled_dot_product_flash_attention_for_cpu", "_scaled_dot_product_efficient_attention",
              "_scaled_dot_product_flash_attention", "_scaled_dot_product_cudnn_attention")
SAVED_OPS = {_aten.mm.default, _aten.addmm.default, _aten.bmm.default}
SAVED_OPS |= {getattr(_aten, name).default for name in _ATTENTION if hasattr(_aten, name)}
LOSS_CHUNKS = 4  # the chunked cross-entropy's pieces along the sequence


def selective_forward(model: models.GPT, x: torch.Tensor):
    """The blocks' forward through selective checkpointing, as a function (no backward): against the plain
    forward (``measure.blocks_forward``) it shows the policy's own cost, paid before anything is recomputed.
    Lesson 06 times it for reference only: timed apart from the whole loss's forward, it can come out longer
    than that whole, so the lesson takes the policy's cost from the whole forward's pair (``loss_forward``)."""
    policy = partial(create_selective_checkpoint_contexts, keep_matmuls)
    with torch.no_grad():
        h0 = model.embed(x)

    def blocks():
        h = h0.requires_grad_()
        for block in model.blocks:
            h = checkpoint(block, h, use_reentrant=False, context_fn=policy)

    return blocks


def matmul_share(fn, device) -> float:
    """The share of ``fn()``'s operator time spent in what ``keep_matmuls`` keeps (matrix products and
    attention): the rest is what selective checkpointing recomputes. Self time per operator from the
    profiler: the CPU's on the CPU, the GPU kernels' on a GPU (their host time is only the launch).
    Lesson 06."""
    from torch.profiler import ProfilerActivity, profile

    from utils.lessons.why_slow.profile import without_profiler_notices

    on_gpu = torch.device(device).type == "cuda"
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if on_gpu else [])
    with without_profiler_notices(), profile(activities=activities) as prof:
        fn()
        if on_gpu:
            torch.cuda.synchronize(device)
    kept_names = {op.name().split("::")[-1].split(".")[0] for op in SAVED_OPS}
    own = (lambda e: e.self_device_time_total) if on_gpu else (lambda e: e.self_cpu_time_total)
    events = [e for e in prof.key_averages() if e.key.startswith("aten::")]
    total = sum(own(e) for e in events)
    kept = sum(own(e) for e in events if e.key.split("::")[-1] in kept_names)
    return kept / total if total else 0.0


def keep_matmuls(ctx, op, *args, **kwargs) -> CheckpointPolicy:
    """Selective checkpointing's policy: save the outputs of matrix products and attention, recompute the
    rest. Lesson 06."""
    return CheckpointPolicy.MUST_SAVE if op in SAVED_OPS else CheckpointPolicy.PREFER_RECOMPUTE


def selective_loss(model: models.GPT, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """Checkpointing with a ``context_fn``: each block keeps its input and its matmuls' outputs, and backward
    recomputes only the norms, GELU and additions. Lesson 06."""
    policy = partial(create_selective_checkpoint_contexts, keep_matmuls)
    h = model.embed(x)
    for block in model.blocks:
        h = checkpoint(block, h, use_reentrant=False, context_fn=policy)
    return models.cross_entropy(model.head(h), y)


def _chunk_loss(h: torch.Tensor, weight: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    return F.cross_entropy(F.linear(h, weight).flatten(0, 1), y.flatten(), reduction="sum")


def chunked_loss(model: models.GPT, x: torch.Tensor, y: torch.Tensor, chunks: int = LOSS_CHUNKS):
    """The same mean loss, the logits made one slice of the sequence at a time: each slice's logits and
    log-softmax are checkpointed (backward makes them again, one slice at a time), so that the B·T·V
    tensors are never whole. Lesson 06."""
    h = model.embed(x)
    for block in model.blocks:
        h = block(h)
    h = model.head.norm(h)
    weight = model.head.out.weight
    total = sum(checkpoint(_chunk_loss, hs, weight, ys, use_reentrant=False)
                for hs, ys in zip(h.chunk(chunks, dim=1), y.chunk(chunks, dim=1)))
    return total / y.numel()


def autocast_loss(dtype: str = "bf16"):
    """A ``loss_fn`` that runs the forward under ``torch.autocast``: fp32 weights, gradients and AdamW state;
    matmuls in ``dtype`` (bf16 or fp16) on copies made on the fly; the loss in fp32. Lesson 06."""
    low = {"bf16": torch.bfloat16, "fp16": torch.float16}[dtype]

    def loss_fn(model: models.GPT, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        with torch.autocast(x.device.type, dtype=low):
            logits = model(x)
        return models.cross_entropy(logits.float(), y)

    return loss_fn
