"""Data-parallel training with DistributedDataParallel (DDP): lesson 03, DDP from the notebook.

The lesson's training function lives here so that the SAME code runs from the notebook and from a shell:

    from utils import ddp
    from utils.launch import launch
    results = launch(ddp.train, ddp.Settings(steps=30), nprocs=2, timeout=300)   # from a notebook

    torchrun --nproc-per-node 2 -m utils.ddp --steps 30                            # one machine
    torchrun --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint HOST:29400 -m utils.ddp
                                                                                   # two machines

What ``train`` does, in order: join the process group (``launch.process_group``: the planned backend, env://
rendezvous), build the small GPT with the same seed on every rank, wrap it in DDP, give each rank its own
share of the text through a ``DistributedSampler`` (``set_epoch`` reshuffles every epoch, identically on
all ranks), accumulate gradients over micro-batches with ``no_sync`` (one all-reduce per optimizer step),
optionally compress what the all-reduce sends (a DDP communication hook), checkpoint atomically, and resume.

Also here: the articles' DDP code with its mistakes fixed one at a time (``article_ddp``), the gradient
equality check, the 1-vs-2-worker scaling measurement, and the all-reduce benchmark (algbw, busbw).
Registered benchmark: ``ddp`` (2-worker samples/s over 1-worker samples/s, bound 2.0).
Importing this module has no side effects.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import itertools
import json
import os
import statistics
import sys
import time
import warnings

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, DistributedSampler

from utils import article, checkpoint, data, models
from utils.bench import Result, register
from utils.launch import LaunchTimeout, current_backend, current_device, launch, process_group

HOOKS = ("allreduce", "fp16", "bf16", "powersgd")
PROGRESS_EVERY_S = 2.0  # seconds between progress-bar lines (each is one line in the notebook cell)


# --- Leaving the group without a deadlock -------------------------------------------------------------

_RETIRED: list = []  # DDP models kept until the process exits (see retire)


def retire(ddp_model: DDP) -> None:
    """Keep ``ddp_model`` alive until the worker process exits, after a barrier.

    Why: a DDP model holds a reference to its process group. If the model is freed right after the last
    all-reduce (a local variable at ``return``), the group's destructor runs on the main thread, which holds
    Python's GIL, and waits for gloo's worker thread; that thread may still be freeing the finished all-reduce,
    whose tensors are Python objects, so it waits for the GIL: a deadlock, now and then (caught with gdb in
    this lesson's runs). Workers end with ``os._exit`` (the launcher) or at interpreter exit (torchrun), after
    gloo's threads are idle, so keeping the model until then is safe.
    """
    dist.barrier()  # both ranks are past their last collective
    _RETIRED.append(ddp_model)


# --- Settings ------------------------------------------------------------------------------------------


@dataclasses.dataclass
class Settings:
    """Everything one training run needs. Plain values, so they travel to workers and to the command line."""

    steps: int = 30  # optimizer steps
    batch_per_worker: int = 16  # sequences per rank per micro-batch; the global batch is world x this x accumulate
    accumulate: int = 1  # micro-batches per optimizer step; all but the last run under no_sync()
    context: int = 64  # tokens per sequence (T)
    width: int = 128  # GPT width (C)
    depth: int = 4  # transformer blocks
    heads: int = 4
    lr: float = 3e-3  # AdamW
    seed: int = 0
    max_chars: int = 200_000  # characters of standard-library source used as training text
    threads: int | None = None  # torch threads per worker; None keeps the launcher's (or torchrun's) choice
    hook: str = "allreduce"  # what the gradient all-reduce sends: allreduce (plain fp32), fp16, bf16, powersgd
    bucket_cap_mb: float | None = None  # DDP bucket size; None is DDP's default (see the PowerSGD note)
    powersgd_rank: int = 1  # rank of PowerSGD's low-rank approximation
    powersgd_start: int = 2  # PowerSGD compresses from this step on (plain all-reduce before)
    warmup_steps: int = 0  # first steps not counted in samples/s
    checkpoint: str | None = None  # file to save to and resume from (atomic, by rank 0)
    checkpoint_every: int = 5
    crash_at_step: int | None = None  # demo: rank 1 dies at this step, on the first attempt only
    progress: bool = False  # a tqdm bar on rank 0
    device: str | None = None  # force a device ("cpu"); None: the launcher's plan

    def scaled(self, **changes) -> "Settings":
        return dataclasses.replace(self, **changes)


def build_model(s: Settings, vocab_size: int) -> torch.nn.Module:
    """The small GPT of the settings, on the CPU, with the same weights on every rank (same seed)."""
    return models.small_gpt(vocab_size, seed=s.seed, context=s.context, width=s.width, depth=s.depth,
                            heads=s.heads)


def text_data(s: Settings):
    """Next-character windows of standard-library source: x, y are (T,) int64, y is x shifted by one."""
    return data.char_dataset(s.context, "train", max_chars=s.max_chars)


# --- Communication hooks: what the gradient all-reduce sends ------------------------------------------


def register_hook(ddp_model: DDP, s: Settings):
    """Attach the communication hook named by ``s.hook``; returns its state (PowerSGD keeps one).

    ``allreduce`` is what DDP does without a hook (average the fp32 gradients); registering it explicitly lets
    ``count_bytes`` see it like the others. ``fp16``/``bf16`` halve the bytes; ``powersgd`` sends two thin
    matrices P (n x r) and Q (m x r) instead of each n x m gradient matrix, with error feedback.
    """
    from torch.distributed.algorithms.ddp_comm_hooks import default_hooks, powerSGD_hook

    if s.hook == "allreduce":
        ddp_model.register_comm_hook(None, default_hooks.allreduce_hook)
    elif s.hook == "fp16":
        ddp_model.register_comm_hook(None, default_hooks.fp16_compress_hook)
    elif s.hook == "bf16":  # NCCL only: gloo has no bfloat16 all-reduce
        ddp_model.register_comm_hook(None, default_hooks.bf16_compress_hook)
    elif s.hook == "powersgd":
        state = powerSGD_hook.PowerSGDState(process_group=None, matrix_approximation_rank=s.powersgd_rank,
                                            start_powerSGD_iter=s.powersgd_start)
        ddp_model.register_comm_hook(state, powerSGD_hook.powerSGD_hook)
        return state
    else:
        raise ValueError(f"hook must be one of {HOOKS}, got {s.hook!r}")
    return None


class ByteCounter:
    """Counts the bytes handed to ``torch.distributed.all_reduce`` while active (lesson 03, compression).

    The hooks call ``dist.all_reduce`` through the module, so wrapping that one function sees every message
    they send. Only the backward pass is counted (not the loss we all-reduce for printing).
    """

    def __init__(self):
        self.bytes = 0
        self.calls = 0

    @contextlib.contextmanager
    def active(self):
        original = dist.all_reduce

        def counting_all_reduce(tensor, *args, **kwargs):
            self.bytes += tensor.numel() * tensor.element_size()
            self.calls += 1
            return original(tensor, *args, **kwargs)

        dist.all_reduce = counting_all_reduce
        try:
            yield self
        finally:
            dist.all_reduce = original


# --- Progress bar on rank 0 --------------------------------------------------------------------------


class _Lines:
    """A file for tqdm whose every update is one whole line.

    tqdm redraws its bar with ``\\r``; the notebook launcher relays worker output line by line, so a bar
    that never ends its line would appear only when it closes. Here each redraw becomes a line, at most one
    every ``PROGRESS_EVERY_S`` seconds (tqdm's ``mininterval``), and the closing redraw is not repeated.
    """

    def __init__(self, stream):
        self.stream = stream
        self.last = ""

    def write(self, text: str) -> None:
        line = text.replace("\r", "").rstrip()
        if line and line != self.last:
            self.stream.write(line + "\n")
            self.last = line

    def flush(self) -> None:
        self.stream.flush()


def progress_bar(total: int, initial: int, enabled: bool):
    """A tqdm bar over optimizer steps (rank 0 only); ``None`` where disabled."""
    if not enabled:
        return None
    from tqdm import tqdm

    tty = sys.stdout.isatty()
    return tqdm(total=total, initial=initial, desc="train", unit="step", file=sys.stdout if tty else _Lines(sys.stdout),
                mininterval=0.1 if tty else PROGRESS_EVERY_S, ncols=80, ascii=False if tty else " ▏▎▍▌▋▊▉█")


# --- The training function ---------------------------------------------------------------------------


def micro_batches(loader: DataLoader, sampler: DistributedSampler, start: int):
    """Micro-batches forever, epoch after epoch, starting at micro-batch ``start`` (to resume mid-epoch).

    ``set_epoch(e)`` gives every rank the same permutation of epoch ``e`` (seeded by the sampler's seed and
    ``e``), so the ranks' shares never overlap and a resumed run sees the batches an uninterrupted one would.
    """
    epoch, skip = divmod(start, len(loader))
    for epoch in itertools.count(epoch):
        sampler.set_epoch(epoch)
        yield from itertools.islice(loader, skip, None)
        skip = 0


def _global_mean(value: float, device) -> float:
    t = torch.tensor([value], dtype=torch.float64, device=device)
    dist.all_reduce(t)
    return t.item() / dist.get_world_size()


def _maybe_crash(s: Settings, step: int) -> None:
    """The checkpoint demo: rank 1 dies hard (no clean-up) at ``crash_at_step``, on the first attempt only."""
    first_attempt = os.environ.get("TORCHELASTIC_RESTART_COUNT", "0") == "0"
    if s.crash_at_step == step and first_attempt and dist.get_rank() == 1:
        print(f"rank 1: dying at step {step} (planned, first attempt only)", flush=True)
        os._exit(1)


def train(s: Settings) -> dict:
    """DDP training of the small GPT on every rank; the lesson's recipe. Runs under ``launch`` and ``torchrun``.

    Returns (every rank): ``losses`` (the mean over ranks at each step), ``final_loss``, ``samples_per_s``
    (all ranks together, after ``warmup_steps``), ``bytes_per_step`` (what the hook all-reduced per
    optimizer step, per rank), ``start_step`` (above 0 after a resume), and on rank 0 the final ``state``.
    """
    if s.threads:
        torch.set_num_threads(s.threads)  # the same threads per worker whatever the number of workers
    with process_group() as planned_device:
        device = torch.device(s.device) if s.device else planned_device
        rank, world = dist.get_rank(), dist.get_world_size()
        dataset = text_data(s)
        # Same seed on every rank gives the same initial weights; DDP also broadcasts rank 0's at wrap time.
        model = build_model(s, dataset.corpus.vocab_size)
        optimizer = torch.optim.AdamW(model.parameters(), lr=s.lr)
        start = checkpoint.resume(s.checkpoint, model, optimizer) if s.checkpoint else 0
        model.to(device)  # move first, then wrap: DDP builds its gradient buckets where the parameters are
        ddp_model = DDP(model, device_ids=[device.index] if device.type == "cuda" else None,
                        **({"bucket_cap_mb": s.bucket_cap_mb} if s.bucket_cap_mb else {}))
        register_hook(ddp_model, s)
        sampler = DistributedSampler(dataset, num_replicas=world, rank=rank, shuffle=True, seed=s.seed,
                                     drop_last=True)  # rank r gets items r, r+world, ... of each permutation
        loader = DataLoader(dataset, batch_size=s.batch_per_worker, sampler=sampler, drop_last=True)
        batches = micro_batches(loader, sampler, start * s.accumulate)
        counter, losses, step_bytes = ByteCounter(), [], []
        bar = progress_bar(s.steps, start, s.progress and rank == 0)
        timed_from = None
        for step in range(start, s.steps):
            if step == start + s.warmup_steps:
                timed_from = time.perf_counter()
            _maybe_crash(s, step)
            optimizer.zero_grad(set_to_none=True)
            sent_before, step_loss = counter.bytes, 0.0
            for k in range(s.accumulate):
                x, y = (t.to(device) for t in next(batches))  # (B, T) int64 each
                last = k == s.accumulate - 1
                # no_sync: keep the gradient local, add to it; only the last micro-batch's backward all-reduces
                with contextlib.nullcontext() if last else ddp_model.no_sync():
                    loss = ddp_model(x, y)[1] / s.accumulate  # the mean over the whole optimizer step
                    with counter.active() if last else contextlib.nullcontext():
                        loss.backward()
                step_loss += loss.item()
            optimizer.step()
            step_bytes.append(counter.bytes - sent_before)
            losses.append(_global_mean(step_loss, device))
            if s.checkpoint and rank == 0 and (step + 1) % s.checkpoint_every == 0:
                checkpoint.save(s.checkpoint, ddp_model, optimizer, step + 1)
            if bar is not None:
                bar.set_postfix(loss=f"{losses[-1]:.3f}", refresh=False)
                bar.update(1)
        if device.type == "cuda":
            torch.cuda.synchronize(device)
        elapsed = time.perf_counter() - timed_from if timed_from is not None else float("nan")
        if bar is not None:
            bar.close()
        timed_steps = s.steps - start - s.warmup_steps
        samples = world * s.batch_per_worker * s.accumulate * timed_steps
        result = {"rank": rank, "world_size": world, "start_step": start, "losses": losses,
                  "final_loss": losses[-1] if losses else float("nan"),
                  "samples_per_s": samples / elapsed if timed_steps > 0 else float("nan"),
                  "bytes_per_step": statistics.median(step_bytes[-3:]) if step_bytes else 0,
                  "parameters": models.count_parameters(model)}
        if rank == 0:
            result["state"] = {k: v.detach().cpu() for k, v in model.state_dict().items()}
        retire(ddp_model)
        return result


# --- Gradient equality: DDP's averaged gradient is the full batch's gradient --------------------------


def fixed_global_batch(s: Settings, world: int = 2) -> tuple[torch.Tensor, torch.Tensor]:
    """The first ``world x batch_per_worker x accumulate`` windows of the text: x, y (N, T) int64."""
    dataset = text_data(s)
    n = world * s.batch_per_worker * s.accumulate
    xs, ys = zip(*(dataset[i] for i in range(n)))
    return torch.stack(xs), torch.stack(ys)


def ddp_gradients(s: Settings) -> dict:
    """One backward on each rank over its slice of ``fixed_global_batch`` (with no_sync accumulation).

    Rank r takes rows r, r+world, ... and splits them into ``accumulate`` micro-batches. Returns this
    rank's gradients after DDP averaged them, as one flat vector (fp32, CPU).
    """
    with process_group(backend="gloo" if s.device == "cpu" else None) as planned_device:
        device = torch.device(s.device) if s.device else planned_device
        rank, world = dist.get_rank(), dist.get_world_size()
        x, y = fixed_global_batch(s, world)
        x, y = x[rank::world].to(device), y[rank::world].to(device)  # (B x accumulate, T) each
        model = build_model(s, text_data(s).corpus.vocab_size).to(device)
        ddp_model = DDP(model, device_ids=[device.index] if device.type == "cuda" else None)
        register_hook(ddp_model, s)
        for k, (xk, yk) in enumerate(zip(x.chunk(s.accumulate), y.chunk(s.accumulate))):
            last = k == s.accumulate - 1
            with contextlib.nullcontext() if last else ddp_model.no_sync():
                (ddp_model(xk, yk)[1] / s.accumulate).backward()
        retire(ddp_model)
        return flat_grad(model).cpu()


def flat_grad(model: torch.nn.Module) -> torch.Tensor:
    """Every parameter's gradient, concatenated: (number of parameters,)."""
    return torch.cat([p.grad.reshape(-1) for p in model.parameters()])


def full_batch_gradient(s: Settings, world: int = 2) -> torch.Tensor:
    """The reference: one process, one backward over the whole global batch (CPU, fp32)."""
    x, y = fixed_global_batch(s, world)
    model = build_model(s, text_data(s).corpus.vocab_size)
    model.loss(x, y).backward()
    return flat_grad(model)


# --- Scaling: samples/s with 1 and 2 workers, same threads per worker ---------------------------------


def samples_per_second(s: Settings, nprocs: int, timeout: float = 300) -> float:
    """All workers' samples/s (median-free: one timed window after ``warmup_steps``)."""
    results = launch(train, s, nprocs=nprocs, timeout=timeout)
    return results[0]["samples_per_s"]


def scaling(s: Settings, repeats: int = 1, timeout: float = 300) -> dict:
    """Samples/s with 1 and 2 workers (weak scaling: the same batch per worker) and their ratio, bound 2.

    ``repeats`` alternates 1- and 2-worker runs and keeps the best of each, which is the least disturbed
    by other programs on a shared machine.
    """
    one, two = [], []
    for _ in range(repeats):
        one.append(samples_per_second(s, 1, timeout))
        two.append(samples_per_second(s, 2, timeout))
    return {"one": max(one), "two": max(two), "ratio": max(two) / max(one), "bound": 2.0}


# --- The interconnect: all-reduce over message sizes --------------------------------------------------


def busbw_factor(world: int) -> float:
    """nccl-tests' bus-bandwidth factor for all-reduce: a ring moves 2(n-1)/n of the message per rank."""
    return 2 * (world - 1) / world


def all_reduce_times(sizes: list[int], repeats: int = 5) -> list[tuple[int, float]]:
    """On each rank: the median seconds of an all-reduce of ``size`` bytes (fp32), for each size."""
    with process_group() as device:
        times = []
        for size in sizes:
            t = torch.ones(size // 4, dtype=torch.float32, device=device)
            samples = []
            for i in range(repeats + 2):  # two untimed warm-ups
                dist.barrier()  # start together: otherwise one rank's wait for the other is timed
                start = time.perf_counter()
                dist.all_reduce(t)
                if device.type == "cuda":
                    torch.cuda.synchronize(device)
                if i >= 2:
                    samples.append(time.perf_counter() - start)
            times.append((size, statistics.median(samples)))
        return times


def all_reduce_benchmark(sizes: list[int], repeats: int = 5, nprocs: int = 2, timeout: float = 120) -> list[dict]:
    """algbw = bytes / time and busbw = algbw x 2(n-1)/n for each size, as nccl-tests reports them."""
    per_rank = launch(all_reduce_times, sizes, repeats, nprocs=nprocs, timeout=timeout)
    rows = []
    for k, size in enumerate(sizes):
        seconds = max(r[k][1] for r in per_rank)  # the collective ends when the slowest rank is done
        algbw = size / seconds
        rows.append({"bytes": size, "seconds": seconds, "algbw": algbw, "busbw": algbw * busbw_factor(nprocs)})
    return rows


def plot_all_reduce(rows: list[dict], bound: float | None, bound_label: str, simulated: bool):
    """algbw and busbw (GB/s) against message size, with the link's (or memory's) bound dashed."""
    from utils import plots

    fig, (ax,) = plots.new_figure(rows=1, width=7.5, row_height=3.6)
    sizes = [r["bytes"] for r in rows]
    ax.plot(sizes, [r["algbw"] / 1e9 for r in rows], "o-", color=plots.device_color(0), label="algbw = bytes / time")
    ax.plot(sizes, [r["busbw"] / 1e9 for r in rows], "s-", color=plots.device_color(1),
            label="busbw = algbw x 2(n-1)/n")
    if bound:
        ax.axhline(bound / 1e9, color="0.3", ls="--", lw=1, label=bound_label)
    ax.set_xscale("log", base=2)
    ax.set_xticks(sizes)
    ax.set_xticklabels([_size_label(n) for n in sizes], fontsize=8)
    ax.set_xlabel("all-reduce message size")
    ax.set_ylabel("GB/s")
    ax.set_ylim(bottom=0)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, loc="upper left")
    plots.stamp_simulated(fig, simulated)
    return plots.finish(fig, "All-reduce bandwidth over message size" + (" (simulated on CPU)" if simulated else ""))


def _size_label(n: int) -> str:
    return f"{n // 2**20} MiB" if n >= 2**20 else f"{n // 2**10} KiB"


# --- The articles' DDP code, fixed one mistake at a time -----------------------------------------------

# In the order the errors appear when the code runs. Article 1 ("distributed training") and article 2
# (the CNN case study) share most of them; article 2 adds device_ids=[rank] and .to(rank) after wrapping.
ARTICLE_FIXES = [
    ("launcher", "start the workers with a launcher (torchrun, or launch() here): it sets RANK, WORLD_SIZE, "
                 "MASTER_ADDR and MASTER_PORT, which init_process_group reads"),
    ("backend", "use the backend the plan picks (gloo on CPU or a shared GPU, NCCL for one GPU per rank), "
                "not NCCL whatever the hardware"),
    ("device", "put the model on the worker's own device, not .cuda()"),
    ("device_ids", "pass device_ids only for a CUDA module (article 2 passes [rank] whatever the device)"),
    ("no_move_after_wrap", "move the model before wrapping it, never after (article 2 calls ddp_model.to(rank))"),
    ("undefined", "define what the loop uses: a DataLoader of (x, target) pairs, each batch moved to the "
                  "model's device, and the loss function (criterion)"),
    ("optimizer", "create an optimizer and call optimizer.step(): DDP has no step()"),
    ("sampler", "give each rank its own share of the data with a DistributedSampler (and set_epoch)"),
]


def article_ddp(fixed: int, steps: int = 6, batch_per_rank: int = 16) -> dict:
    """The articles' DDP training with the first ``fixed`` entries of ``ARTICLE_FIXES`` applied.

    Article 1's model (Linear 128->64->32) on ``article.regression_data()``. Each ``if`` below is one fix;
    its ``else`` is what the articles wrote. Returns this rank's final loss and a fingerprint of the batches
    it trained on (to see whether the ranks shared their data or trained on the same rows twice).
    """
    import torch.nn as nn

    fix = {name for name, _ in ARTICLE_FIXES[:fixed]}
    if "launcher" not in fix:  # what `python train.py` sees: nobody set the rendezvous variables
        for name in ("RANK", "WORLD_SIZE", "LOCAL_RANK", "MASTER_ADDR", "MASTER_PORT"):
            os.environ.pop(name, None)
    with warnings.catch_warnings():  # a CPU build warns about NCCL's default timeout before it fails: the
        warnings.simplefilter("ignore")  # failure is the lesson, the warning only repeats it
        dist.init_process_group(backend=current_backend() if "backend" in fix else "nccl")
    rank = dist.get_rank()
    torch.manual_seed(0)
    device = current_device() if "device" in fix else torch.device("cuda")
    model = article.ArticleModel().to(device)
    cuda = device.type == "cuda"
    ddp_model = DDP(model, device_ids=[device.index] if cuda else None) if "device_ids" in fix \
        else DDP(model, device_ids=[rank])
    if "no_move_after_wrap" not in fix:
        ddp_model.to(rank)  # article 2: an int means cuda:<rank>, and it comes after wrapping
    dataset = article.regression_data()
    sampler = DistributedSampler(dataset, shuffle=True, seed=0) if "sampler" in fix else None
    if "undefined" in fix:
        data_loader = DataLoader(dataset, batch_size=batch_per_rank, sampler=sampler)
        criterion = nn.MSELoss()
    optimizer = torch.optim.SGD(ddp_model.parameters(), lr=0.05) if "optimizer" in fix else None
    fingerprint = 0.0
    for step, (x, target) in enumerate(data_loader):  # noqa: F821 - undefined until the "undefined" fix
        if step == steps:
            break
        x, target = x.to(device), target.to(device)
        fingerprint += x.sum().item()
        ddp_model.zero_grad()
        loss = criterion(ddp_model(x), target)  # noqa: F821
        loss.backward()
        if optimizer is not None:
            optimizer.step()
        else:
            ddp_model.step()  # what the articles call: DistributedDataParallel has no step()
    retire(ddp_model)  # not the articles' mistake: see retire()
    dist.destroy_process_group()
    return {"rank": rank, "loss": loss.item(), "fingerprint": round(fingerprint, 3)}


def try_article_step(fixed: int, timeout: float = 30) -> list | None:
    """Launch ``article_ddp(fixed)`` on 2 workers in a guarded block: print the fix and what happens next."""
    if fixed:
        name, what = ARTICLE_FIXES[fixed - 1]
        title = f"fix {fixed} ({name}): {what}"
    else:
        title = "as written, started like a plain script (no launcher)"
    results = None
    with article.shows_error(title):
        try:
            results = launch(article_ddp, fixed, nprocs=2, timeout=timeout)
        except LaunchTimeout:
            # Seen now and then on gloo here: a worker that has finished does not exit. Not the articles'
            # mistake, so say so and try once more rather than hide the step's real outcome.
            print("  (the launch timed out with a worker stuck after finishing; trying once more)")
            results = launch(article_ddp, fixed, nprocs=2, timeout=timeout)
    if results:
        same = results[0]["fingerprint"] == results[1]["fingerprint"]
        losses = ", ".join(f"{r['loss']:.4f}" for r in results)
        shared = "THE SAME batches (each rank sees the whole data set)" if same else "different batches"
        print(f"  ran: final loss per rank {losses}; the two ranks trained on {shared}")
    return results


# --- Benchmark -----------------------------------------------------------------------------------------

BENCH_SETTINGS = Settings(steps=14, warmup_steps=4, threads=1)  # the lesson's CPU model and batch size


@register("ddp")
def bench_ddp() -> Result:
    """2-worker samples/s over 1-worker samples/s, one thread per worker, small GPT at batch 16 per worker."""
    from utils import devices

    s = BENCH_SETTINGS if devices.mode() == "cpu" else BENCH_SETTINGS.scaled(threads=None)
    r = scaling(s, repeats=2)
    return Result("ddp", measured=r["ratio"], bound=r["bound"], unit="x",
                  note=f"small GPT, batch {s.batch_per_worker}/worker, {s.threads or 'default'} thread(s)/worker; "
                       "2-worker samples/s over 1-worker samples/s",
                  extra={"samples_per_s_1": r["one"], "samples_per_s_2": r["two"]})


# --- Command line: the same function under torchrun ---------------------------------------------------


def parse_settings(argv: list[str] | None = None) -> tuple[Settings, str | None]:
    """``--steps 30 --batch-per-worker 16 ...``: one option per ``Settings`` field, plus ``--out FILE``."""
    parser = argparse.ArgumentParser(prog="torchrun --nproc-per-node 2 -m utils.ddp",
                                     description="Lesson 03's DDP training of the small GPT.")
    for f in dataclasses.fields(Settings):
        flag = "--" + f.name.replace("_", "-")
        if f.type in ("bool", bool):
            parser.add_argument(flag, action="store_true")
        else:
            kind = {"int": int, "float": float, "str": str}.get(str(f.type).split(" |")[0], str)
            parser.add_argument(flag, type=kind, default=f.default)
    parser.add_argument("--out", help="rank 0 writes the result (without weights) here, as JSON")
    args = vars(parser.parse_args(argv))
    out = args.pop("out")
    return Settings(**args), out


def main(argv: list[str] | None = None) -> int:
    s, out = parse_settings(argv)
    result = train(s)
    if result["rank"] == 0:
        print(f"world size {result['world_size']}: final loss {result['final_loss']:.6f} after {s.steps} steps, "
              f"{result['samples_per_s']:.1f} samples/s", flush=True)
        if out:
            summary = {k: v for k, v in result.items() if k != "state"}
            with open(out, "w") as f:
                json.dump(summary, f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
