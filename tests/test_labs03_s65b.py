"""Labs 00-03, reading t27_labs03, second part. Lab 01: a lookup above its write-allocate bound is not excused
by its own rounds' spread (each op keeps its fastest run): the sentence names what can put it there, the
bandwidth probe measuring low or stores that skip write-allocate, and tells them apart where the run can (a
share above even the no-write-allocate bound rules those stores out). The batch sizing of the turning
attentions goes into the collapsed block. Lab 02: the take-away's visible part is the headline, the winner and
your choice's prediction; each m's split, the cap, every m's reading and the model's parts go in the block.
Every branch on fabricated figures."""

from __future__ import annotations

from utils.labs.balance_the_pipeline import checks as pipeline
from utils.labs.predict_the_roofline import checks as roof_checks
from utils.labs.predict_the_roofline import lookup, report
from utils.lessons.model_split import runs
from tests.test_lab_predict_the_roofline import CEILINGS, SETUP, count, fake_measure, turning_length


def _said(text: str) -> str:
    return " ".join(text.split())


ADD = lookup.LookupCeiling(0.77, 12.90, 33.55, 3, 4)  # STREAM add: 4 arrays moved for 3 counted
GPU = lookup.LookupCeiling(1.0, 12.90, 33.55)  # no write-allocate: the roof itself


# --- lab 01: above the lookup's bound --------------------------------------------------------------------------


def test_above_the_bound_within_the_no_write_allocate_bound_names_both_causes_and_no_spread():
    said = _said(lookup.lookup_sentence(0.84, 0.34, ADD))  # the reader's run: 109% of 0.77x, spread 34%
    assert "84% of the roof is 109% of that bound: above that bound by 7 points of the roof. Its rounds' spread " \
           "of 34% cannot lift it there: that spread is its slower rounds, and each op keeps its fastest run (a " \
           "busy machine only slows a kernel)." in said
    assert "Two causes can, and this run does not tell them apart: the bandwidth probe measured low in these " \
           "rounds, or its stores skipped write-allocate (nothing read before a write), which lifts its bound to " \
           "the roof's 4/3 = 1.33x, and 84% is within that." in said, said
    assert "as fast as the memory allows" in said and "within its rounds' spread" not in said


def test_a_share_at_the_no_write_allocate_bound_is_within_it_and_one_point_is_singular():
    at = _said(lookup.lookup_sentence(1.33, 0.05, ADD))
    assert "133% is within that" in at and "above even" not in at
    one = _said(lookup.lookup_sentence(0.78, 0.05, ADD))
    assert "above that bound by 1 point of the roof." in one


def test_above_even_the_no_write_allocate_bound_rules_those_stores_out():
    said = _said(lookup.lookup_sentence(1.40, 0.05, ADD))
    assert "Stores that skip write-allocate (nothing read before a write) do not explain it alone: that lifts " \
           "its bound to the roof's 4/3 = 1.33x, and 140% is above even that. The bandwidth probe measured low " \
           "in these rounds, or a cache kept some of its bytes from memory; this run does not tell which." in said
    assert "as fast as the memory allows" not in said
    copy = lookup.LookupCeiling(0.87, 12.90, 33.55, 2, 3)  # STREAM copy: 3 moved for 2 counted, 1.50x
    assert "the roof's 3/2 = 1.50x, and 140% is within that" in _said(lookup.lookup_sentence(1.40, 0.05, copy))


def test_on_a_gpu_above_the_roof_write_allocate_is_no_cause():
    said = _said(lookup.lookup_sentence(1.05, 0.30, GPU))
    assert "above that bound by 5 points of the roof. Its rounds' spread of 30% cannot lift it there" in said
    assert "Write-allocate does not explain it either: the bandwidth probe measured low in these rounds, or a " \
           "cache served some of its bytes; this run does not tell which." in said


def test_at_the_bound_or_under_it_nothing_needs_a_cause():
    said = _said(lookup.lookup_sentence(0.77, 0.30, ADD))
    assert "100% of that bound: at or below that bound, but 80% of it or more: reading only" in said
    assert "cannot lift" not in said


# --- lab 01: the batch sizing is how it was measured ------------------------------------------------------------


def test_the_batch_sizing_is_in_the_collapsed_block_not_the_misses(capsys):
    results = []
    roof_checks.check_measured(count, turning_length, CEILINGS, SETUP, show=False, measure=fake_measure({}),
                               results=results)
    roof, rows, *target = results
    assert not any("batch x length²" in s for s in report.miss_sentences(rows, roof.ceilings))
    sizing = report.batch_sizing_words(rows, target[0])
    assert sizing.startswith("The attentions at your turning length") and "x apart" in sizing
    assert report.batch_sizing_words(rows[:4]) == ""  # no attentions at the turning length: nothing to size
    report.show_comparison(results, "")
    out = capsys.readouterr().out
    visible, block = out.split("[How this was measured")
    assert "batch x length²" not in visible and "batch x length²" in _said(block)


# --- lab 02: the take-away's visible part is short ---------------------------------------------------------------


def _pipelined(cap=None):
    row = lambda m, speedups: runs.Row(4096, m, "gpipe", 1.0, 1.0, [0.5, 0.5], split_points=(10,),  # noqa: E731
                                       speedups=speedups)
    rows = [row(8, [1.20, 1.24, 1.26, 1.26, 1.27, 1.30, 1.31]), row(16, [1.52, 1.57, 1.59, 1.61, 1.63, 1.66, 1.70]),
            row(64, [0.70, 0.73, 0.75, 0.76, 0.78, 0.80, 0.82])]
    predicted = dict(zip((r.key for r in rows), (1.19, 1.44, 0.88)))
    return pipeline.Pipelined(rows[1], rows, rows[1], 1.0, pipeline.MIN_MARGIN, predicted, False, "", cap=cap,
                              memory=[4.33e6, 1.61e6] if cap else None)


def test_the_take_away_shows_the_answer_and_the_block_every_m():
    p = _pipelined()
    shown, detail = _said(pipeline.take_away(p)), _said(pipeline.take_away_detail(p))
    assert shown.startswith("Pipelining paid here") and "Your model predicted 1.44x for your choice" in detail
    for moved in ("Your model predicted", "best split", "under-predicted at", "over-predicted at"):
        assert moved not in shown and moved in detail, moved
    assert "Under the cap" not in detail  # no cap, no cap line
    assert "Under the cap" in _said(pipeline.take_away_detail(_pipelined(cap=7.41e6)))
    assert pipeline.take_away_detail(None) == ""
    assert all(len(line) <= 106 for line in pipeline.take_away_detail(p).splitlines())
