"""Lab 00 cell 10 (t20_labs03 item 2): ``LINK.fit`` is the unrounded fit; the learner's ``plan_split`` receives
it with alpha and beta rounded as the link's sentence prints them (``rounds.printed_fit``), and the markdown
says so."""

import json
from pathlib import Path

from utils.labs.fix_the_article import checks as lab
from utils.labs.fix_the_article import split
from tests.test_lab_fix_the_article import plan_split

NOTEBOOK = Path(__file__).resolve().parents[1] / "labs" / "00_fix_the_article.ipynb"


def test_the_plan_table_hands_your_code_the_fit_as_printed_not_link_fit():
    fit = lab.AlphaBeta(116.54e-6, 4.0237e9, (1,), (0.0,))
    link = split.machine.LinkFit("test link", fit, (116.54e-6,))  # as split.measure_link returns it
    seen = []

    def spy(model, x, lk, budget):
        seen.append((lk.alpha, lk.beta))
        return plan_split(model, x, lk, budget)

    lab.plan_table(spy, link.fit)  # as cell 20 calls it
    assert seen and all(f"{a * 1e6:.10f} {b / 1e9:.10f}" == "116.5000000000 4.0200000000" for a, b in seen)  # as printed: 116.5 µs, 4.02 GB/s
    assert link.fit.alpha == 116.54e-6  # LINK.fit itself stays unrounded


def test_cell_10_names_link_fit_and_says_your_code_gets_it_rounded():
    cells = json.loads(NOTEBOOK.read_text())["cells"]
    sources = ["".join(c["source"]) for c in cells]
    text = " ".join(next(s for s in sources if "## The link, measured now" in s).split())
    assert "is `LINK.fit`. Your code receives it as `link`, with alpha and beta rounded as the sentence" in text
    assert "one predicted time whole in its tables and to 0.1 µs beside the link table's rows" in text  # t42
