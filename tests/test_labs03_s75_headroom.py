"""Lab 01's take-aways beside this run's shares (t36_labs03 #1): the bound lesson 01's way of counting gives the
memory-bound ops is said together with any op this run measured above it, and what check 3's allowance covered.
Fabricated figures, every branch."""

from types import SimpleNamespace as NS

from utils import devices
from utils.labs.predict_the_roofline import report
from utils.labs.predict_the_roofline.checks import lab_setup
from utils.labs.predict_the_roofline.reference import reference_op
from utils.lessons.why_slow.plan import lesson_settings

SETUP = lab_setup(lesson_settings(devices.plan(1, n_gpus=0), devices.hardware(), "AVX512"))  # cpu mode's sizes

ADD = NS(threads=1, bandwidth=NS(name="fp32 memory bandwidth, 1 thread, STREAM add, 32 MiB arrays"),
         ceilings=NS(ridge=12.0))
GPU = NS(threads=None, bandwidth=NS(name="fp32 memory bandwidth, STREAM add"), ceilings=NS(ridge=12.0))


def _rows():
    return [NS(op=op, point=NS(op=reference_op(op))) for op in SETUP.ops]


def _shares(lookup: float) -> dict:
    """The lookup at ``lookup`` of its roof, every other op at half of its own."""
    rows = _rows()
    return {r.op.name: 0.5 for r in rows} | {rows[0].op.name: lookup}


def _flat(text: str) -> str:
    return " ".join(text.split())


def test_a_lookup_under_its_bound_leaves_the_sentence_as_it_was():
    bound = _flat(report.headroom_sentence(_rows(), ADD))
    assert _flat(report.headroom_sentence(_rows(), ADD, _shares(0.70))) == bound
    assert "This run's" not in bound and "a margin for noise only." in bound


def test_a_lookup_above_its_bound_but_within_a_read_only_ops_is_said_with_both_causes():
    said = _flat(report.headroom_sentence(_rows(), ADD, _shares(0.82)))
    name = SETUP.ops[0].name
    assert f"at most 0.77x their memory roof ({name}" in said
    assert f"This run's {name} reached 82% of its memory roof, above that bound: the bandwidth probe" in said
    assert "or its stores skipped write-allocate (then up to 1.33x, as an op that only reads)" in said
    # check 3 counts from the roof: 82 % used none of the allowance (the reader's "absorbed it" is not so)
    assert "a margin for noise only (it counts from the roof, 100%: the 82% above is under it)." in said


def test_the_bound_is_judged_on_the_percent_as_printed():
    # 0.774 prints 77%, the bound 0.77x: not above it
    assert "This run's" not in report.headroom_sentence(_rows(), ADD, _shares(0.774))
    assert "reached 78% of its memory roof, above" in _flat(report.headroom_sentence(_rows(), ADD, _shares(0.775)))


def test_a_lookup_above_even_a_read_only_ops_bound_points_at_the_probe_or_a_cache():
    said = _flat(report.headroom_sentence(_rows(), ADD, _shares(1.40)))
    assert "reached 140% of its memory roof, above that bound: the bandwidth probe measured low" in said
    assert "or a cache kept some of its bytes" in said and "skipped write-allocate" not in said
    assert "room for that op's 40 points over the roof and for noise." in said


def test_on_a_gpu_the_roof_itself_is_the_bound():
    assert "This run's" not in report.headroom_sentence(_rows(), GPU, _shares(0.95))
    said = _flat(report.headroom_sentence(_rows(), GPU, _shares(1.10)))
    assert "reached 110% of its memory roof, above that bound" in said and "a cache kept" in said
    assert "room for that op's 10 points over the roof and for noise." in said
    assert "only reads" not in said.split("Check 3")[1]  # a GPU's read-only op has the same roof


def test_the_allowance_words_without_a_run_are_unchanged():
    assert report._allowance_words(0.774, 1.33) == report._allowance_words(0.774, 1.33, None)
    assert report._allowance_words(0.774, 1.33, 0.70) == report._allowance_words(0.774, 1.33)

