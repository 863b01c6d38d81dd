"""The same loss beside lesson 02's speedups of sections 3, 5, 7 (``rows_losses``), 8 and 9: a speedup counts only
where the split computes what one device computes. The timed steps keep their losses (``runs.baseline_runner``,
and the schedules' last stage: the mean of its micro-batches' losses, the whole batch's loss), read after the
rounds, so that the check adds no step and no wait to the timing; each is set beside one device's loss of the
same batch, in the same launch.

    print("\n".join(same_losses(launch_losses(run.raw), ["ZBV"], run.raw[0]["regime"])))
"""

from __future__ import annotations

import textwrap

# the largest |loss - one device's loss| that still counts as the same step: in IEEE fp32 the micro-batches
# and the two workers sum in another order (~1e-6 on a loss near 5); TF32 matmuls keep 10 bits of mantissa
LOSS_TOL = {"fp32": 1e-4, "tf32": 1e-2}


def launch_losses(raw: list[dict]) -> dict[str, float]:
    """Every worker's kept losses in one dict: one device's (rank 0) and each configuration's, from the worker
    that holds its last stage."""
    return {k: v for w in raw for k, v in w.get("losses", {}).items()}


def same_losses(losses: dict[str, float], names, regime: str = "fp32") -> list[str]:
    """One line per configuration of ``names``: its loss against one device's, within ``LOSS_TOL`` of the
    timed workers' ``regime`` (compared as printed: the |diff| to two significant digits), or not, and then its
    speedup does not count."""
    tol, one = LOSS_TOL.get(regime, LOSS_TOL["tf32"]), losses.get("one device")
    lines = []
    for name in names:
        if one is None or name not in losses:
            lines.append(f"{name}: no loss kept beside one device's: the outputs were not compared")
            continue
        diff = f"{abs(losses[name] - one):.1e}"
        said = (f"{name}: outputs (the loss) match one device's within {tol:.0e} (|diff| = {diff})"
                if float(diff) <= tol else  # as printed: a |diff| printed 1.0e-04 is within 1e-04
                f"{name}: outputs (the loss) differ from one device's by {diff}, more than {tol:.0e}: this "
                "speed-up does not count")
        lines.append(textwrap.fill(said, 110))
    return lines


def rows_losses(raw: list[dict], rows, name) -> str:
    """The same-loss check for a launch of ``runs.measure_pipeline`` (sections 3, 5 and 7): each row's loss beside one
    device's loss of the same batch, in the same launch, by ``same_losses``'s tolerance. One line where every
    row matches (with the largest |diff| as printed; the notebook prints it before the speed-ups it vouches
    for, hence "below"); otherwise the line of each row that does not (its
    speed-up does not count). ``name(row)``: what the row ran ("gpipe m=4")."""
    kept = launch_losses(raw)
    regime = raw[0].get("regime", "fp32") if raw else "fp32"
    said, diffs = [], []
    for r in rows:
        label, one = f"batch {r.batch} {name(r)}", kept.get(f"batch {r.batch} one device")
        pair = {label: kept[r.key]} if r.key in kept else {}
        if one is not None:
            pair["one device"] = one
        line = same_losses(pair, [label], regime)[0]
        if "match one device's" in line:
            diffs.append(abs(pair[label] - one))
        else:
            said.append(line)
    if not said:
        tol = LOSS_TOL.get(regime, LOSS_TOL["tf32"])
        # printed before the table or headline it vouches for (sections 3, 5 and 7): "below"
        whose, each = (("all {} rows".format(len(rows)), "each speed-up below counts") if len(rows) > 1 else
                       ("the 1 row", "its speed-up below counts"))
        return textwrap.fill(f"Outputs (the loss) of {whose} match one device's loss of the same batch "
                             f"within {tol:.0e} (largest |diff| = {max(diffs):.1e}): {each}, since a speed-up counts "
                             "only where the split computes the loss one device computes.", 110)
    return "\n".join(said)
