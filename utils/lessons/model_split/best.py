"""Which plain schedule is the sweep's best, read by the lesson's one noise rule (section 5, and the summary).

The best is the highest median (``PipelineRun.best``), but a runner-up whose median ± its spread covers the
best's (or whose median the best's ± covers) is not separated from it by the medians. Both ran in the same
launch and the same rounds, so they are also paired round by round: the best's speedup over the runner-up's in
each round, whose median ± spread clears 1 above (the best is ahead), below (behind) or not at all (not
separated). That paired answer is the one the lesson trusts, so it comes first; the medians' tie follows it.

    say(f"Best of this sweep: ...{best_tie(sweep)}")  # "" where no other row is within noise of the best
    claim = f"the sweep's best ({...}{best_tie_short(sweep)})"  # the summary's row: named, the paired word
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


TRUSTED = "the reading this lesson trusts (two medians may come from different rounds)"


def lead_word(median: float, spread: float) -> str:
    """What the paired ratio says, in a word: "ahead", "not separated" or "behind" (the best over the other)."""
    if within_noise(median, spread, 1.0):
        return "not separated"
    return "ahead" if median > 1 else "behind"


def _medians_cover(best: Row, other: Row, best_name: str) -> str:
    """Why the two medians, as printed, do not separate the rows, with the ± that decides it (``rivals``: either
    median ± its spread covers the other's): "1f1b m=8's 1.89x ± 0.09 covers its 1.80x ± 0.08", "its 1.80x ±
    0.08 covers 1f1b m=8's 1.85x ± 0.02", or "both print 1.88x"."""
    (bv, bd), (v, d) = printed(best), printed(other)
    if v == bv:
        return f"both print {bv:.2f}x"
    if within_noise(bv, bd, v):  # the best's ± reaches the other's median: print the ± that does it
        return f"{best_name}'s {bv:.2f}x ± {bd:.2f} covers its {v:.2f}x ± {d:.2f}"
    return f"its {v:.2f}x ± {d:.2f} covers {best_name}'s {bv:.2f}x ± {bd:.2f}"


def _paired_then_medians(word: str, best_name: str, cover: str) -> str:
    """The paired answer first (the one the lesson trusts), then what the medians alone say, one branch each."""
    if word == "ahead":
        return (f"above 1 beyond its spread: {best_name} ahead in the paired rounds, {TRUSTED}; by the medians "
                f"alone, within noise ({cover})")
    if word == "behind":
        return (f"below 1 beyond its spread: {best_name} behind in the paired rounds, {TRUSTED}; best by the "
                f"median only, within noise ({cover})")
    return f"within noise of 1: not separated round by round, nor by the medians ({cover})"


def best_tie(run: PipelineRun) -> str:
    """"; batch 128 gpipe m=8, round by round: 1f1b m=8 over it in rounds 1-5: 1.07, 1.03, 1.05, 1.02, 1.35,
    median 1.05 ± 0.02, above 1 beyond its spread: 1f1b m=8 ahead in the paired rounds, the reading this lesson
    trusts (...); by the medians alone, within noise (1f1b m=8's 1.89x ± 0.09 covers its 1.80x ± 0.08)": each
    row within noise of the best (``rivals``), the paired rounds' answer first, then the medians with the ± that
    ties them (the best's own, where it is the one that covers); "" where the best stands alone."""
    from utils.lessons.model_split.report import config_name  # here, not above: report re-exports this module

    best = run.best()
    name = config_name(best)
    said = []
    for r in rivals(run):
        ratios, median, lead = paired_lead(best, r)
        said.append(f"batch {r.batch} {config_name(r)}, round by round: {name} over it in rounds 1-{len(ratios)}: "
                    f"{', '.join(f'{x:.2f}' for x in ratios)}, median {median:.2f} ± {_spread_text(lead)}, "
                    + _paired_then_medians(lead_word(median, lead), name, _medians_cover(best, r, name)))
    return "".join(f"; {s}" for s in said)


_SHORT = {"ahead": "ahead round by round", "behind": "behind round by round",
          "not separated": "not separated round by round either"}


def best_tie_short(run: PipelineRun) -> str:
    """The summary's note of ``best_tie``: each row within noise of the best, named, with the paired answer
    (the best's word): "; beside batch 128 gpipe m=8: medians within noise, ahead round by round (1.05 ± 0.02),
    section 5"; "" where the best stands alone."""
    from utils.lessons.model_split.report import config_name  # here, not above: report re-exports this module

    best = run.best()
    said = []
    for r in rivals(run):
        _, median, lead = paired_lead(best, r)
        said.append(f"beside batch {r.batch} {config_name(r)}: medians within noise, "
                    f"{_SHORT[lead_word(median, lead)]} ({median:.2f} ± {lead:.2f}), section 5")
    return "".join(f"; {s}" for s in said)
