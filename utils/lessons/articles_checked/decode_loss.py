"""Lesson 09's reading of make bench's decode on two workers (rows A21, B2): its times a token and their verdict,
what its all-reduces would cost at lesson 07's fit of a whole all-reduce, and the share of the loss lesson 07 §5
timed inside them (its ledger record ``tensor_parallel_decode_allreduce_share``), which decides what the loss is. Prices are
floors (the calls back to back, nothing between); the timed share is the measurement. Used by ``timed_rows``.
"""

from __future__ import annotations

from utils import claims
from utils.lessons.articles_checked import sections
from utils.lessons.articles_checked.figures import DEVICES, LEDGER_NOISE
from utils.lessons.articles_checked.sources import ARITHMETIC, Part


def profile_link(m) -> tuple[float, float] | None:
    """Lesson 00's alpha (s) and beta (B/s) for this machine's link, from the ledger; None where not recorded."""
    alpha, beta = m["results"].get("link_alpha"), m["results"].get("link_beta")
    if alpha is None or beta is None:
        return None
    return alpha.record["value"], beta.record["value"]


def allreduce_fit(m) -> tuple[float, float] | None:
    """Lesson 07's fit of a whole all-reduce on this machine (ledger ``allreduce_fit_beta``): alpha (s) and
    beta (B/s), the operation row B2 prices (it also sums and waits for the other rank); None where not kept."""
    found = m["results"].get("allreduce_fit")
    if found is None or "alpha_s" not in found.record:
        return None
    return found.record["alpha_s"], found.record["value"] * 1e9


def profile_rejected(m) -> str:
    """Lesson 00's own test of the profile's line against its recorded run (``line_check.LineCheck``, the test
    lesson 00 prints, on ledger ``link_this_run_00`` with the profile's worst residual as its own error): where
    that run rejected the line, ", the line lesson 00's own run rejected (...)"; "" where the run lay on it or
    nothing is recorded."""
    from types import SimpleNamespace

    from utils.lessons.start_here.line_check import LineCheck, miss_text, misses

    link, run, own = profile_link(m), m["results"].get("link_00"), m["results"].get("link_residual")
    if link is None or run is None or own is None or not run.record.get("sizes"):
        return ""
    fit = SimpleNamespace(alpha=link[0], beta=link[1])
    check = LineCheck(misses(fit, run.record["sizes"], run.record["seconds"]), own.record["value"])
    worst = miss_text(check.worst[3])
    if check.grade == "one side":
        return (f", the line lesson 00's own run rejected (its messages {check.where}, "
                f"up to {worst})")
    if check.grade == "beyond":
        return f", the line lesson 00's own run rejected (its messages missed it by up to {worst})"
    return ""


def one_way_words(repeats: int) -> str:
    """How rows B2, B8 and B10 name the link's message times, one wording for all three: each the median of
    ``repeats`` one-way times, each one way half a round trip (the timer sends there and back)."""
    return f"each time the median of {repeats} one-way times (half a round trip each)"


def decode_times(record: dict) -> tuple[float, float, float]:
    """make bench's decode: one device's and tensor parallel's ms a token, as printed (two decimals), and the
    speed of the pair over one device computed from those printed figures (one rounding on every row)."""
    one, tp = (record["decode_seconds_per_token"][k] for k in ("one device", "tensor parallel"))
    return (claims.as_printed(one, 2, 1e-3), claims.as_printed(tp, 2, 1e-3),
            claims.printed_ratio(one, tp, 2, 1e-3))


def decode_words(record: dict) -> str:
    """The decode's two times and the pair's speed over one device, beside its bound (two workers: 2x) and the
    course's verdict: one timing each, no rounds, so read by the ``LEDGER_NOISE`` floor as the page's note says
    ("0.17x one device's speed, bound 2x: slower than one device: no speed-up")."""
    one, tp, speed = decode_times(record)
    speed, bound = claims.half_up(speed, 2), record.get("bound", DEVICES)  # make bench's two workers' bound
    said = claims.speedup_verdict(speed, bound, LEDGER_NOISE * speed, slower="slower than one device")
    return (f"one device {one:.2f} ms a token, tensor parallel on two workers {tp:.2f} ms: {speed:.2f}x one "
            f"device's speed, bound {bound:g}x: {said}")


def _share_of(ms: float, lost: float) -> str:
    """A price's share of the token's loss, from both as printed (two decimals), half up."""
    return claims.percent(claims.as_printed(ms, 2) / claims.as_printed(lost, 2))


def printed_cost(alpha: float, beta: float, beta_digits: int, size: int) -> float:
    """Seconds for one message of ``size`` bytes at alpha + size / beta, from alpha and beta as the row prints
    them (``link_text``: whole µs, GB/s to ``beta_digits``), so the reader's own sum from the page finds the
    price beside them (8 x (131 µs + 1,024 B / 2.36 GB/s) = 1.05 ms, not 1.06 ms from an unrounded 131.5 µs)."""
    alpha_us, beta_gbps = claims.half_up(alpha * 1e6, 0), claims.half_up(beta / 1e9, beta_digits)
    return alpha_us * 1e-6 + size / (beta_gbps * 1e9)


def link_text(alpha: float, beta: float, beta_digits: int) -> str:
    """"alpha 131 µs, beta 2.36 GB/s": a fit as printed, half up (the figures ``printed_cost`` works from)."""
    return (f"alpha {claims.half_up(alpha * 1e6, 0):.0f} µs, beta "
            f"{claims.half_up(beta / 1e9, beta_digits):.{beta_digits}f} GB/s")


def decode_priced(m, record: dict) -> Part | None:
    """What the decode's all-reduces would cost a token (two a block, ``width`` fp32 values each, as lesson 07
    §5 prices them) at lesson 07's fit of a whole all-reduce where the ledger keeps it (the machine profile's
    one-message line named beside it, with lesson 00's verdict on it; priced at that line only where no
    all-reduce fit is kept), beside the time a token lost; the share at make bench's own fit in that run
    named as such. Each price assumes the calls back to back, nothing between, and
    is only as good as its fit (lesson 07 §5 sets its price beside the fit's worst residual). What the loss is
    follows from lesson 07 §5's timing inside its decode loop (``timed_share_words``), not from the prices.
    Arithmetic."""
    depth, width = m["setups"]["decode"]
    one, tp, _ = decode_times(record)
    lost = tp - one
    if lost <= 0:
        return None

    def cost(alpha: float, beta: float, beta_digits: int) -> float:  # ms a token, from alpha and beta as printed
        return 2 * depth * printed_cost(alpha, beta, beta_digits, 4 * width) * 1e3

    said, prices = [], []
    fit, link = allreduce_fit(m), profile_link(m)
    if fit is not None:  # a whole all-reduce, the operation priced
        ms = cost(*fit, 2)
        prices.append(ms)
        said.append(f"at lesson 07's fit of a whole all-reduce on this link ({link_text(*fit, 2)}; it also sums and "
                    f"waits for the other rank): {ms:.2f} ms, {_share_of(ms, lost)} of it")
    elif link is not None:  # no all-reduce fit kept: one message's line, each all-reduce priced as one message
        ms = cost(*link, 1)
        prices.append(ms)
        said.append(f"at this machine's profile, lesson 00's line for one message ({link_text(*link, 1)})"
                    f"{profile_rejected(m)}, each all-reduce priced as one message: {ms:.2f} ms, "
                    f"{_share_of(ms, lost)} of it")
    if "alpha_s" in record:
        ms = cost(record["alpha_s"], record["beta_bytes_per_s"], 1)
        prices.append(ms)
        said.append(f"at make bench's own fit of the all-reduces in that run "
                    f"({link_text(record['alpha_s'], record['beta_bytes_per_s'], 1)}): {ms:.2f} ms, "
                    f"{_share_of(ms, lost)}")
    if not said:
        return None
    where = sections.cite(("07", "Decoding with"))
    return Part(f"a token lost {tp:.2f} - {one:.2f} = {lost:.2f} ms on two workers; its {2 * depth} all-reduces a "
                f"token, each of {4 * width:,} bytes (lesson 07's decode model, depth {depth}, width {width} fp32 "
                f"values, batch 1) priced "
                f"{'; '.join(said)}: prices as if the calls ran back to back with nothing between, each only as good "
                f"as its fit of the link{profile_set_aside(m) if fit is not None else ''}; "
                f"{timed_share_words(m, where, max(prices))}", ARITHMETIC)


def profile_set_aside(m) -> str:
    """Where lesson 07's all-reduce fit prices the calls, the machine profile's line named and why it is not
    used: one message's line, not a whole all-reduce's, and, where so, the line lesson 00's own run rejected
    ("" where lesson 00 kept no profile)."""
    link = profile_link(m)
    if link is None:
        return ""
    return (f"; not at this machine's profile, lesson 00's line for one message, not a whole all-reduce (alpha "
            f"{link_text(*link, 1).removeprefix('alpha ')}){profile_rejected(m)}")


# At least this share of the decode's loss timed inside the all-reduces: the loss is mostly spent inside them
MOSTLY = 0.5


# What lesson 07 times: the calls, not what inside them took the time (it does not tell these apart)
INSIDE = ("the exchange, waiting for the other rank or a late return: lesson 07 times the calls and does not tell "
          "these apart")


def timed_share_words(m, where: str, priced_ms: float) -> str:
    """Lesson 07 §5's in-loop timing of the all-reduces (ledger ``tensor_parallel_decode_allreduce_share``:
    ``allreduce_ms`` of ``loss_ms``), the share worked from both as printed, and what it makes of the loss:
    mostly spent inside the all-reduces (the row's claim, in inference, as far as lesson 07 times it) or
    mostly elsewhere; beside the highest price
    (``priced_ms``), whether the calls cost more in the loop than back to back. An older ledger without the
    record: lesson 07 must be re-run for it."""
    found = m["results"].get("decode_allreduce")
    if found is None:
        return (f"what the loss is, {where} times inside its own decode loop; the ledger has no such "
                "figure yet: re-run lesson 07 to record it")
    r = found.record
    inside, lost = claims.as_printed(r["allreduce_ms"], 2), claims.as_printed(r["loss_ms"], 2)
    share = inside / lost
    said = (f"{where} timed {claims.percent(share)} of its decode loss inside the all-reduces ({inside:.2f} of "
            f"{lost:.2f} ms a token, in its own run)")
    if claims.half_up(share * 100, 0) <= MOSTLY * 100:
        return said + (": at most half of the loss was spent inside the all-reduces, the rest elsewhere (more "
                       "operations a token on a rank)")
    more = (f"; more than the highest price here ({priced_ms:.2f} ms): the calls took longer inside the loop than "
            "back to back" if inside > claims.as_printed(priced_ms, 2) else "")
    return said + f": most of the loss was spent inside the all-reduces ({INSIDE})" + more
