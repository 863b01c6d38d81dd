"""Lesson 01, section 2: a memory-bound op read against its memory roof, in words that follow its share.

Introduced in lesson 01 (``notebooks/01_why_slow.ipynb``, section 2); ``report`` re-exports these names. One
grade (``memory_grade``) decides every reading, so that the sentence under the roofline, the block's notes,
the closing table's verdict and section 7's sentence say the same thing of one op.
"""

from __future__ import annotations

from utils import claims
from utils.lessons.why_slow.roofline import intensity_text, retimed_gbs
from utils.plots import size_label


def _retimed_roof_parts(point, roof) -> tuple[float, float, float, float]:
    """(intensity, re-timed GB/s, their product, roof GFLOP/s), as the page prints them: the intensity as the
    table does (``roofline.intensity_text``, with the figures both roofs need: 0.4998, not 0.5, reader
    t35_0001 #2), the bandwidth and the roof to one decimal, as the table prints the profile's roof; the roof is
    the product or the compute ceiling, whichever is lower."""
    bandwidth = retimed_gbs(roof)
    intensity = float(intensity_text(point, also=bandwidth))
    product = claims.half_up(intensity * bandwidth, 1)  # a reader rounds 0.5 x 29.7 = 14.85 up, to 14.9
    return intensity, bandwidth, product, min(product, claims.as_printed(roof.ceilings.flops, 1, 1e9))


def retimed_roof_said(point, roof) -> str:
    """The roof ``point`` would have against the probe re-timed beside the ops, worked where a reader sees it:
    "0.0833 × 24.2 GB/s = 2.0 GFLOP/s" (its FLOPs per byte times that bandwidth)."""
    intensity, bandwidth, product, gflops = _retimed_roof_parts(point, roof)
    worked = f"{intensity:g} × {bandwidth:.1f} GB/s"  # the intensity as the table prints it
    if gflops < product:
        return f"the compute ceiling, {gflops:.1f} GFLOP/s (lower than {worked} = {product:.1f} GFLOP/s)"
    return f"{worked} = {gflops:.1f} GFLOP/s"


def retimed_share(point, roof) -> float:
    """``point``'s share of a memory roof made of the same probe timed beside the ops, this run: its GFLOP/s as
    the table prints them over that roof as ``retimed_roof_said`` prints it (never a roof the page does not
    show), both to one decimal as the table's shares are, rounded half up to the percent: 2.0 / 2.0 = 100%."""
    gflops = _retimed_roof_parts(point, roof)[3] or 0.1
    return claims.half_up(claims.as_printed(point.achieved, 1, 1e9) / gflops, 2)


def retimed_reading(point, roof) -> str:
    """``retimed_share`` with its operands: "2.0 / 2.0 GFLOP/s = 100%"."""
    gflops = _retimed_roof_parts(point, roof)[3] or 0.1
    return (f"{claims.as_printed(point.achieved, 1, 1e9):.1f} / {gflops:.1f} GFLOP/s = "
            f"{retimed_share(point, roof):.0%}")


def crosses_roof(point, roof) -> bool:
    """Whether ``point`` lies on one side of its roof against the profile's bandwidth and on the other against
    the same probe re-timed beside the ops (as printed, two decimals): then this run does not show which."""
    if not getattr(roof, "from_profile", False) or len(roof.retimed) < 2:
        return False
    return (round(retimed_share(point, roof), 2) <= 1) != (round(point.fraction, 2) <= 1)


def is_bandwidth_probe(point, bandwidth) -> bool:
    """Whether ``point`` is the memory roof's own probe: the lesson's add is STREAM's add kernel, and on arrays
    of the probe's size (its bytes: three arrays) it is one kernel timed twice, whose share is not a finding."""
    size = getattr(bandwidth, "size", bandwidth.name)
    return (point.op.name == "add" and "STREAM add" in size
            and f"{size_label(int(point.op.bytes // 3))} arrays" in size)


def memory_grade(point, roof) -> str:
    """One word for a memory-bound op against its roof, judged on its share as printed (to the percent):
    "under"; "probe" (the roof's own kernel, timed twice); "noise" (above by no more than its own spread);
    "crosses" (the re-timed probe puts it on the other side of the roof, from under it or from above: not
    shown); "write-allocate" (within what STREAM's uncounted traffic gives back, ``roofline.headroom``);
    "room-noise" (past that headroom by no more than its spread); "cache" (past it by more: a cache served part
    of its bytes)."""
    from utils.lessons.why_slow.roofline import headroom

    share, spread = round(point.fraction, 2), round(getattr(point, "spread", 0.0), 2)
    room = headroom(point.op, roof.bandwidth.name, cpu=roof.threads is not None)
    if is_bandwidth_probe(point, roof.bandwidth):  # first: on either side of 100 %, one kernel timed twice
        return "probe"
    if share <= 1:  # under against the profile's figure, but over against the re-timed probe: not shown
        return "crosses" if crosses_roof(point, roof) else "under"
    if share <= 1 + spread:
        return "noise"
    if crosses_roof(point, roof):
        return "crosses"
    if share <= round(room, 2):
        return "write-allocate"
    return "room-noise" if share <= round(room + spread, 2) else "cache"


def shown_under(points, roof) -> tuple[list, list]:
    """The memory-bound ``points`` (the roof's own probe already left out) split into (those shown under their
    roof, those whose side is not shown: ``memory_grade``'s "crosses"): a count of ops "under the roof" counts
    the first only, so that it and each op's own reading agree (t37 reading: "5 of 5 under the roof" beside a
    row whose re-timed probe put it above)."""
    unshown = [p for p in points if crosses_roof(p, roof)]
    return [p for p in points if round(p.fraction, 2) <= 1 and p not in unshown], unshown


def unshown_said(unshown, roof) -> str:
    """The ops whose side of their roof is not shown, each with both readings: "matrix-vector 4096x4096, at
    94% against the profile's figure and 8.7 / 7.2 GFLOP/s = 121% against the probe re-timed beside the ops"."""
    return "; ".join(f"{p.op.name}, at {claims.percent(p.fraction)} against the profile's figure and "
                     f"{retimed_reading(p, roof)} against the probe re-timed beside the ops" for p in unshown)


def apart_from_probe(points, roof) -> tuple[list, list]:
    """The memory-bound ``points`` split into (the others, the roof's own probe): a count, a range or a
    "nearest" op is made of the others only, since the probe's share, either side of 100 %, is one kernel
    timed twice, not evidence about the roof (the thirteenth reading: add counted "under its roof")."""
    memory = [p for p in points if p.bound == "memory"]
    probes = [p for p in memory if is_bandwidth_probe(p, roof.bandwidth)]
    return [p for p in memory if p not in probes], probes


def probe_left_out(probes) -> str:
    """The clause that says the probe is left out of a count: "" where none is."""
    if not probes:
        return ""
    names = ", ".join(p.op.name for p in probes)
    return f"{names}, the roof's own STREAM kernel, left out: one kernel timed twice"


def probe_beside_itself(point, roof) -> tuple[float, object, bool]:
    """The roof's own probe (``is_bandwidth_probe``) set beside its other timing: (the op's share of it as
    printed, that other timing, whether the gap is within the larger of the two timings' spreads as printed,
    ``claims.within_noise``), the share worked as ``retimed_reading`` prints it. The other timing is the probe
    re-timed in the same rounds where the lesson has one, else the roof's bandwidth itself (the same rounds,
    or the profile's moment without a re-timing)."""
    if roof.from_profile and len(roof.retimed) >= 2:
        # the route every memory-bound share takes (the table's): GFLOP/s as printed over the roof's
        other, share = roof.retimed[1], retimed_share(point, roof)
    else:
        other, share = roof.bandwidth, round(point.fraction, 2)  # the share the head prints
    yardstick = max(round(getattr(point, "spread", 0.0), 2), round(getattr(other, "spread", 0.0), 2))
    return share, other, claims.within_noise(share, yardstick)


def probe_reading(point, roof) -> str:
    """What the roof's own probe's share says, after its head ("add ran at 84% of its memory roof"): the op
    against the same kernel timed at the same moment, within both timings' spreads or beyond them, every
    branch; and, apart, the re-timed probe against the profile's figure, the only gap that is "this moment
    against the profile's" (the fourteenth reading: a 15% gap at one moment was put down to a -2% moment)."""
    name, arrays = point.op.name, size_label(int(point.op.bytes // 3))
    share, other, within = probe_beside_itself(point, roof)
    retimed = roof.from_profile and len(roof.retimed) >= 2
    text = f"; it is the roof's own probe (STREAM add on the same {arrays} arrays)"
    if retimed:
        # in GFLOP/s, as the head's share and the table's are: an op's GB/s over the roof's GB/s is a second
        # route, which the rounding can put on the other side of a percent (the fifteenth reading: 76% vs 75%)
        text += (f": against the same kernel timed in the same rounds ({other.best / 1e9:.1f} GB/s), its "
                 f"roof is {retimed_roof_said(point, roof)} and it reads {retimed_reading(point, roof)}")
    elif roof.from_profile:
        text += ", so its share is one kernel timed at two moments, this one and the profile's"
    else:
        text += ", so its share is one kernel timed twice in the same rounds"
    spreads = f"{name} {getattr(point, 'spread', 0.0):.0%}, the probe {getattr(other, 'spread', 0.0):.0%}"
    one_moment = "" if roof.from_profile and not retimed else "one kernel at one moment, "
    text += (f", within the larger of the two timings' spreads ({spreads}): not a finding." if within else
             f", beyond both timings' spreads ({spreads}): {one_moment}a gap this run does not explain.")
    if retimed:
        moment = claims.printed_ratio(other.best, roof.bandwidth.best, 1, 1e9) - 1  # as the block's note
        text += (f" That probe ran {claims.signed_percent(moment)} from the profile's {roof.bandwidth.best / 1e9:.1f} GB/s: this "
                 f"moment against the profile's (the probe's spread there: {roof.bandwidth.spread:.0%}).")
    return text


# What write-allocate is, said once where the headroom is first used
WRITE_ALLOCATE = ("a CPU reads a cache line, the fixed-size block its caches move, before writing it "
                  "(write-allocate), traffic STREAM's count leaves out")


def memory_reading(point, roof, l3_bytes: int | None = None) -> str:
    """A memory-bound op against its roof, read from the run by ``memory_grade``, every branch written."""
    from utils.lessons.why_slow.roofline import headroom

    name, share, grade = point.op.name, point.fraction, memory_grade(point, roof)
    spread = getattr(point, "spread", 0.0)
    room = headroom(point.op, roof.bandwidth.name, cpu=roof.threads is not None)
    head = f"{name} ran at {claims.percent(share)} of its memory roof"  # half up, as the table's share
    if grade == "under":
        return f"{head}: at or under it, as the roofline says."
    if grade == "probe":
        return head + probe_reading(point, roof)
    if grade == "noise":
        return f"{head}: above it by no more than its own {spread:.0%} spread, so no excess is shown."
    if grade == "crosses":
        side, other = ("under", "above") if round(share, 2) <= 1 else ("above", "under")
        return (f"{head}: {side} it against the profile's figure, {other} it against the probe re-timed beside "
                f"the ops (its roof then {retimed_roof_said(point, roof)}; {retimed_reading(point, roof)}): which "
                "side is not shown.")
    if grade == "write-allocate":
        return (f"{head}: above it by more than its {spread:.0%} spread, but within the {room:.2f}x its bytes "
                f"can reach without a cache's help: the roof counts STREAM's bytes, while the memory moved more "
                f"({WRITE_ALLOCATE}); {name} " + _writes(point.op)
                + ", so it gets that traffic back. The roof is a reference, not a bound.")
    if grade == "room-noise":
        return (f"{head}: past the {room:.2f}x its bytes can reach without a cache's help ({WRITE_ALLOCATE}), "
                f"but by no more than its own {spread:.0%} spread, so no cache's help is shown.")
    where = f"this CPU's {l3_bytes / 2**20:,.0f} MiB L3" if l3_bytes else "a cache"
    return (f"{head}: past even the {room:.2f}x its bytes can reach without a cache's help ({WRITE_ALLOCATE}), "
            f"by more than its own {spread:.0%} spread, so part of its {point.op.bytes / 2**20:.0f} MiB came back "
            f"from {where}, not from memory. The roof is a reference, not a bound.")


def _writes(op) -> str:
    if op.written < 0.01 * op.bytes:
        return f"only reads (its result is {op.written / op.bytes:.2%} of its bytes)"
    return f"writes {op.written / op.bytes:.0%} of its bytes, less than STREAM's kernel"


def memory_verdict(point, roof) -> str:
    """The claims-table verdict of ``memory_reading`` (the same grade), in a few words."""
    from utils.lessons.why_slow.roofline import headroom

    share, grade = claims.percent(point.fraction), memory_grade(point, roof)
    spread = f"{getattr(point, 'spread', 0.0):.0%}"
    room = headroom(point.op, roof.bandwidth.name, cpu=roof.threads is not None)
    probe = ("within the larger of its two timings' spreads: not a finding" if grade == "probe"
             and probe_beside_itself(point, roof)[2] else "beyond both timings' spreads: a gap not explained here")
    return {"under": f"{share} of its roof",
            "probe": f"{share}: the roof's own probe timed twice, {probe}",
            "noise": f"{share}, within its {spread} spread: no excess shown",
            "crosses": f"{share} against the profile's figure",
            "write-allocate": f"{share}: above the roof, within its {room:.2f}x (write-allocate)",
            "room-noise": f"{share}: past its {room:.2f}x by no more than its {spread} spread: no cache shown",
            "cache": f"{share}: past its {room:.2f}x by more than its {spread} spread: a cache served it",
            }[grade]


def nearest_reading(point, roof, l3_bytes: int | None = None) -> str:
    """The roofline sentence's reading of the op nearest its memory roof, followed by which bandwidth the roof
    is made of (``roof_choice_sentence``). Where the re-timed probe puts it on the other side (``crosses``), the
    reading names the side only: the roof's choice that follows works both figures, said once."""
    if memory_grade(point, roof) != "crosses":
        return memory_reading(point, roof, l3_bytes) + roof_choice_sentence(point, roof)
    side = "under" if round(point.fraction, 2) <= 1 else "above"
    return (f"{point.op.name} ran at {claims.percent(point.fraction)} of its memory roof, {side} it against the "
            "profile's figure; the probe re-timed beside the ops puts it on the other side, so which side is not "
            "shown." + roof_choice_sentence(point, roof))


def roof_choice_sentence(point, roof) -> str:
    """Which bandwidth ``point``'s memory roof is made of, and why; and its share against the same probe timed
    beside the ops (this run), with whether the reading stays on the same side of the roof (both branches).
    Empty where the roof is not the profile's (then the two are one figure)."""
    if not roof.from_profile or len(roof.retimed) < 2:
        return ""
    bw, again = roof.bandwidth, roof.retimed[1]
    on = f"{roof.threads} thread{'s' * (roof.threads != 1)}" if roof.threads else "the GPU"
    text = (f" That roof is {bw.name}, {bw.best / 1e9:.1f} GB/s: the profile's figure on {on}, the threads the "
            f"ops ran on (an all-threads bandwidth is not what {on} can draw), and the one figure every lesson "
            f"quotes under that name. Against {roof.RETIMED} ({again.best / 1e9:.1f} GB/s, "
            f"{claims.signed_percent(claims.printed_ratio(again.best, bw.best, 1, 1e9) - 1)}), its roof would be "
            f"{retimed_roof_said(point, roof)} and {point.op.name} would read {retimed_reading(point, roof)}: ")
    if not crosses_roof(point, roof):
        text += "on the same side of its roof, so the reading does not depend on which of the two is used."
    else:
        text += ("on the other side of its roof, so whether it passes its memory roof depends on which of the "
                 "two figures of one probe is used: this run does not show it either way.")
    return text + other_crossings(point, roof)


def other_crossings(point, roof) -> str:
    """Every other memory-bound op that the re-timed probe puts on the other side of its roof (the closing
    table's row lists the same ones), or "" where none is."""
    others = apart_from_probe(getattr(roof, "points", ()), roof)[0]  # the probe's own reading says its side
    more = [p for p in others if p is not point and crosses_roof(p, roof)]
    if not more:
        return ""
    listed = ", ".join(f"{p.op.name} ({claims.percent(p.fraction)}, re-timed {retimed_reading(p, roof)})" for p in more)
    many = len(more) > 1
    # "other memory-bound", not "more": the op before it need not have crossed (t31_0001 other problems)
    return (f" The re-timed figure puts {len(more)} other memory-bound op{'s' * many} on the other side of "
            f"{'their' if many else 'its'} roof ({listed}): for {'them' if many else 'it'} too, which side is "
            "not shown.")
