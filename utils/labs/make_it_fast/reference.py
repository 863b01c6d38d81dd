"""Lab 08's reference plan: the slow script with the lessons' fixes, the speed the lab's speed check compares
the learner's script with, in the same run. (Reading it before you solve the lab spoils it.)

Launched by the checks on two workers: ``launch(reference_train, STEPS, nprocs=2)``.
"""

from __future__ import annotations

import contextlib

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, DistributedSampler

from utils.labs.make_it_fast import script as lab
from utils.launch import current_backend, current_device, keep_until_exit


def reference_train(steps: int = lab.STEPS) -> dict:
    """The same training as ``script.slow_train``, fast: one thread per worker (the launcher's), a loader
    process reading ahead, one all-reduce per optimizer step, the loss read once a step, evaluations and
    checkpoints as often as the specification asks."""
    device = current_device()
    dist.init_process_group(current_backend())
    dataset = lab.text()
    model = lab.build_model(dataset.corpus.vocab_size).to(device)
    ddp_model = keep_until_exit(DDP(model, device_ids=[device.index] if device.type == "cuda" else None))
    sampler = DistributedSampler(dataset, shuffle=True, seed=lab.SEED, drop_last=True)
    loader = DataLoader(dataset, batch_size=lab.MICRO_BATCH, sampler=sampler, drop_last=True, num_workers=1,
                        persistent_workers=True, prefetch_factor=8, pin_memory=device.type == "cuda")
    optimizer = torch.optim.AdamW(ddp_model.parameters(), lr=lab.LR)
    batches = lab.micro_batches(loader, sampler)
    losses, held_out = [], {}
    for step in range(1, steps + 1):
        optimizer.zero_grad()
        step_loss = torch.zeros((), device=device)
        for k in range(lab.ACCUMULATE):
            x, y = (t.to(device, non_blocking=True) for t in next(batches))
            last = k == lab.ACCUMULATE - 1
            with contextlib.nullcontext() if last else ddp_model.no_sync():
                loss = ddp_model(x, y)[1] / lab.ACCUMULATE
                loss.backward()
            step_loss += loss.detach()
        optimizer.step()
        losses.append(step_loss.item())  # one wait for the device a step
        if step % lab.EVAL_EVERY == 0:
            held_out[step] = lab.evaluate(model)
        if step % lab.CHECKPOINT_EVERY == 0 and dist.get_rank() == 0:
            lab.save_checkpoint(model, optimizer, step)
    del batches, loader  # the loader's process ends with its iterator
    dist.destroy_process_group()
    return {"losses": losses, "held_out": held_out}
