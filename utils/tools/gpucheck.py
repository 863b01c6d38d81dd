"""``make gpu-check``: the most evidence about the course's GPU paths from one short run on a lent GPU machine.

    make gpu-check                                  # in a set-up tree
    PYTHONPATH=. python3 -m utils.tools.gpucheck    # no set-up: a python3 with a CUDA torch is enough

A GPU machine may be lent for minutes, with no network. So: one total time limit (``--seconds``, default
450), phases that each run in their own process group under their own timeout (killed afterwards, so no
kernel or worker is left on the GPU), and a report, ``$OUT/gpu-check.md`` (or ``results/``), appended to as
each phase ends: a run killed from outside still leaves what it found. Executed notebooks are kept beside it.

Where the Jupyter stack is missing (a CUDA image with torch only), the wheels that ``make gpu-wheels`` put in
``.whl/`` are installed with ``--target`` into a temporary folder first. On a machine with no CUDA GPU the
check says so in one line, writes it to the report, and exits 0.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from utils import devices

ROOT = Path(__file__).resolve().parents[2]
WHEELS = ROOT / ".whl"
# In order of what a short lease should see first; the last ones run only if time is left.
NOTEBOOKS = ["notebooks/00_start_here.ipynb", "notebooks/03_ddp.ipynb", "notebooks/05_data_prefetch.ipynb",
             "labs/05_feed_the_gpu.ipynb", "notebooks/06_memory.ipynb", "notebooks/07_tensor_parallel.ipynb"]
NEEDED_MODULES = ("nbclient", "nbformat", "ipykernel", "nvitop", "ipywidgets")


@dataclass
class Phase:
    name: str
    command: list[str]
    seconds: int


def phases(python: str, out_dir: Path) -> list[Phase]:
    """What the check runs, in order: cheap facts first, so that a short lease still gets them."""
    probe = [python, "-m", "utils.tools.gpu_probes"]
    # The measurement probes of issue 36 (profiler ... link) follow the timing check: each says SANE or NOT
    # SANE of a figure a lesson prints, and is what "verified on this GPU" means in README.
    found = [Phase(name, probe + [name], seconds) for name, seconds in (
        ("environment", 30), ("nvml", 30), ("fork_safety", 90), ("timing", 30), ("profiler", 90),
        ("regime", 60), ("capstone_peaks", 60), ("overlap", 120), ("link", 90), ("regime_losses", 150), ("copies", 60),
        ("distributed", 120), ("replayed_topologies", 20))]
    found.append(Phase("gpu tests", [python, "-m", "pytest", "-q", "-m", "gpu", "-p", "no:cacheprovider",
                                     "tests"], 150))  # every test marked gpu
    for notebook in NOTEBOOKS:
        copy = out_dir / ("nb-" + Path(notebook).name)
        found.append(Phase(f"notebook {notebook}", [python, "-m", "utils.tools.nbtools", "execute-copy",
                                                     notebook, str(copy)], 150))
    return found


def run_phase(phase: Phase, env: dict, limit: float) -> tuple[str, str, float]:
    """Run one phase in its own process group; kill the whole group when it ends or runs out of time."""
    start = time.monotonic()
    proc = subprocess.Popen(phase.command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, start_new_session=True)
    try:
        output, _ = proc.communicate(timeout=limit)
        verdict = "ok" if proc.returncode == 0 else f"FAILED (exit {proc.returncode})"
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        output, _ = proc.communicate()
        verdict = f"TIMED OUT after {limit:.0f} s"
    finally:
        try:  # whatever the phase left behind (a kernel, a worker) goes with it
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    return verdict, output or "", time.monotonic() - start


def ensure_packages(env: dict) -> str:
    """Make the Jupyter stack importable: installed already, or from the carried wheels (``make gpu-wheels``)."""
    missing = [m for m in NEEDED_MODULES if importlib.util.find_spec(m) is None]
    if not missing:
        return "packages: all present"
    wheels = sorted(WHEELS.glob("*.whl"))
    if not wheels:
        return f"packages: {', '.join(missing)} missing and no wheels in .whl/ (run `make gpu-wheels`)"
    target = Path(tempfile.mkdtemp(prefix="twogpu-site-"))
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-index", "--no-deps", "--no-compile",
                    "--target", str(target)] + [str(w) for w in wheels], check=True, timeout=120)
    env["PYTHONPATH"] = os.pathsep.join([str(target), str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env["TWOGPU_KERNEL"] = "python3"  # ipykernel's own kernel in this interpreter: no kernelspec installed here
    return f"packages: installed {len(wheels)} wheels into {target} for {', '.join(missing)}"


def append(report: Path, text: str) -> None:
    with report.open("a") as f:
        f.write(text.rstrip() + "\n\n")
    print(text.rstrip(), flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m utils.tools.gpucheck", description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=450, help="total time limit (default 450)")
    args = parser.parse_args(argv)
    deadline = time.monotonic() + args.seconds
    out_dir = Path(os.environ.get("OUT") or ROOT / "results")
    out_dir.mkdir(parents=True, exist_ok=True)
    report = out_dir / "gpu-check.md"
    report.write_text("# GPU check\n\n")
    if devices.gpu_count() == 0:
        append(report, "No CUDA GPU found here: " + (devices.hardware().no_gpu_reason or "none")
               + ". Nothing to check; run this on a machine with an NVIDIA GPU.")
        return 0
    env = dict(os.environ, TWOGPU_MODE="1gpu", PYTHONUNBUFFERED="1",
               PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    append(report, ensure_packages(env))
    failed = 0
    for phase in phases(sys.executable, out_dir):
        left = deadline - time.monotonic()
        if left < 5:
            append(report, f"## {phase.name}: not run (the {args.seconds:.0f} s limit was reached)")
            failed += 1
            continue
        verdict, output, seconds = run_phase(phase, env, min(phase.seconds, left))
        failed += verdict != "ok"
        append(report, f"## {phase.name}: {verdict} ({seconds:.1f} s)\n\n```\n{output.strip()[-6000:]}\n```")
    append(report, f"**{failed} phase(s) failed or did not run.**" if failed else "**Every phase passed.**")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
