"""t33_labs48 weak point 2: lab 08's checks list withholds two of exercise B's habits (one all-reduce a step,
evaluating and saving only as often as asked), but quiz question 3, which the learner meets before the
take-aways, stated the first outright ("... runs under no_sync"). No question, option or explanation of the
lab's quiz names a withheld fix; question 3 asks what a step needs instead."""

from __future__ import annotations

import re

from utils import quiz

# Words that state the communication fix: its API, or the rule it carries out
_FIX = re.compile(r"no_sync|require_backward_grad_sync|but the last|only the last|fewer all-reduces", re.I)


def _says_a_withheld_fix(text: str) -> bool:
    return bool(_FIX.search(text))


def _texts(question) -> list[str]:
    return [question.prompt, question.explain, *getattr(question, "options", [])]


def test_the_detector_catches_the_old_question_and_passes_a_question_that_asks_what_a_step_needs():
    old = ("Each step accumulates 8 micro-batches, and DDP sends the gradient in 3 buckets. The backward of "
           "every micro-batch but the last runs under no_sync. How many all-reduce calls does a step make?")
    assert _says_a_withheld_fix(old)
    assert _says_a_withheld_fix("Without no_sync every backward would: 8 x 3 = 24 calls")
    assert not _says_a_withheld_fix("At the fewest, how many all-reduce calls does one optimizer step need?")


def test_lab08s_quiz_names_no_fix_its_checks_list_withholds():
    for k, question in enumerate(quiz.ask("labs/make_it_fast").questions, 1):
        for text in _texts(question):
            assert not _says_a_withheld_fix(text), (k, text)


def test_question_3_still_asks_for_the_fewest_calls_a_step_needs():
    question = quiz.ask("labs/make_it_fast").questions[2]
    assert "at the fewest" in question.prompt.lower() and "optimizer step" in question.prompt
    assert question.judge(3).correct and not question.judge(24).correct  # one call a bucket, not one a backward
