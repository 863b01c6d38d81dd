"""Lesson 06's memory calculator: the bytes one device holds for a training step of the course's GPT
(``utils.models.GPT``), line by line, for a precision, an optimizer, activation checkpointing and a strategy
over N devices. The widget (``widget.py``) draws it; the lesson and ``tests/test_memory.py`` check it against
measured memory.

    b = estimate(Shape(vocab=96, context=64, width=128, depth=4, heads=4), batch=16)
    b.lines["activations"], b.peak, b.fits(16e9)

Every line is a formula in the shape (no fitted constants): parameters ``P`` (the GPT's exact count), and
per parameter the bytes of weights, gradients, a master copy and each optimizer state (``PRECISIONS``,
``OPTIMIZER_STATES``); activations from what autograd saves for backward, layer by layer (``activation_bytes``).
A step's peak is the larger of two moments: the start of backward (weights, optimizer state, every saved
activation, the backward's largest temporary) and the optimizer step (weights, gradients, optimizer state and
the step's temporaries). Anchors: accelerate's ``estimate-memory`` counts the weights only; the Ultra-Scale
Playbook's predictor adds gradients, optimizer state and activations; this one is checked against measurement.
"""

from __future__ import annotations

from dataclasses import dataclass, field

# Bytes per element: weights, gradients, master copy, each optimizer state, activations; ``res``: the residual
# stream, the norms' inputs and the log-softmax (fp32 under autocast, which runs norms and the loss in fp32);
# ``copies``: a 16-bit copy of every matmul weight that autocast makes in the forward and backward reads.
PRECISIONS = {
    "fp32": dict(weights=4, grads=4, master=0, state=4, act=4, res=4, copies=0),
    "bf16": dict(weights=2, grads=2, master=0, state=2, act=2, res=2, copies=0),  # model.to(torch.bfloat16)
    # 16-bit weights and gradients, an fp32 master copy and states: the layout the ZeRO paper counts
    "bf16 mixed": dict(weights=2, grads=2, master=4, state=4, act=2, res=2, copies=0),
    "fp16 mixed": dict(weights=2, grads=2, master=4, state=4, act=2, res=2, copies=0),  # + loss scaling
    # torch.autocast as lesson 06 runs it: fp32 weights, gradients and states, no master copy
    "bf16 autocast": dict(weights=4, grads=4, master=0, state=4, act=2, res=4, copies=2),
    "fp16 autocast": dict(weights=4, grads=4, master=0, state=4, act=2, res=4, copies=2),
    "int8 weights": dict(weights=1, grads=0, master=0, state=0, act=2, res=2, copies=0),  # inference only
}
OPTIMIZER_STATES = {"sgd": 0, "sgd momentum": 1, "adamw": 2}  # tensors the size of the weights, per parameter
STRATEGIES = ("one device", "ddp", "pipeline", "zero1", "zero2", "fsdp", "tensor parallel")
# A T4 as the driver reports it: 14.75 GiB = 15.8 GB of the datasheet's 16 GB (lesson 06 uses this one figure;
# lesson 08 takes its margins, the CUDA context and fragmentation, off it).
T4_BYTES = 14.75 * 2**30
# Datasheet memory, bytes (1 GB = 1e9 bytes as NVIDIA quotes it); the T4: as its driver reports it.
DEVICE_MEMORY = {"T4 15.8 GB": T4_BYTES, "L4 24 GB": 24e9, "A100 40 GB": 40e9, "A100 80 GB": 80e9,
                 "H100 80 GB": 80e9, "H200 141 GB": 141e9}
STATS, INDEX = 4, 8  # LayerNorm's mean and 1/std per token and attention's log-sum-exp: fp32; token ids: int64


@dataclass(frozen=True)
class Shape:
    """The GPT's shape (``utils.models.GPTConfig``'s fields that set its memory). Lesson 06."""

    vocab: int
    context: int  # T: the sequence length of every batch
    width: int  # C
    depth: int  # blocks
    heads: int
    mlp_ratio: int = 4
    tied_head: bool = False  # the head's weight is the token embedding's (GPT-2); the course's GPT: untied

    def gpt_kwargs(self) -> dict:
        if self.tied_head:
            raise ValueError("the course's GPT (utils.models.GPT) has an untied head: this shape is for the "
                             "calculator only")
        return dict(vocab_size=self.vocab, context=self.context, width=self.width, depth=self.depth,
                    heads=self.heads, mlp_ratio=self.mlp_ratio)

    def block_parameters(self) -> int:
        c, h = self.width, self.mlp_ratio * self.width
        # two norms, qkv, attention's projection, the FFN's two layers
        return 2 * 2 * c + (3 * c * c + 3 * c) + (c * c + c) + (c * h + h) + (h * c + c)

    def parameters(self) -> int:
        """Exactly ``utils.models.count_parameters`` of the GPT (tested); with ``tied_head`` the head's weight
        is counted once, with the embedding (GPT-2 small: 124,439,808)."""
        c = self.width
        head = 0 if self.tied_head else c * self.vocab
        return (self.vocab * c + self.context * c) + self.depth * self.block_parameters() + 2 * c + head

    def matmul_weights(self) -> int:
        """Elements of the weights that matrix products read (the blocks' four and the head's): what autocast
        copies to 16 bits. Lesson 06."""
        c, h = self.width, self.mlp_ratio * self.width
        return self.depth * (3 * c * c + c * c + 2 * c * h) + self.vocab * c

    def describe(self) -> str:
        return (f"{self.depth} blocks of width {self.width} ({self.heads} heads), vocabulary {self.vocab}, "
                f"{self.context} tokens a sequence, {self.parameters() / 1e6:.2f} M parameters")


def activation_bytes(shape: Shape, batch: int, act: int, checkpointing: bool | str = False, split: int = 1,
                     loss_chunks: int = 1, res: int | None = None) -> dict:
    """What autograd saves for backward in one forward of ``batch`` sequences, by layer (bytes). Per block:
    the block's input, each norm's input, output and statistics, the qkv output (3C), attention's output and
    log-sum-exp, the projection's input, the FFN's hidden layer before and after GELU (4C each): 16 B·T·C
    elements. ``checkpointing=True``: a block keeps only its input, and backward recomputes one block at a
    time; ``"selective"``: a block keeps its input and its matmuls' and attention's outputs (11 B·T·C).
    ``split``: tensor parallelism over ``split`` devices divides the qkv, attention and FFN tensors.
    ``loss_chunks`` > 1: the chunked cross-entropy keeps no B·T·V log-softmax. ``res``: bytes of the
    residual stream, the norms' inputs and the log-softmax, where they differ from ``act`` (4 under autocast,
    which keeps the residual stream fp32 and runs norms and the loss in fp32; matmul inputs are 16-bit).
    Lesson 06."""
    b, t, c, v = batch, shape.context, shape.width, shape.vocab
    res = act if res is None else res
    sharded = (3 + 1 + 2 * shape.mlp_ratio) / split  # qkv, attention output, FFN hidden (before, after GELU)
    # two norms' inputs (the residual stream), their outputs as the matmuls read them, the sharded tensors
    block = (2 * res + (2 + sharded) * act) * b * t * c + 4 * b * t * STATS + b * shape.heads * t * STATS
    out = {"embedding": b * t * INDEX + t * INDEX}
    if checkpointing == "selective":  # input, qkv, attention, both projections' outputs, the FFN's first
        kept = (res + (2 + (3 + 1 + shape.mlp_ratio) / split) * act) * b * t * c + b * shape.heads * t * STATS
        out["blocks"] = shape.depth * kept
        out["one block recomputed"] = (3 + shape.mlp_ratio / split) * b * t * c * act + 4 * b * t * STATS
    elif checkpointing:
        out["blocks"] = shape.depth * b * t * c * res
        out["one block recomputed"] = block
    else:
        out["blocks"] = shape.depth * block
    # the norm's input, output and statistics, the targets, and (one piece) the log-softmax (B, T, V) and the
    # loss's weight sum
    out["head + loss"] = (res + act) * b * t * c + 2 * b * t * STATS + b * t * INDEX
    if loss_chunks == 1:
        out["head + loss"] += b * t * v * res + STATS
    return out


def backward_temporary(shape: Shape, batch: int, act: int, grads: int, loss_chunks: int = 1,
                       res: int | None = None) -> float:
    """The backward's largest temporary (bytes): the logits' and log-softmax's gradients (2 B·T·V), or an FFN
    hidden-layer gradient (4 B·T·C). Chunked: one slice's logits made again, its log-softmax and gradient
    (3 B·T·V / chunks), the head's weight gradient and the gradient of the norm's output. ``res``: the bytes
    of the loss's tensors where they differ from ``act`` (fp32 under autocast). Lesson 06."""
    b, t, c, v = batch, shape.context, shape.width, shape.vocab
    res = act if res is None else res
    ffn = b * t * shape.mlp_ratio * c * act
    if loss_chunks == 1:
        return max(2 * b * t * v * res, ffn)
    return max(3 * b * t * v * res / loss_chunks + b * t * c * act + v * c * grads, ffn)


@dataclass
class Budget:
    """One device's bytes for a training step: every line, and which of them are live at the peak."""

    lines: dict[str, float]  # parameters, gradients, master weights, optimizer, activations, temporary, ...
    at_peak: dict[str, float]  # the lines live at the peak moment (the stacked bar)
    peak_moment: str  # "backward" or "optimizer step"
    activations_by_layer: dict[str, float] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    config: dict = field(default_factory=dict)  # the inputs of ``estimate`` that made it

    @property
    def peak(self) -> float:
        return sum(self.at_peak.values())

    @property
    def state(self) -> float:
        """Parameters + gradients + master weights + optimizer state: what sharding divides."""
        return sum(self.lines[k] for k in ("parameters", "gradients", "master weights", "optimizer"))

    def fits(self, capacity: float) -> tuple[bool, float]:
        """Whether the peak fits ``capacity`` bytes, and the headroom left (negative: short by that much)."""
        return self.peak <= capacity, capacity - self.peak


def _shard_factors(strategy: str, n: int) -> dict[str, float]:
    """How much of each line one of ``n`` devices holds under ``strategy``."""
    full = dict(parameters=1.0, gradients=1.0, optimizer=1.0, activations=1.0)
    if strategy in ("one device", "ddp"):
        return full
    if strategy == "pipeline":
        return dict(parameters=1 / n, gradients=1 / n, optimizer=1 / n, activations=1 / n)
    if strategy == "tensor parallel":
        return full  # the blocks' weights are divided in estimate(); embedding and head stay whole
    divided = {"zero1": ("optimizer",), "zero2": ("optimizer", "gradients"),
               "fsdp": ("optimizer", "gradients", "parameters")}[strategy]
    return {k: (1 / n if k in divided else 1.0) for k in full}


def estimate(shape: Shape, batch: int, precision: str = "fp32", optimizer: str = "adamw",
             checkpointing: bool | str = False, strategy: str = "one device", n: int = 1,
             micro_batches: int = 1, loss_chunks: int = 1) -> Budget:
    """The bytes one device holds for a training step (``batch`` sequences per device per step, in
    ``micro_batches`` accumulated pieces), line by line, and the peak. Lesson 06."""
    if strategy not in STRATEGIES:
        raise ValueError(f"strategy must be one of {STRATEGIES}, not {strategy!r}")
    n = 1 if strategy == "one device" else n
    config = dict(shape=shape, batch=batch, precision=precision, optimizer=optimizer, checkpointing=checkpointing,
                  strategy=strategy, n=n, micro_batches=micro_batches, loss_chunks=loss_chunks)
    bpe, states = PRECISIONS[precision], OPTIMIZER_STATES[optimizer]
    trains = bpe["grads"] > 0
    p = shape.parameters()
    if strategy == "tensor parallel":  # the blocks' matrices split n ways
        p = p - shape.depth * shape.block_parameters() * (1 - 1 / n)
    f = _shard_factors(strategy, n)
    micro = max(1, batch // micro_batches)
    split = n if strategy == "tensor parallel" else 1
    by_layer = activation_bytes(shape, micro, bpe["act"], checkpointing, split, loss_chunks, bpe["res"])
    by_layer = {k: v * f["activations"] for k, v in by_layer.items()}
    lines = {"parameters": p * bpe["weights"] * f["parameters"],
             "gradients": p * bpe["grads"] * f["gradients"],
             "master weights": p * bpe["master"] * f["optimizer"],
             "optimizer": p * bpe["state"] * states * f["optimizer"] * trains,
             "activations": sum(by_layer.values()) if trains else 0.0,
             # autocast's 16-bit weight copies, saved for backward (the blocks' share split like the weights)
             "weight copies": bpe["copies"] * (shape.matmul_weights() - shape.depth * 12 * shape.width ** 2
                                               * (1 - 1 / split)) * f["parameters"]}
    c, h = shape.width, shape.mlp_ratio * shape.width
    backward_temp = backward_temporary(shape, micro, bpe["act"], bpe["grads"], loss_chunks, bpe["res"])
    largest = max(shape.vocab * c, c * h) * max(bpe["weights"], bpe["master"])
    step_temp = 2 * largest if trains and states else 0.0
    lines["temporary"] = backward_temp if trains else 0.0
    notes = []
    if strategy == "ddp":
        lines["communication"] = lines["gradients"]  # DDP's buckets: a second copy of the gradients
        notes.append("DDP copies gradients into buckets for the all-reduce "
                     "(gradient_as_bucket_view=True avoids it)")
    elif strategy == "fsdp":
        lines["communication"] = 2 * shape.block_parameters() * (bpe["weights"] + bpe["grads"]) * (1 - 1 / n)
        notes.append("FSDP gathers a block's full weights before it runs (and the next one ahead) and its full "
                     "gradients before the reduce-scatter")
    else:
        lines["communication"] = 0.0
    static = lines["parameters"] + lines["master weights"] + lines["optimizer"] + lines["communication"]
    accumulating = micro_batches > 1
    backward = dict(parameters=lines["parameters"], **{"master weights": lines["master weights"]},
                    optimizer=lines["optimizer"], gradients=lines["gradients"] if accumulating else 0.0,
                    activations=lines["activations"], temporary=lines["temporary"],
                    communication=lines["communication"], **{"weight copies": lines["weight copies"]})
    step = dict(parameters=lines["parameters"], **{"master weights": lines["master weights"]},
                optimizer=lines["optimizer"], gradients=lines["gradients"], activations=0.0,
                temporary=step_temp, communication=lines["communication"], **{"weight copies": 0.0})
    if not trains:
        backward = dict(parameters=lines["parameters"], activations=activation_bytes(
            shape, micro, bpe["act"])["head + loss"], temporary=0.0)
        notes.append("int8 weights cannot be trained directly: this is inference (no gradients, no optimizer)")
        return Budget(lines, backward, "forward", by_layer, notes, config)
    moment, at_peak = max((("backward", backward), ("optimizer step", step)), key=lambda m: sum(m[1].values()))
    assert static <= sum(at_peak.values())
    return Budget(lines, at_peak, moment, by_layer, notes, config)
