"""Lesson 06's tables: every estimate next to its measurement, with the error.

    show(compare_table({"fp32": (budget, measured)}, title=...))
"""

from __future__ import annotations

from utils import claims
from utils.lessons.memory.calculator import Budget
from utils.lessons.memory.measure import Measured, round_ratios, step_ratio
from utils.lessons.memory.threads_rounds import outlying_clause
from utils.tables import Table

MB = 1e6
# A 16-bit step's loss against fp32's (relative, on the losses as printed): bf16 keeps 8 significant bits, so one
# value rounds by up to 0.4 % (near a loss of 4.6 a bf16 loss itself steps by 1/32, 0.7 %), and a step adds up
# many such roundings. 2 % allows them; a step off by more trains differently, a bug rather than rounding.
LOSS_TOLERANCE = 0.02


def relative_error(estimated: float, measured: float, digits: int = 2, scale: float = MB) -> float:
    """(estimate - measured) / measured, worked from the two figures as the page prints them (bytes in MB,
    2 decimals: ``claims.printed_ratio``), so that 32.77 MB against 32.53 MB reads +0.7%, a reader's division,
    not the +0.8% of unrounded bytes. Lesson 06."""
    return claims.printed_ratio(estimated, measured, digits, scale) - 1


def compare_table(rows: dict[str, tuple[Budget, Measured]], title: str) -> Table:
    """One row per configuration: the calculator's peak and its moment, the measured peak, the error. Lesson 06."""
    body = [(name, f"{b.peak / MB:.2f}", b.peak_moment, f"{m.peak / MB:.2f}",
             claims.signed_percent(relative_error(b.peak, m.peak), 1)) for name, (b, m) in rows.items()]
    return Table(["configuration", "calculator (MB)", "peak at", "measured (MB)", "error"], body, title=title)


def lines_table(budget: Budget, measured: Measured, title: str) -> Table:
    """The lines live at the peak: the calculator's and, where the tracker sorts them, the measured. Lesson 06."""
    names = [k for k in budget.at_peak if budget.at_peak[k] or measured.lines.get(k)]
    names += [k for k in measured.lines if k not in names]
    body = [(k, f"{budget.at_peak.get(k, 0.0) / MB:.2f}",
             f"{measured.lines[k] / MB:.2f}" if k in measured.lines else "-",
             line_error(budget.at_peak.get(k, 0.0), measured.lines.get(k))) for k in names]
    # the tracker's own total, not the sum of the lines as printed: each line is rounded apart, so they may
    # add up to a hundredth off it
    body.append(("total (peak; its own figure, lines rounded apart)", f"{budget.peak / MB:.2f}",
                 # its percent at the sentence's precision: the same figure, printed alike
                 f"{measured.peak / MB:.2f}", line_error(budget.peak, measured.peak, tenths=True)))
    return Table(["line", "calculator (MB)", "measured (MB)", "error"], body, title=title)


def line_error(predicted: float, measured: float | None, tenths: bool = False) -> str:
    """A line's error: MB off (calculator - measured) and, where the measured line is not near zero, percent;
    both from the two lines as printed (0.01 MB): 2.10 - 2.88 reads -0.78 MB, a reader's subtraction.
    ``tenths``: the percent to one decimal (``claims.signed_percent(share, 1)``), as the total's error is printed elsewhere."""
    if measured is None:
        return "-"
    off = f"{claims.as_printed(predicted, 2, MB) - claims.as_printed(measured, 2, MB):+.2f} MB"
    if measured <= 0.01 * MB:
        return off
    share = relative_error(predicted, measured)
    return off + f" ({claims.signed_percent(share, 1 if tenths else 0)})"


def sixteen_bit_units(features, on_cpu: bool) -> str:
    """Where this device runs a 16-bit matmul, as a phrase: on a CPU its bf16 instructions, from
    ``devices.cpu_features()`` ("this CPU's bf16 instructions (AVX512-BF16)"), or "" where it has none (torch
    converts bf16 to fp32 there); on a GPU its tensor cores. Lesson 06, section 4."""
    if not on_cpu:
        return "the GPU's tensor cores (its units that multiply small 16-bit matrices)"
    names = [name for name in features.extensions if "BF16" in name]
    return f"this CPU's bf16 instructions ({', '.join(names)})" if features.bf16_units and names else ""


def autocast_time_reading(verdict: str, width: int, units: str, pure: str = "") -> str:
    """What section 4's timed step says of the theory that autocast saves time only where the matmuls are large
    enough for 16-bit units to outweigh the casts. ``verdict``: ``summary.time_verdict``'s (faster, slower or
    within noise); ``width``: the model's; ``units``: ``sixteen_bit_units``'s ("" where there are none);
    ``pure``: pure bf16's verdict against the same fp32 step ("" where not timed). Only whole steps are timed,
    so a slower autocast step names the casts only where pure bf16 (16-bit kernels, no weight copies to cast)
    was faster; where pure bf16 was no faster, the 16-bit kernels themselves did not pay at this width, casts
    or not. Lesson 06."""
    have = f"with {units}" if units else "with no 16-bit units (torch converts bf16 to fp32)"
    theory = ("Autocast saves time where the matmuls are large enough for 16-bit units to outweigh the casts; "
              f"here, {have}")
    if verdict.startswith("faster"):
        return f"{theory}, what the 16-bit path saved outweighed the casts at this model's width ({width})"
    if verdict.startswith("slower"):
        return f"{theory}, at this model's width ({width}) the 16-bit path did not pay: " + _slower_why(pure)
    return f"{theory}, neither outweighed the other beyond noise at this model's width ({width})"


def _slower_why(pure: str) -> str:
    """``autocast_time_reading``'s slower branch: what pure bf16's verdict (``pure``) says of the cause, the
    casts and the 16-bit kernels being timed only together, in the whole step."""
    apart = "the casts and the 16-bit kernels not timed apart"
    if pure.startswith("faster"):
        return (f"the step was slower, while pure bf16, with no weight copies, was faster: what autocast adds, "
                f"the casts most likely, outweighed the kernels' saving ({apart})")
    if pure.startswith("slower"):
        return f"the step was slower ({apart}; pure bf16, with no weight copies, was slower too)"
    if pure:
        return (f"the step was slower ({apart}; pure bf16, with no weight copies, was no faster beyond "
                "noise either)")
    return f"the step was slower ({apart})"


def loss_check(name: str, losses: tuple, fp32: tuple, tolerance: float = LOSS_TOLERANCE) -> str:
    """Whether a 16-bit step trains as fp32's does, end to end: its losses (``Measured.losses``: at the start,
    then after one AdamW step; same weights at the start, same batch) against fp32's, each printed to 3
    decimals and compared as printed, within ``tolerance`` of fp32's (its reason: ``LOSS_TOLERANCE``). Within
    it, the step's memory saving counts; beyond it, it does not count as it stands. "" where either step
    returned no loss. Lesson 06, section 4."""
    if len(losses) != 2 or len(fp32) != 2 or None in (*losses, *fp32):
        return ""
    mine, ref = [claims.as_printed(v, 3) for v in losses], [claims.as_printed(v, 3) for v in fp32]
    off = claims.as_printed(max(abs(a - b) / b for a, b in zip(mine, ref)), 3)   # 0.7 % as printed
    said = (f"{name}'s loss {mine[0]:.3f}, then {mine[1]:.3f} after one AdamW step, against fp32's {ref[0]:.3f} "
            f"and {ref[1]:.3f} (the same weights at the start, the same batch): {off:.1%} off at most")
    reason = "bf16 keeps 8 significant bits (fp16 11), and a step adds up many roundings of up to 0.4 % each"
    if off <= tolerance:
        return (f"{said}, within the {tolerance:.0%} allowed ({reason}): it trains as fp32's step does, so its "
                "memory saving counts (one step shows the step is sound, not that a long run ends alike).")
    return (f"{said}, beyond the {tolerance:.0%} allowed ({reason}): it does not train as fp32's step does, so "
            "its memory saving does not count as it stands.")


def rounds_table(rounds: dict[str, list[float]], name: str, reference: str, title: str) -> Table:
    """Each interleaved round's two step times (ms, 0.1 ms, as the fastest runs print) and their ratio,
    ``name`` x ``reference`` (above 1: slower), worked from the printed times and printed to 2 decimals, as the
    verdict reads them (``measure.round_ratios``): the rounds a median and a ± are read from, printed so that
    a reader can redo both (lesson 06)."""
    ratios = round_ratios(rounds, name, reference)
    rows = [(k, f"{a * 1e3:.1f}", f"{b * 1e3:.1f}", f"{r:.2f}x")
            for k, (a, b, r) in enumerate(zip(rounds[reference], rounds[name], ratios), 1)]
    return Table(["round", f"{reference} (ms)", f"{name} (ms)", "ratio"], rows, title=title)


def rounds_rule(rounds: dict[str, list[float]], name: str, reference: str, floor: float = 0.02,
                fastest: bool = True) -> str:
    """How ``measure.step_ratio``'s figure and ± come from ``rounds_table``'s ratios as printed: their median,
    and ``claims.printed_spread`` (half the middle half's range from 4 rounds on, half the range below that),
    at least ``floor`` (the lesson's 2 %), worked out; and what the fastest step of each divides to where that
    prints otherwise (the two come from different rounds, or one round's own), so that the table's ms never
    read as the sentence's ratio; ``fastest=False`` where no table prints both steps' ms (lesson 06)."""
    median = step_ratio(rounds, name, reference, floor)[0]
    said = (f"Each round ran the two steps back to back. The ratio is the median of these {len(rounds[name])} "
            f"rounds' own ratios, " + _median_working(rounds, name, reference, floor))
    return said + (_fastest_apart(rounds, name, reference, median) if fastest else "")


def _median_working(rounds: dict[str, list[float]], name: str, reference: str, floor: float) -> str:
    """``rounds_rule``'s working for one pair: "1.17x; its ± is half the middle half's range, at least 0.02
    (2 %): (1.19 - 1.15) / 2 = 0.020, ± 0.02"; the floor named wherever the spread, unrounded, is under it
    (0.015 is, though it prints 0.02: ``noise_name`` reads it the same way, t32_0506 #5)."""
    median, spread, each = step_ratio(rounds, name, reference, floor)
    low, high, how, half = _spread_working(each)
    return (f"{median:.2f}x; its ± is {how}, at least {floor:.2f} (2 %): ({high:.2f} - {low:.2f}) / 2 = "
            f"{half:.3f}" + (f", under the floor, so ± {floor:.2f}" if half < floor else f", ± {spread:.2f}"))


def _spread_working(each: list[float]) -> tuple[float, float, str, float]:
    """The rounds' ratios as printed (2 decimals): the two the ± is worked from (the middle half's ends from 4
    rounds on, else the extremes), how they were picked, and half their difference to 3 decimals, unrounded
    to the printed 2."""
    shown = sorted(claims.as_printed(r, 2) for r in each)
    if len(shown) >= 4:
        quarter = len(shown) // 4
        low, high, how = shown[quarter], shown[-1 - quarter], "half the middle half's range"
    else:
        low, high, how = shown[0], shown[-1], "half their range (fewer than 4 rounds)"
    return low, high, how, claims.half_up((high - low) / 2, 3)


def unrounded_spread(each: list[float]) -> float:
    """The rounds' ± before its rounding to 2 decimals, as ``rounds_rule`` works it: (1.21 - 1.18) / 2 =
    0.015, which prints ± 0.02 but lies under a 0.02 floor; ``summary.noise_name`` takes it, so that the page
    names the floor wherever its working does (t32_0506 #5). Lesson 06."""
    return _spread_working(each)[3]


def pairs_table(rounds: dict[str, list[float]], pairs: list[tuple[str, str]], title: str) -> Table:
    """``rounds_table`` for several pairs timed in the same rounds: each call's time in each round (ms, 0.1 ms)
    and each pair's own ratio, ``name`` / ``reference`` (``measure.round_ratios``), so that every median and ±
    the page prints from these rounds is a reader's to redo (lesson 06, section 2's three step times)."""
    paired = {n for pair in pairs for n in pair}
    names = [n for n in rounds if n in paired]   # each call once, in the order the rounds timed them
    ratios = [round_ratios(rounds, name, reference) for name, reference in pairs]
    rows = [(k, *(f"{rounds[n][k - 1] * 1e3:.1f}" for n in names), *(f"{r[k - 1]:.2f}x" for r in ratios))
            for k in range(1, len(rounds[names[0]]) + 1)]
    return Table(["round", *(f"{n} (ms)" for n in names), *(f"{a} / {b}" for a, b in pairs)], rows, title=title,
                 wrap=14)


def pairs_rule(rounds: dict[str, list[float]], pairs: list[tuple[str, str]], floor: float = 0.02) -> str:
    """``rounds_rule`` for ``pairs_table``: each pair's median and ± worked out, and, where it prints
    otherwise, what the fastest time of each divides to (they may come from different rounds)."""
    said = [f"{name} / {reference}: " + _median_working(rounds, name, reference, floor)
            + _fastest_apart(rounds, name, reference, step_ratio(rounds, name, reference, floor)[0])
            for name, reference in pairs]
    return ("The calls took turns in each round. Each ratio is the median of the rounds' own ratios. "
            + ". ".join(said) + ".")


def median_rule(rounds: dict[str, list[float]], name: str, reference: str, what: str,
                floor: float = 0.02, fastest: str = "as the ms parts use") -> str:
    """How a pair's figure is read where the prediction takes its rounds' median (``policy_cost.policy_costs``):
    "{what} is the rounds' median, as the prediction reads it: 1.10x; its ± is half the middle half's range, ...
    ± 0.05", then any round lying far outside the rest (``outlying_clause``: t28_0506), then the fastest of
    each, "26.3 / 22.1 = 1.19x, {fastest}, is not the prediction's figure (both from round 6, that round's own
    ratio, not the median)", its rounds named from the table (``fastest_source``: t39_0506 #3), so
    that a reader redoing the prediction from the page uses the median, not the fastest (t34_0506 #2: the
    caption called the fastest "the figure" though the prediction read the median). ``fastest``: where the page
    prints or uses that pair's fastest runs (the ms parts; the step times' first table)."""
    median, spread, each = step_ratio(rounds, name, reference, floor)
    slow, fast = (claims.as_printed(min(rounds[k]) * 1e3, 1) for k in (name, reference))
    return (f"{what} is the rounds' median, as the prediction reads it: "
            + _median_working(rounds, name, reference, floor)
            # no clause here names the rounds across 1x: the outlying clause names them itself (t35_0506 #2)
            + outlying_clause(list(enumerate(each, 1)), median, spread, across_named=False)
            + f". The fastest of each, {slow:.1f} / {fast:.1f} = {claims.half_up(slow / fast, 2):.2f}x, {fastest}, "
              f"is not the prediction's figure ({fastest_source(rounds, name, reference)}, not the median)")


def _fastest_apart(rounds: dict[str, list[float]], name: str, reference: str, median: float) -> str:
    """``rounds_rule``'s last clause: the fastest step of each, divided as printed (the rounds' table's ms), where
    it prints otherwise than the rounds' median; the rounds they came from named, every round that prints the
    fastest ms where two tie ("rounds 2 and 3, alike as printed"), as a reader finds them in the table. ""
    where it prints alike."""
    slow, fast = min(rounds[name]), min(rounds[reference])
    fastest = claims.printed_ratio(slow, fast, 1, 1e-3)
    if f"{fastest:.2f}" == f"{median:.2f}":
        return ""
    return (f". The fastest runs of each (the rounds' table above) divide to {slow * 1e3:.1f} / {fast * 1e3:.1f}"
            f" = {fastest:.2f}x ({fastest_source(rounds, name, reference)}): the verdict reads the rounds pair by "
            "pair")


def fastest_source(rounds: dict[str, list[float]], name: str, reference: str) -> str:
    """Where the fastest time of each came from, as a reader finds it in the rounds' table: "both from round 6,
    that round's own ratio", or "from different rounds, a: round 7; b: round 5"."""
    mine, ref = _fastest_rounds(rounds[name]), _fastest_rounds(rounds[reference])
    both = sorted(set(mine) & set(ref))   # one round fastest for both, as printed: that round's own ratio
    if both:
        return f"both from round {both[0]}, that round's own ratio"
    return f"from different rounds, {name}: {_rounds_words(mine)}; {reference}: {_rounds_words(ref)}"


def _fastest_rounds(times: list[float]) -> list[int]:
    """The rounds (from 1) whose time prints as the fastest one (ms, 0.1 ms): two rounds may print alike."""
    shown = [claims.as_printed(t * 1e3, 1) for t in times]
    return [k for k, t in enumerate(shown, 1) if t == min(shown)]


def _rounds_words(numbers: list[int]) -> str:
    """"round 3", or "rounds 2 and 3, alike as printed" where the fastest ms print the same in both."""
    if len(numbers) == 1:
        return f"round {numbers[0]}"
    return f"rounds {', '.join(map(str, numbers[:-1]))} and {numbers[-1]}, alike as printed"


def same_step_apart(name: str, here: float, there: float, there_name: str, beside: str,
                    floor: float = 0.02) -> str:
    """One step timed in two sections, its fastest round here (``here``, seconds) against ``there`` (another
    section's fastest), worked from the ms as the tables print them (0.1 ms) and the gap printed to 0.1 %
    (half up): within the lesson's ``floor`` (2 %), the same step timed again; beyond it, said with its likely
    cause, so that a reader comparing tables meets no unexplained figure (lesson 06):
    "one batch's fastest round here, 89.0 ms, is 6.1% above section 2's plain step (83.9 ms), beyond the
    lesson's 2 % noise: ..."."""
    mine, theirs = claims.as_printed(here * 1e3, 1), claims.as_printed(there * 1e3, 1)
    gap = claims.half_up((mine / theirs - 1) * 100, 1) + 0.0
    said = f"{name}, {mine:.1f} ms, "
    said += (f"prints as {there_name} ({theirs:.1f} ms)" if gap == 0 else
             f"is {abs(gap):.1f}% {'above' if gap > 0 else 'below'} {there_name} ({theirs:.1f} ms)")
    if abs(gap) <= floor * 100:
        return said + f", within the lesson's {floor:.0%} noise: the same step, timed again"
    return (said + f", beyond the lesson's {floor:.0%} noise, for the same model, batch and step. A step's time "
            f"moves with the steps it takes turns with ({beside}) and with the machine's load (neither timed "
            "apart here); every ratio on this page divides steps timed in the same rounds, never a time from another "
            "section")
