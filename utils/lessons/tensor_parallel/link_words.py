"""Lesson 07's all-reduce fit beside lesson 00's one-way link, and kept for lesson 08.

    say(link_words.beside_send_recv(link, PLAN))   # "" where lesson 00 kept no link on this path
    link_words.record(link, PLAN.backend)          # the course ledger: lesson 08 prices DDP's all-reduce with it

Why: lesson 00 fits one-way send/recv (t = alpha + n/beta); this lesson fits a whole all-reduce of n bytes.
On the same link the two betas differ, and lesson 08 quotes both, so the page says by how much, and why.
"""

from __future__ import annotations

from utils import claims, ledger, machine
from utils.linkmodel import AlphaBeta

RECORD = "allreduce_fit_beta"   # lesson 08 reads it (putting_it_together.allreduce_fit)


def record(link: AlphaBeta, backend: str) -> None:
    """Keep this run's all-reduce fit in the course ledger: beta (GB/s) as the value, alpha and the fit's
    worst residual beside it, for lesson 08's two-devices step on the same machine."""
    ledger.record(RECORD, link.beta / 1e9, "GB/s", lesson="07", alpha_s=float(link.alpha),
                  worst_residual=float(link.worst_residual),
                  what=f"a whole all-reduce between the two ranks ({backend}), t = alpha + n/beta fitted over "
                       f"{len(link.sizes)} sizes, n the bytes all-reduced")


def kept_send_recv(plan, path=machine.PROFILE_PATH) -> machine.LinkFit | None:
    """Lesson 00's one-way fit for the path the plan's workers use, as kept in the machine profile; None where
    it kept none or another path. Read only: nothing is measured here."""
    kept = machine.saved_link("cpu", path)
    return kept if kept and kept.name == machine.link_route(plan)[0] else None


def beside_send_recv(link: AlphaBeta, plan, kept: machine.LinkFit | None = None) -> str:
    """This all-reduce's alpha and beta beside lesson 00's one-way send/recv on the same path, the beta's
    ratio worked from the two as printed (2 decimals), and why an all-reduce's beta can sit below a copy's.
    ``kept``: lesson 00's fit (default: read from the machine profile); "" where there is none."""
    kept = kept if kept is not None else kept_send_recv(plan)
    if kept is None:
        return ""
    ratio = claims.printed_ratio(link.beta, kept.fit.beta, 2, 1e9)
    return (f"Lesson 00's one-way send/recv on {kept.name}: alpha {kept.fit.alpha * 1e6:.0f} us, beta "
            f"{kept.fit.beta / 1e9:.2f} GB/s; this all-reduce's beta is {claims.percent(ratio)} of it. Each is fitted to n, "
            "the bytes of one message: a copy sends them once, while an all-reduce of n bytes on two ranks "
            "sends about n/2 a rank in each of its two phases (halves reduced, then gathered), waits for the "
            "other rank at each, and sums what it receives on the workers' own cores; this run does not time "
            "those apart.")
