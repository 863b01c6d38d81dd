"""The ledger: each lesson's headline figures, kept with their bound, unit, hardware and date.

Introduced in lesson 00, which writes its first records; lesson 09 (the articles, checked) and README read
it. One file per mode, ``results/ledger-<mode>.json``, one record per figure name (a re-run replaces it):

    ledger.record("copy_dram_GBps", 7.8, "GB/s", bound=8.5, lesson="00", what="a 256 MiB host memcpy")
    ledger.record("pipeline_speedup", 1.6, "x", bound=1.78, reference=1.9, lesson="02", what="1f1b m=8")
    ledger.figure("copy_dram_GBps")      # the record, or None: "run lesson 00 first"

The names lesson 09 reads (a lesson that measures one records it under this name): ``mfu``, and §5's pairs
``fused_attention_speedup`` and ``fused_gelu_speedup`` (01, with each pair's printed times and sizes),
``naive_split_speedup``, ``pipeline_speedup`` and the two-stages-per-device schedules'
``pipeline_interleaved_1f1b_speedup``, ``pipeline_zb_speedup``, ``pipeline_zbv_speedup`` (02), ``ddp_speedup`` (03),
``quantize_speedup`` (04), ``prefetch_epoch`` (05), ``tensor_parallel_speedup`` and ``article_split_speedup``
(07). Where a name is missing, lesson 09 reads ``make bench``'s file, or says which lesson to run first.

A ``bound`` is a ceiling from theory; a ``reference`` (optional) is a figure the lesson measured that a result is
also read against (lesson 02's per-process and work-scaled references: lesson 00's glossary).

Tests never change a committed file: ``TWOGPU_LEDGER_DIR`` (set by the test session's conftest) sends the
records elsewhere.
"""

from __future__ import annotations

import datetime
import json
import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ENV = "TWOGPU_LEDGER_DIR"


def path(mode: str | None = None) -> Path:
    from utils import devices

    folder = Path(os.environ.get(ENV) or ROOT / "results")
    return folder / f"ledger-{mode or devices.mode()}.json"


def read(mode: str | None = None) -> dict[str, dict]:
    """Every record of the mode's ledger, by name ({} when no lesson has written one yet)."""
    file = path(mode)
    return json.loads(file.read_text())["figures"] if file.is_file() else {}


def figure(name: str, mode: str | None = None) -> dict | None:
    return read(mode).get(name)


def record(name: str, value: float, unit: str, bound: float | None = None, lesson: str = "", what: str = "",
           mode: str | None = None, reference: float | None = None, rounds: list[float] | None = None,
           reference_rounds: list[float] | None = None, **extra) -> None:
    """Add or replace one figure (others are kept: a learner may run a single lesson). Returns nothing, so
    that a notebook cell ending with it prints nothing. ``rounds``: a speed-up's paired rounds' ratios, kept so
    that a reader (lesson 09) judges the figure with the same spread as the lesson that measured it;
    ``reference_rounds``: a reference measured in the same rounds, one per round, so that the reader pairs
    them round by round as the lesson does (never the two medians). ``extra``: any further field a reader needs,
    kept as given (JSON values), e.g. lesson 02's ``launches`` and ``launch_spreads``: one step's figure in each
    launch that measured it, so that a reader sees every launch, not one."""
    from utils import bench, devices

    mode = mode or devices.mode()
    entry = {"value": float(value), "unit": unit, "bound": None if bound is None else float(bound),
             "reference": None if reference is None else float(reference), "lesson": lesson, "what": what,
             "hardware": bench.hardware_label(), "date": datetime.date.today().isoformat()}
    if rounds:
        entry["rounds"] = [float(x) for x in rounds]
    if reference_rounds:
        entry["reference_rounds"] = [float(x) for x in reference_rounds]
    clash = set(extra) & set(entry)
    if clash:  # a field of its own name is set above, with its type: never overwritten by an extra one
        raise ValueError(f"ledger.record: {sorted(clash)} are fields of their own, not extra fields")
    entry.update(extra)
    figures = read(mode)
    figures[name] = entry
    file = path(mode)
    file.parent.mkdir(parents=True, exist_ok=True)
    tmp = file.with_suffix(".tmp")
    tmp.write_text(json.dumps({"mode": mode, "figures": dict(sorted(figures.items()))}, indent=1) + "\n")
    tmp.replace(file)  # atomic: a reader never sees half a file
