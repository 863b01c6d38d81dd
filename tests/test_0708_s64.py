"""Twenty-sixth reading, lessons 07 and 08: section 1's caption names the rank that ended last (07 cell 10),
and lesson 08's ledger record keeps each step's spread and rounds and its probe size, for lesson 09."""

from utils.lessons.tensor_parallel import timelines, verdicts
from utils.timeline import Span

SPLIT, ALONE = [0.0216, 0.0385], [0.0250, 0.0268]


def _span(rank, name, start, end, k=None):
    return Span(f"rank {rank} (cpu)", name, k, start, end)


def _caption(spans):
    """The caption as cell 10 builds it from one drawn pass's spans."""
    rank_0 = timelines.pass_bounds([s for s in spans if s.device.startswith("rank 0")])
    window = (min(s.start for s in spans), max(s.end for s in spans))
    drawn = rank_0[0][1] - rank_0[0][0]
    return verdicts.drawn_pass_caption(1, [drawn], SPLIT, ALONE, window[1] - window[0],
                                       rank_0[0][0] - window[0], timelines.late_return_at_end(spans))


def test_rank_0_ending_last_leaves_the_whole_difference_to_rank_1s_lead():
    """t26_0708 #1: rank 1 started 0.004 ms before rank 0 (printed 0.00), and rank 0 stayed 2.04 ms in the
    last all-reduce after rank 1 had returned, so rank 0 ended last; the window (23.70 ms) printed 0.01 ms
    longer than rank 0's pass (23.69 ms). The caption gave the 0.01 ms and rank 0's 2.04 ms to rank 1."""
    spans = [_span(0, "attention", 0.000004, 0.0100, 0), _span(1, "attention", 0.0, 0.0100, 0),
             _span(0, "all-reduce", 0.0100, 0.02364), _span(1, "all-reduce", 0.0100, 0.0216),
             _span(0, "ffn", 0.02364, 0.023698, 0), _span(1, "ffn", 0.0216, 0.0217, 0)]
    assert abs(timelines.late_return_at_end(spans) - 0.00204) < 1e-9   # rank 0's, the row that ends last
    said = _caption(spans)
    assert ("The chart's window is longer, 23.70 ms from the first span to the last on either rank, against "
            "rank 0's pass of 23.69 ms: rank 1 started 0.01 ms before rank 0; the timed rounds") in said
    assert "ended" not in said.split("window is longer")[1] and "late return" not in said


def test_rank_0_ending_last_with_a_printed_lead_says_the_lead_alone():
    # rank 1 1.10 ms ahead; rank 0 ends the window: the difference is the lead, whatever rank 0's late return
    said = verdicts.drawn_pass_caption(1, [0.0241], SPLIT, ALONE, 0.0252, 0.0011, 0.0030)
    assert "rank 1 started 1.10 ms before rank 0; the timed rounds" in said
    assert "ended" not in said.split("window is longer")[1]


def test_rank_1_ending_last_keeps_its_late_return_and_its_lead():
    # rank 1 ends 0.03 ms after rank 0, 0.01 ms of it a late return; it started 0.02 ms ahead
    said = verdicts.drawn_pass_caption(1, [0.03412], SPLIT, ALONE, 0.03417, 0.00002, 0.00001)
    assert ("rank 1 started 0.02 ms before rank 0 and ended 0.03 ms after rank 0, having stayed 0.01 ms in the "
            "pass's last all-reduce after rank 0 had returned (a late return), and its last sub-layer ended "
            "0.02 ms later;") in said
    # rank 1 starting with rank 0 and ending last without a late return: its last sub-layer ended later
    said = verdicts.drawn_pass_caption(1, [0.03412], SPLIT, ALONE, 0.03415, 0.0, 0.0)
    assert "rank 1 ended 0.03 ms after rank 0: its last sub-layer ended later" in said
    assert "started" not in said.split("window is longer")[1]


def _ledger_rows():
    from utils import claims

    def step(name, ratios, kept):
        ratios = sorted(ratios)
        return {"step": name, "x_prev": ratios[len(ratios) // 2], "ratios": ratios, "kept": kept,
                "noise": claims.printed_spread(ratios), "x_base": 1.0, "mfu": float("nan")}
    return [{"step": "baseline", "x_prev": 1.0, "ratios": [], "kept": True, "x_base": 1.0, "mfu": float("nan")},
            step("precision", [1.80, 1.84, 1.90], True),
            step("two devices", [1.23, 1.28, 1.31], True),
            {"step": "memory", "skipped": "it fits"},
            step("compile", [0.97, 1.00, 1.02], False)]


def test_the_ledger_record_keeps_each_steps_spread_and_rounds_and_the_probe_size(tmp_path, monkeypatch):
    """t26_0708 #2: lesson 09 quoted lesson 08's two-device step (1.28x ± 0.04 here) with its 2% floor,
    ± 0.03, because the record kept no steps; and #3: it wrote 512³ for the probe lesson 08 timed on 1024³."""
    from utils import ledger
    from utils.lessons.articles_checked import capstone
    from utils.lessons.putting_it_together import report

    monkeypatch.setenv(ledger.ENV, str(tmp_path))
    entry = report.record(_ledger_rows(), 1024)
    two = entry["steps"]["two devices"]
    assert two == {"value": 1.28, "x_previous": 1.28, "spread": 0.04, "rounds": [1.23, 1.28, 1.31],
                   "kept": True}
    assert set(entry["steps"]) == {"precision", "two devices", "compile"}   # measured steps only
    assert entry["steps"]["compile"]["kept"] is False and entry["steps"]["precision"]["spread"] == 0.05
    assert entry["probe_size"] == 1024
    assert "two devices 1.28x" in entry["what"] and entry["lesson"] == "08"   # the fields kept as they were
    # lesson 09 now reads the step's own ±, not its floor
    assert capstone.two_devices_spread(entry) == (0.04, True)
    assert "1.28x ± 0.04 (its 3 paired rounds' spread)" in capstone.two_devices_text(entry)
    # without a probe size, no such field
    assert "probe_size" not in report.record(_ledger_rows())


def test_the_gap_less_the_all_reduce_keeps_the_gaps_one_decimal():
    """t26_0708 other (from t25): "the other 27.36 ms" was worked from a gap printed "32.1 ms"; a figure
    worked from a one-decimal figure prints one decimal."""
    from utils.lessons.putting_it_together import allreduce_fit

    said = allreduce_fit.against_gap((198e-6, 2.84e9, 0.47), 12.9e6, 32.1, "the rest")
    assert "at 0.20 + 4.54 = 4.74 ms" in said
    assert "15% of the gap, if none of it hid behind backward; the other 27.4 ms are the rest" in said
    assert "27.36" not in said


def test_the_excess_a_call_is_not_read_as_the_calls_price():
    """t26_0708 other (from t25): "beyond their price (0.35 ms a call)" read as a price of 0.35 ms a call;
    the price was 0.20 ms a call and 0.35 the excess over it."""
    from utils.lessons.tensor_parallel import decode_loss

    inside = {"rank 0": 5.07e-3, "rank 1": 5.10e-3, "both inside": 4.38e-3, "calls": 8.0}
    said = decode_loss.largest_part(5.70e-3, inside, 1.59e-3, 0.47, None)   # 4.38 - 1.59 = 2.79 ms, / 8
    assert "beyond their price (an excess of 0.35 ms a call)" in said, said


def _waterfall(optimizer=1.05, compile_x=0.97):
    return [{"step": "baseline", "kept": True, "x_prev": 1.0, "x_base": 1.0, "bound": None},
            {"step": "precision", "kept": True, "x_prev": 1.48, "bound": 2.84, "noise": 0.05},
            {"step": "optimizer", "kept": True, "x_prev": optimizer, "bound": 1.13, "noise": 0.02},
            {"step": "two devices", "kept": True, "x_prev": 1.28, "bound": 2.00, "noise": 0.04, "x_base": 1.99},
            {"step": "compile", "kept": False, "x_prev": compile_x, "bound": 12.20, "noise": 0.04}]


def test_a_thin_bar_that_shows_is_called_short_not_too_short_to_see():
    """t26_0708 other (from t25): the optimizer's 1.00x-to-1.05x bar showed, thin, and the caption called it
    "a bar too short to see". The words now follow the bar's height on the axis: a short bar (diamond kept),
    and too short to see only under about 2 pixels (its edges touch)."""
    from utils.lessons.putting_it_together import report

    rows = _waterfall()
    steps = rows[1:]
    assert report.too_short(steps[1], steps) and report.bar_height(steps[1], steps) > report.UNSEEN_BAR
    said = report.waterfall_caption(rows)
    assert "optimizer 1.05x (line 1.13x; a short bar, a diamond at its end)" in said
    assert "compile 0.97x (line 12.20x; a short bar, a diamond at its end)" in said
    assert "too short to see" not in said and "precision 1.48x (line 2.84x)," in said
    # a bar a thousandth from 1x on the same axis: too short to see
    said = report.waterfall_caption(_waterfall(optimizer=1.001))
    assert "optimizer 1.00x (line 1.13x; a bar too short to see, a diamond at its end)" in said
    # a bar that is not short: no diamond named
    assert "diamond" not in report.short_bar_words(steps[0], steps)
