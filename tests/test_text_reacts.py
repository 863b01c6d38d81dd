"""Text reacts to the run: a figure that looks measured (a number with x, %, ms, s, GB/s, GFLOP/s) may stand in
a notebook's markdown only as theory, a datasheet figure, a target or a setting, listed below with why. A
measured outcome is printed by the run beside it, so that another machine's run cannot contradict the page.

Not scanned: maths ($...$, where a bound is derived), code (`...`), and the "About N s on a 2-core CPU" run
time of each header (``tests/test_run_times.py`` checks it against the measured one). A new figure in
markdown fails here until it is either printed from the run or listed with its reason.
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb")) + sorted((ROOT / "labs").glob("*.ipynb"))
FIGURE = re.compile(r"(?<![\w.^$/-])(\d+(?:[.,]\d+)*(?:-\d+(?:[.,]\d+)*)?)\s?(x|×|%|ms|µs|s|GB/s|MB/s|TB/s|"
                    r"GFLOP/s|TFLOP/s|Gops/s)(?![\w/])")
NOT_SCANNED = re.compile(r"\$\$.*?\$\$|\$[^$\n]*\$|`[^`\n]*`|About \d+ s on a 2-core CPU", re.S)

# notebook -> {figure as written: why it may stand in markdown}. Bounds and ratios of theory, datasheets,
# the lab's targets and the settings' own values; never a figure a run measured.
ALLOWED: dict[str, dict[str, str]] = {
    "notebooks/00_start_here.ipynb": {},
    "notebooks/01_why_slow.ipynb": {
        "100 %": "theory: a share's ceiling", "50 %": "the fit's stated usable accuracy (a setting)",
        "4×": "theory: AdamW's state counted in weights", "10 %": "the scaling fit's stated tolerance (a setting)"},
    "notebooks/02_model_split.ipynb": {
        "1×": "theory: a sequential split's bound", "2×": "theory: two devices' bound",
        "100 %": "theory: CPU time over busy time's ceiling",
        "10 %": "the link's planning figure: a target, not a bound (a setting)"},
    "notebooks/03_ddp.ipynb": {
        "2×": "theory: two ranks' bound", "1×": "theory: two ranks sharing one device",
        "70-85 %": "guidance: a practitioners' rule of thumb for busbw, labelled so on the page",
        "35-60 %": "guidance: a practitioners' rule of thumb for busbw, labelled so on the page",
        "70-90 %": "guidance: a practitioners' rule of thumb for busbw, labelled so on the page",
        "0 %": "theory: the chart label of an all-reduce row, which computes nothing"},
    "notebooks/04_compression.ipynb": {
        "4×": "theory: 4 bytes -> 1", "97.5 %": "a worked example of the format", "2×": "theory: a bound",
        "50 %": "theory: a sparsity level", "10×": "theory / the lab's target", "90 %": "theory: a sparsity level",
        "20×": "lab 04's size budget (a setting)", "1.5×": "lab 04's speed budget (a setting)",
        "1×": "theory: a dense kernel's bound", "2 %": "a tie's stated tolerance (a setting)"},
    "notebooks/05_data_prefetch.ipynb": {
        "4×": "theory: 4 bytes -> 1", "32×": "a setting (the GPU batch)", "1.2×": "a setting (read over step)",
        "48 ms": "a setting (the simulated read)", "40 ms": "a setting (the simulated step)",
        "2 %": "the stated noise rule (a setting)", "16-64 GB/s": "datasheet: PCIe 3.0-5.0 x16, per direction",
        "100 %": "theory: a share's ceiling", "1x": "theory: the bound of workers past the cores"},
    "notebooks/06_memory.ipynb": {
        "30×": "a setting (the GPU model)", "1.5×": "theory: FSDP's bytes over DDP's",
        "10 %": "the calculator's stated tolerance"},
    "notebooks/07_tensor_parallel.ipynb": {"1×": "theory: ranks sharing one device"},
    "notebooks/08_putting_it_together.ipynb": {
        "1x": "theory: a step that pays", "8x": "a setting (8 x 16 held-out sequences)",
        "2x": "theory: two devices' bound", "10 %": "the guide's stated margin (1 GB + 10 %)"},
    "labs/00_fix_the_article.ipynb": {"0.1 µs": "a setting: the precision a predicted time prints to"},
    "labs/01_predict_the_roofline.ipynb": {
        "2 %": "the checks' stated tolerance", "8x": "a setting (8x the length)",
        "25 %": "the check's stated tolerance"},
    "labs/02_balance_the_pipeline.ipynb": {"1x": "theory: one worker's pace", "1×": "theory: one worker's pace",
                                           "5 %": "check 3's least margin (a setting)",
                                           "15 %": "check 3's largest margin (a setting)",
                                           "2 %": "the checks' tolerance (a setting)"},
    "labs/03_ddp_from_scratch.ipynb": {"85 %": "the check's target"},
    "labs/06_fit_the_budget.ipynb": {"3 %": "a setting (the capacity's place)", "10 %": "the check's tolerance",
                                     "35 %": "the check's tolerance under the prediction"},
    "labs/07_attention_by_heads.ipynb": {"2×": "a setting (2 x 8 tokens)"},
    "labs/08_make_it_fast.ipynb": {"80 %": "the lab's target", "10 s": "an expectation of the cell's time"},
    "notebooks/09_articles_checked.ipynb": {
        "2x": "theory: two devices' bound", "1x": "theory: one device's speed, a split alone's bound",
        "1.0003x": "an illustration of a ratio printed to more digits, no run's figure",
        "1.78x": "an illustration of a round printed equal to its bound, no run's figure",
        "2 %": "a setting: the noise floor a ± under it is read at (the course's rule, no run's figure)"},
    "labs/04_compress_under_budget.ipynb": {},
    "labs/05_feed_the_gpu.ipynb": {"10 %": "the lab's target"},
}


def markdown_figures(path: Path) -> list[tuple[int, str, str]]:
    """(cell, figure, context) for every measured-looking figure in the notebook's markdown."""
    found = []
    for i, cell in enumerate(nbformat.read(path, as_version=4).cells):
        if cell.cell_type != "markdown":
            continue
        text = NOT_SCANNED.sub(" ", cell.source)
        for m in FIGURE.finditer(text):
            figure = f"{m.group(1)}{'' if m.group(2) in 'x×' else ' '}{m.group(2)}"
            found.append((i, figure, " ".join(text[max(0, m.start() - 50):m.end() + 30].split())))
    return found


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_markdown_states_no_measured_figure(path):
    allowed = ALLOWED.get(path.relative_to(ROOT).as_posix(), {})  # a new notebook starts with none
    stray = [(i, figure, context) for i, figure, context in markdown_figures(path) if figure not in allowed]
    assert not stray, ("figures in markdown that look measured: print them from the run, or list them in "
                       f"ALLOWED with why they are theory, a datasheet, a target or a setting: {stray}")


def test_the_scan_finds_a_measured_figure_and_skips_maths_code_and_run_times(tmp_path):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell("About 60 s on a 2-core CPU. A step took 87.5 ms here; "
                                              "the bound $t = 2×$ and `x = 4×` are not measured; 1.29x faster.")]
    path = tmp_path / "n.ipynb"
    nbformat.write(nb, path)
    assert [f for _, f, _ in markdown_figures(path)] == ["87.5 ms", "1.29x"]
