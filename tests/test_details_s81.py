"""``how_measured`` displays its block and returns None: a cell that wraps it (``show(how_measured(...))``)
prints a bare "None" under the block (t43 run: lesson 05's cells 18 and 38)."""

import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WRAPPED = re.compile(r"\w\(\s*how_measured\(")


def test_no_cell_wraps_how_measured_whose_value_is_none():
    wrapped = []
    for path in sorted([*ROOT.glob("notebooks/*.ipynb"), *ROOT.glob("labs/*.ipynb")]):
        for i, cell in enumerate(json.loads(path.read_text())["cells"]):
            if cell["cell_type"] == "code" and WRAPPED.search("".join(cell["source"])):
                wrapped.append(f"{path.name} cell {i}")
    assert not wrapped, f"how_measured displays its block and returns None; call it alone: {wrapped}"


def test_the_rule_finds_a_wrapped_call():
    assert WRAPPED.search('show(how_measured("x", "y"))') and not WRAPPED.search('how_measured("x", "y")')
