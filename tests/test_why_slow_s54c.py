"""Lesson 01, reader t14_0001's four items: section 3's fastest rate is the block's own row (as printed),
section 5's payback saves the difference of the two printed times, section 2's re-timed roof is worked half
up, and the roof's own probe is read against the same kernel timed in the same rounds (every branch)."""

from types import SimpleNamespace as NS

from utils.lessons.why_slow import link_report, memory_roof, report, roofline, transfers
from utils.lessons.why_slow.algorithms import Comparison

SIZES = [8, 512, 4096, 8192, 524288, 2**20]  # the small messages, the ids (8,192 bytes), the activations


def _link(us, accuracy):
    return NS(name="gloo", fit=NS(sizes=SIZES, alpha=81.3e-6, beta=5.0e9), seconds=[u * 1e-6 for u in us],
              accuracy=accuracy, describe=lambda: "gloo: a fit")


def test_the_fastest_rate_is_the_blocks_row_as_printed_not_the_unrounded_seconds():
    """The reader's run: 1 MiB in 229.66 µs is 4.5658 GB/s (4.57), but the block prints 229.7 µs and 4.56
    (1,048,576 / 229.7 µs = 4.5650): the sentence now quotes 4.56, the block's own row."""
    link = _link([81.3, 115.8, 90.0, 160.0, 400.0, 229.66], accuracy=0.61)  # the fit rejected
    assert f"{SIZES[-1] / 229.66e-6 / 1e9:.2f}" == "4.57"  # what the sentence said before
    rates = [row[-1] for row in link_report.link_table(link).rows]
    assert rates[-1] == "4.56" and max(rates, key=float) == "4.56"
    ids = transfers.batch_costs(link, 16, 64, 128)[0]
    said = link_report._ids_sentence(ids, link)
    assert "Its bytes take 1.8 µs at the fastest rate this run measured (4.56 GB/s)" in said  # 8,192 / 4.56e9
    assert "4.57" not in said
    assert link_report.printed_rate(2**20, 229.66e-6) == 4.56
    # the other outcome: a fit that predicts times the bytes at its β, and says so
    fits = _link([81.3, 115.8, 90.0, 160.0, 400.0, 229.66], accuracy=0.2)
    assert "at β" in link_report._ids_sentence(transfers.batch_costs(fits, 16, 64, 128)[0], fits)


def _gelu(slow_ms, fast_ms, ratios):
    return Comparison("GELU", "gelu_op_by_op", "compiled GELU", slow_ms * 1e-3, fast_ms * 1e-3, 2e-7, "20 of 22",
                      round_ratios=ratios, ceiling=11.0)


def test_the_payback_saves_what_the_median_speed_up_saves_on_the_printed_slow_time():
    """11.1 ms printed op by op, rounds' median 3.03x: 11.1 - 11.1 / 3.03 = 7.44, so 7.4 ms; 1.7 s / 7.4 ms =
    229.7, so it pays back after 230 calls (reader t30_0001 #1: not the two fastest times' difference, whose
    ratio section 5 rejects as a speed-up)."""
    gain = _gelu(11.14, 3.6649, (3.0, 3.02, 3.03, 3.05, 3.1))
    assert "11.1 ms" in report.comparison_table([gain]).to_text()
    assert report.payback_sentence(1.74, gain).startswith(
        "torch.compile's first call took 1.7 s; at its median speed-up, 3.03x, on the op-by-op's 11.1 ms, it "
        "saves 11.1 - 11.1 / 3.03 = 7.4 ms a call and pays back after 230 calls")
    row = report.payback_claim(1.74, gain)
    assert row.against.startswith("7.4 ms saved a call") and row.verdict.startswith("not run here (a few rounds timed): worked from the times, it pays back after 230 calls")
    # a saving that ends in 5 rounds half up, as a reader does: 10.0 - 10.0 / 4.00 = 7.5, 1.7 / 7.5 ms = 226.7
    tie = _gelu(10.0, 2.5, (4.0,) * 5)
    assert report.payback(1.74, tie) == (1.7, 7.5, 227)
    # the other outcome: within noise, no payback
    noisy = _gelu(1.02, 1.0, (0.9, 1.0, 1.02, 1.1, 1.2))
    assert "no payback is shown" in report.payback_sentence(1.74, noisy)


def _roof(retimed=(None, NS(best=29.7e9, spread=0.12)), from_profile=True, points=()):
    bw = NS(name="fp32 memory bandwidth, 1 thread, STREAM add, 32 MiB arrays", size="STREAM add, 32 MiB arrays",
            best=30.2e9, spread=0.11)
    return NS(from_profile=from_profile, bandwidth=bw, retimed=retimed, threads=1, points=list(points),
              ceilings=NS(flops=99.1e9, bandwidth=30.2e9), RETIMED="the same probe timed beside the ops, this run")


def test_the_re_timed_roof_is_worked_half_up():
    """0.5 x 29.7 = 14.85, which Python's round takes to 14.8 (14.849999...): a reader writes 14.9, and
    matrix-vector's 12.4 GFLOP/s is then 12.4 / 14.9 = 83%."""
    roof = _roof()
    # an intensity of 0.5 exactly (t35_0001 #2: the real matrix-vector's 0.49976 prints 0.4998, and gives 14.8)
    op = roofline.Op("matrix-vector 4096x4096", 2 * 4096 * 4096, 4 * 4096 * 4096, lambda: None, written=4 * 4096)
    mv = NS(op=op, fraction=0.82, spread=0.13, achieved=12.4e9, bound="memory")
    assert memory_roof.retimed_roof_said(mv, roof) == "0.5 × 29.7 GB/s = 14.9 GFLOP/s"
    assert memory_roof.retimed_reading(mv, roof) == "12.4 / 14.9 GFLOP/s = 83%"


def _add(share=0.84, spread=0.16, achieved=2.1e9):
    op = roofline.Op("add", 8_388_608, 12 * 8_388_608, lambda: None, written=4 * 8_388_608)  # 32 MiB arrays
    return NS(op=op, fraction=share, spread=spread, achieved=achieved, bound="memory")


def test_the_probe_is_read_against_the_same_kernel_in_the_same_rounds_and_the_moment_apart():
    """The reader's run: add at 84% of the profile's roof was put down to "this moment against the profile's",
    where the probe re-timed in the same rounds was only -2% from the profile. Now: against the re-timed
    29.7 GB/s its roof is 0.0833 x 29.7 = 2.5 GFLOP/s and 2.1 / 2.5 = 84% (in GFLOP/s, the head's own route:
    reader t15_0001 #1), judged against the larger of the two timings' spreads; the -2% alone is this moment
    against the profile's."""
    roof, add = _roof(), _add()
    assert report.memory_grade(add, roof) == "probe"
    said = report.memory_reading(add, roof)
    assert said == (
        "add ran at 84% of its memory roof; it is the roof's own probe (STREAM add on the same 32 MiB arrays): "
        "against the same kernel timed in the same rounds (29.7 GB/s), its roof is 0.0833 × 29.7 GB/s = 2.5 "
        "GFLOP/s and it reads 2.1 / 2.5 GFLOP/s = 84%, within the larger of the two timings' spreads "
        "(add 16%, the probe 12%): not a finding. "
        "That probe ran -2% from the profile's 30.2 GB/s: this moment against the profile's (the probe's spread "
        "there: 11%).")
    assert report.memory_verdict(add, roof).endswith("within the larger of its two timings' spreads: not a finding")
    # beyond both spreads (add 5%, the probe 12%: 84% + 12% < 100%): a gap at one moment, not explained here
    tight = _add(spread=0.05)
    said = report.memory_reading(tight, roof)
    assert ("2.1 / 2.5 GFLOP/s = 84%, beyond both timings' spreads (add 5%, "
            "the probe 12%): one kernel at one moment, a gap this run does not explain.") in said
    assert "not a finding" not in said and said.count("this moment against the profile's") == 1
    assert said.index("That probe ran -2%") < said.index("this moment against the profile's")
    assert report.memory_verdict(tight, roof).endswith("beyond both timings' spreads: a gap not explained here")


def test_the_probe_without_a_re_timing_names_which_two_timings_it_sets_apart():
    """No profile: the roof is the probe timed in the same rounds, so the op's share is itself the gap of one
    kernel at one moment. A profile without a re-timing: two moments, and no moment is singled out."""
    same = _roof(retimed=(), from_profile=False)
    said = report.memory_reading(_add(), same)
    assert ("so its share is one kernel timed twice in the same rounds, within the larger of the two timings' "
            "spreads (add 16%, the probe 11%): not a finding.") in said and "profile" not in said
    assert "one kernel at one moment, a gap this run does not explain" in report.memory_reading(_add(0.84, 0.05),
                                                                                                   same)
    stored = _roof(retimed=())
    said = report.memory_reading(_add(0.84, 0.05), stored)
    assert ("one kernel timed at two moments, this one and the profile's, beyond both timings' spreads (add 5%, "
            "the probe 11%): a gap this run does not explain.") in said
    assert "That probe ran" not in said
