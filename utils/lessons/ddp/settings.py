"""What lesson 03's training run trains, and how big: ``Settings``, the small GPT and its text.

Plain values, so that one ``Settings`` travels to the launched workers and maps one-to-one onto the command
line (``utils/lessons/ddp/cli.py``).
"""

from __future__ import annotations

import dataclasses
import os

import torch

from utils import data, models


@dataclasses.dataclass
class Settings:
    """Everything one training run needs (lesson 03). ``scaled(**changes)`` returns a changed copy."""

    steps: int = 30  # optimizer steps
    batch_per_worker: int = 16  # sequences per rank per micro-batch; the global batch is world x this x accumulate
    accumulate: int = 1  # micro-batches per optimizer step; all but the last run under no_sync()
    context: int = 64  # tokens per sequence (T)
    width: int = 128  # GPT width (C)
    depth: int = 4  # transformer blocks
    heads: int = 4
    lr: float = 3e-3  # AdamW
    seed: int = 0
    max_chars: int = 200_000  # characters of standard-library source used as training text
    threads: int | None = None  # torch threads per worker; None keeps the launcher's (or torchrun's) choice
    hook: str = "allreduce"  # what the all-reduce sends: none (DDP built-in), allreduce (fp32), fp16, bf16, powersgd
    bucket_cap_mb: float | None = None  # DDP bucket size; None is DDP's default (see the PowerSGD note)
    powersgd_rank: int = 1  # rank of PowerSGD's low-rank approximation
    powersgd_start: int = 2  # PowerSGD compresses from this step on (plain all-reduce before)
    warmup_steps: int = 0  # first steps not counted in samples/s
    checkpoint: str | None = None  # file to save to and resume from (atomic, by rank 0)
    checkpoint_every: int = 5
    progress: bool = False  # a tqdm bar on rank 0
    device: str | None = None  # force a device ("cpu"); None: the launcher's plan
    deterministic: bool = False  # deterministic kernels (GPU): a rerun repeats every sum in the same order
    # The step's arithmetic (utils.precision): fp32 (IEEE), tf32, or bf16/fp16 autocast (fp16 with a scaler).
    # The lesson's plan picks what a practitioner trains in on the GPU (bf16 on an A100, fp16 on a T4).
    precision: str = "fp32"

    def scaled(self, **changes) -> Settings:
        return dataclasses.replace(self, **changes)

    def ddp_options(self) -> dict:
        """Keyword arguments for ``DistributedDataParallel`` beyond the model: the bucket size, if set."""
        return {"bucket_cap_mb": self.bucket_cap_mb} if self.bucket_cap_mb else {}


def build_model(s: Settings, vocab_size: int) -> torch.nn.Module:
    """The small GPT of the settings, on the CPU, with the same weights on every rank (same seed)."""
    return models.small_gpt(vocab_size, seed=s.seed, context=s.context, width=s.width, depth=s.depth,
                            heads=s.heads)


def deterministic_kernels() -> None:
    """Make this process's CUDA kernels repeat every sum in the same order (lesson 03's restart comparison).

    cuBLAS needs a fixed workspace (read when its first handle is created, so before the first matmul);
    ``warn_only``: a kernel with no deterministic version warns instead of stopping the run.
    """
    os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")
    torch.use_deterministic_algorithms(True, warn_only=True)


def text_data(s: Settings):
    """Next-character windows of standard-library source: x, y are (T,) int64, y is x shifted by one."""
    return data.char_dataset(s.context, "train", max_chars=s.max_chars)
