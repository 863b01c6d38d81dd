"""The batches each rank's ``DistributedSampler`` hands out, replayed in one process (lesson 03, labs 00 and 03).

A single-process reference that must equal a DDP run trains on exactly the batches the ranks saw together:
epoch after epoch, ``DistributedSampler(shuffle=True, seed=seed, drop_last=True)`` with ``set_epoch(epoch)``
and a ``DataLoader(batch_size, drop_last=True)`` on each rank.
"""

from __future__ import annotations

from torch.utils.data import DistributedSampler


def sampler_batches(n_items: int, batch_size: int, rank: int, world: int, seed: int, count: int) -> list[list[int]]:
    """The first ``count`` batches (lists of item indices) that rank ``rank`` of ``world`` trains on."""
    batches, epoch = [], 0
    while len(batches) < count:
        sampler = DistributedSampler(range(n_items), num_replicas=world, rank=rank, shuffle=True, seed=seed,
                                     drop_last=True)
        sampler.set_epoch(epoch)
        idx = list(sampler)
        batches += [idx[i:i + batch_size] for i in range(0, len(idx) - batch_size + 1, batch_size)]  # drop_last
        epoch += 1
    return batches[:count]


def global_batches(n_items: int, batch_size: int, world: int, seed: int, count: int) -> list[list[int]]:
    """The first ``count`` global batches: each step's batches of rank 0, 1, ... joined into one index list."""
    per_rank = [sampler_batches(n_items, batch_size, rank, world, seed, count) for rank in range(world)]
    return [[i for batch in step for i in batch] for step in zip(*per_rank)]
