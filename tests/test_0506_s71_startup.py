"""Lesson 05, thirty-second reading (t32_0506 #3): the start-up kept workers saved names both start-ups beyond one
read, the fresh workers' (section 2's figure) and the kept loader's own, so that 208 ms there and 205 ms here
are one reader's subtraction; where the kept loader waited no longer than one read, the working says so.
Since t33_0506 the working is one subtraction, the median less the kept loader's first batch. Fabricated figures
(whole ms)."""

from utils.lessons.data_prefetch.report import kept_wait_sentence, start_up_sentence


def test_the_kept_loaders_own_wait_beyond_one_read_is_named_and_taken_off():
    said = start_up_sentence([262, 260, 260], 260, 55, 50, 200, 5)
    # 260 - 50 = 210 beyond one read, less the kept loader's 55 - 50 = 5: 205 saved
    # one subtraction (t33_0506): the kept loader's first batch, read and remaining wait alike, taken off whole
    assert ("saved 205 ms of start-up = 260 - 55 ms (260: the median of 3 first batches on 2 fresh workers; 55: "
            "the kept loader's first batch, its workers already started). Of it, 200 ms") in said
    # t34_0506 #3: said apart, so the 210 ms beyond one read adds up; in the details since t76_0506 #4
    assert "of the 210 ms a fresh first batch waited beyond one read (260 - 50), 205 ms is start-up." \
        in kept_wait_sentence([262, 260, 260], 55, 50)
    assert said.endswith("+5 ms beyond it, not more than the noise (5 ms, the details below): no start-up of the "
                         "processes shown beyond the noise")


def test_a_kept_loader_within_one_read_is_worked_from_the_read():
    said = start_up_sentence([260, 260], 260, 45, 50, 200, 5)
    # 260 - 50 = 210 saved, not 260 - 45 = 215: the working prints the read it subtracts
    assert ("saved 210 ms of start-up = 260 - 50 ms (260: the median of 2 first batches on 2 fresh workers; 50: "
            "one read, as the kept loader's first batch, 45 ms, waited no longer than one read). Of it, 200 ms") in said
    assert said.endswith("The rest: 10 ms measured beyond it, more than the noise (5 ms, the details below): the "
                         "worker processes' start")
