"""Lesson 08's ledger of steps: the TorchTitan-style table, the waterfall, the claims and the course ledger.

    rows = step_rows(base_runs, compared, kept, peaks, tolerance)   # one dict per step, all from this run
    show(headline_table(rows)); how_measured("...", detail_table(rows))
    plot_waterfall(rows)     # each step's x previous against its bound
"""

from __future__ import annotations

import math

import matplotlib
import matplotlib.pyplot as plt

from utils import claims, ledger
from utils.lessons.putting_it_together import guide, peaks
from utils.lessons.putting_it_together.at_bound import (at_bound_steps, at_bound_words,  # noqa: F401
                                                           bound_clause, bound_summary, past_bound,
                                                           rounds_above_bound)
from utils.lessons.putting_it_together.ladder import ORDER, _median, paid
from utils.palette import KIND_COLORS
from utils.tables import Table


def step_rows(base_runs: list[dict], compared: dict, kept: dict, peaks: dict, tolerance: dict,
              held_out: dict | None = None, mfu: dict | None = None, why: dict | None = None) -> list[dict]:
    """The baseline, then one row per step in ``ORDER``: a skipped step with its reason, or its figures.
    ``held_out``, ``mfu`` and ``why`` by step (``ladder.Climb``'s): the loss at step N on held-out text (else
    the last training batch's), the model FLOPs utilisation, and why a step was not kept."""
    held_out, mfu, why = held_out or {}, mfu or {}, why or {}
    base_tps = base_runs[0]["tokens_per_s"]  # the baseline's one figure: its first run (section 1's)
    base_loss = held_out.get("baseline", base_runs[0]["final_loss"])
    rows = [{"step": "baseline", "tokens_per_s": base_tps, "x_prev": 1.0, "x_base": 1.0,
             "mfu": mfu.get("baseline", math.nan), "why": "",
             "peak": peaks.get("baseline", math.nan), "loss": base_loss, "dloss": 0.0,
             "tol": tolerance["fp32"],
             "loss_ok": True, "same_maths": True,
             "bound": None, "bound_what": "the starting point", "share": None, "within": True, "kept": True,
             "workers": 1, "precision": "fp32", "ratios": [], "wall_s": [r["wall_s"] for r in base_runs]}]
    chain = 1.0  # the kept steps' paired gains as printed (2 decimals) multiplied: x baseline, rebuilt from the page
    for name in ORDER:
        c = compared.get(name)
        if c is None or c.rung.skipped:
            rows.append({"step": name, "skipped": c.rung.skipped if c else "not run"})
            continue
        loss = held_out.get(name, c.after[0]["final_loss"])
        tol = tolerance.get(c.rung.settings.precision, tolerance["fp32"])
        bound = c.bound
        # the loss minus the baseline's from the two as printed (4 decimals), as a reader subtracts them
        dloss = claims.half_up(claims.as_printed(loss, 4) - claims.as_printed(base_loss, 4), 4)
        rows.append({"step": name, "tokens_per_s": c.tokens_per_s, "x_prev": c.gain,
                     "mfu": mfu.get(name, math.nan), "why": why.get(name, ""),
                     "x_base": chain * claims.as_printed(c.gain, 2), "peak": peaks.get(name, math.nan),
                     "loss": loss,
                     "dloss": dloss, "tol": tol, "loss_ok": abs(dloss) <= tol,
                     "same_maths": c.rung.same_maths, "bound": bound, "bound_what": bound_words(c),
                     "share": share_of_bound(c.gain, bound, paid(c.ratios)), "paid": paid(c.ratios),
                     # the claims table's rule: past its bound only beyond its rounds' spread
                     "within": not past_bound(c.gain, bound, claims.printed_spread(c.ratios)),
                     "kept": kept[name],
                     "workers": c.rung.workers, "precision": c.rung.settings.precision,
                     "noise": claims.printed_spread(c.ratios),
                     "ratios": c.ratios, "wall_s": [r["wall_s"] for r in c.before + c.after]})
        chain *= claims.as_printed(c.gain, 2) if kept[name] else 1.0
    return rows


def bound_words(c) -> str:
    """A step's "what the bound is" (``ladder.Compared``'s rung), with the optimizer's O/T as printed (3
    decimals; ``Compared.bound`` is worked from it), so that its 1/(1 - O/T) checks by hand."""
    if not c.rung.removes_s:
        return c.rung.bound_what
    share, runs = claims.as_printed(c.removable_share, 3), c.removable_runs
    of = ("the median of the kept runs' own, O / T in ms: " + ", ".join(f"{o:.1f} / {t:.1f}" for o, t in runs)
          if runs else f"O the profile's {claims.half_up(c.rung.removes_s * 1e3, 1):.1f} ms over T, the kept "
          f"runs' median step, {c.kept_step_ms:.1f} ms")
    return f"{c.rung.bound_what}; here O/T = {share:.3f} ({of}), so 1/(1 - {share:.3f})"


def share_of_bound(gain: float, bound: float | None, paid_off: bool = True) -> float | None:
    """The share of the bound's gain reached, from the figures as printed (2 decimals), as the claims table
    computes it: one figure in both tables. None for a step within noise (no gain shown) or without a bound."""
    gain, bound = claims.as_printed(gain, 2), claims.as_printed(bound, 2) if bound else bound
    if not paid_off or not bound or bound <= 1:
        return None
    return max(0.0, gain - 1) / (bound - 1)


def share_words(r: dict) -> str:
    """A ledger row's share of its bound's gain as printed: "32%" up to 100 %; a median above its bound gets no
    share over 100 % (a ceiling's gain read as passed) but the claims table's reading of it."""
    if r["share"] is None:
        return ""
    if r["share"] <= 1:
        return claims.percent(r["share"])   # half up, as the claims table rounds it
    return "at its bound within noise" if r.get("within", True) else "past its bound beyond noise"


def ran(rows: list[dict]) -> list[dict]:
    return [r for r in rows if "skipped" not in r]


def final(rows: list[dict]) -> dict:
    """The last step kept: where the ledger ends."""
    return [r for r in ran(rows) if r["kept"]][-1]


def _loss_cell(r: dict) -> str:
    """The held-out loss to 4 decimals, as section 4, the summary and the claims table print it: its differences
    from the baseline's are checked against a 0.001 tolerance, which 3 decimals could not show (t38_0708)."""
    return f"{r['loss']:.4f}" + ("" if r["same_maths"] else " (bigger batch)")


def headline_table(rows: list[dict], label: str = "") -> Table:
    """TorchTitan's form: step | tokens/s (MFU) | x previous (bound) | x baseline | peak
    memory | held-out loss at step N. Tokens/s is the median of the step's own runs (unpaired: a ratio of two
    rows is noisier than x previous, and no verdict reads it), MFU its model FLOPs over the matmul peak of its
    dtype (x workers); x previous the median of its paired rounds, beside its bound; x baseline the product of
    the kept steps' x previous as printed (runs minutes apart on a shared machine are not compared directly),
    blank for a step not kept."""
    out = []
    for r in rows:
        if "skipped" in r:
            out.append((r["step"], "skipped", "", "", "", ""))
            continue
        name = r["step"] + ("" if r["kept"] else " (not kept)")
        mfu = f" ({mfu_text(r['mfu'])})" if not math.isnan(r["mfu"]) else ""
        bound = f" (bound {r['bound']:.2f}x)" if r["bound"] else ""   # a ceiling, which a median may pass
        base = f"{r['x_base']:.2f}x" if r["kept"] else ""  # a step not kept adds nothing to the climb
        out.append((name, f"{r['tokens_per_s']:,.0f}{mfu}", f"{r['x_prev']:.2f}x{bound}",
                    base, f"{r['peak'] / 2**20:.1f} MiB", _loss_cell(r)))
    return Table(["step", "tokens/s (MFU)", "x previous (bound)", "x baseline",
                  "peak memory", "held-out loss, step N"], out, title=f"The ledger of steps{label}")


def detail_table(rows: list[dict]) -> Table:
    """The rest: each step's bound and the share of its gain reached, every round, the loss's check."""
    out = []
    for r in rows:
        if "skipped" in r:
            out.append((r["step"], "", "", "", "", r["skipped"]))
            continue
        bound = f"{r['bound']:.2f}x" if r["bound"] else "none"
        share = share_words(r)
        rounds = ", ".join(f"{x:.2f}x" for x in r["ratios"])
        check = "same maths" if r["same_maths"] else "changes the maths"
        why = ("; " + ("" if r["kept"] else "not kept: ") + r["why"]) if r.get("why") else ""
        out.append((r["step"], bound, share, rounds, f"{r['dloss']:+.4f} (tol {r['tol']:g}, {check})",
                    r["bound_what"] + why))
    return Table(["step", "bound (x previous)", "share of the bound's gain", "paired rounds (x previous)",
                  "held-out loss - baseline's", "what the bound is"], out,
                 title="Each step's bound, rounds and loss",
                 wrap=40)


SHORT_BAR = 0.03   # a bar under 3 % of the log axis's height (about 7 of its ~230 pixels): a thin bar, marked
UNSEEN_BAR = 0.008   # under about 2 pixels: no taller than its two edges (0.6 pt each), it shows no fill at all


def _waterfall_limits(steps: list[dict]) -> tuple[float, float]:
    """The waterfall's y range (log): every bound and error bar inside it, 0.8x to 2x at the least."""
    tops = [max(r["x_prev"] + r.get("noise", 0.0), r["bound"] or 0) for r in steps] or [2.0]
    bottoms = [(r["x_prev"] - r.get("noise", 0.0)) * 0.9 for r in steps]   # a slower bar's error bar shows whole
    return max(min([0.8] + bottoms), 0.05), max(tops) * 1.35


def bar_height(r: dict, steps: list[dict]) -> float:
    """The step's bar, from 1x to its x previous, as a share of the log axis's height."""
    low, high = _waterfall_limits(steps)
    return abs(math.log(r["x_prev"])) / math.log(high / low)


def too_short(r: dict, steps: list[dict]) -> bool:
    """Whether the step's bar is short on the log axis (under ``SHORT_BAR``): such a bar gets a diamond at
    its end, so a step that ran never looks like no bar at all."""
    return bar_height(r, steps) < SHORT_BAR


def short_bar_words(r: dict, steps: list[dict]) -> str:
    """How the caption names a short bar, from its height: under ``UNSEEN_BAR`` too short to see (its edges
    touch), else a short bar that shows, thin; '' for a bar that is not short (no diamond)."""
    if not too_short(r, steps):
        return ""
    size = "a bar too short to see" if bar_height(r, steps) < UNSEEN_BAR else "a short bar"
    return f"; {size}, a diamond at its end"


def plot_waterfall(rows: list[dict], label: str = ""):
    """Is every step within its bound? One bar per step that ran: its gain over the steps before it (x
    previous, the median of its paired rounds, the rounds' spread as an error bar), its bound drawn as a black
    line across it, 1x dashed. Kept steps solid, steps not kept hatched grey; a short bar (near 1x) gets a
    diamond at its end, in its bar's colour; log scale (bounds reach 6x and more, gains sit near 1x).
    The same figures as the ledger's table."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    from utils.palette import SPARE_COLORS

    kept_color, dropped = SPARE_COLORS[0], KIND_COLORS["idle"]
    steps = ran(rows)[1:]
    fig, ax = plt.subplots(figsize=(8, 3.6))
    plt.close(fig)   # shown once, by the notebook's display(fig), above the caption printed under it
    for i, r in enumerate(steps):
        # from 1x: a gain rises, a loss falls
        color = kept_color if r["kept"] else dropped
        ax.bar(i, r["x_prev"] - 1, bottom=1.0, color=color, edgecolor="black",
               linewidth=0.6, hatch=None if r["kept"] else "//", width=0.6)
        if too_short(r, steps):   # a thin bar on the log axis: its end marked so the bar is seen
            ax.plot(i, r["x_prev"], marker="D", markersize=9, markerfacecolor=color, markeredgecolor="black",
                    linestyle="", zorder=2.5)
        ax.errorbar(i, r["x_prev"], yerr=r.get("noise", 0.0), color="black", capsize=4, zorder=3)
        # the table's figure, set off the dashed 1x line where the bar ends near it
        near = "top" if r["x_prev"] < 1 else "bottom" if r["x_prev"] < 1.1 else "center"
        ax.text(i + 0.42, r["x_prev"], f"{r['x_prev']:.2f}x", va=near, fontsize=8)
        if r["bound"]:
            ax.plot([i - 0.4, i + 0.4], [r["bound"]] * 2, color="black", linewidth=2.5)
            ax.text(i - 0.4, r["bound"] * 1.04, f"bound {r['bound']:.2f}x", ha="left", va="bottom", fontsize=8)
    ax.axhline(1.0, color="black", linestyle="--", linewidth=0.8)
    ax.set_yscale("log")
    ax.set_ylim(*_waterfall_limits(steps))
    ax.set_xlim(-0.6, len(steps) - 1 + 0.8)   # room right of the last bar for its figure (at i + 0.42)
    ax.set_xticks(range(len(steps)), [r["step"] + ("" if r["kept"] else "\n(not kept)") for r in steps],
                  fontsize=9)
    ax.yaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda v, _: f"{v:g}x"))
    ax.yaxis.set_minor_formatter(matplotlib.ticker.FuncFormatter(  # a few labels: 9x beside 10x is clutter
        lambda v, _: f"{v:g}x" if round(v, 3) in (0.5, 0.8, 2, 3, 5, 20, 50) else ""))
    ax.set_ylabel("x the steps before (log)")
    handles = [Patch(facecolor=kept_color, edgecolor="black", label="kept: median of paired rounds"),
               Patch(facecolor=dropped, edgecolor="black", hatch="//", label="not kept"),
               Line2D([], [], color="black", linewidth=2.5, label="its bound"),
               Line2D([], [], color="black", linestyle="--", linewidth=0.8, label="1x: no gain")]
    if any(too_short(r, steps) for r in steps):
        handles.append(Line2D([], [], marker="D", markersize=7, markerfacecolor="white", markeredgecolor="black",
                              linestyle="", label="end of a short bar"))
    ax.legend(handles=handles, fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=len(handles),
              frameon=False)   # below the axis: off the bars
    ax.set_title(f"Each step against its bound: x the steps kept before it{label}", fontsize=9)
    fig.tight_layout()
    return fig


def waterfall_caption(rows: list[dict]) -> str:
    """The line under the waterfall, from the rows as the ledger's table prints them: each bar is a step's
    'x previous', its black line the bound in that column's brackets, and the kept (solid) bars multiply to the
    'x baseline' column; a hatched bar was not kept and adds nothing to it; a short bar is named with the
    diamond that marks its end (``too_short``, the rule the plot draws by), and as too short to see only
    where its height says so (``short_bar_words``)."""
    steps = ran(rows)[1:]
    if not steps:
        return "No step ran after the baseline: the chart has no bar, and x baseline stays 1.00x."
    bars = ", ".join(f"{r['step']} {r['x_prev']:.2f}x ("
                     + (f"line {r['bound']:.2f}x" if r["bound"] else "no bound, no line")
                     + short_bar_words(r, steps) + ")"
                     for r in steps)
    kept = [r for r in steps if r["kept"]]
    dropped = [r["step"] for r in steps if not r["kept"]]
    out = ("The chart holds the figures of the ledger's table below: each bar is a step's x previous, its "
           "error bar the ± of its paired rounds, its black line the bound in that column's brackets "
           f"({bars}). ")
    product = " x ".join(f"{r['x_prev']:.2f}" for r in kept)   # as printed: x baseline is built from these
    out += (f"The solid bars, the steps kept, multiply to the last x baseline: {product} = "
            f"{final(rows)['x_base']:.2f}x" if len(kept) > 1 else
            f"The solid bar, the one step kept, is the last x baseline, {final(rows)['x_base']:.2f}x" if kept
            else "No bar is solid: no step was kept, and x baseline stays 1.00x")
    hatched = "the hatched bar" if len(dropped) == 1 else "the hatched bars"
    return out + (f"; {hatched} ({', '.join(dropped)}) not kept, adding nothing to it." if dropped else ".")


ABOVE_BOUND = {   # candidates only: this run times none of them apart
    "feeding": "Feeding's bound counts only the loading that a loader process takes off the step (L, measured "
               "above); a loader process also changes what the training process does between steps (it no "
               "longer builds the batch, it receives one), which the bound does not model: a candidate, not "
               "tested here.",
    "optimizer": "Fused AdamW's bound counts only the optimizer step's own seconds (its share of each kept "
                 "run's step). A hypothesis this run does not test: the for-loop AdamW's dozen passes over "
                 "the weights and states may also evict from the caches what the next forward reads, a cost "
                 "the bound does not model.",
}


def above_bound(step: str) -> str:
    """Why a step's measured gain can pass its bound here, in words: the bound's own omissions (candidates,
    not tested), then noise."""
    return (ABOVE_BOUND.get(step, "") + " On this shared machine a busy moment can also favour one launch of a "
            "pair. A step above its bound is a finding, not a pass: every step's paired rounds, one ratio a "
            "round, are listed under these lines (How this was measured: each step's bound, paired rounds "
            "and loss); a quiet machine's re-run is the one to compare.").strip()


def total_bound(rows: list[dict]) -> float | None:
    """The whole ledger's ceiling, on the paired basis of x baseline: the last kept step at 100 % MFU (every
    FLOP at its precision's matmul peak on each of its workers) over the baseline, i.e. x baseline / the last
    kept step's MFU, from the figures as printed (x baseline to 2 decimals, the MFU to 3). None without an MFU."""
    last = final(rows)
    if math.isnan(last["mfu"]) or claims.as_printed(last["mfu"], 3) <= 0 or peaks.beaten(last["mfu"]):
        return None   # no MFU, or one above 100%: a peak the step beat is no ceiling
    return claims.as_printed(last["x_base"], 2) / claims.as_printed(last["mfu"], 3)


def total_bound_formula(rows: list[dict]) -> str:
    """How ``total_bound`` is computed, with the printed figures a reader can divide again."""
    last, bound = final(rows), total_bound(rows)
    if bound is None and peaks.beaten(last["mfu"]):
        return (f"none: the last kept step's MFU, {mfu_text(last['mfu'])}, so that peak is no ceiling and "
                "no bound for the whole ledger is read from it")
    if bound is None:
        return "no MFU was measured for the last kept step: no ceiling for the whole ledger"
    return (f"x baseline / the last kept step's MFU = {last['x_base']:.2f} / {last['mfu']:.3f} = {bound:.2f}x "
            "(the last kept step at 100 % MFU, on the same paired basis as x baseline)")


def slow_rounds(rows: list[dict]) -> list[str]:
    """The kept steps with a paired round at or below 1x as printed (2 decimals): "1.00x" is not above 1x.
    One entry a step: its name, how many such rounds of how many, its lowest round."""
    out = []
    for r in ran(rows)[1:]:
        shown = [claims.as_printed(x, 2) for x in r["ratios"]]
        if r["kept"] and shown and min(shown) <= 1:
            out.append(f"{r['step']} {sum(x <= 1 for x in shown)} of {len(shown)} (lowest {min(shown):.2f}x)")
    return out


def mfu_denominators(rows: list[dict], peaks: dict[str, float], fp32_lifted: bool = False) -> str:
    """Why the MFU column's denominator changes: each step's own precision's peak x its workers, naming the
    rows each denominator covers (a step not kept leaves the next on the workers before it: compile after an
    unkept two devices runs on one, so "from two devices on" would misread its MFU).
    ``fp32_lifted``: the fp32 peak is the profiled step's own matmul rate (it beat the probe, section 2)."""
    steps = {}
    for r in ran(rows):
        steps.setdefault((r["precision"], r["workers"]), []).append(r["step"])
    said = []
    for (prec, workers), names in steps.items():
        peak = claims.as_printed(peaks[prec], 1, 1e9)   # as section 1 prints it; a product worked from it
        why = ", the step's own matmul rate: section 2" if fp32_lifted and prec == "fp32" else ""
        times = (f"{workers} x the {prec} peak ({workers} x {peak:,.1f} = "
                 f"{claims.half_up(workers * peak, 1):,.1f} GFLOP/s{why})")
        listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
        said.append(f"for {listed}, " + (times if workers > 1 else f"the {prec} peak ({peak:,.1f} GFLOP/s{why})"))
    return "; ".join(said)


def precision_shortfall(profile: guide.Profile | None, gain: float, peaks: dict[str, float],
                        low: str = "bf16") -> str:
    """Where the precision step's unreached share of its bound went, on the profile's step and from figures
    the page already prints (the bound's terms, the paired gain, section 2's fp32 matmul rate): the part the
    matmuls would lose at fp32's share of their peak, and the rest, which this run does not time apart. ''
    where the bound was not worked from the matmuls' FLOPs."""
    if not profile or not profile.matmul_flops or not profile.low_peak or not profile.parts.get("matmul"):
        return ""
    t, _, outside, gflop, peak, at_low = guide.precision_terms(profile)
    x = float(f"{gain:.2f}")   # the gain as the step's line prints it
    bound_ms, step_ms = claims.half_up(outside + at_low, 1), claims.half_up(t / x, 1)
    gap = claims.half_up(step_ms - bound_ms, 1)
    head = (f"Where the rest of the bound went, on the profile's step (section 2) at the paired gain: "
            f"{t:.1f} / {x:.2f} = {step_ms:.1f} ms against the bound's {outside:.1f} + {at_low:.1f} = "
            f"{bound_ms:.1f} ms")
    if gap <= 0:
        return head + ": no shortfall to place."
    rate = guide.matmul_gflops(profile.matmul_flops, profile.parts["matmul"])
    share = claims.printed_percent(rate / claims.as_printed(peaks["fp32"], 1, 1e9)) / 100   # as printed, half up
    said = head + f", {gap:.1f} ms short. The bound prices the matmuls at the full {low} peak"
    if share >= 1:
        return said + (f"; in fp32 they reached their peak, so their rate accounts for none of it. The "
                       f"{gap:.1f} ms are {_rest_of_shortfall(outside, low)}")
    at_share = claims.half_up(share * peak, 1)
    slow = claims.half_up(gflop / at_share * 1e3, 1)
    extra = claims.half_up(slow - at_low, 1)
    said += (f"; in fp32 they ran at {share:.0%} of theirs (section 2), and at {share:.0%} of the {low} peak "
             f"({share:.2f} × {peak:,.1f} = {at_share:,.1f} GFLOP/s) their {gflop:.4g} GFLOP take "
             f"{slow:.1f} ms, {extra:.1f} ms more")
    share_of_gap = "all" if extra >= gap else f"{claims.half_up(100 * extra / gap, 0):.0f}%"
    said += (f": {share_of_gap} of the shortfall, if the {low} matmuls fall as far short of their peak (not "
             "timed here).")
    if extra >= gap:
        return said
    return said + f" The other {claims.half_up(gap - extra, 1):.1f} ms are " + _rest_of_shortfall(outside, low)


def _rest_of_shortfall(outside: float, low: str) -> str:
    """The rest of the precision bound's shortfall, named: what this run does not time apart."""
    # the parts outside the matmuls are inside the bound already (at their fp32 time): only their growth
    # can be part of the shortfall, so they are named as growth, never as a share of its ms
    return (f"the casts autocast adds, any growth of the {outside:.1f} ms outside the matmuls (section 2's "
            f"other rows; the bound keeps them at their fp32 time, and {low} does not speed them up and may "
            f"slow them), and {low} matmuls further below their peak than fp32's were; this run does not time "
            f"them apart in the {low} step (a profile of that step would).")


def claim_rows(rows: list[dict], serving: dict) -> list[claims.Claim]:
    """The Summary's statements: each step within its bound, the loss kept, the total, int8 serving."""
    out = []
    for r in ran(rows)[1:]:
        if r["bound"]:
            row = claims.against_speedup(f"{r['step']}: x previous", r["x_prev"], r["bound"],
                                         r.get("noise", 0.0), slower="slower than the step before")
            out.append(claims.Claim(row.claim, row.measured, row.against, step_verdict(row.verdict, r)))
        if r["same_maths"]:
            out.append(claims.Claim(f"{r['step']}: held-out loss at step N", f"{r['loss']:.4f}",
                                    f"baseline {claims.as_printed(r['loss'], 4) - r['dloss']:.4f}"
                                    f", tolerance {r['tol']:g}",   # a tolerance, not a rounds' spread
                                    "within its tolerance" if r["loss_ok"] else "outside its tolerance"))
    total = claims.against_speedup("kept steps: x baseline", final(rows)["x_base"], total_bound(rows),
                                   slower="slower than the baseline")
    basis = product_basis(rows) if total.verdict.startswith(("faster", "above")) else ""
    out.append(claims.Claim(total.claim, f"{total.measured} (product of paired step ratios; "
                            f"{tokens_ratio(rows):.2f}x by the rows' tokens/s)", total.against
                            + " (100 % MFU: a loose ceiling)" * (total_bound(rows) is not None),
                            total.verdict + basis + own_bounds_reached(rows)))
    loss, error, tolerance = serving["loss"], serving.get("output_error", 0.0), serving.get("tolerance", 1.0)
    gain, noise = serving_gain(serving)
    speed = (serving_verdict(gain, noise, serving_reference(serving)) if error <= tolerance else
             f"outputs {error:.1%} off (tolerance {tolerance:.0%}): no speed-up counted")
    against = serving_reference(serving)
    out.append(claims.Claim(f"int8 serving: x {against}'s speed (paired median)", f"{gain:.2f}x ± {noise:.2f}",
                            f"1.00x ({against}, {serving['latency_s'][against] * 1e3:.2f} ms)", speed))   # as the serving table
    out.append(claims.Claim("int8 serving: held-out loss, output error", f"{loss['int8']:.4f}, {error:.2%}",
                            f"fp32 {loss['fp32']:.4f}; output tolerance {tolerance:.0%}",
                            "within the tolerance" if error <= tolerance else
                            "outside the tolerance: no speed-up counted"))
    out.append(bytes_claim(serving))
    return out


def tokens_ratio(rows: list[dict]) -> float:
    """The last kept step's tokens/s over the baseline's: two unpaired runs minutes apart; no verdict reads
    it."""
    return claims.printed_ratio(final(rows)["tokens_per_s"], ran(rows)[0]["tokens_per_s"], 0)  # as printed


def x_base_words(rows: list[dict]) -> str:
    """x baseline said with its basis, beside the ratio of the two rows' tokens/s (they differ: one is
    paired)."""
    return (f"{final(rows)['x_base']:.2f}x the baseline's speed by the product of the kept steps' paired "
            f"ratios ({tokens_ratio(rows):.2f}x as a ratio of the two rows' tokens/s)")


def own_bounds_reached(rows: list[dict]) -> str:
    """The kept steps' shares of their own bounds' gains, set beside the whole ledger's: its 100 % MFU ceiling is
    far above any step's own bound, so a small share of it alone reads as failure (t40_0708)."""
    shares = [(r["step"], share_of_bound(r["x_prev"], r["bound"])) for r in ran(rows)[1:] if r["kept"]]
    said = [f"{step} {claims.percent(share)}" for step, share in shares if share is not None and share <= 1]
    return f"; of their own bounds' gains the kept steps reached {', '.join(said)}" if said else ""


def product_basis(rows: list[dict]) -> str:
    """Why a product of paired ratios, which has no ± of its own, reads as faster: each kept step paid beyond
    its rounds' noise, and whether every round of every kept step paid."""
    slow = slow_rounds(rows)
    return (" (no ± for a product; its basis: each kept step paid beyond its rounds' noise, "
            + ("and every round of every kept step was above 1x)" if not slow else
               "though not every round did: " + "; ".join(slow) + " at or below 1x)"))


def bytes_share(serving: dict) -> float:
    """int8's stored weights over fp32's, from the KiB the serving table prints (whole KiB)."""
    return claims.printed_ratio(serving["bytes"]["int8"], serving["bytes"]["fp32"], 0, 2**10)


def bytes_claim(serving: dict) -> claims.Claim:
    """int8's stored weights against fp32's, beside the floor of 1 byte a weight against 4 (what int8 can
    reach if every weight were quantized and nothing else stored): a statement about storage, not speed."""
    share = bytes_share(serving)
    verdict = (f"smaller: {share:.0%} of fp32's bytes, a saving in storage, not in time" if share < 1 else
               "no smaller than fp32's: no saving in storage")
    return claims.Claim("int8 serving: stored weights (x fp32's bytes)", f"{share:.2f}x",
                        "floor 0.25x (1 byte a weight against fp32's 4)", verdict)


def step_verdict(verdict: str, r: dict) -> str:
    """A step's verdict from the ladder's keep decision (``ladder.paid``, judged on the printed figures), so
    that the claims table and the ledger agree: a step kept is faster beyond noise, never "within noise"."""
    if verdict.startswith("at the bound"):   # the bound within the rounds' noise: a ceiling, not a pass mark
        share = share_of_bound(r.get("x_prev", 0.0), r.get("bound"))
        of_gain = ("" if share is None else f": {claims.percent(share)} of its gain" if share <= 1 else
                   ": its median above it by less than its ±")   # never "133% of" a ceiling's gain
        verdict = "faster, within noise of its bound" + of_gain
    if r["kept"]:
        if verdict.startswith(("faster", "above")):
            return verdict.replace("faster, ", "faster beyond noise, ", 1) + "; kept"
        return "faster beyond noise: kept"
    if verdict.startswith("within noise") or not r.get("paid", False):
        if verdict.startswith(("slower", "above")):
            return verdict + "; not kept"
        return "within noise: not kept"
    return verdict + "; not kept: " + (r.get("why") or "it did not pay back")


def serving_reference(serving: dict) -> str:
    """What int8 is set against: fp32 compiled the same way where it was timed (int8's own effect), else fp32."""
    return "fp32 compiled" if "fp32 compiled" in serving["times"] else "fp32"


def serving_verdict(gain: float, noise: float, against: str = "fp32 compiled") -> str:
    """``claims.speedup_verdict`` for int8 against fp32 (fp32 is the baseline there, not the training one),
    judged on the two figures as the page prints them ("0.96x ± 0.04", 2 decimals): 0.96 + 0.04 reaches
    1.00x, so that reads within noise, though the unrounded median ± spread may fall short of 1x."""
    shown, spread = claims.as_printed(gain, 2), claims.as_printed(noise, 2)
    return claims.speedup_verdict(shown, None, spread, slower=f"slower than {against}").replace(
        "the baseline", against)


def serving_loss_words(loss: dict) -> str:
    """int8's held-out loss against fp32's, from the two as the serving table prints them (4 decimals): a
    reader compares 2.9677 with 2.9678, not the unrounded pair, whose difference may be under 0.00005 while
    the printed figures differ in their 4th decimal."""
    diff = claims.half_up(claims.as_printed(loss["int8"], 4) - claims.as_printed(loss["fp32"], 4), 4)
    return f"differs from fp32's by {diff:+.4f} (as printed)" if diff else "is the same as fp32's to 4 decimals"


def mfu_text(mfu: float) -> str:
    """The MFU rounded once, half up, from the unrounded figure to a tenth of a percent: the same figure the
    compile step's bound and the ledger's bound print (0.565, 56.5%). Never a whole percent of that rounded
    figure: 0.5648 -> 0.565 -> 57% rounds twice, where the measured 56.48% is 56%."""
    shown = f"{claims.as_printed(mfu, 3):.1%}"
    return shown + (": above 100%, the step beat its peak" if peaks.beaten(mfu) else "")


def serving_gain(serving: dict, against: str | None = None, model: str = "int8") -> tuple[float, float]:
    """``model``'s speed-up (default int8) over ``against`` (default ``serving_reference``: fp32 compiled),
    the median of the interleaved rounds' latency ratios paired by round, and its spread
    (``claims.printed_spread``: from the ratios as printed, as the training steps' ± is; 0.0 under 4 rounds).
    Compile alone: ``serving_gain(s, "fp32", "fp32 compiled")``."""
    against = against or serving_reference(serving)
    pairs = [f / q for f, q in zip(serving["times"][against], serving["times"][model])]
    return _median(pairs), claims.printed_spread(pairs) if len(pairs) >= 4 else 0.0


def record(rows: list[dict], probe_size: int | None = None) -> dict:
    """The headline in the course ledger (``utils.ledger``): the last kept step's x baseline, with every step
    measured (``ledger_steps``) so that lesson 09 quotes a step with this page's ± (``probe_size``: the n of
    the n³ matmuls section 2 timed the fp32 and bf16 peaks on, where given); returns the record as the ledger
    now holds it."""
    steps = ", ".join(f"{r['step']} {r['x_prev']:.2f}x{'' if r['kept'] else ' (not kept)'}"
                      for r in ran(rows)[1:])
    extra = {} if probe_size is None else {"probe_size": int(probe_size)}
    ledger.record("capstone_speedup", final(rows)["x_base"], "x", bound=total_bound(rows), lesson="08",
                  what=f"the small GPT's tokens/s, the kept steps over the baseline ({steps})",
                  steps=ledger_steps(rows), **extra)
    return ledger.figure("capstone_speedup")


def ledger_steps(rows: list[dict]) -> dict[str, dict]:
    """Each step measured, by name: its x previous (the median of its paired rounds, as ``value`` and as
    ``x_previous``, the name lesson 09 reads), its ± as the claims table prints it, its rounds' ratios and
    whether it was kept. A skipped step has no figure and is left out."""
    return {r["step"]: {"value": float(r["x_prev"]), "x_previous": float(r["x_prev"]),
                        "spread": float(r.get("noise", 0.0)), "rounds": [float(x) for x in r["ratios"]],
                        "kept": bool(r["kept"])}
            for r in ran(rows)[1:]}
