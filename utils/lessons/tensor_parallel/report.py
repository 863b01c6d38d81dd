"""Lesson 07's tables and figures of the cost sweep (section 4): measured and predicted step times and
speedups over widths, and the crossover table from datasheet figures."""

from __future__ import annotations

import math

import matplotlib.pyplot as plt
from matplotlib.ticker import FuncFormatter

from utils import plots
from utils.claims import as_printed, gain_share_range, half_up, percent, printed_ratio
from utils.lessons.tensor_parallel import inference, verdicts
from utils.lessons.tensor_parallel.cost import crossover_width, miss_as_printed
from utils.lessons.tensor_parallel.miss_parts import COMPUTE_PART, LATE_PART, WAIT_PART, longer_step
from utils.lessons.tensor_parallel.miss_parts import miss_parts as _miss_parts
from utils.lessons.tensor_parallel.other_threads import gap_candidate, threads_candidate, whole_core
from utils.lessons.tensor_parallel.timed_rounds import (  # noqa: F401 (section 1's, as report.X)
    article_claim, bound_says, paired_ratio, timed_split, timed_split_details)
from utils.tables import Table


def cost_table(analysis: dict, bound: float, label: str) -> Table:
    """Per width: one device, split (measured, predicted), the all-reduce share, speedups, the bound."""
    rows = [(r["width"], f"{r['one'] * 1e3:.2f}", f"{r['two'] * 1e3:.2f}", f"{r['predicted'] * 1e3:.2f}",
             f"{r['comm'] * 1e3:.2f}", f"{r['speedup']:.2f}x ± {r['spread']:.2f}",
             f"{r['predicted_speedup']:.2f}x",
             f"{bound:g}x")
            for r in analysis["rows"]]
    return Table(["width", "1 device ms (fastest)", "split ms (fastest)", "model ms", "of which all-reduce ms",
                  "speedup (paired median)", "model speedup", "bound"], rows,
                 title="One MLP block, forward + backward, one device against two" + label)


def plot_cost(analysis: dict, bound: float, label: str, simulated: bool):
    """Step times (log-log) and speedups over width, measured beside the model; the bound dashed."""
    rows = analysis["rows"]
    w = [r["width"] for r in rows]
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 4.4))
    plt.close(fig)  # returned: shown once, as the cell's value
    ax1.loglog(w, [r["one"] * 1e3 for r in rows], "o-", label="1 device, fastest round")   # as the table
    ax1.loglog(w, [r["two"] * 1e3 for r in rows], "s-", label="2 devices, fastest round")
    ax1.loglog(w, [r["predicted"] * 1e3 for r in rows], "s--", mfc="none", label="2 devices, model")
    ax1.set(xlabel="width (hidden = 4 x width)", ylabel="ms per step")
    ax1.plot([], [], " ", label="speed-ups: right panel (paired rounds)")   # fastest rounds are not them
    ax1.legend(fontsize=8)
    # error bars: each width's paired-rounds spread, so a median near 1x reads against its noise; a speed-up
    # is never negative, so a lower bar longer than its median is cut at 0 (the legend says where it was)
    lower = [min(r["spread"], r["speedup"]) for r in rows]
    cut = [r["width"] for r, low in zip(rows, lower) if low < r["spread"]]
    ax2.errorbar(w, [r["speedup"] for r in rows], yerr=[lower, [r["spread"] for r in rows]], fmt="o-",
                 capsize=3, label="measured (± half the paired rounds' middle-half range"
                 + (f";\nthe lower bar cut at 0 at width {', '.join(map(str, cut))}: no speed-up is below 0)"
                    if cut else ")"))
    ax2.plot(w, [r["predicted_speedup"] for r in rows], "o--", mfc="none", label="model")
    ax2.set_xscale("log")
    ax2.axhline(bound, color="grey", ls=":", label=f"bound {bound:g}x")
    ax2.axhline(1, color="black", lw=0.6, label="1x: one device")   # the mark every verdict reads against
    ax2.set_xlabel("width")
    ax2.set_ylabel("speedup over 1 device")
    ax2.set_ylim(0, bound * 1.08)   # from 0, no speed-up below it; the bound's line inside the frame
    # below the panel: inside, any corner covers the bound's line or a point on some run
    ax2.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.2), frameon=False)
    for ax in (ax1, ax2):
        ax.set_xticks(w, [str(v) for v in w])
        ax.xaxis.set_minor_locator(plt.NullLocator())
        ax.grid(alpha=0.3, which="both")
    plots.stamp_simulated(fig, simulated)
    return plots.finish(fig, "Tensor-parallel MLP block: measured against the cost model" + label)


def two_figures(x: float) -> str:
    """A model's figure to two significant figures (1,651 -> "1,700"; 1.97 -> "2.0", so "2.0x to 3.9x"): a
    model that misses by several times earns no more digits."""
    rounded = float(f"{x:.2g}")   # 9.96 -> 10: printed as a whole number, not "10."
    return f"{rounded:,.0f}" if rounded >= 10 else f"{x:#.2g}"


def crossover_miss(model_x: float | None, before: int | None, won: int | None, widths: list[int]) -> str:
    """How far the model's crossover width (``cost.model_crossover``: the smallest swept width stands for "at
    or below it", None for never up to the largest) lies from the measured one (``won``, the first width that
    wins beyond the noise, ``before`` the last that did not; None: never), as a factor, in words."""
    low_edge = model_x is not None and model_x <= widths[0]   # the model wins at the smallest width already
    model_x = None if model_x is None else as_printed(model_x, 0)   # as printed ("63"): factors from it
    if won is None:
        if model_x is None:
            return f"both never up to width {widths[-1]}: they agree"
        return (f"the measured split never won up to width {widths[-1]}, more than "
                f"{two_figures(widths[-1] / model_x)}x the model's width")
    if model_x is None:
        return (f"the model never wins up to width {widths[-1]}, more than {two_figures(widths[-1] / won)}x the "
                "measured width")
    low = before if before else 0.0   # the measured crossover lies above ``before``, at or below ``won``
    if low < model_x <= won or (low_edge and not before):
        return "the model's width falls within the measured interval: they agree"
    if model_x <= low:   # the split won later than the model says
        return (f"the measured width is {two_figures(low / model_x)}x to {two_figures(won / model_x)}x the "
                "model's"
                + (", or more: the model's lies at or below the smallest width swept" if low_edge else ""))
    return (f"the model's width is {two_figures(model_x / won)}x"
            + (f" to {two_figures(model_x / low)}x" if low else " or more") + " the measured one")


def gain_range(verdict: str, value: float, spread: float, bound: float) -> str:
    """A verdict's share of the bound's gain ("faster, under the bound: 44% of its gain") with the range that
    the ± spread gives it (``claims.gain_share_range``, the course's one rule: from the figures as printed,
    rounded half up), so that a share is never read without its noise."""
    if not verdict.startswith("faster, under the bound"):
        return verdict
    return verdict + gain_share_range(value, spread, bound)


def crossover_table(here: tuple[float, float, float, int], datasheet_rows, tokens: int,
                    here_width: float | None = None, measured: str = "not swept") -> Table:
    """Where splitting starts to pay: this machine (measured alpha, beta; ``here_width``: the crossover of the
    model built from each swept width's measured step, ``cost.model_crossover``, else the formula with F;
    ``measured``: the crossover the sweep measured, in words) and datasheet GPU pairs (the formula, alpha left
    out, nothing measured). Lesson 07."""
    flops, alpha, beta, value_bytes = here
    width = crossover_width(flops, beta, alpha, tokens, value_bytes) if here_width is None else here_width
    used = "" if here_width is None else "; the largest width's, not used: the model uses each width's step"
    rows = [("this machine (model: measured link and steps)", f"{beta / 1e9:.2f}", f"{flops / 1e12:.3f} (fp32{used})",
             f"{alpha * 1e6:.0f}", "never" if width is None else two_figures(width) if here_width is None
             else f"{width:.0f}", measured)]   # here_width: a whole width, as section 4 prints it
    for gpu, link, dtype, peak, link_bw in datasheet_rows:
        rows.append((f"2 x {gpu}, {link} (datasheet)", f"{link_bw / 1e9:.2f}", f"{peak / 1e12:.0f} ({dtype})",
                     "left out", two_figures(crossover_width(peak, link_bw, 0.0, tokens, 2)), "not measured"))
    return Table(["pair", "link GB/s", "TFLOP/s", "alpha us", "model's crossover width", "measured crossover"],
                 rows, title=f"Smallest width where a split MLP step beats one device, {tokens} tokens")


METHODS = ("one device", "tensor parallel", "pipeline")


def inference_table(got: dict, micro_batches: int, label: str) -> Table:
    """Per batch size: tokens/s of each method and its speedup over one device; ms per generation step (one new
    token for each of the batch's sequences)."""
    n, rows = got["new_tokens"], []
    for r in got["rows"]:   # tok/s and x one device worked from the ms a step as printed (2 decimals)
        cells = [r["batch"]]
        for m in METHODS:
            cells.append(inference.tokens_text(r, m, n) + ("" if m == METHODS[0] else
                                            f" ({inference.over_one_device(r, m, n):.2f}x)"))
        cells += [f"{inference.step_ms(r, m, n):.2f}" for m in METHODS]
        cells.append("yes" if r["same_tokens"] else "NO")
        rows.append(tuple(cells))
    return Table(["batch", "1 device tok/s", "tensor parallel tok/s", f"pipeline (m<={micro_batches}) tok/s",
                  # a step appends one token to every sequence of the batch: ms per step, not per token
                  "1 device ms/step (whole batch)", "TP ms/step", "pipeline ms/step", "same tokens"], rows,
                 title=f"Greedy generation, {n} new tokens per sequence" + label)


def plot_inference(got: dict, label: str, simulated: bool, micro: int | None = None, bound: float = 2.0):
    """Tokens per second against batch size, one line per method (log-log), with the bounds as dashed lines:
    ``bound`` x one device's (tensor parallel) and, given ``micro``, the pipeline's 2m/(m+1) x one device's
    with m = min(micro, batch) micro-batches (lesson 02). Lesson 07."""
    n, rows = got["new_tokens"], got["rows"]
    fig, ax = plt.subplots(figsize=(6.5, 4.2))
    plt.close(fig)
    batches = [r["batch"] for r in rows]
    one = [r["batch"] * n / r["one device"] for r in rows]   # one device's tokens a second, per batch
    lines = {}
    for m, marker in zip(METHODS, "os^"):
        lines[m], = ax.loglog(batches, [r["batch"] * n / r[m] for r in rows], marker + "-", label=m)
    ax.loglog(batches, [bound * t for t in one], "--", color=lines["tensor parallel"].get_color(), alpha=0.6,
              label=f"tensor parallel bound ({bound:g}x one device)")
    if micro:
        pipe = [2 * min(micro, b) / (min(micro, b) + 1) for b in batches]   # 1x for one sequence
        ax.loglog(batches, [x * t for x, t in zip(pipe, one)], ":", color=lines["pipeline"].get_color(),
                  alpha=0.8, label=f"pipeline bound (2m/(m+1) x one device, m <= {micro})")
    ax.set_xticks(batches, [str(b) for b in batches])
    ax.xaxis.set_minor_locator(plt.NullLocator())
    ax.set_xlabel("batch (sequences generated together)")
    ax.set_ylabel("tokens per second")
    plain = FuncFormatter(lambda v, _: f"{v:,.0f}")
    # minor ticks labelled at 2 and 5 only (20, 50, 200, 500): every one of 60-90 and 200-900 was clutter
    some = FuncFormatter(lambda v, _: f"{v:,.0f}" if round(v / 10 ** math.floor(math.log10(v))) in (2, 5) else "")
    ax.yaxis.set_major_formatter(plain)
    ax.yaxis.set_minor_formatter(some)
    ax.tick_params(axis="y", which="minor", labelsize=8)
    ax.grid(alpha=0.3, which="both")
    # below the axes: inside them the legend covered a measured point
    ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.22), ncol=2, frameon=False)
    plots.stamp_simulated(fig, simulated)
    return plots.finish(fig, "Generation throughput" + label)


def miss_table(m: dict, label: str) -> Table:
    """The largest width's split step, term by term: the model's figure beside each rank's measured one
    (``cost.miss``), the all-reduces cut at the ranks' arrivals where both ranks timed their calls, and the
    CPU time its threads got; each total the sum of its parts as printed (``miss_as_printed``). Lesson 07."""
    def ms(v):
        return "-" if v is None else f"{v * 1e3:.2f}"
    m = miss_as_printed(m)   # the rows add up by hand
    ranks = m["ranks"] + [None] * (2 - len(m["ranks"]))

    def per_rank(key):
        return [ms(r.get(key)) if r is not None else "-" for r in ranks]

    rows = [("compute, outside the all-reduces", f"{ms(m['model_compute'])} (t1/2)", *per_rank("compute")),
            ("inside the 2 all-reduces", f"{ms(m['model_comm'])} (alpha-beta, 2 calls)", *per_rank("allreduce"))]
    if m.get("paired"):
        rows += [("  of it, between the ranks' arrivals (waiting)", "0", *per_rank("waited")),
                 ("  of it, after both had arrived", f"{ms(m['model_comm'])} (alpha-beta, 2 calls)",
                  *per_rank("after_both")),
                 ("    of which after the other had returned", "0", *per_rank("after_other"))]
    rows += [("the split step", ms(m["model_step"]), *per_rank("step")),
             ("CPU time of the step's thread, its all-reduces included", ">= compute (a core held)",
              *per_rank("thread_cpu")),
             ("CPU time of the worker's other threads", "", *per_rank("other_threads_cpu"))]
    which = "the same round on both ranks" if m.get("paired") else "fastest round"
    return Table([f"width {m['width']}, ms", "model", "rank 0", "rank 1"], rows,
                 title=f"Where the split step's time went, {which}" + label)


def _held_core(slow: dict) -> bool:
    """Whether the step's thread was off its core at most 5 % of the compute (the lesson's tolerance for
    timing noise), even if every moment inside the all-reduces used CPU: within it, not proof of none.
    Judged in ms as printed (``verdicts.off_core_printed``): a bound printed as the tolerance is within."""
    _, high, tolerance = verdicts.off_core_printed(slow)
    return high <= tolerance


def _off_core_known(slow: dict) -> bool:
    """Whether the run shows the step's thread off its core for more than 5 % of the compute (the least the
    bounds allow), in ms as printed."""
    low, _, tolerance = verdicts.off_core_printed(slow)
    return low > tolerance


def _ruled_out(m: dict, slow: dict, parts: dict, also_open: tuple[str, ...] = ()) -> tuple[str, str]:
    """What this run's figures rule out as the miss's cause, and what they leave open, as two sentences."""
    out, open_ = _ruled_and_open(m, slow, parts, also_open)
    ruled = "Ruled out: " + ", ".join(out[:-1]) + f" and {out[-1]}."
    return ruled, ("" if not open_ else " Not ruled out: " + "; ".join(open_) + ".")


def _ruled_and_open(m: dict, slow: dict, parts: dict, also_open: tuple[str, ...] = ()) -> tuple[list, list]:
    """What this run's figures rule out as the miss's cause, and what they leave open (each with its figure);
    ``parts``: the miss's (``_miss_parts``), the time off the core set against the compute's part (and the
    late return where the all-reduces' part is above 0); ``also_open``: the caller's open ones, first."""
    out, open_ = [f"other programs ({m['others']:.2f} of a core)",
                  f"steal, time the host ran other work while this machine's CPUs were ready "
                  f"({m['steal']:.2f} of a core)"], list(also_open)
    late = slow.get("after_other", 0.0) if parts.get(LATE_PART, 0.0) > 0 else 0.0   # a late return missed
    ruled_core, open_core = verdicts.core_losses(slow, parts.get(COMPUTE_PART, 0.0), late)
    out, open_ = out + [ruled_core] * bool(ruled_core), open_ + open_core   # each open one counts apart
    corun = m.get("corun") or {}
    if corun.get("alone") and corun.get("together"):
        corun_x = corun["together"] / corun["alone"]
        if corun_x <= 1.05:   # the fastest of many rounds, beside the step's one round: not like with like
            open_.append(f"the two ranks computing at once (apart, at the fastest of its rounds, a shard took "
                         f"{corun_x:.2f}x as long beside the other's as alone, but the step is one round, and "
                         "a best case cannot rule out what one round met)")
        else:
            open_.append(f"the two ranks computing at once (a shard {corun_x:.2f}x as long beside the other's)")
    else:
        open_.append("the two ranks computing at once (not measured apart in this run)")
    return out, open_


def _shared(m: dict, slow: dict) -> list[str]:
    """What the run measured of the cores being shared while the split step ran (empty: nothing)."""
    found = []
    if m["others"] > 0.1:
        found.append(f"other programs used {m['others']:.2f} of a core")
    if m["steal"] > 0.05:
        found.append(f"the hypervisor took {m['steal']:.2f} of a core (steal)")
    if slow["compute"] and _off_core_known(slow):
        share = slow["thread_cpu"] / slow["compute"]
        found.append(f"the longer-step rank's thread ran at most {share:.0%} of its compute time")
    corun = m.get("corun") or {}
    if corun.get("alone") and corun["together"] / corun["alone"] > 1.05:
        slower = corun["together"] / corun["alone"]
        found.append(f"a shard computed {slower:.2f}x slower beside the other rank's")
    return found


def miss_story(m: dict, label: str) -> list[str]:
    """The cost model's miss at the largest width, said from the measurement (``cost.miss``): which term
    missed, what the CPU figures, the co-running halves and the two ranks' arrivals at each all-reduce show
    about why, what that rules out, and what would show the model's speed-up. Lesson 07."""
    raw, m = m, miss_as_printed(m)   # every figure worked from the others as the table prints them
    ranks = m["ranks"]
    if not ranks or ranks[0]["allreduce"] is None:
        return ["On GPUs NCCL returns from an all-reduce once it is queued, so its host time is not its "
                "time: this split of the step into its terms runs on gloo only (on GPUs the profiler's NCCL "
                f"kernel time is the measure){label}."]
    index, named = longer_step(raw["ranks"], ranks) if len(ranks) > 1 else (0, "On rank 0 the step took")
    slow = ranks[index]
    missed = slow["step"] > m["model_step"]
    out = [f"{named} {slow['step'] * 1e3:.2f} ms against the model's "   # the table's 2 decimals
           f"{m['model_step'] * 1e3:.2f}: " + _terms(m, slow) + (
               " The miss is taken apart, part by part, below" if missed else
               f" No slower than the model: the one-device step t1 it is built from "
               f"({m['one'] * 1e3:.1f} ms) met a busier moment than the split rounds") + f"{label}."]
    out.append(_thread_cpu(m, slow))
    corun = m.get("corun") or {}
    if corun.get("alone"):
        out.append(_shard_apart(m, corun))
    out.extend(_inside_the_step(m, slow, corun))
    shared = _shared(m, slow)
    parts = _miss_parts(m, slow)
    if missed:
        out.append(_cause(m, slow, parts, shared))
    if m["waiting_core"] is not None:
        out.append(f"The one-device reference was fair: rank 1, waiting in a barrier while rank 0 ran alone, "
                   f"used {m['waiting_core']:.0%} of a core.")
    return out


def miss_answer(m: dict, label: str) -> tuple[list[str], list[str]]:
    """``miss_story`` cut for the page: the answer (how far the step missed, and the miss part by part with its
    cause) to print, and the evidence behind it (CPU time, the shard measured apart, the two ranks side by
    side, the reference's fairness, and what it ruled out and left open) for the collapsed block. Lesson 07."""
    story = miss_story(m, label)
    answer = [story[0]] + [s for s in story[1:] if s.startswith("The miss, part by part")]
    cut = [verdicts.ruled_apart(s) for s in answer[1:]]   # what it ruled out and left open: to the block
    return [answer[0]] + [a for a, _ in cut], [r for _, r in cut if r] + [s for s in story[1:] if s not in answer]


def cpu_row_placed(m: dict) -> tuple[str, str]:
    """``verdicts.cpu_row_verdict``'s sentence and where it goes, as (under the table, to the block): under the
    table only where a rank's thread was off its core beyond the 5 % (a finding); where every rank holds the
    model, within its noise or not, to the collapsed block (t35_0708 other #1: the answer ran long)."""
    said = verdicts.cpu_row_verdict(m)
    return (said, "") if "the model is broken there" in said else ("", said)


def _thread_cpu(m: dict, slow: dict) -> str:
    """The one sentence on the slower rank's thread and its core during the compute: how long it was off its
    core, bounded from its CPU time (``verdicts.off_core``), said in each of the three cases (within 5 %, left it,
    cannot tell), and what the other programs and the hypervisor took over these rounds."""
    others = (f"other programs used {m['others']:.2f} of a core and the hypervisor (the host software that runs "
              f"this virtual machine) took {m['steal']:.2f} (steal: time this machine's CPUs were ready to run "
              "but the host ran something else)")
    low, high = verdicts.off_core(slow)
    got = (f"The step's thread got {slow['thread_cpu'] * 1e3:.2f} ms of CPU over the step on the longer-step "
           f"rank, for {slow['compute'] * 1e3:.2f} ms of compute and {slow['allreduce'] * 1e3:.2f} ms inside "
           f"the all-reduces, so during the compute it was off its core between {low * 1e3:.2f} ms (had "
           f"it used no CPU inside the all-reduces) and {high * 1e3:.2f} ms (had it used CPU all through "
           "them): ")
    if _held_core(slow):
        said = "at most 5 % of the compute, within the tolerance this lesson allows for timing noise"
    elif _off_core_known(slow):
        said = f"at least {percent(printed_ratio(low, slow['compute'], 2, 1e-3))} of the compute, so it lost its core"
    else:
        tolerance = verdicts.off_core_printed(slow)[2]   # 5 % of the compute, in ms as printed
        said = (f"the least is within 5 % of the compute ({tolerance:.2f} ms), the most "
                "beyond it, so whether it lost its core this run cannot tell (the thread's CPU time read "
                "around the compute alone would)")
    return got + said + f"; over these rounds {others}."


def _times(over: float, under: float, digits: int = 2) -> float:
    """``over / under`` (seconds, printed in ms to 2 decimals) from the two as printed, half up to ``digits``:
    3.15 / 2.00 ms is 1.58x, as a reader divides them (the float 1.5749... prints 1.57)."""
    return half_up(printed_ratio(over, under, 2, 1e-3), digits)


def _shard_apart(m: dict, corun: dict) -> str:
    """A rank's shard of work timed apart from the step (``corun``), with the other rank idle and with both
    computing at once, against the model's t1/2: what computing side by side costs, and whether even the
    faster of the two takes more than half a block's time."""
    alone, together = corun["alone"], corun["together"]
    half_x, corun_x = _times(alone, m["model_compute"]), _times(together, alone)
    held = corun.get("together_core", 1.0)
    if corun_x < 0.95:
        why = "faster side by side than alone, beyond 5 %: a finding to explain, not explained by this run"
    elif corun_x <= 1.05:
        why = "computing at the same moment made no difference beyond 5 %"
    elif held < 0.95:
        why = (f"with both computing, a rank's thread ran only {held:.0%} of the time: the two ranks and "
               f"the other programs shared the cores")
    else:
        why = ("each rank's thread held its core, so computing at the same moment costs what the two "
               "cores share (memory bandwidth, last-level cache, the clock)")
    best_x = _times(min(alone, together), m["model_compute"])   # the faster shard against half the block's time
    return (f"Measured apart, a rank's shard of work without its all-reduces took (the fastest of each's "
            f"rounds) {alone * 1e3:.2f} ms with the other rank idle ({half_x:.2f}x the model's t1/2) and "
            f"{together * 1e3:.2f} ms with both computing at once ({corun_x:.2f}x the first, "
            f"{_times(together, m['model_compute']):.2f}x t1/2): {why}. "
            + (f"Even the faster of the two took {best_x:.2f}x t1/2: half a block takes more than half "
               "a block's time here." if best_x > 1.05 else
               f"The faster of the two took {best_x:.2f}x t1/2: within 5 % of half the block's time, "
               "so the shard's own compute explains no miss beyond that." if best_x >= 0.95 else
               f"The faster of the two took {best_x:.2f}x t1/2: less than half the block's time "
               "beyond 5 %, faster than the model assumes."))


def _terms(m: dict, slow: dict) -> str:
    """The slower rank's split step term by term against the model's: its compute against t1/2, and its time
    inside the all-reduces, cut (where both ranks timed each call) into the wait for the other rank, when no
    byte moves and which alpha + n/beta does not price, and the time after both arrived, which it prices
    (with, where the rank stayed inside after the other had returned, time no exchange explains)."""
    compute = (f"its compute {slow['compute'] * 1e3:.2f} ms, {_times(slow['compute'], m['model_compute']):.2f}x the "
               f"model's t1/2 ({(slow['compute'] - m['model_compute']) * 1e3:+.2f} ms); ")
    comm, inside = m["model_comm"] or 1e-5, slow["allreduce"]   # alpha-beta printed 0.00 ms divides as 0.01
    if not m.get("paired"):
        return compute + (f"its all-reduces {inside * 1e3:.2f} ms, "
                          f"{_times(inside, comm, 1):.1f}x alpha + n/beta "
                          f"({(inside - comm) * 1e3:+.2f} ms), the wait for the other rank included: this "
                          "run did not time the two ranks' calls side by side, so it cannot cut the wait "
                          "out.")
    return compute + (f"its {inside * 1e3:.2f} ms inside the all-reduces, set beside the other rank's calls "
                      f"of the same round, are {slow['waited'] * 1e3:.2f} ms waiting for it to arrive (no "
                      "byte moves then; alpha + n/beta does not price it) and "
                      f"{slow['after_both'] * 1e3:.2f} ms after both had arrived, {slow['after_both'] / comm:.1f}x alpha + n/beta's "
                      f"{comm * 1e3:.2f} ms for the step's 2 calls together "   # section 1 times one call: not this
                      f"({(slow['after_both'] - comm) * 1e3:+.2f} ms; the fit's worst "
                      f"residual is {m['residual']:.0%}, so within {1 + m['residual']:.2f}x is the model's "
                      f"own error); {slow['after_other'] * 1e3:.2f} ms of it came after the other rank had "
                      "returned, which no exchange between the two explains.")


def _inside_the_step(m: dict, slow: dict, corun: dict) -> list[str]:
    """The two ranks' compute in the same round set side by side, and the slower rank's against the shard
    measured apart: what the run measured of each gap, and what it leaves unexplained."""
    out, ranks = [], m["ranks"]
    if m.get("paired") and len(ranks) == 2:
        c0, c1 = (r["compute"] for r in ranks)
        said = verdicts.wait_reading(ranks, verdicts.waiter_of(ranks))   # the rank that waited, as measured
        out.append(f"The two ranks computed equal shards in the same round in {c0 * 1e3:.2f} ms (rank 0) and "
                   f"{c1 * 1e3:.2f} ms (rank 1): " + verdicts.wait_words(said)
                   + (". Why one computed longer this run does not time apart: each thread's CPU time in the "
                      "table includes its time inside the all-reduces, so it does not separate them."
                      if said["late"] else "."))
    if not corun.get("together"):
        return out
    apart, inside = corun["together"], slow["compute"]
    extra = inside - apart
    if within := verdicts.step_beside_shard(inside, apart, m.get("model_compute")):   # within 5 %, as printed
        return out + [within]
    if extra < 0:
        out.append(f"The longer-step rank's compute inside the step ({inside * 1e3:.2f} ms, one round) is shorter "
                   f"than the shard measured apart with both ranks computing ({apart * 1e3:.2f} ms, the fastest "
                   "of its rounds): the two were measured at different moments of a machine loaded differently, "
                   "so this run cannot say what the step adds to the shard's work.")
        return out
    off_core = min(verdicts.off_core(slow)[0], extra)   # the least time off its core the run shows (above)
    left = extra - (off_core if off_core > 0.05 * extra else 0.0)   # what the run does not account for
    most = as_printed(verdicts.off_core(slow)[1], 2, 1e-3)   # the most time off its core, in ms as printed
    if left <= 0.05 * extra:
        out.append(f"Between the shard measured apart with both ranks computing ({apart * 1e3:.2f} ms, the "
                   f"fastest of its rounds) and the longer-step rank's compute inside the step ({inside * 1e3:.2f} ms, "
                   f"one round) lie {extra * 1e3:.2f} ms, and the step's thread was off its core at least that "
                   f"long (its CPU time {slow['thread_cpu'] * 1e3:.2f} ms, the all-reduces' included): the cores "
                   "being shared accounts for the gap.")
        return out
    out.append(f"Between the shard measured apart with both ranks computing ({apart * 1e3:.2f} ms, the fastest "
               f"of its rounds) and the longer-step rank's compute inside the step ({inside * 1e3:.2f} ms, one round) "
               f"lie {extra * 1e3:.2f} ms. "
               + (f"Measured of them: at least {off_core * 1e3:.2f} ms with the step's thread off its core (the "
                  "least of the bounds above). " if off_core > 0.05 * extra else "")
               # gloo's CPU time is spent on other threads: beside the gap, never a part of it
               + f"Measured beside them, not a part of the gap: the worker's other threads (gloo's) used "
               f"{max(slow['other_threads_cpu'], 0.0) * 1e3:.2f} ms of CPU. Unexplained by this run: what the "
               "step's thread did with "
               + (f"the {left * 1e3:.2f} ms left. " if off_core > 0.05 * extra else   # some subtracted
                  f"those {left * 1e3:.2f} ms, the whole gap (none of it accounted for). ")
               + ("" if most <= 0 or off_core > 0.05 * extra else   # what the time off its core may hold
                  f"Its time off its core (up to {most:.2f} ms, above) may hold "
                  + ("some or all of it. " if most >= as_printed(left, 2, 1e-3) else "some of it. "))
               + "The step adds f's and g's copies and the bias to the shard's work, the all-reduces pass "
               "through the same caches, and one round is set against the fastest of many; none of these is "
               "timed apart.")
    return out


def _cause(m: dict, slow: dict, parts: dict, shared: list[str]) -> str:
    """The cause of the miss as far as the run measured it, or 'not known' with what it ruled out; first the
    parts it measured apart, and whether one dominates (1.5x the next, as printed) or none does alone."""
    ranked = sorted(parts.items(), key=lambda kv: -kv[1])
    largest, second = ranked[0][0], ranked[1][1] if len(ranked) > 1 else 0.0
    times = half_up(parts[largest] / second, 1) if second else 0.0   # the printed parts' ratio, as printed
    listed = ", ".join(f"{k} {half_up(v * 1e3, 2):.2f} ms" for k, v in ranked)   # half up, as summed
    tolerance = (" (the compute's part counts only what lies beyond t1/2 and a 5 % tolerance this lesson "
                 "chooses for timing noise" + (   # why one part has an allowance and the other none
                     "; the wait counts whole: it is observed, both ranks' arrivals on one clock in one round, "
                     "not a time set against the model's" if WAIT_PART in parts else "")
                 + ")" if COMPUTE_PART in parts else "")
    lead = f"The miss, part by part on the longer-step rank{tolerance}: {listed}. "
    if parts[largest] <= 0:
        return lead + ("Every part is within its allowance (t1/2's 5 %, the fit's error): what is left of the "
                       "miss is within the model's own error, and this run names no cause.")
    lead += (f"No part dominates (the largest is {times:.1f}x the next): this run supports no "
             f"single cause, and takes the largest apart. " if second and times < 1.5 else
             f"The largest, {largest}, is {times:.1f}x the next: it dominates. " if second else
             f"Only {largest} is above zero: it is the whole miss. ")
    return lead + _largest_cause(m, slow, parts, shared, largest)


def _largest_cause(m: dict, slow: dict, parts: dict, shared: list[str], largest: str) -> str:
    """Why the largest part of the miss took its time, as far as the run measured it."""
    ruled, left_open = _ruled_out(m, slow, parts)
    if shared:
        waited = (largest == "waiting for the other rank" and len(m["ranks"]) == 2
                  and verdicts.wait_reading(m["ranks"], m["ranks"].index(slow))["late"])   # section 4's rule
        how = ("a rank computed late and the other waited for it" if waited
               else "the measured candidate for it, though this run does not time the one against the other")
        return (f"Measured while the step ran: the cores were shared ({'; '.join(shared)}); the largest part "
                f"of the miss is {largest} ({parts[largest] * 1e3:.2f} ms), and the sharing is {how}. What "
                f"would show the model's speed-up: ranks that each have their device to themselves, on a "
                f"machine with nothing else running.")
    if largest == COMPUTE_PART and (within := verdicts.step_added_nothing(m, slow, parts[COMPUTE_PART])):
        said, step_added = within   # where the compute's part lies; the step's additions, left open
        ruled, left_open = _ruled_out(m, slow, parts, (step_added,))
        return (f"{said} {ruled}{left_open} What would show the model's speed-up: widths where the "
                "compute a rank saves outweighs its all-reduces and whatever else slows the shards.")
    if largest == COMPUTE_PART:
        return _compute_cause(m, slow, parts)
    if largest == "waiting for the other rank" and len(m["ranks"]) == 2:
        said = verdicts.wait_reading(m["ranks"], m["ranks"].index(slow))   # the rule the evidence reads
        o = said["other"]   # the rank this one waited for
        # gloo's threads are read on both ranks (``gap_candidate``): a candidate only where rank o's used more;
        # the gap is named by its figure, for the block's own "gap" is another quantity (t36_0708 #2)
        longer = f"the {said['gap']:.2f} ms rank {o} computed longer than rank {said['waiter']}"
        why, which = (("why it computed longer", longer) if said["late"] else
                      (f"what held rank {o} back", "the wait"))
        gloo = gap_candidate(m["ranks"], o, which)
        # a candidate, or cores shown shared, stays in the answer; gloo's figures that explain nothing go to
        # the block with the rest of what was ruled out (t33_0708 other #4: the visible answer ran to 25 lines)
        shown = gloo.startswith("; one candidate") or whole_core(m["ranks"])
        kept, aside = (gloo, "") if shown else ("", _as_sentence(gloo))
        # the cause found is the largest part's, not the whole miss's (t36_0708 #1): said so, with its share
        head = f"the largest part of the miss is waiting for the other rank ({_of_parts(parts, largest)})"
        return (f"{head[:1].upper()}{head[1:]}; that part's cause, not the whole miss's: " if said["late"] else
                f"No cause found: {head}, and ") + (f"{verdicts.wait_words(said)}; {why} is "
                f"not known from this run{kept}. {ruled}{left_open}{aside} What "
                "would show the model's speed-up: widths where the compute each rank saves (half one device's) "
                "outweighs its all-reduces and its waits for the other rank.")
    return (f"No cause found: the largest part of the miss is {largest} ({parts[largest] * 1e3:.2f} ms); why "
            f"is not known from this run{threads_candidate(m['ranks'], 'its cause')}. {ruled}{left_open} "
            "What would show the model's speed-up: widths where the compute each rank saves (half one "
            "device's) outweighs its all-reduces.")


def _of_parts(parts: dict, name: str) -> str:
    """One part of the miss against all of them, from the ms as printed: "1.04 ms of the 2.68 ms the parts
    add to" (the parts above zero, each to 0.01 ms half up, so the sum comes out of the figures listed)."""
    shown = {k: half_up(v * 1e3, 2) for k, v in parts.items() if v > 0}
    return f"{shown[name]:.2f} ms of the {half_up(sum(shown.values()), 2):.2f} ms the parts add to"


def _as_sentence(clause: str) -> str:
    """"; the worker's other threads ..." as a sentence of its own, " The worker's other threads ....";
    "" for ""."""
    text = clause.removeprefix("; ")
    return f" {text[:1].upper()}{text[1:]}." if text else ""


def _compute_cause(m: dict, slow: dict, parts: dict) -> str:
    """The compute's part dominates and the step added more than its 5 %: every candidate this run leaves
    open, in one list, so that no "Cause:" is followed by more candidates (three at least: no cause found).
    The answer counts them; the list follows "Ruled out:", so ``verdicts.ruled_apart`` moves it to the block."""
    ruled, _ = _ruled_out(m, slow, parts)
    fits = ["gloo's threads (their CPU time is in the table)",
            "the all-reduces' copies passing through the core and its caches between the matmuls",
            "f's and g's copies and the bias, the step's additions to the shard's work"]
    # time lost inside the all-reduces (the late return) is not in the compute: not a candidate for its miss
    fits += _ruled_and_open(m, slow, {k: v for k, v in parts.items() if k != LATE_PART})[1]
    return (f"No cause found for the shard's compute inside the split step ({slow['compute'] * 1e3:.2f} ms "
            f"against t1/2 {m['model_compute'] * 1e3:.2f} ms): the same matmuls ran slower inside the step than "
            f"the model assumes. {len(fits)} candidates fit, none timed apart (the block below lists them). {ruled}"
            f" The compute's {len(fits)} candidates, none timed apart: {'; '.join(fits)}. What would show the "
            "model's speed-up: widths where the compute a rank saves outweighs its all-reduces and whatever "
            "slows its shard (the block below names no candidate as the cause).")   # the list is below (t35 #3)
