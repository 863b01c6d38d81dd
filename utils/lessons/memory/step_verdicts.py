"""Lesson 06's step-time verdicts: a step's time x another's (above 1: slower), read from interleaved rounds
(``measure.step_ratio``: the median of each round's own ratio and its ±) by the course's one noise rule, with
every round beyond the ± named after the verdict. Re-exported by ``summary``, where the notebook finds them.

    ratio, noise, each = step_ratio(rounds, "chunked", "plain")
    time_verdict(ratio, noise, "the plain loss", each)   # "slower than the plain loss beyond noise; ..."
"""

from __future__ import annotations

from utils import claims
from utils.lessons.memory.threads_rounds import across_clause, outlying_clause


def as_shown(value: float, spread: float, digits: int = 2) -> tuple[float, float]:
    """A ratio and its noise rounded as the page prints them (``digits``), the noise a hair wider, so that a
    verdict never disagrees with the figures beside it: 1.04x ± 0.04 reaches 1.00x and reads within noise,
    whatever the digits behind the print were (lesson 06)."""
    return claims.as_printed(value, digits), (claims.as_printed(spread, digits) + 1e-9 if spread > 0 else 0.0)


def time_verdict(ratio: float, noise: float, than: str, rounds: list[float] | None = None,
                 name_rounds: bool = True) -> str:
    """A step time x ``than``'s (above 1: slower) in the claims' words, judged on the figures as printed
    (``as_shown``): ``claims.within_noise``, the course's one rule (1.02x ± 0.02 reaches 1.00x: "within noise:
    no effect shown"), unless every round's own ratio (``rounds``) lies on one side of 1x (``claims.one_side``),
    which says so with its rule (``one_side_rule``). Otherwise slower or faster than ``than`` beyond noise. Any round beyond the ± is then named
    (``rounds_named``), unless ``name_rounds`` is False (the caller names them after its own words).
    Lesson 06."""
    shown, spread = as_shown(ratio, noise)
    noisy = claims.within_noise(shown, spread)
    side = claims.one_side(rounds)
    if noisy and (side is None or shown == 1 or (side == "above") != (shown > 1)):
        verdict = "within noise: no effect shown"
    else:   # every round on one side (noisy) is not noise, though the ± reaches 1x: the rule said where used
        word = "slower" if shown > 1 else "faster"
        verdict = (f"{word} than {than} ({one_side_rule(len(rounds), side)})" if noisy
                   else f"{word} than {than} beyond noise")
    return verdict + (rounds_named(ratio, noise, than, rounds) if name_rounds else "")


def one_side_rule(count: int, side: str) -> str:
    """Why a ratio whose ± reaches 1x is read as slower or faster, the rule stated where it is used: lesson 06
    states it nowhere else, and a verdict inside its own ± reads as a slip without it (t38_0506 #3)."""
    return (f"its ± reaches 1.00x, but all {count} rounds lie {side} it, and rounds all on one side of 1x are not "
            "noise")


def rounds_named(ratio: float, noise: float, than: str, rounds: list[float] | None) -> str:
    """The rounds beyond ``ratio`` ± ``noise``, as printed, named after a step time's verdict: one on the other
    side of 1x, a finding to explain (``threads_rounds.across_clause``, as the threads verdict names it);
    any other, an outlying moment of this run (``outlying_clause``). "" where every round lies within the ±."""
    numbered = list(enumerate(rounds or [], 1))
    # what a round across 1x changes: the verdict is the median's, said so; its cause is not measured here
    across = across_clause(numbered, ratio, noise, words=("slower", "faster", than),
                           then="so the verdict holds for the rounds' median, not for each round (no cause "
                                "timed apart here)")
    return (f";{across}" if across else "") + outlying_clause(numbered, ratio, noise)


def accumulation_verdict(ratio: float, noise: float, rounds: list[float] | None = None) -> str:
    """Section 3's step time with micro-batches x one batch's (above 1: slower), in ``time_verdict``'s words:
    judged as printed by the course's one noise rule, so 0.98x ± 0.02 reaches 1.00x and reads within noise, as
    the chunked loss's 0.97x ± 0.03 does (t33_0506 #1: a check on the bare floats, |0.98 - 1| > 0.02 by a
    hair, called it faster); where every round lies on one side of 1x, it says so. Then any round beyond the ± named
    (``rounds_named``). No direction is predicted: the theory names causes both ways (lesson 06)."""
    verdict = time_verdict(ratio, noise, "one batch", rounds, name_rounds=False)
    if verdict.startswith("within noise"):
        verdict = "within noise: no change in step time shown"
    # the sentence and the claims row already say "x one batch's": "slower beyond noise" needs no "than"
    return verdict.replace(" than one batch", "", 1) + rounds_named(ratio, noise, "one batch", rounds)


def chunked_cost(ratio: float, noise: float, rounds: list[float] | None = None) -> str:
    """The chunked cross-entropy's step time x the plain loss's, in ``time_verdict``'s words, beside what the
    theory expects: a little more time (backward makes each slice's logits again), then any round beyond the ±
    named (``rounds_named``). Every outcome reads right: the cost shown, no cost shown, or faster, which the
    theory does not expect (lesson 06)."""
    verdict = time_verdict(ratio, noise, "the plain loss", rounds, name_rounds=False)
    named = rounds_named(ratio, noise, "the plain loss", rounds)
    if verdict.startswith("within noise"):
        return (verdict + ": whatever making each slice's logits again in backward costs lies within the "
                "step's noise" + named)
    if verdict.startswith("slower"):
        return (verdict + ": backward makes each slice's logits again, the expected cost (not timed apart here)"
                + named)
    return (verdict + ": not the small cost the theory expects; unexplained here, re-run to see whether it "
            "repeats" + named)


def rounds_basis(rounds: list[float]) -> str:
    """How a step ratio beside its verdict was read, with how many rounds it rests on (``rounds``: each round's
    own ratio, ``measure.step_ratio``'s third figure): "the median of 5 rounds' own ratios, ± their spread, at
    least 2 %", so that a reader weighs a verdict from 5 rounds as one (t76_0506 #3). Lesson 06."""
    return f"the median of {len(rounds)} rounds' own ratios, ± their spread, at least 2 %"
