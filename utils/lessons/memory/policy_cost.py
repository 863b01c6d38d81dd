"""Selective checkpointing's prediction (lesson 06, section 2): its step is the plain step, plus the share of
the blocks' forward it recomputes, plus the policy's own cost, paid in the first forward and again in the
recompute. That cost is timed by two pairs of forwards: the whole loss's forward with and without the policy
(the pair the step's forward part is, so the first forward's cost is that pair by construction) and the blocks'
forward alone with and without it (what the recompute runs again). The head and the loss run outside the
policy, so the two pairs time the same overhead; timed apart they can disagree, so the recompute's cost is read
at both ends and the prediction is a range (t28_0506 #1).

    whole, blocks = policy_costs(CKPT_TIMES)                       # seconds, as the table prints them
    low, high = predicted_range(step, recomputed, CKPT_TIMES)      # seconds
    prediction_words(step, recomputed, CKPT_TIMES, "1.12x ± 0.04")  # "83.7-86.2 ms: the step (68.8) + ..."
    part_over_whole(..., rounds=ROUNDS)             # a part against its whole, read round by round
    part_over_whole(..., rounds=ROUNDS, plain=("blocks' forward", "forward"))  # its share against the plain one's
"""

from __future__ import annotations

from utils import claims
from utils.lessons.memory.measure import step_ratio
from utils.lessons.memory.report import fastest_source

PAIRS = {"whole": ("selective forward", "forward"), "blocks": ("selective blocks' forward", "blocks' forward")}


def _ms(seconds: float) -> float:
    """``seconds`` in ms as the step-times table prints them (0.1 ms)."""
    return claims.as_printed(seconds, 1, 1e-3)


def policy_costs(times: dict, rounds: dict | None = None) -> tuple[float, float]:
    """The policy's own cost (seconds) from each pair: (the whole forward's pair, the blocks' forward's pair).
    With the interleaved ``rounds`` (how the lesson reads it): the pair's rounds' median ratio
    (``measure.step_ratio``, as printed) less 1, x the plain forward's time as printed, (1.06 - 1) x 21.4 =
    +1.3 ms, the basis every step ratio in the lesson is read on. The fastest of each may pair different rounds,
    one of them outlying: 25.6 - 21.4 = +4.2 ms was 1.20x, outside its rounds' 1.06x ± 0.05 (t32_0506 #1).
    Without ``rounds``: the difference of the two times as the step-times table prints them, 28.6 - 25.7."""
    if rounds is None:
        return tuple(claims.half_up(_ms(times[a]) - _ms(times[b]), 1) * 1e-3 for a, b in PAIRS.values())
    return tuple(claims.half_up((policy_ratio(rounds, a, b) - 1) * _ms(times[b]), 1) * 1e-3
                 for a, b in PAIRS.values())


def policy_ratio(rounds: dict, name: str, reference: str) -> float:
    """A pair's rounds' median ratio as printed (2 decimals): ``measure.step_ratio``'s figure."""
    return step_ratio(rounds, name, reference)[0]


def recompute_costs(times: dict, rounds: dict | None = None) -> tuple[float, float]:
    """The recompute's share of the policy's cost (seconds) at both ends, low first: the whole forward's pair
    and the blocks' forward's pair (the blocks are what the recompute runs again; the whole pair times the same
    overhead, as the head and loss run outside the policy). ``rounds``: as ``policy_costs``."""
    return tuple(sorted(policy_costs(times, rounds)))


def predicted_range(step: float, recomputed: float, times: dict, rounds: dict | None = None) -> tuple[float, float]:
    """Selective's predicted step (seconds) at both ends: ``step`` + ``recomputed`` + the first forward's cost
    (the whole forward's pair) + the recompute's (``recompute_costs``), each as printed, so that 68.8 + 9.1 +
    2.9 + 2.9 = 83.7 and 68.8 + 9.1 + 2.9 + 5.4 = 86.2 are a reader's own sums. ``rounds``: as
    ``policy_costs``."""
    first = policy_costs(times, rounds)[0]
    base = _ms(step) + claims.half_up(recomputed * 1e3, 1) + first * 1e3
    return tuple(claims.half_up(base + cost * 1e3, 1) * 1e-3 for cost in recompute_costs(times, rounds))


def ms_range(low: float, high: float, signed: bool = False) -> str:
    """Seconds at both ends in ms as printed: "83.7 ms" where they print alike, else "83.7-86.2 ms"; ``signed``:
    "+2.9" or "+2.9 to +5.4" (a range of extra times)."""
    lo, hi = claims.as_printed(low * 1e3, 1), claims.as_printed(high * 1e3, 1)
    if signed:
        return f"{lo:+.1f}" if lo == hi else f"{lo:+.1f} to {hi:+.1f}"
    return f"{hi:.1f} ms" if lo == hi else f"{lo:.1f}-{hi:.1f} ms"


def prediction_words(step: float, recomputed: float, times: dict, policy_rounds: str,
                     rounds: dict | None = None) -> str:
    """The prediction and how it adds up, to follow "selective should take ": the policy's cost beside the
    pair each end comes from, its ratio (the fastest of each) beside its rounds' (``policy_rounds``, e.g.
    "1.12x ± 0.04"), so that the 1.11x a reader meets is never read as the rounds' median. With ``rounds``
    (``policy_costs``), each cost is worked from its pair's rounds' median, and the fastest of each is said
    beside it as a figure not used, with the rounds it comes from: one round's own ratio is not the median, and
    "may pair different rounds" beside a pair from one round misread the table (t32_0506 #1, t40_0506 #2)."""
    whole, blocks = policy_costs(times, rounds)
    low, high = predicted_range(step, recomputed, times, rounds)
    (sel, plain), (sel_b, plain_b) = ((_ms(times[a]), _ms(times[b])) for a, b in PAIRS.values())
    fastest = claims.half_up(sel / plain, 2)
    if rounds is None:
        first = f"its whole forward alone, {sel:.1f} - {plain:.1f} ms, {fastest:.2f}x the plain one; rounds: {policy_rounds}"
        second = f"that pair, or the blocks' forwards', {sel_b:.1f} - {plain_b:.1f} ms"
    else:
        ratio, ratio_b = (policy_ratio(rounds, a, b) for a, b in PAIRS.values())
        first = (f"its whole forward alone's rounds, {policy_rounds}: ({ratio:.2f} - 1) x the plain forward's "
                 f"{plain:.1f} ms; not the fastest of each, {sel:.1f} / {plain:.1f} = {fastest:.2f}x "
                 f"({fastest_source(rounds, *PAIRS['whole'])}): the table below")
        # the blocks' rounds are printed too (t33_0506): the prediction's high end is a reader's to redo
        second = (f"that pair, or the blocks' forwards', their rounds' median ({ratio_b:.2f} - 1) x the plain "
                  f"blocks' {plain_b:.1f} ms: the blocks' forwards' table below")
    said = (f"{ms_range(low, high)}: the step ({_ms(step):.1f}) + the recomputed share of the blocks' forward "
            f"({claims.half_up(recomputed * 1e3, 1):.1f}) + the policy's own cost")
    if claims.as_printed(whole * 1e3, 1) == claims.as_printed(blocks * 1e3, 1):   # both pairs agree as printed
        return said + f" twice ({whole * 1e3:+.1f} each: {first}; the blocks' forward's pair, the same)"
    return (said + f" in the first forward ({whole * 1e3:+.1f}: {first}) and in the recompute, which reruns the "
            f"blocks' forward under it ({ms_range(*recompute_costs(times, rounds), signed=True)}: {second}; both "
            f"time the same overhead, so both ends are read)")


def part_over_whole(part: str, part_s: float, whole: str, whole_s: float,
                    then: str = "no figure here is built on their difference",
                    rounds: dict | None = None, plain: tuple[str, str] | None = None) -> str:
    """A note where a timed part took longer than the timed whole that contains it (e.g. the blocks' forward
    and the whole loss's forward, timed apart): a part cannot take longer than its whole, so the gap comes
    from timing them apart, and ``then`` says what is built on it. "" where the part is shorter. ``rounds``:
    the part's share of its whole is read from them (``_against_share``), round by round, as every ratio on the
    page is: the fastest run of each may come from different rounds, which once read 1.11x "beyond their noise"
    where the rounds' own ratios gave 0.98x (t40_0506 #1). ``plain`` (the plain pair's (part, whole) names in
    ``rounds``): for a pair that differs from the plain one only inside the part (the policy), its share is
    judged against the plain pair's, not 1x (the head and loss take their time in both; t28_0506 #1,
    t76_0506 #1). Lesson 06."""
    # as printed, in ms: 26.4 - 25.4 is 1.0
    part_ms, whole_ms = _ms(part_s), _ms(whole_s)
    if rounds is not None:
        return _against_share(part, part_ms, whole, whole_ms, then, rounds, plain)
    if part_ms <= whole_ms:
        return ""
    return (f"The {part} ({part_ms:.1f} ms) took longer than the {whole} that contains it "
            f"({whole_ms:.1f} ms): the {part_ms - whole_ms:.1f} ms gap comes from timing them apart, and {then}.")


def _against_share(part: str, part_ms: float, whole: str, whole_ms: float, then: str, rounds: dict,
                   plain: tuple[str, str] | None) -> str:
    """``part_over_whole`` from the rounds, each share read as the page reads every ratio: the median of its
    rounds' own ratios, ± their spread, at least 2 % (``measure.step_ratio``), against the plain pair's share
    (``plain``) by the noise rule between two figures (``claims.runs_agree``), or, with no ``plain``, against 1x
    (the most a part can take of its whole). "" where they agree, or the part's share lies under 1x, and the
    part is no longer than its whole (the fastest of each, as the table prints them). A "beyond" names the
    rounds that carry it (``_rounds_apart``): the fastest of each may all be one round's, which alone once read
    1.00x against 0.91x "beyond their noise" where the rounds' medians agreed (t76_0506 #1)."""
    share, pm, each = step_ratio(rounds, part, whole)
    if plain is None:   # against 1x: a part takes at most its whole's time
        base, base_pm, base_each = 1.0, 0.0, [1.0] * len(each)
    else:
        base, base_pm, base_each = step_ratio(rounds, *plain)
    within = claims.runs_agree(share, pm, base, base_pm)
    shorter = plain is None and not within and share < base   # under 1x beyond the noise, as a part must be
    if (within or shorter) and part_ms <= whole_ms:
        return ""
    head = "took longer than" if part_ms > whole_ms else "is set against"
    read = f"the median of its {len(each)} rounds' own ratios, ± their spread, at least 2 %"
    said = (f"The {part} ({part_ms:.1f} ms) {head} the {whole} that contains it ({whole_ms:.1f} ms; the fastest "
            f"run of each, {fastest_source(rounds, part, whole)}): in their rounds, {share:.2f}x ± {pm:.2f} the "
            f"whole's time")
    if plain is None:
        said += f" ({read}), against 1x, the most a part can take of its whole: "
    else:
        said += (f", against {base:.2f}x ± {base_pm:.2f} in the plain pair ({plain[0]} / {plain[1]}; each {read}; "
                 f"the head and loss run outside the policy, so the shares should match): ")
    if shorter:
        return said + f"shorter than its whole beyond their noise, so the gap is the fastest runs' alone; {then}."
    if within and plain is None:
        return said + f"within their noise of it, so the gap is the fastest runs' alone, not a finding; {then}."
    if within:
        return said + f"within their noise; {then}."
    return said + _rounds_apart(each, pm, base_each, base_pm) + f"; {then}."


def _rounds_apart(each: list[float], pm: float, base_each: list[float], base_pm: float) -> str:
    """The verdict where two shares' medians lie beyond each other's ± (``_against_share``), with the rounds
    that carry it: those whose own two shares, as printed, the same two ± do not cover. Two or more: beyond
    their noise, named; one or none: not a finding, said so (a median may be one round's figure)."""
    apart = [k for k, (a, b) in enumerate(zip(each, base_each), 1)
             if not claims.runs_agree(claims.as_printed(a, 2), pm, claims.as_printed(b, 2), base_pm)]
    rest = len(each) - len(apart)
    if len(apart) >= 2:
        names = ", ".join(map(str, apart[:-1])) + f" and {apart[-1]}"
        return (f"beyond their noise, carried by rounds {names} of {len(each)} (each round's own two shares "
                f"beyond the same ±), a cause not timed apart here")
    if apart:
        return (f"beyond their noise by the medians, but carried by round {apart[0]} alone (its own two shares "
                f"beyond the same ±, the other {rest} rounds' within it): one moment of this run, not a finding")
    return ("beyond their noise by the medians, though no round's own two shares are (the medians come from "
            "different rounds): not a finding")


def expected_gain_words(full_step: float, predicted: tuple[float, float], gain: float, noise: float) -> str:
    """Why selective showed no saving over full checkpointing though it recomputes less: the speed-up this
    run's own figures expect, full's step (seconds, its fastest run, the prediction's own basis) over selective's predicted step at
    both ends (``predicted_range``), set against the paired rounds' ± (``noise``, as printed): a gap the size
    of that ± is one the rounds cannot be expected to show (t29_0506: selective no faster, unexplained). ""
    where the rounds did show selective faster (``gain``, full's step / selective's, beyond its ±)."""
    if claims.as_printed(gain, 2) - claims.as_printed(noise, 2) > 1:
        return ""
    full = _ms(full_step)
    low_ms, high_ms = (claims.as_printed(p * 1e3, 1) for p in predicted)
    # the slower prediction gives the smaller speed-up
    lo, hi = (claims.half_up(full / p, 2) for p in (high_ms, low_ms))
    noise = claims.as_printed(noise, 2)
    ends = f"{lo:.2f}x" if lo == hi else f"{lo:.2f}-{hi:.2f}x"
    working = (f"{full:.1f} / {high_ms:.1f}" if lo == hi else
               f"{full:.1f} / {high_ms:.1f} and {full:.1f} / {low_ms:.1f}")
    if low_ms >= full:   # in ms as printed: 86.1 against 86.5 is faster, though 86.5 / 86.1 prints 1.00x (t39)
        reading = ("no faster than full checkpointing: its recompute and its policy's own cost add up to no less "
                   "than full's measured extra time")
    elif claims.half_up(hi - 1, 2) <= noise:
        reading = f"within the rounds' ± {noise:.2f} of 1x: a gap these rounds cannot show"
    elif claims.half_up(lo - 1, 2) <= noise:
        reading = (f"about the size of the rounds' ± {noise:.2f} (its low end within it): a gap these rounds may "
                   "not show")
    else:
        reading = (f"beyond the rounds' ± {noise:.2f}: a saving these rounds should have shown; the parts below "
                   "say where it went")
    return (f"So this run's own figures expect selective at {ends} full checkpointing's speed ({working} "
            f"ms), {reading}.")
