"""Lesson 05's ``DataLoader`` knobs, and the warnings they raise explained in one line each.

    loader = make_loader(data, 16, num_workers=2, persistent_workers=True)
    with loader_notes():          # torch's expected warnings (workers past the cores, pinning without a GPU)
        for images, labels in loader: ...
"""

from __future__ import annotations

import contextlib
import re
import textwrap
import warnings

from torch.utils.data import DataLoader, Dataset


def make_loader(dataset: Dataset, batch_size: int, num_workers: int = 0, persistent_workers: bool = False,
                prefetch_factor: int | None = None, pin_memory: bool = False, sampler=None) -> DataLoader:
    """A ``DataLoader`` with the four knobs lesson 05 measures, each named as torch names it; ``sampler``: a
    DDP rank's share of the items (``DistributedSampler``, section 6), None: every item in order."""
    return DataLoader(
        dataset, batch_size=batch_size, sampler=sampler,
        num_workers=num_workers,  # w processes read batches while the device computes: max(L/w, C)
        persistent_workers=persistent_workers,  # keep the workers between epochs: start-up paid once
        prefetch_factor=prefetch_factor,  # batches each worker keeps ready (None: torch's 2); needs workers
        pin_memory=pin_memory,  # batches in page-locked memory: fast, asynchronous copies to a GPU
    )


# DataLoader warnings this lesson expects, each turned into one line that says why (lesson 05).
LOADER_NOTES = [
    (re.compile(r"will create (\d+) worker processes.*suggested max number of worker.*is (\d+)", re.DOTALL),
     lambda m: f"note: {m.group(1)} loader workers on {m.group(2)} CPU cores; torch warns because CPU-bound "
               f"workers past the core count only take turns (here a read is a wait, but each worker's "
               f"start-up and every hand-over still take CPU time)."),
    (re.compile(r"'pin_memory' argument is set as true but no accelerator is found"),
     lambda m: "note: pin_memory does nothing without a GPU (torch warns): page-locked memory only speeds "
               "up copies to a GPU."),
]


def explain(message: str) -> str | None:
    """The note for one of the DataLoader warnings this lesson expects, or None for any other warning."""
    for pattern, note in LOADER_NOTES:
        match = pattern.search(message)
        if match:
            return note(match)
    return None


@contextlib.contextmanager
def loader_notes(show: bool = True):
    """Catch the DataLoader's expected warnings and print each as one explained line; others pass through.

    Yields the list of notes (each printed once when the block ends, if ``show``).
    """
    notes: list[str] = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield notes
    for w in caught:
        note = explain(str(w.message))
        if note is None:
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
        elif note not in notes:
            notes.append(note)
    if show:
        for note in notes:
            print(textwrap.fill(note, 110, subsequent_indent="  "))  # the course's widest visible line
