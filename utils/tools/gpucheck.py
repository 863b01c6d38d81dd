"""`make gpu-check`: on a machine with a GPU, run the GPU tests and every notebook in ``1gpu`` mode.

Writes a short Markdown report to ``$OUT/gpu-check.md`` when ``OUT`` is set (the course's device runner),
else to ``results/gpu-check.md``. Notebooks run on copies in a temporary folder, never in place.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run(cmd: list[str], env: dict, timeout: int) -> tuple[int, str, float]:
    start = time.perf_counter()
    try:
        out = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout)
        code, text = out.returncode, out.stdout + out.stderr
    except subprocess.TimeoutExpired as exc:
        code, text = 124, f"timed out after {timeout} s\n{exc.stdout or ''}"
    return code, text, time.perf_counter() - start


def execute_notebooks(env: dict, lines: list[str]) -> bool:
    ok = True
    notebooks = sorted(ROOT.glob("notebooks/*.ipynb")) + sorted(ROOT.glob("labs/*.ipynb"))
    with tempfile.TemporaryDirectory() as tmp:
        for nb in notebooks:
            dest = Path(tmp) / nb.parent.name / nb.name
            dest.parent.mkdir(exist_ok=True)
            shutil.copy(nb, dest)
            code, text, seconds = run([sys.executable, "-m", "utils.tools.nbtools", "execute", str(dest)], env, 900)
            verdict = "ok" if code == 0 else f"FAILED (exit {code})"
            lines.append(f"| {nb.relative_to(ROOT)} | {seconds:.1f} s | {verdict} |")
            if code != 0:
                ok = False
                lines.append(f"\n```\n{text[-3000:]}\n```\n")
    return ok


def main() -> int:
    from utils import devices

    out_dir = Path(os.environ.get("OUT") or ROOT / "results")
    out_dir.mkdir(parents=True, exist_ok=True)
    if devices.gpu_count() == 0:
        print("gpu-check needs a CUDA GPU and found none: " + (devices.hardware().no_gpu_reason or ""))
        return 2
    env = dict(os.environ, TWOGPU_MODE="1gpu")
    hw = devices.hardware()
    lines = ["# GPU check (mode 1gpu)", "", "```", devices.summary_line(hw, "1gpu", devices.plan(2, mode_name="1gpu")),
             "```", "", "| what | value |", "| --- | --- |"]
    lines += [f"| {k} | {v} |" for k, v in devices.detail_rows(hw)]
    code, text, seconds = run([sys.executable, "-m", "pytest", "-m", "gpu", "-q",
                               "tests"], env, 600)
    summary = text.strip().splitlines()[-1] if text.strip() else "(no output)"
    lines += ["", f"## GPU tests ({seconds:.0f} s): {summary}", ""]
    if code != 0:
        lines += ["```", text[-4000:], "```"]
    lines += ["", "## Notebooks in 1gpu mode", "", "| notebook | time | result |", "| --- | --- | --- |"]
    notebooks_ok = execute_notebooks(env, lines)
    bcode, btext, _ = run([sys.executable, "-m", "utils.benchmarks", "--all", "--json"], env, 600)
    lines += ["", "## Benchmarks (1gpu)", "", "```", btext.strip()[-4000:], "```"]
    report = out_dir / "gpu-check.md"
    report.write_text("\n".join(lines) + "\n")
    print(report.read_text())
    return 0 if code == 0 and notebooks_ok and bcode == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
