"""Labs 00-03, the thirty-first reading's fixes (t31_labs03)."""

import pytest


def _fit_of(name, alpha_us, beta_gbs, sizes, measured="in this run"):
    from utils.labs.fix_the_article import checks as lab

    fit = lab.AlphaBeta(alpha_us * 1e-6, beta_gbs * 1e9, sizes, (0.0,) * len(sizes))
    return lab.split.machine.LinkFit(name, fit, tuple(fit.time(n) for n in sizes), measured)


PATH, KEPT_ON = "gloo loopback, 2 processes", "on 2026-12-05 (this machine's stored profile)"


# --- #1: lesson 00 says the lab sets its fit beside the lesson's "and says by how much" ------------------------

def test_the_link_note_says_by_how_much_the_two_fits_differ():
    from utils.labs.fix_the_article import checks as lab

    this = _fit_of(PATH, 60.7, 5.67, (4, 1024, 4194304))
    kept = _fit_of(PATH, 75.8, 3.48, (4, 4096, 67108864), KEPT_ON)
    said = lab.lesson_link_words(this, kept)
    # 60.7 / 75.8 = 0.801 -> -20%; 5.67 / 3.48 = 1.629 -> +63%
    assert "this lab's, alpha 60.7 µs (-20% from lesson 00's), beta 5.67 GB/s (+63%), is fitted" in said


def test_the_difference_is_worked_from_the_printed_figures_half_up():
    from utils.labs.fix_the_article import checks as lab

    # 20.06 µs prints 20.1: 20.1 / 20.0 = 1.005 -> +1% half up (the unrounded 1.003 would give 0%)
    this = _fit_of(PATH, 20.06, 2.004, (4, 1024))
    kept = _fit_of(PATH, 20.0, 2.0, (4, 4096), KEPT_ON)
    said = lab.lesson_link_words(this, kept)
    assert "alpha 20.1 µs (+1% from lesson 00's), beta 2.00 GB/s (0%)," in said  # 2.00 / 2.00: no sign


def test_no_difference_is_printed_without_lesson_00s_fit():
    from utils.labs.fix_the_article import checks as lab

    alone = lab.lesson_link_words(_fit_of(PATH, 60.7, 5.67, (4, 1024)), None)
    assert "from lesson 00's" not in alone and "%" not in alone
    assert "this lab's, alpha 60.7 µs, beta 5.67 GB/s, is fitted" in alone


# --- #2: cell 25 says the block states the jump bound; it did so only where a round was set aside --------------

BAND = (0.85, 1.21)


def _said(text: str) -> str:
    return " ".join(text.split())


def test_the_block_states_the_jump_bound_where_no_round_jumped():
    from utils.labs.fix_the_article import rounds

    said = _said(rounds.miss_sentence([1.5], [1.0], BAND, {"a": [2.0] * 9}, {"a": [100e-6] * 9}))
    assert "No ping-pong round jumped (over 2x its plan's fastest round), so no round is set aside." in said


def test_the_block_names_a_jumped_round_that_is_counted():
    from utils.labs.fix_the_article import rounds

    pp = [151e-6] * 9
    pp[3] = 328e-6  # round 4 jumped (2.17x its fastest) but its ratio is above 1: counted
    ratios = [1.5] * 3 + [1.14] + [1.5] * 5
    said = _said(rounds.miss_sentence([1.5, 1.5], [1.0, 1.0], BAND, {"a": [2.0] * 9, "plan 2": ratios},
                                      {"a": [100e-6] * 9, "plan 2": pp}))
    assert ('A ping-pong round over 2x its plan\'s fastest round jumped: here "plan 2" round 4, none below 1, so '
            "counted as it fell (a jump only lowers a round's ratio; below 1, such a round would be set aside).") in said
    assert "its side is unknown" not in said  # the long clause is for a round set aside


def test_the_jumped_rounds_of_several_plans_are_each_named():
    from utils.labs.fix_the_article import verdict

    said = verdict.jump_words({"a": [1.5] * 9, "b": [1.5] * 9, "c": [1.5] * 9}, {"a": {0, 6}, "b": set(), "c": {2}})
    assert said.startswith('A ping-pong round over 2x its plan\'s fastest round jumped: here "a" rounds 1 and 7; '
                           '"c" round 3, none below 1'), said  # "; " between plans: "and" is inside one


def test_where_a_round_is_set_aside_the_long_clause_states_the_bound_once():
    from utils.labs.fix_the_article import rounds

    pp = [100e-6] * 9
    pp[0] = 300e-6
    said = _said(rounds.miss_sentence([1.5], [1.0], BAND, {"a": [0.5] + [2.0] * 8}, {"a": pp}))
    assert "took over 2x its fastest round has its ratio lowered by that jump" in said
    assert "No ping-pong round jumped" not in said and "so counted as it fell" not in said


# --- #3: lab 01's check 2 passed a turning length one token off --------------------------------------------------

def _low_end(op, c):
    """The learner's search returning its low end: the last memory-bound length."""
    from tests.test_lab_predict_the_roofline import turning_length

    return turning_length(op, c) - 1


def _half_square(op, c):
    """Intensity with T²/2 causal scores for T(T+1)/2 (a count check 1's 2 % lets through): the turn a token late."""
    from dataclasses import replace

    from tests.test_lab_predict_the_roofline import count

    def intensity(n):
        flops, n_bytes = count(op.with_length(n))
        if op.dims["causal"]:
            flops *= n / (n + 1)  # T²/2 of T(T+1)/2
        return flops / n_bytes

    n = 1
    while intensity(n) < c.ridge:
        n += 1
    return n



@pytest.mark.mutants
@pytest.mark.parametrize("mutant, says", [
    (_low_end, "the last memory-bound one, a token short of the first compute-bound"),
    (_half_square, "counts T²/2 scores under the causal mask"),
], ids=["low end", "T^2/2"])
def test_a_turning_length_a_token_off_fails_naming_the_slip(mutant, says):
    from utils import checks
    from utils.labs.predict_the_roofline import checks as lab

    verdict = lab.check_turning(mutant, show=False)
    assert verdict.status == checks.FAILED and says in verdict.message, str(verdict)


def test_no_test_ridge_ties_with_a_length_so_the_length_is_one_whole_number():
    from utils.labs.predict_the_roofline import checks as lab
    from utils.labs.predict_the_roofline import reference

    for c in lab.TEST_CEILINGS:
        for op in lab.TEST_ATTENTIONS:
            turn = reference.first_compute_bound(op, c.ridge)
            assert reference.intensity(op.with_length(turn)) != c.ridge  # strictly past: ">" and ">=" agree
    from tests.test_lab_predict_the_roofline import turning_length
    assert lab.check_turning(turning_length, show=False).passed  # the right length still passes, exactly


# --- other problems -------------------------------------------------------------------------------------------

def test_lab_03_names_sgd_as_the_checks_choice_not_lesson_03s():
    from pathlib import Path

    import nbformat

    nb = nbformat.read(Path(__file__).resolve().parents[1] / "labs/03_ddp_from_scratch.ipynb", as_version=4)
    said = " ".join(nb.cells[6].source.split())
    # t35_labs03 other 1: "join" alone would read as DDP's Join, this lab's point; lesson 03 §2's wording
    assert "lesson 03's DDP loop (join the process group, move then wrap), with SGD as the checks use" in said
    assert "as it is" not in said  # lesson 03's recipe steps AdamW


def test_lab_02_says_more_micro_batches_each_pay_their_cost():
    import inspect

    from utils.labs.balance_the_pipeline import take_away

    source = inspect.getsource(take_away)
    assert "With more micro-batches, each paying its own cost, m=" in source and "paid their own cost once" not in source
