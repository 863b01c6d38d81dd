"""Save and resume training so a restarted group continues where it stopped: lesson 03, DDP from the notebook.

    start = checkpoint.resume(path, model, optimizer)       # steps already done (0 without a checkpoint)
    for step in range(start, total_steps):
        ...
        if rank == 0:
            checkpoint.save(path, model, optimizer, step + 1)

``save`` is atomic: it writes a temporary file in the same folder, fsyncs it and renames it over the old
one (``os.replace``), so a worker killed in the middle of a save leaves the previous checkpoint intact,
never half a file. A checkpoint holds the model, the optimizer, the step and the random number generator
state of the process that saved it (in DDP: rank 0; seed per rank from the step if ranks draw differently).
"""

from __future__ import annotations

import os
import random
import tempfile

import torch


def _plain(model: torch.nn.Module) -> torch.nn.Module:
    """The model inside a DDP wrapper, so a checkpoint also loads without DDP (no 'module.' prefix)."""
    return getattr(model, "module", model)


def _rng_state() -> dict:
    state = {"torch": torch.get_rng_state(), "python": random.getstate()}
    if torch.cuda.is_available() and torch.cuda.is_initialized():  # never start CUDA just to save
        state["cuda"] = torch.cuda.get_rng_state_all()
    try:
        import numpy

        state["numpy"] = numpy.random.get_state()
    except ImportError:
        pass
    return state


def _set_rng_state(state: dict) -> None:
    torch.set_rng_state(state["torch"])
    random.setstate(state["python"])
    if "cuda" in state and torch.cuda.is_available():
        torch.cuda.set_rng_state_all(state["cuda"])
    if "numpy" in state:
        import numpy

        numpy.random.set_state(state["numpy"])


def atomic_torch_save(obj, path: str | os.PathLike) -> None:
    """``torch.save`` that either fully replaces ``path`` or leaves it untouched."""
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=".pt", dir=folder)  # same folder: rename is atomic
    try:
        with os.fdopen(fd, "wb") as f:
            torch.save(obj, f)
            f.flush()
            os.fsync(f.fileno())  # the bytes are on disk before the name points at them
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise
    dir_fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(dir_fd)  # and the rename itself survives a crash of the machine
    finally:
        os.close(dir_fd)


def save(path: str | os.PathLike, model: torch.nn.Module, optimizer: torch.optim.Optimizer | None,
         step: int, extra: dict | None = None) -> None:
    """Save model, optimizer, ``step`` (steps done) and RNG state to ``path``, atomically."""
    atomic_torch_save({
        "model": _plain(model).state_dict(),
        "optimizer": optimizer.state_dict() if optimizer is not None else None,
        "step": step,
        "rng": _rng_state(),
        "extra": extra or {},
    }, path)


def resume(path: str | os.PathLike, model: torch.nn.Module, optimizer: torch.optim.Optimizer | None = None,
           restore_rng: bool = True) -> int:
    """Load ``path`` into ``model`` (and ``optimizer``) if it exists; return the steps already done (or 0)."""
    if not os.path.exists(path):
        return 0
    state = torch.load(path, map_location="cpu", weights_only=False)  # our own file: RNG states are objects
    _plain(model).load_state_dict(state["model"])
    if optimizer is not None and state["optimizer"] is not None:
        optimizer.load_state_dict(state["optimizer"])
    if restore_rng:
        _set_rng_state(state["rng"])
    return state["step"]
