"""Making a trained model smaller and faster, and measuring it: size, sparsity, latency, fusion, pruning
surgery, int8 quantization, mixed precision and distillation helpers.

Lesson 04, compression (``notebooks/04_compression.ipynb``) and its lab
(``labs/04_compress_under_budget.ipynb``). Every helper is thin over torch's own API, so that the lesson shows
the real calls:

    model_bytes(model)                  # bytes of the state dict as torch.save writes it
    sparsity(model)                     # fraction of zero weights in Conv2d / Linear layers
    latency(model, x)                   # utils.bench.measure under inference_mode
    compare_latency({"fp32": m, "int8": q}, x)   # interleaved: both see the same machine noise
    timing_note(times)                  # how the times were taken; a warning when the machine was busy
    bf16_support()                      # the CPU's bf16 instructions, from /proc/cpuinfo
    load_digits(5_000, 2_000)           # train and test sets, one line saying which data
    fold_batchnorm(cnn)                 # BatchNorm folded into the convolution before it
    shrink_article_cnn(pruned)          # channels zeroed by structured pruning physically removed
    quantize_dynamic_int8(mlp)          # torch.ao dynamic int8 (the fast int8 path on CPU)
    weight_only_int8(mlp)               # int8 weights, fp32 compute (smaller, not faster on CPU)
    distill(student, teacher, train_set, epochs=3)

Benchmarks ``quantize`` and ``prune`` are registered with ``utils.bench``; the lab's checks are at the end.
Importing this module trains nothing and prints nothing (it only registers the two benchmarks).
"""

from __future__ import annotations

import contextlib
import copy
import functools
import io
import warnings
from collections import OrderedDict
from typing import Callable

import torch
import torch.nn.functional as F
from torch import nn
from torch.nn.utils import prune
from torch.nn.utils.fusion import fuse_conv_bn_eval

from utils import bench, checks, models

__all__ = [
    "model_bytes", "sparsity", "cpu_threads", "latency", "compare_latency", "speedup", "accuracy", "macs",
    "saved_activation_bytes", "saved_bytes_by_dtype", "timing_note", "NOISY_SPREAD", "bf16_support",
    "load_digits",
    "train", "distill_loss", "distill", "article_cnn", "linear_heavy_mlp",
    "fold_batchnorm", "prunable", "remove_masks", "shrink_article_cnn",
    "quantize_dynamic_int8", "WeightOnlyInt8Linear", "weight_only_int8", "torchao_available",
    "quantize_torchao",
    "pareto_front", "check_smaller", "check_faster", "check_accuracy",
]

# Weights live in these layers; pruning and sparsity look only at them (biases and norms are tiny).
WEIGHT_LAYERS = (nn.Conv2d, nn.Linear)


# --------------------------------------------------------------------------------------------- measuring


def model_bytes(model: nn.Module) -> int:
    """Bytes of ``model.state_dict()`` as ``torch.save`` writes it: parameters, buffers, masks, packed int8.

    Measured, not computed: quantized layers keep their weights in packed objects that ``parameters()``
    does not list, and pruning adds ``weight_mask`` buffers; the saved file sees both.
    """
    buffer = io.BytesIO()
    torch.save(model.state_dict(), buffer)
    return buffer.getbuffer().nbytes


def sparsity(model: nn.Module) -> float:
    """Fraction of exactly-zero weights over every Conv2d and Linear layer (0.0 dense, 0.9 = 90 % zeros).

    With pruning masks in place ``module.weight`` is the masked weight, so this counts what the model uses.
    """
    zeros = total = 0
    for module in model.modules():
        if isinstance(module, WEIGHT_LAYERS):
            zeros += int((module.weight == 0).sum())
            total += module.weight.numel()
    return zeros / total if total else 0.0


@contextlib.contextmanager
def cpu_threads(n: int | None):
    """Run the block with torch using ``n`` CPU threads (None: leave it), then restore the previous number.

    Why time on one thread: with two threads on two cores, every operation waits for both halves, so a
    program that takes one core for a moment stalls the operation; one thread is slowed only in proportion.
    """
    previous = torch.get_num_threads()
    if n:
        torch.set_num_threads(n)
    try:
        yield
    finally:
        torch.set_num_threads(previous)


def latency(model: nn.Module, x: torch.Tensor, *, repeats: int = 7, warmup: int = 2, device=None,
            threads: int | None = 1) -> bench.Measurement:
    """Seconds per forward pass of ``model(x)`` (median of ``repeats``), no autograd: ``utils.bench.measure``.

    ``threads``: CPU threads while timing (see ``cpu_threads``); ignored for inputs on a GPU.
    """
    with cpu_threads(threads if x.device.type == "cpu" else None), torch.inference_mode():
        return bench.measure(lambda: model(x), warmup=warmup, repeats=repeats, device=device)


def compare_latency(variants: dict[str, nn.Module], x: torch.Tensor, *, rounds: int = 15, warmup: int = 2,
                    device=None, threads: int | None = 1) -> dict[str, bench.Measurement]:
    """Time several models on the same input, **interleaved**: round r times every model once, in turn.

    On a shared, noisy machine a burst of someone else's work then slows every variant alike, instead of
    landing on whichever model happened to be timed during it. Returns one Measurement per name.
    ``threads``: CPU threads while timing (default 1, see ``cpu_threads``); ignored for inputs on a GPU.
    """
    samples: dict[str, list[float]] = {name: [] for name in variants}
    with cpu_threads(threads if x.device.type == "cpu" else None), torch.inference_mode():
        for model in variants.values():
            for _ in range(warmup):
                model(x)
        for _ in range(rounds):
            for name, model in variants.items():
                samples[name] += bench.measure(lambda: model(x), warmup=0, repeats=1, device=device).samples
    return {name: bench.Measurement(s, warmup) for name, s in samples.items()}


def speedup(baseline: nn.Module, candidate: nn.Module, x: torch.Tensor, *, rounds: int = 15,
            device=None, threads: int | None = 1) -> float:
    """Fastest run of ``baseline`` / fastest run of ``candidate`` (2.0: twice as fast), interleaved.

    The minimum, not the median: on a shared machine other programs only ever add time, so the fastest of
    many runs is the estimate least disturbed by them.
    """
    times = compare_latency({"baseline": baseline, "candidate": candidate}, x, rounds=rounds, device=device,
                            threads=threads)
    return times["baseline"].min / times["candidate"].min


NOISY_SPREAD = 0.2  # above this (max - min) / median, timing_note warns that the machine was busy


def timing_note(times: dict[str, bench.Measurement], limit: float = NOISY_SPREAD) -> str:
    """One line on how ``times`` (``compare_latency``'s result) were taken, plus a warning when any variant's
    spread ``(max - min) / median`` exceeds ``limit``: then differences within the spread are noise.
    """
    runs = min(len(t.samples) for t in times.values())
    worst = max(t.spread for t in times.values())
    line = f"times: fastest of {runs} interleaved runs each; spread (max-min)/median up to {worst:.0%}"
    if worst > limit:
        line += (f"\nwarning: spread above {limit:.0%}: this machine was busy: differences within the spread "
                 "are noise")
    return line


def accuracy(model: nn.Module, dataset, batch_size: int = 512, device=None) -> float:
    """Percent of ``dataset`` (a TensorDataset of images, labels) classified right, in eval mode."""
    images, labels = dataset.tensors
    was_training = model.training
    model.eval()
    correct = 0
    with torch.inference_mode():
        for start in range(0, len(labels), batch_size):
            x = images[start:start + batch_size]
            if device is not None:
                x = x.to(device)
            correct += int((model(x).argmax(dim=1).cpu() == labels[start:start + batch_size]).sum())
    model.train(was_training)
    return 100.0 * correct / len(labels)


def macs(model: nn.Module, input_shape: tuple[int, ...]) -> int:
    """Multiply-accumulates of one sample's forward pass through the Conv2d and Linear layers (FLOPs ≈ 2×).

    ``input_shape`` excludes the batch: (1, 28, 28) for a digit image. Counted with forward hooks on a
    zero input of batch 1, so it follows whatever shapes the model really has (e.g. after channel removal).
    """
    total = 0

    def count(module, inputs, output):
        nonlocal total
        if isinstance(module, nn.Conv2d):  # each output value: in_channels/groups * kh * kw MACs
            kh, kw = module.kernel_size
            total += output.numel() * (module.in_channels // module.groups) * kh * kw
        elif isinstance(module, nn.Linear):
            total += output.numel() * module.in_features

    handles = [m.register_forward_hook(count) for m in model.modules() if isinstance(m, WEIGHT_LAYERS)]
    try:
        with torch.inference_mode():
            model(torch.zeros(1, *input_shape))
    finally:
        for h in handles:
            h.remove()
    return total


def saved_bytes_by_dtype(model: nn.Module, x: torch.Tensor,
                         autocast_dtype: torch.dtype | None = None) -> dict[torch.dtype, int]:
    """Bytes of the tensors autograd keeps from one forward pass for the backward pass, per dtype, counted
    with ``torch.autograd.graph.saved_tensors_hooks``; each stored tensor is counted once.

    Under autocast not everything saved is 16-bit: max-pooling saves int64 indices, and operations that
    autocast leaves in fp32 save fp32 tensors; this breakdown shows where the bytes are.
    """
    seen: dict[tuple, tuple[torch.dtype, int]] = {}

    def pack(tensor):
        key = (tensor.untyped_storage().data_ptr(), tensor.dtype, tuple(tensor.shape))
        seen[key] = (tensor.dtype, tensor.numel() * tensor.element_size())
        return tensor

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        with torch.autocast(x.device.type, dtype=autocast_dtype or torch.bfloat16,
                            enabled=autocast_dtype is not None):
            model(x)
    by_dtype: dict[torch.dtype, int] = {}
    for dtype, nbytes in seen.values():
        by_dtype[dtype] = by_dtype.get(dtype, 0) + nbytes
    return by_dtype


def saved_activation_bytes(model: nn.Module, x: torch.Tensor,
                           autocast_dtype: torch.dtype | None = None) -> int:
    """Bytes of the tensors autograd keeps from one forward pass for the backward pass (activations, pooling
    indices and the weight copies that autocast makes): the sum of ``saved_bytes_by_dtype``.

    This is the memory that mixed precision shrinks during training (by less than 2x: see that function).
    """
    return sum(saved_bytes_by_dtype(model, x, autocast_dtype).values())


def bf16_support(cpuinfo: str = "/proc/cpuinfo") -> dict[str, bool] | None:
    """The CPU's bf16 instructions: ``{"avx512_bf16": ..., "amx_bf16": ...}`` from the flags in ``cpuinfo``.

    Without either, bf16 matmuls on the CPU are converted to fp32 and back, so bf16 saves bytes but not
    compute. None where the file cannot be read (not Linux).
    """
    try:
        text = open(cpuinfo, encoding="utf-8", errors="replace").read()
    except OSError:
        return None
    flags = set()
    for line in text.splitlines():
        if line.startswith("flags"):
            flags.update(line.partition(":")[2].split())
    return {flag: flag in flags for flag in ("avx512_bf16", "amx_bf16")}


def load_digits(train_limit: int | None = None, test_limit: int | None = None):
    """``(train_set, test_set)`` from ``data.mnist_or_digits``, cut to at most ``train_limit`` / ``test_limit``
    images, printing one line for both (which source, why, and the sizes) instead of one per split.
    """
    from utils import data

    with contextlib.redirect_stdout(io.StringIO()):
        train_set = data.mnist_or_digits("train")
        test_set = data.mnist_or_digits("test")
    note = train_set.note.rpartition(", train:")[0] or train_set.note  # the source, without the split's size
    cut = []
    for dataset, limit in ((train_set, train_limit), (test_set, test_limit)):
        if limit is not None and len(dataset) > limit:
            dataset = torch.utils.data.TensorDataset(*(t[:limit] for t in dataset.tensors))
        cut.append(dataset)
    print(f"{note}: {len(cut[0]):,} training and {len(cut[1]):,} test images")
    return cut[0], cut[1]


# ---------------------------------------------------------------------------------------------- training


def train(model: nn.Module, dataset, epochs: int, *, lr: float = 1e-3, batch_size: int = 64, seed: int = 0,
          loss_fn: Callable | None = None, autocast_dtype: torch.dtype | None = None,
          device: str = "cpu") -> list[float]:
    """Adam on ``dataset`` for ``epochs``; returns the mean loss of each epoch.

    ``loss_fn(logits, labels, images)`` replaces cross-entropy (distillation passes one). ``autocast_dtype``
    (e.g. ``torch.bfloat16``) runs the forward pass under ``torch.autocast`` on ``device``'s type. The
    shuffling uses its own generator seeded with ``seed``: the same call gives the same batches.
    """
    images, labels = dataset.tensors
    generator = torch.Generator().manual_seed(seed)
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    loss_fn = loss_fn or (lambda logits, y, x: F.cross_entropy(logits, y))
    device_type = torch.device(device).type
    model.train()
    history = []
    for _ in range(epochs):
        order = torch.randperm(len(labels), generator=generator)
        total = 0.0
        for start in range(0, len(labels), batch_size):
            idx = order[start:start + batch_size]
            x, y = images[idx].to(device), labels[idx].to(device)
            with torch.autocast(device_type, dtype=autocast_dtype or torch.bfloat16,
                                enabled=autocast_dtype is not None):
                loss = loss_fn(model(x), y, x)
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            optimizer.step()
            total += loss.item() * len(idx)
        history.append(total / len(labels))
    model.eval()
    return history


def distill_loss(student_logits: torch.Tensor, teacher_logits: torch.Tensor, labels: torch.Tensor,
                 temperature: float = 4.0, alpha: float = 0.7) -> torch.Tensor:
    """Hinton's knowledge-distillation loss: ``alpha`` × soft-target KL + (1 - ``alpha``) × cross-entropy.

    Both logits (N, classes). Dividing by ``temperature`` softens the teacher's distribution so that its
    "dark knowledge" (which wrong classes look alike) carries signal; the ``T²`` factor keeps the soft
    term's gradients the same size as the hard term's whatever T is.
    """
    soft = F.kl_div(F.log_softmax(student_logits / temperature, dim=1),
                    F.softmax(teacher_logits / temperature, dim=1), reduction="batchmean")
    return alpha * temperature**2 * soft + (1 - alpha) * F.cross_entropy(student_logits, labels)


def distill(student: nn.Module, teacher: nn.Module, dataset, epochs: int, *, temperature: float = 4.0,
            alpha: float = 0.7, **train_kwargs) -> list[float]:
    """Train ``student`` to match ``teacher``'s softened outputs (``distill_loss``); the teacher is frozen."""
    teacher.eval()

    def loss_fn(logits, y, x):
        with torch.no_grad():
            teacher_logits = teacher(x)
        return distill_loss(logits, teacher_logits, y, temperature, alpha)

    return train(student, dataset, epochs, loss_fn=loss_fn, **train_kwargs)


# ------------------------------------------------------------------------------------------------ models


def article_cnn(scale: float = 1.0, batchnorm: bool = False, seed: int | None = 0) -> nn.Sequential:
    """The second article's CNN (``models.ArticleCNN``'s layout and layer names), every width × ``scale``.

    ``scale=1``: conv1 20, conv2 50, fc1 500 (431,080 parameters); ``scale=0.5``: 10, 25, 250, the model
    that distillation and structured pruning both aim at. ``batchnorm=True`` adds bn1/bn2 after the
    convolutions, the layers that ``fold_batchnorm`` removes. Input (N, 1, 28, 28), output (N, 10).
    """
    c1, c2, hidden = round(20 * scale), round(50 * scale), round(500 * scale)
    with models.seeded(seed):
        layers = [("conv1", nn.Conv2d(1, c1, 5))]  # (N, c1, 24, 24)
        layers += [("bn1", nn.BatchNorm2d(c1))] if batchnorm else []
        layers += [("relu1", nn.ReLU()), ("pool1", nn.MaxPool2d(2)),  # (N, c1, 12, 12)
                   ("conv2", nn.Conv2d(c1, c2, 5))]  # (N, c2, 8, 8)
        layers += [("bn2", nn.BatchNorm2d(c2))] if batchnorm else []
        layers += [("relu2", nn.ReLU()), ("pool2", nn.MaxPool2d(2)),  # (N, c2, 4, 4)
                   ("flatten", nn.Flatten()),  # (N, c2 * 16)
                   ("fc1", nn.Linear(c2 * 16, hidden)), ("relu3", nn.ReLU()),
                   ("fc2", nn.Linear(hidden, 10))]
        return nn.Sequential(OrderedDict(layers))


def linear_heavy_mlp(width: int = 1024, hidden_layers: int = 3, seed: int | None = 0) -> models.MLP:
    """Flattened 28x28 digits through ``hidden_layers`` Linear+ReLU layers of ``width``, then 10 classes.

    Almost all of its time is in matrix multiplies (Linear layers), which is where int8 kernels pay off on a
    CPU. Defaults: 784 -> 1024 -> 1024 -> 1024 -> 10, 2,913,290 parameters (11.7 MB in fp32).
    """
    with models.seeded(seed):
        return models.MLP([28 * 28] + [width] * hidden_layers + [10], flatten=True)


# ------------------------------------------------------------------------------------------------ fusion


def fold_batchnorm(model: nn.Sequential) -> nn.Sequential:
    """A copy of ``model`` (eval mode) with each BatchNorm2d folded into the Conv2d just before it.

    In eval mode BN is an affine map per channel, ``y = γ (x - μ) / sqrt(σ² + ε) + β``, so it can be
    multiplied into the convolution's weights and bias (``torch.nn.utils.fusion.fuse_conv_bn_eval``); the BN
    layer becomes ``nn.Identity``. Outputs are equal up to float rounding. Training mode cannot be folded:
    there BN uses the batch's statistics, which change every step.
    """
    fused = copy.deepcopy(model).eval()
    names = list(fused._modules)
    for previous, name in zip(names, names[1:]):
        conv, bn = fused._modules[previous], fused._modules[name]
        if isinstance(conv, nn.Conv2d) and isinstance(bn, nn.BatchNorm2d):
            fused._modules[previous] = fuse_conv_bn_eval(conv, bn)
            fused._modules[name] = nn.Identity()
    return fused


# ----------------------------------------------------------------------------------------------- pruning


def prunable(model: nn.Module) -> list[tuple[nn.Module, str]]:
    """``(module, "weight")`` for every Conv2d and Linear: the list ``prune.global_unstructured`` takes."""
    return [(m, "weight") for m in model.modules() if isinstance(m, WEIGHT_LAYERS)]


def remove_masks(model: nn.Module) -> nn.Module:
    """Make pruning permanent (``prune.remove``): drop ``weight_orig`` and ``weight_mask``, keep the zeros.

    Until then the state dict holds both the original weights and a same-sized mask (about twice the bytes).
    """
    for module, name in prunable(model):
        if prune.is_pruned(module) and hasattr(module, f"{name}_mask"):
            prune.remove(module, name)
    return model


def _kept(weight: torch.Tensor) -> torch.Tensor:
    """Indices of the output channels (dim 0) that are not entirely zero: what structured pruning left."""
    return weight.flatten(1).abs().sum(dim=1).nonzero().flatten()


def shrink_article_cnn(cnn: nn.Sequential) -> nn.Sequential:
    """Physically remove the output channels of conv1, conv2 and fc1 that structured pruning zeroed.

    ``cnn`` has ``article_cnn``'s layer names (no BN), pruned with ``prune.ln_structured(..., dim=0)`` on
    conv1, conv2 and fc1 (masks in place or removed). Returns a smaller ``nn.Sequential`` with the same
    outputs (up to float rounding):
    a zeroed channel is not silent, it outputs ``relu(bias)``, a constant; that constant's effect on the next
    layer is folded into the next layer's bias before the channel is dropped.
    Shapes: conv1 (c1,1,5,5) -> (k1,1,5,5); conv2 (c2,c1,5,5) -> (k2,k1,5,5); fc1 (h, c2*16) -> (kh, k2*16);
    fc2 (10, h) -> (10, kh).
    """
    # Read the (masked) weights as plain tensors: a module with pruning masks cannot be deep-copied.
    w1, b1 = cnn.conv1.weight.detach().clone(), cnn.conv1.bias.detach().clone()  # (c1, 1, 5, 5), (c1,)
    w2, b2 = cnn.conv2.weight.detach().clone(), cnn.conv2.bias.detach().clone()  # (c2, c1, 5, 5), (c2,)
    wh, bh = cnn.fc1.weight.detach().clone(), cnn.fc1.bias.detach().clone()  # (h, c2*16), (h,)
    wo, bo = cnn.fc2.weight.detach().clone(), cnn.fc2.bias.detach().clone()  # (10, h), (10,)
    keep1, keep2, keep_h = _kept(w1), _kept(w2), _kept(wh)
    # Constant outputs of the dropped channels (max-pooling a constant leaves it unchanged).
    dead1 = torch.relu(b1) * (w1.flatten(1).abs().sum(1) == 0)  # (c1,)
    dead2 = torch.relu(b2) * (w2.flatten(1).abs().sum(1) == 0)  # (c2,)
    dead_h = torch.relu(bh) * (wh.abs().sum(1) == 0)  # (h,)
    # A valid (unpadded) convolution sees every input position: constant input c adds dead1[c] * sum(w).
    b2 = b2 + (w2.sum(dim=(2, 3)) * dead1).sum(dim=1)
    # fc1 reads conv2's channels flattened channel-major: channel c is columns c*16 .. c*16+15.
    bh = bh + wh.view(len(bh), -1, 16).sum(dim=2) @ dead2
    bo = bo + wo @ dead_h
    columns = (keep2[:, None] * 16 + torch.arange(16)).flatten()  # fc1 input features that survive
    layers = OrderedDict((name, copy.deepcopy(m)) for name, m in cnn.named_children()
                         if not isinstance(m, WEIGHT_LAYERS))  # ReLU, pooling, flatten: no state
    layers["conv1"] = _conv(w1[keep1], b1[keep1])
    layers["conv2"] = _conv(w2[keep2][:, keep1], b2[keep2])
    layers["fc1"] = _linear(wh[keep_h][:, columns], bh[keep_h])
    layers["fc2"] = _linear(wo[:, keep_h], bo)
    order = [name for name, _ in cnn.named_children()]
    return nn.Sequential(OrderedDict((name, layers[name]) for name in order)).eval()


def _conv(weight: torch.Tensor, bias: torch.Tensor) -> nn.Conv2d:
    """A stride-1, unpadded Conv2d holding ``weight`` (out, in, kh, kw) and ``bias`` (out,)."""
    conv = nn.Conv2d(weight.shape[1], weight.shape[0], tuple(weight.shape[2:]))
    conv.weight.data, conv.bias.data = weight.contiguous(), bias.contiguous()
    return conv


def _linear(weight: torch.Tensor, bias: torch.Tensor) -> nn.Linear:
    """A Linear layer holding ``weight`` (out, in) and ``bias`` (out,)."""
    linear = nn.Linear(weight.shape[1], weight.shape[0])
    linear.weight.data, linear.bias.data = weight.contiguous(), bias.contiguous()
    return linear


# ------------------------------------------------------------------------------------------ quantization


def quantize_dynamic_int8(model: nn.Module) -> nn.Module:
    """A copy of ``model`` whose Linear layers run int8 (``torch.ao.quantization.quantize_dynamic``).

    Weights are stored as int8 with one scale per tensor; each call quantizes the activations on the fly
    (hence *dynamic*) and multiplies with int8 kernels (fbgemm on x86, qnnpack on ARM). CPU only.
    ``torch.ao.quantization`` is deprecated in favour of torchao and warns on use; the warning is caught
    here (lesson 04 explains it once), because for eager CPU inference it is still the int8 path that is
    fast without ``torch.compile``.
    """
    with warnings.catch_warnings():
        # Two deprecation warnings: torch.ao.quantization itself, and the quantized tensors it creates.
        warnings.filterwarnings("ignore", message=r"(?s).*deprecated")
        return torch.ao.quantization.quantize_dynamic(copy.deepcopy(model).eval(), {nn.Linear},
                                                      dtype=torch.qint8)


class WeightOnlyInt8Linear(nn.Module):
    """A Linear layer that stores int8 weights and one fp32 scale per output row, and computes in fp32.

    ``weight_int8`` (out, in) int8, ``scale`` (out, 1) fp32: weight ≈ weight_int8 × scale (symmetric,
    per-channel). Four times fewer weight bytes; each call dequantizes, so on a CPU it is smaller but not
    faster. It pays off where moving weight bytes is the bottleneck (a GPU generating one token at a time).
    """

    def __init__(self, linear: nn.Linear):
        super().__init__()
        weight = linear.weight.detach()
        scale = weight.abs().amax(dim=1, keepdim=True).clamp(min=1e-12) / 127  # (out, 1)
        self.register_buffer("weight_int8", torch.round(weight / scale).to(torch.int8))
        self.register_buffer("scale", scale)
        self.register_buffer("bias", None if linear.bias is None else linear.bias.detach().clone())

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.linear(x, self.weight_int8.to(x.dtype) * self.scale.to(x.dtype), self.bias)


def weight_only_int8(model: nn.Module) -> nn.Module:
    """A copy of ``model`` with every ``nn.Linear`` replaced by ``WeightOnlyInt8Linear``."""
    model = copy.deepcopy(model).eval()
    for name, child in list(model.named_children()):
        if isinstance(child, nn.Linear):
            setattr(model, name, WeightOnlyInt8Linear(child))
        else:
            setattr(model, name, weight_only_int8(child))
    return model


def torchao_available() -> bool:
    """True when torchao (the successor of ``torch.ao.quantization``) is installed."""
    import importlib.util

    return importlib.util.find_spec("torchao") is not None


def quantize_torchao(model: nn.Module, kind: str = "int8_dynamic") -> nn.Module:
    """A copy of ``model`` quantized with torchao's ``quantize_``: ``int8_dynamic`` or ``int8_weight_only``.

    Needs torchao (not a course dependency: on CPU its int8 kernels only beat fp32 under ``torch.compile``).
    """
    from torchao.quantization import Int8DynamicActivationInt8WeightConfig, Int8WeightOnlyConfig, quantize_

    configs = {"int8_dynamic": Int8DynamicActivationInt8WeightConfig,
               "int8_weight_only": Int8WeightOnlyConfig}
    if kind not in configs:
        raise ValueError(f"kind must be one of {sorted(configs)}, not {kind!r}")
    model = copy.deepcopy(model).eval()
    quantize_(model, configs[kind]())
    return model


# ------------------------------------------------------------------------------------------- trade-offs


def pareto_front(points: list[tuple[float, ...]]) -> list[bool]:
    """Which points no other point beats: True where no point is at least as good in every coordinate and
    strictly better in one. Every coordinate is *lower is better* (pass ``-accuracy`` for accuracy).

    ``pareto_front([(1, 5), (2, 3), (3, 4)])`` is ``[True, True, False]``: (2, 3) beats (3, 4) in both.
    """
    def beats(a, b):
        return all(x <= y for x, y in zip(a, b)) and any(x < y for x, y in zip(a, b))

    return [not any(beats(other, p) for other in points) for p in points]


# ------------------------------------------------------------------------------------------- benchmarks

QUANT_EPOCHS, PRUNE_EPOCHS, FINETUNE_EPOCHS = 6, 6, 2
BENCH_BATCH = 256  # a batch where int8 matrix multiplies beat fp32 clearly on a CPU


@functools.lru_cache(maxsize=2)
def _trained(kind: str) -> nn.Module:
    """The benchmarks' trained models on the digits, cached: ``"mlp"`` or ``"cnn"``."""
    from utils import data

    model = linear_heavy_mlp() if kind == "mlp" else article_cnn()
    train(model, data.digits_28("train"), QUANT_EPOCHS if kind == "mlp" else PRUNE_EPOCHS)
    return model


@bench.register("quantize")
def bench_quantize() -> bench.Result:
    """Lesson 04: fp32 latency / int8 dynamic latency of the Linear-heavy MLP (batch 256).

    Set against 4x, a reference (4x fewer bytes moved), not a ceiling: compute-bound int8 can exceed it.
    """
    from utils import data

    test = data.digits_28("test")
    model = _trained("mlp")
    int8 = quantize_dynamic_int8(model)
    x = test.tensors[0][:BENCH_BATCH]
    measured = speedup(model, int8, x, rounds=21)
    return bench.Result(
        "quantize", measured=measured, bound=4.0, unit="x",
        note="reference 4x = int8 vs fp32 bytes moved (compute-bound int8 can exceed it); torch.ao dynamic "
             "int8, eager, Linear-heavy MLP, batch 256",
        extra={"size_ratio": model_bytes(model) / model_bytes(int8),
               "accuracy_drop_points": accuracy(model, test) - accuracy(int8, test)})


@bench.register("prune")
def bench_prune() -> bench.Result:
    """Lesson 04: accuracy drop (points) of the article CNN at 50 % global L1 sparsity after fine-tuning.

    ``ratio_to_bound`` is measured / bound: the fraction of the allowed 1-point drop that was used
    (0 = no drop, above 1 = over the limit; a pruned model that does better counts as 0).
    """
    from utils import data

    train_set, test = data.digits_28("train"), data.digits_28("test")
    model = _trained("cnn")
    pruned = copy.deepcopy(model)
    prune.global_unstructured(prunable(pruned), pruning_method=prune.L1Unstructured, amount=0.5)
    train(pruned, train_set, FINETUNE_EPOCHS, lr=3e-4, seed=1)
    remove_masks(pruned)
    drop = accuracy(model, test) - accuracy(pruned, test)
    return bench.Result("prune", measured=drop, bound=1.0, unit="points",
                        ratio_to_bound=max(drop, 0.0) / 1.0,
                        note="accuracy drop at 50% global L1 sparsity, 2 fine-tuning epochs (limit 1 point)",
                        extra={"sparsity": sparsity(pruned)})


# ------------------------------------------------------------------------------------------- lab checks
# Lab 04 (compress under budget): the learner's model must be >= 3.5x smaller, >= 1.5x faster and lose at
# most 1 accuracy point. ``candidate`` is a model or a function that returns one (called inside the check,
# so that an unfinished exercise reports "not done yet" instead of stopping the notebook).


def _build(candidate) -> nn.Module:
    model = candidate() if callable(candidate) and not isinstance(candidate, nn.Module) else candidate
    checks.expect(isinstance(model, nn.Module), f"expected a torch model, got {type(model).__name__}")
    return model


def check_smaller(baseline: nn.Module, candidate, target: float = 3.5, show: bool = True) -> checks.Verdict:
    """Lab 04: the candidate's saved size (``model_bytes``) is at least ``target`` times smaller."""

    def body():
        before, after = model_bytes(baseline), model_bytes(_build(candidate))
        checks.expect_at_least(before / after, target, "the size ratio (baseline bytes / your bytes)", "x")
        return f"{before / after:.2f}x smaller ({before:,} -> {after:,} bytes)"

    return checks.run_check(f"at least {target}x smaller", body, show=show,
                            hint="int8 weights take 1 byte instead of 4; pruned zeros are still stored")


def check_faster(baseline: nn.Module, candidate, x: torch.Tensor, target: float = 1.5, rounds: int = 21,
                 show: bool = True) -> checks.Verdict:
    """Lab 04: fastest latency on ``x``, measured interleaved with the baseline, is ``target`` times lower."""

    def body():
        ratio = speedup(baseline, _build(candidate), x, rounds=rounds)
        checks.expect_at_least(ratio, target, "the speedup (baseline time / your time)", "x")
        return f"{ratio:.2f}x faster on a batch of {len(x)} (fastest of {rounds} interleaved runs each)"

    return checks.run_check(f"at least {target}x faster", body, show=show,
                            hint="the matrix multiplies must run in int8; stored zeros do not skip work")


def check_accuracy(baseline: nn.Module, candidate, test_set, max_drop: float = 1.0,
                   show: bool = True) -> checks.Verdict:
    """Lab 04: test accuracy is at most ``max_drop`` percentage points below the baseline's."""

    def body():
        before, after = accuracy(baseline, test_set), accuracy(_build(candidate), test_set)
        checks.expect_at_most(before - after, max_drop, "the accuracy drop", " points")
        return f"accuracy {before:.2f}% -> {after:.2f}% (drop {before - after:.2f} points)"

    return checks.run_check(f"at most {max_drop:g} point accuracy drop", body, show=show,
                            hint="8 bits per weight keep accuracy; fewer bits, or removing neurons without "
                                 "fine-tuning, lose it")
