"""The CPU's ISA, in one place (``devices.cpu_features``), and every quantized path of lesson 04 within its
tolerance of fp32 under every ISA this machine can emulate downwards (AVX2, AVX-512 without VNNI, ...).

What each switch changes (checked in the installed torch and oneDNN): ``ATEN_CPU_CAPABILITY`` caps torch's own
kernels and inductor's generated code (``torch._inductor.cpu_vec_isa.pick_vec_isa``); ``ONEDNN_MAX_CPU_ISA``
caps oneDNN's, where the int8 matmuls run (``onednn::qlinear_pointwise`` compiled, ``aten::_int_mm`` eager).
CPUID still reports the real CPU, so ``torch.cpu._is_vnni_supported()`` (torchao's own choice) cannot see the
cap; the course's ``cpu_features`` reads the cap too. On a real AVX2 CPU eager ``_int_mm`` may take another
kernel than oneDNN's; the emulation is the stricter case.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
import torch

from utils import devices
from utils.lessons.compression import quantize

AMX_SAPPHIRE = {"avx2", "avx512f", "avx512_vnni", "avx_vnni", "avx512_bf16", "amx_int8", "amx_bf16"}
EPYC_ZEN4 = {"avx2", "avx512f", "avx512_vnni", "avx512_bf16"}
PLAIN_AVX2 = {"avx2", "fma"}


@pytest.mark.parametrize("flags, capability, cap, int8_dot, bf16_units, amx", [
    (AMX_SAPPHIRE, "AVX512", "", True, True, True),
    (EPYC_ZEN4, "AVX512", "", True, True, False),
    (PLAIN_AVX2, "AVX2", "", False, False, False),            # the machine whose int8 saturated
    (AMX_SAPPHIRE, "AVX2", "AVX2", False, False, False),       # an AMX machine pretending to be AVX2
    (AMX_SAPPHIRE, "AVX512", "AVX512_CORE", False, False, False),  # AVX-512 before VNNI (Skylake-X)
    (AMX_SAPPHIRE, "AVX512", "AVX512_CORE_VNNI", True, False, False),
    (AMX_SAPPHIRE, "AVX512", "AVX512_CORE_BF16", True, True, False),
    ({"avx2", "avx_vnni"}, "AVX2", "", True, False, False),    # Alder Lake: VNNI without AVX-512
])
def test_cpu_features_read_the_flags_and_the_cap(monkeypatch, flags, capability, cap, int8_dot, bf16_units, amx):
    monkeypatch.delenv("ATEN_CPU_CAPABILITY", raising=False)
    f = devices.cpu_features(flags, capability, cap)
    assert (f.int8_dot, f.bf16_units, f.amx, f.int8_saturates) == (int8_dot, bf16_units, amx, not int8_dot)
    assert f.describe().startswith(capability)
    assert ("capped" in f.describe()) == bool(cap)


def test_the_emulations_go_down_from_what_the_cpu_has():
    assert list(devices.isa_emulations(PLAIN_AVX2)) == ["AVX2"]
    assert list(devices.isa_emulations(EPYC_ZEN4)) == ["AVX2", "AVX512", "AVX512-VNNI", "AVX512-BF16"]


def test_each_emulated_isa_compiles_into_a_cache_of_its_own():
    """Inductor's cache key leaves the ATen CPU capability out: with one shared cache, a graph compiled natively
    (AVX-512) was served under the AVX2 cap and a compiled bf16 MLP returned inf."""
    caches = [env["TORCHINDUCTOR_CACHE_DIR"] for env in devices.isa_emulations(EPYC_ZEN4).values()]
    assert len(set(caches)) == len(caches) == 4
    assert all("isa_" in c for c in caches)


def test_the_int8_path_is_chosen_from_the_isa(monkeypatch):
    saturating = devices.CpuFeatures("AVX2", (), int8_dot=False, bf16_units=False, amx=False)
    exact = devices.CpuFeatures("AVX512", ("AVX512-VNNI (int8)",), int8_dot=True, bf16_units=True, amx=False)
    monkeypatch.setattr(devices, "cpu_features", lambda: saturating)
    assert quantize.int8_reduced_range("cpu") and "7-bit" in quantize.int8_path("cpu")
    assert not quantize.int8_reduced_range("cuda:0") and "full 8-bit" in quantize.int8_path("cuda:0")
    monkeypatch.setattr(devices, "cpu_features", lambda: exact)
    assert not quantize.int8_reduced_range("cpu") and "full 8-bit" in quantize.int8_path("cpu")


def test_sixteen_bit_pairs_saturate_a_full_range_int8_matmul_and_seven_bits_do_not():
    torch.manual_seed(0)
    layer = torch.nn.Linear(256, 64)
    x = torch.rand(8, 256)  # all positive: every activation pair near the top of its range
    exact = layer(x).detach()

    def error(**kw):
        out = quantize.emulated_int8_linear(x, layer, **kw)
        return float((out - exact).abs().max() / exact.abs().max())

    assert error(reduced_range=False, pairs_in_16_bits=False) < 0.02  # VNNI: 32-bit accumulation
    assert error(reduced_range=False, pairs_in_16_bits=True) > 0.10  # AVX2, full range: saturated
    assert error(reduced_range=True, pairs_in_16_bits=True) < 0.05   # AVX2, 7 bits: exact sums again
    model = torch.nn.Sequential(layer, torch.nn.ReLU(), torch.nn.Linear(64, 10))
    with torch.inference_mode():
        assert torch.allclose(quantize.emulated_int8_model(model, x, pairs_in_16_bits=False), model(x), atol=0.05)


def run_isa_check(env: dict[str, str]) -> dict:
    done = subprocess.run([sys.executable, "-m", "utils.tools.isa_check"], env={**os.environ, **env},
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


EMULATED = list(devices.isa_emulations()) + ["native"]


@pytest.mark.slow
@pytest.mark.parametrize("isa", EMULATED)
def test_every_quantized_path_is_within_tolerance_of_fp32_under_each_isa(isa):
    env = devices.isa_emulations().get(isa, {})
    report = run_isa_check(env)
    wrong = {n: e for n, e in report["errors"].items() if e > report["tolerance"][n]}
    assert not wrong, f"under {report['isa']}: beyond tolerance {wrong}"
    if env:
        assert "capped" in report["isa"] and report["isa"].startswith(env["ATEN_CPU_CAPABILITY"].upper())
    if report["int8_saturates"]:  # the hazard is real here: the test would catch a path that ignored it
        assert report["full_range_error"] > quantize.TOLERANCE["int8"], report
        assert "7-bit" in report["int8_path"]
    else:
        assert report["full_range_error"] <= quantize.TOLERANCE["int8"], report
