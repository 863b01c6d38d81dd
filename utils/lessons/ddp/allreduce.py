"""The interconnect: all-reduce time and bandwidth over message sizes, as nccl-tests reports them (lesson 03).

algbw = bytes / time is the rate the application sees; busbw = algbw x 2(n-1)/n is comparable with the
link's own bandwidth, because a ring all-reduce moves 2(n-1)/n of the message over each link.
"""

from __future__ import annotations

import statistics
import time

import torch
import torch.distributed as dist

from matplotlib.transforms import ScaledTranslation

from utils import machine, plots
from utils.bench import synchronize
from utils.claims import Claim, signed_percent, as_printed, half_up, percent, sig_decimals
from utils.launch import launch, process_group

MS_DIGITS = 2  # decimals of the ms the table prints a time with: algbw is worked from that printed time
WARMUP = 2  # untimed all-reduces per size: the first ones set up buffers and connections
FIRST_WARMUP = 10  # before the first size: the process group's first collectives, not a size's cost


def profile_link(plan, device: str = "cpu", path=None) -> "machine.LinkFit | None":
    """The link fit lesson 00 kept in the machine profile (``machine.stored_link``) for this machine, where it
    is the path ``plan``'s workers use (``machine.link_route``: gloo between two processes on a CPU): the one
    figure of that link the course quotes (lessons 00, 02 and 08). None where the profile keeps none, or
    another path. Read only: nothing is measured or written here. Lesson 03."""
    kept = machine.saved_link(device, path or machine.PROFILE_PATH)  # the one public reader of lesson 00's fit
    return kept if kept and kept.name == machine.link_route(plan)[0] else None


def busbw_factor(world: int) -> float:
    """nccl-tests' bus-bandwidth factor for all-reduce: a ring moves 2(n-1)/n of the message per rank."""
    return 2 * (world - 1) / world


def all_reduce_samples(sizes: list[int], repeats: int = 5) -> list[list[float]]:
    """On each rank: for each size, the seconds of ``repeats`` all-reduces of ``size`` bytes (fp32), each
    started at a barrier. The first size gets ``FIRST_WARMUP`` untimed calls, every other ``WARMUP``."""
    with process_group() as device:
        out = []
        for k, size in enumerate(sizes):
            t = torch.ones(size // 4, dtype=torch.float32, device=device)
            samples = []
            warmup = FIRST_WARMUP if k == 0 else WARMUP
            for i in range(warmup + repeats):
                dist.barrier()  # start together: otherwise one rank's wait for the other is timed
                start = time.perf_counter()
                dist.all_reduce(t)
                synchronize(device)
                if i >= warmup:
                    samples.append(time.perf_counter() - start)
            out.append(samples)
        return out


def all_reduce_benchmark(sizes: list[int], repeats: int = 5, nprocs: int = 2, timeout: float = 120) -> list[dict]:
    """One row per size: ``bytes``, ``seconds`` (median over the repeats of the slowest rank's time: the
    collective ends when its slowest rank is done), ``low``/``high`` (the fastest and slowest repeat, so
    that a size's noise shows), ``algbw`` and ``busbw`` in bytes/s, worked from the time as the table prints it
    (``printed_seconds``), so that 3,303,424 B / 2.81 ms on the page gives the printed 1.18 GB/s."""
    per_rank = launch(all_reduce_samples, sizes, repeats, nprocs=nprocs, timeout=timeout)
    rows = []
    for k, size in enumerate(sizes):
        calls = [max(r[k][i] for r in per_rank) for i in range(repeats)]  # each call: its slowest rank
        seconds = statistics.median(calls)
        algbw = size / printed_seconds(seconds)
        rows.append({"bytes": size, "seconds": seconds, "low": min(calls), "high": max(calls), "algbw": algbw,
                     "busbw": algbw * busbw_factor(nprocs)})
    return rows


def ms_decimals(seconds: float) -> int:
    """Decimals of ms the all-reduce table prints ``seconds`` with: ``MS_DIGITS``, or more for a time under
    1 ms so that it keeps 3 significant figures (a GPU's 4 KiB all-reduce, 0.0123 ms, not 0.01): the rates
    worked from the printed time stay as precise as the time."""
    return sig_decimals(seconds * 1e3, 3, least=MS_DIGITS)


def ms_text(seconds: float) -> str:
    """``seconds`` in ms as the all-reduce table prints it (``ms_decimals``)."""
    return f"{seconds * 1e3:.{ms_decimals(seconds)}f}"


def printed_seconds(seconds: float) -> float:
    """``seconds`` as the table prints it (``ms_text``), back in seconds; a time that prints as zero counts as
    its rounding step, so that a rate is never a division by zero."""
    digits = ms_decimals(seconds)
    return (as_printed(seconds, digits, 1e-3) or 10.0 ** -digits) * 1e-3


def printed_gbs(rate: float) -> float:
    """A rate in bytes/s as the lesson prints it: GB/s to two decimals."""
    return as_printed(rate, 2, 1e9)


def busbw_share(busbw: float, line: float, line_digits: int = 2) -> float:
    """busbw over the link's figure (β, a reference, or a datasheet bound; bytes/s), worked from the two as
    printed: busbw to 0.01 GB/s, ``line`` to ``line_digits`` decimals of GB/s (β prints 3.98, a datasheet
    rate 64), so that 1.18 / 3.98 on the page reads 30%."""
    return printed_gbs(busbw) / (as_printed(line, line_digits, 1e9) or 10.0 ** -line_digits)


def share_cell(row: dict, line: float, line_digits: int = 2) -> str:
    """Section 6's table cell "busbw / reference" (or "/ bound") for one size: its share of the link's figure
    (``busbw_share``), or "rough: not scored" where its median is rough (``is_rough``), the rule the sentence
    under the table and the claims row read the peak by, so that no share is printed in one place and refused
    in another (t39_0304 #2). Lesson 03."""
    if is_rough(row):
        return "rough: not scored"
    return f"{busbw_share(row['busbw'], line, line_digits):.0%}"


def link_model_seconds(link: "machine.LinkFit", size: int) -> float:
    """The link model of one all-reduce of ``size`` bytes between two ranks, 2α + S/β (two one-way messages of
    half the bytes each way), worked from α and β as ``link.describe()`` prints them (0.1 µs, 0.01 GB/s), so
    that a reader who redoes 2 x 106.0 µs + 3,303,424 B / 3.98 GB/s finds the printed figure."""
    alpha = as_printed(link.fit.alpha, 1, 1e-6) * 1e-6
    beta = (as_printed(link.fit.beta, 2, 1e9) or 0.01) * 1e9  # a β printed as 0.00 counts as its rounding step
    return 2 * alpha + size / beta


def _label(n: int) -> str:
    """``plots.size_label`` for powers of two; other sizes (one step's gradients) with two decimals."""
    return plots.size_label(n) if n & (n - 1) == 0 else f"{n / 2**20:.2f} MiB"


def largest(rows: list[dict]) -> dict:
    """The row of the largest message. Lesson 03."""
    return max(rows, key=lambda r: r["bytes"])


def peak_rows(rows: list[dict]) -> list[dict]:
    """Every row whose busbw (a median over its repeats) prints the highest GB/s (``printed_gbs``), by size: the
    peak as the table shows it. Two sizes that print the same figure tie; the unrounded digits pick no winner."""
    best = max(printed_gbs(r["busbw"]) for r in rows)
    return sorted((r for r in rows if printed_gbs(r["busbw"]) == best), key=lambda r: r["bytes"])


def peak(rows: list[dict]) -> dict:
    """The row of the highest busbw as printed (``peak_rows``): the best rate this run's all-reduce reached, the
    figure the lesson sets beside the link, wherever on the curve it lies. Where sizes tie as printed, the
    largest of them: no later size reads higher, so the curve's shape is read from there. Lesson 03."""
    return peak_rows(rows)[-1]


def peak_where(rows: list[dict]) -> str:
    """"its peak (16 MiB)", or every size that ties as printed: "its peak (3.15 MiB and 16 MiB, tied as
    printed)", so that the sentence never names one winner the table does not show. Lesson 03."""
    tied = [_label(r["bytes"]) for r in peak_rows(rows)]
    if len(tied) == 1:
        return f"its peak ({tied[0]})"
    return f"its peak ({', '.join(tied[:-1])} and {tied[-1]}, tied as printed)"


def _at(row: dict) -> str:
    return f"{row['busbw'] / 1e9:.2f} GB/s at {_label(row['bytes'])}"


def trend(rows: list[dict], flat: float = 0.10) -> str:
    """The shape of the busbw curve, read from its figures: where the largest size peaks, still rising or
    levelling off (``_rising_or_level``: against the best earlier size and the repeats); after a peak,
    levelling off (every larger size within ``flat`` of the peak, as printed), a dip (a fall, then the largest size back
    within ``flat`` of the peak), or a peak then a fall ("reads lower" where the repeats' ranges cover it). A fall is set against the repeats:
    within noise where a later size's fastest repeat beats the peak's slowest. Every share is worked from the
    GB/s as printed (``printed_gbs``), so that 0.94 against 1.18 reads 20% under the peak. Lesson 03."""
    gbs = lambda row: printed_gbs(row["busbw"]) or 0.01  # a rate printed as 0.00 counts as its rounding step
    ordered = sorted(rows, key=lambda r: r["bytes"])
    top = peak(ordered)
    after = ordered[ordered.index(top) + 1:]
    if not after:  # the peak is the largest size
        return _rising_or_level(ordered, flat, gbs)
    later = ", ".join(_at(r) for r in after)
    near = lambda row: round(gbs(row) / gbs(top), 9) >= 1 - flat  # as printed: 1.08 of 1.20 is 10% under, within
    if all(near(r) for r in after):
        return (f"The curve levels off from {_label(top['bytes'])}: busbw peaks at {_at(top)}, and every larger "
                f"size stays within {flat:.0%} of it ({later})")
    low = min(after, key=lambda r: r["busbw"])
    best_of_low, worst_of_peak = _repeat_gbs(low, low["low"]), _repeat_gbs(top, top["high"])  # from the repeats
    noise = ("within the repeats' ranges, so the fall may be noise" if best_of_low >= worst_of_peak else
             "beyond the repeats' ranges")
    drop = f"the lowest of these is {1 - gbs(low) / gbs(top):.0%} under the peak"
    if near(after[-1]):  # the largest size is back near the peak: a dip
        return (f"busbw dips after its peak and recovers: it peaks at {_at(top)}, then reads {later}; {drop}, "
                f"{noise.replace('fall', 'dip')}, and the largest size is back within {flat:.0%} of the peak. "
                "The peak is the best rate measured")
    if best_of_low >= worst_of_peak:  # the fall lies within the repeats: not stated as a fall
        return (f"busbw reads lower after its peak: it peaks at {_at(top)}, then reads {later}; {drop}, {noise}. "
                "The peak is the best rate measured")
    return (f"busbw falls after its peak instead of levelling off: it peaks at {_at(top)}, then reads {later}; "
            f"{drop}, {noise}. The peak is the best rate measured, not a plateau")


def _repeat_gbs(row: dict, seconds: float) -> float:
    """The busbw of one repeat, in GB/s as printed (``printed_gbs``), worked from its time as the table prints
    it (``printed_seconds``): 3,303,424 B / 1.83 ms on the page gives 1.81 GB/s, which is the figure printed
    and the figure compared. The row's busbw times its printed median is its bytes times the bus factor."""
    bus_bytes = row["busbw"] * printed_seconds(row["seconds"])
    return printed_gbs(bus_bytes / printed_seconds(seconds))


def _rising_or_level(ordered: list[dict], flat: float, gbs) -> str:
    """The curve's shape where its highest median is the largest size: set against the best earlier size
    (not merely the one before), still rising only where it gains more than ``flat`` AND beyond the repeats'
    ranges (the best earlier size's fastest repeat slower than the largest's slowest); a middle size more
    than ``flat`` under that best is named as a dip, with its repeats. One rough median is no trend."""
    *earlier, last = ordered
    best = max(earlier, key=lambda r: r["busbw"])
    gain = round(gbs(last) / gbs(best) - 1, 9)  # as printed: 1.32 over 1.20 is a 10% gain, not 9.99...
    figures = f"busbw {_at(best)}, {_at(last)} ({signed_percent(gain)})"
    fast_best, slow_last = _repeat_gbs(best, best["low"]), _repeat_gbs(last, last["high"])  # as printed
    ranges = (f"{_label(best['bytes'])}'s fastest repeat {fast_best:.2f} GB/s, "
              f"{_label(last['bytes'])}'s slowest {slow_last:.2f} GB/s")
    dips = [r for r in ordered[ordered.index(best) + 1:-1] if round(gbs(r) / gbs(best), 9) < 1 - flat]
    dip = "".join(f", with a dip at {_label(r['bytes'])} ({gbs(r):.2f} GB/s), "
                  + ("within its repeats" if _repeat_gbs(r, r["low"]) >= _repeat_gbs(best, best["high"])
                     else "beyond its repeats") for r in dips)
    if gain >= flat and fast_best < slow_last:
        return (f"The curve is still rising at the largest size measured, beyond the repeats' ranges ({ranges}), "
                f"so no plateau is reached here: {figures}{dip}")
    if gain >= flat:
        return (f"The largest size reads highest ({figures} over the best earlier size), but no trend beyond the "
                f"repeats' ranges ({ranges}): this run does not show whether the curve still rises{dip}")
    return f"The curve levels off from {_label(best['bytes'])} (within {flat:.0%}): {figures}{dip}"


def outliers(rows: list[dict], wide: float = 0.5) -> list[str]:
    """Sizes whose repeats spread widely (range over median above ``wide``): their median is a rough figure,
    said with its range, each figure as the table prints it (``ms_text``: 0.335, not a second rounding to
    0.33). Lesson 03."""
    return [f"{_label(r['bytes'])}: median {ms_text(r['seconds'])} ms, repeats {ms_text(r['low'])}-"
            f"{ms_text(r['high'])} ms" for r in rows if is_rough(r, wide)]


def inversions(rows: list[dict]) -> list[str]:
    """Where a larger message took no longer than the size before it, as the table prints the two medians
    (``ms_text``, so that 2.725 ms is read as the table's 2.72): less, or the same as printed; and whether the
    repeats' ranges, as printed, overlap (noise at the scale of the fixed cost) or not (the path changes
    between the two sizes)."""
    shown = printed_seconds  # every comparison on the figures as the table prints them
    out = []
    for small, large in zip(rows, rows[1:]):
        if shown(large["seconds"]) > shown(small["seconds"]):
            continue
        if shown(large["seconds"]) == shown(small["seconds"]):
            took = f"took the same time as {_label(small['bytes'])} as printed ({ms_text(large['seconds'])} ms each)"
        else:
            took = (f"took less than {_label(small['bytes'])} "
                    f"({ms_text(large['seconds'])} against {ms_text(small['seconds'])} ms)")
        noise = shown(large["high"]) >= shown(small["low"])
        out.append(f"{_label(large['bytes'])} {took}: "
                   + ("their repeats' ranges overlap, so the two cost the same within noise"
                      if noise else "beyond both ranges of repeats: the path's regime changes between them, "
                      "which this lesson does not measure further"))
    return out


def _rate_range(row: dict) -> str:
    """A size's busbw over its repeats, slowest to fastest, in GB/s as printed: "0.29-0.66 GB/s"."""
    return f"{_repeat_gbs(row, row['high']):.2f}-{_repeat_gbs(row, row['low']):.2f} GB/s"


def rough_rate(row: dict) -> str:
    """A clause after a size's busbw where its median is rough (``is_rough``): " (rough: its repeats ran
    0.50-1.55 GB/s)", the rates of its slowest and fastest repeats as printed; empty where its repeats agree."""
    return f" (rough: its repeats ran {_rate_range(row)})" if is_rough(row) else ""


def rough_peak_claim(claim: str, row: dict, line: float, kind: str, digits: int) -> Claim | None:
    """The claims row of a peak busbw (``row``) set beside the link's ``line`` (bytes/s; ``kind``: "reference"
    or "bound", printed to ``digits`` decimals of GB/s) where the peak's median is rough: "~1.18 GB/s" with its
    repeats' range, and no share of the line scored, the rule lesson 04 reads a rough figure by (t35_0304 #4).
    None where the median is not rough: the caller scores the share (``against_reference``, ``against_bound``)."""
    if not is_rough(row):
        return None
    return Claim(claim, f"~{printed_gbs(row['busbw']):.2f} GB/s{rough_rate(row)}",
                 f"{kind} {as_printed(line, digits, 1e9):.{digits}f} GB/s",
                 f"the peak's median is rough: no share of the {kind} scored")


def beside_line(row: dict, line: float, digits: int, name: str, expected=None) -> str:
    """Section 6's words for the peak busbw (``row``) beside the link's figure ``line`` (bytes/s, printed to
    ``digits`` decimals of GB/s; ``name``: "the machine profile's β"): "1.61 GB/s, 46% of the machine profile's
    β, 3.48 GB/s", read against ``expected`` (``machine.BusExpectation``) where one is given. Where the peak's
    median is rough (``is_rough``), the claims row's rule (``rough_peak_claim``) holds here too: "~1.61 GB/s"
    with its repeats' rates, and no share scored, so that the sentence and the row never disagree. Lesson 03."""
    figure = f"{name}, {as_printed(line, digits, 1e9):.{digits}f} GB/s"
    if is_rough(row):
        return (f"~{printed_gbs(row['busbw']):.2f} GB/s{rough_rate(row)} against {figure}: its median is rough, "
                "so no share of it is scored")
    share = busbw_share(row["busbw"], line, digits)
    read = f", {expected.reading(share)}" if expected else ""
    return f"{printed_gbs(row['busbw']):.2f} GB/s, {share:.0%} of {figure}{read}"


def rate_drops(rows: list[dict]) -> list[str]:
    """Where busbw, as printed, falls from one size to the next before the curve's highest point, a fall
    ``trend`` does not read (it reads from the highest size on, or the best earlier size where the largest
    is highest); a larger size that took no longer is ``inversions``'s, and always gains. Each drop is set
    against the repeats: the same within noise where the larger size's fastest repeat reaches the smaller's
    slowest, as printed (``_repeat_gbs``). Lesson 03: that larger messages run nearer the link's rate is a
    tendency, and a run's curve can fall on the way."""
    ordered = sorted(rows, key=lambda r: r["bytes"])
    top = peak(ordered)
    if top is ordered[-1]:  # the largest size is highest: ``_rising_or_level`` reads from the best earlier
        top = max(ordered[:-1], key=lambda r: r["busbw"]) if len(ordered) > 1 else top
    upto = ordered[:ordered.index(top) + 1]
    out = []
    for small, large in zip(upto, upto[1:]):
        if printed_gbs(large["busbw"]) >= printed_gbs(small["busbw"]):
            continue
        noise = _repeat_gbs(large, large["low"]) >= _repeat_gbs(small, small["high"])
        out.append(f"busbw fell from {_at(small)} to {_at(large)} before the curve's highest point: "
                   + (f"their repeats' ranges overlap ({_label(small['bytes'])} {_rate_range(small)}, "
                      f"{_label(large['bytes'])} {_rate_range(large)}), so the two rates are the same within "
                      "noise" if noise else
                      f"beyond both ranges of repeats ({_label(small['bytes'])} {_rate_range(small)}, "
                      f"{_label(large['bytes'])} {_rate_range(large)}): a larger message need not run nearer "
                      "the link's rate, and this lesson does not measure why this one did not"))
    return out


RANGE_LABEL = "bars: slowest to fastest repeat"


def repeat_range_gbs(rows: list[dict]) -> tuple[list[float], list[float]]:
    """Each size's error bar below and above its median algbw (GB/s): from its slowest repeat (``high``, the
    lowest rate) to its fastest (``low``, the highest rate), as the table's "every repeat" column gives them."""
    below = [(r["algbw"] - r["bytes"] / r["high"]) / 1e9 for r in rows]
    above = [(r["bytes"] / r["low"] - r["algbw"]) / 1e9 for r in rows]
    return [max(b, 0.0) for b in below], [max(a, 0.0) for a in above]


def plot_all_reduce(rows: list[dict], bound: float | None, bound_label: str, label: str, world: int = 2):
    """algbw and busbw (GB/s, log scale) against message size, with the bound dashed; ``label`` says where the
    numbers were measured (" (simulated on CPU)" stamps the figure too).

    A log scale, because small messages reach a thousandth of the bound: on a linear axis they would sit
    flat on zero. With two ranks busbw = algbw (the factor 2(n-1)/n is 1), so the two curves coincide: busbw
    is drawn dashed with hollow markers over algbw, and the figure says so. Bars on algbw span each size's
    repeats, slowest to fastest (the table's "every repeat"), and the legend says so.
    """
    fig, (ax,) = plots.new_figure(rows=1, width=9.0, row_height=3.6)
    sizes = [r["bytes"] for r in rows]
    ax.plot(sizes, [r["algbw"] / 1e9 for r in rows], "o-", color=plots.device_color(0), ms=7,
            label="algbw = bytes / time (median)")
    # the repeats' range: a median alone would let a rough size's dip read as a feature of the link
    if all("low" in r and "high" in r for r in rows):  # the benchmark's rows carry their repeats' range
        ax.errorbar(sizes, [r["algbw"] / 1e9 for r in rows], yerr=repeat_range_gbs(rows), fmt="none",
                    ecolor="0.35", elinewidth=1, capsize=3, label=RANGE_LABEL)
    ax.plot(sizes, [r["busbw"] / 1e9 for r in rows], "s--", color=plots.device_color(1), mfc="none", ms=9,
            label="busbw = algbw x 2(n-1)/n")
    if bound:
        ax.axhline(bound / 1e9, color="0.3", ls=":", lw=1.5, label=bound_label)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ticks = [n for n in sizes if n & (n - 1) == 0]  # powers of two: another size's label would overprint
    ax.set_xticks(ticks)
    ax.set_xticklabels([plots.size_label(n) for n in ticks], fontsize=8)
    ax.minorticks_off()
    for n in sizes:
        if n not in ticks:  # e.g. one step's gradients: a dotted line, named along the bottom of the axes
            ax.axvline(n, color="0.6", ls=":", lw=1)
            ax.text(n, 0.03, f" {_label(n)}", transform=ax.get_xaxis_transform(), rotation=90, fontsize=8,
                    ha="right", va="bottom", color="0.3")
    ax.set_xlabel("all-reduce message size")
    ax.set_ylabel("GB/s (log scale)")
    ax.grid(alpha=0.3, which="both")
    # below the axes, as the timelines' legends are: inside, the points of a noisy run could fall under it
    note = f"n = {world}: 2(n-1)/n = 1, so busbw = algbw (the curves coincide)" if busbw_factor(world) == 1 else None
    ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, 0.0), ncol=3, frameon=False, title=note,
              title_fontsize=8, bbox_transform=ax.transAxes + ScaledTranslation(0, -0.5, fig.dpi_scale_trans))
    simulated = "simulated on CPU" in label
    plots.stamp_simulated(fig, simulated)
    return plots.finish(fig, "All-reduce bandwidth over message size" + label)


SMALL_BYTES = 2**16  # "small messages": up to 64 KiB, where lesson 00's α is expected to weigh most


def small_messages(rows: list[dict], small: int = SMALL_BYTES, link: "machine.LinkFit | None" = None) -> str:
    """What the table's small messages show of a fixed cost per message, from the medians as printed: the
    smallest size against the largest up to ``small`` bytes. If a message's time is a fixed part plus a part
    per byte (like lesson 00's α and β), two medians t1 and t2, k times the bytes apart, put the fixed part at
    (k x t1 - t2) / (k - 1) ms, a share of t1: mostly fixed (half or more), partly, or none shown (t2 at least
    k x t1). Where the larger message took less (t2 < t1), that fit would price the bytes below zero: the two
    medians then carry no split, and no fixed part is printed or set beside 2α (t39_0304 #1). Given the ``link`` lesson 00 fitted, that fixed part is set beside 2α (``_beside_two_alpha``) in a
    second paragraph, after a newline: the lesson prints each paragraph on its own (a line of 90 words was too
    long to read, the twenty-ninth reading). A rough median is said beside the figures, not after them.
    "" where fewer than two sizes are that small. Lesson 03, section 6."""
    few = sorted((r for r in rows if r["bytes"] <= small), key=lambda r: r["bytes"])
    if len(few) < 2:
        return ""
    first, last = few[0], few[-1]
    t1, t2 = (as_printed(r["seconds"], ms_decimals(r["seconds"]), 1e-3) for r in (first, last))
    k = last["bytes"] / first["bytes"]
    rough = [_label(r["bytes"]) for r in (first, last) if is_rough(r)]
    rough_text = (f"; rough: {' and '.join(rough)} {'medians' if len(rough) > 1 else 'median'}, repeats spread "
                  "over more than half the median" if rough else "")
    said = (f"Small messages: from {_label(first['bytes'])} to {_label(last['bytes'])} ({k:g}x the bytes) the "
            f"median went from {ms_text(first['seconds'])} ms to {ms_text(last['seconds'])} ms "
            f"({times_text(t2 / t1 if t1 else 0.0)}{rough_text})")
    if t2 < t1:  # a fit would price the bytes below zero: two such medians carry no fixed-vs-per-byte split
        return said + (": the larger message took less, so these two medians cannot be split into a fixed part "
                       "and a part per byte (the part per byte would come out below zero)")
    fixed_ms = (k * t1 - t2) / (k - 1)  # at most t1, since t2 >= t1: a share of it, never past the whole
    if fixed_ms <= 0 or not t1:
        return said + ": as much as the bytes or more, so no fixed cost per message shows at these sizes"
    fixed_text = _ms_figure(fixed_ms)
    share = float(fixed_text) / t1  # the share worked from the two ms figures as printed
    said += (f". Taken as a fixed part plus a part per byte, these two medians put the fixed part at "
             f"({k:g} x {ms_text(first['seconds'])} - {ms_text(last['seconds'])}) / {k - 1:g} = {fixed_text} ms, "
             f"{_against_first(share, first)}. "
             + ("It is mostly a fixed cost per message, whatever its size, like lesson 00's α (the cost of "
                "sending one message one way, through the socket or the driver). That is why small messages "
                "reach so little of the link's rate"
                if half_up(share * 100, 0) >= 50 else  # as the percent prints
                "It is partly a fixed cost per message, like lesson 00's α, the rest growing with the bytes"))
    return said + ("\n" + _beside_two_alpha(float(fixed_text), link) if link else "")


def _against_first(share: float, first: dict) -> str:
    """The fixed part as a share of the smallest message's median: "96% of the 4 KiB message's 0.256 ms"."""
    return f"{percent(share)} of the {_label(first['bytes'])} message's {ms_text(first['seconds'])} ms"


def _ms_figure(ms: float) -> str:
    """A time in ms printed as the all-reduce table prints its times: 3 significant figures, at least 2
    decimals, half up (0.34773 -> "0.348")."""
    digits = sig_decimals(ms, 3, least=MS_DIGITS)
    return f"{half_up(ms, digits):.{digits}f}"


def _beside_two_alpha(fixed_ms: float, link: "machine.LinkFit") -> str:
    """The measured fixed part (ms, as printed) beside the link model's: lesson 00's α prices one one-way
    message, and an all-reduce of two ranks pays at least two (2α, from α as ``describe`` prints it), plus
    gloo's copies and sums, which α does not hold. The ratio is worked from the two figures as printed."""
    alpha_us = as_printed(link.fit.alpha, 1, 1e-6)
    two_alpha = _ms_figure(2 * alpha_us / 1e3)
    ratio = half_up(fixed_ms / (float(two_alpha) or 0.01), 1)  # a 2α printed 0.00 counts as its last digit
    said = (f"Lesson 00's α, {alpha_us:,.1f} µs, prices one one-way message; an all-reduce pays at least two, "
            f"2α = {two_alpha} ms")
    if ratio > 1:
        return said + (f", plus gloo's copies and sums. This fixed part is {ratio:.1f}x 2α: the rest of it is "
                       "work α does not price, which this run does not time apart")
    if ratio == 1:
        return said + f". This fixed part is about 2α ({ratio:.1f}x), as the link model prices it"
    return said + (f". This fixed part is under it ({ratio:.1f}x 2α), less than the link model prices, so these "
                   "two medians do not bear the model out at these sizes")


def is_rough(row: dict, wide: float = 0.5) -> bool:
    """Whether a size's repeats spread over more than ``wide`` of its median: its median is then rough."""
    return (row["high"] - row["low"]) / row["seconds"] > wide


def rough_note(row: dict) -> str:
    """A clause for a ratio built on ``row``'s median: empty where its repeats agree, else their range."""
    if not is_rough(row):
        return ""
    return (f" (rough ratios: the isolated all-reduce's repeats ran {row['low'] * 1e3:.2f}-{row['high'] * 1e3:.2f}"
            f" ms around its {row['seconds'] * 1e3:.2f} ms median)")


def isolated_ms(row: dict) -> float:
    """The isolated all-reduce's median in ms as section 6's table prints it (two decimals). Every table, claim
    and ratio that quotes it uses this one figure, so that a ratio checks against the figures on the page."""
    return as_printed(row["seconds"], MS_DIGITS, 1e-3)


def times_text(ratio: float) -> str:
    """A ratio worked from printed figures, to one decimal, as section 6 prints it: rounded half up as a
    reader rounds (2.34 / 1.04 = 2.25 -> "2.3x"; ``:.1f`` rounds half to even and prints 2.2x)."""
    return f"{half_up(ratio, 1):.1f}x"


def with_article(figure: str) -> str:
    """``figure`` (a number as printed, with its unit: "84 ms") after "a" or "an", as it is read aloud: "an"
    before a number said with a vowel first, eight (8, 84, 8.5, 800) or eleven and eighteen (11, 18, and
    11,000 or 18,000, said "eleven thousand"), "a" before any other ("a 76 ms step"). The step time is
    printed from the run, so the article cannot be written by hand beside it. Lesson 03, section 6."""
    digits = figure.lstrip().split(".")[0].split(" ")[0].replace(",", "")
    eleven = len(digits) % 3 == 2 and digits[:2] in ("11", "18")  # 11, 18, 11 000, 18 000 000 ...
    return f"{'an' if digits.startswith('8') or eleven else 'a'} {figure}"


def _worked_ms(value: float) -> str:
    """A time in ms worked from printed figures, to the table's precision (``ms_decimals``), rounded half up."""
    digits = sig_decimals(value, 3, least=MS_DIGITS)
    return f"{half_up(value, digits):.{digits}f}"


def _priced_sum(full: int, each: str, last: str | None) -> tuple[str, float]:
    """``full`` messages at ``each`` ms, plus one at ``last`` ms where there is one (the table's figures, as
    ``ms_text`` prints them), written one operation at a time, so that each "a op b = c" redoes from its
    printed operands: "3 × 3.19 ms = 9.57 ms, and 9.57 ms + 0.524 ms = 10.09 ms", the sum worked from the
    product as printed. (One line "3 x 3.19 + 0.524 = 10.09" reads as 3.19 + 0.524 to a reader who scans
    for "a + b = c".) Returns the text and the total as printed."""
    product = _worked_ms(full * float(each))
    if last is None:
        return f"{full} × {each} ms = {product} ms", float(product)
    total = _worked_ms(float(product) + float(last))
    if full == 1:  # one whole message: no product to write
        return f"{each} ms + {last} ms = {total} ms", float(total)
    return f"{full} × {each} ms = {product} ms, and {product} ms + {last} ms = {total} ms", float(total)


def bucket_pieces(rows: list[dict], whole: int, cap: int, sent: float | None = None) -> str:
    """Whether cutting ``whole`` bytes into messages of ``cap`` bytes (DDP's buckets) costs more than sending
    it whole, priced from section 6's table alone: the whole messages DDP sends, each at its size's row (the last,
    smaller one at its own size's row or the nearest timed size above it: a fraction of a message would charge
    a fraction of the fixed cost), against the whole row's median, and the same sum over each row's repeats.
    Where the two ranges of repeats overlap the two cost the same within noise; otherwise more or less.
    Every operand as printed; ``sent``, DDP's own count of buckets (section 2), is printed beside the count.
    Lesson 03: the run, not the markdown, says whether the buckets' smaller size is a cause."""
    by_size = {r["bytes"]: r for r in rows}
    if whole <= cap:
        return f"The {_label(whole)} fit one {_label(cap)} bucket: no smaller messages to price"
    if cap not in by_size or whole not in by_size:
        return f"Section 6's table has no {_label(cap)} row: this run does not price its buckets' size alone"
    piece, alone = by_size[cap], by_size[whole]
    full, rest = divmod(whole, cap)  # DDP sends whole messages: each pays the fixed cost once
    ms_of = lambda seconds: printed_seconds(seconds) * 1e3  # the table's figure
    terms = [(full, piece)]
    if rest:  # the last, smaller message: at its own size's row, or the nearest timed size above it
        tail = min((r for r in rows if r["bytes"] >= rest), key=lambda r: r["bytes"])
        terms.append((1, tail))
    summed = [sum(n * ms_of(r[k]) for n, r in terms) for k in ("seconds", "low", "high")]
    whole_ms = [ms_of(alone[k]) for k in ("seconds", "low", "high")]
    worked, median = _priced_sum(full, ms_text(piece["seconds"]), ms_text(tail["seconds"]) if rest else None)
    shown = [median] + [float(_worked_ms(t)) for t in summed[1:]]  # as printed: the comparison reads them
    last = ""
    if rest:
        at = ("its own size's row" if tail["bytes"] == rest
              else f"the nearest timed size above it, {_label(tail['bytes'])}")
        last = f", the last {rest / 2**20:.2f} MiB at {at}"
    counted = "" if sent is None else f" (section 2 counted {sent:.0f} of DDP's buckets)"
    priced = (f"section 6's table prices the {_label(whole)} as {full + bool(rest)} whole messages{counted}, "
              f"{full} of {_label(cap)} at that row's {ms_text(piece['seconds'])} ms each{last}: {worked} "
              f"({_worked_ms(summed[1])}-{_worked_ms(summed[2])} ms over its repeats), "
              f"against the whole's {ms_text(alone['seconds'])} ms ({ms_text(alone['low'])}-"
              f"{ms_text(alone['high'])} ms)")
    if shown[1] <= whole_ms[2] and shown[2] >= whole_ms[1]:
        return (f"Cut into {_label(cap)} buckets: {priced}: the same within the repeats' ranges, so this run "
                "does not show smaller messages costing more")
    if shown[0] > whole_ms[0]:
        return (f"Cut into {_label(cap)} buckets: {priced}: more, beyond the repeats' ranges: here the smaller "
                "messages cost more for the same bytes: the buckets' size adds to the calls' time")
    return (f"Cut into {_label(cap)} buckets: {priced}: less, beyond the repeats' ranges: here the smaller "
            "messages cost less for the same bytes: the buckets' size adds nothing to the calls' time")
