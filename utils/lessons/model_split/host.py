"""What lesson 02 (``notebooks/02_model_split.ipynb``) says of the host its CPU workers share, and what it
keeps of it in the ledger for lesson 09:

    load_note(load, cores)                  # the host's load average, and what may make up more than 2 of it
    ledger_fields(row, load, cores)         # cpu_busy, load and cores beside a pipeline's ledger record

A worker's *CPU/busy* (``Row.cpu_share``) below the lesson's line says a stage waited for a core inside its
passes. Two things can hold that core, and this run does not measure which: the worker's own communication
(gloo) threads, pinned to the same core as its compute (``runs.pin_cpu_worker``), and other programs.
"""

from __future__ import annotations

# Who may hold a worker's core while its stage waits: every sentence that reads a low CPU/busy says it so.
WHO_WAITED = ("the worker's own communication (gloo) threads, pinned to the same core, or other programs: "
              "this run does not tell which")


def load_note(load: float, cores: int) -> str:
    """The host's load average (``os.getloadavg()[0]``, runnable threads averaged over the last minute) on its
    ``cores``, read without claiming more than it shows: the two workers' compute threads account for up to 2
    of it; more is other runnable threads, the workers' own gloo threads among them."""
    return (f"host load average {load:.1f} on {cores} cores: the two workers' compute threads account for up to "
            "2 of it; more counts other runnable threads, the workers' own communication (gloo) threads or other "
            "programs' (this run does not tell which)")


def ledger_fields(row, load: float | None, cores: int | None) -> dict:
    """The fields a pipeline's ledger record carries beside its speedup, so that lesson 09 can say a figure was
    measured while a stage waited for a core (``articles_checked.figures.contended``): ``cpu_busy``, each
    worker's CPU/busy as a fraction (as the rows table prints it, from whole ms), ``load`` (the host's load
    average) and ``cores``. Only where the workers are CPU processes (``row.cpu_share`` is empty on GPUs,
    where a host thread's time says nothing of the device's) and the load was measured; else nothing."""
    if load is None or cores is None or not row.cpu_share:
        return {}
    return {"cpu_busy": [float(f) for f in row.cpu_share], "load": float(load), "cores": int(cores)}
