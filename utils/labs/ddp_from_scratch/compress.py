"""Lab 03, exercise B: a DDP communication hook that sends int8 and keeps what the rounding drops.

Lesson 03 §5 registered hooks that cast a bucket to fp16 or bf16, all-reduce it and cast it back: what a cast
loses is lost. Here the wire carries int8 values of a coarse, fixed grid (``quantize``: most of the small GPT's
gradient values round to 0), so dropping the rounding error would stop most weights from ever moving. The
learner's hook keeps, on each rank, the part of each gradient value that rounding left behind and adds it to
that value's gradient at the next step (*error feedback*), so that nothing is lost, only delayed.

``train_with_hook`` is the lab's worker (the learner writes only the hook); ``check_int8_hook`` launches it on
configurations the learner's code never saw, records what each all-reduce sent, and compares the weights with
ONE process replaying the same arithmetic (``replay.py``, which the lab does not import: it is the exercise's
answer), which needs no DDP: the grid is per value, so the bucket a value travels in does not change its result.
"""

from __future__ import annotations

import contextlib
import io
import textwrap

import torch
import torch.distributed as dist

from utils import checks, devices
from utils.checks import expect, run_check
from utils.labs.ddp_from_scratch.checks import (BANK, LAUNCH_TIMEOUT_S, LR, MICRO_BATCH, WORLD, _batch,
                                                build_model, ddp_set_up, shards, text)
from utils.labs.ddp_from_scratch import replay as _replay  # B's reference arithmetic: kept out of the lab's names
from utils.launch import launch

# Exercise B's check, named by WHAT it checks (int8 on the wire; nothing rounding drops is lost over the steps,
# only delayed), never by the method, which the learner is to find (hints point to concepts)
CHECK_B = "int8 sent, nothing lost over the steps"

GRID = 2.0 ** -8   # one int8 step: about half of the small GPT's gradient values are under half of it
LEVELS = 63        # counts clipped to [-63, 63], within int8's [-128, 127]
# The check's configurations: (seed of the split, windows a rank, learning rate, passes over the part, ranks,
# bucket cap in MB or None for DDP's default). The first is 16 steps long, where carrying the rounding shows
# against dropping it: the take-aways read it. The learning rates are not the notebook's LR. At DDP's default
# cap the small GPT's gradient is one bucket (443 kB); the second cuts it into several, where a remainder kept
# for the wrong bucket shows; the third is a group of four ranks, where an average over a fixed 2 shows, and
# where four ranks' counts of up to 63 sum past int8's 127 (an int8 sum wraps around: 70% of the weights move).
CONFIGURATIONS = ((5, 16, 0.25, 4, 2, None), (6, 12, 0.5, 1, 2, 0.1), (8, 12, 0.4, 1, 4, None))
MOVED_SHARE = 0.01  # a replayed value may differ by a flipped rounding (summation order); a mistake moves many


def quantize(values: torch.Tensor) -> torch.Tensor:
    """float values -> int8 counts of ``GRID``, rounded to the nearest, clipped to +-``LEVELS``."""
    return torch.clamp(torch.round(values / GRID), -LEVELS, LEVELS).to(torch.int8)


def dequantize(counts: torch.Tensor) -> torch.Tensor:
    """int8 (or summed, wider) counts of ``GRID`` -> float32 values."""
    return counts.to(torch.float32) * GRID


# --- The lab's worker, and what it records -----------------------------------------------------------------


class SendRecord:
    """Every tensor this rank all-reduced or all-gathered while it trained: (dtype, bytes)."""

    NAMES = ("all_reduce", "all_gather", "all_gather_into_tensor", "all_gather_single")
    SENT_SECOND = ("all_gather", "all_gather_into_tensor", "all_gather_single")  # (output, input): input is sent

    def __enter__(self) -> "SendRecord":
        self.sent, self._saved = [], {name: getattr(dist, name, None) for name in self.NAMES}
        for name, original in self._saved.items():
            if original is not None:  # all_gather_single: recent torch only
                setattr(dist, name, self._recording(original, name))
        return self

    def _recording(self, original, name):
        def call(*args, **kwargs):
            tensor = args[1] if name in self.SENT_SECOND and len(args) > 1 else args[0]
            for t in tensor if isinstance(tensor, (list, tuple)) else [tensor]:
                self.sent.append((str(t.dtype).replace("torch.", ""), t.numel() * t.element_size()))
            return original(*args, **kwargs)
        return call

    def __exit__(self, *exc) -> None:
        for name, original in self._saved.items():
            if original is not None:
                setattr(dist, name, original)


def train_with_hook(hook, parts, micro_batch: int = MICRO_BATCH, lr: float = LR,
                    bucket_cap_mb: float | None = None) -> dict:
    """The lab's worker: DDP on this rank's part with ``hook`` registered (its state a fresh dict), SGD, one step
    a micro-batch; each bucket keeps one layout from the first step to the last (``bucket_cap_mb``: DDP's
    bucket size, None for its default). Returns the final weights on the CPU, the losses, what was sent and
    the gradient's bytes."""
    with ddp_set_up(bucket_cap_mb) as setup:  # the group joined, the data, the small GPT moved then wrapped in DDP
        model, ddp_model, mine = setup.model, setup.ddp_model, parts[dist.get_rank()]
        # DDP rebuilds its buckets once, in the order the gradients became ready, at the forward after its first
        # backward. One backward first (no step: the gradients are dropped), so that from the hook's first call
        # on a bucket holds the same values in the same order at every step.
        ddp_model(*setup.batch(mine[:micro_batch]))[1].backward()
        model.zero_grad(set_to_none=True)
        ddp_model.register_comm_hook({}, hook)  # the hook's state: a dict of its own, on this rank
        optimizer = torch.optim.SGD(ddp_model.parameters(), lr=lr)
        losses = []
        with SendRecord() as record:
            for start in range(0, len(mine), micro_batch):
                x, y = setup.batch(mine[start:start + micro_batch])
                optimizer.zero_grad()
                loss = ddp_model(x, y)[1]
                loss.backward()
                optimizer.step()
                losses.append(loss.item())
    return {"state": {k: t.detach().cpu() for k, t in model.state_dict().items()}, "losses": losses,
            "sent": record.sent, "steps": len(losses),
            "gradient_bytes": sum(p.numel() * p.element_size() for p in model.parameters())}


def moved(state: dict, want: dict, atol: float = 1e-6) -> tuple[float, float]:
    """(share of values further than ``atol`` from ``want``, largest gap); raises a check's failure on a state
    that is not the model's."""
    expect(isinstance(state, dict) and set(want) <= set(state), "the run's weights lack some of the model's")
    far = total = 0
    gap = 0.0
    for k, w in want.items():
        d = (torch.as_tensor(state[k]).float().cpu() - w.float()).abs()
        far, total, gap = far + int((d > atol).sum()), total + d.numel(), max(gap, d.max().item())
    return far / total, gap


# --- The check --------------------------------------------------------------------------------------------

_LAUNCHES: dict = {}


def launched(hook, parts, lr: float, bucket_cap_mb: float | None = None) -> list[dict]:
    """``train_with_hook(hook)`` on one worker a part, once per hook object and configuration."""
    key = (id(hook), parts, lr, bucket_cap_mb)
    if key not in _LAUNCHES or _LAUNCHES[key][0] is not hook:
        printed = io.StringIO()
        try:
            with contextlib.redirect_stdout(printed):
                outcome = launch(train_with_hook, hook, parts, MICRO_BATCH, lr, bucket_cap_mb, nprocs=len(parts),
                                 timeout=LAUNCH_TIMEOUT_S)
        except Exception as exc:  # kept: each reading reports it
            outcome = exc
        # Four ranks on fewer cores take turns, which the launcher warns of: here only the weights are compared,
        # never a time, so that warning is dropped; whatever else was printed (the learner's own prints) stays.
        kept = [line for line in printed.getvalue().splitlines() if not line.startswith("[launch] oversubscribed")]
        if kept:
            print("\n".join(kept))
        _LAUNCHES[key] = (hook, outcome)
    if isinstance(_LAUNCHES[key][1], Exception):
        raise _LAUNCHES[key][1]
    return _LAUNCHES[key][1]


def _parts(seed: int, size: int, passes: int = 1, world: int = WORLD) -> tuple[tuple[int, ...], ...]:
    """Each of ``world`` ranks' ``size`` windows (drawn by ``seed``), read ``passes`` times over."""
    return tuple(tuple(p) * passes for p in shards((size,) * world, seed))


def _where(size: int, lr: float, passes: int, world: int, bucket_cap_mb: float | None) -> str:
    buckets = "DDP's default buckets" if bucket_cap_mb is None else f"buckets of at most {bucket_cap_mb} MB"
    return (f"with {passes * size // MICRO_BATCH} steps at lr {lr}, {world} rank{'s' if world != 1 else ''}, "
            f"{buckets}")


def _one_configuration(hook, seed: int, size: int, lr: float, passes: int, world: int = WORLD,
                       bucket_cap_mb: float | None = None) -> float:
    from utils.relay import LaunchTimeout, WorkerError

    parts, where = _parts(seed, size, passes, world), _where(size, lr, passes, world, bucket_cap_mb)
    try:
        ranks = launched(hook, parts, lr, bucket_cap_mb)
    except (WorkerError, LaunchTimeout) as exc:
        if checks._is_not_implemented(exc):
            raise
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0][:160]
        expect(False, f"{where}, the training failed in your hook: {first}. A hook returns a future whose value "
                      "is the bucket's averaged gradient, the bucket's shape and dtype; it is called once for "
                      "each bucket, and a step's buckets differ in size")
    for rank, r in enumerate(ranks):
        kinds = sorted({dtype for dtype, _ in r["sent"]})
        expect(r["sent"], f"{where}, rank {rank}'s hook sent nothing through torch.distributed's all_reduce or "
                          "all_gather: each rank's values must reach the others")
        expect(kinds == ["int8"], f"{where}, rank {rank}'s hook sent {', '.join(kinds)} values: the exercise "
                                  "sends one byte a value (what quantize returns)")
        per_step = sum(b for _, b in r["sent"]) / r["steps"]
        expect(per_step <= 1.05 * r["gradient_bytes"] / 4,
               f"{where}, rank {rank} sent {per_step / 1e3:.0f} kB a step, more than one byte for each gradient "
               "value: each value once a step")
    for other in ranks[1:]:
        share, gap = moved(other["state"], {k: torch.as_tensor(v) for k, v in ranks[0]["state"].items()})
        expect(share == 0.0, f"{where}, the ranks end with different weights: the hook's future must give "
                             "every rank the same averaged gradient")
    atol = 1e-6 if devices.plan(WORLD).simulated else 1e-4
    share, gap = moved(ranks[0]["state"], _replay.replay(parts, lr=lr)["state"], atol)
    if share > MOVED_SHARE:
        if moved(ranks[0]["state"], _replay.replay(parts, lr=lr, carry=False)["state"], atol)[0] <= MOVED_SHARE:
            expect(False, f"{where}, your weights are those of a hook that drops what rounding leaves: a "
                          "gradient value under half a grid step never moves its weight. Keep it on the rank")
        if world * LEVELS > 127 and moved(ranks[0]["state"], _replay.replay(parts, lr=lr, in_int8=True)["state"],
                                          atol)[0] <= MOVED_SHARE:
            expect(False, f"{where}, your weights are those of counts summed in int8, which overflowed: {world} "
                          f"ranks' counts of up to ±{LEVELS} add up past int8's 127 and wrap around to negative "
                          "values. The sum needs a wider type, while what crosses between the ranks stays one "
                          "byte a value (hint B, level 3)")
        summed = _replay.replay(parts, lr=lr, divide=1)["state"]
        if world > 1 and moved(ranks[0]["state"], summed, atol)[0] <= MOVED_SHARE:
            expect(False, f"{where}, each step moved the weights as far as the ranks' SUM of gradients: an "
                          "average divides by the number of ranks")
        for fixed in sorted({2, WORLD} - {world}):
            if moved(ranks[0]["state"], _replay.replay(parts, lr=lr, divide=fixed)["state"], atol)[0] <= MOVED_SHARE:
                expect(False, f"{where}, each step divided the summed gradient by a fixed number of ranks, not "
                              "by the number in this run's group: the checks also run groups of other sizes")
        expect(False, f"{where}, {share:.0%} of the weights differ from one process replaying the exercise's "
                      f"arithmetic (up to {gap:.2g}): what your hook keeps on a rank between steps, or where it "
                      "gives it back, is not what rounding dropped from each value (hint B)")
    return share


def check_int8_hook(hook, configurations: tuple = CONFIGURATIONS, show: bool = True) -> checks.Verdict:
    """Skill: a communication hook that sends int8 counts and loses nothing that rounding drops, only delays it:
    one byte a value on the wire, the weights of one process replaying it."""

    def body():
        worst = max(_one_configuration(hook, *configuration) for configuration in configurations)
        return (f"{len(configurations)} configurations: int8 on the wire, one byte a value; " + (
            "every weight matching those of one process replaying the arithmetic" if worst == 0 else
            f"all but {worst:.2%} of the weights matching those of one process replaying the arithmetic (at "
            "most): those few differ as a value rounded to the next grid step does, the ranks' sums added in "
            "another order"))

    return run_check(CHECK_B, body, show=show, hint=checks.stub_message(BANK, "B"))


def _on_the_wire(world: int) -> str:
    """What a rank's share means on the wire: a ring all-gather of int8 brings each rank (N - 1) ranks' bytes, a
    ring all-reduce of float32 2 (N - 1) / N of four bytes a value, so the saving is 8 / N: 4x only on two ranks."""
    wire = f"{8 / world:.0f}x" if world in (2, 4, 8) else f"{8 / world:.1f}x"
    return (f", what each rank contributes. By arithmetic, not measured here: on these {world} ranks a ring "
            f"all-gather of int8 moves {wire} fewer bytes than a ring all-reduce of float32 (8 / N on N ranks)")


def take_aways(hook, uneven_results) -> str:
    """What the notebook's own runs showed, both exercises, printed from them; never raises on a wrong answer."""
    from utils.labs.ddp_from_scratch.checks import launch_summary

    lines = ["Exercise A: " + launch_summary(uneven_results).replace("\n", " ") if uneven_results is not None
             else "Exercise A: train_uneven has not run yet (the launch cell above reports why)."]
    seed, size, lr, passes, world, bucket_cap_mb = CONFIGURATIONS[0]  # the check's longest run
    parts = _parts(seed, size, passes, world)
    try:
        mine = launched(hook, parts, lr, bucket_cap_mb)[0]
    except Exception as exc:  # noqa: BLE001 - a stub or a wrong hook: the check says why
        lines.append(f"Exercise B: your hook did not train yet ({type(exc).__name__}): see its check.")
        return "\n".join(textwrap.fill(line, 110, subsequent_indent="  ") for line in lines)
    per_step = sum(b for _, b in mine["sent"]) / mine["steps"]
    lines.append(f"Exercise B: each rank handed the collective {per_step / 1e3:.0f} kB a step against "
                 f"{mine['gradient_bytes'] / 1e3:.0f} kB as float32 ({mine['gradient_bytes'] / max(per_step, 1):.1f}x"
                 f" fewer){_on_the_wire(world)}; at the first step "
                 f"{_replay.replay(parts, lr=lr)['zero_share']:.0%} of the values were sent as 0.")
    if moved(mine["state"], _replay.replay(parts, lr=lr)["state"], 1e-4)[0] > MOVED_SHARE:
        lines.append("Your hook's weights are not yet those of a hook that loses nothing rounding drops: its "
                     "check says why.")
    else:
        ours = _replay.replay(parts, lr=lr)
        kept, dropped = ours["lost"], _replay.replay(parts, lr=lr, carry=False)["lost"]
        lines.append(f"Over its {mine['steps']} steps (the check's first run, replayed in one process: the same "
                     f"weights), the summed gradients applied were {kept:.1%} from the summed gradients computed "
                     f"(relative error norm, ||applied - computed|| / ||computed||); for a hook that drops the "
                     f"rounding, {dropped:.1%}. " + kept_sentence(ours, kept < dropped))
    return "\n".join(textwrap.fill(line, 110, subsequent_indent="  ") for line in lines)



def kept_sentence(ours: dict, beat_dropping: bool) -> str:
    """The gap between the gradients applied and computed, set against what the ranks still keep at the end
    (both relative to the computed sum, from the same replay): equal, the gap is the remainder not yet sent."""
    gap, held, steps = ours["lost"], ours["kept_share"], ours["kept_steps"]
    largest = (f"The largest remainder a rank keeps for one value is {steps:.2f} grid steps (one step: GRID, the "
               "value of one count). " + (
                   f"Rounding alone leaves at most half a step; the rest is what clipping the counts at ±{LEVELS} "
                   "cut off, kept to be sent later. " if steps > 0.5 else
                   f"That is rounding's half a step at most: clipping the counts at ±{LEVELS} cut nothing off "
                   "that is still kept. "))
    said = (f"What the ranks still keep at the end, averaged over them, measures {held:.1%} of the computed sum. "
            + largest)
    if abs(gap - held) <= 0.001 + 0.01 * gap:
        said += ("It matches the gap: what is missing from the applied gradients is what the ranks still keep, "
                 "to be sent at later steps")
        return said + (": delayed, not lost." if beat_dropping else
                       "; in a run this short, carrying it did no better than dropping it.")
    return said + ("It does not match the gap: something besides the kept remainder is missing from the applied "
                   "gradients.")
