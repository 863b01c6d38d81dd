"""utils.timeline: spans, busy fractions, the Gantt chart, and two real worker processes on one clock."""

from __future__ import annotations

import os
import queue
import sys
import time

import pytest

from utils import timeline
from utils.timeline import Span

FIXTURES = os.path.join(os.path.dirname(__file__), "fixtures")
if FIXTURES not in sys.path:
    sys.path.append(FIXTURES)  # spawned workers get this path too, and import monitor_workers from it

import monitor_workers  # noqa: E402


def _run_workers(fn, nprocs: int, *extra, handoff: bool = False):
    """Run ``fn(rank, [handoff,] results, *extra)`` in spawned processes; return what each put in results."""
    import torch.multiprocessing as mp

    ctx = mp.get_context("spawn")
    results = ctx.Queue()
    args = ((ctx.SimpleQueue(), results) if handoff else (results,)) + extra
    context = mp.start_processes(fn, args=args, nprocs=nprocs, join=False, start_method="spawn")
    gathered = []
    while len(gathered) < nprocs:  # read before join: a worker with unread results would not exit
        try:
            gathered.append(results.get(timeout=0.2))
        except queue.Empty:
            context.join(timeout=0)  # raises at once if a worker failed, instead of waiting forever
    while not context.join(timeout=30):
        pass
    return gathered


@pytest.mark.timeout(30)
def test_span_recorder_on_cpu_uses_the_clock_it_is_given():
    ticks = iter([1.0, 1.5, 2.0, 3.5])
    rec = timeline.SpanRecorder("stage 1", clock=lambda: next(ticks))
    with rec.span("forward", 0):
        pass
    with rec.span("backward", 0):
        pass
    assert rec.spans() == [Span("stage 1", "forward", 0, 1.0, 1.5), Span("stage 1", "backward", 0, 2.0, 3.5)]
    assert [s.label for s in rec.spans()] == ["F0", "B0"]


@pytest.mark.timeout(30)
def test_busy_fraction_counts_overlaps_once_and_idle_gaps():
    spans = [Span("a", "compute", 0, 0.0, 1.0), Span("a", "compute", 1, 0.5, 1.5),  # overlap: 1.5 s busy
             Span("a", "compute", 2, 3.0, 4.0), Span("b", "load", None, 1.0, 2.0)]
    assert timeline.busy_fractions(spans) == pytest.approx({"a": 2.5 / 4, "b": 1 / 4})
    # dicts (what workers send back) and per-worker lists are accepted as they come
    nested = [[s.to_dict() for s in spans[:3]], [spans[3]]]
    assert timeline.busy_fractions(nested) == timeline.busy_fractions(spans)


@pytest.mark.timeout(30)
def test_plot_gantt_one_row_per_device_with_busy_annotation():
    spans = [Span("stage 0", "forward", k, k * 1.0, k * 1.0 + 0.8) for k in range(3)]
    spans += [Span("stage 1", "forward", k, k * 1.0 + 0.8, k * 1.0 + 1.6) for k in range(3)]
    fig = timeline.plot_gantt(spans, title="toy")
    ax = fig.axes[0]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["stage 0", "stage 1"]
    texts = [t.get_text() for t in ax.texts]
    assert texts.count("busy 67%") == 2  # each row: 2.4 s busy in a 3.6 s window
    assert {"F0", "F1", "F2"} <= set(texts)
    assert any("simulated on CPU" in t.get_text() for t in fig.texts)
    with pytest.raises(ValueError, match="no spans"):
        timeline.plot_gantt([])


def test_labels_say_pass_micro_batch_and_chunk():
    assert [Span("s", n, 3, 0.0, 1.0).label for n in ("forward", "backward", "weight")] == ["F3", "B3", "W3"]
    assert Span("s", "forward", 3, 0.0, 1.0, chunk=1).label == "F3c1"  # micro-batch 3 on the worker's chunk 1
    assert [Span("s", n, 2, 0.0, 1.0).label for n in ("attention", "ffn")] == ["attn2", "ffn2"]
    assert Span("s", "all-reduce", None, 0.0, 1.0).label == "all-reduce"
    assert [Span("s", n, 0, 0.0, 1.0).kind for n in ("ffn", "weight")] == ["forward", "weight gradient"]


def test_spans_without_a_chunk_still_load_and_the_recorder_records_one():
    old = {"device": "stage 0", "name": "forward", "index": 0, "start": 0.0, "end": 1.0, "on_gpu": False}
    assert timeline.flatten([old]) == [Span("stage 0", "forward", 0, 0.0, 1.0)]  # a dict saved before chunks
    ticks = iter([1.0, 2.0])
    rec = timeline.SpanRecorder("stage 0", clock=lambda: next(ticks))
    with rec.span("forward", 3, chunk=1):
        pass
    assert rec.spans()[0].chunk == 1 and rec.spans()[0].to_dict()["chunk"] == 1


def test_bars_take_their_kinds_colour_from_the_palette():
    from matplotlib.colors import to_rgba

    from utils import palette

    spans = [Span("rank 0", "attention", 0, 0.0, 1.0), Span("rank 1", "ffn", 0, 1.0, 2.0),
             Span("rank 1", "all-reduce", None, 2.0, 3.0)]
    ax = timeline.plot_gantt(spans).axes[0]
    colours = [tuple(c.get_facecolor()[0]) for c in ax.collections]
    assert colours.count(to_rgba(palette.KIND_COLORS["forward"])) == 2  # attention and ffn: forward compute
    assert to_rgba(palette.KIND_COLORS["communication"]) in colours
    assert timeline.KIND_COLORS is palette.KIND_COLORS  # the old name still works


@pytest.mark.timeout(60)
def test_perf_counter_is_one_clock_across_processes():
    """The documented claim: a child's perf_counter lies between the parent's readings around it."""
    assert timeline.clock_is_system_wide()
    before = time.perf_counter()
    (child,) = _run_workers(monitor_workers.clock_reading, 1)
    after = time.perf_counter()
    assert before < child < after


@pytest.mark.timeout(60)
def test_two_real_workers_record_a_pipeline_schedule(tmp_path):
    n_micro, work_s = 4, 0.08
    per_worker = _run_workers(monitor_workers.pipeline_stage, 2, n_micro, work_s, handoff=True)
    spans = timeline.flatten(per_worker)
    by_key = {(s.device, s.name, s.index): s for s in spans}
    assert len(spans) == 3 * n_micro
    for k in range(n_micro):
        # Causality across processes: only true if both processes read the same clock.
        assert by_key[("stage 1", "forward", k)].start >= by_key[("stage 0", "forward", k)].end
        assert by_key[("stage 0", "forward", k)].duration >= work_s * 0.95
    fractions = timeline.busy_fractions(spans)
    assert set(fractions) == {"stage 0", "stage 1"}
    assert 0 < fractions["stage 1"] < fractions["stage 0"] <= 1  # stage 1 waits for the first load+forward
    fig = timeline.plot_gantt(spans)
    fig.savefig(tmp_path / "gantt.png")
    assert (tmp_path / "gantt.png").stat().st_size > 0


def test_a_span_of_a_block_says_block_and_kind_and_old_records_still_load():
    s = Span("rank 0", "attention", 3, 0.0, 1.0, block=2)
    assert s.label == "b2 attn" and Span(**{k: v for k, v in s.to_dict().items() if k != "block"}).block is None


def test_a_row_that_communicates_shows_its_work_and_its_communication_apart():
    spans = [Span("rank 0", "ffn", 0, 0.0, 6.0), Span("rank 0", "all-reduce", 0, 6.0, 8.0),
             Span("rank 1", "forward", 0, 0.0, 10.0)]
    fig = timeline.plot_gantt(spans)
    texts = [t.get_text() for t in fig.axes[0].texts]
    assert "work 60%, comm 20%, idle 20%" in texts and "busy 100%" in texts  # the three shares add to 100
