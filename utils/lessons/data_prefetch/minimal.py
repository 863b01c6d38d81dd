"""Lesson 05's smallest prefetcher: a thread and a queue of depth 1, before the course's ``Prefetcher``.

    for batch in minimal_prefetch(make_loader(data, 16)):   # reads batch k+1 while batch k computes
        step(batch)

It hides a read behind a step, and nothing more: what it lacks is what ``prefetcher.Prefetcher`` adds.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Iterable, Iterator


def minimal_prefetch(batches: Iterable) -> Iterator:
    """Yield ``batches``, each read by a thread while the loop computes the one before (lesson 05)."""
    ready = queue.Queue(maxsize=1)  # one batch waits, ready; the thread then waits for room
    done = object()  # put after the last batch: tells the loop the batches ran out

    def read():
        for batch in batches:  # the slow read, while the loop computes
            ready.put(batch)  # blocks while the queue is full
        ready.put(done)

    threading.Thread(target=read, daemon=True).start()
    while (batch := ready.get()) is not done:  # waits here only when the read is slower than the step
        yield batch
