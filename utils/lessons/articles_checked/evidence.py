"""The evidence for each claim: a figure measured in this run, or a lesson's figure read from a results
file that names its hardware (the ledger, then the benchmarks' file), or a datasheet's arithmetic.

Introduced in lesson 09. ``quick_measurements()`` runs what fits the lesson's time budget; ``results_figure``
reads what a longer lesson measured; ``evidence_for(claim_id, ...)`` turns them into one line per claim.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

import torch
import torch.nn.functional as F
from torch import nn

from utils import bench, devices, gpu_specs, ledger, machine

ROOT = Path(__file__).resolve().parents[3]


@dataclass(frozen=True)
class Evidence:
    text: str  # the figure and what it shows
    source: str  # "measured here", "ledger: lesson 03 (hardware, date)", "bench file (hardware)", "datasheet"


def results_figure(ledger_name: str, bench_name: str, lesson: str) -> tuple[dict | None, str]:
    """The newest record of a figure: this mode's ledger (lessons write it), else ``results/bench-<mode>.json``
    (``make bench`` writes it). Returns (record, where it comes from); (None, what to run) when neither has it."""
    record = ledger.figure(ledger_name)
    if record:
        return record, f"lesson {record['lesson']}{_where(record['hardware'])}, {record['date']}"
    bench_file = ROOT / "results" / f"bench-{devices.mode()}.json"
    if bench_file.is_file():
        for row in json.loads(bench_file.read_text()):
            if row["name"] == bench_name:
                return ({"value": row["measured"], "bound": row["bound"], "unit": row["unit"], **row},
                        f"make bench '{bench_name}'{_where(row['hardware'])}")
    return None, f"run lesson {lesson} first (or `make bench {bench_name}`)"


def _where(hardware: str) -> str:
    """", this machine" or ", another machine: CPU AMD EPYC, 2 cores (rerun to measure this one)"."""
    if hardware == bench.hardware_label():
        return ", this machine"
    return f", another machine: {short(hardware)} (rerun it to measure this one)"


def short(hardware: str) -> str:
    """"CPU AMD EPYC (AVX512; ...), 2 cores, no GPU" -> "CPU AMD EPYC, 2 cores, no GPU": the ISA in brackets
    is in the results file for whoever needs it."""
    brackets = re.finditer(r" \([^()]*(?:\([^()]*\)[^()]*)*\)", hardware)
    isa = [m.group() for m in brackets if re.search(r"AVX|AMX|NEON|SSE|;", m.group())]
    return hardware.replace(isa[0], "") if isa else hardware


# --- What fits in the run -----------------------------------------------------------------------------------

def fold_avgpool(conv: nn.Conv2d) -> nn.Conv2d:
    """conv (k x k, stride 1) then AvgPool2d(2) as ONE strided convolution: (k+1) x (k+1), stride 2.

    Average pooling is linear: the 2x2 mean of four shifted convolutions is one convolution whose kernel
    is the mean of the kernel shifted by (0,0), (0,1), (1,0), (1,1). Max pooling is not linear: no such
    kernel exists for it."""
    k = conv.kernel_size[0]
    folded = nn.Conv2d(conv.in_channels, conv.out_channels, k + 1, stride=2, padding=conv.padding)
    weight = torch.zeros_like(folded.weight)
    for a in (0, 1):
        for b in (0, 1):
            weight[:, :, a:a + k, b:b + k] += conv.weight.detach() / 4
    folded.weight.data, folded.bias.data = weight, conv.bias.detach().clone()
    return folded


def conv_pool_fold(repeats: int = 5) -> dict:
    """Conv 3x3 + AvgPool 2x2 against the folded strided conv: the largest difference, both times and the
    FLOPs ratio (4x4 taps on a quarter of the outputs: 16 / 36); and max pooling's difference from average
    pooling (why it cannot fold)."""
    torch.manual_seed(0)
    conv, x = nn.Conv2d(3, 16, 3, padding=1), torch.randn(8, 3, 64, 64)
    folded = fold_avgpool(conv)
    with torch.no_grad(), bench.threads(1):
        two = bench.measure(lambda: F.avg_pool2d(conv(x), 2), repeats=repeats)
        one = bench.measure(lambda: folded(x), repeats=repeats)
        diff = (F.avg_pool2d(conv(x), 2) - folded(x)).abs().max().item()
        max_gap = (F.max_pool2d(conv(x), 2) - F.avg_pool2d(conv(x), 2)).abs().max().item()
    k = conv.kernel_size[0]
    return {"diff": diff, "speedup": two.min / one.min, "max_gap": max_gap,
            "flops_ratio": (k + 1) ** 2 / (4 * k * k), "two_s": two.min, "one_s": one.min}


def pruning_costs(rounds: int = 5) -> dict:
    """A 1024 -> 1024 layer on 256 rows: dense, half its weights zeroed (connections), half its output
    neurons removed: the fastest time of each, on one thread, in rounds that take turns."""
    torch.manual_seed(0)
    x, w = torch.randn(256, 1024), torch.randn(1024, 1024)
    zeroed, half = w * (torch.rand_like(w) > 0.5), w[:512].contiguous()
    calls = {"dense": lambda: x @ w.T, "zeroed": lambda: x @ zeroed.T, "removed": lambda: x @ half.T}
    timed = machine.run_rounds([(1, fn) for fn in calls.values()], rounds=rounds, runs=2)
    return {name: m.min for name, m in zip(calls, timed)}


def attention_and_gelu(repeats: int = 5) -> dict:
    """Naive against fused causal attention, and GELU op by op against one fused kernel (lesson 01 §5)."""
    from utils.lessons.why_slow import algorithms

    qkv = algorithms.attention_inputs(4, 4, 256, 32)
    x = torch.randn(2**21)
    with bench.threads(1):
        att = algorithms.compare("attention", algorithms.naive_attention, algorithms.fused_attention, qkv, "cpu",
                                 repeats)
        gelu = algorithms.compare("gelu", algorithms.gelu_op_by_op, algorithms.gelu_fused, (x,), "cpu", repeats)
    return {"attention": att.speedup, "gelu": gelu.speedup}


def width_scaling() -> dict:
    """The small GPT's training step at width 128 and 256: FLOPs ratio (formula) against time ratio."""
    from utils.lessons.why_slow import flops
    from utils.lessons.why_slow.step import training_step

    out = {}
    with bench.threads(1):
        for width in (128, 256):
            sizes = dict(context=64, width=width, depth=2, heads=4)
            run = training_step(sizes, 8)
            cfg = run.model.config
            f = flops.gpt_flops(cfg.vocab_size, cfg.context, cfg.width, cfg.depth, batch=8).train
            out[width] = (f, bench.measure(run.step, warmup=1, repeats=3).min)
        counted, _ = flops.counted_flops(run.step)
    return {"flops_ratio": out[256][0] / out[128][0], "time_ratio": out[256][1] / out[128][1],
            "counted_over_formula": counted / out[256][0]}


def attention_ffn_times(repeats: int = 5) -> dict:
    """One GPT block's attention and feed-forward halves, timed apart: under the article's split, the FFN's
    device waits for attention's output every step (and the other way round in the backward)."""
    from utils import models

    model = models.small_gpt(256, context=128, width=256, depth=1, heads=4)
    block = model.blocks[0]
    x = torch.randn(8, 128, 256)
    with torch.no_grad(), bench.threads(1):
        att = bench.measure(lambda: block.attn(x), repeats=repeats).min
        ffn = bench.measure(lambda: block.ffn(x), repeats=repeats).min
    return {"attention": att, "ffn": ffn}


def peaks(repeats: int = 5) -> machine.MachineProfile:
    """fp32, bf16 and int8 matmul peaks on every core (the machine profile of lesson 00)."""
    dtypes = ("fp32", "bf16", "int8") if devices.mode() == "cpu" else ("fp32",)
    return machine.measure_profile_apart(device="cpu", peaks={None: dtypes}, bandwidth_threads=(),
                                         rounds=repeats)


LINK_SIZES = [4, 2**12, 2**16, 2**18, 2**20, 2**22]


def link(plan) -> machine.LinkFit:
    """The two workers' link (lesson 00): alpha, beta, how well they fit, and the time of each size."""
    return machine.measure_link(plan, LINK_SIZES, repeats=5)


def datasheet_ratios() -> dict:
    """NVLink against PCIe within a generation (A100: NVLink 3 and PCIe 4; H100: NVLink 4 and PCIe 5), and
    the peaks and memory the article's claims are set beside."""
    links = gpu_specs.LINKS
    h100, t4 = gpu_specs.KNOWN_GPUS["H100 SXM 80GB"], gpu_specs.KNOWN_GPUS["T4"]
    return {"a100": (links["NVLink 3 (A100, 12 links)"], links["PCIe 4.0 x16"]),
            "h100": (links["NVLink 4 (H100/H200, 18 links)"], links["PCIe 5.0 x16"]), "t4_link": t4.link,
            "h100_bf16_over_t4_fp16": h100.peak_flops["bf16"] / t4.peak_flops["fp16"],
            "h100_bf16": h100.peak_flops["bf16"], "h100_memory": h100.memory_bytes}


def conv_maxpool_is_not_linear() -> float:
    """max |f(x + y) - f(x) - f(y)| for f = conv then max pool: far from 0, so no single convolution is f."""
    torch.manual_seed(0)
    conv, x, y = nn.Conv2d(3, 16, 3, padding=1, bias=False), torch.randn(2, 3, 32, 32), torch.randn(2, 3, 32, 32)
    with torch.no_grad():
        f = lambda t: F.max_pool2d(conv(t), 2)  # noqa: E731 - the function under test, in one line
        return (f(x + y) - f(x) - f(y)).abs().max().item()


def sparse_at(density: float = 0.05, rounds: int = 5) -> float:
    """A CSR sparse 1024 x 1024 weight at ``density`` against the dense one, on 256 rows: time ratio."""
    import warnings

    torch.manual_seed(0)
    x, w = torch.randn(1024, 256), torch.randn(1024, 1024)
    with warnings.catch_warnings():  # "sparse CSR support is in beta": true, and not this lesson's point
        warnings.simplefilter("ignore")
        csr = (w * (torch.rand_like(w) < density)).to_sparse_csr()
        dense, sparse = machine.run_rounds([(1, lambda: w @ x), (1, lambda: csr @ x)], rounds=rounds, runs=2)
    return sparse.min / dense.min


def pack_cost(numel: int = 2**18, repeats: int = 5) -> float:
    """Seconds to turn ``numel`` fp32 values into uint8 (scale, round) and back: the price of sending less."""
    x = torch.rand(numel)
    with bench.threads(1):
        return bench.measure(lambda: (x * 255).round().to(torch.uint8).float() / 255, repeats=repeats).min


def threads_speedup(rounds: int = 3) -> float:
    """The small GPT's training step on 2 threads against 1, in rounds that take turns: more compute, less
    time, while compute is the limit."""
    from utils.lessons.why_slow.step import training_step

    run = training_step(dict(context=64, width=128, depth=2, heads=4), 8)
    one, two = machine.run_rounds([(1, run.step), (2, run.step)], rounds=rounds, runs=2)
    return one.min / two.min


def step_bytes() -> dict:
    """What crosses to the device in one training step of the small GPT (batch 16 x 64 token ids) and what
    stays there (fp32 weights, gradients and AdamW's two moments)."""
    from utils import models

    params = sum(p.numel() for p in models.small_gpt(96).parameters())
    return {"in": 16 * 64 * 8 * 2, "out": 4, "stay": params * 4 * 4}
