"""Twentieth reading (t20_0001), lesson 00: a copy above DRAM's reference, copied again cold, is judged on the
warm - cold drop as printed against the cell's noise (10%), not on the cold share alone."""

from utils.lessons.start_here import summary
from utils.lessons.start_here.cold_copy import Passed

MIB = 2**20
REF = 10.08e9  # the reader's run: DRAM's reference 10.08 GB/s


def test_the_readers_16_mib_copy_dropped_past_the_noise_so_a_cache_held_part_of_it():
    p = Passed(16 * MIB, 12.46e9, 10.79e9, REF)  # warm 124%, cold 107%: 17 points
    said = p.sentence(32 * MIB)
    assert p.grade == "cache"
    assert "warm 12.46 GB/s = 124%" in said and "cold (caches flushed first) 10.79 GB/s = 107%." in said
    assert "Cold it ran slower (warm 124% → cold 107%: 17 points), more than the 10%" in said
    assert "partly held by the 32 MiB L3" in said and "no cache is needed" not in said
    assert p.verdict.startswith("yes: a cache held part of it (warm 124% → cold 107%: 17 points, more than the 10%")


def test_the_readers_64_mib_copy_moved_within_the_noise_so_no_cache_is_shown():
    p = Passed(64 * MIB, 10.51e9, 9.98e9, REF)  # warm 104%, cold 99%: 5 points
    said = p.sentence(32 * MIB)
    assert p.grade == "not shown"
    assert "Warm and cold differ by 5 points, within the 10%" in said
    assert "does not show a cache serving the warm copy" in said and "partly held" not in said
    assert p.verdict == "not shown: warm and cold differ by 5 points, within the 10% one noisy median may miss by"
    assert "yes" not in p.verdict


def test_a_drop_of_exactly_the_noise_is_within_it():
    p = Passed(16 * MIB, 11.09e9, 10.08e9, REF)  # 110% -> 100%: 10 points, not more than 10%
    assert p.grade == "not shown" and "differ by 10 points" in p.verdict


def test_a_cold_copy_past_the_reference_says_the_reference_is_low_and_whether_a_cache_helped_too():
    flat = Passed(16 * MIB, 12.6e9, 12.3e9, REF)  # 125% -> 122%: cold past 110%, 3 points apart
    said = flat.sentence(32 * MIB)
    assert flat.grade == "low" and "the reference is low for this copy" in said
    assert "Warm and cold differ by 3 points, within that 10%: no cache is needed" in said
    assert flat.verdict.startswith("no: the reference is low") and "differ by 3 points" in flat.verdict
    both = Passed(16 * MIB, 15.0e9, 12.6e9, REF)  # 149% -> 125%: cold past 110%, and 24 points down
    said = both.sentence(32 * MIB)
    assert both.grade == "low" and "the reference is low for this copy" in said
    assert "Cold it ran slower (warm 149% → cold 125%: 24 points), more than that 10% too" in said
    assert "no cache is needed" not in said
    assert both.verdict.startswith("partly: the reference is low") and "a cache held part of" in both.verdict


def test_the_claims_row_prints_the_same_shares_and_verdict():
    from utils import machine

    c = machine.Ceiling("matmul peak", "fp32", 1, "1024³", 100e9, 100e9, 0.1, "FLOP/s")
    passed = [Passed(64 * MIB, 10.51e9, 9.98e9, REF)]
    rows = summary.lesson_claims(machine.MachineProfile("cpu", [c]), [], [], None, passed)
    row = next(r for r in rows if "do caches explain it?" in r.claim)
    assert row.measured == "warm 10.51 GB/s = 104%, cold 9.98 GB/s = 99%"
    assert row.verdict.startswith("not shown: warm and cold differ by 5 points")


def test_every_branch_prints_lines_a_reader_can_wrap():
    import textwrap

    for warm, cold in ((12.46e9, 10.79e9), (10.51e9, 9.98e9), (12.6e9, 12.3e9), (15.0e9, 12.6e9)):
        said = Passed(16 * MIB, warm, cold, REF).sentence(32 * MIB)
        assert all(len(line) <= 110 for line in textwrap.wrap(said, 110))
        assert summary.Passed is Passed  # named in summary too, as the notebook calls it


def test_section_3_prints_the_answer_and_the_measured_times_before_the_tests_which_sit_in_its_block():
    """Reader t20_0001 (other 3): five paragraphs of tests came before the times that answer "what does a
    message cost?". The cell now prints the answer, then the times; the tests go into its collapsed block."""
    import json
    from pathlib import Path

    nb = json.loads((Path(__file__).parents[1] / "notebooks" / "00_start_here.ipynb").read_text())
    cell = next("".join(c["source"]) for c in nb["cells"]
                if c["cell_type"] == "code" and "summary.cost_answer(" in "".join(c["source"]))
    printed = [line for line in cell.splitlines() if line.startswith("print(")]
    assert "summary.cost_answer(" in printed[0] and "summary.message_times_sentence(" in printed[1]
    assert len(printed) == 2  # nothing else printed outside the block
    block = cell[cell.index("how_measured("):]
    assert "*tests," in block and cell.index("summary.link_sentence(") < cell.index("how_measured(")
    assert "summary.rerun_link_sentence(" in cell.split("how_measured(")[0]


def test_this_runs_fit_points_to_its_sign_test_inside_the_same_block():
    from utils import machine

    sizes = [4, 4096, 65536, 2**20, 2**24]
    kept = machine.link_fit("gloo", sizes, [100e-6 + n / 4e9 for n in sizes])
    this_run = machine.link_fit("gloo", sizes, [300e-6, 120e-6, 110e-6, 400e-6, 4300e-6])
    said = summary.rerun_link_sentence(kept, this_run)
    assert "(how its misses run: the note under the fit table below)." in said  # t30_0001: no 'both are in ...'
    assert "the block below" not in said
