"""Does an effect a lesson teaches show on this machine, run after run? A maintainer's tool (issue 34): it
reruns one section's measurement with the lesson's own functions and settings and reports, per run, the figure
and whether the effect showed, then in how many runs it did.

    python -m utils.tools.robustness 02-gpipe --runs 5     # one effect
    python -m utils.tools.robustness lab02-choice --runs 5 # lab 02's: the solution's choice beats one worker
    python -m utils.tools.robustness all --runs 5          # every effect, one after the other
    python -m utils.tools.robustness --list

An effect *shows* when the paired rounds' speed-up clears its baseline by more than their spread
(``claims.paired_spread``): a median above 1x inside the noise is not an effect. Run it on an idle machine:
another program's load is not what a lesson teaches.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from dataclasses import dataclass
from typing import Callable

from utils import devices
from utils.claims import paired_spread

# Lesson 02's settings cell (notebooks/02_model_split.ipynb), repeated here: the tool measures what it measures.
WIDTH, DEPTH, HEADS, BATCHES, MICRO_BATCHES, ROUNDS, UNBALANCED = 128, 4, 4, (32, 128), (1, 2, 4, 8), 5, (2,)
GPU = (768, 8, 12, (128, 256))


@dataclass(frozen=True)
class Outcome:
    figure: str  # what was measured, in words and numbers
    showed: bool


@dataclass(frozen=True)
class Effect:
    claim: str
    measure: Callable[[], Outcome]


def _lesson02():
    from utils.lessons.model_split.plan import Sizes, lesson_settings, task_for

    s = lesson_settings(devices.plan(2), devices.hardware(), cpu=Sizes(WIDTH, DEPTH, HEADS, BATCHES),
                        gpu=Sizes(*GPU), micro_batches=MICRO_BATCHES)
    return s, task_for(s.sizes, 0)


def _beats(row, baseline: float = 1.0) -> Outcome:
    spread = paired_spread(row.speedups)
    return Outcome(f"{row.speedup:.2f}x ± {spread:.2f} (rounds {min(row.speedups):.2f}-{max(row.speedups):.2f})",
                   row.speedup - spread > baseline)


def naive_no_faster() -> Outcome:
    from utils.lessons.model_split import runs

    s, task = _lesson02()
    row = runs.measure_pipeline(task, list(s.split), [runs.Config(s.sizes.batches[0], 1, naive=True)],
                                rounds=ROUNDS, record=False).rows[0]
    spread = paired_spread(row.speedups)
    return Outcome(f"{row.speedup:.2f}x ± {spread:.2f}", row.speedup <= 1 + spread)


def _pipeline(schedule: str) -> Outcome:
    from utils.lessons.model_split import runs

    s, task = _lesson02()
    m = max(s.micro_batches)
    row = runs.measure_pipeline(task, list(s.split), [runs.Config(s.sizes.batches[-1], m, schedule)],
                                rounds=ROUNDS, record=False).rows[0]
    return _beats(row)


def balanced_beats_unbalanced() -> Outcome:
    from utils.lessons.model_split import runs

    s, task = _lesson02()
    b = s.sizes.batches[0]
    slow, fast = runs.measure_pipeline(task, list(s.split), [runs.Config(b, 4, split_points=UNBALANCED),
                                                              runs.Config(b, 4, split_points=tuple(s.split))],
                                       rounds=ROUNDS, record=False).rows
    gains = [f / u for f, u in zip(fast.speedups, slow.speedups)]  # paired: the same rounds
    gain, spread = statistics.median(gains), paired_spread(gains)
    return Outcome(f"balanced {list(s.split)} / unbalanced {list(UNBALANCED)}: {gain:.2f}x ± {spread:.2f}",
                   gain - spread > 1)


def two_stages_per_worker(name: str) -> Outcome:
    from utils.lessons.model_split import multi

    s, task = _lesson02()
    run = multi.measure_multi(task, s.layer_costs, s.sizes.batches[-1], 4, names=[name], rounds=ROUNDS)
    return _beats(run.rows[0])


def _lab02(against_layer_count: bool = False):
    """Lab 02's solution choice (the profile's best split and m under the lab's memory cap,
    ``reference.best_config``) on a profile measured now, pipelined on two workers (1F1B) as the lab's timed
    check runs it; with ``against_layer_count`` the split by layer count at the same m in the same launch.
    Returns (split, m, predicted, rows)."""
    from utils.labs.balance_the_pipeline import checks, reference, workload
    from utils.lessons.model_split import runs

    s = workload.current_settings()
    profile = workload.measure_profile(s)
    split, m, predicted = reference.best_config(profile, workload.memory_cap(profile))
    configs = [runs.Config(s.batch, m, checks.SCHEDULE, split)]
    if against_layer_count:
        configs.append(runs.Config(s.batch, m, checks.SCHEDULE, (len(profile.layers[1]) // 2,)))
    rows = runs.measure_pipeline(workload.lab_task(s), list(split), configs, rounds=ROUNDS, record=False).rows
    return split, m, predicted, rows


def lab02_choice() -> Outcome:
    """Lab 02: the solution's choice against one worker alone."""
    split, m, predicted, (row,) = _lab02()
    beats = _beats(row)
    return Outcome(f"split {list(split)}, m={m}, predicted {predicted:.2f}x: {beats.figure}", beats.showed)


def lab02_split() -> Outcome:
    """Lab 02: the solution's choice against the split by layer count at the same m, paired round by round."""
    split, m, _, (mine, half) = _lab02(against_layer_count=True)
    gains = [a / b for a, b in zip(mine.speedups, half.speedups)]
    gain, spread = statistics.median(gains), paired_spread(gains)
    return Outcome(f"m={m}: split {list(split)} / split {list(half.split_points)}: {gain:.2f}x ± {spread:.2f}",
                   gain - spread > 1)


EFFECTS = {
    "02-naive": Effect("a naive split is no faster than one device", naive_no_faster),
    "02-gpipe": Effect("GPipe (largest batch and m) beats one device", lambda: _pipeline("gpipe")),
    "02-1f1b": Effect("1F1B (largest batch and m) beats one device", lambda: _pipeline("1f1b")),
    "02-balance": Effect("the balanced split beats the unbalanced one", balanced_beats_unbalanced),
    "02-interleaved": Effect("interleaved 1F1B (two stages a worker) beats one device",
                             lambda: two_stages_per_worker("interleaved 1F1B")),
    "02-zbv": Effect("ZBV (two stages a worker) beats one device", lambda: two_stages_per_worker("ZBV")),
    "lab02-choice": Effect("lab 02: the solution's split and m under the cap, chosen from a profile measured "
                           "now, beat one worker", lab02_choice),
    "lab02-split": Effect("lab 02: the solution's split beats the split by layer count at the same m", lab02_split),
}


def report(name: str, runs: int) -> int:
    """Measure ``name`` ``runs`` times, print each run and the count; returns how many runs showed it."""
    effect = EFFECTS[name]
    shown = 0
    for k in range(1, runs + 1):
        outcome = effect.measure()
        shown += outcome.showed
        print(f"{name} run {k}: {outcome.figure}: {'shown' if outcome.showed else 'not shown'}", flush=True)
    print(f"{name}: {effect.claim}: shown in {shown} of {runs} runs")
    return shown


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m utils.tools.robustness", description=__doc__.split("\n")[0])
    parser.add_argument("effect", nargs="?", help=f"one of {', '.join(EFFECTS)}, or all")
    parser.add_argument("--runs", type=int, default=5, help="how many times to measure it (default 5)")
    parser.add_argument("--list", action="store_true", help="list the effects and what each claims")
    args = parser.parse_args(argv)
    if args.list or not args.effect:
        print("\n".join(f"{n}: {e.claim}" for n, e in EFFECTS.items()))
        return
    if args.effect != "all" and args.effect not in EFFECTS:
        parser.error(f"argument effect: no effect {args.effect!r}; choose from {', '.join(EFFECTS)} or all")
    if args.runs < 1:
        parser.error("argument --runs: must be a positive integer")
    for name in (EFFECTS if args.effect == "all" else [args.effect]):
        report(name, args.runs)


if __name__ == "__main__":
    main(sys.argv[1:])
