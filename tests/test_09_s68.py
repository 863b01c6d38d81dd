"""Lesson 09, the twenty-ninth reading (t29_09), what the first round left: make bench's int8 MLP beside lesson
04's (#3), the rows that quote a figure past its bound counted as their own state (#4), row B12 quoting lesson 04
§3's zeros figure from the ledger, with a fallback (#2), and the modules split under the 600-line cap. Every
figure below is fabricated."""

from __future__ import annotations

from test_articles_checked import _figures, _recorded

from utils.lessons.articles_checked import bench_lessons, report, verdicts, zeroed
from utils.lessons.articles_checked.sources import BENCH, LEDGER, Part, Recorded

# --- #3: make bench's quantize beside lesson 04's ----------------------------------------------------------------

# make bench: 4.43x (lesson 04's noise 5%: ± 0.23) against 7.89x, batch 256, no thread count kept
BENCH_INT8 = {"value": 4.431, "bound": 7.885, "noise": 0.052,
              "note": "reference: 7.89x, compute-bound; torchao int8 dynamic through torch.compile, Linear-heavy "
                      "MLP, batch 256, against fp32 (on the CPU)"}
# lesson 04: 4.10x (no noise kept: the 2% floor, ± 0.08) against a rough ~8.8x, batch 256, 1 thread
LESSON_04 = {"value": 4.099, "bound": 8.78, "threads": 1,
             "what": "torchao int8 compiled, batch 256, against its roofline reference ~8.8x (rough)"}


def _quantize(bench: dict, lesson: dict) -> str:
    m = _figures(quantize=Recorded(lesson, LEDGER, "lesson 04, a date; this CPU"))
    m["results"]["quantize_bench"] = Recorded(bench, BENCH, "quantize; this CPU")
    return bench_lessons.bench_beside_lessons(m)


def test_runs_that_disagree_beside_a_rough_reference_name_both_set_ups_and_score_no_share():
    said = _quantize(BENCH_INT8, LESSON_04)
    assert said.startswith(
        "Make bench timed lesson 04's int8 MLP (torchao int8 compiled, against fp32) at 4.43x ± 0.23 (its rounds' "
        "noise) against its reference 7.89x, lesson 04, whose figure rows B11 and B13 quote, at 4.10x ± 0.08 (no "
        "noise kept: the 2% floor) against ~8.8x (rough) (both at batch 256; make bench's record keeps no thread "
        "count): neither median ± its spread covers the other's, so the two runs disagree; lesson 04 marks its "
        "reference rough"), said
    assert "so it scores no share of it" in said and said.endswith("[from make bench: quantize; this CPU]."), said


def test_with_references_that_are_not_rough_the_shares_of_their_gains_decide():
    exact = LESSON_04 | {"what": "torchao int8 compiled, batch 256, against its roofline reference 8.78x"}
    # (4.43 - 1) / (7.89 - 1) = 50%, (4.10 - 1) / (8.78 - 1) = 40%: the shares differ
    said = _quantize(BENCH_INT8, exact)
    assert ("make bench reached 50% of its reference's gain, lesson 04 40% of its own: the shares differ too, so "
            "the references do not account for the gap") in said, said
    near = exact | {"bound": 7.0}  # (4.10 - 1) / (7.00 - 1) = 52%: within 2 points of 50%
    assert "about the same share, so the gap follows the two runs' references" in _quantize(BENCH_INT8, near)


def test_runs_within_noise_and_set_ups_that_differ_are_said():
    said = _quantize(BENCH_INT8 | {"value": 4.2}, LESSON_04 | {"threads": 2})  # 4.20 - 0.22 = 3.98 < 4.10
    assert "within noise of each other (one median ± its spread covers the other's)" in said, said
    assert "disagree" not in said
    both = _quantize(BENCH_INT8 | {"threads": 1}, LESSON_04 | {"what": "torchao int8 compiled, batch 1"})
    assert "both on 1 thread" in both and "make bench at batch 256, lesson 04 at batch 1: different set-ups" in both
    assert bench_lessons.setup_words({}, {}) == "neither record keeps a batch; neither record keeps a thread count"
    assert bench_lessons.setup_words({"threads": 1}, {}).endswith("the ledger's record keeps no thread count")


def test_nothing_is_said_without_both_runs_or_where_the_rows_quote_make_bench_itself():
    assert bench_lessons.quantize_beside({"quantize": Recorded(LESSON_04, LEDGER, "")}) == ""
    bench = Recorded(BENCH_INT8, BENCH, "quantize")
    assert bench_lessons.quantize_beside({"quantize": bench, "quantize_bench": bench}) == ""


# --- #4: the rows that quote a figure past its bound, a state of their own ---------------------------------------


def _row(row_id: str, evidence: str, check: str | None) -> verdicts.Row:
    return verdicts.Row(row_id, "", "true", "", "", (Part(evidence, "measured in this run", "here"),), check)


def test_rows_quoting_a_figure_past_its_bound_are_counted_beside_their_checks():
    quoting = _row("A10", "the split alone 1.05x: a finding to explain", verdicts.NOISY)
    above = _row("A19", "ZBV 2.05x: a finding to explain", verdicts.ABOVE)
    quiet = _row("B12", "within noise", verdicts.AGREES)
    counts = report.check_counts([quoting, above, quiet])
    assert counts[report.QUOTES_PAST] == ["A10"]  # not A19, whose own check is above its bound
    assert counts[verdicts.NOISY] == ["A10"] and counts[verdicts.AGREES] == ["B12"]
    assert report.quoting_words([quoting, quiet]) == (
        "rows that quote a figure past its bound, whose own check, reading all their figures, answers otherwise: "
        "A10")
    assert report.quoting_words([quiet]) == ""
    assert "answers otherwise: A10" in report.checks_sentence([quoting, quiet])


def test_the_summary_cell_lists_the_state_in_its_sentence_and_its_table():
    import nbformat

    cell = nbformat.read("notebooks/09_articles_checked.ipynb", as_version=4).cells[24].source
    assert "report.quoting_words(report.own_measurement(ROWS))" in cell
    assert "(report.QUOTES_PAST, \"quote a figure past its bound\")" in cell


# --- B12 quotes lesson 04 §3's zeros figure from the ledger ------------------------------------------------------

ZEROS = {"value": 0.99, "bound": 1.0, "noise": 0.02, "rounds": [0.98, 0.99, 0.99, 1.0, 1.01],
         "what": "50% zeros (global, fine-tuned) over dense, dense kernels, batch 64"}


def test_lesson_04s_zeros_figure_is_quoted_as_lesson_04_reads_it():
    said = zeroed.lesson_04_words(ZEROS, "lesson 04 §3")
    assert said == ("lesson 04 §3, 50% zeros (global, fine-tuned): 0.99x the dense model's speed (noise ±2%, 5 "
                    "paired rounds), against its dense-kernel bound of 1.00x: within noise: no effect shown"), said
    slower = zeroed.lesson_04_words(ZEROS | {"value": 0.8, "noise": 0.01}, "lesson 04 §3")
    assert slower.endswith("slower than dense: no speed-up"), slower


def test_without_the_record_row_b12_says_to_run_lesson_04():
    said = zeroed.lesson_04_words(None, "lesson 04 §3")
    assert said.endswith("the ledger keeps no figure of it yet: run lesson 04"), said
    absent = verdicts.zeros_04_part({})
    present = verdicts.zeros_04_part({zeroed.LESSON_04: Recorded(ZEROS, LEDGER, "lesson 04, a date")})
    assert "run lesson 04" in absent.text and absent.kind == LEDGER
    assert "0.99x the dense model's speed" in present.text and "run lesson 04" not in present.text


def test_row_b12s_measured_part_keeps_lesson_04s_figure_apart():
    """Lesson 04's figure is a part of its own, so the short cell keeps B12's measured clause whole (t31: the
    clause with lesson 04's words inside it passed the cell's length)."""
    prune = {"dense": 1e-3, "zeroed": 1e-3, "removed": 5e-4, "zeroed_rounds": [1.0, 1.01, 0.99]}
    said = zeroed.reading(prune, verdicts.LEDGER_NOISE)
    assert said.endswith(")") and "lesson 04" not in said


# --- the modules split under the cap: the names the tests and rows read stay where they were ----------------------


def test_split_modules_keep_their_names_where_they_were_read():
    from utils.lessons.articles_checked import compressed_sends, figures, recorded_names, timed_rows, timed_words

    assert timed_rows.b8 is compressed_sends.b8 and timed_rows.saved_words is compressed_sends.saved_words
    assert timed_rows.rounds_words is timed_words.rounds_words
    assert figures.read_results is recorded_names.read_results and figures.TWO_STAGES is recorded_names.TWO_STAGES
    assert recorded_names.WHERE_TO_RECORD["pruned_zeros"] == "lesson 04"


# --- other problems: make bench's split alone named, and its note in paragraphs ----------------------------------

# make bench's split alone: 7 rounds, 1.05x ± 0.04, every round above 1x, per-process bound 1.08x, batch 128
BENCH_SPLIT = {"value": 1.049, "bound": 1.0, "process_bound": 1.0767, "batch": 128,
               "rounds": [1.064, 1.089, 1.049, 1.011, 1.037, 1.111, 1.005],
               "note": "hand-written send/recv split, batch 128, median of paired rounds"}


def _split_alone(bench: dict, lesson_rounds: list[float]) -> list[str]:
    m = _figures(naive_split=Recorded({"value": sorted(lesson_rounds)[2], "bound": 1.0, "rounds": lesson_rounds,
                                       "what": "the naive split against one device"}, LEDGER, "lesson 02"))
    m["results"]["naive_split_bench"] = Recorded(bench, BENCH, "naive_split; simulated on CPU, this machine")
    return bench_lessons.bench_beside_paragraphs(m)


def test_make_benchs_split_alone_is_named_past_its_bound_beside_its_per_process_bound_and_lesson_02():
    (said,) = _split_alone(BENCH_SPLIT, [1.15, 1.06, 1.00, 1.05, 1.05])
    assert said.startswith(
        "Make bench timed lesson 02's split alone at 1.05x ± 0.04 (7 rounds, 1.01x to 1.11x) against its 1x "
        "bound: 7 of its 7 rounds above it; measured per process (each stage alone in its own process, in the "
        "same launch) its per-process reference is 1.08x, which its median does not pass beyond its spread: the stages' own times "
        "explain it; lesson 02, whose figure rows A10 and B5 quote, at 1.05x"), said
    assert "(make bench's record keeps no batch" not in said and "the ledger's record keeps no batch" in said
    assert "within noise of each other" in said and said.endswith("simulated on CPU, this machine].")
    past = _split_alone(BENCH_SPLIT | {"process_bound": 0.98}, [0.90, 0.91, 0.92, 0.93, 0.94])[0]
    assert "its per-process reference is 0.98x, past that too: a finding to explain" in past, past
    assert "so the two runs disagree, and neither says why" in past


def test_the_note_gives_each_make_bench_run_a_paragraph_of_its_own():
    m = _figures(quantize=Recorded(LESSON_04, LEDGER, "lesson 04"), pipeline=_recorded(1.6, 16 / 9),
                 naive_split=_recorded(0.98, 1.0))  # lesson 02's split alone under its bound: no row above one
    m["results"]["quantize_bench"] = Recorded(BENCH_INT8, BENCH, "quantize")
    m["results"]["naive_split_bench"] = Recorded(BENCH_SPLIT, BENCH, "naive_split")
    parts = report.above_bound_paragraphs(m, [])
    starts = [part[:40] for part in parts]
    assert any(s.startswith("Make bench timed lesson 02's split alone") for s in starts), starts
    assert any(s.startswith("Make bench timed lesson 04's int8 MLP") for s in starts), starts
    assert parts[-1].startswith("The noise rule:")


def test_make_benchs_pipeline_runs_and_its_configurations_past_their_bound_are_two_paragraphs():
    from test_articles_checked_s54d import BENCH as PIPELINE, _m

    m = _m()
    m["results"]["pipeline_configs"] = Recorded(PIPELINE, LEDGER, "from make bench: pipeline")
    runs, past = report.bench_paragraphs(m)
    assert runs.startswith("Make bench timed lesson 02's pipeline in two runs") and runs.endswith(".")
    assert past.startswith("Make bench's configurations past their own 2m/(m+1) beyond their rounds' spread: ")
    assert report.bench_words(m) == f"{runs} {past}"
    inside = report.bench_words(m, lead=False)  # inside another sentence: no capital, no full stop
    assert inside == "m" + report.bench_words(m)[1:-1], inside
