"""One machine profile: the ceilings the lessons quote, measured by the same code every time, named by what
they are ("fp32 matmul peak, 1 thread, 1024³").

Introduced in lesson 00, which measures and shows the profile once per machine; lesson 01 (and any lesson that
sets a figure beside a ceiling) quotes the stored figure under the ceiling's name, and may time the same probe
again beside its own work (a re-timing, named as such, never under the ceiling's name alone). Two figures
measured differently never share a name: one thread and two threads, or a small matmul and a large one, are
different ceilings.

    profile = measure_profile("cpu", peaks={1: ("fp32",), 2: ("fp32", "bf16")}, bandwidth_threads=(1, 2))
    profile = stored_profile("cpu", peaks={1: ("fp32",)})   # this machine's one profile, kept in results/
    profile.peak("fp32", threads=1)        # Ceiling: best FLOP/s, median, spread, and its name
    profile.table()                        # ceiling | measured | spread
    link = measure_link(devices.plan(2), sizes)   # the two workers' link: alpha, beta, and how well they fit
    link = stored_link(link)               # this machine's one link fit, kept beside the ceilings

Each ceiling keeps the *fastest* of its runs (a busy machine only ever slows a kernel) and reports its
spread. The *stored* profile (``stored_profile``) is the one every lesson quotes on this machine: measured
over more rounds, each ceiling's value the fastest quarter of its runs rather than the single fastest (one
lucky run is not a ceiling), kept in ``results/machine-profile.json`` keyed on the machine (CPU model,
cores, ISA, torch; or the GPU), so that lessons 00, 01 and 04 quote one figure per ceiling. Probes run in interleaved rounds (``run_rounds``), so that a busy moment slows every ceiling alike;
a lesson may pass its own calls (``alongside``) to be timed in the same rounds as the ceilings.
"""

from __future__ import annotations

import datetime
import json
import multiprocessing
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Callable

import torch

from utils import bench
from utils.linkmodel import AlphaBeta, fit_alpha_beta
from utils.tables import Table

DTYPES = {"fp32": torch.float32, "bf16": torch.bfloat16, "fp16": torch.float16, "int8": torch.int8}
UNITS = {"FLOP/s": 1e9, "ops/s": 1e9, "B/s": 1e9}  # shown in G-units on every device


@dataclass(frozen=True)
class Ceiling:
    """A measured ceiling: what it is (kind, dtype, threads, size) and how fast (best, median, spread)."""

    kind: str  # "matmul peak" or "memory bandwidth"
    dtype: str  # "fp32", "bf16", "int8"
    threads: int | None  # CPU threads it ran on; None on a GPU
    size: str  # "1024³", "STREAM add, 3 x 32 MiB"
    best: float  # units per second, fastest run
    median: float
    spread: float  # (max - min) / median of the run times
    unit: str  # "FLOP/s", "ops/s" (int8) or "B/s"

    @property
    def name(self) -> str:
        where = f"{self.threads} thread{'s' if self.threads != 1 else ''}" if self.threads else "GPU"
        return f"{self.dtype} {self.kind}, {where}, {self.size}"

    def formatted(self, value: float | None = None) -> str:
        """``99.7 GFLOP/s``: the value (default: the best run) in G-units."""
        return f"{(self.best if value is None else value) / UNITS[self.unit]:,.1f} G{self.unit}"

    def __str__(self) -> str:
        return f"{self.name}: {self.formatted()}"


@dataclass(frozen=True)
class Probe:
    """One ceiling's measurement: ``make()`` builds the operands once and returns the call to time;
    ``work`` is the FLOPs (or counted bytes) of one call."""

    kind: str
    dtype: str
    threads: int | None
    size: str
    work: float
    unit: str
    make: Callable[[], Callable[[], object]]


def matmul_operands(n: int, dtype: str, device: str) -> tuple[torch.Tensor, torch.Tensor]:
    """Two n x n operands; int8 values in [-64, 64) so that their products' sums stay exact in int32."""
    if dtype == "int8":
        return (torch.randint(-64, 64, (n, n), dtype=torch.int8, device=device),
                torch.randint(-64, 64, (n, n), dtype=torch.int8, device=device))
    return (torch.randn(n, n, dtype=DTYPES[dtype], device=device),
            torch.randn(n, n, dtype=DTYPES[dtype], device=device))


def matmul_probe(n: int, dtype: str = "fp32", device: str = "cpu", threads: int | None = None) -> Probe:
    """An n x n x n matmul: 2n³ operations. int8 runs through ``torch._int_mm`` (int8 x int8 -> int32),
    the kernel torchao's int8 layers use; its unit is ops/s, not FLOP/s."""
    def make():
        a, b = matmul_operands(n, dtype, device)
        return (lambda: torch._int_mm(a, b)) if dtype == "int8" else (lambda: a @ b)

    return Probe("matmul peak", dtype, _cpu_threads(device, threads), f"{n}³", 2 * n**3,
                 "ops/s" if dtype == "int8" else "FLOP/s", make)


def stream_probes(numel: int, device: str = "cpu", threads: int | None = None) -> list[Probe]:
    """STREAM's *copy* (c = a: 2 arrays counted) and *add* (c = a + b: 3 counted) on fp32 arrays of ``numel``.

    A CPU reads a cache line before writing it (write-allocate), so a copy moves 3 units of traffic for the
    2 it counts and an add 4 for 3: an add's counted bytes can flow faster. STREAM reports both; the
    profile keeps the faster as the bandwidth, and names which it was."""
    def make(kernel):
        def build():
            x, y, z = (torch.ones(numel, device=device) for _ in range(3))
            return (lambda: z.copy_(x)) if kernel == "copy" else (lambda: torch.add(x, y, out=z))
        return build

    mib = numel * 4 / 2**20
    t = _cpu_threads(device, threads)
    return [Probe("memory bandwidth", "fp32", t, f"STREAM {kernel}, {mib:.0f} MiB arrays", words * 4 * numel,
                  "B/s", make(kernel)) for kernel, words in (("copy", 2), ("add", 3))]


def _cpu_threads(device: str, threads: int | None) -> int | None:
    if str(device).startswith("cuda"):
        return None
    return threads or torch.get_num_threads()


def run_rounds(calls: list[tuple[int | None, Callable[[], object]]], rounds: int = 5, runs: int = 2,
               device: str = "cpu") -> list[bench.Measurement]:
    """Time every (threads, call) in turn, ``rounds`` times, ``runs`` runs each time: interleaved, so that a
    busy moment slows every call alike. Returns one Measurement per call, with all its runs."""
    samples: list[list[float]] = [[] for _ in calls]
    for _ in range(rounds):
        for times, (threads, call) in zip(samples, calls):
            with bench.threads(threads):
                times += bench.measure(call, warmup=1, repeats=runs, device=device).samples
    return [bench.Measurement(times, warmup=1) for times in samples]


def ceiling_of(probe: Probe, m: bench.Measurement, typical: bool = False) -> Ceiling:
    """The probe's ceiling from its runs: the fastest run, or (``typical``) the fastest quarter's slowest run."""
    fast = sorted(m.samples)[len(m.samples) // 4] if typical else m.min
    return Ceiling(probe.kind, probe.dtype, probe.threads, probe.size, probe.work / fast, probe.work / m.median,
                   m.spread, probe.unit)


def measure_ceilings(probes: list[Probe], rounds: int = 5, runs: int = 2, device: str = "cpu",
                     alongside: list[tuple[int | None, Callable[[], object]]] = (), typical: bool = False
                     ) -> tuple[list[Ceiling], list[bench.Measurement]]:
    """Every probe as a Ceiling, and every ``alongside`` call timed in the same rounds (for a lesson's ops).

    The two STREAM kernels of one thread count become one bandwidth ceiling: the faster, named by its kernel."""
    calls = [(p.threads, p.make()) for p in probes] + list(alongside)
    timed = run_rounds(calls, rounds, runs, device)
    ceilings = [ceiling_of(p, m, typical) for p, m in zip(probes, timed)]
    return _best_stream(ceilings), timed[len(probes):]


def _best_stream(ceilings: list[Ceiling]) -> list[Ceiling]:
    out, best = [], {}
    for c in ceilings:
        if c.kind != "memory bandwidth":
            out.append(c)
        elif c.threads not in best or c.best > best[c.threads].best:
            best[c.threads] = c
    return out + list(best.values())


@dataclass(frozen=True)
class LinkFit:
    """The two workers' link: t(n) = alpha + n/beta fitted over every measured size, and how well it fits."""

    name: str  # "gloo loopback, 2 processes", "host to GPU 0, pinned", "GPU 0 to GPU 1"
    fit: AlphaBeta
    seconds: tuple[float, ...]  # the measured one-way times, one per size of ``fit.sizes``
    measured: str = "in this run"  # or "on 2026-12-05 (this machine's stored profile)" (``stored_link``)

    @property
    def accuracy(self) -> float:
        """The fit's worst relative residual: a time it predicts is good to about this share."""
        return self.fit.worst_residual

    def describe(self) -> str:
        return (f"{self.name}: alpha {self.fit.alpha * 1e6:,.1f} µs, beta {self.fit.beta / 1e9:.2f} GB/s "
                f"(fits every size within ±{self.accuracy:.0%})")


@dataclass
class MachineProfile:
    """The ceilings of one device (and, when measured, the two workers' link), each named by what it is."""

    device: str
    ceilings: list[Ceiling] = field(default_factory=list)
    link: LinkFit | None = None
    measured: str = "in this run"  # or "on 2026-12-04, kept in results/machine-profile.json" (stored_profile)

    def find(self, kind: str, dtype: str = "fp32", threads: int | None = None) -> Ceiling:
        """The ceiling of that kind and dtype (on ``threads``; None: the most threads measured)."""
        found = [c for c in self.ceilings if c.kind == kind and c.dtype == dtype
                 and (threads is None or c.threads == threads)]
        if not found:
            have = ", ".join(c.name for c in self.ceilings)
            raise KeyError(f"no {dtype} {kind} on {threads or 'any number of'} thread(s) in this profile; "
                           f"it has: {have}")
        return max(found, key=lambda c: c.threads or 0)

    def peak(self, dtype: str = "fp32", threads: int | None = None) -> Ceiling:
        return self.find("matmul peak", dtype, threads)

    def bandwidth(self, threads: int | None = None) -> Ceiling:
        return self.find("memory bandwidth", "fp32", threads)

    def table(self) -> Table:
        rows = [(c.name, c.formatted(), f"{c.spread:.0%}") for c in self.ceilings]
        if self.link:
            f = self.link.fit
            miss = f"fit, worst miss ±{self.link.accuracy:.0%}"  # not a spread: the fit's largest residual
            rows += [(f"link alpha, {self.link.name}", f"{f.alpha * 1e6:,.1f} µs", miss),
                     (f"link beta, {self.link.name}", f"{f.beta / 1e9:.2f} GB/s", miss)]
        return Table(["ceiling (what, threads, size)", "measured", "spread"], rows,
                     title=f"Machine profile of {self.device}, measured {self.measured}")


def measure_profile(device: str = "cpu", peaks: dict[int | None, tuple[str, ...]] | None = None,
                    bandwidth_threads: tuple[int | None, ...] = (None,), matmul_n: int = 1024,
                    stream_numel: int = 2**23, rounds: int = 5, runs: int = 2,
                    link: LinkFit | None = None, typical: bool = False) -> MachineProfile:
    """The matmul peaks ``peaks`` asks for ({threads: dtypes}, threads None = torch's own count) and the memory
    bandwidth on each of ``bandwidth_threads``, all in interleaved rounds; on a GPU thread counts are ignored.
    ``link``: a ``measure_link`` result to keep beside them.

    Why per thread count: on a CPU, one thread's peak and two threads' are different ceilings. (Ask for a
    dtype on one thread only where its kernel obeys ``torch.set_num_threads``: lesson 00 checks fp32's.)"""
    gpu = str(device).startswith("cuda")
    peaks = peaks or {None: ("fp32",)}
    probes = [matmul_probe(matmul_n, d, device, None if gpu else t) for t, dtypes in peaks.items() for d in dtypes]
    counts = (None,) if gpu else tuple(dict.fromkeys(bandwidth_threads))
    probes += [p for t in counts for p in stream_probes(stream_numel, device, t)]
    ceilings, _ = measure_ceilings(_unique(probes), rounds, runs, device, typical=typical)
    return MachineProfile(str(device), ceilings, link)


def measure_profile_apart(**kwargs) -> MachineProfile:
    """``measure_profile`` on a GPU in a spawned process, so that the caller (lesson 00's notebook, which
    forks workers later) never initialises CUDA; on a CPU, in this process."""
    if not str(kwargs.get("device", "cpu")).startswith("cuda"):
        return measure_profile(**kwargs)
    with ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn")) as pool:
        return pool.submit(measure_profile, **kwargs).result()


PROFILE_PATH = Path(__file__).resolve().parents[1] / "results" / "machine-profile.json"
STORED_ROUNDS = 9  # more rounds than a lesson's own: the stored figure must not move from run to run


def machine_key(device: str = "cpu") -> str:
    """What a stored profile is kept under: the CPU (model, cores, ISA) or the GPU, and torch's version."""
    from utils import devices

    hw = devices.hardware()
    index = int(str(device).partition(":")[2] or 0)
    if str(device).startswith("cuda") and index < len(hw.gpus):
        what = f"{hw.gpus[index].name}"
    else:
        what = f"{hw.cpu_model}, {hw.cpu_cores} cores, {devices.cpu_isa()}"
    return f"{what}; torch {torch.__version__.split('+')[0]}"


def _slot(c: Ceiling | Probe) -> str:
    """A ceiling's place in the stored profile: a bandwidth's slot does not name its STREAM kernel (copy or
    add: whichever was faster fills it)."""
    size = c.size.split(", ")[-1] if c.kind == "memory bandwidth" else c.size
    return f"{c.kind} | {c.dtype} | {c.threads} | {size}"


def stored_profile(device: str = "cpu", peaks: dict[int | None, tuple[str, ...]] | None = None,
                   bandwidth_threads: tuple[int | None, ...] = (None,), matmul_n: int = 1024,
                   stream_numel: int = 2**23, remeasure: bool = False, path: Path = PROFILE_PATH) -> MachineProfile:
    """This machine's one profile: the ceilings asked for (as ``measure_profile``), read from ``path`` where
    they were measured before on this machine (``machine_key``), else measured now over ``STORED_ROUNDS``
    rounds (each value the fastest quarter of its runs) and kept there. ``remeasure``: measure them again
    (lesson 00's ``REMEASURE_PROFILE``, for a learner who changed the hardware or torch; off by default, so
    that executing lesson 00 again moves no figure a later lesson quoted). Every lesson then quotes the same
    figure for a ceiling, and the link lesson 00 kept (``stored_link``) comes with it as ``.link``.
    Introduced in lesson 00; lessons 01 and 04 read it."""
    peaks = peaks or {None: ("fp32",)}
    gpu = str(device).startswith("cuda")
    wanted = [matmul_probe(matmul_n, d, device, None if gpu else t) for t, dtypes in peaks.items() for d in dtypes]
    counts = (None,) if gpu else tuple(dict.fromkeys(bandwidth_threads))
    wanted += [p for t in counts for p in stream_probes(stream_numel, device, t)]
    key, saved = machine_key(device), _read(path)
    entry = saved.setdefault(key, {"ceilings": {}})
    if remeasure or any(_slot(p) not in entry["ceilings"] for p in wanted):
        fresh = measure_profile_apart(device=device, peaks=peaks, bandwidth_threads=bandwidth_threads,
                                      matmul_n=matmul_n, stream_numel=stream_numel, rounds=STORED_ROUNDS,
                                      typical=True)
        kept = {} if remeasure else entry["ceilings"]  # a later lesson fills gaps, never moves a figure
        entry["ceilings"].update({_slot(c): asdict(c) for c in fresh.ceilings if _slot(c) not in kept})
        entry["date"] = datetime.date.today().isoformat()
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(saved, indent=1, sort_keys=True) + "\n")
    slots = list(dict.fromkeys(_slot(p) for p in wanted))
    return MachineProfile(str(device), [Ceiling(**entry["ceilings"][s]) for s in slots], _kept_link(entry),
                          measured=f"on {entry['date']} (this machine's stored profile)")


def stored_link(link: LinkFit, device: str = "cpu", remeasure: bool = False, path: Path = PROFILE_PATH,
                tolerance: float | None = None, accuracy: float | None = None) -> LinkFit:
    """This machine's one fit of the link: the one kept in ``path`` under ``link.name`` (measured once, by
    lesson 00), else ``link`` (this run's), which is then kept. ``remeasure``: keep this run's instead.
    So lesson 00's alpha and beta, and every later lesson quoting them, do not move when it runs again.
    ``tolerance``: a fit whose worst residual passes it (a busy moment) is returned, named as this run's, and
    not kept, so that a later run measures again. ``accuracy``: the fit's ± as the page prints it (lesson 00's
    ``printed_accuracy``), so that the ± a reader sees and the decision agree; default the unrounded one."""
    saved = _read(path)
    entry = saved.setdefault(machine_key(device), {"ceilings": {}})
    kept = entry.get("link")
    if kept and kept["name"] == link.name and not remeasure:
        return _kept_link(entry)
    worst = link.accuracy if accuracy is None else accuracy
    if tolerance is not None and worst > tolerance:
        why = f"in this run, not kept: it misses some size by more than ±{tolerance:.0%}"
        return LinkFit(link.name, link.fit, link.seconds, why)
    entry["link"] = {"name": link.name, "sizes": list(link.fit.sizes), "seconds": list(link.seconds),
                     "date": datetime.date.today().isoformat()}
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(saved, indent=1, sort_keys=True) + "\n")
    return _kept_link(entry)


def saved_link(device: str = "cpu", path: Path = PROFILE_PATH) -> LinkFit | None:
    """The link fit lesson 00 kept in the machine profile for ``device`` (``stored_link``), refitted from its
    kept sizes and times; None where the profile keeps none. Read only: nothing is measured or written. Any
    lesson or lab that sets its own link figure beside lesson 00's reads it here, one way."""
    return _kept_link(_read(path).get(machine_key(device), {}))


def saved_ceilings(device: str = "cpu", path: Path = PROFILE_PATH) -> MachineProfile | None:
    """Every ceiling the machine profile keeps for ``device`` (``stored_profile``: lessons 00, 01 and 04 fill
    it), as one profile; None where it keeps none. Read only: nothing is measured or written, so a lab can set
    its own ceilings beside the ones the lessons quoted without moving them (``MachineProfile.find``)."""
    entry = _read(path).get(machine_key(device), {})
    if not entry.get("ceilings"):
        return None
    ceilings = [Ceiling(**kept) for _, kept in sorted(entry["ceilings"].items())]
    return MachineProfile(str(device), ceilings, _kept_link(entry),
                          measured=f"on {entry.get('date', 'an earlier run')} (this machine's stored profile)")


def _kept_link(entry: dict) -> LinkFit | None:
    kept = entry.get("link")
    if not kept:
        return None
    fit = link_fit(kept["name"], kept["sizes"], kept["seconds"])
    return LinkFit(fit.name, fit.fit, fit.seconds, f"on {kept['date']} (this machine's stored profile)")


def _read(path: Path) -> dict:
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):  # none yet, or a damaged file: measure again
        return {}


def _unique(probes: list[Probe]) -> list[Probe]:
    """One probe per name (kind, dtype, threads, size): on a GPU every thread count is the same probe."""
    return list({(p.kind, p.dtype, p.threads, p.size): p for p in probes}.values())


# --- The link between two workers -------------------------------------------------------------------------

def ping_pong_worker(sizes: list[int], repeats: int, warmup: int = 3, on_gpu: bool = False) -> list[float]:
    """Worker (run by ``launch`` on two processes): for each size, ``repeats`` round trips of a uint8 tensor
    (rank 0 sends, rank 1 sends it back); returns the median one-way seconds per size (half a round trip).

    ``on_gpu``: the tensor lives on the worker's GPU, and each message goes the way two ranks sharing one GPU
    exchange tensors (``1gpu`` mode): GPU to host, gloo over loopback TCP, host to GPU, as lesson 07's
    workers do (gloo sends host memory)."""
    import torch.distributed as dist

    from utils import launch

    with launch.process_group() as device:
        rank, peer = dist.get_rank(), 1 - dist.get_rank()
        on = device if on_gpu else torch.device("cpu")
        out = []
        for size in sizes:
            buf = torch.zeros(size, dtype=torch.uint8, device=on)
            host = torch.empty(size, dtype=torch.uint8)  # where gloo receives
            times = []
            for k in range(warmup + repeats):
                dist.barrier()
                start = time.perf_counter()
                for step in ((_send, _recv) if rank == 0 else (_recv, _send)):
                    step(buf, host, peer)
                if k >= warmup:
                    times.append((time.perf_counter() - start) / 2)
            out.append(statistics.median(times))
        return out


def _send(buf: torch.Tensor, host: torch.Tensor, peer: int) -> None:
    """gloo sends host memory: a GPU tensor is copied to the host first (``.cpu()`` waits for that copy)."""
    import torch.distributed as dist

    dist.send(buf.cpu() if buf.is_cuda else buf, dst=peer)


def _recv(buf: torch.Tensor, host: torch.Tensor, peer: int) -> None:
    """Receive into host memory; a GPU tensor then gets the bytes (and the clock waits for that copy)."""
    import torch.distributed as dist

    if not buf.is_cuda:
        dist.recv(buf, src=peer)
        return
    dist.recv(host, src=peer)
    buf.copy_(host)
    torch.cuda.synchronize(buf.device)


def gpu_link_times(sizes: list[int], src: str, dst: str, pinned: bool, repeats: int) -> list[float]:
    """Median seconds of one copy ``src`` -> ``dst`` per size (runs in a spawned process: see ``measure_link``)."""
    out = []
    for size in sizes:
        a = torch.ones(size, dtype=torch.uint8, device=src)
        a = a.pin_memory() if pinned else a
        b = torch.empty(size, dtype=torch.uint8, device=dst)
        out.append(bench.measure(lambda: b.copy_(a), warmup=2, repeats=repeats, device=dst).median)
    return out


GLOO_LINK = "gloo loopback, 2 processes"


def _gpu_name(device: str) -> str:
    return f"GPU {device.split(':')[1]}" if ":" in device else "GPU 0"


def link_route(plan) -> tuple[str, str | None, str | None, bool]:
    """(name, source, destination, pinned) of the link the plan's workers use; names are lesson 00's paths.

    * simulated (cpu mode): gloo between two CPU processes (no source: launched workers);
    * two GPUs: a copy from one to the other ("GPU 0 to GPU 1");
    * two ranks sharing one GPU (1gpu mode): gloo between two processes, each message staged through host
      memory: source and destination are that GPU (launched workers, tensors on the GPU);
    * one worker on a GPU (lesson 05's input link): a pinned copy from the host ("host to GPU 0, pinned")."""
    if plan.simulated:
        return GLOO_LINK, None, None, False
    a, b = plan.devices[0], plan.devices[1 % len(plan.devices)]
    if a != b:
        return f"{_gpu_name(a)} to {_gpu_name(b)}", a, b, False
    if plan.world_size >= 2:
        return f"gloo, 2 processes sharing {_gpu_name(a)} (through host memory)", a, a, False
    return f"host to {_gpu_name(a)}, pinned", "cpu", a, True


def measure_link(plan, sizes: list[int], repeats: int = 9, timeout: float = 120) -> LinkFit:
    """The link of ``plan``'s workers, fitted over ``sizes`` (``link_route`` says which): gloo messages
    between two launched processes (cpu mode, and two ranks sharing a GPU, whose messages cross the host),
    or copies on the GPU path, timed in a spawned process so that the caller never initialises CUDA (a
    process that forks workers later must not)."""
    from utils import launch

    name, src, dst, pinned = link_route(plan)
    if src is None or src == dst:  # gloo between two workers: on the CPU, or both on one GPU
        seconds = launch.launch(ping_pong_worker, list(sizes), repeats, 3, src is not None, nprocs=2,
                                backend="gloo", timeout=timeout)[0]
    else:
        with ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn")) as pool:
            seconds = pool.submit(gpu_link_times, list(sizes), src, dst, pinned, repeats).result(timeout=timeout)
    return link_fit(name, sizes, seconds)


def link_fit(name: str, sizes, seconds) -> LinkFit:
    """``linkmodel.fit_alpha_beta`` over every size, kept with its name and measured times."""
    return LinkFit(name, fit_alpha_beta(list(sizes), list(seconds)), tuple(seconds))


# --- What a healthy all-reduce reaches on a link ------------------------------------------------------------

NVLS_CC = (9, 0)  # NVLink SHARP (reductions inside the NVSwitch) from Hopper's third-generation NVSwitch on


@dataclass(frozen=True)
class BusExpectation:
    """The busbw a working machine's all-reduce reaches on a link, as shares of the link's datasheet peak
    (one direction): a figure inside [low, high] is what healthy hardware looks like, one below it is worth
    the ``advice``. An expectation from how the link moves bytes, not a bound: NVLS may pass 100 %."""

    low: float
    high: float
    why: str  # how this link moves an all-reduce's bytes, in one clause
    advice: str  # what to check with NCCL when the figure is below ``low``

    def reading(self, share: float) -> str:
        """``share`` (busbw / datasheet peak) in words: within, below or above what healthy hardware gives."""
        span = f"{self.low:.0%}-{self.high:.0%}"
        if share < self.low:
            return f"below the {span} a healthy link gives here ({self.why}); {self.advice}"
        if share > self.high:
            return f"above the {span} expected here ({self.why}): a finding to explain"
        return f"within the {span} a healthy link gives here ({self.why})"


def all_reduce_expectation(link, gpus=(), world: int = 2) -> BusExpectation | None:
    """What busbw / datasheet peak a healthy NCCL all-reduce of ``world`` ranks reaches over ``link`` (a
    ``devices.Link``; ``gpus``: the ranks' ``devices.GPU``). Lesson 03 prints it beside the measured figure.

    * PCIe with peer access: peer-to-peer copies, 70-85 % (packet headers and flow control);
    * PCIe without it (Kaggle's 2 x T4): NCCL stages every chunk through host memory (its SHM transport),
      two PCIe crossings and a host buffer per hop: 35-60 %, which is a healthy figure there, not a fault;
    * NVLink, straight or through an NVSwitch: 70-90 %; on Hopper or later behind an NVSwitch with more
      than two ranks, NVLS sums inside the switch and busbw may pass the per-direction figure (to ~110 %).
    """
    if link is None or not link.bandwidth:
        return None
    if link.kind == "PCIe":
        if link.peer_access is False:
            return BusExpectation(0.35, 0.60, "no peer access: NCCL stages every chunk through host memory",
                                  "NCCL_DEBUG=INFO should name SHM as the transport; NCCL_P2P_DISABLE=1 if "
                                  "the first all-reduce hangs")
        if link.peer_access is None:
            return BusExpectation(0.35, 0.85, "peer access unknown: staged through the host or peer-to-peer",
                                  "NCCL_DEBUG=INFO names the transport (P2P or SHM)")
        return BusExpectation(0.70, 0.85, "peer-to-peer over PCIe: headers and flow control take ~20 %",
                              "NCCL_DEBUG=INFO should name P2P; SHM there means peer access is blocked "
                              "(ACS, IOMMU); NCCL_P2P_LEVEL decides how far apart P2P is used")
    hopper = bool(gpus) and all(g.compute_capability and tuple(g.compute_capability) >= NVLS_CC for g in gpus)
    if link.via_switch and hopper and world > 2:
        return BusExpectation(0.70, 1.10, "NVLS: the NVSwitch sums the data, so busbw may pass the link's rate",
                              "NCCL_DEBUG=INFO should name NVLS; NCCL_NVLS_ENABLE=0 compares without it")
    if link.via_switch and hopper:  # two ranks: a ring moves each byte once each way, and so does NVLS
        return BusExpectation(0.70, 0.90, "NVLink through NVSwitch; with 2 ranks NVLS moves no fewer bytes",
                              "NCCL_DEBUG=INFO names the algorithm (Ring, NVLS); nvidia-smi nvlink -s each link")
    return BusExpectation(0.70, 0.90, "NVLink: NCCL's protocol leaves 70-90 % of the links' rate",
                          "NCCL_DEBUG=INFO should name P2P over NVLink; nvidia-smi nvlink -s shows each link")
