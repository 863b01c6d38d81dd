"""The seventy-sixth reading of lessons 03 and 04 (t76_0304): a share scored on a peak the claims table calls
rough, a share of a time past 100%, and text that disagreed with the output beside it."""
from pathlib import Path

import nbformat

from utils.lessons.ddp import allreduce

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"


def _size(n: int, ms: float, low: float, high: float) -> dict:
    """One size of the all-reduce table (two ranks: busbw = algbw), times in ms."""
    seconds = allreduce.printed_seconds(ms * 1e-3)
    return {"bytes": n, "seconds": ms * 1e-3, "low": low * 1e-3, "high": high * 1e-3, "busbw": n / seconds}


ROUGH_PEAK = _size(3_303_424, 2.05, 1.31, 4.29)  # the committed run's peak: repeats 1.31-4.29 ms, rough
STEADY_PEAK = _size(3_303_424, 2.05, 1.95, 2.20)


def test_03_a_rough_peak_scores_no_share_of_beta_in_the_sentence_either():
    """t76_0304 #1: section 6 said "1.61 GB/s (rough: ...), 46% of the machine profile's β" while the claims
    table, on the same peak, scored no share: the sentence now follows the claims row's rule."""
    said = allreduce.beside_line(ROUGH_PEAK, 3.48e9, 2, "the machine profile's β")
    assert said.startswith("~1.61 GB/s (rough: its repeats ran ")
    assert "against the machine profile's β, 3.48 GB/s: its median is rough, so no share of it is scored" in said
    assert "%" not in said
    row = allreduce.rough_peak_claim("peak vs β", ROUGH_PEAK, 3.48e9, "reference", 2)
    assert "no share" in row.verdict and "%" not in row.verdict  # both places read the peak alike


def test_03_a_steady_peak_scores_its_share_and_the_gpu_expectation():
    """A peak whose repeats agree is scored as before, against the link's figure as printed; on GPUs the
    expectation reads that share (and none where the peak is rough)."""
    said = allreduce.beside_line(STEADY_PEAK, 3.48e9, 2, "the machine profile's β")
    assert said == "1.61 GB/s, 46% of the machine profile's β, 3.48 GB/s"

    class Healthy:
        def reading(self, share):
            return f"read at {share:.0%}"

    gpu = allreduce.beside_line(STEADY_PEAK, 64e9, 0, "the link's datasheet rate", Healthy())
    assert gpu == "1.61 GB/s, 3% of the link's datasheet rate, 64 GB/s, read at 3%"
    rough = allreduce.beside_line(ROUGH_PEAK, 64e9, 0, "the link's datasheet rate", Healthy())
    assert "read at" not in rough and "no share of it is scored" in rough


def test_03_section_6_reads_the_peak_through_beside_line():
    cells = nbformat.read(NOTEBOOKS / "03_ddp.ipynb", as_version=4).cells
    code = next(c.source for c in cells if c.cell_type == "code" and "small_messages(ar_rows" in c.source)
    assert code.count("allreduce.beside_line(top, ") == 2 and "rough_rate(top)" not in code
    assert "{share:.0%} of" not in code


def _row(size, ms, low, high):
    return {"bytes": size, "seconds": ms * 1e-3, "low": low * 1e-3, "high": high * 1e-3}


def test_03_a_fixed_part_up_to_the_whole_time_stays_a_share():
    said = allreduce.small_messages([_row(4096, 0.256, 0.240, 0.3), _row(2**16, 0.414, 0.401, 0.42)])
    assert "= 0.245 ms, 96% of the 4 KiB message's 0.256 ms" in said
    level = allreduce.small_messages([_row(4096, 0.300, 0.3, 0.3), _row(2**16, 0.300, 0.3, 0.3)])
    assert "= 0.300 ms, 100% of the 4 KiB message's 0.300 ms" in level and "x the 4 KiB" not in level


def test_03_the_beta_sentence_explains_with_theory_not_a_shortfall_it_did_not_score():
    """t76_0304 #3: "46% of β: an all-reduce also sums" read as the reason for a shortfall; with a rough peak no
    share is scored, so the sentence states what β prices and what an all-reduce adds, whatever the outcome."""
    cells = nbformat.read(NOTEBOOKS / "03_ddp.ipynb", as_version=4).cells
    code = next(c.source for c in cells if c.cell_type == "code" and "small_messages(ar_rows" in c.source)
    assert "{beside}{LABEL}. \"\n        \"β prices bytes sent one way; an all-reduce also sums" in code


def test_04_fine_tuning_moves_the_accuracy_not_the_cost():
    """t76_0304 #3: "Pruning's cost, 0.003 ± 0.003 ... (fine-tuning moved it by -0.003 ± 0.005)" read as the
    cost falling, where the accuracy fell and the cost grew: the sentence names the accuracy."""
    from utils.lessons.compression.accuracy import recovery_text

    none = recovery_text((0.003, 0.003), (-0.003, 0.005))
    assert "fine-tuning moved the accuracy by -0.003 ± 0.005" in none and "moved it by" not in none
    unshown = recovery_text((0.033, 0.009), (0.004, 0.004))
    assert "fine-tuning moved the accuracy by +0.004 ± 0.004, within two standard errors" in unshown


def test_04_fine_tuning_that_loses_more_says_a_positive_loss():
    """The other branch: "lost a further -0.012" was a double negative; the loss prints as a positive figure."""
    from utils.lessons.compression.accuracy import recovery_text

    lost = recovery_text((0.033, 0.009), (-0.012, 0.004))
    assert "fine-tuning lost a further 0.012 ± 0.004 of accuracy, beyond two standard errors" in lost
    assert "-0.012" not in lost
