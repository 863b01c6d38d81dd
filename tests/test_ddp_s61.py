"""Lesson 03, twenty-third reading (t23_0304): prose that a mode changes or a run measures is not fixed in the
notebook's markdown; the knobs table says why a setting shows no bucket count."""
import nbformat

from utils.lessons.ddp import plan

NB = nbformat.read("notebooks/03_ddp.ipynb", as_version=4)
SOURCE = "\n".join(c.source for c in NB.cells)
MARKDOWN = "\n".join(c.source for c in NB.cells if c.cell_type == "markdown")


def test_the_global_batch_is_not_written_as_one_modes_figure():
    # CPU workers take 16 sequences, GPUs 32: the markdown names the setting, the cells print the figure
    assert plan.CPU_BATCH != plan.GPU_BATCH
    assert "Two workers of 16 sequences" not in MARKDOWN and "a global batch of 32" not in MARKDOWN
    assert "Two workers of `S.batch_per_worker` sequences each" in MARKDOWN


def test_the_summary_does_not_say_the_all_reduce_takes_longer_inside_the_step():
    assert "inside the step it takes longer" not in MARKDOWN
    assert "spans are a sum, not a\n  wall time" in MARKDOWN


def test_the_knobs_table_says_why_a_dash_stands_for_buckets():
    assert "(—: no buckets logged)" not in SOURCE
    assert "find_unused_parameters still all-reduces in buckets" in SOURCE
