"""Lesson 07's sentences that read an inequality or a ranking from the run, each branch."""
from utils import gpu_specs
from utils.lessons.tensor_parallel import cost, verdicts
from utils.lessons.tensor_parallel.plan import DATASHEET_PAIRS


def test_the_cpu_row_reads_its_inequality_in_every_outcome():
    held = {"ranks": [{"thread_cpu": 15.57e-3, "compute": 15.18e-3},
                      {"thread_cpu": 15.29e-3, "compute": 15.31e-3}]}
    said = verdicts.cpu_row_verdict(held)
    assert "rank 0 15.57 ms against 15.18 ms: at or above it" in said
    assert "rank 1 15.29 ms against 15.31 ms: below it by 0.02 ms, within the 5 % tolerance" in said
    lost = verdicts.cpu_row_verdict({"ranks": [{"thread_cpu": 12.0e-3, "compute": 15.0e-3}]})
    assert "beyond the 5 % tolerance: the model is broken there" in lost and "at least 3.00 ms" in lost
    assert verdicts.cpu_row_verdict({"ranks": [{"thread_cpu": None, "compute": 1.0}]}) == ""


def test_the_real_width_sentence_says_the_ratio_decides_and_isolates_the_link_on_one_gpu():
    rows = [(g, link, d, gpu_specs.KNOWN_GPUS[g].peak_flops[d], gpu_specs.LINKS[link])
            for g, link, d in DATASHEET_PAIRS]
    at = {f"{g}, {link}": cost.model_speedup(p, bw, 0.0, 256, 2, 4096) for g, link, _, p, bw in rows}
    said = verdicts.real_width_sentence(rows, at, 4096, 256)
    assert "the ratio of compute speed to link speed decides it" in said
    assert "every NVLink pair" not in said
    fake = [("A", "slow", "bf16", 1e14, 1e10), ("B", "fast", "bf16", 1e14, 1e11),
            ("C", "x", "bf16", 5e13, 1e10)]
    gains = {"A, slow": 1.9, "B, fast": 1.4, "C, x": 1.5}   # against the model's order: both branches read
    said = verdicts.real_width_sentence(fake, gains, 4096, 256)
    assert "the ratio alone does not order the pairs" in said and "keeps no more of the 2x" in said


def test_the_decode_all_reduces_are_priced_at_the_floor_and_at_the_in_pass_excess():
    said = verdicts.in_pass_price(8, 0.19e-3, {"both ranks inside": 0.24e-3, "the wait": 1.93e-3}, 8.65e-3,
                                  1024, 524288)
    assert "1.52 ms, is a floor" in said and "3.44 ms" in said and "(0.24 ms a call above the model)" in said
    said = verdicts.in_pass_price(8, 0.19e-3, {"both ranks inside": -1e-5}, 8.65e-3, 1024, 524288)
    assert "no more than the model a call" in said
