"""Lesson 08's training script: the course's small GPT trained fast, with every step of the lesson a setting.

    results = launch(train, Settings(precision="bf16"), nprocs=2)       # from the notebook
    python -m utils.lessons.putting_it_together --help                   # from a shell, one process
    torchrun --nproc-per-node 2 -m utils.lessons.putting_it_together --precision bf16 --loader-workers 1

It is lesson 03's recipe (``utils.lessons.ddp.recipe``: the model built, moved and resumed; each rank's share
of the text; the loss averaged over the ranks; the checkpoint saved atomically by rank 0), with the lesson's
steps as settings: loader workers (lesson 05), autocast (lesson 04), ``torch.compile`` (lesson 01), fused
AdamW, DDP when there is a second worker (lesson 03), activation checkpointing (lesson 06).
"""

from __future__ import annotations

import contextlib
import dataclasses
import math
import resource
import time

import torch
from torch.distributed.algorithms._checkpoint.checkpoint_wrapper import apply_activation_checkpointing
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, DistributedSampler

from utils import checkpoint, models
from utils.bench import threads
from utils.launch import keep_until_exit, process_group
from utils.lessons.ddp import recipe, settings
from utils.lessons.ddp.hooks import register_hook
from utils.lessons.ddp.instrumentation import Meter

DTYPES = {"bf16": torch.bfloat16, "fp16": torch.float16}


@dataclasses.dataclass
class Settings(settings.Settings):
    """Lesson 03's settings and the lesson's steps. The defaults are the baseline: fp32, no loader workers."""

    loader_workers: int = 0  # DataLoader processes preparing batches ahead (lesson 05)
    precision: str = "fp32"  # fp32; bf16: bf16 autocast; fp16: fp16 autocast with a GradScaler (lesson 04)
    compile: bool = False  # torch.compile the model (lesson 01)
    fused_adamw: bool = False  # AdamW(fused=True): one kernel for every parameter, not ~12 ops per tensor
    checkpointing: bool = False  # activation checkpointing of every block (lesson 06)
    hook: str = "none"  # DDP's own all-reduce


def loader(s: Settings, dataset, sampler, device) -> DataLoader:
    """Batches of ``s.batch_per_worker`` sequences; ``loader_workers`` processes prepare them ahead."""
    feeding = dict(num_workers=s.loader_workers, persistent_workers=True, prefetch_factor=4) \
        if s.loader_workers else {}
    return DataLoader(dataset, batch_size=s.batch_per_worker, sampler=sampler, drop_last=True,
                      pin_memory=device.type == "cuda", **feeding)


def prepare(s: Settings, model: torch.nn.Module, device) -> torch.nn.Module:
    """The model the loop calls: the DDP wrapper (which owns ``no_sync``) with two workers, else the model.

    ``torch.compile`` compiles each transformer block on its own (regional compilation, as TorchTitan does):
    the blocks are alike, so one graph is compiled and every block reuses it (about a third less compile time
    here than compiling the whole model), and DDP's all-reduce of a block's gradients still starts as soon as
    that block's backward is done. The embedding, the head and the loss stay eager."""
    if s.checkpointing:  # each block keeps only its input; backward recomputes the rest
        apply_activation_checkpointing(model, check_fn=lambda m: isinstance(m, models.Block))
    wrapped = model
    if torch.distributed.get_world_size() > 1:  # DDP only when there is a second worker to average with
        ids = [device.index] if device.type == "cuda" else None
        wrapped = DDP(model, device_ids=ids, **s.ddp_options())
        keep_until_exit(wrapped)  # freed at return, it could deadlock gloo's teardown (utils.launch)
        register_hook(wrapped, s.hook, s.powersgd_rank, s.powersgd_start)
    if s.compile:
        for block in model.blocks:
            block.compile()  # in place: the module keeps its name and parameters (state_dict unchanged)
    return wrapped


def fused(s: Settings, model: torch.nn.Module) -> tuple[torch.optim.Optimizer, int]:
    """AdamW(fused=True) on the moved model, resumed from ``s.checkpoint`` as lesson 03's recipe resumes: the
    same maths as the for-loop AdamW, one kernel a step for every parameter (torch >= 2.4 on CPU and GPU)."""
    optimizer = torch.optim.AdamW(model.parameters(), lr=s.lr, fused=True)
    start = checkpoint.resume(s.checkpoint, model, optimizer) if s.checkpoint else 0
    for group in optimizer.param_groups:  # a resumed state brings the saved run's flags: keep this run's
        group.update(fused=True, foreach=None)
    return optimizer, start


def train_step(model, optimizer, scaler, batches, s: Settings, device,
               optimizer_times: list | None = None) -> torch.Tensor:
    """One optimizer step over ``s.accumulate`` micro-batches; the forward under autocast when asked.
    ``optimizer_times``: on a CPU (synchronous), the optimizer step's seconds are appended to it."""
    optimizer.zero_grad(set_to_none=True)
    step_loss = torch.zeros((), device=device)
    for k in range(s.accumulate):
        x, y = (t.to(device, non_blocking=True) for t in next(batches))
        last = k == s.accumulate - 1
        # no_sync: the gradient stays local and adds up; only the last micro-batch all-reduces (lesson 03)
        with model.no_sync() if isinstance(model, DDP) and not last else contextlib.nullcontext():
            with torch.autocast(device.type, DTYPES.get(s.precision), enabled=s.precision in DTYPES):
                loss = model(x, y)[1] / s.accumulate
            scaler.scale(loss).backward()  # the scaler multiplies fp16 losses so small gradients survive
        step_loss += loss.detach()
    began = time.perf_counter()
    scaler.step(optimizer)
    if optimizer_times is not None and device.type == "cpu":  # a GPU's step would need a sync to be timed
        optimizer_times.append(time.perf_counter() - began)
    scaler.update()
    return step_loss


def peak_memory(device) -> tuple[float, str]:
    """The worker's peak: the CUDA allocator's, or on a CPU the process's peak resident set (with torch)."""
    if device.type == "cuda":
        return float(torch.cuda.max_memory_allocated(device)), "CUDA allocator peak"
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024.0, "peak resident set of the process"


def train(s: Settings) -> dict:
    """Train the small GPT with ``s`` on every worker (under ``launch`` or ``torchrun``). Lesson 08.

    Returns lesson 03's summary (``losses``, ``final_loss``, ``start_step``, ``samples_per_s``; rank 0: the
    weights) plus ``tokens_per_s``, ``peak_bytes``, ``first_step_s`` and on a CPU ``optimizer_s`` (the median
    optimizer step of the timed steps)."""
    with threads(s.threads), process_group() as planned_device:
        device = torch.device(s.device) if s.device else planned_device
        dataset = settings.text_data(s)
        model, optimizer, start = recipe.build(s, dataset.corpus.vocab_size, device)  # moved, then resumed
        if s.fused_adamw:
            optimizer, start = fused(s, model)
        step_model = prepare(s, model, device)
        sampler = DistributedSampler(dataset, shuffle=True, seed=s.seed, drop_last=True)
        feed = loader(s, dataset, sampler, device)
        batches = recipe.micro_batches(feed, sampler, start=start * s.accumulate)
        scaler = torch.amp.GradScaler(device.type, enabled=s.precision == "fp16")
        losses, begun, first_step_s, optimizer_times = [], time.perf_counter(), math.nan, []
        with Meter(s, start, device) as meter:
            for step in range(start, s.steps):
                with meter.step(step):
                    timed = optimizer_times if step >= start + s.warmup_steps else None
                    loss = train_step(step_model, optimizer, scaler, batches, s, device, timed)
                losses.append(recipe.mean_over_ranks(loss))  # the one wait for the device in each step
                if step == start:  # with torch.compile, the first step pays the compile
                    first_step_s = time.perf_counter() - begun
                meter.progress(losses[-1])
                due = (step + 1) % s.checkpoint_every == 0
                if s.checkpoint and torch.distributed.get_rank() == 0 and due:
                    checkpoint.save(s.checkpoint, model, optimizer, step + 1)  # atomic
        result = recipe.summary(s, model, losses, start, meter)
        result["tokens_per_s"] = result["samples_per_s"] * s.context
        result["first_step_s"] = first_step_s
        times = sorted(optimizer_times)
        result["optimizer_s"] = times[len(times) // 2] if times else math.nan
        result["peak_bytes"], result["peak_what"] = peak_memory(device)
        return result
