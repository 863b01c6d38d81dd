"""Lesson 05's transfer compression: a batch of images moved as float32, or as uint8 and converted there.

    result = measure_transfer(32, "cuda:0")      # 3 x 224 x 224 images
    result.byte_ratio                            # 4.0: one byte per pixel instead of four
    host_to_device(128, "cuda:0")                # {"pageable": s, "pinned": s}: the same copy from each memory
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

from utils import bench
from utils.lessons.data_prefetch.dataset import decode_into


@dataclass
class TransferResult:
    """Moving one batch of images as float32 vs as uint8 converted on the device (lesson 05)."""

    float_bytes: int
    uint8_bytes: int
    float_seconds: float  # copy float32
    uint8_seconds: float  # copy uint8 only
    uint8_decode_seconds: float  # copy uint8, then convert on the device

    @property
    def byte_ratio(self) -> float:
        return self.float_bytes / self.uint8_bytes


def measure_transfer(n_images: int, device, side: int = 224, repeats: int = 5) -> TransferResult:
    """Time moving ``n_images`` 3 x side x side images to ``device``: float32, uint8, uint8 + convert there.

    On a GPU the source is pinned and the copy crosses PCIe; on CPU the "transfer" is a copy in memory. Every
    destination, the converted float32 images included, is allocated once on the device, as a training loop's
    buffers are after its first batch; the conversion is ``decode_images``' own (``/ 255``, then normalise).
    """
    device = str(device)
    on_gpu = device.startswith("cuda")
    images = torch.randint(0, 256, (n_images, 3, side, side), dtype=torch.uint8)  # 1 byte a pixel
    as_float = images.float()  # the same images, 4 bytes a pixel
    if on_gpu:
        images, as_float = images.pin_memory(), as_float.pin_memory()
    float_dst, uint8_dst = torch.empty_like(as_float, device=device), torch.empty_like(images, device=device)
    decoded = torch.empty_like(float_dst)  # where the conversion writes, on the device

    def timed(copy):
        return bench.measure(copy, repeats=repeats, device=device).median

    float_s = timed(lambda: float_dst.copy_(as_float, non_blocking=on_gpu))
    uint8_s = timed(lambda: uint8_dst.copy_(images, non_blocking=on_gpu))
    decode_s = timed(lambda: decode_into(uint8_dst.copy_(images, non_blocking=on_gpu), decoded))
    return TransferResult(as_float.numel() * 4, images.numel(), float_s, uint8_s, decode_s)


def host_to_device(n_images: int, device, side: int = 224, repeats: int = 5) -> dict[str, float]:
    """Seconds to copy ``n_images`` float32 3 x side x side images to ``device`` from pageable and pinned memory.

    GPU only. From pageable memory the driver stages the bytes through its own page-locked buffer; from pinned
    memory the copy engine reads them directly. Both copies go into one buffer allocated once on the device.
    """
    pageable = torch.randint(0, 256, (n_images, 3, side, side), dtype=torch.uint8).float()
    sources = {"pageable": pageable, "pinned": pageable.pin_memory()}
    destination = torch.empty_like(pageable, device=device)
    return {name: bench.measure(lambda s=source: destination.copy_(s, non_blocking=True), repeats=repeats,
                                device=device).median
            for name, source in sources.items()}


def batch_bytes(n_images: int, side: int = 224) -> dict[str, int]:
    """Bytes of a batch of ``n_images`` 3 x side x side images as each dtype crosses the link (lesson 05)."""
    pixels = n_images * 3 * side * side
    return {"float32": pixels * 4, "uint8": pixels}


def input_link_plan(plan):
    """The plan whose link a batch of inputs crosses: in cpu mode the two workers' gloo link (the simulated
    link); on a GPU host to the first GPU (a one-device plan: ``machine.link_route`` names it)."""
    from utils import devices

    return plan if plan.simulated else devices.plan(1)


def link_sizes(batches: dict[str, int]) -> list[int]:
    """The sizes the link is measured at: 64 KiB to 16 MiB for its fit (the batches' range, where the bytes
    cost more than the message), then the batches themselves."""
    return [2**16, 2**18, 2**20, 2**22, 2**24] + sorted(batches.values())


def recorded_gpu_copy(folder=None) -> str | None:
    """The ``copy`` benchmark's pinned host-to-GPU figure from a results file recorded on a GPU, in one line
    with its hardware; None when no results file of a GPU mode holds one (lesson 05, cpu mode)."""
    import json
    from pathlib import Path

    folder = Path(folder or Path(__file__).resolve().parents[3] / "results")
    for mode in ("1gpu", "2gpu", "ngpu"):
        file = folder / f"bench-{mode}.json"
        entries = json.loads(file.read_text()) if file.is_file() else []
        for r in entries:
            if r.get("name") == "copy":
                return (f"{r['note']}: {r['measured']:.1f} {r['unit']} against a bound of {r['bound']:.1f} "
                        f"{r['unit']}, recorded on {r['hardware']} ({file.name})")
    return None
