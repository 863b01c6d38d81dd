"""How lesson 04 (``notebooks/04_compression.ipynb``) shows a timing: one narrow headline table in the main
flow, and the whole measurement (fastest, median, spread, paired speedup, its noise and verdict) in the
collapsed "How this was measured" block (``utils.details.how_measured``).

    show(headline(times, "fp32", bounds={"BN folded": 1.04}, title="Folding BatchNorm"))
    how_measured("paired rounds", full_table(times, "fp32", "Folding BatchNorm"), timing_note(times))
    say("a sentence printed from the run, folded at 110 characters")
"""

from __future__ import annotations

import textwrap

from utils import bench, claims
from utils.lessons.compression.measure import (SPEEDUP_COLUMNS, TIMING_COLUMNS, against_bound, compare,
                                               speedup_cells, timing_cells)
from utils.tables import Table

__all__ = ["say", "headline", "full_table", "speedup_claim", "WIDTH"]

WIDTH = 110  # no visible output line is wider (the learner's form)


def say(text: str) -> None:
    """Print ``text`` folded at 110 characters, each paragraph (``\\n``) apart. Lesson 04."""
    print("\n".join(textwrap.fill(part, WIDTH, subsequent_indent="  ") for part in text.split("\n")))


def headline(times: dict[str, bench.Measurement], baseline: str, bounds: dict[str, float] | None = None,
             title: str = "", bound_name: str = "bound") -> Table:
    """variant | latency (fastest) | speedup | noise | bound | verdict: at most six columns. ``bounds``: by
    variant, the bound (or reference) its speedup is set beside; the verdict says where the speedup falls
    against it, or, where there is none, whether it is a measured difference at all. Lesson 04."""
    bounds = bounds or {}
    rows = []
    for name, m in times.items():
        if name == baseline:
            rows.append((name, bench.fmt_seconds(m.min), "1.00x", "", "", "baseline"))
            continue
        ratio, noise, vs_one = compare(times[baseline], m)
        bound = bounds.get(name)
        kind = "reference" if "reference" in bound_name else "bound"  # a reference may be passed; say which
        verdict = against_bound(ratio, bound, noise, kind) if bound else vs_one
        rows.append((name, bench.fmt_seconds(m.min), f"{ratio:.2f}x", f"±{noise:.0%}",
                     f"{bound:.2f}x" if bound else "", verdict))
    columns = ["variant", "latency (fastest)", "speedup", "noise", bound_name, "verdict"]
    return Table(columns, rows, title=title)


def full_table(times: dict[str, bench.Measurement], baseline: str, title: str = "") -> Table:
    """Every figure of the timing: fastest, median, spread, and the paired speedup with its noise and verdict
    (seven columns: for the collapsed block). Lesson 04."""
    return Table(["variant", *TIMING_COLUMNS, *SPEEDUP_COLUMNS],
                 [(n, *timing_cells(t), *speedup_cells(times, baseline, n)) for n, t in times.items()],
                 title=title)


def speedup_claim(claim: str, ratio: float, figure: float, noise: float = 0.0, kind: str = "bound",
                  slower: str = "slower than fp32", reference: str | None = None) -> claims.Claim:
    """A closing-table row for a speed-up set beside a ``bound`` (nothing may pass it) or a ``reference`` (what
    the bytes would give), in the course's words (``claims.speedup_verdict``): a ratio at or under 1x, or one
    whose ``noise`` (relative, round to round) covers 1x, is said to be so; otherwise the share of the figure's
    gain reached, (ratio - 1) / (figure - 1), the same convention for a bound and a reference. ``reference``,
    where given, is the column's text for a figure measured on something else (another layer): then no share of
    its gain is given. Lesson 04."""
    spread = noise * ratio
    if kind == "bound":
        return claims.against_speedup(claim, ratio, figure, spread, slower=slower)
    verdict = claims.speedup_verdict(ratio, None, spread, slower=slower)
    if verdict == "faster than the baseline" and figure > 1 and reference is None:  # the share of the gain, as a bound's verdict says
        verdict = f"faster: {(ratio - 1) / (figure - 1):.0%} of the reference's gain"
    noise_text = f" ± {spread:.2f}" if spread > 0 else ""
    return claims.Claim(claim, f"{ratio:.2f}x{noise_text}", reference or f"reference {figure:.2f}x", verdict)

