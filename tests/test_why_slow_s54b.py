"""Lesson 01, reader t13_0001's four items: the cost table's latency share under the range rule (section 3),
the roof's own probe left out of every count (section 2, section 7, the closing row), the link table's rate at
the sentences' precision, and the activations' growth judged as printed (section 4)."""

from types import SimpleNamespace as NS

from utils.lessons.why_slow import link_report, report, roofline, transfers
from utils.lessons.why_slow.scaling_report import activations_sentence
from utils.tables import Table

SIZES = [8, 512, 4096, 8192, 524288, 2**20]  # the small messages, the ids (8,192 = 512 x 16), the activations


def _link(us, accuracy=0.3, alpha=150.1e-6, beta=2.54e9):
    return NS(name="gloo", fit=NS(sizes=SIZES, alpha=alpha, beta=beta), seconds=[u * 1e-6 for u in us],
              accuracy=accuracy, describe=lambda: "gloo: a fit")


# the reader's run: 512 B took 2,047.3 µs, 4 KiB 137.8 µs, the ids (8 KiB) 203.7 µs
READ = [150.0, 2047.3, 137.8, 203.7, 400.0, 600.0]


def test_the_cost_tables_share_is_the_small_messages_range_where_its_ends_differ():
    """Reader t13_0001 #1: "7%" for 16 x 2,047.3 µs, beside bytes that take 3.3 µs and a fixed cost known only
    to 137.8-2,047.3 µs. By ``latency_range`` (the sentence's and the verdict's rule) it is 7% to 100%."""
    link = _link(READ)
    costs = transfers.batch_costs(link, 16, 64, 128)
    rows = link_report.cost_rows(costs, link, True)
    assert [r[-1] for r in rows[:2]] == ["68% – 100% (capped)", "7% – 100%"]  # 2,047.3 / 2,047.3: the whole, not past it
    assert rows[2][-1] == "34% – 100% (capped)"  # 137.8 / 400.0; 2,047.3 / 400.0 is past the whole
    table = Table(report.COST_COLUMNS, rows, wrap=40).to_text()
    assert max(len(line) for line in table.splitlines()) <= 110
    # the other outcome: small messages that agree to the percent give one figure, as before
    steady = _link([138.0, 138.2, 137.8, 203.7, 440.0, 600.0])
    rows = link_report.cost_rows(transfers.batch_costs(steady, 16, 64, 128), steady, True)
    assert [r[-1] for r in rows] == ["68%", "100%", "31%"]
    # and a batch that beat the fastest small message: no share, as before
    beat = _link([100.0, 95.0, 98.0, 80.0, 3500.0, 7000.0])
    assert link_report.cost_rows(transfers.batch_costs(beat, 16, 64, 128), beat, True)[0][-1].startswith(
        "not measurable (took less than the fastest small-message time); bytes ")


def test_the_link_tables_rate_is_printed_at_the_precision_the_sentences_work_from():
    """Reader t13_0001 #3: the sentence's 2.52 GB/s sat beside the block's 2.521."""
    link = _link(READ[:5] + [1663.8])  # 2^20 bytes in 1,663.8 µs: 0.630 GB/s
    link.fit.sizes = SIZES[:5] + [4 * 2**20]  # 4 MiB in 1,663.8 µs: 2.5209 GB/s
    rates = [row[-1] for row in link_report.link_table(link).rows]
    assert rates[-1] == "2.52" and rates[3] == "0.04"  # 8,192 / 203.7 µs


def add_roof(points=(), retimed=26.0e9):
    bw = NS(name="fp32 memory bandwidth, 1 thread, STREAM add, 32 MiB arrays", size="STREAM add, 32 MiB arrays",
            best=22.3e9, spread=0.05)
    return NS(from_profile=True, bandwidth=bw, retimed=(None, NS(best=retimed)), threads=1, points=list(points),
              ceilings=NS(flops=73.0e9, bandwidth=22.3e9, peak_name="peak", bandwidth_name=bw.name),
              RETIMED="the same probe timed beside the ops, this run", peak=None)


def memory_point(name, numel, share, roof, inputs=2, spread=0.05):
    op = roofline.Op(name, numel, 4 * numel * (inputs + 1), lambda: None, written=4 * numel)
    return NS(op=op, fraction=share, spread=spread, achieved=share * op.intensity * roof.bandwidth.best,
              bound="memory")


def _points(add_share):
    roof = add_roof()
    add = memory_point("add", 8_388_608, add_share, roof)  # STREAM add on its 32 MiB arrays: the probe
    others = [memory_point(n, 8_388_608, s, roof, inputs=1) for n, s in (("gelu", 0.09), ("softmax", 0.67))]
    roof.points = [add, *others]
    return roof, add


def test_the_roofs_own_probe_is_no_evidence_on_either_side_of_100_percent():
    """Reader t13_0001 #2: add at 96% was counted "under its roof, as the roofline says"; at 109% it was "one
    kernel timed twice". The probe test now comes first, and the probe is left out of every count and range."""
    for share in (0.96, 1.09):
        roof, add = _points(share)
        assert report.memory_grade(add, roof) == "probe"
        assert "as the roofline says" not in report.memory_reading(add, roof)
        row = report.memory_claim(roof)
        assert row.verdict == ("2 of 2 under the roof (add, the roof's own STREAM kernel, left out: one kernel "
                               "timed twice)")
        assert row.measured == "9% - 67% of the roof" and "(2 ops)" in row.claim
        said = report._against_limit(roof.points, roof)
        assert said == ("here 2 of 2 ran under that limit; add, the roof's own STREAM kernel, left out: one "
                        "kernel timed twice")
    # an add that is not the probe (other arrays) is counted as before
    roof = add_roof()
    other = memory_point("add", 4_194_304, 0.96, roof)
    roof.points = [other]
    assert report.memory_grade(other, roof) == "under" and report.memory_claim(roof).verdict == "1 of 1 under the roof"


def test_the_roofline_sentence_reads_the_nearest_op_that_is_not_the_probe(monkeypatch):
    roof, add = _points(0.96)
    roof.points.append(NS(bound="compute", op=NS(name="matmul 1024", flops=2e9)))
    monkeypatch.setattr(report, "largest_matmul_reading", lambda *a, **k: "")
    said = report.roofline_readings(roof)
    assert "softmax ran at 67% of its memory roof: at or under it, as the roofline says." in said
    assert "add ran at 96% of its memory roof; it is the roof's own probe" in said
    # against the probe re-timed at 26.0: 0.0833 x 26.0 = 2.2 GFLOP/s, 1.8 / 2.2 = 82%, beyond both
    # spreads (5%, 0%) (t14 #4); worked in GFLOP/s, as the head's 96% and the table's share are (t15_0001 #1)
    assert ("the same kernel timed in the same rounds (26.0 GB/s), its roof is 0.0833 × 26.0 GB/s = "
            "2.2 GFLOP/s and it reads 1.8 / 2.2 GFLOP/s = 82%, beyond both timings' spreads") in said
    assert "add ran at 96% of its memory roof: at or under it" not in said


def _series(**grew):
    """Each axis's first and last point: the axis grows by ``size``, the saved bytes by ``act``."""
    return {axis: [NS(value=1, saved_bytes=1000), NS(value=size, saved_bytes=1000 * act)]
            for axis, (size, act) in grew.items()}


def test_the_activations_growth_is_judged_as_printed_and_each_axis_named_by_its_side():
    """Reader t13_0001 #4: "the parts that do not grow with an axis (the logits) keep a ratio under it" beside
    "context x8: activations x8.0"; and "faster" was judged with a hidden 10 % margin."""
    said = activations_sentence(_series(width=(4, 3.9), depth=(6, 5.3), context=(8, 8.0)))
    assert "context x8: activations x8.0" in said and "None grew faster than its axis" in said
    assert "context grew them as fast as its axis." in said
    assert ("width and depth keep a ratio under theirs: some saved parts do not grow with them (the logits, "
            "batch x tokens x vocabulary, for one).") in said
    # x8.6 on a x8 axis, as printed: faster (the old rule, act > 1.1 x size, called it not faster)
    faster = activations_sentence(_series(width=(4, 3.9), depth=(6, 5.3), context=(8, 8.6)))
    assert "None grew faster" not in faster and "context grew them faster than the axis itself" in faster
    # x8.04 prints as x8.0: at its axis, not faster
    assert "None grew faster" in activations_sentence(_series(context=(8, 8.04)))
    under = activations_sentence(_series(context=(8, 7.2)))
    assert "context keeps a ratio under its own: some saved parts do not grow with it." in under
    assert "logits" not in under  # the logits grow with context
