"""utils/labs/predict_the_roofline (lab 01): the checks pass the solution, fail the classic mistakes naming them
(bytes of one operand only, FLOPs without the factor 2, the wrong side of the ridge, the sum of the two times,
and more), and report "not done yet" for stubs.

The measurement check is judged here on a fake measurement (times set by hand), so its verdicts hold on a
busy machine; the real measurement runs in the lab under nbval and once, small, below.
"""

from __future__ import annotations

import dataclasses
from types import SimpleNamespace

import pytest
import torch

from utils import checks, devices, gpu_specs
from utils.labs.predict_the_roofline.checks import (
    LabOp,
    check_counts,
    check_measured,
    check_predictions,
    lab_setup,
    measure_ops,
    prediction_table,
    reference_prediction,
)
from utils.lessons.why_slow.peak import Ceilings
from utils.lessons.why_slow.plan import lesson_settings
from utils.lessons.why_slow.roofline import Point

S_CPU = lesson_settings(devices.plan(1, n_gpus=0), devices.hardware(), "AVX512")  # cpu mode's sizes
SETUP = lab_setup(S_CPU)


def count(op):  # the solution
    size = op.dtype.itemsize
    if op.kind == "matmul":
        m, k, n = op.shape
        return 2 * m * k * n, size * (m * k + k * n + m * n)
    rows, cols = op.shape
    return rows * cols, 3 * size * rows * cols


def predict(flops, n_bytes, ceilings):  # the solution
    bound = "compute" if flops / n_bytes >= ceilings.flops / ceilings.bandwidth else "memory"
    return bound, max(flops / ceilings.flops, n_bytes / ceilings.bandwidth)


def test_the_solution_passes_the_exact_checks():
    assert check_counts(count, SETUP, show=False).passed
    assert check_predictions(predict, show=False).passed


def test_the_reference_counts_are_lesson_01s():
    op = LabOp("m", "matmul", (2, 3, 4), torch.bfloat16)
    assert (op.reference().flops, op.reference().bytes) == (48, 2 * (6 + 12 + 8))
    add = LabOp("a", "add", (4, 8))
    assert (add.reference().flops, add.reference().bytes) == (32, 4 * 32 * 3)
    assert reference_prediction(10e9, 10e9, Ceilings(100e9, 10e9)) == ("memory", 1.0)
    assert reference_prediction(1e12, 1e9, Ceilings(100e9, 10e9)) == ("compute", 10.0)


# --- mutants: what a learner plausibly writes instead, each caught with a message naming the mistake ----------


def _matmul_mutant(flops, n_bytes):
    def mutant(op):
        if op.kind != "matmul":
            return count(op)
        m, k, n = op.shape
        return flops(m, k, n), n_bytes(m, k, n, op.dtype.itemsize)

    return mutant


COUNT_MUTANTS = {
    "FLOPs without the factor 2": (_matmul_mutant(lambda m, k, n: m * k * n,
                                                  lambda m, k, n, s: s * (m * k + k * n + m * n)),
                                   "FLOPs without the factor 2"),
    "bytes of one operand only": (_matmul_mutant(lambda m, k, n: 2 * m * k * n, lambda m, k, n, s: s * m * k),
                                  "the bytes of one operand only"),
    "output never written": (_matmul_mutant(lambda m, k, n: 2 * m * k * n, lambda m, k, n, s: s * (m * k + k * n)),
                             "the result is written to memory too"),
    "4 bytes an element always": (_matmul_mutant(lambda m, k, n: 2 * m * k * n,
                                                 lambda m, k, n, s: 4 * (m * k + k * n + m * n)),
                                  "4 bytes an element: torch.bfloat16 has 2"),
    "elements, not bytes": (_matmul_mutant(lambda m, k, n: 2 * m * k * n, lambda m, k, n, s: m * k + k * n + m * n),
                            "elements, not bytes"),
    "k terms forgotten": (_matmul_mutant(lambda m, k, n: 2 * m * n, lambda m, k, n, s: s * (m * k + k * n + m * n)),
                          "each result sums k products"),
    "add read once": (lambda op: (op.shape[0] * op.shape[1], op.dtype.itemsize * op.shape[0] * op.shape[1])
                      if op.kind == "add" else count(op), "the bytes of one operand only (x)"),
    "add as a multiply-add": (lambda op: (2 * op.shape[0] * op.shape[1], 3 * op.dtype.itemsize * op.shape[0]
                                          * op.shape[1]) if op.kind == "add" else count(op),
                              "an add is one operation per element"),
}


@pytest.mark.mutants
@pytest.mark.parametrize("name", list(COUNT_MUTANTS))
def test_mutant_counts_fail_naming_the_mistake(name):
    mutant, named = COUNT_MUTANTS[name]
    verdict = check_counts(mutant, SETUP, show=False)
    assert verdict.status == checks.FAILED and named in verdict.message, verdict.message


def _ridge(c):
    return c.flops / c.bandwidth


PREDICT_MUTANTS = {
    "wrong side of the ridge": (lambda f, b, c: ("memory" if f / b >= _ridge(c) else "compute", predict(f, b, c)[1]),
                                "Wrong side of the ridge point"),
    "ridge upside down": (lambda f, b, c: ("compute" if f / b >= c.bandwidth / c.flops else "memory",
                                           predict(f, b, c)[1]), "Wrong side of the ridge point"),
    "a ridge typed in": (lambda f, b, c: ("compute" if f / b >= 10 else "memory", predict(f, b, c)[1]),
                         "Wrong side of the ridge point"),
    "the sum of the times": (lambda f, b, c: (predict(f, b, c)[0], f / c.flops + b / c.bandwidth),
                             "the sum of the two times"),
    "the faster limit": (lambda f, b, c: (predict(f, b, c)[0], min(f / c.flops, b / c.bandwidth)),
                         "the faster of the two limits"),
    "the peak for every op": (lambda f, b, c: (predict(f, b, c)[0], f / c.flops), "this op waits for its bytes"),
    "milliseconds": (lambda f, b, c: (predict(f, b, c)[0], 1e3 * predict(f, b, c)[1]), "milliseconds"),
    "not a bound": (lambda f, b, c: ("bandwidth", predict(f, b, c)[1]), "should be 'memory' or 'compute'"),
}


@pytest.mark.mutants
@pytest.mark.parametrize("name", list(PREDICT_MUTANTS))
def test_mutant_predictions_fail_naming_the_mistake(name):
    mutant, named = PREDICT_MUTANTS[name]
    verdict = check_predictions(mutant, show=False)
    assert verdict.status == checks.FAILED and named in verdict.message, verdict.message


def fake_measure(fractions: dict[str, float]):
    """A measurement in which each op reaches ``fractions[kind or name]`` of its roof on fixed ceilings."""
    ceilings = Ceilings(90e9, 25e9)

    def measure(setup):
        points = []
        for op in setup.ops:
            ref = op.reference()
            _, roof_seconds = reference_prediction(ref.flops, ref.bytes, ceilings)
            fraction = fractions.get(op.name, fractions.get(op.kind, 0.9))
            points.append(Point(ref, roof_seconds / fraction, 0.05, 0.0, ceilings.bound(ref.intensity)))
        # what the check reads of a Roofline (lesson 01 owns its constructor, which may grow)
        return SimpleNamespace(ceilings=ceilings, points=points, threads=1, peak_size=1024, stream_kernel="add")

    return measure


def test_the_measurement_check_passes_the_solution_near_its_roof_and_fills_results():
    results = []
    verdict = check_measured(count, predict, SETUP, show=False, measure=fake_measure({"matmul": 0.95, "add": 1.1}),
                             results=results)
    assert verdict.passed, verdict.message
    roof, rows = results
    assert [r.op for r in rows] == list(SETUP.ops) and all(0.8 < r.ratio < 1.2 for r in rows)


@pytest.mark.mutants
@pytest.mark.parametrize("name, faster", [("FLOPs without the factor 2", False), ("add read once", False),
                                          ("wrong side of the ridge", False), ("FLOPs twice", True)])
def test_mutant_predictions_are_caught_by_the_measurement_too(name, faster):
    counts = dict(COUNT_MUTANTS, **{"FLOPs twice": (_matmul_mutant(lambda m, k, n: 4 * m * k * n, lambda m, k, n, s:
                                                                    s * (m * k + k * n + m * n)), "")})
    mutant_count = counts.get(name, (count,))[0]
    mutant_predict = PREDICT_MUTANTS[name][0] if name in PREDICT_MUTANTS else predict
    verdict = check_measured(mutant_count, mutant_predict, SETUP, show=False, measure=fake_measure({}))
    assert verdict.status == checks.FAILED
    expected = "faster than your" if faster else "side of the ridge" if "ridge" in name else "x allowed (2x, widened"
    assert expected in verdict.message, verdict.message


def test_an_op_far_below_its_roof_fails_and_one_far_above_it_too():
    slow = check_measured(count, predict, SETUP, show=False, measure=fake_measure({"add": 0.3}))
    assert slow.status == checks.FAILED and "add 8192x1024 took" in slow.message
    fast = check_measured(count, predict, SETUP, show=False, measure=fake_measure({"add": 1.5}))
    assert fast.status == checks.FAILED and "faster than your" in fast.message


def test_checks_report_not_done_yet_for_stubs_without_measuring():
    def stub(*args):
        raise NotImplementedError("count it")

    def never(setup):
        raise AssertionError("measured before the exercises were done")

    assert check_counts(stub, SETUP, show=False).status == checks.NOT_DONE
    assert check_predictions(stub, show=False).status == checks.NOT_DONE
    assert check_measured(stub, stub, SETUP, show=False, measure=never).status == checks.NOT_DONE
    assert "not done yet" not in str(prediction_table(count, predict, Ceilings(1e9, 1e9), SETUP))
    assert "once exercises A and B are done" in prediction_table(stub, stub, Ceilings(1e9, 1e9), SETUP)


@pytest.mark.timeout(60)
def test_the_real_measurement_times_every_op_beside_both_ceilings():
    small = dataclasses.replace(S_CPU, peak_matmul=128, stream_bytes=2**22, token_matrix=(64, 32, 128),
                                matvec=256, elementwise_numel=2**14)
    setup = dataclasses.replace(lab_setup(small), rounds=1)
    roof = measure_ops(setup)
    assert [p.op.name for p in roof.points] == [op.name for op in setup.ops]
    assert roof.threads == 1 and all(p.seconds > 0 for p in roof.points)
    assert roof.ceilings.flops > 0 and roof.ceilings.bandwidth > 0 and roof.stream_kernel in ("copy", "add")


def test_two_ops_are_compute_bound_and_two_memory_bound_on_every_device_of_the_course():
    """On this CPU's ridge (a few FLOPs a byte) and on every datasheet GPU's fp32 ridge, with its own sizes."""
    for S, ridge in [(S_CPU, 5.0)] + [(dataclasses.replace(S_CPU, peak_matmul=8192, token_matrix=(8192, 768, 3072),
                                                           matvec=16384, elementwise_numel=2**26),
                                       spec.peak_flops["fp32"] / spec.memory_bandwidth)
                                      for spec in gpu_specs.KNOWN_GPUS.values()]:
        bounds = [("compute" if f / b >= ridge else "memory") for f, b in map(count, lab_setup(S).ops)]
        assert bounds == ["compute", "compute", "memory", "memory"], (S.peak_matmul, ridge)


def test_the_hints_point_to_lesson_01_and_name_no_code():
    texts = checks.hint_texts("labs/predict_the_roofline")
    assert sorted(texts) == ["A", "B"] and all(len(levels) == 2 for levels in texts.values())
    assert all("lesson 01" in levels[0] for levels in texts.values())
    for text in (t for levels in texts.values() for t in levels):
        for code in ("2 * m", "itemsize *", "max(", "flops /", "ridge =", "return "):
            assert code not in text, (code, text)


def test_the_lab_leaves_the_roofline_formula_to_the_learner():
    """Issue 26: neither the lab's text nor a hint states exercise B's formula or points to a class whose
    method computes it."""
    import nbformat

    nb = nbformat.read("labs/01_predict_the_roofline.ipynb", as_version=4)
    text = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    hints = " ".join(t for levels in checks.hint_texts("labs/predict_the_roofline").values() for t in levels)
    for said in (text, hints):
        assert "\\max" not in said and "max(" not in said and "larger of" not in said
        assert "Ceilings" not in said and ".bound(" not in said and "peak.py" not in said
