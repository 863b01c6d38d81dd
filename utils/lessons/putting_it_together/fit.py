"""Lesson 08's "does it fit?": what a training step really holds on a device under DDP with autocast and under
FSDP2, with the optimizer's own temporary, against a device's memory less a stated margin; and, when full
training fits nowhere, what does (an 8-bit optimizer, CPU offload, LoRA, QLoRA, more GPUs), with the bytes.

    h = held(shape, batch=32, precision="bf16", strategy="ddp", n=2)     # bytes one device holds
    h.peak, h.lines["gradients"], usable(80e9, gpu=True)

It builds on lesson 06's calculator (``utils.lessons.memory.calculator.estimate``: activations and the
backward's temporary, formula by formula) and replaces the lines where PyTorch's training code holds more than
a textbook layout:

* **DDP with autocast** keeps fp32 weights, fp32 gradients and fp32 AdamW states, a 16-bit copy of every
  matmul weight (autocast's cast cache, for the step), and a second copy of the gradients in DDP's buckets:
  4 + 4 + 8 + 2 + 4 = about 22 bytes a parameter (the 16-bit copies cover the matmul weights only: 1.94 B a
  parameter for the 7 B GPT; the "bf16 mixed" layout of the ZeRO paper counts 16). The calculator's
  ``"bf16 autocast"`` + ``"ddp"``.
* **FSDP2** (``fully_shard`` with ``MixedPrecisionPolicy(param_dtype=bf16)``) keeps the *sharded* parameters
  and their gradients in fp32 (the gradient takes the sharded parameter's dtype) and fp32 AdamW states:
  16 bytes a parameter / N; it gathers the root module's weights (embedding, head) for the whole step and one
  block ahead of the one that runs, in 16 bits, and a block's unsharded 16-bit gradient before its
  reduce-scatter (PyTorch's FSDP2 documentation, ``torch.distributed.fsdp.fully_shard``). Backward's moment
  counts the sharded fp32 gradients too: the blocks done keep theirs while the rest still hold activations.
* **Checkpointing**: full wraps each block (``apply_activation_checkpointing``: a block keeps its input,
  backward recomputes the rest); selective is PyTorch's ``create_selective_checkpoint_contexts`` with a policy
  that saves the outputs of the matmuls and attention (``aten.mm``, ``aten.addmm``,
  ``aten._scaled_dot_product_*``) and recomputes the norms and GELU (lesson 06's calculator, ``"selective"``).
* **AdamW's step**: the ``foreach`` implementation (PyTorch's default on CUDA) makes a temporary list of
  tensors the size of all the parameters it updates (``sqrt(v)``: 4 bytes a parameter); ``fused=True`` updates
  in one kernel per group with no such list; the for-loop one the largest tensor's size (PyTorch's
  ``torch.optim`` documentation: "foreach ... has a higher peak memory footprint than for-loop").
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from utils import claims
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


def _moments(lines: dict[str, float], first_gradients: float | None = None) -> tuple[float, str]:
    """The larger of backward and the optimizer step (lesson 06's two moments). ``first_gradients``: FSDP2's
    sharded gradient of what backward reaches first (the head); then, as backward goes down the blocks, each
    block done frees its activations and keeps its sharded gradient, so backward holds at most the larger of
    (all activations + that first gradient) and (all the sharded gradients)."""
    static = lines["parameters"] + lines["master weights"] + lines["optimizer"] + lines["communication"]
    held = lines["activations"] if first_gradients is None else max(lines["activations"] + first_gradients,
                                                                      lines["gradients"])
    backward = static + held + lines["temporary"] + lines["weight copies"]
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
    peak, moment = _moments(lines, first_gradients=4 * root / n)
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
    kind: str = ""  # "8-bit", "offload", "lora", "qlora": what ``link_bytes`` counts


def options_when_nothing_fits(shape: Shape, n: int, room: float) -> list[Option]:
    """What trains the model when its full state (16 bytes a parameter) fits no ``n`` devices of ``room``
    usable bytes: each with one micro-batch of one sequence, checkpointed, and its arithmetic. The layouts
    are this module's: autocast keeps fp32 weights and gradients (FSDP2 shards them), only the optimizer's
    states shrink to 8 bits; offload is ZeRO-Offload's (16-bit weights and gradients on the device, fp32
    master weights and states on the host); LoRA and QLoRA freeze the base. Lesson 08."""
    p, act = shape.parameters(), _frozen_activations(shape, 1)
    lora = lora_parameters(shape)
    # the printed parts (parameters to 0.01 bn, adapters and GB to 3 figures): each total is worked from them
    # as a reader redoes it, half up (t42_0708 #4: 12 x 6.86 + 0.729 is 83.0 GB, not 83.1 from the exact count)
    bn, adapter_m = claims.as_printed(p / 1e9, 2), claims.as_printed_sig(lora / 1e6)
    act_gb = claims.as_printed_sig(act / GB)
    over, fsdp = (f"/{n}", f", FSDP over {n}") if n > 1 else ("", "")
    eight = ("(4 fp32 weights + 4 fp32 grads + 2 states)", 10) if n > 1 else \
        ("(4 fp32 weights + 2 16-bit copies + 4 fp32 grads + 2 states)", 12)
    adapter = f" + 16 B x {claims.sig_text(lora / 1e6)} M adapter"
    # (name, kind, bytes a parameter on one device, adapter bytes, its arithmetic)
    rows = [("8-bit AdamW" + fsdp, "8-bit", eight[1] / n, 0, f"{eight[0]} B x {bn:.2f} bn{over}"),
            ("CPU offload of states and master weights" + fsdp, "offload", 4 / n, 0,
             f"(2 weights + 2 grads) B x {bn:.2f} bn{over}, host holds {claims.sig_text(12 * bn)} GB"),
            ("LoRA r=16 on 16-bit weights" + fsdp, "lora", 2 / n, 16, f"2 B x {bn:.2f} bn{over}" + adapter),
            ("QLoRA r=16 (4-bit weights)" + (f", DDP over {n}" if n > 1 else ""), "qlora", NF4_BYTES, 16,
             f"{NF4_BYTES:.2f} B x {bn:.2f} bn" + adapter)]
    out = []
    for name, kind, per_param, per_adapter, arith in rows:
        exact = per_param * p + per_adapter * lora + act
        shown = per_param * bn + per_adapter * adapter_m / 1e3 + act_gb   # GB, from the printed parts
        out.append(Option(name, exact, exact <= room, f"{arith} + {claims.sig_text(act / GB)} GB activations = "
                          f"{claims.sig_text(shown)} GB", kind))
    return out


def link_bytes(shape: Shape, kind: str, n: int) -> tuple[float, str]:
    """Bytes an option moves over the link for one micro-batch, and what they are: FSDP gathers 16-bit
    weights twice (forward, backward) and reduce-scatters 16-bit gradients; LoRA's frozen base has no gradient
    to reduce-scatter; QLoRA with DDP keeps a whole base on each device and all-reduces the adapters' fp32
    gradients (once a step with no_sync: a micro-batch is the most it costs). On a ring of n, an all-gather or
    a reduce-scatter moves (n-1)/n of the tensor, an all-reduce (one of each) 2(n-1)/n. Lesson 08."""
    p, lora, ring = shape.parameters(), lora_parameters(shape), (n - 1) / n
    if kind == "qlora":   # the adapters as printed (33.5 M), so that 4 B x 33.5 M is the printed 0.134 GB
        lora = float(f"{lora:.3g}")
        return 2 * ring * 4 * lora, f"all-reduce 2(n-1)/n x 4 B x {lora / 1e6:.3g} M"
    if kind == "lora":
        return 2 * ring * 2 * p, f"two all-gathers, 2 x (n-1)/n x 2 B x {p / 1e9:.2f} bn"
    host = f" (+ 4 B x {p / 1e9:.2f} bn/{n} to and from the host a step)" if kind == "offload" else ""
    return 3 * ring * 2 * p, (f"two all-gathers + a reduce-scatter, 3 x (n-1)/n x 2 B x {p / 1e9:.2f} "
                              f"bn{host}")


def devices_needed(shape: Shape, room: float) -> int | None:
    """FSDP devices of ``room`` usable bytes that full training (16 B a parameter, sharded) needs, with one
    checkpointed sequence a device; None when even the activations do not fit one. Worked from the GB the guide
    prints (``printed_gb``), so a reader who redoes the division finds the count printed beside it."""
    state, room_gb = printed_gb(16 * shape.parameters()), printed_gb(room)
    left = room_gb - printed_gb(_frozen_activations(shape, 1)) - printed_gb(gathered_blocks(shape))
    return math.ceil(state / left) if left > 0 else None


def printed_gb(x: float) -> float:
    """Bytes as the guide prints them ("110 GB", to 3 significant figures): one quantity, one printed figure
    (t38_0708 #3: "110 GB" and "109.8 GB" for the same state, "10.9 GB" and "10.87 GB" for the same room)."""
    return float(f"{x / GB:.3g}")


def gathered_blocks(shape: Shape) -> float:
    """Bytes FSDP2 holds unsharded besides the shards: three blocks' 16-bit weights (the one that runs, the one
    gathered ahead, and a block's 16-bit gradient before its reduce-scatter)."""
    return 3 * shape.block_parameters() * 2


def devices_needed_arithmetic(shape: Shape, room: float) -> str:
    """``devices_needed``'s terms, so that a reader can redo it: 16 B x P over what a device has left."""
    need, acts, gathered = devices_needed(shape, room), _frozen_activations(shape, 1), gathered_blocks(shape)
    return (f"16 B x {shape.parameters() / 1e9:.3g} bn = {16 * shape.parameters() / GB:.3g} GB over "
            f"({room / GB:.3g} GB usable - {acts / GB:.3g} GB of one checkpointed sequence's activations - "
            f"{gathered / GB:.3g} GB of three blocks' gathered 16-bit weights) = "
            + (f"{need} devices, rounded up" if need else "nothing: the activations alone do not fit"))
