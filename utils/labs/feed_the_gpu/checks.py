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

import random
from collections.abc import Callable
from dataclasses import dataclass

import torch

from utils import checks, models
from utils.data import MNIST_MEAN, MNIST_STD
from utils.labs.feed_the_gpu.measure import IMAGE_SIDE, CountedDigits, Crossings
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

BANK = "labs/feed_the_gpu"  # the lab's hints: utils/labs/feed_the_gpu/hints.toml
ONE_LOADER_MARGIN = 0.2  # L below 80 % of C: one loader hides it; above 120 %: two are needed


@dataclass(frozen=True)
class LabSetup:
    """The lab's sizes (the checks measure the bound with the same ones): ``lab_setup(settings)`` makes them."""

    n_items: int
    batch_size: int
    item_seconds: float  # simulated storage time per image read
    step_seconds: float  # the step's floor: > 0 only where the device is simulated (cpu mode)
    tolerance: float = 0.10  # the epoch may be at most 10% over the bound
    loaders: int = 2  # the budget: at most this many reads at once (two cores' worth); the bound assumes it
    open_seconds: float = 0.0  # simulated one-off set-up per reading process: a worker started afresh pays it
    pin_memory: bool = False  # a GPU copies the batches: they must cross from pinned memory, asynchronously
    label: str = ""  # where the epoch was measured, appended to the check's figures
    copy_label: str = ""  # what the copy to the device crossed


def lab_setup(settings: Settings | None = None, seed: int | None = None) -> LabSetup:
    """Lab 05's sizes from lesson 05's settings (by default this machine's): CPU sizes and a paced step in cpu
    mode, GPU sizes and the real step on a GPU. With a ``seed``, the data set's costs are the learner's own
    draw (``draw_costs``): its read time makes some draws compute-bound with one loader and others need two."""
    s = settings if settings is not None else current_settings()
    read, opening = s.read_seconds, s.open_ms / 1e3
    if seed is not None:
        read, opening = draw_costs(s, seed)
    return LabSetup(s.items, s.batch, read, s.step_seconds, open_seconds=opening,
                    pin_memory=s.pin_memory, label=s.label, copy_label=s.transfer_label)


def draw_costs(s: Settings, seed: int) -> tuple[float, float]:
    """A learner's data set: (seconds to read one image, seconds to open it per reading process), drawn from
    ``seed``. Half the draws read an epoch in about half the compute time (one loader hides it), half in 1.5 to
    2.4 times it (two are needed); none near the edge, where the measurement could not tell. Where the step
    is real (a GPU) its time is unknown in advance: the lesson's read time is scaled instead."""
    rng = random.Random(seed)
    load_bound = rng.random() < 0.5
    ratio = rng.uniform(1.5, 2.4) if load_bound else rng.uniform(0.4, 0.6)
    compute = s.step_seconds * (s.items // s.batch)  # the paced step's floor; 0 on a GPU
    read = ratio * compute / s.items if compute else ratio * s.read_seconds / 1.5
    return read, rng.uniform(0.1, 0.3)


def loaders_needed(load: float, compute: float, margin: float = ONE_LOADER_MARGIN) -> int | None:
    """The fewest loaders that hide the reading of an epoch (``load`` s) behind its compute, from the two
    measured terms: 1 when one reader keeps up with a clear margin, 2 when it clearly cannot, None in between
    (the measurement cannot tell them apart)."""
    if load <= compute * (1 - margin):
        return 1
    if load >= compute * (1 + margin):
        return 2
    return None


def lab_dataset(setup: LabSetup) -> CountedDigits:
    """The lab's slow data set: uint8 images, ``item_seconds`` per read, ``open_seconds`` once per reading
    process; it counts the reads in flight (``peak_reads()``), for the budget of two loaders."""
    return CountedDigits(setup.n_items, setup.item_seconds, open_seconds=setup.open_seconds)


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


def transfer_verdict(crossed: Crossings, n_images: int, setup: LabSetup) -> str:
    """What crossed to the device in one pass, judged: every image once, as uint8, and on a GPU from pinned
    memory asynchronously. Fails naming what is wrong; returns the measured figures."""
    images = crossed.images()
    checks.expect(images, "no image crossed to the device: the batches must be sent there (measured: no copy to "
                          f"{crossed.target} was made)")
    wide = [c for c in images if c.dtype != torch.uint8]
    per_pixel = {c.dtype: c.nbytes // max(1, _numel(c)) for c in wide}
    checks.expect(not wide, f"images crossed to the device as {', '.join(map(str, per_pixel))} "
                            f"({'/'.join(map(str, per_pixel.values()))} bytes a pixel instead of 1): they were "
                            f"converted on the host, before the copy; send them as stored and convert after it")
    sent = sum(_numel(c) for c in images) // (IMAGE_SIDE * IMAGE_SIDE)
    checks.expect(sent == n_images, f"{sent} images crossed to the device for a pass over {n_images}: each image "
                                    "should cross once")
    if setup.pin_memory:  # a GPU: an asynchronous copy needs page-locked memory, else it waits for the copy
        pageable = sum(not c.pinned for c in images)
        checks.expect(not pageable, f"{pageable} of {len(images)} image batches crossed from pageable (not "
                                    "pinned) memory: such a copy cannot overlap the compute")
        blocking = sum(not c.non_blocking for c in images)
        checks.expect(not blocking, f"{blocking} of {len(images)} image batches were copied synchronously: the "
                                    "training loop waited for each copy")
    moved, labels = sum(c.nbytes for c in images), sum(c.nbytes for c in crossed.others())
    how = ("from pinned memory, asynchronously" if setup.pin_memory else
           "pinned memory does not apply: no GPU copies them")
    return (f"measured at the device: {sent} images crossed as uint8, {moved / 1e3:.0f} kB (as float32 "
            f"{4 * moved / 1e3:.0f} kB), with {labels / 1e3:.1f} kB of labels; {how}{setup.copy_label}")


def _numel(c) -> int:
    return int(torch.Size(c.shape).numel())


def check_data(make_batches: Callable, to_device_fn: Callable, device="cpu", setup: LabSetup | None = None,
               show: bool = True) -> checks.Verdict:
    """Lab 05: every item exactly once, the same float images after ``to_device``, and, measured at the
    device, every image crossing once as uint8 (on a GPU from pinned memory, asynchronously).

    The copies are recorded as they happen (``measure.Crossings``), wherever the learner makes them (in
    ``to_device`` or in a ``Prefetcher``). The images are compared within 1e-5: a GPU may divide by a
    constant as a multiplication by its inverse, one rounding away from the CPU's division.
    """
    setup = setup if setup is not None else lab_setup()

    def body():
        dataset = SlowDigits(setup.n_items, 0.0)  # no read cost: this check is about the data, not speed
        images_seen, labels_seen = [], []
        with loader_notes(show=False), Crossings(device) as crossed:
            for batch in make_batches(dataset):
                on_device = as_pair(to_device_fn(as_pair(batch, "make_batches(dataset)"), device),
                                    "to_device(batch, device)")
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
        return f"{len(labels)} items; " + transfer_verdict(crossed, len(dataset), setup)

    return checks.run_check("the right data, sent as uint8", body, show=show, hint=checks.stub_message(BANK, "B"))


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
        reads = dataset.peak_reads()  # measured in the data set, across the loader's processes and threads
        load = measure_load(dataset, setup.batch_size)
        compute = measure_compute(learner_step, [(dataset.images[i:i + setup.batch_size],
                                                  dataset.labels[i:i + setup.batch_size])
                                                 for i in range(0, len(dataset), setup.batch_size)])
        limit = bound(load, compute, setup.loaders)
        checks.expect(best.batches * setup.batch_size >= len(dataset),
                      f"an epoch gave {best.batches} batches of {setup.batch_size}; it must cover all "
                      f"{len(dataset)} items")
        checks.expect(reads <= setup.loaders,
                      f"up to {reads} reads of the data set ran at the same time (measured in the data set); "
                      f"the budget is {setup.loaders} loaders, two cores' worth: an epoch made faster by more "
                      f"loaders than that does not count (yours took {best.seconds:.2f} s)")
        needed = loaders_needed(load, compute)
        checks.expect(not (needed == 1 and reads > 1),
                      f"your draw reads an epoch in L = {load:.2f} s and computes it in C = {compute:.2f} s: one "
                      f"loader already hides the reading behind the compute, yet {reads} reads ran at once. The "
                      "lesson's configuration is not the answer for every data set: a second loader holds a "
                      "core and its memory for nothing here")
        yours = your_bottleneck(best, limit, setup.tolerance)
        if needed == 2 and reads < 2:
            yours += (f" One loader cannot keep up: L = {load:.2f} s of reading against C = {compute:.2f} s of "
                      "compute.")
        checks.expect(best.seconds <= limit * (1 + setup.tolerance),
                      f"your epoch took {best.seconds:.2f} s against a bound of {limit:.2f} s "
                      f"(bound / yours = {limit / best.seconds:.0%}; the target is within "
                      f"{setup.tolerance:.0%}){setup.label}. "
                      f"{yours} The bound: {bottleneck(load, compute, setup.loaders)}")
        return (f"epoch {best.seconds:.2f} s against a bound of {limit:.2f} s ({limit / best.seconds:.0%})"
                f"{setup.label}, with at most {reads} reads at once (budget {setup.loaders}; your draw needs "
                f"{needed or '1 or 2'}: L = {load:.2f} s, C = {compute:.2f} s). {yours}")

    return checks.run_check(f"epoch within {setup.tolerance:.0%} of the bound", body, show=show,
                            hint=checks.stub_message(BANK, "A"))
