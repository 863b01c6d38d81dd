"""Lab 02 check 3 and rule 3: a speed-up counts only where the pipelined step computed one worker's loss
(``same_outputs``, lesson 02's ``outputs.same_losses``): the learner's own configuration with a wrong loss
fails naming the mistake, never the loss; a reference with a wrong loss is no faster configuration."""

import pytest

from utils import checks
from utils.labs.balance_the_pipeline import checks as lab
from tests.test_lab_balance_the_pipeline import PROFILE, _fake_measure, _steps, choose_config, predict_speedup


def test_the_solution_prints_that_every_timed_loss_matches_one_workers(monkeypatch):
    monkeypatch.setattr(lab, "measure_pipeline", _fake_measure(_steps()))
    verdict, p = lab.check_pipelined(choose_config, predict_speedup, PROFILE)
    assert verdict.status == checks.PASSED, verdict.message
    assert p.outputs.startswith("Outputs (the loss) of all 7 rows match one device's loss of the same batch")
    said = " ".join(p.outputs.split())  # lesson 02's words (t23_02): the reason, not "(rule 3)"
    assert "each speed-up below counts, since a speed-up counts only where the split computes the loss" in said
    assert not p.not_counted
    assert not any("not counted" in row[3] for row in lab.timed_table_rows(p))


@pytest.mark.mutants
def test_mutant_pipeline_with_a_wrong_loss_fails_and_its_speedup_does_not_count(monkeypatch):
    wrong = lambda c: 2.5 * 4 if (c.split_points, c.m) == ((3,), 4) else 2.5  # summed, not averaged
    monkeypatch.setattr(lab, "measure_pipeline", _fake_measure(_steps(), loss=wrong))
    verdict, p = lab.check_pipelined(choose_config, predict_speedup, PROFILE)
    assert verdict.status == checks.FAILED, verdict.message
    assert "split [3] with m=4: outputs (the loss) differ from one device's by 7.5e+00" in verdict.message
    assert "this speed-up does not count (rule 3)" in verdict.message
    assert "2.5" not in verdict.message and "10.0" not in verdict.message  # never the loss itself
    row = next(r for r in lab.timed_table_rows(p) if r[0] == "4 (yours)")
    assert row[3].endswith("not counted: its loss missed one worker's")


def test_a_faster_reference_with_a_wrong_loss_is_not_the_fastest(monkeypatch):
    steps = _steps()
    faster = lambda c: steps(c) * (0.5 if c.m == 8 else 1)  # m=8 runs far faster, but computes a wrong loss
    monkeypatch.setattr(lab, "measure_pipeline", _fake_measure(faster, loss=lambda c: 3.0 if c.m == 8 else 2.5))
    verdict, p = lab.check_pipelined(choose_config, predict_speedup, PROFILE)
    assert verdict.status == checks.PASSED and p.fastest.key == p.mine.key, verdict.message
    assert "m=8: outputs (the loss) differ from one device's by 5.0e-01" in p.outputs
    row = next(r for r in lab.timed_table_rows(p) if r[0] == "8")
    assert "not counted" in row[3]


def test_a_launch_that_kept_a_loss_for_one_worker_only_counts_no_row_without_one(monkeypatch):
    from utils.labs.balance_the_pipeline import same_outputs
    from utils.lessons.model_split import runs

    row = runs.Row(96, 4, "1f1b", 0.6, 1.0, [0.5, 0.5], split_points=(3,), speedups=[1.6])
    kept = runs.PipelineRun([row], [{"losses": {"batch 96 one device": 2.5}}], (3,), 1, True)
    assert same_outputs.not_counted(kept) == {row.key}
    assert "no loss kept beside one device's: the outputs were not compared" in same_outputs.outputs_line(kept)
    none_kept = runs.PipelineRun([row], [], (3,), 1, True)  # a stand-in's launch: nothing to compare
    assert same_outputs.not_counted(none_kept) == set()
    assert "the outputs were not compared" in same_outputs.outputs_line(none_kept)
