"""Checks for ``labs/03_ddp_from_scratch.ipynb``: the learner's DDP training function, launched on 2 workers.

The learner writes ``train_gpt(steps, micro_batch, accumulate, lr)``, run by every worker, which returns
``{"losses": [...], "grads": flat gradient of the last step, "state": state_dict}``. Three checks:

- ``check_gradients(train_gpt)``: after the last step both ranks hold the same gradients (DDP averaged them);
- ``check_final_loss(train_gpt)``: the losses equal ONE process training on the same global batches;
- ``check_clean_up(train_gpt)``: the process group is destroyed when the function returns, and no process of
  the launch is left running afterwards.

One launch serves the three checks (its result is kept per function object), so the lab takes seconds.
"""

from __future__ import annotations

import functools

import psutil
import torch
import torch.distributed as dist

from utils import data, devices, models
from utils.checks import expect, expect_close, run_check
from utils.launch import launch
from utils.lessons.ddp.gradients import flat_grad  # noqa: F401 - the learner calls it as lab.flat_grad
from utils.lessons.ddp.replay import global_batches

SEED = 0
STEPS, MICRO_BATCH, ACCUMULATE, LR = 8, 4, 2, 3e-3
CONTEXT, MAX_CHARS = 32, 50_000
WORLD = 2
GPT_SIZE = dict(context=CONTEXT, width=64, depth=2, heads=4)  # ~0.1 M parameters: a step in milliseconds
LAUNCH_TIMEOUT_S = 180
_LAUNCHES: dict[int, tuple] = {}  # id(train_fn) -> (train_fn, results or the exception)


# --- What the learner uses ------------------------------------------------------------------------------


def text():
    """The lab's data: 32-character windows of standard-library source, x and y (32,) int64."""
    return data.char_dataset(CONTEXT, "train", max_chars=MAX_CHARS)


def build_model(vocab_size: int) -> torch.nn.Module:
    """The lab's small GPT on the CPU, the same weights on every rank (seeded)."""
    return models.small_gpt(vocab_size, seed=SEED, **GPT_SIZE)


# --- The reference: one process, the same global batches ------------------------------------------------


@functools.lru_cache(maxsize=4)
def reference(steps: int = STEPS, micro_batch: int = MICRO_BATCH, accumulate: int = ACCUMULATE, lr: float = LR):
    """One process, one backward per step over every rank's micro-batches together: what DDP must match.

    Returns (losses, grads of the last step, state). Cached: the three checks share it.
    """
    dataset = text()
    model = build_model(dataset.corpus.vocab_size)
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr)
    # Global micro-batches (every rank's k-th micro-batch together); `accumulate` of them make one step.
    micro = global_batches(len(dataset), micro_batch, WORLD, SEED, count=steps * accumulate)
    losses = []
    for step in range(steps):
        idx = [i for batch in micro[step * accumulate:(step + 1) * accumulate] for i in batch]
        x, y = (torch.stack(t) for t in zip(*(dataset[i] for i in idx)))  # (WORLD x accumulate x B, T) each
        optimizer.zero_grad()
        loss = model.loss(x, y)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return losses, flat_grad(model), model.state_dict()


# --- Tolerances: where the learner's code ran ------------------------------------------------------------


def tolerances(plan: devices.Plan) -> dict[str, float]:
    """How far the 2-worker run may be from the single-process CPU reference: ``grads`` and ``loss``.

    On the CPU both sum in the same kernels: float32 rounding. On a GPU the kernels (matmuls, attention) sum
    in another order, so 8 AdamW steps later the numbers differ by more than rounding, yet far less than a
    mistake makes them (a loss not divided by ``accumulate`` is twice as large; other data, 1e-2 and more).
    """
    if plan.simulated:
        return {"grads": 1e-5, "loss": 1e-5}
    return {"grads": 1e-4, "loss": 1e-3}


# --- Running the learner's function ---------------------------------------------------------------------


def _with_group_report(train_fn):
    """Run the learner's function, then note whether it left the process group initialised."""

    def worker(*args):
        result = train_fn(*args)
        if isinstance(result, dict):
            result = dict(result, group_left_open=dist.is_initialized())
        return result

    return worker


def launched(train_fn) -> list:
    """The learner's function on 2 workers, launched once per function object (the three checks share it)."""
    key = id(train_fn)
    if key not in _LAUNCHES or _LAUNCHES[key][0] is not train_fn:
        try:
            outcome = launch(_with_group_report(train_fn), STEPS, MICRO_BATCH, ACCUMULATE, LR, nprocs=WORLD,
                             timeout=LAUNCH_TIMEOUT_S)
        except Exception as exc:  # kept, so that each check reports it (e.g. "not done yet")
            outcome = exc
        _LAUNCHES[key] = (train_fn, outcome)
    outcome = _LAUNCHES[key][1]
    if isinstance(outcome, Exception):
        raise outcome
    for rank, r in enumerate(outcome):
        expect(isinstance(r, dict) and {"losses", "grads", "state"} <= set(r),
               f"rank {rank} returned {type(r).__name__}; return {{'losses': [...], 'grads': lab.flat_grad(model), "
               f"'state': model.state_dict()}}")
        expect(len(r["losses"]) == STEPS, f"rank {rank} reported {len(r['losses'])} losses, expected {STEPS} "
                                          f"(one per optimizer step)")
    return outcome


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


def check_gradients(train_fn):
    """Both ranks hold identical gradients after the last step: DDP all-reduced them."""

    def body():
        results = launched(train_fn)
        expect_close(results[1]["grads"], results[0]["grads"], atol=1e-7,
                     what="rank 1's gradient compared with rank 0's (is the model wrapped in DDP?)")
        atol = tolerances(devices.plan(WORLD))["grads"]  # the reference runs on the CPU; the workers may not
        gap = expect_close(results[0]["grads"], reference()[1], atol=atol,
                           what="the last step's gradient compared with one process on the same global batch")
        return f"both ranks hold the same gradient, equal to the full batch's within {gap:.1g}"

    return run_check("gradients synchronised", body,
                     hint="wrap the model in DDP after moving it to the device, call backward() on the DDP "
                          "model's loss, and return lab.flat_grad(model) before destroying the group")


def check_final_loss(train_fn):
    """The mean of the ranks' losses equals the single-process reference at every step."""

    def body():
        results = launched(train_fn)
        ref_losses = reference()[0]
        mean = torch.tensor([sum(step) / WORLD for step in zip(*(r["losses"] for r in results))])
        expect_close(mean, torch.tensor(ref_losses), atol=tolerances(devices.plan(WORLD))["loss"],
                     what="the mean of the ranks' losses at each step")
        return f"final loss {mean[-1]:.4f} equals one process on the same global batches ({ref_losses[-1]:.4f})"

    return run_check("final loss equals the reference", body,
                     hint="DistributedSampler(shuffle=True, seed=SEED, drop_last=True) with set_epoch; divide each "
                          "micro-batch's loss by accumulate; report the sum of the micro-batches' (divided) losses "
                          "for each optimizer step")


def check_clean_up(train_fn):
    """The process group is destroyed by the function itself, and nothing of the launch is left running."""

    def body():
        results = launched(train_fn)
        still_open = [rank for rank, r in enumerate(results) if r.get("group_left_open")]
        expect(not still_open, f"rank(s) {still_open} returned with the process group still initialised: call "
                               "dist.destroy_process_group() before returning")
        left = kernel_children()
        expect(not left, f"{len(left)} process(es) of the launch still running: "
                         + ", ".join(f"pid {p.pid}" for p in left))
        return "process group destroyed on every rank; no worker process left running"

    return run_check("clean-up", body, hint="end the function with dist.destroy_process_group() (or use "
                                           "`with launch.process_group():`, which does it for you)")
