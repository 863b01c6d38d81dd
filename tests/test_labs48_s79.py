"""Fortieth reading, labs 04-06: each printed figure says which figures it is worked from.

Lab 04: the drop worked from the image counts, where the rounded percentages subtract to another figure.
Lab 05: the take-aways' bound says where its C comes from; DataLoader's defaults never fit the memory allowance
unless they hold the least. Lab 06: a ratio between plans named as one beside the plain step's difference;
"spread" defined where the cost table uses it."""

from __future__ import annotations

from types import SimpleNamespace

from utils import devices
from utils.labs.feed_the_gpu import checks as lab05
from utils.labs.feed_the_gpu.against_bound import bound_source
from utils.labs.feed_the_gpu.memory import (DEPTH_SLACK, allowance_words, allowed_memory, defaults_memory,
                                            held_memory)
from utils.lessons.data_prefetch.plan import lesson_settings


def test_lab04_drop_names_the_percentages_difference_when_it_differs_from_the_counts():
    from utils.labs.compress_under_budget.checks import percentages_note

    # 612 -> 609 of 630: 97.14% - 96.67% = 0.47, the counts' 3 / 630 = 0.48 points
    assert percentages_note(612 / 630, 609 / 630, 630) == \
        "; from the counts: the rounded percentages subtract to 0.47"
    assert percentages_note(0.5, 0.49, 100) == ""   # 50.00% - 49.00% = 1.00, the counts' 1 / 100: nothing to say


def _solved_draw():
    """The first cpu-mode draw whose least memory is one loader's (lab 05's seed 0 on the committed run)."""
    sizes = lesson_settings(devices.plan(2, n_gpus=0), None)
    return next(s for s in (lab05.lab_setup(sizes, seed=k) for k in range(20)) if lab05._draw_needs(s).loaders == 1)


def test_lab05_take_aways_say_where_the_bound_takes_its_c():
    setup = _solved_draw()
    epoch = dict(reads=1, ahead=5, seconds=1.35, limit=1.30, load=1.06, compute=1.29, waited=0.05)
    try:
        lab05.LAST_EPOCH.clear()
        lab05.LAST_EPOCH.update(epoch, steps=1.30)   # the epoch's own steps set the bound
        flat = " ".join(lab05.take_aways(setup, 1.06, 1.28).split())
        assert "here L = 1.06 s and C = 1.28 s (each measured alone, above)" in flat, flat
        assert ("C = 1.29 s again, in the same run as your epoch; the bound took for C the 1.30 s your epoch's own "
                "steps took, more than C measured alone.") in flat, flat
        lab05.LAST_EPOCH.update(steps=None, limit=1.29)   # the other branch: C measured again sets it
        flat = " ".join(lab05.take_aways(setup, 1.06, 1.28).split())
        assert "your epoch; the bound is max(L/2, C) of these two." in flat, flat
    finally:
        lab05.LAST_EPOCH.clear()
    assert bound_source(None) == "the bound is max(L/2, C) of these two"


def test_lab05_memory_allowance_never_admits_the_dataloader_defaults_unless_they_hold_the_least():
    setup = SimpleNamespace(loader_batches=3, loaders=2)
    assert defaults_memory(setup) == 10   # 2 workers x 3 + 2 x prefetch_factor 2
    least = SimpleNamespace(memory=8, loaders=1)
    assert allowed_memory(setup, least) == 9 < defaults_memory(setup)   # 8 + 2 would have admitted the defaults
    assert held_memory(setup, 2, 4) > allowed_memory(setup, least)
    words = allowance_words(setup, least, 1, 5)
    assert "(allowed: 8 + 1 = 9, " in words and "2 would admit the 10 that DataLoader's defaults hold" in words
    far = SimpleNamespace(memory=4, loaders=1)     # far under the defaults: the whole slack
    assert allowed_memory(setup, far) == 4 + DEPTH_SLACK and "would admit" not in allowance_words(setup, far, 1, 1)
    dear = SimpleNamespace(memory=12, loaders=2)   # the defaults cannot meet it: the whole slack
    assert allowed_memory(setup, dear) == 12 + DEPTH_SLACK
    at = SimpleNamespace(memory=10, loaders=2)     # the defaults are the least: they pass
    assert allowed_memory(setup, at) >= defaults_memory(setup)


def test_lab05_real_draw_allowance_rejects_two_default_loaders():
    setup = _solved_draw()
    needs = lab05._draw_needs(setup)
    assert held_memory(setup, setup.loaders, 4) > allowed_memory(setup, needs) >= needs.memory


def test_lab06_plans_ratio_is_named_as_a_ratio_beside_the_plain_step_difference():
    from utils.labs.fit_the_budget.takeaways import cost_range

    costs = {"selective": 0.02, "every block": 0.1251, "chunked loss": 0.0155, "micro-batch": 0.0}
    said = cost_range([(False, 4, 4), ("selective", 4, 1), (True, 4, 4)], costs)
    assert said.endswith("the dearest 13% above the cheapest (1.15 / 1.02)") and "apart" not in said, said


def test_lab06_cost_table_defines_spread_where_it_uses_it():
    from utils.labs.fit_the_budget.checks import COST_KEYS, describe_costs

    rounds = {name: [1.0, 1.1, 1.2, 1.3] for name in (*COST_KEYS, "plain")}
    costs = dict.fromkeys(COST_KEYS, 0.1)
    assert "a spread being half the range of their middle half" in describe_costs(costs, rounds)
