"""Lesson 02's messages beside the link (``notebooks/02_model_split.ipynb``, sections 5 and 9): which link the
arithmetic uses (lesson 00's fit, with this run's beside it), the least time each step's messages need on it,
and whether that time is what keeps a pipeline from its bound. ``report`` re-exports these names.

    alpha, beta, where, said = link_sources(runs.recorded_link(), runs.link_model(cpu_workers, hw))
    show(link_table(rows, alpha, beta, where, title)); print(link_reading(rows, alpha, beta))
"""

from __future__ import annotations

from utils.lessons.model_split.runs import Row
from utils.tables import Table


def _name(r: Row) -> str:
    """"naive split", "gpipe m=4": what a row ran (``report.config_name``)."""
    return "naive split" if r.naive else f"{r.schedule} m={r.m}"


def link_table(rows: list[Row], alpha: float, beta: float, where: str, title: str) -> Table:
    """Each row's inter-stage traffic per step (both workers, both directions, as ``RecordedStage`` counts it)
    beside the link: the time its messages need at least, messages·α + bytes/β, and that time's share of
    the measured step. ``where`` says what α and β are (measured now, or a datasheet peak)."""
    out = []
    for r in rows:
        least = r.messages * alpha + r.bytes_sent / beta
        kind = _name(r)
        out.append((r.batch, kind, r.messages, f"{r.bytes_sent / 2**20:.1f}",
                    f"{r.bytes_sent / max(r.messages, 1) / 2**10:,.0f}", f"{least * 1e3:.1f}", f"{r.seconds * 1e3:.0f}",
                    f"{least / r.seconds:.1%}"))
    return Table(["batch", "schedule", "messages per step", "MiB per step", "KiB per message",
                  "link time ms", "step ms", "link share of step"], out, title=f"{title}; link time = messages·α + "
                                                                            f"bytes/β ({where})")


LINK_SMALL = 0.25  # the messages' least time under this share of a row's lost time: not what holds it back


def link_time(r: Row, alpha: float, beta: float) -> float:
    """The least time (s) a step's messages need on the link: messages·α + bytes/β."""
    return r.messages * alpha + r.bytes_sent / beta


def lost_time(r: Row) -> float:
    """The time (s) a step lost to its bound, from the printed speedup: step · (1 − speedup / bound); 0 at or
    above the bound."""
    return max(r.seconds * (1 - r.speedup / r.bound), 0.0)


def link_reading(rows: list[Row], alpha: float, beta: float) -> str:
    """Whether the link's own time can be what keeps the rows under their bound, from every row that falls
    short (both batches): the largest share of a row's lost time that its messages' least time makes up."""
    short = [r for r in rows if lost_time(r) > 0]
    if not short:
        return "No row falls short of its bound: there is no gap for the link to explain."
    part = {id(r): min(link_time(r, alpha, beta) / lost_time(r), 1.0) for r in short}
    worst = max(short, key=lambda r: part[id(r)])
    low = min(part.values())
    spread = f"{low:.0%} to {part[id(worst)]:.0%}" if len(short) > 1 else f"{part[id(worst)]:.0%}"
    said = (f"{len(short)} of {len(rows)} rows fall short of their bound; their messages' least time is "
            f"{spread} of the time each lost to it (the most: batch {worst.batch}, {_name(worst)}, "
            f"{link_time(worst, alpha, beta) * 1e3:.1f} ms of {lost_time(worst) * 1e3:.1f} ms)")
    big = [r for r in short if part[id(r)] >= LINK_SMALL]
    if not big:
        return said + ": the link's own time is not what keeps these pipelines from their bound."
    if len(big) == len(short):
        return said + ": the link's own time is a real part of what keeps them from it."
    names = ", ".join(f"batch {r.batch} {_name(r)}" for r in big)
    return (said + f": {LINK_SMALL:.0%} or more of the gap in {len(big)} of those {len(short)} rows ({names}), a "
            f"real part of what keeps those from it; in the other {len(short) - len(big)} the link's own time "
            "is not what keeps them from their bound.")


def link_sources(recorded, fit) -> tuple[float, float, str, str]:
    """Which link the lesson's arithmetic uses, and a sentence that says so: ``recorded`` is lesson 00's fit
    from this mode's ledger (``runs.recorded_link``: ``(alpha, beta, what)``, or None), ``fit`` this run's
    fit of the pipeline workers' messages (``runs.link_model``: ``(alpha, beta, where)``). Lesson 00's is the
    course's one value for the machine's link, so the arithmetic uses it where it is recorded; this run's fit
    is printed beside it with their difference. Returns ``(alpha, beta, where, sentence)``."""
    f_alpha, f_beta, f_where = fit
    mine = f"this run's fit of the pipeline workers' messages: {f_where}"
    if recorded is None:
        return f_alpha, f_beta, mine, (
            "Lesson 00 has not recorded the link in this mode's ledger (run lesson 00 to set these messages beside "
            f"the machine profile's link): the arithmetic below uses {mine}.")
    alpha, beta, what = recorded
    name = f"lesson 00's link fit, the machine profile's: α {alpha * 1e6:.1f} µs, β {beta / 1e9:.2f} GB/s, {what}"
    if f_alpha:  # a measured fit: its difference from lesson 00's, in both terms
        beside = (f"this run's fit of the pipeline workers' messages: α {f_alpha * 1e6:.1f} µs "
                  f"({f_alpha / alpha - 1:+.0%}), β {f_beta / 1e9:.2f} GB/s ({f_beta / beta - 1:+.0%})")
    else:  # GPU workers: a datasheet peak, no fixed cost
        beside = f"the link's datasheet peak: β {f_beta / 1e9:.0f} GB/s, no fixed cost"
    return alpha, beta, name, (
        f"The link: {name}; beside it, {beside}. The arithmetic below uses lesson 00's, the course's one value "
        "for this machine's link, so that every lesson sets its messages beside the same link; their "
        "difference is how far the same path moved between lesson 00's run and this one.")
