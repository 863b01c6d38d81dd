"""Lesson 07, the twenty-third reading (t23_0708 #2): the claims table sets the cost model's prediction over
every width swept beside the largest width's, and its crossover width beside the measured one (#2); the miss
table's split step is the wall time the width table prints (#6). Fabricated figures only."""
from utils.lessons.tensor_parallel import model_claims, report


def _rows(pairs):
    return [{"width": w, "speedup": s, "predicted_speedup": p} for w, s, p in pairs]


def test_the_prediction_row_gives_every_width_not_the_largest_alone():
    rows = _rows([(32, 0.22, 0.61), (64, 0.51, 0.86), (128, 0.67, 1.31), (256, 0.92, 1.67), (512, 1.64, 1.86)])
    claim = model_claims.prediction(rows)
    assert claim.measured == "1.64x measured at width 512" and claim.against == "model 1.86x"
    # as section 4 prints them: 0.36, 0.59, 0.51, 0.55, 0.88
    assert [model_claims.measured_over_model(r) for r in rows] == [0.36, 0.59, 0.51, 0.55, 0.88]
    assert claim.verdict == ("88% of the prediction at width 512; 36% to 88% over widths 32 to 512; below the "
                             "model at every width")
    assert "widths 32 to 512" in claim.claim


def test_the_prediction_row_names_a_side_only_where_every_width_is_on_it():
    above = model_claims.prediction(_rows([(64, 1.2, 1.0), (128, 1.5, 1.4)]))
    assert above.verdict.endswith("107% to 120% over widths 64 to 128; above the model at every width")
    both = model_claims.prediction(_rows([(64, 0.8, 1.0), (128, 1.5, 1.4)]))
    assert both.verdict.endswith("80% to 107% over widths 64 to 128")
    exact = model_claims.prediction(_rows([(64, 1.0, 1.0), (128, 0.9, 1.0)]))   # 1.00 is neither side
    assert "every width" not in exact.verdict
    one = model_claims.prediction(_rows([(512, 1.64, 1.86)]))
    assert one.verdict == "88% of the prediction at width 512"


def test_the_crossover_row_sets_the_measured_width_beside_the_model_s():
    widths = [32, 64, 128, 256, 512]
    later = report.crossover_miss(79, 256, 512, widths)
    claim = model_claims.crossover("width 256 to 512", "79 (59 to 96 with every all-reduce off by the fit's 30%)",
                                   later)
    assert claim.measured == "width 256 to 512" and claim.against.startswith("model width 79 (59 to 96")
    assert claim.verdict == "the measured width is 3.2x to 6.5x the model's"
    agree = model_claims.crossover("width 64 to 128", "79", report.crossover_miss(79, 64, 128, widths))
    assert agree.verdict.endswith("they agree")


def test_the_miss_table_s_step_is_the_wall_time_the_width_table_prints():
    """Reader: the width table printed the fastest split step 22.87 ms, the miss table the same step 22.86
    (19.96 + 2.90, each part rounded on its own). Now the step is the wall as printed, and the compute is the
    step less inside, so the rows still add up."""
    from tests.test_tensor_parallel_as_printed import _miss

    m = _miss()
    m["ranks"][0].update(step=0.022866, compute=0.019964, allreduce=0.002902, waited=0.0, after_both=0.002902,
                         after_other=0.0)
    rows = {row[0].strip(): row[1:] for row in report.miss_table(m, "").rows}
    assert rows["the split step"][1] == "22.87"                       # the wall, as the width table prints it
    assert rows["inside the 2 all-reduces"][1] == "2.90"
    assert rows["compute, outside the all-reduces"][1] == "19.97"     # 22.87 - 2.90


def test_the_all_reduce_fit_is_set_beside_lesson_00_s_one_way_link_and_kept_for_lesson_08(tmp_path, monkeypatch):
    """t23_0708 #3: 314 us and 1.28 GB/s beside lesson 00's 106 us and 3.98 GB/s: 32% (1.28 / 3.98)."""
    from types import SimpleNamespace as NS

    from utils import ledger
    from utils.lessons.putting_it_together import allreduce_fit
    from utils.lessons.tensor_parallel import link_words

    link = NS(alpha=314e-6, beta=1.28e9, sizes=[8, 512, 4096], worst_residual=0.30)
    kept = NS(name="gloo loopback, 2 processes", fit=NS(alpha=106e-6, beta=3.98e9))
    said = link_words.beside_send_recv(link, None, kept)
    assert said.startswith("Lesson 00's one-way send/recv on gloo loopback, 2 processes: alpha 106 us, beta "
                           "3.98 GB/s; this all-reduce's beta is 32% of it.")
    assert "sums what it receives on the workers' own cores" in said
    monkeypatch.setattr(link_words, "kept_send_recv", lambda plan: None)
    assert link_words.beside_send_recv(link, None) == ""          # no link kept on this path: nothing said
    monkeypatch.setenv(ledger.ENV, str(tmp_path))
    link_words.record(link, "gloo")
    assert link_words.RECORD == allreduce_fit.RECORD
    assert allreduce_fit.lesson_07() == (314e-6, 1.28e9, 0.30)   # lesson 08 reads what lesson 07 kept


def test_the_crossover_table_says_its_f_is_not_what_this_machine_s_model_used():
    """t23_0708 other 1: 0.085 TFLOP/s beside width 79 gave about 105 in the closed form, not 79: the row's
    model is built from each width's step, so its F is marked as not used; the closed form's row says nothing."""
    table = report.crossover_table((8.5e10, 314e-6, 1.28e9, 4), [], 256, here_width=79.0)
    assert table.rows[0][2] == "0.085 (fp32; the largest width's, not used: the model uses each width's step)"
    assert report.crossover_table((8.5e10, 314e-6, 1.28e9, 4), [], 256).rows[0][2] == "0.085 (fp32)"
