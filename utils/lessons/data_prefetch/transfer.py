"""Lesson 05's transfer compression: a batch of images moved as float32, or as uint8 and converted there.

    result = measure_transfer(32, "cuda:0")      # 3 x 224 x 224 images
    result.byte_ratio                            # 4.0: one byte per pixel instead of four
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

from utils import bench


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

    On a GPU the source is pinned and the copy crosses PCIe; on CPU the "transfer" is a copy in memory.
    """
    device = str(device)
    on_gpu = device.startswith("cuda")
    images = torch.randint(0, 256, (n_images, 3, side, side), dtype=torch.uint8)  # 1 byte a pixel
    as_float = images.float()  # the same images, 4 bytes a pixel
    if on_gpu:
        images, as_float = images.pin_memory(), as_float.pin_memory()

    # Destinations allocated once on the device, as a training loop's buffers would be after the first batch.
    float_dst, uint8_dst = torch.empty_like(as_float, device=device), torch.empty_like(images, device=device)
    def timed(copy):
        return bench.measure(copy, repeats=repeats, device=device).median

    float_s = timed(lambda: float_dst.copy_(as_float, non_blocking=on_gpu))
    uint8_s = timed(lambda: uint8_dst.copy_(images, non_blocking=on_gpu))
    decode_s = timed(lambda: uint8_dst.copy_(images, non_blocking=on_gpu).float().div_(255))  # convert there
    return TransferResult(as_float.numel() * 4, images.numel(), float_s, uint8_s, decode_s)
