"""Notebook run times, from one source: ``results/run-times.json``.

``make execute`` (``nbtools execute``) records the seconds each notebook took, with the machine it ran on;
README's course map (``~N s``) and each notebook's "Modes and time" paragraph (``About N s on a 2-core
CPU``) state the same figure rounded by ``stated()``, and ``tests/test_run_times.py`` checks that they agree.
``make test`` writes its own nbval timings to ``results/run-times-test.json`` (not committed): a CI machine's
figures, for a maintainer to compare.
"""

from __future__ import annotations

import datetime
import json
import re
from pathlib import Path

from utils.course import stated  # noqa: F401 - how a run time is written, here for the tools

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "results" / "run-times.json"
HEADER = re.compile(r"About (\d+) s on a 2-core CPU")
README_ROW = re.compile(r"\[`((?:notebooks|labs)/[^`]+\.ipynb)`\][^\n]*?~(\d+) s")


def machine() -> dict:
    import torch

    from utils import devices

    return {"cpu": devices.cpu_model(), "cores": devices.cpu_cores(), "mode": devices.mode(),
            "torch": torch.__version__}


def load(path: Path = RESULTS) -> dict:
    return json.loads(path.read_text()) if path.is_file() else {"notebooks": {}}


def record(notebook: Path, seconds: float, path: Path = RESULTS, by: str = "make execute") -> None:
    """Add or replace one notebook's figure (others are kept: a maintainer may re-run a single notebook)."""
    data = load(path)
    key = Path(notebook).resolve().relative_to(ROOT).as_posix()
    data["notebooks"][key] = {"seconds": round(seconds, 1), "measured_by": by,
                              "date": datetime.date.today().isoformat(), "machine": machine()}
    data["notebooks"] = dict(sorted(data["notebooks"].items()))
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps(data, indent=1) + "\n")


def header_seconds(notebook: Path) -> int | None:
    """The ``About N s on a 2-core CPU`` of a notebook's markdown, or None when it states none."""
    nb = json.loads(Path(notebook).read_text())
    for cell in nb["cells"]:
        if cell["cell_type"] == "markdown":
            found = HEADER.search("".join(cell["source"]))
            if found:
                return int(found.group(1))
    return None


def readme_seconds(readme: Path = ROOT / "README.md") -> dict[str, int]:
    """README's course-map figures: notebook path -> the N of its ``~N s``."""
    return {path: int(n) for path, n in README_ROW.findall(readme.read_text())}


def write_stated(readme: Path = ROOT / "README.md") -> list[str]:
    """Put the measured figures into README's course map and each notebook's header (markdown only: no
    output changes, so no re-execution). Returns what changed, one line each."""
    measured, changed = load()["notebooks"], []
    text = readme.read_text()
    for key, entry in measured.items():
        figure = stated(entry["seconds"])
        row = re.compile(rf"(\[`{re.escape(key)}`\][^\n]*?~)(\d+)( s)")
        text, n = row.subn(lambda m: f"{m.group(1)}{figure}{m.group(3)}", text)
        if n:
            changed.append(f"README {key}: ~{figure} s")
        notebook = ROOT / key
        if notebook.is_file() and _rewrite_header(notebook, figure):
            changed.append(f"{key}: About {figure} s")
    readme.write_text(text)
    return changed


def _rewrite_header(notebook: Path, figure: int) -> bool:
    raw = notebook.read_text()
    new = HEADER.sub(f"About {figure} s on a 2-core CPU", raw)
    if new != raw:
        notebook.write_text(new)
    return new != raw


if __name__ == "__main__":  # python -m utils.tools.runtimes: write the measured figures where they are stated
    print("\n".join(write_stated()) or "README and headers already state the measured run times")
