"""Lesson 09's row A10 where lesson 02's launches of the split alone disagree: the verdict is a clause of its own
("inconclusive: the launches disagree"), each launch a clause after it, and the short cell keeps the verdict
whole (t36 run: the first launch's long reading inside the verdict's clause was cut at "explained by the …")."""
from utils.lessons.articles_checked import short_evidence, split_alone
from utils.lessons.articles_checked.checks import NOISY
from utils.lessons.articles_checked.sources import Part


def _record():
    return {"value": 1.02, "launches": [1.05, 0.87, 1.02], "launch_spreads": [0.02, 0.14, 0.02],
            "launch_rounds": [{"where": "section 3", "verdict": "above the bound, within noise of the per-process "
                               "reference, round by round (each round's speedup over its own round's reference: "
                               "median 1.01x ± 0.04; 2 of 5 rounds under it): explained by the reference"},
                              {"where": "section 5", "verdict": "slower than one device: no speed-up"},
                              {"where": "section 8", "verdict": "within noise: no effect shown"}]}


def test_the_launches_verdict_is_a_clause_of_its_own():
    said = split_alone.launches_words(_record())
    assert said.startswith(f"{split_alone.LAUNCHES_DISAGREE}; section 3's 1.05x ± 0.02, above the bound")
    assert "; section 5's 0.87x ± 0.14, slower than one device" in said


def test_the_short_cell_keeps_the_verdict_whole_beside_a_noise_bound_check():
    text = ("lesson 02's split alone: 1.05x ± 0.02, 0.87x ± 0.14 and 1.02x ± 0.02 in 3 launches (0.87x to 1.05x) "
            "against a 1x bound, " + split_alone.launches_words(_record()))
    parts = (Part(text, "from the ledger", "lesson 02, 2026-12-07; simulated on CPU, this machine"),)
    full = "; ".join(p.render() for p in parts) + "; check: inconclusive: noise-bound"
    cell = short_evidence.visible_cell(parts, NOISY, full, "; check: inconclusive: noise-bound")
    assert len(full) > short_evidence.VISIBLE and len(cell) <= short_evidence.VISIBLE + 20
    assert "against a 1x bound, inconclusive: the launches disagree" in cell
    assert "explained by …" not in cell  # no launch's reading cut mid-verdict


def test_a_busy_machines_cell_shows_which_timing_the_busy_machine_took():
    # t36 run's A19: its check said "a busy machine" (lesson 02 marked its pipeline loaded) while its cell
    # showed the article's split, slower than one device, and not why the check could not decide
    from utils.lessons.articles_checked.checks import BUSY
    split = Part("the article's split: 0.93x one device, against its bound of 1x: slower than one device: no "
                 "speed-up; none of its 6 rounds above the bound; " + "lesson 07's own run of it ... " * 8,
                 "measured in this run", "simulated on CPU")
    loaded = Part("lesson 02 §5's pipeline: 1.17x one; against a bound of 1.60x: faster, under the bound; lesson "
                  "02 marked it measured on a loaded machine, so not evidence either way (CPU/busy 65% / 79%)",
                  "from the ledger", "lesson 02, 2026-12-07; simulated on CPU, this machine")
    parts = (split, loaded)
    assert short_evidence.deciding_part(parts, BUSY) is loaded
    full = "; ".join(p.render() for p in parts) + "; check: inconclusive: a busy machine"
    cell = short_evidence.visible_cell(parts, BUSY, full, "; check: inconclusive: a busy machine")
    assert "so not evidence either way" in cell and "0.93x" not in cell
    assert short_evidence.deciding_part(parts, NOISY) is split  # other checks: as before


def test_the_out_of_order_verdict_is_a_clause_of_its_own_before_its_pairs():
    # t37 run's B2: a 16 KiB message slower than four larger ones made "INCONCLUSIVE: ... which no bytes explain:
    # <every pair>" one clause too long for the short cell; each pair now follows as a clause of its own
    from tests.test_articles_checked_twelfth import READER_LINK, _link_m
    from utils.lessons.articles_checked import timed_rows
    said = timed_rows.out_of_order_words(_link_m(READER_LINK))
    clauses = short_evidence.top_clauses(said.lstrip("; "))
    assert clauses[0].endswith("(lesson 00's rule), which no bytes explain")
    assert any(c.startswith("the 4 KiB message (1942 µs) took longer than") for c in clauses[1:])
