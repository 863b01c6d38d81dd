"""Shared pytest set-up: a report of each notebook's run time (nbval runs them cell by cell).

Run times are reported, never asserted: performance targets live in benchmarks (`make bench`). A notebook
over its 150 s classroom budget is flagged in the report so that a maintainer sees it. The figures, with the
machine, also go to ``results/run-times-test.json`` (not committed; the committed course-map figures come from
``make execute``: see ``utils/tools/runtimes.py``).
"""

from collections import defaultdict

NOTEBOOK_BUDGET_S = 150
_notebook_seconds: dict[str, float] = defaultdict(float)


def pytest_runtest_logreport(report):
    path = report.nodeid.split("::", 1)[0]
    if path.endswith(".ipynb"):
        _notebook_seconds[path] += report.duration


def pytest_terminal_summary(terminalreporter):
    if not _notebook_seconds:
        return
    terminalreporter.section("notebook run times")
    for path, seconds in sorted(_notebook_seconds.items()):
        flag = f"  OVER the {NOTEBOOK_BUDGET_S} s budget" if seconds > NOTEBOOK_BUDGET_S else ""
        terminalreporter.write_line(f"{seconds:7.1f} s  {path}{flag}")
    from utils.tools import runtimes

    for path, seconds in _notebook_seconds.items():
        runtimes.record(runtimes.ROOT / path, seconds, path=runtimes.ROOT / "results" / "run-times-test.json",
                        by="make test (nbval)")


def pytest_configure(config):
    """The ledger that lessons write while the tests run (nbval) goes to a temporary folder, never to the
    committed ``results/ledger-<mode>.json`` (kernels started later inherit the variable)."""
    import os
    import shutil
    import tempfile

    if not os.environ.get("TWOGPU_LEDGER_DIR"):
        folder = tempfile.mkdtemp(prefix="twogpu-ledger-")
        os.environ["TWOGPU_LEDGER_DIR"] = folder
        config.add_cleanup(lambda: shutil.rmtree(folder, ignore_errors=True))
