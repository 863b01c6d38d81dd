"""Unit tests of utils/lessons/compression (lesson 04, compression): sizes, sparsity, MACs, fusion, pruning,
channel removal, quantization wrappers, distillation loss, training, timing helpers and the benchmarks.

Small models and no timing claims: performance targets are the ``quantize`` and ``prune`` benchmarks.
"""

import copy
import inspect
import time
import warnings
from pathlib import Path

import pytest
import torch
import torch.nn.functional as F
from torch import nn
from torch.nn.utils import prune

from utils import bench, data, models, plots
from utils.benchmarks import prune as prune_benchmark
from utils.benchmarks import quantize as quantize_benchmark
from utils.lessons.compression import distill, fold, measure, pareto, precision, quantize, roofline
from utils.lessons.compression import prune as pruning
from utils.lessons.compression import train as training

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def trained_like_cnn():
    """The article CNN with non-trivial biases (some negative), as a trained one would have."""
    cnn = models.ArticleCNN(seed=0).eval()
    with torch.no_grad():
        for module in cnn.modules():
            if isinstance(module, (nn.Conv2d, nn.Linear)):
                module.bias.normal_(0, 0.3)
    return cnn


@pytest.fixture
def digits_small():
    images, labels = data.digits_28("train").tensors
    return torch.utils.data.TensorDataset(images[:256], labels[:256])


def test_model_bytes_counts_parameters_as_saved():
    small, large = nn.Linear(100, 100), nn.Linear(200, 100)
    # 100 x 100 more fp32 weights: 40,000 more bytes, the rest (names, zip records) is the same
    assert measure.model_bytes(large) - measure.model_bytes(small) == pytest.approx(40_000, abs=200)
    assert measure.model_bytes(small) > 4 * (100 * 100 + 100)


def test_model_bytes_includes_buffers():
    with_bn = nn.Sequential(nn.Linear(10, 1000), nn.BatchNorm1d(1000))
    without = nn.Sequential(nn.Linear(10, 1000), nn.Identity())
    # BN: weight, bias, running mean and var (4 x 1000 floats) and a counter
    assert measure.model_bytes(with_bn) - measure.model_bytes(without) >= 4 * 4 * 1000


def test_sparsity_counts_zero_weights_and_sees_masks():
    model = nn.Sequential(nn.Linear(10, 10), nn.ReLU(), nn.Linear(10, 10))
    assert measure.sparsity(model) == 0.0
    prune.l1_unstructured(model[0], "weight", amount=0.5)
    assert measure.sparsity(model) == pytest.approx(0.25)  # half of one of two equal layers
    fresh = nn.Sequential(nn.Linear(10, 10), nn.ReLU(), nn.Linear(10, 30))
    prune.global_unstructured(pruning.prunable(fresh), pruning_method=prune.L1Unstructured, amount=0.9)
    assert measure.sparsity(fresh) == pytest.approx(0.9)


def test_masks_double_the_weights_until_removed():
    model = nn.Sequential(nn.Linear(200, 200))
    dense = measure.model_bytes(model)
    prune.l1_unstructured(model[0], "weight", amount=0.5)
    assert measure.model_bytes(model) > 1.9 * dense
    pruning.remove_masks(model)
    assert measure.model_bytes(model) == pytest.approx(dense, abs=100)
    assert measure.sparsity(model) == pytest.approx(0.5)


def test_macs_of_the_article_cnn():
    # conv1 20*24*24*25 + conv2 50*8*8*500 + fc1 800*500 + fc2 500*10
    assert measure.macs(models.ArticleCNN(), (1, 28, 28)) == 288_000 + 1_600_000 + 400_000 + 5_000


def test_fold_batchnorm_keeps_outputs_and_removes_bn():
    cnn = models.ArticleCNN(seed=0, batchnorm=True)
    with torch.no_grad():  # BN statistics that are far from the identity
        for bn in (cnn.bn1, cnn.bn2):
            bn.running_mean.normal_(0, 1)
            bn.running_var.uniform_(0.5, 2)
            bn.weight.normal_(1, 0.5)
            bn.bias.normal_(0, 0.5)
    cnn.eval()
    folded = fold.fold_batchnorm(cnn)
    assert not any(isinstance(m, nn.BatchNorm2d) for m in folded.modules())
    assert any(isinstance(m, nn.BatchNorm2d) for m in cnn.modules())  # the original is untouched
    x = torch.randn(8, 1, 28, 28)
    torch.testing.assert_close(folded(x), cnn(x), atol=1e-4, rtol=1e-4)


def test_shrink_article_cnn_removes_channels_and_keeps_outputs(trained_like_cnn):
    pruned = copy.deepcopy(trained_like_cnn)
    for module in (pruned.conv1, pruned.conv2, pruned.fc1):
        prune.ln_structured(module, "weight", amount=0.5, n=2, dim=0)
    small = pruning.shrink_article_cnn(pruned)
    assert small.conv1.weight.shape == (10, 1, 5, 5)
    assert small.conv2.weight.shape == (25, 10, 5, 5)
    assert small.fc1.weight.shape == (250, 400)
    assert small.fc2.weight.shape == (10, 250)
    x = torch.randn(16, 1, 28, 28)
    with torch.no_grad():
        torch.testing.assert_close(small(x), pruned(x), atol=1e-4, rtol=1e-4)
    assert measure.macs(small, (1, 28, 28)) < measure.macs(pruned, (1, 28, 28)) / 3


def test_shrink_would_be_wrong_without_folding_the_dead_biases(trained_like_cnn):
    # The test above can fail: dropping zeroed channels without their relu(bias) changes the outputs.
    pruned = copy.deepcopy(trained_like_cnn)
    prune.ln_structured(pruned.fc1, "weight", amount=0.5, n=2, dim=0)
    naive = models.ArticleCNN(seed=0)
    state = {k.replace("_orig", ""): v for k, v in pruned.state_dict().items() if "mask" not in k}
    naive.load_state_dict(state)
    with torch.no_grad():
        naive.fc1.weight.mul_(pruned.fc1.weight_mask)
        naive.fc1.bias.mul_(pruned.fc1.weight_mask[:, 0])  # dropping a channel drops its bias too
        x = torch.randn(4, 1, 28, 28)
        assert (naive(x) - pruned(x)).abs().max() > 1e-3
        torch.testing.assert_close(pruning.shrink_article_cnn(pruned)(x), pruned(x), atol=1e-4, rtol=1e-4)


def test_quantize_dynamic_int8_is_quiet_small_close_and_leaves_the_original():
    mlp = training.linear_heavy_mlp(width=256, hidden_layers=2).eval()
    x = torch.randn(32, 1, 28, 28)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        int8 = quantize.quantize_dynamic_int8(mlp)
        out = int8(x)
    assert not [w for w in caught if "deprecated" in str(w.message)]
    assert isinstance(mlp[1], nn.Linear)  # the original stays fp32
    assert measure.model_bytes(mlp) / measure.model_bytes(int8) > 3.5
    reference = mlp(x)
    assert (out - reference).abs().max() < 0.05 * reference.abs().max()


def test_weight_only_int8_is_small_and_close():
    mlp = training.linear_heavy_mlp(width=256, hidden_layers=2).eval()
    small = quantize.weight_only_int8(mlp)
    assert measure.model_bytes(mlp) / measure.model_bytes(small) > 3.5
    assert small[1].weight_int8.dtype == torch.int8 and small[1].weight_int8.shape == (256, 784)
    x = torch.randn(32, 1, 28, 28)
    reference = mlp(x)
    assert (small(x) - reference).abs().max() < 0.02 * reference.abs().max()


def test_torchao_is_installed_at_its_pin_and_quantizes_on_the_cpu():
    # requirements.txt pins torchao for the pinned torch: lesson 04 measures it in every mode.
    available, why = quantize.torchao_status()
    pin = next(line for line in open(ROOT / "requirements.txt") if line.startswith("torchao=="))
    assert available and why == f"torchao {pin.strip().split('==')[1]}", why
    mlp = training.linear_heavy_mlp(width=128, hidden_layers=1).eval()
    x = torch.randn(8, 1, 28, 28)
    reference = mlp(x)
    for kind in ("int8_dynamic", "int8_weight_only"):
        small = quantize.quantize_torchao(mlp, kind)
        assert (small(x) - reference).abs().max() < 0.05 * reference.abs().max()
        assert measure.model_bytes(mlp) / measure.model_bytes(small) > 3.5
    assert isinstance(mlp[1].weight, nn.Parameter) and mlp[1].weight.dtype == torch.float32  # a copy


def test_int4_wants_a_bf16_model_and_runs_on_the_cpu_layout():
    mlp = training.linear_heavy_mlp(width=256, hidden_layers=2).eval()
    with pytest.raises(ValueError, match="bf16"):
        quantize.quantize_torchao(mlp, "int4_weight_only")
    bf16 = mlp.bfloat16()
    x = torch.randn(4, 1, 28, 28, generator=torch.Generator().manual_seed(0)).bfloat16()  # the same every run
    small = quantize.quantize_torchao(bf16, "int4_weight_only")
    assert not quantize.int4_fits(bf16[1]) and quantize.int4_fits(bf16[3])  # 784 inputs stay bf16; 256 -> 256 is int4
    assert type(small[3].weight).__name__ != "Parameter" and isinstance(small[1].weight, nn.Parameter)
    assert quantize.output_error(small, bf16, x) < quantize.TOLERANCE["int4"]


def test_compile_quantized_compiles_each_model_apart_and_matches_eager():
    # dynamo caps one code object's cache at 8 entries, then runs eager silently: 10 compiled models here
    models = [quantize.quantize_torchao(training.linear_heavy_mlp(width=128, hidden_layers=1, seed=s), "int8_dynamic")
              for s in range(10)]
    x = torch.randn(4, 1, 28, 28)
    for model in models:
        fast, seconds = quantize.compile_quantized(model, x)
        assert seconds > 0
        with torch.inference_mode():
            assert (fast(x) - model(x)).abs().max() < 0.05 * model(x).abs().max()
    assert torch._dynamo.utils.counters["stats"]["unique_graphs"] >= 10


def test_torchao_status_reports_an_import_error(monkeypatch):
    import importlib

    real = importlib.import_module

    def broken(name, *args):
        if name == "torchao":
            raise ImportError("built for another torch")
        return real(name, *args)

    monkeypatch.setattr(quantize.importlib, "import_module", broken)
    available, why = quantize.torchao_status()
    assert not available and "built for another torch" in why and "ImportError" in why
    with pytest.raises(RuntimeError, match="needs torchao"):
        quantize.quantize_torchao(nn.Linear(2, 2), "int8_dynamic")


def fake_rates(fp32=100e9, int8=400e9, bandwidth=25e9):
    return roofline.Rates(fp32_flops=fp32, int8_ops=int8, bandwidth=bandwidth, shape=(256, 1024, 1024))


def test_intensity_counts_operations_and_bytes_of_each_linear():
    ops, moved = roofline.intensity([(1024, 1024)], batch=1)
    assert ops == 2 * 1024 * 1024 and moved == 4 * (1024 * 1024 + 2 * 1024)
    assert roofline.linear_shapes(training.linear_heavy_mlp(64, 2)) == [(784, 64), (64, 64), (64, 10)]


def test_int8_reference_is_bytes_at_batch_1_and_arithmetic_at_a_large_batch():
    # Issue 13: "4x fewer bytes" was the reference for a compute-bound batch of 256.
    mlp, rates = training.linear_heavy_mlp(1024, 3), fake_rates()  # balance 4 operations per byte
    small = roofline.int8_reference(mlp, 1, rates)
    assert small.kind == "memory-bound" and 3.9 < small.value < 4.0 and small.intensity < 1
    big = roofline.int8_reference(mlp, 256, rates)
    assert big.kind == "compute-bound" and big.value == pytest.approx(4.0) and "matmul rate" in big.why
    assert roofline.int8_reference(mlp, 256, rates, int8_compute=False).value == pytest.approx(1.0)
    assert roofline.int8_reference(mlp, 256, fake_rates(int8=150e9)).value == pytest.approx(1.5)
    by_hand = roofline.int8_reference(mlp, 1, rates, weight_bytes=9, int8_compute=False)
    assert by_hand.value < 0.5  # dequantizing every call moves more bytes than fp32
    int4 = roofline.int8_reference(mlp, 1, rates, weight_bytes=0.5, int8_compute=False, base_bytes=2)
    assert 3.5 < int4.value < 4.0  # against bf16: 2 bytes a weight -> half a byte
    # Round 2 item 8: int4 keeps the 784-input first layer and the 10-class head in bf16; price only the rest.
    from utils.lessons.compression.quantize import int4_fits
    partial = roofline.int8_reference(mlp, 1, rates, weight_bytes=0.5, int8_compute=False, base_bytes=2,
                                      takes=int4_fits)
    assert 1.8 < partial.value < 2.5 and "2 of 4 Linear layers" in partial.why and "stay at 2" in partial.why
    assert "layers it takes" not in int4.why


def test_measure_rates_times_both_matmuls_and_a_copy(monkeypatch):
    monkeypatch.setattr(roofline.devices, "cpu_caches", lambda: {"L2": 1 << 20, "L3": 8 << 20})
    rates = roofline.measure_rates("cpu", 64, 128, 128, rounds=2, copy_bytes=1 << 20, cache_bytes=1 << 20)
    assert rates.fp32_flops > 0 and rates.bandwidth > 0 and rates.shape == (64, 128, 128)
    assert rates.int8_ops and rates.int8_speedup == rates.int8_ops / rates.fp32_flops and rates.ridge_point > 0
    assert rates.cache_bandwidth and rates.cache_bytes == 8 << 20  # 3 arrays of 1 MiB fit in an 8 MiB L3
    assert rates.last_cache == 8 << 20
    names = [c.name for c in rates.ceilings]  # named as the machine profile names them
    assert names[0] == "fp32 matmul peak, 1 thread, (64, 128) @ (128, 128)" and "8 MiB arrays" in names[3] and "1 MiB arrays" in names[4]
    assert rates.bandwidth_for(2 << 20) == (rates.cache_bandwidth, "L3")
    assert rates.bandwidth_for(9 << 20) == (rates.bandwidth, "DRAM")


def test_a_pass_that_fits_in_the_l3_is_set_beside_the_l3_not_dram():
    mlp = training.linear_heavy_mlp(1024, 3)  # 11.7 MB of fp32 weights
    warm = roofline.Rates(fp32_flops=100e9, int8_ops=400e9, bandwidth=25e9, shape=(256, 1024, 1024),
                          cache_bandwidth=100e9, cache_bytes=32 << 20)
    ref = roofline.int8_reference(mlp, 1, warm)
    assert ref.regime == "L3" and ref.label == "memory-bound (L3)" and ref.ridge_point == pytest.approx(1.0)
    assert roofline.int8_reference(mlp, 1, fake_rates()).label == "memory-bound (DRAM)"


def test_time_by_op_names_the_matmul_and_prints_nothing(capfd):
    shares = measure.time_by_op(nn.Linear(256, 256), torch.randn(64, 256), top=3)
    assert 1 <= len(shares) <= 3 and all(0 < share <= 1 for _, share in shares)
    assert any("mm" in op or "linear" in op for op, _ in shares)
    assert "profiler" not in capfd.readouterr().err  # kineto's start/stop lines are hidden


def test_int8_support_reads_the_cpu_flags(tmp_path):
    cpuinfo = tmp_path / "cpuinfo"
    cpuinfo.write_text("flags\t\t: fpu avx2 avx512_vnni\n")
    assert measure.int8_support(str(cpuinfo)) == {"avx512_vnni": True, "avx_vnni": False, "amx_int8": False}


def test_quantize_torchao_rejects_unknown_kinds():  # before importing torchao: runs without it
    with pytest.raises(ValueError, match="int8_dynamic"):
        quantize.quantize_torchao(nn.Linear(2, 2), "int3")


def test_distill_loss_limits():
    torch.manual_seed(0)
    student, teacher = torch.randn(16, 10), torch.randn(16, 10)
    labels = torch.randint(0, 10, (16,))
    hard = distill.distill_loss(student, teacher, labels, alpha=0.0)
    torch.testing.assert_close(hard, F.cross_entropy(student, labels))
    assert distill.distill_loss(teacher, teacher, labels, alpha=1.0).abs() < 1e-6  # KL(p || p) = 0
    assert distill.distill_loss(student, teacher, labels, alpha=1.0) > 0


def test_train_is_deterministic_and_learns(digits_small):
    losses = [training.train(models.ArticleCNN(seed=0, scale=0.5), digits_small, 2, batch_size=64)
              for _ in range(2)]
    assert losses[0] == losses[1]
    assert losses[0][-1] < losses[0][0]


def test_saved_activation_bytes_shrink_by_less_than_half_under_bf16():
    # At lesson 04's batch of 128: the float activations halve, pooling indices do not, and autocast adds a
    # 16-bit copy of each weight (at batch 16 those copies outweigh the halved activations).
    cnn, x = models.ArticleCNN(seed=0), torch.randn(128, 1, 28, 28)
    fp32 = measure.saved_activation_bytes(cnn, x)
    bf16 = measure.saved_activation_bytes(cnn, x, torch.bfloat16)
    assert 0.5 * fp32 < bf16 < 0.85 * fp32


def test_compare_latency_interleaves_and_restores_threads():
    calls = []

    class Recorder(nn.Module):
        def __init__(self, name):
            super().__init__()
            self.name = name

        def forward(self, x):
            calls.append(self.name)
            return x

    threads = torch.get_num_threads()
    variants = {"a": Recorder("a"), "b": Recorder("b")}
    times = measure.compare_latency(variants, torch.zeros(1), rounds=3, warmup=1)
    # warm-up, then one call of each per round, every other round in the reverse order
    assert calls == ["a", "b"] + ["a", "b", "b", "a", "a", "b"]
    assert [len(m.samples) for m in times.values()] == [3, 3]
    assert torch.get_num_threads() == threads


def test_pareto_front():
    assert pareto.pareto_front([(1, 5), (2, 3), (3, 4)]) == [True, True, False]
    assert pareto.pareto_front([(1, 1), (1, 1)]) == [True, True]  # equal points do not beat each other


def test_pareto_front_reads_differences_within_the_noise_as_ties():
    # Review: two models of identical shapes, 10.0 and 10.3 ms, the same size and accuracy: noise decided.
    same_shapes = [(0.44, 10.0, -0.95), (0.44, 10.3, -0.95)]
    assert pareto.pareto_front(same_shapes) == [True, False]
    assert pareto.pareto_front(same_shapes, tolerance=(0, 0.05, 0)) == [True, True]
    # beyond the noise it is still a difference
    beyond = [(0.44, 10.0, -0.95), (0.44, 12.0, -0.95)]
    assert pareto.pareto_front(beyond, tolerance=(0, 0.05, 0)) == [True, False]


def test_benchmarks_are_found_in_their_own_modules():
    found = bench.discover("utils.benchmarks")
    assert found["quantize"] is quantize_benchmark.quantize_benchmark
    assert found["prune"] is prune_benchmark.prune_benchmark


def test_speedup_uses_the_fastest_runs():
    class Sleeper(nn.Module):
        def __init__(self, seconds):
            super().__init__()
            self.seconds = seconds

        def forward(self, x):
            time.sleep(self.seconds)
            return x

    # A wide margin (10x against 1.5x): a busy CI host oversleeps a short sleep by milliseconds.
    assert measure.speedup(Sleeper(0.04), Sleeper(0.004), torch.zeros(1), rounds=3) > 1.5


def test_timing_note_warns_only_when_the_paired_ratios_spread():
    # A load that changes between rounds slows both models of a round alike: no warning.
    slow_drift = {"a": bench.Measurement([1.0, 1.5, 2.0, 1.0, 3.0], 0),
                  "b": bench.Measurement([0.5, 0.75, 1.0, 0.5, 1.5], 0)}
    busy = {"a": bench.Measurement([1.0, 1.5, 2.0], 0), "b": bench.Measurement([2.0, 2.1, 2.2], 0)}
    quiet_note = measure.timing_note(slow_drift)
    assert "5 interleaved rounds" in quiet_note and "warning" not in quiet_note
    note = measure.timing_note(busy)
    assert note.count("\n") == 1 and "warning: paired noise above 20%" in note and "rounds disagree" in note


def test_bf16_support_reads_the_cpu_flags(tmp_path):
    cpuinfo = tmp_path / "cpuinfo"
    cpuinfo.write_text("processor\t: 0\nflags\t\t: fpu avx2 avx512_bf16 avx512_vnni\n")
    assert measure.bf16_support(str(cpuinfo)) == {"avx512_bf16": True, "amx_bf16": False}
    cpuinfo.write_text("flags\t\t: fpu avx2\n")
    assert measure.bf16_support(str(cpuinfo)) == {"avx512_bf16": False, "amx_bf16": False}
    assert measure.bf16_support(str(tmp_path / "missing")) is None


def test_saved_bytes_by_dtype_shows_what_bf16_does_not_shrink():
    cnn, x = models.ArticleCNN(seed=0), torch.randn(16, 1, 28, 28)
    fp32 = measure.saved_bytes_by_dtype(cnn, x)
    bf16 = measure.saved_bytes_by_dtype(cnn, x, torch.bfloat16)
    assert fp32[torch.int64] == bf16[torch.int64] > 0  # max-pooling indices: the same in both
    assert sum(bf16.values()) == measure.saved_activation_bytes(cnn, x, torch.bfloat16)


def test_saved_bytes_do_not_count_the_parameters_but_count_autocasts_copies():
    # Issue 13: fp32 parameters, in memory anyway, were counted as saved activations (1.61x instead of ~1.4x).
    layer, x = nn.Linear(1000, 10, bias=False), torch.randn(2, 1000, requires_grad=True)  # both gradients
    assert measure.saved_bytes_by_dtype(layer, x) == {torch.float32: 2 * 1000 * 4}  # the input, no weight
    bf16 = measure.saved_bytes_by_dtype(layer, x, torch.bfloat16)
    assert bf16 == {torch.bfloat16: 2 * 1000 * 2 + 10 * 1000 * 2}  # 16-bit copies of the input and weight


def test_load_digits_prints_one_line_for_both_splits(capsys):
    train_set, test_set = training.load_digits(100, 50)
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and "100 training and 50 test images" in out
    assert len(train_set) == 100 and len(test_set) == 50


@pytest.mark.parametrize("method", pruning.PRUNING_METHODS)
def test_pruned_copy_zeroes_the_asked_fraction_and_leaves_the_original(trained_like_cnn, method):
    pruned = pruning.pruned_copy(trained_like_cnn, method, 0.5)
    assert measure.sparsity(trained_like_cnn) == 0.0
    assert hasattr(pruned.fc1, "weight_mask")  # masks in place until remove_masks
    if method == "structured (channels)":  # whole rows of conv1, conv2, fc1 (fc2 untouched)
        assert len(pruning.kept_channels(pruned.fc1.weight)) == 250
        assert len(pruning.kept_channels(pruned.fc2.weight)) == 10
    else:
        assert measure.sparsity(pruned) == pytest.approx(0.5, abs=0.01)
    with pytest.raises(ValueError):
        pruning.pruned_copy(trained_like_cnn, "random", 0.5)


def test_global_pruning_takes_most_from_the_largest_layer(trained_like_cnn):
    pruned = pruning.pruned_copy(trained_like_cnn, "global unstructured", 0.5)
    per_layer = {n: float((getattr(pruned, n).weight == 0).float().mean()) for n in ("conv1", "fc1")}
    assert per_layer["fc1"] > 0.5 > per_layer["conv1"]  # fc1 holds most of the small weights


def test_layer_inputs_are_what_the_layers_receive():
    cnn = models.ArticleCNN(seed=0, batchnorm=True).eval()
    x = torch.randn(4, 1, 28, 28)
    seen = measure.layer_inputs(cnn, ["bn1", "fc2"], x)
    with torch.no_grad():
        torch.testing.assert_close(seen["bn1"], cnn.conv1(x))
        torch.testing.assert_close(seen["fc2"], cnn[:-1](x))
    assert not cnn.bn1._forward_hooks  # the hooks are removed


def test_timing_cells_lead_with_the_fastest_run():
    cells = measure.timing_cells(bench.Measurement([0.004, 0.002, 0.003], 0))
    assert cells == ("2.0 ms", "3.0 ms", "33%")  # quartiles 2.5 and 3.5 ms around a 3 ms median
    assert len(cells) == len(measure.TIMING_COLUMNS)


def test_distill_trains_the_student_and_freezes_the_teacher(digits_small):
    teacher, student = models.ArticleCNN(seed=0, scale=0.5), models.ArticleCNN(seed=1, scale=0.5)
    before = copy.deepcopy(teacher.state_dict())
    start = copy.deepcopy(student.state_dict())
    losses = distill.distill(student, teacher, digits_small, 1, batch_size=64)
    assert len(losses) == 1
    assert all(torch.equal(before[k], v) for k, v in teacher.state_dict().items())
    assert not torch.equal(start["fc1.weight"], student.fc1.weight)


def test_train_scales_the_loss_in_fp16_only_and_learns(digits_small, monkeypatch):
    enabled, real = [], torch.amp.GradScaler
    monkeypatch.setattr(torch.amp, "GradScaler", lambda *a, **kw: enabled.append(kw["enabled"]) or real(*a, **kw))
    for dtype in (None, torch.bfloat16, torch.float16):
        losses = training.train(models.ArticleCNN(seed=0, scale=0.5), digits_small, 2, autocast_dtype=dtype)
        assert losses[-1] < losses[0]
    assert enabled == [False, False, True]  # fp16's narrow range needs the scaler; bf16 and fp32 do not


def test_plot_front_numbers_every_variant_on_both_panels():
    variants = [dict(family="CNN", mb=1.7, ms=40.0, acc=0.97, front=False),
                dict(family="CNN", mb=0.4, ms=13.0, acc=0.96, front=True),
                dict(family="MLP", mb=2.9, ms=4.5, acc=0.97, front=True)]
    fig = pareto.plot_front(variants, latency_batch=256, label=" (on the CPU)")
    assert len(fig.axes) == 2
    assert [t.get_text() for t in fig.axes[1].texts] == ["1", "2", "3"]
    assert fig._suptitle.get_text().endswith("(on the CPU)")


def test_plot_front_draws_markers_at_their_measured_values_and_numbers_them_apart():
    # Two variants of equal size and accuracy (int8 dynamic and weight-only) share a spot on the size panel:
    # the markers stay at the measured values (never moved along an axis), their labels do not overlap.
    variants = [dict(family="MLP", mb=2.93, ms=4.4, acc=0.967, front=True),
                dict(family="MLP", mb=2.94, ms=17.4, acc=0.967, front=False),
                dict(family="MLP", mb=11.7, ms=16.0, acc=0.967, front=False)]
    fig = pareto.plot_front(variants, latency_batch=256)
    for ax, key in zip(fig.axes, ("mb", "ms")):
        markers = [c for c in ax.collections[1:] if c.get_sizes()[0] == pareto.MARKER_SIZE]  # [0]: the limits
        drawn = sorted(tuple(c.get_offsets()[0]) for c in markers)
        assert drawn == sorted((v[key], v["acc"]) for v in variants)
        boxes = [plots.text_box(t, plots.renderer_of(fig)) for t in ax.texts]
        assert len(boxes) == (2 if key == "mb" else 3)  # the two on one spot share one label
        assert not any(a.overlaps(b) for i, a in enumerate(boxes) for b in boxes[i + 1:])


class _OnDevice:
    """Stands for a tensor on another device (a GPU here has none): ``.device`` and ``.to`` only."""

    def __init__(self, device):
        self.device = torch.device(device)

    def to(self, device):
        assert torch.device(device) == self.device
        return self


def test_compare_latency_times_on_the_inputs_device_and_synchronises_it(monkeypatch):
    # Issue 12, item 7: device=None used to reach bench.measure as None, which times a CUDA input on the host
    # clock without synchronising (the launch, not the work).
    seen = []

    def fake_measure(fn, *, warmup, repeats, device):
        fn()
        seen.append(device)
        return bench.Measurement([1e-3], 0)

    monkeypatch.setattr(bench, "measure", fake_measure)
    variants = {"a": nn.Identity(), "b": nn.Identity()}
    measure.compare_latency(variants, _OnDevice("cuda:1"), rounds=2, warmup=0)
    assert seen and all(str(d) == "cuda:1" for d in seen)
    seen.clear()
    measure.compare_latency(variants, torch.zeros(2), rounds=1, warmup=0)
    assert [str(d) for d in seen] == ["cpu", "cpu"]


def test_to_device_copies_only_what_is_elsewhere():
    model = nn.Linear(2, 2)
    assert measure.to_device(model, "cpu") is model
    on_meta = measure.to_device(model, "meta")
    assert on_meta is not model and on_meta.weight.device.type == "meta" and model.weight.device.type == "cpu"
    assert measure.to_device(nn.ReLU(), "meta") is not None  # no tensors: nothing to move


def test_timed_batch_repeats_a_small_test_set():
    dataset = torch.utils.data.TensorDataset(torch.arange(3.0).view(3, 1, 1, 1), torch.zeros(3))
    assert measure.timed_batch(dataset, 2).flatten().tolist() == [0.0, 1.0]
    assert measure.timed_batch(dataset, 7).flatten().tolist() == [0, 1, 2, 0, 1, 2, 0]


def test_speedup_cells_give_the_noise_and_a_verdict():
    base = bench.Measurement([1.00, 1.20, 1.00, 1.10, 1.00], 0)
    same = bench.Measurement([0.98, 1.22, 1.01, 1.08, 1.03], 0)  # the same speed, round for round
    half = bench.Measurement([0.50, 0.61, 0.50, 0.55, 0.49], 0)
    times = {"base": base, "same": same, "half": half}
    assert measure.speedup_cells(times, "base", "base") == ("1.00x", "", "")
    ratio, noise, vs_one = measure.speedup_cells(times, "base", "same")
    assert ratio == "0.99x" and vs_one == "within noise" and noise.endswith("%")  # median of paired rounds
    ratio, _, vs_one = measure.speedup_cells(times, "base", "half")
    assert ratio == "2.00x" and vs_one == "beyond noise"
    assert measure.verdict(1.04, 0.05) == "within noise" and measure.verdict(1.04, 0.03) == "beyond noise"


def test_the_vs_1x_column_and_the_sentences_read_one_figure_the_same_way():
    # Reader (session 50): #10 "0.97x, noise 3%: beyond noise" in the tie table, "within noise" in the sentence
    from utils.lessons.compression.report import verdict_against
    assert measure.verdict(0.9702, 0.0300) == "within noise"  # printed 0.97x ± 0.03: 1.00x is covered
    assert verdict_against(0.9702, None, 0.0300).startswith("within noise")
    assert measure.verdict(0.9502, 0.0300) == "beyond noise"  # 0.95 + 0.03 = 0.98: below 1x
    assert not verdict_against(0.9502, None, 0.0300).startswith("within noise")
    for ratio in (0.93, 0.97, 1.0, 1.02, 1.05, 1.31):  # one rule: every outcome reads the same in both
        for noise in (0.0, 0.01, 0.03, 0.05, 0.2):
            if (ratio, noise) == (1.0, 0.0):  # a baseline against itself: its tables print "baseline"
                continue
            same = verdict_against(ratio, None, noise).startswith("within noise")
            assert (measure.verdict(ratio, noise) == "within noise") == same


def test_ratio_noise_ignores_what_slows_both_models_alike():
    busy_then_quiet = bench.Measurement([2.0, 2.0, 1.0, 1.0, 1.5], 0)  # the machine's load changes ...
    twice_as_fast = bench.Measurement([1.0, 1.0, 0.5, 0.5, 0.75], 0)  # ... and slows both alike
    assert measure.spread(busy_then_quiet) > 0.5
    assert measure.ratio_noise(busy_then_quiet, twice_as_fast) == 0.0


def test_half_precision_wrappers_store_and_run_in_16_bits():
    cnn, x = models.ArticleCNN(seed=0).eval(), torch.randn(4, 1, 28, 28)
    weights, autocast = precision.HalfWeights(cnn), precision.Autocast(cnn)
    assert weights.model.fc1.weight.dtype == torch.bfloat16 and cnn.fc1.weight.dtype == torch.float32
    assert measure.model_bytes(cnn) / measure.model_bytes(weights) == pytest.approx(2, rel=0.01)
    assert measure.model_bytes(autocast) == pytest.approx(measure.model_bytes(cnn), rel=0.01)
    reference = cnn(x)
    for model in (weights, autocast):
        out = model(x)
        assert out.dtype == torch.float32 and (out - reference).abs().max() < 0.05 * reference.abs().max()
    assert precision.HalfWeights(cnn, torch.float16).model.fc1.weight.dtype == torch.float16


def test_speed_reason_explains_the_device_that_ran():
    assert precision.speed_reason(1.3, "beyond noise", "cuda:0", False, "tensor cores") == "tensor cores"
    assert "no speed-up" in precision.speed_reason(0.8, "beyond noise", "cpu", False, "")
    assert "finding to explain" in precision.speed_reason(1.3, "beyond noise", "cpu", False, "")
    assert "no speed-up beyond noise" in precision.speed_reason(1.02, "within noise", "cpu", True, "")
    assert "slower than fp32" in precision.speed_reason(0.8, "beyond noise", "cpu", True, "")
    assert "faster beyond noise" in precision.speed_reason(1.4, "beyond noise", "cpu", True, "")
    # one sentence per outcome: none claims a gain the run did not show (lesson 04's reader)
    assert "halved bytes" not in precision.speed_reason(1.4, "beyond noise", "cpu", True, "")


def test_quantize_comment_does_not_count_the_warnings():
    # Their number depends on the torch version (three in 2.13); lesson 04 prints the distinct messages.
    source = inspect.getsource(quantize.quantize_dynamic_int8)
    assert "Two deprecation warnings" not in source


def test_against_bound_separates_noise_from_a_missed_cost():
    # Review: "BN folded" measured 1.04x against a 1.02x bound, with nothing saying whether that was noise.
    # Issue 13: 1.03x above a 1.02x bound was not flagged; now every speedup above its bound is.
    assert measure.against_bound(1.01, 1.02, 0.05) == "below the bound"
    assert measure.against_bound(1.03, 1.02, 0.05) == "above the bound, within noise"
    assert measure.against_bound(1.20, 1.02, 0.05) == "above the bound, beyond noise"
    assert measure.against_bound(2.10, 2.0, 0.01, "reference") == "above the reference, beyond noise"


def test_the_folding_reference_is_paired_round_by_round():
    whole = bench.Measurement([10.0, 20.0, 10.0], 0)  # the machine was twice as slow in round 2 ...
    part = bench.Measurement([1.0, 2.0, 1.0], 0)  # ... for the part too
    assert measure.share_reference(whole, part) == pytest.approx(10 / 9)
    assert measure.Replay(lambda: 7)(torch.zeros(1)) == 7


def test_a_fastest_run_from_a_quiet_moment_alone_is_not_a_speedup():
    # Seen on a busy machine: "50% zeros" 1.48x "beyond noise" because the dense model never got the quiet
    # moment that one run of the pruned model had; round by round they ran at the same speed.
    dense = bench.Measurement([0.080, 0.078, 0.079, 0.081, 0.077, 0.080, 0.079], 0)
    zeros = bench.Measurement([0.081, 0.052, 0.080, 0.080, 0.078, 0.081, 0.078], 0)
    ratio, noise, vs_one = measure.compare(dense, zeros)
    assert ratio < 1.05 and vs_one == "within noise"  # the median paired round: the same speed
    fastest = dense.min / zeros.min
    assert fastest > 1.4 and measure.verdict(fastest, noise) == "beyond noise"  # what the fastest runs said


def test_compare_latency_times_several_calls_a_run_after_a_warm_call():
    calls = []

    class Recorder(nn.Module):
        def forward(self, x):
            calls.append(1)
            return x

    times = measure.compare_latency({"a": Recorder()}, torch.zeros(1), rounds=2, warmup=0, calls=3)
    assert len(calls) == 2 * (1 + 3)  # each run: one untimed call, then three timed
    assert len(times["a"].samples) == 2


def test_a_speedup_row_never_reads_a_slowdown_or_noise_as_a_share_of_its_figure():
    from utils.lessons.compression.report import speedup_claim

    assert speedup_claim("fold", 1.00, 1.08, noise=0.2).verdict == "within noise: no effect shown"
    assert speedup_claim("int8", 0.74, 3.97, kind="reference").verdict == "slower than fp32: no speed-up"
    assert speedup_claim("chan", 2.49, 3.55, noise=0.05).verdict == "faster, under the bound: 58% of its gain"
    row = speedup_claim("bf16", 1.5, 2.0, noise=0.05, kind="reference")
    assert (row.against, row.verdict) == ("reference 2.00x", "faster: 50% of the reference's gain")  # as a bound's


def test_the_front_reads_accuracy_ties_from_paired_differences_on_the_same_images():
    import torch

    from utils.lessons.compression.accuracy import paired_difference, within
    from utils.lessons.compression.pareto import pareto_front

    n = 360
    big = torch.ones(n)  # right on every image
    small = torch.ones(n)
    small[:8] = 0  # wrong on 8 images the big one gets right: a paired difference of -0.022, every image the same way
    gap, se = paired_difference(big, small)
    assert round(gap, 3) == -0.022 and not within(gap, se)
    points = [(0.52, 10.5, -1.0), (0.44, 10.0, -(1 - 8 / n))]  # (MB, ms, -accuracy): the larger one is more accurate
    unpaired = pareto_front(points, tolerance=(0.02, 0.08, 0.03))  # 2.2 points within a 3 % tolerance: a tie
    assert unpaired == [False, True]
    correct = [big, small]
    paired = pareto_front(points, tolerance=(0.02, 0.08, 0.0),
                          tied={2: lambda i, j: within(*paired_difference(correct[i], correct[j]))})
    assert paired == [True, True]


def test_two_standard_errors_are_read_on_the_figures_as_printed():
    # Reader (session 50): "a drop of 0.011 ± 0.006 ... beyond two standard errors" (0.0111 against 2 x 0.0055)
    from utils.lessons.compression.accuracy import recovery_text, within
    assert within(0.0111, 0.00552)  # printed 0.011 ± 0.006: 2 x 0.006 = 0.012 covers it
    assert not within(0.0131, 0.00552) and within(-0.012, 0.006)  # 0.013 beyond 0.012; 0.012 at the edge is within
    assert "within two standard errors of none" in recovery_text((0.0111, 0.00552), (0.0, 0.003))
    assert "Recovery not shown" in recovery_text((0.033, 0.009), (0.0111, 0.00552))


def test_a_few_seeds_need_the_t_value_not_two_standard_errors():
    from utils.lessons.compression.accuracy import t_critical, within
    # lesson 04's seeds: distilled minus from scratch -0.011 ± 0.003 over 3 seeds: beyond 2 SE, within t's 4.30
    assert t_critical(3) == pytest.approx(4.30)
    assert not within(-0.011, 0.003) and within(-0.011, 0.003, k=t_critical(3))
    assert t_critical(40) == pytest.approx(1.96) and t_critical(12) == pytest.approx(2.23)
    with pytest.raises(ValueError):
        t_critical(1)


def test_a_speedup_beside_another_layers_reference_gives_no_share_of_its_gain():
    from utils.lessons.compression.report import speedup_claim
    own = speedup_claim("bf16 (CNN)", 1.50, 5.29, 0.02, kind="reference")
    other = speedup_claim("bf16 (CNN)", 1.50, 5.29, 0.02, kind="reference",
                          reference="MLP layer's 16-bit rate 5.29x; no reference for the CNN's convolutions measured")
    assert "of the reference's gain" in own.verdict
    assert "gain" not in other.verdict and other.against.startswith("MLP layer's")


def test_a_headline_row_and_its_claim_give_one_verdict_in_the_claims_words():
    from utils import bench
    from utils.lessons.compression.report import headline, speedup_claim, verdict_against

    # lesson 04's sparsity table once read "50% zeros 1.00x ... below the bound" beside a claim "within noise"
    assert verdict_against(1.00, 1.0, 0.02, slower="slower than dense") == "within noise: no effect shown"
    assert verdict_against(1.01, 1.0, 0.01) == speedup_claim("z", 1.01, 1.0, 0.01).verdict
    assert verdict_against(2.65, 3.55, 0.04) == "faster, under the bound: 65% of its gain"
    assert verdict_against(1.05, 1.09, 0.01, "reference") == "faster: 56% of the reference's gain"
    # a reference may be passed: above it reads in a reference's words, never the bound's "a finding to explain"
    above = verdict_against(1.20, 1.08, 0.01, "reference")
    assert above == "above the reference, beyond noise (a reference may be passed)"
    assert verdict_against(1.09, 1.08, 0.02, "reference") == "at the reference (within noise)"
    assert verdict_against(1.58, None, 0.02) == "faster than the baseline"  # another model's figure: no share
    base = bench.Measurement([0.010] * 8, 0)
    fast = bench.Measurement([0.005] * 8, 0)
    table = headline({"fp32": base, "bf16": fast}, "fp32", {"bf16": 5.24}, bound_name="MLP layer's rate",
                     judged=False)
    assert table.rows[1][-1] == "faster than the baseline" and table.rows[1][-2] == "5.24x"


def test_a_reference_on_a_widely_spread_term_is_rough_and_scores_no_share():
    from utils.lessons.compression.report import speedup_claim
    from utils.lessons.compression.roofline import Reference

    ref = Reference("compute-bound", 9.21, 79.5, 6.6, "matmul rates", spread=0.83)
    assert ref.rough and ref.text() == "~9.2x (rough)"
    assert not Reference("memory-bound", 3.97, 0.5, 6.6, "bytes").rough  # a ratio of bytes is exact
    row = speedup_claim("int8", 3.87, ref.value, 0.05, kind="reference", rough=ref.rough)
    assert row.against == "reference ~9.2x (rough)" and "%" not in row.verdict


def test_plot_front_keeps_every_error_bar_inside_the_axes_and_the_legend_off_the_points():
    variants = [dict(family="CNN", mb=1.7, ms=40.0, acc=0.975, se=0.008, front=True),
                dict(family="CNN", mb=0.4, ms=13.0, acc=0.944, se=0.012, front=True),
                dict(family="MLP", mb=2.9, ms=4.5, acc=0.969, se=0.009, front=True)]
    fig = pareto.plot_front(variants, latency_batch=256)
    for ax in fig.axes:
        low, high = ax.get_ylim()
        assert all(low < v["acc"] - v["se"] and v["acc"] + v["se"] < high for v in variants)
    assert fig.axes[0].get_legend() is None and fig.axes[1].get_legend() is not None  # beside, outside


def test_the_headline_shows_the_median_latency_the_speedups_are_medians_of():
    from utils import bench
    from utils.lessons.compression.report import headline

    base = bench.Measurement([0.010, 0.012, 0.020], 0)  # fastest 10 ms, median 12 ms
    table = headline({"fp32": base, "bf16": bench.Measurement([0.005, 0.006, 0.010], 0)}, "fp32")
    assert table.columns[1] == "latency (median)" and "median" in table.columns[2]
    assert table.rows[0][1] == bench.fmt_seconds(0.012)


def test_compile_alone_names_what_compile_can_remove_and_reads_every_outcome():
    from utils.lessons.compression.quantruns import compile_alone, outside_matmuls

    ops = [("aten::addmm", 0.8), ("aten::copy_", 0.1), ("aten::clamp_min", 0.09), ("aten::t", 0.01)]
    share, rest = outside_matmuls(ops)
    assert share == pytest.approx(0.2) and [op for op, _ in rest] == ["aten::copy_", "aten::clamp_min", "aten::t"]
    fits = compile_alone(256, 1.13, "beyond noise", 0.05, 1.0, ops)
    assert "1/(1 - 0.20) = 1.25x" in fits and "reference of 1.00x" in fits and fits.endswith("can remove.")
    more = compile_alone(256, 1.6, "beyond noise", 0.05, 1.0, ops, [("mkl::_mkl_linear", 0.97), ("x", 0.03)])
    assert "more than fusing" in more and "multiplies in mkl::_mkl_linear (97% of it) where eager fp32 calls " \
        "aten::addmm" in more
    assert "nothing beyond noise" in compile_alone(256, 1.02, "within noise", 0.05, 1.0, ops)
    assert "cost more than it fused" in compile_alone(256, 0.8, "beyond noise", 0.05, 1.0, ops)
    # seventh reading: 0.97x with the compiled graph's call and guards at 2%, the same 2% eager spends outside
    # its matmul: the profile does not show them as the cause, so the line must not name them as it
    ops98 = [("aten::addmm", 0.98), ("aten::copy_", 0.02)]
    seen = compile_alone(256, 0.97, "beyond noise", 0.01, 1.0, ops98,
                         [("mkl::_mkl_linear", 0.97), ("Call CompiledFxGraph", 0.01), ("Torch-Compiled Region", 0.01)])
    assert "take 2% of it (the profile above), and fusing could save at most 2%" in seen
    assert "less than the slowdown, so they cannot explain it alone" in seen  # 0.97x: 3% of the compiled pass
    assert "are a fixed cost per call" not in seen
    heavy = compile_alone(256, 0.8, "beyond noise", 0.01, 1.0, ops98,
                          [("mkl::_mkl_linear", 0.80), ("Call CompiledFxGraph", 0.12), ("Dynamo guards", 0.08)])
    assert "take 20% of it (the profile above)" in heavy and "as much as the slowdown" in heavy  # 0.80x: 20%
    # lesson 04's run: 1.13x against a 1.09x fusion figure, inside its noise: never "fits within"
    ops9 = [("mkl::_mkl_linear", 0.91), ("aten::clamp_min", 0.05), ("aten::copy_", 0.04)]
    edge = compile_alone(256, 1.13, "beyond noise", 0.06, 1.0, ops9)
    assert "passes that 1.10x by no more than the round-to-round noise" in edge and "fits within" not in edge


def test_a_rough_reference_reads_rough_in_the_headline_and_the_claim_alike():
    from utils import bench
    from utils.lessons.compression.report import headline, speedup_claim
    from utils.lessons.compression.roofline import figure_text

    # lesson 04's bf16 row once printed 5.04x plain beside "(rough: its repeats spread by 39%)"
    assert figure_text(5.04, rough=True) == "~5.0x (rough)" and figure_text(5.04) == "5.04x"
    base, fast = bench.Measurement([0.010] * 8, 0), bench.Measurement([0.005] * 8, 0)
    table = headline({"fp32": base, "bf16": fast}, "fp32", {"bf16": 5.04}, bound_name="MLP layer's rate",
                     judged=False, rough=("bf16",))
    assert table.rows[1][-2] == "~5.0x (rough)"
    row = speedup_claim("int8", 3.87, 9.21, 0.05, kind="reference", rough=True)
    assert row.against == "reference ~9.2x (rough)"


def test_a_speedups_noise_reads_in_one_unit_in_tables_sentences_and_claims():
    from utils.lessons.compression.report import speedup_claim

    # lesson 04's BN folding once read "±3%" in its table and "1.05x ± 0.04" in the closing claims
    assert speedup_claim("fold", 1.05, 1.09, 0.034, kind="reference").measured == "1.05x ± 3%"
    assert speedup_claim("chan", 2.60, 3.55, 0.15).measured == "2.60x ± 15%"
    assert speedup_claim("int8", 0.74, 3.97, kind="reference").measured == "0.74x"  # no noise measured


def test_the_hand_written_int8_layers_bytes_add_up_to_its_reference():
    from utils.lessons.compression.quantruns import BY_HAND_BYTES, by_hand_bytes, by_hand_sum

    assert by_hand_bytes() == 17 == sum(n for _, n in BY_HAND_BYTES)
    assert by_hand_sum().startswith("read the int8 weight 1 + ") and by_hand_sum().endswith("= 17")


def test_recovery_text_answers_for_every_outcome():
    # Round 2 item 9: "fine-tuning lost 0.003" was one image read without its paired standard error
    from utils.lessons.compression.accuracy import recovery_text
    assert "no cost is shown here" in recovery_text((0.003, 0.003), (-0.003, 0.003))
    assert "Recovery not shown" in recovery_text((0.033, 0.009), (0.004, 0.004))
    assert "won back +0.025 ± 0.008" in recovery_text((0.033, 0.009), (0.025, 0.008))
    assert "did not recover it" in recovery_text((0.033, 0.009), (-0.025, 0.008))


def test_a_speedup_within_noise_of_1x_is_read_against_its_reference_too():
    # Round 2 item 12: "1.03x ± 4% | reference 1.08x | within noise: no effect shown" did not test the reference
    from utils.lessons.compression.report import speedup_claim, verdict_against
    apart = verdict_against(1.03, 1.08, 0.04, "reference")
    assert apart.startswith("within noise: no effect shown") and "lies beyond the noise" in apart
    both = speedup_claim("fold", 1.03, 1.08, 0.06, kind="reference").verdict
    assert both.startswith("within noise: no effect shown") and "cannot tell the two apart" in both
    assert verdict_against(1.03, 1.08, 0.06, "reference", rough=True) == "within noise: no effect shown"


def test_why_legacy_leads_follows_the_profiles_kernel_times_and_overhead_shares():
    from utils.lessons.compression.quantruns import why_legacy_leads
    slow_kernel = why_legacy_leads(1, ("quantized::linear_dynamic", 0.83, 206e-6),
                                   ("onednn::qlinear_pointwise", 0.75, 638e-6), 0.22, 0.21)
    assert "about 171 µs" in slow_kernel and "about 479 µs" in slow_kernel  # 75% x 638.0 = 478.5, half up
    assert "2.8x slower: that is most of the gap" in slow_kernel and "the same fixed cost" in slow_kernel
    same_kernel = why_legacy_leads(1, ("a", 0.5, 200e-6), ("b", 0.4, 260e-6), 0.35, 0.2)
    assert "about the same time: the gap lies outside them" in same_kernel
    assert "part of the gap is int8's compiled overhead" in same_kernel
    assert "less than compiling fp32" in why_legacy_leads(1, ("a", 0.5, 2e-4), ("b", 0.4, 3e-4), 0.1, 0.2)


def test_int8_over_compile_is_read_beside_the_bytes_reference_not_called_far_from_it():
    # Reader (session 50): 4.28x ± 15% "though far from the bytes' reference" of 3.97x
    from utils.lessons.compression.quantruns import over_compile
    from utils.lessons.compression.roofline import Reference
    ref = Reference("memory-bound", 3.97, 0.5, 3.1, "bytes moved", "DRAM")
    at = over_compile(4.28, 0.15, "beyond noise", ref)
    assert "beside the roofline reference of 3.97x (memory-bound (DRAM)): at the reference (within noise)" in at
    assert "far from" not in at
    assert "faster: 50% of the reference's gain" in over_compile(2.485, 0.02, "beyond noise", ref)
    assert "above the reference, beyond noise" in over_compile(5.0, 0.02, "beyond noise", ref)
    assert "adds no time beyond compile's" in over_compile(1.01, 0.05, "within noise", ref)
    assert "costs time beyond compile's" in over_compile(0.8, 0.02, "beyond noise", ref)


def test_int4_is_called_a_small_batch_technique_only_where_the_small_batch_shows_it():
    # Reader (session 50): "int4 weight-only is a small-batch technique" beside 1.01x (within noise) at batch 1
    from utils.lessons.compression.quantruns import int4_reading
    from utils.lessons.compression.roofline import Reference
    ref = Reference("memory-bound", 2.17, 0.5, 3.1, "bytes moved", "DRAM")
    args = (256, 0.50, "aten::_weight_int4pack_mm_for_cpu", 0.82, 1)
    flat = int4_reading(*args, 1.01, 0.05, ref)
    assert "At batch 1 (memory-bound (DRAM)) it ran 1.01x (noise ±5%) beside its 2.17x reference: within noise" in flat
    assert "does not show int4 weight-only to be a small-batch technique" in flat
    assert "in this run int4 weight-only is a small-batch technique" not in flat
    paid = int4_reading(*args, 1.80, 0.05, ref)
    assert "faster: 68% of the reference's gain" in paid
    assert "in this run int4 weight-only is a small-batch technique (batch 1: memory-bound (DRAM))" in paid
    assert "does not show" not in paid
    assert "slower than bf16: no speed-up" in int4_reading(*args, 0.80, 0.05, ref)
    assert "not timed at batch 1" in int4_reading(*args, None, 0.0, None)
    assert "tinygemm" in int4_reading(*args, 1.80, 0.05, ref, device="cuda")


def test_a_model_that_fits_in_the_l3_without_an_l3_rate_says_why_dram_is_used():
    # Reader (session 50): 11.7 MB in a 32 MiB L3 read "DRAM" everywhere, and no line said why
    dram = dict(fp32_flops=100e9, int8_ops=400e9, bandwidth=25e9, shape=(256, 1024, 1024))
    no_rate = roofline.Rates(**dram, last_cache=32 << 20)  # 3 x 11.7 MB = 35.1 MB > 33.5 MB: STREAM's arrays
    line = roofline.no_cache_rate(no_rate, 11.7e6, "MLP")
    assert "11.7 MB of fp32 weights fit in the 32 MiB last-level cache" in line
    assert "three arrays of that size (35.1 MB) do not" in line and "DRAM's bandwidth" in line
    assert "says nothing of where the bytes come from" in line  # t23_0304 #1: DRAM's rate, not DRAM's bytes
    too_big = roofline.no_cache_rate(no_rate, 40e6, "MLP")
    assert "do not fit in the 32 MiB" in too_big and "come from DRAM" in too_big
    measured = roofline.Rates(**dram, cache_bandwidth=100e9, cache_bytes=32 << 20, last_cache=32 << 20)
    assert roofline.no_cache_rate(measured, 11.7e6) == ""  # the L3's rate was measured: the lesson says so
    assert roofline.no_cache_rate(roofline.Rates(**dram), 11.7e6) == ""  # no cache size known (a GPU)
    assert roofline.int8_reference(training.linear_heavy_mlp(1024, 3), 1, no_rate).label == \
        "memory-bound (L3 or DRAM)"  # t23_0304 #1: it fits; only its rate is DRAM's


def test_paired_note_names_the_median_of_ratios_only_where_the_printed_figures_divide_differently():
    from utils.lessons.compression.report import paired_note
    # the run the reader saw: 3.82x beside 2.92x and 0.75x (2.92 / 0.75 = 3.89)
    note = paired_note(3.82, 2.92, 0.75)
    assert "median of the paired rounds' ratios" in note and "2.92x / 0.75x = 3.89x" in note
    # latencies of the table: 15.59 ms / 4.41 ms = 3.54x, beside a paired 3.65x
    assert "15.59 ms / 4.41 ms = 3.54x" in paired_note(3.65, 15.59, 4.41, " ms")
    # the other outcome: the printed figures give the printed ratio, so nothing is added
    assert paired_note(3.89, 2.92, 0.75) == ""
    assert paired_note(1.0, 15.591, 15.588, " ms") == ""
    # microseconds as fmt prints them (one decimal): torch.ao at batch 1, 2.01x beside 361.4 µs / 161.0 µs
    assert "361.4 µs / 161.0 µs = 2.24x" in paired_note(2.01, 361.43, 161.04, " µs", digits=1)
    assert paired_note(2.24, 361.43, 161.04, " µs", digits=1) == ""


def test_a_reference_within_the_noise_either_side_reads_at_the_reference():
    """3.46x ± 22% against a reference of 3.97x: 0.51 under it, inside ± 0.76: no shortfall scored."""
    from utils.lessons.compression.report import verdict_against
    assert verdict_against(3.46, 3.97, 0.22, "reference") == "at the reference (within noise)"
    assert verdict_against(1.04, 1.03, 0.02, "reference") == "at the reference (within noise)"  # above, inside
    assert verdict_against(3.00, 3.97, 0.05, "reference") == "faster: 67% of the reference's gain"  # beyond it
    assert verdict_against(4.50, 3.97, 0.05, "reference").startswith("above the reference, beyond noise")


def test_a_paired_speedup_beside_medians_that_divide_otherwise_is_named_under_the_headline():
    """Lesson 04's BN row: paired 1.04x beside medians 43.4 ms and 45.5 ms (0.95x): the note names both and,
    on opposite sides of 1x, says which is read; where they agree, nothing is printed."""
    from utils import bench
    from utils.lessons.compression.report import full_table, medians_note
    base = bench.Measurement([0.030, 0.0434, 0.060], 0)
    folded = bench.Measurement([0.0455, 0.0417, 0.0577], 0)   # rounds 0.66x, 1.04x, 1.04x: median 1.04x
    note = medians_note({"unfolded": base, "folded": folded}, "unfolded")
    assert "folded: 1.04x is the median of the paired rounds' ratios" in note
    assert "(43.4 ms / 45.5 ms = 0.95x)" in note and "rank the two the other way" in note
    same_side = bench.Measurement([0.0200, 0.0400, 0.0560], 0)   # 1.50x, 1.09x, 1.07x against 1.09x printed
    assert "other way" not in medians_note({"unfolded": base, "x": same_side}, "unfolded")
    alike = bench.Measurement([s / 2 for s in base.samples], 0)
    assert medians_note({"unfolded": base, "half": alike}, "unfolded") == ""
    assert "not the ratio of the medians" in full_table({"unfolded": base, "half": alike}, "unfolded", "t").title


def test_the_roofline_references_divide_from_the_operands_printed_beside_them():
    """Lesson 04 printed "3.97x (... 11.7 MB -> 2.9 MB a pass)" (4.03) and "4.57x (... 436 / 96 G operations/s)"
    (4.54): the operands now print to 2 and 1 decimals and the reference is their ratio as printed."""
    import re
    mlp = training.linear_heavy_mlp(1024, 3)
    for rates, batch in ((fake_rates(), 1), (fake_rates(fp32=95.53e9, int8=436.04e9), 256)):
        ref = roofline.int8_reference(mlp, batch, rates)
        over, under = (float(x) for x in re.search(r"([\d.]+) (?:MB )?(?:->|/) ([\d.]+)", ref.why).groups())
        assert f"{ref.value:.2f}" == f"{over / under:.2f}", ref.why
    assert "436.0 / 95.5 G operations/s" in roofline.int8_reference(mlp, 256, rates).why


def test_the_int8_kernels_slowdown_divides_the_two_times_printed():
    from utils.lessons.compression.quantruns import why_legacy_leads
    # 50% x 201.0 µs = 100.5 prints "101 µs" (half up, as a reader rounds), 50% x 309.0 µs = 154.5 prints "155 µs"
    line = why_legacy_leads(1, ("a", 0.5, 201e-6), ("b", 0.5, 309e-6), 0.1, 0.1)
    shown = [float(x) for x in __import__("re").findall(r"about (\d+) µs", line)]
    assert f"{shown[1] / shown[0]:.1f}x slower" in line, line


def test_the_spread_is_worked_from_the_noise_as_printed():
    # Reader (fifth reading, cell 46): "0.98x | 2% | beyond noise", but 0.98 x 2% = 0.02 reaches 1x
    from utils.lessons.compression.report import verdict_against
    assert measure.printed_ratio_spread(0.98, 0.0153) == 0.02  # "±2%" as printed, not 0.0153
    # a product of two printed figures can tie: 1.15 x 10% = 0.115 reads 0.12 by hand (round gave 0.11)
    assert measure.printed_ratio_spread(1.15, 0.1) == 0.12 and measure.printed_ratio_spread(1.25, 0.02) == 0.03
    assert measure.verdict(0.98, 0.0153) == "within noise"
    assert verdict_against(0.98, None, 0.0153).startswith("within noise")
    assert measure.verdict(0.97, 0.0149) == "beyond noise"  # printed ±1%: 0.97 + 0.01 stays under 1x
    assert not verdict_against(0.97, None, 0.0149).startswith("within noise")


def test_a_baseline_against_itself_is_never_beyond_noise():
    # Reader (fifth reading, cell 67): "CNN fp32 | 0% | beyond noise" (1.00x with no spread)
    assert measure.verdict(1.0, 0.0) == "within noise"
    assert measure.verdict(1.004, 0.0) == "within noise"  # printed 1.00x
    assert measure.verdict(1.01, 0.0) == "beyond noise"


def test_timing_note_names_each_rows_real_base():
    """Sixth reading: the note said 'against fp32' under int4's row, whose ratio is against bf16 (0.51x where
    fp32's median over int4's is 1.05x). The 'against' column and the note come from each Variant's base."""
    from utils.lessons.compression.quantruns import Run, Variant, against_base, paired_base_note

    model = nn.Linear(2, 2)
    variants = {"fp32": Variant(model, "fp32", False, None, "fp32"),
                "bf16": Variant(model, "fp32", True, 2, "bf16", "bf16"),
                "torchao int4 weight-only, compiled": Variant(model, "bf16", True, 0.5, "bf16", "int4")}
    run = Run(256, {n: None for n in variants}, speedup={"bf16": 2.08, "torchao int4 weight-only, compiled": 0.51})
    assert [against_base(variants, run, n) for n in variants] == ["", "fp32", "bf16, compiled"]
    mixed = paired_base_note(variants, run)
    words = " ".join(mixed.split())  # as read, across the wrap
    assert "against fp32" not in words and 'the "against" column: fp32 or bf16, compiled)' in words
    assert "need not equal the base's median over the variant's median" in words
    assert all(len(line) <= 108 for line in mixed.split("\n"))  # printed with a 2-space indent
    del run.speedup["torchao int4 weight-only, compiled"]  # every row against fp32: the note names it
    alone = paired_base_note(variants, run)
    words = " ".join(alone.split())
    assert "ratios against fp32," in words and "need not equal fp32's median" in words
    assert all(len(line) <= 108 for line in alone.split("\n"))


def test_above_reference_ties_and_agreement_are_judged_on_the_printed_figures():
    """Sixth reading, latent: cell 18's 'Above the reference', cell 49's ties with compile alone and cell 70's
    'the same within their noise' worked the spread from the unrounded noise; each now from the page's figures."""
    from utils.lessons.compression.report import above_reference, agree_within, pair_spread, ties

    cause = "likely BN inside the model cost more"
    assert above_reference(1.03, 0.05, 1.03, cause) == ""  # not above it, as printed
    # 1.05x ±1% beside 1.03x: 1.05 x 0.01 = 0.01 < the 0.02 gap (the unrounded 0.0149 x 1.05 rounds to 0.02)
    beyond = above_reference(1.054, 0.0149, 1.03, cause)
    assert "beyond its noise" in beyond and cause in beyond
    within = above_reference(1.054, 0.0151, 1.03, cause)  # ±2%: 0.02 covers the 0.02 gap
    assert "within the speedup's noise (±2%)" in within
    assert pair_spread(0.80, 0.11, 0.76, 0.15) == 0.12  # the reader's 0.15 x 0.80
    assert ties(0.80, 0.11, 0.76, 0.15)
    assert ties(1.00, 0.0151, 0.98, 0.01)  # ±2% as printed: 0.02 covers 1.00 - 0.98 (the unrounded 0.015 did not)
    assert not ties(1.10, 0.03, 0.98, 0.03)  # 0.12 apart, beyond 0.03
    # two runs by the course's rule (claims.runs_agree), each spread from the printed figures: 1.10x ±5%
    # (0.055 -> 0.06) covers 1.05x; 1.00x ±5% (0.0451 unrounded: 0.0451 x 1.00) reaches 1.05x only as printed
    assert agree_within(1.10, 0.0451, 1.05, 0.0451)
    assert agree_within(1.00, 0.0451, 1.05, 0.0)  # 1.00 + 0.05 = 1.05 as printed, though 0.0451 would not
    assert not agree_within(1.10, 0.0451, 0.95, 0.0451)  # 0.15 apart


def test_one_bf16_model_is_priced_at_one_byte_count_a_pass():
    """Sixth reading: the bf16 row read 11.67 -> 5.85 MB (its activations priced at fp32's 4 bytes) while int4's
    bf16 base read 5.83 MB. HalfWeights casts its input to 16 bits: both now price 2-byte activations."""
    import re

    from utils.lessons.compression.quantize import int4_fits
    from utils.lessons.compression.quantruns import Variant, reference_of

    mlp, rates = training.linear_heavy_mlp(1024, 3), fake_rates()
    half = reference_of(Variant(mlp, "fp32", True, 2, "bf16", "bf16"), mlp, 1, rates)
    int4 = reference_of(Variant(mlp, "bf16", True, 0.5, "bf16", "int4", int4_fits), mlp, 1, rates)
    mb = lambda why: re.search(r"([\d.]+) MB -> ([\d.]+) MB a pass", why).groups()
    assert mb(half.why)[1] == mb(int4.why)[0]  # the same bf16 pass, the same figure
    assert "4 bytes a weight -> 2, 4 an activation -> 2:" in half.why
    assert half.value == pytest.approx(float(mb(half.why)[0]) / float(mb(half.why)[1]))  # as printed
    fp32_int8 = reference_of(Variant(mlp, "fp32", True, 1, "int8", "int8"), mlp, 1, rates)
    assert "an activation" not in fp32_int8.why and "4 bytes a weight -> 1:" in fp32_int8.why


def test_the_compiled_16_bit_row_says_it_runs_compiled():
    """Sixth reading: the row "bf16" ran compiled against eager fp32 and its name did not say so."""
    from utils.lessons.compression.quantruns import Variant, shown_name

    model = nn.Linear(2, 2)
    variants = {"fp32": Variant(model, "fp32", False, None, "fp32"),
                "bf16": Variant(model, "fp32", True, 2, "bf16", "bf16"),
                "fp32, compiled": Variant(model, "fp32", True, 4, "fp32"),
                "torchao int8 dynamic": Variant(model, "fp32", False, 1, "int8", "int8")}
    assert [shown_name(variants, n) for n in variants] == ["fp32", "bf16, compiled", "fp32, compiled",
                                                           "torchao int8 dynamic"]


def test_against_one_and_reference_names_what_each_verdict_is_read_against():
    """Lesson 04 cell 18 (seventh reading): "beyond noise" is the verdict against 1x; printed before "against a
    reference of 1.03x" it read as beyond the reference, which the table beside it read as at the reference."""
    from utils.lessons.compression.report import against_one_and_reference, verdict_against

    seen = against_one_and_reference(1.031, 0.02, 1.03, "slower than conv, BN, ReLU")  # the run the reader saw
    assert seen.startswith("1.03x (beyond noise of 1x, noise ±2%) against a reference of 1.03x: ")
    assert seen.endswith(verdict_against(1.031, 1.03, 0.02, "reference", slower="slower than conv, BN, ReLU"))
    assert "at the reference (within noise)" in seen
    within = against_one_and_reference(1.01, 0.02, 1.03, "slower than conv, BN, ReLU")  # the other outcome against 1x
    assert within.startswith("1.01x (within noise of 1x, noise ±2%)")
    above = against_one_and_reference(1.10, 0.01, 1.03, "slower than conv, BN, ReLU")
    assert "(beyond noise of 1x" in above and "above the reference, beyond noise" in above
    slower = against_one_and_reference(0.95, 0.01, 1.03, "slower than conv, BN, ReLU")
    assert "slower than conv, BN, ReLU" in slower


def test_roofline_terms_spread_wide_say_the_machine_was_likely_busy(monkeypatch):
    """Lesson 04 cell 40 (seventh reading, other problem 3): probes spread 28-93% and the references turned
    rough with no word why; a narrow run says nothing."""
    import os

    from utils.lessons.compression import roofline

    assert roofline.busy_note([]) == ""
    monkeypatch.setattr(os, "getloadavg", lambda: (5.4, 3.0, 2.0))
    said = roofline.busy_note(["fp32 matmul", "int8 matmul"])
    assert said.startswith(" fp32 matmul, int8 matmul spread beyond 25% although each probe repeats the same code")
    assert "most likely shared the machine (load average over the last minute: 5.4, on " in said
    assert said.endswith("rerun on a quiet machine for firm references.")

    def no_load():
        raise OSError("no load average here")

    monkeypatch.setattr(os, "getloadavg", no_load)
    assert "load average" not in roofline.busy_note(["fp32 matmul"])


def test_weight_only_int8_over_compile_says_no_gain_beyond_noise_for_a_tie_not_gained_nothing():
    """Reader t8_0304 (04 #1): "gained nothing over compile alone" beside 0.84x against 0.79x, a tie."""
    from utils.lessons.compression.report import gain_over_compile
    tie = gain_over_compile(0.84, 0.79, tie=True)
    assert tie == "showed no gain over compile alone beyond noise (0.84x against 0.79x)"
    assert "gained nothing" not in tie
    assert gain_over_compile(0.70, 0.79, tie=False).startswith("gained nothing")
    assert gain_over_compile(0.79, 0.79, tie=False).startswith("gained nothing")  # equal as printed
    assert gain_over_compile(0.95, 0.79, tie=False).startswith("gained over compile alone")


def test_pairs_timed_again_are_said_to_differ_by_load_only_where_they_differ_as_printed():
    """Reader t8_0304 (04 #2): "the figures differ by the machine's load" beside 1.00x and 1.00x."""
    from utils.lessons.compression.report import load_sentence
    seen = load_sentence([("90% zeros", "1.00x", "1.00x"), ("channels removed", "1.32x", "1.36x"),
                          ("weight-only", "0.98x", "0.98x")])
    assert ("where a pair's figures differ as printed (channels removed), they differ by no more than their "
            "rounds' noise, so no difference between the two sets of rounds is shown.") in seen
    assert "90% zeros" not in seen and "weight-only" not in seen
    # the eleventh reading: within noise, no cause is named (the load only where a pair is apart beyond noise)
    assert "load" not in seen
    same = load_sentence([("90% zeros", "1.00x", "1.00x")])
    assert "every pair prints the same figure" in same and "differ" not in same
