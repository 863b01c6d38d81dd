"""Lesson 07, sixth reading: the fastest-of ratio from the two ms printed beside it, and one rule for whether
a rank's wait is the other rank finishing late, read alike by section 4's cause and its collapsed evidence."""

from __future__ import annotations

from utils.lessons.tensor_parallel import cost, report, verdicts


def test_the_fastest_of_ratio_divides_the_two_ms_printed_beside_it():
    # the reader's run: 37.8 ms / 39.6 ms = 0.9545 prints 0.95 (from the unrounded seconds it printed 0.96)
    said = report.timed_split_details([0.03784, 0.0390], [0.03955, 0.0400])
    assert "37.8 ms on one device (this launch's own reference" in said and "39.6 ms split, give 0.95x" in said
    # a round printed 1.00x is not the split faster, whatever its unrounded ratio
    said = report.timed_split_details([0.020012, 0.021], [0.020, 0.020])
    assert "1.00x, 1.05x" in said and "the split faster in 1 of 2" in said


def _rank(compute: float, waited: float) -> dict:
    inside = waited + 0.0017
    return {"step": compute + inside, "allreduce": inside, "compute": compute,
            "thread_cpu": compute + inside, "other_threads_cpu": 0.00103, "waited": waited,
            "after_both": inside - waited, "after_other": 0.0}


def _miss(ranks: list[dict]) -> dict:
    return {"model_compute": 0.01789, "model_comm": 0.00066, "model_step": 0.01855, "one": 0.03578,
            "others": 0.0, "steal": 0.0, "paired": True, "residual": 0.46, "waiting_core": 0.01,
            "corun": {"alone": 0.01815, "together": 0.01849, "together_core": 1.0}, "ranks": ranks}


def test_the_wait_reading_is_one_rule_both_ways():
    # the reader's run: rank 1 computed 0.88 ms longer (5%, within tolerance), 96% of rank 0's 0.92 ms wait:
    # a gap within the tolerance is noise, whatever share of the wait it covers, so it names no cause (t42_0708 #3)
    within = verdicts.wait_reading([_rank(0.01898, 0.00092), _rank(0.01986, 0.0)], 0)
    assert not within["late"] and within["gap"] == 0.88 and within["allowed"] == 0.95 and within["share"] == 96
    words = verdicts.wait_words(within)
    assert "within the lesson's 5 % timing tolerance" in words and "0.88 / 0.92 = 96%" in words
    assert words.endswith("so this run does not show rank 1's compute as the wait's cause")
    # the other outcome: a small gap, under half the wait and within the tolerance, reads alike
    early = verdicts.wait_reading([_rank(0.01898, 0.00092), _rank(0.01920, 0.0)], 0)
    assert not early["late"] and "0.22 / 0.92 = 24%" in verdicts.wait_words(early)
    # beyond the tolerance: late whatever the wait; and the waiter that computed longer itself
    assert verdicts.wait_reading([_rank(0.0190, 0.0002), _rank(0.0210, 0.0)], 0)["late"]
    itself = verdicts.wait_reading([_rank(0.0210, 0.0009), _rank(0.0190, 0.0)], 0)
    assert not itself["late"]
    assert "its wait is not rank 1 finishing its compute late" in verdicts.wait_words(itself)


def test_the_cause_and_the_evidence_read_the_wait_alike():
    """Sixth reading, cell 29: the visible cause named rank 1 as late while the block said 'no rank computed
    late', from the same figures. Both now print the one reading, in both outcomes."""
    for rank1, late in ((0.02000, True), (0.01920, False)):   # 1.02 ms beyond the 0.95 ms tolerance, or not
        answer, evidence = report.miss_answer(_miss([_rank(0.01898, 0.00120), _rank(rank1, 0.0)]), "")
        cause, block = " ".join(answer), " ".join(evidence)
        reading = verdicts.wait_words(verdicts.wait_reading([_rank(0.01898, 0.00120), _rank(rank1, 0.0)], 0))
        assert reading in cause and reading in block
        # the cause found is the largest part's, said so (t36_0708 #1)
        assert ("The largest part of the miss is waiting for the other rank" in cause) == late
        assert ("that part's cause, not the whole miss's: " in cause) == late and "Cause: " not in cause
        assert ("No cause found: the largest part of the miss is waiting" in cause) == (not late)
        assert "no rank computed late" not in block and ("Why one computed longer" in block) == late
        assert ("why it computed longer is not known" in cause) == late
        # both ranks' gloo threads printed alike (1.03 ms): no candidate (session 55); the answer
        # keeps them, for their CPU time reaches the step (cores shared, t33_0708 other #4)
        assert "1.03 ms of CPU on rank 0 and 1.03 ms on rank 1, the rank waited for: they do not explain" in cause


def test_with_the_cores_shared_a_rank_is_called_late_only_by_the_same_rule():
    for rank1, late in ((0.02000, True), (0.01920, False)):
        m = _miss([_rank(0.01898, 0.00120), _rank(rank1, 0.0)]) | {"others": 0.5}   # other programs ran
        cause = " ".join(report.miss_answer(m, "")[0])
        assert "the cores were shared (other programs used 0.50 of a core" in cause
        assert ("the sharing is a rank computed late and the other waited for it" in cause) == late
        assert ("the sharing is the measured candidate for it" in cause) == (not late)


def test_the_passes_spread_is_worked_from_the_rounds_as_printed():
    """The ± beside section 1's median is claims.printed_spread of the rounds the block prints (lesson 09
    reads the ledger's copy the same way): 1.04x and 1.09x spread 0.025, printed 0.03 (0.0248 unrounded)."""
    split = [0.01] * 4
    alone = [r * 0.01 for r in (1.00, 1.0449, 1.0945, 1.20)]
    assert report.paired_ratio(alone, split)[1] == 0.03
    assert "± 0.03" in report.timed_split(alone, split, 2.0).measured


def test_the_passes_median_is_worked_from_the_rounds_as_printed_and_recorded_so(monkeypatch, tmp_path):
    """The block prints every round (0.90x, 0.96x, 0.97x, 1.00x): their median is 0.965, 0.97x half up, as a
    reader takes it (the unrounded ratios' median, 0.96500, printed 0.96x). Lesson 09 reads the same."""
    from utils import devices, ledger
    from utils.lessons.tensor_parallel import timelines

    split = [0.01] * 4
    alone = [r * 0.01 for r in (0.90, 0.9649, 0.9651, 1.00)]
    assert report.paired_ratio(alone, split)[0] == 0.97
    assert report.timed_split(alone, split, 2.0).measured.startswith("0.97x")
    monkeypatch.setenv(ledger.ENV, str(tmp_path))
    timelines.record_speedup(alone, split, 2.0, timelines.Blocks())
    assert ledger.read(devices.mode())["tensor_parallel_speedup"]["value"] == 0.97


def test_the_decode_reference_divides_the_weight_mb_the_table_prints():
    """Sixth reading, cell 38: the halved-bytes reference was 0.42 / 0.22 = 1.91x beside weight MB 12.8 and
    6.5 (1.97x); it is now the table's weight MB as printed, with its division printed."""
    import json
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "notebooks/07_tensor_parallel.ipynb"
    nb = json.loads(path.read_text())
    code = " ".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code")
    assert 'claims.printed_ratio(WEIGHT_BYTES["one device"], WEIGHT_BYTES["tensor parallel"]' in code
    assert "printed_ratio(FLOOR[\"one device\"], FLOOR[\"tensor parallel\"]" not in code
    assert "{BYTES_X:.2f}x, the table's weight MB; {REFERENCE}" in code


# seventh reading


def test_the_crossover_miss_divides_by_the_model_width_as_printed():
    widths = [32, 64, 128, 256, 512]
    # the reader's run: the model at 62.6 prints "63"; 256 / 63 = 4.06 and 512 / 63 = 8.13 -> 4.1x to 8.1x
    said = report.crossover_miss(62.6, 256, 512, widths)
    assert said == "the measured width is 4.1x to 8.1x the model's"
    table = report.crossover_table((1.5e11, 2e-4, 4e9, 4), [], 256, here_width=62.6)
    assert table.rows[0][4] == "63"   # the table prints the width the factors divide by
    # the other way: the model's width above the measured interval, worked from 300 as printed
    said = report.crossover_miss(299.6, 64, 128, widths)
    assert said == "the model's width is 2.3x to 4.7x the measured one"


def test_a_decode_call_is_priced_from_alpha_and_beta_as_printed():
    class Link:   # the reader's fit: prints alpha = 205 us, beta = 3.02 GB/s
        alpha, beta = 205.4e-6, 3.0249e9

    call = verdicts.call_as_printed(Link, 1024)
    assert abs(call - (205e-6 + 1024 / 3.02e9)) < 1e-12
    assert f"{verdicts.seconds_as_printed(8 * call) * 1e3:.2f}" == "1.64"   # 8 x 205.34 us, not 1.65


def test_the_time_inside_the_all_reduces_is_cut_three_ways_and_the_largest_named():
    # the reader's run: rank 0 stayed 16.50 ms, 14.27 of it after rank 1 returned; rank 1 waited 9.48
    shown = {"rank 0": {"waited": 0.0, "after_both": 16.50, "after_other": 14.27},
             "rank 1": {"waited": 9.48, "after_both": 2.23, "after_other": 0.0}}
    said = verdicts.inside_split(shown)
    assert "9.48 + 4.46 + 14.27 = 28.21 ms" in said
    assert "14.27 ms (51%) a rank staying inside after the other had returned" in said
    assert said.endswith("The largest part is a rank staying inside after the other had returned")
    waiting = {"rank 0": {"waited": 9.0, "after_both": 1.0, "after_other": 0.0},
               "rank 1": {"waited": 0.0, "after_both": 1.0, "after_other": 0.0}}
    said = verdicts.inside_split(waiting)
    assert said.endswith("The largest part is waiting for the other rank, still computing")
    exchange = {"rank 0": {"waited": 0.5, "after_both": 3.0, "after_other": 0.2},
                "rank 1": {"waited": 0.0, "after_both": 2.8, "after_other": 0.0}}
    said = verdicts.inside_split(exchange)
    assert said.endswith("The largest part is the exchange itself, both ranks inside")
    tied = {"rank 0": {"waited": 1.0, "after_both": 1.0, "after_other": 0.0},
            "rank 1": {"waited": 0.0, "after_both": 1.0, "after_other": 1.0}}
    assert verdicts.inside_split(tied).endswith("No one part is the largest")


# eighth reading


def _parts_miss(after_both: float) -> dict:
    """A longer-step rank 0 whose compute is 0.60 ms beyond t1/2's 5 % (11.10 - 1.05 x 10.00) and whose time
    after both arrived is ``after_both`` against alpha-beta's 0.69 ms and a worst residual of 50%."""
    slow = {"compute": 0.01110, "waited": 0.0001, "after_both": after_both, "after_other": 0.0,
            "allreduce": 0.0001 + after_both, "step": 0.0112 + after_both, "thread_cpu": 0.0112 + after_both,
            "other_threads_cpu": 0.001}
    fast = dict(slow, compute=0.0109, waited=0.0, allreduce=after_both, step=0.0109 + after_both)
    return {"model_comm": 0.00069, "one": 0.02, "others": 0.0, "steal": 0.0, "paired": True, "residual": 0.5,
            "waiting_core": None, "corun": {}, "ranks": [slow, fast]}


def test_the_miss_s_parts_are_worked_from_the_printed_figures_half_up():
    """Reader (eighth), cell 29: 1.45 - 0.69 x 1.50 = 0.415, printed 0.41 from the seconds; by hand 0.42, and
    0.60 / 0.42 = 1.43 prints "1.4x the next" (not 1.5x)."""
    cause = " ".join(report.miss_answer(_parts_miss(0.00145), "")[0])
    assert "the compute beyond t1/2 and its 5 % 0.60 ms" in cause
    assert "beyond alpha + n/beta and the fit's error 0.42 ms" in cause
    assert "No part dominates (the largest is 1.4x the next)" in cause
    # the other outcome: 1.44 - 1.035 = 0.405 prints 0.41 half up; 0.60 / 0.41 = 1.46 prints 1.5x: dominates
    cause = " ".join(report.miss_answer(_parts_miss(0.00144), "")[0])
    assert "the fit's error 0.41 ms" in cause
    assert "The largest, the compute beyond t1/2 and its 5 %, is 1.5x the next: it dominates" in cause


def _width_row(alpha: float, beta: float, nbytes: float) -> list[str]:
    """Width 128's row of the width table, from a noiseless fit of ``alpha`` and ``beta``."""
    sizes = [1e3, 1e4, 1e5, 1e6]
    got = {"sizes": sizes, "seconds": [alpha + s / beta for s in sizes],
           "rows": [{"width": 128, "one": 0.00275, "two": 0.0032, "bytes": nbytes,
                     "one_rounds": [0.00275] * 4, "two_rounds": [0.0032] * 4}]}
    return report.cost_table(cost.analyse(got), 2.0, "").rows[0]


def test_the_width_table_s_all_reduces_are_priced_from_alpha_and_beta_as_printed():
    """Reader (eighth), cell 26: alpha 242 us and beta 5.14 GB/s are printed beside the table; 2 x (242 +
    131,072 / 5,140) us = 535.0 us, 0.54 ms (the unrounded fit gave 0.53); the model ms and speed-up
    follow."""
    row = _width_row(241.6e-6, 5.1444e9, 131072)   # unrounded: 2 x (241.6 + 25.48) us = 534.2 us
    # 2.75 / 2 + 0.54 = 1.915 prints 1.92; 2.75 / 1.92 = 1.43
    assert row[4] == "0.54" and row[3] == "1.92" and row[6] == "1.43x"
    # the other direction: the unrounded fit gives 535.8 us (0.54), the printed one 534.9 us: 0.53 printed
    row = _width_row(242.45e-6, 5.14e9, 130813)
    assert row[4] == "0.53" and row[3] == "1.91" and row[6] == "1.44x"   # 1.375 + 0.53 = 1.905 -> 1.91


def test_the_parts_inside_the_all_reduces_add_up_to_each_rank_s_printed_time_inside():
    """Reader (eighth), cell 10: each rank's time inside printed 7.74 + 7.76 = 15.50 ms, but its parts were
    rounded one by one: 0.03 + 15.40 + 0.06 = 15.49 (rank 0 waited 0.01 and stayed 7.72: 7.73, not 7.74). The
    time after both arrived is now the printed total less the printed wait, so every sum checks."""
    window = (0.0, 0.02)
    inside = verdicts.inside_ms({"rank 0": 0.0077398 / 0.02, "rank 1": 0.0077598 / 0.02}, window)
    assert inside == {"rank 0": 7.74, "rank 1": 7.76}
    comm = {"rank 0": 0.0077398 / 0.02, "rank 1": 0.0077598 / 0.02}
    said, mean = verdicts.inside_allreduces(comm, window, 8)
    assert "rank 0 7.74 ms" in said and "rank 1 7.76 ms" in said
    assert f"{mean * 1e3:.2f}" == "1.94"   # 15.50 / 8
    parts = {"rank 0": {"waited": 0.0000149, "after_both": 0.0077249, "after_other": 0.0},
             "rank 1": {"waited": 0.0000249, "after_both": 0.0077349, "after_other": 0.0000601}}
    shown = verdicts.parts_as_printed(parts, inside)
    assert shown["rank 0"] == {"waited": 0.01, "after_both": 7.73, "after_other": 0.0}   # 7.74 - 0.01
    assert shown["rank 1"] == {"waited": 0.02, "after_both": 7.74, "after_other": 0.06}   # 7.76 - 0.02
    assert "0.03 + 15.41 + 0.06 = 15.50 ms inside the all-reduces" in verdicts.inside_split(shown)
    # the other outcome: a rank whose printed stay after the other returned would exceed its time after both
    # arrived is printed no higher than it (it is a part of it)
    stayed = {"rank 0": {"waited": 0.0, "after_both": 0.001004, "after_other": 0.001004}}
    late = verdicts.parts_as_printed(stayed, {"rank 0": 0.99})
    assert late["rank 0"] == {"waited": 0.0, "after_both": 0.99, "after_other": 0.99}
