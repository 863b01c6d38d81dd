"""utils/labs/predict_the_roofline (lab 01): what the lab says each op does is what it does, the solution passes
every check, each plausible wrong answer (a mutant, ``pytest -m mutants``) fails with a message that names the
op and the mistake without the expected value, and nothing the lab provides crashes on a wrong answer.

The measurement check is judged on a fake measurement (times set by hand), so its verdicts hold on a busy
machine; the real measurement runs in the lab under nbval, and once here (its structure only).
"""

from __future__ import annotations

import dataclasses
from dataclasses import replace
from types import SimpleNamespace

import pytest
import torch
from torch.utils import flop_counter

from utils import checks, devices
from utils.labs.predict_the_roofline import checks as lab
from utils.labs.predict_the_roofline import lookup
from utils.labs.predict_the_roofline import reference as lab_ops  # the checks' reference counts
from utils.labs.predict_the_roofline import report
from utils.lessons.why_slow.peak import Ceilings
from utils.lessons.why_slow.plan import lesson_settings
from utils.lessons.why_slow.roofline import Point

S_CPU = lesson_settings(devices.plan(1, n_gpus=0), devices.hardware(), "AVX512")  # cpu mode's sizes
SETUP = lab.lab_setup(S_CPU)
EVERY = SETUP.ops + SETUP.extra + lab.UNSEEN


# --- the solution, as the lab's source holds it ---------------------------------------------------------


def count(op):
    size, d = op.dtype.itemsize, op.dims
    if op.kind == "embedding":
        n, rows = op.ids.numel(), op.ids.unique().numel()
        return 0, n * op.ids.element_size() + (rows + n) * d["width"] * size
    if op.kind == "conv2d":
        out = d["batch"] * d["out_channels"] * (d["height"] + 2 * d["padding"] - d["kernel"] + 1) \
            * (d["width"] + 2 * d["padding"] - d["kernel"] + 1)
        terms = d["in_channels"] * d["kernel"] ** 2
        x = d["batch"] * d["in_channels"] * d["height"] * d["width"]
        return 2 * out * terms, size * (x + d["out_channels"] * terms + out)
    b, h, t, e = d["batch"], d["heads"], d["length"], d["head_dim"]
    scores = t * (t + 1) / 2 if d["causal"] else t * t
    return 4 * b * h * scores * e, size * 4 * b * h * t * e


def turning_length(op, ceilings):
    length = 1
    while True:
        flops, n_bytes = count(op.with_length(length))
        if flops / n_bytes >= ceilings.ridge:
            return length
        length += 1


def test_the_solution_passes_the_counting_checks():
    assert lab.check_counts(count, SETUP, show=False).passed
    assert lab.check_turning(turning_length, show=False).passed


# --- what each op does is read off the op ---------------------------------------------------------------------


def test_the_flops_are_torchs_counter_and_the_mask_keeps_the_lower_triangle():
    conv = lab.UNSEEN[1]
    with flop_counter.FlopCounterMode(display=False) as counter:
        conv.call(conv.operands())
    assert lab_ops.done_flops(conv) == counter.get_total_flops() > 0
    causal = lab._attention("a", 1, 1, 4, 8, True)
    assert lab_ops.kept_share(causal) == 10 / 16
    assert lab_ops.done_flops(causal) == pytest.approx(4 * 4 * 4 * 8 * 10 / 16)
    assert lab_ops.done_flops(SETUP.ops[0]) == 0


def test_a_lookup_moves_the_rows_its_ids_name_once_and_its_output():
    ids = torch.tensor([3, 3, 3, 7])
    op = lab._embedding("e", 10, 5, ids, torch.bfloat16)
    assert lab_ops.moved_bytes(op) == 4 * 8 + (2 + 4) * 5 * 2
    assert 0.2 < SETUP.ops[0].ids.unique().numel() / SETUP.ops[0].ids.numel() < 0.8  # a text's repeats


# --- mutants of exercise A ----------------------------------------------------------------------------------


def _mutant(kind, slip):
    """The solution with ``slip(op, flops, n_bytes) -> (flops, n_bytes)`` applied to ops of ``kind``."""
    def mutant(op):
        flops, n_bytes = count(op)
        return slip(op, flops, n_bytes) if op.kind == kind else (flops, n_bytes)
    return mutant


def _table_bytes(op, f, b):
    return f, b + (op.dims["vocab"] - op.ids.unique().numel()) * op.dims["width"] * op.dtype.itemsize


def _every_lookup(op, f, b):
    return f, b + (op.ids.numel() - op.ids.unique().numel()) * op.dims["width"] * op.dtype.itemsize


def _input_sized_output(op, f, b):
    d = op.dims
    out = (d["height"] + 2 * d["padding"] - d["kernel"] + 1) * (d["width"] + 2 * d["padding"] - d["kernel"] + 1)
    return f * d["height"] * d["width"] / out, b


def _full_square(op, f, b):
    return f / lab_ops.kept_share(op), b


def _with_scores(op, f, b):
    d = op.dims
    return f, b + d["batch"] * d["heads"] * d["length"] ** 2 * op.dtype.itemsize


def _four_bytes(op, f, b):
    return f, b * 4 // op.dtype.itemsize


COUNT_MUTANTS = [  # (mistake, the learner's count, what the message must say)
    ("the whole table", _mutant("embedding", _table_bytes), "the whole table"),
    ("a row for every id", _mutant("embedding", _every_lookup), "a row for every id"),
    ("a lookup's copies as FLOPs", _mutant("embedding", lambda op, f, b: (op.ids.numel() * op.dims["width"], b)),
     "does no arithmetic"),
    ("conv without the factor 2", _mutant("conv2d", lambda op, f, b: (f / 2, b)), "without the factor 2"),
    ("conv output at the input's size", _mutant("conv2d", _input_sized_output), "the input's height and width"),
    ("conv without input channels", _mutant("conv2d", lambda op, f, b: (f / op.dims["in_channels"], b)),
     "without the input channels"),
    ("causal attention as the full square", _mutant("attention", _full_square), "the causal mask"),
    ("one head's attention", _mutant("attention", lambda op, f, b: (f / (op.dims["batch"] * op.dims["heads"]),
                                                                    b)), "one head"),
    ("attention's scores in memory", _mutant("attention", _with_scores), "the T x T scores"),
    ("4 bytes an element in bf16", lambda op: _four_bytes(op, *count(op)), "4 bytes an element"),
    ("elements, not bytes", lambda op: (count(op)[0], count(op)[1] / op.dtype.itemsize), "elements, not bytes"),
    # t26_labs03 #2: token ids counted at 4 bytes (int32, or an fp32 table's element) instead of int64's 8
    ("ids at 4 bytes", _mutant("embedding", lambda op, f, b: (f, b - 4 * op.ids.numel())), "the ids' bytes"),
]


def _numbers_in(op) -> set[str]:
    """How the right counts of ``op`` could be printed (none may be)."""
    out = set()
    for value in (lab_ops.done_flops(op), lab_ops.moved_bytes(op)):
        out |= {f"{value:.4g}", f"{value:.3g}", f"{value:,.0f}", str(int(value))} - {"0"}
    return out


@pytest.mark.mutants
@pytest.mark.parametrize("mistake, mutant, says", COUNT_MUTANTS, ids=[m[0] for m in COUNT_MUTANTS])
def test_a_wrong_count_fails_naming_the_op_and_the_mistake_not_the_value(mistake, mutant, says):
    verdict = lab.check_counts(mutant, SETUP, show=False)
    assert verdict.status == checks.FAILED and says in verdict.message, str(verdict)
    op = next(o for o in EVERY if o.name in verdict.message)
    assert not any(n in verdict.message.replace(op.name, "") for n in _numbers_in(op)), verdict.message


# --- mutants of exercise B -----------------------------------------------------------------------------------


def _ridge_upside_down(op, c):
    return turning_length(op, Ceilings(c.bandwidth, c.flops))


def _every_score(op, c):
    return turning_length(replace(op, dims=dict(op.dims, causal=False)), c)


def _always_fp32(op, c):
    return turning_length(replace(op, dtype=torch.float32), c)


def _by_head_width(op, c):
    return turning_length(op, c) * op.dims["head_dim"] // 64


def _never_ends(op, c):
    while True:
        pass


TURNING_MUTANTS = [
    ("the ridge upside down", _ridge_upside_down, "peak over the bandwidth"),
    ("every score counted", _every_score, "counts every score"),
    ("4 bytes an element", _always_fp32, "assumes 4 bytes an element"),
    ("a length that depends on the head width", _by_head_width, "differs only in batch, heads and head width"),
    ("half a token", lambda op, c: turning_length(op, c) + 0.5, "whole number of tokens"),
    ("twice as long", lambda op, c: 2 * turning_length(op, c) + 2, "longer than the first compute-bound one"),
]


@pytest.mark.mutants
@pytest.mark.parametrize("mistake, mutant, says", TURNING_MUTANTS, ids=[m[0] for m in TURNING_MUTANTS])
def test_a_wrong_length_fails_naming_the_mistake(mistake, mutant, says):
    verdict = lab.check_turning(mutant, show=False)
    assert verdict.status == checks.FAILED and says in verdict.message, str(verdict)


@pytest.mark.mutants
def test_the_checks_reference_behind_a_wrapper_is_refused():
    import functools

    @functools.wraps(count)
    def wrapped(op):
        return lab_ops.done_flops(op), lab_ops.moved_bytes(op)

    verdict = lab.check_counts(wrapped, SETUP, show=False)
    assert verdict.status == checks.FAILED and "own reference" in verdict.message
    verdict = lab.check_counts(lambda op: (lab_ops.done_flops(op), lab_ops.moved_bytes(op)), SETUP, show=False)
    assert verdict.status == checks.FAILED and "own reference" in verdict.message
    verdict = lab.check_turning(functools.partial(lab_ops.first_compute_bound), show=False)
    assert verdict.status == checks.FAILED and "own reference" in verdict.message


def _traced_flops(op):  # a learner's helper: torch's counter reads the conv's FLOPs off instead of counting
    from torch.utils.flop_counter import FlopCounterMode
    d = op.dims
    x = torch.empty(d["batch"], d["in_channels"], d["height"], d["width"], device="meta")
    w = torch.empty(d["out_channels"], d["in_channels"], d["kernel"], d["kernel"], device="meta")
    with FlopCounterMode(display=False) as counter:
        torch.nn.functional.conv2d(x, w, padding=d["padding"])
    return counter.get_total_flops()


def _count_through_a_helper(op):
    flops, n_bytes = count(op)
    return (_traced_flops(op), n_bytes) if op.kind == "conv2d" else (flops, n_bytes)


def _count_with_the_counter(op):
    flops, n_bytes = count(op)
    if op.kind == "conv2d":
        with flop_counter.FlopCounterMode(display=False) as counter:
            d = op.dims
            torch.nn.functional.conv2d(torch.empty(d["batch"], d["in_channels"], d["height"], d["width"]),
                                       torch.empty(d["out_channels"], d["in_channels"], d["kernel"], d["kernel"]),
                                       padding=d["padding"])
        flops = counter.get_total_flops()
    return flops, n_bytes


@pytest.mark.mutants
@pytest.mark.parametrize("mutant", [_count_with_the_counter, _count_through_a_helper], ids=["in count", "helper"])
def test_a_count_read_off_torchs_flop_counter_is_refused(mutant):
    verdict = lab.check_counts(mutant, SETUP, show=False)
    assert verdict.status == checks.FAILED and "FLOP counter" in verdict.message, str(verdict)
    assert lab.check_counts(count, SETUP, show=False).passed  # the counter is whole again afterwards


def test_the_lab_imports_no_reference_count_by_a_public_name():
    public = {name for name in vars(lab) if not name.startswith("_")}
    assert not public & {"done_flops", "moved_bytes", "first_compute_bound", "intensity", "reference_op",
                         "kept_share", "reference"}


@pytest.mark.mutants
def test_a_search_that_never_ends_is_stopped_and_named(monkeypatch):
    monkeypatch.setattr(lab, "LEARNER_SECONDS", 0.3)
    verdict = lab.check_turning(_never_ends, show=False)
    assert verdict.status == checks.FAILED and "does every loop in it end?" in verdict.message


# --- the measurement check, on fake timings ---------------------------------------------------------------------

CEILINGS = Ceilings(90e9, 25e9)


def fake_measure(fractions: dict[str, float]):
    """A measurement in which each op reaches ``fractions[kind]`` of the roof of what it does (0.9 else)."""
    def measure(ops, setup):
        points = []
        for op in ops:
            ref = lab_ops.reference_op(op)
            roof_seconds = max(ref.flops / CEILINGS.flops, ref.bytes / CEILINGS.bandwidth)
            points.append(Point(ref, roof_seconds / fractions.get(op.kind, 0.9), 0.05, 1.0, "memory"))
        # what the check and the report read of a Roofline (lesson 01 owns its constructor, which may grow)
        return SimpleNamespace(ceilings=CEILINGS, points=points, threads=1, peak=SimpleNamespace(name="peak"),
                               bandwidth=SimpleNamespace(name="bandwidth"))
    return measure


def test_the_measurement_passes_the_solution_and_measures_attention_where_it_turns():
    results = []
    verdict = lab.check_measured(count, turning_length, CEILINGS, SETUP, show=False, measure=fake_measure({}),
                                 results=results)
    assert verdict.passed, verdict.message
    roof, rows, work, printed = results
    lengths = [r.op.dims["length"] for r in rows[len(SETUP.ops):]]
    assert lengths == [turning_length(SETUP.ops[2], CEILINGS), 8 * turning_length(SETUP.ops[2], CEILINGS)]
    assert all(0.9 < r.ratio < 1.3 for r in rows) and work == SETUP.turning_work and printed == len(SETUP.ops)


@pytest.mark.mutants
@pytest.mark.parametrize("mistake", ["the whole table", "causal attention as the full square"])
def test_an_overcount_is_caught_by_the_measurement_too(mistake):
    mutant = next(m for name, m, _ in COUNT_MUTANTS if name == mistake)
    verdict = lab.check_measured(mutant, turning_length, CEILINGS, SETUP, show=False,
                                 measure=fake_measure({"embedding": 1.0, "attention": 1.0}))
    assert verdict.status == checks.FAILED and "faster than your counts allow" in verdict.message


def test_an_op_far_below_its_roof_passes_the_check_and_is_read_in_the_report(capsys):
    results = []
    verdict = lab.check_measured(count, turning_length, CEILINGS, SETUP, show=False,
                                 measure=fake_measure({"embedding": 0.3, "conv2d": 0.95}), results=results)
    assert verdict.passed
    report.show_comparison(results, "")
    out = capsys.readouterr().out
    said = " ".join(out.split())
    # judged against its own ceiling (write-allocate's, under the fake roof's STREAM copy: 0.87x the roof)
    assert "The lookup reached 30% of its memory roof; its write-allocate bound is 0.87x that roof" in said, said
    assert "30% of the roof is 34% of that bound: below it by 57 points of the roof, past its rounds' " \
           "spread" in said
    assert "a limit the two roofs leave out" in said
    assert "this run does not measure it" in said
    assert "The convolution reached 95% of the peak" in out and all(len(line) <= 110 for line in out.splitlines())
    # Eleventh reading: 524,288 was never explained; it is named as the lab's fixed work, beside the other's
    # (twelfth: in plain English, "a fixed amount of work per call", never "a fixed work a call")
    assert f"batch x length² near {SETUP.turning_work:,} (2¹⁹), a fixed amount of work per call, set by the lab " \
           f"for these two ops (the length-1024 attentions above do 1,048,576); each batch is the whole number " \
           f"nearest" in said, said


def test_a_lookup_above_its_roof_is_not_read_as_at_its_roof(capsys):
    results = []
    lab.check_measured(count, turning_length, CEILINGS, SETUP, show=False,
                       measure=fake_measure({"embedding": 1.3, "conv2d": 0.95}), results=results)
    report.show_comparison(results, "")
    out = " ".join(capsys.readouterr().out.split())
    assert "The lookup reached 130% of its memory roof; its write-allocate bound is 0.87x that roof" in out, out
    assert "130% of the roof is 149% of that bound: above that bound by 43 points of the roof. Its rounds' " \
           "spread of" in out and "cannot lift it there: that spread is its slower rounds" in out
    assert "this run does not tell them apart" in out  # 130% is within 3/2 = 1.50x: stores that skip it can


def test_unfinished_exercises_are_not_done_yet_and_nothing_is_measured(capsys):
    def stub(*args):
        raise NotImplementedError("count it")

    def never(*args):
        raise AssertionError("measured before the exercises were done")

    assert lab.check_counts(stub, SETUP, show=False).status == checks.NOT_DONE
    assert lab.check_turning(stub, show=False).status == checks.NOT_DONE
    assert lab.check_measured(stub, stub, CEILINGS, SETUP, show=False, measure=never).status == checks.NOT_DONE
    assert "not done yet" in lab.prediction_table(stub, CEILINGS, SETUP).to_text()
    assert "not done yet" in lab.turning_sentence(stub, CEILINGS, SETUP)
    report.show_comparison([], "")
    report.take_aways([], passed=False)
    assert capsys.readouterr().out.count("⏳ not done yet") == 2


@pytest.mark.parametrize("returned", [None, (1.0,), ("many", 2), (float("nan"), 1.0), True])
def test_a_wrong_type_is_a_failed_check_not_a_crash(returned):
    verdict = lab.check_counts(lambda op: returned, SETUP, show=False)
    assert verdict.status == checks.FAILED and ("return a pair" in verdict.message or "number" in verdict.message)
    assert "not a pair" in lab.prediction_table(lambda op: returned, CEILINGS, SETUP).to_text()
    assert lab.check_turning(lambda op, c: returned, show=False).status == checks.FAILED


@pytest.mark.timeout(120)
def test_the_real_measurement_times_every_op_beside_both_ceilings():
    results = []
    small = dataclasses.replace(SETUP, rounds=1)
    lab.check_measured(count, turning_length, CEILINGS, small, show=False, results=results)
    roof, rows, work, printed = results
    assert [r.op.name for r in rows][:4] == [op.name for op in SETUP.ops] and len(rows) == 6
    assert roof.threads == 1 and all(r.point.seconds > 0 for r in rows)


# --- every machine, and the lab's text ----------------------------------------------------------------------


@pytest.mark.modes
def test_the_ops_grow_on_a_gpu_and_stay_beyond_a_cpus_caches(machine):
    S = lesson_settings(devices.plan(1), machine.hw, "AVX512")
    setup = lab.lab_setup(S)
    embedding, conv, causal, full = setup.ops
    assert embedding.ids.numel() * embedding.dims["width"] * 4 >= 32 * 2**20  # its output leaves the caches
    assert conv.dims["batch"] == (64 if S.on_gpu else 8) and causal.dims["causal"] and not full.dims["causal"]


def test_the_hints_point_to_lesson_01_and_name_no_line_of_the_solution():
    texts = checks.hint_texts("labs/predict_the_roofline")
    assert sorted(texts) == ["A", "B"] and all(len(levels) == 3 for levels in texts.values())
    assert all("lesson 01" in levels[0].lower() or "Lesson 01" in levels[0] for levels in texts.values())
    for text in (t for levels in texts.values() for t in levels):
        for code in ("t * (t + 1)", "unique().numel()", "2 * 2", "+ 1) / 2", "ceilings.ridge:", "return "):
            assert code not in text, (code, text)
        for algorithm in ("double", "narrow", "math.ceil", "solve it"):  # the concept, not the steps (issue 38)
            assert algorithm not in text, (algorithm, text)


def test_the_turning_lengths_limit_is_read_on_the_ceilings_that_timed_it():
    """The turning length comes from the ceilings measured before the exercises; the table's limit from the
    rounds that timed the ops: when the ridge moved between the two, the report says so instead of disagreeing."""
    from types import SimpleNamespace as NS

    moved = report.turning_limit_sentence(NS(flops=1e3, n_bytes=100.0, bound="memory"), 77, NS(ridge=10.2), 9.68)
    assert "ridge 9.68" in moved and "measured the ridge at 10.20" in moved and "limit for it is memory" in moved
    assert "above the op's own intensity at that length, 1,000 / 100 = 10.00 FLOPs/byte" in moved  # two names
    same = report.turning_limit_sentence(NS(flops=1e3, n_bytes=100.0, bound="compute"), 77, NS(ridge=9.9), 9.68)
    assert "the table's limit is compute, as predicted" in same


def test_near_the_ridge_the_two_limits_paid_in_turn_leave_at_least_half_the_roof():
    from types import SimpleNamespace as NS

    from utils.labs.predict_the_roofline import report

    ceilings = NS(flops=100.0, bandwidth=10.0)  # ridge 10 FLOPs per byte
    at_ridge = NS(point=NS(op=NS(flops=1000.0, bytes=100.0)), op=NS(dims={"batch": 88, "length": 77}))
    assert report.no_overlap_share(at_ridge, ceilings) == 0.5
    low = report.no_overlap_sentence(at_ridge, ceilings, 0.14)
    assert "at 50% of its roof" in low and "do not explain" in low and "88 sequence(s) of 77 tokens" in low
    assert "account for its gap" in report.no_overlap_sentence(at_ridge, ceilings, 0.6)


def test_the_predictions_made_twice_are_said_to_come_from_ceilings_measured_twice():
    from types import SimpleNamespace as NS

    before, now = NS(flops=190e9, bandwidth=18.9e9), NS(flops=205e9, bandwidth=18.6e9)
    said = report.predicted_again_sentence(before, now)
    assert "measured again in these rounds (peak 205.0 GFLOP/s" in said and "(190.0 GFLOP/s, 18.9 GB/s)" in said
    assert "same ceilings" in report.predicted_again_sentence(before, before)


def test_check_3s_allowance_is_the_write_allocate_headroom_lesson_01_computes():
    """One reason for check 3's 25 %: the headroom lesson 01 computes (an op that writes its result gets less
    than a read-only one), computed for the lab's own ops."""
    from types import SimpleNamespace as NS

    from utils.labs.predict_the_roofline.reference import reference_op

    rows = [NS(op=op, point=NS(op=reference_op(op))) for op in SETUP.ops]
    roof = NS(threads=1, bandwidth=NS(name="fp32 memory bandwidth, 1 thread, STREAM copy, 32 MiB arrays"),
              ceilings=NS(ridge=10.0))
    said = report.headroom_sentence(rows, roof)
    lookup = reference_op(SETUP.ops[0])
    room = 1.5 * lookup.bytes / (lookup.bytes + lookup.written)  # its reads once, its writes twice
    # only the memory-bound ops' roof is the memory's: here the lookup alone (attention is compute-bound)
    assert f"the memory-bound ops here at most {room:.2f}x their memory roof (embedding" in said
    assert ("leaves the memory-bound" in said) == (room <= 1)
    assert "causal attention" not in said and "up to 1.50x its memory roof here" in said
    assert "held to the peak as measured: write-allocate does not move it" in said
    assert ("costs it more than the roof counts" in said) == (room <= 1) and "Check 3 allows 25%" in said
    # an attention below the ridge writes less than it reads: it is the one with the most room
    short = lab._attention("causal attention, length 64", 1, 8, 64, 64, True)
    said = report.headroom_sentence(rows + [NS(op=short, point=NS(op=reference_op(short)))], roof)
    assert "allows the memory-bound ops here" in said and "their memory roof (causal attention, length 64). " in said


def test_the_lookups_shortfall_needs_a_gap_past_its_spread_by_a_margin():
    """The course's noise rule with a margin: a gap one point past the spread is no finding (on a GPU's roof,
    the lookup's ceiling is the roof itself)."""
    gpu = lookup.lookup_ceiling(SimpleNamespace(bytes=46.5e6, written=33.55e6), "STREAM add", cpu=False)
    assert gpu.room == 1.0
    noise = "within noise: no effect shown"
    assert noise in lookup.lookup_sentence(0.76, 0.23, gpu)  # 24 % below, spread 23 %
    assert noise in lookup.lookup_sentence(0.70, 0.40, gpu)  # the spread covers the gap
    said = lookup.lookup_sentence(0.50, 0.10, gpu)
    assert "a limit the two roofs leave out" in said and "slowest round minus the fastest" in said
    assert "as fast as the memory allows" in lookup.lookup_sentence(0.90, 0.05, gpu)
    assert "its write-allocate bound is the roof itself" in said


def test_the_lookup_is_judged_against_its_write_allocate_ceiling_as_lesson_01_works_it():
    # Reader (sixth reading): 73% of the roof judged against 80% of the roof, while the lab's own byte model
    # caps the lookup at (4/3) x (12.95 + 33.55) / (12.95 + 2 x 33.55) = 0.77x it: 73% is 95% of what it can
    # reach
    op = SimpleNamespace(bytes=12.95e6 + 33.55e6, written=33.55e6)
    cpu = lookup.lookup_ceiling(op, "fp32 memory bandwidth, 1 thread, STREAM add, 32 MiB arrays", cpu=True)
    assert (cpu.room, cpu.read_mb, cpu.written_mb) == (0.77, 12.95, 33.55)
    said = " ".join(lookup.lookup_sentence(0.73, 0.30, cpu).split())
    assert "its write-allocate bound is 0.77x that roof" in said and "(4 arrays moved for 3 counted)" in said, said
    assert "(12.95 MB read, 33.55 MB written). 73% of the roof is 95% of that bound" in said, said
    assert "as fast as the memory allows" in said and "below 80%" not in said, said
    # the other outcomes, against the same ceiling: the spread covers the gap, a gap within the margin, a
    # shortfall past it, and above the ceiling by more than the spread
    covered = " ".join(lookup.lookup_sentence(0.60, 0.30, cpu).split())  # 77 - 60 = 17 points, within 0.3 x 60
    assert "below 80% of it; the gap to the bound, 77 - 60 = 17 points of the roof, is within its rounds' " \
           "spread of 30% (the slowest round minus the fastest, over their median: 18 points of the roof at " \
           "60%)" in covered, covered
    margin = " ".join(lookup.lookup_sentence(0.55, 0.25, cpu).split())  # 22 points, 0.25 x 55 = 14 + 10
    assert "below it by 22 points of the roof" in margin and "within noise: no effect shown" in margin, margin
    short = " ".join(lookup.lookup_sentence(0.50, 0.10, cpu).split())  # 27 points, past 0.1 x 50 = 5 + 10
    assert "below it by 27 points of the roof, past its rounds' spread of 10% (the slowest round minus the " \
           "fastest, over their median: 5 points of the roof at 50%) by over 10 points (27 against 5 + 10 = 15 " \
           "points)" in short, short
    assert "leave out" in short, short
    above = " ".join(lookup.lookup_sentence(0.95, 0.05, cpu).split())  # 0.95 / 0.77 = 123%
    assert "95% of the roof is 123% of that bound: above that bound" in above, above
    copy = lookup.lookup_ceiling(op, "STREAM copy, 32 MiB arrays", cpu=True)  # 3 moved for 2 counted
    assert copy.room == round(1.5 * 46.5 / 80.05, 2) == 0.87


def test_the_lookups_ceiling_says_what_it_writes_and_reads_as_the_code_does():
    """Eleventh reading: "it writes a row for every row it reads" beside 12.90 MB read and 33.55 MB written.
    The lookup writes one row per id, repeats included, and reads each distinct row once at best: words that
    hold whichever of the two byte counts is the larger (and on a GPU, nothing about them)."""
    for read, written in ((12.90e6, 33.55e6), (40.00e6, 10.00e6)):
        op = SimpleNamespace(bytes=read + written, written=written)
        said = " ".join(lookup.ceiling_words(0.6, lookup.lookup_ceiling(op, "STREAM copy", cpu=True)).split())
        assert "it writes one row per id, repeats included, and it reads each distinct row from memory once at " \
               f"best ({read / 1e6:.2f} MB read, {written / 1e6:.2f} MB written)" in said, said
        assert "a row for every row" not in said
    gpu = lookup.ceiling_words(0.6, lookup.lookup_ceiling(op, "STREAM copy", cpu=False))
    assert "row" not in gpu and "the roof itself" in gpu


def test_the_aimed_work_is_named_as_a_power_of_two_beside_the_attentions_own():
    causal = SimpleNamespace(op=SimpleNamespace(dims={"batch": 8, "length": 1024}))
    assert report.aim_words(2**22, causal) == (" 4,194,304 (2²²), a fixed amount of work per call, set by the "
                                               "lab for these two ops (the length-1024 attentions above do 8,388,608)")
    assert "(2" not in report.aim_words(500_000, causal)  # not a power of two: no power said
    assert report.aim_words(None, causal) == " a fixed amount of work per call, set by the lab for these two ops"


def test_the_lookups_gap_within_the_margin_reads_plainly_with_its_sum():
    """Seventh reading: the spread read as though it were a second gap. The run's figures: 60% of the roof,
    ceiling 0.77, spread 16% (0.16 x 60 = 10 points): 17 points below, against 10 + 10 = 20 (each branch above)."""
    op = SimpleNamespace(bytes=12.90e6 + 33.55e6, written=33.55e6)
    cpu = lookup.lookup_ceiling(op, "fp32 memory bandwidth, 1 thread, STREAM add, 32 MiB arrays", cpu=True)
    said = " ".join(lookup.lookup_sentence(0.60, 0.16, cpu).split())
    assert "60% of the roof is 78% of that bound: below it by 17 points of the roof, against its rounds' " \
           "spread of 16% (the slowest round minus the fastest, over their median: 10 points of the roof at " \
           "60%). A gap counts as a shortfall only past the spread by over 10 points (10 + 10 = 20 points); 17 " \
           "does not pass it: " \
           "within noise: no effect shown." in said, said


def test_a_share_from_rounds_that_spread_widely_is_said_to_be_rough():
    # this run's lookup: 94 % of its roof with its rounds spread 72 %; a steady op gets no note
    assert "Its rounds spread 72% (over 50%)" in report.rough_note(0.72) and "rough" in report.rough_note(0.72)
    assert report.rough_note(0.09) == "" and report.rough_note(report.ROUGH) == ""


def test_the_hints_name_concepts_not_the_calls_that_count():
    """A hint names the idea (which rows a lookup needs, the mask's edge), not the call that computes it."""
    for text in checks.hint_texts("labs/predict_the_roofline")["A"]:
        assert "unique" not in text and "count the pairs" not in text and "half a square" not in text, text


def test_the_collapsed_table_shows_the_reference_counts_only_once_check_1_passed(capsys, monkeypatch):
    """Session 49's reader: the counts of what each op does are check 1's answers; a learner whose counts fail
    check 1 but run check 3 must not read them in the collapsed table."""
    results = []
    lab.check_measured(count, turning_length, CEILINGS, SETUP, show=False,
                       measure=fake_measure({"embedding": 0.9, "conv2d": 0.95}), results=results)
    failed = checks.Verdict(lab.COUNTS_CHECK, checks.FAILED, "off")
    monkeypatch.setitem(checks.HISTORY, lab.COUNTS_CHECK, failed)
    report.show_comparison(results, "")
    hidden = " ".join(capsys.readouterr().out.split())
    assert "FLOPs done" not in hidden and "bytes moved" not in hidden
    assert "those counts, check 1's answers, join this table once check 1 passes" in hidden
    monkeypatch.setitem(checks.HISTORY, lab.COUNTS_CHECK, checks.Verdict(lab.COUNTS_CHECK, checks.PASSED))
    report.show_comparison(results, "")
    shown = " ".join(capsys.readouterr().out.split())
    assert "FLOPs done" in shown and "bytes moved" in shown and "check 1's answers" not in shown
    report.show_comparison(results, "", answers=False)
    assert "FLOPs done" not in capsys.readouterr().out


def test_the_convolutions_share_from_widely_spread_rounds_is_said_to_be_rough():
    """One rule for every share: rounds spread past ROUGH make it rough, the convolution's as the lookup's."""
    from types import SimpleNamespace as NS

    def row(seconds, spread, flops=1e9, n_bytes=1e6):
        op = NS(flops=flops, bytes=n_bytes, written=n_bytes / 2)
        return NS(point=NS(op=op, seconds=seconds, spread=spread))

    ceilings = NS(flops=1e11, bandwidth=1e10, bandwidth_name="STREAM add, 32 MiB arrays")
    for spread, rough in ((0.51, True), (0.05, False)):
        rows = [row(1e-3, 0.05, 0, 1e7), row(0.0108, spread), row(0.02, 0.05), row(0.02, 0.05)]
        conv = report.miss_sentences(rows, ceilings)[1]
        assert conv.startswith("The convolution reached 93% of the peak") and ("rough" in conv) == rough, conv


# --- session 50: an op above its roof, as printed: check 3's words and the convolution's sentence ----------


@pytest.mark.parametrize("conv, says", [(1.08, "by more than the allowance (25% or its rounds' spread); closest: conv"),
                                        (1.004, "no op beat the roof of your counts; measured")])
def test_check_3_says_no_op_beat_the_roof_only_where_every_ratio_prints_1_or_more(conv, says):
    """The reader's run: the convolution at 0.92x the time the counts allow, 108% of its roof."""
    fractions, results = {"embedding": 0.9, "conv2d": conv, "attention": 0.9}, []
    verdict = lab.check_measured(count, turning_length, CEILINGS, SETUP, show=False, measure=fake_measure(fractions),
                                 results=results)
    assert verdict.passed and says in verdict.message, verdict.message
    if conv > 1.005:  # the ratio of the two times as the report's table prints them
        conv_row = results[1][1]
        assert f"at {conv_row.printed_ratio:.2f}x the time your counts allow" in verdict.message
        assert abs(conv_row.printed_ratio - 1 / conv) < 0.01


@pytest.mark.parametrize("share, says", [(1.08, "above the measured peak. The peak is a 1024³ matmul's rate"),
                                         (1.004, "and ran like one"), (0.93, "and ran like one"),
                                         (0.5, "did not reach it in this run")])
def test_a_convolution_above_the_peak_is_said_to_beat_a_probe_not_to_run_like_it(share, says):
    said = report.conv_sentence(share)
    assert said.startswith(f"The convolution reached {share:.0%} of the peak: ") and says in said
    assert ("ran like one" in said) == (round(share, 2) <= 1 and share >= report.AT_ROOF)


def test_check_3s_allowance_says_what_it_covers_the_labs_ops_and_not_a_read_only_op():
    """Session 50's second reading: the allowance (25 %) beside a read-only op's 1.33x must not read as room
    for it; every branch, judged on the headrooms as printed."""
    said = report._allowance_words(1.20, 1.33)
    # t35_labs03 other 4: the headrooms (1.20x, 1.33x) are printed just before; the allowance does not repeat them
    assert said == ("Check 3 allows 25% or the measurement's spread: room for the lab's ops and for noise. An op "
                    "that only reads would need more (the lab times none).")
    assert "An op that only reads fits it too" in report._allowance_words(1.20, 1.0)
    assert "fits it too" in report._allowance_words(1.20, 1.2549)  # 1.25x as printed: within the 25%
    said = report._allowance_words(1.30, 1.50)
    assert "more than check 3's 25% (or the spread): a right count could fail it on this op" in said
    assert "room for" not in said and "only reads would need more" in said


def test_the_allowance_is_no_room_for_ops_held_below_their_roof():
    """Reader t9_labs04 (01-1): "room for the lab's ops (at most 0.77x)": an op held to 0.77x its roof gets no
    write-allocate room above it; the 25 % is then all a margin for noise (and on a GPU, always)."""
    from types import SimpleNamespace as NS

    said = report._allowance_words(0.774, 1.33)
    assert "Check 3 allows 25% or the measurement's spread: a margin for noise only." in said
    assert "room for the lab's ops" not in said and "0.77x" not in said  # the headroom sentence printed it
    assert "a margin for noise only" in report._allowance_words(1.004, 1.33)  # 1.00x as printed: none above
    assert "room for the lab's ops and for noise" in report._allowance_words(1.006, 1.33)
    gpu = NS(threads=None, bandwidth=NS(name="fp32 memory bandwidth, STREAM add"), ceilings=NS(ridge=10.0))
    said = report.headroom_sentence([], gpu)
    assert "held to 1.00x their memory roof" in said and "a margin for noise only." in said
    assert "larger share" not in said and "moved more" not in said  # a GPU has no write-allocate to count


def test_the_ridge_and_the_turning_length_are_worked_from_the_ceilings_as_printed():
    """98.46 GFLOP/s and 22.54 GB/s print as 98.5 and 22.5: a ridge of 4.38 (not the unrounded 4.37), from
    which a hand count of the causal attention's turning length, (T + 1) / 8 FLOPs a byte, gives 35 (not 34)."""
    unrounded = Ceilings(98.46e9, 22.54e9)
    shown = lab.printed_ceilings(unrounded)
    assert f"{unrounded.ridge:.2f}" == "4.37" and f"{shown.ridge:.2f}" == "4.38"
    assert (f"{shown.flops / 1e9:.1f}", f"{shown.bandwidth / 1e9:.1f}") == ("98.5", "22.5")
    sentence = lab.turning_sentence(turning_length, unrounded, SETUP)
    assert "at length 35 " in sentence and "4.38 FLOPs/byte" in sentence
    assert [op.dims["length"] for op in lab.measured_ops(turning_length, unrounded, SETUP)[4:]] == [35, 280]
    # ceilings already at the printed precision are left as they are: the other branch, nothing to round
    assert lab.printed_ceilings(CEILINGS) == CEILINGS and lab.printed_ceilings(shown) == shown
    # the predictions are the counts on the printed ceilings
    table = lab.prediction_table(count, unrounded, SETUP).to_text()
    embedding = SETUP.ops[0]
    from utils.labs.predict_the_roofline.checks import printed_count  # the counts as the table prints them
    assert f"{printed_count(count(embedding)[1]) / 22.5e9 * 1e3:#.3g} ms" in table


def test_ratios_and_shares_beside_printed_times_are_worked_from_those_times():
    """19.951 ms and 26.14 ms print as 20 ms and 26.1 ms: their ratio is 0.77 as the page gives it (0.76
    unrounded), in check 3's list and in the report's causal-over-unmasked share."""
    op = SETUP.ops[2]

    def compared(seconds, predicted):
        point = SimpleNamespace(op=op, seconds=seconds, spread=0.05)
        return lab.Compared(op, 1.0, 1.0, predicted, "compute", point)

    row = compared(0.019951, 0.02614)
    assert f"{row.ratio:.2f}" == "0.76" and f"{row.printed_ratio:.2f}" == "0.77"
    assert "at 0.77x the time your counts allow" in lab.beat_words([row, compared(0.02, 0.02)])
    assert lab.beat_words([compared(0.02, 0.02)]) == "no op beat the roof of your counts"  # the other branch
    assert f"{report.causal_time_share(compared(0.019951, 1), compared(0.02614, 1)):.0%}" == "77%"


def test_an_intensity_and_a_ridge_equal_to_two_decimals_are_told_apart():
    """An intensity of 3.92 (from counts as printed, 3.92e+03 / 1.00e+03) under a ridge of 3.9249 both print
    3.92 at two decimals: the sentence that says the ridge is above the intensity prints four (3.9249 above
    3.9200); apart at two, it keeps two."""
    from types import SimpleNamespace as NS

    close = report.turning_limit_sentence(NS(flops=3920.0, n_bytes=1000.0, bound="memory"), 31, NS(ridge=3.9249),
                                          None)
    assert "ridge at 3.9249, above the op's own intensity at that length, 3,920 / 1,000 = 3.9200 FLOPs/byte" in close
    apart = report.turning_limit_sentence(NS(flops=3900.0, n_bytes=1000.0, bound="memory"), 31, NS(ridge=3.927),
                                          None)
    assert "ridge at 3.93, above the op's own intensity at that length, 3,900 / 1,000 = 3.90 FLOPs/byte" in apart


def test_the_share_of_its_roof_is_the_roof_time_over_the_measured_time_as_the_table_prints_them():
    """A roof of 5.31 ms against 14.96 ms measured (printed "15 ms"): 5.31 / 15 is 35 %, not 35.5 % -> 36 %;
    where the learner's counts miss, the table prints the roof beside the prediction."""
    op = SETUP.ops[2]
    done = lab_ops.reference_op(op)
    from utils.labs.predict_the_roofline.checks import printed_count  # the roof: its FLOPs as printed
    ceilings = Ceilings(printed_count(done.flops) / 5.31e-3, 1e30)   # the roof of what the op does: 5.31 ms
    point = SimpleNamespace(op=done, seconds=14.96e-3, spread=0.05)
    right = lab.Compared(op, 1.0, 1.0, 5.31e-3, "compute", point)
    assert f"{report.roof_share(right, ceilings):.0%}" == "35%"
    table = report.compared_table([right], ceilings).to_text()
    assert "(roof" not in table and "35%" in table and "15.0 ms" in table  # 3 figures, the zero kept
    wrong = lab.Compared(op, 1.0, 1.0, 10.62e-3, "compute", point)   # counts twice the work
    assert "10.6 ms (roof 5.31 ms)" in report.compared_table([wrong], ceilings).to_text()


def test_the_predictions_made_twice_name_the_ceiling_that_moved_as_printed():
    # Reader (fifth reading, cell 21): "so the predicted times differ" where only the peak moved (27.1 GB/s twice)
    from types import SimpleNamespace as NS

    before = NS(flops=99.7e9, bandwidth=27.1e9)
    peak = report.predicted_again_sentence(before, NS(flops=100.4e9, bandwidth=27.12e9))
    assert "the peak moved" in peak and "memory-bound ones' do not" in peak
    bandwidth = report.predicted_again_sentence(before, NS(flops=99.68e9, bandwidth=26.0e9))
    assert "the bandwidth moved" in bandwidth and "compute-bound ones' do not" in bandwidth
    both = report.predicted_again_sentence(before, NS(flops=101e9, bandwidth=26.0e9))
    assert "both moved" in both
    assert "same ceilings" in report.predicted_again_sentence(before, NS(flops=99.71e9, bandwidth=27.13e9))


def test_a_predicted_time_is_worked_from_the_counts_as_printed():
    # Reader (fifth reading, cell 15): 1.07e+09 FLOPs at 99.7 GFLOP/s printed 10.8 ms, not 10.7
    from types import SimpleNamespace as NS
    from utils.labs.predict_the_roofline.checks import predicted, printed_count

    assert printed_count(1_074_790_400) == 1.07e9
    ceilings = NS(flops=99.7e9, bandwidth=27.1e9, ridge=99.7 / 27.1)
    bound, seconds = predicted(1_074_790_400, 1e6, ceilings)
    assert bound == "compute" and f"{seconds * 1e3:.3g}" == "10.7"
    _, lookup = predicted(0, 46_549_000, ceilings)  # printed 4.65e+07 bytes: 1.72 ms
    assert f"{lookup * 1e3:.3g}" == "1.72"
