"""Lab 05's epoch against its bound, max(L/2, C): which compute time C the bound takes (measured alone, or the
epoch's own steps on a busy machine), and the words that set an epoch beside it, every figure as printed so
that a reader's own sum or division gives the page's. Split from ``checks``, which reads these names."""

from __future__ import annotations

from utils import claims
from utils.lessons.data_prefetch.epoch import EpochResult, bound, bound_formula

STEPS_NOISE = 0.02  # the course's least timing noise: steps this close to C measured alone show no busy machine


def own_steps(epoch: EpochResult) -> float:
    """The seconds the epoch's own steps took: the epoch less its waits for data, both as printed (two
    decimals), so that the printed steps and waits add up to the printed epoch (1.39 s = 1.30 + 0.09)."""
    return claims.half_up(claims.as_printed(epoch.seconds, 2) - claims.as_printed(epoch.wait_seconds, 2), 2)


def steps_longer(epoch: EpochResult, compute: float) -> bool:
    """Whether the epoch's own steps (``own_steps``) took longer than C measured alone, both as printed (two
    decimals): 1.30 s of steps beside a C that prints 1.30 s did not, whatever the unrounded C."""
    return own_steps(epoch) > claims.as_printed(compute, 2)


def epoch_bound(epoch: EpochResult, load: float, compute: float, loaders: int) -> float:
    """max(load / loaders, C) for one of the learner's epochs, its C the larger of ``compute`` (measured alone)
    and what the epoch's own steps took (``own_steps``), judged as printed (``steps_longer``): on a busy machine
    the steps slow down too, and only the waits for data are the loading's to answer for (lab 05)."""
    return bound(load, own_steps(epoch) if steps_longer(epoch, compute) else compute, loaders)


def steps_set_bound(epoch: EpochResult, limit: float, load: float, compute: float, loaders: int) -> bool:
    """Whether the bound ``limit`` took the epoch's own steps for C (``epoch_bound``): they took longer than C
    measured alone, as printed, and L/2 did not win."""
    return steps_longer(epoch, compute) and limit > bound(load, compute, loaders)


def bound_source(steps: float | None) -> str:
    """Where the take-aways' bound comes from, beside the L and C the check measured again: max(L/2, C) of
    those, or, where the epoch's own steps set it (``steps_set_bound``; ``steps`` their seconds, else None),
    those steps (fortieth reading: a bound of 1.30 s beside C = 1.29 s, its source said only in the check)."""
    if steps is None:
        return "the bound is max(L/2, C) of these two"
    return f"the bound took for C the {steps:.2f} s your epoch's own steps took, more than C measured alone"


def closest_to_bound(epochs: list[EpochResult], load: float, compute: float,
                     loaders: int) -> tuple[EpochResult, float]:
    """The epoch nearest its own bound (``epoch_bound``), and that bound (lab 05)."""
    best = min(epochs, key=lambda epoch: epoch.seconds / epoch_bound(epoch, load, compute, loaders))
    return best, epoch_bound(best, load, compute, loaders)


def _bound_uses(epoch: EpochResult, limit: float, load: float, compute: float, loaders: int) -> str:
    """Which compute time the bound max(L/2, C) took (``epoch_bound``): C measured alone, or, where the epoch's
    own steps took longer as printed (``steps_longer``: other programs on the cores), those steps; then, on
    every branch, the epoch as its own steps plus its waits for data, a sum that closes on the printed figures
    (``own_steps``). The steps against C print their percent beside the noise they are judged by."""
    steps, waits = own_steps(epoch), claims.as_printed(epoch.wait_seconds, 2)
    parts = (f"; your epoch: {steps:.2f} s of its own steps + {waits:.2f} s of waits for data = "
             f"{claims.as_printed(epoch.seconds, 2):.2f} s")
    formula = bound_formula(loaders)
    if not steps_set_bound(epoch, limit, load, compute, loaders):  # as printed, or L/2 won
        return f" ({formula}, C the {compute:.2f} s measured alone{parts})"
    # the steps against C as a whole percent worked from the two printed figures, judged as printed against
    # the printed noise: a reader who divides 1.30 / 1.29 finds +1%, within 2% (twenty-sixth reading: the
    # threshold was hidden)
    longer = claims.printed_ratio(steps, compute) - 1
    beside = f"({claims.signed_percent(longer)}"
    noise = f"the course's {STEPS_NOISE:.0%} timing noise"
    if claims.printed_percent(longer) <= claims.printed_percent(STEPS_NOISE):
        return (f" ({formula} with C the {steps:.2f} s your epoch's own steps took, within {noise} of the "
                f"{compute:.2f} s measured alone {beside}){parts})")
    return (f" ({formula} with C the {steps:.2f} s your epoch's own steps took, longer than the {compute:.2f} s "
            f"measured alone {beside}, past {noise}): a busy machine, and only the waits for data are the "
            f"loading's{parts})")


def _over_by(seconds: float, limit: float) -> str:
    """"5% over it": the epoch against its bound, from the two figures as printed (two decimals), so that a
    reader's own division gives the same."""
    over = claims.printed_ratio(seconds, limit) - 1
    return f"{over:.0%} over it" if over >= 0 else f"{-over:.0%} under it"


def _against_bound(seconds: float, limit: float, tolerance: float) -> str:
    """Where an epoch that met the target lies against its bound, from the figures: over it (within the target),
    or under it (a bound is a floor on time: a finding to explain)."""
    figures = f"{seconds:.2f} s against {limit:.2f} s, {_over_by(seconds, limit)}"
    if claims.as_printed(seconds, 2) >= claims.as_printed(limit, 2):
        return f"within the {tolerance:.0%} target of the bound ({figures})"
    return f"under the bound ({figures}: faster than the bound allows, a finding to explain)"
