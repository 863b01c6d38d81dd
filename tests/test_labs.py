"""Lab mechanics: student copies, checks, quizzes; every lab's student copy runs with every check 'not done yet'.

Each lab's solution runs under nbval (its last cell, marked NBVAL_CHECK_OUTPUT, shows "N/N checks passed").
"""

from pathlib import Path

import nbformat
import pytest
import torch
from nbclient import NotebookClient

from utils import checks, quiz
from utils.tools import nbtools

ROOT = Path(__file__).resolve().parents[1]
LABS = sorted((ROOT / "labs").glob("*.ipynb"))


# --- student copies --------------------------------------------------------------------------------------


def test_solution_blocks_become_stubs_that_keep_indentation_and_hint():
    source = "def f(x):\n    ### BEGIN SOLUTION\n    # HINT: double it\n    return 2 * x\n    ### END SOLUTION\ny = 1"
    assert nbtools.strip_solutions(source) == "def f(x):\n    raise NotImplementedError('double it')\ny = 1"


def test_a_block_without_hint_gets_a_default_message():
    out = nbtools.strip_solutions("### BEGIN SOLUTION\nz = 3\n### END SOLUTION")
    assert out == "raise NotImplementedError('write your solution here')"


@pytest.mark.parametrize("source", ["### BEGIN SOLUTION\nx = 1", "x = 1\n### END SOLUTION",
                                    "### BEGIN SOLUTION\n### BEGIN SOLUTION\n### END SOLUTION"])
def test_unbalanced_markers_are_errors(source):
    with pytest.raises(ValueError):
        nbtools.strip_solutions(source)


def test_build_students_writes_one_copy_per_lab_without_solutions_or_outputs(tmp_path):
    written = nbtools.build_students(ROOT / "labs", tmp_path)
    assert [p.name for p in written] == [p.name for p in LABS]
    for path in written:
        nb = nbformat.read(path, as_version=4)
        text = "\n".join(c.source for c in nb.cells)
        assert "### BEGIN SOLUTION" not in text and "NotImplementedError" in text
        assert all(not c.get("outputs") for c in nb.cells if c.cell_type == "code")
        assert "Student copy" in nb.cells[1].source


def verdict_texts(nb):
    texts = []
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            text = out.get("text") or out.get("data", {}).get("text/plain", "")
            if any(mark in text for mark in ("⏳", "❌", "✅")):
                texts.append(text)
    return texts


@pytest.mark.timeout(300)
@pytest.mark.parametrize("lab", LABS, ids=lambda p: p.name)
def test_student_copy_runs_to_the_end_with_every_check_not_done_yet(lab):
    nb = nbtools.student_copy(nbformat.read(lab, as_version=4), lab.name)
    NotebookClient(nb, kernel_name=nbtools.KERNEL_NAME, timeout=240,
                   resources={"metadata": {"path": str(lab.parent)}}).execute()
    errors = [o for c in nb.cells for o in c.get("outputs", []) if o.output_type == "error"]
    assert not errors, errors
    verdicts = verdict_texts(nb)
    assert verdicts, "the lab shows no check verdicts"
    assert all("not done yet" in v for v in verdicts), verdicts
    summary = [o["text"] for c in nb.cells for o in c.get("outputs", []) if "checks passed" in o.get("text", "")]
    assert summary and summary[-1].startswith("0/"), summary


# --- utils.checks ----------------------------------------------------------------------------------------


def test_verdicts_for_unfinished_wrong_crashing_and_right_code(capsys):
    def unfinished():
        raise NotImplementedError("later")

    def wrong():
        checks.expect_close(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.5]), what="the output")

    def crashing():
        return {}["missing"]

    assert checks.run_check("u", unfinished, hint="h").status == checks.NOT_DONE
    v = checks.run_check("w", wrong, hint="look at the second element")
    assert v.status == checks.FAILED and "differs from the reference by up to 0.5" in v.message
    assert "hint: look at the second element" in str(v)
    v = checks.run_check("c", crashing)
    assert v.status == checks.FAILED and "KeyError" in v.message
    assert checks.run_check("r", lambda: "fine").passed
    assert "⏳ u: not done yet" in capsys.readouterr().out


def test_expectations_say_by_how_much():
    with pytest.raises(checks.CheckFailed, match="short of the target 1.5x by 0.3x"):
        checks.expect_at_least(1.2, 1.5, "speedup", "x")
    with pytest.raises(checks.CheckFailed, match="over the limit 1 by 0.5"):
        checks.expect_at_most(1.5, 1.0, "accuracy drop")
    with pytest.raises(checks.CheckFailed, match="shape"):
        checks.expect_close(torch.zeros(2), torch.zeros(3))


def test_summary_counts_the_latest_verdict_per_check():
    v = [checks.Verdict("a", checks.PASSED), checks.Verdict("b", checks.FAILED), checks.Verdict("c", checks.NOT_DONE)]
    assert checks.summary(v) == "1/3 checks passed, 1 failed, 1 not done yet"


# --- utils.quiz ------------------------------------------------------------------------------------------


def test_choice_question_judges_and_explains():
    q = quiz.choice("Which link?", ["NVLink", "PCIe"], correct=1, explain="T4s have no NVLink.")
    assert q.judge(1).correct and not q.judge(0).correct and q.judge("PCIe").correct
    assert "T4s have no NVLink." in str(q.judge(0)) and not q.judge(None).correct
    with pytest.raises(ValueError):
        quiz.choice("?", ["a"], correct=3, explain="")


def test_number_question_accepts_within_tolerance_and_says_which_way():
    q = quiz.number("PCIe 4.0 x16 peak?", 31.5, tolerance=0.5, explain="16 x 1.97", unit="GB/s")
    assert q.judge("31.2").correct and not q.judge(40).correct
    assert "too high" in q.judge(40).text and "Type a number" in q.judge("lots").text


def test_quiz_shows_text_where_widgets_cannot_render():
    q = quiz.choice("Which link?", ["NVLink", "PCIe"], correct=1, explain="")
    bundle = q._repr_mimebundle_()
    assert "1) PCIe" in bundle["text/plain"] and "Quiz: Which link?" in bundle["text/plain"]
    assert "application/vnd.jupyter.widget-view+json" in bundle
