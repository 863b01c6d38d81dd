"""Checks for ``labs/03_ddp_from_scratch.ipynb``: the learner's DDP training function, launched on 2 workers.

The learner writes ``train_gpt(steps, micro_batch, accumulate, lr)``, run by every worker, which returns
``{"losses": [...], "grads": flat gradient of the last step, "state": state_dict}``. Each check measures one
skill, on the same launch, watched by ``utils.checks.DistributedWatch`` (what each rank all-reduced, how
often its optimizer stepped, which samples its ``DistributedSampler`` handed out):

- ``check_communication``: one all-reduce of the gradient per optimizer step, counted in bytes: accumulation
  without ``no_sync`` (or no DDP at all) fails by the bytes it sends (or does not send);
- ``check_data``: each rank reads its own share, disjoint from the other's, in a new order each epoch (the
  lab's text is small enough that 8 steps make 2 epochs, so a missing ``set_epoch`` shows);
- ``check_gradients``: both ranks hold the full batch's gradient (not 2x or 1/2 of it: the loss scaling);
- ``check_final_loss``: the losses equal ONE process training on the same global batches;
- ``check_clean_up``: the process group is destroyed when the function returns, and no process is left.

One launch serves every check (its result is kept per function object), so the lab takes seconds.
"""

from __future__ import annotations

import functools

import psutil
import torch
import torch.distributed as dist

from utils import checks, data, devices, models
from utils.checks import (
    expect,
    expect_close,
    expect_own_share_each_epoch,
    expect_wrapped_in_ddp,
    run_check,
    watched,
)
from utils.launch import launch
from utils.lessons.ddp.gradients import flat_grad  # noqa: F401 - the learner calls it as lab.flat_grad
from utils.lessons.ddp.replay import global_batches

SEED = 0
STEPS, MICRO_BATCH, ACCUMULATE, LR = 8, 4, 2, 3e-3
# 2,400 characters: 67 windows of 32, 33 per rank, 8 micro-batches of 4 per epoch: the 8 steps of 2
# micro-batches make exactly 2 epochs, so the data check sees whether the second epoch is reshuffled.
CONTEXT, MAX_CHARS = 32, 2_400
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


def launched_and_watched(train_fn) -> tuple[list, list[dict]]:
    """The learner's function on 2 workers, launched once per function object (the checks share it): each
    rank's result, and each rank's ``DistributedWatch`` report."""
    key = id(train_fn)
    if key not in _LAUNCHES or _LAUNCHES[key][0] is not train_fn:
        try:
            outcome = launch(watched(_with_group_report(train_fn)), STEPS, MICRO_BATCH, ACCUMULATE, LR,
                             nprocs=WORLD, timeout=LAUNCH_TIMEOUT_S)
        except Exception as exc:  # kept, so that each check reports it (e.g. "not done yet")
            outcome = exc
        _LAUNCHES[key] = (train_fn, outcome)
    outcome = _LAUNCHES[key][1]
    if isinstance(outcome, Exception):
        raise outcome
    return [r["result"] for r in outcome], [r["watch"] for r in outcome]


def launched(train_fn) -> list:
    """Each rank's result, checked for the form the lab asks for."""
    outcome = launched_and_watched(train_fn)[0]
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


def check_communication(train_fn):
    """Skill: accumulate gradients locally and all-reduce them once per optimizer step (``no_sync``).

    Counted on every rank by a communication hook on its DDP model: the bytes all-reduced per optimizer step
    must be one gradient's bytes. Accumulating without ``no_sync`` sends ``accumulate`` times as many.
    """

    def body():
        reports = launched_and_watched(train_fn)[1]
        expect_wrapped_in_ddp(reports)
        for rank, report in enumerate(reports):
            steps, gradient = report["optimizer_steps"], report["gradient_bytes"]
            expect(steps == STEPS, f"rank {rank} stepped its optimizer {steps} times, expected {STEPS} "
                                   f"(one step per {ACCUMULATE} micro-batches)")
            per_step, calls = report["allreduce_bytes"] / steps, report["allreduce_calls"] / steps
            measured = (f"rank {rank} all-reduced {per_step / 1e3:.1f} kB per optimizer step in {calls:.3g} "
                        f"bucket all-reduce(s), {per_step / gradient:.3g}x the {gradient / 1e3:.1f} kB of "
                        "one gradient")
            expect(per_step <= gradient, f"{measured}: every backward that DDP lets synchronise "
                                         "all-reduces the whole gradient, so "
                                         f"the {ACCUMULATE} micro-batches of a step should synchronise once, "
                                         "on the last one")
            expect(per_step >= gradient, f"{measured}: some steps applied gradients that were never averaged "
                                         "across ranks: the last micro-batch's backward must synchronise")
        return (f"each rank all-reduced one gradient per optimizer step: {gradient / 1e3:.1f} kB, "
                f"{ACCUMULATE}x less than synchronising every micro-batch")

    return run_check("one all-reduce per optimizer step", body,
                     hint=checks.stub_message("labs/ddp_from_scratch", "A"))


def check_data(train_fn):
    """Skill: give each rank its own share of the data, reshuffled each epoch (``DistributedSampler``)."""

    def body():
        return expect_own_share_each_epoch(launched_and_watched(train_fn)[1], min_epochs=2)

    return run_check("each rank its own share, a new order each epoch", body,
                     hint="sharding data across ranks: look up DistributedSampler (its rank, seed and "
                          "shuffle) and DistributedSampler.set_epoch")


def check_gradients(train_fn):
    """Skill: DDP averages gradients so that both ranks hold the full batch's gradient, scaled as a mean."""

    def body():
        results = launched(train_fn)
        expect_close(results[1]["grads"], results[0]["grads"], atol=1e-7,
                     what="rank 1's gradient compared with rank 0's (after the step's last backward, "
                          "every micro-batch's gradient must have been averaged across ranks)")
        expected = reference()[1]
        scale = (results[0]["grads"].norm() / expected.norm()).item()
        expect(abs(scale - 1) < 0.1, f"the last step's gradient is {scale:.3g}x the full batch's: the "
                                     f"accumulated gradient should be the mean over the {ACCUMULATE} "
                                     "micro-batches (DDP already averages over ranks)")
        atol = tolerances(devices.plan(WORLD))["grads"]  # the reference runs on the CPU; the workers may not
        gap = expect_close(results[0]["grads"], expected, atol=atol,
                           what="the last step's gradient compared with one process on the same global batch")
        return f"both ranks hold the same gradient, equal to the full batch's within {gap:.1g}"

    return run_check("gradients synchronised", body,
                     hint="gradients add up across backward calls; look up how DDP averages them across "
                          "ranks")


def check_final_loss(train_fn):
    """Skill: the 2-rank run trains exactly as one process on the global batch: the same losses."""

    def body():
        results = launched(train_fn)
        ref_losses = reference()[0]
        mean = torch.tensor([sum(step) / WORLD for step in zip(*(r["losses"] for r in results))])
        expect_close(mean, torch.tensor(ref_losses), atol=tolerances(devices.plan(WORLD))["loss"],
                     what="the mean of the ranks' losses at each step")
        return f"final loss {mean[-1]:.4f} equals one process on the same global batches ({ref_losses[-1]:.4f})"

    return run_check("final loss equals the reference", body,
                     hint="a step's loss is the sum of its micro-batches' scaled losses; the data must be "
                          "the sampler's, epoch after epoch")


def check_clean_up(train_fn):
    """Skill: leave nothing behind: the process group destroyed, no process of the launch running."""

    def body():
        results = launched(train_fn)
        still_open = [rank for rank, r in enumerate(results) if r.get("group_left_open")]
        expect(not still_open, f"rank(s) {still_open} returned with the process group still initialised: "
                               "leave the group before returning")
        left = kernel_children()
        expect(not left, f"{len(left)} process(es) of the launch still running: "
                         + ", ".join(f"pid {p.pid}" for p in left))
        return "process group destroyed on every rank; no worker process left running"

    return run_check("clean-up", body, hint="look up torch.distributed.destroy_process_group")
