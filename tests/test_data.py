"""utils.data: the stdlib corpus, next-character pairs, 28x28 digits and the MNIST fallback."""

import socket
import subprocess
import sys
import sysconfig
import time
import types
from pathlib import Path

import pytest
import torch

from utils import data
from utils.data import (
    CharCorpus,
    CharDataset,
    char_dataset,
    digits_28,
    mnist_or_digits,
    stdlib_files,
    stdlib_text,
)


def test_importing_utils_has_no_side_effects():
    code = (
        "import sys, utils.models, utils.data; "
        "print(sorted(m for m in ('sklearn', 'torchvision') if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "[]\n"  # printed nothing else, and loaded no dataset library


# ------------------------------------------------------------------------------------------------ text


def test_stdlib_files_sorted_and_filtered():
    root = Path(sysconfig.get_paths()["stdlib"])
    files = stdlib_files()
    relative = [f.relative_to(root).as_posix() for f in files]
    assert relative == sorted(relative) and len(relative) > 300
    assert all(r.endswith(".py") for r in relative)
    parts = {part for r in relative for part in Path(r).parts}
    assert not parts & {"site-packages", "test", "tests", "idle_test"}
    assert "os.py" in relative and "json/decoder.py" in relative
    assert not any(Path(r).name.startswith("_sysconfigdata") for r in relative)


def test_stdlib_text_order_skips_and_encoding(tmp_path):
    (tmp_path / "b.py").write_text("bee\n", encoding="utf-8")
    (tmp_path / "a.py").write_text("ay é\n", encoding="utf-8")
    (tmp_path / "latin1.py").write_bytes("caf\xe9\n".encode("latin-1"))  # not UTF-8: skipped
    (tmp_path / "notes.txt").write_text("not python")
    for folder in ("site-packages", "test", "zzz"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "m.py").write_text(f"{folder}\n")
    assert stdlib_text(None, root=str(tmp_path)) == "ay é\n\n\nbee\n\n\nzzz\n"
    assert stdlib_text(6, root=str(tmp_path)) == "ay é\n\n"


def test_stdlib_text_is_deterministic_and_cut_to_length():
    first = stdlib_text.__wrapped__(50_000)  # bypass the cache: read the files again
    second = stdlib_text.__wrapped__(50_000)
    assert first == second and len(first) == 50_000
    assert first.startswith(stdlib_files()[0].read_text(encoding="utf-8")[:1000])
    assert stdlib_text(50_000) is stdlib_text(50_000)  # cached


def test_char_corpus_round_trip_and_vocab():
    corpus = CharCorpus("hello world")
    assert corpus.chars == sorted(set("hello world")) and corpus.vocab_size == 8
    ids = corpus.encode("low")
    assert ids == [corpus.stoi["l"], corpus.stoi["o"], corpus.stoi["w"]]
    assert corpus.decode(ids) == "low" and corpus.decode(torch.tensor([ids])) == "low"
    assert corpus.data.dtype == torch.int64 and corpus.decode(corpus.data) == "hello world"


def test_stdlib_vocab():
    corpus = char_dataset(8).corpus
    assert 60 <= corpus.vocab_size <= 300
    assert set("abcxyzABCXYZ0189 \n_():=.'\"#") <= set(corpus.chars)
    assert corpus.decode(corpus.encode("def f(x):\n    return x\n")) == "def f(x):\n    return x\n"


def test_char_dataset_pairs_are_shifted_by_one():
    ds = CharDataset(torch.arange(20), block_size=4)
    assert len(ds) == 4  # windows start at 0, 4, 8, 12 (the last needs 5 tokens: 12..16)
    x, y = ds[2]
    assert x.tolist() == [8, 9, 10, 11] and y.tolist() == [9, 10, 11, 12]
    overlapping = CharDataset(torch.arange(20), block_size=4, stride=1)
    assert len(overlapping) == 16 and overlapping[15][1].tolist() == [16, 17, 18, 19]
    with pytest.raises(IndexError):
        ds[4]
    with pytest.raises(ValueError):
        CharDataset(torch.arange(4), block_size=4)


def test_char_dataset_train_val_split_is_fixed_and_disjoint():
    train, val = char_dataset(64, "train"), char_dataset(64, "val")
    assert train.corpus is val.corpus
    whole = train.corpus.data
    assert len(whole) == data.DEFAULT_MAX_CHARS
    assert torch.equal(torch.cat([train.data, val.data]), whole)  # train first, val after: no overlap
    assert len(val.data) == len(whole) // 10
    x, y = train[3]
    assert x.shape == y.shape == (64,) and x.dtype == torch.int64
    assert torch.equal(x[1:], y[:-1])
    with pytest.raises(ValueError):
        char_dataset(64, "test")


# ---------------------------------------------------------------------------------------------- images


def test_digits_28_split_sizes_shapes_and_labels():
    train, test = digits_28("train"), digits_28("test")
    assert (len(train), len(test)) == (1437, 360)
    assert train.source == test.source == "digits"
    x, y = train.tensors
    assert x.shape == (1437, 1, 28, 28) and x.dtype == torch.float32 and y.dtype == torch.int64
    raw = x * data.MNIST_STD + data.MNIST_MEAN  # undo the normalisation: back to 0..1 ink
    assert raw.min() >= -1e-5 and raw.max() <= 1 + 1e-5
    # Stratified: each class is split 80/20 within one image.
    for label in range(10):
        n_train, n_test = (train.tensors[1] == label).sum().item(), (test.tensors[1] == label).sum().item()
        assert abs(n_test - 0.2 * (n_train + n_test)) <= 1


def test_digits_28_split_is_disjoint_and_complete():
    def rows(ds):
        return {image.numpy().tobytes() for image in ds.tensors[0]}

    train, test = rows(digits_28("train")), rows(digits_28("test"))
    assert not train & test
    assert len(train | test) == 1797  # every digit image, each in one split


def test_digits_28_is_cached_and_seeded():
    digits_28("train")
    start = time.perf_counter()
    again = digits_28("train")
    assert time.perf_counter() - start < 0.05
    assert again.tensors[0].data_ptr() == digits_28("train").tensors[0].data_ptr()
    fresh = data._digits_tensors.__wrapped__(0)["train"]  # recomputed, not cached
    assert torch.equal(fresh[0], again.tensors[0]) and torch.equal(fresh[1], again.tensors[1])
    assert not torch.equal(digits_28("train", seed=1).tensors[1], again.tensors[1])
    with pytest.raises(ValueError):
        digits_28("val")


# ----------------------------------------------------------------------------------------------- MNIST


@pytest.fixture
def no_mnist_cache():
    data._mnist_tensors.cache_clear()
    yield
    data._mnist_tensors.cache_clear()


def fake_torchvision(monkeypatch, mnist_class):
    torchvision = types.ModuleType("torchvision")
    datasets = types.ModuleType("torchvision.datasets")
    datasets.MNIST = mnist_class
    torchvision.datasets = datasets
    monkeypatch.setitem(sys.modules, "torchvision", torchvision)
    monkeypatch.setitem(sys.modules, "torchvision.datasets", datasets)


def printed_lines(capsys):
    out = capsys.readouterr().out
    return out.splitlines()


def test_mnist_falls_back_when_torchvision_is_missing(monkeypatch, capsys, no_mnist_cache):
    monkeypatch.setitem(sys.modules, "torchvision", None)  # `import torchvision` now raises ImportError
    monkeypatch.setitem(sys.modules, "torchvision.datasets", None)
    dataset = mnist_or_digits("test")
    lines = printed_lines(capsys)
    assert len(lines) == 1
    assert lines[0].startswith(
        "MNIST unavailable (torchvision not installed); using scikit-learn's bundled digits, 28×28"
    )
    assert dataset.source == "digits" and dataset.note == lines[0] and len(dataset) == 360


def test_mnist_falls_back_when_the_download_fails(monkeypatch, capsys, no_mnist_cache):
    seen = {}

    class OfflineMNIST:
        def __init__(self, root, train, download):
            seen["timeout"] = socket.getdefaulttimeout()
            raise RuntimeError("Error downloading train-images-idx3-ubyte.gz:\nTried mirrors\n<urlopen>")

    fake_torchvision(monkeypatch, OfflineMNIST)
    before = socket.getdefaulttimeout()
    dataset = mnist_or_digits("train", timeout=2.5, download=True)
    lines = printed_lines(capsys)
    assert len(lines) == 1 and "RuntimeError: Error downloading" in lines[0] and "digits" in lines[0]
    assert dataset.source == "digits" and len(dataset) == 1437
    assert seen["timeout"] == 2.5 and socket.getdefaulttimeout() == before  # short timeout, then restored


def test_mnist_is_used_when_torchvision_works(monkeypatch, capsys, no_mnist_cache, tmp_path):
    class FakeMNIST:
        def __init__(self, root, train, download):
            assert root == str(tmp_path) and download
            n = 6 if train else 4
            self.data = torch.full((n, 28, 28), 255, dtype=torch.uint8)
            self.targets = torch.arange(n)

    fake_torchvision(monkeypatch, FakeMNIST)
    dataset = mnist_or_digits("test", root=tmp_path, download=True)
    lines = printed_lines(capsys)
    assert len(lines) == 1 and lines[0].startswith("Using MNIST")
    assert dataset.source == "mnist" and len(dataset) == 4
    x, y = dataset[0]
    assert x.shape == (1, 28, 28) and x.dtype == torch.float32 and y.dtype == torch.int64
    assert torch.allclose(x, torch.full_like(x, (1 - data.MNIST_MEAN) / data.MNIST_STD))


def test_nothing_is_downloaded_unless_asked(monkeypatch, capsys, no_mnist_cache, tmp_path):
    asked = []

    class NotOnDisk:
        def __init__(self, root, train, download):
            asked.append(download)
            raise RuntimeError("Dataset not found. You can use download=True to download it")

    fake_torchvision(monkeypatch, NotOnDisk)
    monkeypatch.delenv(data.DOWNLOAD_ENV, raising=False)
    dataset = mnist_or_digits("test", root=tmp_path)
    line = printed_lines(capsys)[0]
    assert asked == [False] and dataset.source == "digits"
    assert "downloading is opt-in: TWOGPU_DOWNLOAD=1" in line
    monkeypatch.setenv(data.DOWNLOAD_ENV, "1")
    mnist_or_digits("train", root=tmp_path)
    assert asked == [False, True]
