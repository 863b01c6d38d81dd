"""Thirty-sixth reading, lessons 07 (t36_0708): the largest part's cause said as that part's, with its share
of the parts (#1); the gap rank 1 computed longer named by its figure (#2); shares that do not add to 100
said so (#3); no "whatever they cost" (other #1); the half-the-wait rule given as a reason (other #2); a
winner's margin that prints 0% said as under 1% (other #3); and the claims row's split MLP step recorded for
lesson 09 (the lead's A21). Every branch on fabricated figures."""

from __future__ import annotations

from utils.lessons.tensor_parallel import inference, model_claims, report, verdicts


def _rank(compute: float, waited: float, other: float = 0.00103) -> dict:
    inside = waited + 0.0017
    return {"step": compute + inside, "allreduce": inside, "compute": compute, "thread_cpu": compute + inside,
            "other_threads_cpu": other, "waited": waited, "after_both": inside - waited, "after_other": 0.0}


def _miss(ranks: list[dict]) -> dict:
    return {"model_compute": 0.01789, "model_comm": 0.00066, "model_step": 0.01855, "one": 0.03578,
            "others": 0.0, "steal": 0.0, "paired": True, "residual": 0.46, "waiting_core": 0.01,
            "corun": {"alone": 0.01815, "together": 0.01849, "together_core": 1.0}, "ranks": ranks}


WAIT = "waiting for the other rank"


def _cause(rank1: float, parts: dict) -> str:
    m = _miss([_rank(0.01898, 0.00104), _rank(rank1, 0.0)])
    return report._largest_cause(m, m["ranks"][0], parts, [], WAIT)


def test_the_cause_found_is_the_largest_part_s_with_its_share_of_the_parts():
    parts = {WAIT: 0.00104, "the compute": 0.00089, "the late return": 0.00074, "the exchange": 0.00001}
    late = _cause(0.02002, parts)   # rank 1 computed 1.04 ms longer: the wait is rank 1 finishing late
    assert late.startswith("The largest part of the miss is waiting for the other rank (1.04 ms of the 2.68 ms "
                           "the parts add to); that part's cause, not the whole miss's: rank 1 computed 1.04 ms")
    assert "Cause:" not in late
    early = _cause(0.01910, parts)   # 0.12 ms longer, under half the wait: no cause found
    assert early.startswith("No cause found: the largest part of the miss is waiting for the other rank (1.04 ms "
                            "of the 2.68 ms the parts add to), and rank 1 computed 0.12 ms")
    # parts at zero or below are not counted in the whole
    assert "1.04 ms of the 1.04 ms the parts add to" in _cause(0.02002, {WAIT: 0.00104, "the compute": 0.0})


def test_the_gap_is_named_by_its_figure_and_nothing_costs_whatever():
    m = _miss([_rank(0.01898, 0.00104, 0.00088), _rank(0.02002, 0.0, 0.00120)])   # rank 1's threads used more
    said = report._largest_cause(m, m["ranks"][0], {WAIT: 0.00104}, [], WAIT)
    assert "one candidate for the 1.04 ms rank 1 computed longer than rank 0 this run does not rule out" in said
    assert "the gap" not in said and "whatever" not in said
    m["ranks"][1]["other_threads_cpu"] = 0.00050   # fewer: no candidate, the figure still named
    said = " ".join(report.miss_answer(m, "")[0] + report.miss_answer(m, "")[1])
    assert "they do not explain the 1.04 ms rank 1 computed longer than rank 0 by themselves" in said
    other = report._largest_cause(m, m["ranks"][0], {"the late return": 0.002}, [], "the late return")
    assert other.endswith("outweighs its all-reduces.") and "whatever" not in other


def test_shares_that_miss_100_say_they_were_rounded_each_on_its_own():
    # the reader's run: 0.24 + 6.54 + 0.04 = 6.82 ms, shares 4% + 96% + 1% = 101%
    shown = {"rank 0": {"waited": 0.24, "after_both": 3.30, "after_other": 0.04},
             "rank 1": {"waited": 0.0, "after_both": 3.28, "after_other": 0.0}}
    said = verdicts.inside_split(shown)
    assert ("6.82 ms inside the all-reduces (each share rounded on its own: they add to 101%): 0.24 ms (4%)"
            in said)
    even = {"rank 0": {"waited": 1.0, "after_both": 2.0, "after_other": 0.5},
            "rank 1": {"waited": 0.0, "after_both": 1.5, "after_other": 0.0}}
    said = verdicts.inside_split(even)   # 1.00 + 3.00 + 0.50 = 4.50: 22% + 67% + 11% = 100%
    assert "rounded on its own" not in said and "4.50 ms inside the all-reduces: " in said


def _row(ms: dict, spread: float = 0.22, batch: int = 16) -> dict:
    new_tokens = 8
    return {"batch": batch, **{k: v * 1e-3 * new_tokens for k, v in ms.items()},
            "spread": {k: spread for k in ms}}


METHODS = ("one device", "tensor parallel", "pipeline")


def test_the_winner_s_margin_under_one_per_cent_says_so_with_its_tok_s():
    # the reader's run: pipeline 24.08 ms a step, one device 24.19 ms: 0.46%, printed "by 0%"
    close = _row({"one device": 24.19, "tensor parallel": 24.60, "pipeline": 24.08})
    said = inference.winner(close, 8, METHODS)
    assert said == ("no clear winner: pipeline leads one device by under 1% (664 against 661 tok/s), within the "
                    "rounds' spread of 22%")
    within = _row({"one device": 25.00, "tensor parallel": 30.0, "pipeline": 24.00})   # 4% against 22%
    assert inference.winner(within, 8, METHODS).endswith("pipeline leads one device by 4%, within the rounds' "
                                                         "spread of 22%")
    ahead = _row({"one device": 3.39, "tensor parallel": 10.31, "pipeline": 4.40}, 0.16, 1)
    assert inference.winner(ahead, 8, METHODS) == ("one device (30% ahead of pipeline, beyond the rounds' spread "
                                                   "of 16%)")
    tie = _row({"one device": 24.08, "tensor parallel": 30.0, "pipeline": 24.08})
    assert "tie at 24.08 ms a step" in inference.winner(tie, 8, METHODS)
    assert "leads" not in inference.winner(tie, 8, METHODS)


def test_the_claims_row_s_mlp_step_is_recorded_as_printed_with_every_round(monkeypatch, tmp_path):
    from utils import devices, ledger

    monkeypatch.setenv(ledger.ENV, str(tmp_path))
    one, two = [0.0100, 0.0110, 0.0120, 0.0130], [0.0080, 0.0075, 0.0090, 0.0100]
    ratios = [a / b for a, b in zip(one, two)]
    row = {"width": 512, "one_rounds": one, "two_rounds": two, "speedup": 1.37777, "spread": 0.19}
    model_claims.record_mlp_step(row, 256, 2.0)
    got = ledger.read(devices.mode())["tensor_parallel_mlp_step_speedup"]
    assert got["value"] == 1.38 and got["unit"] == "x" and got["bound"] == 2.0 and got["lesson"] == "07"
    assert got["rounds"] == ratios
    assert got["what"].startswith("one MLP block of width 512 (hidden 2048) on 256 tokens, forward + backward")


def test_under_the_loss_table_a_late_return_is_said_to_sit_in_one_of_the_rows_naming_it():
    from utils.lessons.tensor_parallel import decode_loss

    inside = {"rank 0": 6.0e-3, "both inside": 4.0e-3}   # beyond the price, and a wait: two rows name it
    note = decode_loss.late_note(1.0e-3, 8.0e-3, inside, 1.0e-3, 0.30, 0.02e-3)
    assert note == ["A late return lands in one of the two rows that name it, never both; no shared clock tells "
                    "which."]
    within = {"rank 0": 6.0e-3, "both inside": 1.0e-3}   # within the price: one row names a late return
    assert decode_loss.late_note(1.0e-3, 8.0e-3, within, 1.0e-3, 0.30, 0.02e-3) == []
