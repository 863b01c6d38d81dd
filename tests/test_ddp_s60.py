"""Lesson 03, twenty-first reading (t21_0304): worked ratios round half up as a reader does, and the two-worker
figures between the 10% and 20% lines get one reading (they differ; only the cause is left open)."""
from utils.claims import half_up, printed_ratio
from utils.lessons.ddp import scaling


def rounds(two=313.0):
    return {"ratio": 1.78, "one": 175.4, "two": two, "twos": [327.3, 306.9, 313.0]}


def test_section_2s_ratio_rounds_half_up():
    # 273 / 200 = 1.365 exactly: a reader prints 1.37x; ``:.2f`` on the binary 1.36499... gave 1.36x
    assert f"{printed_ratio(273, 200, 0):.2f}" == "1.36"  # the trap this guards against
    assert f"{half_up(printed_ratio(273, 200, 0), 2):.2f}" == "1.37"
    line = scaling.against_one_process(rounds(), 273.0, 200.0, "the launcher's 2 thread(s)")
    assert "Section 2 measured 1.37x, this section 1.78x" in line and "1.36x" not in line
    assert "section 2's process ran 1.14x one worker's rate" in line  # 200 / 175.4 = 1.1403


def test_the_table_ratios_round_half_up():
    assert scaling.against_table(273.0, 200.0) == 1.37  # 1.365, half up


def test_between_the_lines_the_figures_differ_and_only_the_cause_is_open():
    # the run the reader saw: 273 against 313.0 = 0.87x, beyond 10%, within 20%
    line = scaling.against_one_process(rounds(), 273.0, 200.0, "2")
    assert ("the two-worker figures differ (273 against 313.0 samples/s, 0.87x: beyond the 10% line for a "
            "difference, within the 20% line for a change of load): both differ") in line
    assert line.endswith("Whether the machine's load moved section 2's figure is not told apart here: one run "
                         "of its own length against paired rounds")
    assert "apart, within the 20% line" not in line  # the old second reading of the same pair
    # another setting (deterministic kernels): the difference is not read as the load's
    gpu = "section 2's run used deterministic kernels (section 7 needs them)"
    other = scaling.against_one_process(rounds(), 273.0, 200.0, "2", setting_differs=gpu)
    assert other.endswith(f"Not one setting ({gpu}), so the difference is not read as the load's")
    assert "not told apart" not in other
    # the other outcomes: within 10% (agree, nothing left open), beyond 20% (the load or the rounds' spread)
    agree = scaling.against_one_process(rounds(280.0), 273.0, 200.0, "2")
    assert "agree within 10% (273 and 280.0 samples/s)" in agree and "not told apart" not in agree
    far = scaling.against_one_process(rounds(400.0), 273.0, 200.0, "2")
    assert "beyond the 10% line for a difference" not in far and "not told apart" not in far


def test_the_step_ratios_product_rounds_half_up():
    from utils.lessons.ddp import overlap
    # 136.5 / 100.0 = 1.365: the printed factor is 1.37x (half up), so 1.37 x 1.00 multiplies to the total
    r = overlap.step_ratios(0.1365, 0.1000, 0.1000)
    assert r["product"] == 1.37 and r["rounding"] == ""
    # the other outcome: printed factors that multiply to another figure keep the clause
    r = overlap.step_ratios(0.15241, 0.08549, 0.08618)
    assert "multiply to 1.76x" in r["rounding"]
