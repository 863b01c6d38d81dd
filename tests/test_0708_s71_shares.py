"""t32_0708 #4: lesson 07 cell 38's loss table printed 19% + 52% + 15% under a row of 85% (each share right on
its own, half up). ``decode_loss.shares_miss`` finds a group whose ms add up but whose printed shares do not,
and the table's title then says each share is rounded on its own. Fabricated figures, both branches."""

from utils.lessons.tensor_parallel import decode_loss

INSIDE = {"rank 0": 6.0e-3, "rank 1": 5.8e-3, "both inside": 5.0e-3, "calls": 8.0}


def _title(one, tp, inside, price=1.0e-3):
    return decode_loss.loss_table(one, tp, inside, price, 0.30, 0.02e-3, "t").title


def test_parts_whose_shares_miss_their_row_are_said_to_be_rounded_on_their_own():
    # loss 7.00 ms: inside 6.00 (86%) = price 1.00 (14%) + beyond 4.00 (57%) + wait 1.00 (14%): 85%
    rows = decode_loss.loss_rows(1.0e-3, 8.0e-3, INSIDE, 1.0e-3, 0.30, 0.02e-3)
    assert decode_loss.shares_miss(rows)
    assert _title(1.0e-3, 8.0e-3, INSIDE) == "t (each share rounded on its own)"


def test_shares_that_add_up_print_no_note():
    # loss 4.00 ms: inside 2.00 (50%) = both 1.00 (25%, within the price's band) + wait 1.00 (25%); outside 50%
    inside = {"rank 0": 2.0e-3, "rank 1": 2.0e-3, "both inside": 1.0e-3, "calls": 8.0}
    rows = decode_loss.loss_rows(1.0e-3, 5.0e-3, inside, 1.0e-3, 0.30, 0.02e-3)
    assert not decode_loss.shares_miss(rows)
    assert _title(1.0e-3, 5.0e-3, inside) == "t"


def test_the_top_rows_are_checked_against_the_whole_loss():
    # made-up rows: 1/3 and 2/3 of a 3.00 ms loss print 33% and 67%: 100%; thirds of 3 parts print 99%
    assert not decode_loss.shares_miss([("a", 1e-3), ("b", 2e-3), ("the loss", 3e-3)])
    assert decode_loss.shares_miss([("a", 1e-3), ("b", 1e-3), ("c", 1e-3), ("the loss", 3e-3)])


def test_a_part_that_is_only_one_part_of_its_row_is_not_summed():
    # the extra operations' fixed cost (0.02 ms) is one part of the rest outside the calls, not all of it
    rows = [("inside", 2e-3), ("outside", 2e-3), ("- the extra operations' fixed cost", 0.02e-3), ("loss", 4e-3)]
    assert not decode_loss.shares_miss(rows)
