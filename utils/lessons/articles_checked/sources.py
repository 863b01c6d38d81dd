"""What kind of evidence a row rests on, and where each figure ran.

Introduced in lesson 09. Every piece of evidence is a ``Part``: its text, its kind (one of ``KINDS``) and a
detail that says where it ran or where it comes from:

    Part("1.75x against a bound of 2x", LEDGER, "lesson 03, 2026-12-04; simulated on CPU, this machine")
    Part("2 / 1.75 = 1.14x the GPU-hours", ARITHMETIC)
    Part("NVLink 3: 300 GB/s", DATASHEET, "NVIDIA A100")

A verdict that rests on a kind in ``CHECKABLE`` can be contradicted by this run, so its row has a check
(``verdicts.CHECKS``); one that rests only on datasheets, published figures or arithmetic says so instead.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from utils import bench, devices, ledger

ROOT = Path(__file__).resolve().parents[3]

MEASURED = "measured in this run"
LEDGER = "from the ledger"  # a lesson's figure, recorded with its machine and date
BENCH = "from make bench"  # results/bench-<mode>.json: a benchmark's figure, with its machine
ROWS = "from the rows"  # a summary claim, judged by the rows it sums up
ERRORS = "error messages"  # a code block run in this run: what Python raised
LINTED = "a linter's reading"  # a code block read in this run: names it uses and never defines (nothing raised)
READ = "read from this machine"  # what the driver (NVML) reports: a fact, not a measurement
DATASHEET = "datasheet"
PUBLISHED = "published"  # a paper's or a vendor's documented figure
ARITHMETIC = "arithmetic"  # shown in the text
NONE = "nothing measured here"  # a claim this run cannot test: the text says what would
KINDS = (MEASURED, LEDGER, BENCH, ROWS, ERRORS, LINTED, READ, DATASHEET, PUBLISHED, ARITHMETIC, NONE)
CHECKABLE = {MEASURED, LEDGER, BENCH, ROWS, ERRORS, LINTED}
THIS_CPU = "this CPU"  # lesson 09's own timings run in the notebook's process, on the CPU, in every mode


@dataclass(frozen=True)
class Part:
    text: str  # the figure and what it shows, with its arithmetic where there is any
    kind: str  # one of KINDS
    detail: str = ""  # where it ran, or its source
    # a summary row's part that says its check is another row's: those rows ("B10", "B5, B6"), set where the
    # part is built (``verdicts.summed_rows_named``), so the short cell finds it by field, not by its wording
    follows: str | None = None

    def render(self) -> str:
        return f"{self.text} [{self.kind}{': ' + self.detail if self.detail else ''}]"


def two_devices(plan: devices.Plan, hw: devices.Hardware) -> str:
    """Where a two-worker figure of this run ran: "simulated on CPU", "2 ranks sharing one H200",
    "on 2 x H200"."""
    if plan.simulated:
        return "simulated on CPU"
    names = " / ".join(sorted({g.name for g in hw.gpus[:plan.world_size]})) or "GPU"
    if len(set(plan.devices)) < plan.world_size:
        return f"2 ranks sharing one {names}"
    return f"on {plan.world_size} x {names}"


def recorded_where(hardware: str, gpu_figure: bool) -> str:
    """Where a recorded figure ran, from the hardware its file names: "simulated on CPU, this machine" for a
    figure of what GPUs do (two devices, a device fed by loaders) recorded with no GPU; "this CPU" for a CPU's
    own timing here; "on 2 x GPU (H200, H200), this machine" on GPUs."""
    machine = machine_of(hardware)
    gpus = re.match(r"(\d+ x GPU \([^)]*\))", hardware)
    if gpus:
        return f"on {gpus.group(1)}, {machine}"
    if gpu_figure:
        return f"simulated on CPU, {machine}"
    return machine.replace("this machine", "this CPU", 1) if machine.startswith("this") else f"a CPU: {machine}"


def machine_of(hardware: str) -> str:
    """"this machine"; "this machine, run as AVX2" where a run capped the CPU's ISA to emulate a smaller one;
    else "another machine: CPU AMD EPYC, 2 cores, no GPU" (rerun to measure this one)."""
    here = bench.hardware_label()
    if hardware == here:
        return "this machine"
    if short(hardware) == short(here):
        return f"this machine, run as {isa(hardware).split(';')[0]}"
    return f"another machine: {short(hardware)}"


def isa(hardware: str) -> str:
    """The ISA bracket of a hardware label: "AVX512; AVX512-VNNI (int8), ..." ("" where it has none)."""
    found = _isa_brackets(hardware)
    return found[0].strip()[1:-1] if found else ""


def _isa_brackets(hardware: str) -> list[str]:
    brackets = re.finditer(r" \([^()]*(?:\([^()]*\)[^()]*)*\)", hardware)
    return [m.group() for m in brackets if re.search(r"AVX|AMX|NEON|SSE|;", m.group())]


def short(hardware: str) -> str:
    """"CPU AMD EPYC (AVX512; ...), 2 cores, no GPU" -> "CPU AMD EPYC, 2 cores, no GPU": the ISA in brackets
    is in the results file for whoever needs it."""
    found = _isa_brackets(hardware)
    return hardware.replace(found[0], "") if found else hardware


@dataclass(frozen=True)
class Recorded:
    """A figure read from a results file: the record, and the kind and detail of a Part quoting it."""

    record: dict
    kind: str
    detail: str

    def part(self, text: str) -> Part:
        return Part(text, self.kind, self.detail)


def from_ledger(name: str, gpu_figure: bool) -> Recorded | None:
    """This mode's ledger record ``name`` (the lessons write it), or None where no lesson has yet."""
    r = ledger.figure(name)
    if not r:
        return None
    return Recorded(r, LEDGER, f"lesson {r['lesson']}, {r['date']}; {recorded_where(r['hardware'], gpu_figure)}")


def from_bench(name: str, gpu_figure: bool) -> Recorded | None:
    """Benchmark ``name`` of ``results/bench-<mode>.json`` (``make bench`` writes it), or None."""
    file = ROOT / "results" / f"bench-{devices.mode()}.json"
    rows = json.loads(file.read_text()) if file.is_file() else []
    for row in rows:
        if row["name"] == name:
            return Recorded({"value": row["measured"], **row}, BENCH,
                            f"{name}; {recorded_where(row['hardware'], gpu_figure)}")
    return None


def results_figure(ledger_name: str, bench_name: str, gpu_figure: bool) -> Recorded | None:
    """The lesson's own record first (the ledger), else ``make bench``'s; None where neither has it."""
    return from_ledger(ledger_name, gpu_figure) or from_bench(bench_name, gpu_figure)
