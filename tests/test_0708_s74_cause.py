"""Lesson 07, the thirty-fifth reading (t35_0708): the thread losing its core, ruled out as the whole of the
compute's miss, stays a candidate for part of it and is counted (#1); a tok/s figure is its printed ms a step
rounded half up (#2); the compute's way forward points to the block below, where the candidates are (#3).
Every figure here is made up for the test."""
import re

from utils.lessons.tensor_parallel import inference, report, verdicts
from utils.lessons.tensor_parallel.miss_parts import COMPUTE_PART


def _slow(compute, thread_cpu, inside):
    """A rank's step: off its core during the compute between compute - thread_cpu and compute - (thread_cpu -
    inside), both floored at 0."""
    return {"compute": compute, "thread_cpu": thread_cpu, "allreduce": inside, "step": compute + inside,
            "waited": 0.0, "after_both": inside, "after_other": 0.0, "other_threads_cpu": 0.0005}


_M = {"model_compute": 0.010, "others": 0.0, "steal": 0.0, "corun": {"alone": 0.0101, "together": 0.0102}}


def _count_and_list(said: str) -> tuple[int, list[str]]:
    count = int(re.search(r"(\d+) candidates fit, none timed apart \(the block below", said).group(1))
    listed = re.search(r"The compute's \d+ candidates, none timed apart: (.*?)\. What would show", said)
    return count, listed.group(1).split("; ")


def test_a_core_loss_under_the_miss_stays_open_for_part_of_it():
    # off its core 0.00 to 1.20 ms, the compute's miss 2.00 ms: not the whole of it, but a part it may be
    slow = _slow(0.0130, 0.0130, 0.0012)
    ruled, open_ = verdicts.core_losses(slow, 0.0020)
    assert "as the whole of the compute's miss (off it at most 1.20 ms, less than the 2.00 ms" in ruled
    assert open_ == ["the step's thread losing its core for part of the compute's miss (off it 0.00 to 1.20 ms "
                     "of the 2.00 ms beyond t1/2 and its 5 %)"]
    said = report._compute_cause(_M, slow, {COMPUTE_PART: 0.0020})
    count, listed = _count_and_list(said)
    assert count == len(listed) == 5 and listed[3] == open_[0]


def test_a_thread_never_off_its_core_is_no_candidate_for_any_part():
    # the thread's CPU time covers the compute and the whole of its time inside: off its core 0.00 ms at most
    slow = _slow(0.0130, 0.0142, 0.0012)
    ruled, open_ = verdicts.core_losses(slow, 0.0020)
    assert "off it at most 0.00 ms" in ruled and open_ == []
    count, listed = _count_and_list(report._compute_cause(_M, slow, {COMPUTE_PART: 0.0020}))
    assert count == len(listed) == 4 and not any("losing its core" in c for c in listed)


def test_a_core_loss_that_can_cover_the_miss_is_one_candidate_not_two():
    slow = _slow(0.0130, 0.0130, 0.0012)   # up to 1.20 ms off its core, a 1.00 ms miss: it can be the whole
    ruled, open_ = verdicts.core_losses(slow, 0.0010)
    assert ruled == "" and len(open_) == 1 and "which can cover the 1.00 ms" in open_[0]


def test_the_way_forward_points_below_and_has_no_dangling_clause():
    said = report._compute_cause(_M, _slow(0.0130, 0.0130, 0.0012), {COMPUTE_PART: 0.0020})
    kept, _ = verdicts.ruled_apart(said)
    assert kept.endswith("outweighs its all-reduces and whatever slows its shard (the block below names no "
                         "candidate as the cause).")
    assert "whatever they cost" not in kept and "candidate above" not in kept


def _row(batch, one_ms, tp_ms, new_tokens=8):
    """A generation row: seconds for ``new_tokens`` steps per method."""
    return {"batch": batch, "one device": one_ms * 1e-3 * new_tokens, "tensor parallel": tp_ms * 1e-3 * new_tokens,
            "pipeline": tp_ms * 1e-3 * new_tokens, "same_tokens": True,
            "spread": {"one device": 0.03, "tensor parallel": 0.05, "pipeline": 0.05}}


def test_tokens_a_second_round_half_up_from_the_printed_ms():
    row = _row(4, 7.59, 12.80)
    assert inference.tokens_text(row, "tensor parallel", 8) == "313"   # 4 / 12.80 ms = 312.5, half up
    assert inference.tokens_text(_row(4, 7.59, 12.81), "tensor parallel", 8) == "312"   # 312.26
    assert inference.tokens_text(_row(16, 1.00, 1.0), "one device", 8) == "16,000"
    table = report.inference_table({"new_tokens": 8, "rows": [row]}, 4, "").to_text()
    assert "313 (0.59x)" in table and "312 " not in table


def test_the_caption_prints_the_tables_tokens_and_places_ties_as_printed():
    rows = [_row(1, 8.00, 9.00), _row(4, 12.80, 12.80)]   # 125 and 111; 312.5 and 312.5, both "313"
    said = verdicts.inference_plot_caption({"new_tokens": 8, "rows": rows})
    assert "one device from 125 to 313" in said and "tensor parallel from 111 to 313" in said
    assert "below one device's at batch 1, level with one device's at batch 4" in said


def test_the_cpu_row_shows_under_the_table_only_where_a_core_was_lost():
    """t35_0708 other #1: a CPU row that holds its model goes to the collapsed block; a loss stays in view."""
    held = {"ranks": [{"thread_cpu": 12.33e-3, "compute": 11.96e-3}, {"thread_cpu": 13.24e-3, "compute": 13.24e-3}]}
    shown, block = report.cpu_row_placed(held)
    assert shown == "" and block.startswith("The table's CPU row") and "as the model says" in block
    within = {"ranks": [{"thread_cpu": 12.9e-3, "compute": 13.0e-3}]}   # 0.10 ms under, within 5 % (0.65 ms)
    assert report.cpu_row_placed(within)[0] == ""
    lost = {"ranks": [{"thread_cpu": 12.0e-3, "compute": 15.0e-3}]}   # 3.00 ms under, beyond 5 %
    shown, block = report.cpu_row_placed(lost)
    assert block == "" and "off its core at least 3.00 ms" in shown
    assert report.cpu_row_placed({"ranks": [{"thread_cpu": None, "compute": 1.0}]}) == ("", "")


def test_each_sections_compute_a_call_is_written_out_as_its_sum():
    """t35_0708 other #4: 'about 3.2 ms ... and about 5.4 ms here, on one base' is worked out in place."""
    from types import SimpleNamespace

    from utils.lessons.tensor_parallel import cost, pass_step

    blocks = SimpleNamespace(depth=2, width=512)
    row = {"width": 512, "speedup": 1.30, "spread": 0.05, "one": 21.52e-3}
    base = cost.half_per_call(25.7e-3, 1, 4)   # 25.7 / 2 / 4 = 3.2125 -> 3.2 ms
    said = pass_step.pass_beside_step(0.93, 0.21, base, blocks, row, pass_one=25.7e-3)
    assert ("about 3.2 ms of compute in section 1 (25.7 ms / 2 / 4 calls) and about 5.4 ms here (21.52 ms / 2 / "
            "2 calls): in both, half one device's fastest time over a rank's all-reduces") in said
