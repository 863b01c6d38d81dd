"""Lab 05 (``labs/05_feed_the_gpu.ipynb``), feed the GPU: the checks of the learner's loading set-up.

The learner writes ``make_batches(dataset)`` (an iterable of (images, labels) batches: loader settings, maybe
a ``Prefetcher``) and ``to_device(batch, device)`` (the images cross as uint8 and are converted there). Both
are called inside the checks, so an unfinished exercise reports "not done yet" instead of stopping the
notebook.

    check_data(make_batches, to_device, DEVICE)    # every item once, uint8 on the way, the right floats after
    check_epoch(make_batches, to_device, DEVICE)   # the epoch within 10% of max(L/2, C), both measured here
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import torch

from utils import checks, models
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
from utils.lessons.data_prefetch.step import paced, train_step


@dataclass(frozen=True)
class LabSetup:
    """The lab's fixed sizes (the checks measure the bound with the same ones)."""

    n_items: int = 512
    batch_size: int = 16
    item_seconds: float = 0.003
    step_seconds: float = 0.04
    tolerance: float = 0.10  # the epoch may be at most 10% over the bound
    loaders: int = 2  # the bound assumes loading split over this many loaders


LAB = LabSetup()


def lab_dataset(setup: LabSetup = LAB) -> SlowDigits:
    """The lab's slow data set: uint8 images, ``item_seconds`` per read."""
    return SlowDigits(setup.n_items, setup.item_seconds)


def lab_step(device, setup: LabSetup = LAB):
    """The lab's training step (ArticleCNN, seed 0), at least ``step_seconds`` long in cpu mode."""
    floor = setup.step_seconds if not str(device).startswith("cuda") else 0.0
    return paced(train_step(models.ArticleCNN(seed=0), device), floor)


def as_pair(batch, what: str):
    """``batch`` if it is an (images, labels) pair; else the check fails saying what gave it."""
    checks.expect(isinstance(batch, (tuple, list)) and len(batch) == 2,
                  f"{what} should give (images, labels) pairs, got {type(batch).__name__}")
    return batch


def match_items(images: torch.Tensor, dataset: SlowDigits) -> torch.Tensor:
    """The data set index of each image (for shuffled batches); fails on a missing or duplicated item."""
    reference = decode_images(dataset.images).flatten(1)
    nearest = torch.cdist(images.flatten(1).double(), reference.double()).argmin(dim=1)
    checks.expect(len(set(nearest.tolist())) == len(dataset),
                  "some items came twice and others never: one pass must give every item once")
    return nearest


def check_data(make_batches: Callable, to_device_fn: Callable, device="cpu", setup: LabSetup = LAB,
               show: bool = True) -> checks.Verdict:
    """Lab 05: every item exactly once, in uint8 on the way, and the same float images after ``to_device``."""

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
        order = torch.arange(len(dataset))
        if not torch.equal(labels, dataset.labels):  # shuffled: compare as multisets of (label, pixels)
            order = match_items(images, dataset)
        checks.expect_close(images, decode_images(dataset.images[order]), atol=1e-5,
                            what="your images after to_device")
        where = "" if str(device).startswith("cuda") else " (simulated on CPU: the copy stays in memory)"
        return (f"{len(labels)} items, {moved / 1e3:.0f} kB crossed as uint8 ({4 * moved / 1e3:.0f} kB as "
                f"float32){where}")

    return checks.run_check("the right data, sent as uint8", body, show=show,
                            hint="yield (uint8 images, labels); to_device moves them, then decode_images on "
                                 "the device")


def your_bottleneck(epoch: EpochResult, limit: float, tolerance: float) -> str:
    """Which stage held the learner's own epoch back, from how long the device waited for data."""
    if epoch.wait_seconds > tolerance * limit:
        return (f"In your run loading is the bottleneck: the device waited {epoch.wait_seconds:.2f} s for "
                f"data ({epoch.wait_seconds / epoch.seconds:.0%} of the epoch).")
    return (f"In your run compute is the bottleneck: the device waited only {epoch.wait_seconds:.2f} s "
            f"for data.")


def check_epoch(make_batches: Callable, to_device_fn: Callable, device="cpu", setup: LabSetup = LAB,
                show: bool = True) -> checks.Verdict:
    """Lab 05: a training epoch over the learner's batches within ``tolerance`` of the bound.

    The bound is max(load / loaders, compute), both measured in this run. The learner's iterable runs two
    epochs and the faster counts (a loader's workers start in the first; persistent ones stay for the second).
    """

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
                      f"{setup.tolerance:.0%}). "
                      f"{yours} The bound: {bottleneck(load, compute, setup.loaders)}")
        where = "" if str(device).startswith("cuda") else " (simulated on CPU)"
        return (f"epoch {best.seconds:.2f} s against a bound of {limit:.2f} s ({limit / best.seconds:.0%})"
                f"{where}. {yours}")

    return checks.run_check(f"epoch within {setup.tolerance:.0%} of the bound", body, show=show,
                            hint="load in parallel with the compute: num_workers=2 (persistent, so they "
                                 "start once), or a Prefetcher")
