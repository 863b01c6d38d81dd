"""DDP's averaged gradient is the full batch's gradient: the check of lesson 03, section 2.

Two ranks each run one step of the recipe (``recipe.train_step``, with ``no_sync`` accumulation) on their
rows of a fixed global batch; one process computes the gradient of the whole batch at once. With equal
shares, the average of the ranks' mean-loss gradients is the gradient of the mean loss over the whole batch.
"""

from __future__ import annotations

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

from utils.launch import keep_until_exit, process_group
from utils.lessons.ddp.hooks import register_hook
from utils.lessons.ddp.recipe import train_step
from utils.lessons.ddp.settings import Settings, build_model, text_data


def flat_grad(model: torch.nn.Module) -> torch.Tensor:
    """Every parameter's gradient, concatenated into one vector on the CPU: (number of parameters,)."""
    return torch.cat([p.grad.detach().reshape(-1).cpu() for p in model.parameters()])


def fixed_global_batch(s: Settings, world: int = 2) -> tuple[torch.Tensor, torch.Tensor]:
    """The first ``world x batch_per_worker x accumulate`` windows of the text: x, y (N, T) int64."""
    dataset = text_data(s)
    n = world * s.batch_per_worker * s.accumulate
    xs, ys = zip(*(dataset[i] for i in range(n)))
    return torch.stack(xs), torch.stack(ys)


def ddp_gradients(s: Settings) -> torch.Tensor:
    """One ``train_step`` on each rank over its rows of ``fixed_global_batch``: the gradient DDP averaged.

    Rank r takes rows r, r+world, ... and splits them into ``accumulate`` micro-batches. ``optimizer.step()``
    leaves ``.grad`` as it was, so the returned vector (fp32, CPU) is the gradient the step applied.
    """
    with process_group(backend="gloo" if s.device == "cpu" else None) as planned_device:
        device = torch.device(s.device) if s.device else planned_device
        rank, world = dist.get_rank(), dist.get_world_size()
        x, y = fixed_global_batch(s, world)
        x, y = x[rank::world], y[rank::world]  # (batch_per_worker x accumulate, T) each
        model = build_model(s, text_data(s).corpus.vocab_size).to(device)
        ddp_model = DDP(model, device_ids=[device.index] if device.type == "cuda" else None)
        keep_until_exit(ddp_model)  # freed at return, it could deadlock gloo's teardown: see its docstring
        register_hook(ddp_model, s.hook, s.powersgd_rank, s.powersgd_start)
        optimizer = torch.optim.AdamW(model.parameters(), lr=s.lr)
        micro_batches = iter(zip(x.chunk(s.accumulate), y.chunk(s.accumulate)))
        train_step(ddp_model, optimizer, micro_batches, s.accumulate, device)
        return flat_grad(model)


def full_batch_gradient(s: Settings, world: int = 2) -> torch.Tensor:
    """The reference: one process, one backward over the whole global batch (CPU, fp32)."""
    x, y = fixed_global_batch(s, world)
    model = build_model(s, text_data(s).corpus.vocab_size)
    model.loss(x, y).backward()
    return flat_grad(model)
