"""Lesson 07's claims rows about the cost model: its prediction over every width swept (not the largest
alone, where it comes closest on a CPU), and its crossover width beside the measured one.

    show_claims([..., model_claims.prediction(A["rows"]), model_claims.crossover(MEASURED_AT, model, MISSED_BY)])
"""

from __future__ import annotations

from utils import claims
from utils.claims import Claim


def measured_over_model(row: dict) -> float:
    """A width's measured over predicted speed-up, as section 4 prints it (two decimals, from the two x as
    printed): the figure its "Measured / predicted speed-up, width by width" line shows."""
    return claims.half_up(claims.printed_ratio(row["speedup"], row["predicted_speedup"]), 2)   # as a reader rounds


def width_words(width: float | None, widths: list[int]) -> str:
    """A model crossover as a width: never up to the largest swept (None), at or below the smallest swept,
    or about ``width``."""
    return (f"never (up to {widths[-1]})" if width is None else
            f"{widths[0]} or below" if width <= widths[0] else f"{width:.0f}")


def model_crossover_words(crossovers: tuple, widths: list[int], residual: float) -> str:
    """The model's crossover width with its residual's range (``crossovers``: ``cost.analyse``'s
    "model_crossover", the width as fitted, with every all-reduce ``residual`` cheaper, and dearer):
    "35 (from 32 or below up to 57, with every all-reduce off by the fit's 35%)"."""
    middle, low, high = (width_words(w, widths) for w in crossovers)
    off = f"every all-reduce off by the fit's {residual:.0%}"
    if low == high:
        return f"{middle}, with or without {off}"
    upper = f"up to {high}" if crossovers[2] is not None else f"to beyond the largest width swept ({widths[-1]})"
    return f"{middle} (from {low} {upper}, with {off})"


MARGIN = "the margin asked here: the lesson's 5 % tolerance for timing noise"


def crossover_sentences(rows: list[dict], won: int | None, model_at: str) -> list[str]:
    """Lesson 07, section 4's crossover, model beside measured, in short sentences (one claim each):
    ``rows`` ``cost.analyse``'s, ``won`` its "measured_crossover" (None: the split never won beyond noise),
    ``model_at`` ``model_crossover_words``'s width. Every speed-up and ± read as printed, as the width table
    reads them."""
    widths = [r["width"] for r in rows]
    said = ["The crossover is the smallest width where the split beats one device, there and at every larger "
            "width swept.",
            f"The model puts it at width {model_at}."]   # the term defined where it is first printed
    if not won:
        said.append(f"Measured: the split was never faster than one device beyond the rounds' noise, up to "
                    f"width {widths[-1]}.")
    else:
        said.append("Measured: the split was faster than one device beyond the rounds' noise from width "
                    f"{won} on.")
        if won != widths[0]:
            before = widths[widths.index(won) - 1]
            said.append(f"Width {before} was not, so the crossover lies between {before} and {won}.")
        first = rows[widths.index(won)]
        speedup, spread = (claims.as_printed(first[k], 2) for k in ("speedup", "spread"))
        said.append(f"At width {won} the split ran {speedup:.2f}x ± {spread:.2f} (± half the middle half's "
                    "range of the paired rounds).")
    noisy = [r["width"] for r in rows   # the width table's "within noise" verdicts
             if claims.within_noise(claims.as_printed(r["speedup"], 2), claims.as_printed(r["spread"], 2))]
    if noisy:
        said.append(f"Within noise of 1x: width{'s' * (len(noisy) > 1)} {', '.join(map(str, noisy))}.")
    early = next((r["width"] for r in rows if r["speedup"] > 1), None)
    if won and early and early < won:
        said.append(f"The median speed-up passes 1x earlier, at width {early}, but within the rounds' noise "
                    "there (the error bars).")
    return said + [margin_sentence(rows)]


def margin_sentence(rows: list[dict]) -> str:
    """The width table's verdicts that rest on an edge within 0.05 of 1x, on either side: a "faster" whose lower
    edge (speed-up less its ±) lies under 1.05x, a "slower" whose upper edge lies over 0.95x. The margin is
    asked of both alike (t39_0708: it was asked of "faster" only), so another run may read either one
    differently; a "within noise" verdict already says so. Figures as printed."""
    near = []
    for r in rows:
        speedup, spread = (claims.as_printed(r[k], 2) for k in ("speedup", "spread"))
        low, high = round(speedup - spread, 9), round(speedup + spread, 9)   # 9 decimals: float dust
        if 1 < low < 1.05:
            near.append(f"width {r['width']} (faster, its lower edge {low:.2f}x)")
        elif 0.95 < high < 1:
            near.append(f"width {r['width']} (slower, its upper edge {high:.2f}x)")
    if not near:
        return f"Every faster or slower verdict has its edge 0.05 or more from 1x ({MARGIN})."
    return (f"Verdicts with an edge within 0.05 of 1x ({MARGIN}), which another run may read differently: "
            f"{', '.join(near)}.")


def crossover_answer(rows: list[dict], won: int | None, crossovers: tuple, model_at: str) -> str:
    """Section 4's one visible answer: where splitting started to pay, measured, beside the model's crossover
    width (``crossovers``: ``cost.analyse``'s "model_crossover", the width as fitted, with the all-reduces
    cheaper and dearer by the fit's residual; ``model_at``: ``model_crossover_words``), and which came first.
    ``won``: the measured crossover (None: never beyond the rounds' noise). The detail stays collapsed
    (``crossover_sentences``)."""
    widths = [r["width"] for r in rows]
    _, earliest, latest = crossovers
    before = widths[widths.index(won) - 1] if won and won != widths[0] else None   # the last that did not win
    measured = ((f"between width {before} and {won}" if before else f"at width {won} or below") if won
                else f"beyond the largest width swept ({widths[-1]})")
    said = ("The crossover (the smallest width where the split beats one device beyond the rounds' noise, there "
            f"and at every larger width swept) lies {measured} here, and at width {model_at} in the model: ")
    if (not won and latest is not None) or (before and latest is not None and before >= latest):
        return said + ("the split won later than the model allows, even with its residual: the split step costs "
                       "more than the model's two terms (the next cell measures how far each term missed).")
    if won and (earliest is None or won < earliest):
        return said + ("the split won earlier than the model predicts, even with its residual: the split step "
                       "cost less than the model's two terms (the next cell compares them term by term).")
    return said + "the two agree within the fit's residual and the rounds' noise."


def prediction(rows: list[dict]) -> Claim:
    """The model's prediction against the measured speed-up: the largest width's share of the prediction,
    and the range over every width swept, with the side the model erred on where it was the same at every
    width (as printed: 1.00 is neither side)."""
    largest, shares = rows[-1], [measured_over_model(r) for r in rows]
    widths = f"widths {rows[0]['width']} to {largest['width']}"
    verdict = f"{shares[-1]:.0%} of the prediction at width {largest['width']}"
    if len(rows) > 1:
        side = ("; below the model at every width" if max(shares) < 1 else
                "; above the model at every width" if min(shares) > 1 else "")
        verdict += f"; {min(shares):.0%} to {max(shares):.0%} over {widths}{side}"
    return Claim(f"the cost model predicts the split step (measured / model speed-up, {widths})",
                 f"{largest['speedup']:.2f}x measured at width {largest['width']}",
                 f"model {largest['predicted_speedup']:.2f}x", verdict)


def crossover(measured_at: str, model_width: str, missed_by: str) -> Claim:
    """The model's crossover width (where splitting starts to pay) beside the measured one: ``measured_at``
    as section 4's crossover table prints it ("width 256 to 512"), ``model_width`` the model's with its
    residual's range ("79 (from 59 up to 96, with every all-reduce off by the fit's 30%)"), ``missed_by`` the factor
    between them in words (``report.crossover_miss``), which is the verdict."""
    return Claim("the cost model tells where splitting starts to pay (the crossover width)", measured_at,
                 f"model width {model_width}", missed_by)


def record_mlp_step(row: dict, tokens: int, bound: float) -> None:
    """The claims row's split MLP step in the ledger as ``tensor_parallel_mlp_step_speedup``, so that lesson 09
    (row A21, beside make bench's MLP block) reads the figure this lesson prints: ``row`` a ``cost.analyse`` row
    (the largest width's), its median speed-up as the row prints it (2 decimals), the bound, and every paired
    round's ratio (one device / split), from which a reader works the same ± (``claims.printed_spread``).
    Returns nothing."""
    from utils import ledger   # imported here: utils has no side effects on import

    ratios = [a / b for a, b in zip(row["one_rounds"], row["two_rounds"])]   # as ``cost.analyse`` pairs them
    width = row["width"]
    ledger.record("tensor_parallel_mlp_step_speedup", claims.as_printed(row["speedup"], 2), "x", bound=bound,
                  lesson="07", rounds=ratios,
                  what=f"one MLP block of width {width} (hidden {4 * width}) on {tokens} tokens, forward + "
                       f"backward, one device against two workers splitting it (tensor parallel): the median "
                       f"of {len(ratios)} paired rounds")
