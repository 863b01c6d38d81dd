"""Lesson 08's "does it fit?": what a training step really holds on a device under DDP with autocast and under
FSDP2, with the optimizer's own temporary, against a device's memory less a stated margin; and, when full
training fits nowhere, what does (an 8-bit optimizer, CPU offload, LoRA, QLoRA, more GPUs), with the bytes.

    h = held(shape, batch=32, precision="bf16", strategy="ddp", n=2)     # bytes one device holds
    h.peak, h.lines["gradients"], usable(80e9, gpu=True)

It builds on lesson 06's calculator (``utils.lessons.memory.calculator.estimate``: activations and the
backward's temporary, formula by formula) and replaces the lines where PyTorch's training code holds more than
a textbook layout:

* **DDP with autocast** keeps fp32 weights, fp32 gradients and fp32 AdamW states, a 16-bit copy of every
  matmul weight, and a second copy of the gradients in DDP's buckets: 4 + 4 + 8 + 4 = 20 bytes a parameter
  (the "bf16 mixed" layout of the ZeRO paper counts 16). The calculator's ``"bf16 autocast"`` + ``"ddp"``.
* **FSDP2** (``fully_shard`` with ``MixedPrecisionPolicy(param_dtype=bf16)``) keeps the *sharded* parameters
  and their gradients in fp32 (the gradient takes the sharded parameter's dtype) and fp32 AdamW states:
  16 bytes a parameter / N; it gathers the root module's weights (embedding, head) for the whole step and one
  block ahead of the one that runs, in 16 bits, and a block's unsharded 16-bit gradient before its
  reduce-scatter (PyTorch's FSDP2 documentation, ``torch.distributed.fsdp.fully_shard``).
* **AdamW's step**: the ``foreach`` implementation (PyTorch's default on CUDA) makes a temporary list of
  tensors the size of all the parameters it updates (``sqrt(v)``: 4 bytes a parameter); ``fused=True`` updates
  in one kernel per group with no such list; the for-loop one the largest tensor's size (PyTorch's
  ``torch.optim`` documentation: "foreach ... has a higher peak memory footprint than for-loop").
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from utils.lessons.memory.calculator import Shape, activation_bytes, backward_temporary, estimate

GB = 1e9


@dataclass(frozen=True)
class Margin:
    """Memory a training step cannot have: a fixed part and a share of the device. Lesson 08."""

    fixed: float  # bytes
    share: float  # of the device's memory
    why: str

    def of(self, capacity: float) -> float:
        return self.fixed + self.share * capacity


# A rule of thumb, stated and not measured here: the CUDA context (300-600 MB with lazy module loading, what
# nvidia-smi shows for a process that has only initialised CUDA), NCCL's buffers (NCCL_BUFFSIZE, 4 MiB per
# channel and peer, and its work FIFOs: a few hundred MB for two ranks) and the caching allocator's
# fragmentation (reserved minus allocated: commonly 5-10 % in PyTorch's memory snapshots).
GPU_MARGIN = Margin(1.0 * GB, 0.10, "1 GB for the CUDA context and NCCL's buffers + 10 % for fragmentation "
                    "(a rule of thumb)")
CPU_MARGIN = Margin(0.5 * GB, 0.10, "0.5 GB for torch itself in each worker + 10 % for the allocator")


def usable(capacity: float, gpu: bool) -> float:
    """Bytes a training step may use on a device of ``capacity`` bytes: the capacity less the margin."""
    return capacity - (GPU_MARGIN if gpu else CPU_MARGIN).of(capacity)


def optimizer_temporary(shape: Shape, n_local: float, implementation: str = "fused") -> float:
    """Bytes AdamW's step makes beyond its states, for ``n_local`` parameters on this device (fp32 states)."""
    if implementation == "fused":
        return 0.0
    if implementation == "foreach":
        return 4 * n_local  # sqrt(v) for every parameter at once: a tensor list the size of the parameters
    c = shape.width
    return 4 * max(shape.vocab * c, c * shape.mlp_ratio * c)  # for-loop: one tensor at a time


@dataclass(frozen=True)
class Held:
    """The bytes one device holds for a training step: its lines, the peak and the moment of the peak."""

    lines: dict[str, float]
    peak: float
    moment: str  # "backward" or "optimizer step"
    layout: str  # what was counted, in words

    @property
    def state(self) -> float:
        """Weights, gradients and optimizer state: what the step holds before any activation."""
        return sum(self.lines[k] for k in ("parameters", "gradients", "master weights", "optimizer"))


def _moments(lines: dict[str, float]) -> tuple[float, str]:
    """The larger of backward's start and the optimizer step (lesson 06's two moments)."""
    static = lines["parameters"] + lines["master weights"] + lines["optimizer"] + lines["communication"]
    backward = static + lines["activations"] + lines["temporary"] + lines["weight copies"]
    step = static + lines["gradients"] + lines["optimizer temporary"]
    return (backward, "backward") if backward >= step else (step, "optimizer step")


def held(shape: Shape, batch: int, precision: str = "bf16", strategy: str = "ddp", n: int = 2,
         checkpointing: bool | str = False, optimizer: str = "fused") -> Held:
    """One device's bytes for a step of ``batch`` sequences per device. ``precision``: fp32, or bf16/fp16
    autocast (fp32 weights, gradients and states); ``strategy``: one device, ddp or fsdp (FSDP2 with 16-bit
    compute); ``optimizer``: AdamW's implementation (fused, foreach, for-loop). Lesson 08."""
    n = 1 if strategy == "one device" else n
    if strategy == "fsdp":
        return _fsdp2(shape, batch, precision, n, checkpointing, optimizer)
    layout = "fp32" if precision == "fp32" else f"{precision} autocast"
    b = estimate(shape, batch, layout, checkpointing=checkpointing, strategy=strategy, n=n)
    lines = dict(b.lines, **{"optimizer temporary": optimizer_temporary(shape, shape.parameters(), optimizer)})
    peak, moment = _moments(lines)
    what = "fp32 weights, gradients and AdamW states" + ("" if precision == "fp32" else
                                                        ", 16-bit weight copies") + (
        ", DDP's bucket copy of the gradients" if strategy == "ddp" else "")
    return Held(lines, peak, moment, what)


def _fsdp2(shape, batch, precision, n, checkpointing, optimizer) -> Held:
    """FSDP2: fp32 shards (weights, gradients, states); 16-bit gathered weights and unsharded gradients."""
    p, block = shape.parameters(), shape.block_parameters()
    root = p - shape.depth * block  # embedding, positions, final norm, head: gathered for the whole step
    compute = 4 if precision == "fp32" else 2
    act = "fp32" if precision == "fp32" else "bf16 mixed"  # FSDP2's param_dtype: every activation 16-bit
    b = estimate(shape, batch, act, checkpointing=checkpointing, strategy="fsdp", n=n)
    lines = {"parameters": 4 * p / n, "gradients": 4 * p / n, "master weights": 0.0, "optimizer": 8 * p / n,
             "activations": b.lines["activations"], "temporary": b.lines["temporary"], "weight copies": 0.0,
             # the root's weights, a block and the next one gathered, a block's gradient before reduce-scatter
             "communication": (root + 3 * block) * compute,
             "optimizer temporary": optimizer_temporary(shape, p / n, optimizer)}
    peak, moment = _moments(lines)
    return Held(lines, peak, moment, "FSDP2: fp32 sharded weights, gradients and AdamW states, 16-bit "
                "gathered weights")


# --- When full training fits nowhere -----------------------------------------------------------------------

LORA_RANK = 16  # adapters on the four matmuls of every block (qkv, projection, the FFN's two)
NF4_BYTES = 0.5 + 0.127 / 8  # QLoRA's 4-bit NormalFloat with double-quantised constants (0.127 bits each)


def lora_parameters(shape: Shape, rank: int = LORA_RANK) -> int:
    """Trainable parameters of rank-``rank`` adapters A (r x in) and B (out x r) on every block's matmuls."""
    c, h = shape.width, shape.mlp_ratio * shape.width
    return shape.depth * rank * ((c + 3 * c) + (c + c) + (c + h) + (h + c))


def _frozen_activations(shape: Shape, micro: int) -> float:
    """One micro-batch with every block checkpointed, 16-bit: what backward through a frozen base needs."""
    return sum(activation_bytes(shape, micro, 2, True).values()) + backward_temporary(shape, micro, 2, 2)


@dataclass(frozen=True)
class Option:
    name: str
    per_device: float  # bytes one device holds
    fits: bool
    arithmetic: str


def options_when_nothing_fits(shape: Shape, n: int, room: float) -> list[Option]:
    """What trains the model when its full state (16 bytes a parameter) fits no ``n`` devices of ``room``
    usable bytes: each with one micro-batch of one sequence, checkpointed, and its arithmetic. Lesson 08."""
    p, act = shape.parameters(), _frozen_activations(shape, 1)
    lora = lora_parameters(shape)
    g = lambda x: f"{x / GB:.3g} GB"  # noqa: E731
    over = f"/{n}" if n > 1 else ""
    rows = [("8-bit AdamW" + (f", FSDP over {n}" if n > 1 else ""), 6 * p / n,
             f"(2 weights + 2 grads + 2 states) B x {p / 1e9:.2f} bn{over}"),
            ("CPU offload of states and master weights" + (f", FSDP over {n}" if n > 1 else ""), 4 * p / n,
             f"(2 weights + 2 grads) B x {p / 1e9:.2f} bn{over}, host holds {g(12 * p)}"),
            ("LoRA r=16 on 16-bit weights" + (f", FSDP over {n}" if n > 1 else ""), 2 * p / n + 16 * lora,
             f"2 B x {p / 1e9:.2f} bn{over} + 16 B x {lora / 1e6:.0f} M adapter"),
            ("QLoRA r=16 (4-bit weights)", NF4_BYTES * p + 16 * lora,
             f"{NF4_BYTES:.2f} B x {p / 1e9:.2f} bn + 16 B x {lora / 1e6:.0f} M adapter")]
    return [Option(name, state + act, state + act <= room, f"{arith} + {g(act)} activations = {g(state + act)}")
            for name, state, arith in rows]


def devices_needed(shape: Shape, room: float) -> int | None:
    """FSDP devices of ``room`` usable bytes that full training (16 B a parameter, sharded) needs, with one
    checkpointed sequence a device; None when even the activations do not fit one."""
    left = room - _frozen_activations(shape, 1) - 3 * shape.block_parameters() * 2
    return math.ceil(16 * shape.parameters() / left) if left > 0 else None
