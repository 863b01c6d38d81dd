"""Lesson 02's messages beside the link (``notebooks/02_model_split.ipynb``, sections 5 and 9): which link the
arithmetic uses (lesson 00's fit, with this run's beside it), about how long each step's messages take on it
(an estimate from that fit, not a lower bound: section 8's probe measures how far a message strays from it),
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
    beside the link: the time the link's fit gives its messages, messages·α + bytes/β (an estimate), that
    time's share of the measured step, and the time the step lost to its bound (``lost_time``). ``where`` says what α and β are
    (measured now, or a datasheet peak)."""
    out = []
    for r in rows:
        least = r.messages * alpha + r.bytes_sent / beta
        kind = _name(r)
        out.append((r.batch, kind, r.messages, f"{r.bytes_sent / 2**20:.1f}",
                    f"{r.bytes_sent / max(r.messages, 1) / 2**10:,.0f}", f"{least * 1e3:.1f}", f"{r.seconds * 1e3:.0f}",
                    f"{least / r.seconds:.1%}", f"{lost_time(r) * 1e3:.1f}"))
    return Table(["batch", "schedule", "messages per step", "MiB per step", "KiB per message",
                  "link time ms", "step ms", "link share of step", "lost to the bound ms"], out,
                 title=f"{title}; link time = messages·α + bytes/β ({where}), an estimate; lost to the bound = "
                       "one device's step / speedup - one device's step / bound (the median paired speedup, as "
                       "the verdicts read it; 0: at or above the bound)")


LINK_SMALL = 0.25  # the messages' estimated time under this share of a row's lost time: not what holds it back
LINK_MOST = 0.5  # at or above this share of the lost time, the link's own time explains most of the loss


def link_time(r: Row, alpha: float, beta: float) -> float:
    """About how long (s) a step's messages take on the link, from its fit: messages·α + bytes/β. An estimate,
    not a lower bound: the fit's points fall on both sides of it."""
    return r.messages * alpha + r.bytes_sent / beta


def bound_step(r: Row) -> float:
    """The step (s) the bound allows: one device's step over the bound, on the figures as ``link_reading``
    prints them (one device's median step to 0.1 ms, the bound to three decimals), so that a reader's
    arithmetic agrees."""
    return round(r.baseline * 1e3, 1) / round(r.bound, 3) / 1e3


def speedup_step(r: Row) -> float:
    """The step (s) the median paired speedup gives: one device's step over it (as printed, two decimals). The
    verdicts read the same median, so a row loses time exactly where its verdict's median is under the bound."""
    return round(r.baseline * 1e3, 1) / round(r.speedup, 2) / 1e3


def lost_time(r: Row) -> float:
    """The time (s) a step lost to its bound: ``speedup_step`` minus ``bound_step``; 0 at or above the bound."""
    return max(speedup_step(r) - bound_step(r), 0.0)


def _link_says(part: float) -> str:
    """What a row's link time, as a share of the time it lost to its bound, says about that loss."""
    if part >= 1:
        return "the messages' estimated time covers all of the loss: the link alone can explain it"
    if part >= LINK_MOST:
        return "the link's own time explains most of the loss"
    if part >= LINK_SMALL:
        return "the link's own time is a real part of the loss, not most of it"
    return "the link's own time is not what keeps it from its bound"


def link_reading(rows: list[Row], alpha: float, beta: float) -> str:
    """Whether the link's own time explains what keeps the rows from their bound: every row whose speedup is
    under its bound (as printed), its loss (``lost_time``, from the same median the verdicts read) set beside
    its messages' estimated time (``link_time``); the largest share with its
    arithmetic, then every row by what its share says (``_link_says``: all, most, a real part, or not)."""
    under = [r for r in rows if round(r.speedup, 2) < round(r.bound, 2)]
    if not under:
        return "No row's speedup is under its bound: there is no loss for the link to explain."
    short = [r for r in under if lost_time(r) > 0]
    said = f"{len(under)} of {len(rows)} rows " + ("have a median speedup under their bound" if len(under) > 1
                                                   else "has a median speedup under its bound")
    if len(short) < len(under):
        said += f" ({len(under) - len(short)} of them by less than 0.1 ms a step: no loss to read)"
    if not short:
        return said + "."
    part = {id(r): link_time(r, alpha, beta) / lost_time(r) for r in short}
    worst = max(short, key=lambda r: part[id(r)])
    how = "one device's step / the median speedup - one device's step / the bound"
    said += (f". Each lost to its bound {how}; the messages' estimated time is {min(part.values()):.0%} to "
             f"{part[id(worst)]:.0%} of that loss" if len(short) > 1 else f". It lost to its bound {how}")
    one = round(worst.baseline * 1e3, 1)
    said += (f". {'The most, b' if len(short) > 1 else 'B'}atch {worst.batch}, {_name(worst)}: its messages take "
             f"about {link_time(worst, alpha, beta) * 1e3:.1f} ms (the link's fit, an estimate) of the {one} / "
             f"{worst.speedup:.2f} - {one} / {worst.bound:.3f} = {lost_time(worst) * 1e3:.1f} ms it lost "
             f"({part[id(worst)]:.0%}): {_link_says(part[id(worst)])}")
    others = [r for r in short if r is not worst]
    groups: dict[str, list[Row]] = {}
    for r in others:
        groups.setdefault(_link_says(part[id(r)]), []).append(r)
    for says, members in groups.items():
        shares = [part[id(r)] for r in members]
        names = (", ".join(f"batch {r.batch} {_name(r)} ({part[id(r)]:.0%})" for r in members) if len(members) <= 3
                 else f"{len(members)} other rows ({min(shares):.0%} to {max(shares):.0%} of their loss)")
        plural = "keeps them from their" if len(members) > 1 else "keeps it from its"
        said += f". {names[0].upper()}{names[1:]}: " + says.replace("keeps it from its", plural)
    return said + "."


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
