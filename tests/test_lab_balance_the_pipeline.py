"""Lab 02's checks (``utils.labs.balance_the_pipeline.checks``): the solution passes, and one deliberately
wrong answer per check fails. The throughput check's timing is replaced by fixed speedups, so that what is
tested is the verdict, never the machine's speed.
"""

import pytest

from utils import checks
from utils.labs.balance_the_pipeline import checks as lab
from utils.lessons.model_split import runs
from utils.lessons.model_split.split import split_sequential

UNEVEN_COSTS = [4, 4, 4, 4, 2] + [1] * 8  # the lab model's shape: balanced at [3]; half the layers, [6], is far from it


def test_the_lab_model_has_uneven_layers():
    model = lab.uneven_mlp()
    assert len(model) == 13
    assert [layer[0].out_features for layer in model] == [512] * 4 + [256] * 8 + [lab.LAB_OUT]
    x, y = lab.lab_task().make_batch(4, 0)
    assert model(x).shape == y.shape == (4, lab.LAB_OUT)


@pytest.mark.timeout(60)
def test_check_split_passes_the_solution_and_fails_a_dropped_layer():
    assert lab.check_split(split_sequential).status == checks.PASSED

    def drops_a_layer(model, points):  # off by one: layer `points[0]` is in neither stage
        return [model[:points[0]], model[points[0] + 1:]]

    verdict = lab.check_split(drops_a_layer)
    assert verdict.status == checks.FAILED and "differs" in verdict.message


def test_check_split_reports_not_done_for_the_stub():
    def stub(model, points):
        raise NotImplementedError("slice the model")

    assert lab.check_split(stub).status == checks.NOT_DONE


def _fake_run(speedups):
    """A measure_pipeline stand-in: rows with the given speedup per config key (baseline 1 s)."""

    def fake(task, split_points, configs, rounds=5, record=True, seed=0, timeout=600):
        rows = [runs.Row(c.batch, c.m, c.schedule, 1.0 / speedups(c), 1.0, [0.5, 0.5], c.naive,
                         c.split_points) for c in configs]
        return runs.PipelineRun(rows, [], tuple(split_points), 1, True)

    return fake


def test_check_throughput_fails_an_unbalanced_split(monkeypatch):
    # what a quiet 2-core machine measures: the balanced split near its bound, the unbalanced one far below
    monkeypatch.setattr(lab, "measure_pipeline", _fake_run(lambda c: 1.5 if c.split_points == (3,) else 0.9))
    verdict = lab.check_throughput(lambda c: ([6], 4), costs=UNEVEN_COSTS)  # half the layers per stage
    assert verdict.status == checks.FAILED and "60%" in verdict.message
    assert lab.check_throughput(lambda c: ([3], 4), costs=UNEVEN_COSTS).status == checks.PASSED
    assert lab.check_throughput(([3], 8), costs=UNEVEN_COSTS).status == checks.PASSED  # a pair works too


def test_check_throughput_rejects_impossible_answers_before_timing(monkeypatch):
    monkeypatch.setattr(lab, "measure_pipeline", None)  # would raise if it were reached
    assert lab.check_throughput(([0], 4), costs=[1] * 13).status == checks.FAILED
    verdict = lab.check_throughput(([3], 3), costs=[1] * 13)  # 3 does not divide the batch of 512
    assert verdict.status == checks.FAILED and "divide" in verdict.message
    verdict = lab.check_throughput(([3, 6], 4), costs=[1] * 13)  # three stages for two workers
    assert verdict.status == checks.FAILED and "exactly one split point" in verdict.message


def test_check_throughput_reports_not_done_for_the_stub():
    def stub(costs):
        raise NotImplementedError("choose a split")

    assert lab.check_throughput(stub, costs=[1] * 13).status == checks.NOT_DONE


def test_check_throughput_equal_to_a_reference_is_that_measurement(monkeypatch):
    calls = []

    def fake(task, split_points, configs, rounds=5, record=True, seed=0, timeout=600):
        calls.append([c.key for c in configs])
        return _fake_run(lambda c: 1.5 if c.m == 4 else 1.4)(task, split_points, configs)

    monkeypatch.setattr(lab, "measure_pipeline", fake)
    verdict = lab.check_throughput(([3], 4), costs=UNEVEN_COSTS)
    assert verdict.status == checks.PASSED and "100%" in verdict.message and len(calls) == 1


def test_check_throughput_re_measures_the_winner_before_failing(monkeypatch):
    calls = []

    def fake(task, split_points, configs, rounds=5, record=True, seed=0, timeout=600):
        calls.append(len(configs))  # first run: a lucky m=8 round; the fresh pair shows them equal
        speed = (lambda c: 1.8 if c.m == 8 else 1.5) if len(calls) == 1 else (lambda c: 1.5)
        return _fake_run(speed)(task, split_points, configs)

    monkeypatch.setattr(lab, "measure_pipeline", fake)
    verdict = lab.check_throughput(([3], 4), costs=UNEVEN_COSTS)
    assert verdict.status == checks.PASSED and calls == [3, 2] and "timed again" in verdict.message


def test_check_throughput_notes_when_every_config_is_below_one_worker(monkeypatch):
    monkeypatch.setattr(lab, "measure_pipeline", _fake_run(lambda c: 0.9))
    verdict = lab.check_throughput(([3], 4), costs=UNEVEN_COSTS)
    assert verdict.status == checks.PASSED and "contention" in verdict.message and "bound" in verdict.message


def test_paired_ratio_pairs_rounds():
    run = runs.PipelineRun([], [{"times": {"ref": [1.0, 2.0, 1.0], "mine": [2.0, 2.0, 1.0]}}], (3,), 1, True)
    assert lab.paired_ratio(run, "ref", "mine") == pytest.approx(1.0)  # ratios 0.5, 1, 1: median 1


def test_time_m_measures_each_candidate_m_in_one_launch(monkeypatch, capsys):
    calls = []

    def fake(task, split_points, configs, rounds=5, record=True, seed=0, timeout=600):
        calls.append([(c.m, c.split_points, c.batch) for c in configs])
        return _fake_run(lambda c: {2: 1.2, 4: 1.4, 8: 1.3}[c.m])(task, split_points, configs)

    monkeypatch.setattr(lab, "measure_pipeline", fake)
    got = lab.time_m([3], lab.LAB_CANDIDATE_M)
    assert got == {2: pytest.approx(1.2), 4: pytest.approx(1.4), 8: pytest.approx(1.3)}
    assert calls == [[(m, (3,), lab.current_settings().batch) for m in lab.LAB_CANDIDATE_M]]  # one launch
    assert "simulated on CPU" in capsys.readouterr().out  # this machine's workers are CPU processes


def test_hints_name_the_concept_never_the_code():
    texts = checks.hint_texts("labs/balance_the_pipeline")
    assert sorted(texts) == ["A", "B"] and all(len(levels) == 2 for levels in texts.values())
    for hint in (t for levels in texts.values() for t in levels):  # no slice, index or assignment: the idea
        assert not any(token in hint for token in ("[", "=", "nn.Sequential(", "min(", "max(", "range(")), hint

    def stub(model, points):
        raise NotImplementedError

    assert lab.check_split(stub).hint.startswith("exercise A: ")


# --- the split decision against the cost model, and its mutants --------------------------------------------

PROFILE = {"costs": [c / 1e3 for c in (12.6, 10.9, 9.9, 10.2, 5.4, 3.1, 3.1, 3.0, 3.1, 3.1, 3.2, 3.2, 0.9)],
           "spread": [0.29, 0.41, 0.09, 0.05, 0.18, 0.05, 0.56, 0.25, 0.17, 0.15, 0.14, 0.15, 0.13]}  # lab 02's


def test_check_split_choice_passes_the_balanced_split_with_its_noise_printed():
    verdict = lab.check_split_choice(lambda costs: ([3], 2), PROFILE)
    assert verdict.status == checks.PASSED and "the profile's noise between them: ±0.0 ms" in verdict.message


@pytest.mark.mutants
@pytest.mark.parametrize("point, why", [(4, "one layer late"), (2, "one layer early"), (6, "half the layers"),
                                        (7, "half the layers, rounded up")])
def test_mutant_split_off_the_balance_fails_against_the_cost_model(point, why):
    verdict = lab.check_split_choice(lambda costs: ([point], 2), PROFILE)
    assert verdict.status == checks.FAILED, why
    assert f"your split [{point}]" in verdict.message and "the balanced split [3]" in verdict.message
    assert "the stages are not balanced" in verdict.message and "more than the profile's noise" in verdict.message


def test_a_split_within_the_profiles_noise_passes():
    noisy = {"costs": [0.010, 0.010, 0.0105, 0.0095], "spread": [0.5] * 4}  # [2] best; [1] or [3] by 0.5 ms
    assert lab.check_split_choice(([2], 2), noisy).status == checks.PASSED
    assert lab.check_split_choice(([3], 2), noisy).status == checks.FAILED  # 29.5 vs 20.5 ms: beyond ±2.4 ms


def test_noise_margin_is_half_the_trimmed_range_within_limits():
    assert lab.noise_margin([1.0, 0.9, 1.1, 0.95, 1.05, 0.5, 2.0]) == pytest.approx(0.1)  # 0.9..1.1 kept
    assert lab.noise_margin([1.0] * 7) == lab.MIN_MARGIN
    assert lab.noise_margin([0.1, 0.2, 3.0, 4.0, 5.0]) == lab.MAX_MARGIN


def _raw_run(times):
    """A PipelineRun whose raw times per round are ``times`` ({key: [seconds per round]})."""

    def fake(task, split_points, configs, rounds=5, record=True, seed=0, timeout=600):
        rows = [runs.Row(c.batch, c.m, c.schedule, sorted(times[c.key])[len(times[c.key]) // 2], 1.0,
                         [0.5, 0.5], c.naive, c.split_points) for c in configs]
        return runs.PipelineRun(rows, [{"times": times}], tuple(split_points), 1, True)

    return fake


@pytest.mark.mutants
def test_mutant_too_many_micro_batches_fails_by_more_than_the_rounds_spread(monkeypatch):
    """Paired rounds as a 2-core machine gives them (m=2 the best, m=8 a third slower, ±5 % noise): the
    margin comes from the rounds' spread and the verdict prints it."""
    noise = [1.0, 1.05, 0.95, 1.02, 0.98, 1.04, 0.97]
    key = {m: lab.Config(512, m, "gpipe", (3,)).key for m in (2, 4, 8)}
    times = {key[2]: [1.0 * n for n in noise], key[4]: [1.2 * n for n in noise[::-1]],
             key[8]: [1.5 * n for n in noise[3:] + noise[:3]]}
    monkeypatch.setattr(lab, "measure_pipeline", _raw_run(times))
    monkeypatch.setattr(lab, "current_settings", lambda: lab.LabSettings(512, 512, ("cpu", "cpu"), ""))
    verdict = lab.check_throughput(([3], 8), costs=UNEVEN_COSTS)
    assert verdict.status == checks.FAILED and "a slower micro-batch count than the best" in verdict.message
    assert "the rounds' spread allows" in verdict.message
    assert lab.check_throughput(([3], 2), costs=UNEVEN_COSTS).status == checks.PASSED


@pytest.mark.mutants
def test_mutant_a_micro_batch_count_that_does_not_divide_the_batch_fails_before_timing(monkeypatch):
    monkeypatch.setattr(lab, "measure_pipeline", None)
    verdict = lab.check_throughput(([3], 6), costs=UNEVEN_COSTS)
    assert verdict.status == checks.FAILED and "divides the batch" in verdict.message


def test_the_take_away_says_which_m_won_and_why_from_the_run():
    """Issue 26: the take-away says why the fastest m won on this machine, from the measured speedups."""
    from utils.labs.balance_the_pipeline.checks import why_m

    assert "not done yet" in why_m({}, 512)
    small = why_m({2: (1.2, 1.33), 4: (1.1, 1.6), 8: (0.8, 1.78)}, 512)
    assert small.startswith("m=2 ran fastest") and "64 rows at m=8" in small and "outgrew" in small
    large = why_m({2: (1.0, 1.33), 4: (1.2, 1.6), 8: (1.4, 1.78)}, 512)
    assert large.startswith("m=8 ran fastest") and "The bubble decided" in " ".join(large.split())
    assert all(len(line) <= 110 for line in small.splitlines())
