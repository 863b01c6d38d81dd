"""Matplotlib helpers every figure of the course shares: one colour per device, the *simulated on CPU* stamp.

Introduced in lesson 00 with the monitor's recordings (``utils.monitor``); lesson 02 uses it for the
measured pipeline schedule (``utils.timeline.plot_gantt``).

Figures are made with pyplot and closed at once: the notebook then shows a figure exactly once, when a
function returns it as the cell's last value, and a figure that is not returned is not drawn twice.
"""

from __future__ import annotations

# One colour per device row, the same in every lesson (matplotlib's tab10 order: blue, orange, green...).
DEVICE_COLORS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f")


def device_color(i: int) -> str:
    """The colour of the i-th device (GPU 0, rank 0, stage 0 ...), cycling after eight."""
    return DEVICE_COLORS[i % len(DEVICE_COLORS)]


def new_figure(rows: int = 1, width: float = 9.0, row_height: float = 2.4, sharex: bool = True):
    """A figure with ``rows`` stacked axes (a list, even for one row), already released by pyplot."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(rows, 1, figsize=(width, 0.6 + row_height * rows), sharex=sharex, squeeze=False)
    plt.close(fig)  # the caller returns it: shown once, as the cell's value, and nothing leaks in pyplot
    return fig, [ax for (ax,) in axes]


def stamp_simulated(fig, simulated: bool, text: str = "simulated on CPU") -> None:
    """Write *simulated on CPU* in the figure's corner, so a CPU figure is never taken for a GPU one."""
    if simulated:
        fig.text(0.995, 0.005, text, ha="right", va="bottom", fontsize=8, style="italic", color="0.4")


def finish(fig, title: str | None = None):
    """Title and tidy layout; returns the figure so that a function can end with ``return finish(fig)``."""
    if title:
        fig.suptitle(title, fontsize=11)
    fig.tight_layout()
    return fig


def fmt_bytes(n: float | None) -> str:
    """1.5 GiB, 300 MiB, 12 KiB: binary units, as NVML and ``nvidia-smi`` count memory."""
    if n is None or n != n:
        return "n/a"
    for unit, size in (("TiB", 2**40), ("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if abs(n) >= size:
            return f"{n / size:.1f} {unit}"
    return f"{n:.0f} B"


def size_label(n: int) -> str:
    """64 KiB, 16 MiB: the label of a power-of-two message or copy size on an axis (lessons 00 and 03)."""
    return f"{n // 2**20} MiB" if n >= 2**20 else f"{n // 2**10} KiB"
