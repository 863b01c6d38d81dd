"""Twenty-ninth reading, what the first round left (t29_0304): lesson 04's runs timed twice judged by the
course's one rule between two runs, its zeros figure kept for lesson 09, and lesson 03's shorter lines.
Fabricated figures only."""
from utils import claims
from utils.lessons.compression.report import AGREE_RULE, again_sentence, agree_within


def test_timed_again_pairs_agree_by_the_rule_lesson_09_uses():
    # t29_0304 other (c70): 1.10x ±5% and 1.00x ±5% spread 0.06 and 0.05: 1.04-1.16 misses 1.00, 0.95-1.05
    # misses 1.10, so the two runs are apart, as claims.runs_agree says; the old sum (0.11) called them agreeing
    assert not agree_within(1.10, 0.05, 1.00, 0.05)
    assert not claims.runs_agree(1.10, 0.06, 1.00, 0.05)
    # a wide spread on either side covers the other: 2.65x ±8% (0.21) reaches 2.73x ±4%, either order
    assert agree_within(2.65, 0.08, 2.73, 0.04) and agree_within(2.73, 0.04, 2.65, 0.08)
    # the edge as printed is within: 1.00 + 1.00 x 5% = 1.05
    assert agree_within(1.00, 0.05, 1.05, 0.01)
    # for every figure the lesson may meet, the lesson's rule is lesson 09's on the printed spreads
    for a, an, b, bn in [(1.16, 0.09, 1.13, 0.06), (3.82, 0.12, 4.10, 0.12), (1.0, 0.02, 1.07, 0.03)]:
        spreads = (claims.half_up(a * an, 2), claims.half_up(b * bn, 2))
        assert agree_within(a, an, b, bn) == claims.runs_agree(a, spreads[0], b, spreads[1])


def test_the_closing_word_on_pairs_timed_again_names_the_rule_each_way():
    pairs = [("90% zeros", "1.00x", "1.00x"), ("channels removed", "2.65x", "2.73x")]
    both = again_sentence(pairs, [True, True])
    assert f"({AGREE_RULE})" in both and "sum of" not in both
    assert "where a pair's figures differ as printed (channels removed)" in both
    apart = again_sentence(pairs, [True, False])
    assert apart.startswith("A pair apart (neither figure ± its spread covers the other) means the machine's load")
    assert "sum of" not in apart


def test_the_zeros_figure_goes_to_the_ledger_as_the_table_prints_it_with_its_rounds():
    # t29_0304 (lesson 09's row B12): lesson 04's 50% zeros figure was in no ledger record
    from utils.bench import Measurement
    from utils.lessons.compression.measure import compare, ledger_figure

    dense = Measurement([0.0100, 0.0104, 0.0098, 0.0110, 0.0101], 2)
    zeros = Measurement([0.0101, 0.0100, 0.0099, 0.0112, 0.0100], 2)
    kept = ledger_figure(dense, zeros)
    assert kept["rounds"] == [d / z for d, z in zip(dense.samples, zeros.samples)]  # round by round, in order
    ratio, noise, _ = compare(dense, zeros)
    assert kept["value"] == ratio and kept["noise"] == noise  # the figure and ± the table prints
    assert sorted(kept["rounds"])[2] == ratio  # the median of the paired rounds, not of the two medians


def test_lesson_04_records_the_zeros_figure_under_the_name_lesson_09_reads():
    import nbformat

    cell = nbformat.read("notebooks/04_compression.ipynb", as_version=4).cells[29].source
    assert 'zeros50 = ledger_figure(times["dense"], times["50% zeros"])' in cell
    assert 'ledger.record("pruned_zeros_speedup", zeros50["value"], "x"' in cell
    assert 'rounds=zeros50["rounds"]' in cell and 'noise=zeros50["noise"]' in cell


def test_the_small_messages_reading_comes_in_two_short_paragraphs():
    # t29_0304 other (c59): one 90-word sentence with the rough note after two colons; now the medians' reading,
    # the rough note beside the figures it qualifies, then 2α beside the fixed part, each printed on its own
    from types import SimpleNamespace

    from utils.lessons.ddp import allreduce

    rows = [{"bytes": 4096, "seconds": 0.304e-3, "low": 0.208e-3, "high": 0.409e-3},  # rough: range > half
            {"bytes": 2**16, "seconds": 0.333e-3, "low": 0.289e-3, "high": 0.477e-3}]
    link = SimpleNamespace(fit=SimpleNamespace(alpha=75.8e-6, beta=3.48e9))
    medians, alpha = allreduce.small_messages(rows, link=link).split("\n")
    assert "(1.1x; rough: 4 KiB and 64 KiB medians, repeats spread over more than half the median)" in medians
    assert "(16 x 0.304 - 0.333) / 15 = 0.302 ms, 99%" in medians
    assert medians.endswith("That is why small messages reach so little of the link's rate")
    assert alpha == ("Lesson 00's α, 75.8 µs, prices one one-way message; an all-reduce pays at least two, "
                     "2α = 0.152 ms, plus gloo's copies and sums. This fixed part is 2.0x 2α: the rest of it is "
                     "work α does not price, which this run does not time apart")
    sentences = [s for p in (medians, alpha) for s in p.replace("; ", ". ").split(". ")]
    assert max(len(s.split()) for s in sentences) <= 45  # no sentence near the 90 words the reader counted
    assert "\n" not in allreduce.small_messages(rows)  # no link: the one paragraph


def test_each_charts_collapsed_sentence_says_only_why_the_later_rank_was_late():
    # t29_0304 other (c38): two paragraphs repeated each chart's title and the line under it
    from utils.lessons.ddp import overlap

    ranks = [{"rank": r, "step": 0.1146, "exposed": 0.04,
              "steps": [{"start": 0.0, "ready": ready, "step": 0.1146, "calls": {}}]}
             for r, ready in ((0, 0.0669), (1, 0.0711))]
    said = overlap.drawn_text("by hand", ranks, 0, " (simulated on CPU)")
    assert said == ('Chart "by hand", step 1: rank 1\'s last gradient came 4.2 ms after rank 0\'s because its '
                    "forward+backward took 4.2 ms longer; the two ranks left the barrier 0.0 ms apart, so not "
                    "because of the start (simulated on CPU).")
    assert "the chart draws" not in said and "median step" not in said  # the title's words, not repeated


def test_lesson_03_reads_the_kept_link_through_the_public_reader():
    # t29_0304 (lead): machine.saved_link, not machine._read / machine._kept_link
    from pathlib import Path

    source = Path("utils/lessons/ddp/allreduce.py").read_text()
    assert "machine.saved_link(" in source and "machine._" not in source
