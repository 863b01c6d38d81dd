"""Matplotlib helpers every figure of the course shares: one colour per device, the *simulated on CPU* stamp.

Introduced in lesson 00 with the monitor's recordings (``utils.monitor``); lesson 02 uses it for the
measured pipeline schedule (``utils.timeline.plot_gantt``). Lesson 01 introduces the check that no two
labels of a figure overprint (``overlapping_labels``); every timeline since places its labels so that none do.

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


# --- labels that never overprint (lesson 01's roofline first; every timeline since) ------------------------


def renderer_of(fig):
    """The renderer that lays ``fig`` out (a figure released by pyplot keeps a bare canvas: matplotlib makes
    one, as ``tight_layout`` does). Lesson 01 measures its roofline's labels with it."""
    get = getattr(fig.canvas, "get_renderer", None)
    return get() if get else fig._get_renderer()


def text_box(text, renderer):
    """The display box of a text, or of an annotation's text without its leader line (lesson 01)."""
    from matplotlib.text import Text

    if hasattr(text, "update_positions"):
        text.update_positions(renderer)
    return Text.get_window_extent(text, renderer)


def overlapping_labels(fig) -> list[tuple[str, str]]:
    """Pairs of texts (or a text and a legend, named "(legend)") on ``fig``'s axes whose boxes overlap: what no
    figure of the course may have.

    Introduced in lesson 01 (its roofline's point labels); the tests run it on every timeline and chart.
    The figure's layout must be final (measured as it will be drawn)."""
    renderer = renderer_of(fig)
    texts = [t for ax in fig.axes for t in ax.texts if t.get_text() and t.get_visible()]
    names, boxes = [t.get_text() for t in texts], [text_box(t, renderer) for t in texts]
    for legend in (ax.get_legend() for ax in fig.axes):  # a legend's box may hide a label too
        if legend is not None and legend.get_visible():
            names.append("(legend)")
            boxes.append(legend.get_window_extent(renderer))
    return [(names[i], names[j]) for i in range(len(names))
            for j in range(i + 1, len(names)) if boxes[i].overlaps(boxes[j])]


def label_inside(ax, box: tuple[float, float, float, float], candidates, taken: list, renderer,
                 pad: float = 2.0, **style):
    """Write the first of ``candidates`` whose measured text fits inside ``box`` (x0, y0, x1, y1 in data
    coordinates, ``pad`` pixels to spare on each side) and overlaps no box of ``taken``; return the text,
    or None where none fits. Lesson 02's timeline labels its bars with it: a label too wide for its bar is
    left out instead of spilling over its neighbours. Call once the figure's layout is final."""
    frame = ax.transData.transform([box[:2], box[2:]])
    (x0, x1), (y0, y1) = sorted(frame[:, 0]), sorted(frame[:, 1])
    if x1 - x0 < 2 * pad + 3:  # narrower than any character: no need to measure (crowded charts draw fast)
        return None
    for candidate in candidates:
        centre = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
        text = ax.text(*centre, candidate, ha="center", va="center", **style)
        drawn = text_box(text, renderer)
        fits = drawn.x0 >= x0 + pad and drawn.x1 <= x1 - pad and drawn.y0 >= y0 and drawn.y1 <= y1
        if fits and not any(drawn.overlaps(other) for other in taken):
            text.container = box  # read by ``labels_outside``
            taken.append(drawn)
            return text
        text.remove()
    return None


def labels_outside(fig) -> list[str]:
    """Texts placed by ``label_inside`` that now stick out of their box (lesson 02's bar labels; tests)."""
    renderer = renderer_of(fig)
    out = []
    for ax in fig.axes:
        for text in (t for t in ax.texts if getattr(t, "container", None)):
            frame = ax.transData.transform([text.container[:2], text.container[2:]])
            (x0, x1), (y0, y1) = sorted(frame[:, 0]), sorted(frame[:, 1])
            drawn = text_box(text, renderer)
            if drawn.x0 < x0 - 0.5 or drawn.x1 > x1 + 0.5 or drawn.y0 < y0 - 0.5 or drawn.y1 > y1 + 0.5:
                out.append(text.get_text())
    return out
