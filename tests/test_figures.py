"""Every timeline and chart of the course: one palette, and labels that never overprint (issue 22, item 8).

The palette (``utils.palette``) gives each kind of work one colour in every lesson, and every span name the
course records has a kind. Each Gantt chart the lessons draw (02's pipeline schedules, 03's DDP buckets,
05's loading and compute, 07's tensor-parallel blocks) is drawn here from synthetic spans, crowded on
purpose (8 and 16 micro-batches, 2 and 4 rows, chunks, overlapping buckets), and must have no two labels
overlapping and no label outside its bar. The other figures of lessons 02-07 are checked for overlapping
labels on small inputs. Lesson 01's roofline has its own tests (tests/test_why_slow.py).
"""

from __future__ import annotations

import colorsys
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from matplotlib.colors import to_rgb

from utils import palette, plots, timeline
from utils.timeline import Span

ROOT = Path(__file__).resolve().parents[1]


# --- the palette ------------------------------------------------------------------------------------------


def test_the_five_kinds_have_five_distinct_colours_and_idle_is_a_light_grey():
    colours = [palette.KIND_COLORS[k] for k in palette.MAIN_KINDS]
    assert len(set(colours)) == 5
    assert len(set(palette.KIND_COLORS.values())) == len(palette.KIND_COLORS)  # no two kinds share one
    hue, lightness, saturation = colorsys.rgb_to_hls(*to_rgb(palette.KIND_COLORS[palette.IDLE]))
    assert lightness > 0.85 and saturation < 0.05


# What records a span in the course's code: rec.span("forward", k), Span(row, "all-reduce", ...),
# timed("forward"), span_timer(recorder)("compute"), run_epoch(..., wait_name="wait").
SPAN_NAME_PATTERNS = [r"\.span\(\s*\"([^\"]+)\"", r"\bSpan\([^,()]+,\s*\"([^\"]+)\"",
                      r"\btimed\(\"([^\"]+)\"\)", r"span_timer\([^()]*\)\(\"([^\"]+)\"\)",
                      r"wait_name(?::\s*str)?\s*=\s*\"([^\"]+)\""]


def course_span_names() -> set[str]:
    names = set()
    for path in (ROOT / "utils").rglob("*.py"):
        text = path.read_text()
        for pattern in SPAN_NAME_PATTERNS:
            names |= set(re.findall(pattern, text))
    return names


def test_every_span_name_in_the_course_has_a_kind():
    names = course_span_names()
    # The scan finds what the lessons record (else it would pass by finding nothing).
    recorded = {"forward", "backward", "weight", "all-reduce", "attention", "ffn", "load", "compute", "wait"}
    assert recorded <= names
    assert [n for n in sorted(names) if not palette.is_known(n)] == []
    assert palette.kind_of("ffn") == palette.kind_of("attention") == palette.FORWARD
    assert palette.kind_of("weight") == palette.WEIGHT
    assert {palette.kind_of(n) for n in ("all-reduce", "all-gather", "reduce-scatter", "send", "recv")} == {
        palette.COMMUNICATION}


def test_an_unknown_name_gets_a_stable_spare_colour_never_a_kinds():
    main = {palette.KIND_COLORS[k] for k in palette.MAIN_KINDS}
    for name in ("mystery", "prefill", "decode", "checkpoint"):
        assert palette.color_of(name) in palette.SPARE_COLORS and palette.color_of(name) not in main
        assert palette.color_of(name) == palette.color_of(name)
    # Stable across processes too (Python's own hash of a string is not): the same name, the same colour.
    code = "from utils.palette import color_of; print(color_of('mystery'), color_of('decode'))"
    env = {**os.environ, "PYTHONHASHSEED": "123"}
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                         check=True).stdout.split()
    assert out == [palette.color_of("mystery"), palette.color_of("decode")]


# --- synthetic timelines of every lesson -----------------------------------------------------------------


def pipeline_spans(m: int, p: int, chunks: int = 1, weight: bool = False, f: float = 1e-3) -> list[Span]:
    """A GPipe-like schedule of lesson 02: forward of every micro-batch (and chunk), then every backward
    (B twice F) and, for zero-bubble schedules, weight-gradient passes (W); stage r starts r passes late."""
    spans = []
    for r in range(p):
        t = r * f
        for name, length in (("forward", f), ("backward", 2 * f)) + ((("weight", f / 2),) if weight else ()):
            for k in range(m):
                for c in range(chunks):
                    chunk = c if chunks > 1 else None
                    spans.append(Span(f"stage {r}", name, k, t, t + 0.95 * length, chunk=chunk))
                    t += length
    return spans


def ddp_spans(buckets: int = 8) -> list[Span]:
    """Lesson 03's step: forward and backward on the compute row, bucket all-reduces in flight together."""
    spans = [Span("rank 0 compute", "forward", None, 0.0, 0.010),
             Span("rank 0 compute", "backward", None, 0.010, 0.030)]
    spans += [Span("rank 0 communication", "all-reduce", k, 0.012 + 0.002 * k, 0.018 + 0.003 * k)
              for k in range(buckets)]
    return spans


def tensor_parallel_spans(blocks: int = 4, rounds: int = 3) -> list[Span]:
    """Lesson 07's tensor-parallel stack: attention and FFN on both ranks, an all-reduce cut out of each."""
    from utils.lessons.tensor_parallel.timelines import carve

    spans, t = [], 0.0
    for k in range(rounds):
        for _ in range(blocks):
            for name in ("attention", "ffn"):
                for rank in (0, 1):
                    spans.append(Span(f"rank {rank}", name, k, t, t + 0.004))
                    spans.append(Span(f"rank {rank}", "all-reduce", None, t + 0.003, t + 0.0035))
                t += 0.0045
    return carve(spans)


def article_spans(blocks: int = 4, rounds: int = 4) -> list[Span]:
    """Lesson 07's article split: attention on rank 0, then FFN on rank 1, block after block."""
    spans, t = [], 0.0
    for k in range(rounds):
        for _ in range(blocks):
            spans.append(Span("rank 0", "attention", k, t, t + 0.002))
            spans.append(Span("rank 1", "ffn", k, t + 0.0022, t + 0.0045))
            t += 0.0047
    return spans


def prefetch_spans(batches: int) -> list[Span]:
    """Lesson 05 with a prefetching thread: ``epoch_spans`` of an epoch, loads and compute side by side."""
    from utils.lessons.data_prefetch import epoch

    compute = [Span("training process", "compute", k, 0.02 + 0.03 * k, 0.045 + 0.03 * k)
               for k in range(batches)]
    waits = [Span("training process", "wait", k, 0.03 * k, 0.02 + 0.03 * k) for k in range(batches)]
    loads = [Span("prefetch thread", "load", k, 0.03 * k, 0.028 + 0.03 * k) for k in range(batches)]
    result = epoch.EpochResult(0.05 + 0.03 * batches, batches, 0.02 * batches, sorted(waits + compute,
                                                                                   key=lambda s: s.start))
    return epoch.epoch_spans(result, loads=loads, batches=batches)


def schedule(spans, **kwargs):
    from utils.lessons.model_split import report

    return report.plot_schedule(spans, **kwargs)


GANTTS = {
    "lesson 02, 1F1B m=4, 2 stages": lambda: schedule(pipeline_spans(4, 2)),
    "lesson 02, m=8, 2 stages": lambda: schedule(pipeline_spans(8, 2)),
    "lesson 02, m=16, 4 stages": lambda: schedule(pipeline_spans(16, 4)),
    "lesson 02, zero bubble m=8 (W)": lambda: schedule(pipeline_spans(8, 2, weight=True)),
    "lesson 02, interleaved m=8, 2 chunks": lambda: schedule(pipeline_spans(8, 2, chunks=2, weight=True)),
    "lesson 02, interleaved m=16, 4 stages, 2 chunks": lambda: schedule(pipeline_spans(16, 4, chunks=2)),
    "lesson 02, 64 narrow bars": lambda: timeline.plot_gantt(pipeline_spans(64, 2, f=1e-5)),
    "lesson 03, DDP buckets in flight": lambda: timeline.plot_gantt(ddp_spans()),
    "lesson 03, 32 buckets": lambda: timeline.plot_gantt(ddp_spans(32)),
    "lesson 05, prefetch 8 batches": lambda: timeline.plot_gantt(prefetch_spans(8)),
    "lesson 05, prefetch 16 batches": lambda: timeline.plot_gantt(prefetch_spans(16)),
    "lesson 07, article split": lambda: timeline.plot_gantt(article_spans()),
    "lesson 07, tensor parallel": lambda: timeline.plot_gantt(tensor_parallel_spans()),
}


def bar_labels(ax) -> list:
    """The texts drawn on the bars (the row's "busy 80%" sits outside the axes, in axes coordinates)."""
    return [t for t in ax.texts if t.get_transform() == ax.transData]


def outside_their_bars(fig) -> list[str]:
    """Bar labels whose drawn box is not inside the bar seen under their centre (the last drawn there), or
    that a bar drawn later covers in part. Found here from the drawn bars, not from what
    ``plots.label_inside`` remembered, so that the check does not trust the code it checks."""
    ax, renderer = fig.axes[0], plots.renderer_of(fig)
    bars = [c.get_paths()[0].get_extents() for c in ax.collections]  # data coordinates, in drawing order
    shown = [b.transformed(ax.transData) for b in bars]
    out = []
    for text in bar_labels(ax):
        x, y = text.get_position()
        top = max(i for i, b in enumerate(bars) if b.x0 <= x <= b.x1 and b.y0 <= y <= b.y1)
        bar, box = shown[top], plots.text_box(text, renderer)
        inside = bar.x0 <= box.x0 and box.x1 <= bar.x1 and min(bar.y0, bar.y1) <= box.y0 <= box.y1 <= max(
            bar.y0, bar.y1)
        covered = any(later.overlaps(box) for later in shown[top + 1:])
        if not inside or covered:
            out.append(text.get_text())
    return out


@pytest.mark.parametrize("name", GANTTS)
def test_gantt_labels_never_overprint_and_stay_inside_their_bars(name):
    fig = GANTTS[name]()
    assert plots.overlapping_labels(fig) == []
    assert plots.labels_outside(fig) == []
    assert outside_their_bars(fig) == []


def test_wide_bars_say_pass_micro_batch_and_chunk():
    texts = {t.get_text() for t in bar_labels(schedule(pipeline_spans(4, 2, weight=True)).axes[0])}
    assert {f"{p}{k}" for p in "FBW" for k in range(4)} <= texts
    chunked = {t.get_text() for t in bar_labels(schedule(pipeline_spans(4, 2, chunks=2)).axes[0])}
    assert {"F3c1", "B0c0"} <= chunked or {"F3\nc1", "B0\nc0"} <= chunked
    tensor_parallel = {t.get_text() for t in bar_labels(timeline.plot_gantt(article_spans(1, 2)).axes[0])}
    assert {"attn0", "ffn1"} <= tensor_parallel  # lesson 07's names, in forward's colour


def test_a_label_too_wide_for_its_bar_is_left_out():
    spans = [Span("stage 0", "forward", 0, 0.0, 1.0), Span("stage 0", "backward", 12, 1.0, 1.004),
             Span("stage 0", "forward", 1, 1.004, 2.0)]
    texts = {t.get_text() for t in bar_labels(timeline.plot_gantt(spans).axes[0])}
    assert texts == {"F0", "F1"}


def test_the_legend_names_kinds_in_their_colours_the_same_in_every_lesson():
    charts = ((pipeline_spans(2, 2, weight=True), ["forward", "backward", "weight gradient", "idle"]),
              (tensor_parallel_spans(1, 1), ["forward", "communication", "idle"]),
              (prefetch_spans(2), ["load", "compute", "idle"]))
    for spans, kinds in charts:
        legend = timeline.plot_gantt(spans).axes[0].get_legend()
        assert [t.get_text() for t in legend.get_texts()] == kinds
        for text, patch in zip(legend.get_texts(), legend.get_patches()):
            assert patch.get_facecolor()[:3] == pytest.approx(to_rgb(palette.KIND_COLORS[text.get_text()]))


# --- the other figures of lessons 02-07 ------------------------------------------------------------------


def speedups_figure():
    from utils.lessons.model_split import report, runs

    rows = [runs.Row(32, m, s, 1.0, 1.6, [0.8, 0.8], speedups=[1.5, 1.6, 1.7]) for m in (1, 2, 4, 8, 16)
            for s in ("gpipe", "1f1b")]
    return report.plot_speedups(runs.PipelineRun(rows, [], (3,), 1, True))


def all_reduce_figure():
    from utils.lessons.ddp import allreduce

    rows = [{"bytes": 2**k, "seconds": 1e-5 + 2**k / 5e9} for k in range(12, 27, 2)]
    rows = [{**r, "algbw": r["bytes"] / r["seconds"], "busbw": r["bytes"] / r["seconds"]} for r in rows]
    return allreduce.plot_all_reduce(rows, 10e9, "bound: link 10 GB/s", " (simulated on CPU)")


def epochs_figure():
    from utils.lessons.data_prefetch import report

    return report.plot_epochs({"no workers": (2.0, 1.5, 0), "2 workers": (1.0, 0.9, 2),
                               "4 workers": (0.8, 0.5, 4), "prefetch": (0.9, 0.5, 1)}, simulated=True)


def cost_figures():
    from utils.lessons.tensor_parallel import report

    rows = [dict(width=w, one=w * 1e-6, two=w * 6e-7, predicted=w * 5.5e-7, speedup=1.6,
                 predicted_speedup=1.8, spread=0.1) for w in (64, 128, 256, 512, 1024)]
    got = {"new_tokens": 8, "rows": [{"batch": b, "one device": b * 0.01, "tensor parallel": b * 0.007,
                                      "pipeline": b * 0.006} for b in (1, 4, 16)]}
    cost = report.plot_cost({"rows": rows}, 2.0, " (simulated on CPU)", True)
    return cost, report.plot_inference(got, "", True)


# Lesson 04's twelve variants as its notebook measured them (two MLP variants of 2.93 and 2.94 MB at the
# same accuracy once numbered "12" over "10").
LESSON_04_VARIANTS = [  # family, stored MB, fastest ms, accuracy, on the front
    ("CNN", 1.73, 39.11, .975, 0), ("CNN", 1.73, 38.66, .969, 0), ("CNN", 1.73, 38.67, .964, 0),
    ("CNN", .44, 13.18, .956, 0), ("CNN", .44, 13.25, .947, 0), ("CNN", .44, 13.22, .958, 1),
    ("CNN", .52, 38.88, .975, 1), ("CNN", .87, 28.02, .975, 1), ("MLP", 11.66, 15.76, .967, 0),
    ("MLP", 2.94, 16.56, .967, 0), ("MLP", 2.94, 8.60, .967, 0), ("MLP", 2.93, 4.10, .967, 1)]


def front_figure():
    from utils.lessons.compression import pareto

    variants = [dict(family=f, mb=mb, ms=ms, acc=acc, front=bool(front))
                for f, mb, ms, acc, front in LESSON_04_VARIANTS]
    return pareto.plot_front(variants, latency_batch=256, label=" (on the CPU)")


FIGURES = {
    "lesson 02, speedups": lambda: [speedups_figure()],
    "lesson 03, all-reduce bandwidth": lambda: [all_reduce_figure()],
    "lesson 04, Pareto front": lambda: [front_figure()],
    "lesson 05, epochs against bounds": lambda: [epochs_figure()],
    "lesson 07, cost and inference": cost_figures,
}


@pytest.mark.parametrize("name", FIGURES)
def test_other_figures_have_no_overlapping_labels(name):
    for fig in FIGURES[name]():
        assert plots.overlapping_labels(fig) == []


def test_lesson_04s_front_numbers_every_point_of_both_panels():
    fig = front_figure()
    for ax in fig.axes:  # markers on one spot share a label ("12 (filled), 10, 11"): each number once
        numbers = [int(n) for t in ax.texts for n in t.get_text().replace(" (filled)", "").split(", ")]
        assert sorted(numbers) == list(range(1, len(LESSON_04_VARIANTS) + 1))
