"""Thirty-fifth reading, lesson 05 cell 22 (t35_0506 #3): the uneven reads are said as multiples of the mean read,
and the mean is worked from the two multiples as printed, so a reader's sum comes out as printed (194 and 28 ms,
rounded, had worked out to 48.75 ms beside a mean of 48). Fabricated weights."""
import torch

from test_fix_s54b_030405 import cell_source
from utils.lessons.data_prefetch.dataset import uneven_reads_line, uneven_weights


def test_the_mean_worked_from_the_printed_multiples_is_1x():
    said = uneven_reads_line(uneven_weights(64, block=4, every=8, factor=4.0), 8, 48.0)
    assert said == ("uneven reads: 1 batch in 8 takes 4.00x the mean read, the others 0.57x: (4.00 + 7 x 0.57) / 8 "
                    "= 1.00x, so a batch still reads 48 ms on average, as above (L unchanged)")


def test_printed_multiples_that_miss_1x_say_the_rounding():
    said = uneven_reads_line(torch.tensor([4.0] + [0.5] * 7), 8, 30.0)   # (4.00 + 7 x 0.50) / 8 = 0.94
    assert "(4.00 + 7 x 0.50) / 8 = 0.94x as printed (exactly 1x before rounding), so a batch still reads 30 ms" \
        in said


def test_a_reader_redoes_the_printed_working():
    for every, factor in ((8, 4.0), (4, 3.0), (8, 2.0), (16, 5.0)):
        said = uneven_reads_line(uneven_weights(every * 8, block=1, every=every, factor=factor), every, 48.0)
        working = said.split(": ")[2].split(" = ")[0]   # "(4.00 + 7 x 0.57) / 8"
        slow, rest = working.strip("(").split(" + ")
        n, fast = rest.split(")")[0].split(" x ")
        mean = (float(slow) + int(n) * float(fast)) / every
        assert f"= {mean + 1e-9:.2f}x" in said   # half up, as a reader rounds


def test_cell_22_prints_the_line():
    code = cell_source("05_data_prefetch.ipynb", 22)
    assert "say(uneven_reads_line(weights, S.uneven_every, as_printed(READ_BATCH, 0, 1e-3)))" in code
    assert "mean {READ_BATCH * 1e3:.0f} ms a batch" not in code
