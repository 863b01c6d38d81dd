"""Lab 01's report: the learner's predictions beside the ops as measured, and the misses read from the run
(introduced in ``labs/01_predict_the_roofline.ipynb``). Every sentence is printed from the measured figures,
with each branch written."""

from __future__ import annotations

import textwrap

from utils.details import how_measured
from utils.tables import Table
from utils.tables import show as display

WIDTH = 110
AT_ROOF = 0.8  # an op measured at 80 % of its roof or more is "at its roof" here


def _fill(text: str) -> str:
    return textwrap.fill(text, WIDTH, subsequent_indent="  " if text.startswith("- ") else "")


def share_of(row, ceilings) -> float:
    """The share of its roof the measured op reached: the roofline's time for what it does (its FLOPs and
    bytes counted off the op) on the ceilings measured with it, over its measured time. A lookup has no FLOPs:
    its roof is its bytes at the bandwidth."""
    done = row.point.op
    return max(done.flops / ceilings.flops, done.bytes / ceilings.bandwidth) / row.point.seconds


def compared_table(rows, ceilings) -> Table:
    return Table(["op", "limit (your counts)", "predicted", "measured", "of its roof"],
                 [(r.op.name, r.bound, f"{r.predicted * 1e3:.3g} ms", f"{r.point.seconds * 1e3:.3g} ms",
                   f"{share_of(r, ceilings):.0%}") for r in rows], wrap=44)


def miss_sentences(rows, ceilings, first_ridge: float | None = None) -> list[str]:
    """One sentence per kind of op, from the measured shares of the roof (every branch written).
    ``first_ridge``: the ridge of the ceilings measured before the exercises, on which the turning length was
    computed (the table's limits use the ceilings timed with the ops)."""
    embedding, conv, causal, full, *turning = rows

    def share(row):
        return share_of(row, ceilings)

    f = share(embedding)
    out = [f"The lookup reached {f:.0%} of its memory roof: " + (
        "reading only the rows its ids name, it moved what you counted about as fast as STREAM moves bytes."
        if f >= AT_ROOF else
        "its rows lie scattered through the table, each a separate stretch of memory, where STREAM streams "
        "long arrays: a gather need not get the bandwidth of the roof.")]
    f = share(conv)
    out.append(f"The convolution reached {f:.0%} of the peak: " + (
        "with 64 channels in and out it is a large matmul over image patches, and ran like one."
        if f >= AT_ROOF else
        "the peak is a 1024³ matmul's rate, and this convolution, a matmul over image patches in a layout of "
        "its own, did not reach it in this run."))
    time_share = causal.point.seconds / full.point.seconds
    out.append(f"Causal attention at length 1024 reached {share(causal):.0%} of its roof, the same attention "
               f"without its mask {share(full):.0%}: with half the work, the causal one took {time_share:.0%} of "
               "the other's time. " + (
                   "Skipping the masked half is not free: the kernel still works through the blocks on the "
                   "diagonal, and pays its per-block costs on half the work."
                   if share(causal) < share(full) - 0.1 else
                   "The kernel skips the masked half about as efficiently as it computes the rest."))
    if len(turning) == 2:
        at, beyond = turning
        length, far = at.op.dims["length"], beyond.op.dims["length"]
        work = [r.op.dims["batch"] * r.op.dims["length"] ** 2 for r in turning]
        out.append(f"Both run at a batch sized so that a call does similar work (batch x length²): "
                   f"{at.op.dims['batch']} sequences at length {length} ({work[0]:,}), {beyond.op.dims['batch']} "
                   f"at {far} ({work[1]:,}" + (
                       ": a batch cannot go below one)" if beyond.op.dims["batch"] == 1 and work[1] < 0.9 * work[0]
                       else ": the nearest whole batch)") + f", {max(work) / min(work):.2f}x apart, so that a short "
                   "sequence's call is long enough to time. Each share below is against the roof of its own "
                   "work, so the shares compare across that difference; the times do not.")
        out.append(turning_limit_sentence(at, length, ceilings, first_ridge))
        out.append(f"At {length} it reached {share(at):.0%} of its roof; at {far}, {share(beyond):.0%}. "
                   + no_overlap_sentence(at, ceilings, share(at)))
    return out


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
            f"this op at {floor:.0%} of its roof. ")
    if share >= floor:
        return said + ("It ran at or above that: the two limits at once account for its gap to the roof, as "
                       "far as this run shows.")
    dims = row.op.dims
    return said + ("It ran below even that, so the two limits together do not explain its gap: another cost the "
                   f"roofline leaves out (per-call or per-block work, here over {dims['batch']} sequence(s) of "
                   f"{dims['length']} tokens) weighs more. This run does not measure which.")


def turning_limit_sentence(at, length: int, ceilings, first_ridge: float | None) -> str:
    """Why the table's limit at the turning length may read "memory": the length was computed on the ridge
    measured before the exercises, the table's limit on the ridge of the rounds that timed the ops."""
    intensity = at.flops / at.n_bytes
    timed = f"the rounds that timed it measured the ridge at {ceilings.ridge:.3g}"
    before = (f"Your turning length, {length}, comes from the ceilings measured before the exercises (ridge "
              f"{first_ridge:.3g} FLOPs/byte); " if first_ridge else f"Your turning length, {length}: ")
    if at.bound == "compute":
        return (before + f"{timed}, and there too its intensity, {intensity:.3g}, is at or above the ridge: the "
                "table's limit is compute, as predicted.")
    moved = f" (here from {first_ridge:.3g} to {ceilings.ridge:.3g})" if first_ridge else ""
    return (before + f"{timed}, above its intensity, {intensity:.3g}, so on those ceilings the table's limit "
            f"for it is memory. A ridge measured twice moves with the machine{moved}, and at the turning length "
            "the limit moves with it.")


def stream_words(first, roof) -> str:
    """Which STREAM kernel gave the bandwidth, said as lesson 01 says it: the faster of copy and add at each
    measurement, so two measurements can name different kernels."""
    if first is None or first.bandwidth.name == roof.bandwidth.name:
        return ""
    return (f" The ceilings above the exercises measured {first.bandwidth.name}; these rounds measured "
            f"{roof.bandwidth.name}: the same probes at another moment, the other STREAM kernel the faster here "
            "(each measurement keeps the faster of copy and add, as lesson 01 does).")


def show_comparison(measured: list, label: str, first=None) -> None:
    """The table of predictions against measurements, and the misses read from it; ``first``: the ceilings
    measured before the exercises (their STREAM kernel is named if it differs)."""
    if not measured:
        print("⏳ not done yet: the comparison appears once your counts pass the measurement check")
        return
    roof, rows = measured
    display(compared_table(rows, roof.ceilings))
    for sentence in miss_sentences(rows, roof.ceilings, first.ceilings.ridge if first is not None else None):
        print(_fill(sentence))
    how_measured("the ops and the ceilings, round by round", textwrap.fill(
        f"Ceilings in the same rounds: {roof.peak.name} {roof.ceilings.flops / 1e9:.1f} GFLOP/s, "
        f"{roof.bandwidth.name} {roof.ceilings.bandwidth / 1e9:.1f} GB/s{label}.{stream_words(first, roof)} "
        "Every op and both ceilings "
        "ran in alternating rounds, each keeping its fastest run (a busy machine only slows a kernel). "
        "'of its roof': the op's measured FLOP/s (or bytes/s for a lookup) over what the roofline allows at "
        "the op's counted intensity, its counts taken from what it does.", WIDTH - 4),
        Table(["op", "measured ms", "spread", "FLOPs done", "bytes moved"],
              [(r.op.name, f"{r.point.seconds * 1e3:.3g}", f"{r.point.spread:.0%}", f"{r.point.op.flops:.3g}",
                f"{r.point.op.bytes:.3g}") for r in rows], wrap=44))


def take_aways(measured: list, passed: bool) -> None:
    """The lab's conclusions with this run's figures, once every check passes (they state the answers)."""
    if not (measured and passed):
        print("⏳ not done yet: the take-aways appear once every check passes (they state the answers)")
        return
    roof, rows = measured
    embedding, conv, causal, full, *turning = rows
    table_bytes = embedding.op.dims["vocab"] * embedding.op.dims["width"] * embedding.op.dtype.itemsize
    lines = [
        f"- A lookup does no arithmetic and moves only the rows it names, and each once: "
        f"{embedding.point.op.bytes / 2**20:.0f} MiB here, from a table of {table_bytes / 2**20:.0f} MiB. "
        "Memory-bound on every device, however large the table.",
        f"- A convolution is a matmul over image patches: 2 FLOPs per kernel term, per input channel, per output "
        f"position; at 64 channels its intensity is {conv.point.op.intensity:.0f} FLOPs a byte, compute-bound "
        f"(the ridge in the timed rounds: {roof.ceilings.ridge:.1f}).",
        "- Attention's intensity grows with the length alone (not the heads, their width or the batch), and "
        "halves with the causal mask, which halves the work but not the bytes; 16-bit halves the length at "
        f"which it turns compute-bound. Here the causal kernel took {causal.point.seconds / full.point.seconds:.0%}"
        " of the unmasked one's time for half its work.",
        "- The roofline here is made of rates measured on this machine, a reference: a right count may pass it a "
        "little (a read-only op such as lesson 01's matrix-vector product can pass its memory roof: STREAM counts "
        "bytes unlike it), "
        "which is why check 3 allows 35 % or the spread. An op far above the roof of your counts points at a "
        "count holding work or bytes the op does not do; one below it has a limit the two roofs leave out "
        "(scattered reads, per-block costs) or, near the ridge, pays both limits one after the other, which "
        "alone leaves it no lower than half its roof.",
    ]
    for line in lines:
        print(_fill(line))
