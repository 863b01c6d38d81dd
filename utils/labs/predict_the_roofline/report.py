"""Lab 01's report: the learner's predictions beside the ops as measured, and the misses read from the run
(introduced in ``labs/01_predict_the_roofline.ipynb``). Every sentence is printed from the measured figures,
with each branch written."""

from __future__ import annotations

import textwrap

from utils.details import how_measured
from utils import checks
from utils.labs.predict_the_roofline.checks import (COUNTS_CHECK, FASTER, count_text, predicted,
                                                     printed_ceilings, printed_count)
from utils.lessons.why_slow.algorithms import printed_ms
from utils.lessons.why_slow import roofline
from utils import claims
from utils.labs.predict_the_roofline.lookup import lookup_ceiling, lookup_sentence
from utils.tables import Table
from utils.tables import show as display

WIDTH = 110
AT_ROOF = 0.8  # an op measured at 80 % of its roof or more is "at its roof" here
SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")  # 2¹⁹, as a reader writes a power
ROUGH = 0.5  # an op whose rounds spread more than this ((slowest - fastest) / median): its share is rough


def _fill(text: str) -> str:
    return textwrap.fill(text, WIDTH, subsequent_indent="  " if text.startswith("- ") else "")


def roof_seconds(row, ceilings) -> float:
    """The roofline's time for what the measured op does (its FLOPs and bytes counted off the op) on the
    ceilings measured with it, the counts as the details table prints them (``printed_count``). A lookup has
    no FLOPs: its roof is its bytes at the bandwidth."""
    done = row.point.op
    return max(printed_count(done.flops) / ceilings.flops, printed_count(done.bytes) / ceilings.bandwidth)


def roof_share(row, ceilings) -> float:
    """The share of its roof the measured op reached: its roof time over its measured time, both as the table
    prints them (``printed_ms``: 5.31 ms over 15 ms is 35 %), so that a reader who divides them finds it."""
    return printed_ms(roof_seconds(row, ceilings)) / printed_ms(row.point.seconds)


def causal_time_share(causal, full) -> float:
    """The causal attention's time over the unmasked one's, worked from the two times as the table prints
    them (20 ms over 26.1 ms is 77 %), so that a reader who divides them finds the printed share."""
    return printed_ms(causal.point.seconds) / printed_ms(full.point.seconds)


def ms_text(seconds: float) -> str:
    """A time as the lab's tables print it, 3 significant figures half up with their trailing zeros ("20.0 ms",
    "1.90 ms": ``.3g`` would print "20 ms", read as two figures): the value ``printed_ms`` works with."""
    return f"{claims.sig_text(seconds, 3, 1e-3)} ms"


def printed_percent(share: float) -> float:
    """A share as ``claims.percent`` prints it, in whole percent half up (0.555 -> 56): the figure every
    comparison of shares on this page is judged on, so that the words follow the percents printed."""
    return claims.half_up(share * 100, 0)


BEFORE_COLUMN = "predicted above"


def compared_table(rows, ceilings, before=None) -> Table:
    """The learner's predictions on the ceilings measured with the ops, beside each op's time; ``before``: the
    ceilings the predictions above the exercises were made on (as printed). Where a ceiling moved since, the
    table keeps those predictions too (``BEFORE_COLUMN``), so the two sets of predictions stand side by side."""
    again = before is not None and _ceilings_moved(before, ceilings) != (False, False)
    columns = ["op", "limit (your counts)"] + ([BEFORE_COLUMN] if again else []) + ["predicted", "measured",
                                                                                   "of its roof"]
    marks = limit_marks(rows, before)
    return Table(columns, [(r.op.name, r.bound + marks.get(r.op.name, ""))
                           + ((_predicted_before(r, before),) if again else ())
                           + (predicted_cell(r, ceilings), ms_text(r.point.seconds),
                              claims.percent(roof_share(r, ceilings))) for r in rows], wrap=44)


MARKS = ("*", "†")  # one per way a limit can change side: memory now and compute before, or the other way


def _limit_before(row, before) -> str:
    """The limit of ``row``'s counts on the ceilings measured before the exercises, where the predictions
    above the table (its limit column, the turning length) placed it."""
    return predicted(row.flops, row.n_bytes, before)[0]


def limit_marks(rows, before) -> dict[str, str]:
    """A mark for each row whose limit on the ceilings measured with the ops differs from its limit on those
    measured before the exercises (t40_labs03 #8: the length-75 attention read "memory" in the table after
    "turns compute-bound here at length 75" above it): the same mark for the same change of side."""
    if before is None:
        return {}
    changed = [r for r in rows if _limit_before(r, before) != r.bound]
    sides = sorted({r.bound for r in changed}, reverse=True)  # "memory" first, the usual way a ridge rises
    return {r.op.name: MARKS[sides.index(r.bound)] for r in changed}


def limit_note(rows, ceilings, before) -> str:
    """The reason beside each marked limit, one line a mark, printed under the table: which ridge gives which
    limit, both ridges with the decimals that tell them apart (empty where no limit changed side)."""
    marks = limit_marks(rows, before)
    if not marks:
        return ""
    d = next((d for d in (2, 4) if claims.half_up(ceilings.ridge, d) != claims.half_up(before.ridge, d)), 6)
    lines = []
    for mark in sorted(set(marks.values()), key=MARKS.index):
        row = next(r for r in rows if marks.get(r.op.name) == mark)
        lines.append(f"{mark} {row.bound} on the ridge these rounds measured, {claims.half_up(ceilings.ridge, d):.{d}f} "
                     f"FLOPs/byte; {_limit_before(row, before)} on the ridge measured before the exercises, "
                     f"{claims.half_up(before.ridge, d):.{d}f}, where the predictions above placed it: an op near "
                     "the ridge changes side as the ridge moves.")
    return "\n".join(_fill(line) for line in lines)


def _predicted_before(row, before) -> str:
    """The learner's prediction for ``row`` on the ceilings printed above the exercises (their table's)."""
    return f"{claims.sig_text(predicted(row.flops, row.n_bytes, before)[1], 3, 1e-3)} ms"


def _ceilings_moved(before, now) -> tuple[bool, bool]:
    """Whether the peak and the bandwidth measured again print other than they did above the exercises."""
    return (claims.as_printed(before.flops, 1, 1e9) != claims.as_printed(now.flops, 1, 1e9),
            claims.as_printed(before.bandwidth, 1, 1e9) != claims.as_printed(now.bandwidth, 1, 1e9))


def predicted_cell(row, ceilings) -> str:
    """The learner's predicted time; where it prints other than the roof of what the op does (counts that
    miss), the roof too, so that the share beside it is always a division of two times on the page."""
    predicted, roof = printed_ms(row.predicted), printed_ms(roof_seconds(row, ceilings))
    return f"{claims.sig_text(predicted)} ms" + ("" if predicted == roof else f" (roof {claims.sig_text(roof)} ms)")


def miss_sentences(rows, ceilings, cpu: bool = True) -> list[str]:
    """One sentence per kind of op, from the measured shares of the roof (every branch written); the lookup's
    against its own ceiling (``lookup``: write-allocate's, on a CPU: ``cpu``, the ops timed on its threads).
    How the attentions at and beyond the turning length were sized, and why the table's limit for them may
    differ from your turning length's, go in the collapsed block (``batch_sizing_words``,
    ``turning_limit_words``): how it was measured, not what it shows (t26-t29_labs03: cell 21's length)."""
    embedding, conv, causal, full, *turning = rows

    def share(row):
        return roof_share(row, ceilings)

    ceiling = lookup_ceiling(embedding.point.op, ceilings.bandwidth_name, cpu)  # lesson 01's byte model
    out = [lookup_sentence(share(embedding), embedding.point.spread, ceiling)]
    out.append(conv_sentence(share(conv)) + rough_note(conv.point.spread))
    pct = claims.percent
    out.append(f"Causal attention at length 1024 reached {pct(share(causal))} of its roof, the same attention "
               f"without its mask {pct(share(full))}: with half the work, the causal one took "
               f"{pct(causal_time_share(causal, full))} of the other's time. " + (
                   "In theory, skipping the masked half is not free: the fused kernel works through the scores in "
                   "tiles (blocks of queries x keys sized to stay in the caches); the tiles on the diagonal are "
                   "only partly masked and are computed whole, and every tile pays fixed costs (loading it, its "
                   "softmax bookkeeping) on half the work. This run times whole calls, not tiles, so it cannot "
                   "confirm that"
                   if printed_percent(share(causal)) < printed_percent(share(full)) - 10 else
                   "The kernel skips the masked half about as efficiently as it computes the rest, as far as "
                   "these rounds show") + f" (the two ops' rounds spread {pct(causal.point.spread)} and "
               f"{pct(full.point.spread)}).")
    if len(turning) == 2:
        at, beyond = turning
        length, far = at.op.dims["length"], beyond.op.dims["length"]
        out.append(f"Causal attention at your turning length, {length}, reached {pct(share(at))} of its roof; at "
                   f"{far}, {pct(share(beyond))}. " + no_overlap_sentence(at, ceilings, share(at)))
    return out


def turning_limit_words(rows, ceilings, first_ridge: float | None) -> str:
    """``turning_limit_sentence`` for the attention at the turning length, for the collapsed block; "" where
    the lab timed no such pair (exercise B unfinished)."""
    turning = rows[4:]  # the lookup, the convolution, the two attentions, then the pair
    if len(turning) != 2:
        return ""
    return turning_limit_sentence(turning[0], turning[0].op.dims["length"], ceilings, first_ridge)


def batch_sizing_words(rows, target: int | None = None) -> str:
    """How the attentions at and beyond the turning length were sized (for the collapsed block: how it was
    measured, not what it shows): a batch that gives each call about the same work, ``target`` (batch x
    length²), so that a short sequence's call is long enough to time. Empty where the lab timed no such pair."""
    _, _, causal, _, *turning = rows  # the lookup, the convolution, the two attentions, then the pair
    if len(turning) != 2:
        return ""
    at, beyond = turning
    length, far = at.op.dims["length"], beyond.op.dims["length"]
    work = [r.op.dims["batch"] * r.op.dims["length"] ** 2 for r in (at, beyond)]
    return (f"The attentions at your turning length, {length}, and at {far} run at a batch sized so that a call "
            f"does about the same work, batch x length² near{aim_words(target, causal)}; each batch is the whole "
            f"number nearest that over length², at least one, here {at.op.dims['batch']} sequences at length "
            f"{length} ({work[0]:,}) and {beyond.op.dims['batch']} at {far} ({work[1]:,}), "
            f"{max(work) / min(work):.2f}x apart, so that a short sequence's call is long enough to time. Each "
            "share in the table is against the roof of its own work, so the shares compare across that "
            "difference; the times do not.")


def aim_words(target: int | None, causal) -> str:
    """The work per call that the turning attentions aim at, named for what it is: a fixed amount the lab sets (a
    power of two), not the work of the length-1024 attentions above, whose own is printed beside it."""
    if not target:
        return " a fixed amount of work per call, set by the lab for these two ops"
    power = f" (2{str(target.bit_length() - 1).translate(SUPERSCRIPT)})" if target & (target - 1) == 0 else ""
    above = causal.op.dims["batch"] * causal.op.dims["length"] ** 2
    return (f" {target:,}{power}, a fixed amount of work per call, set by the lab for these two ops (the length-"
            f"{causal.op.dims['length']} attentions above do {above:,})")


def conv_sentence(f: float) -> str:
    """The convolution's share ``f`` of the peak, read as printed (every branch written): above 100 %, the
    peak is shown to be a probe's rate and not the machine's limit."""
    said = f"The convolution reached {claims.percent(f)} of the peak: "
    if printed_percent(f) > 100:
        return said + ("above the measured peak. The peak is a 1024³ matmul's rate on this machine, a probe, "
                       "not the hardware's limit: this convolution's kernel (a matmul over image patches, with "
                       "64 channels in and out) ran faster than that probe in these rounds.")
    if printed_percent(f) >= printed_percent(AT_ROOF):
        return said + "with 64 channels in and out it is a large matmul over image patches, and ran like one."
    return said + ("the peak is a 1024³ matmul's rate, and this convolution, a matmul over image patches in a "
                   "layout of its own, did not reach it in this run.")


def rough_note(spread: float) -> str:
    """A share from rounds that spread more than ROUGH is said to be rough (empty when they were steady),
    judged on the spread as printed (whole percent, half up)."""
    return (f" Its rounds spread {claims.percent(spread)} (over {ROUGH:.0%}): something else ran meanwhile, so "
            "read this share as rough." if printed_percent(spread) > printed_percent(ROUGH) else "")


def no_overlap_share(row, ceilings) -> float:
    """The share of its roof an op would reach if it paid its two limits one after the other, its arithmetic
    and its memory traffic never overlapping: max(compute time, memory time) / (their sum), 50 % at the ridge."""
    compute, memory = row.point.op.flops / ceilings.flops, row.point.op.bytes / ceilings.bandwidth
    return max(compute, memory) / (compute + memory)


def no_overlap_sentence(row, ceilings, share: float) -> str:
    """What the two limits can explain of an op near the ridge (every branch written): paid one after the
    other they leave it no lower than ``no_overlap_share``; a share under that needs another cost."""
    floor = no_overlap_share(row, ceilings)
    said = (f"Paying its arithmetic and its memory traffic one after the other, never overlapped, would leave "
            f"this op at {claims.percent(floor)} of its roof. ")
    if printed_percent(share) >= printed_percent(floor):  # the two percents as printed
        return said + ("It ran at or above that: the two limits at once account for its gap to the roof, as "
                       "far as this run shows.")
    dims = row.op.dims
    return said + ("It ran below even that, so the two limits together do not explain its gap: another cost the "
                   f"roofline leaves out (per-call or per-block work, here over {dims['batch']} sequence(s) of "
                   f"{dims['length']} tokens) weighs more. This run does not measure which.")


def turning_limit_sentence(at, length: int, ceilings, first_ridge: float | None) -> str:
    """Why the table's limit at the turning length may read "memory": the length was computed on the ridge
    measured before the exercises, the table's limit on the ridge of the rounds that timed the ops. The op's
    intensity is worked from its exact counts, printed in full so that the division is on the page
    (554,631,168 / 138,657,792 = 4.00: the 3-figure counts 5.55e+08 / 1.39e+08 would give 3.99 beside a ridge
    of 4.00), and both figures are rounded half up (33/8 = 4.125 prints 4.13), with the decimals that tell them
    apart (two, or four or six where fewer print them equal). The words about the ridge are judged on those
    printed figures; where the table's limit, worked from the 3-figure counts, falls on the other side, the
    sentence says so (every branch written)."""
    intensity = at.flops / at.n_bytes
    d = next((d for d in (2, 4) if claims.half_up(intensity, d) != claims.half_up(ceilings.ridge, d)), 6)
    shown, ridge = claims.half_up(intensity, d), claims.half_up(ceilings.ridge, d)
    timed = f"the rounds that timed it measured the ridge at {ridge:.{d}f}"
    before = (f"Your turning length, {length}, comes from the ceilings measured before the exercises (ridge "
              f"{first_ridge:.2f} FLOPs/byte); " if first_ridge else f"Your turning length, {length}: ")
    own = (f"the op's own intensity at that length, {at.flops:,.0f} / {at.n_bytes:,.0f} = {shown:.{d}f} "
           "FLOPs/byte")
    if (shown >= ridge) != (at.bound == "compute"):  # the ridge lies between the exact and the 3-figure counts
        three = printed_count(at.flops) / printed_count(at.n_bytes)
        side = "at or above" if shown >= ridge else "under"
        return (before + f"{timed}, and {own}, is {side} that ridge; the table's limit, worked from your counts "
                f"to 3 figures ({count_text(at.flops)} / {count_text(at.n_bytes)} = "
                f"{claims.half_up(three, d):.{d}f}), reads {at.bound}: the two differ only by that rounding, so "
                "at this length the op sits on the ridge.")
    if at.bound == "compute":
        return (before + f"{timed}, and {own}, is at or above that ridge too: the table's limit is compute, as "
                "predicted.")
    moved = f" (here from {first_ridge:.2f} to {claims.half_up(ceilings.ridge, 2):.2f})" if first_ridge else ""
    return (before + f"{timed}, above {own}, so on those ceilings the table's limit for it is memory. A ridge "
            f"measured twice moves with the machine{moved}, and at the turning length the limit moves with it.")


_AS_PRINTED = "to 3 figures, as the tables print them (the longer of FLOPs / peak and bytes / bandwidth),"


def predicted_again_sentence(before, now, added=()) -> str:
    """Why the table's predictions differ from those printed before the exercises: the same counts on the
    ceilings measured again, in the rounds that timed the ops (every branch written). It says the counts are
    taken to 3 figures, as the tables print them (``checks.predicted``): 1.07e+09 FLOPs / 93.0 GFLOP/s is the
    printed 11.5 ms, where the exact 1,074,790,400 would give 11.6 (a reader's t17 check)."""
    peak_moved, bandwidth_moved = _ceilings_moved(before, now)
    if not (peak_moved or bandwidth_moved):
        return (f"The 'predicted' column is your counts {_AS_PRINTED} on the same ceilings as the predictions "
                "before the exercises.")
    return (f"The 'predicted' column is your counts {_AS_PRINTED} on the ceilings measured again in these "
            f"rounds (peak "
            f"{now.flops / 1e9:.1f} GFLOP/s, bandwidth {now.bandwidth / 1e9:.1f} GB/s), not on those measured "
            f"before the exercises ({before.flops / 1e9:.1f} GFLOP/s, {before.bandwidth / 1e9:.1f} GB/s): the same "
            f"counts, a ceiling measured twice: {_which_moved(peak_moved, bandwidth_moved)}. "
            + _before_column_words(before, added))


def _before_column_words(before, added) -> str:
    """What the column ``BEFORE_COLUMN`` holds (every branch written): the predictions printed before the
    exercises, and, for the rows ``added`` since (the attentions at the turning length), the same counts on
    those ceilings, never printed there, each by the limit those ceilings give it, which the 'limit' column
    (on the ceilings measured here) may not show."""
    if not added:
        return f"The column '{BEFORE_COLUMN}' repeats the predictions printed before the exercises, on their ceilings."
    limits = [predicted(r.flops, r.n_bytes, before)[0] for r in added]
    names = " and ".join(r.op.name for r in added)
    each = (f"{limits[0]} for {'both' if len(added) == 2 else 'each'}" if len(set(limits)) == 1 else
            ", ".join(f"{limit} for {r.op.name}" for limit, r in zip(limits, added)))
    return (f"The column '{BEFORE_COLUMN}' is your counts on the ceilings measured before the exercises: the lab's "
            f"ops as printed there; {names}, not printed there, worked the same way, each by the limit "
            f"those ceilings give it ({each}; the 'limit' column is on the ceilings measured here).")


def _which_moved(peak_moved: bool, bandwidth_moved: bool) -> str:
    """Which predictions the ceilings measured again can move (as printed): the compute-bound ones' with the
    peak, the memory-bound ones' with the bandwidth (a count near the ridge may change side)."""
    if peak_moved and bandwidth_moved:
        return "both moved, so every predicted time may differ from those above"
    if peak_moved:
        return ("the peak moved, so the compute-bound ops' predicted times may differ from those above; the "
                "bandwidth printed the same, so the memory-bound ones' do not")
    return ("the bandwidth moved, so the memory-bound ops' predicted times may differ from those above; the "
            "peak printed the same, so the compute-bound ones' do not")


def stream_words(first, roof) -> str:
    """Which STREAM kernel gave the bandwidth, said as lesson 01 says it: the faster of copy and add at each
    measurement, so two measurements can name different kernels."""
    if first is None or first.bandwidth.name == roof.bandwidth.name:
        return ""
    return (f" The ceilings above the exercises measured {first.bandwidth.name}; these rounds measured "
            f"{roof.bandwidth.name}: the same probes at another moment, the other STREAM kernel the faster here "
            "(each measurement keeps the faster of copy and add, as lesson 01 does).")


def counts_passed() -> bool:
    """Whether check 1 (your counts) passed in this kernel: only then does the report show the counts of what
    each op does, which are that check's answers."""
    verdict = checks.HISTORY.get(COUNTS_CHECK)
    return verdict is not None and verdict.passed


def show_comparison(measured: list, label: str, first=None, answers: bool | None = None) -> None:
    """The table of predictions against measurements, and the misses read from it; ``first``: the ceilings
    measured before the exercises (their STREAM kernel is named if it differs). ``answers``: whether the
    collapsed table may list the FLOPs and bytes each op does (check 1's answers); None: if check 1 passed."""
    if not measured:
        print("⏳ not done yet: the comparison appears once your counts pass the measurement check")
        return
    answers = counts_passed() if answers is None else answers
    # target: the attentions' work a call, then how many ops the table before the exercises printed
    roof, rows, *target = measured
    before = printed_ceilings(first.ceilings) if first is not None else None  # as cell 7 printed them
    display(compared_table(rows, roof.ceilings, before))
    note = limit_note(rows, roof.ceilings, before)
    if note:
        print(note)
    print(_fill(shares_sentence(rows, roof.ceilings)))
    cpu = roof.threads is not None
    misses = [textwrap.fill(said, WIDTH - 4) for said in miss_sentences(rows, roof.ceilings, cpu=cpu)]
    done = ["FLOPs done", "bytes moved"] if answers else []
    # how it was measured, not a finding: the columns' ceilings, the turning length's limit, the pair's batch
    added = rows[target[1]:] if len(target) > 1 else []  # the attentions at the turning length
    columns = predicted_again_sentence(before, roof.ceilings, added) if before is not None else ""
    limit = turning_limit_words(rows, roof.ceilings, before.ridge if before is not None else None)
    sizing = batch_sizing_words(rows, target[0] if target else None)
    how_measured("what each share says; the ops and ceilings, round by round", *misses, textwrap.fill(
        f"The machine profile's probes timed again in the same rounds as the ops (this run's figures, not the "
        f"profile's kept ones: lesson 00): {roof.peak.name} {roof.ceilings.flops / 1e9:.1f} GFLOP/s, "
        f"{roof.bandwidth.name} {roof.ceilings.bandwidth / 1e9:.1f} GB/s{label}.{stream_words(first, roof)} "
        "Every op and both ceilings "
        "ran in alternating rounds, each keeping its fastest run (a busy machine only slows a kernel). "
        "'of its roof': the op's measured FLOP/s (or bytes/s for a lookup) over what the roofline allows at "
        "the op's counted intensity, its counts taken from what it does" + (
            "." if answers else ": those counts, check 1's answers, join this table once check 1 passes."),
        WIDTH - 4),
        *[textwrap.fill(said, WIDTH - 4) for said in (columns, limit, sizing) if said],
        Table(["op", "measured ms", "spread"] + done,
              [(r.op.name, claims.sig_text(r.point.seconds, 3, 1e-3), claims.percent(r.point.spread))
               + ((count_text(r.point.op.flops), count_text(r.point.op.bytes)) if answers else ()) for r in rows],
              wrap=44))


def shares_sentence(rows, ceilings) -> str:
    """The section's one visible answer: the span of the shares of their roofs the ops reached, and which op
    was nearest and which farthest, as the table prints them (t38_labs03: four paragraphs under the table; what
    each share says now opens in the block below it)."""
    shares = {r.op.name: roof_share(r, ceilings) for r in rows}  # printed by claims.percent, as the table
    nearest, farthest = max(shares, key=shares.get), min(shares, key=shares.get)
    return (f"The {len(rows)} ops reached {claims.percent(shares[farthest])} to {claims.percent(shares[nearest])} "
            f"of their roofs: nearest, {nearest}; farthest, {farthest}. What each share says is in the block "
            "below.")


def headroom_sentence(rows, roof, shares: dict | None = None) -> str:
    """Why a right count may pass its memory roof a little, computed as lesson 01 computes it
    (``roofline.headroom``: the write-allocate traffic an op that writes less than STREAM's kernel gets
    back), for the ops whose roof here is the memory's (a compute-bound op's roof is the peak, which
    write-allocate does not move), set beside the allowance of check 3 (every branch written, a GPU's too:
    it does not read a line before writing it whole, so nothing comes back there). ``shares``: each op's
    measured share of its roof by name (``roof_share``), so that a bound this run's op passed is said beside
    it (t36_labs03 #1: "at most 0.77x" over a lookup measured at 82 %); None: the bound alone."""
    cpu, name = roof.threads is not None, roof.bandwidth.name
    peak_words = ("The compute-bound ones are held to the peak as measured: write-allocate does not move it. "
                  "A probe measured that peak, and an op's own kernel may pass it, within check 3's allowance. ")
    memory_bound = [r for r in rows if r.point.op.intensity < roof.ceilings.ridge]  # a lookup always is
    top = _top_share(memory_bound, shares)
    if not cpu:
        return ("- The roofline here is made of rates measured on this machine: a reference. A GPU does not read "
                "a line before writing it whole (lesson 01), so its memory roof gives no op write-allocate "
                "traffic back. The memory-bound ops here, and an op that only reads, are held to 1.00x their "
                f"memory roof.{_past_bound_words(top, 1.0, 1.0, cpu)} {peak_words}"
                f"{_allowance_words(1.0, 1.0, top and top[1], cpu)}")
    most = max(memory_bound, key=lambda r: roofline.headroom(r.point.op, name, cpu))
    most_room = roofline.headroom(most.point.op, name, cpu)
    counted, moved = roofline.STREAM_TRAFFIC["add" if "STREAM add" in name else "copy"]
    read_only = moved / counted
    room = claims.as_printed(most_room, 2)  # as printed: 1.004 reads 1.00x, no room above the roof
    why = ("" if room > 1 else " Its bytes are writes in the same share as STREAM's, so write-allocate costs it "
           "what the roof counts." if room == 1 else " A larger share of its bytes are writes than of STREAM's, "
           "so write-allocate costs it more than the roof counts.")
    # short sentences, one claim each (t76_labs03 #1: the bullet read as one long paragraph)
    text = ("- The roofline here is made of rates measured on this machine: a reference. Its memory roof "
            "counts STREAM's bytes, but the memory moved more (write-allocate, lesson 01). An op that writes "
            "less than STREAM's kernel gets some of that traffic back. Computed as lesson 01 does, that "
            + ("allows" if room > 1 else "leaves")
            + f" the memory-bound ops here at most {most_room:.2f}x their memory roof ({most.op.name}).{why} "
            + f"An op that only reads, such as lesson 01's matrix-vector product, may reach up to {read_only:.2f}x "
            f"its memory roof here.{_past_bound_words(top, most_room, read_only, cpu)} {peak_words}")
    return text + _allowance_words(most_room, read_only, top and top[1])


def _top_share(memory_bound, shares: dict | None):
    """The memory-bound op that reached the most of its roof this run, as (name, share), or None (no shares
    given, or no memory-bound op)."""
    if not shares or not memory_bound:
        return None
    best = max(memory_bound, key=lambda r: shares[r.op.name])
    return best.op.name, shares[best.op.name]


def _past_bound_words(top, most_room: float, read_only: float, cpu: bool) -> str:
    """Where this run's memory-bound op passed the bound just stated (judged on the percent as printed against
    the bound as printed), what can put it there, as its own line in the report tells (``lookup._above_words``);
    else nothing (every branch written). Stores that skip write-allocate make an op's bytes flow as a read-only
    op's (up to ``read_only``); past that, or on a GPU (nothing to skip), the probe read low or a cache helped."""
    if top is None or printed_percent(top[1]) <= round(claims.as_printed(most_room, 2) * 100):
        return ""
    said = f" This run's {top[0]} reached {claims.percent(top[1])} of its memory roof, above that bound: "
    if cpu and printed_percent(top[1]) <= round(claims.as_printed(read_only, 2) * 100):
        return said + ("the bandwidth probe measured low in these rounds, or its stores skipped write-allocate "
                       f"(then up to {read_only:.2f}x, as an op that only reads); its line above says what "
                       "this run can tell.")
    return said + ("the bandwidth probe measured low in these rounds, or a cache kept some of its bytes from "
                   "memory; its line above says what this run can tell.")


def _allowance_words(most_room: float, read_only: float, top: float | None = None, cpu: bool = True) -> str:
    """What check 3's allowance covers, judged on the headrooms as printed: the lab's ops (room above their
    roof only where their headroom prints above 1.00x; at or below it, the allowance is all a margin for
    noise) and an op that only reads (the most write-allocate can give back), each branch written. The
    headrooms themselves are printed just before (``headroom_sentence``): not repeated here (t35_labs03).
    ``top``: the most of its roof a memory-bound op reached this run. Check 3 counts from the roof (1.00x),
    not from the bound: an op above its bound but under the roof used none of the allowance (t36_labs03 #1:
    the reader read the lookup's 82 % against a 0.77x bound as absorbed by it); one above the roof did."""
    room = claims.as_printed(most_room, 2)
    reads_fit = round(read_only - 1, 2) <= FASTER
    over = None if top is None or printed_percent(top) <= room * 100 else printed_percent(top)
    if room <= 1 and over is not None and over > 100:
        text = (f"Check 3 allows {FASTER:.0%} above the roof or the measurement's spread: room for that op's "
                f"{over - 100:.0f} points over the roof and for noise")
    elif room <= 1:
        text = f"Check 3 allows {FASTER:.0%} or the measurement's spread: a margin for noise only" + (
            "" if over is None else f" (it counts from the roof, 100%: the {over:.0f}% above is under it)")
    elif round(room - 1, 2) <= FASTER:
        text = f"Check 3 allows {FASTER:.0%} or the measurement's spread: room for the lab's ops and for noise"
    else:
        text = f"That is more than check 3's {FASTER:.0%} (or the spread): a right count could fail it on this op"
    if not cpu:
        return text + "."
    return text + (". An op that only reads fits it too." if reads_fit else
                   ". An op that only reads would need more (the lab times none).")


def take_aways(measured: list, passed: bool) -> None:
    """The lab's conclusions with this run's figures, once every check passes (they state the answers)."""
    if not (measured and passed):
        print("⏳ not done yet: the take-aways appear once every check passes (they state the answers)")
        return
    roof, rows, *_ = measured
    embedding, conv, causal, full, *turning = rows
    table_bytes = embedding.op.dims["vocab"] * embedding.op.dims["width"] * embedding.op.dtype.itemsize
    lines = [
        f"- A lookup does no arithmetic and reads only the rows it names, and each once: "
        # in MB to two decimals, as the lookup's sentence above the take-aways prints the same traffic
        f"{(embedding.point.op.bytes - embedding.point.op.written) / 1e6:.2f} MB read here (its ids and rows), "
        f"from a table of {table_bytes / 1e6:.2f} MB, and {embedding.point.op.written / 1e6:.2f} MB written "
        "(one row per id). Memory-bound on every device, however large the table.",
        f"- A convolution is a matmul over image patches: 2 FLOPs per kernel term, per input channel, per output "
        f"position; at 64 channels its intensity is {conv.point.op.intensity:.0f} FLOPs a byte, compute-bound "
        f"(the ridge in the timed rounds: {roof.ceilings.ridge:.2f}).",
        "- Attention's intensity grows with the length alone (not the heads, their width or the batch), and "
        "halves with the causal mask, which halves the work but not the bytes. In 16 bits (arithmetic from "
        "the counts, not measured here: this lab times fp32 only) the same length has twice the intensity "
        "(half the bytes), but where it turns compute-bound is set by the dtype's own ridge (its own peak over "
        "the bandwidth; lesson 01 section 7 measured the 16-bit peak apart from fp32's): the 16-bit turning "
        "length is the fp32 one x (16-bit ridge / fp32 ridge) / 2. Here the causal kernel took "
        f"{claims.percent(causal_time_share(causal, full))} of the unmasked one's time for half its work.",
        headroom_sentence(rows, roof, {r.op.name: roof_share(r, roof.ceilings) for r in rows}),
        "- An op far above the roof of your counts points at a "
        "count holding work or bytes the op does not do; one below it by more than its spread and a margin has a "
        "limit the two roofs leave out (candidates: scattered reads, per-tile costs; this lab does not measure which) or, "
        "near the ridge, pays both limits one after the other, which "
        "alone leaves it no lower than half its roof.",
    ]
    for line in lines:
        print(_fill(line))
