"""The two articles' claims and code blocks, one row each, paraphrased in the course's own words.

Introduced in lesson 09. The course states what the articles say; it does not copy their text or code, and
nothing here reads them. Chinese terms are quoted where the articles' readers will recognise them. A claim's
identifier never changes: ``tests/test_articles_checked.py`` walks ``IDS`` so that no row can silently go.

Verdicts come from a fixed set: ``VERDICTS``. A verdict is the course's reading of the claim; the evidence
(``evidence.py``) is measured in the run or read from a results file, and says when it disagrees.
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
    lesson: str  # where the course measures it: "03 · DDP", "01 §2"


CLAIMS = [
    # Article 1: why accelerate, and how two GPUs work together
    Claim("A1", "GPT-3 and BERT have billions of parameters, so they need a great many FLOPs", TRUE,
          "about 6 FLOPs per parameter per training token", "01 §1"),
    Claim("A2", "one GPU can hardly meet that need, so several must work together", CONDITIONS,
          "when the training state outgrows one GPU's memory, or the time budget its speed", "06 §1"),
    Claim("A3", "two GPUs raise efficiency and cut training and inference time and cost", CONDITIONS,
          "at most 2x, reached only where communication is small or hidden", "03 §4"),
    Claim("A4", "GPUs exchange data over the PCIe bus, through host memory (PCIe总线)", NOT_TESTABLE,
          "host to GPU crosses PCIe; GPU to GPU may go peer to peer over PCIe or NVLink, not through the host: "
          "two GPUs would test it", "00 §2"),
    Claim("A5", "NVLink is NVIDIA's link and PCIe is AMD's", FALSE,
          "NVIDIA pairs without a bridge (T4s) use PCIe; AMD's GPUs have their own link (Infinity Fabric)",
          "00"),
    Claim("A6", "NVLink has higher bandwidth and lower latency", TRUE,
          "per the datasheets; its latency is not measurable without two NVLinked GPUs", "00"),
    # Article 1: the three techniques and their code
    Claim("A7", "putting parts of the model on two GPUs is parallel computing (并行计算)", FALSE,
          "a naive split runs one device at a time: about 1x; pipelining needs micro-batches", "02 §1"),
    Claim("A8", "e.g. the feed-forward network on one GPU, attention on the other", FALSE,
          "in every block attention feeds the FFN: one device always waits", "07 §1"),
    Claim("A9", "code: the 'parallel computing' model split", DOES_NOT_RUN,
          "the errors in the order Python meets them, then the fix", "lab 00"),
    Claim("A10", "simplify by merging layers, e.g. a convolution and its pooling (精简模型)", CONDITIONS,
          "average pooling is linear and folds into a strided convolution; max pooling does not", "04 §1"),
    Claim("A11", "code: the 'simplified model' (one convolution)", CONDITIONS,
          "runs only where CUDA is; and it is one convolution: it simplifies nothing", "04"),
    Claim("A12", "a framework's distributed training spreads model and data over two GPUs", TRUE,
          "DistributedDataParallel: data parallel, one replica per GPU", "03"),
    Claim("A13", "code: the DistributedDataParallel snippet", DOES_NOT_RUN,
          "the errors in the order Python meets them, then the fix", "03 §1"),
    Claim("A14", "summary: parallel computing, simplification and distributed training all speed it up",
          CONDITIONS, "DDP does, within 2x; the split as written and the conv-pool merge do not", "02-04"),
    # Article 2: four reasons a large model runs slowly
    Claim("B1", "not enough compute slows execution (计算资源不足)", TRUE,
          "step time follows the FLOPs, at a share of the peak (MFU)", "01 §1"),
    Claim("B2", "data-transfer delay between nodes slows distributed work (数据传输延迟)", CONDITIONS,
          "when transfers are not hidden behind compute; each message pays a fixed cost alpha", "00 §3"),
    Claim("B3", "model complexity, many parameters and operations, adds time (模型复杂度)", TRUE,
          "time grows with width squared and with depth", "01 §4"),
    Claim("B4", "some algorithms are inefficient on large models (算法效率低)", TRUE,
          "naive attention against a fused kernel: same result, more bytes moved", "01 §5"),
    # Article 2: the cures
    Claim("B5", "distributed training: split the model over nodes, train in parallel, much faster", CONDITIONS,
          "splitting the model alone is not parallel; data parallelism or a pipeline with micro-batches is",
          "02, 03"),
    Claim("B6", "use high-performance CPUs, GPUs and TPUs", TRUE,
          "more FLOP/s and bandwidth: the datasheets differ by 10-100x", "01 §7"),
    Claim("B7", "manage memory and avoid fragmentation (内存碎片)", NOT_TESTABLE,
          "fragmentation is a GPU caching-allocator effect; a GPU run of lesson 06 would show it", "06"),
    Claim("B8", "compress data to cut transfer volume and latency (数据压缩)", CONDITIONS,
          "fewer bytes cut the n/beta part when (de)compression is cheaper; the fixed cost alpha stays", "05"),
    Claim("B9", "prefetch the next batch to cut waiting (数据预取)", TRUE,
          "an epoch approaches max(load, compute) instead of their sum", "05"),
    Claim("B10", "use a high-speed network", NOT_TESTABLE,
          "one machine here; two nodes under torchrun would test it", "03 (torchrun)"),
    Claim("B11", "prune and quantize to cut complexity and compute (模型压缩)", CONDITIONS,
          "removed neurons and integer kernels cut time; zeroed weights in dense kernels do not", "04"),
    Claim("B12", "pruning removes unimportant neurons or connections (剪枝)", CONDITIONS,
          "removing neurons shrinks the matmul; zeroing connections keeps its cost", "04 §2"),
    Claim("B13", "quantization turns float parameters into integers, cutting compute (量化)", CONDITIONS,
          "where the hardware has integer units (VNNI, AMX, tensor cores); weight-only saves bytes", "04 §3"),
    Claim("B14", "optimize algorithms for large models", TRUE, "fusion removes memory traffic", "01 §5"),
    Claim("B15", "use specialised hardware for specific algorithms (专用硬件)", TRUE,
          "matrix units: bf16 tensor cores, AMX on this CPU", "01 §1"),
    Claim("B16", "parallel computing: spread the work over several processors", CONDITIONS,
          "within the processor count, less the communication", "03 §4"),
    Claim("B17", "code: the DDP case study (a CNN for digits)", DOES_NOT_RUN,
          "the errors in the order Python meets them, then the fix", "03 §1"),
]
IDS = [c.id for c in CLAIMS]
