"""Eighteenth reading (t18_0304), lesson 04: cell 70 printed the int8 MLPs 3.97x smaller, worked from table
67's MB to two decimals (11.66 / 2.94), where section 4 (cell 43) prints the same stored models 3.96x
smaller from their bytes (11,656,269 / 2,943,603). Table 67 now prints whole bytes and cell 70 works every
size ratio from them, so one model reads one ratio everywhere in the lesson."""

import json
from pathlib import Path

from utils.lessons.compression.report import stored_size_words

NOTEBOOK = Path(__file__).resolve().parents[1] / "notebooks" / "04_compression.ipynb"


def test_the_int8_ratio_is_section_4s_from_the_bytes():
    fp32, weight_only, dynamic = 11_656_269, 2_943_603, 2_943_923
    assert f"{fp32 / weight_only:.2f}x" == "3.96x"  # cell 43's own division
    assert stored_size_words(fp32, weight_only) == "3.96x fewer stored bytes"
    assert stored_size_words(fp32, dynamic) == "3.96x fewer stored bytes"
    assert f"{11.66 / 2.94:.2f}" == "3.97"  # the MB as printed: the figure that disagreed


def test_the_cnn_sizes_read_from_bytes_in_every_outcome():
    dense = 1_727_757
    same = stored_size_words(dense, dense, base_name="dense")
    assert same == "the same stored size as dense (1,727,757 bytes)"
    assert stored_size_words(dense, 440_000, 1) == "3.9x fewer stored bytes"
    # a few bytes apart: no ratio that reads 1.00x fewer
    assert stored_size_words(dense, dense - 40, base_name="dense") == \
        "about the same stored size as dense (1,727,717 against 1,727,757 bytes)"
    # larger than its base (masks kept beside the weights): never "fewer"
    assert stored_size_words(dense, 3_455_000, base_name="dense") == "2.00x the stored bytes of dense"


def test_table_67_and_cell_70_read_the_same_bytes():
    cells = ["".join(c["source"]) for c in json.loads(NOTEBOOK.read_text())["cells"]]
    table = next(s for s in cells if "The trade-off's variants (# numbers the plot's points)" in s)
    assert '"stored bytes (state dict)"' in table and "f\"{v['bytes']:,}\"" in table
    lines = next(s for s in cells if "shrunk_by" in s)
    assert 'stored_size_words(mlp_fp32["bytes"], q["bytes"])' in lines
    assert "['mb']" not in lines and '["mb"]' not in lines  # no ratio from MB rounded to two decimals
