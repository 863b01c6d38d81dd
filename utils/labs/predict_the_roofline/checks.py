"""Lab 01 (``labs/01_predict_the_roofline.ipynb``), predict the roofline: the checks of the learner's counts and
predictions for ops lesson 01 did not place on its roofline (``ops``: an embedding lookup, a convolution,
attention with and without the causal mask).

    SETUP = lab_setup(lesson_settings(devices.plan(1), devices.hardware(), isa))   # this machine's ops
    check_counts(count, SETUP)                  # FLOPs and bytes against what each op does, unseen ops too
    check_turning(turning_length)               # where attention turns compute-bound, on unseen machines
    check_measured(count, turning_length, SETUP)  # the ops timed beside the ceilings: none beats your roof

A failed check names the op and the mistake, never the expected value.
"""

from __future__ import annotations

import math
import signal
import textwrap
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass, replace
from numbers import Number

import torch

from utils import checks, claims
from utils.checks import expect
from utils.labs.predict_the_roofline import mistakes
from utils.labs.predict_the_roofline import reference as _reference  # the answers: kept out of the lab's names
from utils.labs.predict_the_roofline.ops import LabOp, text_like_ids
from utils.lessons.why_slow import roofline
from utils.lessons.why_slow.algorithms import printed_ms  # a time as the tables print it: ms, 3 figures
from utils.lessons.why_slow.peak import Ceilings
from utils.lessons.why_slow.plan import LessonSettings
from utils.tables import Table

BANK = "labs/predict_the_roofline"  # the lab's hints: utils/labs/predict_the_roofline/hints.toml
TOLERANCE = 0.02  # counts within 2 %: so UNSEEN holds a short causal attention, where T²/2 scores for
# T(T+1)/2 is off by 1/T (6 % at 16 tokens; 0.1 % at 1024), and check 1 rejects the slip that check 2 names
# An op may beat the prediction by 25 % or its spread, not more: the roof counts STREAM's bytes, and an op that
# writes less than STREAM's kernel gets some of the memory's write-allocate traffic back (lesson 01's
# ``roofline.headroom``). How much depends on the kernel whose rate is the roof: under STREAM copy at most
# 1.2x for these ops, which write their result (1.5x only for an op that only reads: the lab has none); under
# STREAM add, which already counts one written byte in three, less (0.77x for the lab's memory-bound op, 1.33x
# for a read-only op). 25 % covers the largest of these for the lab's ops plus a margin for noise in the
# ceilings timed beside the op.
FASTER = 0.25
LEARNER_SECONDS = 10  # a learner's function that runs longer is stopped (a search that never ends)
WIDTH = 110


def _attention(name, batch, heads, length, head_dim, causal, dtype=torch.float32) -> LabOp:
    return LabOp(name, "attention", dict(batch=batch, heads=heads, length=length, head_dim=head_dim,
                                         causal=causal), dtype)


def _conv(name, batch, cin, h, w, cout, k, p, dtype=torch.float32) -> LabOp:
    return LabOp(name, "conv2d", dict(batch=batch, in_channels=cin, height=h, width=w, out_channels=cout,
                                      kernel=k, padding=p), dtype)


def _embedding(name, vocab, width, ids, dtype=torch.float32) -> LabOp:
    return LabOp(name, "embedding", dict(vocab=vocab, width=width), dtype, ids)


# Ops the learner's code never sees before the check: other sizes, bfloat16, padding, few and many repeats.
UNSEEN = (
    _conv("conv 7x7, 3 -> 16 channels, 20x20, padding 3, bf16", 2, 3, 20, 20, 16, 7, 3, torch.bfloat16),
    _conv("conv 3x3, 32 -> 48 channels, 15x11, no padding", 3, 32, 15, 11, 48, 3, 0),
    _attention("causal attention, length 16, 4 heads of 32, bf16", 3, 4, 16, 32, True, torch.bfloat16),
    _attention("attention without mask, length 200, 2 heads of 48", 5, 2, 200, 48, False),
    _embedding("bf16 embedding 1000x96, 5,000 tokens", 1000, 96, text_like_ids(1000, 5000, seed=3),
               torch.bfloat16),
    _embedding("embedding 50000x64, 300 distinct tokens", 50000, 64, torch.randperm(50000)[:300]),
    # rows of 16 bytes, ids of 8: the ids weigh about a third of the bytes, so ids counted at 4 bytes are off
    # by far more than TOLERANCE (in the lookups above they weigh too little to tell)
    _embedding("bf16 embedding 1000x8, 4,000 tokens", 1000, 8, text_like_ids(1000, 4000, seed=5),
               torch.bfloat16),
)


@dataclass(frozen=True)
class LabSetup:
    """The lab's ops on this machine (``lab_setup(S)`` makes it)."""

    settings: LessonSettings  # lesson 01's decisions: device, threads, the ceilings' sizes, the label
    ops: tuple[LabOp, ...]  # counted, predicted and measured
    extra: tuple[LabOp, ...]  # counted only
    rounds: int = 5  # alternating rounds of (ceilings, ops), as lesson 01 measures its roofline
    turning_work: int = 2**19  # batch x length² of the attentions timed at and beyond the turning length


def lab_setup(S: LessonSettings) -> LabSetup:
    """Lab 01's ops at sizes for this device: an embedding lookup, a convolution, causal attention and the same
    without its mask, each far beyond a CPU's caches (larger on a GPU), and three more to count."""
    k = 8 if S.on_gpu else 1  # a GPU needs more work per call to be timed
    ops = (_embedding(f"embedding 32768x1024, {8192 * k:,} tokens", 32768, 1024, text_like_ids(32768, 8192 * k)),
           _conv(f"conv 3x3, 64 -> 64 channels, 56x56, padding 1, batch {8 * k}", 8 * k, 64, 56, 56, 64, 3, 1),
           _attention(f"causal attention, length 1024, 8 heads of 64, batch {k}", k, 8, 1024, 64, True),
           _attention(f"the same without its mask, batch {k}", k, 8, 1024, 64, False))
    extra = (_conv("conv 5x5, 1 -> 20 channels, 28x28, no padding, batch 64", 64, 1, 28, 28, 20, 5, 0),
             _attention("attention without mask, length 256, 8 heads of 64, bf16", 4, 8, 256, 64, False,
                        torch.bfloat16),
             _embedding("bf16 embedding 50304x768, 2,048 tokens", 50304, 768, text_like_ids(50304, 2048, seed=1),
                        torch.bfloat16))
    return LabSetup(S, ops, extra, turning_work=2**19 * k)


# --- Running the learner's code: bounded in time, its answer a number -------------------------------------


@contextmanager
def _bounded(what: str, seconds: float = LEARNER_SECONDS):
    """Stop the learner's code after ``seconds`` (a search that never ends), where signals can (the main
    thread of a Unix process: a notebook's kernel)."""
    def stop(*_):
        raise checks.CheckFailed(f"{what} ran for more than {seconds:g} s: does every loop in it end?")
    try:
        previous = signal.signal(signal.SIGALRM, stop)
    except (ValueError, AttributeError):  # not the main thread, or no SIGALRM: run unbounded
        yield
        return
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _number(value, what: str) -> float:
    if isinstance(value, torch.Tensor) and value.numel() == 1:
        value = value.item()
    expect(isinstance(value, Number) and not isinstance(value, bool) and math.isfinite(value),
           f"{what} gave {type(value).__name__} {value!r:.40}: a finite number is expected")
    return float(value)


# torch's FLOP counter traces an op and reads its FLOPs off: the exercise is to count them, so count may not use it
_COUNTER_NAMES = {"FlopCounterMode", "flop_counter"}
_COUNTER_REFUSED = ("count uses torch's FLOP counter (torch.utils.flop_counter.FlopCounterMode): the exercise is "
                    "to count each op's arithmetic yourself, from its sizes")


@contextmanager
def _counter_refused():
    """Fail the check if torch's FLOP counter is entered while this block runs (through any helper of the
    learner's, where a scan of ``count``'s own names cannot see it)."""
    from torch.utils.flop_counter import FlopCounterMode
    entered = FlopCounterMode.__enter__

    def refuse(self):
        raise checks.CheckFailed(_COUNTER_REFUSED)
    FlopCounterMode.__enter__ = refuse
    try:
        yield
    finally:
        FlopCounterMode.__enter__ = entered


def counted(count: Callable, op: LabOp) -> tuple[float, float]:
    """The learner's ``count(op)`` as (FLOPs, bytes), or a failed check saying what came back instead."""
    with _bounded(f"count for {op.name}"), _counter_refused():
        result = count(op)
    expect(isinstance(result, (tuple, list)) and len(result) == 2,
           f"count for {op.name} returned {type(result).__name__}: return a pair (flops, n_bytes)")
    return _number(result[0], f"count's FLOPs for {op.name}"), _number(result[1], f"count's bytes for {op.name}")


COUNTS_CHECK = "FLOPs and bytes"  # check 1's name: the report shows the reference's counts once it passed

# The reference's functions a learner's answer may not call (refused through wrappers too: checks.refers_to).
_REFERENCE_COUNTS = {name: getattr(_reference, name) for name in ("done_flops", "moved_bytes", "reference_op")}
_REFERENCE_TURNING = {name: getattr(_reference, name) for name in ("first_compute_bound",)}


# --- Exercise A: FLOPs and bytes -----------------------------------------------------------------------


def check_counts(count: Callable, setup: LabSetup, show: bool = True) -> checks.Verdict:
    """Exercise A: ``count(op)`` within 2 % of the FLOPs the op does (torch's counter, the mask's share
    taken out) and of the bytes of the tensors it must read and write, for the lab's ops and unseen ones."""

    def body():
        expect(not checks.refers_to(count, set(_REFERENCE_COUNTS), tuple(_REFERENCE_COUNTS.values())),
               "count calls the checks' own reference: the exercise is to count it yourself")
        expect(not checks.refers_to(count, _COUNTER_NAMES), _COUNTER_REFUSED)
        every = setup.ops + setup.extra + UNSEEN
        for op in every:
            flops, n_bytes = counted(count, op)
            mistake = mistakes.count_mistake(op, flops, n_bytes, _reference.done_flops(op), _reference.moved_bytes(op), TOLERANCE)
            expect(mistake is None, (mistake or "") + ("" if op not in UNSEEN else " (an op you have not seen)"))
        return (f"{len(every)} ops counted within {TOLERANCE:.0%}, {len(UNSEEN)} of them unseen: lookups with few "
                "and many repeats, convolutions with and without padding, attention with and without its mask, "
                "fp32 and bf16")

    return checks.run_check(COUNTS_CHECK, body, show=show, hint=checks.stub_message(BANK, "A"))


# --- Exercise B: where attention turns compute-bound ----------------------------------------------------

# Machines the check gives turning_length (ridges 10, 50 and 3), and attentions of both masks and dtypes; the
# first two differ only in batch, heads and head width.
# ridges 10.3, 49.7 and 3.1: no length's intensity equals one, so the first compute-bound length is one whole
# number whether ">" or ">=" is read, and check 2 asks for it exactly (t31_labs03 #3: ridges 10, 50 and 3 tied)
TEST_CEILINGS = (Ceilings(103e9, 10e9), Ceilings(994e9, 20e9), Ceilings(62e9, 20e9))
TEST_ATTENTIONS = (_attention("causal attention, 8 heads of 64, batch 2", 2, 8, 1, 64, True),
                   _attention("causal attention, 2 heads of 128, batch 1", 1, 2, 1, 128, True),
                   _attention("attention without mask, 4 heads of 128, bf16", 1, 4, 1, 128, False, torch.bfloat16),
                   _attention("causal attention, 2 heads of 32, batch 4, bf16", 4, 2, 1, 32, True, torch.bfloat16))


def check_turning(turning_length: Callable, show: bool = True) -> checks.Verdict:
    """Exercise B: ``turning_length(op, ceilings)`` is the first length at which attention ``op`` is
    compute-bound on ``ceilings`` (exactly), on three machines and four attentions."""

    def body():
        expect(not checks.refers_to(turning_length, set(_REFERENCE_TURNING), tuple(_REFERENCE_TURNING.values())),
               "turning_length calls the checks' own reference: the exercise is to search it yourself")
        for c in TEST_CEILINGS:
            answers = {}
            for op in TEST_ATTENTIONS:
                with _bounded(f"turning_length for {op.name}"):
                    answer = _number(turning_length(op, c), f"turning_length for {op.name}")
                mistake = mistakes.turning_mistake(op, c, answer, _reference.first_compute_bound, answers)
                answers[op.name] = (op, answer)
                expect(mistake is None, mistake or "")
        return (f"{len(TEST_CEILINGS) * len(TEST_ATTENTIONS)} lengths right: three machines (ridges "
                f"{', '.join(f'{c.ridge:g}' for c in TEST_CEILINGS)}), both masks, fp32 and bf16")

    return checks.run_check("where attention turns", body, show=show, hint=checks.stub_message(BANK, "B"))


# --- The measurement: the ops timed beside the ceilings, in the same rounds --------------------------------


@dataclass(frozen=True)
class Compared:
    op: LabOp
    flops: float  # the learner's count
    n_bytes: float
    predicted: float  # seconds on the measured ceilings, from the learner's counts
    bound: str
    point: roofline.Point  # the op measured, beside its roof from what it does

    @property
    def ratio(self) -> float:
        """Measured over predicted: 1.0 means the op ran at the roof of your counts."""
        return self.point.seconds / self.predicted

    @property
    def printed_ratio(self) -> float:
        """``ratio`` worked from the two times as the report's table prints them (``printed_ms``)."""
        return printed_ms(self.point.seconds) / printed_ms(self.predicted)


def printed_count(count: float) -> float:
    """A FLOP or byte count as the lab's tables print it, to three significant figures (1.07e+09), so that a
    time worked from it is the division a learner does from the page (1.07e9 / 99.7e9 is 10.7 ms)."""
    return float(f"{count:.3g}")


def count_text(count: float) -> str:
    """A count as the lab's tables print it: ``printed_count``'s 3 figures with their zeros ("1.30e+07", "4.00";
    ".3g" prints "1.3e+07", read as two figures), and no bare point after a whole number ("165")."""
    return f"{count:#.3g}".rstrip(".")


def predicted(flops: float, n_bytes: float, c: Ceilings) -> tuple[str, float]:
    """Lesson 01's roofline on the learner's counts: the side of the ridge, and the slower limit's time, both
    worked from the counts as printed (``printed_count``)."""
    flops, n_bytes = printed_count(flops), printed_count(n_bytes)
    bound = "compute" if n_bytes and flops / n_bytes >= c.ridge else "memory"
    return bound, max(flops / c.flops, n_bytes / c.bandwidth)


def measured_ops(turning_length: Callable | None, ceilings: Ceilings, setup: LabSetup) -> list[LabOp]:
    """The lab's ops, and (once exercise B gives a length on ``ceilings``) its attention at that length and at
    8x it, the batch sized so that each call does about the same work (batch x length² kept)."""
    ops, ceilings = list(setup.ops), printed_ceilings(ceilings)  # the ridge the page prints
    attention = next(op for op in ops if op.kind == "attention" and op.dims["causal"])
    try:
        with _bounded("turning_length"):
            length = int(turning_length(attention, ceilings)) if turning_length else 0
    except Exception:  # noqa: BLE001 - exercise B unfinished or wrong: its own check says so
        length = 0
    if 0 < length <= 2**15:
        for t in (length, 8 * length):
            ops.append(attention.with_length(t, batch=max(1, round(setup.turning_work / t**2))))
    return ops


def short_name(op: LabOp) -> str:
    """An op's name up to its first comma, and an attention's length and batch: "causal attention, length 94,
    batch 59" (check 3's line names each ratio without the table's full names, but with what tells its rows
    apart, so that each ratio can be found in the table; t29_labs03: "length 94" beside the table's "length
    94, batch 59")."""
    head = op.name.split(", ")[0]
    if op.kind != "attention":
        return head
    return f"{head}, length {op.dims['length']}, batch {op.dims['batch']}"


def printed_ceilings(c: Ceilings) -> Ceilings:
    """``c`` as the lab prints it, GFLOP/s and GB/s to one decimal (``claims.as_printed``): the ridge, the
    turning length and the predictions worked from it are then what a learner works out from the page (98.5
    GFLOP/s over 22.5 GB/s is a ridge of 4.38, whatever the unrounded rates gave)."""
    return replace(c, flops=claims.as_printed(c.flops, 1, 1e9) * 1e9,
                   bandwidth=claims.as_printed(c.bandwidth, 1, 1e9) * 1e9)


def measure_ops(ops: list[LabOp], setup: LabSetup) -> roofline.Roofline:
    """The ops and both ceilings, measured in alternating rounds on lesson 01's threads (one on a CPU); the
    ceilings kept as printed (``printed_ceilings``), so that every figure worked from them follows the page."""
    S = setup.settings
    roof = roofline.measure_roofline([_reference.reference_op(op, S.device) for op in ops], S, rounds=setup.rounds)
    return replace(roof, ceilings=printed_ceilings(roof.ceilings))


def compare(count: Callable, roof: roofline.Roofline, ops: list[LabOp]) -> list[Compared]:
    rows = []
    for op, point in zip(ops, roof.points):
        flops, n_bytes = counted(count, op)
        expect(flops >= 0 and n_bytes > 0, f"count for {op.name}: FLOPs must be 0 or more and bytes more than 0")
        bound, seconds = predicted(flops, n_bytes, roof.ceilings)
        rows.append(Compared(op, flops, n_bytes, seconds, bound, point))
    return rows


def faster_than_roof(row: Compared) -> str | None:
    """Why ``row`` beat the roof of the learner's counts by more than the measurement allows, or None."""
    allowed = max(FASTER, row.point.spread)
    if row.ratio >= 1 / (1 + allowed):
        return None
    return (f"{row.op.name} ran {1 / row.ratio:.1f}x faster than your counts allow ({row.bound}-bound), more "
            f"than the {allowed:.0%} a measurement may beat it by: no op beats its roof, so your count holds "
            "work or bytes that the op does not do")


def beat_words(rows: list[Compared]) -> str:
    """Check 3's passing verdict as the printed ratios read it (every branch written): "no op beat the roof"
    only where every measured / predicted prints 1.00x or more; else the closest op, within the allowance."""
    closest = min(rows, key=lambda r: r.printed_ratio)  # the ratios as the table's times give them
    if round(closest.printed_ratio, 2) >= 1:
        return "no op beat the roof of your counts"
    return (f"no op beat the roof of your counts by more than the allowance ({FASTER:.0%} or its rounds' "
            f"spread); closest: {closest.op.name}, at {closest.printed_ratio:.2f}x the time your counts allow")


def check_measured(count: Callable, turning_length: Callable, ceilings: Ceilings, setup: LabSetup,
                   show: bool = True, measure: Callable = measure_ops, results: list | None = None) -> checks.Verdict:
    """The lab's ops (and attention at your turning length on ``ceilings`` and at 8x it) timed with both
    ceilings in the same rounds: none may run faster than the roofline of your counts allows (a busy machine
    only slows an op, so a right count never fails). ``results`` receives the roofline, the comparisons and
    the work (batch x length²) the attentions at and beyond the turning length aim at."""

    def body():
        ops = measured_ops(turning_length, ceilings, setup)
        for op in ops:  # an unfinished exercise stops here, before anything is timed
            counted(count, op)
        roof = measure(ops, setup)
        rows = compare(count, roof, ops)
        if results is not None:
            # then the attentions' work a call, and how many ops the table before the exercises printed
            results[:] = [roof, rows, setup.turning_work, len(setup.ops)]
        off = [why for why in map(faster_than_roof, rows) if why]
        expect(not off, " | ".join(off))
        # each op named: the ratios come from the times the report's table prints, row by row
        shown = ", ".join(f"{short_name(r.op)} {r.printed_ratio:.2f}x" for r in rows)
        return (f"{beat_words(rows)}; measured / predicted: {shown} ({roof.threads or 'all'} "
                f"thread(s), ceilings measured in the same rounds){setup.settings.label}")

    return checks.run_check("no op beats your roof beyond the allowance", body, show=show, hint=checks.stub_message(BANK, "A"))


# --- Tables and sentences for the notebook -------------------------------------------------------------


def say(text: str) -> None:
    """Print ``text`` wrapped at the course's 110 columns."""
    print(textwrap.fill(text, WIDTH))


def ops_table(setup: LabSetup) -> Table:
    rows = [(op.name, op.kind, str(op.dtype).removeprefix("torch."), "measured") for op in setup.ops]
    rows += [(op.name, op.kind, str(op.dtype).removeprefix("torch."), "counted") for op in setup.extra]
    return Table(["op", "kind", "dtype", "in the lab"], rows, wrap=60)


def prediction_table(count: Callable, ceilings: Ceilings, setup: LabSetup):
    """The learner's counts on ``ceilings`` (as printed) through lesson 01's roofline, before anything is timed."""
    rows, ceilings = [], printed_ceilings(ceilings)
    for op in setup.ops:
        try:
            flops, n_bytes = counted(count, op)
            bound, seconds = predicted(flops, n_bytes, ceilings)
            intensity = printed_count(flops) / printed_count(n_bytes)   # from the two counts as printed
            rows.append((op.name, count_text(flops), count_text(n_bytes), count_text(intensity), bound,
                         f"{claims.sig_text(seconds, 3, 1e-3)} ms"))
        except NotImplementedError:
            rows.append((op.name, "not done yet", "", "", "", ""))
        except checks.CheckFailed:
            rows.append((op.name, "not a pair of numbers", "", "", "", ""))
        except Exception as exc:  # noqa: BLE001 - the learner's code: shown, never raised into the notebook
            rows.append((op.name, f"raised {type(exc).__name__}", "", "", "", ""))
    return Table(["op", "FLOPs", "bytes", "FLOPs/byte", "limited by", "predicted"], rows, wrap=40)


def turning_sentence(turning_length: Callable, ceilings: Ceilings, setup: LabSetup) -> str:
    """Where the lab's causal attention turns compute-bound on this machine, by the learner's exercise B."""
    attention = next(op for op in setup.ops if op.kind == "attention" and op.dims["causal"])
    ceilings = printed_ceilings(ceilings)  # the ridge printed above, which a hand count starts from
    try:
        with _bounded("turning_length"):
            length = turning_length(attention, ceilings)
    except NotImplementedError:
        return "⏳ not done yet: where your attention turns compute-bound appears here once exercise B is done"
    except Exception as exc:  # noqa: BLE001 - the learner's code: shown, never raised into the notebook
        return f"your turning_length raised {type(exc).__name__}: check 2 says more"
    return (f"By your turning_length, the lab's causal attention (8 heads of 64, {str(attention.dtype)[6:]}) turns "
            f"compute-bound here at length {length} (the ridge of the ceilings measured above: {ceilings.ridge:.2f} "
            "FLOPs/byte; the checks' rounds measure it again).")
