"""machine.stored_link decides on the ± the page prints when it is given one (t27 review: a fit printed
"±10%" must not be called "misses by more than ±10%")."""
from utils import machine


def _fit():
    return machine.link_fit("gloo", [4, 2**20, 2**24], [7e-5, 3e-4, 3e-3])


def test_a_fit_whose_printed_accuracy_is_at_the_tolerance_is_kept(tmp_path):
    path = tmp_path / "profile.json"
    fit = _fit()
    kept = machine.stored_link(fit, "cpu", path=path, tolerance=0.10, accuracy=0.10)
    assert "not kept" not in kept.measured and path.exists()


def test_a_fit_whose_printed_accuracy_passes_the_tolerance_is_not_kept(tmp_path):
    path = tmp_path / "profile.json"
    said = machine.stored_link(_fit(), "cpu", path=path, tolerance=0.10, accuracy=0.11)
    assert "not kept" in said.measured and not path.exists()


def test_without_a_printed_accuracy_the_unrounded_one_decides(tmp_path):
    path = tmp_path / "profile.json"
    fit = _fit()
    said = machine.stored_link(fit, "cpu", path=path, tolerance=fit.accuracy / 2)
    assert "not kept" in said.measured
