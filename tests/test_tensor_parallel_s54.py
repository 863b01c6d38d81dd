"""Lesson 07, the thirteenth reading: section 1's caption splits rank 1's later end into its late return
from the last all-reduce (as printed, 2 decimals) and its last sub-layer, never a difference of two
one-decimal roundings (cell 10); section 4 rules the core out only for the compute's part of the miss and
leaves it open for a late return inside the all-reduces (cell 29)."""
from utils.lessons.tensor_parallel import report, timelines, verdicts
from utils.timeline import Span

SPLIT, ALONE = [0.0282, 0.0434], [0.0394, 0.0520]   # the reader's timed rounds' ranges


def _window(late, drawn=0.03412, window=0.03415, early=0.0):
    return verdicts.drawn_pass_caption(2, [0.0528, drawn], SPLIT, ALONE, window, early, late)


def test_the_window_note_calls_only_the_last_calls_late_return_a_late_return():
    # the reader's run: window 34.15 ms, the pass 34.12 ms, rank 1 0.03 ms late from the last all-reduce
    said = _window(0.00003)
    assert "0.1 ms" not in said and "34.2 ms" not in said
    assert ("The chart's window is longer, 34.15 ms from the first span to the last on either rank, against "
            "rank 0's pass of 34.12 ms: rank 1 ended 0.03 ms after rank 0, having stayed 0.03 ms in the pass's "
            "last all-reduce after rank 0 had returned (a late return);") in said
    # the late return is a part of the lag: the rest is rank 1's last sub-layer ending later
    said = _window(0.00001)
    assert "ended 0.03 ms after rank 0, having stayed 0.01 ms in the pass's last all-reduce after rank 0 " \
           "had returned (a late return), and its last sub-layer ended 0.02 ms later;" in said
    # no late return: the whole lag is the last sub-layer's, and no 'late return' is claimed
    said = _window(0.0)
    # t23_0708 other: the visible caption no longer names a 'late return' before the lesson defines it
    assert ("ended 0.03 ms after rank 0: its last sub-layer ended later (it did not stay in the last "
            "all-reduce after rank 0 had returned)") in said
    assert "(a late return)" not in said
    # equal at two decimals: nothing to explain
    assert "window" not in _window(0.0, window=0.034124)


def test_the_late_return_at_the_end_is_read_from_the_last_call_of_the_row_that_ends_last():
    def span(rank, name, start, end, k=None):
        return Span(f"rank {rank} (cpu)", name, k, start, end)
    spans = [span(0, "all-reduce", 1.0, 2.0), span(1, "all-reduce", 1.5, 2.0),
             span(0, "all-reduce", 3.0, 4.00), span(1, "all-reduce", 3.0, 4.03),
             span(0, "ffn", 4.00, 4.10, 0), span(1, "ffn", 4.03, 4.12, 0)]
    assert abs(timelines.late_return_at_end(spans) - 0.03) < 1e-9   # rank 1 ends last, 0.03 after rank 0
    spans[-1] = span(1, "ffn", 4.03, 4.05, 0)   # rank 0 ends last, and it did not return late
    assert timelines.late_return_at_end(spans) == 0.0
    assert timelines.late_return_at_end(spans[:3]) == 0.0   # the rows do not hold the same calls


def _rank(compute, inside, cpu, waited, after_other, other):
    return {"step": compute + inside, "allreduce": inside, "compute": compute, "thread_cpu": cpu,
            "other_threads_cpu": other, "waited": waited, "after_both": inside - waited,
            "after_other": after_other}


def _reader_run():
    """The reader's run, cell 29: rank 0's step 22.10 ms, its compute 20.01 ms against t1/2 19.52 ms, 2.09 ms
    inside the all-reduces (0.16 waiting, 1.93 after both arrived, 0.40 of it after rank 1 had returned)."""
    return {"model_compute": 0.01952, "model_comm": 0.00120, "model_step": 0.02072, "one": 0.03904,
            "others": 0.0, "steal": 0.0, "paired": True, "residual": 0.24, "waiting_core": 0.01,
            "corun": {"alone": 0.01924, "together": 0.01919, "together_core": 1.0},
            "ranks": [_rank(0.02001, 0.00209, 0.02042, 0.00016, 0.00040, 0.00080),
                      _rank(0.02012, 0.00154, 0.02025, 0.0, 0.00001, 0.00073)]}


def _answer(m):
    story = " ".join(report.miss_story(m, ""))
    ruled = story.split("Ruled out: ")[1].split(" Not ruled out: ")[0]
    return story, ruled, story.split("Not ruled out: ")[1]


def test_the_core_is_ruled_out_for_the_compute_only_and_left_open_for_the_late_return():
    story, ruled, left = _answer(_reader_run())
    # the late return is a part of its own (sixteenth reading): 1.93 - 0.40 - 1.20 x 1.24 = 0.04 ms exchange
    assert "the late return (inside after the other had returned) 0.40 ms" in story
    assert "the exchange after both arrived (less the late return) beyond alpha + n/beta and the fit's error " \
           "0.04 ms" in story
    assert "no miss of the compute is left" not in story
    assert ("the step's thread losing its core as the cause of the compute's part of the miss (none beyond t1/2 "
            "and its 5 %)") in ruled
    assert ("a thread of the longer-step rank losing its core inside the all-reduces (late return 0.40 ms, off "
            "its core at most 1.68 ms over the step)") in left
    # the other outcome: no late return, so nothing inside the all-reduces is left open to the core
    m = _reader_run()
    m["ranks"][0]["after_other"] = 0.0
    _, ruled, left = _answer(m)
    assert "as the cause of the compute's part" in ruled and "inside the all-reduces" not in left
    # the thread used CPU through the whole step (never off its core): the late return is not the core's
    m = _reader_run()
    m["ranks"][0]["thread_cpu"] = 0.02210
    _, _, left = _answer(m)
    assert "inside the all-reduces" not in left


def test_core_loss_keeps_the_late_return_open_beside_each_compute_branch():
    slow = _rank(0.02001, 0.00209, 0.02042, 0.00016, 0.00040, 0.00080)   # off its core 0.00 to 1.68 ms
    ruled, left = verdicts.core_loss(slow, 0.0, 0.00040)
    assert "as the cause of the compute's part" in ruled and "late return 0.40 ms" in left
    ruled, left = verdicts.core_loss(slow, 0.00083, 0.00040)   # 1.68 ms can cover 0.83 ms: both open
    assert ruled == "" and left.startswith("the step's thread losing its core during the compute (off it "
                                           "0.00 to 1.68 ms") and left.endswith("at most 1.68 ms over the step)")
    ruled, left = verdicts.core_loss(slow, 0.00200, 0.00040)   # 1.68 ms under 2.00 ms: not the whole
    assert "as the whole of the compute's miss" in ruled and "late return 0.40 ms" in left
    assert left.startswith("the step's thread losing its core for part of the compute's miss (off it 0.00 to "
                           "1.68 ms of the 2.00 ms")   # not the whole, still a part (t35_0708 #1)
    assert verdicts.core_loss(slow, 0.0)[1] == ""   # no late return given: nothing open
