"""Lesson 00's answers, as sentences and as the rows of its "What this lesson measured" table.

Introduced in lesson 00 (``notebooks/00_start_here.ipynb``): every sentence and row is built from this run's
figures (the machine profile, the copies, the messages and their fit), never written by hand.
"""

from __future__ import annotations

import datetime

from utils import claims
from utils.lessons.start_here import regimes
from utils.lessons.start_here.cache_copies import (  # noqa: F401  (section 2's cache readings, named here too)
    FIXED_DOMINATES, SMALLER_CACHE, above_cache_sentence, below_next_level, fixed_cost_bound, fixed_cost_words,
    fixed_cost_noted, fixed_share, in_cache_claim, inverted_references, inverted_sentence, memcpy_references,
    out_of_cache_sentence, set_apart_note, straddling, time_share)
from utils.lessons.start_here.line_check import (  # noqa: F401
    EDGE, LineCheck, check_line, cost_answer, kept_line_sentence, message_times_sentence, miss_text, misses,
    pattern_sentence, rate_change, rate_trend, shape_note)
from utils.lessons.start_here.cold_copy import (  # noqa: F401
    NOISE, NOISE_SAID, Passed, copies_above_dram, near_reference, past_noise)
from utils.lessons.start_here.printed import (mean_of_two, micros, percent_shown, points, printed_accuracy,
                                              reference_text)
from utils.plots import size_label

# A fit whose worst residual is within this share is used to predict times; beyond it, only measured times.
FIT_USABLE = 0.5


def threads_sentence(profile) -> str:
    """Every core's fp32 matmul peak and memory bandwidth against one thread's, each beside the bound of the
    core count and judged by the course's noise rule (``threads_reading``)."""
    every = profile.peak("fp32")
    if every.threads in (None, 1):
        return f"{every.name}: {every.formatted()}."
    said = [threads_reading("fp32 matmul peak", profile.peak("fp32", threads=1), every)]
    many = [c for c in profile.ceilings if c.kind == "memory bandwidth" and c.threads == every.threads]
    ones = [c for c in profile.ceilings if c.kind == "memory bandwidth" and c.threads == 1]
    if many and ones:
        said.append(threads_reading("memory bandwidth", ones[0], many[0]))
    return " ".join(said)


# Why a ratio can pass the core count: hypotheses, each named as such (none is measured in the profile)
ABOVE_WHY = {
    "memory bandwidth": "Why it can pass one per core, likely but not measured here: one thread cannot keep "
                        "enough memory requests in flight to saturate the memory controller (its bandwidth is "
                        "latency-bound), so a second thread can more than double it; the one-thread figure is "
                        "then one thread's limit, not the memory's.",
    "fp32 matmul peak": "A likely explanation, not measured here: the one-thread rounds met a busier moment than "
                        "the others (the spreads in the table say how busy), or each thread's share of the "
                        "operands fits its own core's cache better than the whole did.",
}


def threads_ratio(one, many) -> tuple[float, float, float]:
    """(the ratio of the kept figures, its spread, the core count's ratio): ``many`` threads' ceiling over
    ``one``'s. The spread is how far the medians' ratio (``medians_ratio``) lies from the kept figures' ratio,
    worked from the two as printed (1.93x and 1.91x: 0.02); the core count's ratio is what each thread on its
    own core adds, one core's worth. The ratio is worked from the two ceilings as printed
    (``Ceiling.formatted``: G-units, one decimal), so 41.6 over 30.2 GB/s reads 1.38x."""
    ratio = claims.printed_ratio(many.best, one.best, 1, 1e9)
    gap = claims.half_up(abs(claims.half_up(ratio, 2) - medians_ratio(one, many)), 2)
    return ratio, gap, many.threads / one.threads


def medians_ratio(one, many) -> float:
    """``many`` threads' median over ``one``'s, as printed (two decimals, half up): the figure the ± after the
    kept figures' ratio is the distance to, printed beside it (t30_0001: "lies 0.02 from it" named no figure)."""
    return claims.half_up(many.median / one.median, 2)


# A matmul's FLOP/s come from the cores: each adds at most one core's worth, a bound. A memory bandwidth comes
# from the memory controller: one thread may not saturate it, so the core count is only a reference.
CORE_BOUND = {"fp32 matmul peak": True, "memory bandwidth": False}
# A ceiling whose runs spread more than this is rough (``noise_sentence``): its ratio gets no verdict.
ROUGH = 0.5


def is_rough(spread: float) -> bool:
    """A spread over ROUGH as printed (``claims.percent``, whole percent half up): 50.3% prints "50%", which is
    not over 50%, so it is not rough (t29_0001: the spread is printed beside "over 50%", and the two must agree)."""
    return claims.printed_percent(spread) > round(ROUGH * 100)
# The ± after a ratio in a claims table is not an uncertainty but the distance to the medians' ratio: said in
# words where the ratio is first printed (``threads_reading``)
PM_RATIO = "the two medians' ratio is {medians:.2f}x, {spread:.2f} from it: a distance, shown as ± in tables"


def threads_verdict(what: str, one, many) -> str:
    """The verdict of ``many`` threads against ``one``: none where either ceiling is rough; against the core
    count as a bound (matmul) with ``claims.speedup_verdict``, or as a reference (bandwidth), with its share."""
    ratio, spread, cores = threads_ratio(one, many)
    rough = [c for c in (one, many) if is_rough(c.spread)]
    if rough:
        spreads = " and ".join(f"{c.threads} thread{'' if c.threads == 1 else 's'} spread "
                               f"{claims.percent(c.spread)}" for c in rough)
        return f"no verdict: {spreads}, over {ROUGH:.0%}, so the ratio is rough"
    if CORE_BOUND.get(what, True):
        return claims.speedup_verdict(round(ratio, 2), round(cores, 2), round(spread, 2),
                                      slower="slower than one thread")
    verdict = claims.speedup_verdict(round(ratio, 2), None, round(spread, 2), slower="slower than one thread")
    if not verdict.startswith("faster"):
        return verdict
    if claims.within_noise(round(ratio, 2), round(spread, 2), round(cores, 2)):
        return "faster: at the reference (within noise)"
    return f"faster: {claims.printed_ratio(ratio, cores):.0%} of the reference"  # from the two as printed


def threads_reading(what: str, one, many) -> str:
    """One sentence per ceiling: ``many`` threads against ``one``, beside the core count (a bound for a matmul,
    a reference for a bandwidth), with ``threads_verdict`` and, past the core count, a likely explanation."""
    ratio, spread, cores = threads_ratio(one, many)
    verdict = threads_verdict(what, one, many)
    bound = CORE_BOUND.get(what, True)
    beside = (f"bound {cores:.0f}x: {many.threads} cores" if bound else
              f"reference {cores:.0f}x, one per core: not a bound, since one thread may not saturate the memory")
    text = (f"{many.threads} threads reach {ratio:.2f}x one thread's {what} ({many.formatted()} on {many.threads} "
            f"against {one.formatted()} on {one.threads} thread; {PM_RATIO.format(medians=medians_ratio(one, many), spread=spread)}; {beside}): "
            f"{verdict}.{gain_said(ratio, cores) if 'of its gain' in verdict else ''}")
    if round(ratio, 2) > round(cores, 2) and verdict.startswith("faster") and "within noise" not in verdict:
        return f"{text} {ABOVE_WHY.get(what, 'This run does not measure why.')}"
    if verdict.startswith("slower"):
        return (f"{text} Most likely another program used a core during these rounds: threads that share the "
                "work wait for the slowest of them.")
    return text


def gain_said(ratio: float, cores: float) -> str:
    """What "of its gain" means, worked where lesson 00 first prints it (t37 reading: "93% of its gain" came
    before the page said what the gain was): the share of the speed-up the bound allows that was reached, from
    one thread's 1x to the core count's, from the figures as printed."""
    return (f" 'Of its gain': how far the speed-up went from one thread's 1x toward the bound's {cores:.0f}x, "
            f"({ratio:.2f} - 1) / ({cores:.0f} - 1) = {claims.gain_share(round(ratio, 2), round(cores, 2))}.")


def profile_source(profile) -> str:
    """"the machine profile, measured on <date>" (or "measured in this run"): whose figures a row quotes."""
    when = profile.measured.split(" (")[0]
    return f"the machine profile, measured {when}"


def threads_claim(what: str, one, many) -> claims.Claim:
    """The closing table's row for ``threads_reading``: the same ratio, spread, core count and verdict."""
    ratio, spread, cores = threads_ratio(one, many)
    kind = "fp32 matmul peak" if "FLOP/s" in what else "memory bandwidth"
    against = "bound" if CORE_BOUND[kind] else "reference (one per core)"
    noise = f" ± {spread:.2f}" if round(spread, 2) > 0 else ""
    return claims.Claim(f"more cores, more {what}", f"{ratio:.2f}x{noise}", f"{against} {cores:.2f}x",
                        threads_verdict(kind, one, many))


def fit_verdict(accuracy: float) -> str:
    """A fit's worst residual against the tolerance within which the lesson predicts times with it, judged on
    the ± as printed (whole percent, half up): a 50.4% worst residual prints "50%" and is within the tolerance,
    as a reader reads it beside the fit table, not "outside by 0 points"."""
    shown = percent_shown(accuracy)  # the margin in points from the ± as printed: 50% - 30% = 20
    if shown > FIT_USABLE:
        return f"outside the tolerance by {points(shown - FIT_USABLE)}: measured times only"
    margin = FIT_USABLE - shown
    return (f"within the tolerance, {points(margin)} to spare" + (": barely, so its predictions are rough"
                                                                  if margin < 0.1 else ""))


def fit_usable(link) -> bool:
    """Whether the course predicts with ``link``'s fit (a ``machine.LinkFit``): its ± as the fit table prints it
    (``printed_accuracy``) within FIT_USABLE, so that a line drawn, a beta quoted and the verdict beside them
    read the one figure a reader sees."""
    return printed_accuracy(link) <= FIT_USABLE


def fit_source(link) -> str:
    """Whose fit ``link`` (a ``machine.LinkFit``) is: the machine profile's, with the date it was measured, or
    this run's (one the profile did not keep). Plot legends and tables name it so, never "this run" for a
    fit kept from an earlier run."""
    if "not kept" in link.measured or not link.measured.startswith("on "):
        return "this run's fit" + (", not kept" if "not kept" in link.measured else "")
    return f"the machine profile's fit, measured on {link.measured.removeprefix('on ').split(' (')[0]}"


def link_sentence(link, this_run=None) -> str:
    """The fit of the link's messages (the machine profile's, measured once), and whether it is good enough
    to predict times with. ``this_run``: this run's messages fitted; where they miss the kept line past its
    own error (``check_line``), the fit's ± is said to be the measuring run's, beside this run's worst miss."""
    acc, tol = printed_accuracy(link), FIT_USABLE  # the ± as the fit's residuals print (``printed_accuracy``)
    shown = percent_shown(acc)  # margins in points from the ± as printed
    check = check_line(link, this_run) if this_run is not None and this_run.seconds != link.seconds else None
    fit = (f"{link.name}, {fit_source(link)}: alpha "
           f"{link.fit.alpha * 1e6:,.1f} µs, beta {link.fit.beta / 1e9:.2f} GB/s. One alpha and one beta")
    within = f"±{claims.percent(acc)} ({RESIDUAL_PM})"
    if acc <= tol:
        barely = ": barely" if tol - shown < 0.1 else ""
        good = f"good to about ±{claims.percent(acc)}."
        if check is not None and check.grade in ("beyond", "one size", "one side"):
            good = (f"good to ±{claims.percent(acc)} on the run that measured it; this run's messages miss it "
                    f"by up to {miss_text(check.worst[3])} (below).")
        return (f"{fit} fit every size within {within}: inside the ±{tol:.0%} tolerance within which the course "
                f"predicts with a fit ({points(tol - shown)} to spare{barely}), so a time it predicts is {good}")
    return (f"{fit} fit every size only within {within}: outside the ±{tol:.0%} tolerance within which the "
            f"course predicts with a fit (by {points(shown - tol)}), so use the measured times, not the fit's.")


# What ± means after a fit's figure, said where it is first used
RESIDUAL_PM = "±: its largest miss at any size, relative to the measured time"


def rerun_link_sentence(kept, this_run) -> str:
    """This run's messages fitted the same way, beside the profile's link (named apart, with the difference),
    then the line test and the plot's note, each on its own line ("\n" between: print each one wrapped)."""
    if kept.seconds == this_run.seconds and "not kept" in kept.measured:
        return ("Not kept: the profile keeps a fit only once it is within the tolerance, so the next run "
                "measures the link again.")
    if kept.seconds == this_run.seconds:
        return "This run measured it and kept it in the profile: later runs quote these figures."
    # from the figures as printed: alpha in µs to 1 decimal, beta in GB/s to 2
    da = claims.printed_ratio(this_run.fit.alpha, kept.fit.alpha, 1, 1e-6) - 1
    db = claims.printed_ratio(this_run.fit.beta, kept.fit.beta, 2, 1e9) - 1
    acc, tol = printed_accuracy(this_run), FIT_USABLE  # the largest residual of the fit table beside it
    shown = percent_shown(acc)  # margins in points from the ± as printed
    verdict = (f"inside the ±{tol:.0%} tolerance ({points(tol - shown)} to spare)" if acc <= tol else
               f"outside the ±{tol:.0%} tolerance by {points(shown - tol)}: so this fit is not used to predict")
    return (f"This run's messages, fitted the same way (not kept): alpha {this_run.fit.alpha * 1e6:,.1f} µs "
            f"({claims.signed_percent(da)}), beta {this_run.fit.beta / 1e9:.2f} GB/s ({claims.signed_percent(db)}), every size within ±{claims.percent(acc)}: "
            f"{verdict} (how its misses run: the note under the fit table below).\n{kept_line_sentence(kept, this_run)}\nThe plot shows "
            "this run's messages beside the profile's line; set REMEASURE_PROFILE = True to keep a new fit.")


def lesson_claims(profile, points, messages, link, passed: list[Passed], caches: dict[str, int] | None = None,
                  dram_read_bytes: int | None = None, this_run=None) -> list[claims.Claim]:
    """The rows of the lesson's closing table, for whatever this mode measured. ``caches``: the CPU's cache
    sizes (``devices.cpu_caches()``), so that the in-cache row is a copy wholly in its regime;
    ``dram_read_bytes``: the buffer DRAM's read rate was measured on, which names what the copies out of DRAM
    are set beside (``dram_reference_name``); ``this_run``: this run's messages fitted (a ``machine.LinkFit``),
    set beside the profile's line by ``check_line`` where the profile's link is an earlier run's."""
    rows = []
    every = profile.peak("fp32")
    if every.threads and every.threads > 1:
        one = profile.peak("fp32", threads=1)
        rows.append(threads_claim(f"fp32 FLOP/s ({profile_source(profile)})", one, every))
        many = [c for c in profile.ceilings if c.kind == "memory bandwidth" and c.threads == every.threads]
        ones = [c for c in profile.ceilings if c.kind == "memory bandwidth" and c.threads == 1]
        if many and ones:
            rows.append(threads_claim(f"memory bandwidth ({profile_source(profile)})", ones[0], many[0]))
    above = {p.size for p in passed}  # a copy above DRAM's reference gets its own row, with its cold copy
    bounded = [p for p in points if p.is_bound and p.bound and p.size not in above]
    largest = max(bounded, key=lambda p: p.size, default=None)
    if largest is not None:  # GPU paths: a datasheet peak, a bound
        rows.append(claims.against_bound(f"a {size_label(largest.size)} copy ({largest.path}) stays under its bound",
                                         largest.rate, largest.bound, "GB/s", 1e9))
    dram = [p for p in points if p.regime == "DRAM" and not p.is_bound and p.size not in above]
    if dram:
        big = max(dram, key=lambda p: p.size)
        ref = dram_reference_name(dram_read_bytes, caches)
        rows.append(claims.Claim(f"a {size_label(big.size)} copy out of DRAM against {ref}",  # its own digits
                                 f"{big.rate / 1e9:.2f} GB/s", f"reference {reference_text(big.bound, big.dram)} GB/s",
                                 f"{claims.percent(big.fraction_of_bound)} of the reference"))
    for p in passed:  # above as section 2 grades it: past the noise, else at or just above (t28_0001 #2)
        where = "above" if past_noise(p.warm_shown) else "at or just above"
        said = (f"a {size_label(p.size)} copy out of DRAM {where} its reference ({claims.percent(p.warm_shown)}), "
                "copied again cold: do caches explain it?")
        rows.append(claims.Claim(said,
                                 f"warm {p.warm_rate / 1e9:.2f} GB/s = {claims.percent(p.warm_shown)}, cold "
                                 f"{p.cold_rate / 1e9:.2f} GB/s = {claims.percent(p.cold_shown)}",
                                 f"reference {reference_text(p.bound, dram=True)} GB/s",
                                 p.verdict))
    cached = [p for p in points if not p.is_bound and p.bound and p.regime != "DRAM"]  # a cache's, not DRAM's
    slow = {id(p) for p, _, _ in below_next_level(points)}  # ran as if out of its cache: counted apart
    if [p for p in cached if id(p) not in slow]:
        row = in_cache_claim([p for p in cached if id(p) not in slow], caches, [p for p in cached if id(p) in slow],
                             low={a for a, *_ in inverted_references(points)}, fixed=fixed_cost_bound(points))
        rows.append(fixed_cost_noted(row, fixed_cost_bound(points)))
    if link is not None:
        rows.append(claims.Claim(f"one alpha and one beta describe {link.name}",
                                 f"±{claims.percent(printed_accuracy(link))} worst residual ({fit_source(link)})",
                                 f"tolerance ±{FIT_USABLE:.0%}", fit_verdict(printed_accuracy(link))))
        if this_run is not None and this_run.seconds != link.seconds:
            rows.append(check_line(link, this_run).claim(link.name))
    if messages:  # memcpy beside gloo: the copies section 2 kept in their regime (``memcpy_references``)
        mem = {p.size: p for p in memcpy_references(points)}
        pairs = [(g, mem[g.size]) for g in messages if g.size in mem]
        if pairs:
            g, m = max(pairs, key=lambda gm: gm[0].size)
            rows.append(claims.against_reference(f"a gloo message is slower than memcpy ({size_label(g.size)})",
                                                 g.rate, m.rate, "GB/s", 1e9, digits=2))
    return rows


def percent(share: float) -> str:
    """A share to the percent, or to a tenth where it is the mean of two printed percents: 94.5%, not 94%."""
    return f"{share:.1%}" if round(share * 1000) % 10 else f"{share:.0%}"


def copies_sentence(points, fixed_seconds: float | None = None, fixed_size: int = 64) -> str:
    """Section 2's answer: the copy out of DRAM against its bound, and the smallest copy's share of its
    cache's rate; ``fixed_seconds``: a ``fixed_size``-byte copy timed the same way (its bytes take next to no
    time, so its time is the call's own fixed cost), which says how much of the smallest copy's time that is."""
    parts = []
    beyond = [p for p in points if p.bound and (p.is_bound or p.regime == "DRAM")]
    if beyond:
        big = max(beyond, key=lambda p: p.size)
        kind = "bound" if big.is_bound else "reference"
        where = _against_reference(round(big.fraction_of_bound, 2))
        parts.append(f"Out of {big.regime or big.path} ({size_label(big.size)}): {big.rate / 1e9:.2f} GB/s, "
                     f"{big.fraction_of_bound:.0%} of its {kind} ({reference_text(big.bound, big.dram)} GB/s), "
                     f"{where}.")
    small = min(points, key=lambda p: p.size)
    if small.bound:
        said = (f"The smallest copy ({size_label(small.size)}) reaches {small.fraction_of_bound:.0%} of what it is "
                f"set beside: it takes {micros(small.seconds)} µs")
        if fixed_seconds:  # from the two µs as printed
            share = time_share(fixed_seconds, small.seconds)
            how_much = fixed_cost_words(share)  # "most" only above a printed 50%
            said += (f", {how_much} the call's own fixed cost: a {fixed_size}-byte copy, timed the same way, "
                     f"takes {micros(fixed_seconds)} µs ({share:.0%} of it).")
        else:
            said += "."
        parts.append(said)
    return " ".join(parts)


def _against_reference(shown: float) -> str:
    """Where the copy out of DRAM sits, from its share as printed (whole percent): above its figure only past the
    10% one noisy median may miss by (t27_0001: 108% was "above it"); a copy above 100% at all is copied again
    cold (``copies_above_dram``), so the sentence points there."""
    if past_noise(shown):  # in whole percents: 1.10 - 1 > 0.1 in floats (t28_0001 #1)
        return "above it: copied again cold below"
    if round(shown * 100) > 100:
        return f"at it (within the {NOISE:.0%} one noisy median may miss by): copied again cold below, to check"
    return "under it" if round(shown * 100) < 100 else "at it"


def cache_note(caches: dict[str, int], cores: int) -> str:
    """A virtual machine may report its host's whole last cache: say so when it is large for the cores."""
    l3 = caches.get("L3")
    if not l3 or l3 / max(cores, 1) <= 32 * 2**20:
        return ""
    return (f"This machine reports an L3 of {size_label(l3)} for {cores} cores: a virtual machine can report its "
            "host's whole L3, shared with other machines' cores, so a copy counted 'in L3' may run at DRAM speed.")


def stream_sentence(stream_bytes: int, caches: dict[str, int]) -> str:
    """Where the profile's STREAM arrays sit in this machine's caches, by section 2's rule (a working set
    within half a cache is counted in it): a bandwidth is DRAM's only when its arrays leave the last cache."""
    copy_set = 2 * stream_bytes  # STREAM copy touches a and c; add touches a, b and c
    sizes = (f"STREAM's arrays here are {size_label(stream_bytes)} each (its copy touches {size_label(copy_set)}, "
             f"its add {size_label(3 * stream_bytes)})")
    last = next((name for name in ("L3", "L2") if name in caches), None)
    if last is None:
        return f"{sizes}; this machine's cache sizes are not readable, so where they sit is not known."
    if copy_set > caches[last] // 2:  # by size alone: section 2 sets it beside DRAM's own read rate
        return (f"{sizes}: more than half of the last cache ({last}, {size_label(caches[last])}), so by size it is "
                "counted as DRAM's; section 2 sets it beside DRAM's own read rate, measured in this run.")
    return (f"{sizes}: within half of this machine's {last} ({size_label(caches[last])}). Counting the bytes a "
            f"loop touches as held by a cache while they fit in half of it (the rule section 2 applies to copies), "
            f"they may be served by {last}: the "
            # "may": the half-cache rule is a count, not a measurement (a VM may report its host's whole L3)
            "memory bandwidth above may be a rate beyond the smaller caches, not DRAM's alone (the profile keeps its "
            "arrays this size so that it is measured in seconds). Section 2 reads a buffer larger than the "
            f"{last} for DRAM's own rate.")


def _near_copy_said(passed, read: float) -> str:
    """Where no copy out of DRAM passed the read beyond noise: the fastest one (cold) with its figures, so that
    "no faster than that read" can be redone (t35_0001 other: the words alone could not be parsed); with no
    copy above the read at all, that."""
    near = max(passed, key=lambda p: p.cold_rate, default=None)
    if near is None:
        return "No copy of this run out of DRAM moved its bytes faster than that read"
    copy = 2 * claims.as_printed(near.cold_rate, 2, 1e9)  # its 2n, from its cold GB/s as printed
    above = claims.half_up(copy / read - 1, 2)
    side = f"{claims.percent(above)} above" if above > 0 else f"{claims.percent(-above)} below"
    return (f"This run's fastest copy out of DRAM, {size_label(near.size)} cold, moved its 2n at {copy:.2f} GB/s, "
            f"{side} the read's {read:.2f} GB/s: within the {NOISE:.0%} one median may miss by")


def stream_against_dram(stream, points, read_bytes: int | None, caches: dict[str, int], passed=()) -> str:
    """The profile's STREAM figure (a ``machine.Ceiling``) beside this run's DRAM read (twice the DRAM copies'
    reference), and, where this run's own copy out of DRAM passed that read beyond noise (``passed``: the
    ``Passed`` copies, graded "low" when cold they pass it), beside that copy's 2n too: the fastest this run
    moved bytes out of DRAM (t27_0001 #2: "no kernel is faster than a read loop" beside a copy 11% faster).
    Above the fastest beyond STREAM's spread, STREAM is either not DRAM's alone or timed at a quieter moment:
    a run cannot tell which. Empty with no DRAM read."""
    dram = next((p for p in points if p.regime == "DRAM" and not p.is_bound and p.bound), None)
    last = next((name for name in ("L3", "L2") if name in caches), None)
    if stream is None or dram is None or last is None or not read_bytes or read_bytes <= caches[last]:
        return ""
    # the read to 2 decimals, as ``dram_reference_sentence`` prints it: a reader divides by the figure shown
    ours, read = claims.as_printed(stream.best, 1, 1e9), claims.as_printed(2 * dram.bound, 2, 1e9)
    head = (f"Section 1's {stream.name} ({ours:.1f} GB/s) against this run's DRAM read ({read:.2f} GB/s, a "
            f"buffer no cache holds): ")
    if ours <= read:
        return head + "at or below it, as a kernel that reads and writes DRAM should be: DRAM's rate."
    spread = claims.as_printed(stream.spread, 2)
    above = claims.half_up(ours / read - 1, 2)  # worked from the figures as printed, to the percent shown
    if above <= spread:  # at the edge where the two print alike (t28_0001: 54% "within" a 54% spread)
        where = "at the edge of" if above == spread else "within"
        return (head + f"{claims.percent(above)} above it, {where} STREAM's own {spread:.0%} spread: this run does "
                "not show whether a cache served part of it.")
    head += f"{claims.percent(above)} above it, more than STREAM's own {spread:.0%} spread. "
    faster = max((p for p in passed if p.grade == "low"), key=lambda p: p.cold_rate, default=None)
    either = (f"either part of STREAM's bytes came from the {last} (not DRAM's alone), or this run's {{what}} met "
              "a busier moment than the profile's rounds (timed at different moments; then it may be DRAM's): "
              "this run does not tell which.")
    if faster is None:  # no copy passed the read beyond noise: the read is the fastest DRAM figure here
        return head + _near_copy_said(passed, read) + ", so " + either.format(what="read")
    cold = claims.as_printed(faster.cold_rate, 2, 1e9)
    copy = claims.half_up(2 * cold, 1)  # its 2n, from the cold GB/s as printed
    past = f"{claims.percent(faster.cold_shown)} of half that read"
    said = (f"But this run's own {size_label(faster.size)} copy out of DRAM, cold, passed that read beyond noise "
            f"({past}): it moved its 2n at 2 x {cold:.2f} = {copy:.1f} GB/s, so the read loop is slow for a copy "
            "and STREAM's copy may pass it too. ")
    over = ours / copy - 1
    if ours <= copy:
        return head + said + "STREAM is at or below that copy's rate: DRAM's rate, as far as this run shows."
    if claims.half_up(over, 2) <= spread:  # judged as printed, as the share above
        return (head + said + f"STREAM is {claims.percent(over)} above that copy, within its own {spread:.0%} "
                "spread: this run does not show that a cache served part of it.")
    return (head + said + f"STREAM is {claims.percent(over)} above that copy, still more than its {spread:.0%} "
            "spread, so " + either.format(what="read and copy"))


def dram_reference_name(read_bytes: int | None, caches: dict[str, int] | None) -> str:
    """What the copies out of DRAM are set beside, named by where its read buffer (``read_bytes``,
    ``regimes.dram_read_size``) sat: DRAM's reference only when the buffer is larger than the last cache."""
    if not read_bytes:
        return "DRAM's reference"
    last = next((name for name in ("L3", "L2") if name in (caches or {})), None)
    read = f"half a {size_label(read_bytes)} read"
    if last is None:
        return f"{read} (cache sizes not readable)"
    if read_bytes > caches[last]:
        return f"DRAM's reference ({read}, beyond {last})"
    return f"{read}, within {last}: not DRAM's alone"


def dram_reference_sentence(read_bytes: int, caches: dict[str, int], points, stream=None,
                            stream_bytes: int | None = None, largest: int | None = None) -> str:
    """What the copies out of DRAM are set beside, from this run: half the rate a read loop ran at over
    ``read_bytes`` (``regimes.dram_read_size``), said DRAM's only where that buffer is larger than the last
    cache this machine reports, with the rule that set its size where ``largest`` (the largest copy) is given.
    ``stream``: the profile's one-thread STREAM ceiling (a ``machine.Ceiling``) of ``stream_bytes`` arrays,
    said not to be used, and why."""
    dram = next((p for p in points if p.regime == "DRAM" and not p.is_bound and p.bound), None)
    if dram is None:
        return ""
    last = next((name for name in ("L3", "L2") if name in caches), None)
    read = claims.as_printed(2 * dram.bound, 2, 1e9)
    text = (f"Beyond the caches, a copy is set beside half the rate a read loop ran at over a "
            f"{size_label(read_bytes)} buffer, on one thread in this run: {read:.2f} GB/s / 2 = "
            f"{half_of(read, 2)} GB/s (a copy counts each byte twice: read, then written).")
    if last is None:
        text += " This machine's cache sizes are not readable, so whether a cache held part of it is not known."
    elif read_bytes > caches[last]:
        rule = f" ({regimes.dram_read_rule(read_bytes, largest, caches, cache_named=True)})" if largest else ""
        text += (f" The buffer is {read_bytes / caches[last]:.1f}x the {size_label(caches[last])} {last} this machine "
                 f"reports{rule}, so no cache holds it: this is DRAM's rate.")
    else:
        text += (f" The buffer is capped at {size_label(read_bytes)}, within the {size_label(caches[last])} {last} "
                 f"this machine reports: part of it may come from {last}, so it is not DRAM's rate alone.")
    if stream is None or not stream_bytes:
        return text
    best = claims.as_printed(stream.best, 1, 1e9)
    counted = f" of reads + writes, 2n; {half_of(best, 1)} GB/s of n copied" if "copy" in stream.name else ""
    text += (f" Section 1's {stream.name} ({best:.1f} GB/s{counted}) is not used here: "
             "every regime's reference is the same read loop, halved, so that L2, L3 and DRAM are set beside "
             "figures measured alike")
    if last is not None and 2 * stream_bytes <= caches[last] // 2:
        # section 2's rule counts, it does not measure: say "may" (t29_0001 #3), as section 2's copies can show
        return text + (f"; and its arrays fit within half of the {last}, so by section 2's rule it may not be "
                       "DRAM's rate alone.")
    return text + "."


def half_of(shown: float, digits: int) -> str:
    """Half a figure printed with ``digits`` decimals, exactly (one decimal more, where needed): "19.29 / 2 =
    9.645", "19.28 / 2 = 9.64", so that a reader who halves the printed figure finds the printed half."""
    return mean_of_two(shown / 2, digits)


def noise_sentence(profile, limit: float = 0.5) -> str:
    """A warning when a ceiling's runs spread widely: the machine was busy while it was measured."""
    noisy = [c for c in profile.ceilings if c.spread > limit]
    if not noisy:
        return ""
    return (f"{len(noisy)} ceiling(s) spread over {limit:.0%} ({', '.join(c.name for c in noisy)}): something else "
            "ran meanwhile; a fast run is kept (the slowest of the fastest quarter), but treat the ratios as rough.")


def weights_sentence(link_points, weights_gb: float, label: str, link=None, far: float = 10) -> str:
    """The time to move a model's weights at the rate of the largest message measured on the link: an estimate
    whose model is "the whole transfer runs at that rate" (a reference, not a bound). Past the largest size
    measured it is an extrapolation, never a bound: while the rate still falls at the largest sizes the
    transfer would take longer if it kept falling. The fitted beta is quoted only within ``far`` x the largest
    size measured and when the rate is not falling (else the fit's beta is not how the link behaves there)."""
    pts = sorted(link_points, key=lambda p: p.size)
    big = pts[-1]
    rate = claims.as_printed(big.rate, 2, 1e9)  # each time below is worked from the rate as printed
    past = weights_gb * 1e9 / big.size
    falling = len(pts) > 1 and rate_trend(pts[-2].rate, big.rate) == "falling"
    text = (f"Moving the {weights_gb:.0f} GB of a 7B model's fp16 weights over '{big.path}' at the rate of its "
            f"largest measured message, {big.rate / 1e9:.2f} GB/s ({size_label(big.size)}), takes about "
            f"{weights_gb / rate:.1f} s{label}")
    fitted = link is not None and fit_usable(link) and past <= far and not falling
    if fitted:
        beta = claims.as_printed(link.fit.beta, 2, 1e9)
        text += f"; at the fitted beta, {beta:.2f} GB/s, {weights_gb / beta:.1f} s"
    pm = f"±{printed_accuracy(link):.0%}" if fitted else ""  # the fit's ± as its table prints it
    if past <= 1:
        return text + (f" (the fit is good to {pm} over these sizes)." if fitted else ".")
    text += (f". {'Both are estimates, extrapolated' if fitted else 'It is an estimate, extrapolated'} "
             f"{past:,.0f}x past the largest size measured (its model: every byte moves at that rate)"
             + (f" (the fit's {pm} holds only over the sizes it was fitted on)" if fitted else ""))
    if len(pts) < 2:
        return text + ": a single size says nothing of how the rate goes on."
    prev = pts[-2]
    change = f"{rate_change(prev.rate, big.rate):+.1%}"  # judged as printed here: rate_trend reads this figure
    trend = {"falling": f"was still falling ({change}, past the ±{EDGE:.0%} one noisy median may miss by)",
             "rising": f"was still rising ({change}, past the ±{EDGE:.0%} one noisy median may miss by)",
             "flat": f"was flat within noise ({change}, within the ±{EDGE:.0%} one noisy median may miss by)"}[
        rate_trend(prev.rate, big.rate)]
    text += (f": the rate {trend} at the largest sizes ({prev.rate / 1e9:.2f} GB/s at {size_label(prev.size)}, "
             f"{big.rate / 1e9:.2f} at {size_label(big.size)})")
    if falling:
        return (text + ": if it keeps falling, the transfer takes longer than this estimate, which is therefore "
                "no bound, only the time at the last rate measured." + large_transfer_advice(big, link))
    if link is not None and fit_usable(link) and not fitted:
        return text + "." + large_transfer_advice(big, link)
    return text + "."


def large_transfer_advice(big, link) -> str:
    """Which figure to use for a transfer larger than any measured: the largest message's measured rate, not
    the fit's beta, and why (the fit weighs every size alike; what it gives at the largest size)."""
    if link is None:
        return ""
    # the fit's time from its alpha and beta as printed (µs to 1 decimal, GB/s to 2), as a reader would redo it
    alpha, beta = claims.as_printed(link.fit.alpha, 1, 1e-6) * 1e-6, claims.as_printed(link.fit.beta, 2, 1e9) * 1e9
    fitted_rate = big.size / (alpha + big.size / beta)
    return (f" For a transfer larger than any measured, use that measured rate, not the fitted beta "
            f"({link.fit.beta / 1e9:.2f} GB/s): the fit weighs a 4-byte message as much as a "
            f"{size_label(big.size)} one, so it is good for times within the sizes it was fitted on, and at "
            f"{size_label(big.size)} it gives {fitted_rate / 1e9:.2f} GB/s where {big.rate / 1e9:.2f} was measured.")


# the ledger name of lesson 00's own run of the link: written by ``to_ledger``, read by lesson 01
# (``why_slow.link_report`` imports it, so the two lessons cannot spell it apart)
LESSON00_RUN = "link_this_run_00"


def to_ledger(profile, points, link, this_run=None) -> str:
    """Lesson 00's headline figures into the ledger (``utils.ledger``); returns the line that says so.
    ``this_run``: this run's messages of the link (a ``machine.LinkFit``), kept so that lesson 01, which times
    the same link, sets its run beside this one (reader t23_0001 #2: the two runs differed by up to 1.9x)."""
    from utils import ledger

    every = profile.peak("fp32")
    ledger.record("fp32_matmul_peak", every.best, "FLOP/s", lesson="00", what=every.name)
    beyond = [p for p in points if p.bound and (p.is_bound or p.regime == "DRAM")]
    if beyond:  # a GPU path's datasheet peak is a bound; DRAM's figure on a CPU is a measured reference
        big = max(beyond, key=lambda p: p.size)
        kind = "bound" if big.is_bound else "reference"
        ledger.record("copy_beyond_caches", big.rate, "B/s", bound=big.bound if big.is_bound else None,
                      lesson="00", what=f"{big.path}, {size_label(big.size)}, against a {kind} of "
                                        f"{big.bound / 1e9:.1f} GB/s")
    if link is not None:
        ledger.record("link_alpha", link.fit.alpha, "s", lesson="00", what=link.name)
        ledger.record("link_beta", link.fit.beta, "B/s", lesson="00", what=link.name)
        # the fit's own verdict travels with it: a later lesson that quotes alpha and beta says whether they held
        ledger.record("link_fit_worst_residual", link.accuracy, "", lesson="00", what=link.name)
    now = datetime.datetime.now()  # the date and time of day this run's figures are kept under
    stamp = f"{now.date().isoformat()} at {now:%H:%M}"
    if this_run is not None:  # the name lesson 01 reads (``LESSON00_RUN``)
        # the time of day too: two runs on one day share the date, and lesson 01 says which run it quotes
        ledger.record(LESSON00_RUN, max(this_run.seconds), "s", lesson="00", what=this_run.name,
                      sizes=[int(n) for n in this_run.fit.sizes], seconds=[float(t) for t in this_run.seconds],
                      time=f"{now:%H:%M}")
    said = (f"Headline figures saved to the ledger on {stamp}: lesson 09 and the README quote them\n"
            f"(results/{ledger.path().name}).")
    if this_run is not None:  # a line of its own: the page stays within its width
        said += "\nLesson 01 sets its run of the link beside this one, named by that date and time."
    return said
