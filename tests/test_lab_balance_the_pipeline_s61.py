"""Lab 02 (t23_labs03 #2): the take-away tells a split the cap moved from one the layers' costs moved. Each
timed m's best split without the cap is found by exercise A's model (``reading.uncapped_splits``) and the
reading prints it beside the one that fits, with the learner's figures for both (``splits_by_m``), and says
whether the fewer micro-batches or the split the cap forced made the fewest timed run slower (``fewer_detail``).
Every branch on fabricated figures."""

from __future__ import annotations

from utils.labs.balance_the_pipeline import checks as lab
from utils.labs.balance_the_pipeline import reference as ref
from utils.labs.balance_the_pipeline.fewer import fewer_detail
from utils.labs.balance_the_pipeline.reading import splits_by_m, uncapped_splits
from utils.lessons.model_split import runs

M8 = [1.10, 1.15, 1.18, 1.20, 1.22, 1.25, 1.30]    # 1.20 ± 0.05
M16 = [1.48, 1.54, 1.57, 1.60, 1.63, 1.66, 1.70]   # 1.60 ± 0.06


def _row(m, split, speedups=M16):
    return runs.Row(4096, m, "1f1b", 1.0, 1.0, [0.5, 0.5], split_points=split, speedups=speedups)


def _run(splits, uncapped, predicted=None, cap=7.41e6):
    rows = [_row(m, s, M8 if m == 8 else M16) for m, s in splits.items()]
    figures = predicted or {8: 1.15, 16: 1.47, 32: 1.40, 64: 1.30}
    return lab.Pipelined(rows[1], rows, rows[1], 1.0, lab.MIN_MARGIN, {r.key: figures[r.m] for r in rows}, False,
                         "", cap=cap, uncapped=uncapped)


def _said(text):
    return " ".join(text.split())


def test_each_moved_split_is_the_best_without_the_cap_and_carries_the_learners_figure():
    hidden, cap = ref.HIDDEN_CAPPED[4]  # a hidden profile whose cap moves m=8's split
    configs = lab.reference_configs(hidden.profile, hidden.profile.batch, cap)
    moved = uncapped_splits(hidden.profile, configs, cap, lambda c: ref.reference_speedup(hidden.profile,
                                                                                          c.split_points, c.m))
    assert moved, "the profile no longer has a split the cap moves: pick another"
    for c in configs:
        free = ref.best_split_at(hidden.profile, c.m)
        if c.m in moved:
            assert moved[c.m] == (free, ref.reference_speedup(hidden.profile, free, c.m)) and free != c.split_points
        else:
            assert free == c.split_points
    assert uncapped_splits(hidden.profile, configs, None, lambda c: 1.0) == {}  # no cap: nothing it moved


def test_a_split_only_the_cap_moved_is_said_to_be_the_caps_doing():
    p = _run({8: (9,), 16: (10,), 32: (10,), 64: (10,)}, {8: ((10,), 1.55)})
    said = _said(splits_by_m(p))
    assert ("changed with m: m=8 [9], m=16 [10], m=32 [10], m=64 [10]. Without the cap, at m=8 it would be [10] "
            "(your model: 1.55x for [10], 1.15x for [9]): the best split would be [10] at every m timed, so the cap, "
            "not the layers' costs, moved the split at m=8.") in said


def test_a_split_the_costs_move_too_is_said_so():
    p = _run({8: (9,), 16: (10,), 32: (11,), 64: (11,)}, {8: ((10,), 1.55)})
    said = _said(splits_by_m(p))
    assert ("the best split would still change with m (m=8 [10], m=16 [10], m=32 [11], m=64 [11]), so the layers' "
            "costs moved it too; the cap moved it at m=8.") in said


def test_one_split_at_every_m_that_the_cap_held_back_is_named():
    p = _run({8: (9,), 16: (9,)}, {8: ((10,), 1.55), 16: ((10,), 1.60)})
    said = _said(splits_by_m(p))
    assert "ran the same best split that fits the cap on this profile, [9]" in said
    assert ("at m=8 it would be [10] (your model: 1.55x for [10], 1.15x for [9]); at m=16 it would be [10] (your "
            "model: 1.60x for [10], 1.47x for [9]): the best split would be [10] at every m timed, so the cap, not the "
            "layers' costs, moved the split at m=8 and m=16.") in said


def test_no_split_moved_and_no_cap_are_said_apart():
    assert "The cap moved no split" in splits_by_m(_run({8: (10,), 16: (10,)}, {}))
    assert "cap" not in splits_by_m(_run({8: (10,), 16: (10,)}, {}, cap=None))
    unpredicted = _said(splits_by_m(_run({8: (9,), 16: (10,)}, {8: ((10,), float("nan"))})))
    assert "at m=8 it would be [10]: the best split would be [10] at every m" in unpredicted


def _fewer(uncapped_figure, low=1.15, high=1.47):
    p = _run({8: (9,), 16: (10,)}, {8: ((10,), uncapped_figure)} if uncapped_figure else {}, {8: low, 16: high})
    return _said(fewer_detail(p))  # what the model says beyond the bubble: the collapsed block (t29_labs03)


def test_the_gap_is_put_on_the_forced_split_when_the_model_puts_the_ruled_out_split_past_the_fastest():
    said = _fewer(1.55)
    assert ("The cap ruled out [10] at m=8, for which your model predicts 1.55x, above m=16's 1.47x: by your "
            "model the split the cap forced, not the fewer micro-batches, makes that gap.") in said


def test_the_gap_is_shared_when_the_ruled_out_split_still_predicts_below_the_fastest():
    said = _fewer(1.30)
    assert ("for which your model predicts 1.30x, still below m=16's 1.47x: by your model the fewer micro-batches "
            "cost some of that gap, and the split the cap forced the rest.") in said


def test_the_gap_is_put_on_the_fewer_micro_batches_when_the_ruled_out_split_predicts_no_more():
    said = _fewer(1.15)
    assert "no more than the split that fits: by your model the fewer micro-batches, not the cap, make that gap" in said


def test_no_moved_split_adds_nothing_to_the_gap():
    assert "ruled out" not in _fewer(None)
