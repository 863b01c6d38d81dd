"""Lab 01 cell 21 (t20_labs03 item 3): where the ceilings measured with the ops print otherwise than those of
cell 15, the comparison table keeps cell 15's predictions in their own column ('predicted above'), worked as
cell 15's table works them; where they print the same, no such column."""

from types import SimpleNamespace as NS

from utils.labs.predict_the_roofline import checks as roof_checks
from utils.labs.predict_the_roofline import report


def _c(flops, bandwidth):
    return NS(flops=flops, bandwidth=bandwidth, ridge=flops / bandwidth)


def _row(flops, n_bytes, ceilings, measured):
    bound, seconds = roof_checks.predicted(flops, n_bytes, ceilings)
    op = NS(name="conv", flops=flops, bytes=n_bytes)
    return NS(op=op, flops=flops, n_bytes=n_bytes, bound=bound, predicted=seconds,
              point=NS(op=op, seconds=measured, spread=0.01))


def test_moved_ceilings_keep_cell_15s_prediction_beside_the_new_one():
    before, now = _c(97.0e9, 23.5e9), _c(98.6e9, 26.1e9)  # the t20 run's
    row = _row(1.849688064e9, 12_992_512, now, 20.0e-3)
    text = report.compared_table([row], now, before).to_text()
    assert report.BEFORE_COLUMN in text
    assert "19.1 ms" in text and "18.8 ms" in text  # 1.85e9 / 97.0e9 above; 1.85e9 / 98.6e9 here
    said = report.predicted_again_sentence(before, now)
    assert "both moved" in said and "The column 'predicted above' repeats the predictions printed before" in said


def test_ceilings_that_print_the_same_need_no_second_column():
    before, now = _c(97.0e9, 23.5e9), _c(97.04e9, 23.51e9)
    row = _row(1.849688064e9, 12_992_512, now, 20.0e-3)
    assert report.BEFORE_COLUMN not in report.compared_table([row], now, before).to_text()
    assert report.BEFORE_COLUMN not in report.compared_table([row], now).to_text()
    assert "same ceilings" in report.predicted_again_sentence(before, now)
