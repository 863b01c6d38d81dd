"""Lessons 05 and 06, seventy-sixth reading (t76_0506): a "beyond noise" between two shares follows from the
rounds and names the rounds that carry it; a finding past a bound only where the whole printed range clears it;
a step-time verdict says how many rounds it rests on; no printed paragraph past 120 words. Figures in ms; the
committed run's rounds where named so."""

from test_fix_s54b_030405 import cell_source
from utils.lessons.data_prefetch.report import start_up_sentence
from utils.lessons.memory import offload, policy_cost, summary
from utils.lessons.memory.step_verdicts import rounds_basis
from utils.lessons.memory.threads_rounds import reach_working

MS = 1e-3
PLAIN = ("blocks' forward", "forward")
SEL = "selective blocks' forward", "selective forward"


def _rounds(sel_shares, plain_shares, whole=100.0):
    """Rounds whose wholes all take ``whole`` ms and whose parts take each share of it."""
    return {"blocks' forward": [s * whole * MS for s in plain_shares], "forward": [whole * MS] * len(plain_shares),
            "selective blocks' forward": [s * whole * MS for s in sel_shares],
            "selective forward": [whole * MS] * len(sel_shares)}


def _note(rounds, part=95.0, whole=100.0):
    return policy_cost.part_over_whole(SEL[0], part * MS, SEL[1], whole * MS, then="then this", rounds=rounds,
                                       plain=PLAIN)


def test_the_committed_runs_shares_agree_by_their_rounds_so_no_round_2_verdict_is_printed():
    # lesson 06 c16: round 2's fastest runs gave 1.00x against 0.91x "beyond their noise"; the rounds' medians,
    # 1.00x ± 0.04 and 0.98x ± 0.06, agree, and the part (29.6) is no longer than its whole (29.7)
    rows = [(28.2, 30.8, 28.3, 31.6), (24.0, 29.6, 26.5, 29.7), (27.7, 32.3, 28.2, 32.2), (24.5, 30.1, 29.6, 33.8),
            (29.6, 31.4, 28.1, 31.1), (25.5, 31.7, 28.9, 31.8), (28.7, 32.5, 29.1, 35.4)]
    rounds = {name: [r[k] * MS for r in rows] for k, name in
              enumerate(("blocks' forward", "selective blocks' forward", "forward", "selective forward"))}
    assert _note(rounds, 29.6, 29.7) == ""
    longer = _note(rounds, 29.8, 29.7)   # longer than its whole: said, with the rounds' verdict
    assert ("in their rounds, 1.00x ± 0.04 the whole's time, against 0.98x ± 0.06 in the plain pair (blocks' "
            "forward / forward; each the median of its 7 rounds' own ratios") in longer
    assert "within their noise; then this." in longer and "beyond" not in longer


def test_a_beyond_names_the_rounds_that_carry_it():
    said = _note(_rounds([0.95] * 5, [0.89] * 5))
    assert "beyond their noise, carried by rounds 1, 2, 3, 4 and 5 of 5" in said, said
    assert "a cause not timed apart here; then this." in said


def test_a_beyond_carried_by_one_round_says_so_and_is_no_finding():
    # medians 0.95 and 0.89 (± 0.02 each) lie apart; each round's own two shares agree but round 3's
    said = _note(_rounds([0.95, 0.95, 0.95, 0.91, 0.91], [0.93, 0.93, 0.89, 0.89, 0.89]))
    assert ("beyond their noise by the medians, but carried by round 3 alone (its own two shares beyond the same ±, "
            "the other 4 rounds' within it): one moment of this run, not a finding") in said, said
    assert "a cause not timed apart" not in said


def test_a_finding_past_the_bound_only_where_the_whole_printed_range_clears_it():
    # lesson 06 c43: 2.12x ± 0.13 reaches 1.99x, under the 2.00x bound, though every round is above it
    said = summary.threads_reading([2.28, 2.12, 2.03], 2, 1.0)
    assert "2.12x ± 0.13" in said and "within noise of its bound (2.12 - 0.13 = 1.99x, not above 2.00x)" in said
    assert "a finding to explain" not in said and "not a finding from these 3 rounds" in said
    assert "within noise of its bound" in offload._rounds_past_words([2.28, 2.12, 2.03], 2)
    # the whole range clears it: 2.22 - 0.04 = 2.18x
    clear = summary.threads_reading([2.28, 2.22, 2.20], 2, 1.0)
    assert "above the bound: a finding to explain" in clear and "within noise of its bound" not in clear
    assert "within noise" not in offload._rounds_past_words([2.28, 2.22, 2.20], 2)


def test_the_reach_is_worked_half_up_from_the_printed_figures():
    assert reach_working(2.12, 0.13, 2) == "2.12 - 0.13 = 1.99x"
    assert reach_working(2.13, 0.13, 2) == "2.13 - 0.13 = 2.00x"   # a tie as printed reaches the bound
    assert reach_working(2.15, 0.13, 2) == ""


def test_the_precision_and_loss_verdicts_say_how_many_rounds_they_rest_on():
    assert rounds_basis([1.02, 1.08, 1.02, 1.24, 1.06]) == ("the median of 5 rounds' own ratios, ± their spread, at "
                                                            "least 2 %")
    precision, loss = cell_source("06_memory.ipynb", 21), cell_source("06_memory.ipynb", 26)
    assert precision.count("rounds_basis(") == 2 and "rounds_basis(CE_COST[2])" in loss


def test_the_start_up_answer_stays_under_120_words():
    said = start_up_sentence([256, 258, 255, 256], 258, 54, 49, 200, 8)
    assert len(said.split()) <= 120 and "past one read" not in said
    details = cell_source("05_data_prefetch.ipynb", 20)
    assert "kept_wait_sentence(fresh_ms, kept_ms, read_ms)" in details


def test_the_long_paragraphs_keep_their_detail_one_click_away():
    ddp = cell_source("05_data_prefetch.ipynb", 49)
    assert "so it is a ceiling (what it leaves out: the details " in ddp
    assert 'f"The bound leaves out the CPU the {S.ranks} training processes use themselves' in ddp
    offloaded = cell_source("06_memory.ipynb", 43)
    assert "print(fill(doubt.strip()))" in offloaded and "+ reference_doubt(" not in offloaded
