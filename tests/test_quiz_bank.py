"""Question banks (utils.quiz.ask): every bank loads, every answer it marks correct is judged correct, and
no notebook's source or committed output gives an answer away."""

import json
from pathlib import Path

import pytest

from utils import quiz

ROOT = Path(__file__).resolve().parent.parent
BANKS = sorted(p.parent.relative_to(ROOT / "utils").as_posix() for p in (ROOT / "utils").glob("*/*/quiz.toml"))
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb")) + sorted((ROOT / "labs").glob("*.ipynb"))


@pytest.mark.parametrize("bank", BANKS)
def test_every_bank_loads_and_its_own_answers_are_right(bank):
    asked = quiz.ask(bank)
    assert len(asked) >= 2, f"{bank}: a quiz needs at least two questions"
    for q in asked.questions:
        right = q.options[q.correct] if isinstance(q, quiz.Choice) else q.value
        assert q.judge(right).correct, f"{bank}: {q.prompt!r} rejects its own answer"
        wrong = q.options[(q.correct + 1) % len(q.options)] if isinstance(q, quiz.Choice) else q.value * 3 + 1
        assert not q.judge(wrong).correct, f"{bank}: {q.prompt!r} accepts a wrong answer"


def test_the_text_of_a_quiz_holds_no_answer():
    asked = quiz.Quiz("Quiz", [
        quiz.question_from({"kind": "choice", "prompt": "Which?", "options": ["a", "b"], "correct": 1,
                            "explain": "because b"}, "t"),
        quiz.question_from({"kind": "number", "prompt": "How many?", "value": 31.5, "tolerance": 1,
                            "explain": "thirty-one and a half"}, "t")])
    text = asked.text()
    assert "Which?" in text and "How many?" in text
    assert "because b" not in text and "thirty-one" not in text and "31.5" not in text
    assert asked[0].judge("b").correct and not asked[1].judge(20).correct


def test_a_bad_bank_is_named_in_the_error(tmp_path):
    with pytest.raises(FileNotFoundError, match="no question bank 'lessons/nope'"):
        quiz.ask("lessons/nope")
    with pytest.raises(ValueError, match="kind = 'poll'"):
        quiz.question_from({"kind": "poll", "prompt": "?", "explain": "."}, "x.toml question 1")
    with pytest.raises(ValueError, match="no 'options' field"):
        quiz.question_from({"kind": "choice", "prompt": "?", "correct": 0, "explain": "."}, "x.toml")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_no_notebook_gives_a_quiz_answer_away(path):
    nb = json.loads(path.read_text())
    for cell in nb["cells"]:
        source = "".join(cell["source"])
        assert "correct=" not in source and "explain=" not in source, \
            f"{path.name}: a quiz question is written in the notebook; move it to its quiz.toml"
        if "quiz.ask(" in source:
            bank = source.split("quiz.ask(")[1].split(")")[0].strip("'\"")
            assert bank in BANKS, f"{path.name} asks for {bank!r}, which has no quiz.toml"
