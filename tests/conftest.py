"""Fixtures shared by the test modules."""

import pytest
import torch

from machines import MACHINES, use_machine


@pytest.fixture(params=list(MACHINES))
def machine(request, monkeypatch):
    """One run of the test per fake machine (see tests/machines.py); CUDA must stay uninitialised."""
    facts = use_machine(monkeypatch, request.param)
    yield facts
    assert not torch.cuda.is_initialized(), f"{request.param}: a decision initialised CUDA in this process"
