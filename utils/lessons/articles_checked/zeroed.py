"""Row B12's zeroed weights against the dense layer (rows B11, B12 and B18 read it): by the paired rounds'
ratios where the run kept them (``evidence.pruning_costs``), never by a ratio of two fastest times alone. A
fastest-of ratio compares two best cases that need not come from one moment: within the noise floor it shows
no gain, and beyond it it decides nothing (lesson 07 reads such a figure the same way). Lesson 04 §3 times the
same question (zeros in a dense kernel) in paired rounds and records its figure (``pruned_zeros_speedup``); row
B12 quotes it beside this run's (``lesson_04_words``)."""

from __future__ import annotations

from utils import claims as words

WITHIN, FASTER, SLOWER, UNPAIRED = "within", "faster", "slower", "unpaired"


def fastest_ratio(prune: dict) -> float:
    """Half the weights zeroed over the dense layer, from the two fastest times as the rows print them (ms,
    two decimals), half up."""
    return words.half_up(words.printed_ratio(prune["zeroed"], prune["dense"], 2, 1e-3))


def paired(prune: dict) -> tuple[float, float, list[float]] | None:
    """The paired rounds' median and spread as printed (two decimals), with the rounds; None where the run
    kept no rounds (fewer than 2)."""
    rounds = prune.get("zeroed_rounds") or []
    if len(rounds) < 2:
        return None
    ordered = sorted(words.as_printed(r, 2) for r in rounds)
    mid = len(ordered) // 2
    median = ordered[mid] if len(ordered) % 2 else words.half_up((ordered[mid - 1] + ordered[mid]) / 2)
    return median, words.printed_spread(rounds), list(rounds)


def side(prune: dict, floor: float) -> str:
    """``WITHIN`` (no gain shown), ``FASTER`` or ``SLOWER`` (beyond the noise) by the paired rounds: their
    median ± spread covering 1x is noise, unless every round lies on one side (``claims.one_side``). The spread
    is read at no less than ``floor`` (``read_spread``). Without rounds, the fastest-of ratio: within ``floor``
    of 1x, ``WITHIN``; beyond it, ``UNPAIRED`` (no verdict)."""
    found = paired(prune)
    if found is None:
        return WITHIN if words.within_noise(fastest_ratio(prune), floor) else UNPAIRED
    median, spread, rounds = found
    if words.within_noise(median, read_spread(spread, floor)) and words.one_side(rounds) is None:
        return WITHIN
    return FASTER if median < 1 else SLOWER


def read_spread(spread: float, floor: float) -> float:
    """The paired rounds' spread, never under the noise floor: a ± of 0.00 comes from a middle half that ties
    (1.04, 1.02, 0.94, 1.02, 1.02 gives 1.02x ± 0.00, with one round 6% faster), not from a quiet machine, so
    the course's floor is the least noise it allows (as ``bench_lessons`` reads a tied ± beside the range)."""
    return max(spread, floor)


def figure_words(prune: dict, floor: float, unit: str = "") -> str:
    """Half the weights zeroed against the dense layer in one figure (t40_09 #4: the same quantity printed once):
    the paired rounds' median ± spread where the run kept them, "1.00x ± 0.01 the dense time in 5 paired rounds
    (within noise of 1x, ...)"; else the ratio of the two fastest times, with why it decides or not
    (``reading``). ``unit``: " the dense time", where the row names it."""
    found = paired(prune)
    if found is None:
        return f"{fastest_ratio(prune):.2f}x{unit}{reading(prune, floor)}"
    median, spread, rounds = found
    return f"{median:.2f}x ± {spread:.2f}{unit} in {len(rounds)} paired rounds{reading(prune, floor)}"


def reading(prune: dict, floor: float) -> str:
    """What ``figure_words`` prints after its figure: the paired rounds' reading, or why the fastest-of ratio
    alone decides nothing."""
    found, said = paired(prune), side(prune, floor)
    if found is None:
        if said == WITHIN:
            return (f" (the same time, no gain and no loss: within the {floor:.0%} noise floor for two "
                    "fastest times)")
        return (f" (a ratio of two fastest times, not paired rounds: beyond the {floor:.0%} noise floor, but it "
                "decides nothing either way; inconclusive)")
    median, spread, rounds = found
    beyond, note = "beyond the rounds' spread", ""
    if spread < floor:  # its ± is read at the floor (``read_spread``): say so, with the rounds' whole range
        beyond = f"beyond the {floor:.0%} noise floor"
        note = (f"; its ± read at the {floor:.0%} noise floor, as a ± under it is (the rounds range "
                f"{min(rounds):.2f}x to {max(rounds):.2f}x)")
    if words.within_noise(median, read_spread(spread, floor)):  # decided by every round on one side of 1x
        beyond = "every round on that side of 1x"
    # within noise is a tie, named as one: 0.99x or 1.01x is neither a gain nor a loss
    return {WITHIN: f" (within noise of 1x, the same time, no gain and no loss{note})",
            FASTER: f" (faster, {beyond}{note})",
            SLOWER: f" (slower, {beyond}{note})"}[said]


def round_ratios(dense: list[float], zeroed: list[float], runs: int) -> list[float]:
    """Each round's zeroed time over its dense time, each the faster of the round's ``runs`` runs (the
    samples ``machine.run_rounds`` keeps, ``runs`` per round in order): the two sides of a round ran
    moments apart, so a busy moment slows both."""
    best = lambda s, i: min(s[i * runs:(i + 1) * runs])  # noqa: E731
    return [best(zeroed, i) / best(dense, i) for i in range(len(dense) // runs)]


def rounds_line(prune: dict) -> str:
    """The "How this was measured" line of row B12: each round's zeroed over dense time, as printed (the
    rounds ``paired`` works the median and spread from), or that the run kept none."""
    found = paired(prune)
    if found is None:
        return "Half the weights zeroed over the dense layer (row B12): no paired rounds kept"
    return ("Half the weights zeroed over the dense layer, each round (row B12 quotes their median): "
            + ", ".join(f"{r:.2f}x" for r in found[2]))


LESSON_04 = "pruned_zeros"  # m["results"] key of lesson 04 §3's record (ledger name ``pruned_zeros_speedup``)


def lesson_04_words(record: dict | None, section: str) -> str:
    """Lesson 04 §3's 50% zeros figure as lesson 04 prints it, a speed (the dense time over the zeroed one: 0.99x
    is slower), with its noise and rounds, read by lesson 04's rule against its dense-kernel bound of 1x; where
    the ledger keeps none yet, what to run. ``section``: "lesson 04 §3", as the page cites it."""
    if record is None:
        return (f"{section} times zeros in a dense kernel in paired rounds too; the ledger keeps no figure of it "
                "yet: run lesson 04")
    from utils.lessons.compression.report import verdict_against  # lesson 04's own reading of its figure

    noise, rounds = record.get("noise", 0.0), record.get("rounds") or []
    said = verdict_against(record["value"], record.get("bound", 1.0), noise, slower="slower than dense")
    setup = record.get("what", "").split(" over dense")[0] or "50% zeros"
    kept = f", {len(rounds)} paired rounds" if rounds else ""
    return (f"{section}, {setup}: {record['value']:.2f}x the dense model's speed (noise ±{noise:.0%}{kept}), "
            f"against its dense-kernel bound of {record.get('bound', 1.0):.2f}x: {said}")
