"""Unit tests of utils.compress (lesson 04, compression): sizes, sparsity, MACs, fusion, channel removal,
quantization wrappers, distillation loss, timing helpers and the registered benchmarks.

Small models and no timing claims: performance targets are the ``quantize`` and ``prune`` benchmarks.
"""

import copy
import warnings

import pytest
import torch
import torch.nn.functional as F
from torch import nn
from torch.nn.utils import prune

from utils import bench, compress, models


@pytest.fixture
def trained_like_cnn():
    """The article CNN with non-trivial biases (some negative), as a trained one would have."""
    cnn = compress.article_cnn(seed=0).eval()
    with torch.no_grad():
        for module in cnn.modules():
            if isinstance(module, (nn.Conv2d, nn.Linear)):
                module.bias.normal_(0, 0.3)
    return cnn


def test_model_bytes_counts_parameters_as_saved():
    small, large = nn.Linear(100, 100), nn.Linear(200, 100)
    # 100 x 100 more fp32 weights: 40,000 more bytes, the rest (names, zip records) is the same
    assert compress.model_bytes(large) - compress.model_bytes(small) == pytest.approx(40_000, abs=200)
    assert compress.model_bytes(small) > 4 * (100 * 100 + 100)


def test_model_bytes_includes_buffers():
    with_bn = nn.Sequential(nn.Linear(10, 1000), nn.BatchNorm1d(1000))
    without = nn.Sequential(nn.Linear(10, 1000), nn.Identity())
    # BN: weight, bias, running mean and var (4 x 1000 floats) and a counter
    assert compress.model_bytes(with_bn) - compress.model_bytes(without) >= 4 * 4 * 1000


def test_sparsity_counts_zero_weights_and_sees_masks():
    model = nn.Sequential(nn.Linear(10, 10), nn.ReLU(), nn.Linear(10, 10))
    assert compress.sparsity(model) == 0.0
    prune.l1_unstructured(model[0], "weight", amount=0.5)
    assert compress.sparsity(model) == pytest.approx(0.25)  # half of one of two equal layers
    fresh = nn.Sequential(nn.Linear(10, 10), nn.ReLU(), nn.Linear(10, 30))
    prune.global_unstructured(compress.prunable(fresh), pruning_method=prune.L1Unstructured, amount=0.9)
    assert compress.sparsity(fresh) == pytest.approx(0.9)


def test_masks_double_the_weights_until_removed():
    model = nn.Sequential(nn.Linear(200, 200))
    dense = compress.model_bytes(model)
    prune.l1_unstructured(model[0], "weight", amount=0.5)
    assert compress.model_bytes(model) > 1.9 * dense
    compress.remove_masks(model)
    assert compress.model_bytes(model) == pytest.approx(dense, abs=100)
    assert compress.sparsity(model) == pytest.approx(0.5)


def test_macs_of_the_article_cnn():
    # conv1 20*24*24*25 + conv2 50*8*8*500 + fc1 800*500 + fc2 500*10
    assert compress.macs(models.ArticleCNN(), (1, 28, 28)) == 288_000 + 1_600_000 + 400_000 + 5_000


def test_article_cnn_matches_models_article_cnn():
    assert models.count_parameters(compress.article_cnn()) == models.count_parameters(models.ArticleCNN())
    assert models.count_parameters(compress.article_cnn(0.5)) == 109_295
    assert compress.article_cnn(0.5)(torch.zeros(2, 1, 28, 28)).shape == (2, 10)


def test_fold_batchnorm_keeps_outputs_and_removes_bn():
    cnn = compress.article_cnn(batchnorm=True, seed=0)
    with torch.no_grad():  # BN statistics that are far from the identity
        for bn in (cnn.bn1, cnn.bn2):
            bn.running_mean.normal_(0, 1)
            bn.running_var.uniform_(0.5, 2)
            bn.weight.normal_(1, 0.5)
            bn.bias.normal_(0, 0.5)
    cnn.eval()
    folded = compress.fold_batchnorm(cnn)
    assert not any(isinstance(m, nn.BatchNorm2d) for m in folded.modules())
    assert any(isinstance(m, nn.BatchNorm2d) for m in cnn.modules())  # the original is untouched
    x = torch.randn(8, 1, 28, 28)
    torch.testing.assert_close(folded(x), cnn(x), atol=1e-4, rtol=1e-4)


def test_shrink_article_cnn_removes_channels_and_keeps_outputs(trained_like_cnn):
    pruned = copy.deepcopy(trained_like_cnn)
    for module in (pruned.conv1, pruned.conv2, pruned.fc1):
        prune.ln_structured(module, "weight", amount=0.5, n=2, dim=0)
    small = compress.shrink_article_cnn(pruned)
    assert small.conv1.weight.shape == (10, 1, 5, 5)
    assert small.conv2.weight.shape == (25, 10, 5, 5)
    assert small.fc1.weight.shape == (250, 400)
    assert small.fc2.weight.shape == (10, 250)
    x = torch.randn(16, 1, 28, 28)
    with torch.no_grad():
        torch.testing.assert_close(small(x), pruned(x), atol=1e-4, rtol=1e-4)
    assert compress.macs(small, (1, 28, 28)) < compress.macs(pruned, (1, 28, 28)) / 3


def test_shrink_would_be_wrong_without_folding_the_dead_biases(trained_like_cnn):
    # The test above can fail: dropping zeroed channels without their relu(bias) changes the outputs.
    pruned = copy.deepcopy(trained_like_cnn)
    prune.ln_structured(pruned.fc1, "weight", amount=0.5, n=2, dim=0)
    naive = compress.article_cnn(seed=0)
    state = {k.replace("_orig", ""): v for k, v in pruned.state_dict().items() if "mask" not in k}
    naive.load_state_dict(state)
    with torch.no_grad():
        naive.fc1.weight.mul_(pruned.fc1.weight_mask)
        naive.fc1.bias.mul_(pruned.fc1.weight_mask[:, 0])  # dropping a channel drops its bias too
        x = torch.randn(4, 1, 28, 28)
        assert (naive(x) - pruned(x)).abs().max() > 1e-3
        torch.testing.assert_close(compress.shrink_article_cnn(pruned)(x), pruned(x), atol=1e-4, rtol=1e-4)


def test_quantize_dynamic_int8_is_quiet_small_close_and_leaves_the_original():
    mlp = compress.linear_heavy_mlp(width=256, hidden_layers=2).eval()
    x = torch.randn(32, 1, 28, 28)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        int8 = compress.quantize_dynamic_int8(mlp)
        out = int8(x)
    assert not [w for w in caught if "deprecated" in str(w.message)]
    assert isinstance(mlp[1], nn.Linear)  # the original stays fp32
    assert compress.model_bytes(mlp) / compress.model_bytes(int8) > 3.5
    reference = mlp(x)
    assert (out - reference).abs().max() < 0.05 * reference.abs().max()


def test_weight_only_int8_is_small_and_close():
    mlp = compress.linear_heavy_mlp(width=256, hidden_layers=2).eval()
    small = compress.weight_only_int8(mlp)
    assert compress.model_bytes(mlp) / compress.model_bytes(small) > 3.5
    assert small[1].weight_int8.dtype == torch.int8 and small[1].weight_int8.shape == (256, 784)
    x = torch.randn(32, 1, 28, 28)
    reference = mlp(x)
    assert (small(x) - reference).abs().max() < 0.02 * reference.abs().max()


@pytest.mark.skipif(not compress.torchao_available(), reason="torchao is not installed")
def test_quantize_torchao_runs():
    mlp = compress.linear_heavy_mlp(width=128, hidden_layers=1).eval()
    x = torch.randn(8, 1, 28, 28)
    for kind in ("int8_dynamic", "int8_weight_only"):
        assert compress.quantize_torchao(mlp, kind)(x).shape == (8, 10)


def test_quantize_torchao_rejects_unknown_kinds():
    if not compress.torchao_available():
        pytest.skip("torchao is not installed")
    with pytest.raises(ValueError):
        compress.quantize_torchao(nn.Linear(2, 2), "int3")


def test_distill_loss_limits():
    torch.manual_seed(0)
    student, teacher = torch.randn(16, 10), torch.randn(16, 10)
    labels = torch.randint(0, 10, (16,))
    hard = compress.distill_loss(student, teacher, labels, alpha=0.0)
    torch.testing.assert_close(hard, F.cross_entropy(student, labels))
    assert compress.distill_loss(teacher, teacher, labels, alpha=1.0).abs() < 1e-6  # KL(p || p) = 0
    assert compress.distill_loss(student, teacher, labels, alpha=1.0) > 0


def test_train_is_deterministic_and_learns(digits_small):
    losses = [compress.train(compress.article_cnn(0.5, seed=0), digits_small, 2, batch_size=64)
              for _ in range(2)]
    assert losses[0] == losses[1]
    assert losses[0][-1] < losses[0][0]


def test_saved_activation_bytes_halves_roughly_under_bf16():
    cnn, x = models.ArticleCNN(seed=0), torch.randn(16, 1, 28, 28)
    fp32 = compress.saved_activation_bytes(cnn, x)
    bf16 = compress.saved_activation_bytes(cnn, x, torch.bfloat16)
    assert 0.4 * fp32 < bf16 < 0.8 * fp32


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
    times = compress.compare_latency(variants, torch.zeros(1), rounds=3, warmup=1)
    assert calls == ["a", "b"] + ["a", "b"] * 3  # warm-up, then one call of each per round
    assert [len(m.samples) for m in times.values()] == [3, 3]
    assert torch.get_num_threads() == threads


def test_cpu_threads_sets_and_restores():
    before = torch.get_num_threads()
    with compress.cpu_threads(1):
        assert torch.get_num_threads() == 1
    assert torch.get_num_threads() == before


def test_pareto_front():
    assert compress.pareto_front([(1, 5), (2, 3), (3, 4)]) == [True, True, False]
    assert compress.pareto_front([(1, 1), (1, 1)]) == [True, True]  # equal points do not beat each other


def test_benchmarks_are_registered_with_their_bounds():
    assert {"quantize", "prune"} <= set(bench.REGISTRY)
    assert bench.REGISTRY["quantize"] is compress.bench_quantize


@pytest.fixture
def digits_small():
    from utils import data

    images, labels = data.digits_28("train").tensors
    return torch.utils.data.TensorDataset(images[:256], labels[:256])


def test_speedup_uses_the_fastest_runs():
    class Sleeper(nn.Module):
        def __init__(self, seconds):
            super().__init__()
            self.seconds = seconds

        def forward(self, x):
            import time

            time.sleep(self.seconds)
            return x

    assert compress.speedup(Sleeper(0.004), Sleeper(0.001), torch.zeros(1), rounds=3) > 1.5


def test_timing_note_warns_only_when_the_spread_is_large():
    quiet = {"a": bench.Measurement([1.0, 1.05, 1.1], 0), "b": bench.Measurement([2.0, 2.1, 2.2], 0)}
    busy = {"a": bench.Measurement([1.0, 1.1, 2.0], 0), "b": bench.Measurement([2.0, 2.1, 2.2], 0)}
    assert "fastest of 3 interleaved runs" in compress.timing_note(quiet)
    assert "warning" not in compress.timing_note(quiet)
    note = compress.timing_note(busy)
    assert note.count("\n") == 1 and "this machine was busy" in note and "91%" in note


def test_bf16_support_reads_the_cpu_flags(tmp_path):
    cpuinfo = tmp_path / "cpuinfo"
    cpuinfo.write_text("processor\t: 0\nflags\t\t: fpu avx2 avx512_bf16 avx512_vnni\n")
    assert compress.bf16_support(str(cpuinfo)) == {"avx512_bf16": True, "amx_bf16": False}
    cpuinfo.write_text("flags\t\t: fpu avx2\n")
    assert compress.bf16_support(str(cpuinfo)) == {"avx512_bf16": False, "amx_bf16": False}
    assert compress.bf16_support(str(tmp_path / "missing")) is None


def test_saved_bytes_by_dtype_shows_what_bf16_does_not_shrink():
    cnn, x = models.ArticleCNN(seed=0), torch.randn(16, 1, 28, 28)
    fp32 = compress.saved_bytes_by_dtype(cnn, x)
    bf16 = compress.saved_bytes_by_dtype(cnn, x, torch.bfloat16)
    assert fp32[torch.int64] == bf16[torch.int64] > 0  # max-pooling indices: the same in both
    assert bf16[torch.bfloat16] == fp32[torch.float32] // 2
    assert sum(bf16.values()) == compress.saved_activation_bytes(cnn, x, torch.bfloat16)


def test_load_digits_prints_one_line_for_both_splits(capsys):
    train_set, test_set = compress.load_digits(100, 50)
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and "100 training and 50 test images" in out
    assert len(train_set) == 100 and len(test_set) == 50
