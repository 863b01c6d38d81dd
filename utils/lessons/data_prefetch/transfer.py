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
