"""Lesson 07's decisions (and its benchmark's) on every fake machine (``pytest -m modes``)."""

import pytest

from utils import devices, gpu_specs
from utils.lessons.tensor_parallel.plan import CPU_BLOCKS, CPU_WIDTHS, lesson_settings

pytestmark = pytest.mark.modes


def settings(machine):
    return lesson_settings(devices.plan(2), machine.hw)


def test_sizes_grow_on_gpus_and_stay_small_on_cpu(machine):
    S = settings(machine)
    gpus = machine.mode != "cpu"
    assert (S.timing.widths == CPU_WIDTHS) == (not gpus) and (S.blocks == CPU_BLOCKS) == (not gpus)
    assert list(S.timing.widths) == sorted(S.timing.widths)
    if gpus:
        assert max(S.timing.widths) >= 4 * max(CPU_WIDTHS) and S.threads_per_worker is None
        assert S.timing.tokens * max(S.timing.widths) * 4 <= 2**26  # the largest message fits the sweep
    else:
        assert S.threads_per_worker == 1 and S.timing.threads == 1 and S.blocks.threads == 1
    assert max(S.timing.sizes) >= S.timing.tokens * max(S.timing.widths) * 4  # alpha-beta fitted up to it
    assert S.blocks.width % S.blocks.heads == 0 and S.blocks.heads % 2 == 0  # heads split over 2 ranks


def test_the_bound_is_what_the_plan_allows(machine):
    S = settings(machine)
    if machine.mode == "1gpu":
        assert S.bound == 1.0 and "share one GPU" in S.bound_why
    elif machine.mode == "cpu":
        assert S.bound == min(2.0, machine.hw.cpu_cores)
    else:
        assert S.bound == 2.0 and len(set(devices.plan(2).devices)) == 2


def test_every_label_names_where_the_numbers_were_measured(machine):
    S = settings(machine)
    assert ("simulated on CPU" in S.label) == (machine.mode == "cpu")
    if machine.mode != "cpu":
        assert machine.hw.gpus[0].name in S.label
        assert ("sharing one" in S.label) == (machine.mode == "1gpu")
    if machine.mode in ("2gpu", "ngpu"):
        assert S.link == machine.hw.link.describe()
    assert S.backend == devices.plan(2).backend


def test_the_crossover_table_uses_datasheet_links(machine):
    rows = settings(machine).datasheet_rows()
    assert {link for _, link, _, _, _ in rows} <= set(gpu_specs.LINKS)
    links = [link for _, link, _, _, _ in rows]
    assert any("PCIe" in link for link in links) and any("NVLink" in link for link in links)
    # a real pairing: each card over the link it is sold with (no SXM card on PCIe)
    assert all(gpu_specs.KNOWN_GPUS[gpu].link == link for gpu, link, _, _, _ in rows)


def test_generation_sizes_fit_the_model_and_grow_on_gpus(machine):
    g = settings(machine).generation
    assert g.width % g.heads == 0 and g.heads % 2 == 0 and g.depth % 2 == 0  # heads and stages split in two
    assert list(g.batches) == sorted(g.batches) and g.batches[0] == 1  # latency at batch 1
    assert (g.width >= 1024) == (machine.mode != "cpu")
    assert (g.threads == 1) == (machine.mode == "cpu")
