"""The forty-first reading of lessons 03 and 04 (t41): the learner's items the t40 reader left open. The
Pareto plot's three MLP int8 variants at 2.9 MB printed "12 10 / 11" round one spot, hiding which one was
on the front."""
import matplotlib

matplotlib.use("Agg")

from utils.lessons.compression import pareto  # noqa: E402


def test_spot_label_names_the_filled_marker_first_where_a_spot_mixes_filled_and_open():
    assert pareto.spot_label([10, 11, 12], [False, True, False]) == "11 (filled), 10, 12"
    assert pareto.spot_label([12, 10], [False, False]) == "10, 12"  # all alike: no word needed
    assert pareto.spot_label([7], [True]) == "7"


def test_plot_front_gives_markers_on_one_spot_one_label_that_says_which_is_on_the_front():
    variants = [dict(family="MLP", mb=11.66, ms=12.0, acc=0.969, front=False),
                dict(family="MLP", mb=2.94, ms=10.2, acc=0.969, front=False),
                dict(family="MLP", mb=2.94, ms=3.1, acc=0.969, front=True),
                dict(family="MLP", mb=2.93, ms=4.7, acc=0.969, front=False)]
    size_panel, latency_panel = pareto.plot_front(variants, latency_batch=256).axes
    assert sorted(t.get_text() for t in size_panel.texts) == ["1", "3 (filled), 2, 4"]
    assert sorted(t.get_text() for t in latency_panel.texts) == ["1", "2", "3", "4"]  # apart: one each


def test_the_int4_note_says_what_torchaos_cpu_layout_is():
    import torch

    from utils.lessons.compression import plan

    runs, note = plan._int4_choice("cpu", torch.bfloat16)
    assert runs and "packed in the order its CPU kernel reads them" in note
