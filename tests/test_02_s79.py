"""Lesson 02, t40 reading: one tolerance for the work-scaled reference (its whole-ms figures' rounding, as the
section 8 answer allows), the ideal charts' cross-reference, and section 5's traffic reading one click away."""
import nbformat

from utils.lessons.model_split import report, work_words
from utils.lessons.model_split.runs import Row

NOTEBOOK = "notebooks/02_model_split.ipynb"


def _placed(cpu):  # t40's attn/ffn placement: 0.88x ± 0.02, one device's CPU 134 ms
    return Row(32, 1, "attn/ffn", 0.153, 0.135, [0.060, 0.083], naive=True, cpu=cpu, baseline_cpu=0.134,
               speedups=[0.89, 0.88, 0.86, 0.80, 0.90], baseline_busy=0.130)


def test_a_median_within_the_rounding_of_its_work_figures_is_no_finding():
    # 67 + 90 against 134: reference 0.85x, but 134.5 / 156 = 0.86x within the whole-ms rounding; 0.88 - 0.02 = 0.86
    said = report.headline_verdict(_placed([0.067, 0.090]))
    assert ("above its work-scaled reference (0.85x, up to 0.86x within its whole-ms work figures' rounding), "
            "within the rounds' spread (± 0.02)") in said
    assert "a finding to explain" not in said


def test_a_median_past_the_rounding_edge_of_its_work_figures_is_still_a_finding():
    # 67 + 95 against 134: reference 0.83x, at most 134.5 / 161 = 0.84x; 0.86 is past it
    said = report.headline_verdict(_placed([0.067, 0.095]))
    assert ("above its work-scaled reference (0.83x, up to 0.84x within its whole-ms work figures' rounding) by "
            "more than the rounds' spread (± 0.02): a finding to explain") in said


def test_the_reference_reach_is_the_most_the_whole_ms_figures_allow():
    assert round(work_words.reference_reach(1.0, [67, 90], 134), 4) == round(134.5 / 156, 4)
    assert work_words.reference_reach(1.0, [0, 1], 1) is None  # rounding leaves no work: no edge to read


def _cells():
    return nbformat.read(NOTEBOOK, as_version=4).cells


def test_the_ideal_charts_point_to_the_sections_that_draw_measured_charts():
    ideal = next(c.source for c in _cells() if "drawn from the formula" in c.source)
    assert "sections 5 and 9 are read against them" in ideal and "sections 5 and 6" not in ideal


def test_section_5s_traffic_reading_and_link_choice_sit_in_the_collapsed_block():
    cell = next(c.source for c in _cells() if c.cell_type == "code" and "report.link_reading(" in c.source)
    visible, block = cell.split("how_measured(", 1)
    assert "link_reading" not in visible and "say(link_said)" not in visible
    assert "link_said" in block and "report.link_reading(" in block


def test_the_ledger_is_defined_where_lesson_02_first_uses_it():
    first = next(c.source for c in _cells() if c.cell_type == "markdown" and "ledger" in c.source)
    assert "**ledger** (`utils.ledger`" in first
