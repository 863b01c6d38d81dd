"""utils.source.show_source: what the learner reads is the code that runs."""

import inspect

import pytest

from utils import models
from utils.source import Source, show_source, where


def test_show_source_gives_the_file_lines_and_the_exact_text():
    shown = show_source(models.count_parameters)
    text = str(shown)
    assert text.startswith("# utils/models.py, lines ")
    assert inspect.getsource(models.count_parameters) in text
    assert shown.line_count == len(inspect.getsource(models.count_parameters).splitlines())


def test_a_decorated_function_is_shown_from_its_own_file():
    assert where(models.accuracy).startswith("utils/models.py, lines ")  # @torch.no_grad() wraps it
    assert "def accuracy(" in str(show_source(models.accuracy))


def test_several_objects_render_as_highlighted_html_one_after_the_other():
    html = show_source(models.seed_everything, models.GPTConfig)._repr_html_()
    assert html.count("<code>utils/models.py, lines") == 2 and "highlight" in html


def test_show_source_needs_something_to_show():
    with pytest.raises(TypeError, match="at least one"):
        show_source()
    assert isinstance(show_source(models), Source)  # a whole module works too
