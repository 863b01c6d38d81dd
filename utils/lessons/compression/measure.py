"""What lesson 04 (``notebooks/04_compression.ipynb``) measures about a model, kept apart from the techniques:
stored bytes (state dict), sparsity, multiply-accumulates, bytes kept for the backward pass, and latency timed
interleaved on the input's device.

    model_bytes(model)                  # stored bytes: the state dict as torch.save writes it
    sparsity(model)                     # fraction of zero weights in Conv2d / Linear layers
    macs(model, (1, 28, 28))            # multiply-accumulates of one image's forward pass
    x = timed_batch(test_set, 256, "cpu")                 # the images every model is timed on
    times = compare_latency({"fp32": m, "int8": q}, x)   # interleaved, on x's device: same machine noise
    timing_note(times)                  # how the times were taken; a warning when the machine was busy
    speedup_cells(times, "fp32", "int8")    # speedup, its round-to-round noise, "within noise" or "beyond"
    speedup(m, q, x)                    # fastest run of m / fastest run of q
    layer_inputs(model, ["bn1"], x)     # what a layer receives, to time it alone
    saved_bytes_by_dtype(model, x, torch.bfloat16)   # what autograd keeps for backward, per dtype
    bf16_support(), int8_support()      # the CPU's bf16 and int8 instructions, from /proc/cpuinfo
    time_by_op(model, x)                # [("aten::_int_mm", 0.41), ...]: where a pass spends its time

Accuracy is ``utils.models.accuracy`` (a fraction); timing is ``utils.bench.measure`` on ``bench.threads``.
"""

from __future__ import annotations

import copy
import io
import statistics

import torch
from torch import nn

from utils import bench, claims
from utils.lessons.why_slow.profile import without_profiler_notices  # kineto's start/stop lines only

__all__ = [
    "WEIGHT_LAYERS", "model_bytes", "sparsity", "macs", "to_device", "timed_batch", "compare_latency", "speedup",
    "spread", "ratio_noise", "printed_ratio_spread", "spread_digits", "noise_text", "verdict", "compare", "against_bound", "NOISY_SPREAD", "timing_note",
    "TIMING_COLUMNS", "SPEEDUP_COLUMNS", "timing_cells", "speedup_cells", "layer_inputs", "saved_bytes_by_dtype",
    "saved_activation_bytes", "Replay", "share_reference", "cpu_flags", "bf16_support", "int8_support",
    "time_by_op",
]

# Weights live in these layers; pruning and sparsity look only at them (biases and norms are tiny).
WEIGHT_LAYERS = (nn.Conv2d, nn.Linear)


# ------------------------------------------------------------------------------------------------ bytes


def model_bytes(model: nn.Module) -> int:
    """Stored bytes: ``model.state_dict()`` as ``torch.save`` writes it (parameters, buffers, masks, packed int8).

    Measured, not computed: quantized layers keep their weights in packed objects that ``parameters()``
    does not list, and pruning adds ``weight_mask`` buffers; the saved file sees both. Lesson 04.
    """
    buffer = io.BytesIO()
    torch.save(model.state_dict(), buffer)
    return buffer.getbuffer().nbytes


def sparsity(model: nn.Module) -> float:
    """Fraction of exactly-zero weights over every Conv2d and Linear layer (0.0 dense, 0.9 = 90 % zeros).

    With pruning masks in place ``module.weight`` is the masked weight, so this counts what the model uses.
    Lesson 04.
    """
    zeros = total = 0
    for module in model.modules():
        if isinstance(module, WEIGHT_LAYERS):
            zeros += int((module.weight == 0).sum())
            total += module.weight.numel()
    return zeros / total if total else 0.0


def macs(model: nn.Module, input_shape: tuple[int, ...], layers: tuple[type, ...] = WEIGHT_LAYERS) -> int:
    """Multiply-accumulates of one sample's forward pass through the Conv2d and Linear layers (FLOPs ≈ 2×).

    ``input_shape`` excludes the batch: (1, 28, 28) for a digit image. Counted with forward hooks on a
    zero input of batch 1, so it follows whatever shapes the model really has (e.g. after channel removal).
    ``layers``: which kinds to count, ``(nn.Conv2d,)`` for the convolutions' part alone. Lesson 04.
    """
    total = 0

    def count(module, inputs, output):
        nonlocal total
        if isinstance(module, nn.Conv2d):  # each output value: in_channels/groups * kh * kw MACs
            kh, kw = module.kernel_size
            total += output.numel() * (module.in_channels // module.groups) * kh * kw
        elif isinstance(module, nn.Linear):
            total += output.numel() * module.in_features

    handles = [m.register_forward_hook(count) for m in model.modules() if isinstance(m, layers)]
    try:
        with torch.inference_mode():
            model(torch.zeros(1, *input_shape))
    finally:
        for h in handles:
            h.remove()
    return total


def saved_bytes_by_dtype(model: nn.Module, x: torch.Tensor,
                         autocast_dtype: torch.dtype | None = None) -> dict[torch.dtype, int]:
    """Bytes that one forward pass adds to memory for the backward pass, per dtype: the tensors autograd
    keeps, counted with ``torch.autograd.graph.saved_tensors_hooks``, each stored tensor once. Lesson 04.

    The model's own parameters are saved too (a layer needs its weight for the input's gradient), but they are
    in memory anyway: they are not counted. Under autocast the 16-bit *copies* of the weights are new, so they
    are. Not everything saved is 16-bit: max-pooling saves int64 indices, and operations that autocast leaves
    in fp32 save fp32 tensors; this breakdown shows where the bytes are.
    """
    parameters = {p.untyped_storage().data_ptr() for p in model.parameters()}
    seen: dict[tuple, tuple[torch.dtype, int]] = {}

    def pack(tensor):
        pointer = tensor.untyped_storage().data_ptr()
        if pointer not in parameters:  # a parameter is in memory with or without this forward pass
            nbytes = tensor.numel() * tensor.element_size()
            seen[(pointer, tensor.dtype, tuple(tensor.shape))] = (tensor.dtype, nbytes)
        return tensor

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        with torch.autocast(x.device.type, dtype=autocast_dtype or torch.bfloat16,
                            enabled=autocast_dtype is not None):
            model(x)
    by_dtype: dict[torch.dtype, int] = {}
    for dtype, nbytes in seen.values():
        by_dtype[dtype] = by_dtype.get(dtype, 0) + nbytes
    return by_dtype


def saved_activation_bytes(model: nn.Module, x: torch.Tensor,
                           autocast_dtype: torch.dtype | None = None) -> int:
    """Bytes that one forward pass adds to memory for the backward pass (activations, pooling indices and the
    weight copies that autocast makes; not the parameters): the sum of ``saved_bytes_by_dtype``. Lesson 04.

    This is the memory that mixed precision shrinks during training (by less than 2x: see that function).
    """
    return sum(saved_bytes_by_dtype(model, x, autocast_dtype).values())


def cpu_flags(names: tuple[str, ...], cpuinfo: str = "/proc/cpuinfo") -> dict[str, bool] | None:
    """``{flag: present}`` for each of ``names`` in the CPU flags of ``cpuinfo``; None where it cannot be read
    (not Linux). Lesson 04."""
    try:
        text = open(cpuinfo, encoding="utf-8", errors="replace").read()
    except OSError:
        return None
    flags = set()
    for line in text.splitlines():
        if line.startswith("flags"):
            flags.update(line.partition(":")[2].split())
    return {flag: flag in flags for flag in names}


def bf16_support(cpuinfo: str = "/proc/cpuinfo") -> dict[str, bool] | None:
    """The CPU's bf16 instructions: ``{"avx512_bf16": ..., "amx_bf16": ...}`` from the flags in ``cpuinfo``.

    Without either, bf16 matmuls on the CPU are converted to fp32 and back, so bf16 saves bytes but not
    compute. None where the file cannot be read (not Linux). Lesson 04.
    """
    return cpu_flags(("avx512_bf16", "amx_bf16"), cpuinfo)


def int8_support(cpuinfo: str = "/proc/cpuinfo") -> dict[str, bool] | None:
    """The CPU's int8 dot-product instructions (``avx512_vnni``, ``avx_vnni``, ``amx_int8``): with one of them
    an int8 multiply-add is one instruction, without them (AVX2 alone) several, so int8 gains less.
    Lesson 04."""
    return cpu_flags(("avx512_vnni", "avx_vnni", "amx_int8"), cpuinfo)


def time_by_op(model: nn.Module, x: torch.Tensor, top: int | None = 4) -> list[tuple[str, float]]:
    """``[(operator, share of the time), ...]``: the ``top`` operators (None: all) of one ``model(x)`` pass by
    their own time (``torch.profiler``; on a GPU the GPU's time), after one untimed pass. Lesson 04 uses it to
    show what a quantized layer spends its time on besides the matmul."""
    on_gpu = x.device.type == "cuda"
    kinds = torch.profiler.ProfilerActivity
    activities = [kinds.CPU, kinds.CUDA] if on_gpu else [kinds.CPU]
    with torch.inference_mode():
        model(x)
        with without_profiler_notices(), torch.profiler.profile(activities=activities) as profile:
            model(x)
            bench.synchronize(x.device)
    own = "self_device_time_total" if on_gpu else "self_cpu_time_total"
    events = [(e.key, getattr(e, own)) for e in profile.key_averages() if getattr(e, own) > 0]
    total = sum(t for _, t in events)
    return [(name, t / total) for name, t in sorted(events, key=lambda e: -e[1])[:top]]


# ------------------------------------------------------------------------------------------------- time


def to_device(model: nn.Module, device) -> nn.Module:
    """``model`` itself where its tensors already are on ``device`` (or it holds none), else a copy moved there.

    The copy leaves the CPU model that the lesson trains and scores untouched. Lesson 04.
    """
    device = torch.device(device)
    if all(t.device == device for t in [*model.parameters(), *model.buffers()]):
        return model
    return copy.deepcopy(model).to(device)


def timed_batch(dataset, batch: int, device="cpu") -> torch.Tensor:
    """The first ``batch`` images of ``dataset`` (repeated when it holds fewer), on ``device``: (batch, 1, 28, 28).

    Lesson 04 times every model on such a batch; a GPU needs more images than a small test set holds.
    """
    images = dataset.tensors[0]  # (N, 1, 28, 28)
    repeats = -(-batch // len(images))  # ceiling division
    return torch.cat([images] * repeats)[:batch].to(device)


def compare_latency(variants: dict[str, nn.Module], x: torch.Tensor, *, rounds: int = 15, warmup: int = 2,
                    device=None, threads: int | None = 1, calls: int = 1) -> dict[str, bench.Measurement]:
    """Time several models on the same input, **interleaved**: round r times every model once, in turn, and
    every other round in the reverse order (no model is always the first after a pause).

    On a shared, noisy machine a burst of someone else's work then slows every variant alike, instead of
    landing on whichever model happened to be timed during it. Returns one ``bench.Measurement`` per name.
    ``device``: where to time; None times on ``x``'s device. Models elsewhere are copied there
    (``to_device``); on a GPU each run is bracketed by CUDA events and the GPU synchronised
    (``bench.measure``), so a time is the GPU's work, not the launch. ``threads``: CPU threads while timing
    on the CPU (default 1, see ``utils.bench.threads``). ``calls``: model calls per timed run, back to back,
    the run's time divided by them, after one untimed call: a pass of a fraction of a millisecond (batch 1) is
    timed over several, warm, so that the clock, a stray interrupt or the caches that the model before it left
    do not decide it. Lesson 04 and its lab.
    """
    device = x.device if device is None else torch.device(device)
    x = x.to(device)
    models = {name: to_device(model, device) for name, model in variants.items()}
    names = list(models)
    samples: dict[str, list[float]] = {name: [] for name in names}
    with bench.threads(threads if device.type == "cpu" else None), torch.inference_mode():
        for model in models.values():
            for _ in range(warmup):
                model(x)
        for r in range(rounds):
            for name in names if r % 2 == 0 else reversed(names):
                model = models[name]
                if calls > 1:  # one untimed call: timed on this model's warm caches, not the last model's
                    model(x)
                run = bench.measure(lambda: [model(x) for _ in range(calls)], warmup=0, repeats=1,
                                    device=device)
                samples[name] += [t / calls for t in run.samples]
    return {name: bench.Measurement(s, warmup) for name, s in samples.items()}


class Replay(nn.Module):
    """A module whose forward ignores its input and calls ``fn()``: it times one piece of a model (two
    BatchNorm layers on the inputs they saw) inside ``compare_latency``'s rounds, paired with the whole model.
    Lesson 04."""

    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def forward(self, x):
        return self.fn()


def share_reference(whole: bench.Measurement, part: bench.Measurement) -> float:
    """The reference for removing ``part`` from ``whole``, timed in the same rounds: the median over rounds of
    ``whole / (whole - part)``. Lesson 04: folding BatchNorm is expected to win about the time BatchNorm takes
    alone; measured, not proven, so a reference, not a bound (inside the model BN may cost more)."""
    return statistics.median(w / (w - p) for w, p in zip(whole.samples, part.samples))


def speedup(baseline: nn.Module, candidate: nn.Module, x: torch.Tensor, *, rounds: int = 15,
            device=None, threads: int | None = 1) -> float:
    """Fastest run of ``baseline`` / fastest run of ``candidate`` (2.0: twice as fast), interleaved.

    The minimum, not the median: on a shared machine other programs only ever add time, so the fastest of
    many runs is the estimate least disturbed by them. Timed on ``x``'s device unless ``device`` is given.
    Lesson 04, its lab and the ``quantize`` benchmark.
    """
    times = compare_latency({"baseline": baseline, "candidate": candidate}, x, rounds=rounds, device=device,
                            threads=threads)
    return times["baseline"].min / times["candidate"].min


def _quartile_width(values: list[float]) -> float:
    """(third quartile - first quartile) / median: how far the middle half of ``values`` spreads."""
    if len(values) < 2:
        return 0.0
    q1, q2, q3 = statistics.quantiles(values, n=4, method="inclusive")
    return (q3 - q1) / q2 if q2 else float("nan")


def spread(measurement: bench.Measurement) -> float:
    """How far the middle half of the runs spreads around the median (0.05: within 5 %). Lesson 04.

    Unlike (max - min) / median, one run slowed by another program does not move it.
    """
    return _quartile_width(measurement.samples)


def _round_ratios(baseline: bench.Measurement, candidate: bench.Measurement) -> list[float]:
    """Baseline run / candidate run of each round: two runs that saw the same machine, back to back."""
    return [b / c for b, c in zip(baseline.samples, candidate.samples)]


def ratio_noise(baseline: bench.Measurement, candidate: bench.Measurement) -> float:
    """The noise of a speedup: how far the round-by-round ratios (baseline run / candidate run of the same
    round, which saw the same machine) spread, as the width of their middle half over their median.

    A speedup closer to 1x than this is not a measured difference. Needs ``compare_latency``'s results
    (one run of each model per round). Lesson 04.
    """
    return _quartile_width(_round_ratios(baseline, candidate))


def ledger_figure(baseline: bench.Measurement, candidate: bench.Measurement) -> dict:
    """A paired speedup as the ledger keeps it (the arguments ``ledger.record`` takes): ``value``, the median
    of the round-by-round ratios, as ``compare`` gives it; ``rounds``, every round's ratio, so that lesson 09
    judges the figure with the same rounds as the lesson that timed it; ``noise``, the ± the lesson prints
    beside it (``ratio_noise``). Lesson 04 keeps its 50% zeros figure so, for lesson 09's row B12."""
    rounds = _round_ratios(baseline, candidate)
    return {"value": statistics.median(rounds), "rounds": rounds, "noise": ratio_noise(baseline, candidate)}


def verdict(ratio: float, noise: float, typical: float | None = None) -> str:
    """``beyond noise`` where a speedup differs from 1x by more than its spread, ``noise`` (relative) times the
    speedup, else ``within noise``. It calls ``utils.claims.speedup_verdict`` on the figures as printed (the
    ratio and the spread to two decimals), as ``report.verdict_against`` does, so that a "vs 1x" column and
    the sentences and closing-table rows never disagree: 0.97x with a spread of 0.03 is within noise.

    ``typical``: the median round-by-round ratio. When given, it must agree (beyond the noise, on the same
    side of 1x): on a busy machine one model's fastest run can come from a quiet moment the other never had.
    """
    beyond = _beyond_noise(ratio, noise)
    if typical is not None:
        beyond = beyond and _beyond_noise(typical, noise) and (claims.as_printed(typical, 2) > 1) == (claims.as_printed(ratio, 2) > 1)
    return "beyond noise" if beyond else "within noise"


def printed_ratio_spread(ratio: float, noise: float) -> float:
    """The spread of a speedup as a reader works it from the page: the ratio as printed (two decimals) times
    its noise as printed ("±2%": two decimals of a share), rounded half up to two decimals (``claims.half_up``:
    1.25 x 2% = 0.025 reads 0.03, as by hand). Worked from the unrounded noise (0.0153, printed "2%") it would
    read 0.98x ± 2% as clear of 1x, though 0.98 + 0.02 reaches it. Not ``claims.printed_spread`` (the ± of
    paired rounds): here the noise is a share of the speedup, so the spread is a product of two printed
    figures. A product under 0.01 keeps a third decimal (``spread_digits``): 0.25 x 2% = 0.005, which two
    decimals would double to 0.01 and so let "±2%" reach 0.24 from 0.25, though 2% of 0.25 does not
    (t35_0304 #5)."""
    product = claims.as_printed(ratio, 2) * claims.as_printed(noise, 2)
    return claims.half_up(product, spread_digits(product))


def spread_digits(spread: float) -> int:
    """Decimals a worked spread is kept and printed to: two, or three where it is under 0.01, so that a small
    spread is neither inflated to 0.01 nor printed 0.00."""
    return 2 if round(spread, 9) >= 0.01 else 3


def noise_text(ratio: float, noise: float) -> str:
    """A speedup's noise as the page prints it, "±4%", with the spread a reader works from it beside it,
    "±4%, ± 0.05 on 1.14x" or "±2%, ± 0.005 on 0.25x" (``printed_ratio_spread``, to its ``spread_digits``),
    so that a call of "within noise" can be checked to the digit. Where that spread is 0 (no noise printed)
    it is left out: "± 0.000" would read as no noise at all."""
    worked = printed_ratio_spread(ratio, noise)
    return f"±{noise:.0%}" + (f", ± {worked:.{spread_digits(worked)}f} on {ratio:.2f}x" if worked > 0 else "")


def _beyond_noise(ratio: float, noise: float) -> bool:
    """The course's one noise rule (``claims.speedup_verdict``), on ``ratio`` and its spread as printed. A
    ratio printed 1.00x (a baseline against itself, with no spread) is no difference: never beyond noise."""
    shown = claims.as_printed(ratio, 2)
    if shown == 1.0:
        return False
    return not claims.speedup_verdict(shown, None, printed_ratio_spread(ratio, noise)).startswith("within noise")


def compare(baseline: bench.Measurement, candidate: bench.Measurement) -> tuple[float, float, str]:
    """``(speedup, noise, verdict)`` of ``candidate`` against ``baseline``, **paired**: the speedup is the
    median of the round-by-round ratios (baseline run / candidate run of the same round, which saw the same
    machine), its noise how far those ratios spread (``ratio_noise``), and the verdict whether it differs
    from 1x by more than that noise (``verdict``). A burst of someone else's work slows both runs of a round alike, so it
    moves neither the median ratio nor its spread much. Lesson 04."""
    ratio = statistics.median(_round_ratios(baseline, candidate))
    noise = ratio_noise(baseline, candidate)
    return ratio, noise, verdict(ratio, noise)


def against_bound(ratio: float, bound: float, noise: float, kind: str = "bound") -> str:
    """Where a speedup stands against its upper ``bound`` (``kind="reference"``: a figure a speedup may pass,
    such as the ratio of bytes moved): ``below the bound``, or ``above the bound, within noise`` (the excess,
    smaller than the speedup's ``noise``, is that noise: no measured gain beyond the bound), or ``above the
    bound, beyond noise``: then the bound, an estimate from other measurements, missed part of the cost that
    the change removed. Lesson 04."""
    if ratio <= bound:
        return f"below the {kind}"
    return f"above the {kind}, " + ("within noise" if ratio / bound - 1 <= noise else "beyond noise")


NOISY_SPREAD = 0.2  # above this round-to-round noise of a speedup, timing_note warns of a busy machine


def timing_note(times: dict[str, bench.Measurement], limit: float = NOISY_SPREAD) -> str:
    """One line on how ``times`` (``compare_latency``'s result) were taken, plus a warning when a speedup
    against the first variant (the baseline) has a round-to-round noise (``ratio_noise``) above ``limit``:
    then the rounds disagree, and differences within that noise are not differences.

    The per-variant spread is printed but not judged: a load that changes slowly between rounds spreads each
    variant's times without touching the paired ratios that every speedup here is read from. Lesson 04.
    """
    runs = min(len(t.samples) for t in times.values())
    worst = max(spread(t) for t in times.values())
    baseline, *others = times.values()
    noise = max((ratio_noise(baseline, t) for t in others), default=0.0)
    line = (f"times: {runs} interleaved rounds (order reversed every other round); spread of each variant's "
            f"runs (middle half / median) up to {worst:.0%}; speedups: median of the paired rounds, noise up "
            f"to {noise:.0%}")
    if noise > limit:
        line += (f"\nwarning: paired noise above {limit:.0%}: the rounds disagree (other programs, or for a "
                 "memory-bound pass the caches and memory it shares with them): trust only speedups "
                 "beyond it")
    return line


TIMING_COLUMNS = ["latency (fastest)", "median", "spread (middle half)"]
SPEEDUP_COLUMNS = ["speedup (paired median)", "noise (round to round)", "vs 1x"]


def timing_cells(measurement: bench.Measurement) -> tuple[str, str, str]:
    """A timed variant's ``TIMING_COLUMNS`` in a lesson 04 table: fastest run, median, spread.

    The fastest run leads: noise from other programs only ever adds time.
    """
    return (bench.fmt_seconds(measurement.min), bench.fmt_seconds(measurement.median),
            f"{spread(measurement):.0%}")


def speedup_cells(times: dict[str, bench.Measurement], baseline: str, name: str) -> tuple[str, str, str]:
    """``SPEEDUP_COLUMNS`` of variant ``name`` against ``baseline`` in ``times``: the paired speedup (median
    of the round-by-round ratios), its round-to-round noise and whether it is a measured difference
    (``compare``)."""
    if name == baseline:
        return "1.00x", "", ""
    ratio, noise, vs_one = compare(times[baseline], times[name])
    return f"{ratio:.2f}x", f"{noise:.0%}", vs_one


def layer_inputs(model: nn.Module, names: list[str], x: torch.Tensor) -> dict[str, torch.Tensor]:
    """The input each named child of ``model`` receives when ``model(x)`` runs (forward hooks, removed after).

    Lesson 04 times BatchNorm alone on what it really sees, to bound what folding it away can win.
    """
    seen: dict[str, torch.Tensor] = {}

    def keep(name):
        return lambda module, inputs, output: seen.update({name: inputs[0]})

    hooks = [getattr(model, name).register_forward_hook(keep(name)) for name in names]
    try:
        with torch.inference_mode():
            model(x)
    finally:
        for hook in hooks:
            hook.remove()
    return seen
