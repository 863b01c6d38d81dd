"""t34_02 #2: a row priced at the probe's own figures is a sum of printed figures, rounded half up as a reader
rounds it: 2 x 0.051 + 2 x (0.475 - 0.051) = 0.950 ms reads 1.0 ms (``round`` gave 0.9), and the share of a
3.6 ms loss is worked from that 1.0: 28%, past the 25% line, not 25%."""
from utils.lessons.model_split import link, runs


def _m1():  # fabricated: batch 32 gpipe m=1, 2 messages, 2 MiB
    return runs.Row(32, 1, "gpipe", 0.01, 0.0125, [0.005, 0.005], speedups=[1.10, 1.2, 1.25, 1.3, 1.35],
                    messages=2, bytes_sent=2 * 2**20)


def test_a_sum_ending_in_5_reads_half_up():
    assert f"{link.probe_link_time(_m1(), 0.051e-3, 0.475e-3, 2**20) * 1e3:.1f}" == "1.0"


def test_the_share_is_worked_from_the_time_as_printed(monkeypatch):
    monkeypatch.setattr(link, "lost_time", lambda r: 3.6e-3)
    assert link.probe_share(_m1(), 0.051e-3, 0.475e-3, 2**20) == 0.28  # 1.0 / 3.6, not 0.9 / 3.6 = 25%


def test_a_sum_under_the_half_still_reads_down():
    # 2 x 0.051 + 2 x 0.423 = 0.948 -> 0.9 ms: half up, not up
    assert f"{link.probe_link_time(_m1(), 0.051e-3, 0.474e-3, 2**20) * 1e3:.1f}" == "0.9"
