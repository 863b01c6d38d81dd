"""Thirty-eighth reading, labs 00-03 (t38_labs03): sentences that follow the run's own noise and printed figures,
a check that agrees with the next one, and a comparison that names the plans it mixes (fabricated runs)."""
from types import SimpleNamespace as NS

import pytest

from tests.test_lab_fix_the_article import _sent
from tests.test_lab_predict_the_roofline import SETUP, count
from utils import checks
from utils.labs.balance_the_pipeline import reference, workload
from utils.labs.fix_the_article import checks as article
from utils.labs.predict_the_roofline import checks as roofline

# the committed run's per-layer table (ms) and its "spread at m=1" column: the wide layers 9-11 do most work
M1 = [3.447, 4.626, 4.545, 4.277, 4.030, 4.402, 4.482, 4.525, 17.378, 46.334, 49.550, 48.560, 5.595]
M8 = [0.655, 0.710, 0.772, 0.692, 0.692, 0.703, 0.809, 0.704, 2.295, 6.053, 6.168, 6.143, 0.797]
M16 = [0.443, 0.393, 0.408, 0.389, 0.396, 0.409, 0.407, 0.395, 1.310, 3.506, 3.348, 3.273, 0.536]
M64 = [0.232, 0.213, 0.204, 0.157, 0.220, 0.237, 0.205, 0.185, 0.465, 1.164, 1.257, 1.190, 0.351]
SPREAD = [.20, .11, .12, .05, .07, .13, .09, .13, .05, .06, .09, .09, .05]


def _lab02_profile(spread=SPREAD, at_64=M64) -> workload.Profile:
    columns = {1: M1, 8: M8, 16: M16, 64: at_64}
    return workload.Profile(4096, {m: [ms * 1e-3 for ms in col] for m, col in columns.items()}, 0.00079,
                            {1: spread} if spread else {})


# --- contradiction 1: the first m "above" the whole batch must clear the layers' own printed spread ----------

def test_the_work_line_judges_by_the_layers_spread_weighted_by_their_work():
    p = _lab02_profile()
    assert workload.work_spread(p) == 0.08  # 8.2 % from the printed spreads and ms, half up
    # m=8 runs 1.08x: inside the 8 % spread, so the first m beyond it is m=16 (1.21x), not m=8
    assert workload.work_growth_line(p) == (
        "At m=64 the layers' work is 1.93x the whole batch's, beyond their 8% spread.\n"
        "Small micro-batches cost more per row here, from m=16 on (1.21x).")


def test_the_work_line_within_the_spread_reads_about_the_same_and_below_it_cheaper():
    same = _lab02_profile(at_64=[ms * 1.06 * 1 / 64 for ms in M1])   # 1.06x: within 8 %
    assert workload.work_growth_line(same).endswith(
        "within their 8% spread.\nOn this machine small micro-batches cost about what their rows do.")
    less = _lab02_profile(at_64=[ms * 0.9 / 64 for ms in M1])
    assert workload.work_growth_line(less).endswith("beyond their 8% spread.\nSmall micro-batches cost less per row here.")


def test_without_a_measured_spread_the_line_keeps_its_five_percent_floor():
    assert workload.work_spread(_lab02_profile(spread=None)) == workload.ABOUT_THE_SAME
    assert workload.work_spread(_lab02_profile(spread=[0.01] * 13)) == workload.ABOUT_THE_SAME


# --- contradiction 2: a prediction worked from the per-layer table as printed -------------------------------

def test_the_profile_keeps_the_layers_as_printed_so_a_reader_redoes_the_prediction(monkeypatch):
    # the printed m=64 column less 0.4 µs a layer: unrounded, 1F1B at [10] predicts 0.7649 (printed 0.76x),
    # while the table a reader redoes it from gives 0.76504 (0.77x)
    raw = {1: [ms * 1e-3 for ms in M1], 64: [(ms - 0.0004) * 1e-3 for ms in M64]}
    monkeypatch.setattr(workload.launch, "launch", lambda *a, **k: [{"layers": raw, "spread": {}, "saved": {}}])
    empty = NS(rows=[NS(m=m, seconds=(0.79 * m + 3) * 1e-3) for m in workload.OVERHEAD_M])
    monkeypatch.setattr(workload, "measure_pipeline", lambda *a, **k: empty)
    profile = workload.measure_profile(ms=(1, 64))
    assert profile.per_micro_batch == 0.00079
    assert profile.layers[64] == pytest.approx([ms * 1e-3 for ms in M64], rel=0, abs=1e-12)
    assert f"{reference.reference_speedup(profile, [10], 64):.2f}" == "0.77"


# --- the lead's extra: check 1 rejects the T²/2 causal count that check 2 names ------------------------------

def test_check_1_rejects_a_causal_count_of_half_the_square_and_names_the_concept():
    def half_square(op):
        flops, n_bytes = count(op)
        if op.kind == "attention" and op.dims["causal"]:
            length = op.dims["length"]
            flops *= length / (length + 1)   # T²/2 scores for the T(T+1)/2 the mask keeps
        return flops, n_bytes

    verdict = roofline.check_counts(half_square, SETUP, show=False)
    assert verdict.status == checks.FAILED
    assert "T²/2 scores under the causal mask: it keeps T(T+1)/2, the diagonal too" in verdict.message
    assert "(an op you have not seen)" in verdict.message
    assert roofline.check_counts(count, SETUP, show=False).passed


# --- lost #4: a comparison of two cuts names the plan each was timed in -------------------------------------

def test_a_cut_timed_in_another_plan_is_named_beside_its_time():
    one, two = [262_144], [16_384, 16_384]
    timed = {"first layer frozen": _sent(one, 325, 114), "every layer learns": _sent(two, 276, 121)}
    cuts = {1: _sent(one, 0, 0), 3: _sent(two, 0, 0)}
    said = article._measured_order(cuts, timed, "first layer frozen")
    assert ("the split's took 325 µs for cut 1's and 276 µs for cut 3's (cut 3's in \"every layer learns\": "
            "the same bytes, another step around them), ") in said, said
    assert "cut 1's in" not in said
    assert "another step" not in article._measured_order(cuts, {"first layer frozen": timed["first layer frozen"],
                                                               "x": timed["every layer learns"]}, None)
