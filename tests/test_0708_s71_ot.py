"""t32_0708 (still present from t31): lesson 08's optimizer row printed "here O/T = 0.110" with neither O nor
T on the page. ``report.bound_words`` now prints each kept run's O / T in ms, and ``ladder.Compared``
works O/T from those printed ms, so the median of the printed quotients is the printed O/T; where the runs
do not time AdamW, O is the profile's and T the runs' median step, both printed. Fabricated figures."""

from types import SimpleNamespace as NS

from utils import claims
from utils.lessons.putting_it_together import ladder, report

KEPT = NS(settings=NS(batch_per_worker=4, accumulate=1, context=256), workers=1)   # 1,024 tokens a step
RUNG = NS(removes_s=0.0139, bound=None, same_maths=True, bound_what="Amdahl")


def _compared(pairs):
    before = [{"tokens_per_s": 1024 / t, **({} if o is None else {"optimizer_s": o})} for t, o in pairs]
    return ladder.Compared(RUNG, KEPT, before, [])


def test_each_runs_o_and_t_print_and_o_over_t_is_their_median_quotient():
    c = _compared([(0.12204, 0.01344), (0.11996, 0.01331), (0.12549, 0.01401)])
    assert c.removable_runs == [(13.4, 122.0), (13.3, 120.0), (14.0, 125.5)]
    # 13.4 / 122.0 = 0.10984, 13.3 / 120.0 = 0.11083, 14.0 / 125.5 = 0.11155: the median 0.111
    said = report.bound_words(c)
    assert said == ("Amdahl; here O/T = 0.111 (the median of the kept runs' own, O / T in ms: 13.4 / 122.0, "
                    "13.3 / 120.0, 14.0 / 125.5), so 1/(1 - 0.111)")
    assert claims.as_printed(13.3 / 120.0, 3) == 0.111 and c.bound == 1 / (1 - 0.111)


def test_o_from_the_profile_prints_with_the_runs_median_step():
    c = _compared([(0.1220, None), (0.1250, None), (0.1200, None)])
    assert c.removable_runs == [] and c.kept_step_ms == 122.0
    said = report.bound_words(c)   # 13.9 / 122.0 = 0.1139
    assert said == ("Amdahl; here O/T = 0.114 (O the profile's 13.9 ms over T, the kept runs' median step, "
                    "122.0 ms), so 1/(1 - 0.114)")
