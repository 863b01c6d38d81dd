"""Fixtures shared by the test modules."""

import psutil
import pytest
import torch

from machines import MACHINES, use_machine


@pytest.fixture(params=list(MACHINES))
def machine(request, monkeypatch):
    """One run of the test per fake machine (see tests/machines.py); CUDA must stay uninitialised."""
    facts = use_machine(monkeypatch, request.param)
    yield facts
    assert not torch.cuda.is_initialized(), f"{request.param}: a decision initialised CUDA in this process"


@pytest.fixture
def cpu_mode_and_no_leftovers(monkeypatch):
    """cpu mode for the test, and no child process of this one left when it ends (multiprocessing's resource
    tracker aside: it belongs to the interpreter, not to the test)."""
    monkeypatch.setenv("TWOGPU_MODE", "cpu")
    yield
    left = [p for p in psutil.Process().children(recursive=True) if p.status() != psutil.STATUS_ZOMBIE
            and "resource_tracker" not in " ".join(p.cmdline())]
    assert left == [], f"processes left behind: {left}"
