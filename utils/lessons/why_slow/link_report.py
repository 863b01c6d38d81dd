"""Lesson 01 section 3's sentences and tables: the link between two workers, this run's fit over the sizes a
batch sends, set beside the machine profile's link (lesson 00's, kept once per machine). ``report`` re-exports
every name, so a cell calls ``report.link_sentence``.
"""

from __future__ import annotations

from utils import claims
from utils.lessons.start_here.line_check import (  # lesson 00's tests of a run's line
    EDGE, _size, check_line, falling_sentence, slower_than_larger)
from utils.lessons.start_here.printed import percent_shown, printed_accuracy
# lesson 00's own run of the link: the ledger name ``start_here.summary.to_ledger`` writes (one constant)
from utils.lessons.start_here.summary import LESSON00_RUN  # noqa: F401  (re-exported by ``report``)
from utils.lessons.why_slow.transfers import (
    LATENCY_NAME, PREDICTS, can_predict, latency, printed_residual, printed_time, us)
from utils.tables import Table


# --- section 3: the link ------------------------------------------------------------------------------------


def cost_rows(costs, link, can_predict: bool) -> list[tuple]:
    """One row per case; a batch sent in pieces is computed from one measured message (pieces x its time), and
    its cell says so: only a one-transfer row's time was measured as it stands."""
    return [(c.what, f"{c.n_bytes:,}", _time_cell(c),
             f"{_predicted_cell(c)} ±{link.accuracy:.0%}" if can_predict else "cannot predict",
             share_range_cell(link, c)) for c in costs]


def _predicted_cell(c) -> str:
    """The fit's prediction; for a batch in pieces worked as the measured column is: pieces x one piece's
    prediction as printed ("16 x 91.6 µs = 1,465.6 µs"), so that the product follows from the figure shown."""
    if c.transfers == 1:
        return f"{c.predicted * 1e6:,.1f} µs"
    one = claims.half_up(c.predicted * 1e6 / c.transfers, 1)
    return f"{c.transfers} x {one:,.1f} µs = {c.predicted * 1e6:,.1f} µs"


def share_range_cell(link, cost, most: float = 0.5) -> str:
    """The table's latency share, by the rule section 3's sentence and the closing verdict use
    (``latency_range``): counted with the fastest and with the slowest small message, each end as printed.
    One figure where the two ends print alike; else "lo – hi", hi capped at 100 % (a share of a time cannot
    pass the whole), so that a row never states one share where latency is known to a range only. Where the
    message beat the latency counted, no share, and the bytes' argument the closing verdict rests on
    (``bytes_cell``), so that the row and the verdict give one answer (reader t27_0001)."""
    if _beat_latency(cost.latency_share):
        return f"{share_cell(cost.latency_share)}; {bytes_cell(link, cost, most)}"
    lo, hi = (claims.half_up(end, 2) for end in latency_range(link, cost))
    low, high = claims.percent(lo), claims.percent(min(hi, 1.0))
    # the cap named in the cell, as section 3's sentence names it, so both print one band
    return low if low == high else f"{low} – {high}" + (" (capped)" if _past_100(hi) else "")


def _past_100(hi: float) -> bool:
    """Whether the slowest small message's share end passes 100 % as printed: there, the table and section 3's
    sentence both print the band capped at 100 % and say so."""
    return claims.half_up(hi, 2) > 1


def share_cell(share: float) -> str:
    """A latency share as printed. Over 100 % (as printed) the transfer beat the latency counted: a share of
    its time cannot exceed the whole, so the cell says the share is not measurable and why, with no figure."""
    if _beat_latency(share):
        return f"not measurable (took less than {LATENCY_NAME})"
    return claims.percent(share)


def bytes_cell(link, cost, most: float = 0.5) -> str:
    """What ``cost``'s bytes take of its measured time, in the closing verdict's words
    (``_beat_latency_verdict``: the same ``_bytes_share`` at the same rate, the same ``_latency_dominates``):
    "bytes 2.2 µs of 75.7 µs: latency dominates", or the bytes' share where they take ``1 - most`` or more."""
    moving, share = _bytes_share(cost, _bytes_rate(link)[0])
    said = f"bytes {moving * 1e6:,.1f} µs of {cost.measured * 1e6:,.1f} µs"
    if _latency_dominates(share, most):
        return f"{said}: latency dominates"
    return f"{said}: the bytes take {claims.percent(share)} of its time"


def _beat_latency(share: float) -> bool:
    """Whether a latency share, as printed (``claims.percent``: whole percent, half up), passes 100 %: the
    transfer ran faster than the latency counted. The cost table, section 3's sentence and the closing table's
    verdict all branch on this one test."""
    return claims.half_up(share, 2) > 1


def _ids_sentence(ids, link, most: float = 0.5) -> str:
    """What the single batch of token ids took, and how much of it is latency, by the rules of the closing
    table's verdict (``mostly_latency_verdict``), so that one question gets one answer: where the small
    messages' spread covers ``most``, the range, not one share (``_latency_side``); where it ran faster than
    the fastest small-message time (its share then passes 100 %), its bytes' share of its time
    (``_bytes_share``: the same bytes, at the same rate, under the same test)."""
    took = f"A batch of token ids ({ids.n_bytes:,} bytes) takes {ids.measured * 1e6:,.1f} µs"
    counted = f"{LATENCY_NAME}, {latency(link) * 1e6:,.1f} µs, as the table does"  # t29_0001: length
    share = claims.percent(ids.latency_share)
    if _beat_latency(ids.latency_share):  # the share past 100 %, named as such (reader t33_0001 #3)
        return (f"{took}, less than {LATENCY_NAME} ({latency(link) * 1e6:,.1f} µs, what the table counts as "
                f"latency): {past_whole_said(ids.latency_share)}; the fixed cost itself varies from moment to "
                f"moment (block below). {_bytes_said(ids, link, most)}")
    lo, hi, side = _latency_side(link, ids, most)
    rate, at = _bytes_rate(link)
    moving = f"Its bytes take {_bytes_share(ids, rate)[0] * 1e6:,.1f} µs at {at}"
    # the upper end capped at 100 %, as the table prints it (``share_range_cell``): one band in both places
    low, high = claims.percent(lo), claims.percent(min(hi, 1.0))
    if side is None:
        return (f"{took}: between {low} and {high} of it latency by the small messages' range (counting the "
                f"fastest or the slowest of them as latency{_past_whole(link, hi)}), so this run does not say whether "
                "it is mostly "
                f"latency. {moving}: the rest of its time is not its bytes.")
    mostly = "mostly latency" if side == "above" else "not mostly latency"
    # every end of the band on one side of ``most`` (reader t20_0001: "beyond ... (77% to 84%)" read as past 77%)
    spread = ("" if low == high else f" across the small messages' whole range ({low} to {high}, all {side} "
              f"{claims.percent(most)}{_past_whole(link, hi)})")
    return f"{took}, {share} of it latency (counted as {counted}): {mostly}{spread}. {moving}."


def _latency_side(link, cost, most: float) -> tuple[float, float, str | None]:
    """``cost``'s latency share range (``latency_range``), each end as printed (whole percent, half up), and
    where it lies: "above" or "below" ``most``, or None where it covers it. The course's noise rule
    (``claims.within_noise``), the range being the band: section 3's sentence and the closing table's verdict
    both read this, so the two cannot disagree."""
    lo, hi = (claims.half_up(end, 2) for end in latency_range(link, cost))
    if claims.within_noise((lo + hi) / 2, (hi - lo) / 2, most):  # lo <= most <= hi, as printed
        return lo, hi, None
    return lo, hi, "above" if lo > most else "below"


def _past_whole(link, hi: float) -> str:
    """Where counting the slowest small message as latency gives a share over 100 % (as printed), why: a share
    of a time cannot pass the whole, so that end says only how far the fixed cost itself varies on this run."""
    if not _past_100(hi):
        return ""
    from utils.lessons.why_slow.transfers import SMALL

    small = [us(s) for n, s in zip(link.fit.sizes, link.seconds) if n <= SMALL]
    return (f", capped: the slowest small message, {max(small):,.1f} µs, took longer than this batch, so counting it "
            f"would give a share over 100%, shown as 100%; the fixed cost itself ran from {min(small):,.1f} to {max(small):,.1f} µs on "
            "this run")


def _bytes_rate(link) -> tuple[float, str]:
    """The rate a message's bytes are timed at, and its name: the fit's β as printed where the fit predicts; else the
    fastest rate this run measured, as printed (the eleventh reading: β came from the fit the same sentence
    rejects). Bytes at a slower rate would take longer still, and the fit's β sat above every measured rate."""
    if can_predict(link):  # β as printed (reader t34_0001 #2: 8,192 B at 3.81 GB/s is 2.2 µs, not 2.1)
        return claims.as_printed(link.fit.beta, 2, 1e9) * 1e9, "β"
    # the fastest row of the block's GB/s column, as printed (the fourteenth reading: the unrounded seconds
    # gave 4.57 beside a block whose fastest row, 1,048,576 bytes in 229.7 µs, reads 4.56)
    fastest = max(printed_rate(n, s) for n, s in zip(link.fit.sizes, link.seconds))
    return fastest * 1e9, f"the fastest rate this run measured ({fastest:.2f} GB/s)"


def printed_rate(n: float, seconds: float) -> float:
    """The GB/s ``link_table`` prints for ``n`` bytes in ``seconds``: worked from the µs as printed (a 0.0 µs
    counts as 0.1, its rounding step) and rounded half up to two decimals, as a reader divides the row."""
    return claims.half_up(n / ((us(seconds) or 0.1) * 1e-6) / 1e9, 2)


def _bytes_share(cost, rate: float) -> tuple[float, float]:
    """The seconds ``cost``'s bytes (all its transfers) take at ``rate`` (``_bytes_rate``'s) and their share of
    its measured time, from the two µs as printed. Section 3's sentence and the closing table's verdict both
    time the batch's bytes here, so they judge the same figures."""
    moving = cost.n_bytes / rate
    return moving, claims.printed_ratio(moving, cost.measured, 1, 1e-6)


def _latency_dominates(share: float, most: float) -> bool:
    """Where a transfer beat the latency counted: latency dominates it when its bytes take less than
    ``1 - most`` of its time (``share``: ``_bytes_share``'s). The one test of the sentence and the verdict."""
    return share < 1 - most


def _of_its_time(part: float) -> str:
    """``1 - most`` in words: "half its time" at the lesson's default, else its whole percent."""
    return "half its time" if part == 0.5 else f"{claims.percent(part)} of its time"


def _bytes_said(cost, link, most: float = 0.5) -> str:
    """What ``cost``'s bytes take (``_bytes_share``): whether latency dominates it (``_latency_dominates``),
    where its share passed 100 %. The closing table's ``_beat_latency_verdict`` reads the same figures."""
    rate, at = _bytes_rate(link)
    moving, share = _bytes_share(cost, rate)
    return (f"Its bytes take {moving * 1e6:,.1f} µs at {at}" + (
        ", so latency dominates it." if _latency_dominates(share, most) else
        f", {_of_its_time(1 - most)} or more: how much of it is latency is not shown."))


def _one_message_us(c) -> float:
    """The time of one of ``c``'s messages in µs, as printed (one decimal): a total computed from it is worked
    from this figure, so that "16 x 82.3 µs" is followed by 16 x 82.3, not by the unrounded product."""
    return claims.as_printed(c.measured / c.transfers, 1, 1e-6)


def _time_cell(c) -> str:
    if c.transfers == 1:
        return f"{c.measured * 1e6:,.1f} µs, measured"
    one = _one_message_us(c)
    return f"{c.transfers} x {one:,.1f} µs = {c.transfers * one:,.1f} µs, computed"


# the share is a range where the small messages' times differ (``share_range_cell``)
COST_COLUMNS = ["what", "bytes", "time (this run's messages)", "α + n/β predicts",
                "latency share (fastest – slowest small message)"]


def link_sentence(link, costs, can_predict: bool, shape: bool = True) -> str:
    """Section 3's answer: this run's fit and what a batch of token ids costs, in one piece and in many.
    ``latency_figures_sentence`` and ``link_against_profile`` go to the measurement block under it; with
    ``shape=False`` so does ``link_shape_sentence`` (the sizes the fit misses), to keep the answer short."""
    f = link.fit
    ids, pieces = costs[0], costs[1]
    fit = (f"α = {f.alpha * 1e6:,.1f} µs and β = {f.beta / 1e9:.2f} GB/s describe every measured size within "
           f"±{link.accuracy:.0%}, so the predictions above are good to that" if can_predict else
           f"one α ({f.alpha * 1e6:,.1f} µs) and one β ({f.beta / 1e9:.2f} GB/s) are off by up to "
           f"±{link.accuracy:.0%} at some size: they cannot predict a time here, so the table gives measured times")
    one = _one_message_us(pieces)  # as printed: the total and the ratio are worked from this figure
    total = pieces.transfers * one
    ratio = total / claims.as_printed(ids.measured, 1, 1e-6)
    why = ("" if round(ratio, 1) <= pieces.transfers else
           f": more than {pieces.transfers}x, since the single message ran faster than one piece did")
    falling = " " + link_shape_sentence(link) if shape and link_shape_sentence(link) else ""
    return (f"{link.name}, {THIS_FIT}: {fit}.{falling} {_ids_sentence(ids, link)} Sent as "
            f"{pieces.transfers} messages of "
            f"{ids.n_bytes // pieces.transfers:,} bytes, one per sequence, it would take {pieces.transfers} x the "
            f"measured time of one such message ({one:,.1f} µs): {total:,.1f} µs "
            f"({ratio:.1f}x the single message{why})."
            + noisy_piece_sentence(link, ids, pieces, can_predict))  # latency's figures: the block below


def link_shape_sentence(link) -> str:
    """Where the measured times have a shape no α + n/β can follow: a rate that falls between sizes
    (``falling_sentence``; β is a fitted parameter, the rate may fall short of it) and a message slower than a
    larger one (``slower_sentence``); "" where neither. Section 3's answer or its block prints it."""
    return (falling_sentence(link.fit.sizes, link.seconds) + slower_sentence(link.fit.sizes, link.seconds)).strip()


def slower_sentence(sizes, seconds) -> str:
    """Lesson 00's flag (``line_check.slower_than_larger``), said here too: a message that took longer than a
    larger one by more than one noisy median's miss (the eleventh reading: 256 KiB at 1,369.2 µs, 512 KiB at
    157.4 µs), which no α + n/β can fit. Empty where no message did."""
    slow = slower_than_larger(sizes, seconds)
    if not slow:
        return ""
    said = "; ".join(f"{_size(n)} took {t:,.1f} µs against {u:,.1f} µs at {_size(m)}" for n, t, m, u in slow)
    many = len(slow) > 1
    return (f" {len(slow)} message{'s' * many} ran slower than a larger one, by more than the {EDGE:.0%} one "
            f"noisy median may miss by ({said}): a smaller message taking longer is something α + n/β cannot do "
            f"(its time only grows with n), so the fit misses {'them' if many else 'it'} whatever its α and β. "
            "This run does not measure why.")


THIS_FIT = "this section's fit over the sizes a batch sends, this run"  # named apart from the profile's link

def noisy_piece_sentence(link, ids, pieces, can_predict: bool) -> str:
    """Where the one message a split batch repeats sits off the fit by more than one noisy median may miss
    (EDGE, as printed), the two figures for the pieces: its measured time times the pieces, and the fit's.
    Neither is called the steadier (reader t21_0001: "a single point, noisy" beside a cell whose own test
    puts the small messages' spread past noise, and +27% inside the fit's own ±32%): the run gives a range.
    Empty where the piece lies on the fit within noise (the table's prediction says the same)."""
    size = ids.n_bytes // pieces.transfers
    seconds = dict(zip(link.fit.sizes, link.seconds)).get(size)
    residual = None if seconds is None else printed_residual(link.fit, size, seconds)  # as the table prints it
    if residual is None or percent_shown(abs(residual)) <= EDGE:
        return ""
    single = claims.as_printed(ids.measured, 1, 1e-6)  # the µs the sentence and the table print
    measured = pieces.transfers * _one_message_us(pieces)
    longer = (f"; it took longer than the {ids.n_bytes:,}-byte one" if _one_message_us(pieces) > single else "")
    text = (f" That one {size:,}-byte message sits {claims.signed_percent(residual)} off the fit: more than the "
            f"{EDGE:.0%} one noisy median may miss by")
    if not can_predict:
        return text + (f"{longer}. The fit cannot predict here, so the measured {measured:,.1f} µs is this run's "
                       f"only figure for the {pieces.transfers} pieces: one median, repeated {pieces.transfers} times.")
    return text + _piece_range(link, residual, measured, pieces, single, longer)


def _piece_range(link, residual: float, measured: float, pieces, single: float, longer: str) -> str:
    """The fit's figure for the pieces beside the measured one, both in µs as printed (the fit's as the table's
    prediction column prints it), and the range between them: this run does not say which end is the cost."""
    fitted = claims.as_printed(pieces.predicted, 1, 1e-6)
    accuracy = f"{link.accuracy:.0%}"  # the fit's ± as the sentence above prints it
    inside = int(claims.percent(abs(residual)).rstrip("%")) <= int(accuracy.rstrip("%"))
    low, high = sorted((fitted, measured))
    times = claims.half_up(fitted / single, 1)  # from the two µs as printed
    return (f", {'within' if inside else 'past'} the fit's own ±{accuracy}{longer}. By the fit, the "
            f"{pieces.transfers} pieces take {fitted:,.1f} µs ({times:.1f}x the single message): "
            f"neither figure is the steadier one, so this run puts their cost between {low:,.1f} and "
            f"{high:,.1f} µs.")


def latency_figures_sentence(link) -> str:
    """The section's two figures for the latency, each under its own name with their difference: the
    fastest small-message time (``transfers.latency``, measured: what the table's latency share counts) and this
    section's fitted α (the fixed cost as the line through every size places it). The machine profile's α is
    the third, set beside this fit by ``link_against_profile``."""
    from utils.lessons.why_slow.transfers import SMALL

    floor, alpha = latency(link), link.fit.alpha
    apart = claims.printed_ratio(alpha, floor, 1, 1e-6) - 1  # from the two µs as printed
    text = (f" Latency, two figures of this run named apart: {LATENCY_NAME}, {floor * 1e6:,.1f} µs (the fastest "
            f"message of at most {SMALL:,} bytes), which the table's latency share counts; and this section's "
            f"fitted α, {alpha * 1e6:,.1f} µs ({claims.signed_percent(apart)} from it), the fixed cost as the line through "
            "every size places it.")
    small = [(n, s) for n, s in zip(link.fit.sizes, link.seconds) if n <= SMALL]
    beat = [(n, s) for n, s in zip(link.fit.sizes, link.seconds) if n > SMALL and us(s) < us(floor)]
    lo, hi = min(s for _, s in small), max(s for _, s in small)
    # slowest over fastest, less one (from the µs as printed, to the tenth of a percent, as slower_than_larger
    # judges a gap): not the lesson's spread (range over median), so the sentence names it by what it is
    above = claims.half_up(claims.printed_ratio(hi, lo, 1, 1e-6) - 1, 3)
    agree = ("the two figures differ by less than that" if round(abs(apart), 2) <= above else
             "the two figures differ by more than that: the line through every size, not the small messages, "
             "sets the fit's α")
    # one noise rule: the loopback's noise only within the edge one noisy median may miss by (EDGE), the
    # edge past which section 3 flags a message slower than a larger one
    gap = (f"within the {EDGE:.0%} one noisy median may miss by, the loopback's noise" if above <= EDGE else
           f"more than the {EDGE:.0%} one noisy median may miss by, so not noise alone (this run does not "
           "measure why)")
    spread = (f" The messages of at most {SMALL:,} bytes took {lo * 1e6:,.1f} to {hi * 1e6:,.1f} µs (each size "
              f"is one median, timed at another moment): the slowest {above:.1%} above the fastest, between "
              f"sizes whose bytes take no time: {gap}. Latency is known to that range at best; {agree}.")
    if beat:
        listed = ", ".join(f"{n:,} bytes in {s * 1e6:,.1f} µs" for n, s in beat)
        return text + (f" {len(beat)} larger message{'s' * (len(beat) != 1)} beat {LATENCY_NAME} ({listed}), "
                       "which no message can do by its bytes; the fixed cost itself varies from moment to "
                       "moment." + spread)
    return text + f" No larger message took less than {LATENCY_NAME}." + spread


def mostly_latency_verdict(link, cost, most: float = 0.5) -> str:
    """Whether ``cost`` (a ``transfers.BatchCost``) is mostly latency, by the course's noise rule: its latency
    share counted with each small message's time (the fastest to the slowest of at most SMALL bytes: latency is
    known to that range at best); a range that covers ``most`` is "within noise", whichever side it falls.
    Section 3's sentence (``_ids_sentence``) reads the same helpers, so it gives the same answer."""
    if _beat_latency(cost.latency_share):  # not a share: judge by the bytes' share of its time instead
        return _beat_latency_verdict(cost, _bytes_rate(link)[0], most)  # the rate the sentence times them at
    lo, hi, side = _latency_side(link, cost, most)
    if side is None:
        capped = " (capped)" if _past_100(hi) else ""  # one band, as the table and section 3 print it
        return (f"within noise: no effect shown (latency {claims.percent(lo)} to {claims.percent(min(hi, 1.0))}"
                f"{capped} of its time, by the small messages' range)")
    share = f"latency {claims.percent(cost.latency_share)} of its time"
    return f"holds: {share}" if side == "above" else f"does not hold: {share}"


def latency_range(link, cost) -> tuple[float, float]:
    """``cost``'s latency share counted with the fastest and with the slowest small message's time (at most
    SMALL bytes: latency is known to their range at best), from the µs as printed, as ``latency_share`` is.
    Section 3's sentence and the closing table's verdict both read it, so one question gets one answer."""
    from utils.lessons.why_slow.transfers import SMALL

    small = [s for n, s in zip(link.fit.sizes, link.seconds) if n <= SMALL]
    one = us(cost.measured / cost.transfers) or 0.1  # one message's time
    lo, hi = (us(s) / one for s in (min(small), max(small)))  # over 1: beat that time
    return lo, hi


def past_whole_said(share: float) -> str:
    """A latency share past 100 % said with what it is: the latency counted over the message's own time, more
    than the whole, so the table prints it as not measurable (reader t33_0001 #3: a bare "(124%)")."""
    return f"a latency share of {claims.percent(share)}, past the whole, which the table prints as not measurable"


def _beat_latency_verdict(cost, rate: float, most: float) -> str:
    """A message faster than the fastest small-message time (share over 100 %): mostly latency when its bytes, at
    ``rate`` (``_bytes_rate``'s, as section 3's sentence), take less than ``1 - most`` of its time."""
    moving, share = _bytes_share(cost, rate)  # seconds, all transfers together; the share from the µs as printed
    said = (f"the message took less than {LATENCY_NAME} ({past_whole_said(cost.latency_share)}): "
            f"bytes {moving * 1e6:,.1f} µs of {cost.measured * 1e6:,.1f} µs")
    if _latency_dominates(share, most):
        return f"holds: {said}: latency (not bytes) dominates it"
    return f"does not hold: {said}: the bytes take {claims.percent(share)} of its time"


def link_table(link) -> Table:
    """Every size: measured µs, α + n/β from the α and β as printed, the residual and the rate, both worked from
    the µs as printed (``transfers.printed_time``), so that each column follows from the ones beside it. The
    rate to two decimals, the precision the sentences above work from (2.52 GB/s, not 2.521 beside it)."""
    rows = [(f"{n:,}", f"{s * 1e6:,.1f}", f"{printed_time(link.fit, n) * 1e6:,.1f}",
             f"{claims.signed_percent(printed_residual(link.fit, n, s))}", f"{printed_rate(n, s):.2f}")
            for n, s in zip(link.fit.sizes, link.seconds)]
    name, _, rest = link.describe().partition(": ")
    return Table(["bytes", "measured µs", "α + n/β µs", "residual", "GB/s"], rows,
                 title=f"{name}, {THIS_FIT}: {rest}")


def link_against_profile(link, kept) -> str:
    """Section 3's fit beside the machine profile's link (``kept``: ``MachineProfile.link``, the fit lesson 00
    measured once on this machine and kept), each under its own name: whether the profile has one, of this path,
    one its own verdict accepted, and whether this run's messages lie on its line (``check_line``, lesson 00's
    test, so that the two lessons give one verdict on one link)."""
    if kept is None:
        return ("The machine profile keeps no fit of the link yet (lesson 00 measures it once and keeps it): "
                "this section uses its own fit.")
    if kept.name != link.name:
        return f"The machine profile's link is another path ({kept.name}), so its alpha and beta are not this link's."
    f = kept.fit
    source = (f"The machine profile's link ({kept.name}, measured {kept.measured.split(' (')[0]}: the figures "
              f"lesson 00 and every later lesson quote): α = {f.alpha * 1e6:,.1f} µs, β = {f.beta / 1e9:.2f} GB/s")
    if kept.accuracy > PREDICTS:
        return (source + f", a fit lesson 00 rejected (±{kept.accuracy:.0%} worst residual, beyond the "
                f"±{PREDICTS:.0%} tolerance): this section compares nothing with it and uses its own fit.")
    said = f" (within ±{printed_accuracy(kept):.0%} of every size there)"  # lesson 00's printed ±
    # from the figures as printed: α in µs to one decimal, β in GB/s to two
    da = claims.printed_ratio(link.fit.alpha, f.alpha, 1, 1e-6) - 1
    db = claims.printed_ratio(link.fit.beta, f.beta, 2, 1e9) - 1
    check = check_line(kept, link)  # lesson 00's test, the same one: this run's points against the kept line
    own = (" This section predicts with its own fit, measured beside the batch." if link.accuracy <= PREDICTS else
           f" This section's own fit misses some size by ±{link.accuracy:.0%}, beyond the ±{PREDICTS:.0%} "
           "tolerance too, so the section uses measured times only.")
    follow = "\n" + own.strip() if check.grade in ("beyond", "one size", "one side") else ""  # not on its line: own fit
    return (source + said + f". {THIS_FIT[0].upper()}{THIS_FIT[1:]}, differs by {claims.signed_percent(da)} in α and {claims.signed_percent(db)} "
            "in β (a fit's α and β trade against each other, so the verdict is on the measured points, as in "
            f"lesson 00). {check.sentence()}{follow}")


def profile_line_claim(link, kept):
    """The closing table's row for lesson 00's test (``check_line``) on this section's messages, or None where
    the profile keeps no usable fit of this path (``link_against_profile`` then says why)."""
    if kept is None or kept.name != link.name or kept.accuracy > PREDICTS:
        return None
    return check_line(kept, link).claim(link.name)
