"""Ops placed on the roofline: each one's FLOPs and bytes by formula, its time measured, its ceiling.

Introduced in lesson 01, section 2 (and lab 01 predicts the same quantities). An op's *arithmetic intensity*
is FLOPs per byte of memory traffic: I = FLOPs / (bytes read + bytes written). It can go no faster than

    attainable(I) = min(peak FLOP/s, I x bandwidth)

so an op below the ridge point (peak / bandwidth) is memory-bound: a faster ALU would not help it.
Bytes are the minimum traffic: every operand read once and the result written once (what a perfect cache
would give). A real kernel can move more (re-reads), and an operand that fits in the caches can come back
faster than DRAM's bandwidth: then a point may sit *above* the DRAM roof, and the lesson flags it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import torch

from utils import bench
from utils.lessons.why_slow.peak import Ceilings, Rate, matmul_operands
from utils.lessons.why_slow.step import DTYPES


@dataclass(frozen=True)
class Op:
    name: str
    flops: float
    bytes: float
    make: Callable[[], Callable[[], object]]  # builds the operands once, returns the call to time

    @property
    def intensity(self) -> float:
        return self.flops / self.bytes


def matmul_op(m: int, k: int, n: int, dtype: str = "fp32", device: str = "cpu", name: str | None = None) -> Op:
    """(m x k) @ (k x n): 2mkn FLOPs; reads both operands and writes the result."""
    size = DTYPES[dtype].itemsize

    def make():
        a = torch.randn(m, k, dtype=DTYPES[dtype], device=device)
        b = torch.randn(k, n, dtype=DTYPES[dtype], device=device)
        return lambda: a @ b

    return Op(name or f"matmul {m}x{k}x{n}", 2 * m * k * n, size * (m * k + k * n + m * n), make)


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

    return Op(kind, per_element * n, 4 * n * (inputs + 1), make)


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
        """Achieved over attainable: at most 1 unless the ceilings are wrong for this op (caches)."""
        return self.achieved / self.ceiling

    @property
    def above_roof(self) -> bool:
        """Above its ceiling by more than the measurement's own spread: a real excess, to be explained."""
        return self.fraction > 1 + self.spread


def measure_point(op: Op, ceilings: Ceilings, device: str = "cpu", repeats: int = 5) -> Point:
    m = bench.measure(op.make(), warmup=2, repeats=repeats, device=device)
    return Point(op, m.min, m.spread, ceilings.attainable(op.intensity), ceilings.bound(op.intensity))


def measure_points(ops: list[Op], ceilings: Ceilings, device: str = "cpu", repeats: int = 5) -> list[Point]:
    return [measure_point(op, ceilings, device, repeats) for op in ops]


@dataclass(frozen=True)
class Roofline:
    """Both ceilings and every op's point, measured in the same rounds (``measure_roofline``)."""

    ceilings: Ceilings
    peak: Rate  # FLOP/s of the fastest of the fp32 n³ matmuls: best, median, spread
    peak_size: int  # its n
    bandwidth: Rate  # bytes/s of the faster of STREAM's copy and add
    stream_kernel: str  # which of the two it was
    points: list[Point]
    threads: int  # torch threads every measurement ran on

    @property
    def worst(self) -> Point:
        """The point closest to (or furthest above) its ceiling: the roofline benchmark's figure."""
        return max(self.points, key=lambda p: p.fraction)


def measure_roofline(ops: list[Op], S, rounds: int = 5, runs: int = 2) -> Roofline:
    """Lesson 01, section 2 (and lab 01): the fp32 ceilings and every op, timed in alternating rounds on
    ``S.measure_threads`` threads, so that a busy moment slows a ceiling and the ops beside it alike; each keeps
    its fastest run and its spread.

    Peak: the fastest of three fp32 n³ matmuls, n = ``S.peak_matmul``, a half and a quarter of it (a smaller
    one whose operands stay in a core's cache can run the kernel faster than one that streams them). Bandwidth:
    the faster of STREAM's *copy* (c = a: 2 arrays cross) and *add* (c = a + b: 3 cross), on fp32 arrays of
    ``S.elementwise_numel``, the size of the ops' own operands (beyond the caches, and a bandwidth measured on
    other sizes differs by 10-20 % on a CPU). A CPU reads a cache line before writing it (write-allocate), so a
    copy moves 3 units of traffic for the 2 counted and an add 4 for 3: an add's counted bytes flow faster.
    STREAM reports both; the roof is the best of them."""
    sizes, words = (S.peak_matmul, S.peak_matmul // 2, S.peak_matmul // 4), S.elementwise_numel
    with bench.threads(S.measure_threads):
        matmuls = [(lambda a, b: lambda: a @ b)(*matmul_operands(n, "fp32", S.device)) for n in sizes]
        x, y, z = (torch.ones(words, device=S.device) for _ in range(3))
        calls = matmuls + [lambda: z.copy_(x), lambda: torch.add(x, y, out=z)] + [op.make() for op in ops]
        samples: list[list[float]] = [[] for _ in calls]
        for _ in range(rounds):
            for times, call in zip(samples, calls):
                times += bench.measure(call, warmup=1, repeats=runs, device=S.device).samples
        threads = torch.get_num_threads()
    timed = [bench.Measurement(times, warmup=1) for times in samples]
    peaks = {n: Rate.of(2 * n**3, m) for n, m in zip(sizes, timed)}
    peak_size = max(peaks, key=lambda n: peaks[n].best)
    streams = {"copy": Rate.of(2 * 4 * words, timed[3]), "add": Rate.of(3 * 4 * words, timed[4])}
    kernel = max(streams, key=lambda k: streams[k].best)
    ceilings = Ceilings(peaks[peak_size].best, streams[kernel].best, "fp32", "measured")
    points = [Point(op, m.min, m.spread, ceilings.attainable(op.intensity), ceilings.bound(op.intensity))
              for op, m in zip(ops, timed[5:])]
    return Roofline(ceilings, peaks[peak_size], peak_size, streams[kernel], kernel, points, threads)


def points_rows(points: list[Point]) -> list[tuple]:
    """Rows for a table: op, FLOPs, bytes, intensity, bound, achieved, ceiling, fraction."""
    return [(p.op.name, f"{p.op.flops:.3g}", f"{p.op.bytes:.3g}", f"{p.op.intensity:.2f}", p.bound,
             f"{p.achieved / 1e9:.1f}", f"{p.ceiling / 1e9:.1f}",
             f"{p.fraction:.0%}" + (" ⚠ above" if p.above_roof else "")) for p in points]


POINT_COLUMNS = ["op", "FLOPs", "bytes", "FLOPs/byte", "bound", "GFLOP/s achieved", "GFLOP/s ceiling",
                 "of ceiling"]
