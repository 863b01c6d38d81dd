"""Lesson 07 fixes from the twenty-fourth reading (t24_0708)."""

import ast
from pathlib import Path

import nbformat

from utils.lessons.tensor_parallel import report

NOTEBOOK = Path(__file__).resolve().parents[1] / "notebooks" / "07_tensor_parallel.ipynb"


def test_a_factor_under_ten_keeps_its_two_figures():
    """t24_0708 other 2: 128 / 65 = 1.97 printed "2" beside "3.9"; both ends now carry two figures."""
    assert report.two_figures(1.97) == "2.0" and report.two_figures(3.94) == "3.9"
    assert report.two_figures(9.96) == "10" and report.two_figures(0.5) == "0.50"
    assert report.crossover_miss(65.0, 128, 256, [32, 64, 128, 256]) == "the measured width is 2.0x to 3.9x " \
                                                                        "the model's"


def test_section_5_s_plus_minus_is_described_as_the_speed_up_times_the_spread():
    """t24_0708 #2: the printed ± is the speed-up x the larger (slowest - fastest) / fastest (0.34 x 0.33 =
    0.11), not the spread itself; cells 38 and 45 now say so, as the claims table's note does."""
    cells = nbformat.read(NOTEBOOK, 4).cells
    decode = next(c.source for c in cells if "DECODE_ROW.measured} one device's speed" in c.source)
    section_5 = next(c.source for c in cells if "PIPE.measured} one device's throughput" in c.source)
    said = "the speed-up x the larger (slowest - fastest) / fastest of the two methods' rounds"
    for code in (decode, section_5):
        ast.parse(code)                                            # the kernel's Python parses the edit
        assert said in code.replace('"\n    "', "")               # the sentence, its literals joined
    joined = "\n".join(c.source for c in cells)
    assert "(± the rounds' spread, (slowest - fastest) / fastest)" not in joined
    assert "section 5's (slowest - fastest) / fastest)" not in joined


def test_the_set_up_prints_section_5_s_model_so_its_all_reduces_check_by_hand():
    """t24_0708 other 1: section 5's GPT (width, depth, heads, prompt) was printed nowhere, so "8 calls x
    (alpha + 4 B x width / beta)" could not be checked; the set-up cell now prints it and the count."""
    cells = nbformat.read(NOTEBOOK, 4).cells
    setup = next(c.source for c in cells if c.cell_type == "code" and "S = lesson_settings(" in c.source)
    ast.parse(setup)
    for name in ("depth", "width", "heads", "prompt", "new_tokens"):
        assert f"{{S.generation.{name}}}" in setup
    assert "{2 * S.generation.depth} a token" in setup
