"""Lesson 09, the twenty-eighth reading (t28_09), part 2: make bench's DDP and capstone two-device runs set
beside lessons 03 and 08's by the noise rule between runs and, where both keep one, their work-scaled
references (#2); row B2 prices the decode's all-reduces at lesson 07's fit of a whole all-reduce and names the
profile's line as the one lesson 00's run rejected (#6); one wording for the link's message times (other)."""

from __future__ import annotations

from test_articles_checked import _figures, _recorded

from utils.lessons.articles_checked import bench_lessons, claims, decode_loss, report, timed_rows
from utils.lessons.articles_checked.sources import BENCH, Recorded


def _bench(record: dict, name: str = "ddp") -> Recorded:
    return Recorded(record, BENCH, f"{name}; simulated on CPU, this machine")


# make bench's DDP in the reader's run: 1.60x over 3 rounds, work-scaled reference 1.72x; lesson 03's 1.75x
BENCH_DDP = {"value": 1.597, "bound": 2.0, "rounds": [1.597, 1.613, 1.569], "work_scaled_reference": 1.72}
LESSON_03 = dict(rounds=[1.85, 1.75, 1.75])


def _ddp(bench: dict, **lesson) -> str:
    m = _figures(ddp=_recorded(1.75, **(LESSON_03 | lesson)))
    m["results"]["ddp_bench"] = _bench(bench)
    return bench_lessons.bench_beside_lessons(m)


def test_ddp_runs_that_disagree_with_both_references_kept_read_the_shares_as_lesson_02_beside_does():
    said = _ddp(BENCH_DDP, reference=1.85)
    assert said.startswith("Make bench timed lesson 03's data parallel (two workers against one) at 1.60x ± 0.02 "
                           "(3 rounds, 1.57x to 1.61x; its ± read at the 2% floor, ± 0.03), lesson 03, whose figure "
                           "the rows quote, at 1.75x ± 0.05 "
                           "(3 rounds, 1.75x to 1.85x): neither median ± its spread covers the other's, so the two "
                           "runs disagree"), said
    # 1.60 / 1.72 = 93%, 1.75 / 1.85 = 95%: within the 2% floor; 2 / 1.72 = 1.16, 2 / 1.85 = 1.08
    assert ("make bench 1.60x against its work-scaled reference 1.72x (93% of it), lesson 03 1.75x against 1.85x "
            "(95%): about the same share of each, so the two runs' workers did different work (about 1.16x and "
            "1.08x one worker's, each bound over its reference), which neither run explains") in said, said
    assert said.endswith("[from make bench: ddp; simulated on CPU, this machine].")


def test_ddp_shares_that_differ_say_the_work_does_not_account_for_the_gap():
    said = _ddp(BENCH_DDP, reference=2.0)  # 1.75 / 2.00 = 88% against 93%
    assert "(88%): the shares differ too, so the workers' work does not account for the gap" in said, said


def test_a_missing_reference_says_the_two_disagree_and_neither_run_says_why():
    said = _ddp(BENCH_DDP)  # the ledger keeps no reference for lesson 03 (its record today)
    assert ("so the two runs disagree; only make bench kept a work-scaled reference (1.72x: 1.60x is 93% of it), "
            "so whether the workers did different work is not read here, and neither run says why") in said, said
    bare = _ddp({k: v for k, v in BENCH_DDP.items() if k != "work_scaled_reference"})
    assert "neither run kept a work-scaled reference, so whether" in bare, bare
    lesson_only = _ddp({k: v for k, v in BENCH_DDP.items() if k != "work_scaled_reference"}, reference=1.85)
    assert "only lesson 03 kept a work-scaled reference (1.85x: 1.75x is 95% of it)" in lesson_only


def test_runs_within_noise_of_each_other_say_so_and_nothing_else():
    said = _ddp(BENCH_DDP | {"value": 1.72, "rounds": [1.70, 1.72, 1.74]}, reference=1.85)  # 1.72 + 0.02 = 1.74
    assert said.endswith("within noise of each other (one median ± its spread covers the other's) "
                         "[from make bench: ddp; simulated on CPU, this machine]."), said
    assert "disagree" not in said and "work-scaled" not in said


def test_nothing_is_said_without_both_runs_or_where_the_rows_quote_make_bench_itself():
    assert bench_lessons.bench_beside_lessons(_figures(ddp=_recorded(1.75))) == ""
    m = _figures(ddp=_bench(BENCH_DDP))  # no ledger record: the rows quote make bench's own figure
    m["results"]["ddp_bench"] = _bench(BENCH_DDP)
    assert bench_lessons.bench_beside_lessons(m) == ""


def test_the_capstone_step_is_read_from_both_records_steps():
    # make bench's capstone: 1.29x over 4 rounds (middle half 1.29 to 1.29: ± 0.00); lesson 08: 1.41x ± 0.07
    bench = {"value": 2.1, "bound": 22.9, "steps": {"two devices": {"x_previous": 1.289, "bound": 2.0,
                                                                    "rounds": [1.289, 1.289, 1.254, 1.394]}}}
    lesson = {"value": 1.41, "spread": 0.07, "rounds": [1.2897, 1.4132, 1.4239]}
    m = _figures(capstone=_recorded(2.26, 25.7, steps={"two devices": lesson}))
    m["results"]["capstone_bench"] = _bench(bench, "capstone")
    said = bench_lessons.bench_beside_lessons(m)
    assert said.startswith("Make bench timed lesson 08's two-device step at 1.29x ± 0.00 (4 rounds, 1.25x to "
                           "1.39x; the middle rounds tie; its ± read at the 2% floor, ± 0.03), lesson 08, whose figure the rows quote, at 1.41x ± 0.07 (3 rounds, 1.29x to "
                           "1.42x): neither median ± its spread covers the other's"), said
    assert "neither run kept a work-scaled reference" in said


def test_the_note_carries_the_clause_beside_make_benchs_pipeline_with_or_without_rows_above():
    m = _figures(ddp=_recorded(1.75, **LESSON_03), pipeline=_recorded(1.6, 16 / 9))
    m["results"]["ddp_bench"] = _bench(BENCH_DDP)
    parts = report.above_bound_paragraphs(m, [])
    assert any(part.startswith("Make bench timed lesson 03's data parallel") for part in parts), parts
    assert parts[-1].startswith("The noise rule:")


# --- #6: row B2 prices the all-reduces at lesson 07's fit of a whole all-reduce ---------------------------------

DECODE = {"decode_seconds_per_token": {"one device": 1.13e-3, "tensor parallel": 6.84e-3},
          "alpha_s": 208.5e-6, "beta_bytes_per_s": 2.1e9}
SIZES = [4, 4096, 65536, 262144, 1048576, 4194304, 16777216, 67108864]


def _b2(fit: bool = True, seconds=None) -> str:
    m = _figures(decode=_recorded(1.0, **DECODE))
    m["results"] |= {"link_alpha": _recorded(75.8e-6), "link_beta": _recorded(3.48e9),
                     "link_residual": _recorded(0.446)}
    if seconds is not None:  # lesson 00's own run of the link
        m["results"]["link_00"] = _recorded(seconds[-1], sizes=SIZES, seconds=seconds)
    if fit:  # lesson 07's fit: alpha 169 µs, beta 1.68 GB/s
        m["results"]["allreduce_fit"] = _recorded(1.681, None, alpha_s=168.75e-6)
    return timed_rows.decode_priced(m, m["results"]["decode"].record).text


# lesson 00's run in the reader's ledger: slower than the profile's line at every size past noise (+59.2% at most)
SLOWER = [124.1e-6, 133.0e-6, 232.0e-6, 298.8e-6, 364.7e-6, 1405.5e-6, 6088.3e-6, 24846.9e-6]


def test_b2_prices_at_lesson_07s_all_reduce_fit_and_names_the_profiles_line_lesson_00_rejected():
    said = _b2(seconds=SLOWER)
    # t32_09 #4: from alpha and beta as printed, 8 x (169 + 4 x 256 / 1.68e9 x 1e6) µs = 1.36 ms; 1.36 / 5.71 = 24%
    assert ("priced at lesson 07's fit of a whole all-reduce on this link (alpha 169 µs, beta 1.68 GB/s; it also "
            "sums and waits for the other rank): 1.36 ms, 24% of it; at make bench's own fit of the all-reduces in "
            "that run (alpha 209 µs, beta 2.1 GB/s): 1.68 ms, 29%") in said, said
    assert ("; not at this machine's profile, lesson 00's line for one message, not a whole all-reduce (alpha 76 "
            "µs, beta 3.5 GB/s), the line lesson 00's own run rejected (its messages slower than the line at every "
            "size past one median's noise, up to +59.2%);") in said, said
    assert "0.61 ms" not in said  # the profile's price is no longer printed


def test_b2_names_no_rejection_where_lesson_00s_run_lay_on_the_line_or_is_not_recorded():
    on_line = [75.8e-6 + n / 3.48e9 for n in SIZES]
    said = _b2(seconds=on_line)
    assert "lesson 00's line for one message, not a whole all-reduce (alpha 76 µs, beta 3.5 GB/s);" in said, said
    assert "rejected" not in said
    assert "rejected" not in _b2()


def test_b2_reads_a_run_that_misses_the_line_both_ways_as_rejected_by_its_misses():
    both = [75.8e-6 + n / 3.48e9 for n in SIZES]
    both[2], both[5] = both[2] * 3, both[5] * 0.5  # two sizes far past the fit's own ± plus the edge, both sides
    said = _b2(seconds=both)
    assert "the line lesson 00's own run rejected (its messages missed it by up to" in said, said


def test_b2_without_lesson_07s_fit_prices_at_the_profile_as_one_message_and_says_it_was_rejected():
    said = _b2(fit=False, seconds=SLOWER)
    assert ("at this machine's profile, lesson 00's line for one message (alpha 76 µs, beta 3.5 GB/s), the line "
            "lesson 00's own run rejected (its messages slower than the line at every size past one median's "
            "noise, up to +59.2%), each all-reduce priced as one message: 0.61 ms, 11% of it") in said, said
    assert "lesson 07's fit" not in said and "; not at this machine's profile" not in said


# --- other problems: one wording for the link's times; "the ledger", not "this page's ledger" ------------------

def test_b2_b8_and_b10_name_the_link_times_in_one_wording():
    assert decode_loss.one_way_words(5) == "each time the median of 5 one-way times (half a round trip each)"
    b2 = claims.BY_ID["B2"]
    assert "the ledger does not keep it" in b2.why and "this page's ledger" not in b2.why


# --- lesson 01's ledger records its rounds' median as value and the fastest times' ratio apart (f33ef47) -------

def test_lesson_01s_fastest_times_ratio_is_read_from_fastest_where_the_record_keeps_it_apart():
    from utils.lessons.articles_checked.lesson_01_pairs import lesson_01_figures

    rounds = [2.24, 2.90, 3.43, 4.10, 5.03]  # median 3.43x; the fastest times' ratio 2.90x, kept apart
    new = {"value": 3.43, "spread": 0.60, "fastest": 2.90, "slow_ms": 8.70, "fast_ms": 3.00, "rounds": rounds}
    said, theirs = lesson_01_figures(new, ("GELU op by op", "fused"))
    assert said.startswith("GELU op by op 8.70 ms, fused 3.00 ms (its fastest times); "
                           "its 5 rounds' own ratios: median 3.43x ± 0.60"), said  # one figure: the median (t40_09)
    assert theirs == (3.43, 0.60)
    # an older record kept the fastest times' ratio as its value, and no ``fastest``
    old = {k: v for k, v in new.items() if k != "fastest"} | {"value": 2.90}
    said, theirs = lesson_01_figures(old, ("GELU op by op", "fused"))
    assert "3.00 ms (its fastest times); its 5 rounds' own ratios: median 3.43x" in said, said
    assert theirs[0] == 3.43
