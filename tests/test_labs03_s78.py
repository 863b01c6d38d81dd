"""Reader t39 on labs 00-03 (session 78): the sentences it found misleading or lost in, on any run."""

from utils.labs.fix_the_article import checks as lab

# --- lab 00, cell 11: "residuals up to ±50%" said of sizes whose residuals ran -31% to +21% -------------------

SIZES = (4, 1024, 16384, 65536, 262144, 1048576, 4194304)
MEASURED_US = (58.4, 130.2, 88.4, 64.5, 150.2, 371.2, 1429.9)  # the committed run's table


def _committed_link():
    bare = lab.AlphaBeta(64.7e-6, 3.35e9, SIZES, (0.0,) * 7)
    measured = tuple(t * 1e-6 for t in MEASURED_US)
    fit = lab.AlphaBeta(64.7e-6, 3.35e9, SIZES, tuple((t - bare.time(n)) / t for n, t in zip(SIZES, measured)))
    return lab.split.machine.LinkFit("gloo loopback, 2 processes", fit, measured)


def test_the_band_residuals_leave_out_the_size_the_band_leaves_out():
    said = " ".join(lab.link_sentence(_committed_link()).split())
    assert ("every size but 1,024 bytes measured 0.77-1.27x of what one alpha and one beta predict for it "
            "(residuals -31% to +21% of the measured time), and 1,024 bytes 2.00x (residual +50%), so a time "
            "it predicts is good to about that band") in said, said
    assert "up to ±50%" not in said


def test_a_band_with_every_size_keeps_its_largest_residual():
    link = _committed_link()
    two = lab.AlphaBeta(link.fit.alpha, link.fit.beta, SIZES[:2], link.fit.residuals[:2])
    said = " ".join(lab.link_sentence(lab.split.machine.LinkFit("gloo", two, link.seconds[:2])).split())
    assert "(residuals up to ±50% of the measured time), so a time" in said, said


# --- lab 00, cell 26: the section "Predicted against measured" answers it, visibly, before the rounds' rule --------

ROUNDS = {"8 MB": [2.5] * 9, "6.5 MB": [1.8] * 9, "6 MB": [2.1] * 9}
BAND = ((0.77, 1.27), None)


def test_the_visible_answer_opens_with_measured_over_predicted():
    from utils.labs.fix_the_article.answer import miss_answer

    said = " ".join(miss_answer(ROUNDS, None, None, {"8 MB": 2.58, "6.5 MB": 1.31, "6 MB": 2.26},
                                dict.fromkeys(ROUNDS, BAND)).split())
    assert said.startswith("Measured over your prediction, plan by plan: 2.58x, 1.31x, 2.26x (the table's "
                           "medians), outside the fit's band (how far its own sizes ran from it) in 3 of 3."), said
    assert "The rounds showed the split's messages longer" in said


def test_predictions_inside_the_band_say_no_miss_past_the_fit():
    from utils.labs.fix_the_article.answer import miss_answer

    said = " ".join(miss_answer(ROUNDS, None, None, {"8 MB": 1.27, "6.5 MB": 0.77, "6 MB": 1.0},
                                dict.fromkeys(ROUNDS, BAND)).split())
    assert "within the fit's band (how far its own sizes ran from it) in all 3: no miss past the fit's own" in said


# --- lab 03, cell 7: the rank that finished says it left the group, the fact the other rank's error follows ------

def test_a_rank_that_finished_says_it_left_the_process_group(monkeypatch):
    from utils.labs.ddp_from_scratch import checks as ddp_lab

    ranks = [{"done": 3, "of": 6, "calls": ["lesson_03_loop (checks.py): backward()"],
              "failed": "RuntimeError: Read error: Connection reset by peer"},
             {"done": 3, "of": 3, "failed": None}]
    monkeypatch.setattr(ddp_lab, "launch", lambda *args, **kwargs: ranks)
    printed = ddp_lab.run_lesson_03_loop([[0] * 24, [0] * 12])
    assert max(map(len, printed.splitlines())) <= 110, printed
    said = " ".join(printed.split())
    assert ("rank 1: 3 optimizer steps taken, of the 3 micro-batches in its part; no error: its loop returned, "
            "and it left the process group") in said, said
    assert "rank 0: 3 optimizer steps taken, of the 6 micro-batches in its part; then raised RuntimeError" in said


# --- lab 00, cell 25: the section's question first; the rule that reads the rounds is the block's ---------------

def test_lab_00s_predicted_against_measured_asks_its_question_and_points_to_the_rule():
    from pathlib import Path

    import nbformat

    cells = nbformat.read(Path(__file__).resolve().parents[1] / "labs/00_fix_the_article.ipynb", as_version=4).cells
    text = " ".join(cells[25].source.split())
    assert text.startswith("## Predicted against measured How near did your predictions come?")
    assert "in the block below, with the rule that reads them, a sign test" in text
    assert "a round below 1 whose ping-pong jumped" in text  # the term the answer uses, defined
    assert len(text.split()) < 150, len(text.split())  # under the reader's ~150; was 193, rule before result
