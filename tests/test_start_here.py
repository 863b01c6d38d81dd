"""Unit tests of utils.lessons.start_here (lesson 00): regimes of a CPU copy, the α + n/β fit over all sizes,
the gloo loopback path, and figures that draw a bound only where it is one. No timing is asserted."""

import pytest

from utils import devices
from utils.lessons.start_here import bandwidth, loopback, regimes
from utils.lessons.start_here.bandwidth import CopyPoint
from utils.linkmodel import fit_alpha_beta

KIB, MIB = 2**10, 2**20
CACHES = {"L1d": 32 * KIB, "L2": 1 * MIB, "L3": 32 * MIB}
REGIMES = [regimes.Regime("L2", MIB, 70e9, False), regimes.Regime("L3", 32 * MIB, 60e9, False),
           regimes.Regime("DRAM", None, 12e9, True)]


def test_a_copy_lives_where_half_a_cache_holds_its_source_and_destination():
    assert [regimes.regime_of(n, REGIMES).name for n in (64 * KIB, 256 * KIB, 1 * MIB, 4 * MIB, 16 * MIB, 64 * MIB)] \
        == ["L2", "L2", "L3", "L3", "DRAM", "DRAM"]
    assert regimes.regime_of(MIB, REGIMES[-1:]).name == "DRAM"  # no cache readable: DRAM for every size


def test_only_dram_is_a_bound_and_references_are_measured_on_this_machine():
    got = regimes.measure_regimes(4 * MIB, caches=CACHES, repeats=2)
    assert [r.name for r in got] == ["L2", "L3", "DRAM"] and [r.is_bound for r in got] == [False, False, True]
    assert all(r.reference > 0 for r in got)
    assert "not a bound" in got[0].note and "bound" in got[-1].note
    assert [r.name for r in regimes.measure_regimes(MIB, caches={}, repeats=1)] == ["DRAM"]


def test_the_table_flags_a_copy_above_a_bound_and_not_above_a_reference():
    points = [CopyPoint("host memcpy", 64 * KIB, 64 * KIB / 90e9, 70e9, "L2", False),
              CopyPoint("host memcpy", 64 * MIB, 64 * MIB / 13e9, 12e9, "DRAM", True)]
    rows = bandwidth.points_table(points).rows
    assert rows[0][4] == "L2 reference" and "flagged" not in rows[0][-1]
    assert rows[1][4] == "DRAM bound" and "ABOVE BOUND" in rows[1][-1]


def test_the_fit_covers_every_size_and_reports_each_residual():
    sizes = [4, 4 * KIB, 64 * KIB, MIB, 16 * MIB]
    points = [CopyPoint(loopback.PATH, n, 100e-6 + n / 2e9, None) for n in sizes]
    fit = bandwidth.fit_path(points, loopback.PATH)
    assert fit.sizes == tuple(sizes) and fit.alpha == pytest.approx(100e-6) and fit.beta == pytest.approx(2e9)
    table = bandwidth.fit_table({loopback.PATH: fit})
    assert "res. 4 B" in table.columns and table.rows[0][1] == "100.0" and set(table.rows[0][4:]) <= {"+0%", "-0%"}


def test_the_plot_draws_a_bound_dashed_and_a_reference_dotted_each_over_its_own_sizes():
    sizes = [64 * KIB, 256 * KIB, MIB, 4 * MIB, 16 * MIB, 64 * MIB]
    points = [CopyPoint("host memcpy", n, n / 30e9, regimes.regime_of(n, REGIMES).reference,
                        regimes.regime_of(n, REGIMES).name, regimes.regime_of(n, REGIMES).is_bound) for n in sizes]
    fits = {"host memcpy": fit_alpha_beta(sizes, [p.seconds for p in points])}
    ax = bandwidth.plot_copies(points, simulated=True, fits=fits)
    spans = {c.get_label(): c for c in ax.collections}  # hlines
    dram = next(c for label, c in spans.items() if "DRAM bound" in label)
    (segment,) = dram.get_segments()
    assert segment[0][0] > 4 * MIB and segment[1][0] > 64 * MIB  # only over the DRAM sizes
    assert dram.get_linestyle()[0][1] is not None  # dashed
    assert any("not a bound" in label for label in spans) and ax.get_yscale() == "log"
    assert any("fitted" in line.get_label() for line in ax.lines)


@pytest.mark.timeout(60)
def test_the_gloo_path_is_timed_between_two_processes(cpu_mode_and_no_leftovers):
    points = loopback.measure_loopback([4, 64 * KIB], repeats=2)
    assert [p.path for p in points] == [loopback.PATH] * 2 and all(p.seconds > 0 and p.bound is None for p in points)
    copies = [CopyPoint("host memcpy", 64 * KIB, 2e-6, None)]
    (row,) = loopback.compare_table(copies, points).rows
    assert row[0] == "64 KiB"


def test_the_hardware_report_names_the_cpu_vector_isa():
    isa = devices.cpu_isa()
    import torch

    assert isa.startswith(torch.backends.cpu.get_cpu_capability())
    assert ("CPU vector ISA", isa) in devices.detail_rows(devices.hardware())
