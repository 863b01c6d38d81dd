"""Ops placed on the roofline: each one's FLOPs and bytes by formula, its time measured, its ceiling.

Introduced in lesson 01, section 2 (and lab 01 predicts the same quantities). An op's *arithmetic intensity*
is FLOPs per byte of memory traffic: I = FLOPs / (bytes read + bytes written). It can go no faster than

    attainable(I) = min(peak FLOP/s, I x bandwidth)

so an op below the ridge point (peak / bandwidth) is memory-bound: a faster ALU would not help it.
Bytes are the minimum traffic: every operand read once and the result written once (what a perfect cache
would give). A real kernel can move more (re-reads). Two things let a point sit *above* the memory roof, and
the lesson says which (``headroom``): the roof's bandwidth counts STREAM's bytes, while a CPU's memory moved
more (write-allocate: a cache line is read before it is written), so an op that writes less than STREAM's
kernel passes the roof by up to that difference; and an operand that fits in the caches comes back faster
than the memory's bandwidth.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import torch

from utils import claims, machine
from utils.lessons.why_slow.peak import Ceilings
from utils.lessons.why_slow.step import DTYPES


@dataclass(frozen=True)
class Op:
    name: str
    flops: float
    bytes: float
    make: Callable[[], Callable[[], object]]  # builds the operands once, returns the call to time
    written: float = 0.0  # of ``bytes``, those written (the result); the rest are read

    @property
    def intensity(self) -> float:
        return self.flops / self.bytes


# STREAM's kernels: bytes counted per element, and bytes a CPU's memory moves for them with write-allocate
# (it reads a cache line before writing it): copy counts 2 and moves 3, add counts 3 and moves 4.
STREAM_TRAFFIC = {"copy": (2, 3), "add": (3, 4)}


def headroom(op: Op, bandwidth_name: str, cpu: bool = True) -> float:
    """How far above the memory roof ``op``'s counted bytes can flow with no cache's help: the memory's traffic
    (STREAM's counted rate x moved/counted) over the traffic of the op's bytes (each written byte costs two
    with write-allocate). 1.5 for an op that only reads under a STREAM-copy roof; 1.0 for one that reads and
    writes as much as a copy. On a GPU (no read before a full-line write) 1.0."""
    if not cpu:
        return 1.0
    counted, moved = STREAM_TRAFFIC["add" if "STREAM add" in bandwidth_name else "copy"]
    read = op.bytes - op.written
    return moved / counted * op.bytes / (read + 2 * op.written)


def matmul_op(m: int, k: int, n: int, dtype: str = "fp32", device: str = "cpu",
              name: str | None = None) -> Op:
    """(m x k) @ (k x n): 2mkn FLOPs; reads both operands and writes the result."""
    size = DTYPES[dtype].itemsize

    def make():
        a = torch.randn(m, k, dtype=DTYPES[dtype], device=device)
        b = torch.randn(k, n, dtype=DTYPES[dtype], device=device)
        return lambda: a @ b

    return Op(name or f"matmul {m}x{k}x{n}", 2 * m * k * n, size * (m * k + k * n + m * n), make,
              written=size * m * n)


def rowwise_op(kind: str, rows: int, cols: int, device: str = "cpu") -> Op:
    """An fp32 op over a (rows, cols) tensor: its FLOPs per element (a count of the arithmetic: add 1;
    GELU ~8 with its tanh; softmax ~5: max, subtract, exp, sum, divide; layer norm ~8: mean, variance,
    normalise) and its bytes: every input read once, the output written once.

    Each op writes into an output allocated once (``out=``), as a GPU's caching allocator would hand it
    back: on a CPU a fresh 32 MiB tensor is new pages from the kernel, and the page faults would be timed."""
    per_element, inputs = {"add": (1, 2), "gelu": (8, 1), "softmax": (5, 1), "layer norm": (8, 1)}[kind]
    n = rows * cols

    def make():
        x, y, out = (torch.randn(rows, cols, device=device) for _ in range(3))
        stats = (torch.empty(rows, 1, device=device), torch.empty(rows, 1, device=device))
        return {"add": lambda: torch.add(x, y, out=out),
                "gelu": lambda: torch.ops.aten.gelu.out(x, approximate="tanh", out=out),
                "softmax": lambda: torch.softmax(x, dim=-1, out=out),
                "layer norm": lambda: torch.ops.aten.native_layer_norm.out(x, (cols,), None, None, 1e-5,
                                                                          out0=out, out1=stats[0], out2=stats[1]),
                }[kind]

    return Op(kind, per_element * n, 4 * n * (inputs + 1), make, 4 * n)


def lesson_ops(S) -> list[Op]:
    """Section 2's ops on ``S.device``: square matmuls, the GPT's token x width matmul, a matrix-vector
    product, and the elementwise/row-wise ops of a transformer block."""
    tokens, width, hidden = S.token_matrix
    rows = S.elementwise_numel // 1024
    ops = [matmul_op(n, n, n, device=S.device) for n in S.matmul_sizes]
    ops.append(matmul_op(tokens, width, hidden, device=S.device, name=f"GPT fc {tokens}x{width}x{hidden}"))
    ops.append(matmul_op(1, S.matvec, S.matvec, device=S.device, name=f"matrix-vector {S.matvec}x{S.matvec}"))
    ops += [rowwise_op(kind, rows, 1024, S.device) for kind in ("add", "gelu", "softmax", "layer norm")]
    return ops


@dataclass(frozen=True)
class Point:
    op: Op
    seconds: float  # the fastest run: a busy machine only slows an op down (the ceilings are fastest runs too)
    spread: float  # (max - min) / median of the runs
    ceiling: float  # attainable FLOP/s at the op's intensity
    bound: str  # "memory" or "compute"

    @property
    def achieved(self) -> float:
        return self.op.flops / self.seconds

    @property
    def fraction(self) -> float:
        """Achieved over attainable, worked from the two rates as the table prints them (GFLOP/s to one
        decimal, ``claims.printed_ratio``): at most 1 unless the ceilings are wrong for this op (caches)."""
        return claims.printed_ratio(self.achieved, self.ceiling, 1, 1e9)

    @property
    def above_roof(self) -> bool:
        """Above its ceiling by more than the measurement's own spread: a real excess, to be explained."""
        return self.fraction > 1 + self.spread


@dataclass(frozen=True)
class Roofline:
    """Both ceilings and every op's point (``measure_roofline``). With a stored profile the roof is its two
    ceilings, and ``retimed`` holds the same probes timed in the ops' rounds (named apart); without one, the
    roof is those re-timed probes."""

    ceilings: Ceilings
    peak: machine.Ceiling  # "fp32 matmul peak, 1 thread, 1024³": best, median, spread, name
    bandwidth: machine.Ceiling  # "fp32 memory bandwidth, 1 thread, STREAM add, 32 MiB arrays"
    points: list[Point]
    threads: int | None  # torch threads every measurement ran on (None on a GPU)
    retimed: tuple[machine.Ceiling, ...] = ()  # (peak, bandwidth) timed beside the ops, this run
    from_profile: bool = False  # whether the roof is the stored profile's ceilings

    RETIMED = "the same probe timed beside the ops, this run"  # the re-timing's own name

    @property
    def peak_size(self) -> int:
        """n of the n x n x n matmul that measured the peak."""
        return int(self.peak.size.rstrip("³"))

    @property
    def stream_kernel(self) -> str:
        """Which of STREAM's kernels gave the bandwidth: "copy" or "add"."""
        return self.bandwidth.size.split(",")[0].removeprefix("STREAM ")

    @property
    def worst(self) -> Point:
        """The point closest to (or furthest above) its ceiling: the roofline benchmark's figure."""
        return max(self.points, key=lambda p: p.fraction)


def roof_probes(S) -> list[machine.Probe]:
    """The roof's probes, the machine profile's own (``utils.machine``): the fp32 matmul of n = ``S.peak_matmul``
    and STREAM's copy and add on arrays of ``S.stream_bytes``, on ``S.measure_threads`` threads."""
    return [machine.matmul_probe(S.peak_matmul, "fp32", S.device, S.measure_threads),
            *machine.stream_probes(S.stream_bytes // 4, S.device, S.measure_threads)]


def measure_roofline(ops: list[Op], S, rounds: int = 5, runs: int = 2, profile=None) -> Roofline:
    """Lesson 01, section 2 (and lab 01): the fp32 probes and every op, timed in the same interleaved rounds
    (``machine.measure_ceilings``) on ``S.measure_threads`` threads, so that a busy moment slows a probe and
    the ops beside it alike; each keeps its fastest run and its spread.

    ``profile``: the stored machine profile (lesson 01). The roof is then its fp32 peak and bandwidth on those
    threads, the one figure per ceiling every lesson quotes, so the ridge follows from the printed ceilings;
    the probes re-timed here are kept apart (``retimed``) to show how far this moment moved them."""
    timed_ops = [(S.measure_threads, op.make()) for op in ops]
    probes = roof_probes(S)
    # re-time the STREAM kernel the profile kept (copy or add), so that the two compare
    if profile is not None:
        kept = profile.find("memory bandwidth", "fp32", probes[0].threads).size.split(",")[0]
        probes = [p for p in probes if p.kind != "memory bandwidth" or p.size.startswith(kept)]
    ceilings, timed = machine.measure_ceilings(probes, rounds, runs, S.device, alongside=timed_ops)
    peak = next(c for c in ceilings if c.kind == "matmul peak")
    bandwidth = next(c for c in ceilings if c.kind == "memory bandwidth")
    retimed = (peak, bandwidth)
    if profile is not None:
        peak = profile.find(peak.kind, peak.dtype, peak.threads)
        bandwidth = profile.find(bandwidth.kind, bandwidth.dtype, bandwidth.threads)
    roof = Ceilings.of(peak, bandwidth)
    points = [Point(op, m.min, m.spread, roof.attainable(op.intensity), roof.bound(op.intensity))
              for op, m in zip(ops, timed)]
    threads = None if S.on_gpu else (S.measure_threads or torch.get_num_threads())
    return Roofline(roof, peak, bandwidth, points, threads, retimed, profile is not None)


def is_probe(point, peak) -> bool:
    """Whether ``point`` is the peak's own probe (an n x n x n matmul of the probe's size): its share of the
    roof is one kernel timed twice, which shows timing noise, not how near an op comes to the peak."""
    n = round((point.op.flops / 2) ** (1 / 3))
    return f"{n}³" == peak.size and point.op.flops == 2 * n**3


def is_roofs_probe(point, roof) -> bool:
    """Whether ``point`` is the kernel that measured its own roof: the peak's matmul for a compute-bound op,
    STREAM's add for a memory-bound one. Above its roof, it is one kernel timed twice, not a finding."""
    from utils.lessons.why_slow.memory_roof import is_bandwidth_probe

    return is_probe(point, roof.peak) if point.bound == "compute" else is_bandwidth_probe(point, roof.bandwidth)


def intensity_text(p: Point, least: int = 3, most: int = 6, also: float | None = None) -> str:
    """A point's FLOPs per byte as the table prints it: 3 significant figures (0.0833 x 30.2 GB/s gives the
    printed 2.5; 0.08 would give 2.4), more where a memory-bound ceiling worked from the printed intensity
    and the printed bandwidth would not round to the printed ceiling (reader t33_0001 #4: 0.49976 printed
    "0.5" gave 0.5 x 18.7 = 9.35, 9.4, beside a printed 9.3; "0.4998" gives 9.3). ``also``: a second
    bandwidth in GB/s as printed (the probe re-timed beside the ops, ``retimed_gbs``), whose product must
    round as the exact intensity's does too, so that one printed intensity serves both roofs (reader
    t35_0001 #2: "0.5 × 14.9 = 7.5" beside a table printing 0.4998, whose product is 7.4)."""
    text = f"{p.op.intensity:.{least}g}"
    if p.bound != "memory" or not p.op.intensity:
        return text
    targets = [] if also is None else [(also, f"{claims.half_up(p.op.intensity * also, 1):.1f}")]
    if getattr(p, "ceiling", None):  # the profile's roof: the bandwidth as its line prints it, the ceiling shown
        targets.append((claims.as_printed(p.ceiling / p.op.intensity / 1e9, 1), f"{p.ceiling / 1e9:.1f}"))
    for figures in range(least, most + 1):
        text = f"{p.op.intensity:.{figures}g}"
        if all(f"{claims.half_up(float(text) * gbs, 1):.1f}" == shown for gbs, shown in targets):
            return text
    return text


def retimed_gbs(roof) -> float | None:
    """The memory probe re-timed beside the ops, in GB/s as printed (one decimal), or None where the roof has
    none: the second bandwidth a memory-bound op's intensity is worked with (``intensity_text``'s ``also``)."""
    retimed = getattr(roof, "retimed", ()) if roof is not None else ()
    return claims.as_printed(retimed[1].best, 1, 1e9) if len(retimed) > 1 else None


def points_rows(points: list[Point], roof: Roofline | None = None) -> list[tuple]:
    """Rows for the full table: op, FLOPs, bytes, intensity, bound, achieved, ceiling, fraction, spread. A point
    above its roof by more than its spread is flagged, unless it is that roof's own probe (``roof`` given):
    then it is named as the probe timed twice, the reading the notes below give it."""
    def share(p) -> str:
        # half up (claims.percent), as a reader rounds 1.4 / 1.6 = 87.5% to 88% (t26_0001 #3; :.0% gave 87%)
        if not p.above_roof:
            return claims.percent(p.fraction)
        return claims.percent(p.fraction) + (" its own probe" if roof and is_roofs_probe(p, roof) else " ⚠ above")

    return [(p.op.name, f"{p.op.flops:.3g}", f"{p.op.bytes:.3g}", intensity_text(p, also=retimed_gbs(roof)), p.bound,
             f"{p.achieved / 1e9:.1f}", f"{p.ceiling / 1e9:.1f}", share(p), f"{p.spread:.0%}") for p in points]


POINT_COLUMNS = ["op", "FLOPs", "bytes", "FLOPs/byte", "side of the ridge (by count)", "GFLOP/s achieved",
                 "GFLOP/s ceiling", "of ceiling", "spread"]
