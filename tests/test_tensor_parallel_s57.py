"""Lesson 07, twenty-first reading: which rank waited is read from the two ranks' measured waits (rank 1
waited 0.79 ms for rank 0, which computed 0.38 ms less: the page said "no rank finished its compute late"),
and the longer-step rank's step is set against the model's at the table's 2 decimals (22.65, not 22.6)."""

from __future__ import annotations

from utils.lessons.tensor_parallel import report, verdicts


def _rank(compute: float, waited: float, after_other: float = 0.0) -> dict:
    inside = waited + 0.0022
    return {"step": compute + inside + after_other, "allreduce": inside, "compute": compute,
            "thread_cpu": compute + inside, "other_threads_cpu": 0.0012, "waited": waited,
            "after_both": inside - waited, "after_other": after_other}


def _miss(ranks: list[dict]) -> dict:
    return {"model_compute": 0.02183, "model_comm": 0.00082, "model_step": 0.02265, "one": 0.04366,
            "others": 0.0, "steal": 0.0, "paired": True, "residual": 0.09, "waiting_core": 0.01,
            "corun": {"alone": 0.01926, "together": 0.01911, "together_core": 1.0}, "ranks": ranks}


def test_the_rank_that_waited_is_read_from_the_measured_waits():
    # the reader's run: rank 0 computed faster (22.58 against 22.96 ms), yet rank 1 is the one that waited
    ranks = [_rank(0.02258, 0.0), _rank(0.02296, 0.00079)]
    assert verdicts.waiter_of(ranks) == 1
    words = verdicts.wait_words(verdicts.wait_reading(ranks, verdicts.waiter_of(ranks)))
    assert words.startswith("rank 1, which waited 0.79 ms, computed no less than rank 0 (22.96 against 22.58")
    assert "reached the all-reduces late for another reason" in words
    assert "no rank finished its compute late" not in words
    said = " ".join(report.miss_story(_miss(ranks), ""))
    assert "no rank finished its compute late" not in said and "rank 1, which waited 0.79 ms" in said
    # the other outcome: the faster rank waited, as the compute alone suggests
    other = [_rank(0.02258, 0.00079), _rank(0.02296, 0.0)]
    assert verdicts.waiter_of(other) == 0
    # both waits print equal (0.00): the faster to compute is the one that would have waited
    assert verdicts.waiter_of([_rank(0.02258, 0.0), _rank(0.02296, 0.000004)]) == 0
    assert verdicts.waiter_of([_rank(0.02296, 0.0), _rank(0.02258, 0.0)]) == 1


def test_no_rank_late_is_said_only_where_both_waits_print_zero():
    # rank 0 computed less and did not wait; rank 1 waited 0.79 ms the other way round
    r = verdicts.wait_reading([_rank(0.02258, 0.0), _rank(0.02296, 0.00079)], 0)
    words = verdicts.wait_words(r)
    assert "rank 0 did not wait for it (0.00 ms): rank 1's longer compute cost no wait; rank 1 waited " \
        "0.79 ms for rank 0, which computed no longer: rank 0's late arrival, not a longer compute" in words
    assert "no rank finished its compute late" not in words
    # both waits 0.00 ms: now, and only now, no rank finished late
    none = verdicts.wait_words(verdicts.wait_reading([_rank(0.02258, 0.0), _rank(0.02296, 0.0)], 0))
    assert none.endswith("rank 1's longer compute cost no wait, and rank 1 did not wait either: no rank "
                         "finished its compute late")
    # rank 1 computed late beyond the tolerance, and no wait came of it
    late = verdicts.wait_words(verdicts.wait_reading([_rank(0.02000, 0.0), _rank(0.02300, 0.0)], 0))
    assert late.endswith("rank 1 finished its compute late, but no wait came of it")


def test_the_step_is_set_against_the_model_at_the_tables_two_decimals():
    ranks = [_rank(0.02258, 0.0, 0.00125), _rank(0.02296, 0.00079)]
    said = report.miss_story(_miss(ranks), "")[0]
    assert "against the model's 22.65:" in said and "22.6:" not in said
    # the longer step (rank 1's here) as the table's row prints it
    table_step = f"{max(r['step'] for r in report.miss_as_printed(_miss(ranks))['ranks']) * 1e3:.2f}"
    assert f"the step took {table_step} ms" in said


def test_a_trend_with_no_rise_beyond_the_spread_says_none():
    from utils.lessons.tensor_parallel import inference

    def rise(xs):
        return inference._rise_in_part(xs, list(zip(xs, xs[1:])))
    # the reader's run: 1 -> 4 foot 0.69 under top 0.77, 4 -> 16 foot 0.76 under 0.91: none passes
    none = rise([(1, 0.54, 0.43), (4, 0.80, 0.14), (16, 0.85, 0.10)])
    assert none.startswith("rose with every larger batch, no rise beyond the rounds' spread, nor the smallest")
    # the other outcome: one step passes (0.59 above 0.51), the next and the whole range do not
    some = rise([(1, 0.50, 0.02), (4, 0.60, 0.02), (16, 0.62, 0.50)])
    assert some.startswith("rose with every larger batch, not every rise beyond the rounds' spread, nor")


def test_the_answer_is_short_and_what_was_ruled_out_goes_to_the_block():
    m = _miss([_rank(0.02258, 0.0, 0.00125), _rank(0.02296, 0.00079)])
    answer, evidence = report.miss_answer(m, "")
    said = " ".join(answer)
    assert "No cause found: the largest part of the miss is" in said and "What would show" in said
    assert "Ruled out" not in said and evidence[0].startswith("Ruled out: other programs (0.00 of a core)")
    assert "Not ruled out: " in evidence[0] and "What would show" not in evidence[0]
    # every sentence of the story is printed once, in the answer or the block
    assert " ".join(report.miss_story(m, "")).replace(" Ruled out: ", " ").replace(" What would show", "") \
        .count("Not ruled out") == " ".join(answer + evidence).count("Not ruled out")
    # the other outcome: the cores shared, no lists of ruled-out causes: nothing to cut
    shared = report.miss_answer(m | {"others": 0.5}, "")
    assert not any(s.startswith("Ruled out") for s in shared[1]) and "the cores were shared" in " ".join(shared[0])
    assert verdicts.ruled_apart("No lists here.") == ("No lists here.", "")
