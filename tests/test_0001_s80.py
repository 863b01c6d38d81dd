"""Round s80, lessons 00 and 01: long visible paragraphs moved one click away, the scaling plot's dashed line."""
import json
import re
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

from utils.lessons.why_slow import scaling  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def _cells(name):
    return ["".join(c["source"]) for c in json.loads((ROOT / "notebooks" / name).read_text())["cells"]]


def _visible(markdown: str) -> str:
    return re.sub(r"<details>.*?</details>", "", markdown, flags=re.S)


def test_lesson01_hardware_cell_shows_one_sentence_and_keeps_the_rest_in_the_block():
    cell = next(c for c in _cells("01_why_slow.ipynb") if "report.hardware_sentences(" in c)
    assert cell.count("say(") == 1 and "say(answer)" in cell
    assert "*detail" in cell.split("how_measured(", 1)[1]


def test_lesson00_copy_bullet_is_short_with_its_rules_one_click_away():
    cell = next(c for c in _cells("00_start_here.ipynb") if "## 2 · How close does a copy get" in c)
    bullet = _visible(cell).split("- `cpu`:", 1)[1].split("- GPUs:", 1)[0]
    assert len(bullet.split()) <= 150
    assert "write-allocate" in cell.split("<details>", 1)[1]  # moved, not lost


def test_scaling_plot_names_the_dashed_line_and_the_lesson_explains_it():
    pts = {axis: [scaling.ScalePoint(axis="depth", value=v, seconds=1e-3 * v, model_flops=1e6 * v, saved_bytes=2**20 * v,
                                     state_bytes=2**20) for v in (1, 2, 4)]
           for axis in ("depth",)}
    fig = scaling.plot_scaling(pts, "")
    labels = [t.get_text() for ax in fig.axes if ax.get_legend() for t in ax.get_legend().get_texts()]
    assert any("no fixed" in label and "FLOP formula" in label for label in labels)
    assert any("dashed line" in c and "no fixed cost" in c for c in _cells("01_why_slow.ipynb"))
