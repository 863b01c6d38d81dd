"""Lesson 01, reader t15_0001's two new items: the roof's own probe's share is worked on one route (GFLOP/s
as the table prints them, never the op's GB/s beside the roof's GB/s), and the cost table's prediction for a
batch in pieces is pieces x one piece's prediction as printed ("16 x 91.6 µs = 1,465.6 µs")."""

import re
from types import SimpleNamespace as NS

from utils.lessons.why_slow import link_report, memory_roof, report, roofline, transfers
from utils.tables import Table

N = 8_388_608  # add on 32 MiB arrays: the STREAM probe's own kernel


def _roof(retimed_gbs=26.6, retimed_spread=0.19):
    bw = NS(name="fp32 memory bandwidth, 1 thread, STREAM add, 32 MiB arrays",
            size="STREAM add, 32 MiB arrays", best=30.2e9, spread=0.11)
    again = NS(name="memory bandwidth, the same probe timed beside the ops, this run", size=bw.size,
               best=retimed_gbs * 1e9, spread=retimed_spread)
    return NS(from_profile=True, bandwidth=bw, retimed=(NS(best=98.7e9, spread=0.10), again), threads=1,
              points=[], ceilings=NS(flops=99.1e9, bandwidth=30.2e9), RETIMED=memory_roof.__name__)


def _add_point(gflops=1.9, spread=0.07):
    """A real ``roofline.Point``: add at ``gflops`` against 0.0833 x 30.2 = 2.517 GFLOP/s (printed 2.5)."""
    op = roofline.Op("add", N, 12 * N, lambda: None, written=4 * N)
    return roofline.Point(op, N / (gflops * 1e9), spread, op.intensity * 30.2e9, "memory")


def _shares(text):
    return re.findall(r"(\d+\.\d) / (\d+\.\d) GFLOP/s = (\d+)%", text)


def test_the_probes_share_and_its_re_timed_share_follow_from_the_gflops_printed():
    """The reader's run: "add ran at 76% of its memory roof" (1.9 / 2.5, the table's row) beside "22.8 GB/s"
    and the roof's 30.2 GB/s (22.8 / 30.2 = 75%). The sentence now prints no GB/s of the op: the re-timed
    comparison is worked like the table's, 0.0833 x 26.6 GB/s = 2.2 GFLOP/s and 1.9 / 2.2 = 86%."""
    roof, add = _roof(), _add_point()
    row = roofline.points_rows([add])[0]
    assert row[5:8] == ("1.9", "2.5", "76%")  # the table: 1.9 / 2.5 = 76%
    said = report.memory_reading(add, roof)
    assert said.startswith("add ran at 76% of its memory roof; it is the roof's own probe")
    assert ("against the same kernel timed in the same rounds (26.6 GB/s), its roof is 0.0833 × 26.6 GB/s = "
            "2.2 GFLOP/s and it reads 1.9 / 2.2 GFLOP/s = 86%, within the larger of the two timings' spreads "
            "(add 7%, the probe 19%): not a finding.") in said
    assert "22.8" not in said and "FLOPs per byte is" not in said  # no second route to the share
    for over, under, pct in _shares(said):  # every share printed follows from its printed operands, half up
        assert int(float(over) / float(under) * 100 + 0.5) == int(pct)
    assert report.memory_verdict(add, roof).startswith("76%: the roof's own probe timed twice, within")


def test_the_probe_beyond_both_spreads_and_above_the_re_timed_roof_keep_the_one_route():
    """The other outcomes: spreads too small to cover the gap (1.9 / 2.2 = 86%, add 3%, the probe 5%), and a
    probe re-timed slower than the op ran (0.0833 x 20.0 = 1.7 GFLOP/s: 1.9 / 1.7 = 112%)."""
    tight = report.memory_reading(_add_point(spread=0.03), _roof(retimed_spread=0.05))
    assert ("1.9 / 2.2 GFLOP/s = 86%, beyond both timings' spreads (add 3%, the probe 5%): one kernel at one "
            "moment, a gap this run does not explain.") in tight
    assert "not a finding" not in tight
    above = report.memory_reading(_add_point(spread=0.15), _roof(retimed_gbs=20.0, retimed_spread=0.05))
    assert "its roof is 0.0833 × 20.0 GB/s = 1.7 GFLOP/s and it reads 1.9 / 1.7 GFLOP/s = 112%" in above
    assert "within the larger of the two timings' spreads (add 15%, the probe 5%): not a finding." in above
    assert memory_roof.probe_beside_itself(_add_point(spread=0.15), _roof(20.0, 0.05))[0] == 1.12


def _link(us, alpha=91.5e-6, beta=4.52e9):
    sizes = [8, 512, 4096, 8192, 16384, 524288]
    return NS(name="gloo", fit=NS(sizes=sizes, alpha=alpha, beta=beta), seconds=[u * 1e-6 for u in us],
              accuracy=0.34, describe=lambda: "gloo: a fit")


def test_the_pieces_prediction_is_pieces_times_the_printed_piece():
    """The reader's run: α 91.5 µs, β 4.52 GB/s give 512 bytes 91.613 µs, printed 91.6; the row predicted
    1,465.8 µs (16 x 91.613) where 16 x 91.6 = 1,465.6. Now the cell works it as the measured column does."""
    link = _link([104.2, 94.2, 107.0, 110.2, 90.2, 178.5])
    costs = transfers.batch_costs(link, 16, 64, 128)
    rows = link_report.cost_rows(costs, link, True)
    assert rows[1][2] == "16 x 94.2 µs = 1,507.2 µs, computed"
    assert rows[1][3] == "16 x 91.6 µs = 1,465.6 µs ±34%"
    assert rows[0][3] == "93.3 µs ±34%" and rows[2][3] == "207.5 µs ±34%"  # one transfer: as before
    assert f"{16 * transfers.us(transfers.printed_time(link.fit, 512)):,.1f}" == "1,465.6"
    assert max(len(line) for line in Table(report.COST_COLUMNS, rows, wrap=40).to_text().splitlines()) <= 110
    # another fit, whose piece rounds up (α 80.05 µs prints 80.1, 512 / 5.0 GB/s = 0.1 µs): 16 x 80.2
    other = _link([90.0, 85.0, 95.0, 100.0, 88.0, 170.0], alpha=80.05e-6, beta=5.0e9)
    row = link_report.cost_rows(transfers.batch_costs(other, 16, 64, 128), other, True)[1]
    one, total = re.match(r"16 x ([\d.]+) µs = ([\d,.]+) µs", row[3]).groups()
    assert f"{16 * float(one):,.1f}" == total
    assert link_report.cost_rows(transfers.batch_costs(other, 16, 64, 128), other, False)[1][3] == (
        "cannot predict")
