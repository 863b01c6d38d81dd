"""utils.models: shapes, parameter counts, the pipeline view, causality, seeding, a learning sanity check."""

import random

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from torch import nn

from utils.models import (
    GPT,
    MLP,
    ArticleCNN,
    Attention,
    FeedForward,
    GPTConfig,
    count_parameters,
    deep_mlp,
    seed_everything,
    small_gpt,
)

VOCAB = 50


def tokens(batch=2, length=16, vocab=VOCAB, seed=0):
    return torch.randint(0, vocab, (batch, length), generator=torch.Generator().manual_seed(seed))


def tiny_config(**overrides):
    fields = dict(vocab_size=VOCAB, context=16, width=32, depth=3, heads=4)
    fields.update(overrides)
    return GPTConfig(**fields)


def expected_gpt_parameters(c: GPTConfig) -> int:
    C, V, hidden = c.width, c.vocab_size, c.mlp_ratio * c.width
    embed = V * C + c.context * C
    attn = 2 * C + (C * 3 * C + 3 * C) + (C * C + C)  # norm, qkv, proj
    ffn = 2 * C + (C * hidden + hidden) + (hidden * C + C)  # norm, fc, proj
    head = 2 * C + C * V  # norm, output projection without bias
    return embed + c.depth * (attn + ffn) + head


# ------------------------------------------------------------------------------------------------- GPT


def test_gpt_shapes_and_loss():
    seed_everything(0)
    gpt = GPT(tiny_config())
    x, y = tokens(), tokens(seed=1)
    logits = gpt(x)
    assert logits.shape == (2, 16, VOCAB)
    logits2, loss = gpt(x, y)
    assert torch.equal(logits, logits2)
    assert loss.shape == ()
    assert torch.equal(loss, F.cross_entropy(logits.reshape(-1, VOCAB), y.reshape(-1)))
    assert torch.equal(gpt.loss(x, y), loss)
    # Untrained, every token is about equally likely: the loss is near ln(vocab).
    assert abs(loss.item() - np.log(VOCAB)) < 0.1


def test_gpt_parameter_count_matches_the_architecture():
    config = tiny_config()
    assert count_parameters(GPT(config)) == expected_gpt_parameters(config)
    small = small_gpt(96)
    assert small.config.context == 64 and small.config.width == 128
    assert small.config.depth == 4 and small.config.heads == 4
    assert count_parameters(small) == expected_gpt_parameters(small.config)


def test_count_parameters_counts_shared_and_trainable_once():
    shared = nn.Linear(3, 3)
    model = nn.Sequential(shared, shared)
    assert count_parameters(model) == 12
    shared.bias.requires_grad_(False)
    assert count_parameters(model, trainable_only=True) == 9


def test_config_rejects_width_not_divisible_by_heads():
    with pytest.raises(ValueError, match="divisible"):
        GPTConfig(vocab_size=10, context=8, width=30, depth=1, heads=4)


def test_sequence_longer_than_context_is_rejected():
    gpt = GPT(tiny_config())
    with pytest.raises(ValueError, match="context"):
        gpt(tokens(length=17))


def test_as_sequential_equals_forward_bitwise_and_shares_parameters():
    seed_everything(0)
    gpt = GPT(tiny_config())
    seq = gpt.as_sequential()
    assert isinstance(seq, nn.Sequential) and len(seq) == gpt.config.depth + 2
    assert seq[0] is gpt.embed and seq[-1] is gpt.head and seq[1] is gpt.blocks[0]
    assert {id(p) for p in seq.parameters()} == {id(p) for p in gpt.parameters()}
    x = tokens()
    expected = gpt(x)
    assert torch.equal(seq(x), expected)
    # Split into two pipeline stages at every possible index: still the same numbers.
    for cut in range(1, len(seq)):
        assert torch.equal(seq[cut:](seq[:cut](x)), expected)


def test_block_is_attention_then_feed_forward_residuals():
    seed_everything(0)
    gpt = GPT(tiny_config())
    block = gpt.blocks[1]
    assert isinstance(block.attn, Attention) and isinstance(block.ffn, FeedForward)
    x = torch.randn(2, 16, 32, generator=torch.Generator().manual_seed(0))
    by_hand = x + block.attn(x)  # what lesson 02 runs on the first device
    by_hand = by_hand + block.ffn(by_hand)  # and on the second
    assert torch.equal(block(x), by_hand)


def test_attention_is_causal():
    seed_everything(0)
    gpt = GPT(tiny_config()).eval()
    x = tokens()
    changed = x.clone()
    changed[:, 10] = (changed[:, 10] + 1) % VOCAB  # a different token at position 10
    before, after = gpt(x), gpt(changed)
    # Positions 0..9 cannot see position 10 ...
    torch.testing.assert_close(after[:, :10], before[:, :10], rtol=0, atol=1e-6)
    # ... and positions 10..15 do (so the check above can fail).
    assert (after[:, 10:] - before[:, 10:]).abs().amax(dim=-1).min() > 1e-4


def test_same_seed_gives_bitwise_equal_weights():
    a, b, c = small_gpt(VOCAB, seed=1), small_gpt(VOCAB, seed=1), small_gpt(VOCAB, seed=2)
    for (name, pa), pb, pc in zip(a.state_dict().items(), b.state_dict().values(), c.state_dict().values()):
        assert torch.equal(pa, pb), name
    assert not all(torch.equal(pa, pc) for pa, pc in zip(a.parameters(), c.parameters()))
    seed_everything(7)
    first = GPT(tiny_config())
    seed_everything(7)
    second = GPT(tiny_config())
    assert all(torch.equal(p, q) for p, q in zip(first.parameters(), second.parameters()))


def test_seeded_factories_leave_the_callers_random_stream_alone():
    torch.manual_seed(123)
    expected = torch.rand(3)
    torch.manual_seed(123)
    small_gpt(VOCAB, seed=5)
    deep_mlp(8, 2, seed=5)
    ArticleCNN(seed=5)
    assert torch.equal(torch.rand(3), expected)


def test_seed_everything_seeds_python_numpy_and_torch():
    def draw():
        return random.random(), np.random.rand(), torch.rand(1).item()

    seed_everything(3)
    first = draw()
    seed_everything(3)
    assert draw() == first
    seed_everything(4)
    assert draw() != first


def test_generate_appends_tokens_deterministically():
    gpt = small_gpt(VOCAB, context=8, width=32, depth=1, heads=2)
    start = tokens(batch=1, length=4)
    out1 = gpt.generate(start, 12, generator=torch.Generator().manual_seed(0))
    out2 = gpt.generate(start, 12, generator=torch.Generator().manual_seed(0))
    assert out1.shape == (1, 16) and torch.equal(out1[:, :4], start) and torch.equal(out1, out2)


def test_small_gpt_loss_drops_in_a_few_steps():
    # A sequence with period 16: after a few Adam steps the model has started to predict it.
    period = tokens(batch=1, length=16, seed=3)
    stream = period.repeat(1, 4)[0]  # (64,)
    x = torch.stack([stream[i : i + 32] for i in range(4)])  # (4, 32)
    y = torch.stack([stream[i + 1 : i + 33] for i in range(4)])
    gpt = small_gpt(VOCAB, seed=0)
    optimizer = torch.optim.AdamW(gpt.parameters(), lr=3e-3)
    losses = []
    for _ in range(15):
        loss = gpt.loss(x, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    assert losses[-1] < 0.6 * losses[0], losses


# ------------------------------------------------------------------------------------------------- MLP


def test_mlp_layers_and_split():
    mlp = MLP([6, 5, 4, 3])
    kinds = [type(layer) for layer in mlp]
    assert kinds == [nn.Linear, nn.ReLU, nn.Linear, nn.ReLU, nn.Linear]
    assert mlp.sizes == [6, 5, 4, 3]
    x = torch.randn(7, 6)
    assert mlp(x).shape == (7, 3)
    first, second = mlp[:2], mlp[2:]
    assert type(first) is nn.Sequential and first[0] is mlp[0]
    assert torch.equal(second(first(x)), mlp(x))
    assert type(MLP([4, 4], activation=nn.GELU, flatten=True)[0]) is nn.Flatten
    assert [type(m) for m in MLP([4, 3, 2], activation=nn.Tanh)][1] is nn.Tanh


def test_mlp_needs_two_sizes():
    with pytest.raises(ValueError):
        MLP([5])


def test_deep_mlp_sizes_and_parameters():
    mlp = deep_mlp(width=16, depth=5)
    assert mlp.sizes == [16] * 6
    assert count_parameters(mlp) == 5 * 16 * 17
    assert deep_mlp(16, 3, in_features=784, out_features=10).sizes == [784, 16, 16, 10]
    assert torch.equal(deep_mlp(16, 3)[0].weight, deep_mlp(16, 3)[0].weight)  # seed 0 by default


# ------------------------------------------------------------------------------------------------- CNN


def test_article_cnn_shapes_and_parameter_count():
    cnn = ArticleCNN(seed=0)
    x = torch.randn(5, 1, 28, 28, generator=torch.Generator().manual_seed(0))
    assert cnn(x).shape == (5, 10)
    # conv1 520 + conv2 25,050 + fc1 400,500 + fc2 5,010
    assert count_parameters(cnn) == 431_080
    layers = (cnn.conv1, cnn.conv2, cnn.fc1, cnn.fc2)
    assert [count_parameters(m) for m in layers] == [520, 25_050, 400_500, 5_010]
    assert (cnn.conv1.in_channels, cnn.conv1.out_channels, cnn.conv1.kernel_size) == (1, 20, (5, 5))
    assert (cnn.conv2.in_channels, cnn.conv2.out_channels, cnn.conv2.kernel_size) == (20, 50, (5, 5))
    assert (cnn.fc1.in_features, cnn.fc1.out_features, cnn.fc2.out_features) == (800, 500, 10)
    features = cnn[:7](x)
    assert features.shape == (5, 800)
    assert torch.equal(cnn[7:](features), cnn(x))


def test_article_cnn_seed():
    a, b = ArticleCNN(seed=1), ArticleCNN(seed=1)
    assert all(torch.equal(p, q) for p, q in zip(a.parameters(), b.parameters()))
    assert not torch.equal(a.fc1.weight, ArticleCNN(seed=2).fc1.weight)


def test_article_cnn_half_width_and_batchnorm_variants_keep_the_layer_names():
    half = ArticleCNN(seed=0, scale=0.5)
    assert count_parameters(half) == 109_295  # 10, 25 and 250 channels
    assert (half.conv1.out_channels, half.conv2.out_channels, half.fc1.out_features) == (10, 25, 250)
    assert half(torch.zeros(2, 1, 28, 28)).shape == (2, 10)
    with_bn = ArticleCNN(seed=0, batchnorm=True)
    names = [name for name, _ in with_bn.named_children()]
    assert names[:3] == ["conv1", "bn1", "relu1"] and names[5] == "bn2"
    plain = ArticleCNN(seed=0)
    # BatchNorm draws no random numbers: the same seed gives the same weights with or without it
    assert all(torch.equal(getattr(plain, n).weight, getattr(with_bn, n).weight) for n in ("conv1", "conv2", "fc1"))
