"""Lessons 05 and 06, fortieth reading (t40_0506): a part timed against its whole is read round by round, not
from the fastest run of each (which may come from different rounds); a figure set aside names the rounds it
came from instead of "may pair different rounds"; the link fit's column is worked from alpha and beta as
printed. The committed run's figures where named so."""

from test_fix_s54b_030405 import cell_source
from utils.lessons.data_prefetch.transfer import fit_line, printed_fit_time
from utils.lessons.memory import policy_cost

MS = 1e-3
# lesson 06 c16's rounds in the t40 run (ms): the plain pair and the policy's pair
FORWARD = [25.8, 20.9, 24.3, 24.2, 24.1, 24.8, 24.5]
BLOCKS = [23.5, 24.9, 23.7, 23.7, 23.8, 23.3, 24.5]
ROUNDS = {"forward": [t * MS for t in FORWARD], "blocks' forward": [t * MS for t in BLOCKS],
          "selective forward": [t * MS for t in (27.3, 26.0, 28.5, 27.4, 30.9, 27.6, 28.0)],
          "selective blocks' forward": [t * MS for t in (27.9, 25.3, 25.3, 26.4, 26.5, 26.9, 27.1)]}


def _plain_note(rounds, part=23.3, whole=20.9):
    return policy_cost.part_over_whole("blocks' forward", part * MS, "forward", whole * MS, "then this",
                                       rounds=rounds)


def test_the_committed_runs_blocks_forward_is_no_longer_than_its_whole_round_by_round():
    # 23.3 (round 6) / 20.9 (round 2) = 1.11x "beyond their noise"; round by round the median is 0.98x
    said = _plain_note(ROUNDS)
    assert "the fastest run of each, from different rounds, blocks' forward: round 6; forward: round 2" in said
    assert "in their rounds, 0.98x ± 0.03 the whole's time" in said, said
    assert "within their noise of it, so the gap is the fastest runs' alone, not a finding; then this." in said
    assert "beyond" not in said and "1.11x" not in said


def test_a_part_shorter_beyond_noise_round_by_round_says_so():
    rounds = {"forward": [25.0 * MS] * 5, "blocks' forward": [22.5 * MS] * 5}   # 0.90x every round
    said = _plain_note(rounds, part=23.3, whole=20.9)
    assert "0.90x ± 0.02" in said and "shorter than its whole beyond their noise" in said, said
    assert _plain_note(rounds, part=22.5, whole=25.0) == ""   # shorter by the fastest runs too: nothing to say


def test_a_part_longer_than_its_whole_in_every_round_is_a_finding_with_its_rounds_named():
    rounds = {"forward": [20.0 * MS] * 5, "blocks' forward": [22.0 * MS] * 5}   # 1.10x every round
    said = _plain_note(rounds, part=22.0, whole=20.0)
    assert "1.10x ± 0.02" in said and "beyond their noise, carried by rounds 1, 2, 3, 4 and 5 of 5" in said, said


def test_the_fastest_policy_ratio_set_aside_names_its_round_not_may_pair_different_rounds():
    times = {k: min(v) for k, v in ROUNDS.items()}
    said = policy_cost.prediction_words(61.7 * MS, 8.9 * MS, times, "1.14x ± 0.07", ROUNDS)
    assert "not the fastest of each, 26.0 / 20.9 = 1.24x (both from round 2, that round's own ratio)" in said
    assert "may pair different rounds" not in said
    source = cell_source("06_memory.ipynb", 16)
    assert "which may pair different rounds" not in source and "fastest_source(CKPT_ROUNDS, *POLICY_PAIR)" in source
    assert source.count("rounds=CKPT_ROUNDS") == 2   # both part-over-whole notes read their rounds


def test_the_link_fit_column_redoes_from_alpha_and_beta_as_printed():
    alpha, beta = 93.04e-6, 3.3243e9   # printed 93.0 µs and 3.32 GB/s
    assert "alpha 93.0 µs, beta 3.32 GB/s" in fit_line("gloo", alpha, beta, {1: 0.0})
    # 0.093 + 16,777,216 / 3.32e9 s = 0.093 + 5.053 = 5.146 ms, not 5.140 from the unrounded beta
    assert f"{printed_fit_time(alpha, beta, 16_777_216) * 1e3:.3f}" == "5.146"
    source = cell_source("05_data_prefetch.ipynb", 45)
    assert "fit.fit.time(" not in source and "printed_fit_time(" in source
