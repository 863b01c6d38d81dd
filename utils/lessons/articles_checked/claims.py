"""The two articles' claims and code blocks, one row each, paraphrased in the course's own words.

Introduced in lesson 09. The course states what the articles say; it does not copy their text or code, and
nothing here reads them. Chinese terms are quoted where the articles' readers will recognise them. A claim's
identifier never changes (rows added later take the next free number, and sit where the article says it):
``tests/test_articles_checked.py`` keeps its own list, so that no row can go silently. Compound statements are
split, one claim per row.

A claim holds the course's reading (``verdict``, ``why``) and where the course measures it (``refs``: a
lesson and words of one of its headings, cited by ``sections.cite``). Whether this run bears the reading out
is decided in ``verdicts.py``: its evidence, and a check that can disagree. A claim that needs hardware to be
measured at all (``needs``) is "not testable here" only where that hardware is missing.
"""

from __future__ import annotations

from dataclasses import dataclass

TRUE, CONDITIONS, FALSE, DOES_NOT_RUN, NOT_TESTABLE, FRAMING = (
    "true", "true under conditions", "false", "does not run", "not testable here", "not testable as stated")
# FRAMING: a sentence no measurement could contradict (its why says what it frames, and which rows measure that)
VERDICTS = (TRUE, CONDITIONS, FALSE, DOES_NOT_RUN, NOT_TESTABLE, FRAMING)
ARTICLES = {"A": "article 1: two GPUs for large models (大模型加速秘籍)",
            "B": "article 2: why large models run slowly, and the cures (执行慢难题)"}
# What a claim may need before this lesson can measure it; verdicts.capabilities() says what this machine has.
# Row B19's two parameter counts: GPT-3's, published (Brown et al. 2020), and article 2's CNN's, fixed by its
# layer shapes (``utils.models.ArticleCNN``, a test counts them); verdict and evidence print one ratio of them
GPT3_PARAMETERS, CNN_PARAMETERS = 175e9, 431_080
NEEDS = {"nvlink pair": "two GPUs joined by NVLink"}
# Reading policy: where an article's term can be read more than one way, a row reads it the way most
# favourable to the claim that a run can still test, names the stricter reading, and gives the verdict for
# the favourable one (rows A1, A19, B11 and B13 alike; A19 is false even so).


@dataclass(frozen=True)
class Claim:
    id: str  # "A3": article A; numbers follow reading order, except rows added later (A18 on)
    says: str  # a short English paraphrase
    verdict: str  # the course's reading, one of VERDICTS
    why: str  # the condition, the correction, or what the code does
    refs: tuple[tuple[str, str | None], ...]  # (lesson, words of a heading): where the course measures it
    needs: str | None = None  # a key of NEEDS: without it, this run cannot test the claim
    test: str = ""  # with ``needs``: what the lesson measures where the machine has it


CLAIMS = [
    # Article 1, section 1: why accelerate
    Claim("A1", "large models such as GPT-3 and BERT can reach several billion, even over ten billion "
          "parameters (可达数十亿甚至上百亿)", TRUE,
          "with a wrong example: read the way most favourable to the claim (the page's reading policy), 可达 "
          "('can reach') gives the range of the class it names, large models, and GPT-3's 1.75e11 is 17.5 x "
          "1e10, over ten billion (the phrase understates it 17.5-fold); BERT, one of its two examples, is wrong: "
          "its 1.1e8 to 3.4e8 is some six times smaller or more than 'several billion' (2e9 / 3.4e8 = 5.9; GPT-3 is "
          "500 to 1,600 times "
          "larger). The stricter reading, each example reaching those sizes, is false (BERT)",
          (("09", "why two GPUs"),)),
    Claim("A23", "so training and inference need many floating-point operations (大量的浮点运算)", TRUE,
          "per token, training costs 6 FLOPs per parameter (forward 2, backward 4) and inference 2 (forward "
          "only), plus attention's own: GPT-3 about 1e12 a token to train, 3.5e11 to infer",
          (("01", "Compute: FLOPs and MFU"),)),
    Claim("A2", "one GPU can hardly meet that need, so several must work together", CONDITIONS,
          "for a model the size of GPT-3: years of one GPU's time, and more memory than it has; a 0.4 M-"
          "parameter model (row B19) fits one easily", (("01", "Compute: FLOPs and MFU"),
                                                       ("06", "Where memory goes"))),
    Claim("A24", "two GPUs raise compute efficiency, to a degree (在一定程度上提高计算效率)", CONDITIONS,
          "read as throughput, work done a second (the article pairs the words with less training and inference "
          "time): it rises, within 2x, less the communication not hidden (rows A3, A21); work per GPU, speed-up "
          "/ 2, falls at any speed-up under 2x (equal at 2x; row A4's GPU-hours are its inverse), rises only "
          "past 2x (superlinear scaling: each GPU's half fits a faster memory the whole did not); the summary says it "
          "again", (("03", "How much faster"), ("08", "The steps"))),
    Claim("A3", "two GPUs cut training time, to a degree (在一定程度上)", CONDITIONS,
          "data parallel: at most 2x, less the all-reduce that is not hidden (inference: row A21)",
          (("03", "How much faster"), ("08", "The steps"))),
    Claim("A21", "two GPUs cut inference time, to a degree", CONDITIONS,
          "where a step's work outweighs its messages (a batch's forward pass, each layer's weights split "
          "over the two: tensor parallel); not "
          "token-by-token decoding over a slow link, and not the article's split (row A11)",
          (("07", "The article's claim, measured"), ("07", "Inference on two devices"))),
    Claim("A4", "so two GPUs cut cost (降低成本)", CONDITIONS,
          "less time is less cost where cost is paid per machine-hour or for time (a 2-GPU machine owned or "
          "rented anyway, a deadline); counted in GPU-hours, only past 2x (superlinear scaling: 2x bounds "
          "equal work per GPU, so passing it needs something else to change, such as each GPU's share "
          "fitting its caches): they are 2 / "
          "speed-up, at least one GPU's for any speed-up up to 2x (equal at 2x); the summary says it again",
          (("03", "How much faster"),)),
    # Article 1, section 2: how two GPUs work together
    Claim("A5", "two GPUs exchange data over the PCIe bus (PCIe总线)", CONDITIONS,
          "read as data between the GPUs (the heading's reading): over PCIe or NVLink, whichever joins them (the "
          "article's own next section names NVLink); read as the paragraph's next sentence reads it, data between "
          "host memory and each GPU: true on most machines, over PCIe even where the GPUs share NVLink "
          "(not where "
          "the host itself joins its GPUs over NVLink: NVIDIA's Grace Hopper over NVLink-C2C, IBM's POWER9)",
          (("00", "The articles on links"),)),
    Claim("A6", "in training, data goes from host memory to the GPU, is computed, and results go back",
          TRUE, "主内存 read as host memory, as every row reads 内存: the batch goes in and the loss comes back; "
          "weights, activations and gradients stay on "
          "the GPU", (("05", "Host to device"),)),
    Claim("A18", "(inferred: §2.1, headed 'data between GPUs', gives only host round trips) data between GPUs "
          "goes through host memory", CONDITIONS,
          "only where the two GPUs have no peer-to-peer path (peer access unsupported between them, or turned "
          "off: NCCL_P2P_DISABLE=1); the article does not say it in words; where they have one, they copy to "
          "each other directly, over PCIe or NVLink, and NCCL uses it (the paragraph read between the GPUs, as "
          "row A5's first reading; its host round trips are row A6)", (("00", "Your hardware"),
                                                      ("03", "NCCL in practice"))),
    Claim("A7", "GPUs communicate over NVLink (NVIDIA) or PCIe (AMD) (通过NVLink（NVIDIA）或PCIe（AMD）实现)",
          CONDITIONS,
          "read the way most favourable to the claim (the reading policy): over NVLink, NVIDIA's link, or over "
          "PCIe, the one AMD's cards use: true where the pair has that link: NVLink only between NVIDIA GPUs "
          "built or bridged for it (SXM boards, NVLink bridges), PCIe for every other pair, NVIDIA's too (two "
          "T4s); AMD pairs do use PCIe (Radeon cards, and any pair without a faster link), except Instinct GPUs, "
          "which talk over AMD's own link (Infinity Fabric). The stricter reading, one link per vendor, is false: "
          "those two exceptions contradict it",
          (("00", "The articles on links"),)),
    Claim("A8", "NVLink has a higher bandwidth than PCIe", TRUE, "compared within one generation",
          (("00", "The articles on links"),)),
    Claim("A9", "NVLink has a lower latency than PCIe", TRUE,
          "a few-byte copy between two GPUs costs less over NVLink than one over PCIe, the link a pair without "
          "NVLink uses",
          (("03", "How fast is the all-reduce"),), needs="nvlink pair",
          test="a few-byte peer copy GPU 0 to GPU 1 over NVLink against a few-byte peer copy between two GPUs "
               "joined only by PCIe (one path each, the same kind of copy)"),
    # Article 1, section 3.1: parallel computing, and its code
    Claim("A10", "putting parts of the model on two GPUs is parallel computing (并行计算)", CONDITIONS,
          "only where both parts can work at once: consecutive layers with micro-batches (a pipeline, within "
          "2m/(m+1)), or halves of every layer (tensor parallel, row A21); consecutive parts alone take turns, "
          "one device working at a time (row A11)",
          (("02", "Does a naive split"), ("02", "How close do GPipe"))),
    Claim("A11", "e.g. the feed-forward network on one GPU, attention on the other", FALSE,
          "as stated (no micro-batches), the halves take turns: each block's FFN waits for its attention, so "
          "one GPU works at a time, no faster than one, as this run measures. Only micro-batches streaming "
          "through the halves (a pipeline, which the article never names) would let them work at once, and then "
          "at most 1.5x (the FFN holds two thirds of a block's work; row A10's condition), less 2 x depth - 1 "
          "crossings a pass: it would pay only where a crossing costs little beside a block's compute (a fast "
          "link, large batches); that bound rests on arithmetic alone, not measured in the course",
          (("07", "The article's claim, measured"), ("02", "attention on one GPU"))),
    Claim("A12", "code: the 'parallel computing' model split", DOES_NOT_RUN,
          "the errors in the order Python meets them here, then the fix",
          (("02", "The article's split, rebuilt"), ("lab 00", None))),
    Claim("A22", "(inferred: the code is §3.1's example of putting parts of the model on two GPUs) code: "
          "that "
          "split puts parts of one model on two GPUs", FALSE,
          "it builds two whole copies of one model, one per GPU, and feeds one into the other: nothing of "
          "either is split", (("02", "The article's split, rebuilt"),)),
    # Article 1, section 3.2: simplification, and its code
    Claim("A20", "merge or simplify layers to cut compute (精简模型)", CONDITIONS,
          "linear steps with nothing nonlinear between merge: batch norm into its convolution, two linear "
          "layers in a row (article 1's own model); a ReLU between stops it", (("04", "Simplification"),)),
    Claim("A13", "e.g. merge a convolution and its pooling into one layer", CONDITIONS,
          "average pooling right after a convolution folds into one strided convolution; max pooling (the "
          "second article's CNN), or any nonlinearity between, does not", (("04", "Simplification"),)),
    Claim("A14", "code: the 'simplified model' shows a simplification", FALSE,
          "it is one convolution: nothing is merged (and .cuda(0) needs CUDA)", (("04", "Simplification"),)),
    # Article 1, section 3.3: a framework's distributed training, and its code
    Claim("A15", "a framework's distributed training spreads model and data over two GPUs", CONDITIONS,
          "DDP splits the data and copies the whole model to each GPU; FSDP (fully sharded data parallel; FSDP2 "
          "is PyTorch's second version of it) also shards the model: each GPU keeps its share of the "
          "parameters, gradients and optimizer state, and gathers the rest when a layer needs it",
          (("03", "What DDP does"), ("06", "Sharding across"))),
    Claim("A16", "code: the DistributedDataParallel snippet", DOES_NOT_RUN,
          "an excerpt: it never defines its data loader, loss function (criterion) or targets, and creates no "
          "optimizer (it calls step() on the model, which DDP lacks); it never moves the loader's batch to the "
          "GPU, and "
          "never picks a GPU per rank (.cuda() without torch.cuda.set_device puts every rank on GPU 0); a reader "
          "must add them. The errors in "
          "the order Python meets them here, then the fix; one fix defines the loader, the loss function and "
          "the targets at once, so only the first of the three NameErrors shows",
          (("03", "The articles' DDP code"),)),
    # Article 1, section 4: summary
    Claim("A17", "summary: parallel computing, simplification and distributed training all speed it up",
          CONDITIONS, "DDP does, within 2x; a split needs micro-batches; a merge needs linear neighbours; the "
          "article's own examples of all three fail as given: its split, without micro-batches, takes "
          "turns (row A11) and its code splits nothing (row A22); its 'simplified model' merges nothing (row "
          "A14); its DDP code does not run (row A16); a merge saves time only where the merged layer does less work: rows A20 and A13 measure its "
          "output and its FLOPs, and lesson 04 §2 times a fold",
          (("02", "Micro-batch pipelining"), ("03", "How much faster"), ("04", "Simplification"))),
    Claim("A19", "summary: these methods fully exploit the GPUs' potential (充分发挥显卡的潜力)", FALSE,
          "as stated, true of data parallel only. Read the way most favourable to the claim that a run can "
          "test (the reading policy of rows B11 and B13 too): 充分发挥 as keeping both GPUs working, neither idle "
          "by turns; unlike row B20's 'key factor', it names methods a run can test. Of the article's three "
          "methods as given, distributed training (data parallel) can keep both GPUs working, where its all-reduce "
          "is small beside the step (the evidence prints whether it did here); the article's own "
          "split (attention on one GPU, the feed-forward network on the other), without micro-batches, leaves "
          "one GPU idle at a time (each keeps at most about half of its rate), and a merge keeps nothing of a "
          "second GPU busy: two of 'these methods' fail, and which method is right is no condition: the claim is "
          "said of each method it sums up (unlike row A1's 'can reach', a class's range, which one right example "
          "bears out). A pipeline with micro-batches (lesson 02's) "
          "can keep both working too, but the article never proposes one. The stricter reading, all of each GPU's "
          "rate (2x on two), is false as well: no method reaches it except where scaling is superlinear; the "
          "evidence says which of the figures it reads kept the most here",
          (("07", "The article's claim, measured"), ("03", "How much faster"))),
    # Article 2: its opening, then four reasons a large model runs slowly
    Claim("B20", "opening: a large model's execution speed often limits its performance (制约其性能的关键因素)",
          FRAMING, "a framing: 'performance' (性能) is largely the speed itself, and 'often' and 'key' name no "
          "case a run could contradict; what it introduces, that large models run slowly and why, rows B1 to "
          "B4 measure", (("09", "four reasons for slowness"),)),
    Claim("B1", "not enough compute slows execution (计算资源不足)", TRUE,
          "the same step, training or inference, takes less time on more cores while compute is its limit",
          (("09", "Measure what fits"), ("00", "How fast can this machine"))),
    Claim("B2", "data-transfer delay between nodes slows distributed training and inference (数据传输延迟)",
          CONDITIONS, "when transfers are not hidden behind compute; each message pays a fixed cost alpha; "
          "lesson 03 times the part of a DDP step's all-reduce left exposed after the backward, the direct "
          "measure of this delay in training (the ledger does not keep it)",
          (("00", "What does a message"), ("01", "Data-transfer delay"), ("03", "Data parallelism by hand"))),
    Claim("B3", "model complexity, many parameters and operations, adds time (模型复杂度)", TRUE,
          "time grows with the FLOPs: width squared, depth", (("01", "Model complexity"),)),
    Claim("B4", "some algorithms are inefficient on large models (算法效率: 效率较低)", TRUE,
          "naive attention against a fused kernel: same result, more bytes moved", (("01", "Algorithm efficiency"),)),
    # Article 2, cures: compute resources
    Claim("B5", "distributed training: split the model over nodes, train in parallel, much faster", CONDITIONS,
          "a split alone is not parallel: a pipeline needs micro-batches (2m/(m+1)); the case study's own code "
          "is data parallel, which splits the data", (("02", "Does a naive split"), ("02", "How close do GPipe"),
                                                       ("03", "How much faster"))),
    Claim("B6", "use high-performance CPUs, GPUs and TPUs", TRUE,
          "more FLOP/s and bandwidth: the datasheets differ by 10x and more", (("01", "The hardware claims"),)),
    Claim("B7", "manage memory and avoid fragmentation (内存碎片) to raise execution efficiency (执行效率)",
          CONDITIONS,
          "内存 is host memory (GPU memory is 显存), as row A6 reads 主内存; article 2 names no device, and "
          "fragmentation works alike in the host allocator's heap, which this row measures in every mode, and "
          "in the GPU's caching allocator, which lesson 06 measures (a large model runs out of GPU memory "
          "first). It costs memory first: freed holes that no larger request fits make the allocator take more "
          "(an out-of-memory with memory free; on the GPU, expandable segments, PyTorch's allocator setting "
          "that lets a reserved segment grow in place instead of reserving a new one (lesson 06), remove "
          "most). It costs time "
          "only through that memory: a batch that no longer fits, or fresh memory from the operating system or "
          "the driver, slower than reusing memory already held",
          (("09", "cures for compute and transfers"), ("06", "The allocator"))),
    # Article 2, cures: transfer delay
    Claim("B8", "compress data to cut transfer volume and latency (数据压缩)", CONDITIONS,
          "fewer bytes cut the n/beta part (n bytes over the link's bandwidth beta, in bytes a second) when "
          "packing costs less than it saves; alpha, the fixed cost of every message, stays; uint8 is lossy; "
          "lesson 03 §5 measures the same on DDP's all-reduce (fp16, bf16 and PowerSGD compression hooks; "
          "PowerSGD sends a low-rank approximation of each gradient matrix)",
          (("05", "Transfer compression"), ("03", "Does compressing what the all-reduce"))),
    Claim("B9", "prefetch the next batch to cut waiting (数据预取)", TRUE,
          "an epoch falls from load + compute toward max(load, compute); with k loader workers, "
          "max(load / k, compute)", (("05", "The problem, measured"), ("05", "A prefetcher"))),
    Claim("B10", "use a high-speed network", CONDITIONS,
          "where the bytes, not the fixed cost, take a message's time: a faster link cuts the n/beta part of a "
          "transfer, and alpha only where the link's own fixed cost shrinks (NVLink, RDMA), the software's "
          "part staying; the compute stays; two nodes under torchrun would measure it",
          (("03", "How fast is the all-reduce"),)),
    # Article 2, cures: model complexity
    Claim("B11", "prune and quantize to cut complexity and compute (模型压缩)", CONDITIONS,
          "pruning that removes neurons, and quantization where integer units and a kernel use them on a "
          "compute-bound pass (a large batch); on a memory-bound pass (a small batch) integer units have little "
          "to speed up, and what can pay is fewer weight bytes, where the kernel reads them (lesson 04 §4 times "
          "both batches; the evidence prints what it recorded). 计算量 "
          "read "
          "as the cost of the computation, as row B13 reads it (the reading most favourable to the claim, "
          "as row "
          "A19 reads its own): pruning that removes neurons cuts the operations and the time with them; "
          "zeroed "
          "weights in dense kernels keep both; quantization keeps the operations as many (the stricter "
          "reading, "
          "the number of operations, would make it false) and makes each cheaper",
          (("04", "Pruning"), ("04", "Quantization"))),
    Claim("B12", "pruning removes unimportant neurons or connections (剪枝)", CONDITIONS,
          "removing neurons shrinks the matmul; zeroed connections cost as much, unless sparse kernels (CSR: "
          "compressed sparse rows, storing only the nonzero weights and their column indices) or 2:4 sparsity "
          "(two zeros in every four weights, a pattern tensor cores of Ampere and later skip) use them",
          (("04", "Do zeros make"), ("04", "Does removing channels"))),
    # the article's words only in "says"; the course's reading of 计算量 opens the "why" (t28_09, other)
    Claim("B13", "quantization turns float parameters into integers, cutting compute (量化: 减少计算量)", CONDITIONS,
          "计算量 read as the cost of the computation, the reading most favourable to the claim, as rows B11 and "
          "A19 read theirs: integer units and a kernel that uses them (VNNI, AMX, tensor cores), on a "
          "compute-bound pass (a large batch): each operation is cheaper there; on a memory-bound pass (a small "
          "batch) what can pay is fewer bytes, not cheaper operations (row B11); the operations stay as many "
          "(read as their number, the claim is false); weight-only int8 saves bytes",
          (("04", "Quantization"),)),
    # Article 2, cures: algorithm efficiency
    Claim("B14", "optimize algorithms for large models", TRUE, "fusion removes memory traffic",
          (("01", "Algorithm efficiency"),)),
    Claim("B15", "use specialised hardware for specific algorithms (专用硬件)", TRUE,
          "matrix units: tensor cores, AMX on some CPUs",
          (("00", "Your hardware"), ("01", "The machine's ceilings"), ("01", "The hardware claims"))),
    Claim("B16", "parallel computing: spread the work over several processors", CONDITIONS,
          "within the processor count, less the communication", (("03", "How much faster"),)),
    Claim("B21", "so parallel execution raises compute efficiency (提高计算效率)", CONDITIONS,
          "the words of row A24, read the same way: throughput, work done a second, rises within N times one "
          "processor's, less the communication not hidden (row B16); each processor's work a second, "
          "(speed-up / N) times one processor's, falls at any speed-up under N and rises only past N "
          "(superlinear scaling)",
          (("03", "How much faster"),)),
    # Article 2: the case study and the summary
    Claim("B17", "code: the DDP case study", DOES_NOT_RUN,
          "an excerpt: it never imports os or defines its data loader (dataloader) and loss function "
          "(criterion), and creates no optimizer (it calls step() on the model, which DDP lacks); it never moves "
          "the loader's batch to the GPU, and never picks a GPU per rank (.cuda() without torch.cuda.set_device "
          "puts every rank's model on GPU 0, where device_ids=[rank] expects GPU rank); run as a "
          "plain script, it stops first where it reads RANK from os.environ. Its own code's errors in the "
          "order Python meets them here, then the fix", (("09", "the case study"), ("03", "The articles' DDP code"))),
    Claim("B19", "(inferred from its layer shapes: a CNN for 28x28 digits) the case study's model stands for a large model", FALSE,
          f"{CNN_PARAMETERS:,} parameters, {GPT3_PARAMETERS / CNN_PARAMETERS:,.0f} times fewer than GPT-3; "
          "lesson 04 trains it on one CPU in seconds",
          (("04", "Two trained models"),)),
    Claim("B22", "the case study: distributed training makes its model run faster "
          "(使用分布式训练加速大模型执行速度)", CONDITIONS,
          "data parallel speeds its CNN's training step up, within 2x, where each worker has a core (or GPU) of "
          "its own and the all-reduce is small beside the step; the article times nothing, and the CNN is no "
          "large model (row B19): this row times its step on one worker and on two",
          (("09", "the case study"), ("03", "How much faster"))),
    Claim("B18", "summary: these methods together effectively speed up large models", CONDITIONS,
          "each within its own bound: measure which one your bottleneck calls for", (("08", "Find the bottleneck"),)),
]
IDS = [c.id for c in CLAIMS]
BY_ID = {c.id: c for c in CLAIMS}
