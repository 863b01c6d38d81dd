"""Lesson 02's decisions on every fake machine (``pytest -m modes``): where the pipelines' stages run, which
GPT and batches they time, where they are split, the bound each speedup is set beside, the label that says
where it was measured, and which diagnostics apply. The benchmarks and lab 02 take the same decisions.
"""

import json
import re
from pathlib import Path

import pytest

from utils import checks, devices
from utils.benchmarks import naive_split as naive_bench
from utils.benchmarks import pipeline as pipeline_bench
from utils.labs.balance_the_pipeline import checks as lab
from utils.labs.balance_the_pipeline import reference as lab_reference
from utils.labs.balance_the_pipeline import workload as lab_workload
from utils.lessons.model_split import report, runs, schedules
from utils.lessons.model_split.balance import balanced_split, gpt_layer_costs, imbalance
from utils.lessons.model_split.bounds import pipeline_bound
from utils.lessons.model_split.plan import CPU_SIZES, GPU_SIZES, lesson_settings

pytestmark = pytest.mark.modes
ROOT = Path(__file__).resolve().parents[1]
CPU_WORKER_MODES = ("cpu", "1gpu")  # gloo workers: their pipeline stages run in CPU processes


def settings(machine):
    return lesson_settings(devices.plan(2), machine.hw)


def test_the_stages_run_on_gpus_only_where_each_worker_has_its_own(machine):
    s = settings(machine)
    assert s.workers == schedules.stage_devices(2)  # the workers' own rule (stage_device) agrees
    if machine.mode in CPU_WORKER_MODES:
        assert s.workers == ("cpu", "cpu") and s.cpu_workers and s.simulated
    else:
        assert s.workers == ("cuda:0", "cuda:1") and not s.cpu_workers


def test_every_split_is_the_cost_models_balanced_split_for_the_gpt_that_runs(machine):
    s = settings(machine)
    pairs = [(s.sizes, s.split)] + ([(s.in_process_sizes, s.in_process_split)] if s.in_process else [])
    for sizes, split in pairs:
        costs = gpt_layer_costs(sizes.width, sizes.depth, sizes.heads)
        assert len(costs) == sizes.depth + 2  # embedding, the blocks, the head
        assert list(split) == balanced_split(costs) and imbalance(costs, split) < 1.05
        if sizes.depth == 8:  # the GPU GPT: four blocks a stage, never the CPU GPT's [3] (2 blocks against 6)
            assert split == (5,)
    assert s.layer_costs == tuple(gpt_layer_costs(s.sizes.width, s.sizes.depth, s.sizes.heads))


def test_every_bound_is_what_the_devices_allow(machine):
    s = settings(machine)
    assert s.bounds == tuple(pipeline_bound(m) for m in s.micro_batches)  # two devices work: 2m/(m+1)
    if machine.mode == "cpu":
        assert s.in_process is None and s.in_process_bounds is None
    elif machine.mode == "1gpu":  # both stages of the one-process pipeline share one GPU: about 1x
        assert s.in_process == ("cuda:0", "cuda:0") and set(s.in_process_bounds) == {1.0}
    else:
        assert s.in_process == ("cuda:0", "cuda:1")
        assert s.in_process_bounds == tuple(pipeline_bound(m) for m in s.micro_batches)


def test_every_label_names_where_its_number_was_measured(machine):
    s = settings(machine)
    assert ("simulated on CPU" in s.label) == (machine.mode in CPU_WORKER_MODES)
    if not s.cpu_workers:
        assert all(d in s.label for d in s.workers)
    assert "simulated" not in s.in_process_label  # the one-process pipeline runs on GPUs, wherever it runs
    if s.in_process:
        assert s.in_process[0] in s.in_process_label
        assert ("one device" in s.in_process_label) == (machine.mode == "1gpu")
    if s.cpu_workers:
        assert s.transport.startswith("gloo over loopback TCP")
    else:
        kind = machine.hw.link.kind  # from the driver's facts (an "A100 PCIe" pair may sit on a bridge)
        assert s.transport.startswith(f"NCCL over {kind}")
        assert ("without peer access" in s.transport) == ("no peer access" in machine.name)


def test_sizes_grow_where_the_stages_run_on_gpus(machine):
    s = settings(machine)
    if s.cpu_workers:
        assert s.sizes == CPU_SIZES
    else:
        assert s.sizes == GPU_SIZES and s.sizes.width > CPU_SIZES.width and s.sizes.depth > CPU_SIZES.depth
        assert min(s.sizes.batches) >= max(CPU_SIZES.batches)
    assert (s.in_process_sizes == GPU_SIZES) == (machine.mode != "cpu")
    lab_s = lab_workload.lab_settings(devices.plan(2), machine.hw)
    assert lab_s.workers == s.workers and lab_s.label == s.label
    assert (lab_s.narrow, lab_s.wide, lab_s.batch) == ((128, 512, 4096) if s.cpu_workers else (512, 2048, 8192))
    assert all(lab_s.batch % m == 0 for m in lab_workload.CANDIDATE_M)


def test_the_cpu_time_analysis_shows_only_where_workers_are_cpu_processes(machine):
    s = settings(machine)
    assert s.cpu_time_analysis == s.cpu_workers
    row = runs.Row(64, 4, "gpipe", 1.0, 1.3, [0.6, 0.6], cpu=[0.2, 0.2], baseline_cpu=0.8, speedups=[1.2, 1.3, 1.4],
                   cpu_workers=s.cpu_workers, baseline_busy=1.0)
    text = report.explain_row(row)
    table = report.rows_table(runs.PipelineRun([row], [], s.split, 1, s.simulated))
    rules = " ".join(v for v, _ in report.verdict_table(cpu_times=s.cpu_time_analysis).rows)
    assert ("CPU/busy" in text) == ("CPU/busy" in table.columns) == s.cpu_time_analysis
    assert ("contention" in rules) == s.cpu_time_analysis
    if not s.cpu_workers:  # host thread time never set beside GPU event spans
        assert "CPU" not in text and row.cpu_share == [] and row.work == row.busy


def _capture_runs(monkeypatch, module):
    calls = []

    def fake(task, split_points, configs, rounds=5, record=True, seed=0, timeout=600):
        calls.append((task, tuple(split_points), list(configs)))
        rows = [runs.Row(c.batch, c.m, c.schedule, 1.0, 1.2, [0.5, 0.5], c.naive, c.split_points, speedups=[1.2])
                for c in configs]
        return runs.PipelineRun(rows, [], tuple(split_points), 1, True)

    monkeypatch.setattr(module, "measure_pipeline", fake)
    return calls


def test_the_benchmarks_time_the_lessons_settings(machine, monkeypatch):
    s = settings(machine)
    for module, bench_fn in ((pipeline_bench, pipeline_bench.bench_pipeline),
                             (naive_bench, naive_bench.bench_naive_split)):
        calls = _capture_runs(monkeypatch, module)
        result = bench_fn()
        for task, split, configs in calls:
            assert task.name == f"GPT width {s.sizes.width}, depth {s.sizes.depth}" and split == s.split
            assert {c.batch for c in configs} <= set(s.sizes.batches)
        assert s.label in result.note and f"split {list(s.split)}" in result.note
        if module is pipeline_bench:  # chosen on one run, reported from another that times the chosen alone
            (_, _, choosing), (_, _, reporting) = calls
            assert len(choosing) > 1 and all(c.m > 1 for c in choosing)
            assert [c.key for c in reporting] == [choosing[0].key] and "second run" in result.note
    assert result.bound == 1.0  # the naive split's


def _predict_speedup(profile, split_points, m):
    """Lab 02's exercise A as its solution answers it: 1F1B played pass by pass (check 3 times nothing until A
    passes check 1)."""
    return lab_reference.reference_speedup(profile, split_points, m)


def test_the_lab_times_its_sizes_and_labels_its_verdict(machine, monkeypatch):
    lab_s = lab_workload.lab_settings(devices.plan(2), machine.hw)
    calls = _capture_runs(monkeypatch, lab)
    monkeypatch.setattr(lab, "_choice_passes", lambda choose: True)  # the timing under test, past check 2's gate
    monkeypatch.setattr(lab, "_predicts_the_schedule", lambda predict: True)  # and check 1's (it refuses the
    # reference's own functions, which this test's prediction calls)
    verdict, _ = lab.check_pipelined(([2], 4), _predict_speedup, lab_reference.HIDDEN[-1].profile, settings=lab_s)
    assert verdict.status == checks.PASSED
    assert all(c.batch == lab_s.batch for _, _, configs in calls for c in configs)
    assert calls[0][0].name == f"widening MLP, {lab_s.narrow} then {lab_s.wide} wide"
    assert ("simulated on CPU" in verdict.message) == (machine.mode in CPU_WORKER_MODES)
    assert lab_s.label in verdict.message


# --- outputs nbval compares must read the same in every mode -------------------------------------------

# What a checked cell may print besides comparisons (True/False): values that no hardware decides.
MODE_INDEPENDENT = {"ATOL", "GRAD_ATOL", "rank", "got['shape']", "m", "bounds.pipeline_bound(m)",
                    "bounds.bubble_fraction(m)", "bounds.pipeline_bound(m, 4)", "bounds.bubble_fraction(m, 4)"}
COMPARISON = re.compile(r"<=|>=|==|!=|<|>")
FORMAT_SPEC = re.compile(r"(![rsa])?:[<>^=+\- #0-9,._a-z%]*$")


def _checked_cells(path):
    cells = json.loads(path.read_text())["cells"]
    return ["".join(c["source"]) for c in cells
            if c["cell_type"] == "code" and "NBVAL_CHECK_OUTPUT" in "".join(c["source"])]


def _fields(source: str) -> list[str]:
    """The expressions an f-string of ``source`` interpolates, without their format specs."""
    strings = re.findall(r'f"([^"]*)"', source) + re.findall(r"f'([^']*)'", source)
    return [FORMAT_SPEC.sub("", f).strip() for text in strings for f in re.findall(r"\{([^{}]*)\}", text)]


@pytest.mark.parametrize("notebook", ["notebooks/02_model_split.ipynb", "labs/02_balance_the_pipeline.ipynb"])
def test_checked_cells_print_nothing_the_hardware_decides(notebook):
    """A cell whose output nbval compares prints comparisons and mode-independent values only: no device,
    size, split or parameter count, which differ between a CPU and a GPU run."""
    for source in _checked_cells(ROOT / notebook):
        for field in _fields(source):
            assert COMPARISON.search(field) or field in MODE_INDEPENDENT, \
                f"{notebook}: a checked output prints {{{field}}}, which may differ between modes"


def test_the_link_every_transfer_is_set_beside_is_the_workers_own(machine):
    s = settings(machine)
    if s.cpu_workers:
        return  # gloo over loopback, measured in the run (tests/test_model_split_schedules.py times it)
    alpha, beta, where, accuracy, _ = runs.link_model(False, machine.hw)
    expected = machine.hw.link.bandwidth if machine.hw.link and machine.hw.link.bandwidth else \
        machine.hw.gpus[0].pcie_bandwidth
    assert alpha == 0.0 and beta == expected and "datasheet" in where and accuracy is None  # a bound, not a fit


def test_timed_gpu_workers_run_fp32_matmuls_on_tf32_from_ampere_on(machine):
    """IEEE fp32 on an A100/H100 is 8-16x slower than its tensor cores: compute would hide every message."""
    s = settings(machine)
    ampere = bool(machine.hw.gpus) and machine.hw.gpus[0].compute_capability >= (8, 0)
    assert s.precision == ("tf32" if ampere and not s.cpu_workers else "fp32")
    assert s.in_process_precision == (None if not s.in_process else "tf32" if ampere else "fp32")


def test_the_lessons_speedups_go_to_the_ledger_with_their_rounds():
    """Lesson 09 reads the naive split's and the pipeline's speedups from the ledger: with their paired rounds
    (``ledger.record(..., rounds=)``), it judges them with the same spread as lesson 02 printed."""
    cells = json.loads((ROOT / "notebooks/02_model_split.ipynb").read_text())["cells"]
    source = "".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
    for name, rows in (("naive_split_speedup", "row"), ("pipeline_speedup", "best")):
        call = source[source.index(f'ledger.record("{name}"'):]
        call = call[:call.index(")  #") if ")  #" in call else call.index("\n\n")]
        assert f"rounds={rows}.speedups" in call, name


def test_section_9s_schedules_go_to_the_ledger_under_lesson_09s_names(monkeypatch, tmp_path):
    """Interleaved 1F1B, ZB and ZBV are recorded with their bound, work-scaled reference and rounds, under the
    names lesson 09 reads; the notebook's section 9 cell records them."""
    from types import SimpleNamespace

    from utils import ledger
    from utils.lessons.model_split import multi

    monkeypatch.setenv(ledger.ENV, str(tmp_path))
    rows = [SimpleNamespace(schedule=name, speedup=1.6 + k / 10, bound=1.78, work_bound=1.7, speedups=[1.5, 1.6],
                            batch=128, m=4) for k, name in enumerate(multi.MULTI)]
    multi.record_ledger(rows)
    figures = ledger.read(devices.mode())
    for r, name in zip(rows, ("pipeline_interleaved_1f1b_speedup", "pipeline_zb_speedup", "pipeline_zbv_speedup")):
        got = figures[name]
        assert (got["value"], got["bound"], got["reference"], got["rounds"], got["lesson"]) == (
            r.speedup, 1.78, 1.7, [1.5, 1.6], "02")
    cells = json.loads((ROOT / "notebooks/02_model_split.ipynb").read_text())["cells"]
    assert any("multi.measure_multi(" in "".join(c["source"]) and "multi.record_ledger(chunked.rows"
               in "".join(c["source"]) for c in cells)
