"""Rule 3 for lab 02's check 3: a configuration's speed-up counts only where its pipelined step computed one
worker's loss of the same batch, within lesson 02's tolerance (``outputs.same_losses``). The timing workers keep
each step's loss (``runs.timing_worker``), read after the rounds, so the comparison adds nothing to the timing.
"""

from __future__ import annotations

from utils.lessons.model_split.outputs import launch_losses, rows_losses, same_losses
from utils.lessons.model_split.runs import PipelineRun, Row


def _label(row: Row) -> str:
    return f"split {list(row.split_points)} with m={row.m}"


def loss_line(run: PipelineRun, row: Row) -> str:
    """``same_losses``'s line for one row of ``run``: its loss against one worker's (no loss kept: not compared)."""
    kept = launch_losses(run.raw)
    pair = {_label(row): kept[row.key]} if row.key in kept else {}
    one = kept.get(f"batch {row.batch} one device")
    if one is not None:
        pair["one device"] = one
    regime = run.raw[0].get("regime", "fp32") if run.raw else "fp32"
    return same_losses(pair, [_label(row)], regime)[0]


def not_counted(run: PipelineRun) -> set[str]:
    """The keys of ``run``'s rows whose speed-up does not count: a loss outside the tolerance, or none kept in a
    launch whose workers kept losses (the timing workers always do; a launch that kept none, a stand-in's,
    has nothing to compare, and ``outputs_line`` says its outputs were not compared)."""
    if not launch_losses(run.raw):
        return set()
    return {r.key for r in run.rows if "match one device's" not in loss_line(run, r)}


def outputs_line(run: PipelineRun) -> str:
    """One line where every row matches one worker's loss (printed before the table it vouches for), else the
    line of each row that does not (its speed-up does not count)."""
    return rows_losses(run.raw, run.rows, _label) if run.rows else ""


def wrong_loss_message(row: Row, outputs: str) -> str:
    """Check 3's failure where the learner's own configuration did not compute one worker's loss: its line of
    ``outputs`` (the |diff| and the tolerance, never the loss itself)."""
    text, mine = " ".join(outputs.split()), f"batch {row.batch} {_label(row)}:"  # unwrap: a line may wrap
    start = text.find(mine)
    end = text.find("does not count", start) + len("does not count")  # its line ends the sentence "...count"
    said = text[start:end] if start >= 0 else f"{mine} no loss kept beside one device's"
    return (f"{said} (rule 3). The pipelined step must compute the loss one worker computes on the same batch: "
            "does the last stage combine its micro-batches' losses as one worker's loss combines the batch's rows?")
