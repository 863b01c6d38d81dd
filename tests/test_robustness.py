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
