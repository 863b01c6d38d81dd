"""Lesson 01, section 1: the MFU's table, sentence and "How this was measured" block, printed from the run.

Every MFU on the page is worked as a reader redoes it (reader t42_0001 #1): each round's step GFLOP/s over the
peak, both as printed (one decimal), rounded half up to the percent; the headline is the median of those.
``report`` re-exports these for the notebook.
"""

from __future__ import annotations

import statistics

from utils import claims
from utils.lessons.why_slow import flops
from utils.tables import Table

PALM_MFU = 0.462  # PaLM 540B's training MFU on TPU v4, as its paper reports it: a published figure, not ours


def gflops(x: float) -> str:
    """A FLOP rate as the lesson prints it: "80.1 GFLOP/s"."""
    return f"{x / 1e9:,.1f} GFLOP/s"


def step_flop_rate(U, seconds: float) -> float:
    """The step's FLOP/s worked from its two figures as printed: the model FLOPs to 4 figures ("5.309e+09")
    over the step in ms to 2 decimals, so that a reader who divides the two finds the GFLOP/s printed beside."""
    return flops.printed(U.model_flops) / (claims.as_printed(seconds, 2, 1e-3) * 1e-3)


def mfu_table(U) -> Table:
    """The headline: what MFU is made of."""
    step = statistics.median(U.step_seconds)
    return Table(["quantity", "value"], [
        ("model FLOPs of one training step (formula)", f"{flops.printed(U.model_flops):.4g}"),
        ("step time (median of the rounds' fastest)", f"{step * 1e3:.2f} ms"),
        ("model FLOP/s", gflops(step_flop_rate(U, step))),
        *([(f"{U.peak_name} (machine profile, what MFU divides by)", gflops(U.peak)),
           (f"{U.RETIMED}, median of {len(U.peak_flops)} rounds ({_retimed_gap(U)})", gflops(U.retimed_median))]
          if U.profile_peak else
          [(f"{U.peak_name} (same rounds)", gflops(U.peak))]),
        (f"MFU (median of {len(U.mfus)} rounds' ratios)", f"{mfu_median(U):.0%}"),
        # the same rule against the re-timed probe (reader t25_0001 #4): one way to work every MFU on the page
        *([(f"MFU against the re-timed probe (median of {len(U.peak_flops)} rounds' ratios)",
            f"{retimed_mfu(U):.0%}")] if U.profile_peak else []),
    ])


def _retimed_gap(U) -> str:
    """The re-timed probe against the profile's figure: ``+7% from the profile's``."""
    return f"{claims.signed_percent(retimed_gap(U))} from the profile's"


def retimed_gap(U) -> float:
    """The re-timed peak (the rounds' median) over the profile's, less one, worked from the two as printed
    (GFLOP/s, one decimal)."""
    return claims.printed_ratio(U.retimed_median, U.peak, 1, 1e9) - 1


def _where(U) -> str:
    if U.threads:
        return f"{U.threads} CPU thread{'s' if U.threads > 1 else ''}"
    return "one GPU" if U.threads is None else "one device"


def mfu_sentence(U) -> str:
    against = ("the machine profile's figure" if U.profile_peak else "a peak measured here, in the same rounds")
    moved = (f" The same probe, timed beside the step in this run, ran at {gflops(U.retimed_median)} (median, "
             f"{claims.signed_percent(retimed_gap(U))}): how far this moment's load moved it; "
             f"against it, MFU would read {_retimed_mfu_worked(U)}." if U.profile_peak else "")
    return (f"MFU = {mfu_median(U):.0%} of the {U.peak_name}, {gflops(U.peak)} (100 %: that peak's rate, a "
            f"measured reference, not a bound), {against}.{moved} "
            f"The PaLM paper (Google's 540B-parameter language model) reports {PALM_MFU:.1%} for training its model on thousands of TPU v4 chips, "
            f"against the chips' datasheet peak; the two figures are not comparable: this is a small model's step "
            f"on {_where(U)} against a peak measured on this machine (a datasheet peak is never lower, so the "
            "same work reads lower against one), and a large run pays communication a single device does not. "
            f"Section 2 shows which ops cannot use the peak at all, section 6 where the step's time goes.")


def _round_ratios(U, peaks: list[float]) -> list[float]:
    """Each round's step GFLOP/s over its peak, both as the rounds table prints them (one decimal), the ratio
    rounded half up to the percent as a reader does (80.1 / 180.0 = 44.5% prints 45%, not 44%)."""
    return [claims.half_up(claims.printed_ratio(step_flop_rate(U, s), p, 1, 1e9), 2)
            for s, p in zip(U.step_seconds, peaks)]


def mfu_ratios(U) -> list[float]:
    """Each round's MFU against the peak MFU divides by (``U.peak``), as the rounds table prints it."""
    return _round_ratios(U, [U.peak] * len(U.step_seconds))


def mfu_median(U) -> float:
    """The headline MFU: the median of the rounds' printed ratios (``mfu_ratios``), rounded half up, so that
    the table, the sentence, the claims row and the ledger all carry the figure a reader redoes."""
    return claims.half_up(statistics.median(mfu_ratios(U)), 2)


def retimed_ratios(U) -> list[float]:
    """Each round's MFU against that round's re-timed matmul (``_round_ratios``)."""
    return _round_ratios(U, U.peak_flops)


def retimed_mfu(U) -> float:
    """The MFU against the probe re-timed beside the step, by the rule of the MFU itself (reader t25_0001 #4): the
    median of the rounds' ratios (``retimed_ratios``), not a median step over the fastest matmul."""
    return claims.half_up(statistics.median(retimed_ratios(U)), 2)


def _retimed_mfu_worked(U) -> str:
    """``retimed_mfu`` with how it is worked: "48% (the median of the 5 rounds' ratios, as MFU itself)"."""
    return f"{retimed_mfu(U):.0%} (the median of the {len(U.peak_flops)} rounds' ratios, as MFU itself)"


def mfu_rounds_table(U) -> Table:
    rows = [(k + 1, f"{s * 1e3:.2f}", f"{step_flop_rate(U, s) / 1e9:.1f}", f"{p / 1e9:.1f}", f"{m:.0%}")
            for k, (s, p, m) in enumerate(zip(U.step_seconds, U.peak_flops, mfu_ratios(U)))]
    against = "MFU (profile's peak)" if U.profile_peak else "MFU against the best matmul"
    if not U.profile_peak:
        return Table(["round", "step ms (fastest)", "step GFLOP/s", "matmul GFLOP/s (re-timed)", against],
                     rows, title="MFU, round by round")
    # the ratios the re-timed MFU is the median of (``retimed_mfu``), so that a reader finds its figure here
    rows = [row + (f"{r:.0%}",) for row, r in zip(rows, retimed_ratios(U))]
    return Table(["round", "step ms (fastest)", "step GFLOP/s", "matmul GFLOP/s (re-timed)", against,
                  "MFU (re-timed matmul)"], rows, title="MFU, round by round")


def mfu_notes(U, profile, S) -> str:
    where = f"{U.threads} thread" if U.threads else "the GPU"
    same = profile.peak(U.dtype, S.measure_threads)
    text = (f"Each round times the matmul (the machine profile's probe), then the training step, each after "
            f"one untimed call, on {where}; MFU per round = model FLOPs / that round's fastest step / "
            + (f"the profile's {same.name}, {same.formatted()} ({profile.measured}), the one figure every lesson "
               f"quotes under that name. The matmul column is {U.RETIMED}: median {gflops(U.retimed_median)} "
               f"(fastest {gflops(U.retimed)}), {claims.signed_percent(retimed_gap(U))} from the profile's, which "
               "shows how far this moment moved it (a busy machine only slows a kernel; a faster run means the "
               "profile met a busier moment). The last column is each round's step GFLOP/s over that round's "
               "matmul GFLOP/s; every MFU on this page is the median of such per-round ratios."
               if U.profile_peak else
               f"the fastest matmul of all rounds ({gflops(U.peak)}), so a slow matmul measurement cannot lift a "
               f"round over 100 %. The machine profile measured the same probe at {same.formatted()} "
               f"({same.name}): the same ceiling at another moment.")
            + f" MFU ranges from {min(mfu_ratios(U)):.0%} to {max(mfu_ratios(U)):.0%}.")
    if S.datasheet and U.dtype in S.datasheet.peak_flops:
        sheet = S.datasheet.peak_flops[U.dtype]
        text += (f" Against the datasheet's {U.dtype} peak ({sheet / 1e12:.0f} TFLOP/s, a bound) the step "
                 f"reaches {U.achieved / sheet:.1%}.")
    return text
