"""Which plain schedule is the sweep's best, read by the lesson's one noise rule (section 5, and the summary).

The best is the highest median (``PipelineRun.best``), but a runner-up whose median ± its spread covers the
best's (or whose median the best's ± covers) is not separated from it by the medians. Both ran in the same
launch and the same rounds, so they are also paired round by round: the best's speedup over the runner-up's in
each round, whose median ± spread either clears 1 (the best is ahead) or does not (not separated).

    say(f"Best of this sweep{best_tie(sweep)}: ...")   # "" where no other row is within noise of the best
"""

from __future__ import annotations

import statistics

from utils.claims import as_printed, half_up, printed_spread, runs_agree, within_noise
from utils.lessons.model_split.noise import paired_ratios, printed
from utils.lessons.model_split.runs import PipelineRun, Row


def rivals(run: PipelineRun) -> list[Row]:
    """The other pipelined rows (m >= 2, not the naive split) within noise of the best, as printed: either
    median ± its spread covers the other's (the rule ``same_config_note`` and every verdict use)."""
    best = run.best()
    value, spread = printed(best)
    return [r for r in run.rows if r is not best and not r.naive and r.m >= 2
            and runs_agree(*printed(r), value, spread)]


def paired_lead(best: Row, other: Row) -> tuple[list[float], float, float]:
    """The best's speedup over ``other``'s in each round (both divided as the rounds print them; the same
    one-device round cancels), each rounded half up to the two decimals ``best_tie`` prints, then their median
    and ± worked from those printed ratios (``claims.printed_spread``, as the rest of the course works a ±):
    1.09, 1.02, 1.05, 0.99, 1.04 give (1.05 - 1.02) / 2 = 0.015, printed 0.02, as a reader works it."""
    ratios = [as_printed(x, 2) for x in paired_ratios(best, other.speedups)]  # ``other`` as each round's reference
    return ratios, half_up(statistics.median(ratios), 2), printed_spread(ratios)


def _spread_text(spread: float) -> str:
    """A ± as printed, two decimals; where it prints 0.00, what that means, so that it is not read as "no
    spread": "0.00 (under 0.005, from the middle rounds only)" (the ratios listed beside it show every round;
    worked from them as printed, 0.00 means their middle rounds print alike)."""
    return f"{spread:.2f}" if spread else "0.00 (under 0.005, from the middle rounds only)"


def _lead_words(median: float, spread: float) -> str:
    """What the paired ratio says: ahead, not separated, or behind (then the best leads by its median only)."""
    if within_noise(median, spread, 1.0):
        return "within noise of 1: not separated round by round either"
    return "above 1 beyond its spread: ahead in the paired rounds" if median > 1 else (
        "below 1 beyond its spread: behind in the paired rounds, ahead by the median only")


def best_tie(run: PipelineRun) -> str:
    """"; batch 128 gpipe m=8 (1.70x ± 0.07) is within noise of 1f1b m=8's 1.77x; paired round by round,
    1f1b m=8 over it in rounds 1-5: 1.05, 1.04, 1.07, 1.05, 0.99, median 1.05 ± 0.01, above 1 beyond its spread:
    ahead in the paired rounds": each row within noise of the best (``rivals``), with the paired rounds' answer;
    "" where the best stands alone."""
    from utils.lessons.model_split.report import config_name  # here, not above: report re-exports this module

    best = run.best()
    said = []
    for r in rivals(run):
        value, spread = printed(r)
        ratios, median, lead = paired_lead(best, r)
        mine = f"{config_name(best)}'s {printed(best)[0]:.2f}x"  # named: the clause may come before the best's name
        tie = f"ties {mine} as printed" if value == printed(best)[0] else f"is within noise of {mine}"
        said.append(f"batch {r.batch} {config_name(r)} ({value:.2f}x ± {spread:.2f}) {tie}; paired round by round, "
                    f"{config_name(best)} over it in rounds 1-{len(ratios)}: {', '.join(f'{x:.2f}' for x in ratios)}, "
                    f"median {median:.2f} ± {_spread_text(lead)}, {_lead_words(median, lead)}")
    return "".join(f"; {s}" for s in said)
