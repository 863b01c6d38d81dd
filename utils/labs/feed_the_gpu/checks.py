"""Lab 05 (``labs/05_feed_the_gpu.ipynb``), feed the GPU: the checks of the learner's loading set-up.

The learner writes ``make_batches(dataset)`` (an iterable of (images, labels) batches: loader settings, maybe
a ``Prefetcher``) and ``to_device(batch, device)`` (the images cross as uint8 and are converted there). Both
are called inside the checks, so an unfinished exercise reports "not done yet" instead of stopping the
notebook.

    SETUP = lab_setup(lesson_settings(devices.plan(2), devices.hardware()))   # this machine's sizes
    check_data(make_batches, to_device, DEVICE, SETUP)    # every item once, uint8 on the way, the right floats
    check_epoch(make_batches, to_device, DEVICE, SETUP)   # the epoch within 10% of max(L/2, C), measured here
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import torch

from utils import checks, models
from utils.data import MNIST_MEAN, MNIST_STD
from utils.lessons.data_prefetch.dataset import SlowDigits, decode_images
from utils.lessons.data_prefetch.epoch import (
    EpochResult,
    best_of_epochs,
    bottleneck,
    bound,
    measure_compute,
    measure_load,
)
from utils.lessons.data_prefetch.loaders import loader_notes
from utils.lessons.data_prefetch.plan import Settings, current_settings
from utils.lessons.data_prefetch.step import paced, train_step


@dataclass(frozen=True)
class LabSetup:
    """The lab's sizes (the checks measure the bound with the same ones): ``lab_setup(settings)`` makes them."""

    n_items: int
    batch_size: int
    item_seconds: float  # simulated storage time per image read
    step_seconds: float  # the step's floor: > 0 only where the device is simulated (cpu mode)
    tolerance: float = 0.10  # the epoch may be at most 10% over the bound
    loaders: int = 2  # the bound assumes loading split over this many loaders
    label: str = ""  # where the epoch was measured, appended to the check's figures
    copy_label: str = ""  # what the copy to the device crossed


def lab_setup(settings: Settings | None = None) -> LabSetup:
    """Lab 05's sizes from lesson 05's settings (by default this machine's): CPU sizes and a paced step in cpu
    mode, GPU sizes and the real step on a GPU."""
    s = settings if settings is not None else current_settings()
    return LabSetup(s.items, s.batch, s.read_seconds, s.step_seconds, label=s.label, copy_label=s.transfer_label)


def lab_dataset(setup: LabSetup) -> SlowDigits:
    """The lab's slow data set: uint8 images, ``item_seconds`` per read."""
    return SlowDigits(setup.n_items, setup.item_seconds)


def lab_step(device, setup: LabSetup):
    """The lab's training step (ArticleCNN, seed 0), held to at least ``step_seconds`` (cpu mode only)."""
    return paced(train_step(models.ArticleCNN(seed=0), device), setup.step_seconds)


def as_pair(batch, what: str):
    """``batch`` if it is an (images, labels) pair; else the check fails saying what gave it."""
    checks.expect(isinstance(batch, (tuple, list)) and len(batch) == 2,
                  f"{what} should give (images, labels) pairs, got {type(batch).__name__}")
    return batch


def as_stored(images: torch.Tensor) -> torch.Tensor:
    """Decoded float images back to the uint8 values they were decoded from (rounded to the nearest level)."""
    return ((images.double() * MNIST_STD + MNIST_MEAN) * 255).round().clamp(0, 255).to(torch.uint8)


def item_counts(images: torch.Tensor, labels: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """The distinct (label, uint8 pixels) items and how often each occurs: a pass compared as a multiset."""
    rows = torch.cat([labels[:, None].to(torch.int16), images.flatten(1).to(torch.int16)], dim=1)
    return torch.unique(rows, dim=0, return_counts=True)


def expect_every_item_once(images: torch.Tensor, labels: torch.Tensor, dataset: SlowDigits) -> None:
    """In any order, the learner's decoded items are the data set's, each as often as it occurs there (the
    data set repeats its 1,437 digits when it is larger); fails on a missing or duplicated item."""
    mine, theirs = item_counts(as_stored(images), labels), item_counts(dataset.images, dataset.labels)
    checks.expect(torch.equal(mine[0], theirs[0]) and torch.equal(mine[1], theirs[1]),
                  "some items came twice and others never: one pass must give every item once")


def check_data(make_batches: Callable, to_device_fn: Callable, device="cpu", setup: LabSetup | None = None,
               show: bool = True) -> checks.Verdict:
    """Lab 05: every item exactly once, in uint8 on the way, and the same float images after ``to_device``.

    The images are compared within 1e-5: a GPU may divide by a constant as a multiplication by its inverse,
    one rounding away from the CPU's division.
    """
    setup = setup if setup is not None else lab_setup()

    def body():
        dataset = SlowDigits(setup.n_items, 0.0)  # no read cost: this check is about the data, not speed
        images_seen, labels_seen, moved = [], [], 0
        with loader_notes(show=False):
            batches = list(make_batches(dataset))
        for batch in batches:
            images, labels = as_pair(batch, "make_batches(dataset)")
            checks.expect(images.dtype == torch.uint8,
                          f"the batches carry {images.dtype} images; send uint8 (4x fewer bytes) and convert "
                          f"on the device")
            moved += images.numel() * images.element_size()
            on_device = as_pair(to_device_fn((images, labels), device), "to_device(batch, device)")
            images_seen.append(on_device[0].detach().cpu())
            labels_seen.append(on_device[1].detach().cpu())
        checks.expect(images_seen, "make_batches(dataset) gave no batches")
        images, labels = torch.cat(images_seen), torch.cat(labels_seen)
        checks.expect(len(labels) == len(dataset),
                      f"one pass gave {len(labels)} items; the data set has {len(dataset)}")
        checks.expect(images.dtype == torch.float32,
                      f"to_device gave {images.dtype} images; the model needs float32, made on the device")
        if torch.equal(labels, dataset.labels):  # in order: item by item
            checks.expect_close(images, decode_images(dataset.images), atol=1e-5, what="your images after to_device")
        else:  # shuffled: normalised as decode_images does, and the same items as a multiset
            checks.expect_close(images, decode_images(as_stored(images)), atol=1e-5,
                                what="your images after to_device")
            expect_every_item_once(images, labels, dataset)
        return (f"{len(labels)} items, {moved / 1e6:.1f} MB crossed as uint8 ({4 * moved / 1e6:.1f} MB as "
                f"float32){setup.copy_label}")

    return checks.run_check("the right data, sent as uint8", body, show=show,
                            hint="batches carry the images as stored (one byte a pixel); they become float32 "
                                 "where they land, on the device (lesson 05 §5)")


def your_bottleneck(epoch: EpochResult, limit: float, tolerance: float) -> str:
    """Which stage held the learner's own epoch back, from how long the device waited for data."""
    if epoch.wait_seconds > tolerance * limit:
        return (f"In your run loading is the bottleneck: the device waited {epoch.wait_seconds:.2f} s for "
                f"data ({epoch.wait_seconds / epoch.seconds:.0%} of the epoch).")
    return (f"In your run compute is the bottleneck: the device waited only {epoch.wait_seconds:.2f} s "
            f"for data.")


def check_epoch(make_batches: Callable, to_device_fn: Callable, device="cpu", setup: LabSetup | None = None,
                show: bool = True) -> checks.Verdict:
    """Lab 05: a training epoch over the learner's batches within ``tolerance`` of the bound.

    The bound is max(load / loaders, compute), both measured in this run. The learner's iterable runs two
    epochs and the faster counts (a loader's workers start in the first; persistent ones stay for the second).
    """
    setup = setup if setup is not None else lab_setup()

    def body():
        dataset = lab_dataset(setup)
        step = lab_step(device, setup)

        def learner_step(batch):
            step(to_device_fn(tuple(batch), device))

        best = best_of_epochs(make_batches(dataset), learner_step)
        load = measure_load(dataset, setup.batch_size)
        compute = measure_compute(learner_step, [(dataset.images[i:i + setup.batch_size],
                                                  dataset.labels[i:i + setup.batch_size])
                                                 for i in range(0, len(dataset), setup.batch_size)])
        limit = bound(load, compute, setup.loaders)
        checks.expect(best.batches * setup.batch_size >= len(dataset),
                      f"an epoch gave {best.batches} batches of {setup.batch_size}; it must cover all "
                      f"{len(dataset)} items")
        yours = your_bottleneck(best, limit, setup.tolerance)
        checks.expect(best.seconds <= limit * (1 + setup.tolerance),
                      f"your epoch took {best.seconds:.2f} s against a bound of {limit:.2f} s "
                      f"(bound / yours = {limit / best.seconds:.0%}; the target is within "
                      f"{setup.tolerance:.0%}){setup.label}. "
                      f"{yours} The bound: {bottleneck(load, compute, setup.loaders)}")
        return (f"epoch {best.seconds:.2f} s against a bound of {limit:.2f} s ({limit / best.seconds:.0%})"
                f"{setup.label}. {yours}")

    return checks.run_check(f"epoch within {setup.tolerance:.0%} of the bound", body, show=show,
                            hint="read in parallel with the compute: two loaders sharing the reads, with "
                                 "workers that persist between epochs; a Prefetcher on top takes the hand-over "
                                 "off the training loop")
