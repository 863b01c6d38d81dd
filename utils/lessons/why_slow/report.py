"""Lesson 01's sentences and "How this was measured" tables, printed from the run (never typed in).

The notebook shows the technique (``flops``, ``roofline``, ``transfers``...); this module turns what it measured
into the one sentence each section answers with, and into the tables of its collapsed block. Every figure in a
sentence comes from the objects passed in; where a sentence compares with a bound, the bound is named.
"""

from __future__ import annotations

import textwrap

from utils import claims, devices
# lesson 00's rough rule and threads reading
from utils.lessons.start_here.summary import ROUGH, is_rough, threads_reading
from utils.lessons.why_slow.link_report import (  # noqa: F401 - section 3's, re-exported for the notebook
    COST_COLUMNS,
    LESSON00_RUN,
    THIS_FIT,
    cost_rows,
    latency_figures_sentence,
    link_against_profile,
    link_shape_sentence,
    link_sentence,
    link_table,
    mostly_latency_verdict,
    noisy_piece_sentence,
    profile_line_claim,
)
from utils.lessons.why_slow.between_runs import between_runs_sentence  # noqa: F401 - section 3's, re-exported
from utils.lessons.why_slow.mfu_report import (  # noqa: F401 - section 1's, re-exported for the notebook
    PALM_MFU, gflops, mfu_median, mfu_notes, mfu_ratios, mfu_rounds_table, mfu_sentence, mfu_table, retimed_gap,
    retimed_mfu, retimed_ratios, step_flop_rate)
from utils.lessons.why_slow.memory_roof import (  # noqa: F401 - section 2's memory readings, re-exported
    apart_from_probe, crosses_roof, is_bandwidth_probe, memory_grade, memory_reading, memory_verdict, nearest_reading,
    other_crossings, probe_left_out, retimed_reading, retimed_share, roof_choice_sentence, shown_under, unshown_said)
from utils.lessons.why_slow.roofline import is_probe  # noqa: F401 - section 2's, re-exported
from utils.tables import Table

WIDTH = 110  # no visible output line is longer (the course's narrow-output rule)


def say(text: str) -> None:
    """Print one of the lesson's sentences, wrapped at ``WIDTH`` columns."""
    print(textwrap.fill(text, WIDTH))


def _gap(rate: float, other: float) -> float:
    """``rate`` over ``other``, less one, worked from the two as ``gflops`` prints them: 97.6 against 98.2 is -1%."""
    return claims.printed_ratio(rate, other, 1, 1e9) - 1


# --- the machine profile ------------------------------------------------------------------------------------


def profile_sentence(profile, S) -> str:
    """Which ceiling is which: on a CPU, one thread (beside the lesson's work) against all of them."""
    peak, bw = profile.peak("fp32"), profile.bandwidth()
    if S.on_gpu:
        text = f"{peak}; {bw}."
        if S.datasheet and "fp32" in S.datasheet.peak_flops:
            sheet = S.datasheet.peak_flops["fp32"]
            text += (f" The datasheet's fp32 peak, a bound, is {sheet / 1e12:.1f} TFLOP/s: the matmul reaches "
                     f"{peak.best / sheet:.0%} of it.")
        return text
    one, bw1 = profile.peak("fp32", S.measure_threads), profile.bandwidth(S.measure_threads)
    # each all-threads ceiling against one thread's, beside the core-count bound, by the course's noise rule
    readings = [threads_reading("fp32 matmul peak", one, peak), threads_reading("memory bandwidth", bw1, bw)]
    return (" ".join(readings) + f" Sections 1 and 2 time their work on {one.threads} thread and set it beside "
            f"the {one.threads}-thread ceilings; section 7 places the all-threads figures among the GPUs.")


def stream_sentence(stream_bytes: int, caches: dict[str, int]) -> str:
    """Where STREAM's arrays sit in this CPU's caches (lesson 00's regime rule: a working set within half a
    cache is counted in it), so that the memory bandwidth is named by whose rate it is."""
    from utils.plots import size_label

    # the profile's bandwidth is STREAM add (three arrays), its copy two: both footprints, the rule on the copy's
    sizes = (f"STREAM's arrays are {size_label(stream_bytes)} each (its copy touches {size_label(2 * stream_bytes)}, "
             f"its add {size_label(3 * stream_bytes)})")
    last = next((name for name in ("L3", "L2") if name in caches), None)
    if last is None:
        return f"{sizes}; this machine's cache sizes are not readable, so where they sit is not known."
    if 2 * stream_bytes > caches[last] // 2:  # a rule on sizes: lesson 00 sets STREAM beside a DRAM read
        return (f"{sizes}: more than half of the last cache ({last}, {size_label(caches[last])}), so by lesson "
                "00's regime rule it is counted as DRAM's rate; the rule goes by size, and lesson 00 sets STREAM "
                "beside a read of DRAM it measures, to look for a cache's share in it: its sentence says whether "
                "that run could tell.")
    return (f"{sizes}: within half of this machine's {last} ({size_label(caches[last])}), so by lesson 00's regime "
            f"rule the bandwidth may be {last}'s rather than DRAM's alone; an op whose bytes leave the {last} may "
            "run under the memory roof it gives.")


def stream_place(bw) -> str:
    """Where the arrays of ``bw`` (a STREAM ceiling, "STREAM add, 32 MiB arrays") sit in this CPU's caches, by
    the rule ``stream_sentence`` prints under the profile, in a few words for section 7."""
    import re

    found = re.search(r"(\d+) MiB arrays", bw.size)
    caches = devices.cpu_caches()
    last = next((name for name in ("L3", "L2") if name in caches), None)
    if found is None or last is None:
        return "whose arrays' place in its caches is not readable, so it and this ridge may not be DRAM's"
    if 2 * int(found.group(1)) * 2**20 > caches[last] // 2:
        return (f"whose arrays by size leave its {last}: counted as DRAM's by lesson 00's regime rule, as the "
                "sentence under the profile says")
    return f"whose arrays fit within half its {last}, so it and this ridge may be {last}'s rather than DRAM's"


def datasheet_table(profile, S) -> Table | None:
    """On a GPU: each measured peak beside its datasheet bound (None on a CPU: no datasheet is readable)."""
    if not S.datasheet:
        return None
    rows = []
    for c in profile.ceilings:
        sheet = (S.datasheet.peak_flops.get(c.dtype) if c.kind == "matmul peak" else S.datasheet.memory_bandwidth)
        rows.append((c.name, c.formatted(), f"{sheet / 1e9:,.0f} G{c.unit}" if sheet else "not in the datasheet",
                     f"{c.best / sheet:.0%}" if sheet else ""))
    return Table(["ceiling", "measured", "datasheet (bound)", "share"], rows, title=f"{S.datasheet.name} datasheet")


# --- section 2: the roofline --------------------------------------------------------------------------------


def roofline_sentence(roof) -> str:
    """Section 2's visible answer: the ridge and which side of it each op lies on, by count. What each op met in
    this run (its share of its roof) is read in the block (``roofline_readings``; t42_0001: 335 visible words)."""
    c = roof.ceilings
    memory = [p.op.name for p in roof.points if p.bound == "memory"]
    matmuls = [p for p in roof.points if p.bound == "compute"]
    ridge = claims.printed_ratio(c.flops, c.bandwidth, 1, 1e9)  # the two ceilings as the profile prints them
    return (f"Ridge point: {ridge:.1f} FLOPs per byte ({c.peak_name} over {c.bandwidth_name}). Memory-bound "
            f"by the roofline's count (intensity below the ridge): {', '.join(memory) or 'none'}. Compute-bound by "
            f"count: {', '.join(p.op.name for p in matmuls)}. Which limit an op met in this run is its "
            "share of its roof: the plot, and the block below, which reads each.")


def roofline_readings(roof) -> str:
    """The block's reading of the shares: the largest matmul against the peak, the memory-bound op nearest its roof
    (never the roof's own probe, read apart), and whether the roof's bandwidth is rough."""
    matmuls = [p for p in roof.points if p.bound == "compute"]
    others, probes = apart_from_probe(roof.points, roof)  # the roof's own probe is no evidence about it
    nearest = max(others or probes, key=lambda p: p.fraction)
    l3 = devices.cpu_caches().get("L3") if roof.threads is not None else None
    probe = "".join(" " + memory_reading(p, roof, l3) for p in probes if p is not nearest)
    largest = largest_matmul_reading(max(matmuls, key=lambda p: p.op.flops), roof.peak, roof.from_profile,
                                     next(iter(roof.retimed), None))
    return (largest + nearest_reading(nearest, roof, l3) + probe + rough_roof_sentence(roof)).strip()


def rough_roof_sentence(roof) -> str:
    """Where the memory roof's bandwidth spread over ROUGH in the profile, that every share of it is rough."""
    rough = rough_spreads([("its", roof.bandwidth)])
    # the threshold named by what it means (t30_0001: "over lesson 00's 50%" left a newcomer to guess)
    return (f" The roof's bandwidth is rough ({rough} in the profile, over the {ROUGH:.0%} past which lesson 00 "
            "calls a figure rough): every share "
            "of it here is good to that range, not to its digits." if rough else "")


def rough_spreads(named) -> str:
    """For a verdict that uses measured ceilings (``named``: (label, ceiling) pairs): "" where every spread is
    within lesson 00's ROUGH, else the rough ones with their spreads ("bandwidth spread 69%"): over ROUGH, a
    figure is good to its range, not to its digits. Each spread half up (``claims.percent``), judged as printed."""
    return " and ".join(f"{label} spread {claims.percent(c.spread)}" for label, c in named if is_rough(c.spread))


def largest_matmul_reading(largest, peak, from_profile: bool = False, retimed=None) -> str:
    """The largest matmul against its roof. When it is the peak's own probe (same n x n x n), the two are one
    kernel timed twice: in the same rounds, their ratio shows timing noise; against the stored profile, how far
    this moment differs from the profile's (noise and load), not a finding."""
    share = f"The largest matmul reaches {claims.percent(largest.fraction)} of its roof"
    if is_probe(largest, peak) and from_profile and retimed is not None:
        return (f"{share} ({gflops(largest.achieved)}); it is the same {peak.size} kernel as the peak's probe, "
                f"which ran at {gflops(retimed.best)} in the same rounds ({claims.signed_percent(_gap(largest.achieved, retimed.best))}:"
                f" one kernel timed twice at one moment). The roof's {gflops(peak.best)} was timed at another moment, "
                f"when the profile was made (its probe spread {peak.spread:.0%} there): how far these two sit from "
                "it is how the two moments differ, not a finding. ")
    if is_probe(largest, peak) and from_profile:
        return (f"{share}; it is the same {peak.size} kernel as the profile's probe, so its share is this moment "
                f"against the profile's (the probe's spread there: {peak.spread:.0%}), not a finding. ")
    if is_probe(largest, peak):
        return (f"{share}; it is the roof's own probe ({peak.size}), one kernel timed twice in the same rounds, so "
                f"the gap from 100 % is this machine's timing noise (the probe's spread: {peak.spread:.0%}). ")
    return f"{share}. "


def roofline_notes(roof, profile) -> list[str]:
    c = roof.ceilings
    notes = [f"The roof's probes and the {len(roof.points)} ops ran in the same interleaved rounds "
             f"(utils.machine.measure_ceilings), each keeping its fastest run: {roof.peak} (spread "
             f"{roof.peak.spread:.0%}); {roof.bandwidth} (spread {roof.bandwidth.spread:.0%}), the faster of "
             f"STREAM's copy and add. Spread: (slowest - fastest) / median of a measurement's runs."]
    if roof.from_profile:
        notes[0] = (f"The roof is the machine profile's ({profile.measured}): {roof.peak}; {roof.bandwidth}. Its "
                    f"probes ran again in the same interleaved rounds as the {len(roof.points)} ops "
                    "(utils.machine.measure_ceilings), each keeping its fastest run: " + "; ".join(
                        f"{c.kind}, {roof.RETIMED} ({c.size.split(', ')[0]}): {c.formatted()}, "
                        f"{claims.signed_percent(claims.printed_ratio(c.best, theirs.best, 1, 1e9) - 1)} from the profile's "
                        f"(spread {c.spread:.0%})"
                        for c, theirs in zip(roof.retimed, (roof.peak, roof.bandwidth)))
                    + ". The roof is made of the profile's figures, so the ridge follows from the ceilings "
                    "printed at the top; the re-timing shows how far this moment's load moved them. Spread: "
                    "(slowest - fastest) / median of a measurement's runs.")
    for mine in (() if roof.from_profile else (roof.peak, roof.bandwidth)):
        theirs = profile.find(mine.kind, mine.dtype, mine.threads)
        moment = ("the same probe at another moment" if theirs.name == mine.name else
                  "the same probes at another moment; the other STREAM kernel was the faster there")
        notes.append(f"The machine profile measured {theirs}. These rounds measured {mine} ({moment}).")
    above = [p for p in roof.points if p.above_roof]
    for p in above:
        notes.append(f"{p.op.name}: {claims.percent(p.fraction)} of its roof, more than its {p.spread:.0%} spread. "
                     + _above_why(p, roof))
    if not above:
        notes.append("No point sits above its roof by more than its own spread.")
    notes.append(f"Roof: min({gflops(c.flops)}, intensity x {c.bandwidth / 1e9:.1f} GB/s).")
    return [roofline_readings(roof)] + notes  # the shares read first, then how they were measured


def compute_above_grade(point, roof) -> str:
    """One word for a compute-bound op above its roof by more than its spread, that the notes and the closing
    table both read: "probe" (the roof's own kernel, timed twice); "moment" (no faster, as printed, than the
    probe re-timed in its rounds: the profile's peak met a slower moment); "smaller" (it beat that probe too,
    and is smaller than it: its operands may stay in a core's caches); "unexplained" (no smaller, yet faster)."""
    again = roof.retimed[0] if roof.from_profile and roof.retimed else None
    if is_probe(point, roof.peak):
        return "probe"
    if again is not None and round(point.achieved / 1e9, 1) <= round(again.best / 1e9, 1):
        return "moment"
    return "smaller" if point.op.flops < 2 * roof.peak_size**3 else "unexplained"


def _above_why(point, roof) -> str:
    """Why a point can pass a roof made of measured ceilings (references, not bounds): for a compute-bound op,
    the reading its ``compute_above_grade`` gives."""
    if point.bound == "memory":
        return memory_reading(point, roof)
    again = roof.retimed[0] if roof.from_profile and roof.retimed else None
    beside = f", timed beside it in the same rounds at {gflops(again.best)}" if again else ""
    grade = compute_above_grade(point, roof)
    if grade == "probe" and again is None:
        return (f"It is the roof's own probe ({roof.peak.size}), one kernel timed twice in the same rounds: the "
                "gap is this machine's timing noise, not a finding.")
    if grade == "probe":
        return (f"It is the roof's own probe ({roof.peak.size}) timed twice: {roof.RETIMED} ran at "
                f"{gflops(again.best)} ({claims.signed_percent(_gap(point.achieved, again.best))}), so its share is this moment "
                "against the profile's, not a finding.")
    if grade == "moment":
        return (f"It ran no faster than the {roof.peak.size} matmul that measured the peak{beside}: it passed "
                "the profile's peak because this moment ran faster than the profile's, not a finding about it.")
    if grade == "smaller":
        return (f"It ran faster than the {roof.peak.size} matmul that measured the peak{beside}: a smaller "
                "matmul's operands stay in a core's caches, or the peak's runs met a busier moment than this op's.")
    return (f"It ran faster than the {roof.peak.size} matmul that measured the peak{beside}, though it is no "
            "smaller: this run does not measure why (the peak's runs may have met a busier moment than this op's).")


# --- section 4: scaling: in scaling_report, re-exported for the notebook ---------------------------------
from utils.lessons.why_slow.scaling_report import (  # noqa: E402, F401
    SCALING_COLUMNS, FOLLOWS, scaling_rows, scaling_holds, scaling_failures, axis_readings, holds_count,
    scaling_verdict,
    fixed_costs, fixed_costs_differ, fixed_cost_sentence, scaling_sentence, flat_and_fit_sentence, activations_sentence,
)


# --- section 5: algorithms: in algorithms_report, re-exported for the notebook ------------------------------
from utils.lessons.why_slow.algorithms_report import (  # noqa: E402, F401
    COMPARISON_COLUMNS, comparison_rows, comparison_summary, same_result_said, verdict_word, ceiling_said,
    comparison_table, algorithms_sentence, algorithms_answer, algorithms_count, fused_bandwidth_sentence, payback,
    payback_range, payback_sentence, rounds_sentence, speedup_text, median_overshoots, saving_ceiling, ACROSS,
    across, speedup_claim,
)


def payback_claim(compile_seconds: float, gain) -> "Claim":
    """The closing table's row for torch.compile's payback, from the figures section 5 printed (``payback``).
    The lesson times a few rounds, never the hundreds of calls a payback takes, so the verdict says it is worked,
    not run: a payback never run is not "holds" (reader t38_0001 #2). The saving is not "at most" the fastest
    times' difference: a slowed round saved more; it is the saving at the fastest times."""
    from utils.claims import Claim
    first, saved, calls = payback(compile_seconds, gain)
    span = payback_range(compile_seconds, gain) if calls is not None else None
    how = " at the fastest times (their difference)" if calls is not None and median_overshoots(gain) else ""
    saved_said, calls_said = f"{saved:.1f} ms saved a call{how}", f"after {calls or 0:,} calls"
    if span:  # the range across the rounds' middle half, as section 5's sentence prints it
        least, most, fewest, longest = span
        named = across(gain)  # the middle half, or the range known where the rounds disagree (t33_0001 #1)
        saved_said += f" ({least:.1f} to {most:.1f} {named})"
        calls_said += f" ({fewest:,} to {longest:,} {named})" if longest else f" ({fewest:,} or more {named})"
    if calls is None:
        said = (f"does not hold: its saving a call is {gain.verdict}" if not gain.faster else
                "does not hold: its saving a call prints as 0.0 ms")
    else:
        said = f"not run here (a few rounds timed): worked from the times, it pays back {calls_said}"
    return Claim("torch.compile pays back its compile", f"{first:.1f} s to compile", saved_said, said)


def plus_minus_note(U, step) -> str:
    """What each ± of the closing table means (each is defined where it first appears; this gathers them)."""
    # one measure, one name: "spread" is (slowest - fastest) / median (section 1), not these ±
    return (f"In the table, a speed-up is the median of its rounds' own ratios, with their middle half (or, "
            f"where its rounds disagree, the range that is known); after the matmul share, ± is half the middle "
            f"half's range of the {len(step.matmul_shares)} profiled steps. "
            f"The MFU is the median of "
            f"{len(U.mfus)} rounds, which ran from {min(mfu_ratios(U)):.0%} to {max(mfu_ratios(U)):.0%}.")


# --- section 7: the hardware claims -------------------------------------------------------------------------


def memory_bound_sentence(roof, rows) -> str:
    """Section 2's memory-bound ops (as its table found them) against the lowest 16-bit ridge of the datasheet
    GPUs (``rows``: ``hardware.datasheet_rows()``): below it, an op is memory-bound on every one of them."""
    memory = [p for p in roof.points if p.bound == "memory"]
    if not memory:
        return "No op of section 2 was memory-bound here, so the table says nothing of bandwidth's share."
    lowest = min(r[5] for r in rows)
    top = max(p.op.intensity for p in memory)
    # every op at the top as printed, a tie named whole (t35_0001 other: gelu and layer norm both at 1.00)
    tops = " and ".join(p.op.name for p in memory if f"{p.op.intensity:.2f}" == f"{top:.2f}")
    text = (f"Section 2's {len(memory)} memory-bound ops here have intensities up to {top:.2f} FLOPs per byte "
            f"({tops})")
    over = [p.op.name for p in memory if p.op.intensity >= lowest]
    if not over:
        return (text + f", under every GPU's 16-bit ridge (the lowest {lowest:.0f}): each would be limited to at "
                f"most the memory's speed on all of them ({_against_limit(memory, roof)}), so bandwidth matters "
                "as much as FLOP/s.")
    return (text + f"; {', '.join(over)} reaches the lowest GPU ridge ({lowest:.0f}), so not every one of them "
            "would stay memory-bound on every GPU; the others would, so bandwidth matters as much as FLOP/s.")


def _against_limit(memory, roof=None) -> str:
    """Where section 2's memory-bound ops ran against their memory roof here, in words from their shares (as
    printed); with ``roof``, each one above it carries section 2's own verdict (``memory_verdict``), and the
    roof's own probe is left out of the count (``apart_from_probe``: one kernel timed twice)."""
    probes, unshown = [], []
    if roof is not None:
        memory, probes = apart_from_probe(memory, roof)
        if not memory:
            return f"here only {probe_left_out(probes)}"
        unshown = shown_under(memory, roof)[1]  # under one figure of the probe, above the other: not counted
    under = [p for p in memory if round(p.fraction, 2) <= 1 and p not in unshown]
    above = [p for p in memory if round(p.fraction, 2) > 1 and p not in unshown]
    text = f"here {len(under)} of {len(memory)} ran under that limit"
    text += f"; {probe_left_out(probes)}" if probes else ""  # section 7 prints it inside parentheses
    text += f"; which side is not shown for {unshown_said(unshown, roof)}" if unshown else ""
    if above and roof is not None:
        text += ("; above it, by section 2's reading: "
                 + "; ".join(f"{p.op.name} {memory_verdict(p, roof)}" for p in above)
                 + " (that roof is a reference, a rate measured here, which an op may pass)")
    elif above:
        text += ("; " + ", ".join(f"{p.op.name} at {claims.percent(p.fraction)}" for p in above)
                 + " above it: that roof is a reference, a rate measured here, which an op may pass")
    return text


def _named_at(ratios, ratio: float) -> str:
    """"16x (A100 PCIe 40GB, ..., A100 SXM 80GB)": a 16-bit / fp32 ratio as printed, with every GPU that prints
    it, so that one of several is not read as the only one (t24_0001: four A100s at 16x)."""
    names = [name for r, name in ratios if f"{r:.0f}" == f"{ratio:.0f}"]
    return f"{ratio:.0f}x ({', '.join(names)})"


def hardware_sentences(rows, ranges, pairs, profile, half: str, mine_name: str, roof) -> list[str]:
    """``rows``: ``hardware.datasheet_rows()``; ``ranges``/``pairs``: ``hardware.ridge_range`` and
    ``hardware.more_bandwidth_pairs``; ``profile``: the machine profile (this machine's row, on all threads);
    ``roof``: section 2's Roofline (its ridge, and on what it was measured)."""
    lo, hi, outliers = ranges
    odd = "; ".join(f"the {name} at {ridge:.0f} (its fp16 runs only {ratio:.0f}x its fp32: no tensor cores)"
                    for name, ridge, ratio in outliers)
    ratios = sorted((r[3] / r[1], r[0]) for r in rows)
    more = ", ".join(f"the {a} over the {b} (+{ratio - 1:.0%})" for a, b, ratio in pairs)
    fp32, top, bw = profile.peak("fp32"), profile.peak(half), profile.bandwidth()
    where = f"both on {bw.threads} threads" if bw.threads else "both on the GPU"

    def over(a: float, b: float) -> float:  # two of the profile's rates, as its table prints them (G-units)
        return claims.printed_ratio(a, b, 1, 1e9)

    c = roof.ceilings
    text = (f"{mine_name[0].upper()}{mine_name[1:]}: ridge {over(top.best, bw.best):.0f} FLOPs per byte ({half} "
            f"peak over bandwidth, {where}). Section 2's roofline has its ridge at {over(c.flops, c.bandwidth):.1f}: "
            f"{c.peak_name} over {c.bandwidth_name}. The two differ by the dtype "
            f"({half} runs {over(top.best, fp32.best):.1f}x fp32 here)")
    if roof.threads:
        one, bw1 = profile.peak("fp32", roof.threads), profile.bandwidth(roof.threads)
        text += (f" and by the threads ({fp32.threads} threads multiply the fp32 peak by "
                 f"{over(fp32.best, one.best):.2f} and the bandwidth by {over(bw.best, bw1.best):.2f}); beside "
                 f"the GPUs' memory, this CPU's bandwidth is STREAM's, {stream_place(bw)}")
    used = [(f"{half} peak", top), ("fp32 peak", fp32), ("bandwidth", bw)]
    if roof.threads:
        used += [("1-thread fp32 peak", one), ("1-thread bandwidth", bw1)]
    if rough_spreads(used):
        text += f" ({rough_spreads(used)} in the profile, over {ROUGH:.0%}: read these figures as rough)"
    return [
        f"The datasheet GPUs' 16-bit ridge points lie between {lo:.0f} and {hi:.0f} FLOPs per byte"
        + (f", except {odd}." if odd else ".") + " " + memory_bound_sentence(roof, rows),
        f"Same 16-bit compute, more bandwidth: {more}. The 16-bit rate is {_named_at(ratios, ratios[0][0])} "
        f"to {_named_at(ratios, ratios[-1][0])} the fp32 rate (the datasheets' plain fp32, not TF32: from "
        "the A100 on, tensor cores also "
        "run fp32 matmuls in TF32, a 10-bit mantissa, at half the 16-bit rate where torch allows it); the full "
        "16-bit factor goes to a model run in 16 bits.",
        text + ".",
    ]


# --- the measured-claims table ------------------------------------------------------------------------------


def roof_claim(claim: str, point, roof=None):
    """A point set beside its roof (made of measured ceilings: a reference). Above it by no more than its
    spread is noise; above by more is a finding (caches), and the verdict says so, unless (``roof`` given) a
    compute-bound op ran no faster than the probe re-timed beside it (``compute_above_grade``): then not."""
    from utils.claims import Claim

    share = f"{claims.percent(point.fraction)} of its roof"
    why = "caches" if point.bound == "memory" else "a finding, see section 2"
    moment = roof is not None and point.bound == "compute" and point.above_roof
    if moment and compute_above_grade(point, roof) == "moment":
        why = "no faster than the probe re-timed beside it: this moment against the profile's, not a finding"
    spread = claims.percent(point.spread)  # half up, as every share in the course
    verdict = (share if point.fraction <= 1 else f"{share}, above its {spread} spread: {why}"
               if point.above_roof else f"{share}, within its {spread} spread")
    verdict += f"; rough: its spread {spread}, over {ROUGH:.0%}" if is_rough(point.spread) else ""
    return Claim(claim, f"{point.achieved / 1e9:.1f} GFLOP/s", f"roof {point.ceiling / 1e9:.1f} GFLOP/s", verdict)


def compute_claim(roof):
    """The claims-table row for the compute roof: the largest compute-bound op that is not the roof's own probe
    (the probe against itself would be circular), or None where every compute-bound op is a probe."""
    ops = [p for p in roof.points if p.bound == "compute" and not is_probe(p, roof.peak)]
    if not ops:
        return None
    largest = max(ops, key=lambda p: p.op.flops)
    return roof_claim(f"the largest compute-bound op that is not the probe nears its roof ({largest.op.name})",
                      largest, roof)


def memory_claim(roof):
    """The claims-table row for the memory roof: every memory-bound op's share of it, as a range (no one op
    chosen), and how many stayed under it; the highest's verdict says whether write-allocate explains it. The
    roof's own probe is left out of the count and the range (``apart_from_probe``), and the row says so."""
    others, probes = apart_from_probe(roof.points, roof)
    ops = sorted(others or probes, key=lambda p: p.fraction)  # only the probe ran: its own verdict alone
    under, unshown = shown_under(others, roof)  # the count and each op's own reading (``memory_grade``) agree
    top = ops[-1]
    said = f"{len(under)} of {len(ops)} under the roof" if others else f"{top.op.name} {memory_verdict(top, roof)}"
    if others and round(top.fraction, 2) > 1 and top not in unshown:
        said += f"; {top.op.name} {memory_verdict(top, roof)}"
    said += f" ({probe_left_out(probes)})" if others and probes else ""
    said += f"; which side is not shown for {unshown_said(unshown, roof)}" if unshown else ""  # section 2's hedge
    rough = rough_spreads([("the roof's", roof.bandwidth)])  # lesson 00's rule for a spread over ROUGH
    said += f"; rough: {rough}, over {ROUGH:.0%}" if rough else ""
    from utils.claims import Claim

    return Claim(f"ops memory-bound by count (below the ridge) run at most near the memory roof, far under the "
                 f"peak ({len(ops)} ops)",
                 f"{claims.percent(ops[0].fraction)} - {claims.percent(top.fraction)} of the roof",
                 f"roof: intensity × {roof.ceilings.bandwidth / 1e9:.1f} GB/s", said)


def verdict(holds: bool, yes: str, no: str) -> str:
    """"holds: <yes>" or "does not hold: <no>": a claims-table verdict that follows the measurement."""
    return f"holds: {yes}" if holds else f"does not hold: {no}"


def one_thread_sentence(cores: int, threads: int | None) -> str:
    """Why the lesson times its work on ``threads`` (one) CPU thread, for this machine's core count."""
    if not threads:
        return "The work runs on torch's own thread count."
    if cores <= 2:
        return (f"This CPU has {cores} core{'s' * (cores != 1)}: work split over all of them waits for the "
                "slower half whenever anything else (the notebook, another program) takes a core, so every "
                f"timing here runs on {threads} thread, which a busy core slows only in proportion.")
    return (f"This CPU has {cores} cores: the work runs on {threads} thread so that one kernel's timing does not "
            "depend on how the others are shared; the all-threads ceilings are shown for section 7.")


def attention_backward_note(ratio: float) -> str:
    """Why the counter's attention backward can exceed the formula's 2x forward (both branches)."""
    if ratio > 2.05:
        return (f"Why above 2x: the fused (flash) attention kernel keeps no T x T scores for the backward, so its "
                f"backward recomputes them (QKᵀ again, one product) before the four gradient products (dV = PᵀdO, "
                f"dP = dO Vᵀ, dQ = dS K, dK = dSᵀ Q, with P the softmax and dS its gradient: 2x the forward's two); "
                f"five products over the forward's two make 2.50x, and the counter's {ratio:.2f}x "
                + ("is that" if abs(ratio - 2.5) <= 0.05 else "differs from it by more than rounding") + ". MFU "
                "counts the formula's model FLOPs, not recomputation, so the step's MFU leaves it out.")
    return (f"At {ratio:.2f}x the backward counted no recomputation of the scores beyond the formula's four "
            "gradient products (dV, dP, dQ, dK: 2x the forward's two).")
