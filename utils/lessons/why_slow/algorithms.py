"""Algorithm efficiency (lesson 01, section 5): the same result from three rewrites (GELU's two ways: by
hand and compiled), each measured.

1. Attention written out (scores T x T in memory, mask, softmax, weighted sum) against
   ``F.scaled_dot_product_attention``, which computes it in tiles without storing the T x T scores.
2. A Python loop over rows against the vectorised call: the same FLOPs, one interpreter round-trip per row.
3. GELU op by op (nine elementwise kernels over the whole tensor, 22 whole-tensor reads and writes among them,
   as ``count_passes`` finds with the profiler) against the fused ``F.gelu`` (one read, one write) and against
   what ``torch.compile`` generates from the op-by-op code.
"""

from __future__ import annotations

import math
import statistics
import time
from dataclasses import dataclass

import torch
import torch.nn.functional as F

from utils import bench, claims


def naive_attention(q, k, v):
    """Causal attention as the formula reads: softmax(q kᵀ / sqrt(D) + mask) v. q, k, v: (B, H, T, D)."""
    T = q.shape[-2]
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])  # (B, H, T, T): T² numbers per head, stored
    mask = torch.ones(T, T, dtype=torch.bool, device=q.device).triu(1)  # True above the diagonal: the future
    scores = scores.masked_fill(mask, float("-inf"))
    return torch.softmax(scores, dim=-1) @ v  # (B, H, T, D)


def fused_attention(q, k, v):
    """The same result from one call: tiles of the scores live in the cache (registers, shared memory on a
    GPU) and the masked half is skipped, so neither the T x T matrix nor its traffic exists."""
    return F.scaled_dot_product_attention(q, k, v, is_causal=True)


def softmax_rows_loop(x):
    """Softmax of each row, one Python iteration per row: (rows, cols) -> (rows, cols)."""
    return torch.stack([torch.softmax(row, dim=0) for row in x])


def gelu_op_by_op(x):
    """GELU (tanh form) as nine separate elementwise ops (0.044715*x, *x, *x, x+, sqrt(2/pi)*, tanh,
    1+, 0.5*x, the last product): each reads the whole tensor (twice where both operands are
    tensors) and writes it."""
    inner = x + 0.044715 * x * x * x
    return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * inner))


@dataclass(frozen=True)
class PassCount:
    """What one call does to a tensor of n elements, as torch.profiler records it (``count_passes``)."""

    kernels: int  # operators over the whole tensor: one kernel launch and one pass over memory each
    transfers: int  # their whole-tensor reads and writes: inputs of the tensor's shape, one output each
    others: int  # the other operators recorded: a Python float made a one-element tensor (no bytes of it)


def count_passes(fn, x) -> PassCount:
    """Profile one call ``fn(x)`` (CPU-side operators, the same on every device) and count its passes over
    ``x``'s shape: the top-level operators with an input of that shape, each writing one result of it."""
    from torch.profiler import ProfilerActivity, profile

    from utils.lessons.why_slow.profile import without_profiler_notices

    with without_profiler_notices(), profile(activities=[ProfilerActivity.CPU], record_shapes=True) as prof:
        fn(x)
    events = list(prof.events())
    shape = list(x.shape)
    whole = [e for e in events if e.cpu_parent is None and shape in e.input_shapes]
    transfers = sum(e.input_shapes.count(shape) + 1 for e in whole)  # the inputs of x's shape, and the result
    return PassCount(len(whole), transfers, len(events) - len(whole))


def gelu_fused(x):
    return F.gelu(x, approximate="tanh")  # one kernel, one read, one write


# Two fp32 results are "the same result" when no element differs by more than this (absolute): torch.testing's
# default atol for float32, a tolerance the course adopts (rounding in another order of operations stays
# under it)
SAME_RESULT = 1e-5


@dataclass(frozen=True)
class Comparison:
    what: str
    slow: str
    fast: str
    slow_seconds: float
    fast_seconds: float
    max_difference: float  # the two results agree to this (absolute)
    note: str = ""
    round_ratios: tuple[float, ...] = ()  # slow / fast in each interleaved round: the pair's noise
    ceiling: float | None = None  # bytes before / bytes after (``bytes_ceiling``), where the pair cuts bytes
    no_ceiling: str = ""  # where it has none: why bytes do not bound this pair's speed-up

    @property
    def same_result(self) -> bool:
        """Whether the results agree within ``SAME_RESULT``, judged on the difference as printed (1 digit)."""
        return float(f"{self.max_difference:.0e}") <= SAME_RESULT

    @property
    def fastest_ratio(self) -> float:
        """Slow over fast, worked from the two fastest times as printed (``printed_ms``): the reader's own
        division of the times the details print. Not the speed-up: the two fastest times need not come from one
        round, and no spread is measured around their ratio, so no ± is printed beside it."""
        return printed_ms(self.slow_seconds) / printed_ms(self.fast_seconds)

    @property
    def speedup(self) -> float:
        """``fastest_ratio`` by its older name: lesson 09's rows B4 and B14 read it as the fastest times' ratio."""
        return self.fastest_ratio

    @property
    def median(self) -> float:
        """The speed-up: the median of the rounds' own ratios (slow over fast within one round), each as the
        details print it (two decimals), rounded half up as a reader redoes it; the figure ``spread`` is
        measured around and the verdict reads (reader t28_09 #5: "2.90x ± 0.81" set a ± beside the fastest
        times' ratio, while its rounds' median was 3.43x). With no rounds kept, ``fastest_ratio`` as printed."""
        if not self.round_ratios:
            return claims.as_printed(self.fastest_ratio, 2)
        return claims.half_up(statistics.median(claims.as_printed(r, 2) for r in self.round_ratios), 2)

    @property
    def spread(self) -> float:
        """How far the rounds' ratios spread around ``median`` (``claims.printed_spread``, from the rounds as
        printed: half the middle half's range from 4 rounds on, half the whole range for 2 or 3, 0.0 for one)."""
        return claims.printed_spread(list(self.round_ratios))

    @property
    def verdict(self) -> str:
        """The course's words for this speed-up (``median``), its noise included, beside its bytes ceiling where
        it has one (``claims.speedup_verdict``, on the figures as printed): a ceiling is never "holds"."""
        ceiling = claims.as_printed(self.ceiling, 2) if self.ceiling else None
        said = claims.speedup_verdict(self.median, ceiling, self.spread, slower=f"not faster than {self.slow}")
        return said + self.gain_range() if said.endswith("of its gain") else said

    @property
    def middle_half(self) -> tuple[float, float] | None:
        """The ends of the rounds' middle half, each round as the details print it (``claims.middle_half``:
        with 5 rounds, the second lowest and the second highest ratio): the rounds the ± is worked from, and a
        range that never leaves them. None where no rounds were kept."""
        if not self.round_ratios:
            return None
        return claims.middle_half([claims.as_printed(r, 2) for r in self.round_ratios])

    @property
    def disturbed(self) -> bool:
        """Whether the rounds disagree: the fastest times' ratio (as printed) and the speed-up printed, the
        rounds' median, differ by more than ``DISAGREE_EDGE`` of the smaller, so the rounds did not slow both
        versions alike and the speed-up is known only as the range between the two (``known_range``). Tested
        against the median, not the middle half (reader t34_0001 #1: gelu_fused's 2.80x lay inside a wide middle
        half, 2.10x-3.49x, while its median, 3.20x, was a round in which the op-by-op, timed once for both GELU
        pairs, ran at least 1.14x its fastest; the compiled pair, dividing the same times, was flagged). A ratio
        past the middle half by more than the edge is past the median by more (t33_0001 #1); one within the
        edge of the median is noise (t33_0001 #2: 1.02x-1.05x slowdowns are noise in every other section)."""
        if not self.round_ratios:
            return False
        fastest = claims.as_printed(self.fastest_ratio, 2)
        return fastest * (1 + DISAGREE_EDGE) < self.median or fastest > self.median * (1 + DISAGREE_EDGE)

    @property
    def known_range(self) -> tuple[float, float] | None:
        """The one range this pair's speed-up is printed with, everywhere (table, sentences, claims rows,
        payback): the rounds' middle half; where the rounds disagree (``disturbed``), the range between the
        fastest times' ratio and the median, which is all that is known. None where no rounds were kept."""
        if not self.disturbed:
            return self.middle_half
        return tuple(sorted((claims.as_printed(self.fastest_ratio, 2), self.median)))

    def gain_range(self) -> str:
        """The share of the ceiling's gain at the two ends of ``known_range`` (``gain_share_span``), so that one
        share is not read more exactly than its rounds measured it (reader t10_0001: "40% of its gain" beside
        5.04x ± 1.56 and 11.00x runs from 25% to 56%). Not median ± spread: with skewed rounds (2.60, 2.73,
        2.82, 4.53, 5.33) 2.82x - 0.90 = 1.92x lies below every round (reader t32_0001 #1). Where the rounds
        disagree, the range between the fastest times' ratio and the median (reader t33_0001 #1: not a middle
        half the details overturn). "" where the ends give one printed share."""
        ends = self.known_range
        if not ends or not self.ceiling:
            return ""
        named = KNOWN_ONLY if self.disturbed else MIDDLE_HALF
        return gain_share_span(*ends, claims.as_printed(self.ceiling, 2), named=named)

    @property
    def faster(self) -> bool:
        """Faster beyond noise, whatever it says of the ceiling (under it, at it, or above it: a finding)."""
        return not self.verdict.startswith(("within noise", "not faster"))


MIDDLE_HALF = "across its rounds' middle half"  # how a range worked from ``Comparison.middle_half`` is named
KNOWN_ONLY = "as far as is known: its rounds disagree"  # a range from the fastest times' ratio to the median
# how far the fastest times' ratio may lie outside the middle half and still be noise: the 10% one noisy
# median may miss by, the edge lesson 01's sections 3 and 6 read a miss to (``line_check.EDGE``)
DISAGREE_EDGE = 0.10


def gain_share_span(low: float, high: float, ceiling: float, baseline: float = 1.0,
                    named: str = MIDDLE_HALF) -> str:
    """The share of a ceiling's gain at two speed-ups as printed, ``low`` and ``high`` (the ends of the rounds'
    middle half), each rounded half up as a reader works it: " (17%-35% across its rounds' middle half)" for
    2.73x and 4.53x under 11.00x (``named``: how the range is named). The high end is at most 100 % (past it the verdict reads "at the bound"); a
    low end under 0 % is printed signed, with what it means (a round under 1x). "" where both ends print the
    same share."""
    gain = ceiling - baseline
    low_share, high_share = (low - baseline) / gain, min((high - baseline) / gain, 1.0)
    if claims.printed_percent(low_share) < 0:
        return (f" ({claims.signed_percent(low_share)} to {claims.percent(high_share)} {named}, which "
                f"reaches below {baseline:g}x)")
    low_shown, high_shown = claims.percent(min(max(low_share, 0.0), 1.0)), claims.percent(high_share)  # -0.4%: 0%
    return f" ({low_shown}-{high_shown} {named})" if low_shown != high_shown else ""


def printed_ms(seconds: float) -> float:
    """A time as section 5's tables print it, in ms to three significant figures ("3.55 ms")."""
    return claims.as_printed_sig(seconds, 3, scale=1e-3)


def bytes_ceiling(bytes_before: float, bytes_after: float) -> float:
    """The most a memory-bound op can gain from moving fewer bytes: its time is bytes over bandwidth, so
    cutting them from ``bytes_before`` to ``bytes_after`` divides it by at most their ratio (22 whole-tensor
    reads and writes cut to 2: at most 11x). A ceiling, never a promise: the op may meet another limit first."""
    return bytes_before / bytes_after


def compare(what, slow, fast, args, device, repeats=5, note="", ceiling=None, no_ceiling="") -> Comparison:
    """Time ``slow(*args)`` and ``fast(*args)`` interleaved round by round (a busy machine slows both alike)
    and check they agree; times are the fastest round of each, the speed-up the median of the rounds' own
    ratios (``Comparison.median``). ``ceiling``: the pair's ``bytes_ceiling``, or
    None with ``no_ceiling`` saying why bytes do not bound it."""
    return compare_all(what, slow, [fast], args, device, repeats, note, ceiling, no_ceiling)[0]


def compare_all(what, slow, fasts, args, device, repeats=5, note="", ceiling=None,
                no_ceiling="") -> list[Comparison]:
    """``compare`` for several fast versions of ``slow``, all timed in the same rounds: one time for ``slow``,
    set beside each of them (timed in separate rounds, the slow version's own time varies with the allocator's
    state and the machine's load, and two rows would disagree about it). ``note``: one for all, or one each;
    ``ceiling`` the same (one number for all, or a list)."""
    notes = [note] * len(fasts) if isinstance(note, str) else list(note)
    ceilings = list(ceiling) if isinstance(ceiling, (list, tuple)) else [ceiling] * len(fasts)
    gaps = [(slow(*args).float() - fast(*args).float()).abs().max().item() for fast in fasts]
    times: list[list[float]] = [[] for _ in range(len(fasts) + 1)]
    for _ in range(repeats):
        for samples, fn in zip(times, [slow, *fasts]):
            samples.append(bench.measure(lambda: fn(*args), warmup=1, repeats=1, device=device).min)
    return [Comparison(what, slow.__name__, fast.__name__, min(times[0]), min(t), gap, said,
                       tuple(a / b for a, b in zip(times[0], t)), bound, "" if bound else no_ceiling)
            for fast, t, gap, said, bound in zip(fasts, times[1:], gaps, notes, ceilings)]


def attention_inputs(batch, heads, tokens, head_dim, device="cpu", seed=0):
    g = torch.Generator().manual_seed(seed)
    return tuple(torch.randn(batch, heads, tokens, head_dim, generator=g).to(device) for _ in range(3))


def compile_gelu(x) -> tuple[object, float]:
    """``torch.compile(gelu_op_by_op)`` and the seconds its first call took (tracing, code generation, the
    C++ or Triton compiler): what fusion by compiler costs before it saves anything."""
    compiled = torch.compile(gelu_op_by_op)
    start = time.perf_counter()
    compiled(x)
    if x.is_cuda:
        torch.cuda.synchronize(x.device)
    return compiled, time.perf_counter() - start
