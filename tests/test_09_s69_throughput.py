"""Lesson 09 (t30_09 #3, #5): row A24 reads lesson 08's step as row A3 does, and the summary's "two GPUs raise
throughput" is printed from A24's check, one sentence for each of its answers. Fabricated figures only."""

import pytest

from utils.lessons.articles_checked import checks, copy_paths
from utils.lessons.articles_checked.two_gpus_words import throughput_sentence


def _ddp(value):
    return {"value": value, "bound": 2.0, "rounds": [value * k for k in (0.98, 0.99, 1.0, 1.01, 1.02)]}


def _capstone(speedup, spread):
    return {"steps": {"two devices": {"value": speedup, "spread": spread}}, "value": speedup}


@pytest.mark.parametrize("check, expected", [
    (checks.AGREES, "Two GPUs raised throughput in the lessons' runs for two DDP workers in training (lessons 03 "
                    "and 08), within 2x"),
    (checks.ABOVE, "passed its bound"),
    (checks.DISAGREES, "did not raise throughput"),
    (checks.NOISY, "do not show whether two GPUs raise throughput"),
    (checks.BUSY, "busy machine"),
    (checks.WAITING, "not recorded yet"),
])
def test_every_answer_of_a24_has_its_sentence(check, expected):
    sentence = throughput_sentence(check)
    assert expected in sentence and ("row A24" in sentence)
    # t31_09 #3: the sentence names what A24 read and leaves the other two-device runs to their rows
    # t35_09 #4: every two-device run this page times, B22's DDP workers among them; A24's are the lessons' runs
    assert sentence.endswith("tensor parallel inference (row A21), the article's split (row A11) and the case "
                             "study's CNN on two DDP workers (row B22), are read in their own rows.")
    assert "in this run" not in sentence and "This run" not in sentence


def test_every_state_is_covered():
    assert len({throughput_sentence(state) for state in checks.STATES}) == len(checks.STATES)


def test_a24_reads_lesson_08s_step_as_a3_does(monkeypatch):
    """A lesson 08 step within noise of one device (1.22x ± 0.25) makes both rows inconclusive, not A24 agree."""
    from utils.lessons.articles_checked import figures
    monkeypatch.setattr(checks, "capstone_two_devices", lambda r: r["steps"]["two devices"]["value"])
    monkeypatch.setattr(figures, "capstone_two_devices", lambda r: r["steps"]["two devices"]["value"])
    from utils.lessons.articles_checked import capstone
    monkeypatch.setattr(capstone, "capstone_two_devices", lambda r: r["steps"]["two devices"]["value"])
    records = {"ddp": _ddp(1.62), "capstone": _capstone(1.22, 0.25)}
    monkeypatch.setattr(checks, "recorded", lambda m, name: type("R", (), {"record": records[name]})())
    monkeypatch.setattr(checks, "needs_undisturbed", lambda m, name: None)
    monkeypatch.setattr(checks, "faster_within_bound", lambda m, name: True)
    assert checks.run_check("A3", {}, {}) == checks.NOISY
    assert checks.run_check("A24", {}, {}) == checks.NOISY
    records["capstone"] = _capstone(1.22, 0.02)  # clear of one device: both rows agree
    assert checks.run_check("A24", {}, {}) == checks.AGREES == checks.run_check("A3", {}, {})


def test_the_copy_paths_checks_are_still_read_through_checks():
    assert checks._paths is copy_paths._paths and checks.CHECKS["A18"] is copy_paths._peer_path_faster
