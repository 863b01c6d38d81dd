"""Notebook hygiene: every course notebook and lab is clean, and the checks catch what they must.

The rules live in utils.tools.nbtools.problems(); `make execute` produces notebooks that pass them.
"""

from pathlib import Path

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

from utils.tools import nbtools

ROOT = Path(__file__).resolve().parents[1]
COURSE_NOTEBOOKS = sorted(ROOT.glob("notebooks/*.ipynb")) + sorted(ROOT.glob("labs/*.ipynb"))


def test_there_are_notebooks_to_check():
    assert any(p.name.startswith("00_") for p in COURSE_NOTEBOOKS)


@pytest.mark.parametrize("path", COURSE_NOTEBOOKS, ids=lambda p: str(p.relative_to(ROOT)))
def test_course_notebook_is_clean(path):
    assert nbtools.problems(path) == []


def clean_notebook():
    nb = new_notebook(cells=[new_markdown_cell("# Title"),
                             new_code_cell("print(1)", execution_count=1,
                                           outputs=[new_output("stream", name="stdout", text="1\n")]),
                             new_code_cell("x = 2", execution_count=2)])
    nbtools.clean(nb)
    return nb


def write(tmp_path, nb, name="nb.ipynb"):
    path = tmp_path / name
    nbformat.write(nb, path)
    return path


def test_a_clean_fixture_passes(tmp_path):
    assert nbtools.problems(write(tmp_path, clean_notebook())) == []


def test_error_output_is_caught(tmp_path):
    nb = clean_notebook()
    nb.cells[1].outputs.append(new_output("error", ename="ValueError", evalue="bad", traceback=["boom"]))
    assert any("error output (ValueError)" in p for p in nbtools.problems(write(tmp_path, nb)))


@pytest.mark.parametrize("leak", ["/tmp/tmpab12/x.txt", "saved to /root/data", "/home/alice/nb",
                                  "<Model at 0x7f3a2b1c9d40>"])
def test_machine_paths_and_memory_addresses_are_caught(tmp_path, leak):
    nb = clean_notebook()
    nb.cells[1].outputs = [new_output("stream", name="stdout", text=leak)]
    found = nbtools.problems(write(tmp_path, nb))
    assert any("machine path" in p or "memory address" in p for p in found), found


def test_out_of_order_execution_counts_are_caught(tmp_path):
    nb = clean_notebook()
    nb.cells[1].execution_count, nb.cells[2].execution_count = 2, 1
    assert any("not executed top to bottom" in p for p in nbtools.problems(write(tmp_path, nb)))
    nb.cells[1].execution_count, nb.cells[2].execution_count = 1, None  # a cell never run
    assert any("not executed top to bottom" in p for p in nbtools.problems(write(tmp_path, nb)))


def test_wrong_kernel_and_stray_metadata_are_caught(tmp_path):
    nb = clean_notebook()
    nb.metadata["kernelspec"]["name"] = "python3"
    nb.metadata["colab"] = {"provenance": []}
    nb.cells[1].metadata["collapsed"] = True
    found = nbtools.problems(write(tmp_path, nb))
    assert any("course kernel" in p for p in found)
    assert any("stray notebook metadata ['colab']" in p for p in found)
    assert any("cell 1 has stray metadata ['collapsed']" in p for p in found)


def test_invalid_and_oversized_notebooks_are_caught(tmp_path):
    bad = tmp_path / "bad.ipynb"
    bad.write_text('{"cells": 3}')
    assert any("not valid nbformat 4" in p for p in nbtools.problems(bad))
    nb = clean_notebook()
    nb.cells[1].outputs = [new_output("stream", name="stdout", text="x" * 1_100_000)]
    assert any("over the 1 MB limit" in p for p in nbtools.problems(write(tmp_path, nb)))


def test_clean_keeps_tags_and_widget_state_and_drops_the_rest():
    nb = clean_notebook()
    nb.metadata["widgets"] = {"application/vnd.jupyter.widget-state+json": {"state": {}}}
    nb.metadata["colab"] = {}
    nb.cells[1].metadata = {"tags": ["raises-exception"], "scrolled": True, "execution": {}}
    nbtools.clean(nb)
    # Widget state stays so that a static viewer can draw the widgets; everything else editor-specific goes.
    assert set(nb.metadata) == {"kernelspec", "language_info", "widgets"}
    assert nb.cells[1].metadata == {"tags": ["raises-exception"]}
