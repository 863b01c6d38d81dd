"""Twenty-third reading (t23_0708 #5, t23_09 #2): lesson 07 records the article split's paired rounds, so that
lesson 09's rows A11 and A19 set them beside their own rounds of the same worker."""

from utils import devices, ledger
from utils.lessons.tensor_parallel import timelines


def test_the_article_split_is_recorded_with_its_rounds_and_its_1x_bound(monkeypatch, tmp_path):
    monkeypatch.setenv(ledger.ENV, str(tmp_path))
    alone, split = [40.0, 41.0, 39.0], [50.0, 50.0, 50.0]   # ratios 0.80, 0.82, 0.78: median 0.80
    timelines.record_speedup(alone, split, 1.0, timelines.Blocks(), article=True)
    record = ledger.read(devices.mode())["article_split_speedup"]
    assert record["value"] == 0.8
    assert record["bound"] == 1.0
    assert record["lesson"] == "07"
    assert [round(r, 2) for r in record["rounds"]] == [0.8, 0.82, 0.78]
    assert "article" in record["what"]
