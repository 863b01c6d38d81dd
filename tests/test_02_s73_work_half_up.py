"""t34_02 #3: the work over one device's is the reader's division of the printed ms, rounded half up:
(37 + 98) / 120 = 1.125 reads 1.13x (``:.2f`` gave 1.12), and the work-scaled reference beside it is worked
from 1.13: 1.60 / 1.13 = 1.42x (not 1.43x)."""
from utils.lessons.model_split import noise, runs


def _unbalanced(speedups=(1.10, 1.11, 1.12, 1.13, 1.14)):  # fabricated: split [2], stages 37 / 98 ms CPU
    return runs.Row(32, 8, "gpipe", 0.1, 0.112, [0.04, 0.1], split_points=(2,), cpu=[0.037, 0.098],
                    baseline_cpu=0.120, speedups=list(speedups), bound_override=1.60)


def test_a_work_ratio_ending_in_5_reads_half_up():
    r = _unbalanced()
    assert r.work_ms == ([37.0, 98.0], 120.0)
    assert f"{r.work_inflation:.2f}" == "1.13"


def test_the_work_scaled_reference_and_its_share_come_from_the_printed_work():
    r = _unbalanced()
    assert f"{r.work_bound:.2f}" == "1.42"  # 1.60 / 1.13 = 1.416
    # (1.12 - 1) / (1.42 - 1) = 28.6% -> 29%, the reader's own division of the printed figures
    assert noise.under_work_reference(r, r.work_bound).endswith("(1.42x): 29% of its gain")


def test_a_ratio_under_the_half_still_reads_down():
    r = runs.Row(32, 8, "gpipe", 0.1, 0.112, [0.04, 0.1], cpu=[0.037, 0.097], baseline_cpu=0.120,
                 speedups=[1.1] * 5, bound_override=1.60)
    assert f"{r.work_inflation:.2f}" == "1.12"  # 134 / 120 = 1.1167
