"""Lesson 08's section 2 in words: the profiled step's table and the sentences under it, every figure worked
from the figures the page prints beside it (``claims.as_printed``), so that a reader who redoes a share, a sum
or a ratio by hand finds the printed one.

    rows, step_s = profile_words.parts_rows(found["shares"])
    say(profile_words.profiled_against_timed(found["profiled_s"], found["shares"]))
"""

from __future__ import annotations

from decimal import Decimal

from utils import claims
from utils.lessons.putting_it_together import guide


def parts_rows(shares: dict[str, float]) -> tuple[list[tuple[str, str, str]], float]:
    """The table's rows, part | seconds | share, and the step they add up to (seconds, as printed).

    The seconds print to 4 decimals; the step row is the sum of the printed parts, and each share is its
    printed seconds over that printed step: the column adds up on the page, and each share divides out.
    Each share rounds on its own, so the shares can add up to 100.1%: then the step row says so. A share
    under 0.05% prints to 2 decimals (``guide.share_text``), never as a 0.0% beside its bound."""
    step = printed_step(shares)
    rows = [(part, f"{claims.as_printed(s, 4):.4f}", guide.share_text(printed_share(shares, part)))
            for part, s in shares.items()]
    # the printed shares added exactly, as a reader adds the column (0.05 + 69.1 + 24.1 + 6.7 = 99.95, not 99.9)
    total = sum(Decimal(row[2].rstrip("%")) for row in rows)
    whole = "100%" if total == 100 else f"100% (the shares above add up to {total}%: each rounded on its own)"
    return rows + [("the step, timed (load + compute)", f"{step:.4f}", whole)], step


def printed_step(shares: dict[str, float]) -> float:
    """The step in seconds as the table prints it: the sum of its parts, each printed to 4 decimals."""
    return guide.printed_step_s(shares)   # one sum: the precision bound's T is this row


def printed_share(shares: dict[str, float], part: str) -> float:
    """A part's share of the step as the table prints it (its printed seconds over the printed step): the one
    figure for "matmuls take 85.9%" in section 2 and for the precision bound's "matmuls 85.9% of a step"."""
    return guide.printed_part_share(shares, part)


def loading_sentence(shares: dict[str, float]) -> str:
    """Loading against the step, both in ms from the table's printed seconds, and the feeding bound worked from
    them (``guide.printed_feeding_bound``): (L + C) / max(L, C) with C the printed step less the printed load."""
    load, step = claims.as_printed(shares.get("load", 0.0), 4) * 1e3, printed_step(shares) * 1e3
    return (f"Loading a batch takes {load:.1f} ms of the table's {step:.1f} ms step "
            f"({printed_compute_ms(shares):.1f} ms of compute): feeding can buy at most "
            f"{guide.printed_feeding_bound(shares):.3f}x")


def printed_compute_ms(shares: dict[str, float]) -> float:
    """The timed compute in ms as the page prints it, once: the table's step less its load row (1 decimal).
    The loading sentence and the profiled step's comparison both quote this one figure (t38_0708 #2: 194.5 ms
    beside a 194 ms rounded from the unrounded seconds)."""
    load, step = claims.as_printed(shares.get("load", 0.0), 4), printed_step(shares)
    return claims.half_up((step - load) * 1e3, 1)


def profiled_against_timed(profiled_s: float, shares: dict[str, float]) -> str:
    """The profiled step against the timed compute (the timed step less its loading), both in ms to 1 decimal,
    the compute as the loading sentence prints it (``printed_compute_ms``): "+5% against the timed compute's
    median" with its cause, or "within 1%" where the difference prints as 0% (never a signed "-0%")."""
    profiled, timed = claims.as_printed(profiled_s, 1, 1e-3), printed_compute_ms(shares)
    change = claims.half_up(profiled / (timed or 0.1) - 1, 2)   # whole %, half up, from the two printed ms
    said = f"the one step run under the profiler took {profiled:.1f} ms"
    if change > 0:
        return (f"{said}, {claims.signed_percent(change)} against the timed compute's median ({timed:.1f} ms): "
                "a profiled step also records every op, and it ran at another moment of the machine")
    against = "within 1% of" if change == 0 else f"{claims.signed_percent(change)} against"
    return (f"{said}, {against} the timed compute's median ({timed:.1f} ms): recording every op (the "
            "profiler's overhead) added no time that shows; the two ran at different moments of the machine")


def printed_ms_share(part_s: float, whole_s: float, part_digits: int = 1, whole_digits: int = 0) -> float:
    """``part_s`` over ``whole_s``, each as printed in ms (``part_digits``, ``whole_digits`` decimals)."""
    whole = claims.as_printed(whole_s, whole_digits, 1e-3) or 10.0 ** -whole_digits
    return claims.as_printed(part_s, part_digits, 1e-3) / whole


def matmul_rate(matmul_flops: float, matmul_s: float, peaks: dict[str, float],
                probed: dict[str, float] | None = None, lifted: bool = False) -> str:
    """The step's own fp32 matmuls' rate against the fp32 and bf16 peaks, all in GFLOP/s to 0.1 as printed
    (the collapsed block prints the probes so): the rate is their GFLOP (4 figures, as the guide prints them)
    over the table's seconds, and the share of the fp32 peak and the bf16 peak's ratio over the rate are the
    reader's own divisions. ``lifted``: ``peaks.ceiling_peaks`` took the step's rate as the fp32 peak because
    it beat the probe (``probed``, the probes' own peaks): the sentence says so, never "124% of a peak"; this
    function does not decide it again."""
    rate = guide.matmul_gflops(matmul_flops, matmul_s)
    fp32, bf16 = claims.as_printed(peaks["fp32"], 1, 1e9), claims.as_printed(peaks["bf16"], 1, 1e9)
    probe = claims.as_printed((probed or peaks)["fp32"], 1, 1e9)
    measured = guide.Profile({"matmul": matmul_s}, matmul_flops=matmul_flops, low_peak=peaks["bf16"])
    faster = measured.matmul_speedup   # bf16 over the rate, each as printed
    said = (f"The step's own matmuls, {matmul_flops / 1e9:.4g} GFLOP in {claims.as_printed(matmul_s, 4):.4f} s, "
            f"ran at {rate:,.1f} GFLOP/s in fp32, ")
    if lifted:   # a peak the step beats is no ceiling: the lesson reads the higher figure
        said += (f"faster than the fp32 probe ({probe:,.1f} GFLOP/s): a peak the step beats is no ceiling, so "
                 f"this lesson takes their rate, {fp32:,.1f} GFLOP/s, as the fp32 peak (the MFU and the bounds "
                 "below read it)")
    else:
        said += f"{claims.percent(rate / fp32)} of that fp32 peak ({fp32:,.1f} GFLOP/s)"   # half up
    return said + (f", so at the bf16 peak ({bf16:,.1f} GFLOP/s) they would take {faster:.2f}x less time: the "
                   "guide's precision bound prices them so, their FLOPs at the bf16 peak (its FLOPs/peak term), "
                   "not at the peaks' ratio.")   # guide.Profile.matmul_speedup


def optimizer_share(optimizer_s: float, shares: dict[str, float]) -> float:
    """AdamW's share of the step: its ms (1 decimal) over the table's step (``printed_step``, 1 decimal), both
    as printed. Of the step, not of the compute: the guide's Amdahl bound, 1/(1 - share), takes the AdamW time
    off the whole step, and the sentence names the 183.9 ms it divides by (t33_0708 #1: "of the compute" beside
    a compute printed twice, 184 and 183.8 ms, gave a reader 7.5% for a printed 7.4%)."""
    return printed_ms_share(optimizer_s, printed_step(shares), whole_digits=1)


def optimizer_share_text(optimizer_s: float, shares: dict[str, float]) -> str:
    """"13.7 ms of the table's 183.9 ms step (7.4%)": AdamW's ms, the step it is divided by, and the share to one
    decimal of a per cent, half up, the precision the guide's optimizer row prints the same share with (so the
    page never shows it as 7% in one place and 7.5% in another, t30_0708 other problems)."""
    step_ms = claims.as_printed(printed_step(shares), 1, 1e-3)
    share = claims.half_up(100 * optimizer_share(optimizer_s, shares), 1)
    return f"{claims.as_printed(optimizer_s, 1, 1e-3):.1f} ms of the table's {step_ms:.1f} ms step ({share:.1f}%)"
