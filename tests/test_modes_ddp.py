"""Lesson 03's decisions (and its benchmark's and labs') on every fake machine (``pytest -m modes``)."""

import pytest

from utils import devices
from utils.benchmarks.ddp import benchmark_settings
from utils.labs.ddp_from_scratch.checks import weight_tolerance
from utils.lessons.ddp import cli
from utils.lessons.ddp.plan import CPU_MODEL, lesson_settings
from utils.lessons.ddp.settings import Settings

pytestmark = pytest.mark.modes


def settings(machine):
    return lesson_settings(devices.plan(2), machine.hw)


def gpt_parameters(model: dict) -> int:
    """The cost model of the sizes: a transformer block holds about 12 width² weights."""
    return 12 * model["depth"] * model["width"] ** 2


def test_sizes_grow_on_gpus_and_stay_small_on_cpu(machine):
    S = settings(machine)
    gpus = machine.mode != "cpu"
    assert (S.model == CPU_MODEL) == (not gpus)
    if gpus:
        assert gpt_parameters(S.model) > 10 * gpt_parameters(CPU_MODEL) and S.batch_per_worker > 16
        assert max(S.allreduce_sizes) >= 2**28 and S.threads_per_worker is None
    else:
        assert max(S.allreduce_sizes) <= 2**24 and S.threads_per_worker == 1
    assert list(S.allreduce_sizes) == sorted(S.allreduce_sizes)
    assert S.bucket_mb * 2**20 > 4 * gpt_parameters(S.model)  # one bucket holds every fp32 gradient


def test_the_scaling_bound_is_what_the_plan_allows(machine):
    S, plan = settings(machine), devices.plan(2)
    if machine.mode == "1gpu":
        assert S.scaling_bound == 1.0 and "share one GPU" in S.scaling_bound_why
    elif machine.mode == "cpu":
        assert S.scaling_bound == min(2.0, machine.hw.cpu_cores)
    else:
        assert S.scaling_bound == 2.0 and len(set(plan.devices)) == 2


def test_one_and_two_workers_run_on_the_same_backend(machine):
    S = settings(machine)
    assert S.backend == devices.plan(2).backend
    one = devices.plan(1, backend=S.backend)  # the 1-worker scaling run: legal on this backend here
    assert one.backend == S.backend and one.devices[0] == devices.plan(2).devices[0]


def test_every_label_names_where_the_numbers_were_measured(machine):
    S = settings(machine)
    assert ("simulated on CPU" in S.label) == (machine.mode == "cpu")
    if machine.mode != "cpu":
        assert machine.hw.gpus[0].name in S.label
        assert ("sharing one" in S.label) == (machine.mode == "1gpu")


def test_where_two_ranks_share_a_gpu_1x_is_an_expectation_not_a_bound(machine):
    S = settings(machine)
    assert S.scaling_is_bound == (machine.mode != "1gpu")  # cpu (2 cores), 2gpu, ngpu: 2x is a bound
    assert S.scaling_is_bound == (S.scaling_bound == 2.0)


def test_the_all_reduce_bound_is_the_link_between_the_ranks(machine):
    S = settings(machine)
    assert S.measure_host_bound == (machine.mode == "cpu")
    if machine.mode in ("2gpu", "ngpu"):
        assert S.allreduce_bound == machine.hw.link.bandwidth and machine.hw.link.describe() in S.allreduce_bound_label
    else:
        assert S.allreduce_bound is None  # cpu: measured in the notebook; 1gpu: no link between the ranks


def test_bf16_is_measured_everywhere_and_flagged_where_it_is_emulated(machine):
    S = settings(machine)
    assert "bf16" in S.hooks and "fp16" in S.hooks
    assert bool(S.bf16_note) == ("T4" in machine.name)
    assert S.powersgd_trap == (S.backend == "gloo")


def test_the_restart_comparison_holds_on_gpus_too(machine):
    S = settings(machine)
    if machine.mode == "cpu":
        assert not S.deterministic and S.restart_tolerance == 0.0
    else:  # deterministic kernels, and a gap far below one AdamW step (~lr) still counts as the same weights
        assert S.deterministic and 0 < S.restart_tolerance <= Settings.lr / 10
    assert S.restart_tolerance_why


def test_the_benchmark_and_the_command_line_use_the_lesson_sizes(machine):
    S = settings(machine)
    s = benchmark_settings(S)
    assert (s.width, s.batch_per_worker, s.threads) == (S.model["width"], S.batch_per_worker, S.threads_per_worker)
    assert cli.parse_settings(cli.command_flags(s).split())[0] == s


def test_lab_tolerances_are_exact_on_cpu_and_looser_where_gpus_sum_otherwise(machine):
    plan = devices.plan(2)
    cpu = machine.mode == "cpu"
    assert (weight_tolerance(plan) == 1e-5) == cpu and weight_tolerance(plan) <= 1e-3


def test_the_all_reduce_expectation_follows_peer_access_and_the_fabric(machine):
    """A healthy busbw is not 80 % of every link: two T4s without peer access stage through host memory
    (35-60 %); peer-to-peer PCIe and NVLink reach more; NVLS passes the link's rate only with more than 2 ranks."""
    S = settings(machine)
    e = S.allreduce_expected
    if machine.mode not in ("2gpu", "ngpu"):
        assert e is None  # no link between the ranks (1gpu), or measured as a reference (cpu)
        return
    link = machine.hw.link
    if link.kind == "PCIe":
        assert link.peer_access is False and (e.low, e.high) == (0.35, 0.60) and "host memory" in e.why
        assert "NCCL_P2P_DISABLE=1" in e.advice
    else:
        assert (e.low, e.high) == (0.70, 0.90) and e.high <= 1.0  # 2 ranks: nothing may pass the link's rate
    assert "within" in e.reading((e.low + e.high) / 2) and "below" in e.reading(e.low / 2)


def test_nvls_may_pass_the_per_direction_figure_on_hopper_behind_an_nvswitch_with_more_than_two_ranks(machine):
    from utils import machine as profile

    if machine.mode not in ("2gpu", "ngpu"):
        return
    four = profile.all_reduce_expectation(machine.hw.link, machine.hw.gpus, world=4)
    hopper_switch = machine.hw.link.via_switch and machine.hw.gpus[0].compute_capability >= (9, 0)
    assert (four.high > 1.0) == hopper_switch and ("NVLS" in four.why) == hopper_switch


def test_gpus_train_in_the_regime_a_practitioner_uses_there_and_cpus_in_fp32(machine):
    """fp32 without TF32 on a GPU hides every all-reduce behind a slow step: the lesson's runs train in bf16
    from Ampere on and in fp16 (with a scaler) on a T4; the loss comparison's tolerance follows."""
    S = settings(machine)
    expected = {"cpu": "fp32"}.get(machine.mode, "fp16" if "T4" in machine.name else "bf16")
    assert S.precision == expected and S.training().precision == expected
    assert (S.loss_tolerance == 1e-3) == (expected == "fp32") and S.loss_tolerance <= 2e-2
    assert S.loss_tolerance_why == ("float32 sums: 1e-3" if expected == "fp32" else
                                    f"{expected} matmuls (8-11 bits), other orders: 2e-2")
    assert ("--precision" in cli.command_flags(S.training())) == (expected != "fp32")  # torchrun runs it too
