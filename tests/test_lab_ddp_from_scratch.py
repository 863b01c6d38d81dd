"""Lab 03 (utils.labs.ddp_from_scratch): ranks with uneven data (A), an int8 hook with error feedback (B). The solution (DDP inside ``Join``, the
gradient divided by the ranks still training) passes every check, and each plausible wrong answer (a mutant,
``pytest -m mutants``) fails the check that measures its skill, with a message that names the mistake and
never the answer.

Every test bounds its processes (pytest timeout, launch timeout) and leaves none behind.
"""

from __future__ import annotations

import contextlib
import functools
import json
from pathlib import Path

import pytest
import torch
import torch.distributed as dist
from torch.distributed.algorithms.join import Join
from torch.nn.parallel import DistributedDataParallel as DDP

from utils import checks
from utils.labs.ddp_from_scratch import checks as lab
from utils.labs.ddp_from_scratch import compress
from utils.labs.ddp_from_scratch import replay as reference  # B's reference arithmetic
from utils.launch import current_backend, keep_until_exit


@pytest.fixture(autouse=True)
def _in_cpu_mode_leaving_nothing(cpu_mode_and_no_leftovers):
    yield


def _steps_to_take(mine: int, micro_batch: int, mistake: str | None) -> int:
    """How many micro-batches this rank trains on: all of its part, or what a mistake makes of it."""
    steps = mine // micro_batch
    if mistake in ("stop with the shorter rank", "pad to the longer rank"):
        agreed = torch.tensor([steps])
        dist.all_reduce(agreed, op=dist.ReduceOp.MIN if mistake == "stop with the shorter rank" else
                        dist.ReduceOp.MAX)
        return int(agreed)
    return steps


def _uneven_inputs(net, mistake: str | None):
    """Join, dividing by the ranks still training (the solution); the default Join; or nothing at all."""
    if mistake in ("no Join", "no DDP", "stop with the shorter rank", "pad to the longer rank"):
        return contextlib.nullcontext()
    if mistake == "Join dividing by both ranks":
        return Join([net])
    return Join([net], divide_by_initial_world_size=False)


def _worker(parts, micro_batch, lr, mistake=None):
    """The lab's solution (CPU), with at most one mistake switched on."""
    dist.init_process_group(current_backend())
    dataset = lab.text()
    model = lab.build_model(dataset.corpus.vocab_size)
    net = model if mistake == "no DDP" else keep_until_exit(DDP(model))  # freed at return, DDP can deadlock
    optimizer = torch.optim.SGD(net.parameters(), lr=lr)
    mine = parts[dist.get_rank()]
    steps = _steps_to_take(len(mine), micro_batch, mistake)
    losses = []
    with _uneven_inputs(net, mistake):
        for k in range(steps):
            start = (k * micro_batch) % len(mine)  # padding reads the part again from its start
            x, y = (torch.stack(t) for t in zip(*(dataset[i] for i in mine[start:start + micro_batch])))
            optimizer.zero_grad()
            loss = net(x, y)[1]
            loss.backward()
            optimizer.step()
            if mistake == "losses after the step":  # the same batch again, under the stepped weights
                with torch.no_grad():
                    loss = model(x, y)[1]
            losses.append(loss.item())
    result = {"losses": losses, "state": {name: t.detach().clone() for name, t in model.state_dict().items()}}
    if mistake != "group left open":
        dist.destroy_process_group()
    if mistake == "a list, not a dict":
        return [result["losses"], result["state"]]
    return result


@pytest.mark.timeout(180)
def test_the_solution_passes_every_check():
    for check in (lab.check_all_data, lab.check_weights, lab.check_clean_up):
        verdict = check(_worker, show=False)
        assert verdict.passed, str(verdict)


def test_the_configurations_are_uneven_each_way_and_unlike_the_notebooks():
    sizes = [tuple(c[1:]) for c in lab.CONFIGURATIONS]
    assert any(a > b for a, b in sizes) and any(a < b for a, b in sizes)
    assert all(n % lab.MICRO_BATCH == 0 for s in sizes for n in s)
    notebook = lab.shards()
    for seed, *size in lab.CONFIGURATIONS:
        parts = lab.shards(tuple(size), seed)
        assert not set(parts[0]) & set(parts[1]) and parts != notebook
    assert len(lab.text()) >= max(sum(s) for s in sizes)


def test_a_stub_reports_not_done_yet():
    def stub(parts, micro_batch, lr):
        raise NotImplementedError("exercise A")

    for check in (lab.check_all_data, lab.check_weights, lab.check_clean_up):
        assert check(stub, show=False).status == checks.NOT_DONE


@pytest.mark.timeout(120)
def test_lesson_03s_loop_on_uneven_parts_says_how_far_each_rank_got():
    said = lab.run_lesson_03_loop(lab.shards())  # the notebook's parts: rank 0 has 6 micro-batches, rank 1 has 3
    # raw: the steps each rank took and the error with its calls; where and why is the learner's to read
    assert "rank 1: 3 optimizer steps taken, of the 3 micro-batches in its part; no error" in said, said
    assert "rank 0: 3 optimizer steps taken, of the 6 micro-batches in its part; then raised" in said, said
    assert "backward (torch/_tensor.py)" in said and "all-reduce" not in said and "step 4" not in said, said
    assert "pytorch/" not in said and "127.0.0.1" not in said and max(map(len, said.splitlines())) <= 110


def test_the_reference_names_the_halved_steps():
    parts = tuple(tuple(p) for p in lab.shards(lab.SHARD_SIZES))
    right, halved = lab.reference(parts), lab.reference(parts, joined_weight=0.5)
    assert max((right[k] - halved[k]).abs().max().item() for k in right) > 1e-3  # SGD shows the halving


# --- mutants: what a learner plausibly writes instead --------------------------------------------------------


MUTANTS = [
    ("no Join", lab.check_all_data, "a rank that runs out must keep answering"),
    ("stop with the shorter rank", lab.check_all_data, "were never trained on"),
    ("pad to the longer rank", lab.check_all_data, "trained on twice"),
    ("no DDP", lab.check_all_data, "never wrapped its model in DistributedDataParallel"),
    ("Join dividing by both ranks", lab.check_weights, "divided by both ranks though only one trained"),
    ("a list, not a dict", lab.check_weights, "returned list"),
    ("losses after the step", lab.check_weights, "before the optimizer moved the weights"),
]


@pytest.mark.mutants
@pytest.mark.timeout(240)
@pytest.mark.parametrize("mistake, check, says", MUTANTS, ids=[m[0] for m in MUTANTS])
def test_a_wrong_worker_fails_saying_what_is_wrong(mistake, check, says):
    verdict = check(functools.partial(_worker, mistake=mistake), show=False)
    assert verdict.status == checks.FAILED and says in verdict.message, str(verdict)


@pytest.mark.mutants
@pytest.mark.timeout(180)
def test_a_worker_that_leaves_the_group_open_fails_the_clean_up():
    verdict = lab.check_clean_up(functools.partial(_worker, mistake="group left open"), show=False)
    assert verdict.status == checks.FAILED and "process group still initialised" in verdict.message


# --- Exercise B: the int8 hook with error feedback ------------------------------------------------------------


def _hook(state, bucket, mistake=None):
    """The lab's solution hook (error feedback per bucket, int8 counts gathered, summed in int32), with at most
    one mistake switched on."""
    world = 2 if mistake == "a fixed 2 ranks" else dist.get_world_size()
    if mistake == "float32 sent":  # rounded, but sent as float32
        sent = compress.dequantize(compress.quantize(bucket.buffer()))
        return dist.all_reduce(sent, async_op=True).get_future().then(lambda f: f.value()[0] / world)
    key = "remainder" if mistake == "one remainder for every bucket" else bucket.index()
    kept = 0.0 if mistake == "remainder dropped" else state.get(key, 0.0)
    corrected = bucket.buffer() + kept
    sent = compress.quantize(corrected)
    remainder = corrected - compress.dequantize(sent)
    state[key] = -remainder if mistake == "remainder kept with the wrong sign" else remainder
    divide = 1 if mistake == "sum not averaged" else world
    if mistake == "counts summed in int8":  # right for 2 ranks (126 <= 127); 4 ranks' sums wrap around
        return dist.all_reduce(sent, async_op=True).get_future().then(
            lambda f: compress.dequantize(f.value()[0]) / divide)
    gathered = [torch.empty_like(sent) for _ in range(dist.get_world_size())]
    return dist.all_gather(gathered, sent, async_op=True).get_future().then(
        lambda _: compress.dequantize(torch.stack(gathered).sum(0, dtype=torch.int32)) / divide)


@pytest.mark.timeout(180)
def test_the_solution_hook_passes_and_the_take_aways_show_what_carrying_the_remainder_kept():
    verdict = compress.check_int8_hook(_hook, show=False)
    assert verdict.passed, str(verdict)
    said = compress.take_aways(_hook, None)
    assert "4.0x fewer" in said and "delayed, not lost" in said and "relative error norm" in said, said
    assert "It matches the gap" in " ".join(said.split())
    assert "what each rank contributes. By arithmetic, not measured here: on these 2 ranks" in " ".join(said.split())
    assert max(len(line) for line in said.splitlines()) <= 110


def test_a_stub_hook_reports_not_done_yet():
    def stub(state, bucket):
        raise NotImplementedError("exercise B")

    verdict = compress.check_int8_hook(stub, show=False)
    assert verdict.status == checks.NOT_DONE
    assert "did not train yet" in compress.take_aways(stub, None)
    # the check is named by what it checks, not by the method the learner is to find
    assert str(verdict).startswith("⏳ int8 sent, nothing lost over the steps: not done yet")
    assert "feedback" not in compress.CHECK_B


def test_the_lab_names_exercise_b_by_what_its_check_checks():
    nb = json.loads((Path(__file__).resolve().parents[1] / "labs/03_ddp_from_scratch.ipynb").read_text())
    checks_md = next("".join(c["source"]) for c in nb["cells"] if "".join(c["source"]).startswith("## Checks"))
    assert f"4. **{compress.CHECK_B}** (exercise B)" in checks_md
    assert "error feedback" not in checks_md
    # the stub's message (hint 1), shown beside the check, points to the lesson's concept, not the method's name
    assert "error feedback" not in checks.stub_message(lab.BANK, "B") and "§5" in checks.stub_message(lab.BANK, "B")


def test_the_grid_rounds_many_values_to_zero_and_a_checked_group_overflows_an_int8_sum():
    assert 2 * compress.LEVELS <= 127 < max(c[4] for c in compress.CONFIGURATIONS) * compress.LEVELS
    seed, size, lr, passes, world, _ = max(compress.CONFIGURATIONS, key=lambda c: c[4])
    big = compress._parts(seed, size, passes, world)
    wrapped, right = reference.replay(big, lr=lr, in_int8=True), reference.replay(big, lr=lr)
    assert compress.moved(wrapped["state"], right["state"])[0] > 10 * compress.MOVED_SHARE  # the overflow shows
    seed, size, lr, passes, world, _ = compress.CONFIGURATIONS[0]
    parts = compress._parts(seed, size, passes, world)
    assert 0.3 < reference.replay(parts, lr=lr)["zero_share"] < 0.8
    # the take-aways' run: dropping the rounding loses far more of the summed gradient than carrying it
    assert 2 * reference.replay(parts, lr=lr)["lost"] < reference.replay(parts, lr=lr, carry=False)["lost"]
    # and what carrying it misses is what the ranks still keep: the take-away prints both, from the replay
    ours = reference.replay(parts, lr=lr)
    assert ours["kept_share"] == pytest.approx(ours["lost"], rel=1e-3)
    said = " ".join(compress.kept_sentence(ours, True).split())
    assert "It matches the gap" in said and "delayed, not lost" in said
    off = dict(ours, kept_share=ours["lost"] / 2)
    assert "does not match the gap" in compress.kept_sentence(off, True)
    # the largest remainder, in grid steps, said against what rounding alone leaves (half a step)
    assert "Rounding alone leaves at most half a step" in " ".join(
        compress.kept_sentence(dict(ours, kept_steps=27.36), True).split())
    assert "cut nothing off" in " ".join(compress.kept_sentence(dict(ours, kept_steps=0.42), True).split())


def test_the_lab_imports_no_reference_arithmetic():
    assert not hasattr(compress, "replay") and "replay" not in {n for n in vars(compress) if not n.startswith("_")}


HOOK_MUTANTS = [
    ("remainder dropped", "drops what rounding leaves"),
    ("remainder kept with the wrong sign", "is not what rounding dropped from each value"),
    ("float32 sent", "sent float32 values"),
    ("sum not averaged", "divides by the number of ranks"),
    ("one remainder for every bucket", "called once for each bucket"),
    ("a fixed 2 ranks", "by a fixed number of ranks"),
    ("counts summed in int8", "overflowed"),
]


@pytest.mark.mutants
@pytest.mark.timeout(240)
@pytest.mark.parametrize("mistake, says", HOOK_MUTANTS, ids=[m[0] for m in HOOK_MUTANTS])
def test_a_wrong_hook_fails_saying_what_is_wrong(mistake, says):
    def mistaken(state, bucket):  # a function, not a partial: DDP reads a hook's __name__
        return _hook(state, bucket, mistake)

    verdict = compress.check_int8_hook(mistaken, show=False)
    assert verdict.status == checks.FAILED and says in verdict.message, str(verdict)
    assert "feedback" not in verdict.message  # what is wrong, never the method's name


@pytest.mark.mutants
@pytest.mark.timeout(240)
def test_a_wrong_hooks_take_aways_say_what_it_lost_not_the_method():
    def dropping(state, bucket):
        return _hook(state, bucket, "remainder dropped")

    said = " ".join(compress.take_aways(dropping, None).split())
    assert "not yet those of a hook that loses nothing rounding drops: its check says why" in said, said
    assert "feedback" not in said


def test_the_hook_checks_vary_the_buckets_the_group_and_the_rate():
    """A remainder kept for the wrong bucket shows only with several buckets; an average over a fixed 2 only in
    a group of another size; 'other learning rates' only if none is the notebook's."""
    assert all(c[2] != lab.LR for c in compress.CONFIGURATIONS)
    assert any(c[5] is not None for c in compress.CONFIGURATIONS)  # a small bucket cap: several buckets
    assert {c[4] for c in compress.CONFIGURATIONS} - {lab.WORLD}  # a group of another size
    seed, size, lr, passes, world, _ = compress.CONFIGURATIONS[0]
    kept = reference.replay(compress._parts(seed, size, passes, world), lr=lr)["kept_steps"]
    assert 0 < kept <= compress.LEVELS  # measured, in grid steps, for the take-aways


def test_the_loss_reference_is_each_ranks_micro_batch_before_the_step():
    parts = tuple(tuple(p) for p in lab.shards(lab.SHARD_SIZES))
    losses = lab.reference_losses(parts)
    assert [len(r) for r in losses] == [n // lab.MICRO_BATCH for n in lab.SHARD_SIZES]
    assert all(2.0 < v < 6.0 for r in losses for v in r)  # a character cross-entropy, from ~ln(vocab) down


def test_int8s_saving_on_the_wire_is_a_quarter_only_on_two_ranks():
    assert "4x fewer bytes" in compress._on_the_wire(2) and "2x fewer bytes" in compress._on_the_wire(4)
    assert "By arithmetic, not measured here" in compress._on_the_wire(2)
