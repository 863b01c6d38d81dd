"""Lab 02's reference (``labs/02_balance_the_pipeline.ipynb``): what a two-stage 1F1B step (the schedule the lab
runs) costs on a profile, found by playing the schedule pass by pass, and the profiles the checks judge a
learner's code on.
(Reading it before you solve the lab spoils exercises A and B; the lab does not import it, and the checks
refuse an answer that calls it.)

    reference_speedup(profile, [9], 8)     # one worker's step over 1F1B's, both from the profile
    best_config(profile)                   # ((split point,), m, speed-up): the best the profile allows
    stage_peak_bytes(profile, [9], 8)      # what each stage keeps at once under 1F1B (exercise B)
    best_config(profile, cap)              # ... the best whose every stage keeps at most cap bytes
    HIDDEN                                 # profiles the learner's code has not seen, each with what it tests

Nothing here is measured: the checks measure (``workload.measure_profile``, the timed pipeline) and use this
to judge decisions on profiles whose right answer is known.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from utils.labs.balance_the_pipeline.workload import CANDIDATE_M, Profile
from utils.lessons.model_split.ideal import gpipe_order, one_f_one_b_order
from utils.lessons.model_split.split import stage_ranges

BACKWARD_SHARE = 2 / 3  # of a layer's forward + backward: its backward (two products for the forward's one)


def gpipe_seconds(stage_seconds: Sequence[float], m: int) -> float:
    """The time of a GPipe step whose stages cost ``stage_seconds`` per micro-batch (forward + backward): each
    worker runs all m forwards, then all m backwards (lesson 02 §7's formula; ``played_seconds``)."""
    return played_seconds(stage_seconds, m, gpipe_order)


def one_f_one_b_seconds(stage_seconds: Sequence[float], m: int) -> float:
    """The time of a 1F1B step whose stages cost ``stage_seconds`` per micro-batch (forward + backward, the
    backward ``BACKWARD_SHARE`` of it): worker r runs p - 1 - r forwards ahead, then one forward and one
    backward in turn (lesson 02 §4's order; ``played_seconds``). Exercise A's model."""
    return played_seconds(stage_seconds, m, one_f_one_b_order)


def played_seconds(stage_seconds: Sequence[float], m: int, order=one_f_one_b_order) -> float:
    """A step's time found by playing the schedule ``order(m, p)``: each pass as soon as its worker is free
    and its input has arrived (a message takes no time beyond what the stage's cost already holds)."""
    p = len(stage_seconds)
    cost = {"F": [t * (1 - BACKWARD_SHARE) for t in stage_seconds],
            "B": [t * BACKWARD_SHARE for t in stage_seconds]}
    orders, done, free, nxt = order(m, p), {}, [0.0] * p, [0] * p
    while any(nxt[r] < len(orders[r]) for r in range(p)):
        moved = False
        for r in range(p):
            while nxt[r] < len(orders[r]):
                s, kind, k = orders[r][nxt[r]]
                needs = ([(s - 1, "F", k)] if kind == "F" and s else
                         [(s, "F", k)] + ([(s + 1, "B", k)] if s < p - 1 else []) if kind == "B" else [])
                if any(n not in done for n in needs):
                    break
                done[(s, kind, k)] = free[r] = max([free[r]] + [done[n] for n in needs]) + cost[kind][s]
                nxt[r], moved = nxt[r] + 1, True
        if not moved:
            raise AssertionError("the schedule's order waits on a pass that never runs")
    return max(free)


def stage_seconds(profile: Profile, split_points: Sequence[int], m: int) -> list[float]:
    """Per micro-batch of ``m``, each stage's layers (measured on that micro-batch) plus what a micro-batch
    costs a stage beyond them."""
    layers = profile.layers[m]
    return [sum(layers[a:b]) + profile.per_micro_batch for a, b in stage_ranges(len(layers), split_points)]


def reference_speedup(profile: Profile, split_points: Sequence[int], m: int) -> float:
    """One worker's step (the whole batch at once: ``layers[1]``, no message) over the 1F1B step of
    ``split_points`` with ``m`` micro-batches, both from the profile."""
    return sum(profile.layers[1]) / one_f_one_b_seconds(stage_seconds(profile, split_points, m), m)


def in_flight(stage: int, m: int, p: int = 2) -> int:
    """Micro-batches stage ``stage`` holds activations for at once under 1F1B: its warm-up forwards (p - 1 -
    stage) plus the one whose backward it waits for, never more than m."""
    return min(m, p - stage)


def stage_peak_bytes(profile: Profile, split_points: Sequence[int], m: int) -> list[float]:
    """Each stage's peak of activations kept for the backward pass under 1F1B, bytes: the micro-batches it
    holds at once, times their rows, times what the stage keeps per row."""
    ranges = stage_ranges(len(profile.layers[1]), split_points)
    return [in_flight(s, m, len(ranges)) * (profile.batch // m) * profile.saved_per_row(a, b)
            for s, (a, b) in enumerate(ranges)]


def fits(profile: Profile, split_points: Sequence[int], m: int, cap: float | None) -> bool:
    return cap is None or max(stage_peak_bytes(profile, split_points, m)) <= cap


def best_split_at(profile: Profile, m: int, cap: float | None = None) -> tuple[int, ...] | None:
    """The split point that makes the pipeline with ``m`` micro-batches fastest on the profile (earliest on a
    tie), among those whose stages keep at most ``cap`` bytes under 1F1B (None: no cap); None if none fits."""
    n = len(profile.layers[m])
    options = [(k,) for k in range(1, n) if fits(profile, (k,), m, cap)]
    return max(options, key=lambda s: (reference_speedup(profile, s, m), -s[0])) if options else None


def best_config(profile: Profile, cap: float | None = None) -> tuple[tuple[int, ...], int, float]:
    """The best (split points, m) of the profile (under ``cap``, as ``best_split_at``), and its speed-up over
    one worker by exercise A's model (1F1B's step)."""
    options = [(split, m) for m in profile.ms if (split := best_split_at(profile, m, cap)) is not None]
    split, m = max(options, key=lambda o: reference_speedup(profile, *o))
    return split, m, reference_speedup(profile, split, m)


# --- profiles the learner's code has not seen, each testing one thing ----------------------------------------


def synthetic_profile(layers: Sequence[tuple[float, float]], batch: int, per_micro_batch: float,
                      ms: Sequence[int] = CANDIDATE_M, widths: Sequence[int] | None = None) -> Profile:
    """A profile whose layer k costs ``fixed + per_row * rows`` seconds on a micro-batch of ``rows``
    (``layers[k] = (fixed, per_row)``): a fixed part per call, as small matrix products and the per-call work
    of autograd give, and a part that grows with the rows. ``widths``: float32 values a row at each layer's
    input and, last, the output (a stage keeps its input and each layer's output; default 128 everywhere)."""
    widths = list(widths or [128] * (len(layers) + 1))
    saved = {(a, b): 4.0 * (widths[a] + sum(widths[a + 1:b + 1]))
             for a in range(len(layers)) for b in range(a + 1, len(layers) + 1)}
    return Profile(batch, {m: [f + r * (batch // m) for f, r in layers] for m in ms}, per_micro_batch,
                   saved=saved)


def cap_share(profile: Profile, share: float) -> float:
    """``share`` of what one worker keeps for the whole batch, bytes: a hidden profile's cap."""
    return share * profile.batch * profile.saved_per_row(0, len(profile.layers[1]))


@dataclass(frozen=True)
class Hidden:
    """A profile the checks judge a learner's code on, and what it tests (for the failure message)."""

    what: str  # the profile in words
    tests: str  # what it isolates: a key of ``checks.WHY_PREDICTION``
    profile: Profile


US = 1e-6
_EVEN = [(0.0, 4 * US)] * 6  # six equal layers whose cost grows with the rows only
HIDDEN = [
    Hidden("six equal layers that cost in proportion to their rows, and 1 ms a micro-batch beyond them",
           "overhead", synthetic_profile(_EVEN, 1024, 1e-3)),
    Hidden("six equal layers with a fixed cost per call (small micro-batches cost more a row), nothing else",
           "small micro-batches", synthetic_profile([(0.4e-3, 4 * US)] * 6, 1024, 0.0)),
    Hidden("layers of cost 1, 1, 1, 1, 4, 4 that grow with the rows only, nothing else", "imbalance",
           synthetic_profile([(0.0, c * US) for c in (1, 1, 1, 1, 4, 4)], 1024, 0.0)),
    Hidden("six costly layers that grow with the rows, then six cheap ones with a large fixed cost per call",
           "split at m", synthetic_profile([(0.0, 10 * US)] * 6 + [(1.5e-3, 0.5 * US)] * 6, 4096, 0.1e-3)),
    Hidden("an overhead-free, perfectly scaling model of 3 cheap and 3 costly layers", "free micro-batches",
           synthetic_profile([(0.0, 1 * US)] * 3 + [(0.0, 3 * US)] * 3, 2048, 0.0)),
    Hidden("the lab's shape reversed: 4 wide layers first, then 9 narrow ones, 0.3 ms a micro-batch", "everything",
           synthetic_profile([(0.6e-3, 12 * US)] * 4 + [(0.05e-3, 1 * US)] * 9, 2048, 0.3e-3)),
]

# Exercise B's profiles, each with its cap (bytes each stage may keep), and what it tests: the widths set what a
# stage keeps per row (float32 values at each layer's input, and the output).
_UNEVEN = [(0.0, 2 * US), (0.3e-3, 4 * US), (0.0, 3 * US), (0.0, 2 * US), (0.1e-3, 1 * US), (0.1e-3, 3 * US),
           (0.0, 3 * US), (0.0, 3 * US)]
_WIDENING = synthetic_profile([(0.1e-3, 4 * US)] * 6, 1024, 0.3e-3, widths=[64, 64, 64, 128, 256, 512, 16])
_NARROWING = synthetic_profile([(0.1e-3, 4 * US)] * 6, 1024, 0.3e-3, widths=[512, 512, 256, 128, 64, 64, 16])
_LATE_WIDE = synthetic_profile([(0.05e-3, 1 * US)] * 4 + [(0.2e-3, 3 * US)] * 4, 2048, 0.2e-3,
                               widths=[64] + [128] * 4 + [512] * 4 + [16])
_MIXED = synthetic_profile(_UNEVEN, 2048, 0.5e-3, widths=[128, 128, 64, 512, 512, 256, 64, 512, 16])
HIDDEN_CAPPED = [
    (HIDDEN[3], cap_share(HIDDEN[3].profile, 1 / 6)),  # the fastest choice already fits: nothing to give up
    (Hidden("six equal layers widening from 64 to 512 values a row, each stage capped at a sixth of the whole "
            "batch's activations", "cap", _WIDENING), cap_share(_WIDENING, 1 / 6)),
    (Hidden("six equal layers narrowing from 512 to 64 values a row, capped at a quarter", "cap", _NARROWING),
     cap_share(_NARROWING, 1 / 4)),
    (Hidden("four cheap narrow layers, then four costly wide ones, capped at an eighth", "cap", _LATE_WIDE),
     cap_share(_LATE_WIDE, 1 / 8)),
    (Hidden("eight layers of uneven cost and width, 0.5 ms a micro-batch, capped at an eighth", "cap", _MIXED),
     cap_share(_MIXED, 1 / 8)),
    (HIDDEN[-1], cap_share(HIDDEN[-1].profile, 1 / 6)),
]
