"""The path two simulated GPUs really exchange tensors through: gloo over loopback TCP (lesson 00).

Introduced in lesson 00 (``notebooks/00_start_here.ipynb``). In ``cpu`` mode (and in ``1gpu`` mode, where
two ranks share one GPU) the worker processes talk through gloo: a tensor sent from one process to the other
is copied into the kernel's socket buffer, crosses the loopback interface and is copied out again. That is
the path of lesson 02's activations (``dist.send``/``dist.recv``) and lesson 03's gradients (all-reduce),
not the in-process memcpy of ``bandwidth.host_copies``. Lesson 02 reuses ``measure_loopback`` for its link.

    points = measure_loopback(sizes)            # CopyPoints: one-way time per size (half a round trip)
"""

from __future__ import annotations

from utils import claims, launch, machine
from utils.machine import ping_pong_worker  # the same worker as the machine profile's link
from utils.lessons.start_here.bandwidth import CopyPoint
from utils.lessons.start_here.printed import micros, shown_seconds
from utils.plots import size_label
from utils.tables import Table

PATH = machine.GLOO_LINK  # "gloo loopback, 2 processes": one name everywhere


def measure_loopback(sizes: list[int], repeats: int = 9, timeout: float = 120) -> list[CopyPoint]:
    """One-way time of a gloo message between two worker processes at each size (no bound: no datasheet
    describes loopback TCP; lesson 00 sets it beside memcpy at the same size)."""
    seconds = launch.launch(ping_pong_worker, list(sizes), repeats, nprocs=2, backend="gloo", timeout=timeout)[0]
    return [CopyPoint(PATH, size, s, None) for size, s in zip(sizes, seconds)]


def message_us(seconds: float) -> float:
    """A message's one-way time in µs as section 3's list prints it (one decimal, never 0), so the table's
    time is the list's."""
    return claims.as_printed(seconds, 1, 1e-6) or 0.1


def compare_table(copies: list[CopyPoint], messages: list[CopyPoint]):
    """At each size both paths measured: the memcpy inside one process against the gloo message between two,
    as times (the same µs the copies table and the message list print), and how many times slower the message
    is, worked from the two times as printed (290.9 / 3.20 µs: 90.9x). Times, not GB/s: at one size the ratio
    is the same, and a GB/s printed to two decimals (0.23) is too coarse to divide (89.0x, reader t21_0001)."""
    mem = {p.size: p for p in copies}
    rows = [(size_label(g.size), micros(mem[g.size].seconds), f"{message_us(g.seconds):,.1f}",
             f"{claims.half_up(message_us(g.seconds) / (shown_seconds(mem[g.size].seconds) * 1e6), 1):.1f}x")
            for g in messages if g.size in mem]
    return Table(["size", "memcpy µs (one process)", "gloo µs, one way (two processes)",
                  "gloo slower by (gloo µs / memcpy µs)"], rows, title="The two CPU paths at the same sizes")
