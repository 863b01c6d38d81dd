"""Lesson 05's and lab 05's decisions on every fake machine (``pytest -m modes``): sizes, where the step runs,
which cells apply, what each label says, and the notebook's compared output, from ``lesson_settings``."""

import contextlib
import io
import json
from pathlib import Path

import pytest

from utils import devices
from utils.benchmarks.prefetch import loading_setups
from utils.labs.feed_the_gpu.checks import lab_setup
from utils.lessons.data_prefetch.dataset import SlowDigits
from utils.lessons.data_prefetch.plan import BATCHES_PER_EPOCH, current_settings, lesson_settings
from utils.lessons.data_prefetch.prefetcher import Prefetcher

pytestmark = pytest.mark.modes
ROOT = Path(__file__).resolve().parents[1]
LESSON, LAB = ROOT / "notebooks" / "05_data_prefetch.ipynb", ROOT / "labs" / "05_feed_the_gpu.ipynb"


def settings(machine):
    return lesson_settings(devices.plan(2), machine.hw)


def cells(path: Path) -> list[str]:
    return ["".join(c["source"]) for c in json.loads(path.read_text())["cells"] if c["cell_type"] == "code"]


def test_sizes_fit_a_laptop_on_cpu_and_grow_on_gpus(machine):
    s = settings(machine)
    assert s.items == BATCHES_PER_EPOCH * s.batch  # the same number of batches in every mode
    if machine.mode == "cpu":
        assert (s.items, s.batch, s.transfer_images) == (512, 16, 32)
    else:
        assert s.batch >= 32 * 16 and s.transfer_images > 32
        assert s.batch * 28 * 28 * 4 * 8 < machine.hw.gpus[0].memory_total / 100  # a small share of the GPU


def test_a_batch_read_costs_tens_of_milliseconds_in_every_mode(machine):
    s = settings(machine)  # loading stays a term worth hiding, on a laptop as on a GPU
    assert 0.02 <= s.read_seconds * s.batch <= 0.06


def test_the_step_runs_on_the_first_device_of_the_plan_and_is_paced_only_when_simulated(machine):
    s = settings(machine)
    assert s.device == devices.plan(2).devices[0] == ("cpu" if machine.mode == "cpu" else "cuda:0")
    assert s.simulated == (machine.mode == "cpu")
    assert (s.step_ms > 0) == s.simulated and (s.torch_threads == 1) == s.simulated
    assert s.torch_threads in (1, None)


def test_every_label_names_where_its_number_was_measured(machine):
    s = settings(machine)
    assert ("simulated on CPU" in s.label) == ("simulated on CPU" in s.transfer_label) == (machine.mode == "cpu")
    assert "on the CPU" in s.load_label and "simulated storage" in s.load_label  # reads: the host, every mode
    if machine.mode != "cpu":
        gpu = machine.hw.gpus[0].name
        assert "cuda:0" in s.label and gpu in s.label and "simulated" not in s.label
        assert "cuda:0" in s.transfer_label and "PCIe" in s.transfer_label
        assert s.device in s.describe() and "real step" in s.describe()
    else:
        assert "simulated" in s.describe() and f"{s.step_ms:.0f} ms" in s.describe()


def test_pinning_and_the_pcie_bound_apply_only_where_a_gpu_copies(machine):
    s = settings(machine)
    assert s.pin_memory == (machine.mode != "cpu")
    if machine.mode == "cpu":
        assert s.pcie_bandwidth is None
    else:  # the copy host -> GPU 0 crosses GPU 0's own PCIe link, whatever links the GPUs to each other
        assert s.pcie_bandwidth == machine.hw.gpus[0].pcie_bandwidth > 0


def test_the_lab_and_the_benchmark_use_the_lessons_settings(machine):
    s = settings(machine)
    assert current_settings() == s
    setup = lab_setup()
    assert (setup.n_items, setup.batch_size, setup.item_seconds, setup.step_seconds) == (
        s.items, s.batch, s.read_seconds, s.step_seconds)
    assert (setup.label, setup.copy_label) == (s.label, s.transfer_label)
    assert setup.loaders == 2 and setup.tolerance == 0.10  # the lab's target is the same in every mode
    made = {name: make() for name, (_, make) in loading_setups(SlowDigits(32, 0.0), s).items()}
    for name, batches in made.items():  # nothing starts until iterated: no worker, no thread, no CUDA
        loader = batches.batches if isinstance(batches, Prefetcher) else batches
        assert loader.batch_size == s.batch
        assert loader.pin_memory == (s.pin_memory and loader.num_workers > 0)
        if isinstance(batches, Prefetcher):
            assert str(batches.device) == s.device


def test_the_compared_output_of_the_lesson_is_the_same_in_every_mode(machine):
    lesson = cells(LESSON)
    checked = [c for c in lesson if c.startswith("# NBVAL_CHECK_OUTPUT")]
    settings_cell = next(c for c in lesson if "lesson_settings(devices.plan(2), devices.hardware())" in c)
    data_cell = next(c for c in checked if "S." in c)
    assert all("S." not in c for c in checked if c is not data_cell)  # the others use no setting
    stored = next(c for c in json.loads(LESSON.read_text())["cells"] if "".join(c["source"]) == data_cell)
    expected = "".join("".join(o["text"]) for o in stored["outputs"] if o.get("name") == "stdout")
    scope = {}
    exec("from torch.utils.data import DataLoader\n"
         "from utils.lessons.data_prefetch.dataset import SlowDigits", scope)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(settings_cell, scope)
        exec(data_cell, scope)
    assert scope["S"] == settings(machine)
    assert out.getvalue() == expected and expected


def test_the_labs_compared_output_uses_no_setting(machine):
    checked = [c for c in cells(LAB) if c.startswith("# NBVAL_CHECK_OUTPUT")]
    assert checked and all("S." not in c and "SETUP" not in c and "DEVICE" not in c for c in checked)
    lab_settings_cell = next(c for c in cells(LAB) if "lab_setup(S" in c)  # lab_setup(S, seed=SEED): a draw
    scope = {}
    exec(lab_settings_cell, scope)
    expected = lab_setup(settings(machine), seed=scope["SEED"])
    assert scope["SETUP"] == expected and scope["BATCH"] == expected.batch_size


def test_each_ddp_rank_gets_its_share_of_the_cores_and_the_comparison_oversubscribes(machine):
    s = settings(machine)
    assert s.ranks == devices.plan(2).world_size == 2
    cores = machine.hw.cpu_cores
    divided = max(1, cores // s.ranks)
    per_rank_batches = BATCHES_PER_EPOCH // s.ranks
    assert s.rank_worker_counts[0] == 0  # each rank reading itself
    assert min(divided, per_rank_batches) in s.rank_worker_counts  # one worker a core (cores // ranks a rank)
    assert max(s.rank_worker_counts) <= per_rank_batches  # never more workers than a rank has batches
    assert list(s.rank_worker_counts) == sorted(set(s.rank_worker_counts))
    if 2 * divided <= per_rank_batches:
        assert s.rank_worker_counts[-1] * s.ranks > cores  # the last count oversubscribes the host


def test_uneven_reads_keep_the_epochs_load(machine):
    from utils.lessons.data_prefetch.dataset import uneven_weights

    s = settings(machine)
    weights = uneven_weights(s.items, s.batch, s.uneven_every, s.uneven_factor)
    assert abs(weights.mean().item() - 1) < 1e-6 and abs(weights.max().item() - s.uneven_factor) < 1e-5
    assert s.uneven_factor > 1


def test_on_a_gpu_the_cnn_is_widened_until_its_step_is_compute(machine):
    from utils import gpu_specs
    from utils.lessons.data_prefetch.plan import (ASSUMED_EFFICIENCY, TARGET_STEP_MS, UNKNOWN_GPU_FP32,
                                                  cnn_step_flops)

    s = settings(machine)
    if machine.mode == "cpu":
        assert s.model_scale == 1.0  # the paced step stands in for the device: the article's CNN as it is
        return
    spec = gpu_specs.spec_for(machine.hw.gpus[0].name)
    rate = ASSUMED_EFFICIENCY * (spec.peak_flops["fp32"] if spec else UNKNOWN_GPU_FP32)
    estimate_ms = cnn_step_flops(s.model_scale, s.batch) / rate * 1e3
    assert 0.7 * TARGET_STEP_MS <= estimate_ms <= TARGET_STEP_MS  # tens of ms: compute, not ~100 launches
    assert cnn_step_flops(1.0, s.batch) / rate * 1e3 < 5  # the article's CNN as it is: the 1-3 ms
    weights = 4 * sum(p.numel() for p in __import__("utils.models", fromlist=["m"]).ArticleCNN(
        scale=s.model_scale).parameters())
    assert weights < machine.hw.gpus[0].memory_total / 100  # a small share of the GPU


def test_a_faster_gpu_gets_a_wider_cnn(machine):
    from utils import devices as d
    from utils.lessons.data_prefetch.plan import model_scale_for

    t4, h100 = d.GPU(0, "Tesla T4"), d.GPU(0, "NVIDIA H100 80GB HBM3")
    assert 1.0 < model_scale_for(t4, 512) < model_scale_for(h100, 512)


def test_the_recipe_follows_the_plan(machine):
    from utils.lessons.data_prefetch.plan import MODES, recipe, recipe_columns

    s = settings(machine)
    cores = machine.hw.cpu_cores
    mode = "2gpu" if machine.mode == "ngpu" else machine.mode
    rows = {knob: dict(zip(MODES, values)) for knob, *values, _ in recipe(s, cores, (1.0, 0.0), machine.mode)}
    assert rows["pin_memory"]["cpu"].startswith("False") and rows["pin_memory"]["1gpu"] == "True"
    # lesson 05's reader: each training process keeps a core (launches, hand-overs); the loaders get the rest
    assert rows["num_workers"]["2gpu"] == f"{max(0, (cores - 2) // 2)} a rank"
    assert rows["num_workers"]["1gpu"] == str(max(0, cores - 1))
    # lesson 05's reader: 2 workers on 2 cores beside a training process that computes on one of them
    assert rows["num_workers"]["cpu"] == str(max(0, cores - (s.torch_threads or 1)))
    # True wherever there are workers; torch takes only False without them (the next test builds each loader)
    assert all(v == ("True" if not rows["num_workers"][m].startswith("0") else "False (no workers)")
               for m, v in rows["persistent_workers"].items())
    copy = rows["the copy to the device"]
    assert "Prefetcher" in copy["1gpu"] and "Prefetcher" not in copy["cpu"]
    assert sum("(here)" in c for c in recipe_columns(machine.mode)) == 1
    assert "images across the link" not in {k for k, *_ in recipe(s, cores, mode=machine.mode)}  # unmeasured
    assert all(len(v) <= 40 for r in rows.values() for v in r.values())
    for measured, gpu_here in (((1.30, 0.05), "uint8"), ((1.04, 0.10), "either (no difference shown here)"),
                               ((0.60, 0.05), "float32 (uint8 slower here)")):
        *columns, why = recipe(s, cores, measured, machine.mode)[-1]
        images = dict(zip(MODES, columns[1:]))
        assert f"{measured[0]:.2f}x ± {measured[1]:.2f}" in why  # the why quotes this run's net
        assert "no GPU" in why if mode == "cpu" else "GPU's link" in why
        # this run decides this mode's column only (the no-GPU one too: lesson 05's reader found float32 there
        # beside a printed uint8 win), and only as far as its verdict goes
        # single-process CPU training has no link: nothing to act on there (lesson 05's reader)
        assert images["cpu"] == "n/a (no link)"
        if mode != "cpu":
            assert images[mode].startswith(gpu_here)
            assert sum("here)" in v for v in images.values()) == 1


def test_the_recipe_never_advises_compression_that_did_not_pay(machine):
    # lesson 05's reader: a recipe said uint8 where this machine's run measured compression slower
    from utils.lessons.data_prefetch.plan import recipe

    s = settings(machine)
    for measured in ((0.45, 0.02), (0.95, 0.10), (1.10, 0.15)):
        knob, *columns, why = recipe(s, 2, measured, machine.mode)[-1]
        assert knob == "images across the link"
        assert not any(v.startswith("uint8") and "here)" in v for v in columns)
        # lesson 05's reader: the CPU stand-in's balance, quoted without saying a GPU's differs
        assert ("balance differs" in why) == (machine.mode == "cpu")


@pytest.mark.parametrize("cores", [1, 2, 3, 4, 8, 16])
def test_every_recipe_column_builds_a_data_loader(machine, cores):
    # lesson 05's reader: the two-GPU column read "0 a rank" beside persistent_workers True and
    # prefetch_factor 2, which torch's DataLoader refuses without workers: every column must build a loader
    import re

    from torch.utils.data import DataLoader

    from utils.lessons.data_prefetch.plan import MODES, recipe

    rows = {knob: dict(zip(MODES, values)) for knob, *values, _ in recipe(settings(machine), cores)}
    for mode in MODES:
        workers = int(re.match(r"\d+", rows["num_workers"][mode]).group())
        persistent = rows["persistent_workers"][mode].split()[0] == "True"
        depth = rows["prefetch_factor"][mode].split(";")[0].split()[0]
        loader = DataLoader(list(range(8)), batch_size=2, num_workers=workers, persistent_workers=persistent,
                            prefetch_factor=None if depth == "None" else int(depth))
        assert loader.num_workers == workers


def test_the_recipe_keeps_float32_where_the_uint8_images_differed(machine):
    # lesson 05, rule 3: a speed-up counts only for outputs within tolerance of the reference (float32's)
    from utils.lessons.data_prefetch.plan import recipe

    s = settings(machine)
    paid = recipe(s, 2, (2.08, 0.05), machine.mode)[-1]   # paid beyond noise, the images within tolerance
    differed = recipe(s, 2, (2.08, 0.05), machine.mode, same_inputs=False)[-1]
    assert "the bytes saved outweighed the conversion" in paid[-1]
    assert "the speed-up does not count" in differed[-1] and "outweighed" not in differed[-1]
    assert not any(v.startswith("uint8") and "here)" in v for v in differed[1:-1])
    if machine.mode != "cpu":   # a GPU column of this mode: uint8 where it paid, float32 where it differed
        assert any(v.startswith("uint8") and "paid here" in v for v in paid[1:-1])
        assert "float32 (uint8's images differed here)" in differed[1:-1]
