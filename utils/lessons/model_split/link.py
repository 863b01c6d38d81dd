"""Lesson 02's messages beside the link (``notebooks/02_model_split.ipynb``, sections 5 and 9): which link the
arithmetic uses (this run's fit in the pipeline workers' layout, lesson 00's beside it), about how long each step's messages take on it
(an estimate from that fit, not a lower bound: section 8's probe measures how far a message strays from it),
and whether that time is what keeps a pipeline from its bound. ``report`` re-exports these names.

    link, said = link_sources(runs.recorded_link(), runs.link_model(cpu_workers, hw),
                              runs.link_model(cpu_workers, hw, pinned=False))   # the pipeline's layout, lesson 00's
    show(link_table(rows, link.alpha, link.beta, link.where, title)); print(link_reading(rows, link.alpha, link.beta))
"""

from __future__ import annotations

from utils.claims import as_printed, as_printed_sig, half_up, printed_ratio, sig_text
from utils.lessons.model_split.fit_accuracy import (accuracy_text, against_fit, alpha_ms, alpha_text, factor_text,
                                                   layout_reading, ledger_reading, price_text, tolerance, tolerance_text)
from utils.lessons.model_split.noise import at_bound_in_noise, beside_line, ms_as_printed, percent_as_printed
from utils.lessons.model_split.runs import Link, Row
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
        least = link_time(r, alpha, beta)
        kind = _name(r)
        out.append((r.batch, kind, r.messages, f"{r.bytes_sent / 2**20:.1f}",
                    f"{r.bytes_sent / max(r.messages, 1) / 2**10:,.0f}", f"{least * 1e3:.1f}", f"{r.seconds * 1e3:.0f}",
                    f"{step_share(r, alpha, beta):.1%}", *loss_operands(r), f"{lost_time(r) * 1e3:.1f}"))
    return Table(["batch", "schedule", "messages per step", "MiB per step", "KiB per message",
                  "link time ms", "step ms", "link share of step", *LOSS_COLUMNS, "lost to the bound ms"], out,
                 title=f"{title}; link time = messages·α + bytes/β ({where}), an estimate; lost to the bound = "
                       "one device's step / speedup - one device's step / bound (the median paired speedup, as "
                       "the verdicts read it; 0: at or above the bound, or within noise of it: no loss to "
                       "explain)")


LINK_SMALL = 0.25  # the messages' estimated time under this share of a row's lost time: not what holds it back
LINK_MOST = 0.5  # at or above this share of the lost time, the link's own time explains most of the loss


def link_time(r: Row, alpha: float, beta: float) -> float:
    """About how long (s) a step's messages take on the link, from its fit: messages·α + bytes/β. An estimate,
    not a lower bound: the fit's points fall on both sides of it. Worked from α and β as the page prints them
    (α to 0.1 µs, β to 0.01 GB/s): 24 x 0.088 + 24 x 1.048576 / 1.35 = 20.75 ms, printed 20.8."""
    shown_beta = as_printed(beta, 2, 1e9) * 1e9 or beta  # a β printed as 0.00 GB/s: its own value
    return r.messages * as_printed(alpha, 1, 1e-6) * 1e-6 + r.bytes_sent / shown_beta


def message_time(link: Link, n_bytes: float) -> float:
    """Seconds ``link`` gives one message of ``n_bytes``, worked from α and β as the page prints them (α to 0.1 µs,
    β to 0.01 GB/s), as ``link_time``: 0.084 + 1.048576 / 2.50 = 0.503 ms, the reader's own sum."""
    shown_beta = as_printed(link.beta, 2, 1e9) * 1e9 or link.beta  # a β printed as 0.00 GB/s: its own value
    return as_printed(link.alpha, 1, 1e-6) * 1e-6 + n_bytes / shown_beta


LOSS_COLUMNS = ["one device ms", "speedup", "bound"]  # what "lost to the bound" is worked from, as printed


def loss_operands(r: Row) -> tuple[str, str, str]:
    """The three figures ``lost_time`` works from, as every table prints them (one device's step by ``ms_as_printed``:
    whole ms from 10 ms up; the speedup and the bound to two decimals), so that a reader redoes the loss."""
    return f"{ms_as_printed(r.baseline)}", f"{r.speedup:.2f}x", f"{r.bound:.2f}x"


def step_share(r: Row, alpha: float, beta: float) -> float:
    """The messages' estimated time over the measured step, from the two as printed (link time to 0.1 ms, the step
    to whole ms), rounded half up to 0.1 of a percent as a reader rounds: 7.7 / 432 reads 1.8%; 3.8 / 304 = 1.25% reads 1.3%."""
    return half_up(as_printed(link_time(r, alpha, beta), 1, 1e-3) / (as_printed(r.seconds, 0, 1e-3) or 1.0), 3)


def largest_share(rows: list[Row], alpha: float, beta: float) -> tuple[Row, str]:
    """The row whose messages' share of its step (``step_share``) is the largest, and how to name it: "batch 128,
    interleaved ZB m=4", or, where other rows print the same share (one decimal of a percent), a tie said as a
    tie: "tied as printed: batch 128 interleaved 1F1B m=4 and batch 128 interleaved ZB m=4"."""
    top = max(rows, key=lambda r: step_share(r, alpha, beta))
    shown = f"{step_share(top, alpha, beta):.1%}"  # as the traffic tables print it
    tied = [r for r in rows if f"{step_share(r, alpha, beta):.1%}" == shown]
    if len(tied) == 1:
        return top, f"batch {top.batch}, {_row_name(top)}"
    return top, "tied as printed: " + " and ".join(f"batch {r.batch} {_row_name(r)}" for r in tied)


def _row_name(r: Row) -> str:
    """A row's schedule as the tables name it (``report.config_name``'s words; report imports this module)."""
    return "naive split" if r.naive else f"{r.schedule} m={r.m}"


def bound_step(r: Row) -> float:
    """The step (s) the bound allows: one device's step over the bound, on the figures as the tables and
    ``link_reading`` print them (one device's median step by ``noise.ms_as_printed``, the bound to two decimals,
    as every table of the lesson prints them), so that a reader's arithmetic agrees: 150 / 1.33, not 150 / 1.333."""
    return ms_as_printed(r.baseline) / as_printed(r.bound, 2) / 1e3


def speedup_step(r: Row) -> float:
    """The step (s) the median paired speedup gives: one device's step over it (as printed, two decimals). The
    verdicts read the same median, so a row loses time exactly where its verdict's median is under the bound."""
    return ms_as_printed(r.baseline) / as_printed(r.speedup, 2) / 1e3


def lost_time(r: Row) -> float:
    """The time (s) a step lost to its bound: ``speedup_step`` minus ``bound_step``; 0 at or above the bound,
    and 0 within noise of it (``noise.at_bound_in_noise``, the rule every verdict of the row reads): a row
    "at the bound (within noise)" has no loss to split."""
    return 0.0 if at_bound_in_noise(r) else max(speedup_step(r) - bound_step(r), 0.0)


NOT_IT = "not what keeps it from its bound"
_SAYS = {"all": "the messages' estimated time covers all of the loss: the link alone can explain it",
         "most": "the link's own time explains most of the loss",
         "a real part": "the link's own time is a real part of the loss, not most of it",
         NOT_IT: "the link's own time is " + NOT_IT}
_LINES = ((LINK_MOST, "most", "a real part"), (LINK_SMALL, "a real part", NOT_IT))  # line, word past it, under it


def _link_says(part: float) -> str:
    """What a row's link time, as a share of the time it lost to its bound, says about that loss
    (``_short_word`` in a sentence; at a line, both words it lies between)."""
    word = _short_word(part)
    for line, past, under in _LINES:
        if word == f"at the {line:.0%} line":
            return f"the link's own time is at the {line:.0%} line, between \"{under}\" and \"{past}\""
    return _SAYS[word]


def _under_bound(r: Row) -> bool:
    """The median speedup under the bound, both as printed (two decimals)."""
    return as_printed(r.speedup, 2) < as_printed(r.bound, 2)


def losing_rows(rows: list[Row]) -> list[Row]:
    """The rows under their bound (as printed) that lost time to it, as ``link_table`` prints it (0.1 ms or
    more): the rows whose loss the link's time is set beside."""
    return [r for r in rows if _under_bound(r) and as_printed(lost_time(r), 1, 1e-3) > 0]


def link_share(r: Row, alpha: float, beta: float, price: float = 1.0) -> float:
    """A row's messages' estimated time over the time it lost to its bound, on the figures as printed (both to
    0.1 ms), to two decimals (whole percent): the share a reader computes from the page, and the one
    ``_link_says`` reads. At another ``price`` (how many times the fit's, as printed: ``PRICE_DIGITS``), that share
    times the price, as the page says it, rounded half up: 19% at 1.6x the price reads 30%, 9% at 2.5x 23%."""
    # half up, as a reader rounds a worked figure: 9% x 2.5 = 22.5% reads 23%, as 17% x 2.5 = 42.5% reads 43%
    # (``round`` would give 22%: 0.09 * 2.5 is stored as 0.22499...)
    share = half_up(printed_ratio(link_time(r, alpha, beta), lost_time(r), 1, 1e-3), 2)
    return half_up(share * as_printed(price, PRICE_DIGITS), 2)


def at_price(share: float, price: float, digits: int = 3) -> float:
    """A share of a step printed to ``digits`` decimals (3: "4.0%") at ``price`` times the fit's price (printed
    to ``PRICE_DIGITS``), worked from the two as printed: 4.2% at 0.94x reads 3.9%, the reader's own product."""
    return half_up(half_up(share, digits) * as_printed(price, PRICE_DIGITS), digits)


# a price (times the fit's) to two decimals wherever a share is read again at it: to 0.1, a probe at 0.938x
# would read 0.9x and move a 27% share to 24%, where 0.94x gives 25%, the product a reader works from the two ms
PRICE_DIGITS = 2
PLANNING_SHARE = 0.10  # the summary's planning figure: messages under a tenth of a step (a target, not a bound)


def planning_verdict(share: float, probe_ratio: float, ceiling: float | None = None) -> str:
    """The summary's reading of the messages' largest share of a step against the 10 % planning figure, at
    section 5's price and at the price section 8 leaves standing: the probe's (``probe_ratio`` times section 5's),
    or, where the placements refute it, the most a message cost there (``ceiling``, ``placement.price_ceiling``).
    Each share as printed, the second worked from the two printed figures (2.1% x 3.9 = 8.2%)."""
    if half_up(share, 3) >= PLANNING_SHARE:
        return "above the planning figure: the link takes a share worth planning for"
    if ceiling is None:  # the probe's price holds in this launch
        price, where = probe_ratio, "at the probe's"
    else:
        price = ceiling
        where = f"at the most this launch's placements allow ({ceiling:.{PRICE_DIGITS}f}x; the probe's {probe_ratio:.{PRICE_DIGITS}f}x refuted)"
    other = at_price(share, price)
    if other < PLANNING_SHARE:
        return f"under the planning figure at both prices ({other:.1%} {where})"
    return f"under it at section 5's price, {other:.1%} {where}: above it there"


def link_reading(rows: list[Row], alpha: float, beta: float, reread: bool = True,
                 accuracy: float | None = None) -> str:
    """Whether the link's own time explains what keeps the rows from their bound: every row whose speedup is
    under its bound (as printed), its loss (``lost_time``, from the same median the verdicts read) set beside
    its messages' estimated time (``link_time``); the largest share with its
    arithmetic, then every row by what its share says (``_link_says``: all, most, a real part, or not).
    ``reread``: section 8 reads these rows again at its probe's price (section 5's rows; section 9 reads its
    own right after, with ``reread_at_probe``). ``accuracy``: the fit's, where fitted: which labels it decides
    (``fit_band``)."""
    under = [r for r in rows if _under_bound(r)]
    if not under:
        return "No row's speedup is under its bound: there is no loss for the link to explain."
    short = [r for r in under if r in losing_rows(under)]
    noisy = sum(at_bound_in_noise(r) for r in under)
    said = f"{len(under)} of {len(rows)} rows " + ("have a median speedup under their bound" if len(under) > 1
                                                   else "has a median speedup under its bound")
    if noisy:
        their = "their" if noisy > 1 else "its"
        said += (f" ({noisy} of them within noise of {their} bound: the median ± the rounds' spread covers "
                 "it, so there is no loss to explain")
        said += "; " if len(under) - noisy - len(short) else ")"
    tiny = len(under) - noisy - len(short)  # under the bound by less than the printed 0.1 ms
    if tiny:
        said += ("" if noisy else " (") + f"{tiny} of them by less than 0.1 ms a step: no loss to read)"
    if not short:
        return said + "."
    part = {id(r): link_share(r, alpha, beta) for r in short}
    worst = max(short, key=lambda r: part[id(r)])
    how = "one device's step / the median speedup - one device's step / the bound"
    said += (f". Each row's loss to its bound = {how}; the messages' estimated time is {min(part.values()):.0%} to "
             f"{part[id(worst)]:.0%} of that loss" if len(short) > 1 else f". Its loss to its bound = {how}")
    said += (f", at the fit's price. Every reading below holds at that price only" + (
        ": section 8 times one activation against it and reads these rows again at its own" if reread else "")
             + f". Each share is read as printed, in "
             f"whole percent: under {LINK_SMALL:.0%} \"{NOT_IT}\", past {LINK_SMALL:.0%} \"a real part\", past "
             f"{LINK_MOST:.0%} \"most\", 100% \"all\"; a share printed {LINK_SMALL:.0%} or {LINK_MOST:.0%} is at "
             "that line, and said to be")
    one = ms_as_printed(worst.baseline)
    said += (f". {'The most, b' if len(short) > 1 else 'B'}atch {worst.batch}, {_name(worst)}: its messages take "
             f"about {link_time(worst, alpha, beta) * 1e3:.1f} ms (the link's fit, an estimate) of the {one} / "
             f"{worst.speedup:.2f} - {one} / {worst.bound:.2f} = {lost_time(worst) * 1e3:.1f} ms it lost "
             f"({part[id(worst)]:.0%}): at this price, {_link_says(part[id(worst)])}")
    others = [r for r in short if r is not worst]
    groups: dict[str, list[Row]] = {}
    for r in others:
        groups.setdefault(_link_says(part[id(r)]), []).append(r)
    for says, members in groups.items():
        shares = [part[id(r)] for r in members]
        names = (", ".join(f"batch {r.batch} {_name(r)} ({part[id(r)]:.0%})" for r in members) if len(members) <= 3
                 else f"{len(members)} other rows ({min(shares):.0%} to {max(shares):.0%} of their loss)")
        plural = "keeps them from their" if len(members) > 1 else "keeps it from its"
        said += f". {names[0].upper()}{names[1:]}: at this price, " + says.replace("keeps it from its", plural)
    return said + "." + fit_band(short, part, accuracy)


def fit_band(short: list[Row], part: dict, accuracy: float | None) -> str:
    """Which of ``link_reading``'s labels the fit's own accuracy decides: the link time may lie a factor
    ``tolerance(accuracy)`` below or above the fit's, so each share (as printed) spans share / below to share x
    above; a label holds only where both ends read the same word (30% at ±60%: 19%-75%, across 25% and 50%)."""
    if not accuracy or not short:
        return ""
    below, above = tolerance(accuracy)
    held, open_ = [], []
    for r in sorted(short, key=lambda r: part[id(r)]):
        shown = percent_as_printed(part[id(r)]) / 100
        low, high = shown / below, shown * above
        top = f"{percent_as_printed(high)}%" if high != float("inf") else "any share"  # ±100%: no ceiling
        band = f"batch {r.batch} {_name(r)} ({percent_as_printed(shown)}%: {percent_as_printed(low)}%-{top})"
        (held if _short_word(low) == (_short_word(high) if top != "any share" else "all") else open_).append(band)
    said = f" At the fit's accuracy ({tolerance_text(accuracy)} its line), "
    if not open_:
        return said + "every label holds: each share's band stays on one side of the lines."
    # the fit's band is wide; section 8's probe times a message against the price itself, which narrows it
    return said + (f"{'; '.join(open_)} {'cross' if len(open_) > 1 else 'crosses'} a line: not decided by the "
                   "fit's accuracy alone (section 8's probe times one message against this price, and the rows "
                   "are read again at the price it measured)" + (f"; {'; '.join(held)} {'keep their labels' if len(held) > 1 else 'keeps its label'}."
                                       if held else "."))


def link_cause(r: Row, alpha: float, beta: float) -> str:
    """The gap's cause ``link_reading`` names for a losing row, as a clause of ``report.explain_row``'s "gap:"
    (one reading of one gap): where the messages' estimated time is all or most of the loss, at the fit's
    price, or a real part of it; "" where the row lost nothing or its share reads less."""
    if r not in losing_rows([r]):
        return ""
    word = _short_word(link_share(r, alpha, beta))
    if word not in ("all", "most", "a real part"):
        return ""
    covers = {"all": "covers all of", "most": "is most of", "a real part": "is a real part of"}[word]
    return (f"the messages' estimated time (the link's fit) {covers} the loss at the fit's price (read again "
            "at section 8's probe's price: the traffic reading says where)")  # sections 5 and 9 both print it


def _short_word(part: float) -> str:
    """The words of the rule section 5 prints for a share of the loss ("not what keeps it from its bound", "a
    real part", "most", "all" where the messages' time covers the whole loss), read on the share as printed
    (``noise.beside_line``): a share printed 25% or 50% is "at the 25% line" or "at the 50% line"."""
    if percent_as_printed(part) >= 100:
        return "all"
    for line, past, _ in _LINES:
        where = beside_line(part, line)
        if where != "below":
            return past if where == "above" else f"at the {line:.0%} line"
    return NOT_IT


def rereads(rows: list[Row]) -> bool:
    """Whether section 8 reads section 5's link verdicts again at the probe's price: wherever some row lost
    time to its bound (section 5 then promises it), whatever the link and the probe's price."""
    return bool(losing_rows(rows))


def changed_rows(rows: list[Row], link: Link, ratio: float) -> list[Row]:
    """Section 5's rows whose reading of the link (``_short_word``) differs at the probe's price."""
    return [r for r in losing_rows(rows) if _short_word(link_share(r, link.alpha, link.beta))
            != _short_word(link_share(r, link.alpha, link.beta, ratio))]


def _moves(short: list[Row], link: Link, price: float) -> str:
    """Every losing row's share at the fit's price, then at ``price`` times it, with its word at both."""
    changed = changed_rows(short, link, price)
    out = []
    for r in short:
        fit, dear = link_share(r, link.alpha, link.beta), link_share(r, link.alpha, link.beta, price)
        out.append(f"batch {r.batch} {_name(r)} {fit:.0%} to {dear:.0%}" + (
            f" (from \"{_short_word(fit)}\" to \"{_short_word(dear)}\")" if r in changed else
            f" (\"{_short_word(fit)}\" at both)"))
    return "; ".join(out)


def _at_ceiling(rows: list[Row], link: Link, ceiling: float, changed: int, whose: str = "section 5") -> str:
    """Where section 8's placements refute the probe's price, section 5's rows read at the most their messages
    can have cost (``ceiling`` times the fit's price, as printed: ``PRICE_DIGITS``): a row whose word is the same at the
    fit's price and at that ceiling stands (the words only grow with the price); only the others are not
    decided by this run. ``changed``: how many rows the probe's price would have changed."""
    short, k = losing_rows(rows), as_printed(ceiling, PRICE_DIGITS)
    moved = changed_rows(rows, link, ceiling)
    said = (f" At the probe's price {whose}'s reading would change for {changed} of {len(short)} rows, "
            f"but this launch's placements refute that price: each extra message cost at most {k:.{PRICE_DIGITS}f}x the fit's price "
            f"(the placements' reading above). Every losing row, at the fit's price then at that ceiling: "
            f"{_moves(short, link, ceiling)}.")
    if not moved:
        return said + (" Every row's reading stands from the fit's price up to that ceiling: this run does not "
                       f"change {whose}'s reading of the link.")
    names = ", ".join(f"batch {r.batch} {_name(r)}" for r in moved)
    return said + (f" {len(moved)} of {len(short)} rows change between the fit's price and that ceiling ({names}): "
                   "for those the link's part of the loss is not decided by this run; the other rows' readings "
                   "stand.")


def _at_probe_price(rows: list[Row], link: Link, ratio: float, ceiling: float | None = None,
                    whose: str = "section 5", either: str = "either price") -> str:
    """Section 5's (``whose``) per-row reading of the link read again with every message ``ratio`` times
    dearer (the probe's price, as printed): the largest share at both prices, then every row whose reading changes, with
    its arithmetic ("" where no row lost time). ``ceiling``: where section 8's placements refute the probe's
    price, the most a message can have cost (times the fit's price): the rows are read again at it
    (``_at_ceiling``), and only those whose word changes up to it are not decided."""
    if not rereads(rows):
        return ""
    short, k = losing_rows(rows), as_printed(ratio, PRICE_DIGITS)
    fit = {id(r): link_share(r, link.alpha, link.beta) for r in short}
    dear = {id(r): link_share(r, link.alpha, link.beta, ratio) for r in short}
    worst, cap = max(short, key=lambda r: fit[id(r)]), whose[0].upper() + whose[1:]
    said = (f" {cap}'s link verdicts read again at the probe's price ({k:.{PRICE_DIGITS}f}x the fit's: each row's share "
            f"of its loss, as printed in whole percent, times {k:.{PRICE_DIGITS}f}): its largest share (batch {worst.batch} "
            f"{_name(worst)}) goes from {fit[id(worst)]:.0%} to {dear[id(worst)]:.0%}: "
            f"{_link_says(dear[id(worst)])}.")
    changed = changed_rows(rows, link, ratio)
    said += f" Every losing row, at the fit's price then the probe's: {_moves(short, link, ratio)}."
    if not changed:
        count = f"{len(short)} row{'s' * (len(short) != 1)}"  # "1 row", "2 rows"
        return said + f" Every row's reading of the link in {whose} ({count}) stands at {either}."
    if ceiling is not None:
        return said + _at_ceiling(rows, link, ceiling, len(changed), whose)
    return said + (f" {cap}'s reading changes for {len(changed)} of {len(short)} rows: this run does not "
                   "tell which price the pipeline's messages paid, so for those rows the link's part of the loss is not "
                   "decided by this run.")


def reread_at_probe(rows: list[Row], link: Link, ratio: float, ceiling: float | None = None,
                    whose: str = "section 9") -> str:
    """Section 8's rule for any other section's rows (``whose``): their link verdicts read again at the
    probe's price (or, where the placements refute it, at the ceiling), each row whose word changes not decided."""
    return _at_probe_price(rows, link, ratio, ceiling, whose).strip()


def price_table(rows: list[Row], link: Link, ratio: float, refuted: bool = False,
                ceiling: float | None = None) -> Table | str:
    """The one-line answer to "does the link explain the gap?" at both prices, a row per losing row: its link
    time and loss (ms, as ``link_table`` prints them), its share at the fit's price and at the probe's
    (``ratio``, that share times the price as printed), each with its word (``_short_word``). "" where no row
    lost time (nothing to read at either price). ``refuted``: section 8's messages cost less than the probe's
    price (``placement.overpriced``), so the title says the probe's column does not hold in this launch; with
    ``ceiling`` (``placement.price_ceiling``: the most a message cost there), the second price is that ceiling,
    and a last column says whether each row's word stands between the two prices or is not decided."""
    short, k = losing_rows(rows), as_printed(ratio, PRICE_DIGITS)
    if not short:
        return ""
    at_ceiling = refuted and ceiling is not None  # the probe's price refuted: read at the most a message cost
    upper = ceiling if at_ceiling else ratio
    out = []
    for r in short:
        fit, dear = link_share(r, link.alpha, link.beta), link_share(r, link.alpha, link.beta, upper)
        row = (r.batch, _name(r), f"{link_time(r, link.alpha, link.beta) * 1e3:.1f}", *loss_operands(r),
               f"{lost_time(r) * 1e3:.1f}", f"{fit:.0%}", _short_word(fit), f"{dear:.0%}", _short_word(dear))
        out.append(row if not at_ceiling else row + (
            "stands" if _short_word(fit) == _short_word(dear) else "not decided by this run",))
    columns = ["batch", "schedule", "link time ms", *LOSS_COLUMNS, "lost to the bound ms", "share at the fit's price",
               "it reads"]
    if not at_ceiling:
        return Table(columns + [f"share at the probe's ({k:.{PRICE_DIGITS}f}x)", "it reads"], out, wrap=30,
                     title=f"Does the link explain each row's loss? At the fit's price and at {k:.{PRICE_DIGITS}f}x it" + (
                         " (a price this launch's placements refute)" if refuted else ""))
    c = as_printed(ceiling, PRICE_DIGITS)
    return Table(columns + [f"share at the ceiling ({c:.{PRICE_DIGITS}f}x)", "it reads", "between the two prices"], out, wrap=30,
                 title=(f"Does the link explain each row's loss? At the fit's price and at {c:.{PRICE_DIGITS}f}x it, the most "
                        f"this launch's placements allow a message (the probe's {k:.{PRICE_DIGITS}f}x: refuted)"))


def probe_line(ratio: float, rows: list[Row], link: Link, refuted: bool = False,
               ceiling: float | None = None, figures: tuple[float, float, int] | None = None) -> str:
    """Section 8's visible line on the probe: its price against section 5's, and, only where the block below
    reads section 5's link verdicts again (``rereads``), how many of them change at the probe's price.
    ``refuted``: the placements' extra messages cost less than the probe's price in this launch
    (``placement.overpriced``): then the re-reading is said not to hold here, whatever it changes, and, with
    ``ceiling`` (the most a message cost there, times the fit's price), how many readings change up to it.
    ``figures``: (the 4-byte probe, the activation, its bytes): how many change at the probe's two figures."""
    said = f"One activation, timed here: {as_printed(ratio, PRICE_DIGITS):.{PRICE_DIGITS}f}x the price section 5 used"
    if not rereads(rows):
        return said
    changed, short = changed_rows(rows, link, ratio), losing_rows(rows)
    said += (f" (the block below reads section 5's link verdicts again at this price: {len(changed)} of "
             f"{len(short)} change)" if changed else
             f" (the block below reads section 5's link verdicts again at this price: all {len(short)} stand)")
    if refuted:  # the messages inside a step cost less than the probe: its price is a ceiling this run refutes
        said += (". But this launch's placements refute that price: their extra messages cost less than the probe "
                 "says, so the re-reading at the probe's price does not hold here")
        if ceiling is not None:  # the block reads them again at the most a message cost: said the same way
            moved, c = changed_rows(rows, link, ceiling), as_printed(ceiling, PRICE_DIGITS)
            said += (f"; at the most a message cost there ({c:.{PRICE_DIGITS}f}x the fit's price), " +
                     (f"{len(moved)} of {len(short)} change" if moved else f"all {len(short)} stand"))
            said += _ceiling_conclusion(len(moved), len(short))
    if figures:  # (4-byte probe s, activation s, its bytes): the rows priced per message, not by one ratio
        moved = fixed_cost_moved(rows, link, *figures)
        said += (f"; at the probe's own fixed and per-byte cost, {len(moved)} of {len(short)} change: "
                 "not decided by this run" if moved else
                 f"; at the probe's own fixed and per-byte cost, all {len(short)} stand too")
    return said


def _ceiling_conclusion(moved: int, short: int) -> str:
    """What the visible line concludes about the link from the readings between the fit's price and the
    placements' ceiling (``_at_ceiling`` says the same in the block): changed ones are not decided by this run."""
    if not moved:
        return ": this run does not change section 5's reading of the link"
    if moved == short:
        return ": for these rows the link's part of the loss is not decided by this run"
    return (f": for those {moved} the link's part of the loss is not decided by this run; the other rows' readings "
            "stand")


MESSAGE = 2**20  # bytes: the one message size every link below is priced at, side by side


def _ms(link, n_bytes: int = MESSAGE) -> float:
    """A message's price in ms, as every sentence on the page prices it (``message_time``: α and β as printed)."""
    return message_time(link, n_bytes) * 1e3


def link_sources(recorded: Link | None, fit: Link, unpinned: Link | None = None) -> tuple[Link, str]:
    """Which link the lesson's arithmetic uses, and a sentence that says so and why. ``fit``: this run's fit
    of the link in the pipeline workers' own layout (``runs.link_model``: on CPU workers, each pinned to its
    core with its gloo threads; on GPUs, a datasheet peak); ``unpinned``: the same fit with the workers placed
    by the operating system, lesson 00's layout; ``recorded``: lesson 00's fit from this mode's ledger
    (``runs.recorded_link``), or None. On CPU workers the arithmetic uses ``fit``, the price of the messages
    as the pipeline sends them, and the sentence sets a 1 MiB message's price by all three side by side, with
    what their differences say (beyond the fits' accuracy or not). On GPU workers it uses lesson 00's
    measured fit where recorded, else the datasheet peak. Returns ``(link, sentence)``."""
    if fit.accuracy is None:  # GPU workers: a datasheet peak, no fixed cost
        if recorded is None:
            return fit, ("Lesson 00 has not recorded the link in this mode's ledger (run lesson 00 to set these "
                         f"messages beside the machine profile's link): the arithmetic below uses the {fit.where}.")
        return recorded, (f"The link: lesson 00's link fit, the machine profile's: α "
                          f"{recorded.alpha * 1e6:.1f} µs, β {recorded.beta / 1e9:.2f} GB/s, {recorded.where}; beside it, the link's datasheet "
                          f"peak: β {fit.beta / 1e9:.0f} GB/s, no fixed cost. The arithmetic below uses lesson 00's, "
                          "measured on this machine's link.")
    said = (f"The link, as the pipeline's workers send: {fit.where}.{_coarse_fit(fit)} The arithmetic below uses "
            f"this fit, because these workers, in this layout, send the pipeline's messages. A {MESSAGE // 2**20} MiB message: "
            f"{price_text(_ms(fit))} ms by it")
    if unpinned is not None:
        said += (f"; {price_text(_ms(unpinned))} ms between workers the operating system placed (lesson 00's layout), "
                  "fitted now")
    said += (f"; {price_text(_ms(recorded))} ms by lesson 00's fit, the machine profile's (from the ledger)." if recorded else
             "; lesson 00 has not recorded the link in this mode's ledger (run lesson 00 to set it beside these).")
    if unpinned is not None and fit.pinned:
        said += " " + layout_reading(_ms(fit), _ms(unpinned), max(fit.accuracy, unpinned.accuracy))
        if recorded is not None:
            said += " " + ledger_reading(_ms(unpinned), _ms(recorded), max(recorded.accuracy, unpinned.accuracy))
    return fit, said


COARSE_FIT = 0.50  # a fit that misses some size by this share or more: its prices are orders of magnitude


def _coarse_fit(fit: Link) -> str:
    """Said once, up front, where the fit misses some timed size by ``COARSE_FIT`` or more (as printed): every
    link time, share and price read from it is then an order of magnitude, not a measurement ("" otherwise)."""
    if not fit.accuracy or as_printed(fit.accuracy, 2) < COARSE_FIT:
        return ""
    return (f" A fit that far off ({accuracy_text(fit.accuracy)}: {tolerance_text(fit.accuracy)} its line) makes "
            "every link time, share of a loss and price read from it "
            "good to about an order of magnitude only: an estimate, not a measurement.")


def probe_price(probe: float, link: Link, n_bytes: int) -> float:
    """The probe's time (s) over the price ``link`` gives the same message, worked from the two ms as section 8
    prints them (3 significant figures, ``claims.sig_text``): 1.97 / 0.860 = 2.3x, the reader's division."""
    fitted = as_printed_sig(message_time(link, n_bytes), 3, 1e-3)  # never 0 ms to 3 figures: a message costs time
    return as_printed_sig(probe, 3, 1e-3) / fitted


def probe_reading(probe: float, n_bytes: int, link: Link, largest_share: float, recorded: Link | None = None,
                  unpinned: Link | None = None, rows: list[Row] | None = None, ceiling: float | None = None,
                  tiny: float | None = None) -> str:
    """Section 8's check of the price section 5 used: one activation of ``n_bytes``, timed in section 8's
    launch (``probe``, s, the median of its round trips, halved), against ``link`` (the one section 5's
    arithmetic used, whose ``largest_share`` of a step it printed), in both directions; then, where given,
    what the same message costs between workers the operating system placed (``unpinned``, fitted in section
    5, and lesson 00's fit, ``recorded``), so that a reader sees why lesson 00's price differs. ``rows``:
    section 5's rows; their reading of the link (``link_reading``) is read again at the probe's price, as
    section 5 promises, within the fit's accuracy or beyond it, and the sentence says which readings change.
    ``ceiling``: where section 8's placements refute the probe's price (``placement.price_ceiling``), the most
    a message cost there, times the fit's price: the rows are read at it too, and only those whose word
    changes up to it are not decided (``_at_ceiling``). ``tiny``: the same launch's 4-byte message (s), the
    probe's fixed cost: the rows are read again at the probe's two figures (``fixed_cost_reading``)."""
    fitted = message_time(link, n_bytes)
    ratio, size = probe_price(probe, link, n_bytes), f"{n_bytes / 2**20:.1f} MiB"
    took, priced = as_printed_sig(probe, 3, 1e-3), as_printed_sig(fitted, 3, 1e-3)  # the two ms as printed
    said = (f"Section 5 priced its messages with the link it used, α + bytes/β: {sig_text(fitted, 3, 1e-3)} ms for "
            f"this {size} activation, which took {sig_text(probe, 3, 1e-3)} ms here "
            f"({as_printed(ratio, PRICE_DIGITS):.{PRICE_DIGITS}f}x that price" +  # the ratio each re-reading multiplies by
            (f", {factor_text(took, priced, PRICE_DIGITS)} it" if took < priced else "") + "): ")  # beside tolerance
    if link.accuracy is None:  # a datasheet peak: a bound, which a message can only take longer than
        return said + ("faster than the datasheet's peak allows: a finding to explain." if ratio < 1 else
                       f"above it, as a bound allows: section 5's link times may run short by about as much (its "
                       f"largest share of a step, {largest_share:.1%}, would be {at_price(largest_share, ratio):.1%}).") \
            + _at_probe_price(rows or [], link, ratio, ceiling)
    how = against_fit(took, priced, link.accuracy, PRICE_DIGITS)  # the factor beside the tolerance's
    if how == "within":
        said += (f"within the fit's accuracy ({tolerance_text(link.accuracy)}): section 5's prices hold for these "
                 "messages, to that accuracy.")
    else:
        said += (f"beyond the fit's accuracy ({tolerance_text(link.accuracy)}): section 5's link times may run "
                 f"{'short' if how == 'above' else 'long'} by about as much (its largest share of a step, "
                 f"{largest_share:.1%}, would be {at_price(largest_share, ratio):.1%}).")
    # one ratio at 1 MiB prices every size alike: with the 4-byte probe, the rows are priced at its two figures too
    either = "either price" if tiny is None else f"the fit's price and at {as_printed(ratio, PRICE_DIGITS):.{PRICE_DIGITS}f}x it"
    said += _at_probe_price(rows or [], link, ratio, ceiling, either=either)  # section 5 promised it: every row
    if tiny is not None and rereads(rows or []):
        said += " " + fixed_cost_reading(rows or [], link, tiny, probe, n_bytes)
    # priced as link_sources prints them (message_time: α and β as printed), one price per message on the page
    # "section 5's fit" alone names the pinned fit priced above: this one is the fit of the unpinned layout
    others = ([f"{price_text(_ms(unpinned, n_bytes))} ms by the fit section 5 made of that layout"] if unpinned else []) + (
        [f"{price_text(_ms(recorded, n_bytes))} ms by lesson 00's (from the ledger)"] if recorded else [])
    if link.pinned and others:
        said += (" Between workers the operating system placed, lesson 00's layout, the same message costs "
                 + " and ".join(others) + ": this probe, like section 5's price, was timed between workers "
                 "pinned to their own cores, as every timing launch of this lesson.")
    return said


def probe_link_time(r: Row, tiny: float, activation: float, n_bytes: int) -> float:
    """A row's messages (s) priced with the probe's own two figures, as section 8 prints them: each message the
    4-byte probe's time (0.086 ms, its fixed cost), each MiB the activation's time less that (1.78 - 0.086 ms per
    MiB): 16 x 0.086 + 2 x 1.694 = 4.8 ms. Not one ratio at 1 MiB: a small message pays mostly its fixed cost.
    As printed, to 0.1 ms rounded half up, as a reader rounds a sum of printed figures: 2 x 0.051 + 2 x 0.424 =
    0.950 reads 1.0 ms (``round`` gives 0.9, the float being 0.94999...: t34_02 #2)."""
    fixed = as_printed(tiny, 3, 1e-3)
    per_mib = max(as_printed_sig(activation, 3, 1e-3) - fixed, 0.0) / (n_bytes / 2**20)
    return half_up(r.messages * fixed + r.bytes_sent / 2**20 * per_mib, 1) * 1e-3


def probe_share(r: Row, tiny: float, activation: float, n_bytes: int) -> float:
    """A row's share of its loss at the probe's two figures, from the two ms as printed (4.8 / 40.8 = 12%)."""
    return half_up(printed_ratio(probe_link_time(r, tiny, activation, n_bytes), lost_time(r), 1, 1e-3), 2)


def fixed_cost_moved(rows: list[Row], link: Link, tiny: float, activation: float, n_bytes: int) -> list[Row]:
    """The losing rows whose word differs between the fit's price and the probe's two figures."""
    return [r for r in losing_rows(rows) if _short_word(link_share(r, link.alpha, link.beta))
            != _short_word(probe_share(r, tiny, activation, n_bytes))]


def fixed_cost_reading(rows: list[Row], link: Link, tiny: float, activation: float, n_bytes: int) -> str:
    """Section 5's losing rows read at the probe's two figures (``probe_link_time``) beside the fit's price:
    whether the probe's fixed cost agrees with the fit's α (within the fit's accuracy), and which rows' words
    change between the two prices: those are not decided by this run (the fit and the probe disagree)."""
    short, fixed, alpha = losing_rows(rows), as_printed(tiny, 3, 1e-3), alpha_ms(link.alpha)  # α as tabled
    # a factor either way, as the tolerance: 0.060 ms is 1/1.73 of 0.104 ms, beyond a factor of 1.55
    gap = against_fit(fixed, alpha, link.accuracy or 0.0)
    said = (f"The 4-byte probe's {fixed:.3f} ms is {factor_text(fixed, alpha)} the fit's α "
            f"({alpha_text(link.alpha)}): "
            f"{'within' if gap == 'within' else 'beyond'} the fit's accuracy ({tolerance_text(link.accuracy or 0)})")
    moved = [f"batch {r.batch} {_name(r)} {probe_link_time(r, tiny, activation, n_bytes) * 1e3:.1f} of "
             f"{lost_time(r) * 1e3:.1f} ms, {link_share(r, link.alpha, link.beta):.0%} to "
             f"{probe_share(r, tiny, activation, n_bytes):.0%}"
             for r in fixed_cost_moved(rows, link, tiny, activation, n_bytes)]
    said += (f"; with the probe's own figures ({fixed:.3f} ms a message, "
             f"{sig_text(activation, 3, 1e-3)} - {fixed:.3f} ms per {n_bytes / 2**20:.1f} MiB), ")
    if not moved:
        return said + f"all {len(short)} rows read the same word there too."
    return said + (f"{len(moved)} of {len(short)} rows' readings change ({'; '.join(moved)}): the fit and the probe "
                   "disagree on them, so for those rows the link's part of the loss is not decided by this run.")
