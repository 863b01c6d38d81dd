"""Lesson 02's twelfth reading (session 53, round 4): the block's note on the two baselines names the one
comparison the visible line makes, section 3's closing names no cost where the split is within noise of its
per-process reference, and a count of rounds above the bound says how the verdict reads it. The lesson's
markdown quotes only what the run prints. Synthetic rows, CPU only; each branch."""

import json
import re
from pathlib import Path

from utils.lessons.model_split import link, report, runs

NOTEBOOK = Path(__file__).resolve().parents[1] / "notebooks" / "02_model_split.ipynb"


def _markdown() -> str:
    cells = json.loads(NOTEBOOK.read_text())["cells"]
    return "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")


def test_the_baseline_note_names_the_comparison_the_visible_line_makes():
    # t36_02 #1: the visible line sets every row beside plain 1F1B timed in section 9's own rounds, so the note
    # names that comparison and no longer one beside section 5's speed-ups widened by the baselines' gap
    said = report.baseline_note(0.726, 0.682, 128)
    assert said.startswith("One device, batch 128: 726 ms in this section's rounds, 682 ms in section 5's.")
    assert ("the two differ by 6%: each row is read against its own bound, and beside plain 1F1B timed in this "
            "section's rounds, as the speed-ups' line above does, not beside section 5's speed-ups; the stages' "
            "work below one device's here may be this slower one-device step") in said
    assert "widened" not in said
    assert f"{report.baseline_gap(0.726, 0.682):.0%}" == "6%"
    # the other outcomes: a faster one-device step here (no word on the work), and a gap at most 5%
    faster = report.baseline_note(0.682, 0.726, 128)
    assert "differ by 6%" in faster and "slower one-device step" not in faster
    near = report.baseline_note(0.690, 0.682, 128)
    assert "the two are 1% apart, not past 5% (the gap past which a slower one-device step could make the stages' work read cheaper): each row is read against its own bound" in near
    assert "widened" not in near


def _naive(speedups, process_bounds):
    return runs.Row(32, 1, "gpipe", 0.209, 0.196, [0.097, 0.119], naive=True, alone=[0.097, 0.119],
                    speedups=list(speedups), process_bounds=list(process_bounds))


def test_the_closing_names_no_cost_where_the_split_is_within_noise_of_its_reference():
    # cell 19: 0.94x ± 0.02 "within noise of it (... covers 0.96x), no cause to read", then the closing line
    # named "the rest is the messages and the turn-taking"
    # t16_02 #2: judged round by round; these rounds' ratios (1.02, 0.98, 0.98, 0.98, 0.88) lie under their own
    # rounds' references, whatever the two medians (0.94x ± 0.02 covers 0.96x) say
    cell19 = _naive([0.86, 0.93, 0.94, 0.96, 0.99], [0.84, 0.95, 0.96, 0.98, 1.12])
    assert "the rest is the messages" in report.naive_closing(cell19)
    within = _naive([0.86, 0.93, 0.94, 0.96, 0.99], [0.85, 0.92, 0.95, 0.96, 1.00])  # ratios on both sides of 1
    assert "no cause to read" in report.naive_process_reading(within)
    said = report.naive_closing(within)
    assert ("slower than one device, as the bound allows, and within noise of the per-process reference, round "
            "by round (each round's speedup over its own round's reference: median 1.00x") in said
    assert "no cost of the messages or the turn-taking shows beyond them" in said and "the rest is" not in said
    # under the reference by more than the spread: the rest is named, as the line above the block names it
    under = _naive([0.90, 0.91, 0.92, 0.91, 0.90], [1.06, 1.07, 1.08, 1.09, 1.10])
    assert "the rest is the messages and the turn-taking" in report.naive_process_reading(under)
    assert report.naive_closing(under).endswith(
        "every round under it): the rest is the messages and the turn-taking, not timed one by one.")
    # above the reference by more than the spread: a finding, in both places, and no rest
    above = _naive([0.97, 0.98, 0.98, 0.99, 0.99], [0.90, 0.90, 0.90, 0.90, 0.90])
    assert "a finding to explain" in report.naive_process_reading(above)
    said = report.naive_closing(above)
    assert "but above the per-process reference by more than the paired spread, round by round" in said
    assert said.endswith(": a finding to explain.")
    assert "the rest is" not in said


def test_a_count_of_rounds_above_the_bound_says_how_the_verdict_reads_it():
    # cells 47, 59: "5 of 5 rounds above the bound" (layers, 1.03x ± 0.02) printed bare while cell 15's rule
    # read every count by the spread test
    over = runs.Row(128, 4, "1f1b", 0.380, 0.639, [0.270, 0.267], speedups=[1.74, 1.68, 1.74, 1.66, 1.70])
    assert report.headline_verdict(over).startswith("above the bound")
    assert report.headline_verdict(over).endswith("; 5 of 5 rounds above the bound, read with the median")
    # the other outcome: a median at the bound reads its rounds by the spread test, and says it
    at = runs.Row(128, 4, "1f1b", 0.397, 0.639, [0.270, 0.267], speedups=[1.43, 1.55, 1.61, 1.70, 1.77])
    said = report.headline_verdict(at)
    assert said.startswith("at the bound (within noise)") and "read with the median" not in said
    # per round (1.61 + 0.08 = 1.69): 1.70x and 1.77x beyond the spread, 1.61x within it
    assert said.endswith("2 of them beyond the rounds' spread of the median (± 0.08): a finding to explain; 1 within "
                         "it, which explains it")
    # cell 15 states both readings, in the words the verdicts print
    rule = " ".join(_markdown().split())
    assert 'rounds above the bound, read with the median' in rule and "whatever the median:" not in rule


def test_the_markdown_quotes_only_labels_the_link_reading_prints():
    # cell 37 quoted a "small" label; the printed line's labels are link._SAYS's keys
    text = " ".join(_markdown().split())
    quoted = re.search(r"states the shares behind its labels, (.*?), each read as printed", text).group(1)
    labels = re.findall(r'"([^"]+)"', quoted)
    assert labels and set(labels) == set(link._SAYS)


def test_section_9s_markdown_holds_whether_or_not_the_probes_price_stands():
    # cell 62: "section 8's probe's too, as the summary reads it" while the run refuted the probe's price
    text = " ".join(_markdown().split())
    assert "as the summary reads it" not in text
    assert ("and section 8's (its probe of one message, unless section 8's placements refute the probe; the "
            "summary names the price used)") in text  # t26_02, t27_02, t28_02 other
    # the summary prints each outcome: the probe's price where it stands, the placements' ceiling where not
    assert "at the probe's" in link.planning_verdict(0.043, 2.3)
    assert "at the most this launch's placements allow (1.80x; the probe's 2.30x refuted)" in \
        link.planning_verdict(0.043, 2.3, 1.8)
