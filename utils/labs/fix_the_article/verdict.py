"""Lab 00's rule for one plan's timed rounds: the split's messages against the ping-pong of the same bytes in the
same rounds, round by round, by a sign test, and the plan's line in words (every branch written). A round whose
ping-pong jumped is read by one rule whichever way the verdict would go (``known_rounds``). Split from
``rounds``, which re-exports these names."""

from __future__ import annotations

import math
import statistics

from utils import claims

JUMP = 2.0  # a ping-pong round over this many times its fastest round: the ping-pong itself jumped
SIGN_LEVEL = 0.05  # a sign test's level: rounds on one side of 1 that a fair coin gives less often than this


def jumped_rounds(seconds: list[float]) -> set[int]:
    """The rounds (indices) of a case's ping-pong that took over JUMP x its fastest round."""
    return {i for i, s in enumerate(seconds) if s > JUMP * min(seconds)} if seconds else set()


def ping_pong_jumps(seconds: list[float]) -> int:
    """How many rounds of a case's ping-pong took over JUMP x its fastest round."""
    return len(jumped_rounds(seconds))


def set_aside(ratios: list[float], jumped: set[int]) -> list[int]:
    """The rounds (indices) whose side of 1 a ping-pong jump leaves unknown: those below 1 in which the ping-pong
    jumped. A jump lengthens the ping-pong, the ratio's denominator, so it only lowers a round's ratio: a jumped
    round above 1 would be above 1 without its jump too, but one below 1 might not be."""
    return sorted(i for i in jumped if i < len(ratios) and side_of(ratios[i]) == "below")


def known_rounds(ratios: list[float], jumped: set[int]) -> list[float]:
    """The rounds the rule judges: every round but those ``set_aside``. One rule whichever verdict it leads to:
    a jump can fake 'shorter' (two slow ping-pongs, two rounds below 1) or hide 'longer' (the same two among
    seven above 1)."""
    aside = set(set_aside(ratios, jumped))
    return [r for i, r in enumerate(ratios) if i not in aside]


def verdict_of(ratios: list[float], jumped: set[int]) -> str:
    """The rule's verdict, "longer", "shorter" or "none": ``gap_of`` on the rounds whose side of 1 is known
    (``known_rounds``)."""
    return gap_of(known_rounds(ratios, jumped))


def sign_test_least(n: int) -> int:
    """The fewest of ``n`` rounds on one side of 1 (either side) that a fair coin gives with probability <=
    ``SIGN_LEVEL``; ``n + 1`` where even ``n`` of ``n`` is not that rare (too few rounds to show anything)."""
    either_side = lambda k: 2 * sum(math.comb(n, j) for j in range(k, n + 1)) / 2**n  # noqa: E731
    return next((k for k in range(n // 2 + 1, n + 1) if either_side(k) <= SIGN_LEVEL), n + 1)


def gap_of(ratios: list[float]) -> str:
    """"longer", "shorter" or "none": the split's messages over the ping-pong's, round by round, by the sign
    test (``sign_test_least``)."""
    least = sign_test_least(len(ratios))
    if sum(side_of(x) == "above" for x in ratios) >= least:
        return "longer"
    return "shorter" if sum(side_of(x) == "below" for x in ratios) >= least else "none"


def side_of(ratio: float) -> str:
    """"above", "below" or "at": a round's side of 1 as the page prints it (two decimals), so that a round
    printed 1.00 is counted on neither side, as a learner reading the table would count it (the course's one
    rule for counting rounds past a mark, ``claims.round_above``)."""
    if claims.round_above(ratio, 1.0):
        return "above"
    return "below" if claims.round_above(ratio, 1.0, below=True) else "at"


def rule_words(ratios: list[float], jumped: set[int]) -> str:
    """What the rule needed for one plan: "at least 8 of 9 rounds on one side of 1", counted on the rounds it
    judges (``known_rounds``), with the rounds set aside named where there are any."""
    n = len(known_rounds(ratios, jumped))
    aside = len(set_aside(ratios, jumped))
    left = f", the {n} left once {aside} lowered by a ping-pong jump {_is_are(aside)} set aside" if aside else ""
    return f"at least {sign_test_least(n)} of {n} rounds on one side of 1{left}"


def rounds_words(name: str, ratios: list[float], gap: str, jumped: set[int] = frozenset()) -> str:
    """One plan's rounds in words: how many rounds were above 1 as printed (and how many printed 1.00), its
    median ratio and range, the rounds set aside where there are any (``set_aside``: numbered from 1, as the
    table of rounds numbers them) with what the rule then needs of the rest, and the rule's verdict."""
    above = sum(side_of(x) == "above" for x in ratios)
    at_one = sum(side_of(x) == "at" for x in ratios)
    said = {"longer": "the split's messages longer", "shorter": "the split's messages shorter",
            "none": "no difference shown"}[gap]
    level = f" and {at_one} at 1.00" if at_one else ""  # printed 1.00: on neither side of 1
    median = claims.half_up(statistics.median(ratios), 2)  # an even count's median falls between two: half up
    return (f"{name}: {above} of {len(ratios)} above 1{level}, median {median:.2f}x, "
            f"range {min(ratios):.2f}-{max(ratios):.2f}x{_aside_words(ratios, jumped)}: {said}")


def _aside_words(ratios: list[float], jumped: set[int]) -> str:
    """"" where no round is set aside; else which, why, and the rest's count on each side against what the rule
    needs of them ("; rounds 5 and 6 set aside (...): of the other 7, 7 above 1 and 0 below, the rule needing 7 on
    one side")."""
    aside = set_aside(ratios, jumped)
    if not aside:
        return ""
    known = known_rounds(ratios, jumped)
    least = sign_test_least(len(known))
    above = sum(side_of(x) == "above" for x in known)
    below = sum(side_of(x) == "below" for x in known)
    needs = (f"the rule needing {least} on one side" if least <= len(known)
             else "too few for the rule to show a difference")
    return (f"; {_rounds_named(aside)} set aside (below 1, its ping-pong over {JUMP:.0f}x its fastest): of the other "
            f"{len(known)}, {above} above 1 and {below} below, {needs}")


def jump_words(rounds: dict[str, list[float]], jumped: dict[str, set[int]]) -> str:
    """The jump bound, stated where no round is set aside (the rule's long clause states it where one is): which
    rounds' ping-pong jumped, numbered from 1 as the table numbers them, and that they are counted (none below 1),
    or that none jumped (t31_labs03 #2: lab 00's cell 25 says the block states the bound)."""
    bound = f"over {JUMP:.0f}x its plan's fastest round"
    named = [f'"{name}" {_rounds_named(sorted(jumped.get(name, ())))}' for name in rounds if jumped.get(name)]
    if not named:
        return f"No ping-pong round jumped ({bound}), so no round is set aside. "
    return (f"A ping-pong round {bound} jumped: here {'; '.join(named)}, none below 1, so counted as it fell (a jump only "
            "lowers a round's ratio; below 1, such a round would be set aside). ")


def _rounds_named(indices: list[int]) -> str:
    """Rounds by their number from 1: "round 4", "rounds 2 and 5", "rounds 1, 3 and 7"."""
    numbers = [str(i + 1) for i in indices]
    return f"round {numbers[0]}" if len(numbers) == 1 else f"rounds {', '.join(numbers[:-1])} and {numbers[-1]}"


def _is_are(count: int) -> str:
    """ "is" for one, "are" for more: the grammar follows the count."""
    return "is" if count == 1 else "are"
