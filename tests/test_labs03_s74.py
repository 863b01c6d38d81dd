"""Thirty-fifth reading, labs 00-03: sentences that now follow the run (every branch, fabricated figures)."""
from utils.labs.balance_the_pipeline import workload


def _profile(ms_per_micro_batch: dict[int, float]) -> workload.Profile:
    """One layer; at each m, one micro-batch's ms as given (the whole batch, m=1, costs 100 ms)."""
    return workload.Profile(4096, {m: [ms * 1e-3] for m, ms in ms_per_micro_batch.items()}, 0.001)


def test_the_work_line_names_the_first_m_whose_work_is_clearly_above_the_whole_batch():
    # t35 labs03 #1: m=2 ran below the whole batch, m=4 about equal; m=16 is the first more than 5% above
    p = _profile({1: 100.0, 2: 49.5, 4: 25.25, 16: 6.94, 64: 2.6})
    assert workload.work_growth_line(p) == (  # t38_labs03 #1: judged by the layers' spread, 5% at the least
        "At m=64 the layers' work is 1.66x the whole batch's, beyond their 5% spread.\n"
        "Small micro-batches cost more per row here, from m=16 on (1.11x).")
    assert all(len(line) <= 110 for line in workload.work_growth_line(p).splitlines())


def test_the_work_line_does_not_repeat_the_last_m_when_it_is_the_first_above():
    p = _profile({1: 100.0, 16: 6.5, 64: 1.7})   # 1.04x at m=16, 1.09x at m=64
    assert workload.work_growth_line(p) == (
        "At m=64 the layers' work is 1.09x the whole batch's, beyond their 5% spread.\n"
        "Small micro-batches cost more per row here.")


def test_the_work_line_at_exactly_five_percent_reads_about_the_same():
    p = _profile({1: 100.0, 64: 105 / 64})   # 1.05x as printed: not more than 5% above
    assert workload.work_growth_line(p).endswith("1.05x the whole batch's, within their 5% spread.\nOn this machine "
                                                 "small micro-batches cost about what their rows do.")
    assert workload.work_growth_line(_profile({1: 100.0, 64: 1.4})).endswith("cost less per row here.")


# --- t35_labs03 other 3: the block's finding on the model's miss, in the visible take-away --------------------

def _pipelined(cpu, baseline_cpu, predicted):
    """1.71x ± 0.03 measured (every round 1.65-1.80); the profile's one worker 250 ms, stages 200 and 180 ms."""
    from utils.labs.balance_the_pipeline import checks as lab
    from utils.lessons.model_split import runs

    row = runs.Row(4096, 16, "1f1b", 0.15, 0.25, [0.14, 0.14], split_points=(10,), cpu=cpu,
                   baseline_cpu=baseline_cpu, speedups=[1.65, 1.68, 1.70, 1.71, 1.72, 1.74, 1.80])
    profiled = {"one worker": 0.250, "stages": [0.200, 0.180]}
    return lab.Pipelined(row, [row], row, 1.0, lab.MIN_MARGIN, {row.key: predicted}, False, "", profiled=profiled)


def _visible(p):
    from utils.labs.balance_the_pipeline import take_away

    return " ".join((take_away.take_away(p) + " " + take_away.take_away_detail(p)).split())


def test_the_take_away_says_how_much_of_the_miss_the_work_explains_every_branch():
    tail = "(the working, and what is left, below)."
    more = _visible(_pipelined([0.140, 0.130], 0.252, 1.29))   # 1.29 x 252/250 / (140/200) = 1.86x, past 1.71
    assert f"your model gives 1.86x: the change in work explains the whole miss, and more {tail}" in more
    part = _visible(_pipelined([0.180, 0.170], 0.252, 1.29))   # 1.44x: toward 1.71x, short of it
    assert f"your model gives 1.44x: the change in work explains part of the miss {tail}" in part
    whole = _visible(_pipelined([0.152, 0.139], 0.252, 1.29))  # 1.71x: met
    assert f"your model gives 1.71x: the change in work explains the miss {tail}" in whole
    away = _visible(_pipelined([0.206, 0.190], 0.250, 1.29))   # 1.25x: the other way
    assert f"your model gives 1.25x: the change in work does not explain the miss {tail}" in away
    over = _visible(_pipelined([0.300, 0.280], 0.255, 2.40))   # over-predicted; 1.63x passes 1.71x downward
    assert "your model gives 1.63x: the change in work explains the whole miss, and more" in over


def test_the_take_away_adds_no_work_sentence_where_the_model_met_the_run_or_nothing_was_measured():
    from utils.labs.balance_the_pipeline import take_away

    met = _pipelined([0.200, 0.185], 0.255, 1.71)
    assert take_away.work_summary(met) == "" and "With the work this run measured" not in _visible(met)
    unmeasured = _pipelined([0.140, 0.130], 0.252, 1.29)
    unmeasured.profiled = {}
    assert take_away.work_summary(unmeasured) == ""
    assert all(len(line) <= 110 for line in take_away.take_away(_pipelined([0.14, 0.13], 0.25, 1.29)).splitlines())


def test_the_work_table_rounds_a_step_half_up_as_a_reader_does():
    # t37_labs03 #1: 1 x 195.25 printed 195.2 (``:.1f`` rounds an exact half to even); a reader writes 195.3
    p = _profile({1: 195.25, 2: 97.7})
    rows = workload.work_per_step_rows(p)
    assert rows[0][3] == "195.3" and rows[1][3] == "195.4"
    assert workload.work_vs_whole(p, 2) == 1.0  # 195.4 / 195.3 = 1.0005, 1.00x
