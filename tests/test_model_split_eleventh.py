"""Lesson 02's eleventh reading (session 53, round 3): a gap's cause read by the lesson's one noise rule on
the figures as printed, section 9's link verdicts read again at section 8's probe price, and the summary's
share of a step read over every traffic table. Synthetic rows, CPU only; each branch."""

from utils.lessons.model_split import link as link_module, report, runs


def _row(speedups, work, m=4, schedule="interleaved 1F1B"):
    """A batch-128 row, one device's work 0.40 s, its stages' ``work`` (s), its paired rounds ``speedups``."""
    median = sorted(speedups)[len(speedups) // 2]
    return runs.Row(128, m, schedule, 0.40 / median, 0.40, work, cpu=work, baseline_cpu=0.40, speedups=speedups)


def test_a_gap_outside_the_noise_of_the_works_prediction_is_waiting():
    # cell 47: split [3] at 1.37x ± 0.02 with the work predicting 1.47x read "within what these numbers resolve"
    r = _row([1.35, 1.36, 1.37, 1.38, 1.39], [0.18, 0.22])  # predicts 1.51x under its 1.60x bound
    v, d = report.printed(r)
    assert v + d < round(r.predicted, 2) < r.bound
    assert report.row_verdict(r) == (f"{report.GAP}{report.WAITING}: {v:.2f}x ± {d:.2f} under the work's "
                                     f"{r.predicted:.2f}x")


def test_a_gap_within_noise_of_the_works_prediction_is_what_the_work_predicts():
    # cell 52: attn/ffn 0.94x ± 0.02 against the work-scaled 0.93x (work 1.07x) under its 1x bound
    r = runs.Row(32, 1, "gpipe", 0.176 / 0.94, 0.176, [0.090, 0.098], cpu=[0.090, 0.098], baseline_cpu=0.176,
                 speedups=[0.92, 0.93, 0.94, 0.95, 0.96])
    assert f"{r.work_inflation:.2f}x {r.predicted:.2f}x" == "1.07x 0.93x"
    assert report.row_verdict(r) == report.GAP + report.PREDICTED + " (0.93x)"
    # the other outcome: the median above the prediction by more than its spread, under the bound, no cause
    r = runs.Row(32, 1, "gpipe", 0.176 / 0.97, 0.176, [0.090, 0.098], cpu=[0.090, 0.098], baseline_cpu=0.176,
                 speedups=[0.96, 0.965, 0.97, 0.975, 0.98])
    assert report.row_verdict(r) == report.GAP + report.UNRESOLVED


def test_a_real_part_of_the_loss_is_named_as_a_cause(monkeypatch):
    # cell 60: interleaved 1F1B's traffic reading says "a real part" (45%) beside "within what these numbers resolve"
    r = _row([1.48, 1.49, 1.50, 1.51, 1.52], [0.20, 0.20])  # under its 1.60x bound
    monkeypatch.setattr(link_module, "link_share", lambda row, a, b, price=1.0: 0.45 * price)
    monkeypatch.setattr(link_module, "losing_rows", lambda rows: list(rows))
    assert "is a real part of the loss at the fit's price" in report.row_verdict(r, (0.0, 1.0))
    monkeypatch.setattr(link_module, "link_share", lambda row, a, b, price=1.0: 0.10 * price)
    assert "the link's fit" not in report.row_verdict(r, (0.0, 1.0))


def _link():
    return runs.Link(100e-6, 2e9, "a fit", 0.5, True)


def test_section_9s_link_verdicts_are_read_again_at_the_probes_price(monkeypatch):
    # cell 60: 45%, 19% and 23% at the fit's price are "a real part" / "not it"; at 5.0x 225%, 95%, 115%
    rows = [_row([1.6] * 5, [0.2, 0.2], schedule=s) for s in ("interleaved 1F1B", "interleaved ZB", "ZBV")]
    shares = dict(zip(map(id, rows), (0.40, 0.19, 0.20)))
    monkeypatch.setattr(link_module, "losing_rows", lambda rs: list(rs))
    monkeypatch.setattr(link_module, "link_share",
                        lambda r, a, b, price=1.0: link_module.half_up(shares[id(r)] * round(price, 1), 2))
    said = report.reread_at_probe(rows, _link(), 5.0)
    assert said.startswith("Section 9's link verdicts read again at the probe's price (5.00x")
    assert "Section 9's reading changes for 3 of 3 rows" in said and "not decided by this run" in said
    assert "40% to 200%" in said
    # the other outcome: at 1.1x no word changes, and the reading stands
    said = report.reread_at_probe(rows, _link(), 1.1)
    assert said.endswith("Every row's reading of the link in section 9 (3 rows) stands at either price.")


def test_the_planning_verdict_reads_the_largest_share_it_is_given():
    # cell 65: section 5's 1.9% at 5.0x is 9.5%, under 10%; section 9's 2.6% at 5.0x is 13%, above it
    assert report.planning_verdict(0.019, 5.0).startswith("under the planning figure at both prices (9.5%")
    assert report.planning_verdict(0.026, 5.0) == ("under it at section 5's price, 13.0% at the probe's: "
                                                   "above it there")
