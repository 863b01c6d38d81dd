"""Lesson 09 reads lesson 02's split alone against its per-process reference round by round, as lesson 02 §3
does (sixteenth reading, t16_02 #2: the two medians come from different rounds; paired, the split was under
its own round's reference in 3 of 5 rounds). The ledger keeps the reference's rounds beside the split's; an
older entry, with medians only, is read by the rule it was written under."""

from utils import devices, ledger
from utils.lessons.articles_checked import checks, two_stages

ROUNDS = [0.88, 1.06, 1.04, 1.02, 1.04]  # the sixteenth reading's run: the split's rounds
REFERENCES = [0.98, 1.10, 1.22, 0.95, 0.95]  # each round's per-process reference
SPLIT = {"value": 1.04, "bound": 1.0, "reference": 0.98, "rounds": ROUNDS, "reference_rounds": REFERENCES}


def test_the_ledger_keeps_the_references_rounds_beside_the_splits(monkeypatch, tmp_path):
    monkeypatch.setenv(ledger.ENV, str(tmp_path))
    ledger.record("naive_split_speedup", 1.04, "x", bound=1.0, reference=0.98, lesson="02", mode=devices.mode(),
                  rounds=ROUNDS, reference_rounds=REFERENCES)
    entry = ledger.figure("naive_split_speedup", mode=devices.mode())
    assert entry["rounds"] == ROUNDS and entry["reference_rounds"] == REFERENCES
    ledger.record("naive_split_speedup", 1.04, "x", bound=1.0, lesson="02", mode=devices.mode(), rounds=ROUNDS)
    assert "reference_rounds" not in ledger.figure("naive_split_speedup", mode=devices.mode())


def test_a_reference_within_noise_of_one_explains_no_split_even_with_the_split_within_it():
    said = checks.split_alone_words(SPLIT)
    assert ("within noise of the per-process reference, round by round (each round's speedup over its own round's "
            "reference: median 0.96x ± 0.09; 3 of 5 rounds under it), but the reference itself (0.98x ± 0.08) is "
            "within noise of 1x: it explains nothing (lesson 02 §3)") in said, said
    assert not checks.split_explained(SPLIT, said)
    note = two_stages.split_above_words(SPLIT)
    assert "here 0.98x, at or under the 1x bound" in note, note


def test_a_reference_clear_of_one_explains_a_split_under_it_round_by_round():
    clear = SPLIT | {"reference": 1.10, "reference_rounds": [1.10, 1.12, 1.09, 1.11, 1.10]}
    said = checks.split_alone_words(clear)
    assert ("under the per-process reference, round by round (each round's speedup over its own round's "
            "reference: median 0.95x ± 0.01; every round under it): explained by the reference (lesson 02 §3)"
            ) in said, said
    assert checks.split_explained(clear, said)
    note = two_stages.split_above_words(clear)
    assert "a split within that reference (round by round, each round's speedup over its own round's " \
           "reference, as lesson 02 §3 reads it) is 'explained by the reference'" in note, note


def test_a_split_above_its_reference_round_by_round_is_a_finding():
    above = SPLIT | {"value": 1.20, "rounds": [1.18, 1.20, 1.22, 1.19, 1.21], "reference": 1.05,
                     "reference_rounds": [1.04, 1.05, 1.06, 1.05, 1.05]}
    said = checks.split_alone_words(above)
    assert "above the per-process reference by more than the paired spread, round by round" in said, said
    assert said.endswith(": a finding to explain (lesson 02 §3)") and not checks.split_explained(above, said)


def test_a_reference_above_one_but_within_its_noise_is_said_to_be_so_in_the_note():
    noisy = SPLIT | {"reference": 1.03, "reference_rounds": [0.95, 1.03, 1.12, 0.97, 1.08]}
    note = two_stages.split_above_words(noisy)
    assert "here the reference (1.03x ± 0." in note and "is itself within noise of 1x" in note, note
    assert "no split above 1x is explained by it" in note and "each stage alone measured less" not in note


def test_an_older_entry_without_the_references_rounds_is_read_by_its_medians():
    older = {"value": 1.09, "bound": 1.0, "reference": 1.06, "rounds": [1.07, 1.09, 1.11, 1.08, 1.10]}
    said = checks.split_alone_words(older)
    assert "above the per-process reference (1.06x) too, by more than the rounds' spread (± 0.01)" in said, said
    within = older | {"reference": 1.10}
    assert "within the per-process reference 1.10x: explained by the reference" in checks.split_alone_words(within)
    assert "its median less the rounds' spread at or under it" in two_stages.split_above_words(within)
