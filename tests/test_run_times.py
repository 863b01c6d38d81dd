"""One source for run times: README's course map and each notebook's header state what ``make execute``
measured (``results/run-times.json``), rounded the same way (``utils.tools.runtimes.stated``)."""

from pathlib import Path

import pytest

from utils.tools import runtimes

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb")) + sorted((ROOT / "labs").glob("*.ipynb"))
MEASURED = runtimes.load()["notebooks"]
README = runtimes.readme_seconds()


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_header_and_readme_state_the_measured_run_time(path):
    key = path.relative_to(ROOT).as_posix()
    assert key in MEASURED, f"{key} has no measured run time: run `make execute` (it writes results/run-times.json)"
    figure = runtimes.stated(MEASURED[key]["seconds"])
    assert runtimes.header_seconds(path) == figure, \
        f"{key}: its 'Modes and time' paragraph must say 'About {figure} s on a 2-core CPU' (measured)"
    assert README.get(key) == figure, f"README's course map must give {key} as ~{figure} s (measured)"


def test_the_figures_were_measured_on_a_machine_like_the_classrooms():
    for key, entry in MEASURED.items():
        assert entry["machine"]["cores"] <= 4 and entry["machine"]["mode"] == "cpu", \
            f"{key} was timed on {entry['machine']}; the course map gives 2-core CPU figures"


def test_the_rounding_rule():
    assert [runtimes.stated(s) for s in (4.2, 12.6, 19.4, 41.0, 43.0, 61.2, 118)] == [4, 13, 19, 40, 45, 60, 120]
    # half up, as a reader rounds results/run-times.json by hand (round() gave 8 for 8.5 and 20 for 22.5)
    assert [runtimes.stated(s) for s in (8.5, 16.5, 22.5, 27.5)] == [9, 17, 25, 30]
