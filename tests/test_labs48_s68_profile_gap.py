"""Twenty-ninth reading (t29_labs48, lab 08, other problems): the profiled forward and backward over the timed
was worked from their roundings (692 - 337 = 355) beside the one-decimal figures the same sentence printed
(691.6 and 4 x 84.3 = 337.2, whose difference is 354). The gap now comes from the figures printed beside it,
and every place that names it (the worked line, the miss's candidates, the prediction's bullet) prints the
same figure. Fabricated figures only: 500.6 - 4 x 60.3 = 500.6 - 241.2 = 259.4 -> 259, where the roundings
give 501 - 241 = 260."""

from types import SimpleNamespace

from utils.labs.make_it_fast import threads_cost
from utils.labs.make_it_fast.prediction import prediction_short
from utils.labs.make_it_fast.threads_cost import profiler_gap_ms, threads_sentence

RATIOS = [2.0, 2.05, 2.1, 2.15, 2.2]   # 2.10x ± 0.05, gathered
READING = {"optimizer": 10.0, "evaluate": 60.0, "checkpoint": 12.0}


def _timed(per_ms: float) -> dict:
    return {"slow": 2, "launcher": 1, "ratios": list(RATIOS), "slow_ms": [per_ms] * 5, "launcher_ms": []}


def _flat(text: str) -> str:
    return " ".join(text.split())


def test_the_gap_is_worked_from_the_one_decimal_figures_printed_beside_it():
    said = _flat(threads_cost._beside_the_profile(_timed(60.3), 500.6))
    assert ("4 x 60.3 = 241.2 ms a step; under the profiler, forward and backward took 500.6 ms a step (500.6 / 4 "
            "= 125.2 ms a micro-batch), 500.6 - 241.2 = 259 ms more at the same count") in said, said
    assert "260" not in said
    assert profiler_gap_ms(_timed(60.3), 500.6) == 259.0


def test_less_and_as_much_to_the_ms():
    less = _flat(threads_cost._beside_the_profile(_timed(130.0), 500.6))   # 520.0 - 500.6 = 19.4 -> 19
    assert "520.0 - 500.6 = 19 ms less at the same count" in less, less
    assert profiler_gap_ms(_timed(130.0), 500.6) is None
    tied = _flat(threads_cost._beside_the_profile(_timed(60.3), 241.6))    # 241.6 - 241.2 = 0.4 -> 0
    assert "ms a micro-batch), as much, to the ms at the same count" in tied, tied
    assert profiler_gap_ms(_timed(60.3), 241.6) is None
    assert profiler_gap_ms(None, 500.6) is None and profiler_gap_ms(_timed(60.3) | {"slow_ms": []}, 500.6) is None


def test_every_place_that_names_the_gap_prints_the_same_figure():
    said = _flat(threads_sentence(_timed(60.3), 500.6, 400.0, READING))
    assert "500.6 - 241.2 = 259 ms more" in said, said
    assert "forward and backward's 259 ms more under the profiler than timed alone" in said, said
    assert "260 ms" not in said, said
    diagnosis = SimpleNamespace(threads=_timed(60.3), reference={"forward and backward": 500.6})
    short = prediction_short(lambda reading: 900.0, diagnosis, 100.0)
    assert "forward and backward took 259 ms a step more than timed alone" in short, short


def test_the_gap_text_falls_back_to_the_bases_without_a_printed_gap():
    assert "forward and backward's 260 ms more" in threads_cost._gap_text([241.0, 501.0], 2.1)
    assert "forward and backward's 259 ms more" in threads_cost._gap_text([241.0, 501.0], 2.1, 259.0)
    assert threads_cost._gap_text([241.0, 501.0], 2.1, 0.0) == ""
    assert threads_cost._gap_text([501.0], 2.1, 259.0) == ""
