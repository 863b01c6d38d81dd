"""The course's words, defined once, and one picture of two workers and the link between them.

Introduced in lesson 00, which shows the glossary before any measurement; a later lesson links a word here
(``define("rank")``) or defines its own word where it first appears.

    show(glossary_table())       # term | meaning
    plot_two_workers(plan)       # two boxes (rank 0, rank 1), their devices, the link and its backend
"""

from __future__ import annotations

from utils.tables import Table

# In the order a reader needs them: each definition uses only the words above it.
TERMS: dict[str, str] = {
    "process": "a running program with its own memory; the course starts one per device it trains on",
    "worker": "one of those processes, running the training code on its own device",
    "rank": "a worker's number, 0 to world size - 1; rank 0 often prints and saves",
    "world size": "how many workers take part (2 in this course's two-device lessons)",
    "collective": "an operation every worker calls together, e.g. all-reduce or broadcast",
    "all-reduce": "a collective that sums (or averages) a tensor over all workers and gives each the result",
    "backend": "the library that moves the bytes of a collective: NCCL between NVIDIA GPUs, gloo on CPUs",
    "gloo": "a backend for CPU tensors, over TCP; in cpu mode it is the simulated GPUs' link",
    "NCCL": "NVIDIA's backend for GPU tensors, over NVLink or PCIe; one GPU per rank",
    "link": ("the wire between two devices: NVLink or PCIe between GPUs; between CPU workers, loopback TCP (the "
             "network path by which a machine sends to itself)"),
    "bound": "a limit from theory or a datasheet; no measurement may pass it (a point above one is a finding)",
    "reference": "a rate measured on this machine, to compare with; a point may approach or pass it",
    "simulated": "measured with CPU processes standing in for GPUs: shapes are real, speeds are CPU speeds",
    "dtype": ("a tensor's number format: fp32 (32-bit floating point, 4 bytes a number), fp16 and bf16 "
              "(16-bit, 2 bytes), int8 (1 byte)"),
    "matmul": "a matrix multiplication; an n x n by n x n one does 2n³ floating-point operations (FLOP)",
    "FLOP/s": "floating-point operations per second, a compute rate; GFLOP/s counts 10⁹ of them, TFLOP/s 10¹²",
    "memcpy": "a plain copy of bytes from one place in memory to another (C's memcpy; torch's dst.copy_(src))",
    "write-allocate": ("how a CPU writes memory: it reads the cache line (the block its caches move) before "
                       "writing into it, so a copy of n bytes moves 3n; streaming stores, and GPUs, write whole "
                       "lines unread: 2n. The course counts the 2n a copy asks for (lessons 00 and 01)"),
}


def define(term: str) -> str:
    """``term``'s one-line meaning, for a later lesson's text (e.g. ``define("rank")``)."""
    try:
        return f"{term}: {TERMS[term]}"
    except KeyError:
        raise KeyError(f"'{term}' is not in the glossary; terms: {', '.join(TERMS)}") from None


def glossary_table() -> Table:
    """Two columns, one row per term, wrapped so that no line is wider than the course's 110 characters."""
    return Table(["term", "meaning"], list(TERMS.items()), title="Glossary", wrap=90)


def plot_two_workers(plan):
    """Two workers as boxes, each on its device, and the link between them with its backend.

    ``plan``: a ``devices.DevicePlan`` (``plan.devices``, ``plan.backend``, ``plan.simulated``)."""
    from matplotlib.patches import FancyArrowPatch, FancyBboxPatch

    from utils import plots

    fig, (ax,) = plots.new_figure(1, width=7.5, row_height=2.2)
    ax.set_xlim(0, 10)
    ax.set_ylim(0, 4)
    ax.axis("off")
    link = "loopback TCP (simulated link)" if plan.simulated else "NVLink or PCIe (lesson 00 finds which)"
    for rank, x in enumerate((0.6, 6.4)):
        ax.add_patch(FancyBboxPatch((x, 0.9), 3.0, 2.2, boxstyle="round,pad=0.05",
                                    fc=plots.device_color(rank), alpha=0.18, ec=plots.device_color(rank), lw=1.5))
        device = plan.devices[rank] if rank < len(plan.devices) else plan.devices[-1]
        ax.text(x + 1.5, 2.55, f"process: rank {rank}", ha="center", fontsize=10, weight="bold")
        # cpu mode: both processes run on this CPU's cores, placed by the OS (neither is pinned to a core)
        shared = " (any core: not pinned)" if plan.simulated else ""
        ax.text(x + 1.5, 1.95, f"device: {device}{shared}", ha="center", fontsize=9)
        ax.text(x + 1.5, 1.35, "same code, its own data", ha="center", fontsize=8, color="0.35")
    ax.add_patch(FancyArrowPatch((3.75, 2.0), (6.25, 2.0), arrowstyle="<|-|>", mutation_scale=14, lw=1.8,
                                 color="0.25"))
    ax.text(5.0, 2.3, f"backend: {plan.backend}", ha="center", fontsize=9)
    ax.text(5.0, 0.35, f"link: {link}", ha="center", fontsize=8.5, color="0.3")
    ax.text(5.0, 3.55, "world size 2: a collective (all-reduce) runs on both ranks at once", ha="center",
            fontsize=8.5)
    plots.stamp_simulated(fig, plan.simulated)
    return plots.finish(fig)
