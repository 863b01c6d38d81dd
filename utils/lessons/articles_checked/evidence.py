"""The measurements lesson 09 runs itself: each quick enough for the lesson's budget, each answering one
claim or a few.

Introduced in lesson 09. Single-process timings run in the notebook's process on the CPU (one thread where
a ratio must not depend on how busy the other core is); two-worker figures run in launched workers, on the
plan's devices; anything that touches CUDA runs in a worker or a spawned process, so that the notebook never
initialises it. ``verdicts.measure(plan)`` calls them all.
"""

from __future__ import annotations

import contextlib
import dataclasses
import multiprocessing
import time
from concurrent.futures import ProcessPoolExecutor

import psutil
import torch
import torch.nn.functional as F
from torch import nn

from utils import article, bench, devices, gpu_specs, machine, models

# --- Simplification: what merges into one layer --------------------------------------------------------------


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


FOLD_IMAGES, FOLD_SIDE, FOLD_CHANNELS = 8, 64, (3, 16)  # conv_pool_fold's batch: 8 RGB images of 64x64, 16 maps
FOLD_SETUP = (f"a 3x3 convolution ({FOLD_CHANNELS[0]} -> {FOLD_CHANNELS[1]} channels, {FOLD_IMAGES} images of "
              f"{FOLD_SIDE}x{FOLD_SIDE}) then 2x2 average pooling")


def conv_pool_fold(repeats: int = 5) -> dict:
    """Conv 3x3 + AvgPool 2x2 against the folded strided conv: the largest difference, both times and the
    FLOPs ratio (4x4 taps on a quarter of the outputs: 16 / 36); and max pooling's difference from average
    pooling (why it cannot fold)."""
    torch.manual_seed(0)
    conv = nn.Conv2d(*FOLD_CHANNELS, 3, padding=1)
    x = torch.randn(FOLD_IMAGES, FOLD_CHANNELS[0], FOLD_SIDE, FOLD_SIDE)
    folded = fold_avgpool(conv)
    with torch.no_grad(), bench.threads(1):
        two = bench.measure(lambda: F.avg_pool2d(conv(x), 2), repeats=repeats)
        one = bench.measure(lambda: folded(x), repeats=repeats)
        diff = (F.avg_pool2d(conv(x), 2) - folded(x)).abs().max().item()
    k = conv.kernel_size[0]
    return {"diff": diff, "flops_ratio": (k + 1) ** 2 / (4 * k * k), "two_s": two.min, "one_s": one.min}


def conv_maxpool_is_not_linear() -> float:
    """max |f(x + y) - f(x) - f(y)| for f = conv then max pool: far from 0, so no single convolution is f."""
    torch.manual_seed(0)
    conv, x, y = nn.Conv2d(3, 16, 3, padding=1, bias=False), torch.randn(2, 3, 32, 32), torch.randn(2, 3, 32, 32)
    with torch.no_grad():
        f = lambda t: F.max_pool2d(conv(t), 2)  # noqa: E731 - the function under test, in one line
        return (f(x + y) - f(x) - f(y)).abs().max().item()


def merge_linears(first: nn.Linear, second: nn.Linear) -> nn.Linear:
    """Two linear layers with nothing between them as ONE: W = W2 W1, b = W2 b1 + b2 (a product of linear
    maps is linear). A ReLU between them would stop this."""
    merged = nn.Linear(first.in_features, second.out_features)
    with torch.no_grad():
        merged.weight.copy_(second.weight @ first.weight)
        merged.bias.copy_(second.weight @ first.bias + second.bias)
    return merged


def merges() -> dict:
    """Article 1's own model (128 -> 64 -> 32, no activation between) merged into one layer, and the second
    article's CNN with batch norm folded into its convolutions (lesson 04): the largest output difference of
    each, and the merged layer's share of the multiply-adds."""
    from utils.lessons.compression.fold import fold_batchnorm

    torch.manual_seed(0)
    mlp = article.ArticleModel()
    merged = merge_linears(mlp.layer1, mlp.layer2)
    cnn = models.ArticleCNN(seed=0, batchnorm=True).eval()
    with torch.no_grad():
        for bn in (cnn.bn1, cnn.bn2):  # statistics as training would leave them, so that folding has work to do
            bn.running_mean.uniform_(-1, 1)
            bn.running_var.uniform_(0.5, 2)
            bn.weight.uniform_(0.5, 2)
    x, images = torch.randn(100, 128), torch.randn(8, 1, 28, 28)
    with torch.no_grad():
        linear_diff = (mlp(x) - merged(x)).abs().max().item()
        bn_diff = (cnn(images) - fold_batchnorm(cnn)(images)).abs().max().item()
    macs = lambda *layers: sum(layer.in_features * layer.out_features for layer in layers)  # noqa: E731
    return {"linear_diff": linear_diff, "linear_macs": macs(merged) / macs(mlp.layer1, mlp.layer2),
            "bn_diff": bn_diff}


def article_copies() -> dict:
    """Article 1's split builds its model twice: the parameters of each copy, and whether the copies have the
    same layers (a split would give each device different ones)."""
    one, two = article.ArticleModel(), article.ArticleModel()
    shapes = lambda m: {k: tuple(v.shape) for k, v in m.state_dict().items()}  # noqa: E731
    return {"parameters": [models.count_parameters(m) for m in (one, two)], "same_layers": shapes(one) == shapes(two),
            "in_features": one.layer1.in_features, "out_features": one.layer2.out_features}


class SimplifiedModel(nn.Module):
    """Article 1's "simplified model", rebuilt: one 3x3 convolution, 3 -> 16 channels, and nothing else."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 16, kernel_size=3, stride=1, padding=1)

    def forward(self, x):
        return self.conv(x)


def simplified_model() -> dict:
    """What the "simplified model" holds: its layers (modules with no children) and parameters."""
    model = SimplifiedModel()
    layers = [m for m in model.modules() if not list(m.children())]
    return {"layers": len(layers), "kinds": ", ".join(type(m).__name__ for m in layers),
            "parameters": models.count_parameters(model)}


# --- Pruning, quantization, specialised units -----------------------------------------------------------------


PRUNE_ROWS, PRUNE_WIDTH = 256, 1024  # pruning_costs and sparse_at: 256 inputs through a 1024 -> 1024 layer
PRUNE_SHAPE = f"{PRUNE_ROWS} x {PRUNE_WIDTH} inputs by a {PRUNE_WIDTH} x {PRUNE_WIDTH} weight"


def pruning_costs(rounds: int = 5) -> dict:
    """A 1024 -> 1024 layer on 256 rows: dense, half its weights zeroed (connections), half its output
    neurons removed: the fastest time of each, on one thread, in rounds that take turns; and each round's
    zeroed time over its dense time (``zeroed_rounds``), the paired figure rows B11, B12 and B18 read."""
    from utils.lessons.articles_checked.zeroed import round_ratios

    torch.manual_seed(0)
    x, w = torch.randn(PRUNE_ROWS, PRUNE_WIDTH), torch.randn(PRUNE_WIDTH, PRUNE_WIDTH)
    zeroed, half = w * (torch.rand_like(w) > 0.5), w[:512].contiguous()
    calls = {"dense": lambda: x @ w.T, "zeroed": lambda: x @ zeroed.T, "removed": lambda: x @ half.T}
    timed = machine.run_rounds([(1, fn) for fn in calls.values()], rounds=rounds, runs=2)
    found = {name: m.min for name, m in zip(calls, timed)}
    return found | {"zeroed_rounds": round_ratios(timed[0].samples, timed[1].samples, runs=2)}


def sparse_at(density: float = 0.05, rounds: int = 5) -> float:
    """A CSR sparse 1024 x 1024 weight at ``density`` against the dense one, on 256 rows: time ratio."""
    import warnings

    torch.manual_seed(0)
    x, w = torch.randn(PRUNE_WIDTH, PRUNE_ROWS), torch.randn(PRUNE_WIDTH, PRUNE_WIDTH)
    with warnings.catch_warnings():  # "sparse CSR support is in beta": true, and not this lesson's point
        warnings.simplefilter("ignore")
        csr = (w * (torch.rand_like(w) < density)).to_sparse_csr()
        dense, sparse = machine.run_rounds([(1, lambda: w @ x), (1, lambda: csr @ x)], rounds=rounds, runs=2)
    return sparse.min / dense.min


def peaks(repeats: int = 5) -> machine.MachineProfile:
    """fp32, bf16 and int8 matmul peaks of this CPU on every core: the machine profile's probes (lesson 00),
    timed again in this run's interleaved rounds, so that their ratios compare one moment's rates; named apart
    from the profile's kept figures."""
    profile = machine.measure_profile_apart(device="cpu", peaks={None: ("fp32", "bf16", "int8")},
                                            bandwidth_threads=(), rounds=repeats)
    return profile


def peaks_table(profile: machine.MachineProfile):
    """``peaks``' table, titled as this run's figures: the name "machine profile" stays with lesson 00's kept
    figures (the alpha rows B2 and B10 quote), so two figures never carry one name."""
    table = profile.table()
    table.title = (f"This run's matmul peaks of {profile.device}, timed again for their ratios (not the machine "
                   "profile: lesson 00 keeps that)")
    return table


# --- Algorithms and model size ---------------------------------------------------------------------------------


ATTENTION_DIMS = (4, 4, 256, 32)  # batch, heads, tokens, head size of attention_and_gelu's inputs
ATTENTION_SHAPE = "batch {}, {} heads, {} tokens, head size {}".format(*ATTENTION_DIMS)
GELU_SIZE = 2**21  # fp32 values GELU runs over: 8 MiB, read and written by each op-by-op step


# Lesson 01 §5's reason attention's pair has no bytes ceiling (its words, so both lessons give one reason)
ATTENTION_NO_CEILING = "the fused kernel also skips the masked half's FLOPs, so bytes alone do not bound its gain"


def attention_and_gelu(repeats: int = 5) -> dict:
    """Naive against fused causal attention, and GELU op by op against one fused kernel (lesson 01 §5): each an
    ``algorithms.Comparison`` (times, rounds, results' difference), with lesson 01's ceiling: GELU's whole-tensor
    reads and writes before over after (the profiler's count of one call, outside the timing), attention none."""
    from utils.lessons.why_slow import algorithms

    qkv = algorithms.attention_inputs(*ATTENTION_DIMS)
    x = torch.randn(GELU_SIZE)
    ceiling = algorithms.bytes_ceiling(algorithms.count_passes(algorithms.gelu_op_by_op, x).transfers, 2)
    with bench.threads(1):
        att = algorithms.compare("attention", algorithms.naive_attention, algorithms.fused_attention, qkv, "cpu",
                                 repeats, no_ceiling=ATTENTION_NO_CEILING)
        gelu = algorithms.compare("gelu", algorithms.gelu_op_by_op, algorithms.gelu_fused, (x,), "cpu", repeats,
                                  ceiling=ceiling)
    return {"attention": att, "gelu": gelu}


SMALL_GPT = dict(context=64, width=128, depth=2, heads=4)  # rows A23, B1, B2, B3: quick to time on one core
SMALL_BATCH = 8  # sequences a step


def small_gpt_words(width: int | None = 128) -> str:
    """The set-up of this lesson's small GPT timings, named: "a small GPT (width 128, depth 2, 8 x 64 tokens)"."""
    sized = f"width {width}, " if width else ""
    return (f"a small GPT ({sized}depth {SMALL_GPT['depth']}, {SMALL_BATCH} sequences of {SMALL_GPT['context']} "
            "tokens)")


def width_scaling() -> dict:
    """The small GPT's training step at width 128 and 256: FLOPs ratio (formula) against time ratio."""
    from utils.lessons.why_slow import flops
    from utils.lessons.why_slow.step import training_step

    out = {}
    with bench.threads(1):
        for width in (128, 256):
            run = training_step(SMALL_GPT | dict(width=width), SMALL_BATCH)
            cfg = run.model.config
            f = flops.gpt_flops(cfg.vocab_size, cfg.context, cfg.width, cfg.depth, batch=SMALL_BATCH).train
            out[width] = (f, bench.measure(run.step, warmup=1, repeats=3).min)
        counted, _ = flops.counted_flops(run.step)
        with torch.no_grad():  # inference: the forward pass alone, 2N a token (the formula's forward)
            forward, _ = flops.counted_flops(lambda: run.model.loss(run.x, run.y))
    f = flops.gpt_flops(cfg.vocab_size, cfg.context, cfg.width, cfg.depth, batch=SMALL_BATCH)
    return {"flops_ratio": out[256][0] / out[128][0], "time_ratio": out[256][1] / out[128][1],
            "counted_over_formula": counted / f.train, "forward_over_formula": forward / f.forward,
            "train_over_forward": counted / forward}


# Published configurations (layers, width, feed-forward width, vocabulary, positions): Devlin et al. 2019 (BERT),
# Brown et al. 2020 (GPT-3 175B). Built on the meta device: shapes only, no memory, no time.
CONFIGS = {"BERT-base": (12, 768, 3072, 30522, 512), "BERT-large": (24, 1024, 4096, 30522, 512),
           "GPT-3": (96, 12288, 4 * 12288, 50257, 2048)}


def published_sizes() -> dict[str, int]:
    """Parameters of BERT-base, BERT-large and GPT-3, counted from transformer layers built to their published
    configurations on the meta device (a device that holds shapes and no data)."""
    out = {}
    for name, (layers, width, ffn, vocab, positions) in CONFIGS.items():
        with torch.device("meta"):
            layer = nn.TransformerEncoderLayer(width, nhead=16, dim_feedforward=ffn)
            embeddings = nn.Embedding(vocab, width), nn.Embedding(positions, width)
        per_layer = sum(p.numel() for p in layer.parameters())
        out[name] = layers * per_layer + sum(e.weight.numel() for e in embeddings)
    return out


@contextlib.contextmanager
def others_on_the_cores(out: dict):
    """While the block runs, the share of all cores that other programs kept busy goes to ``out["others"]``
    (this process and the workers it started and waited for are not "others"). Why: a timing on two threads
    or two workers can only show a gain when each has a core; a timing taken while others held the cores it
    needs tests nothing about the claim."""
    me = psutil.Process()
    busy, own, start = _busy_seconds(), _own_seconds(me), time.perf_counter()
    yield out
    wall = time.perf_counter() - start
    others = (_busy_seconds() - busy) - (_own_seconds(me) - own)
    # clamped: the system's and the process's clocks tick apart, so a short block can read a little past 1
    out["others"] = min(1.0, max(0.0, others / (wall * psutil.cpu_count())))


def _busy_seconds() -> float:
    t = psutil.cpu_times()  # "user" already holds the guest times: leave them out of the sum
    return sum(t) - t.idle - getattr(t, "iowait", 0) - getattr(t, "guest", 0) - getattr(t, "guest_nice", 0)


def _own_seconds(me: psutil.Process) -> float:
    c = me.cpu_times()
    return c.user + c.system + c.children_user + c.children_system


def threads_speedup(rounds: int = 3) -> dict:
    """The small GPT on 2 threads against 1, in rounds that take turns: its training step, and its forward
    pass alone (inference). More compute, less time, while compute is the limit."""
    from utils.lessons.why_slow.step import training_step

    run = training_step(SMALL_GPT, SMALL_BATCH)

    def forward():
        with torch.no_grad():
            run.model.loss(run.x, run.y)

    step1, step2, fwd1, fwd2 = machine.run_rounds([(1, run.step), (2, run.step), (1, forward), (2, forward)],
                                                  rounds=rounds, runs=2)
    gradient_bytes = 4 * sum(p.numel() for p in run.model.parameters())  # fp32: what DDP would all-reduce
    return {"train": step1.min / step2.min, "forward": fwd1.min / fwd2.min, "step_s": step1.min,
            "gradient_bytes": gradient_bytes}


def case_study_cnn(repeats: int = 5) -> dict:
    """Article 2's CNN (lesson 04's ``models.ArticleCNN``): its parameters and one training step on 64 digits,
    one thread, and the bytes of the gradients DDP would all-reduce each step."""
    cnn = models.ArticleCNN(seed=0)
    images, labels = torch.randn(64, 1, 28, 28), torch.randint(0, 10, (64,))
    opt = torch.optim.SGD(cnn.parameters(), lr=0.01)

    def step():
        opt.zero_grad(set_to_none=True)
        F.cross_entropy(cnn(images), labels).backward()
        opt.step()

    params = models.count_parameters(cnn)
    with bench.threads(1):
        seconds = bench.measure(step, warmup=1, repeats=repeats).min
    return {"parameters": params, "step_s": seconds, "gradient_bytes": 4 * params}


# --- Links and transfers -----------------------------------------------------------------------------------------

LINK_SIZES = [4, 2**12, 2**16, 2**18, 2**20, 2**22]
LINK_REPEATS = 5  # round trips in a row at each size, their median kept (rows B2, B10)


def link(plan) -> machine.LinkFit:
    """The two workers' link (lesson 00): alpha, beta, how well they fit, and the time of each size."""
    return machine.measure_link(plan, LINK_SIZES, repeats=LINK_REPEATS)


def step_bytes() -> dict:
    """What crosses to the device in one training step of the small GPT (batch 16 x 64 token ids) and what
    stays there (fp32 weights, gradients and AdamW's two moments)."""
    params = sum(p.numel() for p in models.small_gpt(96).parameters())
    return {"in": 16 * 64 * 8 * 2, "out": 4, "stay": params * 4 * 4}


def copy_paths(src: str, dst: str, sizes: list[int], repeats: int = 9) -> dict[str, list[float]]:
    """Median seconds of a copy ``src`` -> ``dst`` per size: direct (peer to peer where the two GPUs allow
    it) and staged through host memory (pinned where CUDA is there). Runs in a spawned process on a GPU."""
    pin = torch.cuda.is_available()
    out: dict[str, list[float]] = {"direct": [], "via host": [], "one PCIe hop": []}
    for size in sizes:
        a = torch.ones(size, dtype=torch.uint8, device=src)
        b = torch.empty(size, dtype=torch.uint8, device=dst)
        host = torch.empty(size, dtype=torch.uint8, pin_memory=pin)
        out["direct"].append(bench.measure(lambda: b.copy_(a), warmup=2, repeats=repeats, device=dst).median)
        out["via host"].append(bench.measure(lambda: b.copy_(host.copy_(a)), warmup=2, repeats=repeats,
                                             device=dst).median)
        # host to GPU 1 alone: one PCIe crossing, as a peer-to-peer copy over PCIe makes (row A9 compares it
        # with the direct copy; "via host" crosses twice)
        out["one PCIe hop"].append(bench.measure(lambda: b.copy_(host), warmup=2, repeats=repeats,
                                                 device=dst).median)
    return out


def gpu_pair_paths(plan, sizes=(4, 2**20, 2**24)) -> dict[str, machine.LinkFit]:
    """GPU 0 to GPU 1, directly and through host memory, and host to GPU 1 (one PCIe hop), each fitted to
    alpha + n/beta (2gpu mode only)."""
    src, dst = plan.devices[0], plan.devices[1]
    with ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn")) as pool:
        seconds = pool.submit(copy_paths, src, dst, list(sizes)).result(timeout=120)
    return {path: machine.link_fit(f"GPU 0 to GPU 1, {path}", sizes, times) for path, times in seconds.items()}


def gpu_fragmentation(plan) -> list[tuple[str, float, float]]:
    """Lesson 06's fragmenting pattern on the plan's first GPU, in a worker: (stage, MB allocated, MB
    reserved) after each step."""
    from utils.lessons.memory.allocator import fragmentation

    return article.run_in_worker(fragmentation, plan.devices[0], timeout=120)


def allocation_times(device, pieces: int = 16, piece_mb: int = 64, repeats: int = 5) -> dict | None:
    """On a GPU, lesson 06's fragmented cache (every other block freed), then the median seconds of a request
    twice a block's size that no hole fits (the allocator reserves new memory from the driver) and of the same
    request again once that block is back in the cache (reused). None on the CPU."""
    device = torch.device(device)
    if device.type != "cuda":
        return None
    n = piece_mb * 2**20 // 4  # fp32 elements of one block

    def timed(fn) -> float:
        torch.cuda.synchronize(device)
        start = time.perf_counter()
        fn()
        torch.cuda.synchronize(device)
        return time.perf_counter() - start

    new, cached = [], []
    for _ in range(repeats):
        torch.cuda.empty_cache()
        blocks = [torch.empty(n, device=device) for _ in range(pieces)]
        blocks[::2] = [None] * len(blocks[::2])  # holes of one block each: none fits two
        new.append(timed(lambda: torch.empty(2 * n, device=device)))  # freed at once: back in the cache
        cached.append(timed(lambda: torch.empty(2 * n, device=device)))
        del blocks
    torch.cuda.empty_cache()
    return {"new": sorted(new)[repeats // 2], "cached": sorted(cached)[repeats // 2], "mb": 2 * piece_mb}


def gpu_allocation_times(plan) -> dict:
    """``allocation_times`` on the plan's first GPU, in a worker (the notebook never starts CUDA)."""
    return article.run_in_worker(allocation_times, plan.devices[0], timeout=120)


# --- Two devices at work: lesson 07's forward passes ----------------------------------------------------------


PASS_ROUNDS = 6  # paired rounds of lesson 07's passes; rows A11, A19, A21 quote their median


def two_device_passes(plan, hw) -> dict:
    """Lesson 07's blocks, forward only (inference), each pass timed against the whole stack on one device in
    rounds that take turns: the article's split (attention on one worker, FFN on the other) and tensor
    parallelism (every sub-layer on both). Returns each one's speed-up over one device (fastest against
    fastest, and each paired round's) and lesson 07's bound."""
    from utils.launch import launch
    from utils.lessons.tensor_parallel import timelines
    from utils.lessons.tensor_parallel.plan import lesson_settings

    settings = lesson_settings(plan, hw)
    blocks = dataclasses.replace(settings.blocks, rounds=1, timed=PASS_ROUNDS)  # lesson 07 draws them; here only timed
    out = {"bound": settings.bound}
    for name, worker in (("article split", timelines.article_worker), ("tensor parallel", timelines.parallel_worker)):
        result = launch(worker, blocks, nprocs=2, timeout=120)[0]
        out[name] = result["alone"] / result["split"]  # fastest against fastest: the details block only
        if "alone_rounds" in result:  # each round, one device's time over the pair's: rows quote the median
            out[f"{name} rounds"] = [a / s for a, s in zip(result["alone_rounds"], result["split_rounds"])]
    return out


# --- Compression on the workers' link, end to end ----------------------------------------------------------

COMPRESS_ROUNDS = 9  # paired rounds: plain, packed, the packed bytes alone, the packing alone


def _pack(x: torch.Tensor) -> torch.Tensor:
    return (x * 255).round().to(torch.uint8)  # fp32 in [0, 1] -> uint8: a quarter of the bytes, lossy


def _unpack(q: torch.Tensor) -> torch.Tensor:
    return q.float() / 255


def _round_trip(rank: int, send, receive) -> float:
    """Half a round trip: rank 0 sends and waits for the answer, rank 1 answers (as lesson 00 times a message)."""
    import torch.distributed as dist

    dist.barrier()
    start = time.perf_counter()
    for step in ((send, receive) if rank == 0 else (receive, send)):
        step()
    return (time.perf_counter() - start) / 2


def compressed_send_worker(numel: int, rounds: int) -> dict:
    """Worker (two processes, gloo): ``numel`` fp32 values sent as they are against packed to uint8, sent and
    unpacked (end to end), in paired rounds; also the uint8 bytes alone and the packing alone, the two parts
    row B8's condition weighs. Returns each one's seconds a round (rank 0; half a round trip each)."""
    import torch.distributed as dist

    from utils import launch

    with launch.process_group("gloo"):
        rank, peer = dist.get_rank(), 1 - dist.get_rank()
        x, got = torch.rand(numel), torch.empty(numel)
        q, got_q = _pack(x), torch.empty(numel, dtype=torch.uint8)
        ways = {"plain": (lambda: dist.send(x, peer), lambda: dist.recv(got, peer)),
                "packed": (lambda: dist.send(_pack(x), peer), lambda: (dist.recv(got_q, peer), _unpack(got_q))),
                "bytes": (lambda: dist.send(q, peer), lambda: dist.recv(got_q, peer))}
        out = {name: [] for name in (*ways, "packing")}
        for k in range(rounds + 1):  # round 0 warms up
            for name, (send, receive) in ways.items():
                seconds = _round_trip(rank, send, receive)
                if k:
                    out[name].append(seconds)
            start = time.perf_counter()
            _unpack(_pack(x))  # what the packed way adds to a message, timed alone
            if k:
                out["packing"].append(time.perf_counter() - start)
        return out


def compressed_sends(numel: int = 2**20) -> dict:
    """``compressed_send_worker`` launched on two processes: 4 MiB of fp32 against 1 MiB of uint8."""
    from utils.launch import launch

    return launch(compressed_send_worker, numel, COMPRESS_ROUNDS, nprocs=2, backend="gloo", timeout=60)[0]


# --- The case study's CNN on one worker and on two ---------------------------------------------------------

CNN_BATCH, CNN_STEPS, CNN_ROUNDS = 64, 2, 5  # digits a step in all; steps a timing; paired rounds


def _sync(device: torch.device) -> None:
    if device.type == "cuda":
        torch.cuda.synchronize(device)


def cnn_ddp_worker(batch: int, steps: int, rounds: int) -> dict:
    """Worker (two processes): article 2's CNN trained on ``batch`` digits a step by rank 0 alone (rank 1 waits),
    then by both under DDP, ``batch / 2`` each, in paired rounds. Returns rank 0's seconds a step, each round."""
    import torch.distributed as dist
    from torch.nn.parallel import DistributedDataParallel as DDP

    from utils import launch

    with launch.process_group() as device:
        rank, world = dist.get_rank(), dist.get_world_size()
        alone, model = models.ArticleCNN(seed=0).to(device), models.ArticleCNN(seed=0).to(device)
        ddp = DDP(model, device_ids=[device] if device.type == "cuda" else None)
        images, labels = torch.randn(batch, 1, 28, 28, device=device), torch.randint(0, 10, (batch,), device=device)
        mine = slice(rank * batch // world, (rank + 1) * batch // world)  # this rank's half of the batch

        def timed(net, x, y) -> float:
            opt = torch.optim.SGD(net.parameters(), lr=0.01)
            start = time.perf_counter()
            for _ in range(steps):
                opt.zero_grad(set_to_none=True)
                F.cross_entropy(net(x), y).backward()
                opt.step()
            _sync(device)
            return (time.perf_counter() - start) / steps

        out = {"one": [], "two": []}
        for k in range(rounds + 1):  # round 0 warms up
            dist.barrier()
            one = timed(alone, images, labels) if rank == 0 else 0.0
            dist.barrier()
            two = timed(ddp, images[mine], labels[mine])
            if k:
                out["one"].append(one)
                out["two"].append(two)
        return out


def case_study_ddp() -> dict:
    """``cnn_ddp_worker`` launched on the plan's two workers, started fresh (spawn, a few seconds more): forked
    from this lesson's busy kernel, a worker hung at DDP's first lazy import (a lock another thread held at the
    fork), in CI and here; a spawned worker inherits no lock."""
    from utils.launch import launch

    return launch(cnn_ddp_worker, CNN_BATCH, CNN_STEPS, CNN_ROUNDS, nprocs=2, timeout=90, start_method="spawn")[0]


def datasheet_ratios() -> dict:
    """NVLink against PCIe within a generation (A100: NVLink 3 and PCIe 4; H100: NVLink 4 and PCIe 5), and
    the peaks and memory the article's claims are set beside."""
    links = gpu_specs.LINKS
    h100, t4 = gpu_specs.KNOWN_GPUS["H100 SXM 80GB"], gpu_specs.KNOWN_GPUS["T4"]
    return {"a100": (links["NVLink 3 (A100, 12 links)"], links["PCIe 4.0 x16"]),
            "h100": (links["NVLink 4 (H100/H200, 18 links)"], links["PCIe 5.0 x16"]), "t4_link": t4.link,
            "h100_bf16": h100.peak_flops["bf16"], "t4_fp16": t4.peak_flops["fp16"],
            "h100_memory": h100.memory_bytes}


def cpu_units() -> devices.CpuFeatures:
    """Which int8 and bf16 units this CPU has (lesson 00): what its int8 and bf16 peaks should show."""
    return devices.cpu_features()
