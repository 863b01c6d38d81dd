"""Timing that is right on every device, results set against a theoretical bound, and the benchmark registry.

Introduced in lesson 00 (copy bandwidth); every lesson times its claims with ``measure`` and every
performance target of the course is a registered benchmark (``make bench``), never a timed test.

    m = measure(lambda: model(x), device="cpu")      # warm-up, synchronise, repeats
    m.median, m.min, m.max                            # seconds
    Result("copy", measured=9.1e9, bound=12e9, unit="B/s")

On a GPU a kernel launch returns before the kernel has run, so ``measure`` times with CUDA events and
synchronises; timing a GPU with ``time.perf_counter`` alone measures the launch, not the work.

Benchmarks live in ``utils/benchmarks/``, one small module each; ``discover`` finds every function there
decorated with ``@register`` (nothing lists them). Command line: ``python -m utils.benchmarks NAME [NAME ...]
--json`` prints one JSON object per benchmark; ``python -m utils.benchmarks --all --out results`` writes
``results/bench-<mode>.md`` and ``.json``.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import json
import pkgutil
import statistics
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Callable

from utils import devices
from utils.tables import Table

# Modules whose import registers benchmarks. A lesson that adds a benchmark adds its module here.



@dataclass
class Measurement:
    """Seconds per call over ``repeats`` timed calls (after ``warmup`` untimed ones)."""

    samples: list[float]
    warmup: int

    @property
    def median(self) -> float:
        return statistics.median(self.samples)

    @property
    def min(self) -> float:
        return min(self.samples)

    @property
    def max(self) -> float:
        return max(self.samples)

    @property
    def spread(self) -> float:
        """(max - min) / median: how much to trust the median (0.05 = within 5%)."""
        return (self.max - self.min) / self.median if self.median else float("nan")

    def __str__(self) -> str:
        return (f"median {fmt_seconds(self.median)} (min {fmt_seconds(self.min)}, max {fmt_seconds(self.max)},"
                f" {len(self.samples)} runs)")


def synchronize(device) -> None:
    """Wait until ``device`` has finished its queued work (a no-op on CPU)."""
    device = str(device) if device is not None else "cpu"
    if device.startswith("cuda"):
        import torch

        torch.cuda.synchronize(device)


def measure(fn: Callable[[], object], *, warmup: int = 2, repeats: int = 5, device=None,
            clock: Callable[[], float] = time.perf_counter) -> Measurement:
    """Time ``fn()``: ``warmup`` untimed calls, then ``repeats`` timed ones; median/min/max in seconds.

    On ``cuda`` devices each call is bracketed by CUDA events and the device is synchronised, so the time
    is the GPU's time for the work, not the time to enqueue it. ``clock`` is for tests (a fake clock).
    """
    if repeats < 1:
        raise ValueError("repeats must be at least 1")
    for _ in range(warmup):
        fn()
    synchronize(device)
    samples = []
    on_gpu = device is not None and str(device).startswith("cuda")
    for _ in range(repeats):
        if on_gpu:
            import torch

            # Events record on the current stream of the *current* device: make that ``device``, so that
            # timing work on cuda:1 does not read cuda:0's clock.
            with torch.cuda.device(torch.device(device)):
                start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                start.record()
                fn()
                end.record()
                end.synchronize()
            samples.append(start.elapsed_time(end) / 1e3)  # elapsed_time is in milliseconds
        else:
            t0 = clock()
            fn()
            samples.append(clock() - t0)
    return Measurement(samples, warmup)


@contextlib.contextmanager
def threads(n: int | None):
    """Run the block with torch using ``n`` CPU threads (None: leave it), then restore the caller's count.

    Lesson 02 profiles layers and lesson 04 times models on one thread. Why: with two threads on two cores,
    every operation waits for both halves, so a program that takes one core for a moment stalls the whole
    operation; one thread is slowed only in proportion.
    """
    import torch

    before = torch.get_num_threads()
    if n:
        torch.set_num_threads(n)
    try:
        yield
    finally:
        torch.set_num_threads(before)


def alternate(first: Callable[[], object], second: Callable[[], object], rounds: int) -> tuple[list, list]:
    """Run ``first`` and ``second`` in turn, ``rounds`` times, each round starting with the other one (first
    then second, second then first ...): a busy moment slows both alike, and whatever favours the first or
    the second run of a pair cancels out. Returns (first's results, second's results). Lesson 08."""
    a, b = [], []
    for i in range(rounds):
        if i % 2:
            b.append(second())
            a.append(first())
        else:
            a.append(first())
            b.append(second())
    return a, b


def throughput(items: float, seconds: float) -> float:
    """Items (samples, bytes, tokens) per second."""
    if seconds <= 0:
        raise ValueError(f"seconds must be positive, got {seconds}")
    return items / seconds


def ratio_to_bound(measured: float, bound: float, higher_is_better: bool = True) -> float:
    """How close a measurement gets to its theoretical bound: 1.0 means it reached the bound.

    For rates (higher is better) that is measured / bound; for times (lower is better) bound / measured.
    """
    if not bound or not measured:
        return float("nan")
    return measured / bound if higher_is_better else bound / measured


def fmt_seconds(s: float) -> str:
    if s < 1e-3:
        return f"{s * 1e6:.1f} µs"
    if s < 1:
        return f"{s * 1e3:.1f} ms"
    return f"{s:.2f} s"


def fmt_seconds_as_printed(seconds: float) -> tuple[str, float]:
    """A time as ``fmt_seconds`` prints it, and that printed figure back in seconds (3.43 ms -> 0.00343): the
    operand a reader divides. (``ddp.allreduce.printed_seconds`` is another rule: 3 significant figures.)"""
    text = fmt_seconds(seconds)
    value, unit = text.split(" ")
    return text, float(value) * {"µs": 1e-6, "ms": 1e-3, "s": 1.0}[unit]


# --- Results and the registry ---------------------------------------------------------------------------


def hardware_label() -> str:
    """One line naming the hardware a result was measured on (results files record it), with the CPU's vector
    ISA (``devices.cpu_isa``): int8 and bf16 results depend on it."""

    hw = devices.hardware()
    if hw.gpus:
        gpus = ", ".join(g.name for g in hw.gpus)
        return f"{len(hw.gpus)} x GPU ({gpus}); CPU {hw.cpu_model} ({devices.cpu_isa()}), {hw.cpu_cores} cores"
    return f"CPU {hw.cpu_model} ({devices.cpu_isa()}), {hw.cpu_cores} cores, no GPU"


@dataclass
class Result:
    """One benchmark's outcome. ``ratio_to_bound`` defaults to measured / bound (set it for times)."""

    name: str
    measured: float
    bound: float
    unit: str
    ratio_to_bound: float | None = None
    mode: str | None = None
    hardware: str | None = None
    note: str = ""
    extra: dict = field(default_factory=dict)

    def __post_init__(self):
        if self.ratio_to_bound is None:
            self.ratio_to_bound = ratio_to_bound(self.measured, self.bound)
        if self.mode is None:
    
            self.mode = devices.mode()
        if self.hardware is None:
            self.hardware = hardware_label()

    def to_json(self) -> dict:
        data = asdict(self)
        extra = data.pop("extra")
        data.update(extra)  # extra figures sit beside the standard keys in the same object
        return data


def register(name: str):
    """Decorator: ``@register("copy")`` marks a function (no argument, returns a ``Result``) as a benchmark.

    It only labels the function; ``discover`` finds it by that label when it scans the benchmarks package.
    """

    def wrap(fn):
        fn.benchmark_name = name
        return fn

    return wrap


def discover(package: str) -> dict[str, Callable[[], Result]]:
    """Every ``@register``-ed function in the modules of ``package`` (e.g. ``"utils.benchmarks"``), by name."""
    found: dict[str, Callable[[], Result]] = {}
    for info in pkgutil.iter_modules(importlib.import_module(package).__path__):
        module = importlib.import_module(f"{package}.{info.name}")
        for value in vars(module).values():
            name = getattr(value, "benchmark_name", None)
            if name and callable(value):
                if name in found and found[name] is not value:
                    raise ValueError(f"two benchmarks are named {name!r} (the second in {module.__name__})")
                found[name] = value
    return found


def results_table(results: list[Result]):
    """A ``utils.tables.Table`` of results: renders in a notebook and as Markdown."""

    rows = [(r.name, r.mode, f"{r.measured:.4g} {r.unit}", f"{r.bound:.4g} {r.unit}", f"{r.ratio_to_bound:.2f}",
             r.note) for r in results]
    return Table(["benchmark", "mode", "measured", "bound", "ratio to bound", "note"], rows)


def write_results(results: list[Result], out_dir: Path) -> tuple[Path, Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    mode = results[0].mode if results else "cpu"
    md, js = out_dir / f"bench-{mode}.md", out_dir / f"bench-{mode}.json"
    hw = results[0].hardware if results else hardware_label()
    md.write_text(f"# Benchmarks, mode {mode}\n\nMeasured on: {hw}\n\n"
                  + results_table(results).to_markdown() + "\n")
    js.write_text(json.dumps([r.to_json() for r in results], indent=2) + "\n")
    return md, js


def cannot_write_into(folder: Path) -> str | None:
    """Why ``--out`` cannot hold the results, or None: a file is in the way, or the folder (or the nearest
    existing folder above it, where it will be made) takes no file, tried by writing one there once."""
    if folder.exists() and not folder.is_dir():
        return f"{folder} is a file; give a folder for bench-<mode>.md and .json"
    existing = next(p for p in (folder, *folder.absolute().parents) if p.is_dir())
    try:
        with tempfile.NamedTemporaryFile(dir=existing, prefix=".write-test-"):
            pass
    except OSError as exc:
        return f"cannot write in {existing} ({exc.strerror}); choose a folder you can write to"
    return None


def main(package: str, argv: list[str] | None = None) -> int:
    """The benchmark command line over the benchmarks found in ``package`` (``python -m utils.benchmarks``).

    Its options are checked before any benchmark runs (some take minutes): argparse's error, exit status 2."""
    parser = argparse.ArgumentParser(prog=f"python -m {package}", description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="benchmarks to run (default: every one, as with --all)")
    parser.add_argument("--all", action="store_true", help="run every registered benchmark")
    parser.add_argument("--json", action="store_true", help="print one JSON object per benchmark")
    parser.add_argument("--list", action="store_true", help="list the registered benchmarks")
    parser.add_argument("--out", type=Path, help="write bench-<mode>.md and .json into this folder")
    args = parser.parse_args(argv)
    if args.all and args.names:  # which one was meant? never run every benchmark when some were named
        parser.error("argument --all: runs every benchmark; give names or --all, not both")
    if args.list and (args.names or args.all or args.out):
        parser.error("argument --list: lists the benchmarks and runs none; give it alone")
    why = args.out is not None and cannot_write_into(args.out)
    if why:
        parser.error(f"argument --out: {why}")
    registry = discover(package)
    if args.list:
        print("\n".join(sorted(registry)))
        return 0
    names = sorted(registry) if args.all or not args.names else args.names
    unknown = [n for n in names if n not in registry]
    if unknown:
        parser.error(f"unknown benchmark(s) {', '.join(unknown)}; registered: {', '.join(sorted(registry))}")
    results = []
    for name in names:
        result = registry[name]()
        results.append(result)
        if args.json:
            print(json.dumps(result.to_json()), flush=True)
        else:
            print(f"{name}: {result.measured:.4g} {result.unit} against a bound of {result.bound:.4g} "
                  f"(ratio {result.ratio_to_bound:.2f}) {result.note}", flush=True)
    if args.out:
        md, js = write_results(results, args.out)
        print(f"wrote {md} and {js}", file=sys.stderr)
    return 0


if __name__ == "__main__":  # ``python -m utils.bench NAME --json``: the same command line as ``utils.benchmarks``
    sys.exit(main("utils.benchmarks"))
