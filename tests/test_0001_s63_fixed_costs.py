"""Twenty-fifth reading (t25_0001 #1), lesson 01: the fixed costs d of the axes that fit differ only where their
gap passes the ± printed beside them (the course's noise rule) as well as ±10% of the shortest step of those
axes; a failing axis's steps do not set that step (every branch)."""

from utils.lessons.why_slow import report, scaling

SPREAD = (1.0, -1.5, 0.5, 0.0)  # misses that sum to zero and to zero times FLOPs: the fit keeps c and d


def axis(name, d, miss=0.0, rate=1.4e-11, first=0.7e9):
    """Four points of step time = d + rate x FLOPs, off by ``miss`` x SPREAD (seconds)."""
    flops = (first, 2 * first, 4 * first, 6 * first)
    return [scaling.ScalePoint(name, i + 1, d + rate * f + miss * m, f, 100 * (i + 1), 1)
            for i, (f, m) in enumerate(zip(flops, SPREAD))]


def reader_run():
    """The reader's run: width d +7.7 ± 0.6 ms, context +8.9 ± 1.4 ms; depth's fit misses (its short steps
    must not set the tolerance)."""
    return {"width": axis("width", 7.7e-3, -0.5e-3, first=0.3e9),
            "depth": axis("depth", 0.2e-3, 1e-3, first=0.3e9),
            "context": axis("context", 8.9e-3, 1.0e-3, first=0.3e9)}


def printed_noise(pts):
    return round(scaling.fixed_cost_noise(pts) * 1e3, 1)


def test_the_reader_case_is_within_the_printed_noise_and_no_finding():
    series = reader_run()
    assert report.scaling_holds(series, scaling.fit) == {"width": "holds", "depth": "off", "context": "holds"}
    assert printed_noise(series["width"]) + printed_noise(series["context"]) >= 1.2
    from utils.lessons.why_slow import scaling_report

    assert scaling_report.fixed_cost_agreement(series, scaling.fit) == "within noise"
    assert not report.fixed_costs_differ(series, scaling.fit)
    said = report.fixed_cost_sentence(series, scaling.fit)
    assert "apart by no more than the two ± printed beside them added together" in said
    assert "cannot differ" not in said
    assert said.endswith("so its d is no second fixed cost from a fit that holds.")
    verdict = report.scaling_verdict(series, scaling.fit)
    assert "the axes that fit agree on d within its ± (width +7.7 ms, context +8.9 ms)" in verdict
    assert "finding" not in verdict and "every axis" not in report.scaling_failures(series, scaling.fit)


def test_the_same_gap_past_the_printed_noise_is_a_finding():
    series = reader_run()
    series["width"] = axis("width", 7.7e-3, -0.1e-3, first=0.3e9)
    series["context"] = axis("context", 8.9e-3, 0.05e-3, first=0.3e9)
    assert printed_noise(series["width"]) + printed_noise(series["context"]) < 1.2
    assert report.fixed_costs_differ(series, scaling.fit)
    said = report.fixed_cost_sentence(series, scaling.fit)
    assert "cannot differ by which size grows (they differ by more than the ± printed beside each d" in said
    assert report.scaling_verdict(series, scaling.fit).endswith(
        "a finding across the axes that fit: the fixed cost d differs (width +7.7 ms, context +8.9 ms), "
        "so no one c and d model the whole step")


def test_the_tolerance_takes_the_shortest_step_of_the_fitting_axes_only():
    """Exact fits (no ±): a 1.2 ms gap passes 10% of the failing depth's short step but not the fitting axes'."""
    series = {"width": axis("width", 7.7e-3), "depth": axis("depth", 0.2e-3, 1e-3, first=0.3e9),
              "context": axis("context", 8.9e-3)}
    assert min(p.seconds for p in series["depth"]) < 0.012  # 10% of it is under the 1.2 ms gap
    from utils.lessons.why_slow import scaling_report

    assert scaling_report.fixed_cost_agreement(series, scaling.fit) == "within tolerance"
    said = report.fixed_cost_sentence(series, scaling.fit)
    assert "they differ by 1.2 ms, no more than 10% of the shortest step of the axes that fit (17.5 ms)" in said
