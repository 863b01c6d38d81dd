"""Lesson 02, the twenty-fifth reading (t25_02 #3-#5 and the cheap leftovers): a CPU/busy under the line names
both candidates for the core (the worker's own gloo threads, other programs) and says the run does not tell
which; section 9's idle shares carry their rounds' spread and are read "less idle" only where the bands clear;
the summary's balancing take-away is printed from section 7's gain; the pipelines' ledger records carry
CPU/busy, the host's load and its cores for lesson 09. Fabricated figures, CPU only; each branch."""

import json
from pathlib import Path

from utils import devices, ledger
from utils.lessons.articles_checked import figures as checked_figures
from utils.lessons.model_split import balance, chunks, host, multi, plan, report, runs

NOTEBOOK = Path(__file__).resolve().parents[1] / "notebooks/02_model_split.ipynb"


def _cells():
    return json.loads(NOTEBOOK.read_text())["cells"]


def _source(cell) -> str:
    return "".join(cell["source"])


# --- #3: who held the core -----------------------------------------------------------------------------------


def test_a_cpu_busy_under_the_line_names_both_candidates_and_does_not_pick_one():
    low = runs.Row(32, 4, "gpipe", 1.0, 1.2, [0.2, 0.2], cpu=[0.152, 0.198], baseline_cpu=0.4, speedups=[1.2])
    said = report.cpu_busy_note([low])
    assert "Below 80%, a stage waited for a core inside its passes (for the worker's own communication (gloo) " \
           "threads, pinned to the same core, or other programs: this run does not tell which)." in said
    kept = runs.Row(32, 4, "gpipe", 1.0, 1.2, [0.2, 0.2], cpu=[0.19, 0.198], baseline_cpu=0.4, speedups=[1.2])
    assert "None is below 80%: no stage shows waiting for a core." in report.cpu_busy_note([kept])
    assert "gloo" not in report.cpu_busy_note([kept])


def test_the_load_note_counts_the_workers_gloo_threads_with_other_programs():
    said = report.load_note(2.54, 2)
    assert said.startswith("host load average 2.5 on 2 cores: the two workers' compute threads account for up to 2")
    assert "the workers' own communication (gloo) threads or other programs'" in said
    assert said.endswith("(this run does not tell which)") and "more means other programs" not in said


def test_the_notebooks_prose_names_both_candidates():
    cells = _cells()
    text = "\n".join(_source(c) for c in cells if c["cell_type"] == "markdown")
    assert "inside its passes (other programs)" not in text and "when other programs share the machine" not in text
    assert "(held by the worker's own communication (gloo)\nthreads, pinned to the same core, or by other programs: " \
           "this run does not tell which)" in text
    code = "\n".join(_source(c) for c in cells if c["cell_type"] == "code")
    assert "report.load_note(LOAD, CORES)" in code and "more means other programs shared the cores" not in code


# --- #4: idle shares with their rounds' spread ----------------------------------------------------------------


def _idle_row(schedule, busy, rounds):
    return runs.Row(128, 4, schedule, 0.5, 0.6, busy, speedups=[1.2, 1.19, 1.21, 1.2, 1.2], idle_rounds=rounds)


PLAIN = _idle_row("1f1b", [0.375, 0.34], [[0.21, 0.23, 0.25, 0.27, 0.29], [0.28, 0.30, 0.32, 0.34, 0.36]])
# worker 0: 24% ± 2 beside 25% ± 2 (bands overlap); worker 1: 19% ± 1 beside 32% ± 2 (clear, less idle)
SOME = _idle_row("interleaved ZB", [0.38, 0.405], [[0.20, 0.22, 0.24, 0.26, 0.28], [0.18, 0.18, 0.19, 0.20, 0.20]])
# 20% ± 1 and 18% ± 1: clear of 25% ± 2 and 32% ± 2 on both workers
EVERY = _idle_row("ZBV", [0.40, 0.41], [[0.19, 0.19, 0.20, 0.21, 0.21], [0.17, 0.17, 0.18, 0.19, 0.19]])
# 40% ± 0 on both: more idle, clear of plain's bands
MORE = _idle_row("interleaved 1F1B", [0.30, 0.30], [[0.4] * 5, [0.4] * 5])


def test_idle_rounds_are_each_rounds_busy_over_its_step():
    raw = [{"busy": {"k": [0.3, 0.4]}}, {"busy": {"k": [0.2, 0.5]}}]
    got = runs.idle_by_round(raw, "k", [0.5, 0.5])
    assert [[round(x, 9) for x in w] for w in got] == [[0.4, 0.2], [0.6, 0.0]]
    assert chunks.idle_spread(PLAIN) == [0.02, 0.02] and chunks.idle_spread(SOME) == [0.02, 0.01]
    assert chunks.idle_spread(_idle_row("x", [0.3, 0.3], [])) == [0.0, 0.0]  # no rounds kept: no spread


def test_less_idle_only_where_the_bands_clear_and_the_rest_is_named_unresolved():
    said = report.bubble_answer([SOME, EVERY], PLAIN, "section 5's launch")
    assert "plain 1F1B m=4 25 ± 2% / 32 ± 2% (section 5's launch); interleaved ZB 24 ± 2% / 19 ± 1%; " \
           "ZBV 20 ± 1% / 18 ± 1%." in said
    assert "Less idle than plain 1F1B on every worker: ZBV; on some workers only: interleaved ZB (worker 1 only) " \
           "(less: the share ± its spread wholly below plain 1F1B's)." in said
    assert "Within what these rounds resolve (the two ± overlap, so neither less nor more idle is read): " \
           "interleaved ZB on worker 0." in said
    assert "did not shrink" not in said  # ZBV shrank it on every worker


def test_without_a_spread_one_point_reads_less_idle_and_with_one_it_does_not():
    bare_plain = _idle_row("1f1b", [0.375, 0.34], [])
    bare = _idle_row("interleaved ZB", [0.38, 0.405], [])
    assert "on every worker: interleaved ZB" in report.bubble_answer([bare], bare_plain, "x")
    said = report.bubble_answer([SOME], PLAIN, "x")
    assert "on every worker:" not in said and "interleaved ZB on worker 0" in said
    assert said.count("did not shrink the measured bubble on every worker here, by more than these rounds "
                      "resolve.") == 1


def test_more_idle_everywhere_reads_no_worker_and_nothing_unresolved():
    said = report.bubble_answer([MORE], PLAIN, "x")
    assert "Less idle than plain 1F1B on no worker: interleaved 1F1B (less:" in said
    assert "Within what these rounds resolve" not in said
    assert "did not shrink the measured bubble on every worker here." in said


# --- #5: the balancing take-away follows from section 7's gain ------------------------------------------------


def test_the_balancing_takeaway_has_one_branch_per_outcome():
    none = balance.takeaway(1.012, 0.12, 1.28)
    assert "the balanced split ran 1.01x ± 0.12 as fast as the unbalanced one, the profile predicted 1.28x; " \
           "within noise of 1x, so no gain shown" in none and "measure whether the balanced split pays" in none
    paid = balance.takeaway(1.25, 0.05, 1.28)
    assert paid.endswith("1.25x ± 0.05 as fast as the unbalanced one, the profile predicted 1.28x; it paid: "
                         "profile, then balance the split.")
    lost = balance.takeaway(0.90, 0.03, 1.28)
    assert "0.90x ± 0.03" in lost and "it was slower, beyond noise" in lost and "it paid" not in lost
    assert "no gain shown" in balance.takeaway(1.05, 0.05, 1.28)  # 1.05 - 0.05 touches 1x: the noise rule


def test_the_summary_prints_the_takeaway_instead_of_fixed_advice():
    cells = _cells()
    summary = next(_source(c) for c in cells if _source(c).startswith("## Summary"))
    assert "**profile, then balance**" not in summary and "whether balancing paid on this run is printed" in summary
    claims_cell = next(_source(c) for c in cells if "show_claims(rows)" in _source(c))
    assert "say(balance.takeaway(gain, gain_spread, predicted_gain) + LABEL)" in claims_cell


# --- lesson 09: CPU/busy, load and cores beside the pipelines' records ----------------------------------------


def _cpu_row(schedule="gpipe", cpu=(0.152, 0.176)):
    return runs.Row(128, 4, schedule, 0.5, 0.6, [0.2, 0.2], cpu=list(cpu), baseline_cpu=0.59,
                    speedups=[1.2, 1.1, 1.15, 1.2, 1.18])


def test_ledger_fields_only_where_cpu_workers_and_a_load_were_measured():
    assert host.ledger_fields(_cpu_row(), 2.5, 2) == {"cpu_busy": [0.76, 0.88], "load": 2.5, "cores": 2}
    gpu = runs.Row(128, 4, "gpipe", 0.5, 0.6, [0.2, 0.2], cpu_workers=False, speedups=[1.2])
    assert host.ledger_fields(gpu, 2.5, 2) == {}
    assert host.ledger_fields(_cpu_row(), None, None) == {}


def test_section_9s_records_carry_them_and_lesson_09_reads_them(monkeypatch, tmp_path):
    monkeypatch.setenv(ledger.ENV, str(tmp_path))
    rows = [_cpu_row(name) for name in multi.MULTI]
    rows = [runs.Row(r.batch, r.m, r.schedule, r.seconds, r.baseline, r.busy, cpu=r.cpu, baseline_cpu=r.baseline_cpu,
                     speedups=r.speedups, bound_override=1.78) for r in rows]
    multi.record_ledger(rows, 2.54, 2)
    got = ledger.read(devices.mode())["pipeline_zbv_speedup"]
    assert (got["cpu_busy"], got["load"], got["cores"]) == ([0.76, 0.88], 2.54, 2)
    assert got["rounds"] == rows[-1].speedups and got["bound"] == 1.78  # the fields it had are kept
    assert checked_figures.contended(got) == ("CPU/busy 76% / 88%, host load average 2.5 on 2 cores: below 80%, "
                                              "a stage waited for a core")
    multi.record_ledger(rows)  # no load given: no such fields, as before
    assert "load" not in ledger.read(devices.mode())["pipeline_zbv_speedup"]


def test_the_notebook_records_them_beside_the_best_pipeline_and_section_9():
    code = "\n".join(_source(c) for c in _cells() if c["cell_type"] == "code")
    best = code[code.index('ledger.record("pipeline_speedup"'):]
    assert "**host.ledger_fields(best, LOAD, CORES)" in best[:best.index("\n\n") if "\n\n" in best else None]
    assert "multi.record_ledger(chunked.rows, LOAD9, CORES)" in code
    assert "LOAD, CORES = os.getloadavg()[0], devices.cpu_cores()" in code


# --- cheap leftovers ---------------------------------------------------------------------------------------


def test_the_set_up_line_has_one_bracket_not_two():
    cpu = devices.Plan(("cpu", "cpu"), "gloo", "cpu", "2 CPU processes (simulated GPUs)")
    said = plan._where(cpu, True) + plan.SIMULATED
    assert said == "two CPU processes stand in for the two GPUs, as there is no GPU here (simulated on CPU)"


def test_the_rules_name_the_per_process_reference_as_the_exception():
    rules = next(_source(c) for c in _cells() if "How a speedup is measured and read" in _source(c))
    assert "by no\nother measure" not in rules and "The per-process reference is the one exception" in rules
    ideal_cell = next(_source(c) for c in _cells() if 'plot_ideal(["GPipe", "1F1B"], 4, costs=(1, 1, 1)' in _source(c))
    assert "each B bar is B + W, 2 units" in ideal_cell
