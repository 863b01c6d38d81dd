"""Tenth reading (t10_0304), lesson 03: why the later rank was late, read with the lesson's MOSTLY rule."""

from utils.lessons.ddp import overlap, stepread
from utils.lessons.ddp.overlap import late_because


def test_a_start_and_a_compute_part_of_about_the_same_size_read_about_half_each():
    # the tenth reading: left the barrier 1.1 ms later, computed 1.2 ms longer, 2.3 ms late (rank 0, so all
    # three are negative from rank 1's side): "mostly because its forward+backward took 1.2 ms longer" was false
    said = late_because(-1.1, -1.2, -2.3)
    assert said == ("about equally because it left the barrier 1.1 ms later and because its forward+backward "
                    "took 1.2 ms longer (about half each)")
    assert "mostly" not in said and "not because of the start" not in said


def test_each_side_of_mostly_names_the_larger_part_and_the_rest():
    assert late_because(0.5, 4.9, 5.4) == ("mostly because its forward+backward took 4.9 ms longer; leaving the "
                                           "barrier 0.5 ms later made the rest")
    assert late_because(4.0, 1.0, 5.0) == ("mostly because it left the barrier 4.0 ms later; computing 1.0 ms "
                                           "longer made the rest")
    # the edges of MOSTLY (0.6): 1.2 of 3.0 (0.4) and 1.8 of 3.0 (0.6) are still "about half", as printed
    assert late_because(1.8, 1.2, 3.0).endswith("(about half each)")
    assert late_because(1.2, 1.8, 3.0).endswith("(about half each)")


def test_one_part_alone_or_a_part_against_the_lag_is_named_with_its_sign():
    assert late_because(0.0, 5.4, 5.4) == ("because its forward+backward took 5.4 ms longer; the two ranks left the "
                                           "barrier 0.0 ms apart, so not because of the start")
    assert late_because(3.0, 0.0, 3.0) == ("because it left the barrier 3.0 ms later; the two forward+backward passes "
                                           "took the same time (0.0 ms apart), so not because it computed longer")
    against = late_because(4.0, -1.0, 3.0)  # left 4.0 ms later, computed 1.0 ms less: 3.0 ms late
    assert against == ("because it left the barrier 4.0 ms later; its forward+backward took 1.0 ms less, which "
                       "made up part of that")
    earlier = late_because(1.0, -5.0, -4.0)  # rank 0 late by 4.0 ms: computed 5.0 ms longer, left 1.0 ms earlier
    assert earlier == ("because its forward+backward took 5.0 ms longer; it left the barrier 1.0 ms earlier, "
                       "which made up part of that")


def test_the_drawn_line_reads_the_runs_case_from_the_ranks_times():
    # rank 0 left 1.1 ms after rank 1 and computed 1.2 ms longer: its last gradient came 2.3 ms later
    ranks = [{"rank": 0, "step": 0.1926, "exposed": 0.005,
              "steps": [{"start": 0.0011, "ready": 0.0842, "step": 0.1926, "calls": {}}]},
             {"rank": 1, "step": 0.1937, "exposed": 0.005,
              "steps": [{"start": 0.0, "ready": 0.0830, "step": 0.1937, "calls": {}}]}]
    text = overlap.drawn_text("by hand", ranks, 0)
    assert "rank 0's last gradient came 2.3 ms after rank 1's about equally because it left the barrier 1.1 ms " \
           "later and because its forward+backward took 1.2 ms longer (about half each)." in text


def test_the_sections_answer_comes_in_one_line_read_as_the_collapsed_block_reads_it():
    # the tenth reading: the section's answer stood in the middle of the cell's output; it is now printed first,
    # one line, with the same readings (``step_reads``) as the paragraphs collapsed under the charts
    run = stepread.answer(0.1937, 0.0927, 0.0965, 0.05, 0.17)  # the run the reader saw
    assert run == ("Answer: overlap within noise (1.04x apart, noise 5%, half the steps' range over their median: ± 0.05 on 1.04x); fewer messages paid: "
                   "2.09x faster, beyond 17% noise (± 0.36 on 2.09x).")  # t36_0304 #1: the ± beside the noise
    assert len(run) <= 2 * 110
    assert stepread.step_reads(0.1937, 0.0927, 0.0965, 0.05, 0.17) == ("within noise", "shorter")
    paid = stepread.answer(0.1937, 0.0927, 0.0800, 0.05, 0.17)
    assert "overlap paid: 1.16x faster, beyond 5% noise" in paid
    cost = stepread.answer(0.0937, 0.0927, 0.1200, 0.05, 0.05)
    assert "overlap cost: 1.29x slower, beyond 5% noise" in cost
    assert "fewer messages within noise (1.01x apart, noise 5%, half the steps' range over their median: ± 0.05 on 1.01x)" in cost
    assert "fewer messages cost: 1.50x slower" in stepread.answer(0.0800, 0.1200, 0.1200, 0.05, 0.05)


def test_the_readings_use_the_figures_as_printed():
    # 105.04 ms against 100.0 ms with a 5% noise: printed 105.0 against 100.0 is 5.0%, within the noise
    assert stepread.step_reads(0.2, 0.1000, 0.10504, 0.05, 0.05)[0] == "within noise"
    # a noise of 4.6% prints 5%: a 4.8% difference reads within it, as a reader of the page reads it
    assert stepread.step_reads(0.2, 0.1000, 0.1048, 0.046, 0.05)[0] == "within noise"
