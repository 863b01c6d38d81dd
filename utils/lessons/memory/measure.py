"""Lesson 06's measurements: the memory a training step really takes, on CPU and on a GPU, and its time.

    step = training_step(model, optimizer, x, y)                  # one optimizer step, as a function
    m = measure_peak(step, model, optimizer, device)              # m.peak, m.lines (bytes), m.how
    saved_by_layer(model, x, y)                                   # activations autograd saves, by layer
    saved_weight_copies(model, x, y, autocast_loss())             # autocast's 16-bit weight copies kept

On a GPU the peak is ``torch.cuda.max_memory_allocated`` over the step. On the CPU there is no allocator to ask,
so a tracker sees every tensor instead: torch's ``MemTracker`` (``torch.distributed._tools.mem_tracker``, a
dispatch mode that records each tensor as it is created and freed, and sorts it into parameters, gradients,
optimizer state, activations and temporaries). ``saved_by_layer`` uses saved-tensor hooks: autograd hands
every tensor it keeps for backward to the hook, which adds up their storages per layer.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from typing import Callable

import torch
from torch.utils._python_dispatch import TorchDispatchMode
from torch.utils.checkpoint import checkpoint

from utils import bench, claims, models

CATEGORIES = {"PARAM": "parameters", "GRAD": "gradients", "OPT": "optimizer", "ACT": "activations",
              "TEMP": "temporary", "BUFFER": "buffers", "OTH": "other"}


def plain_loss(model: models.GPT, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """The GPT's mean next-token loss: every activation kept for backward. Lesson 06."""
    return models.cross_entropy(model(x), y)


def checkpointed_loss(model: models.GPT, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """The same loss with activation checkpointing: each block keeps only its input, and backward runs the
    block's forward again to get the rest (non-reentrant ``torch.utils.checkpoint``). Lesson 06."""
    h = model.embed(x)
    for block in model.blocks:
        h = checkpoint(block, h, use_reentrant=False)
    return models.cross_entropy(model.head(h), y)


def training_step(model, optimizer, x, y, micro_batches: int = 1, loss_fn: Callable = plain_loss) -> Callable:
    """``step() -> loss``: one optimizer step on the batch ``(x, y)``, in ``micro_batches`` accumulated pieces
    (each loss divided by their number, so the gradient is the whole batch's mean). Lesson 06."""
    def step() -> float:
        total = 0.0
        for xs, ys in zip(x.chunk(micro_batches), y.chunk(micro_batches)):
            loss = loss_fn(model, xs, ys) / micro_batches
            loss.backward()  # gradients add up in .grad until the step
            total += loss.item()
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)  # frees the gradients: the next forward starts without them
        return total
    return step


@dataclass
class Measured:
    """A step's measured peak (bytes) and, where the tracker sorts them, the lines live at that moment."""

    peak: float
    lines: dict[str, float]
    how: str  # what measured it
    # what the step returned each time it ran: the loss at the start, then after one optimizer step. Steps of
    # the same start and batch in two precisions compare by them (``report.loss_check``).
    losses: tuple = ()


def measure_peak(step: Callable, model: torch.nn.Module, optimizer, device) -> Measured:
    """The peak memory of ``step()``, run twice (the first creates the optimizer's state), the second
    measured. Lesson 06."""
    first = step()
    if torch.device(device).type == "cuda":
        torch.cuda.synchronize(device)
        # Tensors on the GPU that are not this step's (other models of the notebook, the batch) are left out:
        # the peak counts the model's own weights and state, as the CPU's tracker does.
        others = torch.cuda.memory_allocated(device) - held_bytes(model, optimizer)
        torch.cuda.reset_peak_memory_stats(device)
        second = step()
        torch.cuda.synchronize(device)
        return Measured(torch.cuda.max_memory_allocated(device) - others, {},
                        "torch.cuda.max_memory_allocated, less what else was on the GPU", (first, second))
    tracker = step_tracker()
    tracker.track_external(model, optimizer)  # tensors made before it started: weights, optimizer state
    with tracker:
        second = step()
    snapshot = next(iter(tracker.get_tracker_snapshot("peak").values()))
    lines = {CATEGORIES[k.name]: float(v) for k, v in snapshot.items() if k != "Total" and v}
    return Measured(float(snapshot["Total"]), lines, "MemTracker (every CPU tensor)", (first, second))


def held_bytes(model: torch.nn.Module, optimizer) -> int:
    """Bytes of the model's weights and gradients and the optimizer's state tensors, from their sizes. Lesson 06."""
    tensors = list(model.parameters()) + [p.grad for p in model.parameters() if p.grad is not None]
    tensors += [v for s in optimizer.state.values() for v in s.values() if torch.is_tensor(v)]
    return sum(t.numel() * t.element_size() for t in tensors)


def step_tracker():
    """torch's ``MemTracker``, able to see the model called more than once in a step (gradient accumulation):
    its per-module statistics, which this lesson does not read, start afresh at each top-level call. Lesson 06."""
    from torch.distributed._tools.mem_tracker import MemTracker

    class StepTracker(MemTracker):
        def _pre_fw_hook(self, module, inputs):
            mods = self._mod_tracker
            if (not mods.is_bw and module in self.memory_tracking
                    and set(mods.parents) <= {"Global", mods.get_known_fqn(module)}):
                self.reset_mod_stats()  # a new top-level forward: only the device totals carry on
            super()._pre_fw_hook(module, inputs)

    return StepTracker()


def saved_by_layer(model: models.GPT, x: torch.Tensor, y: torch.Tensor,
                   loss_fn: Callable = plain_loss) -> dict:
    """Bytes of the tensors autograd saves for backward in one forward, by the layer that saved them (each
    storage counted once; the weights, saved by every linear layer, are not activations). Lesson 06."""
    weights = {p.untyped_storage().data_ptr() for p in model.parameters()}
    seen: dict[int, int] = {}
    by_layer: dict[str, int] = {}
    current = ["embedding"]

    def pack(t):
        storage = t.untyped_storage()
        key = storage.data_ptr()
        if key not in weights and key not in seen:
            seen[key] = storage.nbytes()
            by_layer[current[0]] = by_layer.get(current[0], 0) + storage.nbytes()
        return t

    def entering(name):
        return lambda module, args: current.__setitem__(0, name)

    names = [("embedding", model.embed)] + [(f"block {i}", b) for i, b in enumerate(model.blocks)]
    names.append(("head + loss", model.head))
    handles = [m.register_forward_pre_hook(entering(n)) for n, m in names]
    try:
        with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
            loss = loss_fn(model, x, y)
    finally:
        for h in handles:
            h.remove()
    del loss
    return by_layer


class _WeightCasts(TorchDispatchMode):
    """Records every copy of a parameter made in a different dtype (autocast's casts): storage -> bytes."""

    def __init__(self, parameters: set[int]):
        super().__init__()
        self.parameters, self.copies = parameters, {}
        self.kept = []  # every copy held until the mode exits: a freed copy's address, reused by another saved
        #                 tensor, would count that tensor as a copy (seen in CI: 128 bytes too many)

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        source = args[0] if args else None
        if func is torch.ops.aten._to_copy.default and torch.is_tensor(source) \
                and source.untyped_storage().data_ptr() in self.parameters:
            self.copies[out.untyped_storage().data_ptr()] = out.untyped_storage().nbytes()
            self.kept.append(out)
        return out


def saved_weight_copies(model: models.GPT, x: torch.Tensor, y: torch.Tensor, loss_fn: Callable) -> float:
    """Bytes of the 16-bit weight copies that autocast makes in one forward of ``loss_fn`` and autograd saves
    for backward: casts of a parameter (seen by a dispatch mode) that reach the saved-tensor hook. The memory
    tracker has no line for them; made in the forward, they count among its activations. Lesson 06."""
    casts = _WeightCasts({p.untyped_storage().data_ptr() for p in model.parameters()})
    saved: dict[int, int] = {}

    def pack(t):
        key = t.untyped_storage().data_ptr()
        if key in casts.copies:
            saved[key] = casts.copies[key]
        return t

    with casts, torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        loss = loss_fn(model, x, y)
    del loss
    return float(sum(saved.values()))


def blocks_forward(model: models.GPT, x) -> Callable:
    """What checkpointing's backward runs again, as a function: the blocks' forward, recording the graph as the
    recomputation does (the embedding, which is not recomputed, gives their input once). Lesson 06."""
    with torch.no_grad():
        h0 = model.embed(x)

    def blocks():
        h = h0.requires_grad_()
        for block in model.blocks:
            h = block(h)

    return blocks


def loss_forward(model: models.GPT, x, y, loss_fn: Callable = plain_loss) -> Callable:
    """A step's first part, as a function: ``loss_fn``'s forward, recording the graph (and saving what it
    saves), then dropped with no backward. A step's time less this one is its backward and AdamW. Lesson 06."""
    def forward():
        loss_fn(model, x, y)

    return forward


def interleaved_rounds(calls: dict[str, Callable], device, repeats: int = 7) -> dict[str, list[float]]:
    """Seconds of each call in each of ``repeats`` rounds, the calls taking turns (one warm-up each first): a
    machine busy with something else for a while slows them all, not one of them. Lesson 06."""
    for fn in calls.values():
        fn()
    samples = {name: [] for name in calls}
    for _ in range(repeats):
        for name, fn in calls.items():
            samples[name].append(bench.measure(fn, warmup=0, repeats=1, device=device).min)
    return samples


def interleaved_seconds(calls: dict[str, Callable], device, repeats: int = 7) -> dict[str, float]:
    """Seconds of each call, the fastest of ``interleaved_rounds``: the least disturbed. Lesson 06."""
    return {name: min(times) for name, times in interleaved_rounds(calls, device, repeats).items()}


def paired_spread(rounds: dict[str, list[float]], slow: str, fast: str) -> float:
    """The noise of the speed-up min(slow) / min(fast): ``claims.paired_spread`` of the rounds' ratios, each
    round's two times taken together (half their middle half's range). Lesson 06."""
    return claims.paired_spread([a / b for a, b in zip(rounds[slow], rounds[fast])])


def round_ratios(rounds: dict[str, list[float]], name: str, reference: str) -> list[float]:
    """Each interleaved round's own ratio, ``name``'s step time x ``reference``'s (above 1: slower), divided from
    the two times as the tables print them (0.1 ms: 138.4 / 136.2, a reader's division). Lesson 06."""
    return [claims.printed_ratio(a, b, 1, 1e-3) for a, b in zip(rounds[name], rounds[reference])]


def step_ratio(rounds: dict[str, list[float]], name: str, reference: str,
               floor: float = 0.02) -> tuple[float, float, list[float]]:
    """``name``'s step time x ``reference``'s (above 1: slower) from interleaved rounds, read pair by pair: the
    median of each round's own ratio (``round_ratios``) as printed (2 decimals), rounded half up as a reader
    does; its noise, ``claims.printed_spread`` of those ratios, at least ``floor`` (the lesson's 2 %: the one
    spread that its table and its sentence both print); and each round's ratio. Not the fastest of each
    divided: those may come from different rounds, each met at its own moment of the machine's load (section
    5's first reading gave 1.08x that way where the rounds' median was 1.10x). Lesson 06."""
    each = round_ratios(rounds, name, reference)
    median = claims.half_up(statistics.median([claims.as_printed(r, 2) for r in each]), 2)
    return median, max(claims.printed_spread(each), floor), each


def new_model(shape, device, dtype=torch.float32, lr: float = 1e-3):
    """The lesson's GPT (seed 0) on ``device`` in ``dtype``, and its AdamW. Lesson 06."""
    model = models.small_gpt(**shape.gpt_kwargs(), seed=0).to(device=device, dtype=dtype)
    return model, torch.optim.AdamW(model.parameters(), lr=lr)


def batch_of(shape, batch: int, device, seed: int = 0) -> tuple[torch.Tensor, torch.Tensor]:
    """``batch`` random token sequences and their next tokens (memory does not depend on the values). Lesson 06."""
    g = torch.Generator().manual_seed(seed)
    tokens = torch.randint(0, shape.vocab, (batch, shape.context + 1), generator=g)
    return tokens[:, :-1].contiguous().to(device), tokens[:, 1:].contiguous().to(device)


def record_snapshot(step: Callable, device, path: str = "results/memory-snapshot.pickle") -> str | None:
    """On a GPU: run ``step()`` with the allocator's history recorded and write the snapshot to ``path`` (drag
    it onto https://pytorch.org/memory_viz to see every allocation over time, with its stack). None on the
    CPU, where there is no allocator history to record. Lesson 06."""
    if torch.device(device).type != "cuda":
        return None
    import os

    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    torch.cuda.memory._record_memory_history(max_entries=100_000)
    try:
        step()
        torch.cuda.synchronize(device)
        torch.cuda.memory._dump_snapshot(path)
    finally:
        torch.cuda.memory._record_memory_history(enabled=None)
    return path
