"""Lesson 08's section 2 sentences (profile_words), each branch, every figure from the figures as printed."""
from utils.lessons.putting_it_together import profile_words


def test_the_parts_add_up_on_the_page_and_each_share_divides_out():
    rows, step = profile_words.parts_rows({"load": 0.00018, "matmul": 0.22094, "memory-bound": 0.02733,
                                            "Python & dispatch": 0.00736})
    assert step == 0.2558   # 0.0002 + 0.2209 + 0.0273 + 0.0074, the printed parts (0.25581 unrounded)
    assert rows[-1][:2] == ("the step, timed (load + compute)", "0.2558")
    assert rows[-1][2].startswith("100% (the shares above add up to 100.1%")   # 0.1 + 86.4 + 10.7 + 2.9
    assert rows[1] == ("matmul", "0.2209", f"{0.2209 / 0.2558:.1%}")


def test_the_profiled_step_never_prints_a_signed_zero():
    """Reader: "255 ms, -0% against the timed compute's median"."""
    shares = {"load": 0.0002, "matmul": 0.2556}   # the table's compute: 255.8 - 0.2 = 255.6 ms
    same = profile_words.profiled_against_timed(0.2551, shares)
    assert "took 255.1 ms, within 1% of the timed compute's median (255.6 ms)" in same and "-0%" not in same
    assert "added no time that shows" in same
    slower = profile_words.profiled_against_timed(0.2690, shares)   # 269.0 / 255.6 = +5%
    assert ("took 269.0 ms, +5% against the timed compute's median (255.6 ms): a profiled step also records"
            in slower)
    faster = profile_words.profiled_against_timed(0.2430, shares)   # 243.0 / 255.6 = -5%
    assert "-5% against the timed compute's median" in faster and "added no time that shows" in faster


def test_the_matmul_rate_and_its_ratios_come_from_the_printed_gflops():
    """Reader: 92 GFLOP/s beside a 222.3 GFLOP/s peak printed 2.41x (222.3/92 = 2.42); now 92.3 GFLOP/s."""
    said = profile_words.matmul_rate(20.38e9, 0.2209, {"fp32": 103.84e9, "bf16": 222.34e9})
    rate = round(20.38e9 / 0.2209 / 1e9, 1)   # 92.3
    assert f"ran at {rate:.1f} GFLOP/s in fp32, {rate / 103.8:.0%} of that fp32 peak (103.8 GFLOP/s)" in said
    assert f"bf16 peak (222.3 GFLOP/s) they would take {222.3 / rate:.2f}x less time" in said


def test_a_share_of_the_compute_is_worked_from_the_printed_ms():
    assert profile_words.printed_ms_share(0.00774, 0.2556) == 7.7 / 256


def test_section_2_s_ratio_is_the_one_the_ladder_reads():
    """The guide's Profile.matmul_speedup (the ladder's "2.41x faster") is the division section 2 prints."""
    from utils.lessons.putting_it_together import guide

    p = guide.Profile({"matmul": 0.2209}, matmul_flops=20.38e9, low_peak=222.34e9)
    assert p.matmul_speedup == 222.3 / 92.3
    assert f"take {p.matmul_speedup:.2f}x less time" in profile_words.matmul_rate(
        20.38e9, 0.2209, {"fp32": 103.84e9, "bf16": 222.34e9})


def test_the_step_row_says_when_the_rounded_shares_add_up_to_more_than_100():
    """Fifth reader: 0.1% + 85.9% + 11.1% + 3.0% = 100.1% beside the step row's "100%"."""
    rows, step = profile_words.parts_rows(SHARES)
    assert step == 0.2502 and [r[2] for r in rows[:-1]] == ["0.1%", "85.9%", "11.1%", "3.0%"]
    assert rows[-1][2] == "100% (the shares above add up to 100.1%: each rounded on its own)"
    rows, _ = profile_words.parts_rows({"load": 0.0010, "matmul": 0.2000, "memory-bound": 0.0490})
    assert [r[2] for r in rows] == ["0.4%", "80.0%", "19.6%", "100%"]   # 0.4 + 80.0 + 19.6 = 100.0


SHARES = {"load": 0.00030, "matmul": 0.21480, "memory-bound": 0.02770, "Python & dispatch": 0.00740}


def test_the_matmul_share_is_one_figure_in_the_table_and_in_the_precision_bound():
    """Fifth reader: "Matmuls take 85.9%" (the table) against the precision bound's "matmuls 85.8%" (the
    unrounded parts over the unrounded step, 0.8585...); both now read the table's 0.2148 / 0.2502."""
    from utils.lessons.putting_it_together import ladder, script

    rows, _ = profile_words.parts_rows(SHARES)
    share = profile_words.printed_share(SHARES, "matmul")
    assert rows[1][2] == f"{share:.1%}" == "85.9%"
    steps = {"precision": type("S", (), {"applies": True, "choice": "bf16 autocast", "why": ""})()}
    kept = ladder.Rung("baseline", script.Settings(), 1, None, "")
    rung = ladder.next_rung("precision", kept, steps, {"fp32": 1.0, "bf16": 2.2}, 1.0, 96,
                            matmul_share=share, matmul_speedup=2.34)
    assert "matmuls 85.9% of a step, 2.34x faster" in rung.bound_what
