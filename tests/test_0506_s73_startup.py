"""t34_0506 #3: lesson 05's start-up readings agree: a fresh first batch's wait beyond one read (section 2's
figure) is the saving plus what the kept loader's first batch waited past one read, and the page says so."""
from test_fix_s54b_030405 import cell_source
from utils.lessons.data_prefetch.report import kept_wait_sentence, start_up_sentence


def test_a_kept_batch_past_one_read_is_said_so_the_fresh_wait_beyond_one_read_adds_up():
    said = start_up_sentence([256, 254, 256, 256], 254, 52, 49, 200, 5)
    assert "saved 204 ms of start-up = 256 - 52 ms" in said
    # said in the details since t76_0506 #4 (the answer's paragraph stays under 120 words)
    assert kept_wait_sentence([256, 254, 256, 256], 52, 49) == (
        "The kept loader's first batch still waited 3 ms past one read (52 - 49): a wait a fresh start pays "
        "too, so of the 207 ms a fresh first batch waited beyond one read (256 - 49), 204 ms is start-up.")
    assert "The rest: +4 ms beyond it, not more than the noise (5 ms" in said


def test_a_kept_batch_within_one_read_adds_no_such_sentence():
    said = start_up_sentence([258, 258], 258, 40, 49, 200, 5)
    assert "past one read" not in said and "= 258 - 49 ms" in said
    assert kept_wait_sentence([258, 258], 40, 49) == ""
    assert kept_wait_sentence([258, 258], 49, 49) == ""   # exactly one read: nothing past it


def test_the_definition_matches_the_saving_worked_below_it():
    text = " ".join(cell_source("05_data_prefetch.ipynb", 19).split())
    assert "the start-up is a fresh first wait minus the kept loader's first wait" in text
    assert "the start-up is the first wait minus one batch's read" not in text
