"""Lab mechanics: student copies, checks, hints, quizzes; every lab's student copy runs with every check 'not
done yet', and no student copy gives a solution away (in a stub's message, a hint, or a check's hint).

Each lab's solution runs under nbval (its last cell, marked NBVAL_CHECK_OUTPUT, shows "N/N checks passed").
"""

import ast
import re
from pathlib import Path

import nbformat
import pytest
import torch
from nbclient import NotebookClient

from utils import checks, quiz
from utils.tools import nbtools

ROOT = Path(__file__).resolve().parents[1]
LABS = sorted((ROOT / "labs").glob("*.ipynb"))
HINT_BANKS = sorted(p.parent.relative_to(ROOT / "utils").as_posix()
                    for p in (ROOT / "utils").glob("labs/*/hints.toml"))
# What reads as code: a keyword argument written as code (``shuffle=True``), an assignment statement, or a
# call with arguments that the lab's solution contains (``max(L/2, C)`` is a formula; ``DDP(model, ...)`` from
# the solution is the line to type).
KEYWORD_OR_ASSIGNMENT = re.compile(r"\b\w+=[\w'\"\[(]|^\s*[\w.]+\s*[+\-*/]?=\s*\S", re.M)
CALL = re.compile(r"[\w.]+\([^()]*[^()\s][^()]*\)")


def giveaway(text: str, solution: list[str]) -> str | None:
    """The first piece of ``text`` that gives away the solution (whose code lines are ``solution``), or None."""
    text = text.split("(more: checks.hint(")[0]  # the pointer to the next hint is not a solution
    code = "\n".join(solution)
    for line in solution:
        if len(line) >= 10 and line in text:
            return line
    found = KEYWORD_OR_ASSIGNMENT.search(text)
    if found:
        return found.group(0)
    for call in CALL.findall(text):
        if call in code:
            return call
    return None


def solution_blocks(source: str) -> list[list[str]]:
    """The code lines (comments and blank lines left out) of each solution block of a cell."""
    blocks, block = [], None
    for line in source.splitlines():
        stripped = line.strip()
        if stripped.startswith(nbtools.BEGIN):
            block = []
        elif stripped.startswith(nbtools.END):
            blocks.append(block)
            block = None
        elif block is not None and stripped and not stripped.startswith("#"):
            block.append(stripped.split("  #")[0].strip())
    return blocks


def solution_code(lab: Path) -> list[str]:
    """Every code line of every solution block of a lab source."""
    cells = nbformat.read(lab, as_version=4).cells
    return [line for c in cells if c.cell_type == "code" for block in solution_blocks(c.source) for line in block]


def stub_messages(source: str) -> list[str]:
    """The messages of the ``raise NotImplementedError("...")`` stubs in a student cell."""
    return [node.exc.args[0].value for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call)
            and getattr(node.exc.func, "id", "") == "NotImplementedError" and node.exc.args
            and isinstance(node.exc.args[0], ast.Constant)]


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
        assert not any(nbtools.SOURCE_NOTE_MARK in c.source for c in nb.cells), "the source's note was kept"


@pytest.mark.parametrize("lab", LABS, ids=lambda p: p.name)
def test_the_source_says_it_holds_the_solutions(lab):
    nb = nbformat.read(lab, as_version=4)
    notes = [c for c in nb.cells[:3]
             if c.cell_type == "markdown" and c.source.startswith(nbtools.SOURCE_NOTE_MARK)]
    assert notes, f"{lab.name}: say at the top that it holds the solutions (nbtools.SOURCE_NOTE)"


@pytest.mark.parametrize("lab", LABS, ids=lambda p: p.name)
def test_no_stub_message_gives_the_solution_away(lab):
    student = nbtools.student_copy(nbformat.read(lab, as_version=4), lab.name)
    solution = solution_code(lab)
    for cell in student.cells:
        for message in stub_messages(cell.source) if cell.cell_type == "code" else []:
            found = giveaway(message, solution)
            assert not found, f"{lab.name}: a stub's message gives the solution away: {found!r}"


@pytest.mark.parametrize("bank", HINT_BANKS)
def test_every_hint_names_a_concept_and_gives_no_line_to_type(bank):
    (lab,) = [p for p in LABS if nbtools.lab_bank(p.name) == bank]
    solution = solution_code(lab)
    for part, hints in checks.hint_texts(bank).items():
        assert len(hints) >= 2, f"{bank} exercise {part}: give a second, fuller hint"
        for text in hints:
            found = giveaway(text, solution)
            assert not found, f"{bank} exercise {part}: a hint gives the solution away: {found!r}"


def test_a_part_marker_becomes_the_first_hint_pointing_to_the_second():
    source = "def f(x):\n    ### BEGIN SOLUTION\n    # PART: A\n    return 2 * x\n    ### END SOLUTION"
    stub = nbtools.strip_solutions(source, "labs/ddp_from_scratch")
    first = checks.hint_texts("labs/ddp_from_scratch")["A"][0]
    (message,) = stub_messages(stub)
    assert stub.splitlines()[1] == "    raise NotImplementedError("  # a long message is wrapped to fit 110 columns
    assert max(len(line) for line in stub.splitlines()) <= 110
    assert message == f"exercise A: {first} (more: checks.hint('labs/ddp_from_scratch', 'A', 2))"
    with pytest.raises(ValueError, match="needs the lab's bank"):
        nbtools.strip_solutions(source)
    assert nbtools.lab_bank("03_ddp_from_scratch.ipynb") == "labs/ddp_from_scratch"


def test_hints_come_in_levels_and_bad_requests_name_what_exists():
    second = checks.hint("labs/ddp_from_scratch", "A", 2)
    assert second.level == 2 and "hint 2/2 for exercise A" in str(second) and "(more:" not in str(second)
    first = str(checks.hint("labs/ddp_from_scratch", "A"))
    assert "(more: checks.hint('labs/ddp_from_scratch', 'A', 2))" in first
    bound = checks.hints_for("labs/ddp_from_scratch")
    assert bound("B", 2).text == checks.hint_texts("labs/ddp_from_scratch")["B"][1]
    with pytest.raises(KeyError, match=r"its exercises are \['A', 'B'\]"):
        checks.hint("labs/ddp_from_scratch", "Z")
    with pytest.raises(ValueError, match="hints 1 to 2, not 3"):
        checks.hint("labs/ddp_from_scratch", "A", 3)
    with pytest.raises(FileNotFoundError, match="no hints for 'labs/nope'"):
        checks.hint("labs/nope", "A")


def test_giveaway_tells_a_line_to_type_from_a_concept():
    solution = ["ddp_model = DDP(model, device_ids=None)", "loss = net(x, y)[1] / accumulate"]
    for concept in ("look up DistributedDataParallel.no_sync and optimizer.step()", "the (N, 64) activation",
                    "the epoch cannot beat max(L/2, C)", "(more: checks.hint('labs/x', 'A', 2))"):
        assert giveaway(concept, solution) is None, concept
    for code in ("wrap it: DDP(model, device_ids=None)", "use shuffle=True", "loss = net(x, y)[1] / accumulate"):
        assert giveaway(code, solution) is not None, code


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
    solution = solution_code(lab)
    for verdict in verdicts:  # a check's hint is shown to the learner too (wrapped: its lines joined)
        for hint_text in re.findall(r"^\s*hint:(.*(?:\n {9}\S.*)*)", verdict, flags=re.M):
            if hint_text:
                found = giveaway(" ".join(hint_text.split()), solution)
                assert not found, f"{lab.name}: a check's hint gives the solution away: {found!r}"
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


def _worked_answer(x):
    return x + 1


def test_refers_to_sees_the_worked_answer_behind_a_wrapper_a_partial_or_a_closure():
    """The labs that ask for the learner's own code (07, 08) refuse the course's answer however it is wrapped,
    and accept code that does not name it."""
    import functools

    def wrapper(x):
        return _worked_answer(x)

    def outer():
        def inner(x):
            return _worked_answer(x)
        return inner

    @functools.wraps(_worked_answer)
    def decorated(x):
        return x + 1

    names, targets = {"_worked_answer"}, (_worked_answer,)
    for fn in (_worked_answer, wrapper, outer, functools.partial(_worked_answer, 1), decorated,
               lambda x: _worked_answer(x)):
        assert checks.refers_to(fn, names, targets), fn
    assert not checks.refers_to(lambda x: x + 1, names, targets)
    assert not checks.refers_to(len, names, targets)


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


# --- the same frame in every lab (issue 26) -------------------------------------------------------------

FRAME = ["**Goals**", "**How the checks work", "**Modes and time", "## Settings", "## Set-up", "## Exercises",
         "### Exercise A", "## Checks", "## Where you stand", "## Quiz"]
NOT_FRAMED: set[str] = set()  # a lab not yet in the frame (strict xfail: none since issue 26)
HINT_CALL = re.compile(r"(?<![\w.])hint\(")  # a hint spelled without ``checks.`` (the second spelling)


def _framed(lab: Path):
    marks = [pytest.mark.xfail(reason="issue 26: not in the frame yet", strict=True)] if lab.name in NOT_FRAMED else []
    return pytest.param(lab, id=lab.name, marks=marks)


@pytest.mark.parametrize("lab", [_framed(p) for p in LABS])
def test_every_lab_has_the_same_frame_and_one_spelling_of_hints(lab):
    nb = nbformat.read(lab, as_version=4)
    text = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    at = [text.find(mark) for mark in FRAME]
    missing = [mark for mark, k in zip(FRAME, at) if k < 0]
    assert not missing, f"{lab.name}: the frame lacks {missing}"
    assert at == sorted(at), f"{lab.name}: the frame is out of order: {sorted(zip(at, FRAME))}"
    spelled = [c.source for c in nb.cells if HINT_CALL.search(c.source)]
    assert not spelled, f"{lab.name}: spell a hint checks.hint('labs/<slug>', 'A', 2): {spelled[0][:200]}"


@pytest.mark.parametrize("lab", LABS, ids=lambda p: p.name)
def test_each_exercise_heading_matches_its_solutions_part(lab):
    """A stub's hint is its exercise's: the ``# PART:`` markers follow the exercise headings, in order."""
    nb = nbformat.read(lab, as_version=4)
    text = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    headings = re.findall(r"^### Exercise ([A-Z])\b", text,
                          flags=re.M)
    parts = [p.split("-")[0] for p in re.findall(r"# PART: ([\w-]+)", "\n".join(c.source for c in nb.cells))]
    assert list(dict.fromkeys(parts)) == headings, (headings, parts)


@pytest.mark.parametrize("path", LABS, ids=lambda p: p.stem)
def test_the_quiz_comes_before_the_take_aways_that_explain_its_answers(path):
    """A lab's take-aways state what the run showed, which answers its quiz: the quiz is asked first."""
    sources = [c.source for c in nbformat.read(path, as_version=4).cells]
    quiz_at = [i for i, s in enumerate(sources) if "quiz.ask(" in s]
    take_at = [i for i, s in enumerate(sources) if re.search(r"take_aways?\(", s)]  # the calls, not imports
    if not (quiz_at and take_at):
        pytest.skip(f"{path.name} has no quiz or no take-aways call")
    assert min(take_at) > quiz_at[0], "the take-aways state the quiz's answers: print them after it"
