"""Twenty-sixth reading, lab 01 (t26_labs03 #2): token ids counted at 4 bytes, not int64's 8, fail check 1 on a
hidden lookup whose ids weigh enough to tell, and the failure names the slip (the ids' bytes), not a value."""

from __future__ import annotations

import torch

from utils.labs.predict_the_roofline import checks as lab
from utils.labs.predict_the_roofline import mistakes
from utils.labs.predict_the_roofline import reference as lab_ops

IDS_NAMED = "the ids' bytes: token ids are int64, 8 bytes each"


def _right(op):
    return lab_ops.done_flops(op), lab_ops.moved_bytes(op)


def test_a_hidden_lookup_has_ids_heavy_enough_that_ids_at_4_bytes_leave_the_tolerance():
    lookups = [op for op in lab.UNSEEN if op.kind == "embedding"]
    off = [4 * op.ids.numel() / lab_ops.moved_bytes(op) for op in lookups]
    assert max(off) > 3 * lab.TOLERANCE, off  # far past it, not just past it


def test_ids_at_4_bytes_or_at_the_tables_element_size_are_named():
    ids = torch.tensor([1, 2, 2, 2, 5, 9, 9, 3])  # fabricated: 8 ids, 5 rows named
    for dtype in (torch.float32, torch.bfloat16):
        op = lab._embedding("e", 10, 2, ids, dtype)
        flops, right = _right(op)
        n = ids.numel()
        for per_id in (4, dtype.itemsize):
            said = mistakes.count_mistake(op, 0, right - n * (8 - per_id), flops, right, lab.TOLERANCE)
            assert said is not None and IDS_NAMED in said, (dtype, per_id, said)
            assert str(right) not in said


def test_the_right_ids_are_not_named():
    op = lab._embedding("e", 10, 2, torch.tensor([1, 2, 2, 5]), torch.bfloat16)
    flops, right = _right(op)
    assert mistakes.count_mistake(op, 0, right, flops, right, lab.TOLERANCE) is None
