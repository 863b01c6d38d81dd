"""The robustness tool (``python -m utils.tools.robustness``): counts the runs in which an effect showed, and
refuses what it cannot measure. The measurements themselves are the lessons' own, tested with the lessons."""

import pytest

from utils.tools import robustness


def test_it_counts_the_runs_in_which_the_effect_showed(monkeypatch, capsys):
    outcomes = iter([robustness.Outcome("1.30x ± 0.05", True), robustness.Outcome("1.02x ± 0.05", False),
                     robustness.Outcome("1.25x ± 0.04", True)])
    monkeypatch.setitem(robustness.EFFECTS, "fake", robustness.Effect("a fake effect", lambda: next(outcomes)))
    assert robustness.report("fake", 3) == 2
    out = capsys.readouterr().out
    assert "fake run 2: 1.02x ± 0.05: not shown" in out and "shown in 2 of 3 runs" in out


def test_a_speedup_inside_its_spread_is_not_an_effect():
    row = type("Row", (), {"speedup": 1.03, "speedups": [0.97, 1.0, 1.03, 1.06, 1.09]})()
    assert not robustness._beats(row).showed
    row.speedups, row.speedup = [1.3, 1.35, 1.4, 1.45, 1.5], 1.4
    assert robustness._beats(row).showed


@pytest.mark.parametrize("argv, message", [(["nosuch"], "no effect 'nosuch'"), (["02-gpipe", "--runs", "0"],
                                                                                  "must be a positive integer")])
def test_bad_input_is_one_line_and_exit_2(argv, message, capsys):
    with pytest.raises(SystemExit) as stop:
        robustness.main(argv)
    assert stop.value.code == 2 and message in capsys.readouterr().err


def test_list_names_every_effect(capsys):
    robustness.main(["--list"])
    out = capsys.readouterr().out
    assert all(name in out for name in robustness.EFFECTS)


def test_lab02s_effect_pipelines_the_choice_the_profile_predicts_best(monkeypatch):
    """The lab 02 effect measures a profile, takes the solution's choice from it and times that choice alone
    against one worker (both replaced here: the tool's logic, not this machine's speed)."""
    from utils.labs.balance_the_pipeline import reference, workload
    from utils.lessons.model_split import runs

    profile = reference.HIDDEN[-1].profile  # best under the lab's cap (1/7 of the whole batch's): split [2], m=8
    timed = []

    def fake_measure(task, split_points, configs, rounds=5, record=True, seed=0, timeout=600):
        timed.extend(configs)
        return runs.PipelineRun([runs.Row(c.batch, c.m, c.schedule, 0.6, 1.0, [0.5, 0.5],
                                          split_points=c.split_points, speedups=[1.5, 1.55, 1.6, 1.62, 1.7])
                                 for c in configs], [], tuple(split_points), 1, True)

    monkeypatch.setattr(workload, "measure_profile", lambda settings=None: profile)
    monkeypatch.setattr(runs, "measure_pipeline", fake_measure)
    outcome = robustness.lab02_choice()
    assert [(c.split_points, c.m, c.schedule) for c in timed] == [((2,), 8, "1f1b")]
    assert outcome.showed and outcome.figure.startswith("split [2], m=8, predicted 1.32x: 1.60x ± 0.")
    assert "lab02-choice" in robustness.EFFECTS
    timed.clear()
    outcome = robustness.lab02_split()  # the same speed-ups for both splits: no effect
    assert [(c.split_points, c.m) for c in timed] == [((2,), 8), ((6,), 8)]
    assert not outcome.showed and outcome.figure == "m=8: split [2] / split [6]: 1.00x ± 0.00"
