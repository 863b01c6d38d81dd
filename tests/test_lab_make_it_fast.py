"""utils/labs/make_it_fast (lab 08): the checks pass a fast script and fail each half-fix a learner plausibly
stops at, naming what is left; the reading of the profile is judged on the same profile, and plausible
misreadings fail by what they did.

Every mutant is the fast script with one of the slow script's habits kept (``make_train``), launched on two
workers for 6 steps (one evaluation and one checkpoint due). The checks that judge them count what the
workers did; no test depends on a timing (the speed check's verdict is tested on given timings).
"""

from __future__ import annotations

import contextlib
import os
import re

import pytest
import torch
import torch.distributed as dist
from helpers_prefetch import no_thread_or_process_left  # noqa: F401 - autouse: nothing left running
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, DistributedSampler

from utils import checks, devices
from utils.labs.make_it_fast import checks as lab
from utils.labs.make_it_fast import script
from utils.launch import current_backend, current_device, keep_until_exit

STEPS = 6  # one evaluation and one checkpoint due (EVAL_EVERY = CHECKPOINT_EVERY = 6)
_KEPT = []  # a worker's references that outlive its function (the "loader kept alive" mutant)


def make_train(threads_per_core=False, loader_workers=1, sync="last", evaluate="due", save="rank 0",
               sampler=True, destroy=True, keep_loader=False, loss_scale=1, save_from=1, thread_reads=False):
    """The fast script, with one or more of the slow script's habits put back. ``loss_scale``: the backward
    pass's loss is that many times the mean (the reported loss stays right); ``save_from``: the loop counts
    its steps from that number when it decides to save; ``thread_reads``: no loader process, a thread of the
    training process reads ahead instead."""

    def train(steps):
        if threads_per_core:
            torch.set_num_threads(os.cpu_count())
        device = current_device()
        dist.init_process_group(current_backend())
        dataset = script.text()
        model = script.build_model(dataset.corpus.vocab_size).to(device)
        ddp_model = keep_until_exit(DDP(model))
        shards = DistributedSampler(dataset, shuffle=True, seed=script.SEED, drop_last=True)
        feeding = dict(num_workers=loader_workers, persistent_workers=True) if loader_workers else {}
        if sampler:
            loader = DataLoader(dataset, batch_size=script.MICRO_BATCH, sampler=shards, drop_last=True, **feeding)
            batches = script.micro_batches(loader, shards)
        else:  # every rank shuffles the whole data set itself
            loader = DataLoader(dataset, batch_size=script.MICRO_BATCH, shuffle=True, drop_last=True, **feeding)
            batches = iter(loader)
        if thread_reads:
            batches = _read_ahead_in_a_thread(batches)
        if keep_loader:
            _KEPT.append(batches)
        optimizer = torch.optim.AdamW(ddp_model.parameters(), lr=script.LR)
        losses, held_out = [], {}
        for step in range(1, steps + 1):
            optimizer.zero_grad()
            step_loss = torch.zeros(())
            for k in range(script.ACCUMULATE):
                x, y = next(batches)
                local = sync == "never" or (sync == "last" and k < script.ACCUMULATE - 1)
                with ddp_model.no_sync() if local else contextlib.nullcontext():
                    loss = ddp_model(x, y)[1] / script.ACCUMULATE
                    (loss * loss_scale).backward()
                step_loss += loss.detach()
            optimizer.step()
            losses.append(step_loss.item())
            if evaluate == "every step" or (evaluate == "due" and step % script.EVAL_EVERY == 0):
                latest = script.evaluate(model)
                if step % script.EVAL_EVERY == 0:
                    held_out[step] = latest
            if (step - 1 + save_from) % script.CHECKPOINT_EVERY == 0 and (save == "every rank"
                                                                          or dist.get_rank() == 0):
                script.save_checkpoint(model, optimizer, step)
        del batches, loader
        if destroy:
            dist.destroy_process_group()
        return {"losses": losses, "held_out": held_out}

    return train


def _read_ahead_in_a_thread(batches, depth=8):
    """Lesson 05's prefetching thread, in the training process: its reads are still that process's."""
    import queue
    import threading

    ready = queue.Queue(depth)
    threading.Thread(target=lambda: [ready.put(b) for b in batches], daemon=True).start()
    while True:
        yield ready.get()


@pytest.fixture(autouse=True)
def checkpoints_in_a_temporary_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("TWOGPU_LAB08_DIR", str(tmp_path))


def verdicts(train) -> dict[str, checks.Verdict]:
    """Every check but the speed check, on one launch of ``train``."""
    found = {}
    for check in (lab.check_same_training, lab.check_communication, lab.check_feeding, lab.check_threads,
                  lab.check_asked_for, lab.check_clean_up):
        found[check.__name__] = check(train, steps=STEPS, show=False)
    return found


def failed_only(found: dict[str, checks.Verdict], *names: str) -> None:
    """The checks ``names`` failed, every other passed."""
    wrong = {name: str(v) for name, v in found.items() if v.passed == (name in names)}
    assert not wrong, wrong


@pytest.mark.timeout(240)
def test_the_fast_script_passes_every_check_and_the_speed_check_measures_it():
    train = make_train()
    failed_only(verdicts(train))
    # Launched for real, judged on its form only: whether it passes is a timing (tested on given timings below;
    # the lab's own run under nbval passes it).
    speed = lab.check_speed(train, steps=STEPS, show=False)
    assert speed.status in (checks.PASSED, checks.FAILED), speed
    said = speed.message
    assert "against the reference plan's" in said and "median of the paired rounds' ratios" in said, said


# --- mutants: half-fixes, each failing with a message that names what is left --------------------------------


@pytest.mark.mutants
@pytest.mark.timeout(240)
def test_mutant_a_thread_for_every_core_in_each_worker_fails_threads():
    """Counted, not timed: how much oversubscription costs varies from run to run (4-8x slower here, at times
    hardly at all), so the speed check's verdict on it is tested on given timings below."""
    found = verdicts(make_train(threads_per_core=True))
    failed_only(found, "check_threads")
    assert "take turns on the cores" in found["check_threads"].message


def _run(seconds_a_step: float, threads: int = 1, reads: int = 0) -> list[dict]:
    """Two ranks' watched results, as ``_watched`` returns them, of a run whose steps take the given time."""
    stamps = [k * seconds_a_step for k in range(STEPS)]
    rank = {"stamps": stamps, "threads": [threads] * STEPS, "cores": 2, "counts": {"read": reads},
            "watch": {"allreduce_bytes": 100 * STEPS, "gradient_bytes": 100, "optimizer_steps": STEPS}}
    return [rank, dict(rank, stamps=[])]


@pytest.mark.mutants
@pytest.mark.parametrize("mine, passes", [(0.11, True), (0.4, False)], ids=["91 %", "25 %"])
def test_the_speed_check_judges_given_timings_and_names_what_is_left(monkeypatch, mine, passes):
    reference, yours = _run(0.1), _run(mine, threads=2, reads=0 if passes else 5)
    monkeypatch.setattr(lab, "launched", lambda fn, steps: yours)
    monkeypatch.setattr(lab, "reference_runs", lambda steps: [reference])
    monkeypatch.setattr(lab, "_launch_watched", lambda fn, steps: reference if fn is lab._reference_plan() else yours)
    verdict = lab.check_speed(object(), steps=STEPS, show=False)
    assert verdict.passed == passes, verdict
    rounds = 3 if passes else 3 + lab.EXTRA_ROUNDS  # a check that falls short times more rounds
    assert (f"(each the median of the {rounds} rounds that ran both, round 1's reference the run printed above; "
            "their ratio ") in " ".join(verdict.message.split()), verdict.message  # either outcome
    if not passes:
        assert "median of the paired rounds' ratios 25%" in verdict.message, verdict.message
        assert "their ratio 25%)" in verdict.message, verdict.message  # beside it
        said = verdict.message.split("Measured in your run, beyond what training needs: ")[1]
        assert said.startswith("4 compute threads on 2 cores; 10 storage reads inside the training loop"), said
        assert "launcher" not in verdict.message and "oversubscribes" not in verdict.message  # no fix given


@pytest.mark.mutants
@pytest.mark.timeout(240)
@pytest.mark.parametrize("habit, failing, named", [
    (dict(loader_workers=0), ["check_feeding"], "read 192 of its 192 windows itself"),
    (dict(sync="every"), ["check_communication"], "each synchronised; only the last one needs to"),
    (dict(sync="never"), ["check_communication", "check_same_training"], "never all-reduced a gradient"),
    (dict(evaluate="every step"), ["check_asked_for"], "evaluated the held-out loss 6 times in 6 steps"),
    (dict(save="every rank"), ["check_asked_for"], "rank 1 saved 1 checkpoints too"),
    (dict(evaluate="never"), ["check_same_training"], "held-out losses after steps []"),
    (dict(sampler=False), ["check_same_training"], "against the reference plan's"),
    (dict(destroy=False), ["check_clean_up"], "with the process group still initialised"),
    (dict(keep_loader=True), ["check_clean_up"], "processes were still running when your function returned"),
    # Wrong answers the checks let pass before issue 38's review: a scaled gradient AdamW hides (the losses
    # stay within 1e-4), checkpoints counted right but after other steps, a prefetching thread (lab 05's rule).
    (dict(loss_scale=script.ACCUMULATE), ["check_same_training"], "about 4x, the number of micro-batches"),
    (dict(save_from=0), ["check_asked_for"], "saved its checkpoints after optimizer step(s) [1]"),
    (dict(loader_workers=0, thread_reads=True), ["check_feeding"], "in its loop or in a thread of it"),
], ids=["reads in the loop", "all-reduce every micro-batch", "never all-reduces", "evaluates every step",
        "every rank saves", "no evaluation", "no sampler", "group left open", "loader kept alive",
        "gradient not averaged over micro-batches", "checkpoints after other steps", "reads in a thread"])
def test_mutant_half_fix_fails_naming_what_is_left(habit, failing, named):
    found = verdicts(make_train(**habit))
    failed_only(found, *failing)
    assert named in found[failing[0]].message, found[failing[0]].message


@pytest.mark.mutants
@pytest.mark.parametrize("mine, passes, launches", [((0.11, 0.4, 0.11), True, 2), ((0.11, 0.4, 0.4, 0.4, 0.11), False, 4)],
                         ids=["one busy round", "slow in most rounds"])
def test_one_busy_round_cannot_sink_the_speed_check_and_a_slow_script_cannot_pass_it(monkeypatch, mine, passes,
                                                                                      launches):
    """The verdict is the median of three paired rounds, and of two more when it falls short: one round that a
    busy moment slowed (the median of two rounds sank with it) leaves a fast script passing."""
    reference, yours = _run(0.1), iter([_run(m) for m in mine[1:]])
    monkeypatch.setattr(lab, "launched", lambda fn, steps: _run(mine[0]))
    monkeypatch.setattr(lab, "reference_runs", lambda steps: [reference])
    monkeypatch.setattr(lab, "_launch_watched", lambda fn, steps: reference if fn is lab._reference_plan() else next(yours))
    verdict = lab.check_speed(object(), steps=STEPS, show=False)
    assert verdict.passed == passes, verdict
    ratios = re.search(r"rounds (\d+%(?:, \d+%)*)", verdict.message).group(1)
    assert len(ratios.split(", ")) == launches + 1, verdict


def test_the_lab_s_own_cell_reports_a_reading_it_cannot_use_instead_of_raising():
    class Peak:
        best = 1e11
    for reading, says in (({"forward and backward": 0.0}, "exercise A's check says what is wrong"),
                          ({"forward and backward": "12"}, "once exercise A is done"),
                          ({"forward and backward": 100.0}, "GFLOP/s")):
        pending = lab.Diagnosis(3, {}, [("ok", reading)])
        assert says in lab.compute_sentence(pending, 1e9, Peak())
    assert "once exercise A" in lab.compute_sentence(lab.Diagnosis(3, {}, [("error", "boom")]), 1e9, Peak())


def test_what_is_left_names_each_habit_seen_in_a_run():
    run = {"threads": [2, 2], "cores": 2, "counts": {"read": 5, "evaluate": 6, "save_checkpoint": 6},
           "watch": {"allreduce_bytes": 4 * 6 * 100, "gradient_bytes": 100, "optimizer_steps": 6}}
    assert lab.what_is_left([run, dict(run, counts={})], 6) == [
        "4 compute threads on 2 cores", "5 storage reads inside the training loop",
        "4x the gradients' bytes all-reduced per optimizer step", "6 held-out evaluations in 6 steps",
        "6 checkpoints written in 6 steps"]
    fixed = dict(run, threads=[1], counts={"evaluate": 1, "save_checkpoint": 1},
                 watch={"allreduce_bytes": 600, "gradient_bytes": 100, "optimizer_steps": 6})
    assert lab.what_is_left([fixed, dict(fixed, counts={})], 6) == []


def test_tokens_per_s_counts_from_the_first_optimizer_step_to_the_last():
    run = {"stamps": [10.0, 10.5, 11.0]}  # two steps after the first, in 1 s
    assert lab.tokens_per_s([run]) == pytest.approx(2 * lab.tokens_per_step())
    with pytest.raises(checks.CheckFailed, match="stepped 1 time"):
        lab.tokens_per_s([{"stamps": [1.0]}])


@pytest.mark.mutants
def test_mutant_the_reference_plan_itself_is_refused_as_the_learner_s_script():
    """``fast_train = reference.reference_train`` (or a function that only calls it) would pass every check:
    each check refuses it, saying the lab asks for the learner's own script, before launching anything."""
    import functools

    from utils.labs.make_it_fast import reference

    def calls_it(steps=STEPS):
        return reference.reference_train(steps)

    for fn in (reference.reference_train, calls_it, lambda steps=STEPS: lab._reference_plan()(steps),
               functools.partial(reference.reference_train, STEPS)):
        assert lab.is_the_reference(fn)
        for check in (lab.check_same_training, lab.check_communication, lab.check_speed):
            verdict = check(fn, steps=STEPS, show=False)
            assert verdict.status == checks.FAILED and "your own script" in verdict.message, verdict
    assert not lab.is_the_reference(script.slow_train)


def test_the_reference_plan_is_not_in_the_labs_namespace():
    """The lab imports the checks as ``lab`` (and the script's pieces as ``script``): neither holds the reference
    plan, so ``show_source(lab.<name>)`` cannot show it."""
    from utils.labs.make_it_fast import own_work

    for module in (lab, script, own_work):
        assert not any(getattr(value, "__name__", "") in ("reference_train", "utils.labs.make_it_fast.reference")
                       for value in vars(module).values()), module.__name__


def test_an_unfinished_script_is_not_done_yet_in_every_check():
    def fast_train(steps):
        raise NotImplementedError("exercise B")

    for check in (lab.check_same_training, lab.check_speed, lab.check_clean_up):
        assert check(fast_train, steps=STEPS, show=False).status == checks.NOT_DONE


# --- exercise A: the reading of the profile ----------------------------------------------------------------


def _self_time(prof, steps):
    reading = {e.key: e.self_cpu_time_total / 1e3 / steps for e in prof.key_averages() if e.key in lab.REGIONS}
    reading[lab.ALL_REDUCES] = sum(e.count for e in prof.key_averages() if e.key.endswith("all_reduce")) / steps
    return reading


def _both_names(prof, steps):
    """Every event whose name says all-reduce: torch's dispatcher op and the library's, for one call."""
    reading = lab._reading_of(prof, steps)
    names = [e for e in prof.key_averages() if "allreduce" in e.key or "all_reduce" in e.key]
    reading[lab.ALL_REDUCES] = sum(e.count for e in names) / steps
    return reading


def _scaled(factor=1.0, all_reduce_factor=1.0, drop=None, only_nccl=False):
    def read(prof, steps):
        reading = lab._reading_of(prof, steps)
        reading = {k: v * (all_reduce_factor if k == lab.ALL_REDUCES else factor) for k, v in reading.items()}
        if only_nccl:
            reading[lab.ALL_REDUCES] = sum(e.count for e in prof.key_averages() if e.key == "nccl:all_reduce")
        reading.pop(drop, None)
        return reading
    return read


READERS = {  # name: (reader, the words the failure must contain; None: it passes)
    "right": (_scaled(), None),
    "self time": (_self_time, "total time, not its self time"),
    "all steps": (_scaled(lab.PROFILE_STEPS, lab.PROFILE_STEPS), "the total over the 3 profiled steps"),
    "seconds": (_scaled(1e-3), "looks like seconds"),
    "microseconds": (_scaled(1e3), "looks like microseconds"),
    "a region left out": (_scaled(drop="checkpoint"), "your reading lacks ['checkpoint']"),
    "all-reduces of all steps": (_scaled(all_reduce_factor=lab.PROFILE_STEPS), "all the profiled steps' calls"),
    "nccl only": (_scaled(only_nccl=True), "count every all-reduce call the profile recorded"),
    "dispatcher and library": (_both_names, "appears twice in a profile, once as torch's dispatcher op"),
}


@pytest.fixture(scope="module")
def diagnosis():
    return lab.profile_slow(*(reader for reader, _ in READERS.values()))


@pytest.mark.mutants
@pytest.mark.timeout(120)
@pytest.mark.parametrize("name", list(READERS))
def test_mutant_misreading_the_profile_fails_by_what_it_did(diagnosis, name):
    index = list(READERS).index(name)
    verdict = lab.check_diagnosis(lab.Diagnosis(diagnosis.steps, diagnosis.reference,
                                                [diagnosis.readings[index]]), show=False)
    words = READERS[name][1]
    if words is None:
        assert verdict.passed, verdict
    else:
        assert verdict.status == checks.FAILED and words in verdict.message, verdict.message
        answers = {f"{v:{form}}" for v in diagnosis.reference.values() for form in (".4g", "g")}
        assert not [a for a in answers if f" {a} " in f" {verdict.message} ".replace(",", " ")], \
            f"a failure message printed the check's reading (the answer): {verdict.message}"


@pytest.mark.timeout(120)
def test_the_profile_shows_each_habit_of_the_slow_script(diagnosis):
    """The slow script's profile names what the lab asks the learner to find: storage waits, evaluations and
    saves every step, and more all-reduce calls than one synchronisation a step needs."""
    ref = diagnosis.reference
    read_wait = script.ACCUMULATE * script.MICRO_BATCH * script.READ_SECONDS * 1e3  # ms a step
    assert ref["load"] >= read_wait
    assert ref["evaluate"] > 0 and ref["checkpoint"] > 0
    assert ref[lab.ALL_REDUCES] >= script.ACCUMULATE  # at least one call per micro-batch
    table = lab.diagnosis_table(diagnosis)
    assert [row[0] for row in table.rows] == list(lab.REGIONS[1:])
    assert len(table.columns) == 3 and "all-reduce calls a step" in table.title


def test_the_table_waits_for_the_reading():
    pending = lab.Diagnosis(3, {}, [("not done", "exercise A")])
    assert "not done yet" in lab.diagnosis_table(pending)
    assert lab.check_diagnosis(pending, show=False).status == checks.NOT_DONE


# --- modes ---------------------------------------------------------------------------------------------------


@pytest.mark.modes
def test_each_mode_compares_losses_within_its_tolerance_and_names_where_it_measured(machine):
    plan = devices.plan(lab.WORLD)
    assert lab.tolerance() == (1e-4 if plan.simulated else 1e-3)
    assert plan.label  # the speed check's "measured on ..." names it
    launcher_threads = max(1, devices.cpu_cores() // lab.WORLD)  # what launch gives each worker
    assert launcher_threads * lab.WORLD <= devices.cpu_cores() or devices.cpu_cores() < lab.WORLD


def test_the_take_aways_wait_for_every_check(monkeypatch):
    monkeypatch.setattr(checks, "HISTORY", {"the same training": checks.Verdict("the same training", checks.FAILED)})
    assert "appear once every check passes" in lab.take_aways(lab.Diagnosis(3, {}, []), object())


def test_the_notebook_checks_exercise_b_s_habits_in_one_call_that_does_not_name_them():
    """Exercise A asks where the time goes: the check cells must not list the four fixes before it is done."""
    import json
    from pathlib import Path
    nb = json.loads((Path(__file__).resolve().parents[1] / "labs" / "08_make_it_fast.ipynb").read_text())
    code = "".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code")
    assert "lab.check_fixes(fast_train)" in code
    for named in ("check_communication", "check_feeding", "check_threads", "check_asked_for"):
        assert named not in code, named


# --- exercise B's prediction, and the one verdict that names no habit until all four pass -------------------

_READING = {"step": 2494.0, "load": 90.6, "forward and backward": 1810.9, "optimizer": 212.8, "evaluate": 346.4,
            "checkpoint": 31.3, lab.ALL_REDUCES: 7.67}


def _needed(reading):
    saved = (reading["load"] + reading["evaluate"] * (1 - 1 / script.EVAL_EVERY)
             + reading["checkpoint"] * (1 - 1 / script.CHECKPOINT_EVERY))
    return reading["step"] - saved


def test_the_prediction_check_passes_the_step_each_reading_needs_and_fails_one_not_read_from_it():
    diagnosis = lab.Diagnosis(3, dict(_READING), [])
    assert lab.check_prediction(_needed, diagnosis, show=False).passed
    fixed = lab.check_prediction(lambda reading: _needed(_READING), diagnosis, show=False)  # ignores its reading
    assert fixed.status == checks.FAILED and "a reading you never saw" in fixed.message, fixed
    kept_load = lab.check_prediction(lambda r: _needed(r) + r["load"], diagnosis, show=False)
    assert kept_load.status == checks.FAILED and f"{_needed(_READING):.0f}" not in kept_load.message  # no answer


def test_an_unfinished_prediction_is_not_done_and_its_cell_says_so(capsys):
    def predicted_step_ms(reading):
        raise NotImplementedError("exercise B")

    diagnosis = lab.Diagnosis(3, dict(_READING), [])
    assert lab.check_prediction(predicted_step_ms, diagnosis, show=False).status == checks.NOT_DONE
    lab.show_prediction(predicted_step_ms, diagnosis)
    assert "not done yet" in capsys.readouterr().out


@pytest.mark.parametrize("seconds, said", [(0.1, "the profiler's own overhead on the slow script's step (not "
                                                 "measured apart)"),
                                           (2.09, "within 10% of it"), (3.0, "more than 10% over it")])
def test_the_prediction_is_set_beside_the_measured_step_for_every_outcome(seconds, said):
    from utils.labs.make_it_fast.prediction import prediction_sentence
    text = prediction_sentence(_needed, lab.Diagnosis(3, dict(_READING), []), seconds * 1e3,
                               "the speed check's median")
    assert said in text and f"measured {seconds * 1e3:.0f} ms a step (the speed check's median)" in text, text


def test_the_take_aways_quote_the_speed_check_s_median_step_or_say_it_is_the_first_run(monkeypatch):
    """Lab 08's dump: the take-aways said 211 ms (the first launch) beside the speed check's 19,115 tokens/s
    (214 ms a step): one step time for every sentence, the speed check's when it ran."""
    from utils.labs.make_it_fast.takeaways import measured_step

    def fast_train(steps):
        return None
    first = [{"stamps": [0.0, 0.211]}]  # the first launch: one step of 211 ms
    monkeypatch.setattr(lab, "SPEEDS", {})
    monkeypatch.setattr("utils.labs.make_it_fast.takeaways.SPEEDS", lab.SPEEDS)
    ms, source = measured_step(fast_train, first)
    assert f"{ms:.0f}" == "211" and source == "its first run, not the speed check's median: no speed check has run"
    lab.SPEEDS[(id(fast_train), script.STEPS)] = (fast_train, 19_115.0)  # what check_speed records
    ms, source = measured_step(fast_train, first)
    assert f"{ms:.0f}" == f"{1e3 * lab.tokens_per_step() / 19_115:.0f}" and source == "the speed check's median"
    ms, _ = measured_step(lambda steps: None, first)  # another function: its own first run, not this median
    assert f"{ms:.0f}" == "211"


def test_the_take_aways_set_both_scripts_rates_against_the_same_peak():
    from utils.labs.make_it_fast.takeaways import rates_sentence

    class Peak:
        best, name = 100e9, "fp32 matmul peak"
    said = rates_sentence(2e9, Peak(), slow_ms=1000.0, fast_ms=200.0, source="the speed check's median")
    assert "ran 2.00 GFLOP in 1000 ms a step = 2.00 GFLOP/s, 2.00 / 100.0 = 2.0% of the machine profile's fp32 matmul peak" in said
    assert "whole step of 200 ms (the speed check's median) = 10.0 GFLOP/s, 10.0 / 100.0 = 10.0% of that peak" in said, said
    assert "at least that fast" in said, said


def test_the_fixes_verdict_names_no_habit_until_all_four_pass():
    v = checks.Verdict
    found = [v("communication", checks.FAILED, "rank 0 all-reduced 4x one gradient a step (13.20 MB): the 4 "
               "micro-batches of a step each synchronised; only the last one needs to"),
             v("feeding the training loop", checks.PASSED, "fine"),
             v("threads", checks.FAILED, "each worker computed with 2 threads: 2 workers x 2 = 4 threads"),
             v("the work the specification asks for", checks.PASSED, "fine")]
    said = lab.fixes_verdict(found).message
    assert "2 of 4 passed" in said and "all-reduced 4x one gradient a step" in said, said
    for name in ("communication", "feeding", "the work the specification", "synchronised"):  # the evidence only
        assert name not in said, name
    unfinished = [v(x.name, checks.NOT_DONE) for x in found]
    assert lab.fixes_verdict(unfinished).status == checks.NOT_DONE
    assert "threads" not in lab.fixes_verdict(unfinished).message


def test_the_prediction_s_specification_says_what_it_returns_not_how_to_work_it_out():
    """Session 51: the spec of ``predicted_step_ms`` names the quantity, its input and its unit; the way to
    work it out (which regions drop, how often the others run) is the exercise, left to the learner."""
    import json
    from pathlib import Path
    nb = json.loads((Path(__file__).resolve().parents[1] / "labs" / "08_make_it_fast.ipynb").read_text())
    spec = next("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown"
                and "write `predicted_step_ms(reading)`" in "".join(c["source"]))
    flat = " ".join(spec.split())
    assert "**Its input**, `reading`" in flat
    assert "**What it returns**: one number, in **milliseconds a step**" in flat
    assert "the work the specification asks for" in flat
    for method in ("kept their profiled times", "spent the rest", "as often as", "subtract", "minus"):
        assert method not in flat, method


def test_the_slow_scripts_speed_is_the_tokens_over_its_step_as_printed_in_whole_ms():
    # the reader divides the tokens a step by the step printed beside it ("1076 ms"), not by 1076.4 ms
    diagnosis = lab.Diagnosis(3, dict(_READING, step=1076.4), [])
    assert f"{diagnosis.slow_tokens_per_s:,.0f}" == f"{lab.tokens_per_step() / 1.076:,.0f}"


def test_the_reading_tables_shares_divide_the_figures_it_prints():
    # 10.44 ms of a 1076.4 ms step prints "10.4" beside a "1076 ms" title: 10.4 / 1076 (1.0%), as printed
    reading = dict(_READING, step=1076.4, load=10.44)
    table = lab.diagnosis_table(lab.Diagnosis(3, {}, [("ok", reading)]))
    load = next(row for row in table.rows if row[0] == "load")
    assert load[1:] == ("10.4", "1.0%") and "1076 ms a step" in table.title   # 10.4 / 1076 = 0.97%


def test_shares_print_to_one_decimal_so_the_rows_add_up_to_the_take_aways():
    """Eighth reading: the table's whole percents (64% + 1%) did not add up to the take-away's 64% (nor 23% + 3%
    to 26.7%); every share now prints to one decimal, half up, and the take-away names the rows' ms it sums."""
    from utils.labs.make_it_fast.takeaways import printed_share, rows_text
    assert lab.share_text(0.1225) == "12.3%" and lab.share_text(0.0056) == "0.6%"   # half up, one decimal
    reading = dict(_READING, step=1003.2, load=90.94, evaluate=233.9, checkpoint=33.4, optimizer=5.6)
    reading["forward and backward"] = 637.2
    table = lab.diagnosis_table(lab.Diagnosis(3, {}, [("ok", reading)]))
    shares = {row[0]: row[2] for row in table.rows}
    assert shares["forward and backward"] == "63.5%" and shares["optimizer"] == "0.6%", shares
    assert shares["evaluate"] == "23.3%" and shares["checkpoint"] == "3.3%" and shares["load"] == "9.1%", shares
    compute = printed_share(reading, "forward and backward", "optimizer")
    assert lab.share_text(compute) == "64.1%"   # 642.8 / 1003, printed beside the ms it is worked from
    assert rows_text(reading, "forward and backward", "optimizer") == "637.2 + 5.6 = 642.8 ms of 1003, the table's rows"
    assert lab.share_text(printed_share(reading, "evaluate", "checkpoint")) == "26.7%"   # 267.3 / 1003
    assert rows_text(reading, "load") == "90.9 ms of 1003, the table's rows"


def test_the_take_aways_work_their_rates_and_differences_from_the_figures_as_printed():
    # Reader (fifth reading, cell 33): "767 ms under" beside 983 and 215 ms; "50.1%" where 10.70 GFLOP in
    # 215 ms over 99.1 GFLOP/s is 50.2% as printed
    from utils.labs.make_it_fast.takeaways import compute_sentence, printed_rate, rates_sentence

    class Peak:
        best, name = 99.12e9, "fp32 matmul peak"
    assert round(printed_rate(10.7e9, 215.4), 2) == 49.77
    said = rates_sentence(10.7e9, Peak(), slow_ms=918.1, fast_ms=215.4)
    assert "whole step of 215 ms = 49.8 GFLOP/s, 49.8 / 99.1 = 50.3% of that peak" in said, said   # 49.8 / 99.1, as printed
    reading = lab.Diagnosis(3, {}, [("ok", {"forward and backward": 918.4})])
    computed = " ".join(compute_sentence(reading, 10.7e9, Peak()).split())  # unwrapped
    assert "10.70 GFLOP in 918 ms a step = 11.7 GFLOP/s, 11.7 / 99.1 = 11.8% of that peak" in computed, computed
    from utils.labs.make_it_fast import prediction
    text = prediction.prediction_sentence(lambda reading: 982.9, lab.Diagnosis(3, dict(_READING), []), 215.4, "x")
    assert "983 ms a step" in text and "768 ms under the prediction" in text, text


def test_the_take_aways_shares_are_worked_from_the_table_s_printed_ms():
    # Reader (sixth reading, latent): the take-aways divided unrounded ms, while cell 11's table divides the
    # figures as printed; here the two part: 100.94 / 199.6 = 50.6% but the table prints 100.9 and 200 (50.4%)
    from utils.labs.make_it_fast.takeaways import printed_share

    reading = {"step": 199.6, "load": 100.94, "evaluate": 35.04, "forward and backward": 50.04,
               "optimizer": 4.96}
    assert f"{printed_share(reading, 'load'):.0%}" == "50%"  # 100.9 / 200, not 51%
    assert f"{printed_share(reading, 'evaluate'):.1%}" == "17.5%"  # 35.0 / 200, not 17.6%
    assert printed_share(reading, "forward and backward", "optimizer") == (50.0 + 5.0) / 200


def test_the_third_hint_points_to_what_a_profile_shows_not_the_list_of_fixes():
    # Reader (sixth reading): hint B3 named DataLoader persistence and prefetch, no_sync and set_num_threads
    # (twenty-third reading: a fourth, what the habits' checks count, follows it: test_labs48_s61.py)
    last = " ".join(checks.hint_texts("labs/make_it_fast")["B"][2].split())
    assert "A profile shows where a step's time went" in last, last
    for fix in ("persisten", "prefetch", "no_sync", "set_num_threads", "DataLoader"):
        assert fix not in last, (fix, last)


def test_the_take_aways_print_each_share_to_one_decimal_beside_the_rows_ms(monkeypatch):
    """Eighth reading: "took 64%" beside rows printed 64% and 1%; the take-aways print 64.1% with its ms."""
    from types import SimpleNamespace
    from utils.labs.make_it_fast import takeaways
    monkeypatch.setattr(takeaways.checks, "HISTORY", {"speed": SimpleNamespace(passed=True)})
    watch = {"allreduce_bytes": 2.0, "optimizer_steps": 1, "gradient_bytes": 1.0}
    monkeypatch.setattr(takeaways, "launched", lambda train_fn: [{"threads": [1], "cores": 2, "watch": watch}])
    monkeypatch.setattr(takeaways, "measured_step", lambda train_fn, runs: (198.0, "the speed check's median"))
    reading = dict(_READING, step=1003.2, load=90.94, evaluate=233.9, checkpoint=33.4, optimizer=5.6)
    reading["forward and backward"] = 637.2
    said = " ".join(takeaways.take_aways(lab.Diagnosis(3, reading, []), object()).split())
    assert "took 64.1% of the slow script's step (637.2 + 5.6 = 642.8 ms of 1003, the table's rows)" in said, said
    assert "Evaluating and saving took 26.7% of the slow script's step (233.9 + 33.4 = 267.3 ms of 1003" in said
    assert "the largest, 'evaluate', 23.3%)" in said and "Loading took 9.1% of the slow step (90.9 ms" in said


def test_cell_13_and_the_take_aways_print_one_share_of_the_peak_worked_from_the_printed_rate():
    """Ninth reading: cell 13 printed "24.9 GFLOP/s, 25.1% of that peak" and the take-aways 25.2% for the same
    429.1 ms (10.70 / 0.429 / 99.1 = 25.17%): both now divide the rate as printed (24.9 / 99.1 = 25.1%)."""
    from utils.labs.make_it_fast.takeaways import compute_sentence, rates_sentence, share_of_peak

    class Peak:
        best, name = 99.12e9, "fp32 matmul peak"
    computed = " ".join(compute_sentence(lab.Diagnosis(3, {}, [("ok", {"forward and backward": 429.1})]),
                                         10.7e9, Peak()).split())
    assert "10.70 GFLOP in 429 ms a step = 24.9 GFLOP/s, 24.9 / 99.1 = 25.1% of that peak" in computed, computed
    said = rates_sentence(10.7e9, Peak(), slow_ms=429.1, fast_ms=192.1, source="the speed check's median")
    assert "ran 10.70 GFLOP in 429 ms a step = 24.9 GFLOP/s, 24.9 / 99.1 = 25.1% of the machine profile's" in said, said
    assert "whole step of 192 ms (the speed check's median) = 55.7 GFLOP/s, 55.7 / 99.1 = 56.2% of that peak" in said, said

    class Even:
        best, name = 200.0e9, "fp32 matmul peak"
    assert round(share_of_peak(10.02e9, 200.0, Even()), 6) == 0.2505   # 50.1 / 200.0, a tie
    assert "50.1 GFLOP/s, 50.1 / 200.0 = 25.1% of the machine profile's" in rates_sentence(10.02e9, Even(), 200.0, 400.0)


def test_the_printed_prediction_is_worked_from_the_reading_as_the_table_prints_it(capsys):
    """Ninth reading: "477 ms a step" beside a table whose figures give 770 - 86.1 - 5/6 x (220.0 + 27.4) =
    477.7, so 478 (the function ran on the unrounded 769.6 ms): the printed prediction and the ms under it
    come from the table's figures, the check still judges the unrounded reading."""
    from utils.labs.make_it_fast.prediction import prediction_sentence
    reading = dict(_READING, step=769.6, load=86.14, evaluate=219.96, checkpoint=27.44, optimizer=5.0)
    reading["forward and backward"] = 429.1
    assert f"{_needed(reading):.0f}" == "477"   # unrounded: what the page printed before
    diagnosis = lab.Diagnosis(3, reading, [])
    lab.show_prediction(_needed, diagnosis)
    assert "your prediction: 478 ms a step, against the slow script's 770 ms" in capsys.readouterr().out
    verdict = lab.check_prediction(_needed, diagnosis, show=False)
    assert verdict.passed and verdict.message.startswith("478 ms a step predicted from the slow script's 770 ms")
    text = prediction_sentence(_needed, diagnosis, 192.1, "the speed check's median")
    assert "prediction from the profile: 478 ms a step" in text and "286 ms under the prediction" in text, text
    assert "within 10% of it" in prediction_sentence(_needed, diagnosis, 470.2, "x")   # the other branches
    assert "more than 10% over it" in prediction_sentence(_needed, diagnosis, 530.0, "x")


def test_rows_whose_rounded_shares_add_to_another_figure_say_so_beside_the_share():
    """Tenth reading, cell 33: "59.5% ... (512.8 + 9.4 = 522.2 ms of 877)" beside the table's 58.5% + 1.1% =
    59.6%: the share stays worked from the ms, and the take-away names the rows' sum where it differs."""
    from utils.labs.make_it_fast.takeaways import printed_share, rows_text
    reading = dict(_READING, step=877.2, load=90.1, evaluate=238.7, checkpoint=25.1, optimizer=9.4)
    reading["forward and backward"] = 512.8
    shares = {row[0]: row[2] for row in lab.diagnosis_table(lab.Diagnosis(3, {}, [("ok", reading)])).rows}
    assert (shares["forward and backward"], shares["optimizer"]) == ("58.5%", "1.1%"), shares
    assert lab.share_text(printed_share(reading, "forward and backward", "optimizer")) == "59.5%"  # 522.2 / 877
    assert rows_text(reading, "forward and backward", "optimizer") == (
        "512.8 + 9.4 = 522.2 ms of 877, the table's rows; their shares in the table, each rounded apart, add to "
        "59.6%")
    assert rows_text(reading, "evaluate", "checkpoint") == "238.7 + 25.1 = 263.8 ms of 877, the table's rows"


def test_the_prediction_has_its_own_hint_which_keeps_the_compute_as_profiled():
    """Tenth reading: the prediction's stub raised exercise B's first hint, which asks whether the compute runs
    as fast as one core can, while the prediction must keep forward and backward as profiled."""
    import ast
    import json
    from pathlib import Path

    from utils.tools import nbtools
    nb = json.loads((Path(__file__).resolve().parents[1] / "labs" / "08_make_it_fast.ipynb").read_text())
    sources = {"".join(c["source"]).split("(")[0]: "".join(c["source"]) for c in nb["cells"]
               if c["cell_type"] == "code" and "".join(c["source"]).startswith("def ")}

    def raised(source):  # the message the student copy's stub raises
        stub = nbtools.strip_solutions(source, "labs/make_it_fast")
        return next(node.exc.args[0].value for node in ast.walk(ast.parse(stub)) if isinstance(node, ast.Raise))
    first = checks.hint_texts("labs/make_it_fast")["B-prediction"][0]
    assert raised(sources["def predicted_step_ms"]).startswith(f"exercise B-prediction: {first}")
    # twentieth reading: it says every price stays as billed (the compute as profiled), and names no region
    # twenty-first reading: level 1 asks the question only; "keeps every price as billed" moved to level 2
    second = checks.hint_texts("labs/make_it_fast")["B-prediction"][1]
    assert "keeps every price as billed" not in first and "keeps every price as billed" in second
    assert "which rows" not in first and "how often" in first
    assert "MFU" not in first and "as fast as one core" not in first
    assert "forward and backward" not in first and "averaged over the steps, less" not in first
    assert "MFU" in checks.stub_message("labs/make_it_fast", "B")   # fast_train keeps exercise B's own
    assert raised(sources["def fast_train"]).startswith("exercise B: ")

    def predicted_step_ms(reading):
        raise NotImplementedError
    hint = lab.check_prediction(predicted_step_ms, lab.Diagnosis(3, dict(_READING), []), show=False).hint
    assert hint.startswith("exercise B-prediction: ") and "'B-prediction', 2)" in hint, hint
