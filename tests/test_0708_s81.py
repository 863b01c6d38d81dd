"""Forty-second reading (t42_0708), lessons 07 and 08: a round above its bound, a compile's payback and a
named cause are each judged against the noise the page prints, and the 8-bit AdamW total is worked from its
printed parts. Fabricated figures, except where a test names the reader's run."""

import re

from test_0708_s67 import _row
from test_guide import LARGE
from test_putting_it_together_printed import _compared

from utils import claims
from utils.lessons.putting_it_together import fit, ladder, report
from utils.lessons.tensor_parallel import verdicts


def test_a_round_above_its_bound_within_its_spread_is_not_a_finding():
    # the reader's run: optimizer 1.03x ± 0.08, one round 1.15x against the bound 1.14x: 1.15 - 0.08 = 1.07
    base = {"step": "baseline", "bound": None, "within": True, "ratios": []}
    noisy = _row("optimizer", 1.03, 1.14, [0.99, 1.03, 1.15])
    [(step, said, finding)] = report.rounds_above_bound([base, noisy])
    assert step == "optimizer" and not finding and "a finding to explain" not in said
    assert "within its rounds' spread (1.15 - 0.08 = 1.07, not above 1.14x): noise, not a finding" in said
    # the other outcome: a round that clears the bound by more than its ± is a finding
    far = _row("optimizer", 1.10, 1.14, [1.09, 1.10, 1.13, 1.30])
    [(_, said, finding)] = report.rounds_above_bound([base, far])
    assert finding and said.endswith("a finding to explain.") and "beyond its rounds' spread" in said


def test_a_compile_within_noise_works_no_payback_from_its_median():
    # the reader's run: compile 1.01x ± 0.03 (its low end 0.98x) printed "pays back after 15,909 steps"
    c = _compared("compile", 0.1105, [1.01, 0.98, 1.04], first_step_s=17.6)
    assert not ladder.paid(c.ratios)
    full, brief = ladder.compile_break_even(c, 5000), ladder.brief_reason(c)
    assert "pays back after" not in full + brief and "steps" not in brief
    assert "no break-even is worked from it" in full and "no saving shown" in brief
    # the other outcome: a compiled step no faster than eager never pays back
    slow = ladder.compile_break_even(_compared("compile", 0.1105, [0.97, 0.96, 0.99], first_step_s=17.6))
    assert "compile never pays back" in slow


def test_a_compute_gap_within_the_tolerance_names_no_cause():
    # the reader's run: rank 1 computed 0.55 ms longer, within 5 % of 13.15 ms (0.66 ms), 82% of a 0.67 ms wait
    r = verdicts.wait_reading([{"compute": 0.01315, "waited": 0.00067}, {"compute": 0.01370, "waited": 0.0}], 0)
    assert (r["gap"], r["allowed"], r["share"]) == (0.55, 0.66, 82) and not r["late"]
    said = verdicts.wait_words(r)
    assert "the wait is rank 1 finishing its compute late" not in said
    assert said.endswith("a gap within the tolerance is noise, so this run does not show rank 1's compute as "
                         "the wait's cause")
    # the other outcome: beyond the tolerance, the cause is named
    beyond = verdicts.wait_reading([{"compute": 0.01315, "waited": 0.00090}, {"compute": 0.01400, "waited": 0.0}], 0)
    assert beyond["late"] and verdicts.wait_words(beyond).endswith("the wait is rank 1 finishing its compute late")


def test_each_total_redoes_from_its_printed_parts():
    # the reader's run: 12 B x 6.86 bn + 0.729 GB printed 83.1 GB; a reader adds 82.32 + 0.729 = 83.0
    for n in (1, 2):
        for option in fit.options_when_nothing_fits(LARGE, n, 1e12):
            parts = re.search(r"x (\d+\.\d+) bn(?:/(\d))?.* \+ (\d+\.\d+) GB activations = (\d+\.?\d*) GB$",
                              option.arithmetic)
            per_param = {"8-bit": (12 if n == 1 else 10) / n, "offload": 4 / n, "lora": 2 / n,
                         "qlora": fit.NF4_BYTES}[option.kind]
            adapter = re.search(r"16 B x (\d+\.?\d*) M adapter", option.arithmetic)
            worked = (per_param * float(parts[1]) + float(parts[3])
                      + (16 * float(adapter[1]) / 1e3 if adapter else 0.0))
            assert claims.sig_text(worked) == parts[4], option.arithmetic
