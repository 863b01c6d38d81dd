"""Lesson 08: each step beside its bound by the claims table's one rule, so the ledger and the claims table
never give two verdicts for one figure. A median above its bound is past it only beyond its rounds' spread
(``claims.within_noise``, on the figures as printed, as ``claims.against_speedup`` judges the claims row);
a median above its bound by less than its ± is at the bound, within noise.

    past_bound(gain, bound, spread)   # True: above the bound beyond the rounds' spread
    bound_summary(rows)               # the ledger's one clause on the bounds
    at_bound_words(rows)              # a sentence for each step above its bound within its spread
    bound_clause(r)                   # "bound 1.12x, its median at it within noise": the summary's words
    rounds_above_bound(rows)          # rounds above a bound under a median at or below it, with their verdict
"""

from __future__ import annotations

from utils import claims


def _shown(gain: float, bound: float, spread: float) -> tuple[float, float, float]:
    """The median, bound and ± as the claims table prints them (``claims.against_speedup``'s rounding)."""
    return round(gain, 2), round(bound, 2), claims.half_up(spread, 2)


def past_bound(gain: float, bound: float | None, spread: float) -> bool:
    """Above its bound beyond the rounds' spread: the claims table's "above the bound: a finding to explain".
    A median ± spread that still reaches the bound is "within noise of its bound", not past it."""
    if bound is None:
        return False
    value, ceiling, spread = _shown(gain, bound, spread)
    return value > ceiling and not claims.within_noise(value, spread, ceiling)


def _median_above(r: dict) -> bool:
    """The step's median, as printed, above its bound as printed (beyond its spread or not)."""
    return bool(r.get("bound")) and round(r.get("x_prev", 0.0), 2) > round(r["bound"], 2)


def at_bound_steps(rows: list[dict]) -> list[dict]:
    """The steps whose median lies above the bound but within the rounds' spread of it."""
    return [r for r in rows if "skipped" not in r and r.get("within") and _median_above(r)]


def bound_summary(rows: list[dict]) -> str:
    """One clause for the ledger: the steps past their bound beyond the spread, else those at it."""
    past = [r["step"] for r in rows if "skipped" not in r and not r.get("within", True)]
    if past:
        return f"Above its bound beyond its rounds' spread: {', '.join(past)} (see below). "
    at = [r["step"] for r in at_bound_steps(rows)]
    if at:
        return (f"No step passed its bound beyond its rounds' spread; the median of {', '.join(at)} lies above "
                "it within that spread (see below). ")
    return "No step's median passed its bound. "


def at_bound_words(rows: list[dict]) -> list[str]:
    """For each step at its bound within noise: its median above the bound, the lower edge of its ± worked
    from the printed figures (1.16 - 0.03 = 1.13), and how many rounds as printed lie above the bound."""
    out = []
    for r in at_bound_steps(rows):
        value, ceiling, spread = _shown(r["x_prev"], r["bound"], r.get("noise", 0.0))
        low = claims.half_up(value - spread, 2)
        shown = [claims.as_printed(x, 2) for x in r.get("ratios", [])]
        above = [x for x in shown if x > ceiling]
        rounds = (f" {len(above)} of {len(shown)} paired rounds lie above it (highest {max(above):.2f}x), listed "
                  "under these lines: a bound is a ceiling, not a pass mark, and a quiet machine's re-run is the "
                  "one to compare." if above else "")
        out.append(f"{r['step']}: its median {value:.2f}x lies above its bound {ceiling:.2f}x, within its rounds' "
                   f"spread ({value:.2f} - {spread:.2f} = {low:.2f}): at its bound within noise, as the claims "
                   f"table says, not beyond it.{rounds}")
    return out


def bound_clause(r: dict) -> str:
    """A ledger row's bound for the summary, with the claims table's reading where its median passed it, so
    that no line shows a median above its ceiling bare: "bound 1.12x; at it within noise"."""
    if not r.get("bound"):
        return "no bound from theory"
    said = f"bound {r['bound']:.2f}x"
    if not _median_above(r):
        return said
    return said + ("; at it within noise" if r.get("within", True) else "; past it beyond noise, a finding to explain")


def rounds_above_bound(rows: list[dict]) -> list[tuple[str, str, bool]]:
    """The steps whose median, as printed, is at or under its bound but a paired round, as printed (2
    decimals), is above it: (step, words, finding). By the median's rule a round is past the bound only
    beyond the rounds' spread: the highest round less the step's ± still above the bound is a finding to
    explain; one whose ± reaches the bound is noise (1.15 - 0.08 = 1.07, not above 1.14x: t42_0708 #1)."""
    out = []
    for r in rows:
        if "skipped" in r or not r.get("bound") or not r.get("within") or r in at_bound_steps(rows):
            continue  # no ceiling, or the median passed it (``bound_summary``, ``at_bound_words`` say those)
        bound, spread = claims.as_printed(r["bound"], 2), claims.half_up(r.get("noise", 0.0), 2)
        shown = [claims.as_printed(x, 2) for x in r["ratios"]]
        above = [x for x in shown if x > bound]
        if not above:
            continue
        high = max(above)
        low = claims.half_up(high - spread, 2)   # worked from the printed round and ±: half up
        finding = low > bound
        said = (f"{len(above)} of {len(shown)} rounds above its bound (highest {high:.2f}x against {bound:.2f}x), "
                f"{'beyond' if finding else 'within'} its rounds' spread ({high:.2f} - {spread:.2f} = {low:.2f}, "
                f"{'above' if finding else 'not above'} {bound:.2f}x): ")
        out.append((r["step"], said + ("a finding to explain." if finding else
                                       "noise, not a finding; a bound is a ceiling, not a pass mark."), finding))
    return out
