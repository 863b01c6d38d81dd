"""machine.saved_link: the one public reader of lesson 00's kept link fit (lessons 03, 07, 08 and lab 00 set
their own link figures beside it)."""
from utils import machine


def _fit():
    return machine.link_fit("gloo", [4, 2**20, 2**24], [7e-5, 3e-4, 3e-3])


def test_no_profile_means_no_saved_link(tmp_path):
    assert machine.saved_link("cpu", path=tmp_path / "none.json") is None


def test_the_saved_link_is_the_one_stored(tmp_path):
    path = tmp_path / "profile.json"
    stored = machine.stored_link(_fit(), "cpu", path=path)
    read = machine.saved_link("cpu", path=path)
    assert read.name == stored.name == "gloo"
    assert read.fit.alpha == stored.fit.alpha and read.fit.beta == stored.fit.beta
    assert "stored profile" in read.measured


def test_a_damaged_profile_reads_as_none(tmp_path):
    path = tmp_path / "profile.json"
    path.write_text("{not json")
    assert machine.saved_link("cpu", path=path) is None
