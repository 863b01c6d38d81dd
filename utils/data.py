"""The course's data, all of it available offline: Python source text and 28x28 digit images.

Used by lesson 02 (model split), lesson 03 (DDP) and lesson 04 (gradient compression).

    train = char_dataset(block_size=64, split="train")   # (x, y): (64,) int64 each, y is x shifted by one
    train.corpus.vocab_size, train.corpus.decode(x)
    images = digits_28("train")                          # TensorDataset: (1, 28, 28) float32, int64 label
    images = mnist_or_digits("train")                    # MNIST if already on disk (or opted in), else digits
    images.source                                        # "mnist" or "digits"

Text: the ``.py`` files of Python's own standard library, read in sorted order, so the corpus is the same
on every machine with the same Python version and needs no download.

Images: scikit-learn's bundled digits (1,797 images, 8x8, ink 0..16) scaled to 0..1, resized to 28x28 with
bilinear interpolation, then normalised with MNIST's mean and std (0.1307, 0.3081), the constants that
every MNIST example uses, so that both sources get the same treatment and models move between them.
Digits carry more ink than MNIST (mean 0.31 against 0.13), so normalised digits have mean ~0.57, std ~1.05.

Importing this module reads no file and prints nothing.
"""

from __future__ import annotations

import contextlib
import functools
import os
import socket
import sysconfig
from pathlib import Path

import torch
import torch.nn.functional as F
from torch.utils.data import Dataset, TensorDataset

__all__ = [
    "MNIST_MEAN",
    "MNIST_STD",
    "stdlib_files",
    "stdlib_text",
    "CharCorpus",
    "CharDataset",
    "char_dataset",
    "digits_28",
    "mnist_or_digits",
]

MNIST_MEAN, MNIST_STD = 0.1307, 0.3081
DEFAULT_MAX_CHARS = 200_000  # small_gpt, batch 64: an epoch is ~45 steps, ~10 s on 2 CPU cores
# Folders that are not the library itself (installed packages, test suites) or that differ between two
# installs of the same Python version (build configuration).
SKIPPED_DIRS = {"site-packages", "dist-packages", "test", "tests", "idle_test", "__pycache__"}
SKIPPED_PREFIXES = ("_sysconfigdata", "config-")


# ------------------------------------------------------------------------------------------------ text


def stdlib_files(root: str | os.PathLike | None = None) -> list[Path]:
    """The standard library's ``.py`` files, sorted by their path relative to ``root``.

    ``root`` defaults to this Python's stdlib folder. Skipped: site-packages, test suites and files that
    hold build settings (``_sysconfigdata*``, ``config-*``).
    """
    root = Path(root or sysconfig.get_paths()["stdlib"])
    found = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d not in SKIPPED_DIRS and not d.startswith(SKIPPED_PREFIXES)]
        found += [Path(folder, f) for f in files if f.endswith(".py") and not f.startswith(SKIPPED_PREFIXES)]
    return sorted(found, key=lambda p: p.relative_to(root).as_posix())


@functools.lru_cache(maxsize=8)
def stdlib_text(max_chars: int | None = DEFAULT_MAX_CHARS, root: str | None = None) -> str:
    """The standard library's source, files joined by a blank line, cut at ``max_chars`` (None: all ~12 M).

    Files that are not valid UTF-8 are skipped. ``root``: another folder read the same way (for tests).
    Cached: a second call with the same arguments is free.
    """
    parts, total = [], 0
    for path in stdlib_files(root):
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        total += len(text) + (2 if parts else 0)  # the length of the joined text so far
        parts.append(text)
        if max_chars is not None and total >= max_chars:
            break
    return "\n\n".join(parts)[:max_chars]


class CharCorpus:
    """A character vocabulary over a text: ``encode`` str -> ids, ``decode`` ids -> str.

    Ids follow the sorted order of the characters, so the same text always gives the same ids.
    ``data`` is the whole text encoded, an int64 tensor (N,).
    """

    def __init__(self, text: str):
        self.text = text
        self.chars = sorted(set(text))
        self.stoi = {ch: i for i, ch in enumerate(self.chars)}
        self.data = torch.tensor(self.encode(text), dtype=torch.int64)  # (N,)

    @property
    def vocab_size(self) -> int:
        return len(self.chars)

    def encode(self, text: str) -> list[int]:
        return [self.stoi[ch] for ch in text]

    def decode(self, ids) -> str:
        """``ids``: a list of ints or an int tensor of any shape (flattened)."""
        if isinstance(ids, torch.Tensor):
            ids = ids.flatten().tolist()
        return "".join(self.chars[i] for i in ids)

    def __len__(self) -> int:
        return len(self.text)


class CharDataset(Dataset):
    """Next-character pairs from a token tensor: item i is ``x = data[s:s+T]``, ``y = data[s+1:s+T+1]``.

    ``s = i * stride``. The default stride ``T`` cuts the text into windows that do not overlap, so an
    epoch reads every character once; ``stride=1`` gives every possible window.
    """

    def __init__(self, data: torch.Tensor, block_size: int, stride: int | None = None, corpus=None):
        self.data = data  # (N,) int64
        self.block_size = block_size
        self.stride = stride or block_size
        self.corpus = corpus  # the CharCorpus that encodes/decodes, when there is one
        if len(data) < block_size + 1:
            raise ValueError(f"{len(data)} tokens cannot make one window of {block_size} + 1")

    def __len__(self) -> int:
        return (len(self.data) - self.block_size - 1) // self.stride + 1

    def __getitem__(self, i: int) -> tuple[torch.Tensor, torch.Tensor]:
        if not 0 <= i < len(self):
            raise IndexError(i)
        start = i * self.stride
        chunk = self.data[start : start + self.block_size + 1]  # (T + 1,)
        return chunk[:-1], chunk[1:]  # x: (T,), y: (T,), y[t] is the character after x[t]


@functools.lru_cache(maxsize=8)
def _stdlib_corpus(max_chars: int | None) -> CharCorpus:
    return CharCorpus(stdlib_text(max_chars))


def char_dataset(
    block_size: int,
    split: str = "train",
    max_chars: int | None = DEFAULT_MAX_CHARS,
    val_fraction: float = 0.1,
    stride: int | None = None,
) -> CharDataset:
    """The stdlib corpus as next-character pairs: the first 90 % of the text trains, the last 10 % validates.

    Both splits share one vocabulary (``dataset.corpus``, built from the whole text), so a model's
    ``vocab_size`` is ``dataset.corpus.vocab_size`` whichever split it sees first.
    """
    corpus = _stdlib_corpus(max_chars)
    cut = int(len(corpus.data) * (1 - val_fraction))
    parts = {"train": corpus.data[:cut], "val": corpus.data[cut:]}
    if split not in parts:
        raise ValueError(f"split must be 'train' or 'val', not {split!r}")
    return CharDataset(parts[split], block_size, stride=stride, corpus=corpus)


# ---------------------------------------------------------------------------------------------- images


@functools.lru_cache(maxsize=4)
def _digits_tensors(seed: int) -> dict[str, tuple[torch.Tensor, torch.Tensor]]:
    from sklearn.datasets import load_digits  # bundled with scikit-learn: no download
    from sklearn.model_selection import train_test_split

    digits = load_digits()
    images = torch.tensor(digits.images, dtype=torch.float32).unsqueeze(1) / 16.0  # (1797, 1, 8, 8), 0..1
    images = F.interpolate(images, size=(28, 28), mode="bilinear", align_corners=False)  # (1797, 1, 28, 28)
    images = (images - MNIST_MEAN) / MNIST_STD
    labels = torch.tensor(digits.target, dtype=torch.int64)  # (1797,)
    # 80/20, stratified: every digit is a fifth of its class in the test split, whatever the seed.
    train_idx, test_idx = train_test_split(
        torch.arange(len(labels)).numpy(), test_size=0.2, stratify=labels.numpy(), random_state=seed
    )
    train_idx, test_idx = torch.from_numpy(train_idx), torch.from_numpy(test_idx)
    return {
        "train": (images[train_idx], labels[train_idx]),  # 1,437 images
        "test": (images[test_idx], labels[test_idx]),  # 360 images
    }


def digits_28(split: str = "train", seed: int = 0) -> TensorDataset:
    """scikit-learn's digits as MNIST-like images: (1, 28, 28) float32 normalised, int64 labels 0..9.

    A fixed, stratified 80/20 split for each ``seed``: 1,437 train and 360 test images. Cached in-process,
    so repeated calls are cheap; the tensors are shared between calls, so do not change them in place.
    ``dataset.source`` is ``"digits"``.
    """
    if split not in ("train", "test"):
        raise ValueError(f"split must be 'train' or 'test', not {split!r}")
    dataset = TensorDataset(*_digits_tensors(seed)[split])
    dataset.source = "digits"
    return dataset


@contextlib.contextmanager
def _socket_timeout(seconds: float):
    """Make every new socket give up after ``seconds`` (so a machine without network fails fast)."""
    previous = socket.getdefaulttimeout()
    socket.setdefaulttimeout(seconds)
    try:
        yield
    finally:
        socket.setdefaulttimeout(previous)


DOWNLOAD_ENV = "TWOGPU_DOWNLOAD"  # set to 1 to let the course fetch MNIST; nothing is downloaded otherwise


def download_allowed(download: bool | None = None) -> bool:
    """An explicit ``download=`` wins; else the ``TWOGPU_DOWNLOAD=1`` opt-in; by default, no download."""
    return download if download is not None else os.environ.get(DOWNLOAD_ENV, "") == "1"


@functools.lru_cache(maxsize=4)
def _mnist_tensors(split: str, root: str, timeout: float, download: bool) -> tuple[torch.Tensor, torch.Tensor]:
    """MNIST through torchvision, read from ``root`` (fetched there first only if ``download``); raises when
    that is not possible."""
    from torchvision.datasets import MNIST

    with _socket_timeout(timeout):
        mnist = MNIST(root, train=(split == "train"), download=download)
    images = mnist.data.unsqueeze(1).float() / 255.0  # (N, 28, 28) uint8 -> (N, 1, 28, 28), 0..1
    return (images - MNIST_MEAN) / MNIST_STD, mnist.targets.long()


def mnist_or_digits(split: str = "train", root: str = "data", timeout: float = 5.0,
                    download: bool | None = None) -> TensorDataset:
    """Real MNIST when torchvision is installed and MNIST is in ``root``, otherwise ``digits_28(split)``.

    Nothing is downloaded unless asked: ``download=True``, or ``TWOGPU_DOWNLOAD=1`` in the environment
    (the real data set is opt-in, so a notebook behaves the same on Colab as on an offline laptop).
    Prints one line saying which source is used (and why not MNIST); ``dataset.source`` is ``"mnist"`` or
    ``"digits"`` and ``dataset.note`` holds that line. Both sources give (1, 28, 28) float32 images
    normalised the same way, and int64 labels. Network calls give up after ``timeout`` seconds.
    """
    if split not in ("train", "test"):
        raise ValueError(f"split must be 'train' or 'test', not {split!r}")
    fetch = download_allowed(download)
    try:
        images, labels = _mnist_tensors(split, str(root), timeout, fetch)
    except ImportError:
        reason = "torchvision not installed"
    except Exception as error:  # not on disk, no network, a mirror down, a corrupt file: fall back in every case
        if fetch:
            reason = " ".join(f"{type(error).__name__}: {error}".split())[:160]  # one line, whatever the error
        else:
            reason = f"not found in {root}/; downloading is opt-in: {DOWNLOAD_ENV}=1"
    else:
        dataset = TensorDataset(images, labels)
        dataset.source = "mnist"
        dataset.note = f"Using MNIST (torchvision, {root}), {split}: {len(labels):,} images, 28×28"
        print(dataset.note)
        return dataset
    dataset = digits_28(split)
    dataset.note = (
        f"MNIST unavailable ({reason}); using scikit-learn's bundled digits, 28×28, {split}: "
        f"{len(dataset):,} images"
    )
    print(dataset.note)
    return dataset
