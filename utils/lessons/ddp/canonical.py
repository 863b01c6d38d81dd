"""The canonical DDP recipe, as PyTorch's own tutorial writes it, on the course's small GPT (lesson 03).

Nothing of the course is in ``main`` below: no timing, no byte counting, no progress bar, no checkpoint. Run it
on one machine with two processes, in a shell:

    torchrun --nproc-per-node 2 -m utils.lessons.ddp.canonical

``recipe.train`` (what the notebook launches) is this recipe plus the course's instrumentation, each piece
named in the lesson where it is shown.
"""

from __future__ import annotations

import os

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, DistributedSampler

from utils.lessons.ddp.settings import Settings, build_model, text_data


def main(steps: int = 20, batch_per_worker: int = 16, lr: float = 3e-3) -> float:
    """DDP training in the tutorial's shape; returns this rank's last loss."""
    use_cuda = torch.cuda.is_available()
    dist.init_process_group("nccl" if use_cuda else "gloo")  # torchrun set RANK, WORLD_SIZE, MASTER_ADDR/PORT
    local_rank = int(os.environ.get("LOCAL_RANK", 0))
    device = torch.device(f"cuda:{local_rank}" if use_cuda else "cpu")
    if use_cuda:
        torch.cuda.set_device(device)

    s = Settings(batch_per_worker=batch_per_worker)
    dataset = text_data(s)
    model = build_model(s, dataset.corpus.vocab_size).to(device)  # move first ...
    ddp_model = DDP(model, device_ids=[local_rank] if use_cuda else None)  # ... then wrap (rank 0's weights)
    optimizer = torch.optim.AdamW(ddp_model.parameters(), lr=lr)
    sampler = DistributedSampler(dataset, shuffle=True, seed=0, drop_last=True)  # each rank its own share
    loader = DataLoader(dataset, batch_size=batch_per_worker, sampler=sampler, drop_last=True)

    step, epoch = 0, 0
    while step < steps:
        sampler.set_epoch(epoch)  # a new shuffle each epoch, the same on every rank
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            optimizer.zero_grad(set_to_none=True)
            loss = ddp_model(x, y)[1]  # the small GPT returns (logits, loss)
            loss.backward()  # DDP averages the gradients over the ranks, bucket by bucket, in here
            optimizer.step()  # the optimizer steps: DDP has no step()
            step += 1
            if step == steps:
                break
        epoch += 1
    dist.destroy_process_group()
    return loss.item()


if __name__ == "__main__":
    print(f"rank {os.environ.get('RANK')}: final loss {main():.3f}")
