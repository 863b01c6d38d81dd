"""Lesson 06, section 5: PyTorch's caching allocator on a GPU, reserved against allocated, and a pattern that
fragments it. On the CPU, tensors come from the C library's ``malloc``: no cache of PyTorch's own to inspect.

    fragmentation(device)     # on a GPU: a dict of MB allocated / reserved at each stage; None on the CPU
"""

from __future__ import annotations

import torch

MB = 2**20
CPU_NOTE = ("On the CPU, PyTorch takes each tensor's memory from the C library's malloc and gives it back on "
            "free: there is no caching allocator of PyTorch's to inspect, torch.cuda.memory_reserved, "
            "empty_cache and PYTORCH_CUDA_ALLOC_CONF do not apply, and fragmentation (if any) is malloc's. "
            "What does apply on every device: the budget above, and checkpointing, accumulation, precision and "
            "sharding, which take bytes off its lines.")


def fragmentation(device, pieces: int = 16, piece_mb: int = 64) -> list[tuple[str, float, float]] | None:
    """On a GPU: allocate ``pieces`` blocks of ``piece_mb`` MB, free every other one, then ask for one block
    twice as large; (stage, MB allocated, MB reserved) after each stage, then after ``empty_cache``. The freed
    blocks add up to half the reserved memory, yet none of the holes fits the larger block: the allocator must
    reserve more. None on the CPU. Lesson 06."""
    device = torch.device(device)
    if device.type != "cuda":
        return None
    stages = []

    def note(stage):
        torch.cuda.synchronize(device)
        stages.append((stage, torch.cuda.memory_allocated(device) / MB, torch.cuda.memory_reserved(device) / MB))

    torch.cuda.empty_cache()
    note("start")
    n = piece_mb * MB // 4
    blocks = [torch.empty(n, device=device) for _ in range(pieces)]
    note(f"{pieces} blocks of {piece_mb} MB")
    for i in range(0, pieces, 2):
        blocks[i] = None
    note("every other block freed")
    big = torch.empty(2 * n, device=device)
    note(f"one block of {2 * piece_mb} MB")
    del big, blocks
    note("all freed (still reserved: cached)")
    torch.cuda.empty_cache()
    note("after torch.cuda.empty_cache()")
    return stages
