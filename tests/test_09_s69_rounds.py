"""Reader t30_09 #1 and #2: lesson 09 reads the split alone's and the pipelines' single rounds as lesson 02 does
(a round a reference measured in the run reaches is no finding), on fabricated figures."""

from utils.lessons.articles_checked import figures, split_alone


def _split(**extra):
    # §3's rounds: 1.08 and 1.07 past 1.02 + 0.04, each within its own round's per-process reference
    return {"value": 1.02, "bound": 1.0, "reference": 1.03, "rounds": [1.076, 1.066, 1.017, 0.982, 1.0],
            "reference_rounds": [1.04, 1.06, 0.94, 1.02, 1.03]} | extra


def test_split_rounds_reached_by_their_own_reference_are_no_finding():
    said = split_alone.split_rounds_words(_split())
    assert said.startswith("3 of 5 rounds above the bound (up to 1.08x): 1.08x, 1.07x past the rounds' spread, but "
                           "not past their own rounds' per-process references: no finding")
    assert "beyond the rounds' spread of the median (± 0.04): a finding" not in said


def test_split_rounds_past_their_own_reference_stay_findings():
    said = split_alone.split_rounds_words(_split(reference_rounds=[0.94, 0.95, 1.02, 1.0, 1.0]))
    assert "beyond the rounds' spread of the median (± 0.04): a finding to explain" in said
    assert "per-process references: no finding" not in said


def test_split_rounds_none_above_and_none_kept():
    assert split_alone.split_rounds_words(_split(rounds=[0.97, 0.98, 0.99, 1.0, 0.98], value=0.98)) == ""
    assert split_alone.split_rounds_words(_split(rounds=None)) == ""


def _launches(verdicts):
    return {"value": 1.02, "bound": 1.0, "launches": [1.02, 0.98], "launch_spreads": [0.04, 0.01],
            "launch_rounds": [{"where": "section 3", "rounds": [1.0, 1.02, 1.04], "verdict": verdicts[0]},
                              {"where": "section 5", "rounds": [0.97, 1.03, 0.98], "verdict": verdicts[1]}]}


def test_launches_quote_lesson_02s_own_verdicts_where_kept():
    record = _launches(["within noise: no effect shown; V3", "slower than one device: no speed-up; V5"])
    said = split_alone.launches_words(record)
    assert "section 3's 1.02x ± 0.04, within noise: no effect shown; V3" in said
    assert "section 5's 0.98x ± 0.01, slower than one device: no speed-up; V5" in said
    assert "findings to explain that no launch's median shows" not in said  # lesson 02's verdicts read them


def test_launches_without_kept_verdicts_read_their_rounds_here():
    record = _launches([None, None])
    assert split_alone.lesson_02_verdicts(record) is None
    assert "lesson 02's rule" in split_alone.launches_words(record)


def _pipeline(reference):
    return {"value": 1.74, "bound": 1.78, "reference": reference, "rounds": [1.92, 1.84, 1.71, 1.66, 1.74]}


def test_pipeline_rounds_within_the_work_scaled_reference_are_no_finding():
    said = figures.rounds_above_words(_pipeline(1.87))
    assert said == ("2 of 5 rounds above the bound (up to 1.92x): 1.92x, 1.84x past the rounds' spread, but within "
                    "the work-scaled reference (1.87x + 0.07 = 1.94): no finding")


def test_pipeline_round_past_the_work_scaled_reference_stays_a_finding():
    said = figures.rounds_above_words(_pipeline(1.80))  # 1.80 + 0.07 = 1.87: reaches 1.84, not 1.92
    assert said.startswith("2 of 5 rounds above the bound (up to 1.92x): 1.84x past the rounds' spread, but within "
                           "the work-scaled reference (1.80x + 0.07 = 1.87): no finding; the other round (1.92x): ")
    assert "a finding to explain" in said


def test_pipeline_without_reference_and_the_split_alones_per_process_reference_read_by_the_spread():
    said = figures.rounds_above_words(_pipeline(None))
    assert "beyond the rounds' spread of the median (± 0.07): a finding to explain" in said
    split = figures.read_by_rounds("naive_split", _split(reference_rounds=None))  # 1.03x is no work reference
    assert "work-scaled" not in figures.rounds_above_words(split)
