"""Lesson 01, section 5's words: each rewritten version's speed-up beside its bytes ceiling (where it has one),
its verdict, and the count of them (re-exported by ``report``). Every sentence is printed from the run, each
branch written; each figure worked from others is worked from its operands as printed."""

from __future__ import annotations

import math

from utils import claims
from utils.lessons.start_here.summary import is_rough  # lesson 00's rule: a spread over ROUGH is rough
from utils.lessons.why_slow.algorithms import DISAGREE_EDGE, SAME_RESULT, printed_ms
from utils.tables import Table

# one speed-up, one range, wherever it is printed (reader t33_0001 #1): the rounds' median with their middle
# half (``Comparison.known_range``), never median ± half that range, which reaches past every round when the
# rounds are skewed (5.42 + 1.13 = 6.55x against a highest round of 5.77x)
RANGE_SAID = "their middle half, or where the rounds disagree, the range that is known"
COMPARISON_COLUMNS = ["what", "slow → fast", "speed-up: rounds' median (range)", "bytes ceiling", "verdict",
                      f"differ by; ≤ {SAME_RESULT:.0e}?"]


def comparison_rows(comparisons) -> list[tuple]:
    """The headline: what, slow -> fast (by name), the speed-up (``speedup_text``), its bytes ceiling, the
    verdict, and how closely the results agree."""
    return [(c.what, f"{c.slow} → {c.fast}", speedup_text(c),
             f"{c.ceiling:.2f}x" if c.ceiling else "none", verdict_word(c),
             f"{c.max_difference:.0e}: {'yes' if c.same_result else 'no'}")
            for c in comparisons]


def speedup_text(c) -> str:
    """A pair's speed-up as every line of section 5 and the claims row print it: the median of its rounds' own
    ratios with the one range ``Comparison.known_range`` gives ("5.42x (middle half 3.20x-5.46x)"; where the
    rounds disagree, "5.42x (known only as 2.76x to 5.42x: its rounds disagree, and the median rests on slowed
    rounds)"); the median alone where the range is one printed figure or no rounds were kept. Where the rounds
    disagree the median is a slowed round's: its ratio lies past the fastest times' by more than the edge, so in
    it one version ran past its own fastest by more than that (the block's ``rounds_disagree`` says which and how
    far); the headline says so beside the figure (t37 reading: GELU's 4.38x rested on rounds a busy moment
    slowed)."""
    ends, median = c.known_range, f"{c.median:.2f}x"
    if not ends or f"{ends[0]:.2f}" == f"{ends[1]:.2f}":
        return median
    if c.disturbed:
        return (f"{median} (known only as {ends[0]:.2f}x to {ends[1]:.2f}x: its rounds disagree, and the median "
                "rests on slowed rounds)")
    return f"{median} (middle half {ends[0]:.2f}x-{ends[1]:.2f}x)"


# "middle half" is first met in this table's header: its title says what it is (reader t32_0001)
MIDDLE_HALF_TITLE = ("Each pair's speed-up (its middle half: the rounds left once the lowest and the highest "
                     "quarter are set aside)")


def comparison_summary(comparisons) -> Table:
    """``comparison_rows`` as a table narrow enough for the page (its cells wrap), titled with what "middle
    half" means, the first place the lesson names it."""
    return Table(COMPARISON_COLUMNS, comparison_rows(comparisons), title=MIDDLE_HALF_TITLE, wrap=22)


def same_result_said(c) -> str:
    """The difference of a pair's results beside the tolerance that makes them "the same result"."""
    return (f"differ by {c.max_difference:.0e}, within the {SAME_RESULT:.0e} tolerance: "
            f"{'yes' if c.same_result else 'no'}")


def verdict_word(c) -> str:
    """``Comparison.verdict`` in a few words, for the table's narrow column; the sentence below it and its
    count (``algorithms_count``) read the same verdict. Against a ceiling: its share of the ceiling's gain,
    at the ceiling, or above it (a finding), never "holds"."""
    if c.verdict.startswith("within noise"):
        return "within noise"
    if not c.faster:
        return "not faster"
    if c.verdict.startswith("faster, under the bound"):
        return "faster, " + c.verdict.split(": ", 1)[1]   # "faster, 26% of its gain"
    if c.verdict.startswith("at the bound"):
        return "faster, at the ceiling"
    return "faster, above the ceiling: a finding" if c.verdict.startswith("above") else "faster"


def ceiling_verdict(c) -> str:
    """``Comparison.verdict`` as the sentences say it: "the bound" of ``claims.speedup_verdict`` reads "the bytes
    ceiling". The ceiling is worked from a measured roof that a slow version can beat (a cache), and lesson 00's
    glossary keeps "bound" for what no measurement may pass (reader t25_0001 #3; the table's ``verdict_word``
    strips the word too)."""
    return c.verdict.replace("the bound", "the bytes ceiling")


def ceiling_said(c) -> str:
    """The pair's bytes ceiling as the sentence says it, or why it has none (empty where no reason is given)."""
    if c.ceiling:
        return f"beside a bytes ceiling of {c.ceiling:.2f}x (bytes before over bytes after)"
    return f"no bytes ceiling: {c.no_ceiling}" if c.no_ceiling else ""


def comparison_table(comparisons) -> Table:
    """Each pair's two fastest times and their ratio, labelled as such: the two need not share a round, so no ±
    goes beside it (the headline's median ± spread is worked from each round's own ratio, ``rounds_sentence``)."""
    return Table(["what", "slow", "fast", "slow time", "fast time", "fastest times' ratio", "max difference"],
                 [(c.what, c.slow, c.fast, f"{claims.sig_text(c.slow_seconds, 3, 1e-3)} ms",
                   f"{claims.sig_text(c.fast_seconds, 3, 1e-3)} ms", f"{c.fastest_ratio:.2f}x",
                   f"{c.max_difference:.1e}") for c in comparisons],
                 title="Every comparison: fastest of the interleaved rounds")


def rounds_sentence(comparisons) -> str:
    """Each pair's rounds' own ratios (slow over fast within one round), as printed: the figures the headline's
    median and middle half are worked from (``Comparison.median``, ``Comparison.middle_half``), so a reader can
    redo both."""
    listed = "; ".join(f"{c.what}, {c.fast}: " + (", ".join(f"{r:.2f}x" for r in c.round_ratios) or "none kept")
                       + (f": median {speedup_text(c)}" if c.round_ratios else "") for c in comparisons)
    disagree = disagreement_sentence(comparisons)
    return (f"Each round's own ratio, slow over fast in that round (the speed-up is their median; its range "
            f"{RANGE_SAID}): "
            f"{listed}." + (f" {disagree[0].upper()}{disagree[1:]}" if disagree else ""))


def slowed_rounds(c, pairs=()) -> list[float]:
    """Where the fastest times' ratio lies below the rounds' median, how much slower than its own fastest the
    slow version ran at least, in each round that shows it: the round's ratio times the fast version's fastest,
    over the slow version's fastest (the fast one never ran under its fastest), as printed. Where other pairs in
    ``pairs`` divide the same slow times (``shares_slow_times``), the highest of their bounds for each round, so
    that every such pair prints the one figure for the one measured time (reader t34_0001 #1). Only slowdowns
    past the noise edge count (reader t33_0001 #2: 1.02x and 1.05x are noise in every other section)."""
    slow = printed_ms(c.slow_seconds)
    sharing = [c, *(p for p in pairs if p is not c and shares_slow_times(p, c))]
    bounds = ([claims.half_up(claims.as_printed(r, 2) * printed_ms(p.fast_seconds) / slow, 2) for r in p.round_ratios]
              for p in sharing)
    return [x for x in map(max, zip(*bounds)) if x > 1.0 + DISAGREE_EDGE]


def shares_slow_times(a, b) -> bool:
    """Whether two pairs divide the same slow version's times: timed in the same rounds by ``compare_all``
    (one time for the slow version, set beside each fast one), so the same name, fastest time and round count."""
    return ((a.what, a.slow, a.slow_seconds, len(a.round_ratios)) ==
            (b.what, b.slow, b.slow_seconds, len(b.round_ratios)))


def _bound_said(c, pairs=()) -> str:
    """How ``slowed_rounds`` worked its bound, naming every fast version whose rounds share the slow times, in
    the section's order, so each pair's clause reads the same."""
    fasts = list(dict.fromkeys(p.fast for p in [*pairs, c] if shares_slow_times(p, c)))
    if len(fasts) == 1:
        return f"the round's ratio times {c.fast}'s fastest, over {c.slow}'s"
    named = ", ".join(f"{f}'s" for f in fasts[:-1]) + f" and {fasts[-1]}'s"
    return f"the round's ratio times the fast version's fastest, over {c.slow}'s: the highest of {named}"


def rounds_disagree(c, pairs=()) -> str:
    """A clause where a pair's fastest times' ratio (as printed) and its rounds' median differ by more than the
    noise edge (``Comparison.disturbed``): the rounds did not slow both versions alike, so the speed-up is
    known only as the range between the two (``Comparison.known_range``), the range every other line prints
    too (reader t34_0001 #1; t31_0001 #2: the op-by-op having run at least 1.72x to 2.64x its fastest in 4 of
    5 rounds). ``pairs``: the section's pairs, so that those sharing the slow times name one slowdown
    (``slowed_rounds``). "" where the two agree within the edge."""
    if not c.disturbed:
        return ""
    fastest = claims.as_printed(c.fastest_ratio, 2)
    side = "below" if fastest < c.median else "above"
    said = (f"{c.what}, {c.fast}: the rounds disagree: its fastest times' ratio, {fastest:.2f}x, lies {side} "
            f"its rounds' median ({c.median:.2f}x) by more than {DISAGREE_EDGE:.0%}")
    slowed = slowed_rounds(c, pairs) if side == "below" else []
    if slowed:
        said += (f"; in {len(slowed)} of {len(c.round_ratios)} rounds {c.slow} ran at least "
                 f"{min(slowed):.2f}x to {max(slowed):.2f}x its fastest time ({_bound_said(c, pairs)}), so a busy "
                 "moment slowed it alone")
    else:
        said += ", so the rounds did not slow both versions alike"
    ends = c.known_range
    share = (f" ({claims.gain_share(ends[0], c.ceiling)} to {claims.gain_share(ends[1], c.ceiling)} of its gain)"
             if c.ceiling else "")
    return said + f": the speed-up is known only as {ends[0]:.2f}x to {ends[1]:.2f}x{share}"


def speedup_claim(claim: str, c, slower: str) -> claims.Claim:
    """The closing table's row for a pair without a ceiling, printed as section 5 prints it (``speedup_text``:
    one range, t33_0001 #1), its verdict by the course's one rule (``claims.speedup_verdict``)."""
    return claims.Claim(claim, speedup_text(c), "baseline 1.00x",
                        claims.speedup_verdict(c.median, None, c.spread, slower=slower))


def disagreement_sentence(comparisons) -> str:
    """``rounds_disagree`` for every pair it applies to, as one sentence; "" where none."""
    said = [rounds_disagree(c, comparisons) for c in comparisons]  # pairs sharing slow times name one slowdown
    said = [s for s in said if s]
    return ("; ".join(said) + ".") if said else ""


def algorithms_sentence(comparisons) -> str:
    """For the block under section 5's answer: what each rewritten version removes (its ``note``) and what that
    bought in this run, beside its bytes ceiling, and a result past the tolerance (the table's "no"). Each pair
    and the answer's count (``algorithms_answer``) use one rule, ``Comparison.verdict``
    (``claims.speedup_verdict``): faster (under, at or above its ceiling), within noise (no effect shown, which
    is not a slowdown either) or not faster, every branch written."""
    parts = []
    for c in comparisons:  # the verdict weighs the rounds' spread (the course's noise rule)
        ceiling = ceiling_said(c)
        got = (f"{speedup_text(c)} {ceiling}: {ceiling_verdict(c)}" if c.ceiling else
               f"{speedup_text(c)}: {ceiling_verdict(c)}" + (f" ({ceiling})" if ceiling else ""))
        # results within the tolerance are the table's "yes"; a pair past it is said here too (t29_0001: the
        # block repeated the table row by row, and the answer above already gives the count)
        apart = "" if c.same_result else f", results {same_result_said(c)}"
        # ``speedup_text`` already says where the rounds disagree; the rounds sentence above says how far
        parts.append(f"{c.what}, {c.fast} ({c.note}): {got}{apart}")
    # "21% of its gain" is not 3.09 / 11.00 (28%): say once what it divides, where it is first printed
    gain = ("; 'of its gain': how far the speed-up went from 1x to its ceiling, (speed-up - 1) / (ceiling - 1)"
            if any("of its gain" in c.verdict for c in comparisons) else "")
    return (f"What each rewritten version removes, and what it bought in this run (the median of the rounds' "
            f"own ratios, slow over fast within one round, with {RANGE_SAID}{gain}): {'; '.join(parts)}.")


def algorithms_answer(comparisons) -> str:
    """Section 5's answer in one sentence (``algorithms_count``'s verdicts); what each pair removes and bought,
    and the fused GELU against the memory roof, go to the block under it (``algorithms_sentence``)."""
    return (f"What a better algorithm bought in this run (the table above; each pair in the block below): "
            f"{algorithms_count(comparisons)}.")


def algorithms_count(comparisons) -> str:
    """How many rewritten versions each verdict of ``Comparison.verdict`` got, in its words: the count and the
    rows it counts read the same rule."""
    faster = sum(c.faster for c in comparisons)
    noisy = sum(c.verdict.startswith("within noise") for c in comparisons)
    slower = len(comparisons) - faster - noisy
    differ = [c for c in comparisons if not c.same_result]  # "the same result" is said only within tolerance
    listed = ", ".join(f"{c.fast} {c.max_difference:.0e}" for c in differ)
    apart = (f"{len(differ)} pair{'s' * (len(differ) != 1)} differ{'s' * (len(differ) == 1)} by more than "
             f"{SAME_RESULT:.0e} ({listed}): not the same result to that tolerance")
    above = [c.fast for c in comparisons if c.verdict.startswith("above")]
    finding = (f" ({', '.join(above)} above {'its' if len(above) == 1 else 'their'} bytes ceiling: a finding "
               "to explain)" if above else "")
    if faster == len(comparisons):
        same = f"though {apart}" if differ else f"for the same result (every pair within {SAME_RESULT:.0e})"
        return f"every rewritten version was faster{finding}, {same}"
    said = [f"{faster} of {len(comparisons)} rewritten versions were faster here{finding}"]
    if noisy:
        said.append(f"{noisy} within noise: no effect shown (the rounds' ratios spread too widely to tell a "
                    "speed-up from none; that is not a slowdown either: more rounds on a quieter machine would "
                    "decide)")
    if slower:
        said.append(f"{slower} not faster: what {'it removes' if slower == 1 else 'they remove'} did not limit "
                    "this machine in this run")
    return "; ".join(said + ([apart] if differ else []))


def fused_bandwidth_sentence(c, n_bytes: int, roof_rate: float, transfers: int = 22, fused_transfers: int = 2,
                             near: float = 0.5, roof_spread: float = 0.0) -> str:
    """A fused elementwise op (``c``, an ``algorithms.Comparison``) that moves ``n_bytes`` (read + write): its
    achieved bandwidth against the memory roof, and what cutting the op-by-op version's ``transfers`` whole-tensor
    reads and writes to the fused one's ``fused_transfers`` would give if every byte moved at the roof
    (``algorithms.count_passes`` counts both). Far under the roof (below ``near``), memory did not limit it: its
    in-core work did (section 2's hypothesis: the in-core cost of its tanh, not measured). The rate and its
    share are worked from the figures as printed (MiB, ms, GB/s). ``roof_spread``: the roof's bandwidth's
    spread in the profile, which the chain's rate is read to where it is rough (``chain_rate_sentence``)."""
    mib, ms = round(n_bytes / 2**20), printed_ms(c.fast_seconds)
    rate = mib * 2**20 / (ms * 1e-3)   # the printed MiB over the printed ms
    share = claims.printed_ratio(rate, roof_rate, 1, 1e9)
    ceiling = transfers / fused_transfers
    text = (f"{c.fast} moved {mib} MiB (read and write) in {claims.sig_text(c.fast_seconds, 3, 1e-3)} ms: "
            f"{rate / 1e9:.1f} GB/s, {share:.0%} of the memory roof ({roof_rate / 1e9:.1f} GB/s). "
            + chain_rate_sentence(c, n_bytes // fused_transfers, roof_rate, transfers, roof_spread) +
            f" Were every byte moved at the roof, cutting {transfers} whole-tensor reads and writes to "
            f"{fused_transfers} would give up to {ceiling:.2f}x, a ceiling; it gave {speedup_text(c)}: "
            f"{ceiling_verdict(c)}.")
    if rate < near * roof_rate:
        return text + (" Far under the roof: memory-bound by the roofline's count (its intensity is below the "
                       "ridge), yet memory's bandwidth did not limit it in this run, which rules out memory as "
                       "the fused version's limit. What limited "
                       "it instead is not measured here; section 2's hypothesis, the in-core cost of its tanh, is "
                       "one candidate, which a profile of its instructions would confirm or rule out.")
    return text + " Near the roof: memory limits the fused version, as the roofline's count says."


def chain_rate_sentence(c, tensor_bytes: int, roof_rate: float, transfers: int, roof_spread: float = 0.0) -> str:
    """The op-by-op chain's rate (``c.slow_seconds``) against the same memory roof: its ``transfers``
    whole-tensor reads and writes of ``tensor_bytes`` each, worked from the figures as printed (MiB, ms, GB/s),
    graded as section 2 grades an op (``memory_roof.memory_grade``): above the roof by no more than its noise
    (``chain_yardstick``: its pair's ±, or the roof's own spread where that is rough) is at the roof, no excess
    shown (reader t26_0001 #2: 106% beside a 44% spread was called above it, while matrix-vector's 104% beside
    its 29% was not; t29_0001 #1: 126% beside a roof good only to its 54% was called above it); above by more
    (t24_0001 #3: 111% with no spread measured), part of its bytes came faster than the measured bandwidth, so
    bytes over bandwidth is a reference for its time, not a floor."""
    mib, ms = round(tensor_bytes / 2**20), printed_ms(c.slow_seconds)
    rate = transfers * mib * 2**20 / (ms * 1e-3)
    share = claims.printed_ratio(rate, roof_rate, 1, 1e9)
    said = (f"The op-by-op chain moved {transfers} x {mib} MiB = {transfers * mib} MiB in "
            f"{claims.sig_text(c.slow_seconds, 3, 1e-3)} ms: {rate / 1e9:.1f} GB/s, {claims.percent(share)} of "
            "that roof")
    shown, noise, named = claims.half_up(share, 2), *chain_yardstick(c, roof_spread)
    if shown <= 1:  # at or under it as printed
        return said + "."
    if shown <= 1 + noise:
        return said + (f": above it by no more than {named}, so at the roof within its noise, no excess shown: "
                       "bytes over bandwidth is a reference for its time.")
    by = f" by more than {named}" if noise else ""
    return said + (f": above it{by}, so part of its bytes came faster than the measured bandwidth (a cache "
                   "holding the tensor between its kernels is one way; this run does not measure which), "
                   "and bytes over bandwidth is a reference for its time, not a floor.")


def chain_noise(c) -> float:
    """Half its pair's middle half (``c.spread``, the rounds' slow / fast ratios) over the median, both as
    printed (1.12 over 2.53x is 44%), the one measure taken on the chain's rounds (the chain's own times are kept
    as their fastest only); 0 where no rounds give a ±."""
    return claims.half_up(c.spread / c.median, 2) if c.median else 0.0


def chain_yardstick(c, roof_spread: float = 0.0) -> tuple[float, str]:
    """The noise the chain's rate is read to, and how the sentence names it: the larger of its pair's ± as a
    share of its median (``chain_noise``) and the roof's bandwidth spread where that is over lesson 00's ROUGH
    (section 2: every share of a rough roof is good to its spread only, ``report.rough_roof_sentence``).
    (0.0, "") where neither applies."""
    pair = chain_noise(c)
    roof = claims.half_up(roof_spread, 2) if is_rough(roof_spread) else 0.0
    if roof > pair:
        return roof, (f"the roof's own {claims.percent(roof)} spread (section 2: a share of that roof is good to "
                      "its spread, not to its digits)")
    if pair:
        low, high = c.middle_half  # the measure the pair's range is (t33_0001 #1), not a ± beside it
        return pair, (f"its pair's noise, {claims.percent(pair)} (half its middle half, {low:.2f}x-{high:.2f}x, "
                      f"over its median {c.median:.2f}x)")
    return 0.0, ""


def saved_ms(slow_ms: float, speedup: float) -> float:
    """The ms a call saves when the op-by-op version's ``slow_ms`` (as printed) runs ``speedup`` times faster
    (a printed speed-up): slow_ms x (1 - 1/speedup), half up to 0.1 ms, as a reader works it from the page
    (8.98 ms at 2.84x: 8.98 - 8.98 / 2.84 = 5.818..., 5.8 ms)."""
    return claims.half_up(slow_ms * (1 - 1 / speedup), 1) if speedup > 0 else 0.0


def calls_to_pay(first: float, saved: float) -> int | None:
    """Calls a ``first`` call of ``first`` s (as printed) takes to pay back at ``saved`` ms a call, rounded up
    (1.9 s over 8.9 ms is 213.5, and 213 calls save only 1.896 s: after 214); None where nothing is saved."""
    if saved <= 0:
        return None
    # rounded to 6 decimals first: 1.8 s / 9.0 ms is 200.00000000000003 in floats, and pays back after 200
    return math.ceil(round(first / (saved * 1e-3), 6))


def saving_ceiling(gain) -> float:
    """The most a call can save at the op-by-op's fastest time, in ms as a reader works it from the details:
    its fastest time less the compiled version's fastest (8.66 - 3.66 = 5.0 ms). No round timed the compiled
    call under its fastest, so a saving past this puts it faster than anything measured (reader t31_0001 #1:
    the median 3.71x on 8.66 ms said 6.3 ms, a compiled call of 2.33 ms, against a fastest of 3.66 ms)."""
    return claims.half_up(printed_ms(gain.slow_seconds) - printed_ms(gain.fast_seconds), 1)


def capped_saving(slow_ms: float, speedup: float, gain) -> float:
    """``saved_ms`` at ``speedup``, never above ``saving_ceiling``: the smaller of the two."""
    return min(saved_ms(slow_ms, speedup), saving_ceiling(gain))


def median_overshoots(gain) -> bool:
    """Whether the median speed-up on the op-by-op's fastest time saves more than ``saving_ceiling`` allows
    (the rounds where the op-by-op ran slow gave the median; its fastest time came from another round)."""
    return saved_ms(printed_ms(gain.slow_seconds), gain.median) > saving_ceiling(gain)


def payback(compile_seconds: float, gain) -> tuple[float, float, int | None]:
    """torch.compile's first call (s) and the time it saves a call (ms), both as printed, and the calls it
    takes to pay back (``calls_to_pay``). The saving is worked from the speed-up the lesson stands by, the
    rounds' median (``gain.median``), on the op-by-op version's printed time: slow x (1 - 1/median)
    (``saved_ms``), but never above the two fastest times' difference (``saving_ceiling``): a saving past it
    would put the compiled call faster than any round measured (reader t31_0001 #1), so there the saving is
    that ceiling and the calls a floor. None where it is not faster beyond noise, or saves less than the
    0.1 ms printed."""
    first = claims.as_printed(compile_seconds, 1)
    saved = capped_saving(printed_ms(gain.slow_seconds), gain.median, gain)
    if not gain.faster:
        return first, saved, None
    return first, saved, calls_to_pay(first, saved)


def payback_range(compile_seconds: float, gain) -> tuple[float, float, int | None, int | None] | None:
    """The saving and the payback at the two ends of the rounds' middle half (``Comparison.middle_half``), as
    ``payback`` works them (each capped by ``saving_ceiling``): (least saved ms, most saved ms, fewest calls,
    most calls), the most calls None where the low end saves less than the 0.1 ms printed. Not median ± its
    spread: with skewed rounds that reaches below every round (reader t32_0001 #1: 2.48x - 1.16 = 1.32x, 2.2 ms
    saved and 773 calls, where no round ran under 2.37x). None where no rounds were kept, or where the range
    moves no printed saving (5.1 to 5.1 ms says nothing the single figure does not)."""
    ends = gain.known_range  # the pair's one range (t33_0001 #1)
    if not ends:
        return None
    first, slow = claims.as_printed(compile_seconds, 1), printed_ms(gain.slow_seconds)
    least, most = (capped_saving(slow, end, gain) for end in ends)
    if least == most:
        return None
    return least, most, calls_to_pay(first, most), calls_to_pay(first, least)


ACROSS = "across the rounds' middle half"  # the payback's range, in the sentence and the claims row alike
KNOWN = "across the range that is known (the rounds disagree)"  # where ``known_range`` is not the middle half


def across(gain) -> str:
    """How the payback's range is named: ``ACROSS``, or ``KNOWN`` where the rounds disagree."""
    return KNOWN if gain.disturbed else ACROSS


def payback_range_words(compile_seconds: float, gain) -> str:
    """``payback_range`` as a clause ("; across the rounds' middle half (2.41x to 4.34x): 5.3 to 6.9 ms saved,
    after 247 to 321 calls"), so that one call count is not read more exactly than the rounds measured it; ""
    where it gives no range."""
    span = payback_range(compile_seconds, gain)
    if span is None:
        return ""
    least, most, fewest, longest = span
    low, high = gain.known_range
    calls = (f"after {fewest:,} to {longest:,} calls" if longest is not None else
             f"after {fewest:,} calls or more (at its low end it saves under 0.1 ms a call: no payback counted)")
    # said wherever an end was capped, not only the median: 4.70x on 9.00 ms reads 7.1, not the 5.9 printed
    slow = printed_ms(gain.slow_seconds)
    capped = (" (each capped at the fastest times' difference)" if median_overshoots(gain) or
              any(saved_ms(slow, end) > saving_ceiling(gain) for end in (low, high)) else "")
    return f"; {across(gain)} ({low:.2f}x to {high:.2f}x): {least:.1f} to {most:.1f} ms saved{capped}, {calls}"


def worked_saving(gain, saved: float, calls: int) -> str:
    """How ``payback`` worked the saving, as the sentence shows it: the median on the op-by-op's time, or,
    where that would put the compiled call under its fastest measured time, the fastest times' difference (the
    saving at the fastest times: not a ceiling, since a round that slowed the op-by-op saved more, t38_0001 #2)."""
    slow, fast = (claims.sig_text(s, 3, 1e-3) for s in (gain.slow_seconds, gain.fast_seconds))
    if not median_overshoots(gain):
        return (f"at its median speed-up, {gain.median:.2f}x, on the op-by-op's {slow} ms, it saves "
                f"{slow} - {slow} / {gain.median:.2f} = {saved:.1f} ms a call and pays back after {calls:,} calls")
    implied = claims.sig_text(printed_ms(gain.slow_seconds) / gain.median, 3)
    # said once, in the order a reader works it (t38_0001: "would save ... so it saves at most" took a figure back)
    return (f"its median speed-up, {gain.median:.2f}x, would put the compiled call at {slow} / {gain.median:.2f} = "
            f"{implied} ms, under its fastest measured time ({fast} ms), so the saving is worked from the two "
            f"fastest times: {slow} - {fast} = {saved:.1f} ms a call, which pays back after {calls:,} calls")


def payback_sentence(compile_seconds: float, gain) -> str:
    """When torch.compile's first call pays for itself (``payback``), how the saving was worked
    (``worked_saving``), and the range across the rounds' middle half (``payback_range_words``); or why no payback is
    shown."""
    first, saved, calls = payback(compile_seconds, gain)
    said = f"torch.compile's first call took {first:.1f} s; "
    if calls is not None:
        return said + f"{worked_saving(gain, saved, calls)}{payback_range_words(compile_seconds, gain)}."
    if gain.faster:   # faster, but by less than the 0.1 ms printed
        return said + "it saves under 0.1 ms per call, too little to count its payback from these figures."
    return said + (f"per call the compiled GELU ran {speedup_text(gain)} ({gain.verdict}), "
                   "so no payback is shown.")
