"""The "What this lesson measured" table that ends every lesson: claim | measured here | bound or reference |
verdict, one row per statement of the lesson's Summary, every figure from this run.

Introduced in lesson 00. A *bound* comes from theory or a datasheet and nothing may pass it; a *reference*
is a rate measured on this machine, which a point may approach or pass (lesson 00's glossary).

    rows = [claims.against_bound("a 64 MiB copy stays under DRAM's bound", 10.6e9, 12.0e9, "GB/s", 1e9)]
    claims.show_claims(rows)
"""

from __future__ import annotations

from dataclasses import dataclass

from utils.tables import Table, show

COLUMNS = ["claim", "measured here", "bound or reference", "verdict"]


@dataclass(frozen=True)
class Claim:
    """One row: what the lesson says, the figure of this run, what it is set beside, and what follows."""

    claim: str
    measured: str
    against: str
    verdict: str


def against_bound(claim: str, value: float, bound: float, unit: str, scale: float = 1.0,
                  digits: int = 1) -> Claim:
    """A figure set beside a bound (a law: nothing may pass it). Above it is a finding, never a pass."""
    share = value / bound
    verdict = (f"holds: {share:.0%} of the bound" if share <= 1.0 else
               f"above the bound ({share:.0%}): a finding the lesson explains")
    return Claim(claim, f"{value / scale:.{digits}f} {unit}", f"bound {bound / scale:.{digits}f} {unit}", verdict)


def against_reference(claim: str, value: float, reference: float, unit: str, scale: float = 1.0,
                      digits: int = 1) -> Claim:
    """A figure set beside a reference (a rate measured here): its share, which may pass 100 %."""
    return Claim(claim, f"{value / scale:.{digits}f} {unit}", f"reference {reference / scale:.{digits}f} {unit}",
                 f"{value / reference:.0%} of the reference")


def claims_table(rows: list[Claim]) -> Table:
    if not rows:
        raise ValueError("a lesson's measured-claims table needs at least one row")
    return Table(COLUMNS, [(r.claim, r.measured, r.against, r.verdict) for r in rows],
                 title="What this lesson measured", wrap=34)


def show_claims(rows: list[Claim]) -> None:
    """Display the table (HTML in a notebook, text elsewhere). Returns nothing, so that a notebook cell
    ending with it shows the table once."""
    show(claims_table(rows))
