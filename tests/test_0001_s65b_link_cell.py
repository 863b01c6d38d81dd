"""Reader t27_0001 (lesson 01, section 3): the token-ids row said "not measurable" beside a claims row that
said "holds" for the same message. Where a message beat the latency counted, the table's cell now carries the
bytes' argument the verdict rests on, with the verdict's own test, so that the two places give one answer."""

from utils import machine
from utils.lessons.why_slow import link_report, transfers

SIZES = [8, 512, 4096, 8192, 16384, 65536, 262144, 524288, 2**20, 2**22, 2**24]


def _beaten():
    """A fabricated run: 8,192 bytes in 75.4 µs, under the 91.3 µs fastest small message (share 121%)."""
    us = [92.6, 91.3, 92.2, 75.4, 72.2, 80.7, 125.2, 184.1, 442.1, 1427.3, 6254.0]
    link = machine.link_fit("gloo loopback, 2 processes", SIZES, [u * 1e-6 for u in us])
    return link, transfers.batch_costs(link, 16, 64, 128)[0]


def test_a_message_that_beat_latency_names_its_bytes_in_the_cell_and_the_verdict_alike():
    link, ids = _beaten()
    cell = link_report.share_range_cell(link, ids)
    assert cell.startswith("not measurable (took less than the fastest small-message time); bytes ")
    assert cell.endswith(" µs of 75.4 µs: latency dominates")
    verdict = link_report.mostly_latency_verdict(link, ids)
    assert verdict.startswith("holds") and cell.split("; ")[1].split(":")[0] in verdict  # the same bytes figure


def test_where_the_bytes_take_half_or_more_the_cell_gives_their_share_as_the_verdict_does(monkeypatch):
    link, ids = _beaten()
    # a rate at which 8,192 bytes take 60 of 75.4 µs: the bytes, not latency, dominate
    monkeypatch.setattr(link_report, "_bytes_rate", lambda link: (8192 / 60e-6, "β"))
    cell = link_report.share_range_cell(link, ids)
    assert cell.endswith("bytes 60.0 µs of 75.4 µs: the bytes take 80% of its time")
    assert link_report.mostly_latency_verdict(link, ids).startswith("does not hold")


def test_a_share_within_the_whole_keeps_its_figure_and_no_bytes_argument():
    steady = machine.link_fit("gloo", SIZES, [80e-6 + n / 3.5e9 for n in SIZES])
    cells = [link_report.share_range_cell(steady, c) for c in transfers.batch_costs(steady, 16, 64, 128)]
    assert all(c.endswith("%") and "bytes" not in c for c in cells)


def test_the_links_answer_can_leave_its_shape_to_the_block_and_the_block_gets_it_whole():
    """Reader t27_0001 (length): section 3's answer is shown short; the sizes the fit misses (a falling rate, a
    smaller message slower than a larger one) go to the block, the same words as before."""
    from utils.lessons.why_slow import report

    link, _ = _beaten()
    costs = transfers.batch_costs(link, 16, 64, 128)
    whole, short = report.link_sentence(link, costs, True), report.link_sentence(link, costs, True, shape=False)
    shape = report.link_shape_sentence(link)
    assert shape and shape in whole and shape not in short  # 8 B and 4 KiB took longer than 8 KiB here
    assert whole.replace(" " + shape, "") == short
    steady = machine.link_fit("gloo", SIZES, [80e-6 + n / 3.5e9 for n in SIZES])
    assert report.link_shape_sentence(steady) == ""  # rising rate, no slower message: nothing to add
    steady_costs = transfers.batch_costs(steady, 16, 64, 128)
    assert report.link_sentence(steady, steady_costs, True) == report.link_sentence(steady, steady_costs, True,
                                                                                     shape=False)


def test_section_5s_answer_is_the_count_of_its_verdicts():
    from types import SimpleNamespace as NS
    from utils.lessons.why_slow import report

    def pair(fast, faster, verdict):
        return NS(fast=fast, faster=faster, verdict=verdict, same_result=True, max_difference=1e-7)

    said = report.algorithms_answer([pair("a", True, "faster"), pair("b", True, "faster")])
    assert said == ("What a better algorithm bought in this run (the table above; each pair in the block below): "
                    "every rewritten version was faster, for the same result (every pair within 1e-05).")
    mixed = report.algorithms_answer([pair("a", True, "faster"), pair("b", False, "within noise: no effect")])
    assert "1 of 2 rewritten versions were faster here; 1 within noise" in mixed
