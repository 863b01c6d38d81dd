"""Twenty-first reading (t21_0001), lesson 01 section 3: the split batch's piece off the fit is not called
"noisy", nor the fit "the steadier figure", beside a cell whose own tests say otherwise; both figures, as a range."""

from types import SimpleNamespace as NS

from utils.lessons.why_slow import link_report


def _case(piece_us: float, accuracy: float = 0.32):
    # the reader's run: α 95.7 µs, β 5.04 GB/s; 512 B at 130.7 µs against 95.8 µs by the fit (+27%)
    link = NS(fit=NS(sizes=[8, 512, 4096, 8192], alpha=95.7e-6, beta=5.04e9),
              seconds=[72.5e-6, piece_us * 1e-6, 107.2e-6, 125.3e-6], accuracy=accuracy)
    ids = NS(n_bytes=8192, measured=125.3e-6)
    pieces = NS(transfers=16, measured=16 * piece_us * 1e-6, predicted=1532.8e-6)
    return link, ids, pieces


def test_the_readers_run_gives_both_figures_as_a_range():
    said = link_report.noisy_piece_sentence(*_case(130.7), True)
    assert "noisy;" not in said and "steadier figure" not in said and "single point" not in said
    assert ("512-byte message sits +27% off the fit: more than the 10% one noisy median may miss by, within "
            "the fit's own ±32%; it took longer than the 8,192-byte one.") in said
    assert "By the fit, the 16 pieces take 1,532.8 µs (12.2x the single message)" in said  # 1,532.8 / 125.3
    assert "this run puts their cost between 1,532.8 and 2,091.2 µs." in said  # 16 x 130.7


def test_a_piece_below_the_fit_and_past_its_own_plus_minus():
    said = link_report.noisy_piece_sentence(*_case(60.0), True)
    assert "sits -60% off the fit" in said and "past the fit's own ±32%." in said
    assert "longer than the 8,192-byte one" not in said
    assert "between 960.0 and 1,532.8 µs." in said  # the measured end is the low one here


def test_a_piece_on_the_fit_within_noise_adds_nothing():
    assert link_report.noisy_piece_sentence(*_case(105.0), True) == ""  # (105.0 - 95.8) / 105.0 = +9%
    said = link_report.noisy_piece_sentence(*_case(107.0), True)  # +10.5%, printed +10%: within noise
    assert said == ""
    assert "+12%" in link_report.noisy_piece_sentence(*_case(109.0), True)  # past the 10%


def test_where_the_fit_cannot_predict_the_measured_figure_stands_alone():
    said = link_report.noisy_piece_sentence(*_case(130.7), False)
    assert "the measured 2,091.2 µs is this run's only figure for the 16 pieces" in said
    assert "By the fit" not in said and "noisy;" not in said


def test_gpus_with_the_same_datasheet_figures_share_one_dot_named_for_both():
    from utils.lessons.why_slow import hardware, plotting

    rows = [(n, p, b) for n, _, _, p, b, _ in hardware.datasheet_rows()]
    once = plotting.same_point_once(rows)
    assert "A100 PCIe 40GB and A100 SXM 40GB (same figures)" in [name for name, _, _ in once]
    assert len({(p, b) for _, p, b in once}) == len(once) == len(rows) - 1  # one dot per point
    fig = plotting.plot_hardware(rows, ("this CPU, 2 threads (bf16, measured)", 1.5e11, 1.6e10), dtype="16-bit")
    dots = [line for line in fig.axes[0].get_lines() if line.get_marker() == "o"]
    assert len(dots) == len(once)
    assert plotting.overlapping_labels(fig) == [] and plotting.labels_over_marks(fig) == []
    assert plotting.same_point_once([("a", 1.0, 2.0), ("b", 1.0, 3.0)]) == [("a", 1.0, 2.0), ("b", 1.0, 3.0)]
