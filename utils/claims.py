"""The "What this lesson measured" table that ends every lesson: claim | measured here | bound or reference |
verdict, one row per statement of the lesson's Summary, every figure from this run.

Introduced in lesson 00. A *bound* comes from theory or a datasheet and nothing may pass it; a *reference*
is a rate measured on this machine, which a point may approach or pass (lesson 00's glossary).

    rows = [claims.against_bound("a 64 MiB copy stays under DRAM's bound", 10.6e9, 12.0e9, "GB/s", 1e9)]
    rows.append(claims.against_speedup("two devices: x one device", 1.34, 1.92, spread=0.05))
    claims.show_claims(rows)

A bound is a ceiling, not a pass mark. A rate under its bound reads "84% of the bound"; a speed-up is judged
by how much of the bound's *gain* it reached (a bound of 1.92x over a baseline of 1x offers a gain of 0.92):
1.34x reached 37% of it ("faster, under the bound: 37% of its gain"). A speed-up at or below the baseline is called what it is, and one whose paired
rounds' spread covers the baseline is "within noise": neither is ever "holds".
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from utils.tables import Table, show

COLUMNS = ["claim", "measured here", "bound or reference", "verdict"]


@dataclass(frozen=True)
class Claim:
    """One row: what the lesson says, the figure of this run, what it is set beside, and what follows."""

    claim: str
    measured: str
    against: str
    verdict: str


def against_bound(claim: str, value: float, bound: float, unit: str, scale: float = 1.0,
                  digits: int = 1) -> Claim:
    """A figure set beside a bound (a law: nothing may pass it), such as a copy's GB/s under a datasheet's.
    Under it: the share reached; above it: a finding, never a pass. For a speed-up use ``against_speedup``."""
    shown, ceiling = as_printed(value, digits, scale), as_printed(bound, digits, scale)
    return Claim(claim, f"{shown:.{digits}f} {unit}", f"bound {ceiling:.{digits}f} {unit}",
                 bound_verdict(shown, ceiling))   # the share a reader divides from the two printed figures


def bound_verdict(value: float, bound: float) -> str:
    """The verdict of a rate against its ceiling: "84% of the bound", or above it, a finding to explain."""
    share = value / bound
    return (f"{percent(share)} of the bound" if share <= 1.0 else
            f"above the bound ({percent(share)}): a finding to explain")


def as_printed(value: float, digits: int, scale: float = 1.0) -> float:
    """``value / scale`` as the page prints it, rounded to ``digits`` decimals (in the printed unit).

    The course's one rule for a figure worked from others: take its operands as printed, so that a reader who
    redoes the sum or the ratio from the page finds the figure printed beside it. ``scale`` as in
    ``against_bound``: seconds printed in ms are ``as_printed(0.01234, 1, 1e-3)`` -> 12.3."""
    return round(value / scale, digits)


def printed_ratio(over: float, under: float, digits: int = 2, scale: float = 1.0) -> float:
    """``over / under`` worked from the two figures as printed (``as_printed``), so that a ratio beside
    "1.60 s / 1.29 s" is 1.24x, the reader's own division, not 1.25x from the unrounded seconds. A ``under``
    printed as 0 counts as its rounding step (``10**-digits``): the ratio is never a division by zero."""
    denominator = as_printed(under, digits, scale) or 10.0 ** -digits
    return as_printed(over, digits, scale) / denominator


def sig_decimals(value: float, figures: int = 3, least: int = 0) -> int:
    """Decimals that print ``value`` to ``figures`` significant figures (0.0146 -> 4, 3.63 -> 2, 12.4 -> 1),
    never fewer than ``least`` and never below 0 (1,234 prints whole, not as 1.23e+03)."""
    if not value or not math.isfinite(value):
        return least
    return max(least, figures - 1 - math.floor(math.log10(abs(value))))


def as_printed_sig(value: float, figures: int = 3, scale: float = 1.0, least: int = 0) -> float:
    """``value / scale`` as the page prints it to ``figures`` significant figures (``sig_decimals``), rounded
    half up as a reader rounds (``half_up``: 126.5 -> 127): the course's one rule for a figure whose size varies
    by decades (0.146, 3.63, 12.4 ms). ``sig_text`` prints this value. A negative ``least`` lets a large figure
    round to tens (1,234 -> 1,230 with ``least=-3``)."""
    shown = value / scale
    if not shown or not math.isfinite(shown):
        return shown
    return half_up(shown, sig_decimals(shown, figures, least))


def sig_text(value: float, figures: int = 3, scale: float = 1.0, least: int = 0) -> str:
    """``value / scale`` printed to ``figures`` significant figures: the text of ``as_printed_sig``."""
    shown = value / scale
    return f"{as_printed_sig(shown, figures, 1.0, least):.{max(0, sig_decimals(shown, figures, least))}f}"


def half_up(value: float, digits: int = 2) -> float:
    """``value`` rounded to ``digits`` decimals half up, as a reader rounds by hand (0.045 -> 0.05; ``round``
    gives 0.04, 0.045 being stored as 0.04499...). For a figure worked from printed figures, whose exact
    value is a decimal: 9 decimals first wipe the float error (1.49 - 1.46 is 0.0300000000000000266); more
    where more are asked for (a tiny time in seconds)."""
    exact = Decimal(repr(round(value, max(9, digits + 6))))
    return float(exact.quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP))


def printed_spread(rounds: list[float], digits: int = 2, shown=None) -> float:
    """The ``±`` of paired rounds as the page prints it: worked from the rounds as printed (``digits``
    decimals) and rounded half up (``half_up``). From 4 rounds on, ``paired_spread`` (half the middle half's
    range); with 2 or 3 rounds, half their range; 0.0 for one round. Rounds printed 1.77, 1.75, 1.70, 1.68
    spread (1.75 - 1.70) / 2 = 0.025, printed 0.03 in every table. ``shown``: where the page prints the rounds
    otherwise (lesson 02's three decimals near 1x), each round as it prints it (``float`` for ratios printed
    nowhere, taken exactly); the ± is still rounded to ``digits``."""
    shown = [shown(x) if shown else as_printed(x, digits) for x in rounds]
    if len(shown) >= 4:
        half = paired_spread(shown)
    else:
        half = (max(shown) - min(shown)) / 2 if len(shown) > 1 else 0.0
    return half_up(half, digits)


def medians_divide_to(paired: float, over: float, under: float, digits: int = 2) -> float | None:
    """Where a table prints two medians (``over``, ``under``, already as printed) beside a paired speed-up
    (the median of each round's own ratio), the ratio a reader divides from the two medians, or None where
    it prints as the paired figure. The two differ because the two medians may come from different rounds:
    lessons say so with the division (``medians_clause``)."""
    divided = half_up(over / (under or 10.0 ** -digits), digits)  # worked from printed figures: half up
    return None if f"{divided:.{digits}f}" == f"{paired:.{digits}f}" else divided


def medians_clause(paired: float, over_text: str, under_text: str, divided: float, digits: int = 2) -> str:
    """The one sentence for a paired speed-up beside two medians that divide to another figure (from
    ``medians_divide_to``): "1.75x is the median of the paired rounds' ratios, not the ratio of the medians
    printed (175 ms / 98 ms = 1.79x)"."""
    return (f"{paired:.{digits}f}x is the median of the paired rounds' ratios, not the ratio of the medians "
            f"printed ({over_text} / {under_text} = {divided:.{digits}f}x)")


def within_noise(value: float, spread: float, baseline: float = 1.0) -> bool:
    """The course's one noise rule: a figure ``value`` (the median of paired rounds) is within noise of
    ``baseline`` (1x, a bound, a reference, a prediction, 0 for a difference) where ``value ± spread`` covers it,
    ``spread`` being the paired rounds' spread (``paired_spread``). Pass the figures as printed (rounded) so
    that a reader checks the verdict from the page. Where every round lies on one side of the baseline, that is
    not noise either (``one_side``; ``speedup_verdict`` reads it when given the rounds)."""
    # rounded to 9 decimals: 1.08 - 0.09 is 0.9900000000000001 in floats, and a tie as printed is within noise
    return round(value - spread, 9) <= baseline <= round(value + spread, 9)


def runs_agree(value: float, spread: float, other: float, other_spread: float) -> bool:
    """The noise rule between two runs' medians (two launches, two lessons), each with its own paired spread:
    they agree where either median ± its spread covers the other's median (``within_noise`` both ways), so a
    run with a narrow spread is not judged apart from one whose wider spread covers it. Figures as printed."""
    return within_noise(value, spread, other) or within_noise(other, other_spread, value)


def one_side(rounds, baseline: float = 1.0, shown=None) -> str | None:
    """"below" or "above" where every round, as the page prints it, lies strictly on that side of ``baseline``
    (printed with two decimals, "1.78x"), else None. Such rounds are not noise around the baseline, even where
    the median ± the spread, rounded, touches it. ``shown``: how the page prints one round (default two
    decimals; lesson 02 prints more near 1x and 2x), so that a round printed "1.78" is never counted above a
    bound printed "1.78x"."""
    if not rounds:
        return None
    if all(round_above(x, baseline, shown, below=True) for x in rounds):
        return "below"
    return "above" if all(round_above(x, baseline, shown) for x in rounds) else None


def round_above(x: float, mark: float, shown=None, below: bool = False) -> bool:
    """Whether one round, as printed (``shown``, default two decimals), lies above ``mark`` as printed (two
    decimals), or below it with ``below=True``. The one rule for counting rounds past a mark: 1.004 printed
    "1.00" is not above 1.00x; printed "1.004" (``shown`` with more decimals) it is."""
    seen = shown(x) if shown else as_printed(x, 2)
    line = as_printed(mark, 2)
    return seen < line if below else seen > line


def rounds_past_spread(rounds, median: float, spread: float, mark: float, shown=None) -> list:
    """The rounds above ``mark`` (a bound, 2 devices' 2x) that the rounds' spread does not explain: each above
    the mark and above the median + the spread, all as printed (``round_above``). A round within median ±
    spread is noise around the median even where it passes the mark; one beyond both is a finding to explain,
    whatever the median: 1.70x ± 0.08 under a 1.78x bound reaches 1.78, so a 1.78x round is noise and a 1.86x
    round a finding; 1.80x ± 0.08 reaches 1.88 and explains the 1.86x round."""
    top = as_printed(median, 2) + as_printed(spread, 2)
    return [x for x in rounds if round_above(x, mark, shown) and round_above(x, top, shown)]


def speedup_verdict(value: float, bound: float | None = None, spread: float = 0.0, baseline: float = 1.0,
                    slower: str = "slower than the baseline", rounds=None, shown=None) -> str:
    """The verdict of a speed-up ``value`` (x ``baseline``) against its ceiling ``bound``. ``spread``: how far
    the paired rounds' ratios spread around ``value`` (same unit). In the order tested:

    - the spread covers the baseline: "within noise: no effect shown" (the rounds on both sides of it), unless
      ``rounds`` (every round's ratio, optional) all lie on one side of it: then the verdicts below, ending
      "(every round below 1.00x)" or "above";
    - below the baseline (or at it with every round below): ``slower`` + ": no speed-up" (e.g. "slower than
      one device: no speed-up"); at it: "no faster than the baseline: no speed-up";
    - no bound: "faster than the baseline";
    - the spread covers the bound, from above or below (the same rule): "at the bound (within noise)", unless
      ``rounds`` all lie on one side of the bound: then above it or under it, ending "(every round above 1.78x)";
    - above the bound: "above the bound: a finding to explain";
    - otherwise the share of the bound's gain reached: "faster, under the bound: 37% of its gain".

    Rounds are read as printed (``one_side``; ``shown``: how the page prints one round, default two decimals).
    """
    side = one_side(rounds, baseline, shown)
    # a spread printed as 0.00 still leaves rounds on both sides of the baseline: that is noise too
    noise = within_noise(value, spread, baseline) and (spread > 0 or (bool(rounds) and side is None))
    if noise and (side is None or (side == "above") == (value <= baseline)):  # rounded onto the other side
        return "within noise: no effect shown"
    note = f" (every round {side} {baseline:.2f}x)" if noise else ""
    said = _beside_bound(value, bound, spread, baseline, slower, side, rounds, shown)
    return said if note and said.endswith(note) else said + note  # a bound at the baseline: said once


def _beside_bound(value: float, bound: float | None, spread: float, baseline: float, slower: str,
                  side: str | None = None, rounds=None, shown=None) -> str:
    """``speedup_verdict`` past the noise test: slower, faster without a bound, or against the bound. Against
    the bound the same noise rule as against the baseline: rounds all on one side of it are not noise."""
    if value < baseline or (value == baseline and side == "below"):
        return f"{slower}: no speed-up"
    if value == baseline:   # equal as printed, rounds not all below: not shown slower
        return "no faster than the baseline: no speed-up"
    if bound is None:
        return "faster than the baseline"
    if within_noise(value, spread, bound):  # value ± spread covers the bound (equal as printed when no spread)
        past = one_side(rounds, bound, shown)
        if past is None:
            return "at the bound (within noise)"
        every = f" (every round {past} {bound:.2f}x)"
        if past == "above":
            return "above the bound: a finding to explain" + every
        return f"faster, under the bound: {gain_share(value, bound, baseline)} of its gain" + every
    if value > bound:
        return "above the bound: a finding to explain"
    return f"faster, under the bound: {gain_share(value, bound, baseline)} of its gain"


def percent(share: float) -> str:
    """A share in whole percent, rounded half up as a reader rounds it (0.385 -> "39%"; ``:.0%`` gives 38%)."""
    return f"{half_up(share * 100, 0):.0f}%"


def signed_percent(share: float, digits: int = 0) -> str:
    """A share that may be negative (a residual, a change) as a signed percent to ``digits`` decimals (whole
    by default), half up away from zero as a reader rounds it: -0.225 -> "-23%" (``:+.0%`` rounds the binary
    float -0.22499... to "-22%"); ``digits=1``: -0.0625 -> "-6.3%". A share that rounds to zero prints "0%"
    (or "0.0%"), with no sign: "+0%" beside 98.7 against 99.1 would tell the reader the figure was not below,
    and "-0%" reads as a loss."""
    shown = printed_percent(share, digits)
    return f"{0:.{digits}f}%" if shown == 0 else f"{shown:+.{digits}f}%"


def printed_percent(share: float, digits: int = 0) -> float:
    """``share`` in percent as ``signed_percent`` prints it (-0.225 -> -23.0; + 0.0 turns -0.0 into 0)."""
    return half_up(share * 100, digits) + 0.0


def gain_share(value: float, bound: float, baseline: float = 1.0) -> str:
    """The share of the bound's gain a speed-up reached, in whole percent rounded half up as a reader rounds
    it from the printed figures: (1.25 - 1) / (1.65 - 1) = 38.46 % -> "38%", (1.77 - 1) / (3.0 - 1) = 38.5 %
    -> "39%" (``:.0%`` would print 38%). Never above 100 % under the bound."""
    return percent(min((value - baseline) / (bound - baseline), 1.0))


def gain_share_range(value: float, spread: float, bound: float, baseline: float = 1.0, digits: int = 2) -> str:
    """The range of the bound's gain that a speed-up's ``± spread`` allows, from the figures as printed
    (``digits`` decimals), each end rounded half up: " (25%-56% across its ±)" beside "40% of its gain" for
    1.40x ± 0.16 under 2.00x, so that one share is never read more exactly than its rounds measured it. The
    high end is at most 100 % (past it the verdict reads "at the bound", never a share). A low end under 0 is
    printed as it is, not clipped, with what it means: " (-1% to 7% across its ±, which reaches below 1x)"
    for 1.09x ± 0.13 under 4.00x ((0.96 - 1) / 3 = -1%), so that every end comes out of the printed figures;
    the verdict beside it stays the caller's. "" where there is no spread or both ends print the same share
    (a range of one figure adds nothing)."""
    value, spread, bound = (as_printed(x, digits) for x in (value, spread, bound))
    if spread <= 0 or bound <= baseline:
        return ""
    low = (value - spread - baseline) / (bound - baseline)
    high = min((value + spread - baseline) / (bound - baseline), 1.0)
    if half_up(low * 100, 0) < 0:
        return f" ({signed_percent(low)} to {percent(high)} across its ±, which reaches below {baseline:g}x)"
    low_shown, high_shown = percent(min(max(low, 0.0), 1.0)), percent(high)   # -0.4% prints 0%
    return f" ({low_shown}-{high_shown} across its ±)" if low_shown != high_shown else ""


def against_speedup(claim: str, value: float, bound: float | None, spread: float = 0.0, baseline: float = 1.0,
                    slower: str = "slower than the baseline", digits: int = 2, rounds=None,
                    shown=None) -> Claim:
    """A speed-up set beside its ceiling, judged by ``speedup_verdict``; ``spread`` shows as "± 0.05". The
    verdict reads the figures as printed (rounded to ``digits``), so "1.04x ± 0.04" is within noise of 1x."""
    # the ± half up, as a reader rounds a spread worked from printed figures (1.80 x 2.5% = 0.045 -> 0.05)
    value, spread = round(value, digits), half_up(spread, digits)
    bound = round(bound, digits) if bound is not None else None
    noise = f" ± {spread:.{digits}f}" if spread > 0 else ""
    against = f"bound {bound:.{digits}f}x" if bound is not None else f"baseline {baseline:.{digits}f}x"
    return Claim(claim, f"{value:.{digits}f}x{noise}", against,
                 speedup_verdict(value, bound, spread, baseline, slower, rounds, shown))


def no_gain_claim(claim: str, value: float, spread: float = 0.0, slower: str = "slower than the baseline",
                  digits: int = 2, bound: float | None = None) -> Claim:
    """A speed-up the lesson's model expects to be none: 1x, the **baseline**, e.g. two worker counts whose
    bounds are the same. 1x is the model's expectation, not a ceiling: the ceiling is ``bound``, the
    baseline's time over the shared bound (1.59 s against a bound of 1.29 s: 1.23x), how much faster the
    change could be without passing any bound; None where no ceiling is known. Lesson 05.

    - slower beyond noise: ``slower`` + " beyond noise: no gain, as the bound allows, but a loss the model (1x)
      does not predict" (a slowdown gains nothing, as any bound allows, but the model predicts no loss either,
      so it is not "as the model expects"; without a bound, "as the bound allows" is left out);
    - within noise of 1x: "within noise: no effect shown";
    - faster beyond noise: ``speedup_verdict`` against ``bound`` (the share of its gain, at it, or above it:
      a finding), followed by "; the model expected 1x" (without a bound: a finding to explain).
    """
    row = against_speedup(claim, value, bound, spread, slower=slower, digits=digits)
    against = (f"bound {round(bound, digits):.{digits}f}x; model {1:.{digits}f}x" if bound is not None else
               f"baseline {1:.{digits}f}x (the model's)")
    verdict = row.verdict
    if verdict == "no faster than the baseline: no speed-up":   # 1x as printed: what the model expects
        verdict = "no faster than the baseline: no gain, as the model expects (1x)"
    elif verdict.endswith(": no speed-up"):   # slower beyond noise: no gain, but a loss 1x does not predict
        allows = ", as the bound allows" if bound is not None else ""
        verdict = (verdict.removesuffix(": no speed-up")
                   + f" beyond noise: no gain{allows}, but a loss the model (1x) does not predict")
    elif not verdict.startswith("within noise"):   # faster beyond noise: more than the model says
        verdict += ("; the model expected 1x" if bound is not None else
                    ": the model expected 1x, a finding to explain")
    return Claim(row.claim, row.measured, against, verdict)


def against_reference(claim: str, value: float, reference: float, unit: str, scale: float = 1.0,
                      digits: int = 1) -> Claim:
    """A figure set beside a reference (a rate measured here): its share, which may pass 100 %."""
    shown, ref = as_printed(value, digits, scale), as_printed(reference, digits, scale)
    return Claim(claim, f"{shown:.{digits}f} {unit}", f"reference {ref:.{digits}f} {unit}",
                 f"{percent(printed_ratio(shown, ref, digits))} of the reference")   # from the printed figures


def paired_spread(ratios: list[float]) -> float:
    """How far paired rounds' ratios spread around their median: half their middle half's range (0.0 for
    fewer than 4 rounds, which cannot show a spread). The ``spread`` of ``against_speedup``."""
    if len(ratios) < 4:
        return 0.0
    low, high = middle_half(ratios)
    return (high - low) / 2


def middle_half(ratios: list[float]) -> tuple[float, float]:
    """The ends of paired rounds' middle half, (low, high): the rounds ``paired_spread`` reads (with 4 or 5
    rounds, the second lowest and the second highest; fewer than 4: the lowest and the highest). Where the
    rounds are skewed (three near 2.5x, two disturbed near 5x) median ± spread reaches below every round
    measured; a range worked from these ends never leaves the rounds."""
    ordered = sorted(ratios)
    quarter = len(ordered) // 4
    return ordered[quarter], ordered[-1 - quarter]


def claims_table(rows: list[Claim]) -> Table:
    if not rows:
        raise ValueError("a lesson's measured-claims table needs at least one row")
    return Table(COLUMNS, [(r.claim, r.measured, r.against, r.verdict) for r in rows],
                 title="What this lesson measured", wrap=34)


def show_claims(rows: list[Claim]) -> None:
    """Display the table (HTML in a notebook, text elsewhere). Returns nothing, so that a notebook cell
    ending with it shows the table once."""
    show(claims_table(rows))
