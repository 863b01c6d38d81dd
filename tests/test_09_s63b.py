"""Lesson 09 (t25_09 #5, #6, #7, other problems): the small-batch quantization reading printed from lesson 04's
record with both branches, lesson 04's reference named with its set-up, B13 with B15's caveat, B19 beside B22's
one-worker rounds, whole error messages. Fabricated figures only."""

from utils.lessons.articles_checked import claims, quantize_reading, snippets, timed_rows
from utils.lessons.articles_checked.sources import LEDGER, Recorded


def _small(value, noise=0.04):
    return {"value": value, "bound": 3.97, "noise": noise, "lesson": "04",
            "what": "torch.ao int8 dynamic (deprecated), batch 1 (memory-bound (L3)), against its roofline reference 3.97x"}


def test_small_batch_gain_is_read_as_bytes_paying():
    text = quantize_reading.small_batch_words(_small(2.19))
    assert "2.19x against its bytes reference 3.97x" in text and "faster" in text
    assert "fewer weight bytes paid" in text and "did not pay" not in text


def test_small_batch_without_gain_says_the_bytes_did_not_pay():
    for value in (1.01, 0.90):
        text = quantize_reading.small_batch_words(_small(value, noise=0.03))
        assert "did not pay" in text and "fewer weight bytes paid" not in text, text


def test_small_batch_part_points_to_lesson_04_when_unrecorded_and_quotes_it_when_recorded():
    missing = quantize_reading.small_batch_part({"results": {"quantize_small": None}})
    assert "quotes no small-batch figure" in missing.text and "lesson 04" in missing.text
    found = quantize_reading.small_batch_part({"results": {"quantize_small": Recorded(_small(1.43), LEDGER, "x")}})
    assert found.text.startswith("lesson 04 §4, torch.ao int8 dynamic (deprecated), batch 1") and found.kind == LEDGER


def test_reference_setup_names_shape_and_threads():
    derived = quantize_reading.reference_setup({"what": "torchao int8 compiled, batch 256, against ..."})
    assert "(256, 1024) @ (1024, 1024)" in derived and "thread count" in derived
    kept = quantize_reading.reference_setup({"what": "", "threads": 1,
                                             "reference_why": "matmul rates measured on (8, 64) @ (64, 64)"})
    assert kept == "matmul rates measured on (8, 64) @ (64, 64), 1 thread"
    assert "2 threads" in quantize_reading.reference_setup({"threads": 2, "reference_why": "x"})
    assert "peaks" not in quantize_reading.b11_reference_why({"what": "batch 256"})


def test_b13_note_carries_b15_caveat_with_or_without_lesson_04():
    bare = quantize_reading.b13_ratio_note(None)
    assert "holds only for the threads and size it names" in bare and "lesson 04" not in bare
    beside = quantize_reading.b13_ratio_note({"what": "batch 256", "threads": 1})
    assert "lesson 04's reference (row B11)" in beside and "1 thread" in beside


def test_readings_no_longer_say_a_small_batch_gains_little():
    for row in ("B11", "B13"):
        says = claims.BY_ID[row].why
        assert "gain little" not in says and "memory-bound pass (a small batch)" in says


def test_b19_sets_its_step_beside_b22_median_or_says_what_it_is():
    rounds = {"one": [0.0196, 0.0212, 0.0235, 0.0218, 0.0233], "two": [0.0185] * 5}
    text = timed_rows.one_worker_beside({"cnn_ddp": rounds})
    assert "median 21.8 ms over its 5 rounds" in text and "need not match" in text
    for failed in (RuntimeError("launch"), None):
        alone = timed_rows.one_worker_beside({"cnn_ddp": failed})
        assert "its fastest repeat in this page's own process" in alone and "B22" not in alone


def test_error_messages_are_kept_whole():
    message = ("DistributedDataParallel device_ids and output_device arguments only work with single-device/"
               "multiple-device GPU modules or CPU modules, but got device_ids [0], output_device None, and module "
               "parameters {device(type='cpu')}.")
    assert snippets.first_line(ValueError(message)) == f"ValueError: {message}"


def test_b21_reading_parses():
    says = claims.BY_ID["B21"].why
    assert "falls at any speed-up under N and rises only past N" in says and "falls below N" not in says
