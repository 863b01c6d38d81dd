"""Lesson 07, the twelfth reading (cells 26 and 29): the time off the core judged against its 5 % as printed
(a tie is within); no addition of the step named the cause where the step added nothing measurable, each
link of the compute's path from t1/2 said by its own verdict; the cost plot's lower error bars cut at 0."""
from utils import plots
from utils.lessons.tensor_parallel import report, verdicts


def _rank(compute, inside, cpu, waited, after_other=0.0, other=0.00078):
    return {"step": compute + inside, "allreduce": inside, "compute": compute, "thread_cpu": cpu,
            "other_threads_cpu": other, "waited": waited, "after_both": inside - waited,
            "after_other": after_other}


def _reader_run(together=0.01936):
    """The reader's run, cell 29: rank 0 computed 20.18 ms inside the step, t1/2 18.43 ms, the shard apart
    19.07 ms alone and 19.36 ms with both ranks computing."""
    return {"model_compute": 0.01843, "model_comm": 0.00070, "model_step": 0.01913, "one": 0.03686,
            "others": 0.0, "steal": 0.0, "paired": True, "residual": 0.24, "waiting_core": 0.01,
            "corun": {"alone": 0.01907, "together": together, "together_core": 1.0},
            "ranks": [_rank(0.02018, 0.00126, 0.02043, 0.0),
                      _rank(0.01971, 0.00168, 0.01996, 0.00039, 0.00003, 0.00079)]}


def test_the_time_off_the_core_is_judged_against_its_5_percent_as_printed():
    m = _reader_run()
    # off it 0.00 to 1.01 ms, and 5 % of 20.18 ms is 1.009, printed 1.01: a tie, within
    said = report._thread_cpu(m, m["ranks"][0])
    assert "between 0.00 ms (had it used no CPU" in said and "and 1.01 ms (had it used CPU" in said
    assert "at most 5 % of the compute, within the tolerance" in said and "cannot tell" not in said
    # 0.01 ms more CPU inside the all-reduces' reach: the most, 1.02 ms, beyond 1.01 ms
    said = report._thread_cpu(m, _rank(0.02018, 0.00126, 0.02042, 0.0))
    assert "the least is within 5 % of the compute (1.01 ms), the most beyond it" in said
    # the least off its core printed as the tolerance (1.01 ms): within, so not shown lost
    tie = _rank(0.02018, 0.00126, 0.01917, 0.0)
    assert "cannot tell" in report._thread_cpu(m, tie) and verdicts.core_loss(tie, 0.00083)[0] == ""
    assert "off it 1.01 to 2.27 ms" in verdicts.core_loss(tie, 0.00083)[1]
    lost = _rank(0.02018, 0.00126, 0.01916, 0.0)   # 1.02 ms at least: beyond, it lost its core
    assert "so it lost its core" in report._thread_cpu(m, lost)
    assert verdicts.core_loss(lost, 0.00083) == ("", "")


def test_no_addition_of_the_step_is_named_where_the_step_added_nothing_measurable():
    answer, evidence = report.miss_answer(_reader_run(), "")
    said, proof = " ".join(answer), " ".join(evidence)
    assert "Two candidates fit" not in said and "Cause: " not in said
    assert ("No cause found: the compute's part of the miss (0.83 ms beyond t1/2 and its 5 %) builds up "
            "along two links, from t1/2 (18.43 ms) to the shard measured apart with both ranks computing "
            "(19.36 ms) +0.93 ms, beyond its 5 % (0.92 ms); then inside the step (20.18 ms) +0.82 ms, within "
            "its 5 % (0.97 ms). The step added nothing measurable, and the shard measured apart beside the other "
            "rank's was already past t1/2's 5 %") in said
    open_ = proof.split("Not ruled out: ")[1]   # the lists of what was ruled out are in the block
    assert open_.startswith("gloo's threads and the all-reduces' copies passing through the core and its "
                            "caches (inside the step +0.82 ms against the shard apart, within noise)")
    assert "gloo" not in said.split("Not ruled out: ")[0]
    # the evidence adds the two links up, each by its own verdict (0.93 beyond 0.92, 0.82 within 0.97)
    assert ("Added up from t1/2 (18.43 ms), the compute went 0.93 ms to the shard apart, beyond its 5 % "
            "(0.92 ms), and 0.82 ms more inside the step, within its 5 % (0.97 ms): 1.75 ms together, beyond "
            "the 5 % of t1/2 (0.92 ms)") in proof
    # the other outcome: the step itself added more than its 5 % (19.00 -> 20.18, 1.18 ms beyond 0.95):
    # its additions are the measured candidates, named as before
    other, block = (" ".join(x) for x in report.miss_answer(_reader_run(together=0.01900), ""))
    assert "5 candidates fit, none timed apart (the block below lists them)" in other and "Cause: " not in other
    assert "gloo" not in other and "The compute's 5 candidates, none timed apart: gloo's threads" in block


def test_each_link_within_its_noise_names_no_cause():
    m = _reader_run(together=0.01920)   # 18.43 -> 19.20 -> 20.10: +0.77 within 0.92, +0.90 within 0.96
    slow = _rank(0.02010, 0.00126, 0.02043, 0.0)
    said, step_added = verdicts.step_added_nothing(m, slow, 0.00075)
    assert "+0.77 ms, within its 5 % (0.92 ms); then inside the step (20.10 ms) +0.90 ms, within its 5 % " \
        "(0.96 ms)" in said
    assert said.endswith("each link lies within its noise: only their sum passes t1/2's 5 %.")
    assert "(inside the step +0.90 ms against the shard apart, within noise)" in step_added
    # the step beyond its 5 % (19.20 -> 20.20, 1.00 ms beyond 0.96), or no shard apart: not said here
    assert verdicts.step_added_nothing(m, _rank(0.02020, 0.00126, 0.02043, 0.0), 0.00085) is None
    assert verdicts.step_added_nothing({**m, "corun": {}}, slow, 0.00075) is None


def _cost_rows(speedup, spread):
    return [dict(width=w, one=w * 1e-6, two=w * 6e-7, predicted=w * 5.5e-7, speedup=s, predicted_speedup=1.8,
                 spread=d) for w, s, d in zip((32, 64, 128), speedup, spread)]


def test_the_cost_plots_lower_error_bar_stops_at_zero_and_the_legend_says_so():
    fig = report.plot_cost({"rows": _cost_rows((0.14, 0.9, 1.6), (0.21, 0.1, 0.1))}, 2.0, "", True)
    ax = fig.axes[1]
    bars = ax.containers[0].lines[2][0].get_segments()
    assert min(seg[0][1] for seg in bars) >= 0 and ax.get_ylim()[0] == 0   # 0.14 - 0.21 drawn from 0
    assert abs(bars[0][1][1] - 0.35) < 1e-9   # the upper bar keeps its whole spread
    texts = [t.get_text() for t in ax.get_legend().get_texts()]
    assert any("the lower bar cut at 0 at width 32: no speed-up is below 0)" in t for t in texts)
    assert plots.overlapping_labels(fig) == []
    # the other outcome: no bar reaches below 0, and the legend claims no cut
    fig = report.plot_cost({"rows": _cost_rows((0.5, 0.9, 1.6), (0.21, 0.1, 0.1))}, 2.0, "", True)
    texts = [t.get_text() for t in fig.axes[1].get_legend().get_texts()]
    assert "measured (± half the paired rounds' middle-half range)" in texts
    assert not any("cut at 0" in t for t in texts)
