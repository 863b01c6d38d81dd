"""Lesson 08's run time (t25): the memory column measures one tracked step per batch, precision and
checkpointing, so rungs that change only what the eager tracker does not see (compile, the fused optimizer)
do not run the same step again."""
import dataclasses

from utils.lessons.putting_it_together import ladder, step_memory
from utils.lessons.putting_it_together.script import Settings


def test_rungs_the_tracker_cannot_tell_apart_are_measured_once(monkeypatch):
    calls = []
    monkeypatch.setattr(step_memory, "_PEAKS", {})
    monkeypatch.setattr(step_memory, "_measure_peak", lambda shape, *key: calls.append(key) or 100.0 + len(calls))
    base = Settings()
    shape = ("fabricated", 4)
    assert ladder.step_peak(base, shape, [], simulated=True) == 101.0
    assert ladder.step_peak(dataclasses.replace(base, compile=True), shape, [], True) == 101.0   # not measured again
    assert ladder.step_peak(dataclasses.replace(base, fused_adamw=True), shape, [], True) == 101.0
    assert ladder.step_peak(dataclasses.replace(base, precision="bf16"), shape, [], True) == 102.0   # another step
    assert ladder.step_peak(dataclasses.replace(base, checkpointing=True), shape, [], True) == 103.0
    assert len(calls) == 3


def test_on_a_gpu_the_workers_reported_peak_is_read_not_measured(monkeypatch):
    monkeypatch.setattr(step_memory, "_measure_peak", lambda *a: (_ for _ in ()).throw(AssertionError("measured")))
    runs = [{"peak_bytes": 5.0}, {"peak_bytes": 7.0}]
    assert ladder.step_peak(Settings(), ("any",), runs, simulated=False) == 7.0
