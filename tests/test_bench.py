"""utils.bench: timing with a fake clock, ratios, results, the registry and its command line."""

import json
import subprocess
import sys

import pytest

from utils import bench


class FakeClock:
    """Each call to ``fn`` advances time by the next duration; the clock only moves when fn runs."""

    def __init__(self, durations):
        self.now, self.durations, self.calls = 0.0, list(durations), 0

    def __call__(self):
        return self.now

    def work(self):
        self.now += self.durations[self.calls]
        self.calls += 1


def test_measure_discards_warmup_and_reports_median_min_max():
    clock = FakeClock([9.0, 9.0, 0.3, 0.1, 0.2, 0.5, 0.4])  # two slow warm-up calls, then five timed
    m = bench.measure(clock.work, warmup=2, repeats=5, clock=clock)
    assert clock.calls == 7
    assert m.samples == pytest.approx([0.3, 0.1, 0.2, 0.5, 0.4])
    assert (m.median, m.min, m.max) == pytest.approx((0.3, 0.1, 0.5))
    assert m.spread == pytest.approx((0.5 - 0.1) / 0.3)
    assert "median 300.0 ms" in str(m)


def test_measure_rejects_zero_repeats():
    with pytest.raises(ValueError):
        bench.measure(lambda: None, repeats=0)


def test_throughput_and_ratio_to_bound():
    assert bench.throughput(1000, 0.5) == 2000
    with pytest.raises(ValueError):
        bench.throughput(1, 0)
    assert bench.ratio_to_bound(1.8, 2.0) == pytest.approx(0.9)  # a rate: measured / bound
    assert bench.ratio_to_bound(1.1, 1.0, higher_is_better=False) == pytest.approx(1 / 1.1)  # a time


def test_result_json_has_the_standard_keys_and_extras_beside_them():
    r = bench.Result("x", measured=3.0, bound=4.0, unit="x", mode="cpu", hardware="test box",
                     extra={"size_ratio": 3.9})
    data = r.to_json()
    assert {"name", "mode", "measured", "bound", "ratio_to_bound", "unit", "hardware"} <= set(data)
    assert data["ratio_to_bound"] == pytest.approx(0.75) and data["size_ratio"] == 3.9


def test_results_table_renders_as_markdown_and_html(tmp_path):
    results = [bench.Result("a", 1.0, 2.0, "GB/s", mode="cpu", hardware="box"),
               bench.Result("b", 3.0, 3.0, "x", mode="cpu", hardware="box")]
    table = bench.results_table(results)
    md = table.to_markdown()
    assert md.splitlines()[0].startswith("| benchmark |") and "| a | cpu | 1 GB/s | 2 GB/s | 0.50 |" in md
    assert "<table>" in table._repr_html_()
    md_path, json_path = bench.write_results(results, tmp_path)
    assert md_path.name == "bench-cpu.md" and "Measured on: box" in md_path.read_text()
    assert [r["name"] for r in json.loads(json_path.read_text())] == ["a", "b"]


def test_command_line_prints_one_json_object_per_benchmark(tmp_path):
    out = subprocess.run([sys.executable, "-m", "utils.benchmarks", "copy", "--json", "--out", str(tmp_path)],
                         capture_output=True, text=True, check=True, timeout=120)
    lines = out.stdout.strip().splitlines()
    assert len(lines) == 1
    result = json.loads(lines[0])
    assert result["name"] == "copy" and result["mode"] == "cpu" and result["measured"] > 0
    assert result["ratio_to_bound"] == pytest.approx(result["measured"] / result["bound"])
    assert (tmp_path / "bench-cpu.json").exists()


def test_command_line_names_unknown_benchmarks():
    out = subprocess.run([sys.executable, "-m", "utils.benchmarks", "nope"], capture_output=True, text=True)
    assert out.returncode == 2 and "unknown benchmark(s) nope" in out.stderr and "copy" in out.stderr


def _make_package(root, files: dict[str, str]) -> str:
    package = root / f"fakebench_{root.name}"  # a fresh name per test: imported modules stay in sys.modules
    package.mkdir()
    (package / "__init__.py").write_text("")
    for name, text in files.items():
        (package / name).write_text(text)
    return package.name


BENCH_A = "from utils import bench\n@bench.register('a')\ndef a():\n    return bench.Result('a', 1.0, 2.0, 'x')\n"
BENCH_B = "from utils import bench\n@bench.register('b')\ndef b():\n    return None\ndef helper():\n    pass\n"


def test_discover_finds_every_registered_function_in_a_package_and_nothing_else(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(tmp_path))
    found = bench.discover(_make_package(tmp_path, {"a.py": BENCH_A, "b.py": BENCH_B}))
    assert sorted(found) == ["a", "b"] and found["a"]().measured == 1.0


def test_two_benchmarks_with_one_name_are_an_error(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(tmp_path))
    package = _make_package(tmp_path, {"a.py": BENCH_A, "c.py": BENCH_A.replace("def a", "def c")})
    with pytest.raises(ValueError, match="two benchmarks are named 'a'"):
        bench.discover(package)


def test_the_course_benchmarks_are_found_one_module_each():
    found = bench.discover("utils.benchmarks")
    assert {"copy", "launch", "monitor"} <= set(found)
    assert all(fn.__module__.startswith("utils.benchmarks.") for fn in found.values())


def test_threads_sets_and_restores_torch_cpu_threads():
    import torch

    before = torch.get_num_threads()
    with bench.threads(1):
        assert torch.get_num_threads() == 1
    assert torch.get_num_threads() == before
    with bench.threads(None):  # None leaves the count alone
        assert torch.get_num_threads() == before


def test_alternate_runs_the_two_in_turn_each_round_starting_with_the_other():
    order = []
    a, b = bench.alternate(lambda: order.append("a") or len(order), lambda: order.append("b") or len(order), 3)
    assert order == ["a", "b", "b", "a", "a", "b"]
    assert a == [1, 4, 5] and b == [2, 3, 6]
