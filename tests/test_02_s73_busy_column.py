"""t34_02 (other, still present from t33): section 8's readings print CPU/busy, so the full placements table
prints each stage's busy ms beside its CPU ms (the divisor, whole ms as ``Row.cpu_share`` divides); on GPU
workers the work column is the busy ms itself, and no second busy column is added. Fabricated figures."""
from utils.lessons.model_split import placement, runs


def _got(r):
    return {"layers": {"row": r, "crossings": 1, "bytes": 2**21}, "attn/ffn": {"row": r, "crossings": 7,
                                                                                 "bytes": 14 * 2**20}}


def test_cpu_workers_print_busy_ms_beside_cpu_ms():
    r = runs.Row(32, 1, "layers", 0.117, 0.1503, [0.0734, 0.0726], naive=True, cpu=[0.0772, 0.0801],
                 baseline_cpu=0.1504, speedups=[1.28, 1.27, 1.29])
    full = placement.placements_table(_got(r), "t", full=True)
    row = dict(zip(full.columns, full.rows[0]))
    assert (row["CPU ms per stage"], row["busy ms per stage"]) == ("77 / 80", "73 / 73")
    assert [f"{x:.0%}" for x in r.cpu_share] == ["105%", "110%"]  # 77 / 73, 80 / 73: the reader's division
    assert len(full.columns) == len(full.rows[0])
    assert "busy ms per stage" not in placement.placements_table(_got(r), "t").columns  # the short table


def test_gpu_workers_add_no_second_busy_column():
    gpu = runs.Row(32, 1, "layers", 0.117, 0.1503, [0.076, 0.079], naive=True, baseline_busy=0.1504,
                   cpu_workers=False, speedups=[1.28])
    full = placement.placements_table(_got(gpu), "t", full=True)
    assert full.columns.count("busy ms per stage") == 1 and len(full.columns) == len(full.rows[0])
