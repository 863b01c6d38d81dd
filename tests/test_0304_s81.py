"""Reader t42 (lessons 03 and 04): the same quantity printed twice prints the same figure. The claims table
prints bounds at two decimals ("bound 2.00x"), so the section lines print them so too, and a notebook's own
row prints a figure at the precision its section's line does."""
import nbformat

from utils.lessons.ddp import scaling

SCALING = {"ratios": [1.74, 1.79, 1.78], "ratio": 1.78, "low": 1.74, "high": 1.79, "bound": 2.0, "above": []}


def _code(path: str) -> str:
    return "\n".join(c.source for c in nbformat.read(path, as_version=4).cells if c.cell_type == "code")


def test_the_scaling_verdict_prints_its_bound_as_the_claims_table_does():
    # cell 46 printed "against the 2x bound" beside the claims table's "bound 2.00x"
    assert "against the 2.00x bound" in scaling.verdict(SCALING)
    work = dict(SCALING, work_ratio=1.10, work_bound=scaling.work_reference(2.0, 1.10))
    assert "is 2.00x / 1.10 = 1.82x" in scaling.verdict(work)
    above = dict(SCALING, ratios=[1.74, 2.05, 1.78], high=2.05, above=[2.05])
    assert "above the 2.00x, kept in the median" in scaling.verdict(above)


def test_lesson_03_restart_row_prints_the_gap_as_its_section_does():
    code = _code("notebooks/03_ddp.ipynb")
    assert 'f"largest weight gap: {gap:.1e}' in code  # section 6's line
    assert 'f"gap {gap:.1e}", f"tolerance {S.restart_tolerance:.1e}"' in code  # the claims row, the same


def test_lesson_04_budget_and_dense_kernel_bound_print_one_way():
    code = _code("notebooks/04_compression.ipynb")
    assert 'f"budget {BUDGET:.3f}"' not in code and 'f"budget {BUDGET:.2f}"' in code  # "a budget of 0.01"
    # the headline column prints the dense-kernel bound "1.00x"; its line and claim row print it so too
    assert "bound of 1x" not in code and '"bound 1x (dense kernel)"' not in code
    assert 'f"of 1.00x: {row90.verdict}' in code and "dense-kernel bound of 1.00x: " in code


def test_section_2_answer_defines_noise_where_a_learner_first_meets_it():
    from utils.lessons.ddp import stepread
    line = stepread.answer(0.1160, 0.0870, 0.0826, 0.09, 0.13)  # the committed run: 116.0, 87.0, 82.6 ms
    assert "noise 9%, half the steps' range over their median: ± 0.09 on 1.05x" in line


def test_the_host_clock_is_named_as_python_s_timer_in_the_step_table_title():
    import inspect
    from utils.lessons.ddp import overlap
    assert "host (Python's perf_counter)" in inspect.getsource(overlap)  # not a bare "(perf_counter)"
