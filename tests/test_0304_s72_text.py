"""Lessons 03 and 04, thirty-third reading (t33_0304): fixed prose states no measured outcome, and what
the reader found repeated or unclear says it once (sources only: the outputs show after re-execution)."""
import nbformat

LESSON_04 = "notebooks/04_compression.ipynb"


def cells(path):
    return nbformat.read(path, 4).cells


def test_lesson_04_markdown_leaves_distillation_s_speed_to_the_run():  # t33_0304 #3
    text = "\n".join(c.source for c in cells(LESSON_04) if c.cell_type == "markdown")
    assert "same size and speed as channel pruning" not in text  # speed is measured: section 7 prints it
    assert "move left on both panels" not in text
    assert "the same shapes as channel pruning, so the same size and the same\n  work (section 7 times both)" in text
    assert "move left in size, and in latency by what the lines above\nmeasure" in text


def test_lesson_04_shows_the_tie_rule_the_front_calls():
    source = next(c.source for c in cells(LESSON_04) if c.cell_type == "code" and "show_source(" in c.source
                  and "pareto_front" in c.source)
    assert "show_source(lower_beyond, pareto_front)" in source

LESSON_03 = "notebooks/03_ddp.ipynb"


def overlap_cell():
    return next(c.source for c in cells(LESSON_03) if c.cell_type == "code" and "stepread.answer(" in c.source)


def test_lesson_03_block_does_not_repeat_the_answer_s_fewer_messages_reading():  # t33_0304 other (a)
    assert "Fewer messages:" not in overlap_cell()  # the answer line and the "So" line carry it


def test_lesson_03_so_line_names_its_ratio_apart_from_section_3_s_speedup():  # t33_0304 other (g)
    assert "(a ratio of step times, not \"\n    f\"section 3's scaling speedup)" in overlap_cell()


def test_lesson_03_scaling_verdict_gives_the_bound_s_why_a_sentence_of_its_own():  # t33_0304 other (e)
    source = next(c.source for c in cells(LESSON_03) if c.cell_type == "code" and "scaling.verdict(sc)" in c.source)
    assert "({S.scaling_bound_why})" not in source
    assert "The {sc['bound']:g}x {bound_is}: {S.scaling_bound_why}." in source


def test_lesson_04_says_the_dram_probe_s_arrays_overflow_the_l3_together():  # t33_0304 other (c)
    text = "\n".join(c.source for c in cells(LESSON_04) if c.cell_type == "markdown")
    assert "on arrays larger than the caches" not in text  # each array is the L3's size, not larger
    assert "on arrays that together overflow the caches it measures DRAM" in text
