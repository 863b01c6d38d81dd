"""Lesson 05's hardware decisions, made in one place from the device plan: the sizes, where the step runs, which
cells apply and what every figure's label says. The notebook, lab 05 and the ``prefetch`` benchmark all read
them, and ``tests/test_modes_data_prefetch.py`` checks them on every fake machine.

    S = lesson_settings(devices.plan(2), devices.hardware())
    S.items, S.batch, S.label        # 512, 16, " (simulated on CPU)" in cpu mode

In ``cpu`` mode the "device" is the training process: its step is held to ``step_ms`` (a GPU's fixed speed,
simulated), and the sizes fit a 2-core laptop. On a GPU the step is the real CNN step on the first GPU, with
batches 32x larger: at 16 images a step is a few kernel launches, and the loader's per-batch costs (a hand-over
between processes, a pinned copy) would swamp both terms. Larger batches still, and the loader's per-image CPU
work (slicing, collating, the shared-memory hand-over of the workers) starts to compete with the reads on a
host with few cores (Colab's two): 512 keeps the reads the larger part.

The lesson's story needs the same balance on every device: a batch's read a little longer than a step
(``LOAD_PER_STEP``), so that one loader cannot hide it and two can. The article's CNN on 512 images is 1-3 ms
on a T4 (mostly kernel launches), far below any read: on a GPU the CNN is widened (``model_scale``, from the
GPU's datasheet) until its step is compute, about ``TARGET_STEP_MS``, and the reads are then sized to the step
the run measures (``sized_reads``). In cpu mode the paced step and the reads already have that balance.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, replace

from utils import devices, gpu_specs
from utils.claims import as_printed, one_side, speedup_verdict, within_noise
from utils.lessons.data_prefetch.epoch import median_speedup
from utils.lessons.data_prefetch.transfer import NOISE_FLOOR

BATCHES_PER_EPOCH = 32  # in every mode: the timelines, the first-batch start-up and the warm-up read the same
LOAD_PER_STEP = 1.2  # a batch's read / a step: one loader cannot hide it (L > C), two can (L/2 < C)
TARGET_STEP_MS = 40.0  # the step the lesson wants: cpu mode paces to it, a GPU's CNN is sized to it
ASSUMED_EFFICIENCY = 0.3  # share of the fp32 datasheet peak a small CNN's step reaches (an estimate)
UNKNOWN_GPU_FP32 = 10e12  # FLOP/s assumed for a GPU the datasheet table does not know


@dataclass(frozen=True)
class Settings:
    device: str  # where the training step runs: the first device of the plan ("cpu" stands in for a GPU)
    simulated: bool  # cpu mode: the device is the training process, its step paced to ``step_ms``
    batch: int  # images per batch
    items: int  # images per epoch: BATCHES_PER_EPOCH batches
    read_ms_per_item: float  # simulated storage time per image read: a wait, in every mode
    open_ms: float  # simulated one-off set-up per reading process (opening the file): each worker pays it
    step_ms: float  # a training step takes at least this long; > 0 only where the device is simulated
    torch_threads: int | None  # cpu mode: 1 (one core trains, the other is left to the loader); None: torch's
    worker_counts: tuple[int, ...]  # DataLoader workers to compare
    prefetch_factors: tuple[int, ...]  # batches each worker loads ahead
    uneven_every: int  # for prefetch_factor: every uneven_every-th batch reads uneven_factor times slower ...
    uneven_factor: float  # ... and the others faster: the same L, uneven reads (dataset.uneven_weights)
    ranks: int  # DDP ranks of section 6, each with its own loader (the plan's world size)
    rank_worker_counts: tuple[int, ...]  # workers per rank there: 0, one worker a core, more
    model_scale: float  # the CNN's widths x this (ArticleCNN(scale=...)): 1 in cpu mode, sized on a GPU
    pin_memory: bool  # page-locked batches: only where a GPU copies them (without one torch warns)
    transfer_images: int  # images of 3 x transfer_side x transfer_side for the transfer measurements
    transfer_side: int
    pcie_bandwidth: float | None  # bytes/s host to the GPU, one direction: the pinned copy's bound; None: none
    label: str  # appended to every time measured with the device's step: where it was measured
    load_label: str  # appended to the load term L: the reads are simulated storage, on the host CPU
    transfer_label: str  # appended to the transfer timings: what the copy crossed
    paired_rounds: int = 4  # section 4: epochs with and without the Prefetcher, in turns (claims.paired_spread)

    @property
    def read_seconds(self) -> float:
        return self.read_ms_per_item / 1e3

    @property
    def step_seconds(self) -> float:
        return self.step_ms / 1e3

    def describe(self) -> str:
        """The settings in one line, for the notebook's set-up cell."""
        step = (f"each step held to at least {self.step_ms:.0f} ms (a GPU's speed, simulated)" if self.step_ms
                else f"the real step of the CNN widened {self.model_scale:g}x (a step of about "
                     f"{TARGET_STEP_MS:.0f} ms by the datasheet), as fast as the GPU runs it")
        read = (f"a read {self.read_ms_per_item:g} ms an image" if self.simulated else
                f"a batch's read sized to {LOAD_PER_STEP:g}x the measured step (section 1)")
        return (f"the step runs on {self.device}: {step}; {self.items:,} images in batches of {self.batch:,} "
                f"({self.items // self.batch} batches an epoch), {read}, "
                f"{self.open_ms:.0f} ms to open per reading process")


def rank_workers(plan: devices.Plan, hw: devices.Hardware | None) -> tuple[int, ...]:
    """Loader workers per DDP rank that section 6 compares: none, one worker a core (``cores // ranks`` a rank,
    the ranks' workers one on each core), and every core for each rank (oversubscribed), never more than a
    rank's batches."""
    cores = hw.cpu_cores if hw is not None else devices.cpu_cores()
    per_rank_batches = BATCHES_PER_EPOCH // plan.world_size
    divided = max(1, cores // plan.world_size)
    return tuple(dict.fromkeys(min(w, per_rank_batches) for w in (0, divided, max(cores, 2 * divided))))


def cnn_step_flops(scale: float, batch: int) -> float:
    """FLOPs of one training step of ``models.ArticleCNN(scale=scale)`` on ``batch`` 28x28 images.

    Forward per image (2 FLOPs a multiply-add): conv1 24*24 outputs x 25 taps x c1, conv2 8*8 x 25*c1 taps x
    c2, fc1 16*c2 -> hidden, fc2 hidden -> 10. Backward costs twice the forward, except conv1's input
    gradient, which nothing needs (the images): 3 x forward - conv1.
    """
    c1, c2, hidden = round(20 * scale), round(50 * scale), round(500 * scale)
    conv1 = 2 * 24 * 24 * 25 * c1
    forward = conv1 + 2 * 8 * 8 * 25 * c1 * c2 + 2 * 16 * c2 * hidden + 2 * hidden * 10
    return batch * (3 * forward - conv1)


def model_scale_for(gpu: devices.GPU | None, batch: int) -> float:
    """The CNN's width multiplier whose step takes about ``TARGET_STEP_MS`` on ``gpu`` at
    ``ASSUMED_EFFICIENCY`` of its fp32 datasheet peak (never below 1): compute, not kernel launches.
    Lesson 05."""
    spec = gpu_specs.spec_for(gpu.name if gpu else None)
    flops_per_second = ASSUMED_EFFICIENCY * (spec.peak_flops["fp32"] if spec else UNKNOWN_GPU_FP32)
    target = flops_per_second * TARGET_STEP_MS / 1e3
    scale = 1.0
    while cnn_step_flops(scale + 0.5, batch) <= target:  # the step grows about as scale squared
        scale += 0.5
    return scale


def sized_reads(s: Settings, step_seconds: float) -> Settings:
    """``s`` with each read sized to the step measured in the run: a batch's read ``LOAD_PER_STEP`` x the
    step, so that one loader cannot hide it and two can, on any GPU (lesson 05). In cpu mode the step is
    paced to ``step_ms`` and the reads were set for it: ``s`` is returned unchanged."""
    if s.simulated:
        return s
    return replace(s, read_ms_per_item=LOAD_PER_STEP * step_seconds * 1e3 / s.batch)


def lesson_settings(plan: devices.Plan, hw: devices.Hardware | None) -> Settings:
    """Lesson 05's settings for this plan: CPU sizes and a paced step in cpu mode, GPU sizes on a GPU.

    A batch's read costs about the same wall time in every mode (48 ms on CPU, 41 ms on a GPU before the
    run sizes it to the measured step with ``sized_reads``), so loading stays a term worth hiding. On a GPU
    the read (tens of us an image) stays well above the CPU work a loader does per image (a few us), so two
    loaders can halve the load term even on a host with few cores. Lab 05 and the ``prefetch`` benchmark use
    these reads with the article's CNN as it is (``model_scale`` is the lesson's).
    """
    device = plan.devices[0]
    if plan.simulated:
        return Settings(device=device, simulated=True, batch=16, items=16 * BATCHES_PER_EPOCH,
                        read_ms_per_item=3.0, open_ms=200.0, step_ms=40.0, torch_threads=1,
                        worker_counts=(1, 2, 4), prefetch_factors=(1, 2, 4), uneven_every=8,
                        uneven_factor=4.0, ranks=plan.world_size,
                        rank_worker_counts=rank_workers(plan, hw), model_scale=1.0, pin_memory=False,
                        transfer_images=32, transfer_side=224, pcie_bandwidth=None,
                        label=" (simulated on CPU)", load_label=" (simulated storage, read on the CPU)",
                        transfer_label=" (simulated on CPU: host memory stands in for the link)")
    gpu = hw.gpus[0] if hw is not None and hw.gpus else None
    name = f"{device}, {gpu.name}" if gpu else device
    return Settings(device=device, simulated=False, batch=512, items=512 * BATCHES_PER_EPOCH,
                    read_ms_per_item=0.08, open_ms=200.0, step_ms=0.0, torch_threads=None,
                    worker_counts=(1, 2, 4), prefetch_factors=(1, 2, 4), uneven_every=8, uneven_factor=4.0,
                    ranks=plan.world_size, rank_worker_counts=rank_workers(plan, hw),
                    model_scale=model_scale_for(gpu, 512), pin_memory=True,
                    transfer_images=128, transfer_side=224, pcie_bandwidth=gpu.pcie_bandwidth if gpu else None,
                    label=f" (step on {name})", load_label=" (simulated storage, read on the CPU)",
                    transfer_label=f" (host to {device} over PCIe)")


MODES = ("cpu", "1gpu", "2gpu")  # the recipe's columns: no GPU, one GPU, two GPUs (one DDP rank each)


def recipe_columns(mode: str) -> list[str]:
    """The recipe's header: knob, one column per mode (this machine's marked "here"), why (lesson 05)."""
    names = {"cpu": "no GPU", "1gpu": "one GPU", "2gpu": "two GPUs (DDP)"}
    here = "2gpu" if mode == "ngpu" else mode
    return ["knob"] + [names[m] + (" (here)" if m == here else "") for m in MODES] + ["why"]


def compression_outcome(speedup: float, spread: float, rounds=None) -> str:
    """Section 5's net verdict on uint8 + convert against float32: "pays" beyond the rounds' noise, "slower"
    beyond it, or "noise": ``claims.speedup_verdict``'s rule, on the figures as printed (lesson 05).
    ``rounds``: every round's net ratio; rounds all on one side of 1x are not noise (``claims.one_side``),
    even where the ± (which reaches the farthest round) covers 1x."""
    verdict = speedup_verdict(as_printed(speedup, 2), None, as_printed(spread, 2), rounds=rounds)
    return "noise" if verdict.startswith("within noise") else "slower" if "no speed-up" in verdict else "pays"


OUTCOME_WORDS = {"pays": "faster", "noise": "within noise", "slower": "slower"}   # how a sentence names one


def rounds_agree(ratios: list[float], net: str) -> str:
    """Whether section 5's net verdict ``net`` (``compression_outcome``'s word) reads as each round does: each
    round's own net ratio judged alone by ``compression_outcome``, the 2 % floor as its noise; one clause.
    "Reads as the net verdict does" only where every round gives the net verdict's word (lesson 05)."""
    each = [compression_outcome(r, NOISE_FLOOR * r) for r in ratios]
    said = f"'{OUTCOME_WORDS[net]}'"
    low, high = f"{min(ratios):.2f}x", f"{max(ratios):.2f}x"
    span = low if low == high else f"{low}-{high}"   # as the rounds' table prints them
    if set(each) == {net}:
        return (f"every round's own net figure ({span}) reads as the net verdict does ({said}), so the net "
                "verdict does not rest on its median round")
    if len(set(each)) == 1:   # the rounds agree with one another, not with the net verdict: say why
        side = one_side(ratios)
        why = ("its ± (to the farthest round) covers 1x" if net == "noise"
               else f"it rests on every round lying {side} 1x, not on any one round" if side
               else "each round is judged with its own 2 % floor, the net figure with the rounds' ±")
        return (f"every round's own net figure ({span}) reads '{OUTCOME_WORDS[each[0]]}' alone (its 2 % "
                f"floor), the net verdict {said}: {why}")
    figures = ", ".join(f"{r:.2f}x ('{OUTCOME_WORDS[o]}')" for r, o in zip(ratios, each))
    agree = sum(o == net for o in each)
    return (f"the rounds' own net figures, each alone ({figures}), do not all read the same way: {agree} of "
            f"{len(ratios)} {'reads' if agree == 1 else 'read'} as the net verdict does ({said})")


def images_row(compression: tuple, mode: str, same_inputs: bool = True) -> tuple[str, ...]:
    """The recipe's row for the images across the link: (knob, no GPU, one GPU, two GPUs, why).

    ``compression``: section 5's (net speed-up, spread, every round's net ratio) in this run (the rounds
    optional: rounds all on one side of 1x are not noise, ``compression_outcome``). The column of this
    machine's mode follows this run's verdict (uint8 only where it paid); the other columns say what to
    measure there. Without a GPU one process loads and trains: no link to cross, so the no-GPU column is
    "n/a"; section 5's link between two CPU processes (a stand-in for PCIe) is quoted in the why only.
    ``same_inputs``: whether section 5's images were within tolerance of float32's; if not, its speed-up does
    not count and this mode's column keeps float32 (lesson 05)."""
    speedup, spread, rounds = (*compression, None)[:3]
    outcome = compression_outcome(speedup, spread, rounds) if same_inputs else "differs"
    here = "2gpu" if mode == "ngpu" else mode
    convert = "in training" if here == "cpu" else "on the GPU"
    on_here = {"pays": f"uint8, convert {convert} (paid here)", "noise": "either (no difference shown here)",
               "slower": "float32 (uint8 slower here)",
               "differs": "float32 (uint8's images differed here)"}[outcome]
    columns = {m: on_here if m == here else "uint8 if section 5 pays there" for m in MODES}
    columns["cpu"] = "n/a (no link)"   # one CPU process trains on what it loads: no link to cross
    reason = {"pays": "the bytes saved outweighed the conversion",
              "noise": "within noise (the rounds' spread, at least 2 %): either; no difference shown here",
              "slower": "the conversion cost more than the bytes saved",
              "differs": "its images lay beyond tolerance of float32's: the speed-up does not count"}[outcome]
    side = one_side(rounds) if outcome in ("pays", "slower") else None
    every = f" (every round {side} 1.00x)" if side else ""   # why a ± that covers 1x is not noise here
    measured = f"uint8 + convert {speedup:.2f}x ± {spread:.2f} float32's speed: {reason}{every}"
    why = (f"no GPU: nothing crosses a link; section 5's stand-in for PCIe (two CPU processes): {measured}; "
           "on a GPU the balance differs (PCIe is slower than the memory a GPU converts in): measure it there"
           if here == "cpu"
           else f"section 5 over this GPU's link: {measured}")
    return ("images across the link", *(columns[m] for m in MODES), why)


def loader_counts(cores: int, step_threads: int = 1, ranks: int = 2) -> tuple[int, int, int]:
    """Loader processes to start with: (no GPU, one GPU, a rank of ``ranks`` GPUs) on ``cores`` host cores.

    Each training process keeps its cores (no GPU: ``step_threads`` for the step; a GPU: one for launching
    kernels and the hand-over); the loaders get the rest, 0 where none is free (the training process then
    loads itself). E.g. 2 cores -> (1, 1, 0); 16 cores -> (15, 15, 7)."""
    no_gpu = max(0, cores - step_threads)
    one_gpu = max(0, cores - 1)
    a_rank = max(0, (cores - ranks) // ranks)
    return no_gpu, one_gpu, a_rank


def with_workers(workers: int, value: str, without: str) -> str:
    """A recipe cell for a knob that needs loader workers: ``value``, or ``without`` where there are none."""
    return value if workers > 0 else without


def quickest_counts(rounds: dict[int, list[float]]) -> list[int]:
    """Section 6's quickest worker counts a rank, by its own rule (``median_speedup``): the quickest median
    and every count within noise of it (their epochs overlap, or their medians lie within 2 %)."""
    median = {w: statistics.median(r) for w, r in rounds.items()}
    quickest = min(median, key=median.get)
    return sorted(w for w in rounds if w == quickest or _within_noise(rounds[w], rounds[quickest]))


def rank_cell(each: int, rank_rounds: dict[int, list[float]] | None) -> str:
    """The two-GPU column's worker count: the rule's ``each`` a rank, and, where section 6 measured another
    count fastest, that count beside it, so that the table read alone does not teach the opposite of the
    run (``ranks_note`` says why they differ)."""
    cell = f"{each} a rank"
    if not rank_rounds:
        return cell
    tied = quickest_counts(rank_rounds)
    if each in tied:
        return cell
    if len(tied) > 1:   # the words of ``ranks_note``: counts within noise tie, none is named the fastest
        return f"{cell} (the rule; this run: {' and '.join(map(str, tied))} tie, within noise, see below)"
    return f"{cell} (the rule; this run fastest with {tied[0]}, see below)"


def recipe(s: Settings, cores: int, compression: tuple | None = None,
           mode: str = "cpu", same_inputs: bool = True,
           rank_rounds: dict[int, list[float]] | None = None) -> list[tuple[str, ...]]:
    """Where to start: (knob, no GPU, one GPU, two GPUs, why) for each knob the lesson measured, the worker
    counts from this host's ``cores`` (lesson 05). ``compression``: section 5's (net speed-up, spread, every
    round's ratio) in this run, which decides this ``mode``'s column of the images row where it has a link
    (``images_row``; None: not measured, no row; ``same_inputs``: section 5's tolerance check).
    ``rank_rounds``: section 6's epochs by workers a rank, set beside the two-GPU count where they disagree
    (``rank_cell``)."""
    # Without a GPU the training process computes on the CPU itself (``torch_threads`` cores, 1 if unset).
    # With a GPU each training process still needs a core of its own: it launches the kernels and takes each
    # batch over from the loaders (section 2's hand-over). The loader processes get the cores left free.
    free, one, each = loader_counts(cores, s.torch_threads or 1)
    counts = (free, one, each)   # no GPU, one GPU, a rank of two
    rows = [
        ("num_workers", str(free), str(one), rank_cell(each, rank_rounds),
         "for loading that is CPU work (decoding, augmenting): the cores left once each training process has "
         "its own (no GPU: the step's threads; a GPU: a core a rank for launches and hand-overs), divided "
         "between the ranks; 0 loads in the training process; fewer once L/w < C. Reads that wait (storage, "
         "network; this lesson's sleeps) leave the cores free, and more workers can help: the lines under "
         "this table give what sections 2 and 6 measured"),
        # torch refuses both knobs without workers: they would have no process to keep or queue to fill
        ("persistent_workers", *(with_workers(n, "True", "False (no workers)") for n in counts),
         "the workers' start-up is paid once, not every epoch; with no workers torch takes only False"),
        ("prefetch_factor",
         *(with_workers(n, "2; 4 if reads are uneven", "None (no workers)") for n in counts),
         "a deeper queue absorbs slow batches; it never moves the bound; with no workers torch takes only "
         "None"),
        ("pin_memory", "False (no GPU)", "True", "True", "page-locked batches copy fast and asynchronously"),
        ("the copy to the device", "nothing to do", *["non_blocking=True, in a Prefetcher"] * 2,
         "the next batch crosses on a side stream while this one computes"),
    ]
    if compression is not None:
        rows.append(images_row(compression, mode, same_inputs))
    return rows


def current_settings() -> Settings:
    """The settings for the machine this runs on (the lab's checks and the benchmark use it)."""
    return lesson_settings(devices.plan(2), devices.hardware())


def ranks_note(rounds: dict[int, list[float]], cores: int, simulated: bool, label: str = "") -> str:
    """The recipe's two-GPU worker count set beside section 6's epochs, in one sentence (lesson 05).

    ``rounds``: loader workers a rank -> section 6's timed epochs (s), two ranks on ``cores`` cores. Counts
    are told apart by section 6's own rule (``median_speedup``: their epochs overlap, or their medians lie
    within 2 %, is noise): where several counts are within noise of the quickest, none is named the fastest.
    The recipe keeps a core for each training process; in cpu mode section 6's paced step is mostly a sleep
    and leaves that core to the loaders, so more workers can measure faster there than the recipe starts
    with. ``label`` goes before the full stop (" (simulated on CPU)")."""
    start = loader_counts(cores)[2]
    median = {w: statistics.median(r) for w, r in rounds.items()}
    tied = quickest_counts(rounds)
    quickest = min(tied, key=median.get)
    times = ", ".join(f"{median[w]:.2f} s with {w}" for w in tied)
    if start in tied:
        if len(tied) == 1:
            return (f"Section 6's fastest, {start} loader worker{'s' * (start != 1)} a rank "
                    f"({median[start]:.2f} s), is where the two-GPU column starts{label}.")
        # the quickest named, by its median: "its quickest epochs" left the reader to guess whose
        where = ("was section 6's quickest count by its median, within noise of the others" if quickest == start
                 else f"was within noise of section 6's quickest count by its median, {quickest} a rank")
        return (f"Section 6's {start} a rank, where the two-GPU column starts, {where} ({times} a rank, each "
                f"the median of its epochs): section 6 does not tell these counts apart{label}.")
    start_time = (f"{median[start]:.2f} s with {start}, slower beyond noise" if start in median
                  else f"{start} was not measured there")
    why = ("its step is paced: mostly a sleep, which leaves the training process's core to the loaders; a "
           "real GPU step keeps that core launching kernels and taking batches over, so the column keeps it"
           if simulated else
           "measured on this host: start from that count here, the column's rule is only where to begin")
    if len(tied) > 1:
        counts = " and ".join(str(w) for w in tied)
        # "each beat" only where every tied count, not just the quickest, is quicker beyond noise
        beaten = start in rounds and all(
            median[w] < median[start] and not _within_noise(rounds[w], rounds[start]) for w in tied)
        verdict = (f"each beat the two-GPU column's {start}" if beaten else
                   f"the quickest beat the two-GPU column's {start}" if start in rounds else
                   f"the two-GPU column's {start} was not timed beside them")
        return (f"Section 6: {counts} loader workers a rank tie, within noise of each other, none the fastest "
                f"({times}; {start_time}), and {verdict}: {why}{label}.")
    return (f"Section 6 was fastest with {quickest} loader worker{'s' * (quickest != 1)} a rank "
            f"({median[quickest]:.2f} s; {start_time}), not the two-GPU column's {start}: {why}{label}.")


def workers_note(by_workers: dict[int, float], cores: int, step_threads: int, mode: str, noise: float,
                 label: str = "") -> str:
    """The recipe's single-process worker count set beside section 2's epochs, in one sentence (lesson 05).

    ``by_workers``: loader workers -> section 2's epoch (s), one training process; ``noise``: one epoch's noise,
    a share of the epoch (counts within it of the quickest are not told apart). The column of one training
    process on this machine is the no-GPU one in cpu mode, else the one-GPU one. The recipe counts loading as
    CPU work; this lesson's reads are waits (a sleep standing in for storage), which leave the cores free, so
    more workers than the recipe's can measure faster here. ``label`` goes before the full stop."""
    no_gpu, one_gpu, _ = loader_counts(cores, step_threads)
    start, column = (no_gpu, "no-GPU") if mode == "cpu" else (one_gpu, "one-GPU")
    quickest = min(by_workers, key=by_workers.get)
    tied = sorted(w for w, t in by_workers.items() if t / by_workers[quickest] - 1 <= noise)
    times = ", ".join(f"{by_workers[w]:.2f} s with {w}" for w in sorted(by_workers))
    if start not in by_workers:
        return (f"Section 2 did not time the {column} column's {start} loader workers ({times}){label}.")
    if start in tied:
        return (f"Section 2 agrees with the {column} column's {start} loader worker{'s' * (start != 1)}: no count "
                f"it timed was faster beyond one epoch's noise ({noise:.1%}; {times}){label}.")
    best = " and ".join(str(w) for w in tied)
    return (f"Section 2 measured {best} loader workers faster than the {column} column's {start}, beyond one "
            f"epoch's noise ({noise:.1%}; {times}): the column counts loading as CPU work, where workers past "
            f"the free cores only take turns with the training process; this lesson's reads are waits (a sleep "
            f"standing in for storage) that leave the cores free, so its workers past them cost only their "
            f"start-up and hand-overs{label}.")


def _within_noise(one: list[float], other: list[float]) -> bool:
    """Section 6's rule for two worker counts' epochs: their speed ratio's spread covers 1x."""
    return within_noise(*median_speedup(one, other))   # the course's one rule: ratio ± spread covers 1x