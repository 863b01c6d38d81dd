"""Lesson 07, section 5: where a tensor-parallel decode token's loss goes, from the all-reduces timed inside
the decode loop itself.

``decode.decode_worker`` times, on both ranks, every all-reduce of its timed tensor-parallel tokens
(``perf_counter`` around ``dist.all_reduce``) and returns, for the round it reports, each rank's seconds
inside them a token (``result["all_reduces"]``). The loss, the tensor-parallel token over one device's, then
splits into measured parts: rank 0's time inside the all-reduces, cut into the exchange with both ranks
inside and its wait for rank 1, and the rest, outside them. Section 4's alpha-and-beta price of the same
calls prices the exchange alone (no wait: section 4 ran its calls back to back), so it is set beside the
exchange, like for like, with its fit's worst residual as its ±; the extra operations' fixed cost is set
beside the rest.

Every figure is worked from the figures as the page prints them (ms to 2 decimals, shares in whole per cent
rounded half up), so each difference and share checks by hand.
"""

from __future__ import annotations

from utils import claims, ledger
from utils.lessons.tensor_parallel import verdicts

RECORD = "tensor_parallel_decode_allreduce_share"   # lesson 09 reads this name and its fields

# how close the all-reduces must come to the loss to "account for it": a share of the loss
WITHIN = 0.05

# The calls were timed by durations alone, with no clock the ranks share: each call's shorter rank time is
# the time after the later rank arrived, but it can still hold a rank returning late, so the exchange is at
# most that time, and the rest of rank 0's time inside is a wait or a late return. Every sentence that prints
# these figures (the answer, its detail, the cache note in decode.py) says them in these words.
SHORTER_SIDE = "(each call's shorter rank time, no shared clock: it can hold a late return)"
WAIT = "waiting for rank 1 or returning late"
LATE = "exchange or a late return, which no shared clock tells apart"


def exchange_at_most(both: float) -> str:
    """The calls' time with both ranks inside (seconds), said as the ceiling on the exchange it is."""
    return f"at most {text(both)} the exchange with both ranks inside {SHORTER_SIDE}"


def ms(seconds: float) -> float:
    """Seconds as the page prints them in ms (2 decimals), given back in seconds: the sums work from these."""
    return claims.as_printed(seconds, 2, 1e-3) * 1e-3


def text(seconds: float) -> str:
    """Seconds printed in ms, 2 decimals, rounded half up as a reader rounds."""
    return f"{claims.half_up(seconds * 1e3, 2):.2f} ms"


def less(a: float, b: float) -> float:
    """``a - b`` in seconds, both as printed, rounded half up to the ms the page prints: no float dust."""
    return claims.half_up((a - b) * 1e3, 2) * 1e-3


def section_1_excess(model: float, call: float, residual: float, parts: bool) -> tuple[float, float] | None:
    """Section 1's in-pass all-reduce against the alpha-beta model, as section 4 prints it
    (``verdicts.call_against_model``): (ms a call above the model, ms beyond the fit's residual), in seconds,
    where section 4 printed that call, timed with both ranks inside (``parts``), beyond the residual by more
    than the last printed digit (``verdicts.beyond_edge``); else
    None (no such figures on the page to set the decode's exchange beside)."""
    above, _, _, beyond = verdicts.residual_allowance(model, call, residual)
    if not parts or verdicts.beyond_edge(beyond) < 1:   # at the residual's edge: no excess to quote
        return None
    return above, beyond


def inside_clause(gap: float, inside: dict) -> str:
    """Rank 0's measured time inside the all-reduces (its clock timed the token, so its time inside and
    outside the calls adds up to the token), rank 1's beside it, and rank 0's cut in two: the exchange with
    both ranks inside (at most: ``SHORTER_SIDE``) and its wait for rank 1 or late return, named apart as a share of
    the loss."""
    mine, theirs, both = ms(inside["rank 0"]), ms(inside["rank 1"]), ms(inside["both inside"])
    wait = less(mine, both)
    said = (f"rank 0, whose clock timed the token, spent {text(mine)} a token inside its {inside['calls']:g} "
            f"all-reduces (rank 1: {text(theirs)}), {claims.percent(mine / gap)} of the loss: ")
    if wait <= 0:
        return said + exchange_at_most(both) + ": all of rank 0's time inside, no wait for rank 1"
    return (said + exchange_at_most(both) + f", the other {text(wait)} ({claims.percent(wait / gap)} of the "
            f"loss) {WAIT}")


def price_band(price: float, residual: float) -> tuple[float, float, str]:
    """Section 4's price of the calls (seconds, as printed) widened by its fit's worst residual as printed
    (a whole per cent): (lowest, highest, "±28%"), the two ends rounded half up to the ms the page prints."""
    share = claims.as_printed(residual, 2) * 100   # as section 4 prints it ("28%"), and prices with it
    low, high = (claims.half_up(price * 1e3 * (1 + sign * share / 100), 2) * 1e-3 for sign in (-1, 1))
    return low, high, f"±{share:.0f}%"


def exchange_clause(gap: float, inside: dict, price: float, saved: float, residual: float) -> str:
    """The exchange with both ranks inside against section 4's alpha-beta price of the same calls, which
    prices no wait: like for like. Three outcomes, from the figures as printed: above the price's band
    (the fit's worst residual), within it, below it. The calls' time with both ranks inside is what was
    measured; the exchange is at most that time (``SHORTER_SIDE``), so an excess over the price is a ceiling
    and a shortfall below it a floor."""
    both = ms(inside["both inside"])
    low, high, band = price_band(price, residual)
    said = (f"section 4's alpha and beta price these calls at {text(price)} ({band}, its fit's worst "
            f"residual: {text(low)} to {text(high)}; {'more' if price > saved else 'no more'} than the "
            f"{text(saved)} the halved bytes save), the exchange alone, no wait: ")
    if both > high:
        above = less(both, price)
        return (said + f"the exchange took at most {text(above)} more than that price "
                f"({claims.percent(above / gap)} of the loss), at most {text(less(both, high))} beyond its "
                f"{band}")
    if both < low:
        return (said + f"the exchange took at least {text(less(price, both))} less, below its {band}: inside "
                "the loop the calls cost less than section 4's back to back; this run does not time why")
    return (said + f"the calls' time with both ranks inside lies within its {band}, so the exchange, at most "
            "that time, is not above it: the calls' fixed cost and bytes account for it")


def extra_ops_words(extra_ops: int, extra_launch: float, per_op: float,
                    counts: tuple[int, int, int] | None = None) -> str:
    """What the operations a rank runs beyond one device's, outside its all-reduces, cost, with the
    subtraction a reader redoes from the table: "its 12 extra operations outside the all-reduces (116 - 96 - 8
    all-reduces, each counted as one) cost 0.04 ms at 3.3 us each". The table's columns differ by 20,
    all-reduces included; those lie inside the time already timed, so they are named as taken out.
    ``counts``: (a rank's operations a token, one device's, the all-reduces a token)."""
    cost = f"cost {text(extra_launch)} at {per_op * 1e6:.1f} us each"
    if counts is None:
        return f"its {extra_ops} extra operations outside the all-reduces {cost}"
    tp_ops, one_ops, calls = counts
    left = tp_ops - one_ops - calls
    sum_text = f"{tp_ops} - {one_ops} - {calls} all-reduces"
    if left <= 0:   # the table's extra operations are all all-reduces, or fewer
        return f"the extra operations outside the all-reduces cost nothing: {sum_text} = {left}"
    return (f"its {extra_ops} extra operations outside the all-reduces ({sum_text}, each counted as one) "
            + cost)


def rest_clause(one_t: float, tp_t: float, inside: dict, extra_ops: int, extra_launch: float,
                per_op: float, counts: tuple[int, int, int] | None = None) -> str:
    """What is left outside the all-reduces, read against the loss: the three outcomes, each said from the
    run's figures as printed (within 5 % of the loss, more than it, less than it). ``counts``: as in
    ``extra_ops_words``."""
    gap, mine = tp_t - one_t, ms(inside["rank 0"])
    rest = claims.half_up((gap - mine) * 1e3, 2) * 1e-3   # the loss outside the all-reduces
    outside = claims.half_up((tp_t - mine) * 1e3, 2) * 1e-3   # rank 0's token outside them
    ops = extra_ops_words(extra_ops, extra_launch, per_op, counts)
    if abs(rest) <= WITHIN * gap:
        return (f"so the all-reduces account for the loss, within 5 %: {text(rest)} of it lies outside them "
                f"({text(gap)} - {text(mine)}), beside which {ops}")
    if rest < 0:   # the calls took more than the loss: outside them the split token is the faster one
        return (f"so the all-reduces take more than the whole loss, by {text(-rest)}: outside them rank 0's "
                f"token took {text(outside)} ({text(tp_t)} - {text(mine)}), less than one device's "
                f"{text(one_t)}, though {ops}")
    share = claims.percent(rest / gap)
    return (f"so the all-reduces take less than the loss: the other {text(rest)} ({share}) ran outside them "
            f"({text(gap)} - {text(mine)}), of which {ops}; this run does not take the rest apart")


def parts_of_loss(gap: float, inside: dict, price: float, residual: float) -> dict[str, float]:
    """The loss's measured parts, seconds as printed, each above zero: the exchange (split into its price
    and the excess over it where it lies above the price's band), rank 0's wait for rank 1, and the time
    outside the all-reduces."""
    mine, both = ms(inside["rank 0"]), ms(inside["both inside"])
    parts = ({"price": price, "excess": less(both, price)} if both > price_band(price, residual)[1] else
             {"exchange": both})
    parts.update(wait=less(mine, both), outside=less(gap, mine))
    return {name: size for name, size in parts.items() if size > 0}


def largest_part(gap: float, inside: dict, price: float, residual: float,
                 in_pass: tuple[float, float] | None) -> str:
    """The loss's largest measured part, and what this run can say of it. The exchange's excess over its
    price is measured as the calls' time with both ranks inside beyond it, exchange or a late return (no
    shared clock tells them apart), so that is what is ranked and named; section 1's calls, on one clock,
    met an exchange's excess inside a pass, named with section 4's figures where the page prints them
    (``in_pass``: ``section_1_excess``); nothing here times its cause apart."""
    parts = parts_of_loss(gap, inside, price, residual)
    whole = "of the loss" if "outside" in parts else "of rank 0's time inside the all-reduces"
    ranked = sorted(parts.items(), key=lambda part: part[1], reverse=True)
    if not ranked or len(ranked) > 1 and ranked[0][1] == ranked[1][1]:
        return f"No one part {whole} is the largest"
    name, size = ranked[0]
    calls = inside["calls"]
    section_1 = (f"section 1's calls, on one clock with any late return left out, met an excess inside a "
                 f"pass too (section 4: {text(in_pass[0])} a call above the model, {text(in_pass[1])} beyond "
                 "its residual); this run does not time why"
                 if in_pass else "not timed apart")
    said = {"excess": f"the calls' {text(size)} with both ranks inside beyond their price "
                      f"(an excess of {text(size / calls)} a call), {LATE}: " + section_1,
            "price": f"the calls' price, {text(size)}: their fixed cost and bytes at section 4's fit",
            "exchange": f"the calls' {text(size)} with both ranks inside ({LATE}), "
                        + ("within its price's band" if size >= price_band(price, residual)[0] else
                           "below its price's band: not timed apart"),
            "wait": f"rank 0's {text(size)} inside the calls {WAIT}: not timed apart",
            "outside": f"the {text(size)} outside the all-reduces: not timed apart beyond its extra "
                       "operations"}
    return f"The largest part {whole} is " + said[name]


def loss_by_cause(one_t: float, tp_t: float, inside: dict, price: float, saved: float, extra_ops: int,
                  extra_launch: float, per_op: float, *, residual: float,
                  in_pass: tuple[float, float] | None = None,
                  counts: tuple[int, int, int] | None = None, beside_table: bool = False) -> str:
    """The answer sentence: a tensor-parallel token's loss over one device's (``tp_t - one_t``, seconds as
    printed) split into the time inside its all-reduces, measured in the decode loop (``inside``:
    ``decode_worker``'s ``"all_reduces"``), and the rest, outside them. ``price``: section 4's alpha-beta
    price of the token's all-reduces (as printed), ``residual`` its fit's worst residual; ``saved``: the
    weight floor the halved bytes save; ``extra_ops`` and ``extra_launch``: the operations a rank runs beyond
    one device's and its all-reduces, and their cost; ``in_pass``: ``section_1_excess``; ``counts``: the
    table's operation counts and the all-reduces, so the extra operations print as a subtraction.
    ``beside_table``: printed under ``loss_table``, it says only what the table does not (``_beside_table``)."""
    gap = tp_t - one_t
    if beside_table:
        return _beside_table(one_t, tp_t, inside, price, saved, residual,
                             rest_clause(one_t, tp_t, inside, extra_ops, extra_launch, per_op, counts),
                             largest_part(gap, inside, price, residual, in_pass))
    return (f"Its loss, {text(gap)} a token over one device, timed inside the decode loop: "
            + inside_clause(gap, inside) + "; "
            + exchange_clause(gap, inside, price, saved, residual) + "; "
            + rest_clause(one_t, tp_t, inside, extra_ops, extra_launch, per_op, counts) + ". "
            + largest_part(gap, inside, price, residual, in_pass))


def _beside_table(one_t: float, tp_t: float, inside: dict, price: float, saved: float, residual: float,
                  rest: str, largest: str) -> str:
    """``loss_by_cause`` under the loss table: the table prints each part's ms and share, so this says only
    what it does not: the price's band (its fit's worst residual) and where the calls lie against it, the
    rest outside the all-reduces read against the loss (``rest``: ``rest_clause``), and the largest part
    (``largest``: ``largest_part``). Rank 1's time and how the calls were timed are in ``how_timed``."""
    both = ms(inside["both inside"])
    low, high, band = price_band(price, residual)
    said = (f"Its loss, {text(tp_t - one_t)} a token over one device, is taken apart in the table above. "
            f"Section 4's price of the calls carries its fit's worst residual, {band} ({text(low)} to "
            f"{text(high)}; {'more' if price > saved else 'no more'} than the {text(saved)} the halved bytes "
            "save): the calls' time with both ranks inside lies ")
    said += (f"at most {text(less(both, high))} beyond it" if both > high else
             f"at least {text(less(price, both))} below the price, under its band: inside the loop the calls "
             "cost less than section 4's back to back; this run does not time why" if both < low else
             "within it: the calls' fixed cost and bytes account for the exchange")
    return f"{said}. {rest[3].upper()}{rest[4:]}. {largest}"   # rest_clause's "so the ..." opens a sentence


def how_timed(inside: dict) -> str:
    """The detail behind the answer, for the cell's "How this was measured" block: how the all-reduces were
    timed, and each rank's time inside them cut into the calls' time with both ranks inside (each call's
    shorter side of the two, summed: at most the exchange, ``SHORTER_SIDE``) and rank 0's wait for rank 1 or
    late return (the rest of its time inside)."""
    mine, both = ms(inside["rank 0"]), ms(inside["both inside"])
    wait = claims.half_up((mine - both) * 1e3, 2) * 1e-3
    return (f" All-reduces timed inside the decode loop: perf_counter around each dist.all_reduce of the "
            f"timed tensor-parallel tokens, on both ranks (on a GPU, synchronized before and after, which "
            f"the timed token includes); the fastest round's figures, a token, rank 1's gathered to rank 0: "
            f"{inside['calls']:g} calls, rank 0 {text(mine)} inside them, rank 1 {text(inside['rank 1'])}. "
            f"Each call's shorter side of the two ranks (its time after the later rank arrived), summed, "
            f"a token: {exchange_at_most(both)}; the other {text(wait)} of rank 0's "
            f"({text(mine)} - {text(both)}), {WAIT}.")


def record_allreduce_share(one_s: float, tp_s: float, decode: dict, generation, label: str) -> None:
    """Keep in the course ledger how much of tensor parallel's decode loss lies inside its all-reduces, for
    lesson 09: ``allreduce_ms``, rank 0's time inside them a token (``decode["all_reduces"]``), and
    ``loss_ms``, the tensor-parallel token less one device's (``one_s``, ``tp_s``), each in ms as section 5
    prints them (2 decimals); the value is their ratio, not clipped (above 1 where the calls took more than
    the whole loss, negative where tensor parallel was faster). A loss printed as 0.00 ms has no share:
    nothing is recorded. Returns nothing."""
    allreduce_ms = claims.half_up(ms(decode["all_reduces"]["rank 0"]) * 1e3, 2)
    loss_ms = claims.half_up(less(tp_s, one_s) * 1e3, 2)
    if loss_ms == 0:
        return
    g = generation
    ledger.record(RECORD, allreduce_ms / loss_ms, "share", lesson="07",
                  what=(f"KV-cache decode, batch {decode['batch']}, {decode['new_tokens'] - 1} tokens after a "
                        f"{g.prompt}-token prompt, a GPT of width {g.width}, depth {g.depth}{label}: rank 0's ms "
                        "inside its all-reduces a token over the tensor-parallel token's ms less one device's"),
                  allreduce_ms=allreduce_ms, loss_ms=loss_ms)



def share(part: float, whole: float) -> str:
    """``part / whole`` in whole per cent, half up, a negative part signed ("-5%"), zero unsigned."""
    return claims.signed_percent(part / whole).lstrip("+")


def loss_rows(one_t: float, tp_t: float, inside: dict, price: float, residual: float,
              extra_launch: float) -> list[tuple[str, float]]:
    """The loss's parts as ``loss_table`` prints them: (what, seconds as printed), a part of the row above
    marked "- ". Rank 0's time inside the all-reduces splits into the calls' time with both ranks inside
    (cut at section 4's price where it lies above the price's band: the price, then what is beyond it) and
    its wait; outside them, the extra operations' fixed cost is one part of the rest. Each group of parts
    adds up, as printed, to the row it splits; the top rows add up to the loss, the last row."""
    gap, mine, both = less(tp_t, one_t), ms(inside["rank 0"]), ms(inside["both inside"])
    low, high, band = price_band(price, residual)
    if both > high:   # the calls took more than the price and its band: the excess is a row of its own
        inner = [("both ranks inside: section 4's price", price),
                 ("both ranks inside: beyond the price (exchange or a late return)", less(both, price))]
    else:
        inner = [(f"both ranks inside ({'within' if both >= low else 'below'} section 4's price {band})",
                  both)]
    if less(mine, both) > 0:
        inner.append((WAIT, less(mine, both)))
    outside = less(gap, mine)
    rows = [("inside rank 0's all-reduces", mine)] + [("- " + what, size) for what, size in inner]
    rows.append(("outside the all-reduces", outside))
    if outside > 0 and extra_launch > 0:
        rows.append(("- the extra operations' fixed cost", extra_launch))
    return rows + [("the loss (tensor parallel - one device)", gap)]


def loss_table(one_t: float, tp_t: float, inside: dict, price: float, residual: float, extra_launch: float,
               title: str):
    """The narrow table of where a tensor-parallel token's loss goes (``loss_rows``): ms a token and share of
    the loss, each worked from the ms as printed, so a reader's own sums and divisions find them. The words
    on each part are ``loss_by_cause``'s, printed under it."""
    from utils.tables import Table

    rows = loss_rows(one_t, tp_t, inside, price, residual, extra_launch)
    gap = rows[-1][1]
    note = " (each share rounded on its own)" if shares_miss(rows) else ""   # 19% + 52% + 15% beside 85%
    return Table(["where the loss goes, a token", "ms", "share of the loss"],
                 [(what, f"{claims.half_up(size * 1e3, 2):.2f}", share(size, gap)) for what, size in rows],
                 title=title + note)


def late_note(one_t: float, tp_t: float, inside: dict, price: float, residual: float, extra_launch: float) -> list:
    """The line under ``loss_table`` where two of its rows name a late return, so that a reader does not look
    for it counted twice (t36_0708 other #4); [] where one row or none does."""
    rows = loss_rows(one_t, tp_t, inside, price, residual, extra_launch)
    if sum("late return" in what or "returning late" in what for what, _ in rows) < 2:
        return []
    return ["A late return lands in one of the two rows that name it, never both; no shared clock tells which."]


def shares_miss(rows: list[tuple[str, float]]) -> bool:
    """Whether a group of ``loss_rows`` whose ms add up to their row, as printed, has shares that, as printed
    (whole per cent), do not: 19% + 52% + 15% beside 85% (t32_0708 #4). The top rows are one group (their
    row: the loss, 100%); each row's "- " parts another, where their ms add up to it (the extra operations'
    fixed cost is one part of the rest, not all of it)."""
    gap = rows[-1][1]
    pct = lambda size: int(share(size, gap).rstrip("%"))   # noqa: E731  # as printed
    shown = lambda size: claims.half_up(size * 1e3, 2)     # noqa: E731  # ms as printed
    groups, top = [], [size for what, size in rows[:-1] if not what.startswith("- ")]
    groups.append((gap, top))
    for i, (what, size) in enumerate(rows[:-1]):
        if what.startswith("- "):
            continue
        parts = []
        for part, part_size in rows[i + 1:-1]:
            if not part.startswith("- "):
                break
            parts.append(part_size)
        if parts and abs(sum(map(shown, parts)) - shown(size)) < 0.005:
            groups.append((size, parts))
    return any(sum(map(pct, parts)) != pct(whole) for whole, parts in groups)


def answer(one_t: float, tp_t: float, measured: str, verdict: str, inside: dict) -> str:
    """The cell's one visible sentence: tensor parallel's token against one device's (seconds as printed),
    its speed-up as printed (``measured``) and verdict, and, where it lost, how much of the loss lay inside
    rank 0's all-reduces (the block below takes the rest apart). Three outcomes, as the cell branches: within
    noise, the halved bytes won (no loss), a loss."""
    said = (f"Tensor parallel: {text(tp_t)} a token against one device's {text(one_t)}, {measured} one "
            f"device's speed: {verdict}")
    gap = less(tp_t, one_t)
    if verdict.startswith("within noise"):
        return said + "; the rounds' spread covers the difference, so this run shows neither method faster"
    if gap <= 0:
        return said + "; the halved weight bytes won"
    mine = ms(inside["rank 0"])
    return (said + f"; of its {text(gap)} loss a token, {text(mine)} ({share(mine, gap)}) was rank 0's time "
            f"inside its {inside['calls']:g} all-reduces (the block below takes the loss apart)")
