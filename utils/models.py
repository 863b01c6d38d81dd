"""The course's models: a small GPT, an MLP and the second article's CNN, plus seeding helpers.

Used by lesson 02 (model split: layers or sub-layers on two devices, pipelines), lesson 03 (DDP: the same
model on every rank) and lesson 04 (compression: the CNN, half as wide or with BatchNorm). Every model is
built on the CPU; a lesson moves it (or its parts) with ``.to(device)``.

    cfg = GPTConfig(vocab_size=100, context=64, width=128, depth=4, heads=4)
    gpt = GPT(cfg)                       # or small_gpt(100), sized for a 2-core CPU
    logits, loss = gpt(x, y)             # x, y: (B, T) int64 -> logits (B, T, vocab), scalar loss
    stages = gpt.as_sequential()         # Embedding, block_0 .. block_{n-1}, Head: split it at any index
    mlp = deep_mlp(width=512, depth=8)   # an nn.Sequential: mlp[:4] and mlp[4:] are two halves
    cnn = ArticleCNN(seed=0)             # (N, 1, 28, 28) -> (N, 10), 431,080 parameters
    half = ArticleCNN(seed=0, scale=0.5, batchnorm=True)  # lesson 04: half as wide, with BatchNorm

Shapes in comments: B batch, T time (tokens), C channels (the model width), H heads, D = C // H.
Importing this module has no side effects.
"""

from __future__ import annotations

import contextlib
import math
import random
from collections import OrderedDict
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

__all__ = [
    "seed_everything",
    "seeded",
    "count_parameters",
    "GPTConfig",
    "Attention",
    "FeedForward",
    "Block",
    "Embedding",
    "Head",
    "GPT",
    "small_gpt",
    "MLP",
    "deep_mlp",
    "ArticleCNN",
]


# ----------------------------------------------------------------------------------------------- seeding


def seed_everything(seed: int) -> int:
    """Seed Python's ``random``, NumPy and torch (CPU, and every GPU lazily: CUDA is not initialised)."""
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    return seed


@contextlib.contextmanager
def seeded(seed: int | None):
    """Run the block with torch's CPU generator set to ``seed``, then restore the caller's generator.

    Models are built on the CPU, so their initial weights depend only on the CPU generator: the same seed
    gives bitwise-equal weights whatever ran before, and the caller's random stream is left untouched.
    ``seed=None`` uses the caller's generator as it is.
    """
    if seed is None:
        yield
        return
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        yield


@torch.no_grad()
def correct_answers(model: nn.Module, dataset, batch_size: int = 512, device=None) -> torch.Tensor:
    """1.0 where ``model`` classifies an example of ``dataset`` right, else 0.0: (len(dataset),) float64, in
    order (lab 04 pairs two models' answers image by image). ``device`` defaults to where the model's first
    parameter (or buffer) is; the model is put in eval mode for the count and then back as it was.
    """
    tensors = list(model.parameters()) + list(model.buffers())
    device = device or (tensors[0].device if tensors else "cpu")
    was_training = model.training
    model.eval()
    with torch.no_grad():
        answers = [model(x.to(device)).argmax(1).cpu() == y
                   for x, y in torch.utils.data.DataLoader(dataset, batch_size=batch_size)]
    model.train(was_training)
    return torch.cat(answers).double()


def accuracy(model: nn.Module, dataset, batch_size: int = 512, device=None) -> float:
    """The fraction (0 to 1) of ``dataset``'s examples that ``model`` classifies right; lessons 04 and lab 00.

    A fraction, never a percentage: format it with ``f"{acc:.1%}"``. See ``correct_answers``.
    """
    return correct_answers(model, dataset, batch_size, device).mean().item()


def count_parameters(model: nn.Module, trainable_only: bool = False) -> int:
    """Number of scalar parameters; a parameter shared by two modules is counted once."""
    return sum(p.numel() for p in model.parameters() if p.requires_grad or not trainable_only)


# ------------------------------------------------------------------------------------------------- GPT


@dataclass
class GPTConfig:
    """A decoder-only transformer's size. ``width`` must be divisible by ``heads``."""

    vocab_size: int
    context: int  # the longest sequence the model reads (learned positions 0 .. context-1)
    width: int  # C, the channels of every token's vector
    depth: int  # number of transformer blocks
    heads: int
    mlp_ratio: int = 4  # the feed-forward layer is mlp_ratio * width wide
    dropout: float = 0.0

    def __post_init__(self):
        if self.width % self.heads:
            raise ValueError(f"width {self.width} is not divisible by heads {self.heads}")


class Attention(nn.Module):
    """Causal multi-head self-attention, with its own pre-LayerNorm.

    Returns the residual update ``attn(norm(x))``; the caller adds it to ``x``. The norm lives here (not in
    ``Block``) so that moving this module to a device moves everything that attention needs.
    """

    def __init__(self, config: GPTConfig):
        super().__init__()
        self.heads = config.heads
        self.dropout = config.dropout
        self.norm = nn.LayerNorm(config.width)
        self.qkv = nn.Linear(config.width, 3 * config.width)  # queries, keys and values in one matmul
        self.proj = nn.Linear(config.width, config.width)
        self.drop = nn.Dropout(config.dropout)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        B, T, C = x.shape
        q, k, v = self.qkv(self.norm(x)).split(C, dim=2)  # 3 x (B, T, C)
        # (B, T, C) -> (B, H, T, D): every head attends over T on its own slice of the channels
        q, k, v = (t.view(B, T, self.heads, C // self.heads).transpose(1, 2) for t in (q, k, v))
        # is_causal=True: token t sees tokens 0..t only, so a future token cannot change earlier outputs
        y = F.scaled_dot_product_attention(
            q, k, v, is_causal=True, dropout_p=self.dropout if self.training else 0.0
        )  # (B, H, T, D)
        y = y.transpose(1, 2).reshape(B, T, C)  # heads side by side again: (B, T, C)
        return self.drop(self.proj(y))


class FeedForward(nn.Module):
    """Per-token MLP, width -> mlp_ratio*width -> width, with its own pre-LayerNorm; returns the update."""

    def __init__(self, config: GPTConfig):
        super().__init__()
        hidden = config.mlp_ratio * config.width
        self.norm = nn.LayerNorm(config.width)
        self.fc = nn.Linear(config.width, hidden)
        self.act = nn.GELU()
        self.proj = nn.Linear(hidden, config.width)
        self.drop = nn.Dropout(config.dropout)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.drop(self.proj(self.act(self.fc(self.norm(x)))))  # (B, T, C)


class Block(nn.Module):
    """A pre-LayerNorm block: ``x + attn(x)``, then ``x + ffn(x)``; each sub-layer norms its own input.

    Lesson 02 puts ``block.attn`` on one device and ``block.ffn`` on another:
    ``x = x + block.attn(x)`` on the first, ``x = x.to(second)``, ``x = x + block.ffn(x)`` on the second.
    """

    def __init__(self, config: GPTConfig):
        super().__init__()
        self.attn = Attention(config)
        self.ffn = FeedForward(config)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x + self.attn(x)  # (B, T, C): tokens exchange information
        x = x + self.ffn(x)  # (B, T, C): every token is processed on its own
        return x


class Embedding(nn.Module):
    """First stage: token ids (B, T) -> token embedding + learned position embedding (B, T, C)."""

    def __init__(self, config: GPTConfig):
        super().__init__()
        self.context = config.context
        self.token = nn.Embedding(config.vocab_size, config.width)
        self.position = nn.Embedding(config.context, config.width)
        self.drop = nn.Dropout(config.dropout)

    def forward(self, idx: torch.Tensor) -> torch.Tensor:
        T = idx.shape[1]
        if T > self.context:
            raise ValueError(f"sequence of {T} tokens is longer than the context ({self.context})")
        positions = torch.arange(T, device=idx.device)  # (T,)
        return self.drop(self.token(idx) + self.position(positions))  # (B, T, C) + (T, C) -> (B, T, C)


class Head(nn.Module):
    """Last stage: final LayerNorm and the projection to vocabulary logits, (B, T, C) -> (B, T, vocab).

    Its weight is not tied to the token embedding: a pipeline puts the first and last stages on different
    devices, and a tied weight would have to live on both.
    """

    def __init__(self, config: GPTConfig):
        super().__init__()
        self.norm = nn.LayerNorm(config.width)
        self.out = nn.Linear(config.width, config.vocab_size, bias=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.out(self.norm(x))


class GPT(nn.Module):
    """A decoder-only transformer: ``embed``, ``blocks[0..depth-1]``, ``head``.

    ``forward(idx)`` returns logits (B, T, vocab); ``forward(idx, targets)`` returns ``(logits, loss)``.
    """

    def __init__(self, config: GPTConfig):
        super().__init__()
        self.config = config
        self.embed = Embedding(config)
        self.blocks = nn.ModuleList(Block(config) for _ in range(config.depth))
        self.head = Head(config)
        self.apply(self._init_weights)
        # GPT-2's trick: shrink the layers that write into the residual stream, so that its variance does
        # not grow with depth (2 writes per block).
        for name, p in self.named_parameters():
            if name.endswith("proj.weight"):
                nn.init.normal_(p, mean=0.0, std=0.02 / math.sqrt(2 * config.depth))

    @staticmethod
    def _init_weights(module: nn.Module) -> None:
        if isinstance(module, (nn.Linear, nn.Embedding)):
            nn.init.normal_(module.weight, mean=0.0, std=0.02)
        if isinstance(module, nn.Linear) and module.bias is not None:
            nn.init.zeros_(module.bias)

    def forward(self, idx: torch.Tensor, targets: torch.Tensor | None = None):
        x = self.embed(idx)  # (B, T) -> (B, T, C)
        for block in self.blocks:
            x = block(x)  # (B, T, C)
        logits = self.head(x)  # (B, T, vocab)
        if targets is None:
            return logits
        return logits, cross_entropy(logits, targets)

    def loss(self, idx: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        """Mean next-token cross-entropy: ``targets[b, t]`` is the token that follows ``idx[b, t]``."""
        return self(idx, targets)[1]

    def as_sequential(self) -> nn.Sequential:
        """The same modules (and so the same parameters) as ``Sequential(embed, block_0, ..., head)``.

        Its forward equals ``self(idx)`` bitwise. Index 0 is the embedding, 1..depth the blocks, -1 the head,
        so ``seq[:3]`` and ``seq[3:]`` are the two stages of a pipeline split after block 1.
        """
        return nn.Sequential(self.embed, *self.blocks, self.head)

    @torch.no_grad()
    def generate(
        self, idx: torch.Tensor, new_tokens: int, temperature: float = 1.0, generator=None
    ) -> torch.Tensor:
        """Append ``new_tokens`` sampled tokens to ``idx`` (B, T); the model reads the last ``context``."""
        for _ in range(new_tokens):
            logits = self(idx[:, -self.config.context :])[:, -1, :]  # (B, vocab): the next token's scores
            probs = F.softmax(logits / temperature, dim=-1)
            next_token = torch.multinomial(probs, num_samples=1, generator=generator)  # (B, 1)
            idx = torch.cat([idx, next_token], dim=1)
        return idx


def cross_entropy(logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    """Next-token loss: flattens (B, T, vocab) logits and (B, T) targets to one batch of B*T predictions."""
    return F.cross_entropy(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1))


def small_gpt(vocab_size: int, seed: int | None = 0, **overrides) -> GPT:
    """A GPT sized for seconds per epoch on 2 CPU cores (about 0.8 M parameters plus the vocabulary's).

    Defaults: context 64, width 128, depth 4, heads 4. Override any ``GPTConfig`` field to scale it up on
    GPUs, e.g. ``small_gpt(v, width=768, depth=12, heads=12, context=256)``. The same ``seed`` gives
    bitwise-equal weights (see ``seeded``).
    """
    fields = dict(context=64, width=128, depth=4, heads=4)
    fields.update(overrides)
    with seeded(seed):
        return GPT(GPTConfig(vocab_size=vocab_size, **fields))


# ------------------------------------------------------------------------------------------------- MLP


class _Splittable(nn.Sequential):
    """An ``nn.Sequential`` whose slices are plain ``nn.Sequential`` (sharing the layers), not a new model.

    ``nn.Sequential`` builds a slice with ``self.__class__(...)``, which a subclass with its own arguments
    (sizes, seed) cannot accept.
    """

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return nn.Sequential(OrderedDict(list(self._modules.items())[idx]))
        return super().__getitem__(idx)


class MLP(_Splittable):
    """Linear layers of ``sizes`` with ``activation`` between them (none after the last).

    ``MLP([784, 256, 10])`` is Linear(784, 256), ReLU, Linear(256, 10). It is an ``nn.Sequential``, so
    ``mlp[:k]`` and ``mlp[k:]`` split it into two models (lesson 02). ``flatten=True`` puts an
    ``nn.Flatten`` first, so images (N, 1, 28, 28) go in as (N, 784); it is then index 0.
    """

    def __init__(self, sizes: list[int], activation: type[nn.Module] = nn.ReLU, flatten: bool = False):
        if len(sizes) < 2:
            raise ValueError("an MLP needs at least an input and an output size")
        layers: list[nn.Module] = [nn.Flatten()] if flatten else []
        for i, (n_in, n_out) in enumerate(zip(sizes[:-1], sizes[1:])):
            layers.append(nn.Linear(n_in, n_out))
            if i < len(sizes) - 2:
                layers.append(activation())
        super().__init__(*layers)
        self.sizes = list(sizes)


def deep_mlp(
    width: int,
    depth: int,
    in_features: int | None = None,
    out_features: int | None = None,
    activation: type[nn.Module] = nn.ReLU,
    seed: int | None = 0,
) -> MLP:
    """``depth`` Linear layers, every hidden layer ``width`` wide (a square stack: easy to split evenly).

    ``in_features`` and ``out_features`` default to ``width``. Each layer holds width*(width+1) parameters.
    """
    sizes = [in_features or width] + [width] * (depth - 1) + [out_features or width]
    with seeded(seed):
        return MLP(sizes, activation=activation)


# ------------------------------------------------------------------------------------------------- CNN


class ArticleCNN(_Splittable):
    """The second article's ``MyModel`` case study, rebuilt: a LeNet-style CNN for 28x28 digit images.

    conv1 1->20 5x5, ReLU, max-pool 2, conv2 20->50 5x5, ReLU, max-pool 2, flatten 4*4*50 = 800,
    fc1 800->500, ReLU, fc2 500->10. 431,080 parameters. Input (N, 1, 28, 28), output (N, 10) logits:
    the article ends in ``log_softmax`` and ``nll_loss``; here ``F.cross_entropy(logits, y)`` does both.

    Shapes: (N,1,28,28) -conv1-> (N,20,24,24) -pool1-> (N,20,12,12) -conv2-> (N,50,8,8) -pool2-> (N,50,4,4)
    -flatten-> (N,800) -fc1-> (N,500) -fc2-> (N,10). It is an ``nn.Sequential`` with named layers:
    ``cnn.conv1`` is ``cnn[0]``, and ``cnn[:7]`` / ``cnn[7:]`` are the convolutional and dense halves.

    Lesson 04 (compression) builds two variants with the same layer names: ``scale`` multiplies every width
    (``scale=0.5``: 10, 25 and 250 channels, 109,295 parameters, the size that distillation and channel
    removal aim at) and ``batchnorm=True`` adds ``bn1``/``bn2`` after the convolutions (the layers that
    BatchNorm folding removes; the halves are then ``cnn[:9]`` / ``cnn[9:]``). BatchNorm draws no random
    numbers, so the same ``seed`` gives the same convolution and Linear weights with or without it.
    """

    def __init__(self, seed: int | None = None, scale: float = 1.0, batchnorm: bool = False):
        c1, c2, hidden = round(20 * scale), round(50 * scale), round(500 * scale)  # 20, 50, 500 at scale 1

        def bn(name: str, channels: int) -> list:  # lesson 04's variant: BatchNorm after each convolution
            return [(name, nn.BatchNorm2d(channels))] if batchnorm else []

        with seeded(seed):  # the layers draw their initial weights as they are created
            layers = OrderedDict([
                ("conv1", nn.Conv2d(1, c1, kernel_size=5)),  # (N, c1, 24, 24): 20*(5*5*1) + 20 = 520 at scale 1
                *bn("bn1", c1),
                ("relu1", nn.ReLU()),
                ("pool1", nn.MaxPool2d(2)),  # (N, c1, 12, 12)
                ("conv2", nn.Conv2d(c1, c2, kernel_size=5)),  # (N, c2, 8, 8): 50*(5*5*20) + 50 = 25,050
                *bn("bn2", c2),
                ("relu2", nn.ReLU()),
                ("pool2", nn.MaxPool2d(2)),  # (N, c2, 4, 4)
                ("flatten", nn.Flatten()),  # (N, c2*16): 800
                ("fc1", nn.Linear(4 * 4 * c2, hidden)),  # (N, hidden): 800*500 + 500 = 400,500
                ("relu3", nn.ReLU()),
                ("fc2", nn.Linear(hidden, 10)),  # (N, 10): 500*10 + 10 = 5,010
            ])
        super().__init__(layers)
