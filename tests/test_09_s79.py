"""Lesson 09, the fortieth reading (t40_09): a tie between tensor parallel and the article's split is no
disagreement (row A21); ... Fabricated figures, or the t40 run's printed rounds."""

from __future__ import annotations

from test_articles_checked import _figures

from utils.lessons.articles_checked import claims, reference_rounds, verdicts

T40_SPLIT = [0.98, 0.90, 0.998, 0.96, 0.93, 0.92]  # the t40 run's rounds (cell 22): median 0.945, printed 0.95
T40_TP = [0.85, 0.59, 1.16, 0.97, 0.95, 0.95]  # 0.95x ± 0.06


def _passes(tp: list[float], split: list[float]) -> dict:
    return {"passes": {"article split": max(split), "tensor parallel": max(tp), "bound": 2.0,
                       "article split rounds": split, "tensor parallel rounds": tp}}


def test_a21_tie_with_the_article_split_within_the_spread_is_inconclusive_not_disagreeing():
    row = verdicts.judge(claims.BY_ID["A21"], _figures() | _passes(T40_TP, T40_SPLIT), {})
    assert row.check == verdicts.NOISY, row.check
    assert "DISAGREES" not in row.verdict


def test_a21_disagrees_where_tensor_parallel_is_slower_than_the_split_beyond_both_spreads():
    slower = [0.70, 0.71, 0.72, 0.72, 0.73, 0.74]
    row = verdicts.judge(claims.BY_ID["A21"], _figures() | _passes(slower, T40_SPLIT), {})
    assert row.check == verdicts.DISAGREES, row.check


ZBV = {"value": 1.85, "bound": 1.92, "rounds": [1.97, 1.85, 1.74, 1.89, 1.78]}  # 1.85x ± 0.06, one round 1.97x


def test_a_reference_not_above_the_bound_explains_no_round_above_it_as_lesson_02_reads_it():
    said = reference_rounds.past_reference_clauses(ZBV, 1.92)  # the reference prints equal to the bound
    assert said == ["1 of its 5 rounds past it too (1.97x), beyond the rounds' spread of the median (± 0.06): a "
                    "finding to explain (a reference not above the bound, 1.92x against 1.92x, explains no round "
                    "above it)"], said
    # the other branch: a reference above the bound, + the spread, reaches the round: explained by it
    said = reference_rounds.past_reference_clauses(ZBV | {"bound": 1.90}, 1.92)
    assert said[0].endswith("but within the reference + that spread (1.92x + 0.06 = 1.98), which explains it")


def test_a_fused_pair_prints_one_figure_for_its_speed_up_the_rounds_median():
    from test_articles_checked_s65b import NAMES, _pair

    from utils.lessons.articles_checked import wording

    gelu = _pair(9.92, 3.72, (4.22, 3.27, 2.68, 2.54, 4.11))  # the t40 run's B14: median 3.27x ± 0.72
    said = wording.fused_words(gelu, NAMES, "one thread")
    assert "median 3.27x ± 0.72" in said and "2.67x" not in said and "9.92 / 3.72" not in said, said
    # the other branch: no rounds kept, the fastest times' ratio is the figure, printed once with its sum
    bare = wording.fused_words(_pair(9.92, 3.72, ()), NAMES, "one thread")
    assert "9.92 / 3.72 = 2.67x" in bare and "median" not in bare.split("lesson 01")[0], bare


def test_zeroed_weights_print_one_figure_the_paired_median_not_beside_a_fastest_of_ratio():
    from utils.lessons.articles_checked import zeroed

    prune = {"dense": 3.55e-3, "zeroed": 3.43e-3, "zeroed_rounds": [0.91, 1.00, 1.00, 1.01, 0.99]}  # the t40 run
    said = zeroed.figure_words(prune, 0.02, " the dense time")
    assert said.startswith("1.00x ± 0.01 the dense time in 5 paired rounds (within noise of 1x"), said
    assert "0.97x" not in said, said
    # the other branch: no rounds kept, the fastest times' ratio is the one figure, said to be one
    bare = zeroed.figure_words({"dense": 3.55e-3, "zeroed": 3.43e-3}, 0.02, " the dense time")
    assert bare.startswith("0.97x the dense time (a ratio of two fastest times, not paired rounds"), bare


def test_the_markdown_claims_no_hold_for_a_row_this_machine_cannot_test_and_states_the_reference_rule():
    import nbformat

    cells = nbformat.read("notebooks/09_articles_checked.ipynb", as_version=4).cells
    text = "".join(c.source for c in cells)
    assert "hardware statements hold" not in text  # row A9 (NVLink latency) is not testable on most machines
    assert "its latency lead only two NVLinked GPUs can test (row A9" in text
    # rule 2 as lesson 02 reads it: only a work-scaled reference above the bound explains a round above it
    assert "the work-scaled reference, + the spread, where that reference lies above the bound" in cells[0].source


def test_a_spread_printed_0_00_cannot_decide_a_disagreement_between_runs():
    from utils.lessons.articles_checked import bench_lessons

    # the t40 run: make bench 1.29x ± 0.00 (the middle rounds tie) beside lesson 08's 1.26x ± 0.02: read at the
    # 2% floor (± 0.03), 1.29 - 0.03 = 1.26 covers lesson 08's median: within noise, not "disagree"
    assert bench_lessons.runs_agree(1.29, 0.0, 1.26, 0.02)
    # the other branch: beyond the floor the two runs still disagree
    assert not bench_lessons.runs_agree(1.35, 0.0, 1.26, 0.02)


def test_the_intro_defines_the_terms_the_rows_print_and_keeps_the_long_rules_one_click_away():
    import nbformat

    cells = nbformat.read("notebooks/09_articles_checked.ipynb", as_version=4).cells
    intro = cells[0].source
    for term in ("*launch*", "*the 2% noise floor*", "*no spread recorded*", "*Gops/s*", "*torchao*", "*torch.ao*"):
        assert term in intro, term
    # the single-round rules and section 2's two readings of efficiency and cost sit in collapsed blocks
    rules = intro.split("<details>")[1].split("</details>")[0]
    assert "1. a round past two devices' 2x" in rules and "printed equal to its bound" in rules
    visible = cells[6].source.split("<details>")[0]
    assert "Do large models need two GPUs" in visible and "GPU-hours" not in visible
    assert "GPU-hours" in cells[6].source.split("<details>")[1]
