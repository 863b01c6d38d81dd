"""Lesson 07, section 5: where a tensor-parallel decode token's loss goes, from the all-reduces timed inside
the decode loop itself.

``decode.decode_worker`` times, on both ranks, every all-reduce of its timed tensor-parallel tokens
(``perf_counter`` around ``dist.all_reduce``) and returns, for the round it reports, each rank's seconds
inside them a token (``result["all_reduces"]``). The loss, the tensor-parallel token over one device's, then
splits into two measured parts: the time inside the all-reduces, and the rest, outside them. Section 4's
alpha-and-beta price of the same calls is set beside the first as its floor (section 4 ran its calls back to
back, with nothing between them), and the extra operations' fixed cost beside the second.

Every figure is worked from the figures as the page prints them (ms to 2 decimals, shares in whole per cent
rounded half up), so each difference and share checks by hand.
"""

from __future__ import annotations

from utils import claims

# how close the all-reduces must come to the loss to "account for it": a share of the loss
WITHIN = 0.05


def ms(seconds: float) -> float:
    """Seconds as the page prints them in ms (2 decimals), given back in seconds: the sums work from these."""
    return claims.as_printed(seconds, 2, 1e-3) * 1e-3


def text(seconds: float) -> str:
    """Seconds printed in ms, 2 decimals, rounded half up as a reader rounds."""
    return f"{claims.half_up(seconds * 1e3, 2):.2f} ms"


def inside_clause(gap: float, inside: dict, floor: float, saved: float) -> str:
    """The measured time inside the all-reduces: rank 0's (its clock timed the token, so its time inside
    and outside the calls adds up to the token), rank 1's beside it, and section 4's price as their floor."""
    mine, theirs = ms(inside["rank 0"]), ms(inside["rank 1"])
    above = claims.half_up((mine - floor) * 1e3, 2) * 1e-3
    return (f"rank 0, whose clock timed the token, spent {text(mine)} a token inside its {inside['calls']:g} "
            f"all-reduces (rank 1: {text(theirs)}), {claims.percent(mine / gap)} of the loss; section 4's "
            f"alpha and beta price them at {text(floor)} ({'more' if floor > saved else 'no more'} than the "
            f"{text(saved)} the halved bytes save), a floor: its calls ran back to back, nothing between; "
            + (f"here they took {text(above)} more" if above > 0 else "here they took no more" if above == 0
               else f"here they took {text(-above)} less, under that floor"))


def rest_clause(one_t: float, tp_t: float, inside: dict, extra_ops: int, extra_launch: float,
                per_op: float) -> str:
    """What is left outside the all-reduces, read against the loss: the three outcomes, each said from the
    run's figures as printed (within 5 % of the loss, more than it, less than it)."""
    gap, mine = tp_t - one_t, ms(inside["rank 0"])
    rest = claims.half_up((gap - mine) * 1e3, 2) * 1e-3   # the loss outside the all-reduces
    outside = claims.half_up((tp_t - mine) * 1e3, 2) * 1e-3   # rank 0's token outside them
    ops = f"its {extra_ops} extra operations cost {text(extra_launch)} at {per_op * 1e6:.1f} us each"
    if abs(rest) <= WITHIN * gap:
        return (f"so the all-reduces account for the loss, within 5 %: {text(rest)} of it lies outside them "
                f"({text(gap)} - {text(mine)}), beside which {ops}")
    if rest < 0:   # the calls took more than the loss: outside them the split token is the faster one
        return (f"so the all-reduces take more than the whole loss, by {text(-rest)}: outside them rank 0's "
                f"token took {text(outside)} ({text(tp_t)} - {text(mine)}), less than one device's "
                f"{text(one_t)}, though {ops}")
    share = claims.percent(rest / gap)
    return (f"so the all-reduces take less than the loss: the other {text(rest)} ({share}) ran outside them "
            f"({text(gap)} - {text(mine)}), of which {ops}; this run does not take the rest apart")


def loss_by_cause(one_t: float, tp_t: float, inside: dict, floor: float, saved: float, extra_ops: int,
                  extra_launch: float, per_op: float) -> str:
    """The answer sentence: a tensor-parallel token's loss over one device's (``tp_t - one_t``, seconds as
    printed) split into the time inside its all-reduces, measured in the decode loop (``inside``:
    ``decode_worker``'s ``"all_reduces"``), and the rest, outside them. ``floor``: section 4's price of the
    token's all-reduces (as printed); ``saved``: the weight floor the halved bytes save; ``extra_ops`` and
    ``extra_launch``: the operations a rank runs beyond one device's and its all-reduces, and their cost."""
    gap = tp_t - one_t
    return (f"Its loss, {text(gap)} a token over one device, timed inside the decode loop: "
            + inside_clause(gap, inside, floor, saved) + "; "
            + rest_clause(one_t, tp_t, inside, extra_ops, extra_launch, per_op))


def how_timed(inside: dict) -> str:
    """The detail behind the answer, for the cell's "How this was measured" block: how the all-reduces were
    timed, and each rank's time inside them cut into the calls' time with both ranks inside (each call's
    shorter side of the two, summed) and rank 0's wait for rank 1 (the rest of its time inside)."""
    mine, both = ms(inside["rank 0"]), ms(inside["both inside"])
    wait = claims.half_up((mine - both) * 1e3, 2) * 1e-3
    return (f" All-reduces timed inside the decode loop: perf_counter around each dist.all_reduce of the "
            f"timed tensor-parallel tokens, on both ranks (on a GPU, synchronized before and after, which "
            f"the timed token includes); the fastest round's figures, a token, rank 1's gathered to rank 0: "
            f"{inside['calls']:g} calls, rank 0 {text(mine)} inside them, rank 1 {text(inside['rank 1'])}. "
            f"Each call's shorter side of the two ranks (its time after the later rank arrived), summed: "
            f"{text(both)} a token with both ranks inside; the other {text(wait)} of rank 0's "
            f"({text(mine)} - {text(both)}), waiting for rank 1.")
