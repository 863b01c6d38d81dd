"""utils/labs/feed_the_gpu (lab 05): the checks pass the solution and fail deliberately wrong answers, naming
the bottleneck; an unfinished exercise reports "not done yet".

Every cost here is a sleep (simulated I/O), so the timing assertions hold on a busy machine too.
"""

from __future__ import annotations

import pytest
import torch
from helpers_prefetch import no_thread_or_process_left  # noqa: F401 - autouse: nothing left running
from torch.utils.data import DataLoader

from utils import checks
from utils.labs.feed_the_gpu.checks import LAB, LabSetup, check_data, check_epoch, lab_dataset
from utils.lessons.data_prefetch.dataset import decode_images

SMALL = LabSetup(n_items=96, batch_size=16, item_seconds=0.004, step_seconds=0.03)


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


# Loading twice as slow as in SMALL: without workers the epoch is load + compute, at least twice the bound
# max(load / 2, compute), so a noisy compute measurement on a busy machine cannot let the wrong answer pass.
LOAD_HEAVY = LabSetup(n_items=96, batch_size=16, item_seconds=0.008, step_seconds=0.03)


@pytest.mark.timeout(60)
def test_check_epoch_fails_loading_in_the_training_process_and_names_the_bottleneck():
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
    data = lab_dataset()
    assert len(data) == LAB.n_items and data.item_seconds == LAB.item_seconds
    assert data.images.dtype == torch.uint8 and data[0][0].dtype == torch.uint8

