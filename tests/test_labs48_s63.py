"""Twenty-fifth reading (t25_labs48): lab 08's threads verdict in words a newcomer parses, naming only the
share's end its ± moves; lab 06's runner-up tied with other plans; lab 04's speed verdict with its noun."""

from __future__ import annotations

from utils.labs.make_it_fast import threads_cost

PART = "the threads explain part of the miss, not all of it"


def test_the_share_across_the_spread_names_only_an_end_that_prints_differently():
    assert threads_cost._across((22.0, 76.0), (22.0, 76.0), "") == ""
    assert threads_cost._across((22.0, 78.0), (22.0, 76.0), "") == " (up to 78% across its ±)"
    assert threads_cost._across((20.0, 76.0), (22.0, 76.0), "") == " (down to 20% across its ±)"
    assert threads_cost._across((20.0, 78.0), (22.0, 76.0), ", its low end at the smallest round, 1.20x") == \
        " (20% to 78% across its ±, its low end at the smallest round, 1.20x)"


def test_the_reader_s_part_of_the_miss_reads_as_a_sentence():
    # the reader's figures: 328 and 828 ms saved, 1473 ms miss, 378 ms kept; 328 / 1473 = 22 %, 828 / 1095 = 76 %;
    # at the ±'s high end 850 / 1095 = 78 %, at its low end 322 / 1473 = 22 % again: only the high end named
    said, low, high = threads_cost._share_text((328.0, 828.0), (322.0, 850.0), 1473.0, (378.0, "w"), "")
    assert said.endswith(", so forward and backward's part of the miss is 1095 to 1473 ms. On either scaling, the "
                         "launcher's thread count saves 22% to 76% of that part (up to 78% across its ±)"), said
    assert (low, high) == (22.0, 78.0)
    one, _, _ = threads_cost._share_text((437.0, 437.0), (437.0, 437.0), 573.0, (129.0, "w"), "")
    assert one.endswith("The launcher's thread count saves 76% to 98% of that part"), one
    assert "(22%-" not in said and "%-" not in one


def test_part_of_the_miss_says_what_it_explains_and_the_rest_is_a_sentence():
    said = threads_cost._share_of_miss([500.0, 1264.0], 2.90, 0.17, [1.85, 2.73, 2.90, 3.07, 18.66], 1473.0,
                                       (378.0, "w"))
    assert (f"of that part (up to 78% across its ±): {PART}. The other 645 to 1145 ms of the miss at the median "
            "2.90x on the two scalings is not timed apart. Its candidates: the kept regions above (up to 378 ms of "
            "it)") in said, said
    assert ": part of it" not in said


QUIET = {name: [1.0, 1.0, 1.01, 1.0, 1.0] for name in ("plain", "selective", "every block", "chunked loss",
                                                        "micro-batch")}   # the cost table's noise: its 0.02 floor


def test_a_plan_tied_with_the_next_is_named_beside_it():
    from utils.labs.fit_the_budget.checks import _runner_up
    # the reader's figures: selective +17%, every block +17%, chunked +5%: 1.05x, then two plans at 1.17x
    costs = {"selective": 0.17, "every block": 0.17, "chunked loss": 0.05, "micro-batch": 0.0}
    best, nearest, tied = (False, 4, 4), ("selective", 4, 1), (True, 4, 1)
    said = _runner_up(best, nearest, costs, QUIET, [best, nearest, tied])
    assert ("The cheapest, no checkpointing, 4 micro-batches, chunked cross-entropy (4), and the next, selective "
            "checkpointing, 4 micro-batches, plain cross-entropy (1 more plan costs the same: checkpointing every "
            "block, 4 micro-batches, plain cross-entropy), cost 1.05x and 1.17x by the cost model: 0.12 apart, "
            "more than the cost table's noise") in said, said
    assert said.endswith("the cost table's rounds separate the two."), said   # both tied plans: 2 techniques
    two = _runner_up(best, nearest, costs, QUIET, [best, nearest, tied, ("selective", 2, 1)])
    assert "(2 more plans cost the same: checkpointing every block, 4 micro-batches, plain cross-entropy; " \
           "selective checkpointing, 2 micro-batches, plain cross-entropy)" in two, two
    alone = _runner_up(best, nearest, costs, QUIET, [best, nearest, (True, 4, 4)])   # 1.22x: no tie
    assert "costs the same" not in alone and "cost the same" not in alone
    assert "costs the same" not in _runner_up(best, nearest, costs, QUIET)   # no fitting plans given


def test_a_tied_plan_the_noise_reads_otherwise_is_said_apart():
    from utils.labs.fit_the_budget.checks import _runner_up
    # 1.02x, then 1.05x twice: selective differs in 2 techniques (± 0.04: within), every block in 1 (± 0.02: beyond)
    costs = {"selective": 0.05, "every block": 0.03, "chunked loss": 0.02, "micro-batch": 0.0}
    best, nearest, tied = (False, 4, 4), ("selective", 4, 1), (True, 4, 4)
    said = _runner_up(best, nearest, costs, QUIET, [best, nearest, tied])
    assert "0.03 apart, within the cost table's noise (± 0.04: its ± 0.02, printed with the costs, for each of " \
           "the 2 costs they differ in): the cost model ranks them, the cost table's rounds do not tell them " \
           "apart. Against checkpointing every block, 4 micro-batches, chunked cross-entropy (4), the same gap " \
           "is more than the cost table's noise (± 0.02, printed with the costs)." in said, said
    back = _runner_up(best, tied, costs, QUIET, [best, tied, nearest])   # the other way round: within, said so
    assert back.endswith("Against selective checkpointing, 4 micro-batches, plain cross-entropy, the same gap is "
                         "within the cost table's noise (± 0.04: its ± 0.02, printed with the costs, for each "
                         "of the 2 costs they differ in)."), back


def test_the_lab_04_speed_verdict_has_its_noun():
    import torch

    from utils.labs.compress_under_budget import checks as lab04
    model = torch.nn.Linear(2, 2)
    verdict = lab04.check_faster(model, lambda: torch.nn.Linear(2, 2), torch.zeros(4, 2), model, 1e-9, rounds=2,
                                 show=False)
    flat = " ".join(verdict.message.split())
    assert verdict.passed and "yours ran at " in flat, flat
    assert " the speed of the faster of fp32 and whole-model int8 (" in flat, flat  # one name (t27)
    assert "the faster of it" not in flat


def test_counts_of_calls_print_their_plural():
    from utils.labs.attention_by_heads.checks import _all_reduces
    assert [_all_reduces(n) for n in (0, 1, 2)] == ["0 all-reduces", "1 all-reduce", "2 all-reduces"]
