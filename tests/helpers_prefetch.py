"""A fixture for tests/test_data_prefetch.py and tests/test_lab_feed_the_gpu.py: nothing left running."""

from __future__ import annotations

import gc
import threading
import time

import psutil
import pytest


@pytest.fixture(autouse=True)
def no_thread_or_process_left():
    """Every test ends with the threads and child processes it started gone."""
    threads = threading.active_count()
    # Children that were there before (e.g. multiprocessing's resource tracker, started once by an earlier
    # test's spawn and kept for the life of the process) are not this test's.
    before = {c.pid for c in psutil.Process().children(recursive=True)}
    yield
    gc.collect()
    deadline = time.monotonic() + 5
    while threading.active_count() > threads and time.monotonic() < deadline:
        time.sleep(0.02)
    assert threading.active_count() <= threads, [t.name for t in threading.enumerate()]
    children = [c for c in psutil.Process().children(recursive=True)
                if c.pid not in before and c.status() != psutil.STATUS_ZOMBIE]
    assert not children, children
