"""Fixtures shared by the test modules."""

import os

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


# The course's one way to a real browser: Debian's Chromium, driven by Playwright; never a downloaded one.
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run", "--disable-sync"]


@pytest.fixture(scope="module")
def chromium():
    """A headless Chromium for one test module (tests/test_browser.py, tests/test_site.py), closed with it."""
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"no {CHROMIUM}: install Debian's Chromium with `apt-get install chromium` "
                    f"(.ci/run does); the test never downloads a browser")
    from playwright.sync_api import sync_playwright

    playwright = sync_playwright().start()
    try:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()
    finally:
        playwright.stop()
