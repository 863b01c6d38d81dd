"""Lesson 02, twenty-seventh reading, second pass (t27_02): fabricated figures; no timing."""

import json
from pathlib import Path

from utils import devices, ledger
from utils.lessons.model_split import report, runs

ROOT = Path(__file__).resolve().parents[1]


def _row(speedups, batch=32, process_bounds=()):
    """A naive-split row whose paired rounds are ``speedups`` (its median and ± come from them)."""
    return runs.Row(batch, 1, "naive", 0.1, 0.1, [0.05, 0.05], naive=True, speedups=list(speedups),
                    alone=[0.05, 0.05] if process_bounds else [], process_bounds=list(process_bounds))


# --- lesson 09's request: each launch's paired rounds in the naive split's ledger record --------------------


def test_the_naive_split_record_carries_each_launchs_rounds(monkeypatch, tmp_path):
    """Three launches of one step: ``launch_rounds`` names each launch and keeps its paired rounds in order,
    beside the fields the record already had (value, bound, rounds, launches, launch_spreads)."""
    monkeypatch.setenv(ledger.ENV, str(tmp_path))
    launches = [("section 3", "a", _row([1.00, 1.02, 1.04, 1.08, 1.09])),
                ("section 5", "b", _row([0.92, 0.93, 0.95, 0.97, 0.99])),
                ("section 8", "c", _row([0.96, 0.97, 1.01, 1.05, 1.06]))]
    ledger.record("naive_split_speedup", 1.04, "x", bound=1.0, lesson="02", rounds=[1.0, 1.04],
                  **report.launch_fields(launches))
    got = ledger.figure("naive_split_speedup", mode=devices.mode())
    # each launch carries lesson 02's own verdict (t30_09 #1: lesson 09 quotes it rather than working its own)
    assert [k.pop("verdict") for k in got["launch_rounds"]] == [report.headline_verdict(r) for _, _, r in launches]
    assert got["launch_rounds"] == [{"where": "section 3", "rounds": [1.00, 1.02, 1.04, 1.08, 1.09]},
                                    {"where": "section 5", "rounds": [0.92, 0.93, 0.95, 0.97, 0.99]},
                                    {"where": "section 8", "rounds": [0.96, 0.97, 1.01, 1.05, 1.06]}]
    assert (got["value"], got["bound"], got["rounds"]) == (1.04, 1.0, [1.0, 1.04])
    assert (got["launches"], got["launch_spreads"]) == ([1.04, 0.95, 1.01], [0.03, 0.02, 0.04])
    # JSON as written: a reader gets plain lists and strings
    assert json.loads(json.dumps(got["launch_rounds"])) == got["launch_rounds"]


def test_a_single_launch_gives_one_entry():
    row = _row([1.0, 1.1, 1.2])
    assert report.launch_fields([("section 3", "a", row)])["launch_rounds"] == [
        {"where": "section 3", "rounds": [1.0, 1.1, 1.2], "verdict": report.headline_verdict(row)}]


# --- the first helper's invented case: a split above 1x, under a per-process reference clear of 1x ------------

UNDER = ([1.04, 1.05, 1.05, 1.06, 1.05], [1.10, 1.11, 1.10, 1.09, 1.10])  # 1.05x; each round ~0.95 of its own


def _places(speedups, bounds):
    r = _row(speedups, process_bounds=bounds)
    claim = report.reference_claim("x", r, r.process_bound, "per-process reference", r.process_bounds)
    return (report.headline_verdict(r), report.naive_process_reading(r).split("The naive split ")[-1],
            report.naive_closing(r), claim.verdict)


def test_under_a_reference_clear_of_1x_every_place_says_explained_and_the_share():
    """(1.05 - 1) / (1.10 - 1) = 50%: the headline, the block, the closing and the claims row each say the
    excess is explained by the reference and that the split reached 50% of its gain; none says one without
    the other."""
    head, block, closing, claim = _places(*UNDER)
    for said in (head, block, claim):
        assert "under the per-process reference" in said
        assert "explained by the reference; round by round it falls 5% short of it (1 - 0.95)" in said  # t34_02 #1
    assert "falls 5% short of it (1 - 0.95): the messages and the turn-taking" in block
    assert ("explained by each stage's lower cost in its own process (the per-process reference, 1.10x; round by "
            "round it falls 5% short of it: the messages and the turn-taking)") in closing


def test_within_noise_of_the_reference_no_share_is_added():
    """Each round at its own reference (ratios 1.00): explained, and no share of a gain it did not fall short of."""
    s = [1.04, 1.05, 1.06, 1.05, 1.05]
    head, block, closing, claim = _places(s, s)
    for said in (head, block, claim):
        assert "within noise of the per-process reference" in said and "explained by the reference" in said
        assert "it reaches" not in said and "of its gain" not in said
    assert "explained by each stage's lower cost in its own process (the per-process reference, 1.05x)" in closing


def test_slower_than_one_device_under_the_reference_is_never_explained():
    head, block, closing, claim = _places([0.95, 0.96, 0.96, 0.97, 0.96], UNDER[1])
    assert head == "slower than one device: no speed-up"
    assert "explained" not in block + closing + claim
    assert "it reaches none of its gain (0.96x is at or below 1x)" in block


# --- t27_02 other problems: a ± printed 0.00 is said to be under 0.005, not "no spread" ----------------------


def test_a_spread_printed_as_zero_says_what_it_means_and_another_is_printed_as_is():
    from utils.lessons.model_split import best
    assert best._spread_text(0.0) == "0.00 (under 0.005, from the middle rounds only)"
    assert best._spread_text(0.03) == "0.03"


def test_cell_15_says_what_a_zero_spread_and_a_third_decimal_mean():
    cells = json.loads((ROOT / "notebooks/02_model_split.ipynb").read_text())["cells"]
    text = " ".join("".join(cells[15]["source"]).split())
    assert 'A ± printed 0.00 is under 0.005, from those middle rounds only: not "no spread"' in text
    assert ("more where two would put it on 1× (or 2×) though it lies on one side of it: as many as it takes to "
            "show which side (1.0003), and more until the figure, rounded half up to two decimals, gives the "
            "round's own two-decimal figure") in text
