"""Lesson 07, section 1's timed verdicts: the paired rounds (one device, then a split, in each round) read
as the course reads every speed-up, for the tensor-parallel pass and the article's split, and the rounds
behind them for the collapsed block. Split out of ``report`` (its 600-line cap); ``report`` imports every
name here, so ``report.timed_split`` and the rest still work."""

from __future__ import annotations

import dataclasses

from utils.claims import Claim, against_speedup, as_printed, half_up, printed_ratio, printed_spread
from utils.lessons.tensor_parallel.cost import printed_median


def paired_ratio(alone_rounds: list[float], split_rounds: list[float]) -> tuple[float, float]:
    """The median of paired rounds' ratios (seconds: one device, then split, in each round; > 1: the split was
    faster) and their spread, both from the rounds as printed (``cost.printed_median``, ``printed_spread``)."""
    ratios = [a / s for a, s in zip(alone_rounds, split_rounds)]
    return printed_median(ratios), printed_spread(ratios)


def timed_split(alone_rounds: list[float], split_rounds: list[float], bound: float) -> Claim:
    """Section 1's tensor-parallel verdict from the paired rounds: their median ratio ± their spread against
    the bound, judged as every speed-up of the course is, with every round's ratio (as lesson 09 reads the
    ledger's copy: ``timelines.record_speedup``). Lesson 07."""
    ratio, spread = paired_ratio(alone_rounds, split_rounds)
    rounds = [a / s for a, s in zip(alone_rounds, split_rounds)]
    return against_speedup("a tensor-parallel pass (x one device)", ratio, bound, spread,
                           slower="slower than one device", rounds=rounds)


def article_claim(claim: str, alone_rounds: list[float], split_rounds: list[float]) -> Claim:
    """Section 1's article split against one device, from the paired rounds, with its bound of 1x (its two
    halves run in turn): the course's verdict words, as every speed-up's, every round read (all on one side
    of 1x is no noise; ``article_rounds.rounds_words`` reads the single rounds past 1x). Lesson 07."""
    ratio, spread = paired_ratio(alone_rounds, split_rounds)
    rounds = [a / s for a, s in zip(alone_rounds, split_rounds)]
    row = against_speedup(claim, ratio, 1.0, spread, slower="slower than one device", rounds=rounds)
    note = " (every round above 1.00x)"   # its bound is its baseline: the note would be said twice
    return dataclasses.replace(row, verdict=row.verdict.replace(note + note, note))


def bound_says(verdict: str) -> str:
    """What the article split's bound of 1x adds to its verdict: for a slowdown, that none was possible."""
    return (f"{verdict}; its bound, 1x, says none was possible" if "no speed-up" in verdict else verdict)


def timed_split_details(alone_rounds: list[float], split_rounds: list[float],
                        split: str = "a tensor-parallel pass") -> str:
    """The paired rounds behind a verdict, round by round, and the fastest-of ratio named as what it is."""
    ratios = [as_printed(a / s, 2) for a, s in zip(alone_rounds, split_rounds)]   # each as printed
    faster, n = sum(r > 1 for r in ratios), len(ratios)   # a round printed 1.00x is not the split faster
    best = half_up(printed_ratio(min(alone_rounds), min(split_rounds), 1, 1e-3), 2)   # the ms printed
    return (f"{n} paired rounds, each a pass on one device then {split} (after a warm-up); one device's time over "
            "the split's, round by round: " + ", ".join(f"{r:.2f}x" for r in ratios) + f"; the split faster "
            f"in {faster} of {n}. The verdict reads their median ± half the middle half's range, from the rounds "
            "as printed (claims.printed_spread). The fastest pass of each, "
            f"{min(alone_rounds) * 1e3:.1f} ms on one device (this launch's own reference: each launch times "
            f"its own, so another cell's one-device figure can differ) and {min(split_rounds) * 1e3:.1f} ms "
            "split, give "
            f"{best:.2f}x: a fastest-of ratio, two best cases from different rounds, not a paired figure, so no "
            "verdict rests on it.")
