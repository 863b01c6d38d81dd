"""Thirty-fourth reading (t34_labs48 other #1, lab 08 cell 33): "The slow script's workers asked for 2 threads
each ..." was printed word for word in the short list and again in the worked block under it. It is now said
once, in the short list; the worked block keeps the timing. Fabricated figures (test_labs48_s65's fixtures)."""

from tests.test_labs48_s65 import _diagnosis, _flat, _takeaways

ASKED = "The slow script's workers asked for 2 threads each (os.cpu_count() on this machine), yours computed with 1"


def test_lab08_the_thread_counts_asked_for_are_said_once(monkeypatch):
    takeaways = _takeaways(monkeypatch)
    for diagnosis in (_diagnosis(6.0, 6.1, 6.12, 6.2, 6.3), _diagnosis()):   # timed, and not timed
        key = _flat(takeaways.key_take_aways(diagnosis, object(), predict=lambda r: 1887.0))
        full = _flat(takeaways.take_aways(diagnosis, object(), predict=lambda r: 1887.0))
        assert key.count(ASKED) == 1, key
        assert ASKED not in full, full
        assert "of the slow script's step (" in full, full   # the compute bullet's working is still there
