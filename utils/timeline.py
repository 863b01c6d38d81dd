"""Measured schedules: workers and stages record named spans; the notebook draws them as a Gantt chart.

Introduced in lesson 02 (model split), where it shows stage 1 waiting while stage 0 works; the pipeline
lessons after it draw their micro-batch schedules with it.

    rec = timeline.SpanRecorder("stage 0", device="cuda:0")      # in each worker or stage
    with rec.span("forward", k):
        y = stage(x)
    return rec.spans()                                           # plain, picklable data
    ...
    timeline.plot_gantt(spans_of_all_workers)                    # in the notebook

One clock for every process: ``time.perf_counter()`` is ``CLOCK_MONOTONIC`` on Linux, a single system-wide
clock (seconds since boot), so spans measured in different processes on one machine line up as they are,
with no offset to exchange. ``clock_is_system_wide()`` checks what this Python uses, and
tests/test_timeline.py checks it across two processes. (On macOS and Windows perf_counter is system-wide
too. It is never comparable across two machines.)

On a GPU, work is queued and runs later: ``perf_counter`` around ``stage(x)`` would time the launch, not the
work. There a span records two CUDA events on the device's current stream, and ``spans()`` converts them to
the same clock: an anchor event recorded right after a synchronise is paired with a perf_counter reading,
and every event's time is that reading plus its elapsed time from the anchor.
"""

from __future__ import annotations

import contextlib
import time
from dataclasses import asdict, dataclass

from matplotlib.patches import Patch
from matplotlib.transforms import ScaledTranslation

from utils import palette, plots

# Colours by kind of work live in ``utils.palette`` (one palette for every lesson); these names stay for the
# code that imported them from here.
KIND_COLORS = palette.KIND_COLORS
IDLE_COLOR = palette.KIND_COLORS[palette.IDLE]


@dataclass(frozen=True)
class Span:
    """One piece of work on one device: ``forward`` of micro-batch 3 on ``stage 1``, from start to end.

    Times are seconds on the ``time.perf_counter`` clock, the same in every process of the machine.
    """

    device: str  # the row of the chart: "stage 0", "rank 1", "GPU 0"
    name: str  # "forward", "backward", "load", "compute" ...
    index: int | None  # the micro-batch or batch number k
    start: float
    end: float
    on_gpu: bool = False  # measured with CUDA events (else perf_counter around CPU work)
    chunk: int | None = None  # the model chunk (stage) of its worker, in schedules with several per worker
    block: int | None = None  # the model's block (layer) the work belongs to, where a pass crosses several

    @property
    def kind(self) -> str:
        """The kind of work (``palette.kind_of``): "ffn" is "forward", "all-reduce" is "communication"."""
        return palette.kind_of(self.name)

    @property
    def duration(self) -> float:
        return self.end - self.start

    @property
    def label(self) -> str:
        """Short text for the bar: pass and micro-batch, "F3" (forward of micro-batch 3), "B3", "W3" (weight
        gradient), "attn3" (lesson 07's attention); with a chunk "F3c1" (forward of micro-batch 3 through
        the worker's model chunk 1, interleaved schedules); with a block, the block and the kind of work,
        "b2 attn" (lesson 07: the pass is the order along the row); the name itself without an index ("load")."""
        if self.block is not None:
            return f"b{self.block} {palette.short_name(self.name)}"
        if self.index is None:
            return self.name
        chunk = "" if self.chunk is None else f"c{self.chunk}"
        return f"{palette.short_name(self.name)}{self.index}{chunk}"

    def to_dict(self) -> dict:
        return asdict(self)


def clock_is_system_wide() -> bool:
    """True when ``time.perf_counter`` reads one clock shared by all processes (CLOCK_MONOTONIC and kin)."""
    implementation = time.get_clock_info("perf_counter").implementation
    return any(name in implementation for name in ("CLOCK_MONOTONIC", "mach_absolute_time",
                                                   "QueryPerformanceCounter"))


class SpanRecorder:
    """Records the spans of one device (a worker or a stage). ``device`` "cuda:k" uses CUDA events."""

    def __init__(self, device_label: str, device: str = "cpu", clock=time.perf_counter):
        self.device_label = device_label
        self.device = str(device)
        self.on_gpu = self.device.startswith("cuda")
        self.clock = clock
        self._spans: list[Span] = []
        self._events: list[tuple] = []  # (name, index, chunk, block, start event, end event), see spans()
        if self.on_gpu:
            self._set_anchor()

    def _set_anchor(self) -> None:
        import torch

        torch.cuda.synchronize(self.device)
        self._anchor = torch.cuda.Event(enable_timing=True)
        self._anchor.record(torch.cuda.current_stream(self.device))
        self._anchor.synchronize()
        self._anchor_time = self.clock()  # the anchor event happened (just) before this reading

    @contextlib.contextmanager
    def span(self, name: str, index: int | None = None, chunk: int | None = None, block: int | None = None):
        """Time the code block as a span named ``name`` (of micro-batch/batch ``index``, model ``chunk``,
        the model's ``block``)."""
        if self.on_gpu:
            import torch

            stream = torch.cuda.current_stream(self.device)
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record(stream)
            yield
            end.record(stream)
            self._events.append((name, index, chunk, block, start, end))
        else:
            start = self.clock()
            yield
            self._spans.append(Span(self.device_label, name, index, start, self.clock(), chunk=chunk,
                                    block=block))

    def spans(self) -> list[Span]:
        """Every span so far, in start order (waits for the GPU to finish the recorded work)."""
        if self._events:
            self._events[-1][-1].synchronize()
            for name, index, chunk, block, start, end in self._events:
                # elapsed_time is in milliseconds, from the anchor event to this one.
                self._spans.append(Span(self.device_label, name, index,
                                        self._anchor_time + self._anchor.elapsed_time(start) / 1e3,
                                        self._anchor_time + self._anchor.elapsed_time(end) / 1e3, True,
                                        chunk, block))
            self._events.clear()
        return sorted(self._spans, key=lambda s: s.start)


def flatten(spans) -> list[Span]:
    """Spans from any mix of Span objects, dicts (``Span.to_dict()``) and lists of them (one per worker)."""
    out = []
    for item in spans:
        if isinstance(item, Span):
            out.append(item)
        elif isinstance(item, dict):
            out.append(Span(**item))
        else:
            out.extend(flatten(item))
    return out


def _union_length(intervals: list[tuple[float, float]]) -> float:
    """Total time covered by the intervals, overlaps counted once (two spans at once are not 200% busy)."""
    total, reach = 0.0, float("-inf")
    for start, end in sorted(intervals):
        if end > reach:
            total += end - max(start, reach)
            reach = end
    return total


def busy_fractions(spans, window: tuple[float, float] | None = None) -> dict[str, float]:
    """Per device: the fraction of the window (default: first start to last end of all spans) it was busy."""
    spans = flatten(spans)
    if not spans:
        return {}
    start, end = window or (min(s.start for s in spans), max(s.end for s in spans))
    length = end - start
    rows: dict[str, list[tuple[float, float]]] = {}
    for s in spans:
        rows.setdefault(s.device, []).append((max(s.start, start), min(s.end, end)))
    return {device: (_union_length(intervals) / length if length > 0 else 0.0)
            for device, intervals in sorted(rows.items())}


def _busy_text(spans: list[Span], device: str, busy: float) -> str:
    """"busy 83%"; where the row also communicates, its work, its communication and its idle time apart
    ("work 61%, comm 22%, idle 17%"): time waiting inside a collective is not work (lesson 07), and the idle
    share says where the rest of the window went (a label "work 62%, comm 37%" left a reader asking)."""
    from utils.claims import percent  # half up, as every share the course prints (0.385 -> 39%)

    mine = [s for s in spans if s.device == device]
    comm = [s for s in mine if s.kind == "communication"]
    if not comm:
        return f"busy {percent(busy)}"
    window = (min(s.start for s in spans), max(s.end for s in spans))
    work = busy_fractions([s for s in mine if s.kind != "communication"], window).get(device, 0.0)
    shown = [percent(work), percent(busy_fractions(comm, window)[device])]  # "62%", half up
    # idle as the rest of the printed two, so that the label adds to 100% (each share rounded on its own left
    # "work 62%, comm 37%, idle 0%": t37_0708 #2); busy, the union of the row's spans, is not needed then
    idle = max(0, 100 - sum(int(p.rstrip("%")) for p in shown))
    return f"work {shown[0]}, comm {shown[1]}, idle {idle}%"


def plot_gantt(spans, title: str | None = None, simulated: bool | None = None):
    """The measured schedule: one row per device, a bar per span, idle time in grey, busy % on the right.

    Bars take their kind's colour (``utils.palette``) and the legend names kinds ("forward", "communication"),
    the same in every lesson. A bar's label (``Span.label``: "F3", "B3c1") is drawn only where its measured
    text fits inside the bar, so no label overprints another or leaves its bar.
    ``simulated`` stamps *simulated on CPU*; by default it is set when no span was measured on a GPU.
    """
    spans = flatten(spans)
    if not spans:
        raise ValueError("no spans to draw: did the workers return rec.spans()?")
    t0, t1 = min(s.start for s in spans), max(s.end for s in spans)
    scale, unit = (1e3, "ms") if t1 - t0 < 10 else (1.0, "s")
    fractions = busy_fractions(spans)
    rows = list(fractions)  # sorted device names: "stage 0" on top
    fig, (ax,) = plots.new_figure(rows=1, row_height=0.55 * len(rows) + 1.1)
    bars = []  # (span, x, width, y): labelled once the layout is final
    for y, device in enumerate(rows):
        ax.broken_barh([(0, (t1 - t0) * scale)], (y - 0.4, 0.8), color=IDLE_COLOR)  # idle unless covered
        for s in (s for s in spans if s.device == device):
            x, width = (s.start - t0) * scale, s.duration * scale
            ax.broken_barh([(x, width)], (y - 0.4, 0.8), color=palette.color_of(s.name), edgecolor="white",
                           linewidth=0.5)
            bars.append((s, x, width, y))
        ax.text(1.01, y, _busy_text(spans, device, fractions[device]), transform=ax.get_yaxis_transform(),
                va="center", fontsize=9)
    ax.set_yticks(range(len(rows)), rows)
    ax.set_ylim(len(rows) - 0.5, -0.5)  # first device on top
    ax.set_xlim(0, (t1 - t0) * scale)
    ax.set_xlabel(f"time ({unit}) since the first span; grey = idle")
    _legend(fig, ax, [s.name for s in spans])
    if simulated is None:
        simulated = not any(s.on_gpu for s in spans)
    plots.stamp_simulated(fig, simulated)
    fig = plots.finish(fig, title or "Measured schedule")
    _label_bars(ax, bars)
    return fig


def _legend(fig, ax, names: list[str]) -> None:
    """One entry per kind of work on the chart, in the palette's order, and idle: the same words for the same
    colour in every lesson. It sits half an inch below the axes whatever the number of rows."""
    kinds = {palette.kind_of(n): palette.color_of(n) for n in names}
    kinds[palette.IDLE] = IDLE_COLOR
    order = list(palette.KIND_COLORS)
    entries = sorted(kinds.items(), key=lambda kc: order.index(kc[0]) if kc[0] in order else len(order))
    ax.legend(handles=[Patch(facecolor=c, edgecolor="0.6", linewidth=0.5, label=k) for k, c in entries],
              loc="upper center", bbox_to_anchor=(0.5, 0.0),
              bbox_transform=ax.transAxes + ScaledTranslation(0, -0.5, fig.dpi_scale_trans),
              ncol=min(len(entries), 7), fontsize=8, frameon=False)


def _label_texts(s: Span) -> list[str]:
    """What a bar may say, widest first: its label ("F3c1"); with a chunk the same on two lines ("F3" over
    "c1"), narrower; with a block the same ("b0" over "attn"); without an index the short name ("F" for a
    "forward" too narrow for the word)."""
    if s.block is not None:  # "b0 attn", or on two lines where the bar is narrow
        return [s.label, f"b{s.block}\n{palette.short_name(s.name)}"]
    if s.index is None:
        return list(dict.fromkeys([s.label, palette.short_name(s.name)]))
    if s.chunk is None:
        return [s.label]
    return [s.label, f"{palette.short_name(s.name)}{s.index}\nc{s.chunk}"]


def _visible(bar: tuple[float, float], later: list[tuple[float, float]]) -> tuple[float, float]:
    """The widest part of ``bar`` (x0, x1) that no bar drawn after it on its row covers."""
    parts = [bar]
    for c0, c1 in later:
        pieces = ((a, min(b, c0)) for a, b in parts), ((max(a, c1), b) for a, b in parts)
        parts = [p for side in pieces for p in side if p[1] > p[0]]
    return max(parts, key=lambda p: p[1] - p[0], default=(bar[0], bar[0]))


def _label_bars(ax, bars) -> None:
    """Label each bar where its text fits inside the part of it that shows (bars of one row may overlap:
    DDP's buckets in flight together, the later drawn on top), measured with the renderer on the final layout,
    and overlaps no label placed before it."""
    renderer, taken = plots.renderer_of(ax.figure), []
    for i, (s, x, width, y) in enumerate(bars):
        later = [(x2, x2 + w2) for _, x2, w2, y2 in bars[i + 1:]
                 if y2 == y and x2 < x + width and x2 + w2 > x]
        x0, x1 = _visible((x, x + width), later)
        plots.label_inside(ax, (x0, y - 0.4, x1, y + 0.4), _label_texts(s), taken, renderer,
                           fontsize=7, linespacing=1.0, color=palette.text_color(palette.color_of(s.name)))
