"""Lesson 08's ladder: the baseline, then each step the decision guide chose, every one a small change of the
training script's settings, run in the same notebook, each with its own bound.

    rung = next_rung("precision", kept, steps, peaks, feeding_bound, vocab)   # the step on what was kept
    c = compare(kept, rung)         # both launched with utils.launch in alternating rounds; c.gain, c.bound

A step is kept when it paid beyond the noise of its paired rounds (``paid``: the median less the rounds' spread
above 1x, and more than half of the rounds above 1x); compile also when the run pays back its compile. The
next step builds on the steps kept so far.

The bounds, one per step, from theory or the machine profile of this run:
- feeding: (L + C) / max(L, C), lesson 05's, with L the time to load a step's batch and C its compute;
- precision: Amdahl's bound 1/((1 - f) + f/r), with f the matmuls' share of the profiled step and r the
  low-precision matmul peak over the fp32 one (the machine profile): only the matmuls speed up;
- compile: Amdahl's again: fusion shortens at most the time outside the matmuls, so at best 1/f', f' the kept
  step's MFU (its matmuls' FLOPs at the kept precision's peak per worker over its measured time); kept only
  when it also pays back its measured compile in the run (break-even, ``guide.compile_step``);
- optimizer: Amdahl's with the whole AdamW step taken off: 1/(1 - O/T), O the for-loop AdamW's seconds and T
  the kept step's, both from the kept step's paired runs (on a GPU O from the profile): precision and compile
  leave O as it was and shrink T;
- two devices: the number of workers (DDP: each does half the work, nothing may beat N);
- memory: the bigger batch can at most reach the matmul peak: peak x workers / FLOPs per token.
"""

from __future__ import annotations

import contextlib
import dataclasses
import math
import os
import tempfile
import time
from dataclasses import dataclass, field

from utils import claims
from utils.bench import alternate
from utils.lessons.putting_it_together import allreduce_fit, core_share, guide, peaks
from utils.lessons.putting_it_together.guide import amdahl
from utils.lessons.putting_it_together.script import Settings, train
from utils.lessons.putting_it_together.step_memory import peak_of, step_peak  # noqa: F401  (the notebook's ladder.step_peak)

# What each setting turns on in the script: the diff a learner reads, one line each.
CODE = {
    "loader_workers": "DataLoader(..., num_workers={v}, persistent_workers=True, prefetch_factor=4)",
    "precision": "with torch.autocast(device.type, torch.{dtype}): loss = model(x, y)[1]",
    "compile": "for block in model.blocks: block.compile()  # regional: one graph, reused by every block",
    "fused_adamw": "optimizer = torch.optim.AdamW(model.parameters(), lr=lr, fused=True)",
    "batch_per_worker": "batch_per_worker = {v}  # sequences per worker per step",
    "checkpointing": "apply_activation_checkpointing(model, check_fn=lambda m: isinstance(m, Block))",
}


@dataclass(frozen=True)
class Rung:
    name: str  # baseline, feeding, precision, compile, two devices, memory
    settings: Settings
    workers: int
    bound: float | None  # x the step before; None: no bound from theory (said so)
    bound_what: str
    skipped: str = ""  # why the step is not run here ("" when it runs)
    same_maths: bool = True  # False: the step changes what is computed (a bigger batch)
    removes_s: float | None = None  # the seconds a step the rung can remove at most (Amdahl, ``Compared``)


def diff(before: Settings, after: Settings, workers_before: int = 1, workers: int = 1) -> list[str]:
    """The lines of the script one step changes (CODE), and the launch's worker count."""
    lines = []
    for f in dataclasses.fields(Settings):
        old, new = getattr(before, f.name), getattr(after, f.name)
        if old != new and f.name in CODE:
            dtype = {"bf16": "bfloat16", "fp16": "float16"}.get(str(new), "")
            lines.append("+ " + CODE[f.name].format(v=new, dtype=dtype))
    if workers != workers_before:
        lines.append(f"+ launch(train, settings, nprocs={workers})  # torchrun --nproc-per-node {workers}")
    return lines


def flops_per_token(s: Settings, vocab: int) -> float:
    """Training FLOPs per token: 6 x the weights a token passes through, plus attention's 12·L·T·C."""
    block = 12 * s.width**2 + 13 * s.width
    weights = s.depth * block + s.width * vocab
    return 6 * weights + 12 * s.depth * s.context * s.width


def printed_mfu(tokens_per_s: float, step_flops: float, step_tokens: int, peak: float, workers: int) -> float:
    """Model FLOPs utilisation worked from its operands as the page prints them, so a reader's division gives
    the printed MFU: the tokens/s whole, the profiled step's GFLOP to 4 figures over its tokens (section 2's
    "20.36 GFLOP", a step of 16 x 64 tokens), over the peak to 0.1 GFLOP/s times the workers ("2 x 223.2")."""
    gflop_a_token = guide.printed_gflop(step_flops) / step_tokens
    return claims.half_up(tokens_per_s, 0) * gflop_a_token / (claims.as_printed(peak, 1, 1e9) * workers)


# Compile comes last: each change after it would compile again in every launch (a new graph), so the settled
# script is compiled once (TorchTitan, too, compiles the model after its other transformations).
ORDER = ("feeding", "precision", "optimizer", "two devices", "memory", "compile")


def compile_bound(kept_mfu: float | None, precision: str = "fp32") -> tuple[float | None, str]:
    """Amdahl's bound on fusion: it shortens at most the time outside the matmuls. The matmuls' share f' of
    the kept step is at least their FLOPs at the kept precision's peak (per worker) over the kept step's
    measured time: the kept step's MFU; the bound is 1/f'. None without a measured MFU."""
    if not kept_mfu or not math.isfinite(kept_mfu) or kept_mfu <= 0:
        return None, "none from theory: the kept step's MFU is unknown"
    if peaks.beaten(kept_mfu):   # the kept step beat its peak: a share of it above 100% bounds nothing
        return None, f"none: the kept step's MFU, {claims.as_printed(kept_mfu, 3):.1%}, is above 100%, so its peak is no ceiling"
    share = claims.as_printed(kept_mfu, 3)   # as printed (34.9%), at most 100% (not beaten): the bound 1 over it
    bound = claims.printed_ratio(1, share, digits=3)
    # A loose ceiling, said so on the page: everything but the matmuls at their peak counts as removable,
    # including what regional compile leaves eager (embedding, loss, optimizer, head, two workers' all-reduce).
    return bound, (f"Amdahl: it counts as removable everything in the kept step but its matmuls at the "
                   f"{precision} peak, which take {share:.1%} of the step's measured time (its MFU): at "
                   f"most {bound:.2f}x (one over that share), the step cut to those matmuls. A loose "
                   f"ceiling: the other {1 - share:.1%} it counts as removable holds the matmuls' own "
                   "time beyond their peak and what regional compile leaves eager (the embedding, the "
                   "loss, the optimizer, the head and, with two workers, the all-reduce)")


def next_rung(name: str, kept: Rung, guide_steps: dict, peaks: dict[str, float], feeding_bound: float,
              vocab: int, max_growth: int = 8, matmul_share: float = 1.0,
              optimizer_s: float | None = None, matmul_speedup: float | None = None,
              kept_mfu: float | None = None, profile: guide.Profile | None = None) -> Rung:
    """The step ``name`` applied to the steps kept so far (``kept``), with its bound; or a skipped rung that
    says why. ``peaks``: matmul FLOP/s per dtype on one thread (the machine profile); ``matmul_share``: the
    matmuls' share of the profiled step (1.0: the peak ratio alone); ``optimizer_s``: the for-loop AdamW
    step's seconds (the profile's, optimizer's bound); ``matmul_speedup``: how many times faster the step's
    matmuls run at the low-precision peak (their measured fp32 time over their FLOPs there,
    ``guide.Profile``; None: the probes' peak ratio); ``kept_mfu``: the kept step's measured MFU (compile's
    bound); ``profile``: the profiled step, whose matmul FLOPs give precision's bound as the guide prints it
    (``guide.precision_bound``: one figure on every line). Compile runs when the guide could not judge it without a measured compile ("measure first"):
    the run measures it."""
    step, s, workers = guide_steps[name], kept.settings, kept.workers
    if not step.applies and step.choice != guide.MEASURE:
        return Rung(name, s, workers, None, "", skipped=step.why)
    if name == "feeding":
        return Rung(name, s.scaled(loader_workers=1), workers, feeding_bound,
                    "(L + C) / max(L, C), lesson 05")
    if name == "precision":
        low = "bf16" if "bf16" in step.choice else "fp16"
        if guide.precision_bound(profile) is not None:   # the guide's bound, from its printed terms
            t, _, outside, _, _, at_low = guide.precision_terms(profile)
            return Rung(name, s.scaled(precision=low), workers, guide.precision_bound(profile),
                        f"Amdahl: T/((1 - f)T + FLOPs/peak) = {t:.1f}/({outside:.1f} + {at_low:.1f}), the "
                        f"guide's terms (the step and its matmuls from section 2's table, their FLOPs at the "
                        f"{low} peak; an estimate: the casts and the other parts can change too)")
        # the share and the ratio as printed: the bound is Amdahl's of the two figures on the page
        share = claims.as_printed(min(1.0, matmul_share), 3)
        ratio = claims.as_printed(matmul_speedup or peaks.get(low, math.nan) / peaks["fp32"], 2)
        what = f"{low}/fp32 matmul peak (machine profile)" if share >= 1 else \
            f"Amdahl: matmuls {share:.1%} of a step at the {low}/fp32 peak ratio {ratio:.2f}x" \
            if not matmul_speedup else (f"Amdahl: matmuls {share:.1%} of a step, {ratio:.2f}x faster at "
                                        f"the {low} peak than their measured fp32 time (an estimate: the "
                                        "casts and the other parts can change too)")
        return Rung(name, s.scaled(precision=low), workers, amdahl(share, ratio), what)
    if name == "compile":
        bound, what = compile_bound(kept_mfu, s.precision)
        return Rung(name, s.scaled(compile=True), workers, bound, what)
    if name == "optimizer":
        if not optimizer_s:
            return Rung(name, s, workers, None, "", skipped="the AdamW step was not timed apart: no bound")
        return Rung(name, s.scaled(fused_adamw=True), workers, None, "Amdahl: 1/(1 - O/T), the for-loop "
                    "AdamW's seconds O taken off the kept step's T at most (T shrank with the steps kept before "
                    "it, O did not: a larger bound than the guide's, which used the baseline's T)",
                    removes_s=optimizer_s)
    if name == "two devices":
        if not step.choice.startswith("DDP"):   # FSDP, or LoRA's DDP ("as memory says"): not this script's
            return Rung(name, s, workers, None, "", skipped=f"{step.choice}: the script runs DDP of full "
                        "training only; lessons 02, 06 and 07 run the others")
        n = int(step.choice.split(" over ")[1].split()[0])   # "DDP over 2"
        return Rung(name, s.scaled(batch_per_worker=max(1, s.batch_per_worker // n)), n, float(n),
                    f"{n} workers: DDP splits the same batch")
    grow = min(int(step.choice.rsplit("x", 1)[1]), max_growth) if "batch x" in step.choice else 1
    s = s.scaled(checkpointing=True, batch_per_worker=s.batch_per_worker * grow)
    peak = peaks.get(s.precision, peaks["fp32"]) * workers
    return Rung(name, s, workers, peak / flops_per_token(s, vocab), "tokens/s at the matmul peak (absolute)",
                same_maths=grow == 1)


@dataclass
class Compared:
    """A step run against the steps kept before it, in alternating rounds (before, step, before, step ...)."""

    rung: Rung
    kept: Rung  # the steps kept before it
    before: list[dict]  # rank 0's results of the kept settings, one per round
    after: list[dict]  # the step's

    @property
    def ratios(self) -> list[float]:
        return [a["tokens_per_s"] / b["tokens_per_s"] for b, a in zip(self.before, self.after)]

    @property
    def gain(self) -> float:
        return _median(self.ratios)

    @property
    def tokens_per_s(self) -> float:
        return _median([a["tokens_per_s"] for a in self.after])

    @property
    def unpaired(self) -> float:
        """The step's runs' median tokens/s over the kept runs' median: no round pairs them, so a busy moment
        that met one side tilts it; shown beside ``gain`` (the paired median, the figure every verdict reads)
        as the noisier of the two."""
        return self.tokens_per_s / _median([b["tokens_per_s"] for b in self.before])

    @property
    def removable_s(self) -> float:
        """The seconds the step can remove (the optimizer's): timed in the kept runs themselves where they
        report it (a CPU); else the profile's."""
        timed = [b["optimizer_s"] for b in self.before if not math.isnan(b.get("optimizer_s", math.nan))]
        return _median(timed) if timed else self.rung.removes_s

    @property
    def removable_runs(self) -> list[tuple[float, float]]:
        """Each kept run's (O, T) in ms as printed (1 decimal): its own AdamW time and its own step, the two
        seen under the same load; [] where the runs do not time AdamW (O is then the profile's)."""
        return [(claims.half_up(b["optimizer_s"] * 1e3, 1), claims.half_up(step_seconds(b, self.kept) * 1e3, 1))
                for b in self.before if not math.isnan(b.get("optimizer_s", math.nan))]

    @property
    def kept_step_ms(self) -> float:
        """T where O is the profile's: the kept runs' median step, in ms as printed (1 decimal)."""
        return claims.half_up(_median([step_seconds(b, self.kept) for b in self.before]) * 1e3, 1)

    @property
    def removable_share(self) -> float:
        """O/T: the removable time's share of the kept step, run by run (O and T of one run saw the same
        load), the median over the runs, each worked from its ms as printed (``removable_runs``: t32_0708,
        the page printed O/T without O or T); with O from the profile, over the runs' median step."""
        runs = self.removable_runs
        if runs:
            return _median([o / t for o, t in runs])
        return claims.half_up(self.rung.removes_s * 1e3, 1) / self.kept_step_ms

    @property
    def bound(self) -> float | None:
        """The bound as a factor over the step before (an absolute tokens/s bound divided by its rate)."""
        r = self.rung
        if r.removes_s:  # Amdahl with the removable seconds' share of the kept step, as printed: 1/(1 - O/T)
            share = claims.as_printed(self.removable_share, 3)
            return 1 / (1 - share) if share < 1 else None
        if r.bound and not r.same_maths:
            return r.bound / _median([b["tokens_per_s"] for b in self.before])
        return r.bound


def compare(kept: Rung, rung: Rung, rounds: int = 3, timeout: float = 180, cold_first: bool = False
            ) -> Compared:
    """Run the kept settings and the step in turn, ``rounds`` times: a busy moment slows both alike. The order
    alternates (before then step, step then before ...), so that whatever favours the first or the second
    launch of a pair cancels out. ``cold_first``: the step's launches compile into a new, empty inductor cache,
    the first cold (a first run on a new machine), the others warm from the kernels it compiled, on every
    machine alike (whatever earlier runs left in the default cache)."""
    first = [True]

    def step():  # a cold compile takes many times a warm one's seconds: it gets 4x the time limit
        limit = 4 * timeout if first[0] and cold_first else timeout
        first[0] = False
        return run_rung(rung, limit)
    with _empty_inductor_cache() if cold_first else contextlib.nullcontext():
        before, after = alternate(lambda: run_rung(kept, timeout), step, rounds)
    return Compared(rung, kept, before, after)


@dataclass
class Climb:
    """The ladder climbed step by step: ``climb.step(name)`` runs a step on the steps kept so far and keeps it
    when it paid (compile: when it also pays back its measured compile within ``run_steps``). The notebook
    calls it one step a cell; the ``capstone`` benchmark, in a loop. Beside each run: its held-out loss at
    step N, its MFU, and for a step not kept the measured reason (``why``)."""

    base: Rung
    steps: dict  # the decision guide's answer, by step name
    peaks: dict[str, float]  # matmul FLOP/s per dtype, one thread
    feeding_bound: float
    vocab: int
    max_growth: int = 8
    rounds: int = 3
    matmul_share: float = 1.0  # the profile's: precision's and compile's Amdahl bounds
    run_steps: int = 0  # the training run a compile must pay back in (0: judged by its gain alone)
    optimizer_s: float | None = None  # the profile's for-loop AdamW step: the optimizer step's bound
    matmul_speedup: float | None = None  # the matmuls' fp32 time over their FLOPs at the low peak (profile)
    profile: guide.Profile | None = None  # the profiled step: precision's bound as the guide prints it
    cold_compile: bool = True  # the compile step's first launch compiles into an empty inductor cache
    kept: Rung | None = None
    compared: dict = field(default_factory=dict)
    keep: dict = field(default_factory=dict)
    base_runs: list = field(default_factory=list)
    why: dict = field(default_factory=dict)  # by step: why it was not kept (compile: its break-even)
    brief: dict = field(default_factory=dict)  # by step: ``why`` in a few words, for the pages after section 4
    held_out: dict = field(default_factory=dict)  # by step and "baseline": held-out loss at step N
    mfu: dict = field(default_factory=dict)  # by step and "baseline": model FLOPs utilisation

    def step(self, name: str) -> Compared:
        kept = self.kept or self.base
        rung = next_rung(name, kept, self.steps, self.peaks, self.feeding_bound, self.vocab, self.max_growth,
                         self.matmul_share, self.optimizer_s, self.matmul_speedup,
                         self.mfu.get(self._kept_name()), self.profile)
        cold = self.cold_compile and name == "compile"
        c = Compared(rung, kept, [], []) if rung.skipped else \
            compare(kept, rung, self.rounds, cold_first=cold)
        self.compared[name] = c
        if not rung.skipped:
            if kept is self.base:
                self.base_runs.extend(c.before)
                self.measure("baseline", kept, self.base_runs[:1])  # the baseline's one figure: its first run
            self.measure(name, rung, c.after)
            c.rung = peaks.unbeaten(rung, self.mfu[name])   # no bound read off a peak this step beat
            self.keep[name], self.why[name] = self.verdict(c)
            # section 4 prints the reason in full once; the ledger, its table and the summary refer to it
            self.brief[name] = self.why[name] if paid(c.ratios) else brief_reason(c)
            self.kept = rung if self.keep[name] else kept  # the next step builds on what was kept
        return c

    def _kept_name(self) -> str:
        """The last step kept ("baseline" before any): its MFU is compile's f'."""
        kept = [n for n, k in self.keep.items() if k]
        return kept[-1] if kept else "baseline"

    def measure(self, name: str, rung: Rung, runs: list[dict]) -> None:
        """The run's held-out loss at step N (rank 0's weights, first run) and MFU (median tokens/s)."""
        if name not in self.held_out:
            self.held_out[name] = held_out_loss(runs[0], rung.settings)
        peak = self.peaks.get(rung.settings.precision, self.peaks["fp32"])
        tokens_per_s = _median([r["tokens_per_s"] for r in runs])
        step_tokens = self.base.settings.batch_per_worker * self.base.settings.context   # section 2's step
        self.mfu[name] = printed_mfu(tokens_per_s, flops_per_token(rung.settings, self.vocab) * step_tokens,
                                     step_tokens, peak, rung.workers)

    def verdict(self, c: Compared) -> tuple[bool, str]:
        """One rule for every step: kept when it paid beyond noise (``paid``); compile also when the run pays
        back its compile. Else the measured reason: slower, or within noise with its rounds."""
        if not paid(c.ratios):
            why = why_slower(c) if shown_slower(c) else within_noise(c.ratios)
            if c.rung.name == "compile":  # the break-even rule, printed in both branches
                why += "; " + compile_break_even(c, self.run_steps)
            return False, why
        if c.rung.name == "compile":
            payback = compile_payback(c, self.run_steps)
            cache = "an empty inductor cache (a first run on a new machine)" if self.cold_compile else \
                "inductor's cache as earlier runs on this machine left it (warm: a first run compiles longer)"
            return payback.applies, f"{payback.why}; the compile measured with {cache}"
        return True, ""


def shown_slower(c: Compared) -> bool:
    """Whether the page shows the step slower: the claims table's verdict (``claims.against_speedup`` on the
    paired gain and its ± as printed, as ``report.claim_rows`` calls it), so that the reason a step gives
    (``why_slower``, or ``within_noise``) is the one its claims-table row reads, in every branch: "0.96x ±
    0.04" reaches 1.00x, within noise, though the unrounded 0.955 + 0.04 is below 1."""
    verdict = claims.against_speedup("", c.gain, None, claims.printed_spread(c.ratios)).verdict
    return verdict.startswith("slower")


def paid(ratios: list[float], digits: int = 2) -> bool:
    """The one keep rule for every step: it paid beyond noise when its median gain less the rounds' spread is
    above 1x and more than half of its rounds are above 1x (a median lifted by one lucky round is not kept).
    Judged on the figures as printed (``digits`` decimals, as ``claims.against_speedup`` shows them), so that
    "1.01x ± 0.01" is never kept: the rule visibly holds on the page."""
    if not ratios:
        return False
    above = sum(claims.as_printed(x, digits) > 1 for x in ratios)  # "1.00x" as printed is not above 1x
    return _low(ratios, digits) > 1 and above > len(ratios) / 2


def _low(ratios: list[float], digits: int = 2) -> float:
    """The median less the spread, each as printed (``digits`` decimals): the figure the keep rule reads."""
    median, spread_ = claims.as_printed(_median(ratios), digits), claims.printed_spread(ratios, digits)
    return claims.half_up(median - spread_, digits)   # worked from printed figures: half up


def within_noise(ratios: list[float]) -> str:
    """Why a step that did not clear the noise is not kept: its rounds, their median and spread, printed as the
    keep rule (``paid``) reads them, two decimals, so the rule and the verdict agree on the page."""
    rounds = ", ".join(f"{x:.2f}x" for x in ratios)
    above = sum(claims.as_printed(x, 2) > 1 for x in ratios)  # as printed
    low = _low(ratios)
    spread = claims.printed_spread(ratios)  # from the rounds as printed, half up
    return (f"within noise (paired rounds {rounds}: median {_median(ratios):.2f}x ± {spread:.2f}, "
            f"less the spread {low:.2f}x, {'above' if low > 1 else 'not above'} 1x; "
            f"{above} of {len(ratios)} rounds above 1x" + ("" if above > len(ratios) / 2 else ", not more than half")
            + ")")


def brief_reason(c: Compared) -> str:
    """Why a step that did not pay is not kept, in a few words that refer to section 4's full reason (its
    rounds, its compile): the same verdict, from the same rules (``shown_slower``, ``compile_break_even``), so
    the short words never say what the full ones do not. A compile not kept showed no saving beyond its noise,
    so no payback is worked from it (t42_0708 #2)."""
    said = "slower" if shown_slower(c) else "within noise"
    if c.rung.name == "compile":
        said += ", no saving shown to pay back its compile"
    return said + " (section 4)"


def step_seconds(result: dict, rung: Rung) -> float:
    """One optimizer step's seconds, from the run's tokens/s (all workers together)."""
    s = rung.settings
    return s.batch_per_worker * s.accumulate * rung.workers * s.context / result["tokens_per_s"]


def compile_payback(c: Compared, run_steps: int) -> guide.Step:
    """The guide's break-even rule on this run's figures: the compile measured as the compiled runs' slowest
    first step less an eager step; the eager step the median of its runs, the compiled one that over the paired
    gain (the ledger's figure: unpaired medians on a shared machine can disagree with it)."""
    eager, compiled, compile_s = compile_seconds(c)
    # noise=0: the paired rounds already judged the noise (``paid``); only the break-even is left to decide
    measured = guide.Profile({"step": eager}, compile_s=compile_s, compiled_step_s=compiled, noise=0.0)
    return guide.compile_step(measured, run_steps or 10**9)


def paired_step_ms(c: Compared, digits: int = 1) -> tuple[float, float]:
    """(before, after) ms a step, as printed (``digits`` decimals): before the median of the kept settings'
    runs in the step's own rounds, after that over the paired gain as printed (2 decimals), so that a reader
    who divides the printed ms by the printed gain finds the printed step (unpaired medians on a shared
    machine can disagree with the paired gain)."""
    before = claims.as_printed(_median([step_seconds(r, c.kept) for r in c.before]), digits, 1e-3)
    return before, claims.half_up(before / claims.as_printed(c.gain, 2), digits)   # worked: half up


def compile_seconds(c: Compared) -> tuple[float, float, float]:
    """(eager step, compiled step, compile) seconds as printed (steps to 0.1 ms, the compile to 0.1 s): the
    eager step the median of its runs, the compiled one that over the paired gain (``paired_step_ms``), the
    compile the compiled runs' slowest first step less an eager step. The break-even divides these."""
    eager, compiled = paired_step_ms(c)
    compile_s = claims.as_printed(max(r["first_step_s"] for r in c.after) - eager * 1e-3, 1)
    return eager * 1e-3, compiled * 1e-3, compile_s


def compile_break_even(c: Compared, run_steps: int | None = None) -> str:
    """A compile that did not pay beyond noise: its measured compile, and why no break-even is worked from its
    gain (a saving inside the rounds' noise is not one this run shows), beside the planned run's length."""
    eager, compiled, compile_s = compile_seconds(c)
    planned = f", whatever the planned run's length ({run_steps:,} steps)" if run_steps else ""
    said = (f"its compile took {compile_s:.1f} s; the compiled step ({compiled * 1e3:.1f} ms, the eager one over "
            f"the paired gain) against eager ({eager * 1e3:.1f} ms, the steps kept so far, timed again in this "
            "step's own rounds, their median)")
    if compiled >= eager:   # no saving a step at all: say so plainly
        return said + ": not faster, so compile never pays back" + planned
    return said + (": a saving inside the rounds' noise, not one this run shows, so no break-even is worked "
                   "from it and compile is not kept" + planned)


def two_devices_gap(c: Compared, link_rate: float | None, parameters: float, simulated: bool,
                    fit: tuple[float, float, float] | None = None) -> str:
    """How far the two-devices step fell short of its bound, in ms a step, against the all-reduce the guide
    priced (ring: 2(n-1)/n x 4 B a parameter over the link's measured rate), rank 0's share of a core
    (``core_share``), and ``fit``: lesson 07's whole all-reduce on this machine (``allreduce_fit.lesson_07``),
    where it was kept."""
    n = c.rung.workers
    before, after = paired_step_ms(c)   # ms as printed: every figure below is worked from the printed ones
    ideal = claims.half_up(before / n, 1)   # worked from printed ms: half up, as a reader (172.7/2 = 86.4)
    gap = claims.half_up(after - ideal, 1)
    # CPU workers: their share of a core, a sentence of its own (a slower step: ``why_slower`` has said it)
    core = (core_share.rank0_words(c.after, c.rung.settings.threads) if simulated and not shown_slower(c)
            else "")
    # the step time is worked (before / gain), never "took": its runs' tokens/s, unpaired, give another figure
    said = (f"In this step's rounds, the steps before it, {before:.1f} ms (their median in the same rounds), "
            f"over the paired gain, {c.gain:.2f}x, give {after:.1f} ms a step (a paired figure: its runs' "
            f"median tokens/s, timed apart, can give another) against {ideal:.1f} ms at the bound (1/{n} of "
            f"those {before:.1f} ms): {gap:.1f} ms a step the bound does not see."
            + (f" {core[:1].upper()}{core[1:]}." if core else ""))   # a sentence: "Rank 0's ..."
    if link_rate is None or gap <= 0:
        return said
    # ms, the very figure the guide's table prints (3 figures, worked from its GB and GB/s): 3.24, not 3.2
    comm = guide._sig3(guide._on_link(2 * (n - 1) / n * 4 * parameters, link_rate))
    priced = (f" The all-reduce the guide priced, {guide._figure(comm)} ms, is an estimate, not a floor: the "
              f"ring's bytes (2(n-1)/n x 4 B a parameter) at lesson 00's one-way send/recv rate "
              f"({link_rate / 1e9:.3g} GB/s), with no fixed cost a call; a whole all-reduce also sums and waits "
              "for the other rank, its rate need not be a copy's, and this run does not time it")
    if comm >= gap:
        return said + priced + (": that estimate alone could explain all of the gap if none of it hid behind "
                                "backward.")
    other = "the cores that compute and gloo's threads share" if simulated else "the rest of the step"
    if fit:   # a measured all-reduce price beside the estimate (t23_0708 #3), the two reconciled (t30_0708 #1)
        return said + priced + ". " + allreduce_fit.against_gap(fit, 4 * parameters, gap, other,
                                                                (comm, link_rate))
    share = claims.half_up(100 * comm / gap, 0)   # two printed figures' share, half up as a reader rounds it
    return said + priced + (f". That estimate is {share:.0f}% of the gap, so whether most of the gap is the "
                            f"link or {other} this run cannot tell: neither is measured apart here.")


def why_slower(c: Compared) -> str:
    """A step that did not pay: its step time, worked from the step before over the paired gain (a worked
    figure, so worded as one: its runs' tokens/s, unpaired, can give another), and what it cost here."""
    # one decimal, as compile's break-even prints the same median: one figure, printed one way
    before, after = paired_step_ms(c)   # the paired gain's figure, from the printed ms
    measured = (f"the steps before it, {before:.1f} ms (their median in the same rounds), over the paired "
                f"rounds' median gain, {c.gain:.2f}x, give {after:.1f} ms a step")
    if c.rung.removes_s:
        return measured + (f"; the for-loop AdamW it replaces was {c.removable_s * 1e3:.1f} ms of the "
                           f"{before:.1f} ms before it")
    cause = {
        "feeding": "handing a batch over from the loader process costs more than the loading it hides",
        "precision": f"at width {c.rung.settings.width} the casts autocast adds cost more than the bf16 "
                     "matmuls save",
        "two devices": core_share.rank0_words(c.after, c.rung.settings.threads),
        "memory": "checkpointing recomputes every block's forward",
    }.get(c.rung.name, "")
    return measured + (f"; {cause}" if cause else "")


HELD_OUT = (16, 8)  # sequences a batch, batches: the same held-out text for every step, whatever its batch


def held_out_loss(result: dict, s: Settings) -> float:
    """Held-out loss of a run's final weights (rank 0's): serve.held_out_loss on the validation text."""
    from utils import data, models
    from utils.lessons.putting_it_together.serve import held_out_loss as on_text

    held_out = data.char_dataset(s.context, "val", max_chars=s.max_chars)
    model = models.small_gpt(held_out.corpus.vocab_size, seed=s.seed, context=s.context, width=s.width,
                             depth=s.depth, heads=s.heads)
    model.load_state_dict(result["state"])
    return on_text(model.eval(), held_out, *HELD_OUT)


def run_rung(rung: Rung, timeout: float = 180) -> dict:
    """Launch the rung's training (utils.launch) and keep rank 0's result, with the launch's wall time."""
    from utils.launch import launch

    start = time.perf_counter()
    result = launch(train, rung.settings, nprocs=rung.workers, timeout=timeout)[0]
    result["wall_s"] = time.perf_counter() - start
    return result


@contextlib.contextmanager
def _empty_inductor_cache():
    """TORCHINDUCTOR_CACHE_DIR set to a new temporary folder for the workers started inside, then put back."""
    old = os.environ.get("TORCHINDUCTOR_CACHE_DIR")
    with tempfile.TemporaryDirectory(prefix="inductor-cold-") as empty:
        os.environ["TORCHINDUCTOR_CACHE_DIR"] = empty
        try:
            yield
        finally:
            if old is None:
                os.environ.pop("TORCHINDUCTOR_CACHE_DIR", None)
            else:
                os.environ["TORCHINDUCTOR_CACHE_DIR"] = old


def vocab_of(s: Settings) -> int:
    from utils.lessons.ddp import settings as ddp_settings

    return ddp_settings.text_data(s).corpus.vocab_size


def _median(values: list[float]) -> float:
    ordered = sorted(values)
    mid = len(ordered) // 2
    return ordered[mid] if len(ordered) % 2 else (ordered[mid - 1] + ordered[mid]) / 2


def command_line(rungs: list[Rung], steps: int | None = None) -> str:
    """The last rung that ran, as a shell command: ``torchrun`` with its workers, its settings' flags;
    ``steps``: the planned run's length instead of the ladder's few timed steps."""
    last = [r for r in rungs if not r.skipped][-1]
    last = dataclasses.replace(last, settings=last.settings.scaled(steps=steps)) if steps else last
    base = Settings()
    flags = []
    for f in dataclasses.fields(Settings):
        value = getattr(last.settings, f.name)
        if value != getattr(base, f.name) and value is not None and f.name not in ("threads", "max_chars"):
            flag = "--" + f.name.replace("_", "-")
            flags.append(flag if value is True else f"{flag} {value}")
    runner = f"torchrun --nproc-per-node {last.workers}" if last.workers > 1 else "python"
    return f"{runner} -m utils.lessons.putting_it_together " + " ".join(flags)
