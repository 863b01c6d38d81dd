"""Lesson 07's figures worked from others (ratios, products, differences, tokens a second) redone from their
operands as printed: session 51's fourth reader found each of these off in the last printed digit."""

from __future__ import annotations

from utils.lessons.tensor_parallel import cost, decode, inference, report, verdicts
from utils.lessons.tensor_parallel.plan import LessonSettings

N = 8   # new tokens a run: a row's seconds are for N steps


def _row(batch, one_ms, tp_ms, pipe_ms=None, spread=0.05):
    """An ``inference_worker`` row from ms a step."""
    ms = {"one device": one_ms, "tensor parallel": tp_ms, "pipeline": pipe_ms or tp_ms}
    return {"batch": batch, "same_tokens": True, **{k: N * v * 1e-3 for k, v in ms.items()},
            "spread": {k: spread for k in ms}}


def test_speedups_and_tokens_a_second_follow_the_ms_a_step_as_printed():
    """Item 2: 5.7249 / 16.588 is 0.3451 (0.35x) unrounded, but the page prints 5.72 and 16.59: 0.34x."""
    row = _row(1, 5.7249, 16.588)
    assert inference.step_ms(row, "one device", N) == 5.72
    assert inference.step_ms(row, "tensor parallel", N) == 16.59
    assert f"{inference.over_one_device(row, 'tensor parallel', N):.2f}" == "0.34"
    four = _row(4, 11.044, 17.9)   # 4 / 11.04 ms: 362 tok/s, the reader's own division
    assert f"{inference.tokens_per_s(four, 'one device', N):,.0f}" == "362"
    table = report.inference_table({"new_tokens": N, "rows": [row, four]}, 4, "")
    assert table.rows[0][2] == "60 (0.34x)" and table.rows[0][4:6] == ("5.72", "16.59")
    assert table.rows[1][1] == "362"
    trend = inference.batch_trend([row, four, _row(16, 20.0, 23.0)], N, ("tensor parallel",))
    assert "0.34x ± " in trend and " at batch 1" in trend


def test_the_noise_of_a_speedup_is_its_printed_figure_times_its_printed_spread():
    """Item 4: 0.17x with a spread of 56% reads ± 0.10 (0.17 x 0.56 = 0.095), not 0.09 from unrounded
    figures."""
    assert f"{inference.printed_noise(0.1749, 0.5551):.2f}" == "0.10"
    assert f"{inference.printed_noise(0.1651, 0.5649):.2f}" == "0.10"
    assert inference.printed_noise(1.15, 0.10) == 0.12  # 0.115, a tie: half up as by hand (float rounding: 0.11)


def test_the_cache_against_no_cache_divides_the_printed_ms():
    """Item 4: 5.72 ms against 1.82 ms is 3.14x (not 3.15x), and 3.14 x 15% is ± 0.47 (not 0.46)."""
    cached = {"seconds": {"one device": 0.0018174, "tensor parallel": 0.012},
              "spread": {"one device": 0.148, "tensor parallel": 0.56}}
    uncached = {"one device": N * 0.0057244, "tensor parallel": N * 0.0182,
                "spread": {"one device": 0.05, "tensor parallel": 0.05}}
    one = decode.cache_against_uncached(cached, uncached, N)[0]
    assert "1.82 ms a token with the cache against 5.72 ms" in one and "3.14x ± 0.47" in one


def test_the_launch_floor_multiplies_the_printed_cost_of_one_operation():
    """Item 3: 116 operations x 2.2 us (printed) is 0.26 ms; with the unrounded 2.16 us it printed 0.25."""
    result = {"ops": 96, "tp_ops": 116, "per_op": 2.16e-6}
    assert f"{result['per_op'] * 1e6:.1f}" == "2.2"
    assert f"{decode.launch_floor(result, 'tp_ops') * 1e3:.2f}" == "0.26"
    assert f"{decode.launch_floor(result) * 1e3:.2f}" == "0.21"


def test_the_datasheet_pairs_are_worked_from_the_links_as_printed():
    """Item 6: the table printed 32 GB/s and worked with 31.504; now it prints 31.50 and works with it."""
    rows = LessonSettings.datasheet_rows(None)   # uses no setting of the plan
    table = report.crossover_table((1.5e11, 2e-4, 4e9, 4), rows, 256, here_width=68.0)
    for (gpu, link, _, peak, bw), printed in zip(rows, table.rows[1:]):
        assert float(printed[1]) * 1e9 == bw and float(printed[2].split()[0]) * 1e12 == peak
        flops, link = float(printed[2].split()[0]) * 1e12, float(printed[1]) * 1e9
        width = cost.crossover_width(flops, link, 0.0, 256, 2)
        assert printed[4] == report.two_figures(width)
    pcie = next(r for r in table.rows if "A100 PCIe" in r[0])
    assert pcie[1] == "31.50"
    at = {f"{g}, {link}": 1.5 for g, link, *_ in rows}
    said = verdicts.real_width_sentence(rows, at, 4096, 256)
    assert "(9,905 FLOP a link byte)" in said   # 312 / 31.50, the reader's own division


def _miss(paired=True):
    """``cost.miss``'s figures as session 51's reader saw them (cell 29), unrounded."""
    rank = {"step": 0.02190, "compute": 0.020224, "allreduce": 0.00168, "waited": 0.00003,
            "after_both": 0.001654, "after_other": 0.0, "thread_cpu": 0.020534, "other_threads_cpu": 0.0001}
    other = dict(rank, step=0.0215, compute=0.0200)
    return {"width": 1024, "model_compute": 0.0191752, "model_comm": 0.0011349, "model_step": 0.0214,
            "one": 0.0383504, "others": 0.0, "steal": 0.0, "ranks": [rank, other], "paired": paired,
            "residual": 0.0, "corun": {}, "waiting_core": None, "load": 0.0, "cores": 2, "threads": 1}


def test_the_miss_is_taken_apart_from_the_table_as_printed():
    """Item 5: compute 20.22 against t1/2 19.18 is +1.04 ms; after both 1.65 against 1.13 is +0.52 ms; the
    compute beyond t1/2 and its 5 % is 20.22 - 1.05 x 19.18 = 0.08 ms; the CPU bounds from 2-decimal
    figures."""
    story = " ".join(report.miss_story(_miss(), ""))
    assert "(+1.04 ms)" in story and "(+0.52 ms;" in story
    assert "the compute beyond t1/2 and its 5 % 0.08 ms" in story
    assert ("20.53 ms of CPU over the step on the longer-step rank, for 20.22 ms of compute and 1.68 ms"
            in story)
    assert "between 0.00 ms" in story and "and 1.37 ms" in story   # 20.22 + 1.68 - 20.53
    assert "(off it 0.00 to 1.37 ms, below, which can cover the 0.08 ms beyond t1/2" in story   # not ruled out
    # every part within its allowance: the other branch, still from the printed figures
    calm = _miss()
    for rank in calm["ranks"]:   # both ranks: each step is its compute + its all-reduces, as printed
        rank.update(compute=0.01995, after_both=0.0011349, waited=0.0,   # 19.95: within 1.05 x 19.18
                    step=0.01995 + 0.0011349)   # the step is the wall time; compute is the step less inside
    assert "Every part is within its allowance" in " ".join(report.miss_story(calm, ""))


def test_the_time_inside_the_all_reduces_is_a_share_of_the_window_it_names_and_gives_the_mean_call():
    """Item 7: rank 1's 12.3 ms of a 35.5 ms pass printed 34%, a share of the chart's window (not named);
    now each rank's ms and the window's print beside the share worked from them, and the mean call is the
    printed time inside over the calls: (7.20 + 12.30) / 8 = 2.44 ms."""
    window = (0.0, 0.0362)
    said, mean = verdicts.inside_allreduces({"rank 0": 0.0072 / 0.0362, "rank 1": 0.0123 / 0.0362}, window, 8)
    assert "share of the chart's window (36.20 ms" in said
    assert "rank 0 7.20 ms (20%), rank 1 12.30 ms (34%)" in said   # 12.30 / 36.20 = 0.3398
    assert f"{mean * 1e3:.2f}" == "2.44"
    said, _ = verdicts.inside_allreduces({"rank 1": 0.01234 / 0.0355}, (1.0, 1.0355), 4)
    assert "rank 1 12.34 ms (35%)" in said and "(35.50 ms" in said


def test_lesson_07_cells_work_their_figures_from_the_printed_ones():
    """The cells the reader named (10, 34, 38, 45) call the as-printed helpers, not unrounded quotients."""
    import json
    from pathlib import Path

    nb = json.loads(Path(__file__).parents[1].joinpath("notebooks/07_tensor_parallel.ipynb").read_text())
    code = "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code")
    assert "verdicts.inside_allreduces(comm, window, len(reduces))" in code
    assert "largest['speedup'] / largest['predicted_speedup']" not in code
    # the claims row's share of the prediction: every width's, as printed (t23_0708 #2: model_claims)
    assert 'model_claims.prediction(A["rows"])' in code
    assert "r['one device'] / r['tensor parallel']" not in code
    assert 'row["one device"] / row[method]' not in code
    assert "inference.printed_noise(one_t / tp_t" in code
    assert 'inference.batch_trend(generated["rows"], G.new_tokens)' in code


def test_the_weight_floor_divides_the_printed_megabytes_by_the_printed_bandwidth():
    """The decode table's weight floor: 20.5 MB at 35.2 GB/s is 0.58 ms, from the figures printed beside it."""
    floors = decode.decode_bounds({"bytes": {"one device": {"w": 20.46e6}}}, 35.249e9)
    assert f"{floors['one device'] * 1e3:.3f}" == f"{20.5 / 35.2:.3f}"


def test_the_model_speedup_is_the_width_tables_two_ms_divided():
    """The width table prints 1 device ms and model ms to 2 decimals: the model speed-up beside them is
    their ratio as printed, and the claims row's share of the prediction divides the two x as printed."""
    from utils import claims
    sizes = [1e3, 1e4, 1e5, 1e6]
    got = {"sizes": sizes, "seconds": [1e-4 + s / 1e9 for s in sizes],
           "rows": [{"width": 1024, "one": 0.00202035, "two": 0.026, "bytes": 4e5, "one_rounds": [0.0384] * 4,
                     "two_rounds": [0.026] * 4}]}
    row = cost.analyse(got)["rows"][0]
    one_ms, model_ms = (float(c) for c in report.cost_table({"rows": [row]}, 2.0, "").rows[0][1:4:2])
    assert (one_ms, model_ms) == (2.02, 2.01)   # unrounded 2.02035 / 2.01018 is 1.0051: 1.01x
    assert f"{row['predicted_speedup']:.2f}" == f"{one_ms / model_ms:.2f}" == "1.00"
    assert f"{claims.printed_ratio(1.4649, 1.8851):.0%}" == "77%"   # 1.46 / 1.89, not 1.4649 / 1.8851 (78%)


def test_the_model_ms_and_the_miss_tables_totals_add_up_as_printed():
    """Fifth reading, 07 N3 and N2: width 128's model ms is 2.83 / 2 + 0.58 = 1.995, printed 2.00 (not 1.99
    from the unrounded seconds), and the model speed-up divides the two printed ms; the miss table's totals
    are the sums of their printed parts (0.26 + 1.55 = 1.81 inside; since t23_0708 #6 the step is its wall
    time as printed, 21.30, and the compute 21.30 - 1.81 = 19.49)."""
    assert cost.model_ms(0.0028349, 0.000576) == 2.00   # 2.83 / 2 + 0.58, half-up
    assert cost.model_ms(0.00297, 0.0) == 1.49          # 2.97 / 2 = 1.485: half-up, not a float's 1.48
    got = {"sizes": [1e3, 1e4, 1e5], "seconds": [1e-4 + s / 1e9 for s in (1e3, 1e4, 1e5)],
           "rows": [{"width": 128, "one": 0.0028349, "two": 0.002, "bytes": 2.4e5, "one_rounds": [0.0028] * 4,
                     "two_rounds": [0.002] * 4}]}
    row = cost.analyse(got)["rows"][0]
    cells = report.cost_table({"rows": [row]}, 2.0, "").rows[0]
    one_ms, comm_ms, model_ms = float(cells[1]), float(cells[4]), float(cells[3])
    assert f"{model_ms:.2f}" == f"{cost.model_ms(one_ms * 1e-3, comm_ms * 1e-3):.2f}"
    assert cells[6] == f"{one_ms / model_ms:.2f}x"
    m = _miss()
    m["ranks"][0].update(waited=0.000264, after_both=0.001546, allreduce=0.001804, compute=0.0195, step=0.021304)
    table = report.miss_table(m, "")
    by_row = {row[0].strip(): row[1:] for row in table.rows}
    assert by_row["inside the 2 all-reduces"][1] == "1.81"    # 0.26 + 1.55, not 1.80 from the seconds
    # t23_0708 #6: the step is its wall time as the width table prints it (21.30), and the compute is the
    # step less inside as printed (21.30 - 1.81 = 19.49): the rows still add up, and no step reads 0.01 off
    assert by_row["the split step"][1] == "21.30"
    assert by_row["compute, outside the all-reduces"][1] == "19.49"
    model_rows = (by_row["compute, outside the all-reduces"][0], by_row["inside the 2 all-reduces"][0])
    assert by_row["the split step"][0] == f"{sum(float(c.split()[0]) for c in model_rows):.2f}"
    # printing the printed figures again changes nothing
    again = cost.miss_as_printed(cost.miss_as_printed(m))
    assert again["ranks"][0]["step"] == cost.miss_as_printed(m)["ranks"][0]["step"]


def _width_rows(*columns):
    """``cost.analyse`` rows from the width table's printed ms: (width, one, comm, model)."""
    return [{"width": w, "one": one * 1e-3, "comm": comm * 1e-3, "predicted": model * 1e-3}
            for w, one, comm, model in columns]


SWEEP = ((32, 0.53, 0.31, 0.58), (64, 0.98, 0.34, 0.83), (128, 2.76, 0.40, 1.78), (256, 9.84, 0.52, 5.44),
         (512, 35.82, 0.76, 18.67))


def test_residual_reach_names_only_the_widths_where_the_all_reduces_are_most_of_the_step():
    """Ninth reading, cell 26: "more at small widths, where they are most of it" was fixed text, yet the
    table's all-reduces were 53% of the split step at width 32 only (41% at 64, 22% at 128)."""
    said = verdicts.residual_reach(_width_rows(*SWEEP), 0.37)
    assert "between 1.89x and 1.95x (the all-reduces are 4% of its split step)" in said
    assert said.endswith("the all-reduces are most of the split step at width 32 (53%)")
    assert "64 (" not in said and "where they are most of it" not in said
    wider = _width_rows((32, 0.53, 0.40, 0.60), (64, 0.98, 0.36, 0.70), *SWEEP[2:])   # 67% and 51%
    two = verdicts.residual_reach(wider, 0.37)
    assert two.endswith("most of the split step at widths 32 (67%), 64 (51%)")


def test_residual_reach_says_so_when_no_width_has_the_all_reduces_most_of_the_step():
    """The other outcome: 0.29 / 0.58 prints 50%, half and not most, so no width is named as 'most'."""
    said = verdicts.residual_reach(_width_rows((32, 0.53, 0.29, 0.58), *SWEEP[1:]), 0.37)
    assert said.endswith("at no width swept are they most of it (the largest share, 50%, at width 32)")
    assert "most of the split step at width" not in said


def test_cell_26_prints_the_residual_reach_from_the_run():
    import json
    from pathlib import Path

    nb = json.loads(Path(__file__).parents[1].joinpath("notebooks/07_tensor_parallel.ipynb").read_text())
    code = "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code")
    assert "verdicts.residual_reach(A['rows'], R)" in code
    assert "where they are most of it" not in code


def test_the_step_beside_the_shard_prints_the_difference_the_tolerance_lets_through():
    """Ninth reading, cell 29: "within 5 % of the shard (19.11 against 18.21 ms): the step added nothing
    measurable" named no figure for the 0.90 ms between them; it is printed, with the 0.91 ms tolerance."""
    said = verdicts.step_beside_shard(0.01911, 0.01821)
    assert "(19.11 ms) differs by 0.90 ms from the shard" in said and "tolerance (0.91 ms)" in said
    assert said.endswith("beyond that noise; those 0.90 ms are not timed apart in this run.")
    shorter = verdicts.step_beside_shard(0.01761, 0.01821)   # below the shard: nothing left to time
    assert "differs by 0.60 ms" in shorter and shorter.endswith("beyond that noise.")
    assert verdicts.step_beside_shard(0.01913, 0.01821) is None   # 0.92 ms beyond 0.91: taken apart instead
    # judged as printed: 19.124 - 18.206 is 0.918 unrounded, beyond 0.910, but 19.12 - 18.21 = 0.91 is within
    assert "differs by 0.91 ms" in verdicts.step_beside_shard(0.019124, 0.018206)


def test_the_chained_5_percent_allowances_are_added_up_beside_the_compute_s_miss():
    """Tenth reading, cell 29: the compute was booked as a 0.34 ms miss part (19.39 against 18.14 x 1.05), and
    the evidence said the step "added nothing measurable" (19.39 against 18.51, within 0.93 ms), each link
    passing its 5 %. The evidence now adds the links up: 0.37 + 0.88 = 1.25 ms, beyond t1/2's 0.91 ms."""
    said = verdicts.step_beside_shard(0.019394, 0.018511, 0.018142)
    assert "Added up from t1/2 (18.14 ms), the compute went 0.37 ms to the shard apart, within its 5 % " \
        "(0.91 ms), and 0.88 ms more inside the step, within its 5 % (0.93 ms): 1.25 ms together, beyond " \
        "the 5 % of t1/2 (0.91 ms)" in said
    assert said.endswith("the compute's part of the miss counted above.")
    # no sum told: the sum within t1/2's 5 % (18.14 -> 18.30 -> 18.70), or no t1/2 given
    assert "Added up" not in verdicts.step_beside_shard(0.018701, 0.018301, 0.018142)
    assert "Added up" not in verdicts.step_beside_shard(0.019394, 0.018511)
    # twelfth reading: the shard apart itself beyond t1/2's 5 % (17.00 -> 18.51): the sum is told, that link
    # said by its own verdict, beyond, never "each within"
    beyond = verdicts.step_beside_shard(0.019394, 0.018511, 0.017)
    assert "went 1.51 ms to the shard apart, beyond its 5 % (0.85 ms), and 0.88 ms more" in beyond
