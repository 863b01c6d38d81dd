"""Lesson 09's reading of make bench's decode on two workers (rows A21, B2): its times a token and their verdict,
what its all-reduces would cost at the machine profile's link, and the share of the loss lesson 07 §5 timed inside
them (its ledger record ``tensor_parallel_decode_allreduce_share``), which decides what the loss is. Prices are
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


def decode_priced(m, record: dict) -> Part | None:
    """What the decode's all-reduces would cost a token (two a block, ``width`` fp32 values each, as lesson 07
    §5 prices them) at the machine profile's alpha and beta, beside the time a token lost; the share at make
    bench's own fit in that run named as such. Each price assumes the calls back to back, nothing between, and
    is only as good as its fit (lesson 07 §5 sets its price beside the fit's worst residual). What the loss is
    follows from lesson 07 §5's timing inside its decode loop (``timed_share_words``), not from the prices.
    Arithmetic."""
    depth, width = m["setups"]["decode"]
    one, tp, _ = decode_times(record)
    lost = tp - one
    if lost <= 0:
        return None

    def cost(alpha: float, beta: float) -> float:  # ms a token
        return 2 * depth * (alpha + 4 * width / beta) * 1e3

    said, prices = [], []
    link = profile_link(m)
    if link is not None:
        ms = cost(*link)
        prices.append(ms)
        said.append(f"at this machine's profile, alpha {link[0] * 1e6:.0f} µs and beta {link[1] / 1e9:.1f} GB/s "
                    f"(lesson 00): {ms:.2f} ms, {_share_of(ms, lost)} of it")
    if "alpha_s" in record:
        ms = cost(record["alpha_s"], record["beta_bytes_per_s"])
        prices.append(ms)
        said.append(f"at make bench's own fit of the link in that run (alpha {record['alpha_s'] * 1e6:.0f} µs, "
                    f"beta {record['beta_bytes_per_s'] / 1e9:.1f} GB/s): {ms:.2f} ms, {_share_of(ms, lost)}")
    if not said:
        return None
    where = sections.cite(("07", "Decoding with"))
    return Part(f"a token lost {tp:.2f} - {one:.2f} = {lost:.2f} ms on two workers; its {2 * depth} all-reduces a "
                f"token (lesson 07's decode model, depth {depth}, width {width}, batch 1) priced "
                f"{'; '.join(said)}: prices as if the calls ran back to back with nothing between, each only as good "
                f"as its fit of the link; {timed_share_words(m, where, max(prices))}", ARITHMETIC)


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
        return (f"what the loss is, {where} times inside its own decode loop; this page's ledger has no such "
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
