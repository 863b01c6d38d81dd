"""The profiler (lesson 01, section 6): ``torch.profiler`` on one training step, the top operators, time by
category, and a trace for Perfetto (ui.perfetto.dev) or chrome://tracing.

Categories, from each operator's *self* time (time in the op itself, not in ops it calls):
    matmul         mm, addmm, bmm, linear's kernels (``LINEAR_OPS``) and the fused attention kernels
                   (``ATTENTION_OPS``: scaled_dot_product_*, whose QKᵀ and weighted sum of V are matmuls, with
                   the softmax inside the same kernel); ``StepProfile.attention_seconds`` says how much of the
                   category those are, so that a lesson can count attention apart
    memory-bound   every other aten op: elementwise, norms, softmax, copies, the optimizer's updates
    Python & dispatch   the step's wall time not spent inside any op: the interpreter, autograd's
                   bookkeeping, dispatching each call (what a GPU shows as idle gaps between kernels)

On a CPU an op's self time is host time: the op runs where it is called. On a GPU the host only *launches*
an op's kernels (microseconds) and waits for all of them in the step's final synchronize, so host time would
call nearly the whole step "Python & dispatch". There the categories come from *device* self time (the
kernels each op launched, timed on the GPU): matmul kernels, every other kernel, and the wall time in which
the GPU ran none of the step's kernels (waiting for Python, dispatch and launches).
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import re
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import torch
from torch.profiler import ProfilerActivity, profile

from utils import bench, claims

HOST_TIME = "host self time"  # a CPU runs each op where it is called
DEVICE_TIME = "GPU kernel time (device self time)"  # a GPU runs the kernels the host launched
UNPROFILED = 3  # steps timed without the profiler just before the profiled one (the fastest is kept)
LINEAR_OPS = ("mm", "addmm", "bmm", "matmul", "linear", "_int_mm")  # the linear layers' matmuls
ATTENTION_OPS = ("scaled_dot_product", "flash_attention", "efficient_attention", "cudnn_attention")  # fused
MATMUL_OPS = LINEAR_OPS + ATTENTION_OPS  # the "matmul" category: both
OVERHEAD_EDGE = 5.0  # % a profiled step may differ from an unprofiled one and still "add little"
MOST = 0.5  # "matmuls take most of a step": over this share of its wall time, beyond the noise
# The "memory-bound" category (its key, which other lessons read) holds every op that is not a matmul; none of
# their intensities is measured here, so the words printed for it name what it holds, not a limit
# what the "other ops" row holds, said in the block (``steps_note``): the table's row names them (t29_0001: the
# visible sentence was too long with it)
OTHER_OPS = ("other ops: elementwise, norms, copies, the optimizer's updates, memory-bound by the roofline's "
             "count for most (their intensities are not measured one by one here)")
OTHER_ROW = "other ops (elementwise, norms, copies, optimizer)"


@dataclass(frozen=True)
class StepProfile:
    wall_seconds: float
    by_category: dict[str, float]  # seconds: of host self time on a CPU, of GPU kernel time on a GPU
    top: list[tuple[str, float, int]]  # (op, self seconds, calls), largest first
    trace: Path
    gpu_busy_seconds: float | None  # GPU modes: sum of kernel times
    gpu_idle_seconds: float | None  # GPU modes: the step's span on the GPU minus its kernels
    time_source: str = HOST_TIME  # what ``by_category`` and ``top`` are measured in
    unprofiled_seconds: float | None = None  # the same step without the profiler: fastest of UNPROFILED runs
    attention_seconds: float = 0.0  # the part of "matmul" spent in the fused attention kernels
    matmul_shares: tuple[float, ...] = ()  # every profiled step's matmul / wall ms as printed (this one: the median)

    def share(self, part: str) -> float:
        """A category's share of the step (``"attention"``: the fused attention kernels within "matmul"), worked
        from the two ms as printed (one decimal): 54.0 of 82.8 ms is 65.2%."""
        seconds = self.attention_seconds if part == "attention" else self.by_category[part]
        return self.printed_share(seconds)

    def printed_share(self, seconds: float) -> float:
        """``seconds`` over the step's wall time, both in ms as printed (one decimal)."""
        return claims.printed_ratio(seconds, self.wall_seconds, 1, 1e-3)

    def unlisted_sentence(self) -> str:
        """What each matmul row of the category table holds beyond the top operators listed (small wrapper ops
        outside the top 10), worked from the printed ms, so that the two tables reconcile for a reader."""
        rows = {name: ms for name, ms, _ in self.printed_rows()}  # the category table's ms, as printed
        said = []
        for name, kinds in (("matmul: linear layers (mm, addmm, bmm)", LINEAR_OPS),
                            ("matmul: fused attention (scaled_dot_product_*)", ATTENTION_OPS)):
            listed = [s for op, s, _ in self.top if _is_one_of(op, kinds) and (kinds is ATTENTION_OPS)
                      == is_attention(op)]
            total, shown = rows[name], sum(claims.as_printed(s, 2, 1e-3) for s in listed)
            rest = round(total - shown, 2)
            said.append(f"'{name}' {total:.1f} ms less the {shown:.2f} ms listed here: "
                        + (f"{rest:.2f} ms in operators outside the top {len(self.top)}" if rest > 0 else
                           "nothing beyond the rounding of the two tables"))
        return "Against the category table: " + "; ".join(said) + "."

    def overhead_sentence(self, rounds: list[float] | None = None) -> str:
        """The profiled step beside the same step timed without the profiler (every branch written): the
        profiler records every op, and that recording costs time inside the step it measures. With section 1's
        ``rounds`` (each round's fastest, seconds), the move is also set against how far a moment moves one step
        (reader t19_0001: +7.2% put down to recording beside rounds 30.0% apart): within that range this run
        cannot tell recording's cost from a moment's, and the sentence says so; beyond it, it says that too."""
        if self.unprofiled_seconds is None:
            return ""
        # the two times as printed (ms, one decimal), as a reader divides them; judged on the overhead as printed
        # (one decimal of a percent), so that "within 5%" never sits beside a printed +5.3%
        wall = claims.as_printed(self.wall_seconds, 1, 1e-3)
        alone = claims.as_printed(self.unprofiled_seconds, 1, 1e-3)
        ratio = claims.printed_ratio(self.wall_seconds, self.unprofiled_seconds, 1, 1e-3)
        added = claims.half_up((ratio - 1) * 100, 1)
        base = (f"The same step without the profiler, timed just before (fastest of {UNPROFILED}), took "
                f"{alone:.1f} ms: the profiled step took {wall:.1f} ms / {alone:.1f} ms = "
                f"{claims.half_up(ratio, 2):.2f}x that ({added:+.1f}%). ")
        if rounds:
            return base + _overhead_against_rounds(added, rounds_range(rounds, alone), wall)
        if added < -OVERHEAD_EDGE:  # the profiler cannot speed a step up: the two steps met different moments
            return base + ("The profiled step ran faster than the unprofiled one, so the two met different "
                           "moments of the machine: the profiler's own cost is not measured here. Read the "
                           "table's shares, not its ms.")
        if added > OVERHEAD_EDGE:
            return base + ("Recording every op adds time, inside the ops and between them (and one step also "
                           "meets whatever else ran on the machine then), so the table's ms are a profiled step's: "
                           "read its shares, not its times, and compare a profiled step only with another "
                           "profiled one.")
        return base + (f"Here recording every op added little (within {OVERHEAD_EDGE:.0f}%), so the table's ms are "
                       "close to an unprofiled step's.")

    def rows(self) -> list[tuple[str, float]]:
        """(category, seconds) for the lesson's table, "matmul" split into the linear layers' kernels and the
        fused attention kernels, so that the reader sees what the matmul share counts."""
        linear = self.by_category["matmul"] - self.attention_seconds
        rest = [(OTHER_ROW if name == "memory-bound" else name, s) for name, s in self.by_category.items()
                if name != "matmul"]
        return [("matmul: linear layers (mm, addmm, bmm)", linear),
                ("matmul: fused attention (scaled_dot_product_*)", self.attention_seconds), *rest]

    def printed_rows(self) -> list[tuple[str, float, float]]:
        """(category, ms, % of the step) as the lesson's table prints them (one decimal each), worked from the
        printed figures: the linear layers' ms are the printed matmul total less the printed attention; on a CPU,
        where Python & dispatch is the wall time less every operator's self time, its ms are the printed wall
        time less the other printed rows. Each share is its own row's printed ms over the printed wall time,
        rounded half up on its own (a reader's division), so the shares may not add to exactly 100%:
        ``shares_note`` says so under the table."""
        wall = claims.as_printed(self.wall_seconds, 1, 1e-3)
        ms = {name: claims.as_printed(s, 1, 1e-3) for name, s in self.by_category.items()}
        attention = claims.as_printed(self.attention_seconds, 1, 1e-3)
        if self.time_source == HOST_TIME:
            ms["Python & dispatch"] = round(wall - sum(v for k, v in ms.items() if k != "Python & dispatch"), 1)
        named = [("matmul: linear layers (mm, addmm, bmm)", round(ms["matmul"] - attention, 1)),
                 ("matmul: fused attention (scaled_dot_product_*)", attention)]
        named += [(OTHER_ROW if name == "memory-bound" else name, v) for name, v in ms.items() if name != "matmul"]
        return [(name, v, self._printed_pct(v)) for name, v in named]

    def _printed_pct(self, printed_ms: float) -> float:
        """``printed_ms`` over the printed wall ms, in % to one decimal, rounded half up as a reader rounds."""
        wall = claims.as_printed(self.wall_seconds, 1, 1e-3) or 0.1  # a wall printed as 0.0 counts as 0.1 ms
        return claims.half_up(printed_ms / wall * 100, 1)

    def shares_note(self) -> str:
        """The line under the category table: how each share is worked, and what the printed shares sum to
        (each rounded on its own, they may miss 100% by a rounding step or two)."""
        rows = self.printed_rows()
        total = round(sum(p for _, _, p in rows), 1)
        wall = claims.as_printed(self.wall_seconds, 1, 1e-3)
        summed = ("they sum to 100.0% here" if f"{total:.1f}" == "100.0" else
                  f"here they sum to {total:.1f}%, not 100.0%, by that rounding alone")
        return (f"Each share is its row's ms over the step's {wall:.1f} ms, rounded on its own (the rows are not "
                f"adjusted to add up), so the shares may not add to exactly 100%: {summed}.")

    @property
    def printed_matmul_shares(self) -> list[float]:
        """The profiled steps' matmul shares in % as printed (one decimal), smallest first."""
        return sorted(claims.as_printed(s * 100, 1) for s in self.matmul_shares)

    @property
    def matmul_spread(self) -> float:
        """How far the profiled steps' matmul shares spread (``claims.printed_spread`` of the shares printed to
        one decimal of a percent: the course's noise), as a fraction: 0.008 prints "± 0.8%"."""
        return claims.printed_spread(self.printed_matmul_shares, 1) / 100

    def matmul_verdict(self, most: float = MOST) -> str:
        """Whether matmuls took most of a step, by the course's noise rule on the figures as printed (one
        decimal of a percent, as the sentence and the table print them): a spread that covers ``most`` is
        "within noise" (``claims.speedup_verdict`` words it), whichever side the median falls."""
        share, spread = round(self.share("matmul"), 3), round(self.matmul_spread, 3)
        if spread > 0 and share - spread <= most <= share + spread:
            return claims.speedup_verdict(share, spread=spread, baseline=most)  # "within noise: ..."
        return f"holds: over {most:.0%}" if share > most else f"does not hold: under {most:.0%}"

    def split_sentence(self, label: str = "") -> str:
        """The step's split as printed, what "matmul" counts, and how steady the matmul share was."""
        # the shares as the category table prints them (``printed_rows``), each its own ms over the wall ms; the
        # matmul total is the printed matmul ms over the wall ms, so its two parts, each rounded on its own, may
        # miss it by 0.1: the sentence then says so rather than adjusting a part
        (_, linear_ms, linear), (_, attention_ms, attention), *rest = self.printed_rows()
        share = dict((name, p) for name, _, p in rest)
        total = self._printed_pct(round(linear_ms + attention_ms, 1))
        apart = ("" if f"{round(linear + attention, 1):.1f}" == f"{total:.1f}" else
                 ", each rounded on its own, so they add to "
                 f"{round(linear + attention, 1):.1f}%")
        text = (f"One step took {self.wall_seconds * 1e3:.1f} ms under the profiler{label}: matmuls "
                f"{total:.1f}% of it (the linear layers' {linear:.1f}%, the fused attention "
                f"kernels {attention:.1f}%{apart}), other ops {share[OTHER_ROW]:.1f}%, Python & dispatch "
                f"{share['Python & dispatch']:.1f}%.")
        if len(self.matmul_shares) < 4:
            return text + " One profiled step shows no spread, so no verdict on 'most of the step' is drawn."
        shares = self.printed_matmul_shares
        verdict = self.matmul_verdict()
        said = ("within noise of half: this run does not show whether matmuls take most of a step"
                if verdict.startswith("within noise") else
                "more than half, beyond that noise" if verdict.startswith("holds") else
                "less than half, beyond that noise")
        # each step's share and the ±'s sum are in the block (``steps_note``; t29_0001: length)
        return text + (f" Over {len(shares)} profiled steps the matmul share ran {shares[0]:.1f}% to "
                       f"{shares[-1]:.1f}% (± {self.matmul_spread:.1%}, half the middle half's range; each step's "
                       f"share in the block below): {said}.")

    def steps_note(self) -> str:
        """For the block: what the "other ops" row holds, and each profiled step's matmul share with the sum its
        ± is worked from, which ``split_sentence`` leaves out of the visible text."""
        text = f"{OTHER_OPS[0].upper()}{OTHER_OPS[1:]}."
        if len(self.matmul_shares) < 4:
            return text
        shares = self.printed_matmul_shares
        quarter = len(shares) // 4  # the middle half's ends, as ``claims.paired_spread`` takes them
        return text + (f" The matmul share of each profiled step: {', '.join(f'{x:.1f}%' for x in shares)}; its "
                       f"± {self.matmul_spread:.1%} is half the middle half's range, ({shares[-1 - quarter]:.1f} - "
                       f"{shares[quarter]:.1f}) / 2; the table is the median step.")

    @property
    def note(self) -> str:
        """How the categories were measured, in one sentence for the lesson's collapsed block."""
        if self.time_source == HOST_TIME:
            return ("One step after one untimed warm-up. Python & dispatch: the step's wall time minus every "
                    "operator's self time.")
        return ("One step after one untimed warm-up. Categories from GPU kernel time (each operator's device "
                "self time); Python & dispatch: the step's wall time in which the GPU ran none of its kernels.")


# What kineto (the profiler's C++ library) writes to the process's stderr as a profile starts and stops:
# "USDT:2026-12-04 01:26:15 11841:11841 SyncActivityProfilerHandler.cpp:52] profiler_start". Its
# KINETO_LOG_LEVEL would hide it only when set before the first profile, and would hide kineto's errors too.
# In a worker process forked from a notebook, kineto also says, harmlessly, "ERROR: External init callback must
# run in same thread as registerClient" as its first profile starts (lab 08 profiles a launched worker).
NOTICE = re.compile(r"^(USDT:.*\] profiler_(start|stop)|ERROR: External init callback must run in same thread "
                    r"as registerClient .*)\s*$")


@contextlib.contextmanager
def without_profiler_notices():
    """Run the block with file descriptor 2 (C-level stderr) written to a temporary file, then restore it and
    re-emit every captured line except kineto's start/stop notices: real errors still reach the reader."""
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile() as captured:
        os.dup2(captured.fileno(), 2)
        try:
            yield
        finally:
            _flush_c_stdio()
            os.dup2(saved, 2)
            os.close(saved)
            captured.seek(0)
            lines = captured.read().decode(errors="replace").splitlines(keepends=True)
            kept = "".join(line for line in lines if not NOTICE.match(line))
            if kept:
                sys.stderr.write(kept)
                sys.stderr.flush()


def _flush_c_stdio() -> None:
    """fflush(NULL): push out anything the C library still buffers for the captured descriptor."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None).fflush(None)


def _is_one_of(op_name: str, kinds: tuple[str, ...]) -> bool:
    name = op_name.removeprefix("aten::")
    return any(name == m or name.startswith(m) or f"_{m}" in name for m in kinds)


def category(op_name: str) -> str:
    return "matmul" if _is_one_of(op_name, MATMUL_OPS) else "memory-bound"


def is_attention(op_name: str) -> bool:
    """A fused attention kernel (counted in "matmul", and apart by ``StepProfile.attention_seconds``)."""
    return _is_one_of(op_name, ATTENTION_OPS)


def _aten_self_times(prof, device_time: bool) -> dict[str, tuple[float, int]]:
    """Self time (seconds) and calls of every aten op: host time, or device time on a GPU."""
    out = {}
    for e in prof.key_averages():
        if not e.key.startswith("aten::"):
            continue
        us = e.self_device_time_total if device_time else e.self_cpu_time_total
        out[e.key] = (us / 1e6, e.count)
    return out


def profile_step(step, trace_dir: str | Path, device: str = "cpu",
                 name: str = "01_why_slow_step", steps: int = 1) -> StepProfile:
    """Profile ``steps`` calls of ``step`` (after one untimed warm-up), each in its own profiler session, and
    keep the one whose matmul share is the median (its table, top ops and Chrome/Perfetto trace); the shares
    of all of them say how much one profiled step's split varies (``matmul_shares``)."""
    on_gpu = str(device).startswith("cuda")
    step()  # warm-up: the first call allocates and picks kernels
    # the same step without the profiler, just before: what recording every op adds is the difference
    unprofiled = bench.measure(step, warmup=0, repeats=UNPROFILED, device=device).min
    runs = sorted((_profile_once(step, device, on_gpu) for _ in range(steps)), key=_matmul_share)
    # the median share (the lower middle of an even count)
    prof, wall, timed, by_category = runs[len(runs) // 2]
    trace = Path(trace_dir) / f"{name}.json"
    trace.parent.mkdir(parents=True, exist_ok=True)
    prof.export_chrome_trace(str(trace))
    busy, idle = _gpu_busy_idle(prof) if on_gpu else (None, None)
    top = sorted(((op, s, n) for op, (s, n) in timed.items()), key=lambda r: -r[1])[:10]
    attention = sum(seconds for op, (seconds, _) in timed.items() if is_attention(op))
    return StepProfile(wall, by_category, top, trace, busy, idle, DEVICE_TIME if on_gpu else HOST_TIME,
                       unprofiled, attention, tuple(_matmul_share(r) for r in runs))


def _profile_once(step, device: str, on_gpu: bool):
    """One profiled call of ``step``: (the profile, wall seconds, each aten op's self time, the categories)."""
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if on_gpu else [])
    with without_profiler_notices(), profile(activities=activities) as prof:
        start = time.perf_counter()
        step()
        if on_gpu:
            torch.cuda.synchronize(device)
        wall = time.perf_counter() - start
    timed = _aten_self_times(prof, device_time=on_gpu)  # where each op's time is spent: host, or GPU kernels
    busy = _gpu_busy_idle(prof)[0] if on_gpu else None
    return prof, wall, timed, categorise(timed, wall, busy)


def _matmul_share(run) -> float:
    """One profiled step's matmul share, worked from its matmul and wall ms as printed (one decimal), as the
    category table works the kept step's: so the list's median is the table's figure on every run (from the
    unrounded seconds, 64.54 / 86.06 ms read 75.0% beside a table's 64.5 / 86.1 = 74.9%)."""
    _, wall, _, by_category = run
    return claims.printed_ratio(by_category["matmul"], wall, 1, 1e-3)


def categorise(self_times: dict[str, tuple[float, int]], wall: float, gpu_busy: float | None = None
               ) -> dict[str, float]:
    """Seconds of the step by category, from each aten op's (seconds, calls) of self time.

    On a CPU (``gpu_busy`` None), host self time: matmul ops, every other op, and the rest of the wall time,
    Python & dispatch. On a GPU, device self time: matmul kernels; every other kernel (``gpu_busy``, the
    kernels' time with overlaps merged, minus the matmuls); and the wall time in which no kernel ran."""
    matmul = sum(seconds for op, (seconds, _) in self_times.items() if category(op) == "matmul")
    if gpu_busy is None:
        other = sum(seconds for op, (seconds, _) in self_times.items() if category(op) != "matmul")
    else:
        other = max(0.0, gpu_busy - matmul)
    return {"matmul": matmul, "memory-bound": other, "Python & dispatch": max(0.0, wall - matmul - other)}


def _gpu_busy_idle(prof) -> tuple[float, float]:
    """Kernel time on the GPU and the gaps between kernels over the step's span there (seconds)."""
    kernels = sorted((e.time_range.start, e.time_range.end) for e in prof.events()
                     if e.device_type == torch.autograd.DeviceType.CUDA)
    if not kernels:
        return 0.0, 0.0
    busy, end = 0.0, kernels[0][0]
    for s, e in kernels:  # merge overlapping kernels (streams) so no time is counted twice
        busy += max(0, e - max(s, end))
        end = max(end, e)
    span = end - kernels[0][0]
    return busy / 1e6, (span - busy) / 1e6


def retimed_sentence(section1_seconds: float, here_seconds: float, rounds: list[float] | None = None) -> str:
    """Section 4's two timings of one step, each under its own name: section 1's median of its rounds' fastest
    (``section1_seconds``), in ms to two decimals as section 1's table prints it, beside this section's fastest
    unprofiled step (one decimal), and the move between them worked from the two figures as printed (reader
    t10_0001: "75.9 ms" beside section 1's "75.95 ms"). One pair of timings does not say how far a moment moves
    a step (reader t18_0001: "-0%" beside rounds 78.61 to 93.43 ms): section 1's ``rounds`` (each round's
    fastest, in seconds) do, so their range is named, and where this step lies against it."""
    before, here = claims.as_printed(section1_seconds * 1e3, 2), claims.as_printed(here_seconds * 1e3, 1)
    moved = claims.half_up(here / before - 1, 3)
    said = (f"Section 1 timed the same step at {before:.2f} ms (the median of its rounds' fastest, at another "
            f"moment); the {here:.1f} ms here is the fastest of this section's own steps: {moved:+.1%} from it.")
    if not rounds:
        return said + " One pair of timings: it does not say how far a moment moves one step's time."
    return said + " " + _rounds_range_said(here, [claims.as_printed(r * 1e3, 2) for r in rounds])


def rounds_range(rounds: list[float], alone_ms: float | None = None) -> tuple:
    """How far a moment moves one step: the range of its unprofiled timings, each as printed: section 1's
    ``rounds`` (each round's fastest, seconds; ms to two decimals) and, where given, this section's unprofiled
    step (``alone_ms``, one decimal). Reader t23_0001 #6: "+15.5% a moment moves one step" (105.62 / 91.48 ms)
    beside an unprofiled 85.2 ms of the same step, +24.0% from the slowest round. Returns (fastest ms, slowest
    ms, the slowest over the fastest less one to a tenth of a percent, the two as printed "85.2" and "105.62",
    the rounds' own fastest and slowest ms, whether the unprofiled step widens the range)."""
    shown = [(claims.as_printed(r * 1e3, 2), f"{claims.as_printed(r * 1e3, 2):.2f}") for r in rounds]
    own = (min(shown)[0], max(shown)[0])
    if alone_ms is not None:
        shown.append((alone_ms, f"{alone_ms:.1f}"))
    (fastest, fast_text), (slowest, slow_text) = min(shown), max(shown)
    wider = (fastest, slowest) != own
    return fastest, slowest, claims.half_up(slowest / fastest - 1, 3), fast_text, slow_text, own, wider


def _overhead_against_rounds(added: float, moment: tuple[float, float, float], profiled_ms: float) -> str:
    """What a profiled step's move over the unprofiled one (``added``, % as printed) says about the profiler's
    cost, set against how far a moment moves one step (``rounds_range``): a move inside that range may be a
    moment's, so this run cannot tell the recording's cost; only a slowdown past it shows the recording's.
    The range is quoted as a ratio only (reader t20_0001: "+7.0% within ... 77.86 to 84.28 ms" read as a span
    of ms that the profiled 85.2 ms lies outside); where the profiled ms lies outside the rounds, it says so."""
    _, _, spread, fast_text, slow_text, (fastest, slowest), wider = moment
    spread_pct = claims.half_up(spread * 100, 1)
    # the unprofiled step is a timing of the same step at another moment: where it lies outside the rounds,
    # the range counts it (else "+15.5%" sits beside a step 24.0% faster than the slowest round)
    whose = "section 1's rounds and the unprofiled step here" if wider else "section 1's rounds"
    moves = (f"the {spread_pct:+.1f}% a moment moves one step ({whose}: the slowest over the fastest, "
             f"{slow_text} / {fast_text} ms{_profiled_beside_rounds(profiled_ms, fastest, slowest)})")
    shares = ("read its shares, not its times, and compare a profiled step only with another profiled one.")
    if abs(added) <= spread_pct:
        return (f"That {added:+.1f}% is within {moves}: this run cannot tell what recording every op costs from "
                f"a moment's move. The table's ms are a profiled step's all the same: {shares}")
    if added < 0:  # the profiler cannot speed a step up: the two steps met different moments
        return (f"The profiled step ran faster than the unprofiled one, by more than {moves}: the profiler "
                "cannot speed a step up, so the two met different moments of the machine and this run cannot "
                "tell what recording every op costs. Read the table's shares, not its ms.")
    # t29_0001: "past the +5.7% a moment moves one step (...), more than a moment moves a step" said it twice
    return (f"That {added:+.1f}% is past {moves}: recording every op adds time "
            f"here, inside the ops and between them, so the table's ms are a profiled step's: {shares}")


def _profiled_beside_rounds(profiled_ms: float, fastest: float, slowest: float) -> str:
    """Where the profiled step (ms as printed) lies against section 1's rounds, said only where it lies outside
    them: a ratio within the rounds' spread does not put the step's ms within their span."""
    if profiled_ms > slowest:
        return f"; the profiled {profiled_ms:.1f} ms lies above every round, {slowest:.2f} ms at most"
    if profiled_ms < fastest:
        return f"; the profiled {profiled_ms:.1f} ms lies below every round, {fastest:.2f} ms at least"
    return ""


def _rounds_range_said(here: float, shown: list[float]) -> str:
    """How far a moment moves one step's time, from section 1's rounds as its table prints them (ms), and where
    this section's step (ms, as printed) lies against their range."""
    fastest, slowest = min(shown), max(shown)
    spread = claims.half_up(slowest / fastest - 1, 3)
    where = ("inside that range" if fastest <= here <= slowest else
             "below that range: faster than every round" if here < fastest else
             "above that range: slower than every round")
    said = (f"How far a moment moves one step's time is section 1's range of rounds: {fastest:.2f} to "
            f"{slowest:.2f} ms, the slowest {spread:+.1%} over the fastest; this step lies {where}.")
    if fastest <= here <= slowest:
        return said
    # outside the rounds, this step widens how far a moment moves the step: say by how much (t23_0001 #6)
    low, high = (f"{here:.1f}", f"{slowest:.2f}") if here < fastest else (f"{fastest:.2f}", f"{here:.1f}")
    whole = claims.half_up(float(high) / float(low) - 1, 3)
    return said + (f" Counting it, the same step took {low} to {high} ms, the slowest {whole:+.1%} over the "
                   "fastest: a moment moves it that far.")
