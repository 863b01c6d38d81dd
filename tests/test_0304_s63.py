"""Reading 25 (t25_0304): lesson 03's article before a printed step time and its loss gap as c42 prints it,
lesson 04's paired standard error, references passed or fallen short of, and section 4's collapsed details.
Every sentence's branches are checked on fabricated figures, not on one run's output."""

import json

import pytest

from utils.lessons.ddp import allreduce


@pytest.mark.parametrize("figure, said", [
    ("84 ms", "an 84 ms"), ("8 ms", "an 8 ms"), ("8.5 ms", "an 8.5 ms"), ("800 ms", "an 800 ms"),
    ("11 ms", "an 11 ms"), ("18 ms", "an 18 ms"), ("11,000 ms", "an 11,000 ms"), ("18000 ms", "an 18000 ms"),
    ("76 ms", "a 76 ms"), ("110 ms", "a 110 ms"), ("1 ms", "a 1 ms"), ("0.8 ms", "a 0.8 ms"),
    ("181 ms", "a 181 ms"), ("1,800 ms", "a 1,800 ms")])
def test_the_step_time_takes_the_article_it_is_read_with(figure, said):
    # the twenty-fifth reading: "against a 84 ms step"; the step time is printed from the run
    assert allreduce.with_article(figure) == said


def _source(path, index):
    return "".join(json.load(open(path))["cells"][index]["source"])


def test_lesson_03_prints_the_loss_gap_as_section_2_does_and_says_an_84_ms():
    # c42 prints gap_curves to .1e (6.5e-05); the claims row printed .0e (6e-05), rounding it twice
    claims_cell = _source("notebooks/03_ddp.ipynb", 70)
    assert 'f"gap {gap_curves:.1e}"' in claims_cell and "gap_curves:.0e" not in claims_cell
    assert "allreduce.with_article(" in _source("notebooks/03_ddp.ipynb", 61)
    assert "FSDP, Fully Sharded Data Parallel" in _source("notebooks/03_ddp.ipynb", 50)  # defined where it is used
