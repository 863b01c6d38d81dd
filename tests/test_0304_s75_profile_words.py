"""Lesson 04, the thirty-sixth reading (t36_0304 #2): the profile's markdown called torchao int8 dynamic,
compiled, "torchao's best path" at both batches, though a run can put weight-only ahead at batch 1. It names
the path instead of ranking it in fixed prose."""

import nbformat


def test_the_profile_markdown_names_the_torchao_path_without_ranking_it():
    nb = nbformat.read("notebooks/04_compression.ipynb", 4)
    text = " ".join(c.source for c in nb.cells if c.cell_type == "markdown")
    assert "best path" not in text
    assert "torchao's int8 dynamic, compiled (its int8-matmul path)" in text
