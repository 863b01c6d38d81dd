"""Reader t30_09 #2 (part 2): a row's check reads a pipeline's single rounds as its evidence does (lesson 02's
rule: a round the work-scaled reference + the spread reaches is no finding), on fabricated figures."""

from utils.lessons.articles_checked import figures


def _pipeline(reference, rounds=(1.92, 1.84, 1.71, 1.66, 1.74)):
    return {"value": 1.74, "bound": 1.78, "reference": reference, "rounds": list(rounds)}


def test_rounds_the_work_scaled_reference_reaches_are_no_finding_for_the_check():
    # 1.87 + 0.07 = 1.94 reaches 1.92 and 1.84: the evidence says "no finding", so the check does too
    assert not figures.rounds_finding(_pipeline(1.87))


def test_a_round_past_the_work_scaled_reference_stays_a_finding():
    assert figures.rounds_finding(_pipeline(1.80))  # 1.80 + 0.07 = 1.87 reaches 1.84, not 1.92


def test_without_a_reference_a_round_past_the_spread_is_a_finding():
    assert figures.rounds_finding(_pipeline(None))


def test_a_round_past_two_devices_is_a_finding_whatever_the_reference():
    assert figures.rounds_finding(_pipeline(2.2, rounds=(2.03, 1.84, 1.71, 1.66, 1.74)))


def test_no_round_above_the_bound_is_no_finding():
    assert not figures.rounds_finding(_pipeline(None, rounds=(1.77, 1.74, 1.71, 1.66, 1.74)))



def test_rounds_past_a_reference_read_by_the_reference_plus_the_spread():
    from utils.lessons.articles_checked import reference_rounds
    # make bench's pipeline: 1.87x ± 0.06 against 1.94x; 1.94 + 0.06 = 2.00 reaches 1.96, not 2.02 (past 2x)
    record = {"value": 1.87, "bound": 1.78, "rounds": [2.02, 1.96, 1.87, 1.85, 1.81, 1.87, 1.86, 1.88, 1.9, 1.84,
                                                        1.87, 1.83, 1.89, 1.86, 1.87]}
    beyond, two, within, reached, unexplained = reference_rounds.rounds_past_reference(record, 1.94)
    assert (beyond, two, within, reached, unexplained) == ([2.02], [], [], [1.96], [])
    said = reference_rounds.past_reference_clauses(record, 1.94)
    assert any("within the reference + that spread" in clause and "1.96x" in clause for clause in said), said
    assert not any("1.96x" in clause and "a finding to explain" in clause for clause in said), said
