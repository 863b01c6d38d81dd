"""machine.saved_ceilings: the read-only reader of the ceilings the lessons kept (a lab sets its own beside them
without measuring or moving them)."""
import json
from dataclasses import asdict

from utils import machine


def _ceiling(kind, dtype, threads, size, best):
    unit = "B/s" if kind == "memory bandwidth" else "FLOP/s"
    return machine.Ceiling(kind, dtype, threads, size, best, best * 0.95, 0.05, unit)


def _write(path, ceilings):
    key = machine.machine_key("cpu")
    path.write_text(json.dumps({key: {"ceilings": {machine._slot(c): asdict(c) for c in ceilings},
                                      "date": "2026-12-07"}}))


def test_no_profile_or_no_ceilings_means_none(tmp_path):
    assert machine.saved_ceilings("cpu", path=tmp_path / "none.json") is None
    empty = tmp_path / "empty.json"
    empty.write_text(json.dumps({machine.machine_key("cpu"): {"ceilings": {}}}))
    assert machine.saved_ceilings("cpu", path=empty) is None


def test_the_saved_ceilings_are_the_ones_kept_and_nothing_is_written(tmp_path):
    path = tmp_path / "profile.json"
    peak = _ceiling("matmul peak", "fp32", 2, "1024³", 180e9)
    bandwidth = _ceiling("memory bandwidth", "fp32", 2, "STREAM add, 3 x 32 MiB", 15e9)
    _write(path, [peak, bandwidth])
    before = path.read_text()
    profile = machine.saved_ceilings("cpu", path=path)
    assert profile.peak("fp32").best == 180e9 and profile.bandwidth().best == 15e9
    assert "2026-12-07" in profile.measured and profile.link is None
    assert path.read_text() == before  # read only


def test_a_damaged_profile_reads_as_none(tmp_path):
    path = tmp_path / "profile.json"
    path.write_text("{not json")
    assert machine.saved_ceilings("cpu", path=path) is None
