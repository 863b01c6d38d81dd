"""Lessons 05 and 06, twenty-fifth reading (t25_0506)."""

from utils.lessons.memory import summary


def test_two_threads_slower_beyond_noise_are_called_slower_not_no_faster():
    # t25_0506 #1: 0.28x ± 0.01, every round far below 1x, was printed "no faster on 2 threads"
    said = summary.threads_reading([0.27, 0.28, 0.28], 2, 3.5)
    assert "0.28x ± 0.01" in said and "slower than one thread beyond noise: no speed-up" in said
    assert "no faster" not in said


def test_two_threads_below_1x_within_noise_but_every_round_below_say_so():
    said = summary.threads_reading([0.80, 0.95, 0.99], 2, 1.0)   # 0.95x ± 0.10 reaches 1x
    assert "slower than one thread: no speed-up (every round below 1.00x)" in said
    assert "beyond noise" not in said


def test_the_load_average_is_a_figure_beside_the_verdict_not_its_cause():
    for rounds in ([0.27, 0.28, 0.28], [0.9, 1.0, 1.2], [1.29, 1.30, 0.79]):
        said = summary.threads_reading(rounds, 2, 3.5)
        assert said.endswith("; the load average was 3.5 on 2 cores (this notebook's own threads counted in it): "
                             "the cause is not timed apart here")
        assert "other programs" not in said and "a host with free cores" not in said
    assert summary.threads_reading([1.5, 1.6, 1.7], 2, 3.5).endswith("; more threads divide the step")


# t25_0506 #2: the sweep's own two batches give a link ratio too, printed beside the paired rounds'

from utils.lessons.data_prefetch.transfer import Compression, sweep_ratio_reading   # noqa: E402


def _rounds(float_ms: list[float], uint8_ms: list[float]) -> Compression:
    n = len(float_ms)
    return Compression(4 * 4_816_896, 4_816_896, [f / 1e3 for f in float_ms], [u / 1e3 for u in uint8_ms],
                       [3e-3] * n)


def test_a_sweep_ratio_past_the_bound_and_outside_the_rounds_is_called_a_disagreement():
    c = _rounds([8.545, 8.754, 9.069], [2.158, 2.369, 2.012])   # link ratios 3.96x, 3.70x, 4.51x
    said = sweep_ratio_reading(c, 7.843e-3, 1.602e-3)
    assert said.startswith("the sweep's own two batches give 7.843 / 1.602 = 4.90x for the link alone, past the "
                           "bytes' ratio, 4x, and outside the paired rounds' 3.96x ± 0.55 (3.41-4.51x)")
    assert said.endswith("the two measurements disagree by more than the rounds' ±, so this run shows the link's "
                         "play, not the model's ceiling kept or broken")


def test_a_sweep_ratio_inside_the_rounds_band_agrees():
    c = _rounds([8.545, 8.754, 9.069], [2.158, 2.369, 2.012])
    said = sweep_ratio_reading(c, 7.8e-3, 2.0e-3)   # 3.90x
    assert said.endswith("within the bytes' ratio, 4x, and within the paired rounds' 3.96x ± 0.55 (3.41-4.51x): "
                         "the two measurements agree")


def test_a_sweep_ratio_under_the_rounds_band_and_all_under_the_bound_is_a_disagreement_only():
    c = _rounds([8.0, 8.0, 8.0], [2.4, 2.45, 2.5])   # 3.33x, 3.27x, 3.20x: band wholly under 4x
    said = sweep_ratio_reading(c, 8.0e-3, 4.0e-3)   # 2.00x
    assert "= 2.00x for the link alone, within the bytes' ratio, 4x, and outside" in said
    assert said.endswith("disagree by more than the rounds' ±")


# t25_0506 #3: section 4 sets the sampled mean beside its timed share, as section 1 does, naming its line

from _prefetch_fixtures import recording as _recording, two_step_epoch as _epoch   # noqa: E402

from utils.lessons.data_prefetch import busy   # noqa: E402


def test_the_sampled_mean_names_which_line_of_the_chart_it_reads():
    recording = _recording(((0.0, 0.0), (0.1, 50.0), (0.2, 98.0), (0.3, 98.0), (0.4, 98.0), (0.5, 98.0)))
    said = busy.sampled_against_timed(recording, _epoch(0.1, 0.5), "2 persistent workers + Prefetcher")
    assert said.startswith("The recording below (its 2 persistent workers + Prefetcher line) samples the simulated "
                           "device's busy share")
    assert "the mean of its points, 98%" in said
    plain = busy.sampled_against_timed(recording, _epoch(0.1, 0.5))
    assert plain.startswith("The recording below samples the simulated device's busy share")


# lesson 05 cell 49 (t25_0506 other): the wall time beside the reads' CPU work, printed to 2 decimals, no cause

from utils.lessons.data_prefetch.ranks import wall_reading   # noqa: E402


def test_a_wall_time_past_the_cpu_work_gives_its_ratio_and_share_without_a_cause():
    said = wall_reading(1.72, 1.54)
    assert said == (", 1.12x its CPU work: 10% of the wall time went to something else (the loader's own batching, "
                    "or the cores taken by other work: not timed apart here)")
    assert "other programs" not in said


def test_a_wall_time_within_1_10x_of_the_cpu_work_adds_nothing():
    assert wall_reading(1.69, 1.54) == ""   # 1.097 prints 1.10: not past it
    assert wall_reading(1.54, 1.54) == ""


# lesson 05 cell 55 (t25_0506 other): the tie names the quickest count, both ways round

from utils.lessons.data_prefetch.plan import ranks_note   # noqa: E402


def test_a_tie_with_the_start_count_names_which_count_was_quickest():
    other = ranks_note({0: [2.06] * 3, 1: [2.12] * 3, 2: [2.05] * 3}, 2, simulated=True)
    assert ("Section 6's 0 a rank, where the two-GPU column starts, was within noise of section 6's quickest "
            "count by its median, 2 a rank (") in other and "its quickest epochs" not in other
    itself = ranks_note({0: [2.00] * 3, 1: [2.03] * 3}, 2, simulated=True)
    assert "0 a rank, where the two-GPU column starts, was section 6's quickest count by its median, within " \
           "noise of the others (2.00 s with 0, 2.03 s with 1 a rank, each the median of its epochs)" in itself


def test_the_points_between_the_sampled_and_the_timed_share_are_worked_from_the_printed_figures(monkeypatch):
    """t37_0506 #3: "98%, is 0 points from the timed 99%" (98.4 against 98.6 unrounded): the gap is now worked
    from the two whole per cents as printed, as a reader works it."""
    from types import SimpleNamespace
    monkeypatch.setattr(busy, "device_busy", lambda recording, result: (None, None, [98.4]))
    monkeypatch.setattr(busy, "sampled_mean", lambda points: points[0])
    said = busy.sampled_against_timed(SimpleNamespace(simulated=True), SimpleNamespace(busy_between_steps=0.986))
    assert "the mean of its points, 98%, is 1 point from the timed 99%" in said
    monkeypatch.setattr(busy, "device_busy", lambda recording, result: (None, None, [98.5]))
    said = busy.sampled_against_timed(SimpleNamespace(simulated=True), SimpleNamespace(busy_between_steps=0.986))
    assert "the mean of its points, 99%, is 0 points from the timed 99%" in said  # 98.5 half up: 99
