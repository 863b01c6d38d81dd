"""Lab 00 (utils.labs.fix_the_article): the split's workers send what a split sends, the solution passes both
checks, and each plausible wrong answer (a mutant, ``pytest -m mutants``) fails with a message that names the
case and the mistake without the expected value. A wrong type never crashes a cell the lab provides.

The checks are judged on the real split, measured once for the module (two workers, two rounds); the sentence
about the measured miss is judged on given numbers, so its verdicts hold on a busy machine.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import torch

from utils import checks, devices
from utils.labs.fix_the_article import checks as lab
from utils.labs.fix_the_article import split

ALL = lab.CASES + lab.UNSEEN


@pytest.fixture(autouse=True)
def _in_cpu_mode_leaving_nothing(cpu_mode_and_no_leftovers):
    yield


@pytest.fixture(scope="module")
def measured():
    """The link and every case, measured once on two CPU workers (small: a test, not a figure)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("TWOGPU_MODE", "cpu")
        link = split.measure_link(sizes=(4, 2**12, 2**16, 2**20), repeats=3)
        return link, lab.measure(rounds=2)


# --- the solution, as the lab's source holds it ---------------------------------------------------------


def _activation(model, cut, x):
    with torch.no_grad():
        h = model[:cut](x)
    return h.numel() * h.element_size(), any(p.requires_grad for p in model[:cut].parameters())


def link_bytes(model, cut, x):
    size, learns = _activation(model, cut, x)
    return 2 * size if learns else size


def link_seconds(model, cut, x, link):
    size, learns = _activation(model, cut, x)
    return (2 if learns else 1) * (link.alpha + size / link.beta)


@pytest.mark.timeout(120)
def test_the_workers_send_the_activation_and_its_gradient_when_anything_before_the_cut_learns(measured):
    link, runs = measured
    assert link.fit.alpha > 0 and link.fit.beta > 0 and len(link.seconds) == 4
    for case in ALL:
        run, (x, _) = runs[case.name], case.batch_of()
        size, learns = _activation(case.build(), case.cut, x)
        assert [m.nbytes for m in run.messages] == [size] * (2 if learns else 1), case.name
        assert [m.sender for m in run.messages] == [0, 1][:len(run.messages)]
        assert len(run.steps) == (2 if case in lab.CASES else 1)
        assert all(s > 0 for s in run.link_seconds() + run.ping_pong_seconds())
    assert any(len(runs[c.name].messages) == 1 for c in ALL) and any(c.dtype == torch.bfloat16 for c in lab.UNSEEN)


def test_the_solution_passes_both_checks(measured):
    link, runs = measured
    assert lab.check_crossing(link_bytes, runs, show=False).passed
    assert lab.check_cost(link_seconds, link_bytes, link.fit, runs, show=False).passed


# --- mutants: what a learner plausibly writes instead ----------------------------------------------------


def _always_both_ways(model, cut, x):
    return 2 * _activation(model, cut, x)[0]


def _forward_only(model, cut, x):
    return _activation(model, cut, x)[0]


def _four_bytes(model, cut, x):
    size, learns = _activation(model, cut, x)
    return size * 4 // x.element_size() * (2 if learns else 1)


def _with_weights(model, cut, x):
    return link_bytes(model, cut, x) + sum(p.numel() * p.element_size() for p in model.parameters())


def _next_layer(model, cut, x):
    return link_bytes(model, cut + 1, x)


def _with_input(model, cut, x):
    return link_bytes(model, cut, x) + x.numel() * x.element_size()


def _bits(model, cut, x):
    return 8 * link_bytes(model, cut, x)


def _one_row(model, cut, x):
    return link_bytes(model, cut, x[:1])


CROSSING_MUTANTS = [  # (mistake, the learner's link_bytes, what the message must say)
    ("gradient sent back even when nothing before the cut learns", _always_both_ways, "nothing before the cut learns"),
    ("forward pass only", _forward_only, "the way forward only: a training step runs backward too. What"),
    ("4 bytes an element whatever the dtype", _four_bytes, "4 bytes an element"),
    ("the weights too", _with_weights, "weights too"),
    ("the activation one layer later", _next_layer, "neighbouring layer"),
    ("the input too", _with_input, "the input"),
    ("bits", _bits, "bits, not bytes"),
    ("one row of the batch", _one_row, "one row"),
]


@pytest.mark.mutants
def test_an_answer_that_calls_the_checks_reference_is_refused(measured):
    """The checks import the reference under a private name; ``lab._reference`` is still reachable: an answer
    built on it (or a wrapper of it) fails, saying the exercise is the learner's own count."""
    from utils.labs.fix_the_article.reference import activation_bytes

    _, runs = measured

    def wrapped(model, cut, x):
        return 2 * activation_bytes(model, cut, x)

    for answer in (wrapped, lambda m, c, x: 2 * lab._reference.activation_bytes(m, c, x)):
        verdict = lab.check_crossing(answer, runs, show=False)
        assert verdict.status == checks.FAILED and "own reference" in verdict.message, str(verdict)


@pytest.mark.mutants
@pytest.mark.parametrize("mistake, answer, says", CROSSING_MUTANTS, ids=[m[0] for m in CROSSING_MUTANTS])
def test_a_wrong_count_fails_naming_the_case_and_the_mistake_not_the_value(measured, mistake, answer, says):
    _, runs = measured
    verdict = lab.check_crossing(answer, runs, show=False)
    assert verdict.status == checks.FAILED and says in verdict.message, str(verdict)
    wrong_case = next(c for c in ALL if answer(c.build(), c.cut, c.batch_of()[0]) != runs[c.name].bytes_per_step)
    right = runs[wrong_case.name].bytes_per_step
    assert wrong_case.name in verdict.message and f"{right:,}" not in verdict.message and str(right) not in \
        verdict.message


def _no_alpha(model, cut, x, link):
    return link_bytes(model, cut, x) / link.beta


def _one_alpha(model, cut, x, link):
    return link.time(link_bytes(model, cut, x))


def _two_alphas_always(model, cut, x, link):
    return 2 * link.alpha + link_bytes(model, cut, x) / link.beta


def _milliseconds(model, cut, x, link):
    return 1e3 * link_seconds(model, cut, x, link)


COST_MUTANTS = [
    ("alpha left out", _no_alpha, "no alpha"),
    ("one alpha for the step", _one_alpha, "one alpha for the whole step"),
    ("two alphas when one message crosses", _two_alphas_always, "does not cross in this case"),
    ("milliseconds", _milliseconds, "milliseconds"),
]


@pytest.mark.mutants
@pytest.mark.parametrize("mistake, answer, says", COST_MUTANTS, ids=[m[0] for m in COST_MUTANTS])
def test_a_wrong_time_fails_naming_the_mistake(measured, mistake, answer, says):
    link, runs = measured
    verdict = lab.check_cost(answer, link_bytes, link.fit, runs, show=False)
    assert verdict.status == checks.FAILED and says in verdict.message, str(verdict)
    assert "µs" not in verdict.message and "e-0" not in verdict.message  # no time printed, right or wrong


@pytest.mark.mutants
def test_a_time_built_on_a_wrong_count_blames_the_count(measured):
    link, runs = measured
    verdict = lab.check_cost(lambda m, c, x, lk: 2 * lk.time(_activation(m, c, x)[0]), _always_both_ways,
                             link.fit, runs, show=False)
    assert verdict.status == checks.FAILED and "your link_bytes is off for this case" in verdict.message


# --- nothing the lab provides crashes on a learner's wrong answer or unfinished exercise --------------------


@pytest.mark.parametrize("returned", [None, "409600", torch.ones(2), True])
def test_a_wrong_type_is_a_failed_check_not_a_crash(measured, returned):
    link, runs = measured
    verdict = lab.check_crossing(lambda *a: returned, runs, show=False)
    assert verdict.status == checks.FAILED and "return a number" in verdict.message
    verdict = lab.check_cost(lambda *a: returned, link_bytes, link.fit, runs, show=False)
    assert verdict.status == checks.FAILED and "return a number" in verdict.message


def test_unfinished_exercises_are_not_done_yet_everywhere(measured, capsys):
    link, runs = measured

    def stub(*args):
        raise NotImplementedError("exercise A: ...")

    assert lab.check_crossing(stub, runs, show=False).status == checks.NOT_DONE
    assert lab.check_cost(stub, stub, link.fit, runs, show=False).status == checks.NOT_DONE
    assert "not done yet" in lab.prediction_table(stub, stub, link.fit).to_text()
    lab.measured_report(stub, stub, link, runs)
    lab.take_aways(link_bytes, stub, link, runs)
    out = capsys.readouterr().out
    assert out.count("⏳ not done yet") == 2 and "bytes a step" not in out


def test_the_report_and_the_take_aways_follow_the_run(measured, capsys):
    link, runs = measured
    lab.measured_report(link_bytes, link_seconds, link, runs)
    lab.take_aways(link_bytes, link_seconds, link, runs)
    out = capsys.readouterr().out
    assert "the split's messages" in out and f"{runs[lab.CASES[0].name].bytes_per_step:,} bytes a step" in out
    assert "predicted," in out and "The largest miss" in out  # goal 3: the predictions' misses, read
    assert all(len(line) <= 110 for line in out.splitlines())


GAP, NOISE = [1.9, 2.1, 2.4, 1.2, 2.0, 2.2, 1.7, 2.0, 2.5], [1.3, 0.7, 1.1, 0.9, 1.2, 0.8, 1.0, 1.1, 0.95]


@pytest.mark.parametrize("rounds, says", [([GAP, GAP], "the miss is the split's own"),
                                          ([NOISE, NOISE], "this run shows no difference"),
                                          ([GAP, NOISE], "no difference shown")])
def test_the_miss_sentence_follows_every_round(rounds, says):
    text = lab.miss_sentence([2.0, 1.1], [1.0, 1.0], 0.3, {"a": rounds[0], "b": rounds[1]})
    assert says in text and "left the fit's band" not in text and "cannot tell" not in text
    assert "ran faster than the fit" in lab.miss_sentence([3.0], [0.7], 0.3, {"a": GAP})
    assert "ran slower than the fit" in lab.miss_sentence([3.0], [2.0], 0.3, {"a": GAP})
    assert "quieter" not in lab.miss_sentence([3.0], [0.7], 0.3, {"a": GAP})  # a cause the run does not measure


def test_one_rule_judges_every_case_and_is_printed():
    """A sign test: 8 of 9 rounds on one side of 1 shows a difference, whatever the median; 7 of 9 does not."""
    assert lab.sign_test_least(9) == 8 and lab.sign_test_least(3) == 4  # 3 rounds can show nothing
    wide = [5.51, 4.90, 4.77, 6.96, 0.47, 1.03, 4.88, 0.47, 2.44]  # 7 of 9 above 1
    eight = [1.69, 1.56, 1.35, 1.99, 1.45, 2.07, 1.44, 1.17, 0.17]  # 8 of 9 above 1, one far below
    assert lab.gap_of(wide) == "none" and lab.gap_of(eight) == "longer" and lab.gap_of([0.5] * 9) == "shorter"
    text = lab.miss_sentence([2.0, 2.0], [1.0, 1.0], 0.3, {"a": wide, "b": eight})
    assert "at least 8 of 9 rounds fall on one side of 1 (a sign test" in text
    assert "a: 7 of 9 rounds above 1, median 4.77x, range 0.47-6.96x: no difference shown" in text
    assert "b: 8 of 9 rounds above 1" in text and "the split's messages longer" in text


@pytest.mark.modes
def test_the_link_is_named_for_every_machine_without_touching_cuda(machine):
    name = split.link_name(devices.plan(2))
    assert name and ("NCCL" in name) == (devices.plan(2).backend == "nccl")


# --- The lab's source ---------------------------------------------------------------------------------------


def _code_cells():
    nb = json.loads((Path(__file__).resolve().parents[1] / "labs" / "00_fix_the_article.ipynb").read_text())
    return ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code"]


def test_lab_00_needs_nothing_of_ddp():
    """Issue 26: lab 00 needs lesson 00 only; the articles' DDP repairs are lab 03's."""
    code = "\n".join(_code_cells())
    assert "DistributedDataParallel" not in code and "init_process_group" not in code


def test_no_cell_runs_the_device_demos_in_the_notebook_process():
    """On GPUs they start CUDA, and CUDA started in the notebook stops every later forked launch."""
    code = "\n".join(_code_cells())
    assert "article.split_as_written(" not in code and "split.split_fixed(" not in code
    assert code.count("article.run_in_worker(") == 3


def test_a_ping_pong_jump_sets_aside_only_a_verdict_it_could_have_produced():
    """A jump makes a round's ping-pong slow, so its ratio low: it can fake 'shorter', never 'longer'."""
    pp = [256e-6, 2086e-6, 1986e-6, 1936e-6, 257e-6, 1428e-6, 271e-6, 213e-6, 2087e-6]  # 5 of 9 rounds jumped
    steady = [73e-6, 84e-6, 76e-6, 78e-6, 84e-6, 79e-6, 73e-6, 116e-6, 492e-6]  # one round jumped
    assert lab.ping_pong_jumps(pp) == 5 and lab.ping_pong_jumps(steady) == 1 and lab.ping_pong_jumps([]) == 0
    text = lab.miss_sentence([2.0, 2.0], [1.0, 1.0], 0.25, {"a": GAP, "b": GAP}, {"a": pp, "b": steady})
    assert "a: 9 of 9 rounds above 1, median 2.00x, range 1.20-2.50x: the split's messages longer" in text
    assert "set aside" not in text  # no case needed the override: it is not stated
    low = [0.5, 0.4, 0.3, 0.6, 0.9, 0.5, 1.2, 0.8, 0.4]  # 8 of 9 below 1: 'shorter' by the sign test...
    text = lab.miss_sentence([2.0], [1.0], 0.25, {"a": low}, {"a": pp})  # ...but 5 of those 8 rounds jumped
    assert "a verdict of 'shorter' that needs such rounds is set aside" in text and "no difference shown: 5 of" in text
    assert "waiting" not in text


def test_a_drift_is_said_only_when_every_case_left_the_band_on_one_side():
    both = lab.miss_sentence([2.0, 2.0], [0.6, 0.7], 0.25, {"a": GAP, "b": GAP})
    assert "the link drifted between the fit and these rounds" in both and "ran faster than the fit" in both
    one = lab.miss_sentence([2.0, 2.0], [0.6, 0.9], 0.25, {"a": GAP, "b": GAP})
    assert "drifted" not in one and "left the fit's band in 1 of 2 cases" in one
    inside = lab.miss_sentence([2.0], [1.0], 0.25, {"a": GAP})
    assert "drifted" not in inside and "stayed within the fit's band" in inside
