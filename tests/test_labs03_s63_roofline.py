"""Lab 01, reading t25_labs03: the column 'predicted above' says what it holds for the attentions at the
turning length, never printed before the exercises (#4); the lookup near its write-allocate bound says where it
lies against it (t24: "108% of that bound" inside the spread); check 3 names each op beside its ratio. Every
branch on fabricated figures."""

from types import SimpleNamespace as NS

from utils.labs.predict_the_roofline import checks as roof_checks
from utils.labs.predict_the_roofline import lookup, report
from tests.test_lab_predict_the_roofline import CEILINGS, SETUP, count, fake_measure, turning_length


def _said(text):
    return " ".join(text.split())


def _c(flops, bandwidth):
    return NS(flops=flops, bandwidth=bandwidth, ridge=flops / bandwidth)


def _row(name, flops, n_bytes):
    return NS(op=NS(name=name), flops=flops, n_bytes=n_bytes)


BEFORE, NOW = _c(151.7e9, 15.8e9), _c(177.6e9, 15.3e9)  # ridges 9.60 and 11.61


def test_the_column_before_says_what_it_holds_for_rows_added_since():
    plain = _said(report.predicted_again_sentence(BEFORE, NOW))
    assert "The column 'predicted above' repeats the predictions printed before the exercises" in plain
    both = [_row("causal attention, length 76, batch 91", 545_312_768, 56_655_872),  # 9.63 >= 9.60
            _row("causal attention, length 608", 3.79e8, 4.98e6)]
    said = _said(report.predicted_again_sentence(BEFORE, NOW, both))
    assert ("the lab's ops as printed there; causal attention, length 76, batch 91 and causal attention, length "
            "608, not printed there, worked the same way, each by the limit those ceilings give it (compute for "
            "both; the 'limit' column is on the ceilings measured here)") in said
    assert "repeats" not in said
    apart = [_row("short", 1e8, 1e8), _row("long", 3.79e8, 4.98e6)]  # intensity 1: memory; 76: compute
    said = _said(report.predicted_again_sentence(BEFORE, NOW, apart))
    assert "(memory for short, compute for long; the 'limit' column" in said


def _bound():
    op = NS(bytes=12.95e6 + 33.55e6, written=33.55e6)
    return lookup.lookup_ceiling(op, "fp32 memory bandwidth, 1 thread, STREAM add, 32 MiB arrays", cpu=True)


def test_a_lookup_near_its_bound_says_where_it_lies_against_it():
    bound = _bound()  # 0.77x the roof
    # t27_labs03: above the bound, its spread excuses nothing (each op keeps its fastest run), wide or tight
    for spread in (0.33, 0.02):
        inside = _said(lookup.lookup_sentence(0.83, spread, bound))  # 108% of it
        assert "83% of the roof is 108% of that bound: above that bound by 6 points of the roof. Its rounds' " \
               f"spread of {spread:.0%} cannot lift it there" in inside and "as fast as the memory allows" in inside, inside
        assert "within its rounds' spread" not in inside and "110%" not in inside
    under = _said(lookup.lookup_sentence(0.73, 0.30, bound))  # 95% of it
    assert "95% of that bound: at or below that bound, but 80% of it or more: reading only" in under


def test_check_3_names_each_op_beside_its_ratio():
    attention = NS(name="causal attention, length 1024, 8 heads of 64, batch 1", kind="attention",
                   dims={"length": 76, "batch": 1})
    assert roof_checks.short_name(attention) == "causal attention, length 76, batch 1"
    lookup_op = NS(name="embedding 32768x1024, 8,192 tokens", kind="embedding", dims={})
    assert roof_checks.short_name(lookup_op) == "embedding 32768x1024"
    verdict = roof_checks.check_measured(count, turning_length, CEILINGS, SETUP, show=False,
                                         measure=fake_measure({}))
    shown = _said(verdict.message).split("measured / predicted: ")[1]
    assert shown.startswith(roof_checks.short_name(SETUP.ops[0]) + " ")
    assert all(roof_checks.short_name(op) in shown for op in SETUP.ops)
