"""Checks for ``labs/03_ddp_from_scratch.ipynb``: the learner's DDP training on ranks with uneven data.

Each rank owns its own part of the data (``shards[rank]``: indices into ``text()``), and the parts differ in
length, as files of different sizes would. The learner writes ``train_uneven(shards, micro_batch, lr)``, run by
every worker: one SGD step per micro-batch, every sequence of its part trained on once, and each step the one
process's step on every sequence of that step (both ranks' micro-batches while both have data, then the longer
rank's alone). Lesson 03 never let the ranks run out at different times: the rank that finishes first must keep
answering the other's all-reduces, and the gradient must be the mean over the ranks that trained.

The checks launch it on two configurations the learner's code never saw (rank 0 longer; rank 1 longer), watch
each rank (DDP wraps, optimizer steps) and compare with one process:

- ``check_all_data``: the launch ends, each rank wrapped its model in DDP and stepped once per micro-batch of
  its own part (a rank that stops early, or pads its part, fails by its count);
- ``check_weights``: both ranks end with the weights of one process stepping SGD on each step's sequences
  (SGD, unlike AdamW, shows a gradient divided by the wrong number of ranks), and each returned loss is that
  process's loss on the rank's micro-batch before the step;
- ``check_clean_up``: the process group destroyed on every rank, no process left.

Each configuration is launched once per function object (the checks share it), so the lab takes seconds.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import os
import re
import traceback
from pathlib import Path

import psutil
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

from utils import checks, data, devices, models
from utils.checks import expect, run_check
from utils.launch import keep_until_exit, launch, process_group

SEED = 0
MICRO_BATCH, LR = 4, 0.3
SHARD_SIZES = (24, 12)  # the notebook's parts: rank 0 has 6 micro-batches of 4, rank 1 has 3
# The checks' configurations: (seed of the split, windows of rank 0, windows of rank 1). Other windows than the
# notebook's, and each rank in turn the longer.
CONFIGURATIONS = ((1, 20, 8), (2, 8, 28))
# 2,400 characters: 67 windows of 32 characters.
CONTEXT, MAX_CHARS = 32, 2_400
WORLD = 2
GPT_SIZE = dict(context=CONTEXT, width=64, depth=2, heads=4)  # ~0.1 M parameters: a step in milliseconds
LAUNCH_TIMEOUT_S = 120
BANK = "labs/ddp_from_scratch"
_LAUNCHES: dict[tuple, tuple] = {}  # (id(train_fn), configuration) -> (train_fn, results or the exception)


# --- What the learner uses ------------------------------------------------------------------------------


def text():
    """The lab's data: 32-character windows of standard-library source, x and y (32,) int64."""
    return data.char_dataset(CONTEXT, "train", max_chars=MAX_CHARS)


def build_model(vocab_size: int) -> torch.nn.Module:
    """The lab's small GPT on the CPU, the same weights on every rank (seeded)."""
    return models.small_gpt(vocab_size, seed=SEED, **GPT_SIZE)



def shards(sizes: tuple[int, ...] = SHARD_SIZES, seed: int = SEED) -> list[list[int]]:
    """Each rank's own part of ``text()``: ``sizes[rank]`` window indices, drawn without overlap by ``seed``."""
    order = torch.randperm(len(text()), generator=torch.Generator().manual_seed(seed)).tolist()
    starts = [sum(sizes[:r]) for r in range(len(sizes))]
    return [order[start:start + size] for start, size in zip(starts, sizes)]


@dataclasses.dataclass
class RankSetUp:
    """What lesson 03's set-up gives one rank: the lab's data, its small GPT (``model``) and the DDP wrapper
    around it (``ddp_model``), on this rank's ``device``."""

    dataset: data.CharDataset
    model: torch.nn.Module
    ddp_model: DDP
    device: torch.device

    def batch(self, indices: list[int]) -> tuple[torch.Tensor, torch.Tensor]:
        """The windows ``indices`` as one batch on this rank's device: x and y, each (len(indices), 32) int64."""
        x, y = _batch(self.dataset, indices)
        return x.to(self.device), y.to(self.device)


@contextlib.contextmanager
def ddp_set_up(bucket_cap_mb: float | None = None):
    """Lesson 03's set-up on this rank, shared by the lab's own workers (``lesson_03_loop`` and
    ``compress.train_with_hook``): join the group (``utils.launch.process_group``: the planned backend, this
    rank's device), the lab's data, its small GPT moved to the device, then wrapped in DDP and kept until the
    worker exits (lesson 03 §2 says why; ``bucket_cap_mb``: DDP's bucket size, None for its default). Yields a
    ``RankSetUp``; leaves the group at the end of the block."""
    with process_group() as device:
        dataset = text()
        model = build_model(dataset.corpus.vocab_size).to(device)  # move first ...
        buckets = {} if bucket_cap_mb is None else {"bucket_cap_mb": bucket_cap_mb}
        ddp_model = keep_until_exit(DDP(model, device_ids=[device.index] if device.type == "cuda" else None,
                                        **buckets))
        yield RankSetUp(dataset, model, ddp_model, device)  # ... then wrap


def lesson_03_loop(parts, micro_batch: int = MICRO_BATCH, lr: float = LR) -> int:
    """Lesson 03's DDP loop as it is, on this rank's own part: nothing for a rank that runs out first."""
    with ddp_set_up() as setup:
        optimizer = torch.optim.SGD(setup.ddp_model.parameters(), lr=lr)
        mine = parts[dist.get_rank()]
        for start in range(0, len(mine), micro_batch):
            x, y = setup.batch(mine[start:start + micro_batch])
            optimizer.zero_grad()
            setup.ddp_model(x, y)[1].backward()
            optimizer.step()
    return len(mine) // micro_batch


# --- The reference: one process, each step's sequences together ----------------------------------------


def _batch(dataset, indices: list[int]) -> tuple[torch.Tensor, torch.Tensor]:
    return tuple(torch.stack(t) for t in zip(*(dataset[i] for i in indices)))


def reference(parts: tuple[tuple[int, ...], ...], micro_batch: int = MICRO_BATCH, lr: float = LR,
              joined_weight: float = 1.0) -> dict[str, torch.Tensor]:
    """The weights of ONE process stepping SGD once per step on every sequence of that step: step k reads each
    rank's k-th micro-batch, while that rank has one. ``joined_weight`` < 1 scales the steps where a rank has
    run out (0.5: a gradient divided by both ranks though one trained), to name that mistake. Cached."""
    return _reference_run(parts, micro_batch, lr, joined_weight)[0]


def reference_losses(parts: tuple[tuple[int, ...], ...], micro_batch: int = MICRO_BATCH,
                     lr: float = LR) -> list[list[float]]:
    """Each rank's loss at each of its steps in the same run: the loss of its own micro-batch under the
    weights before that step (what its forward computed). Cached."""
    return _reference_run(parts, micro_batch, lr, 1.0)[1]


@functools.lru_cache(maxsize=8)
def _reference_run(parts, micro_batch: int, lr: float, joined_weight: float):
    dataset = text()
    model = build_model(dataset.corpus.vocab_size)
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    losses = [[] for _ in parts]
    for k in range(max(len(p) for p in parts) // micro_batch):
        pieces = [p[k * micro_batch:(k + 1) * micro_batch] for p in parts]
        with torch.no_grad():  # each rank's own micro-batch, before the step
            for rank, piece in enumerate(pieces):
                if piece:
                    losses[rank].append(model(*_batch(dataset, list(piece)))[1].item())
        x, y = _batch(dataset, [i for piece in pieces for i in piece])
        optimizer.zero_grad()
        weight = 1.0 if all(pieces) else joined_weight
        (model(x, y)[1] * weight).backward()
        optimizer.step()
    return {name: t.detach().clone() for name, t in model.state_dict().items()}, losses


# --- Tolerances: where the learner's code ran ------------------------------------------------------------


def weight_tolerance(plan: devices.Plan) -> float:
    """How far the final weights may be from the reference's after the SGD steps: rounding on the CPU; on a
    GPU, other summation orders, far less than a gradient divided by the wrong number of ranks moves them
    (1e-1 and more at the lab's rate)."""
    return 1e-5 if plan.simulated else 1e-3


# --- Running the learner's function ---------------------------------------------------------------------


class StepWatch:
    """What one rank did, counted while it ran: DDP models built and optimizer steps. Unlike
    ``utils.checks.DistributedWatch`` it registers no communication hook: a hook takes over DDP's division of
    the gradient, which is what this lab's answer sets."""

    def __enter__(self) -> "StepWatch":
        import torch.optim.optimizer as optim_module
        from torch.nn.parallel import DistributedDataParallel as DDP

        self.ddp_models = self.optimizer_steps = 0
        watch, ddp_init = self, DDP.__init__

        def counting_init(ddp, *args, **kwargs):
            ddp_init(ddp, *args, **kwargs)
            watch.ddp_models += 1

        DDP.__init__ = counting_init
        handle = optim_module.register_optimizer_step_post_hook(lambda *_: self._count_step())
        self._undo = [lambda: setattr(DDP, "__init__", ddp_init), handle.remove]
        return self

    def _count_step(self) -> None:
        self.optimizer_steps += 1

    def __exit__(self, *exc) -> None:
        for undo in self._undo:
            undo()

    def report(self) -> dict:
        return {"ddp_models": self.ddp_models, "optimizer_steps": self.optimizer_steps}


def _watched(train_fn):
    """The learner's function in a worker, watched; then whether it left the process group initialised."""

    def worker(*args):
        with StepWatch() as watch:
            result = train_fn(*args)
        return {"result": result, "watch": watch.report(), "group_left_open": dist.is_initialized()}

    return worker


def launched(train_fn, configuration: tuple) -> list[dict]:
    """The learner's function on 2 workers for one of ``CONFIGURATIONS``, launched once per function object:
    each rank's ``{"result", "watch", "group_left_open"}``; a failed launch is raised again to each check."""
    key = (id(train_fn), configuration)
    if key not in _LAUNCHES or _LAUNCHES[key][0] is not train_fn:
        seed, *sizes = configuration
        try:
            outcome = launch(_watched(train_fn), shards(tuple(sizes), seed), MICRO_BATCH, LR, nprocs=WORLD,
                             timeout=LAUNCH_TIMEOUT_S)
        except Exception as exc:  # kept, so that each check reports it (e.g. "not done yet")
            outcome = exc
        _LAUNCHES[key] = (train_fn, outcome)
    outcome = _LAUNCHES[key][1]
    if isinstance(outcome, Exception):
        raise outcome
    return outcome


def describe(configuration: tuple) -> str:
    _, *sizes = configuration
    return ", ".join(f"rank {r}: {n // MICRO_BATCH} micro-batches" for r, n in enumerate(sizes))


def _ran(train_fn, configuration: tuple) -> list[dict]:
    """The launch's ranks, or a failed check that says why a launch of uneven parts stops (not done yet when
    the learner's code still raises NotImplementedError)."""
    from utils.relay import LaunchTimeout, WorkerError

    try:
        return launched(train_fn, configuration)
    except (WorkerError, LaunchTimeout) as exc:
        if checks._is_not_implemented(exc):
            raise
        first = brief(exc)
        expect(False, f"with {describe(configuration)}, the launch failed: {first}. If it failed after the "
                      "shorter rank's last step: its partner was still running backward, whose all-reduce "
                      "waits for every rank; a rank that runs out must keep answering until all are done")


def brief(exc: BaseException) -> str:
    """A launch's failure in one sentence: its first line, without gloo's source path and the peer's address."""
    first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    first = re.sub(r" ?\[[\d.]+\]:\d+", "", re.sub(r"\[/[^\]]*\] ?", "", first))
    return first.split(". ")[0][:140]


def _calls(exc: BaseException) -> list[str]:
    """The Python calls an error was raised in, from ``lesson_03_loop`` inward, each as "function (file):
    line", files named from their package (torch/_tensor.py), not from this machine's paths."""
    frames = traceback.extract_tb(exc.__traceback__)
    first = next((k for k, f in enumerate(frames) if f.name == "lesson_03_loop"), 0)
    said = []
    for f in frames[first:]:
        parts = Path(f.filename).parts
        package = next((k for k, part in enumerate(parts) if part in ("torch", "utils")), len(parts) - 1)
        code = (f.line or "").split("  #")[0].strip()  # the line, without its comment
        said.append(f"{f.name} ({'/'.join(parts[package:])}): {code}")
    return said


def _what_this_rank_did(parts, micro_batch: int, lr: float) -> dict:
    """``lesson_03_loop`` in a worker, its optimizer steps counted. A failure is returned, not raised, as Python
    raised it (the error and the calls it came through), so that the notebook hears from every rank, the one
    that finished included, and the learner reads where it failed."""
    steps = len(parts[int(os.environ["RANK"])]) // micro_batch
    with StepWatch() as watch:
        try:
            lesson_03_loop(parts, micro_batch, lr)
        except Exception as exc:  # noqa: BLE001 - what the lab shows
            return {"done": watch.optimizer_steps, "of": steps, "calls": _calls(exc),
                    "failed": f"{type(exc).__name__}: {brief(exc)}"}
    return {"done": watch.optimizer_steps, "of": steps, "failed": None}


def run_lesson_03_loop(parts, timeout: float = 60) -> str:
    """Launch ``lesson_03_loop`` on two workers with ``parts``: how many optimizer steps each rank took, and the
    error a rank raised with the calls it came through, raw (printed by the notebook: the learner reads which
    rank failed, in which step and which pass)."""
    import textwrap

    try:
        ranks = launch(_what_this_rank_did, parts, MICRO_BATCH, LR, nprocs=WORLD, timeout=timeout)
    except Exception as exc:  # noqa: BLE001 - a hang ends at the timeout: what the lab shows
        return textwrap.fill(f"it did not end: {type(exc).__name__}: {brief(exc)}", 110)
    said = []
    for rank, r in enumerate(ranks):
        line = f"rank {rank}: {r['done']} optimizer steps taken, of the {r['of']} micro-batches in its part; "
        if r["failed"] is None:
            # the fact the learner's "why there" rests on: a rank that returns has left the group (ddp_set_up)
            said.append(textwrap.fill(line + "no error: its loop returned, and it left the process group", 110,
                                      subsequent_indent="  "))
            continue
        said.append(textwrap.fill(line + f"then raised {r['failed']}", 110, subsequent_indent="  "))
        said.append("  raised in these calls, outermost first:")
        said += ["    " + textwrap.shorten(call, 106, placeholder=" ...") for call in r["calls"]]
    return "\n".join(said)


def kernel_children() -> list[psutil.Process]:
    """Live child processes of this process (the notebook kernel), leaving out multiprocessing's helpers."""
    alive = []
    for proc in psutil.Process().children(recursive=True):
        try:
            if proc.status() != psutil.STATUS_ZOMBIE and "resource_tracker" not in " ".join(proc.cmdline()):
                alive.append(proc)
        except psutil.Error:
            pass
    return alive


# --- The checks -----------------------------------------------------------------------------------------


def _result(rank: int, outcome: dict, configuration: tuple) -> dict:
    result = outcome["result"]
    expect(isinstance(result, dict) and {"losses", "state"} <= set(result),
           f"with {describe(configuration)}, rank {rank} returned {type(result).__name__}; return "
           "{'losses': [...], 'state': the model's state_dict}")
    return result


def check_all_data(train_fn, configurations: tuple = CONFIGURATIONS, show: bool = True) -> checks.Verdict:
    """Skill: train every rank's whole part, however long: the launch ends, each rank wraps its model in DDP and
    steps once per micro-batch of its own part, with one loss per step."""

    def body():
        for configuration in configurations:
            _, *sizes = configuration
            for rank, outcome in enumerate(_ran(train_fn, configuration)):
                result, watch = _result(rank, outcome, configuration), outcome["watch"]
                expect(watch["ddp_models"] > 0,
                       f"rank {rank} never wrapped its model in DistributedDataParallel: each rank trained "
                       "its own model on its own part")
                want, steps = sizes[rank] // MICRO_BATCH, watch["optimizer_steps"]
                expect(steps <= want,
                       f"with {describe(configuration)}, rank {rank} stepped {steps} times: more steps than "
                       "micro-batches in its part, so some sequences were trained on twice (a part padded "
                       "or read again to even out the ranks)")
                expect(steps == want,
                       f"with {describe(configuration)}, rank {rank} stepped {steps} times: "
                       f"{(want - steps) * MICRO_BATCH} sequences of its part were never trained on (a rank "
                       "stopped when the shorter one did)")
                expect(len(result["losses"]) == want,
                       f"rank {rank} returned {len(result['losses'])} losses for its {steps} steps: one a step")
        return (f"{len(configurations)} configurations, each rank longer in turn: every rank stepped once per "
                "micro-batch of its own part")

    return run_check("every rank trains all of its data", body, show=show, hint=checks.stub_message(BANK, "A"))


def _gap(state: dict, want: dict) -> float:
    common = [k for k in want if k in state]
    expect(len(common) == len(want), "the returned state lacks some of the model's weights: return the "
                                     "unwrapped model's state_dict")
    shapes = [k for k in common if tuple(torch.as_tensor(state[k]).shape) != tuple(want[k].shape)]
    expect(not shapes, f"the returned state's {shapes[0] if shapes else ''} has another shape than the model's")
    return max((torch.as_tensor(state[k]).detach().cpu().float() - want[k].float()).abs().max().item()
               for k in common)


def check_weights(train_fn, configurations: tuple = CONFIGURATIONS, show: bool = True) -> checks.Verdict:
    """Skill: each step is one process's SGD step on that step's sequences, even when one rank has run out
    (the gradient a mean over the ranks that trained): both ranks end with those weights."""

    def body():
        atol = weight_tolerance(devices.plan(WORLD))  # the reference runs on the CPU; the workers may not
        worst = 0.0
        for configuration in configurations:
            seed, *sizes = configuration
            parts = tuple(tuple(p) for p in shards(tuple(sizes), seed))
            want = reference(parts)
            outcomes = _ran(train_fn, configuration)
            states = [_result(r, o, configuration)["state"] for r, o in enumerate(outcomes)]
            apart = _gap(states[1], {k: torch.as_tensor(v) for k, v in states[0].items()})
            expect(apart <= atol, f"with {describe(configuration)}, the two ranks end with different weights "
                                  f"(up to {apart:.2g} apart): after the shorter rank stops, the ranks must "
                                  "still end with one model")
            gap = _gap(states[0], want)
            if gap > atol:
                halved = _gap(states[0], reference(parts, joined_weight=0.5))
                expect(halved > atol,
                       f"with {describe(configuration)}, the steps after one rank ran out moved the weights "
                       "half as far as one process would: their gradient was divided by both ranks though "
                       "only one trained")
                expect(False, f"with {describe(configuration)}, the final weights differ from one process "
                              f"stepping on each step's sequences by up to {gap:.2g}: each rank reads its own "
                              "part in order, a micro-batch a step, with SGD at the lab's rate")
            worst = max(worst, gap)
            _expect_losses(parts, outcomes, configuration)
        return (f"{len(configurations)} configurations: both ranks end with one process's weights (within "
                f"{worst:.1g}), the steps after a rank ran out included, and return its loss at every step")

    return run_check("weights and losses equal one process's", body, show=show, hint=checks.stub_message(BANK, "A"))


def loss_tolerance(plan: devices.Plan) -> float:
    """How far a returned loss may be from the reference's (a cross-entropy of about 4): rounding on the CPU;
    on a GPU, other summation orders. A loss taken after the step, or of another batch, is off by far more."""
    return 1e-4 if plan.simulated else 1e-2


def _expect_losses(parts, outcomes: list[dict], configuration: tuple) -> None:
    """Each rank's returned losses, one a step, equal the reference's: its micro-batch's loss in the step's
    forward, before the optimizer moved the weights."""
    atol = loss_tolerance(devices.plan(WORLD))
    want = reference_losses(parts)
    for rank, outcome in enumerate(outcomes):
        losses = outcome["result"]["losses"]
        try:
            mine = [float(v) for v in losses]
        except (TypeError, ValueError):
            expect(False, f"rank {rank}'s losses are not numbers: return each step's loss as a float")
        expect(len(mine) == len(want[rank]), f"rank {rank} returned {len(mine)} losses for "
                                             f"{len(want[rank])} steps: one a step")
        off = [k for k, (a, b) in enumerate(zip(mine, want[rank])) if not abs(a - b) <= atol]
        expect(not off, f"with {describe(configuration)}, rank {rank}'s weights are right but its returned "
                        f"loss at step {off[0] + 1 if off else 0} differs from one process's by "
                        f"{abs(mine[off[0]] - want[rank][off[0]]) if off else 0:.2g}: each is the loss this "
                        "rank's forward computed on its own micro-batch at that step, before the optimizer "
                        "moved the weights")


def check_clean_up(train_fn, configurations: tuple = CONFIGURATIONS, show: bool = True) -> checks.Verdict:
    """Skill: leave nothing behind: the process group destroyed, no process of the launch running."""

    def body():
        for configuration in configurations:
            outcomes = _ran(train_fn, configuration)
            still_open = [rank for rank, o in enumerate(outcomes) if o["group_left_open"]]
            expect(not still_open, f"rank(s) {still_open} returned with the process group still initialised: "
                                   "leave the group before returning")
        left = kernel_children()
        expect(not left, f"{len(left)} process(es) of the launch still running: "
                         + ", ".join(f"pid {p.pid}" for p in left))
        return "process group destroyed on every rank; no worker process left running"

    return run_check("clean-up", body, show=show,
                     hint="a process group lives on in its process until it is shut down: look up, in "
                          "torch.distributed's documentation, how a process group ends (as lesson 03's "
                          "workers leave theirs)")


def launch_summary(results) -> str:
    """What the notebook's own launch of exercise A showed, in two lines; never raises on a wrong result."""
    try:
        steps = [len(r["losses"]) for r in results]
        states = [r["state"] for r in results]
        same = all(torch.equal(torch.as_tensor(states[0][k]), torch.as_tensor(states[1][k])) for k in states[0])
    except Exception as exc:  # noqa: BLE001 - a learner's result of another form: say so, the checks say why
        return f"its results cannot be read ({type(exc).__name__}): the checks above say what is wrong"
    alone = abs(steps[0] - steps[1])
    return (f"rank 0 stepped {steps[0]} times, rank 1 {steps[1]}: {alone} step{'s' if alone != 1 else ''} ran "
            f"with one rank out of data;\nthe ranks ended with {'the same' if same else 'different'} weights")
