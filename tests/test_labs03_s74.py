"""Thirty-fifth reading, labs 00-03: sentences that now follow the run (every branch, fabricated figures)."""
from utils.labs.balance_the_pipeline import workload


def _profile(ms_per_micro_batch: dict[int, float]) -> workload.Profile:
    """One layer; at each m, one micro-batch's ms as given (the whole batch, m=1, costs 100 ms)."""
    return workload.Profile(4096, {m: [ms * 1e-3] for m, ms in ms_per_micro_batch.items()}, 0.001)


def test_the_work_line_names_the_first_m_whose_work_is_clearly_above_the_whole_batch():
    # t35 labs03 #1: m=2 ran below the whole batch, m=4 about equal; m=16 is the first more than 5% above
    p = _profile({1: 100.0, 2: 49.5, 4: 25.25, 16: 6.94, 64: 2.6})
    assert workload.work_growth_line(p) == (
        "At m=64 the layers' work is 1.66x the whole batch's: small micro-batches cost more per row here; the "
        "first m more than 5% above the whole batch's is m=16 (1.11x).")


def test_the_work_line_does_not_repeat_the_last_m_when_it_is_the_first_above():
    p = _profile({1: 100.0, 16: 6.5, 64: 1.7})   # 1.04x at m=16, 1.09x at m=64
    assert workload.work_growth_line(p) == (
        "At m=64 the layers' work is 1.09x the whole batch's: small micro-batches cost more per row here.")


def test_the_work_line_at_exactly_five_percent_reads_about_the_same():
    p = _profile({1: 100.0, 64: 105 / 64})   # 1.05x as printed: not more than 5% above
    assert workload.work_growth_line(p).endswith("1.05x the whole batch's: on this machine small micro-batches "
                                                 "cost about what their rows do.")
    assert workload.work_growth_line(_profile({1: 100.0, 64: 1.4})).endswith("cost less per row here.")
