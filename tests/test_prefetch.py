"""utils.prefetch (lesson 05): the slow data set, epoch timing against its bound, the Prefetcher's threads,
loader notes, transfer bytes, and lab 05's checks failing deliberately wrong answers.

Every cost here is a sleep (simulated I/O), so the timing assertions hold on a busy machine too.
"""

from __future__ import annotations

import gc
import threading
import time
import warnings

import psutil
import pytest
import torch
from torch.utils.data import DataLoader

from utils import bench, checks
from utils import prefetch as P
from utils.data import digits_28


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


def slow_items(n, seconds, fail_at=None):
    """A generator standing in for a loader: item k after ``seconds`` of waiting."""
    for k in range(n):
        time.sleep(seconds)
        if k == fail_at:
            raise ValueError(f"item {k} is corrupt")
        yield k


# --- the data set --------------------------------------------------------------------------------------


@pytest.mark.timeout(30)
def test_uint8_images_decode_back_to_the_course_digits():
    images, labels = P.digits_uint8(20)
    assert images.dtype == torch.uint8 and images.shape == (20, 1, 28, 28) and labels.shape == (20,)
    reference, reference_labels = digits_28("train").tensors
    assert torch.equal(labels, reference_labels[:20])
    step = 1 / 255 / 0.3081  # one uint8 level, normalised
    assert (P.decode_images(images) - reference[:20]).abs().max() <= step / 2 + 1e-6


@pytest.mark.timeout(30)
def test_slow_digits_reads_a_batch_in_one_wait_and_can_decode_on_the_host():
    data = P.SlowDigits(64, item_seconds=0.002)
    start = time.perf_counter()
    images, labels = next(iter(DataLoader(data, batch_size=32)))
    assert time.perf_counter() - start >= 32 * 0.002
    assert images.dtype == torch.uint8 and images.shape == (32, 1, 28, 28)
    image, _ = P.SlowDigits(4, 0.0, decode_on_host=True)[1]
    assert image.dtype == torch.float32 and torch.equal(image, P.decode_images(data.images[1]))


def test_the_bound_is_the_sum_without_loaders_and_the_max_with_them():
    assert P.bound(3.0, 2.0, loaders=0) == 5.0
    assert P.bound(3.0, 2.0, loaders=1) == 3.0
    assert P.bound(3.0, 2.0, loaders=2) == 2.0
    assert "loading" in P.bottleneck(3.0, 2.0, 1) and "compute" in P.bottleneck(3.0, 2.0, 2)


# --- epochs ---------------------------------------------------------------------------------------------


@pytest.mark.timeout(30)
def test_run_epoch_times_waits_and_compute_on_one_row():
    result = P.run_epoch(slow_items(5, 0.01), lambda batch: time.sleep(0.01), wait_name="load")
    assert result.batches == 5
    assert [s.name for s in result.spans] == ["load", "compute"] * 5
    assert 0.05 <= result.wait_seconds < result.seconds and 0.2 < result.busy < 0.8


@pytest.mark.timeout(30)
def test_train_step_learns_on_uint8_batches_and_respects_its_floor():
    from utils import models

    step = P.train_step(models.ArticleCNN(seed=0), "cpu", min_seconds=0.05)
    batch = (P.SlowDigits(16, 0.0).images, P.SlowDigits(16, 0.0).labels)
    start = time.perf_counter()
    first = step(batch)
    assert time.perf_counter() - start >= 0.05
    for _ in range(5):
        last = step(batch)
    assert last < first


# --- the Prefetcher --------------------------------------------------------------------------------------


@pytest.mark.timeout(30)
def test_prefetcher_gives_every_item_in_order_and_can_run_again():
    prefetcher = P.Prefetcher(range(10), transform=lambda k: k * 10)
    assert list(prefetcher) == [k * 10 for k in range(10)]
    assert list(prefetcher) == [k * 10 for k in range(10)]  # a second epoch
    assert [s.index for s in prefetcher.spans()] == list(range(10))


@pytest.mark.timeout(30)
def test_prefetcher_overlaps_loading_with_compute():
    n, seconds = 10, 0.03  # load and compute 30 ms each: 0.6 s one after the other, ~0.33 s overlapped
    sequential = P.run_epoch(slow_items(n, seconds), lambda b: time.sleep(seconds))
    overlapped = P.run_epoch(P.Prefetcher(slow_items(n, seconds)), lambda b: time.sleep(seconds))
    assert sequential.seconds >= 2 * n * seconds
    assert overlapped.seconds < 0.75 * sequential.seconds, (overlapped.seconds, sequential.seconds)
    assert overlapped.wait_seconds < 0.5 * sequential.wait_seconds


@pytest.mark.timeout(30)
def test_prefetcher_thread_ends_on_exhaustion_close_break_and_with():
    before = threading.active_count()
    batches = iter(P.Prefetcher(slow_items(3, 0.0)))
    assert list(batches) == [0, 1, 2]
    assert threading.active_count() == before  # exhausted: joined

    batches = iter(P.Prefetcher(slow_items(1000, 0.001)))
    next(batches)
    assert threading.active_count() == before + 1
    batches.close()
    assert threading.active_count() == before

    for k in P.Prefetcher(slow_items(1000, 0.001)):  # break: the loop drops the pass, GC stops its thread
        if k == 2:
            break
    gc.collect()
    assert threading.active_count() == before

    with P.Prefetcher(slow_items(1000, 0.001)) as prefetcher:
        next(iter(prefetcher))
    assert threading.active_count() == before


@pytest.mark.timeout(30)
def test_prefetcher_reraises_the_producers_error_in_the_consumer():
    before = threading.active_count()
    got = []
    with pytest.raises(ValueError, match="item 3 is corrupt"):
        for k in P.Prefetcher(slow_items(10, 0.0, fail_at=3)):
            got.append(k)
    assert got == [0, 1, 2] and threading.active_count() == before


@pytest.mark.timeout(60)
def test_prefetcher_over_dataloader_workers_leaves_no_process():
    loader = DataLoader(P.SlowDigits(64, 0.0), batch_size=16, num_workers=2)
    for images, _ in P.Prefetcher(loader, transform=P.decode_pair):
        assert images.dtype == torch.float32
        break
    gc.collect()  # the autouse fixture checks that the workers are gone


def test_prefetcher_rejects_a_zero_depth():
    with pytest.raises(ValueError, match="depth"):
        P.Prefetcher([], depth=0)


# --- loader notes, the monitor's device row, transfer bytes ---------------------------------------------


def test_loader_notes_explain_the_expected_warnings_and_pass_others_through(capsys):
    with pytest.warns(RuntimeWarning, match="something else"):
        with P.loader_notes() as notes:
            warnings.warn("This DataLoader will create 4 worker processes in total. Our suggested max number "
                          "of worker in current system is 2, which is smaller than what this DataLoader is "
                          "going to create.", UserWarning)
            warnings.warn("'pin_memory' argument is set as true but no accelerator is found, then device "
                          "pinned memory won't be used.", UserWarning)
            warnings.warn("something else", RuntimeWarning)
    assert len(notes) == 2 and "4 loader workers on 2 CPU cores" in notes[0] and "pin_memory" in notes[1]
    assert capsys.readouterr().out.count("note:") == 2


@pytest.mark.skipif(torch.cuda.is_available(), reason="pinning works with a GPU: no warning to explain")
def test_pin_memory_without_a_gpu_becomes_one_note(capsys):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # nothing may escape the notes
        with P.loader_notes() as notes:
            list(DataLoader(P.SlowDigits(8, 0.0), batch_size=4, pin_memory=True))
    assert notes and "pin_memory does nothing without a GPU" in notes[0]


def test_busy_meter_and_device_sampler_show_the_simulated_device():
    meter = P.BusyMeter()
    t0 = time.perf_counter()
    with meter.busy():
        time.sleep(0.05)
    time.sleep(0.05)
    assert 0.3 < meter.fraction(t0, time.perf_counter()) < 0.7

    class FakeSampler:
        no_gpu_reason = "no GPU here"

        def sample(self):
            return {"t": 0.0, "gpus": [], "host": {"cpu": 50.0, "mem_used": 1.0},
                    "workers": [{"pid": 42, "label": "pid 42", "cpu": 10.0, "rss": 1}]}

    sample = P.DeviceSampler(meter, base=FakeSampler()).sample()
    assert [w["label"] for w in sample["workers"]] == ["loader worker 1", "device (simulated)"]


@pytest.mark.timeout(30)
def test_uint8_transfer_moves_a_quarter_of_the_bytes():
    result = P.measure_transfer(4, "cpu", side=64, repeats=2)
    assert result.byte_ratio == 4 and result.float_bytes == 4 * 3 * 64 * 64 * 4
    assert min(result.float_seconds, result.uint8_seconds, result.uint8_decode_seconds) > 0


def test_the_prefetch_benchmark_is_registered():
    assert "prefetch" in bench.REGISTRY and bench.REGISTRY["prefetch"] is P.bench_prefetch


# --- lab 05's checks fail deliberately wrong answers ------------------------------------------------------

SMALL = P.LabSetup(n_items=96, batch_size=16, item_seconds=0.004, step_seconds=0.03)


def _right_to_device(batch, device):
    images, labels = batch
    return P.decode_images(images.to(device)), labels.to(device)


@pytest.mark.timeout(30)
def test_check_data_passes_the_solution_and_shuffled_batches():
    assert P.check_data(lambda d: DataLoader(d, batch_size=16), _right_to_device, setup=SMALL, show=False).passed
    assert P.check_data(lambda d: DataLoader(d, batch_size=16, shuffle=True), _right_to_device, setup=SMALL,
                        show=False).passed


@pytest.mark.timeout(30)
def test_check_data_fails_float_batches_a_missing_decode_and_a_short_epoch():
    as_float = P.check_data(lambda d: ((P.decode_images(x), y) for x, y in DataLoader(d, batch_size=16)),
                            _right_to_device, setup=SMALL, show=False)
    assert as_float.status == checks.FAILED and "send uint8" in as_float.message
    no_decode = P.check_data(lambda d: DataLoader(d, batch_size=16), lambda b, dev: tuple(b), setup=SMALL,
                             show=False)
    assert no_decode.status == checks.FAILED
    short = P.check_data(lambda d: DataLoader(d, batch_size=16, drop_last=True, sampler=range(40)),
                         _right_to_device, setup=SMALL, show=False)
    assert short.status == checks.FAILED and "one pass gave 32 items" in short.message


# Loading twice as slow as in SMALL: without workers the epoch is load + compute, at least twice the bound
# max(load / 2, compute), so a noisy compute measurement on a busy machine cannot let the wrong answer pass.
LOAD_HEAVY = P.LabSetup(n_items=96, batch_size=16, item_seconds=0.008, step_seconds=0.03)


@pytest.mark.timeout(60)
def test_check_epoch_fails_loading_in_the_training_process_and_names_the_bottleneck():
    verdict = P.check_epoch(lambda d: DataLoader(d, batch_size=16), _right_to_device, setup=LOAD_HEAVY,
                            show=False)
    assert verdict.status == checks.FAILED
    assert "In your run loading is the bottleneck" in verdict.message and "against a bound of" in verdict.message


def test_checks_report_not_done_yet_for_stubs():
    def stub(*args):
        raise NotImplementedError("configure the loader")

    assert P.check_data(stub, stub, setup=SMALL, show=False).status == checks.NOT_DONE
    assert P.check_epoch(stub, stub, setup=SMALL, show=False).status == checks.NOT_DONE


# --- review fixes: per-process set-up, bound formulas, median epochs, the device-busy plot -----------------


@pytest.mark.timeout(60)
def test_open_cost_is_paid_once_per_process_so_persistent_workers_save_it():
    data = P.SlowDigits(32, 0.0, open_seconds=0.2)
    start = time.perf_counter()
    data.open()
    data.open()
    assert 0.18 < time.perf_counter() - start < 0.35  # once in this process
    assert P.measure_load(data, 16) < 0.15  # already open: the load term holds only reads

    def first_wait_of_epoch_2(loader):
        return [P.run_epoch(loader, lambda b: None) for _ in range(2)][1].spans[0].duration

    restarted = first_wait_of_epoch_2(DataLoader(data, batch_size=16, num_workers=1))
    kept = first_wait_of_epoch_2(DataLoader(data, batch_size=16, num_workers=1, persistent_workers=True))
    assert restarted > 0.18 and kept < restarted - 0.1


def test_bound_formula_names_the_formula_bound_uses():
    assert [P.bound_formula(w) for w in (0, 1, 2)] == ["L + C", "max(L, C)", "max(L/2, C)"]


@pytest.mark.timeout(30)
def test_median_epoch_returns_the_middle_pass_and_every_time():
    result, seconds = P.median_epoch(P.Prefetcher(range(4)), lambda b: time.sleep(0.01), epochs=3)
    assert len(seconds) == 3 and seconds == sorted(seconds) and result.seconds == seconds[1]
    assert result.batches == 4


def test_device_busy_keeps_only_the_device_row():
    from utils.monitor import Recording

    samples = [{"t": t, "gpus": [], "host": {"cpu": 100.0, "mem_used": 2e9},
                "workers": [{"pid": 0, "label": "device (simulated)", "cpu": busy, "rss": float("nan")},
                            {"pid": 7, "label": "loader worker 1", "cpu": 3.0, "rss": 1e8}]}
               for t, busy in ((0.0, 50.0), (0.1, 100.0))]
    recording = Recording(interval=0.1, samples=samples)
    assert P.device_busy(recording) == ("device (simulated)", [0.0, 0.1], [50.0, 100.0])
    fig = P.plot_device_busy({"no workers": recording})
    ax = fig.axes[0]
    assert ax.get_ylabel() == "device busy %" and len(ax.lines) == 1 and "mean 75%" in ax.lines[0].get_label()
