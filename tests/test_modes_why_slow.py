"""Lesson 01's decisions on every fake machine (``pytest -m modes``): device, sizes, dtypes, peak source, labels."""

import pytest

from utils import devices
from utils.lessons.why_slow.plan import CPU_MODEL, lesson_settings

pytestmark = pytest.mark.modes


VNNI = devices.cpu_features(flags={"avx2", "avx512f", "avx512_vnni"}, capability="AVX512", onednn_max="")
PLAIN_AVX2 = devices.cpu_features(flags={"avx2"}, capability="AVX2", onednn_max="")


def settings(machine, cpu=VNNI):
    return lesson_settings(devices.plan(1), machine.hw, cpu)


def test_everything_runs_on_the_first_device_of_the_plan(machine):
    S = settings(machine)
    assert S.device == devices.plan(1).devices[0] == ("cpu" if machine.mode == "cpu" else "cuda:0")
    assert S.simulated == (machine.mode == "cpu") and S.on_gpu == (machine.mode != "cpu")


def test_sizes_stay_small_on_cpu_and_grow_on_gpus(machine):
    S = settings(machine)
    if machine.mode == "cpu":
        assert S.model == CPU_MODEL and S.peak_matmul <= 1024
        assert 3 * S.stream_bytes > 64 * 2**20  # STREAM's three arrays far beyond a 32 MiB L3
    else:
        assert S.model["width"] > CPU_MODEL["width"] and S.peak_matmul >= 4096 and S.stream_bytes >= 2**28
    assert S.stream_bytes == 4 * S.elementwise_numel  # the bandwidth is measured on the ops' own operand size
    for axis, values in S.grid.items():
        assert list(values) == sorted(values) and S.model[axis] in values  # the base model is on every axis
    assert list(S.transfer_sizes) == sorted(S.transfer_sizes)


def test_peak_dtypes_follow_the_isa_and_the_gpu(machine):
    S = settings(machine)
    assert S.peak_dtypes[0] == "fp32" and S.step_dtype in S.peak_dtypes
    if machine.mode == "cpu":
        assert S.peak_dtypes == ("fp32", "bf16", "int8") and S.step_dtype == "fp32"
        assert settings(machine, PLAIN_AVX2).peak_dtypes == ("fp32", "bf16")  # no exact int8 dot products: not a peak
    elif "T4" in machine.name:
        assert S.peak_dtypes == ("fp32", "fp16", "int8")  # no bf16 arithmetic before compute capability 8.0
    else:
        assert S.peak_dtypes == ("fp32", "bf16", "int8")


def test_the_datasheet_is_known_for_every_fake_gpu_and_absent_on_cpu(machine):
    S = settings(machine)
    if machine.mode == "cpu":
        assert S.datasheet is None
    else:
        assert S.datasheet is not None and S.step_dtype in S.datasheet.peak_flops


def test_every_label_names_where_the_numbers_were_measured(machine):
    S = settings(machine)
    if machine.mode == "cpu":
        assert "CPU" in S.label
    else:
        assert machine.hw.gpus[0].name in S.label and "cuda:0" in S.label
    assert S.trace_dir.startswith("results/traces")


def test_the_roofline_runs_on_one_cpu_thread_and_its_matrix_vector_product_misses_the_caches(machine):
    S = settings(machine)
    assert S.measure_threads == (1 if machine.mode == "cpu" else None)
    assert 4 * S.matvec**2 >= (2**30 if S.on_gpu else 64 * 2**20)  # beyond a GPU's L2, a CPU's L3


def test_the_profile_measures_fp32_on_the_lessons_threads_and_every_dtype_on_all_of_them(machine):
    """One profile, measured once: the ceilings set beside the lesson's work (fp32 on ``measure_threads``)
    and the machine's fastest figures (every dtype on all threads); on a GPU one figure per dtype."""
    S = settings(machine)
    if machine.mode == "cpu":
        assert S.profile_peaks == {1: ("fp32",), None: S.peak_dtypes} and S.bandwidth_threads == (1, None)
        assert S.measure_threads in S.profile_peaks and S.measure_threads in S.bandwidth_threads
    else:
        assert S.profile_peaks == {None: S.peak_dtypes} and S.bandwidth_threads == (None,)
    assert S.step_dtype in S.profile_peaks[None]  # MFU's peak is in the profile


def test_the_link_is_measured_up_to_a_size_its_bandwidth_dominates(machine):
    S = settings(machine)
    assert S.transfer_sizes[0] <= 4096 and S.transfer_sizes[-1] >= (2**28 if S.on_gpu else 2**24)
    assert S.transfer_sizes[-1] <= (2**28 if S.on_gpu else 2**24)  # gloo's 64 MiB messages only cost time


def _fake_run(S):
    """A machine profile, an MFU and a roofline as lesson 01 would measure them on ``S`` (nothing is timed)."""
    from utils import machine as m
    from utils.lessons.why_slow import roofline, utilisation
    from utils.lessons.why_slow.peak import Ceilings

    def threads(t):
        return None if S.on_gpu else (t or 2)

    ceilings = [m.Ceiling("matmul peak", d, threads(t), f"{S.peak_matmul}³", 1e11 * (k + 1) * (threads(t) or 1),
                          9e10, 0.1, "ops/s" if d == "int8" else "FLOP/s")
                for t, dtypes in S.profile_peaks.items() for k, d in enumerate(dtypes)]
    ceilings += [m.Ceiling("memory bandwidth", "fp32", threads(t), "STREAM add, 32 MiB arrays", 2e10 * (threads(t) or 1),
                           1.8e10, 0.1, "B/s") for t in S.bandwidth_threads]
    profile = m.MachineProfile(S.device, list({c.name: c for c in ceilings}.values()))
    peak, bw = profile.peak("fp32", S.measure_threads), profile.bandwidth(S.measure_threads)
    roof = Ceilings.of(peak, bw)
    points = [roofline.Point(op, op.flops / roof.attainable(op.intensity), 0.1, roof.attainable(op.intensity),
                             roof.bound(op.intensity)) for op in roofline.lesson_ops(S)]
    u = utilisation.StepUtilisation(1e12, [0.02, 0.021], [1e11, 1.1e11], S.step_dtype, peak.threads, peak.name)
    return profile, roofline.Roofline(roof, peak, bw, points, peak.threads), u


def test_the_lessons_sentences_name_the_right_ceilings_in_every_mode(machine):
    """Which ceilings a sentence quotes (one thread or all, a datasheet or none) is decided per mode."""
    from utils.lessons.why_slow import hardware, report

    S = settings(machine)
    profile, roof, u = _fake_run(S)
    text = report.profile_sentence(profile, S)
    half = S.peak_dtypes[1]
    lines = report.hardware_sentences(hardware.datasheet_rows(), hardware.ridge_range(),
                                      hardware.more_bandwidth_pairs(), profile, half, "this machine", roof)
    notes = " ".join(report.roofline_notes(roof, profile)) + report.mfu_notes(u, profile, S)
    if machine.mode == "cpu":
        assert "on 1 thread" in text and "on 2" in text and report.datasheet_table(profile, S) is None
        assert "by the threads" in lines[-1] and "1 thread" in notes
    else:
        assert "datasheet" in text and len(report.datasheet_table(profile, S).rows) == len(profile.ceilings)
        assert "by the threads" not in lines[-1] and "GPU" in notes
    assert "except the P100" in lines[0] and roof.ceilings.peak_name in report.roofline_sentence(roof)


def test_a_profile_whose_threads_measured_slower_than_one_says_why():
    from utils import machine as m
    from utils.lessons.why_slow import report

    S = lesson_settings(devices.plan(1, mode_name="cpu", n_gpus=0), devices.hardware(), VNNI)
    one = [m.Ceiling("matmul peak", "fp32", 1, "1024³", 1.4e11, 1.3e11, 0.1, "FLOP/s"),
           m.Ceiling("memory bandwidth", "fp32", 1, "STREAM add, 32 MiB arrays", 1.7e10, 1.6e10, 0.1, "B/s")]
    slower = one + [m.Ceiling("matmul peak", "fp32", 2, "1024³", 0.9e11, 0.8e11, 0.2, "FLOP/s"),
                    m.Ceiling("memory bandwidth", "fp32", 2, "STREAM add, 32 MiB arrays", 1.3e10, 1.2e10, 0.1, "B/s")]
    faster = one + [m.Ceiling("matmul peak", "fp32", 2, "1024³", 2.8e11, 2.7e11, 0.1, "FLOP/s"),
                    m.Ceiling("memory bandwidth", "fp32", 2, "STREAM add, 32 MiB arrays", 3e10, 2.9e10, 0.1, "B/s")]
    assert "another program" in report.profile_sentence(m.MachineProfile("cpu", slower), S)
    assert "another program" not in report.profile_sentence(m.MachineProfile("cpu", faster), S)


def test_two_threads_past_the_two_core_bound_read_as_a_finding_with_a_hypothesis_not_as_a_pass():
    from utils import machine as m
    from utils.lessons.why_slow import report

    S = lesson_settings(devices.plan(1, mode_name="cpu", n_gpus=0), devices.hardware(), VNNI)
    bw = lambda threads, best, median: m.Ceiling("memory bandwidth", "fp32", threads, "STREAM copy, 32 MiB arrays",
                                                 best, median, 0.5, "B/s")
    peaks = [m.Ceiling("matmul peak", "fp32", t, "1024³", b, b, 0.1, "FLOP/s") for t, b in ((1, 1.8e11), (2, 3.5e11))]
    above = report.profile_sentence(m.MachineProfile("cpu", peaks + [bw(1, 18.7e9, 14.8e9), bw(2, 43.5e9, 31.7e9)]), S)
    # for a bandwidth the core count is a reference (one thread may not saturate the memory), not a bound
    assert "2.33x one thread's memory bandwidth" in above and "faster: 116% of the reference" in above
    assert "reference 2x, one per core" in above and "above the bound" not in above
    assert "not measured here" in above and "latency-bound" in above  # a hypothesis, named as one
    assert "faster, under the bound" in above  # the matmul's 1.94x: its own verdict, against the core bound
    # the medians' ratio (1.90x) lies on the other side of the reference: within the spread, so nothing to explain
    near = report.profile_sentence(m.MachineProfile("cpu", peaks + [bw(1, 18e9, 16e9), bw(2, 37e9, 30.4e9)]), S)
    assert "at the reference (within noise)" in near and "latency-bound" not in near


def test_the_ridge_is_worked_from_the_ceilings_as_printed(machine):
    """100.56 GFLOP/s over 30.04 GB/s print as 100.6 and 30.0: a ridge of 3.4 (100.6 / 30.0), not the
    unrounded 3.3, in section 2's sentence and in section 7's echo of it."""
    from dataclasses import replace

    from utils.lessons.why_slow import hardware, report

    S = settings(machine)
    profile, roof, _ = _fake_run(S)
    roof = replace(roof, ceilings=replace(roof.ceilings, flops=100.56e9, bandwidth=30.04e9))
    assert f"{roof.ceilings.ridge:.1f}" == "3.3"
    assert report.roofline_sentence(roof).startswith("Ridge point: 3.4 FLOPs per byte")
    lines = report.hardware_sentences(hardware.datasheet_rows(), hardware.ridge_range(),
                                      hardware.more_bandwidth_pairs(), profile, S.peak_dtypes[1], "this machine", roof)
    assert "Section 2's roofline has its ridge at 3.4:" in lines[-1]
