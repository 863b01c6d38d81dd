"""The two articles' claims and code blocks, one row each, paraphrased in the course's own words.

Introduced in lesson 09. The course states what the articles say; it does not copy their text or code, and
nothing here reads them. Chinese terms are quoted where the articles' readers will recognise them. A claim's
identifier never changes: ``tests/test_articles_checked.py`` keeps its own list, so that no row can go
silently. Compound statements are split, one claim per row.

Verdicts come from a fixed set: ``VERDICTS``. A verdict is the course's reading of the claim; the evidence
(``verdicts.py``) is measured in the run or read from a results file, and a row says so when its evidence
disagrees with its verdict (``verdicts.CHECKS``).
"""

from __future__ import annotations

from dataclasses import dataclass

TRUE, CONDITIONS, FALSE, DOES_NOT_RUN, NOT_TESTABLE = (
    "true", "true under conditions", "false", "does not run", "not testable here")
VERDICTS = (TRUE, CONDITIONS, FALSE, DOES_NOT_RUN, NOT_TESTABLE)
ARTICLES = {"A": "article 1: two GPUs for large models (大模型加速秘籍)",
            "B": "article 2: why large models run slowly, and the cures (执行慢难题)"}


@dataclass(frozen=True)
class Claim:
    id: str  # "A3": article A, its third claim in reading order
    says: str  # a short English paraphrase
    verdict: str  # one of VERDICTS
    why: str  # the condition, the correction, or what would test it
    lesson: str  # where the course measures it: "03", "01 §2"


CLAIMS = [
    # Article 1: why accelerate, and how two GPUs work together
    Claim("A1", "GPT-3 and BERT have billions to hundreds of billions of parameters: many FLOPs", CONDITIONS,
          "GPT-3, yes (175e9); BERT, no (1.1e8 and 3.4e8)", "01 §1"),
    Claim("A2", "one GPU can hardly meet that need, so several must work together", CONDITIONS,
          "for a model the size of GPT-3: years of one GPU's time, and more memory than it has", "01, 06"),
    Claim("A3", "two GPUs cut training and inference time, to a degree (在一定程度上)", CONDITIONS,
          "at most 2x, reached only where communication is small or hidden", "03"),
    Claim("A4", "two GPUs therefore cut cost", CONDITIONS,
          "GPU-hours are 2 / speed-up: they fall only when the speed-up is 2x", "03"),
    Claim("A5", "two GPUs exchange data over the PCIe bus (PCIe总线)", CONDITIONS,
          "over PCIe or NVLink, whichever joins them (the article's own next section says NVLink)", "00"),
    Claim("A6", "data goes from host memory to the GPU, is computed, and results go back", CONDITIONS,
          "the batch goes in and the loss comes back; weights, activations and gradients stay on the GPU",
          "00, 05"),
    Claim("A7", "NVLink is NVIDIA's link and PCIe is AMD's", FALSE,
          "NVIDIA pairs without a bridge (two T4s) use PCIe; AMD Instinct GPUs have their own link "
          "(Infinity Fabric)", "00"),
    Claim("A8", "NVLink has a higher bandwidth than PCIe", TRUE, "compared within one generation", "00"),
    Claim("A9", "NVLink has a lower latency than PCIe", NOT_TESTABLE,
          "needs two NVLinked GPUs: an all-reduce of a few bytes, NVLink against PCIe", "03"),
    # Article 1: the three techniques and their code
    Claim("A10", "putting parts of the model on two GPUs is parallel computing (并行计算)", CONDITIONS,
          "only with micro-batches (a pipeline); split alone, one device works at a time", "02"),
    Claim("A11", "e.g. the feed-forward network on one GPU, attention on the other", CONDITIONS,
          "a pipeline of 2 stages per block with micro-batches, bound (a+f)/max(a,f), and 2 crossings a "
          "block; as written, one device at a time", "07 §1"),
    Claim("A12", "code: the 'parallel computing' model split", DOES_NOT_RUN,
          "the errors in the order Python meets them here, then the fix", "lab 00"),
    Claim("A13", "simplify by merging layers, e.g. a convolution and its pooling (精简模型)", CONDITIONS,
          "average pooling right after a convolution folds into one strided convolution; max pooling, or "
          "any nonlinearity between, does not; the merge in use is batch norm into the convolution", "04 §1"),
    Claim("A14", "code: the 'simplified model' shows a simplification", FALSE,
          "it is one convolution: nothing is merged (and .cuda(0) needs CUDA)", "04"),
    Claim("A15", "a framework's distributed training spreads model and data over two GPUs", CONDITIONS,
          "DDP splits the data and copies the whole model to each GPU; FSDP also shards the model", "03, 06"),
    Claim("A16", "code: the DistributedDataParallel snippet", DOES_NOT_RUN,
          "the errors in the order Python meets them here, then the fix", "03 §1"),
    Claim("A17", "summary: parallel computing, simplification and distributed training all speed it up",
          CONDITIONS, "DDP does, within 2x; a split needs micro-batches; the conv-pool merge rarely applies",
          "02-04"),
    # Article 2: four reasons a large model runs slowly
    Claim("B1", "not enough compute slows execution (计算资源不足)", TRUE,
          "the same step on more cores takes less time, while compute is its limit", "01 §1"),
    Claim("B2", "data-transfer delay between nodes slows distributed work (数据传输延迟)", CONDITIONS,
          "when transfers are not hidden behind compute; each message pays a fixed cost alpha", "00 §3"),
    Claim("B3", "model complexity, many parameters and operations, adds time (模型复杂度)", TRUE,
          "time grows with the FLOPs: width squared, depth", "01 §4"),
    Claim("B4", "some algorithms are inefficient on large models (算法效率低)", TRUE,
          "naive attention against a fused kernel: same result, more bytes moved", "01 §5"),
    # Article 2: the cures
    Claim("B5", "distributed training: split the model over nodes, train in parallel, much faster", CONDITIONS,
          "split alone is not parallel: a pipeline needs micro-batches (2m/(m+1)); data parallel splits the "
          "data", "02, 03"),
    Claim("B6", "use high-performance CPUs, GPUs and TPUs", TRUE,
          "more FLOP/s and bandwidth: the datasheets differ by 10x and more", "01 §7"),
    Claim("B7", "manage memory and avoid fragmentation (内存碎片)", NOT_TESTABLE,
          "fragmentation is a GPU caching-allocator effect: lesson 06 on a GPU, reserved against allocated",
          "06"),
    Claim("B8", "compress data to cut transfer volume and latency (数据压缩)", CONDITIONS,
          "fewer bytes cut the n/beta part if packing is cheaper than what it saves; alpha stays; uint8 is lossy",
          "05"),
    Claim("B9", "prefetch the next batch to cut waiting (数据预取)", TRUE,
          "an epoch approaches max(load, compute) instead of their sum", "05"),
    Claim("B10", "use a high-speed network", NOT_TESTABLE,
          "one machine here: two nodes under torchrun (lesson 03's route) would test it", "03"),
    Claim("B11", "prune and quantize to cut complexity and compute (模型压缩)", CONDITIONS,
          "removed neurons and integer kernels cut time; zeroed weights in dense kernels do not", "04"),
    Claim("B12", "pruning removes unimportant neurons or connections (剪枝)", CONDITIONS,
          "removing neurons shrinks the matmul; zeroed connections cost as much, unless sparse kernels or "
          "2:4 sparsity (Ampere and later) use them", "04 §2"),
    Claim("B13", "quantization turns float parameters into integers, cutting compute (量化)", CONDITIONS,
          "integer units and a kernel that uses them (VNNI, AMX, tensor cores); weight-only saves bytes",
          "04 §3"),
    Claim("B14", "optimize algorithms for large models", TRUE, "fusion removes memory traffic", "01 §5"),
    Claim("B15", "use specialised hardware for specific algorithms (专用硬件)", TRUE,
          "matrix units: tensor cores, AMX on some CPUs", "01 §1"),
    Claim("B16", "parallel computing: spread the work over several processors", CONDITIONS,
          "within the processor count, less the communication", "03 §4"),
    Claim("B17", "code: the DDP case study (a CNN for digits)", DOES_NOT_RUN,
          "the errors in the order Python meets them here, then the fix; a 0.4 M-parameter CNN is no large "
          "model", "03 §1"),
    Claim("B18", "summary: these methods together effectively speed up large models", CONDITIONS,
          "each within its own bound: measure which one your bottleneck calls for", "08"),
]
IDS = [c.id for c in CLAIMS]
