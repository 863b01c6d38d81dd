"""Thirtieth reading (t30_0304): lesson 03's lab pointer, lesson 04's trade-off table named for what it holds,
lesson 03's all-reduce curve read where its rate falls before the peak, and the smaller items. Fabricated
figures only; the notebook tests read cell sources, never a run's outputs."""
import re
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]


def _sources(name: str, kind: str = "markdown") -> str:
    nb = nbformat.read(ROOT / "notebooks" / name, as_version=4)
    return "\n".join(c.source for c in nb.cells if c.cell_type == kind)


def test_the_lessons_point_to_the_learners_copy_of_their_lab_not_the_one_with_solutions():
    # t30_0304 #1: labs/03_ddp_from_scratch.ipynb holds "### BEGIN SOLUTION"; make student builds the copy
    for name in ("03_ddp.ipynb", "04_compression.ipynb"):
        text = _sources(name)
        pointed = re.findall(r"labs/(?:student/)?\d\d_\w+\.ipynb", text)
        assert pointed, name
        assert all(p.startswith("labs/student/") for p in pointed), (name, pointed)
        assert "built by `make student`" in text


def test_the_trade_off_table_and_figure_are_named_for_the_variants_they_hold():
    # t30_0304 #2: "Every variant above" over a 12-row table that leaves out BN folded, int4, autocast, ...
    from utils.lessons.compression import pareto

    variants = [dict(family="CNN", mb=1.7, ms=40.0, acc=0.97, front=True),
                dict(family="MLP", mb=2.9, ms=4.5, acc=0.97, front=True)]
    title = pareto.plot_front(variants, 256, " (on the CPU)")._suptitle.get_text()
    assert "every variant" not in title.lower() and "the trade-off table's variants" in title
    nb = nbformat.read(ROOT / "notebooks/04_compression.ipynb", as_version=4)
    section7 = next(c.source for c in nb.cells if "## 7 · The trade-off" in c.source)
    assert "Every variant above" not in section7
    left_out = section7.split("Left out, each for a reason:")[1].split("They are timed again")[0]
    for name in ("folded and fused", "compiled fp32", "int8 by hand", "eager int8", "int4", "autocast",
                 "other seeds"):
        assert name in left_out, name
    table = next(c.source for c in nb.cells if c.cell_type == "code" and "pareto_front(points" in c.source)
    assert "Every variant" not in table and "The trade-off's variants" in table


def _row(size: int, gbs: float, slowest: float, fastest: float) -> dict:
    """An all-reduce row of two workers (busbw = algbw) from its busbw median and repeats, in GB/s."""
    seconds = lambda rate: size / (rate * 1e9)
    return dict(bytes=size, seconds=seconds(gbs), low=seconds(fastest), high=seconds(slowest),
                algbw=gbs * 1e9, busbw=gbs * 1e9)


KIB, MIB = 2**10, 2**20


def test_a_fall_in_busbw_before_the_peak_is_read_beside_its_repeats():
    # t30_0304 #3: 256 KiB 0.55 GB/s, 1 MiB 0.29 GB/s, repeats 0.29-0.66 and 0.16-1.16: no line read it
    from utils.lessons.ddp import allreduce

    rows = [_row(64 * KIB, 0.20, 0.15, 0.25), _row(256 * KIB, 0.55, 0.29, 0.66), _row(MIB, 0.29, 0.16, 1.16),
            _row(4 * MIB, 1.00, 0.90, 2.51), _row(16 * MIB, 1.36, 1.14, 1.50)]
    [line] = allreduce.rate_drops(rows)
    assert line == ("busbw fell from 0.55 GB/s at 256 KiB to 0.29 GB/s at 1 MiB before the curve's highest "
                    "point: their repeats' ranges overlap (256 KiB 0.29-0.66 GB/s, 1 MiB 0.16-1.16 GB/s), so "
                    "the two rates are the same within noise")
    assert not allreduce.inversions(rows)  # each size took longer: the times alone show no fall
    # the repeats apart: the fall is beyond them
    rows[1:3] = [_row(256 * KIB, 0.55, 0.45, 0.66), _row(MIB, 0.29, 0.25, 0.33)]
    [line] = allreduce.rate_drops(rows)
    assert "beyond both ranges of repeats (256 KiB 0.45-0.66 GB/s, 1 MiB 0.25-0.33 GB/s)" in line
    assert line.endswith("this lesson does not measure why this one did not")


def test_rate_drops_leave_the_peak_and_after_it_to_the_trend_line():
    from utils.lessons.ddp import allreduce

    # peak at 1 MiB, then a fall: trend reads it ("after its peak"); rate_drops says nothing more
    rows = [_row(256 * KIB, 0.50, 0.40, 0.60), _row(MIB, 1.20, 1.00, 1.40), _row(4 * MIB, 0.80, 0.70, 0.90)]
    assert allreduce.rate_drops(rows) == [] and "after its peak" in allreduce.trend(rows)
    # the largest size highest: from the best earlier size on, trend's dips read it
    rows = [_row(256 * KIB, 0.50, 0.40, 0.60), _row(MIB, 1.20, 1.00, 1.40), _row(4 * MIB, 0.80, 0.70, 0.90),
            _row(16 * MIB, 1.50, 1.40, 1.60)]
    assert allreduce.rate_drops(rows) == [] and "a dip at 4 MiB" in allreduce.trend(rows)
    # equal as printed is no fall; a rising curve has none
    rows = [_row(256 * KIB, 0.50, 0.40, 0.60), _row(MIB, 0.504, 0.40, 0.60), _row(4 * MIB, 1.0, 0.9, 1.1)]
    assert allreduce.rate_drops(rows) == []


def test_lesson_03_calls_the_rate_of_larger_messages_a_tendency_and_prints_its_falls():
    nb = nbformat.read(ROOT / "notebooks/03_ddp.ipynb", as_version=4)
    text = " ".join(_sources("03_ddp.ipynb").split())
    assert "larger messages run nearer" not in text and "larger messages tend to run nearer" in text
    assert any("allreduce.rate_drops(ar_rows)" in c.source for c in nb.cells if c.cell_type == "code")


def test_lesson_04_calls_the_convolutions_compute_bound_an_expectation_as_its_inference_line_does():
    # t30_0304 #4: the markdown said "mostly computes" where cell 60 prints "assumes ... does not measure"
    text = " ".join(_sources("04_compression.ipynb").split())
    assert "A batch through convolutions mostly computes" not in text
    assert "A batch through convolutions is expected to be compute-bound (not measured here" in text
    code = _sources("04_compression.ipynb", "code")
    assert "this lesson does not measure the CNN's arithmetic intensity" in code


def test_lesson_04_keeps_its_headline_rounds_noise_in_the_ledger():
    # the lead's item: lesson 09 quoted quantize_speedup with a 2% floor; the record now keeps its rounds' ±
    code = _sources("04_compression.ipynb", "code")
    record = code.split('ledger.record("quantize_speedup"')[1].split("ledger.record(")[0]
    assert "noise=runs[hi].noise[best]" in record


def _notebook_functions(name: str, wanted: set[str], namespace: dict) -> dict:
    """The functions ``wanted`` as lesson ``name``'s code cells define them, run in ``namespace``."""
    import ast

    nb = nbformat.read(ROOT / "notebooks" / name, as_version=4)
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        tree = ast.parse(cell.source)
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and node.name in wanted:
                exec(compile(ast.Module([node], []), name, "exec"), namespace)
    assert wanted <= set(namespace), wanted - set(namespace)
    return namespace


def test_the_weight_only_line_names_the_rounds_of_each_figure():
    # t30_0304 other (d): "1.13x the speed (... = 1.17x) ... batch 256: 1.17x against compiled fp32's 1.13x"
    from types import SimpleNamespace

    from utils.lessons.compression.report import ties

    run = SimpleNamespace(speedup={"wo": 1.17, "c32": 1.13}, noise={"wo": 0.06, "c32": 0.06})
    ns = _notebook_functions("04_compression.ipynb", {"ties_compile", "compile_reading", "compile_credit"},
                             dict(runs={256: run}, hi=256, ties=ties, WEIGHT_ONLY="wo", COMPILED_FP32="c32",
                                  same_rounds=True))
    line = ns["compile_credit"]("wo", "faster than the baseline")
    assert line == ("; section 4's rounds (this batch, this device) timed this variant at 1.17x and compiled "
                    "fp32 at 1.13x: the same within noise: it does what compile alone does; the gain is "
                    "compile's, not int8's")
    assert ns["compile_credit"]("wo", "within noise").endswith("; int8 adds nothing over compile")
    run.speedup["wo"], run.noise = 1.60, {"wo": 0.02, "c32": 0.02}  # beyond compile alone: no closing clause
    assert ns["compile_credit"]("wo", "faster").endswith("at 1.13x: beyond compile alone: the int8 weights' "
                                                         "fewer bytes")
    run.speedup["wo"] = 0.80
    assert ns["compile_credit"]("wo", "slower").endswith("less than compile alone; this run does not time "
                                                         "dequantizing apart from the matmul")
    assert ns["compile_credit"]("other", "faster") == ""
    ns["same_rounds"] = False
    assert "compile alone was not timed on this batch and device" in ns["compile_credit"]("wo", "faster")


def test_lesson_04_names_the_roofline_rule_one_way():
    # t30_0304 other (c): "the roofline's rule (the simple rule below)", then "the simple rule is not tested"
    code = _sources("04_compression.ipynb", "code")
    assert "simple rule" not in code and "the roofline's rule is not tested here" in code


def test_section_2s_step_beside_the_knob_table_is_read_to_the_whole_ms_its_median_is_printed_to():
    # t30_0304 other (e): "69.0 ms, 6.0 ms shorter than this table's median" (75, printed to whole ms)
    from utils.lessons.ddp.knobs import step_beside_table

    shorter = step_beside_table(69.0, 75, 0.0, (73, 80))
    assert shorter == (", about 6 ms shorter than this table's median (printed to whole ms), whose steps include "
                       "an optimizer step that section 2's do not")
    assert step_beside_table(74.6, 75, 0.0, (75, 78)).startswith(", under 1 ms shorter than")
    # longer by a gap whose low end (1.3 - 0.5) does not pass the 1.0 ms lag: not shown to be more
    assert step_beside_table(76.3, 75, 1.0, (73, 76)) == (", about 1 ms longer although it has no optimizer "
                                                          "step: not shown to be more than the 1.0 ms by which "
                                                          "the other rank's last gradient came later")
    assert step_beside_table(75.3, 75, 0.0, (73, 75)) == (", under 1 ms longer although it has no optimizer step: "
                                                          "within the half ms either way that the whole-ms "
                                                          "median leaves open")
    assert "about 3 ms longer although it has no optimizer step: more than the 1.0 ms" in \
        step_beside_table(78.0, 75, 1.0, (73, 76))
    assert step_beside_table(75.0, 75, 0.0, (76, 78)) == ", as long as this table's median"


def test_lesson_04_counts_fc1s_weights_apart_from_its_biases():
    # t30_0304 other (f): fc1 has 500 x 800 = 400,000 weights and 500 biases; the CNN 431,080 parameters
    from utils import models

    cnn = models.ArticleCNN()
    assert cnn.fc1.weight.numel() == 400_000 and sum(p.numel() for p in cnn.parameters()) == 431_080
    text = " ".join(_sources("04_compression.ipynb").split())
    assert "fc1, with 400,000 weights of the CNN's 431,080 parameters" in text


def test_lesson_03_prints_the_all_reduce_spans_exposed_time_in_three_paragraphs():
    # t30_0304 other (g): one say of about 150 words; the spans, the wait and transfer, the exposed part
    nb = nbformat.read(ROOT / "notebooks/03_ddp.ipynb", as_version=4)
    cell = next(c.source for c in nb.cells if c.cell_type == "code" and "spans_times = " in c.source)
    says = cell.split("\nsay(")[1:]
    starts = [s.split('"')[1][:40] for s in says[:3]]
    assert starts == ["Inside the step the all-reduce calls' sp", "A span runs from a bucket's launch to it",
                      "{ms(ddp['exposed'])} stayed exposed, {ms"]
    exposed = says[2].split("\nif LINK")[0]
    assert "{rough_iso}" in says[1] and "{rough_iso}" not in exposed  # the note beside the ratios it qualifies
