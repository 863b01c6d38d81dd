"""utils/labs/feed_the_gpu (lab 05): the checks pass the solution and fail deliberately wrong answers, naming
the bottleneck; an unfinished exercise reports "not done yet".

Every cost here is a sleep (simulated I/O), so the timing assertions hold on a busy machine too.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import torch
from helpers_prefetch import no_thread_or_process_left  # noqa: F401 - autouse: nothing left running
from torch.utils.data import DataLoader

from utils import bench, checks, devices
from utils.labs.feed_the_gpu.checks import LabSetup, check_data, check_epoch, lab_dataset, lab_setup
from utils.lessons.data_prefetch.dataset import decode_images
from utils.lessons.data_prefetch.plan import lesson_settings
from utils.tools.nbtools import strip_solutions

SMALL = LabSetup(n_items=96, batch_size=16, item_seconds=0.004, step_seconds=0.03)
LAB_NOTEBOOK = Path(__file__).resolve().parents[1] / "labs" / "05_feed_the_gpu.ipynb"


def _right_to_device(batch, device):
    images, labels = batch
    return decode_images(images.to(device)), labels.to(device)


@pytest.mark.timeout(30)
def test_check_data_passes_the_solution_and_shuffled_batches():
    assert check_data(lambda d: DataLoader(d, batch_size=16), _right_to_device, setup=SMALL,
                      show=False).passed
    assert check_data(lambda d: DataLoader(d, batch_size=16, shuffle=True), _right_to_device, setup=SMALL,
                      show=False).passed


@pytest.mark.timeout(30)
def test_check_data_fails_float_batches_a_missing_decode_and_a_short_epoch():
    as_float = check_data(lambda d: ((decode_images(x), y) for x, y in DataLoader(d, batch_size=16)),
                          _right_to_device, setup=SMALL, show=False)
    assert as_float.status == checks.FAILED and "send uint8" in as_float.message
    no_decode = check_data(lambda d: DataLoader(d, batch_size=16), lambda b, dev: tuple(b), setup=SMALL,
                           show=False)
    assert no_decode.status == checks.FAILED
    short = check_data(lambda d: DataLoader(d, batch_size=16, drop_last=True, sampler=range(40)),
                       _right_to_device, setup=SMALL, show=False)
    assert short.status == checks.FAILED and "one pass gave 32 items" in short.message


# Loading far slower than the step's floor: without workers the epoch is load + compute = 1.6 s + 2 steps, and
# the bound max(load / 2, compute) = max(0.8 s, 2 steps); within 10% of it only if a step took 8 s, which not
# even a busy shared machine makes a one-thread step of this CNN take, so the wrong answer cannot pass.
LOAD_HEAVY = LabSetup(n_items=32, batch_size=16, item_seconds=0.05, step_seconds=0.03)


@pytest.mark.timeout(60)
def test_check_epoch_fails_loading_in_the_training_process_and_names_the_bottleneck():
    with bench.threads(1):  # two torch threads on a busy 2-core machine can stall a step for its slower half
        verdict = check_epoch(lambda d: DataLoader(d, batch_size=16), _right_to_device, setup=LOAD_HEAVY,
                              show=False)
    assert verdict.status == checks.FAILED
    assert "In your run loading is the bottleneck" in verdict.message
    assert "against a bound of" in verdict.message


def test_checks_report_not_done_yet_for_stubs():
    def stub(*args):
        raise NotImplementedError("configure the loader")

    assert check_data(stub, stub, setup=SMALL, show=False).status == checks.NOT_DONE
    assert check_epoch(stub, stub, setup=SMALL, show=False).status == checks.NOT_DONE


def test_the_lab_data_set_is_uint8_with_the_labs_read_cost():
    setup = lab_setup(lesson_settings(devices.plan(2, n_gpus=0), None))  # cpu mode's sizes
    assert (setup.n_items, setup.batch_size, setup.item_seconds, setup.step_seconds) == (512, 16, 0.003, 0.04)
    data = lab_dataset(setup)
    assert len(data) == setup.n_items and data.item_seconds == setup.item_seconds
    assert data.images.dtype == torch.uint8 and data[0][0].dtype == torch.uint8


# --- review fixes: hints that point to the concept, duplicated digits in larger data sets -------------------


@pytest.mark.timeout(60)
def test_check_data_accepts_shuffled_passes_over_repeated_digits_and_fails_a_duplicate():
    big = LabSetup(n_items=2000, batch_size=250, item_seconds=0.0, step_seconds=0.0)  # past the 1,437 digits
    assert check_data(lambda d: DataLoader(d, batch_size=250, shuffle=True), _right_to_device, setup=big,
                      show=False).passed

    def one_item_twice(d):  # item 1 instead of item 0: as many items, one missing and one twice
        for images, labels in DataLoader(d, batch_size=250):
            images, labels = images.clone(), labels.clone()
            if labels[0] != labels[1]:
                images[0], labels[0] = images[1], labels[1]
            yield images.flip(0), labels.flip(0)  # out of order, so the multiset comparison runs

    duplicated = check_data(one_item_twice, _right_to_device, setup=big, show=False)
    assert duplicated.status == checks.FAILED and "came twice" in duplicated.message


def _stub_hints() -> list[str]:
    cells = json.loads(LAB_NOTEBOOK.read_text())["cells"]
    stubs = [strip_solutions("".join(c["source"])) for c in cells if "### BEGIN SOLUTION" in "".join(c["source"])]
    return [line for stub in stubs for line in stub.splitlines() if "NotImplementedError" in line]


def test_the_stub_hints_point_to_the_lesson_not_to_the_code():
    hints = _stub_hints()
    assert len(hints) == 2 and all("lesson 05" in h for h in hints)
    for code in ("num_workers", "persistent_workers=", "DataLoader(", ".to(", "non_blocking", "decode_images"):
        assert not any(code in h for h in hints), (code, hints)


def test_check_epochs_hint_names_no_values_and_no_lone_prefetcher():
    def stub(*args):
        raise NotImplementedError

    hint = check_epoch(stub, stub, setup=SMALL, show=False).hint
    assert "two loaders" in hint and "persist" in hint and "Prefetcher on top" in hint
    assert "num_workers" not in hint and "=" not in hint and "or a Prefetcher" not in hint
