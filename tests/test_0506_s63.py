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
