"""Lesson 03's recipe: data-parallel training of the small GPT with DistributedDataParallel (DDP).

The same function runs from the notebook and from a shell, on every worker:

    results = launch(train, Settings(steps=30), nprocs=2, timeout=300)    # from a notebook
    torchrun --nproc-per-node 2 -m utils.lessons.ddp --steps 30            # from a shell (see cli.py)

Per worker: join the process group, build the model with the same seed on every rank, move it to the
device, then wrap it in DDP; give each rank its own share of the text with a ``DistributedSampler``
(``set_epoch`` reshuffles every epoch, identically on all ranks); accumulate gradients over micro-batches
with ``no_sync`` (one all-reduce per optimizer step); checkpoint on rank 0 and resume after a restart
(model moved, optimizer built, then resumed: ``build``).
What the lesson measures around it (time, bytes, progress) is in ``instrumentation.py``; what the
all-reduce sends, in ``hooks.py``.
"""

from __future__ import annotations

import contextlib
import itertools

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, DistributedSampler

from utils import checkpoint, models, precision
from utils.bench import threads
from utils.launch import keep_until_exit, process_group
from utils.lessons.ddp.hooks import register_hook
from utils.lessons.ddp.instrumentation import Meter
from utils.lessons.ddp.settings import Settings, build_model, deterministic_kernels, text_data


def micro_batches(loader: DataLoader, sampler: DistributedSampler, start: int = 0):
    """Micro-batches forever, epoch after epoch, from micro-batch ``start`` on (to resume mid-epoch).

    ``set_epoch(e)`` gives every rank the same permutation of epoch ``e`` (seeded by the sampler's seed and
    ``e``), so the ranks' shares never overlap and a resumed run sees the batches an uninterrupted one would.
    """
    first_epoch, skip = divmod(start, len(loader))
    for epoch in itertools.count(first_epoch):
        sampler.set_epoch(epoch)  # without it, every epoch repeats the same order
        yield from itertools.islice(loader, skip, None)
        skip = 0


def build(s: Settings, vocab_size: int, device) -> tuple[torch.nn.Module, torch.optim.Optimizer, int]:
    """The model on ``device``, its optimizer, and the steps already done (resumed from ``s.checkpoint``).

    The order matters on a GPU: move the model, then build the optimizer, then resume. ``load_state_dict``
    puts the optimizer's state (AdamW's running averages) where the parameters are at that moment; resumed
    while the model was still on the CPU, the state would stay there after the move, and the first step
    after a restart would fail with a device mismatch.
    """
    model = build_model(s, vocab_size).to(device)  # the same seed on every rank: the same weights
    optimizer = torch.optim.AdamW(model.parameters(), lr=s.lr)
    start = checkpoint.resume(s.checkpoint, model, optimizer) if s.checkpoint else 0  # steps already done
    return model, optimizer, start


def train_step(ddp_model: DDP, optimizer, batches, accumulate: int, device, regime: str = "fp32",
               scaler=None) -> torch.Tensor:
    """One optimizer step over ``accumulate`` micro-batches; returns this rank's loss for the step (0-d,
    on ``device``: reading it with ``.item()`` waits for the GPU, so the caller does that once per step).
    ``regime``: the forward's arithmetic (``utils.precision``); ``scaler``: fp16's gradient scaler."""
    scaler = scaler or precision.grad_scaler("fp32", device)  # a pass-through outside fp16
    optimizer.zero_grad(set_to_none=True)
    step_loss = torch.zeros((), device=device)
    for k in range(accumulate):
        x, y = (t.to(device) for t in next(batches))  # (B, T) int64 each
        last = k == accumulate - 1
        # no_sync: the gradient stays local and adds up in .grad; only the last backward all-reduces the sum
        with contextlib.nullcontext() if last else ddp_model.no_sync():
            with precision.autocast(regime, device):  # bf16/fp16 matmuls; nothing changes in fp32
                # divided, so that the sum is the mean over the whole step
                loss = ddp_model(x, y)[1] / accumulate
            scaler.scale(loss).backward()  # fp16: the loss scaled up, so that small gradients survive
        step_loss += loss.detach()  # no .item() here: that would wait for the GPU after every micro-batch
    scaler.step(optimizer)  # the optimizer steps, not the model: DDP has no step() (fp16: unscaled first)
    scaler.update()
    return step_loss


def mean_over_ranks(value: torch.Tensor) -> float:
    """The mean of a 0-d tensor over all ranks, as a number: every rank reports the same loss."""
    t = value.detach().double()
    dist.all_reduce(t)
    return t.item() / dist.get_world_size()


def train(s: Settings, on_step=None) -> dict:
    """DDP training of the small GPT, run by every worker under ``launch`` or ``torchrun`` (lesson 03).

    ``on_step(step)``, if given, is called before each step (the notebook's crash demo passes one).
    Returns (every rank): ``losses`` (each step's, averaged over the ranks), ``final_loss``, ``start_step``
    (above 0 after a resume), ``samples_per_s`` and ``bytes_per_step`` (see ``instrumentation.Meter``),
    and on rank 0 the final weights, ``state``.
    """
    with threads(s.threads), process_group() as planned_device:  # env:// rendezvous, the planned backend
        device = torch.device(s.device) if s.device else planned_device
        if s.deterministic:
            deterministic_kernels()  # a rerun (the restart demo) repeats every sum on the GPU
        precision.use(s.precision)  # TF32 matmuls only where asked: "fp32" stays IEEE fp32
        scaler = precision.grad_scaler(s.precision, device)
        dataset = text_data(s)
        model, optimizer, start = build(s, dataset.corpus.vocab_size, device)  # moved, then resumed
        device_ids = [device.index] if device.type == "cuda" else None
        ddp_model = DDP(model, device_ids=device_ids, **s.ddp_options())
        keep_until_exit(ddp_model)  # freed at return, it could deadlock gloo's teardown: see its docstring
        register_hook(ddp_model, s.hook, s.powersgd_rank, s.powersgd_start)  # what the all-reduce sends
        # Rank r of W gets items r, r+W, r+2W, ... of each epoch's permutation: a share of its own.
        sampler = DistributedSampler(dataset, shuffle=True, seed=s.seed, drop_last=True)
        loader = DataLoader(dataset, batch_size=s.batch_per_worker, sampler=sampler, drop_last=True)
        batches = micro_batches(loader, sampler, start=start * s.accumulate)
        losses = []
        with Meter(s, start, device) as meter:  # samples/s, bytes per step, progress bar: instrumentation.py
            for step in range(start, s.steps):
                if on_step is not None:
                    on_step(step)
                with meter.step(step):  # times it, counts the bytes the hook all-reduces
                    loss = train_step(ddp_model, optimizer, batches, s.accumulate, device, s.precision,
                                      scaler)
                losses.append(mean_over_ranks(loss))  # the one wait for the GPU in each step
                meter.progress(losses[-1])
                if s.checkpoint and dist.get_rank() == 0 and (step + 1) % s.checkpoint_every == 0:
                    checkpoint.save(s.checkpoint, ddp_model, optimizer, step + 1)  # atomic
        return summary(s, model, losses, start, meter)


def summary(s: Settings, model: torch.nn.Module, losses: list[float], start: int, meter: Meter) -> dict:
    """What ``train`` returns: plain numbers (and rank 0's weights, on the CPU) that pickle back to the caller."""
    rank = dist.get_rank()
    result = {"rank": rank, "world_size": dist.get_world_size(), "start_step": start, "losses": losses,
              "final_loss": losses[-1] if losses else float("nan"), "parameters": models.count_parameters(model),
              **meter.report()}
    if rank == 0:
        result["state"] = {k: v.detach().cpu() for k, v in model.state_dict().items()}
    return result
