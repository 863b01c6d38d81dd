"""Thirty-fifth reading, lesson 06 cell 16 (t35_0506 #2): where no clause before it named the rounds across 1x
(``report.median_rule``), the outlying clause names them itself, beside the others, instead of pointing to a
naming "above" that is not on the page. Fabricated rounds."""
from utils.lessons.memory import report, threads_rounds

# a slower median (1.14x) with one round far above it and one across 1x, far below it: 7 rounds
NUMBERED = list(enumerate([1.12, 1.18, 1.20, 1.14, 1.08, 1.45, 0.95], 1))


def test_named_nowhere_before_the_round_across_1x_is_named_with_the_others():
    said = threads_rounds.outlying_clause(NUMBERED, 1.14, 0.06, across_named=False)
    assert said == ("; round 6's 1.45x and round 7's 0.95x lie more than 0.02 outside both the rounds' middle half "
                    "(1.08-1.20x) and the ± (1.14 ± 0.06: 1.08-1.20x): 2 of 7 rounds, outlying moments of this run")
    assert "named above" not in said


def test_named_before_the_round_across_1x_is_pointed_to():
    said = threads_rounds.outlying_clause(NUMBERED, 1.14, 0.06)
    assert said == ("; round 6's 1.45x lies more than 0.02 outside both the rounds' middle half (1.08-1.20x) and the "
                    "± (1.14 ± 0.06: 1.08-1.20x): an outlying moment of this run; with round 7's 0.95x named above, "
                    "2 of 7 rounds lie that far outside both")


def test_a_round_across_1x_alone_is_named_only_where_nothing_named_it():
    numbered = list(enumerate([1.12, 1.18, 1.20, 1.14, 1.08, 1.16, 0.95], 1))
    assert threads_rounds.outlying_clause(numbered, 1.14, 0.06) == ""
    said = threads_rounds.outlying_clause(numbered, 1.14, 0.06, across_named=False)
    assert said.startswith("; round 7's 0.95x lies more than 0.02 outside both")
    assert said.endswith(": 1 of 7 rounds, an outlying moment of this run")


def test_median_rule_names_every_outlying_round_itself():
    plain = [0.0250] * 7
    rounds = {"selective forward": [0.0250 * r for _, r in NUMBERED], "forward": plain}
    said = report.median_rule(rounds, "selective forward", "forward", "The policy's figure")
    assert "round 6's 1.45x and round 7's 0.95x lie more than 0.02 outside both" in said
    assert "named above" not in said
