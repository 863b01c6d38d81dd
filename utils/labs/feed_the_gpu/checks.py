"""Lab 05 (``labs/05_feed_the_gpu.ipynb``), feed the GPU: the checks of the learner's loading set-up.

The learner writes ``make_batches(dataset)`` (an iterable of (images, labels) batches: loader settings, maybe
a ``Prefetcher``), still uint8; ``to_device(batch, device)`` (lesson 05's: uint8 across the link, converted
there) is the notebook's. Both are called inside the checks, so an unfinished exercise reports "not done yet"
instead of stopping the notebook. Exercise B, the cache, is checked in ``cache.py``.

    SETUP = lab_setup(lesson_settings(devices.plan(2), devices.hardware()))   # this machine's sizes
    check_data(make_batches, to_device, DEVICE, SETUP)    # every item once, uint8 on the way, the right floats
    check_epoch(make_batches, to_device, DEVICE, SETUP)   # the epoch within 10% of max(L/2, C), measured here

A learner's draw (``lab_setup(S, seed)``) is bursty: its mean read keeps up with one loader, and runs of slow
batches decide whether one loader reading far ahead or two reading less far meet the bound holding less memory
(a loader holds ``loader_batches`` batches' worth, a batch read ahead one). The epoch check measures both in
the data set (reads at once, batches read ahead of the step) and fails too few (the epoch misses the bound) and
too much memory held (beyond the least that meets it, found in a simulated epoch); and, as lab 08 does, any
batch read by the training process itself.
"""

from __future__ import annotations

import math
import random
import textwrap
import time
from typing import NamedTuple
from collections.abc import Callable
from dataclasses import dataclass, field

import torch

from utils import checks, claims, models
from utils.data import MNIST_MEAN, MNIST_STD
from utils.labs.feed_the_gpu.against_bound import (  # noqa: F401 - the epoch against its bound, read here
    STEPS_NOISE, _against_bound, _bound_uses, _over_by, bound_source, closest_to_bound, epoch_bound, own_steps,
    steps_set_bound)
from utils.labs.feed_the_gpu.measure import IMAGE_SIDE, CountedDigits, Crossings
from utils.labs.feed_the_gpu.memory import allowance_words, expect_no_excess, held_memory
from utils.lessons.data_prefetch.dataset import SlowDigits, decode_images
from utils.lessons.data_prefetch.epoch import (
    EpochResult,
    bottleneck,
    measure_compute,
    measure_load,
    run_epoch,
)
from utils.lessons.data_prefetch.loaders import loader_notes
from utils.lessons.data_prefetch.plan import Settings, current_settings
from utils.lessons.data_prefetch.step import paced, train_step

BANK = "labs/feed_the_gpu"  # the lab's hints: utils/labs/feed_the_gpu/hints.toml
ONE_LOADER_MARGIN = 0.2  # L below 80 % of C: one loader hides it; above 120 %: two are needed
LOADER_BATCHES = 3  # a loader process holds as much memory as 3 batches read ahead (its copy of the data set,
#                     its buffers): a setting of the lab, the price of a loader in the memory the spec counts


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
    loader_batches: int = LOADER_BATCHES  # the memory one loader process holds, in batches' worth (a setting)
    # The draw's bursts, kept out of the set-up's printout (the learner finds them by timing reads):
    every: int = field(default=0, repr=False)  # a run of slow batches starts every ``every`` batches (0: even)
    factor: float = field(default=1.0, repr=False)  # a slow batch's read in mean reads; the others less
    run: int = field(default=1, repr=False)  # slow batches one after another in each run


def lab_setup(settings: Settings | None = None, seed: int | None = None) -> LabSetup:
    """Lab 05's sizes from lesson 05's settings (by default this machine's): CPU sizes and a paced step in cpu
    mode, GPU sizes and the real step on a GPU. With a ``seed``, the data set's costs are the learner's own
    draw (``draw_costs``): how fast it reads on average and how bursty it is decide how many loaders and how
    deep a read-ahead it needs."""
    s = settings if settings is not None else current_settings()
    if seed is None:
        return LabSetup(s.items, s.batch, s.read_seconds, s.step_seconds, open_seconds=s.open_ms / 1e3,
                        pin_memory=s.pin_memory, label=s.label, copy_label=s.transfer_label)
    draw = draw_costs(s, seed)
    return LabSetup(s.items, s.batch, draw.read, s.step_seconds, open_seconds=draw.opening,
                    pin_memory=s.pin_memory, label=s.label, copy_label=s.transfer_label, every=draw.every,
                    factor=draw.factor, run=draw.run)


class Needs(NamedTuple):
    loaders: int | None  # 1 or 2: the loaders of the configuration that meets the target holding least memory
    depth: int | None  # batches read ahead of the step in that configuration
    memory: int | None = None  # what it holds, in batches' worth: loaders x ``loader_batches`` + depth


SIMULATED_TARGET = 0.02  # a configuration "meets the target" in simulation within 2 % of C: the real epoch
#                          adds its start and the hand-overs, and the check allows 10 %


def _simulated_epoch(reads: list[float], step: float, workers: int, per_worker: int) -> float:
    """Seconds of one epoch in a model of a ``DataLoader`` with ``workers`` persistent workers each asked for
    ``per_worker`` batches ahead (``prefetch_factor``): batch ``j`` goes to worker ``j % workers``, which reads
    its batches one after another (``reads[j]`` s each); taking a batch asks for the next one; each step takes
    ``step`` s. Lab 05's checks work out what a draw needs with it."""
    ahead = workers * per_worker
    free, done = [0.0] * workers, [0.0] * len(reads)

    def ask(j: int, at: float) -> None:
        worker = j % workers
        free[worker] = max(free[worker], at) + reads[j]
        done[j] = free[worker]

    for j in range(min(ahead, len(reads))):
        ask(j, 0.0)
    clock = 0.0
    for i in range(len(reads)):
        clock = max(clock, done[i])  # wait for batch i
        if i + ahead < len(reads):
            ask(i + ahead, clock)
        clock += step
    return clock


def _batch_reads(setup: LabSetup) -> list[float]:
    """Seconds to read each batch of the draw, in order (lab 05's checks; the learner times them)."""
    weights = (burst_weights(setup.n_items, setup.batch_size, setup.every, setup.factor, run=setup.run)
               if setup.every else torch.ones(setup.n_items))
    per_batch = weights.split(setup.batch_size)
    return [float(w.sum()) * setup.item_seconds for w in per_batch]


def _fewest_ahead(reads: list[float], step: float, workers: int) -> int | None:
    """The least ``prefetch_factor`` with which ``workers`` loaders meet the target in simulation (None: none
    up to 16 does)."""
    compute = step * len(reads)
    return next((k for k in range(1, 17)
                 if _simulated_epoch(reads, step, workers, k) <= (1 + SIMULATED_TARGET) * compute), None)


def _options(setup: LabSetup) -> dict[int, int | None]:
    """For 1 and 2 loaders: the batches read ahead that meet the target in simulation (None: none does)."""
    reads = _batch_reads(setup)
    per_worker = {w: _fewest_ahead(reads, setup.step_seconds, w) for w in (1, 2)}
    return {w: (w * k if k else None) for w, k in per_worker.items()}


def _draw_needs(setup: LabSetup) -> Needs:
    """What a drawn data set needs, worked out from its own figures as the learner must (the checks use it; the
    set-up does not carry it, so that printing it gives nothing away): for 1 and 2 loaders, the read-ahead
    that meets the target in a simulated epoch (``_simulated_epoch``), and of the two the configuration holding
    less memory. Unknown where the step is real (a GPU: its time is measured, not known in advance) or the
    reads are even."""
    if setup.step_seconds <= 0 or not setup.every:
        return Needs(None, None)
    held = {w: w * setup.loader_batches + depth for w, depth in _options(setup).items() if depth}
    loaders = min(held, key=held.get)
    return Needs(loaders, held[loaders] - loaders * setup.loader_batches, held[loaders])


@dataclass(frozen=True)
class Draw:
    """A learner's data set: seconds to read an image on average, to open it per process, its bursts (a run of
    ``run`` slow batches every ``every`` batches, each ``factor`` mean reads)."""

    read: float
    opening: float
    every: int
    factor: float
    run: int


RATIOS = (0.5, 0.85)  # L / C of the draws: one loader keeps up on average with every one of them
FASTEST = 0.05  # a fast batch's read, at least this share of a mean read (files a cache already holds, say)
ONE_MISSES = 1.2  # where one loader cannot meet the target, it misses it by this much at any depth
CLEAR = 3  # batches' worth: the two loader counts' least memory differ by more than the check's slack


def draw_costs(s: Settings, seed: int) -> Draw:
    """A learner's data set, drawn from ``seed``: an epoch reads in ``RATIOS`` of its compute (one loader
    keeps up on average, so the mean decides nothing), in bursts: runs of 1, 3 or 4 slow batches, each taking
    3.5 to 6.5 steps of compute to read; the others are faster, so that the mean stays. Whether one loader
    reading far ahead or two reading less far hold less memory depends on the runs: redrawn until the two
    differ by more than ``CLEAR`` batches' worth (or one loader misses the target by ``ONE_MISSES`` at any
    depth), and until the default read-ahead of the better one cannot (so that both the loaders and the
    read-ahead matter). Where the step is real (a GPU) its time is unknown in advance: the lesson's read time
    stands in for a step."""
    rng = random.Random(seed)
    step = s.step_seconds if s.step_seconds else s.read_seconds * s.batch / 1.5
    batches = math.ceil(s.items / s.batch)
    for _ in range(10_000):
        ratio, run, burst = rng.uniform(*RATIOS), rng.choice((1, 3, 4)), rng.uniform(3.5, 6.5)
        factor = burst / ratio  # a slow batch's read, in mean reads of a batch
        every = max(run + 2, math.ceil(run * factor / (1 - FASTEST)))  # the fast batches keep FASTEST of a mean
        draw = Draw(ratio * step / s.batch, rng.uniform(0.1, 0.3), every, factor, run)
        setup = LabSetup(s.items, s.batch, draw.read, step, every=every, factor=factor, run=run)
        if burst_weights(s.items, s.batch, every, factor, run=run).min() < FASTEST:
            continue  # the fast batches keep at least FASTEST of a mean read (an epoch holds few runs)
        options = _options(setup)
        held = {w: w * LOADER_BATCHES + d for w, d in options.items() if d}
        best = min(held, key=held.get) if held else None
        reads = _batch_reads(setup)
        one_cannot = 1 not in held and _simulated_epoch(reads, step, 1, 16) > ONE_MISSES * step * batches
        clear = best and (one_cannot or (len(held) == 2 and abs(held[1] - held[2]) > CLEAR))
        defaults_fail = best and _simulated_epoch(reads, step, best, 2) > 1.15 * step * batches
        if clear and defaults_fail:
            return draw
    raise RuntimeError(f"no draw for seed {seed} in 10,000 tries: the lab's settings leave no room for one")


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
    weights = (burst_weights(setup.n_items, setup.batch_size, setup.every, setup.factor, run=setup.run)
               if setup.every else None)
    return CountedDigits(setup.n_items, setup.item_seconds, open_seconds=setup.open_seconds,
                         read_weights=weights)


FIRST_BURST = 10  # the first slow batch of an epoch: the loaders have had time to get ahead (any draw)


def burst_weights(n_items: int, batch: int, every: int, factor: float, first: int | None = None,
                  run: int = 1) -> torch.Tensor:
    """Per-item read-time multipliers (n_items,) with mean 1, as lesson 05's ``uneven_weights``, except that
    the slow batches come in runs of ``run`` starting at batch ``first``, ``first + every``, ...: an epoch
    starts with fast items, so that what a draw needs is the read-ahead that absorbs a run, not what an
    epoch's first batches cost."""
    first = FIRST_BURST if first is None else first
    batches = torch.arange(n_items) // batch
    slow = (batches >= first) & ((batches - first) % every < run)
    share = slow.float().mean().item()  # of the items that are slow
    fast = (1 - share * factor) / (1 - share)  # the others, so that the mean stays 1
    return torch.where(slow, torch.tensor(factor), torch.tensor(fast))


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

    return checks.run_check("the right data, sent as uint8", body, show=show, hint=checks.stub_message(BANK, "A"))


def your_bottleneck(epoch: EpochResult, limit: float, tolerance: float) -> str:
    """Which stage held the learner's own epoch back, from how long the device waited for data."""
    waited = claims.as_printed(epoch.wait_seconds, 2)  # as the bound's sum prints it (``_bound_uses``)
    if epoch.wait_seconds > tolerance * limit:
        return (f"In your run loading is the bottleneck: the device waited {waited:.2f} s for "
                f"data ({epoch.wait_seconds / epoch.seconds:.0%} of the epoch).")
    return (f"In your run compute is the bottleneck: the device waited only {waited:.2f} s "
            f"for data.")


def check_epoch(make_batches: Callable, to_device_fn: Callable, device="cpu", setup: LabSetup | None = None,
                show: bool = True) -> checks.Verdict:
    """Lab 05: a training epoch over the learner's batches within ``tolerance`` of the bound, every batch read
    by a loader process (never by the training process: lab 08's rule too), with no more loaders and no
    deeper read-ahead than the draw needs (``memory.allowed_memory``).

    The bound is max(load / loaders, compute), both measured in this run; an epoch's compute term is the larger
    of C measured alone and what that epoch's own steps took (``epoch_bound``): a busy machine (two cores
    shared with other programs) slows the steps as much as anything, and only the waits for data are the
    loading's to answer for. The learner's iterable runs two epochs and the one closest to its bound counts (a
    loader's workers start in the first; persistent ones stay for the second); short of the bound, two more
    run, up to ``EXTRA_ROUNDS`` times, before the verdict (a busy machine only adds time). A wrong answer still
    fails: what it gets wrong shows as waits for data, which no number of epochs removes.
    How far ahead the loading runs is measured, not read from settings: at each step, the batches whose read
    has started beyond the one being trained.
    """
    setup = setup if setup is not None else lab_setup()

    def body():
        LAST_EPOCH.clear()
        dataset = lab_dataset(setup)
        step = lab_step(device, setup)
        batches = make_batches(dataset)  # what it reads before training (a profile, say) is not timed ...
        started, own_before = dataset.started(), dataset.own_reads()  # ... and every pass must read its own
        dataset.reset_count()
        trained, ahead = [0], [0]

        def learner_step(batch):
            trained[0] += 1
            ahead[0] = max(ahead[0], dataset.started() - started - trained[0])  # beyond the one in hand
            step(to_device_fn(tuple(batch), device))

        with loader_notes(show=False):
            epochs = [run_epoch(batches, learner_step) for _ in range(2)]
        reads, own = dataset.peak_reads(), dataset.own_reads() - own_before  # across processes and threads
        unread = trained[0] - (dataset.started() - started)  # batches trained that no read in these epochs gave
        load = measure_load(lab_dataset(setup), setup.batch_size)  # a copy: its reads leave the counts alone
        compute = measure_compute(lambda batch: step(to_device_fn(tuple(batch), device)),
                                  [(dataset.images[i:i + setup.batch_size],
                                    dataset.labels[i:i + setup.batch_size])
                                   for i in range(0, len(dataset), setup.batch_size)])
        best, limit = closest_to_bound(epochs, load, compute, setup.loaders)
        checks.expect(best.batches * setup.batch_size >= len(dataset),
                      f"an epoch gave {best.batches} batches of {setup.batch_size}; it must cover all "
                      f"{len(dataset)} items")
        _expect_reads_in_loaders(setup, unread, trained[0], own, reads, best.seconds)
        for _ in range(EXTRA_ROUNDS):  # short of the bound: a busy machine only adds time, so two epochs more
            if best.seconds <= limit * (1 + setup.tolerance):
                break
            with loader_notes(show=False):
                epochs += [run_epoch(batches, learner_step) for _ in range(2)]
            best, limit = closest_to_bound(epochs, load, compute, setup.loaders)
        busy = _bound_uses(best, limit, load, compute, setup.loaders)
        yours = your_bottleneck(best, limit, setup.tolerance)
        checks.expect(best.seconds <= limit * (1 + setup.tolerance),
                      f"your epoch took {best.seconds:.2f} s{setup.label} against a bound of {limit:.2f} s"
                      f"{busy}: {_over_by(best.seconds, limit)}, the target within {setup.tolerance:.0%}; "
                      f"the closest of {len(epochs)} epochs, with {reads} "
                      f"read{'s' * (reads != 1)} at once and up to "
                      f"{ahead[0]} batches read ahead of the step. {yours}"
                      f"{_why_slow(reads, ahead[0], load, compute, best)}")
        needs = _draw_needs(setup)
        expect_no_excess(setup, needs, reads, ahead[0])   # after the bound: its message says it met it
        LAST_EPOCH.update(reads=reads, ahead=ahead[0], seconds=best.seconds, limit=limit, load=load,
                          compute=compute, waited=best.wait_seconds,
                          steps=own_steps(best) if steps_set_bound(best, limit, load, compute, setup.loaders)
                          else None)
        # one parenthesis at a time (twenty-third reading: three stood side by side); one sentence each for
        # the epoch, the loading and the two times (twenty-fourth reading: one of 90 words)
        memory = allowance_words(setup, needs, reads, ahead[0])
        return (f"epoch {best.seconds:.2f} s{setup.label} against a bound of {limit:.2f} s{busy}: "
                f"{_over_by(best.seconds, limit)}, the target within {setup.tolerance:.0%}. Your loading: "
                f"{reads} read{'s' if reads != 1 else ''} at once (budget {setup.loaders}), none by the training "
                f"process, up to {ahead[0]} batches read ahead of the step{memory}"
                f". L = {load:.2f} s, C = {compute:.2f} s. {yours}")

    return checks.run_check(f"epoch within {setup.tolerance:.0%} of the bound", body, show=show,
                            hint=checks.stub_message(BANK, "A"))


def _expect_reads_in_loaders(setup: LabSetup, unread: int, trained: int, own: int, reads: int,
                             seconds: float) -> None:
    """Lab 05's rules on where the batches were read: during the epochs that trained them, by loader processes
    only, no more at once than the budget of loaders."""
    checks.expect(unread <= 0, f"{unread} of the {trained} batches trained were not read during the "
                               "epochs that trained them: they were read before the first batch was asked "
                               "for, or kept from an earlier pass. Reading the data set before the clock "
                               "starts moves the wait out of the measured epoch without hiding it: every "
                               "pass must read the batches it trains on while the device computes")
    checks.expect(not own, f"{own} batches were read by the training process itself (in its loop or in a "
                           "thread of it): every batch must come from a loader process, so that the "
                           "training process never waits for storage (the rule of lab 08 too)")
    checks.expect(reads <= setup.loaders,
                  f"up to {reads} reads of the data set ran at the same time (measured in the data set); "
                  f"the budget is {setup.loaders} loaders, two cores' worth: an epoch made faster by more "
                  f"loaders than that does not count (yours took {seconds:.2f} s)")


EXTRA_ROUNDS = 2  # short of the bound, two more epochs at most this many times: six in all
LAST_EPOCH: dict = {}  # what check_epoch measured when the learner's loading last met every rule (take_aways)


def _why_slow(reads: int, ahead: int, load: float, compute: float, epoch: EpochResult) -> str:
    """Where to look when the epoch is over the bound, from what was measured: the two terms, and when the
    ``epoch``'s waits came (before its first batch: the loading's start; after it: reads falling behind)."""
    if reads < 2 and load > compute:
        return (f" One loader reads an epoch in L = {load:.2f} s, more than the C = {compute:.2f} s the device "
                "computes it in: on average it cannot keep up.")
    first = sum(s.duration for s in epoch.spans if s.name == "wait" and s.index == 0)  # before batch 0
    later = epoch.wait_seconds - first
    if max(first, later) <= 0:
        return ""
    if first >= later:
        return (f" Of the {epoch.wait_seconds:.2f} s the device waited, {first:.2f} s came before the first "
                "batch: what does your loading start anew at every epoch, and what does that start cost?")
    return (f" Of the {epoch.wait_seconds:.2f} s the device waited, {later:.2f} s came after the first batch: "
            "the loading fell behind during the epoch: look at how long each batch takes to read, not only at "
            f"their total: how many slow ones come in a row, and whether reading up to {ahead} batches ahead "
            "of the step gets a loader, or two, through them while the device computes.")


def _timed_batch_read(setup: LabSetup, k: int) -> float:
    """Seconds to read batch ``k`` of the learner's draw once, in this process, after the opening."""
    dataset = lab_dataset(setup)
    dataset.open()
    start = time.perf_counter()
    dataset.__getitems__(list(range(k * setup.batch_size, min((k + 1) * setup.batch_size, setup.n_items))))
    return time.perf_counter() - start


def take_aways(setup: LabSetup, load: float, compute: float, cache_line: str = "") -> str:
    """Lab 05's take-aways, from the run: which term bounds an epoch, what the learner's loading did (as
    ``check_epoch`` measured it, once it met the rules), what the draw's slow batches cost, and the cache's
    line (``cache.cache_take_away``). Never raises."""
    decides = "the compute" if compute >= load / setup.loaders else "the reading, even with two loaders"
    lines = [f"- An epoch can never be shorter than max(L/2, C): here L = {load:.2f} s and C = {compute:.2f} s "
             "(each measured alone, above), "
             f"so {decides} sets the bound; loading in parallel hides reading, never compute."]
    e = LAST_EPOCH
    if setup.every and e:  # only once solved: in steps of compute, a slow batch is exercise A's read-ahead
        batches = math.ceil(setup.n_items / setup.batch_size)
        slow, fast = _timed_batch_read(setup, FIRST_BURST), _timed_batch_read(setup, 0)  # measured now
        steps = claims.half_up(claims.as_printed(slow, 3) / (claims.as_printed(compute, 2) / batches), 1)
        in_a_row = 1
        while in_a_row < 4 and _timed_batch_read(setup, FIRST_BURST + in_a_row) > (slow + fast) / 2:
            in_a_row += 1  # the batches after the first slow one, timed now, as long as they are slow too
        mean = claims.half_up(1e3 * claims.as_printed(load, 2) / batches, 0)  # ms a batch, from L as printed
        row = ("one at a time, not several in a row" if in_a_row == 1 else f"{in_a_row} in a row")
        shown = claims.as_printed(slow, 3) * 1e3   # the ms the steps above divide
        lines.append(f"- Your draw's slow batches take {shown:.0f} ms to read (the first slow batch, timed now; "
                     f"a fast one {fast * 1e3:.0f} ms), {steps:.1f} steps of compute, and they come {row} (the "
                     f"batches after the first slow one, timed now), where L averages {mean:.0f} ms a batch: the "
                     "total hides them, and the read-ahead (and the loaders reading it) must cover each stretch.")
    if e:
        one = "one reader keeps up on average" if load < compute else "one reader cannot keep up on average"
        if e["reads"] > 1 and load < compute:
            one += ": the second is there for the runs of slow reads, not for the mean"
        again = (f" The check measured L = {e['load']:.2f} s and C = {e['compute']:.2f} s again, in the same run "
                 f"as your epoch; {bound_source(e.get('steps'))}.")
        held = held_memory(setup, e["reads"], e["ahead"])
        reads = f"{e['reads']} read{'s' if e['reads'] != 1 else ''}"
        lines.append(f"- Your loading came {_against_bound(e['seconds'], e['limit'], setup.tolerance)} "
                     f"with {reads} at once ({one}) and up to {e['ahead']} batches read ahead of the "
                     f"step, holding {held} batches' worth of memory; the device waited {e['waited']:.2f} s for "
                     f"data in all.{again}")
    else:
        lines.append("- Your loading has not met the bound within the rules yet: the epoch check says where.")
    if cache_line:
        lines.append(cache_line)
    return "\n".join(textwrap.fill(line, 110, subsequent_indent="  ") for line in lines)
