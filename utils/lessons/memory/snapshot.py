"""Lesson 06, section 6: what a memory snapshot shows, and how to read an out-of-memory message.

    series = memory_timeline(step, model, optimizer, device)   # bytes live after each event of one step
    plot_timeline(series, title="...")                         # memory over the step, by line where known
    message = real_oom(device) or simulated_oom(...)            # the allocator's message, real on a GPU
    read_oom(message)                                           # [(field, value, what it tells you), ...]

On a GPU, ``torch.cuda.memory._record_memory_history`` records every allocation and free of the caching
allocator, and ``torch.cuda.memory._snapshot()`` returns them: the data https://pytorch.org/memory_viz draws.
``memory_timeline`` adds them up into the bytes allocated after each event. On the CPU there is no allocator
history; torch's ``MemTracker`` (the tracker of section 1) sees every tensor and its line instead, and the
series holds those lines after each operation.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import torch

from utils import claims, plots
from utils.lessons.memory.widget import LINE_COLORS

LINES = ("parameters", "optimizer", "gradients", "activations", "temporary")  # bottom to top of the stack
_TRACKER_NAMES = {"PARAM": "parameters", "OPT": "optimizer", "GRAD": "gradients", "ACT": "activations",
                  "TEMP": "temporary"}


def memory_timeline(step: Callable, model, optimizer, device) -> list[dict]:
    """Bytes live after each event of one call of ``step()`` (run once before, to create AdamW's state): on
    the CPU one dict per operation, by line, with its phase ("forward", "backward", "optimizer step"); on a
    GPU one dict per allocator event, {"allocated": bytes}. Lesson 06."""
    step()
    if torch.device(device).type == "cuda":
        return _gpu_timeline(step, torch.device(device))
    return _cpu_timeline(step, model, optimizer)


def _cpu_timeline(step: Callable, model, optimizer) -> list[dict]:
    from utils.lessons.memory.measure import step_tracker

    tracker = step_tracker()
    series, seen_backward = [], [False]
    dispatch = type(tracker).__torch_dispatch__

    def recording(self, func, types, args=(), kwargs=None):  # after every operation: the lines live now
        out = dispatch(self, func, types, args, kwargs)
        now = next(iter(self.get_tracker_snapshot("current").values()))
        backward = self._mod_tracker.is_bw
        seen_backward[0] |= backward
        phase = "backward" if backward else ("optimizer step" if seen_backward[0] else "forward")
        series.append({"phase": phase, **{_TRACKER_NAMES[k.name]: float(v) for k, v in now.items()
                                          if getattr(k, "name", None) in _TRACKER_NAMES}})
        return out

    tracker.__class__ = type("RecordingTracker", (type(tracker),), {"__torch_dispatch__": recording})
    tracker.track_external(model, optimizer)  # weights and optimizer state, made before the step
    with tracker:
        step()
    return series


def _gpu_timeline(step: Callable, device: torch.device) -> list[dict]:
    torch.cuda.synchronize(device)
    start = torch.cuda.memory_allocated(device)
    torch.cuda.memory._record_memory_history(max_entries=200_000)
    try:
        step()
        torch.cuda.synchronize(device)
        snapshot = torch.cuda.memory._snapshot()
    finally:
        torch.cuda.memory._record_memory_history(enabled=None)
    live, series = start, []
    for event in snapshot["device_traces"][device.index or 0]:
        change = {"alloc": 1, "free_completed": -1}.get(event["action"], 0)  # segments: cache, not tensors
        if change:
            live += change * event["size"]
            series.append({"allocated": float(live)})
    return series


def plot_timeline(series: list[dict], title: str, simulated: bool = False):
    """Memory over one step: the lines stacked where the tracker named them (CPU), else the allocated total
    (a GPU); the forward, backward and optimizer step marked where known; the peak marked. Lesson 06."""
    fig, (ax,) = plots.new_figure(rows=1, row_height=3.2)
    x = range(len(series))
    lines = [k for k in LINES if any(s.get(k) for s in series)]
    if lines:
        ax.stackplot(x, *[[s.get(k, 0.0) / 1e6 for s in series] for k in lines], labels=lines,
                     colors=[LINE_COLORS[k] for k in lines], alpha=0.85)
        totals = [sum(s.get(k, 0.0) for k in lines) for s in series]
        ax.set_xlabel("operations of one training step, in order")
    else:
        totals = [s["allocated"] for s in series]
        ax.fill_between(x, [t / 1e6 for t in totals], color=LINE_COLORS["activations"], alpha=0.85,
                        label="allocated")
        ax.set_xlabel("allocator events of one training step, in order")
    phases = [s.get("phase") for s in series]
    for phase in ("forward", "backward", "optimizer step"):  # a dashed line where each phase starts
        where = [i for i, p in enumerate(phases) if p == phase]
        if where:
            if where[0] > 0:
                ax.axvline(where[0], color="0.4", linestyle="--", lw=1)
            ax.text((where[0] + where[-1]) / 2, 1.01, phase, transform=ax.get_xaxis_transform(), ha="center",
                    va="bottom", fontsize=8, color="0.3")
    peak = max(range(len(totals)), key=totals.__getitem__)
    # two decimals, as the sentence under the plot prints the same peak (t39_0506 #5)
    ax.annotate(f"peak {totals[peak] / 1e6:.2f} MB", (peak, totals[peak] / 1e6), xytext=(6, 4),
                textcoords="offset points", ha="left", fontsize=8)
    ax.set_ylabel("MB live")
    ax.legend(loc="upper left", fontsize=8, ncol=len(lines) or 1)
    ax.set_ylim(0, max(totals) / 1e6 * 1.25)
    plots.stamp_simulated(fig, simulated)
    return plots.finish(fig, title)


# --- the out-of-memory message ------------------------------------------------------------------------------

def format_size(n: float) -> str:
    """Bytes as the CUDA caching allocator prints them: "1.22 GiB", "959.44 MiB", "12.00 KiB", "512 bytes"."""
    for unit, scale in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if n >= scale:
            return f"{n / scale:.2f} {unit}"
    return f"{n:.0f} bytes"


def printed_bytes(n: float) -> float:
    """``n`` bytes as ``format_size`` prints them, back in bytes: 15.013 GiB -> 15.01 GiB's bytes."""
    for scale in (2**30, 2**20, 2**10):
        if n >= scale:
            return claims.as_printed(n, 2, scale) * scale
    return round(n)


def simulated_oom(request: float, capacity: float, allocated: float, reserved_unused: float = 0.0,
                  other_processes: float = 0.0, pid: int = 12345, context: float = 0.0) -> str:
    """The message the CUDA caching allocator raises, with its fields filled from given figures (lesson 06, on
    the CPU, where there is no allocator to run out): ``request`` the allocation that failed, ``capacity`` the
    GPU's memory as the driver reports it, ``allocated`` the bytes in tensors, ``reserved_unused`` cached but
    unallocated, ``other_processes`` the driver's and other programs' share, ``context`` the process's CUDA
    context (kernels, driver state: memory the process holds that PyTorch does not allocate)."""
    held = allocated + reserved_unused + context
    # free from the capacity and this process's memory as printed: a reader who takes 13.98 GiB from 14.75 GiB
    # finds the free figure beside them (the real allocator's fields are rounded apart; these are ours)
    free = max(printed_bytes(capacity) - printed_bytes(held) - other_processes, 0)
    mine, cached = format_size(held), format_size(reserved_unused)
    return (f"CUDA out of memory. Tried to allocate {format_size(request)}. GPU 0 has a total capacity of "
            f"{format_size(capacity)} of which {format_size(free)} is free. Process {pid} has {mine} memory "
            f"in use. Of the allocated memory {format_size(allocated)} is allocated by PyTorch, and {cached} "
            "is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting "
            "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for "
            "Memory Management  (https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)")


def first_failure(shape, batch: int, capacity: float, precision: str = "fp32"
                  ) -> tuple[float, float, str] | None:
    """Where a training step of ``shape`` first runs out of ``capacity`` bytes, by the calculator, walking the
    step's allocations in order: (the request that fails, bytes allocated before it, what it is), or None if
    the step fits. The allocations: weights and AdamW state, the blocks' activations (one FFN hidden layer at
    a time), the logits, their log-softmax, then the logits' gradient at the start of backward. Lesson 06."""
    from utils.lessons.memory.calculator import estimate

    budget = estimate(shape, batch, precision=precision)
    b, t, c, v = batch, shape.context, shape.width, shape.vocab
    act = budget.lines["activations"] and budget.activations_by_layer
    logits = b * t * v * 4  # the logits are made fp32 for the loss in every precision here
    static = sum(budget.lines[k] for k in ("parameters", "master weights", "optimizer", "weight copies"))
    blocks = act["embedding"] + act["blocks"] + act["head + loss"] - logits  # all but the log-softmax
    hidden = b * t * shape.mlp_ratio * c * 4  # the largest tensor a block makes
    allocated = 0.0
    for what, size, pieces in (("weights and AdamW state", static, 1), ("the blocks' activations", blocks,
                                                                       max(1, round(blocks / hidden))),
                               ("the logits", logits, 1), ("the logits' log-softmax", logits, 1),
                               ("the logits' gradient", logits, 1)):
        piece = size / pieces
        for _ in range(pieces):
            if allocated + piece > capacity:
                return piece, allocated, what
            allocated += piece
        if what == "the logits' log-softmax":
            allocated -= logits  # the logits themselves are not kept for backward
    return None


def real_oom(device) -> str | None:
    """On a GPU: ask for more than the GPU holds and return the allocator's message (nothing is allocated);
    None on the CPU. Lesson 06."""
    device = torch.device(device)
    if device.type != "cuda":
        return None
    too_much = torch.cuda.get_device_properties(device).total_memory + 2**30
    try:
        torch.empty(too_much, dtype=torch.uint8, device=device)
    except torch.OutOfMemoryError as error:
        return str(error)
    return None


_SIZE = r"([\d.]+ (?:GiB|MiB|KiB|bytes))"
NOT_IN_MESSAGE = "(not in this message)"
_FIELDS = [  # (field, pattern, what it tells you)
    ("tried to allocate", rf"Tried to allocate {_SIZE}",
     "the one allocation that failed: often the step's largest tensor (the logits, an FFN hidden layer)"),
    ("total capacity", rf"total capacity of {_SIZE}", "the GPU's memory as the driver reports it"),
    ("free", rf"of which {_SIZE} is free", "what no process holds: smaller than the request, so it failed"),
    ("this process", rf"Process \d+ has {_SIZE} memory in use",
     "every process on the GPU is listed: others (a second notebook) count against you"),
    ("allocated by PyTorch", rf"{_SIZE} is allocated by PyTorch",
     "your tensors: weights, gradients, optimizer state, activations (the calculator's lines)"),
    ("reserved but unallocated", rf"{_SIZE} is reserved by PyTorch but unallocated",
     "cached free blocks: large means fragmentation (expandable_segments), small: the step does not fit"),
    ("the allocator's advice", r"If reserved but unallocated memory is large try setting (\S+?)\.?(?:\s|$)",
     "printed in every such message, for one case: it applies only where the field above is large"),
]


def read_oom(message: str) -> list[tuple[str, str, str]]:
    """The out-of-memory message, field by field: (field, value, what it tells you). Lesson 06."""
    rows = []
    for field, pattern, meaning in _FIELDS:
        found = re.search(pattern, message)
        rows.append((field, found.group(1) if found else NOT_IN_MESSAGE, meaning))
    return rows


def diagnosis(message: str) -> str:
    """One sentence: does the step not fit, or does fragmentation waste the memory? It reads the message's own
    advice too (expandable_segments), which holds only in the second case. Lesson 06."""
    fields = {field: value for field, value, _ in read_oom(message)}
    cached, request = (_bytes(fields[k]) for k in ("reserved but unallocated", "tried to allocate"))
    setting = fields["the allocator's advice"]
    advice = (f"the message's own advice ({setting}, \"if reserved but unallocated memory is large\")"
              if setting != NOT_IN_MESSAGE else "expandable_segments")
    if cached is not None and request is not None and cached >= request:
        return ("the cache holds more than the request in free blocks, none of them large enough: "
                f"fragmentation; {advice} applies: set it before the process's first allocation")
    return ("the cache holds less than the request: the step needs more memory than the GPU has, and "
            f"{advice} does not apply (the cached remainder is not large); take bytes off a line "
            "(checkpointing, accumulation, precision, sharding)")


def _bytes(value: str) -> float | None:
    found = re.fullmatch(r"([\d.]+) (GiB|MiB|KiB|bytes)", value)
    if not found:
        return None
    return float(found.group(1)) * {"GiB": 2**30, "MiB": 2**20, "KiB": 2**10, "bytes": 1}[found.group(2)]
