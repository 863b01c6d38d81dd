"""Lab 00's report: a plan's ping-pong beside its twin's, another plan whose step sent the same messages, timed
by the same procedure in other rounds of the same run. Where one of the two left the fit's band and the other
did not, the procedure and a lasting change of the link are ruled out: what differs is the rounds themselves.
Used by ``rounds._why_out``; introduced in ``labs/00_fix_the_article.ipynb``."""

from __future__ import annotations

import dataclasses

from utils import claims


@dataclasses.dataclass(frozen=True)
class Twin:
    """The clause set beside a case's ping-pong, and whether it rules the rounds' procedure out as the cause."""

    text: str
    ruled_out: bool


def twin_words(pair, other, other_name: str, other_x: float, other_inside: bool,
               span: tuple[float, float] | None, jumps: tuple[int, int, float]) -> Twin:
    """A case's ping-pong against the link table (``pair``: its median, the table's measured time, µs as
    printed) beside its twin's (``other``: the same for the twin; ``other_x``: the twin's median over the
    prediction), every branch written, ratios as printed. Where the twin's median stayed inside the fit's band
    (``other_inside``), neither the procedure nor a lasting change of the link since the fit gives this case's
    ratio: the link was slower during this case's own rounds (``span``: their range, µs as printed;
    ``jumps``: how many of how many rounds took over how many times the fastest). Where the twin left the band
    too, it rules nothing out and is printed beside."""
    table = pair[1]
    mine, theirs = (claims.half_up(t / table, 2) for t in (pair[0], other[0]))
    beside = (f'"{other_name}" timed the same messages the same way in this run: {other[0]:,.0f} µs, {theirs:.2f}x '
              f"that table, {other_x:.2f}x the prediction")
    if not other_inside:
        return Twin(f" ({beside}, outside the band too)", False)
    jumped, n_rounds, jump = jumps
    spread = f"{span[0]:,.0f}-{span[1]:,.0f} µs, " if span else ""
    many = f"{jumped} of {n_rounds}" if jumped else "no round"
    return Twin(f"; {beside}, inside the band: so neither the rounds' procedure nor a lasting change of the link "
                f"gives {mine:.2f}x: the link was slower during this plan's rounds ({spread}{many} over "
                f"{jump:.0f}x the fastest)", True)


def span_us(seconds: list[float]) -> tuple[float, float] | None:
    """The range of a case's ping-pong rounds, whole µs as the rounds' table prints them (None: no rounds)."""
    if not seconds:
        return None
    return claims.as_printed(min(seconds), 0, 1e-6), claims.as_printed(max(seconds), 0, 1e-6)


def same_messages(runs) -> list[int | None]:
    """For each timed case (a ``SplitRun``), the first other case whose step sent messages of the same sizes
    (its twin: the same ping-pong, timed in other rounds of the same run), None where no other did."""
    sizes = [[m.nbytes for m in run.messages] for run in runs]
    return [next((j for j, other in enumerate(sizes) if j != i and other == mine), None)
            for i, mine in enumerate(sizes)]
