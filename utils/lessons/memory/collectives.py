"""Lesson 06, section 4: DDP's and FSDP2's collectives a step (calls, MB handed in, ms inside them) as a
table, and what they say about FSDP2's extra step time as sentences, every figure worked from the table and the
step times as printed. Split from ``summary.py`` (the 600-line cap); ``summary`` re-exports every name.

    show(collectives_table(RUNS, label))
    answer, account = collectives_answer(RUNS, label)   # the short answer; the whole account, for the details
"""

from __future__ import annotations

from utils import claims
from utils.lessons.memory.sharding import wire_bytes
from utils.tables import Table

MB = 1e6


def collectives_table(runs: dict, label: str = "") -> Table:
    """Rank 0's collectives per step (from the second step on): calls, MB handed in, ms inside them."""
    rows = []
    for name, ranks in runs.items():
        r = ranks[0]
        seconds = r["collective_seconds_per_step"] or {}
        for collective, calls in r["calls_per_step"].items():
            inside = seconds.get(collective)
            rows.append((name, collective, f"{calls:.0f}", f"{r['sent_per_step'][collective] / MB:.2f}",
                         f"{inside * 1e3:.1f}" if inside is not None else "-",
                         # the ms a call from the ms inside as printed (0.1 ms): 13.3 / 2 reads 6.65
                         f"{claims.as_printed(inside, 1, 1e-3) / calls:.2f}" if inside is not None else "-"))
    return Table(["strategy", "collective", "calls a step", "MB a step", "ms inside", "ms a call"], rows,
                 title=f"Collectives per step, rank 0{label}")


def inside_collectives(run: dict) -> float | None:
    """Seconds a step that rank 0 spent inside collectives (None where they were not timed: GPUs)."""
    seconds = run[0]["collective_seconds_per_step"]
    return sum(seconds.values()) if seconds is not None else None


def inside_ms_as_printed(run: dict) -> float | None:
    """Milliseconds a step inside collectives, summed from ``collectives_table``'s rows as it prints them
    (0.1 ms), so that the sentence's figure is what a reader adds up from the table (18.1 + 11.6 = 29.7)."""
    seconds = run[0]["collective_seconds_per_step"]
    if seconds is None:
        return None
    return claims.as_printed(sum(claims.as_printed(v, 1, 1e-3) for v in seconds.values()), 1)


def collectives_sentence(runs: dict, label: str = "") -> str:
    """The step times, bytes and time inside collectives of DDP and FSDP2, every difference, ratio and share
    worked from the figures as printed (0.1 ms), the gap <= 0 outcome included."""
    ddp, fsdp = runs["ddp"], runs["fsdp"]
    calls = {k: sum(r[0]["calls_per_step"].values()) for k, r in runs.items()}
    steps = {k: claims.as_printed(r[0]["mean_step_seconds"], 1, 1e-3) for k, r in runs.items()}  # ms, printed
    sent = {k: sum(wire_bytes(c, v) for c, v in r[0]["sent_per_step"].items()) for k, r in runs.items()}
    bytes_ratio = claims.printed_ratio(sent["fsdp"], sent["ddp"], 2, MB)   # the MB a step as printed (lesson 06)
    spread = _range_clause(runs)
    # the table's "MB a step", each row as printed (0.01 MB) and added as a reader adds them: 3.24 + 3.30
    handed = {k: sum(claims.as_printed(v, 2, MB) for v in r[0]["sent_per_step"].values()) for k, r in runs.items()}
    step_ratio = claims.printed_ratio(steps["fsdp"], steps["ddp"], 1)   # the reader's division of the two
    text = (f"Step time (mean, from the second step): DDP {steps['ddp']:.1f} ms, FSDP2 "
            f"{steps['fsdp']:.1f} ms ({step_ratio:.2f}x{spread}; it moves {bytes_ratio:.2f}x "
            f"the bytes a ring sends for DDP; the table's MB a step, what each rank hands its collectives, add up to "
            f"{handed['fsdp'] / max(handed['ddp'], 0.01):.2f}x, as with 2 ranks a ring sends half of a reduce-scatter's "
            "input); "
            f"collectives a step: DDP {calls['ddp']:.0f}, FSDP2 {calls['fsdp']:.0f}.")
    d, f = inside_ms_as_printed(ddp), inside_ms_as_printed(fsdp)  # ms: the table's rows, summed
    if d is None or f is None:
        return text + f" (On GPUs the collectives run on their own stream: their time is not separable here.){label}"
    # ms, from the printed figures (as_printed drops the float dust of 29.7 - 18.1)
    gap, extra = claims.as_printed(steps["fsdp"] - steps["ddp"], 1), claims.as_printed(f - d, 1)
    if gap <= 0:
        return text + (f" Inside them (the table's rows, summed): DDP {d:.1f} ms, FSDP2 {f:.1f} ms. FSDP2's step "
                       f"was not slower in this run, against the expectation: a finding to explain; re-run to see whether it "
                       f"repeats{label}.")
    inside = claims.printed_ratio(f, d, 1)   # the reader's division of the two printed sums
    text += (f" Inside them (the table's rows, summed): DDP {d:.1f} ms, FSDP2 {f:.1f} ms ({inside:.2f}x, "
             f"{'more' if claims.as_printed(inside, 2) > claims.as_printed(bytes_ratio, 2) else 'no more'} "
             f"than the ring's bytes' "
             f"{bytes_ratio:.2f}x; one "
             f"figure a step each, with no spread to judge noise by, and a rank's time inside a collective also "
             f"counts its wait for the other rank, so this cannot tell the per-call start-up cost (alpha, lesson 00) from "
             f"waiting); "
             f"{_against_gap(extra, gap, _shown_slower(runs))}{label}.")
    if _shown_slower(runs) is not False and extra < 0.8 * gap:
        text += (" The rest is outside the collectives (not timed apart here). Candidates, none measured here: "
                 "FSDP2 copies each unit's shards into and out of the flat buffers its collectives use (one "
                 "contiguous tensor per unit holding all its parameters' shards end to end, so that one call moves "
                 "them all) and does per-unit bookkeeping; and gloo's own threads compete with the compute for the "
                 "host's cores, more often with FSDP2's more frequent calls.")
    return text


def collectives_answer(runs: dict, label: str = "") -> tuple[str, str]:
    """Section 4's answer in one sentence, and the whole account (``collectives_sentence``) for the collapsed
    details: FSDP2's step over DDP's, with the steps' range, and the share of the gap spent inside the
    collectives, each as that account prints it (t29_0506: one question, one answer)."""
    account = collectives_sentence(runs, label)
    steps = {k: claims.as_printed(r[0]["mean_step_seconds"], 1, 1e-3) for k, r in runs.items()}   # ms, printed
    head = (f"FSDP2's mean step took {steps['fsdp']:.1f} ms against DDP's {steps['ddp']:.1f} ms "
            f"({claims.printed_ratio(steps['fsdp'], steps['ddp'], 1):.2f}x{_range_clause(runs)})")
    d, f = inside_ms_as_printed(runs["ddp"]), inside_ms_as_printed(runs["fsdp"])
    if d is None or f is None:
        return head + f"; on GPUs the time inside the collectives is not separable (the details){label}.", account
    gap, extra = claims.as_printed(steps["fsdp"] - steps["ddp"], 1), claims.as_printed(f - d, 1)
    if gap <= 0:
        return head + f": not slower, against the expectation: a finding to explain (the details){label}.", account
    return head + f"; {_gap_answer(extra, gap, _shown_slower(runs))}{label}.", account


def _shown_slower(runs: dict) -> bool | None:
    """Whether FSDP2's step was slower than DDP's beyond the steps' noise: its fastest step over DDP's slowest
    above 1x (``_pairings``' first outcome); None where the steps' ranges were not kept."""
    ranges = {k: r[0].get("step_range") for k, r in runs.items()}
    if not (ranges["ddp"] and ranges["fsdp"]):
        return None
    fastest, slowest = claims.as_printed(ranges["fsdp"][0], 1, 1e-3), claims.as_printed(ranges["ddp"][1], 1, 1e-3)
    return claims.half_up(fastest / slowest, 2) > 1   # as ``_range_clause`` prints it


def _against_gap(extra: float, gap: float, shown: bool | None) -> str:
    """The extra ms inside FSDP2's collectives set against the gap in mean step time (``gap`` > 0), both as
    printed (0.1 ms), for the account. A share is read only of a gap shown beyond the steps' noise (t30_0506:
    "250% of the gap" beside "no difference is shown"); above 100% it is said for what it means: outside its
    collectives FSDP2's step measured less than DDP's."""
    if shown is False:
        return (f"the step times do not differ beyond their noise, so the {_more_or_less(extra)} inside the "
                f"collectives is not set against their {gap:.1f} ms gap")
    if extra <= 0:
        return (f"FSDP2 spent no more time inside its collectives than DDP ({extra:+.1f} ms): the whole gap in step "
                f"time ({gap:.1f} ms) lies outside them")
    if extra > gap:
        return (f"the extra time inside collectives ({extra:.1f} ms) is more than the whole gap in step time "
                f"({gap:.1f} ms): outside the collectives FSDP2's step measured "
                f"{claims.as_printed(extra - gap, 1):.1f} ms less than DDP's (not timed apart here)")
    return (f"the extra time inside collectives ({extra:.1f} ms) is {claims.percent(extra / gap)} of the gap in "
            f"step time ({gap:.1f} ms)")


def _gap_answer(extra: float, gap: float, shown: bool | None) -> str:
    """``_against_gap``'s outcome in the answer's few words, pointing to the details."""
    if shown is False:
        return (f"{_more_or_less(extra)} inside the collectives, not set against a gap the noise does not show "
                "(the details)")
    if extra <= 0:
        return (f"no more time inside the collectives ({extra:+.1f} ms): the {gap:.1f} ms gap lies outside them "
                "(what else: the details)")
    if extra > gap:
        return (f"{extra:.1f} ms more inside the collectives, more than the whole {gap:.1f} ms gap: outside them its "
                f"step measured {claims.as_printed(extra - gap, 1):.1f} ms less (the details)")
    return (f"{extra:.1f} ms more inside the collectives, {claims.percent(extra / gap)} of the {gap:.1f} ms gap "
            "(how and what else: the details)")


def _more_or_less(extra: float) -> str:
    """FSDP2's ms inside its collectives against DDP's, in words: '33.0 ms more', '1.2 ms less', 'no more time'."""
    if extra == 0:
        return "no more time"
    return f"{abs(extra):.1f} ms {'more' if extra > 0 else 'less'}"


def _range_clause(runs: dict) -> str:
    """The ratio's range over the steps, FSDP2's fastest over DDP's slowest to its slowest over DDP's fastest,
    with the four step times it is worked from (ms as printed, half up), so that a reader can redo it and
    reads the steps' noise as their spread from fastest to slowest (t39_0506: the range could not be rebuilt):
    ", 1.31-2.44x from the steps' fastest and slowest (FSDP2 67.0-125.0 ms, DDP 51.2-...): slower in ...";
    "" where the steps' ranges were not kept."""
    ranges = {k: r[0].get("step_range") for k, r in runs.items()}
    if not (ranges["ddp"] and ranges["fsdp"]):
        return ""
    (f_low, f_high), (d_low, d_high) = ([claims.as_printed(t, 1, 1e-3) for t in ranges[k]] for k in ("fsdp", "ddp"))
    low, high = claims.half_up(f_low / d_high, 2), claims.half_up(f_high / d_low, 2)
    return (f", {low:.2f}-{high:.2f}x from the steps' fastest and slowest (FSDP2 {f_low:.1f}-{f_high:.1f} ms, "
            f"DDP {d_low:.1f}-{d_high:.1f} ms): {_pairings(low, high)}")


def _pairings(low: float, high: float) -> str:
    """FSDP2's step over DDP's read at both ends of the steps' range (its fastest over DDP's slowest, and the
    other way round): one verdict, for the answer and the account alike."""
    return ("slower in every pairing of steps, beyond their noise" if low > 1 else
            "faster in every pairing of steps, beyond their noise" if high < 1 else
            "the range spans 1x, so no difference is shown beyond the steps' noise")
