"""The layout of ``utils`` (see README, "Where the code lives"): imports flow one way, files and functions
stay small enough to read, and each folder serves the notebook it is named after.

Layers, from the bottom: infrastructure (``utils/*.py``: devices, launch, bench, ...), lessons
(``utils/lessons/<slug>/``), labs (``utils/labs/<slug>/``), benchmarks (``utils/benchmarks/``), tools
(``utils/tools/``). Infrastructure imports only infrastructure; a lesson never imports a lab, a benchmark
or a tool; a lab never imports a benchmark or a tool; nothing in utils imports a tool.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
UTILS = ROOT / "utils"
MAX_FILE_LINES = 600
MAX_FUNCTION_LINES = 80

# What each layer may import, besides itself.
ALLOWED = {
    "infrastructure": {"infrastructure"},
    "lessons": {"infrastructure", "lessons"},
    "labs": {"infrastructure", "lessons", "labs"},
    "benchmarks": {"infrastructure", "lessons", "benchmarks"},
    "tools": {"infrastructure", "lessons", "labs", "benchmarks", "tools"},  # tools sit on top of everything
}


def layer_of(module: str) -> str:
    """``utils.devices`` -> infrastructure, ``utils.lessons.ddp.recipe`` -> lessons, ..."""
    parts = module.split(".")
    if len(parts) > 1 and parts[1] in ("lessons", "labs", "benchmarks", "tools"):
        return parts[1]
    return "infrastructure"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def utils_files() -> list[Path]:
    return sorted(p for p in UTILS.rglob("*.py") if "__pycache__" not in p.parts)


def is_module(name: str) -> bool:
    """Whether ``utils.x.y`` names a module or package file under ``utils/``."""
    path = ROOT / Path(*name.split("."))
    return path.with_suffix(".py").exists() or (path / "__init__.py").exists()


def imported_utils_modules(path: Path) -> set[str]:
    """Every ``utils...`` module the file imports, at any depth (inside functions too).

    ``from utils import devices`` imports ``utils.devices``; ``from utils.launch import launch`` imports
    ``utils.launch``; a relative import is resolved against the file's own package.
    """
    package = module_name(path) if path.name == "__init__.py" else module_name(path).rsplit(".", 1)[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.split(".")[0] == "utils"}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            if base.split(".")[0] == "utils":
                found |= {f"{base}.{a.name}" if is_module(f"{base}.{a.name}") else base for a in node.names}
    return found


def test_layer_of_names_the_four_homes():
    assert layer_of("utils.devices") == "infrastructure"
    assert layer_of("utils.lessons.model_split.schedules") == "lessons"
    assert layer_of("utils.labs.fix_the_article.checks") == "labs"
    assert layer_of("utils.benchmarks.copy") == "benchmarks"
    assert layer_of("utils.tools.nbtools") == "tools"


def test_the_import_reader_sees_every_form_of_import():
    found = imported_utils_modules(UTILS / "lessons" / "start_here" / "bandwidth.py")
    assert {"utils.bench", "utils.devices", "utils.plots"} <= found  # `from utils import x`, `from utils.x import f`
    assert imported_utils_modules(UTILS / "benchmarks" / "copy.py") >= {"utils.lessons.start_here.bandwidth"}


@pytest.mark.parametrize("path", utils_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_imports_flow_one_way(path):
    mine = layer_of(module_name(path))
    wrong = sorted(m for m in imported_utils_modules(path) if layer_of(m) not in ALLOWED[mine])
    assert not wrong, f"{path.relative_to(ROOT)} ({mine}) imports {wrong}: see the layers in tests/test_layout.py"


@pytest.mark.parametrize("path", utils_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_files_and_functions_are_small_enough_to_read(path):
    lines = path.read_text().splitlines()
    assert len(lines) <= MAX_FILE_LINES, f"{path.relative_to(ROOT)} has {len(lines)} lines (at most {MAX_FILE_LINES})"
    long = [(node.name, node.end_lineno - node.lineno + 1) for node in ast.walk(ast.parse("\n".join(lines)))
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            and node.end_lineno - node.lineno + 1 > MAX_FUNCTION_LINES]
    assert not long, f"{path.relative_to(ROOT)}: functions over {MAX_FUNCTION_LINES} lines: {long}"


def test_each_lesson_and_lab_folder_serves_a_notebook():
    """``utils/lessons/<slug>`` serves ``notebooks/NN_<slug>.ipynb``; ``utils/labs/<slug>`` serves a lab."""
    for kind, folder in (("lessons", "notebooks"), ("labs", "labs")):
        slugs = {p.stem.split("_", 1)[1] for p in (ROOT / folder).glob("[0-9][0-9]_*.ipynb")}
        homes = {p.name for p in (UTILS / kind).iterdir() if p.is_dir() and p.name != "__pycache__"}
        assert homes <= slugs, f"utils/{kind}/ has folders no notebook is named after: {sorted(homes - slugs)}"


def test_the_top_level_holds_only_shared_infrastructure():
    """No lesson's code, lab check or benchmark sits at the top of ``utils`` (the issue that set the layout)."""
    top = {p.stem for p in UTILS.glob("*.py")} - {"__init__"}
    misplaced = top & {"pipeline", "ddp", "compress", "prefetch", "bandwidth", "fix_the_article", "ddp_lab",
                       "launch_bench", "monitor_bench", "nbtools", "gpucheck"}
    assert not misplaced, f"move {sorted(misplaced)} into utils/lessons, utils/labs, utils/benchmarks or utils/tools"
