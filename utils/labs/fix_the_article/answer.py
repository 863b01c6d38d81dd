"""Lab 00's answer to "were the split's messages longer than the ping-pong of the same bytes?", printed above
its collapsed block (``checks.measured_report``): short sentences, one claim each, every branch written (the
long one-sentence answer read as a paragraph, t76_labs03 #1). How it was reached is ``rounds.miss_sentence``'s
block; introduced in ``labs/00_fix_the_article.ipynb``."""

from __future__ import annotations

from utils import claims
from utils.labs.fix_the_article.rounds import plan_verdicts, plans_named


def miss_answer(rounds: dict[str, list[float]], pp_rounds: dict[str, list[float]] | None = None,
                medians: dict[str, tuple[float, float]] | None = None,
                predicted: dict[str, float] | None = None, bands: dict | None = None) -> str:
    """The section's answer first (``predicted``: each case's measured / predicted, ``bands``: the band each is
    judged on, ``plan_band``'s), then in which cases the rounds showed the split's messages longer than the
    ping-pong of the same bytes, by the rule's verdicts, then where the rule and the detail are. Where they
    showed none, it says what was shown (no difference), not that the messages were not longer, and
    (``medians``: each case's split and ping-pong median, seconds) how often the table's medians differ anyway."""
    first = prediction_answer(predicted, bands) if predicted else ""
    return first + _rounds_answer(rounds, pp_rounds, medians)


def prediction_answer(predicted: dict[str, float], bands: dict) -> str:
    """Predicted against measured, plan by plan in the table's order (the split's median over your prediction,
    from the µs printed), and how many left the fit's band, every branch written; a sentence with its space
    (t39_labs03 #1: the section's answer sat only in the collapsed block)."""
    ratios = ", ".join(f"{x:.2f}x" for x in predicted.values())
    out = sum(not lo <= x <= hi for x, ((lo, hi), _) in zip(predicted.values(), bands.values()))
    n = len(predicted)
    verdict = (f"within the fit's band (how far its own sizes ran from it) in all {n}: no miss past the fit's own"
               if not out else f"outside the fit's band (how far its own sizes ran from it) in {out} of {n}")
    return f"Measured over your prediction, plan by plan: {ratios} (the table's medians), {verdict}. "


def _rounds_answer(rounds: dict[str, list[float]], pp_rounds: dict[str, list[float]] | None,
                   medians: dict[str, tuple[float, float]] | None) -> str:
    """Whether the rounds showed the split's messages longer than the ping-pong (``miss_answer``'s rest). The
    rule's count and the rounds a ping-pong jump set aside are the block's (``miss_sentence``): in view, they
    buried the answer under terms the block defines (t42_labs03, where a learner gets lost)."""
    _, _, cases = plan_verdicts(rounds, pp_rounds)
    longer = [name for name, gap in cases.items() if gap == "longer"]
    shorter = [name for name, gap in cases.items() if gap == "shorter"]
    if longer:
        return (f"The rounds showed the split's messages longer than the ping-pong of the same bytes in "
                f"{len(longer)} of {len(cases)} plans: {plans_named(longer)}. Whether the model or the split "
                "caused the gap, and the rule that reads the rounds, are in the block below.")
    also = f" They showed them shorter in {len(shorter)}: {plans_named(shorter)}." if shorter else ""
    return (f"In none of the {len(cases)} plans did the rounds show the split's messages longer than lesson 00's "
            f"ping-pong of the same bytes.{also}{_medians_anyway(medians)} The rounds, the rule that reads them "
            "and the link's drift are in the block below.")


def _medians_anyway(medians: dict[str, tuple[float, float]] | None) -> str:
    """Where the rule showed no longer messages, the plans whose split median the table prints the longer
    (whole µs, as printed; "" where none is), as a sentence: a median alone is no verdict, and it says so."""
    more = sum(claims.as_printed(split, 0, 1e-6) > claims.as_printed(pp, 0, 1e-6)
               for split, pp in (medians or {}).values())
    if not more:
        return ""
    return (f" The table still prints the split's median the longer in {more} of {len(medians)}: a median alone "
            "is not the rule's verdict.")
