"""Lesson 07, section 4: section 1's timed pass set beside section 4's MLP step, and the compute each
all-reduce follows in both, counted on one base.

    say(pass_step.pass_beside_step(pass_x, spread, cost.half_per_call(one, 1, 2 * depth), S.blocks, row,
                                   LABEL, drawn_compute=compute_per_call))

Why one base: section 1's pass has 2 x depth all-reduces a rank, section 4's step 2, so "compute a call" is
half one device's fastest time over a rank's calls in both (``cost.half_per_call``). Section 1 also printed a
rank's own compute before each call in the pass it drew; that is another figure (a rank's half is not always
half one device's time), so it is named and set beside the base, never left for the reader to reconcile.
"""

from __future__ import annotations

from utils.claims import as_printed, half_up, runs_agree
from utils.lessons.tensor_parallel.cost import half_per_call


def pass_beside_step(pass_x: float, pass_spread: float, pass_compute: float, blocks, row: dict,
                     label: str = "", drawn_compute: float | None = None,
                     moment: tuple[float, bool] | None = None, pass_one: float | None = None) -> str:
    """Section 1's timed pass (``pass_x`` ± ``pass_spread``; ``pass_compute``: half one device's fastest pass
    over a rank's 2 x depth all-reduces, ``cost.half_per_call``) beside section 4's MLP step at one width
    (``row``), read as printed: whether the two agree within their noise, and what differs. ``drawn_compute``
    (seconds): a rank's own compute before each all-reduce in section 1's drawn pass, as section 1 printed it
    (ms, 2 decimals), set beside the base where the base is quoted; ``moment``: the machine's load while it
    was drawn (``drawn_moment``), so a busier moment is named beside it (``drawn_beside``); ``pass_one``
    (seconds): the one-device pass ``pass_compute`` was worked from (printed to 0.1 ms), so the base's sum is
    written out for both sections (t35_0708 other #4)."""
    step_x, step_spread = row["speedup"], row["spread"]
    step_compute = half_per_call(row["one"], 2, 2)   # the same base: half the step over f's and g's
    out = (f"Section 1 timed other work: a forward pass of {blocks.depth} whole blocks of width {blocks.width} "
           f"(attention and MLP, an all-reduce after each), {pass_x:.2f}x ± {pass_spread:.2f}; this section one "
           f"MLP block's forward and backward step at width {row['width']}, {step_x:.2f}x ± {step_spread:.2f}")
    shown = [as_printed(v, 2) for v in (pass_x, pass_spread, step_x, step_spread)]
    # the course's noise rule between two runs (either median ± its spread covers the other's), as printed
    if runs_agree(*shown):
        return out + f": the two agree within their noise{label}."
    if not ranges_apart(*shown):   # "differ beyond their noise" only where the ranges do not touch (t40_0708 #1)
        top, foot = ranges_edges(*shown)
        return (out + f": neither's ± covers the other's median, but their ranges touch (the lower reaches up to "
                f"{top:.2f}x, the higher down to {foot:.2f}x): no difference beyond their noise shown, so none to "
                f"explain{label}.")
    lower = "section 1's pass" if pass_x < step_x else "this section's step"
    lower_compute, higher_compute = ((pass_compute, step_compute) if pass_x < step_x else
                                     (step_compute, pass_compute))
    calls = f"{2 * blocks.depth} calls"   # section 1's: an all-reduce after attention and after the MLP
    pass_sum = f"{as_printed(pass_one, 1, 1e-3):.1f} ms / 2 / {calls}" if pass_one else calls
    return (out + f": they differ beyond their noise, {lower} the lower. Each all-reduce followed about "
            f"{pass_compute * 1e3:.1f} ms of compute in section 1 ({pass_sum}) and about "
            f"{step_compute * 1e3:.1f} ms here ({as_printed(row['one'], 2, 1e-3):.2f} ms / 2 / 2 calls): in "
            "both, half one device's fastest time over a rank's all-reduces, not a rank's own compute"
            + drawn_beside(drawn_compute, pass_compute, moment) + ": " + (
                f"less compute for each all-reduce to pay for in {lower}, a candidate this run does not time "
                "apart from the other differences (attention, the backward pass, one pass against one step)"
                if lower_compute < higher_compute else
                f"not less in {lower}, so the compute per all-reduce does not explain it; this run does not "
                "time apart what does (attention, the backward pass, one pass against one step)") + f"{label}.")


def ranges_edges(x1: float, s1: float, x2: float, s2: float) -> tuple[float, float]:
    """(the lower figure's top, the higher figure's foot): each median with its ± as printed, half up."""
    (low, low_spread), (high, high_spread) = sorted([(x1, s1), (x2, s2)])
    return half_up(low + low_spread, 2), half_up(high - high_spread, 2)


def ranges_apart(x1: float, s1: float, x2: float, s2: float) -> bool:
    """Whether two figures with a ± differ beyond their noise: the higher's foot above the lower's top, the
    ranges not touching. The lesson's one rule for "they differ beyond their noise" (section 5's
    ``inference.rose_apart`` reads it so too). Figures as printed."""
    top, foot = ranges_edges(x1, s1, x2, s2)
    return foot > top


LOAD_GATE = 0.2   # cores' worth of other programs' CPU above which the load names a busy moment


def load_grain(counter: dict | None) -> float:
    """Cores' worth a load reading may be off by (``cost.counter_grain``): a tick on every core over the
    window. 0.0 without it (fabricated figures that ignore the grain)."""
    return counter["cpus"] * counter["tick"] / counter["window"] if counter else 0.0


def load_busy(others: float, counter: dict | None) -> bool:
    """Whether the reading names a busy moment: above the gate even at the low end of its grain. A reading
    is never read as quiet: over a window of a few ticks it cannot tell (t32_0708 #1)."""
    return others - load_grain(counter) > LOAD_GATE


def load_words(others: float, counter: dict | None, over: str = "") -> str:
    """"0.12 of a core over the 2 recorded passes together (37 ms), ± 0.54 (the machine's CPU counters tick
    every 10 ms on each of its 2 cores: too coarse to tell a quiet moment from a busy one)": what was measured
    over what first, then the ± and its reason (t33_0708 other #1: the window and the passes it covers read
    as one "over", not two). ``over``: what the window covers ("over the 2 recorded passes together")."""
    if not counter:
        return f"{others:.2f} of a core" + (f" {over}" if over else "")
    grain, window = load_grain(counter), f"{counter['window'] * 1e3:,.0f} ms"
    where = f"{over} ({window})" if over else f"over {window}"
    return (f"{others:.2f} of a core {where}, ± {grain:.2f} (the machine's CPU counters tick every "
            f"{counter['tick'] * 1e3:g} ms on each of its {counter['cpus']} cores"
            + (": too coarse to tell a quiet moment from a busy one" if grain >= LOAD_GATE else "") + ")")


def drawn_moment(others: float, drawn: float, split_rounds: list[float],
                 counter: dict | None = None) -> tuple[float, bool, dict | None]:
    """(cores' worth of CPU other programs used while the passes were drawn, whether the drawn pass (seconds)
    was slower than every timed split pass, the counters' grain (``cost.counter_grain``)), the second judged
    on the figures as section 1's caption prints them (ms, one decimal), so this says "busier" exactly where
    the caption says "slower than every one"."""
    shown, slowest = as_printed(drawn, 1, 1e-3), as_printed(max(split_rounds), 1, 1e-3)
    return others, shown > slowest, counter


def slow_calls_words(others: float, counter: dict | None, slow: bool) -> str:
    """Section 1's line on the drawn pass's all-reduces: where the longest calls are far above the median
    (``slow``) and the load is busy beyond its grain, why. Otherwise nothing: the load was read over both
    recorded passes, not over this pass's calls, and the line above on the drawn pass already prints it
    (t33_0708 other #1: the same 40 words twice, the second time as if measured over this pass)."""
    if not (slow and load_busy(others, counter)):
        return ""
    return (f"; other programs (the two workers' own CPU time taken out) used "
            f"{load_words(others, counter, 'over both recorded passes')}: the longest all-reduces are ranks "
            "waiting for each other to get a core back")


def drawn_beside(drawn: float | None, base: float, moment: tuple[float, bool] | None = None) -> str:
    """Section 1's drawn pass's own compute a call (seconds; printed in ms to 2 decimals there) beside the
    base (seconds; printed to 0.1 ms), compared to the base's 0.1 ms, half up (3.14 is 3.1, the same; 3.48 is
    3.5, more): more, less, or the same. The base comes from one device's fastest timed pass, the drawn pass
    from another moment: where ``moment`` (``drawn_moment``) says it was drawn at a busier one, "more" has
    two candidates, and both are named (t30_0708 #3). "" without it."""
    if drawn is None:
        return ""
    shown, half = as_printed(drawn, 2, 1e-3), as_printed(base, 1, 1e-3)
    said = f" (the pass drawn in section 1 measured {shown:.2f} ms of a rank's own compute before each, "
    if half_up(shown, 1) > half:
        if moment and moment[1]:
            counter = moment[2] if len(moment) > 2 else None
            return said + (f"more than that half, which comes from one device's fastest timed pass: the drawn "
                           "pass, slower than every timed split pass, was recorded at a busier moment (other "
                           f"programs used {load_words(moment[0], counter, 'over its recorded passes')}), "
                           "or a rank's half ran slower than "
                           "half one device's; this run does not tell the two apart)")
        return said + "more than that half: a rank's half ran slower than half one device's fastest pass)"
    if half_up(shown, 1) < half:
        return said + "less than that half: a rank's half ran faster than half one device's fastest pass)"
    return said + "that half to 0.1 ms)"


def drawn_against_rounds(recorded: list[float], drawn: float, rounds: list[float], others: float,
                         counter: dict | None = None) -> str:
    """How the drawn pass (seconds) stands against the timed split passes (``rounds``), judged on the figures
    as section 1's collapsed block prints them (ms, one decimal): faster than every one, within their range, or
    slower than every one. ``others`` (cores' worth of CPU other programs used) is measured over all the
    ``recorded`` passes together, never over the timed rounds, and read to ``counter``'s grain: it names a busy
    moment for the recorded passes only where it clears the gate by more than its grain, and never a quiet
    one (t31_0708 #1, t32_0708 #1: even a small load can cover a gap of a few ms, so no cause inside the
    workers follows from it)."""
    shown = lambda seconds: as_printed(seconds, 1, 1e-3)  # noqa: E731
    if shown(drawn) >= shown(min(rounds)) and shown(drawn) <= shown(max(rounds)):
        return "lies within their range"
    side = "faster" if shown(drawn) < shown(min(rounds)) else "slower"
    load = f"other programs used {load_words(others, counter, f'over the {len(recorded)} recorded passes together')}"
    if side == "slower" and load_busy(others, counter):
        return (f"was {side} than every one of them: {load}, so the recorded passes met a busy moment (the "
                "timed rounds' load was not measured)")
    return f"was {side} than every one of them: {load}; the timed rounds' load was not measured, so the gap " \
           "has no measured cause"


def shard_gap(spans: list) -> str:
    """Section 1's drawn pass, sub-layer by sub-layer: the two ranks run equal shards of each one ("b0 ffn"
    on rank 0 and on rank 1), so equal times are expected; the pair furthest apart, as the chart draws it, is
    named with its ratio (ms as printed, 2 decimals; the ratio theirs, half up), or, where every pair lies
    within the lesson's 5 %, that they match (t33_0708 other #6: a bar twice its twin's, unsaid). ``spans``:
    the pass's ``timeline.Span``s, both ranks; its all-reduces are left out (they are not shards). A sub-layer
    is carved at its all-reduce into pieces of one label (``timelines.carve``): the first piece is the shard;
    the one after the all-reduce is the bias and residual every rank repeats, not a shard (t34_0708 #1: the
    line compared those, 0.18 against 0.15 ms, beside bars of 2.6 and 2.2 ms)."""
    from utils.lessons.tensor_parallel.verdicts import TOLERANCE

    by_label: dict[str, dict[str, float]] = {}
    for s in sorted(spans, key=lambda span: span.start):
        if s.name != "all-reduce":
            rank = s.device.split(" (")[0]   # "rank 1 (cpu)": the chart's row, read as "rank 1's"
            by_label.setdefault(s.label, {}).setdefault(rank, as_printed(s.duration, 2, 1e-3))  # the first piece
    pairs = {label: ms for label, ms in by_label.items() if len(ms) == 2}
    if not pairs:
        return ""
    ratio = lambda ms: max(ms.values()) / (min(ms.values()) or 0.01)  # noqa: E731  (a 0.00 ms bar: its step)
    label = max(pairs, key=lambda k: ratio(pairs[k]))
    (slow, slow_ms), (fast, fast_ms) = sorted(pairs[label].items(), key=lambda kv: -kv[1])
    if half_up(slow_ms - fast_ms, 2) <= half_up(TOLERANCE * fast_ms, 2):   # within 5 % of the shorter, in ms
        return (f"each sub-layer took the same time on both ranks within {TOLERANCE:.0%} (equal shards, equal "
                "times)")
    return (f"equal shards, unequal times: {slow}'s {label} took {slow_ms:.2f} ms, "
            f"{half_up(slow_ms / (fast_ms or 0.01), 1):.1f}x {fast}'s {fast_ms:.2f} ms (the widest gap between "
            "the two ranks' sub-layers in this pass; this run does not time apart why)")
