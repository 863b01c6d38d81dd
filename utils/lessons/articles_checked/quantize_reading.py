"""Rows B11 and B13's reading of lesson 04's quantization: the set-up its roofline reference was measured in (a
ratio of int8 to fp32 matmul rates holds only for its threads and size), and what lesson 04 §4 found at a small
batch, where the pass waits on memory and integer units have little to speed up, but fewer weight bytes may
pay. Each sentence is printed from the ledger's records, with every outcome's branch."""

from __future__ import annotations

import re

from utils.lessons.articles_checked import sections
from utils.lessons.articles_checked.figures import LEDGER_NOISE
from utils.lessons.articles_checked.sources import LEDGER, Part

SMALL_BATCH = "quantize_small_batch_speedup"  # the ledger name lesson 04 §4 records its batch-1 figure under


def reference_setup(record: dict) -> str:
    """Where lesson 04 measured the rates of its compute-bound reference: the record's own words where lesson 04
    keeps them (``reference_why``, ``threads``), else the shape its MLP and batch give: "(256, 1024) @ (1024,
    1024), at lesson 04's own thread count (not kept in the ledger)"."""
    if record.get("reference_why"):
        shape = record["reference_why"]
    else:
        import inspect

        from utils.lessons.compression.train import linear_heavy_mlp

        width = inspect.signature(linear_heavy_mlp).parameters["width"].default  # its largest layer: width²
        batch = re.search(r"batch (\d+)", record.get("what", ""))
        rows = batch.group(1) if batch else "its timed batch"
        shape = f"matmul rates measured on ({rows}, {width}) @ ({width}, {width})"
    threads = record.get("threads")
    return shape + (f", {threads} thread{'s' if threads != 1 else ''}" if threads
                    else ", at lesson 04's own thread count (its table of terms names it; the ledger keeps none)")


def b11_reference_why(record: dict) -> str:
    """What lesson 04's reference is, with its set-up named: the words B11 prints beside the ratio."""
    return (f" (lesson 04's roofline reference: int8 over fp32 {reference_setup(record)}, where the pass is "
            "compute-bound; the ratio of bytes moved where it is memory-bound)")


def b13_ratio_note(record: dict | None) -> str:
    """B15's caveat for B13's int8 ratio, beside lesson 04's reference where the ledger holds it."""
    note = "; a ratio of peaks holds only for the threads and size it names"
    if record is None:
        return note
    return (note + f": lesson 04's reference (row B11) is int8 over fp32 {reference_setup(record)}, so neither "
            "ratio need equal the other")


def small_batch_words(record: dict) -> str:
    """Lesson 04 §4's fastest int8 (or int4) variant at its small batch, beside its bytes reference, read as
    lesson 04 reads it (``verdict_against``, its rounds' noise where kept, else the 2% floor), then what that
    says of a memory-bound pass: a gain beyond noise came from fewer bytes; none means the bytes did not show."""
    from utils.lessons.compression.report import verdict_against

    noise = record.get("noise", LEDGER_NOISE)
    said = verdict_against(record["value"], record["bound"], noise, kind="reference")
    setup = record.get("what", "").split(", against")[0]
    gained = said.startswith(("faster", "above", "at the reference"))  # lesson 04's words for a gain
    reading = ("a memory-bound pass gained: its fewer weight bytes paid where integer units had little to speed up"
               if gained else "at this batch no gain showed beyond noise: the bytes saved did not pay here")
    return (f"lesson 04 §4, {setup}: {record['value']:.2f}x against its bytes reference {record['bound']:.2f}x "
            f"(noise ±{noise:.0%}): {said}; {reading}")


def small_batch_part(m) -> Part:
    """Row B11's small-batch evidence: lesson 04 §4's record where the ledger keeps one, else where to read it."""
    found = m["results"].get("quantize_small")
    if found is None:
        return Part(f"{sections.cite(('04', 'Quantization'))} times the same int8 variants at batch 1 too, where its "
                    "roofline calls the pass memory-bound; the ledger keeps only its large batch, so this page "
                    "quotes no small-batch figure: read it there", LEDGER, "not recorded: lesson 04 keeps none")
    return found.part(small_batch_words(found.record))
