"""Lab 01 (``labs/01_predict_the_roofline.ipynb``), predict the roofline: the checks of the learner's predictions.

The learner writes ``count(op)`` (an op's FLOPs and the bytes it must move) and ``predict(flops, n_bytes,
ceilings)`` (memory- or compute-bound, and its time under the roofline), then sets the predictions beside the
ops measured in the run. Lesson 01 (``notebooks/01_why_slow.ipynb``, section 2) teaches every formula; the
reference counts are its own (``utils.lessons.why_slow.roofline``).

    SETUP = lab_setup(lesson_settings(devices.plan(1), devices.hardware()))   # this machine's ops and sizes
    check_counts(count)                       # FLOPs and bytes of every op, exact; names the classic mistakes
    check_predictions(predict)                # bound and time on ceilings given by the check, exact
    check_measured(count, predict, SETUP)     # your predicted times against the ops measured now
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import torch

from utils import checks
from utils.lessons.why_slow import roofline
from utils.lessons.why_slow.peak import Ceilings
from utils.lessons.why_slow.plan import LessonSettings
from utils.tables import Table

BANK = "labs/predict_the_roofline"  # the lab's hints: utils/labs/predict_the_roofline/hints.toml
KINDS = ("matmul", "add")


@dataclass(frozen=True)
class LabOp:
    """One op the learner predicts: ``matmul`` is (m x k) @ (k x n), shape (m, k, n); ``add`` is x + y into a
    new tensor, all three of shape (rows, cols)."""

    name: str
    kind: str
    shape: tuple[int, ...]
    dtype: torch.dtype = torch.float32

    def reference(self, device: str = "cpu") -> roofline.Op:
        """Lesson 01's op: its FLOPs and bytes by the lesson's formulas, and the call that the check times."""
        if self.kind == "matmul":
            dtype = {torch.float32: "fp32", torch.bfloat16: "bf16", torch.float16: "fp16"}[self.dtype]
            return roofline.matmul_op(*self.shape, dtype=dtype, device=device, name=self.name)
        op = roofline.rowwise_op("add", *self.shape, device=device)  # fp32: its bytes scale to the op's dtype
        return roofline.Op(self.name, op.flops, op.bytes // 4 * self.dtype.itemsize, op.make)


@dataclass(frozen=True)
class LabSetup:
    """The lab's ops and how the measurement check judges them (``lab_setup(S)`` makes it)."""

    settings: LessonSettings  # lesson 01's decisions: device, threads, the ceilings' sizes, the label
    ops: tuple[LabOp, ...]  # predicted and measured
    extra: tuple[LabOp, ...]  # counted only: a non-square matmul and two bf16 ops
    slower: float = 2.0  # measured may take up to 2x the prediction (x (1 + its spread)): these ops reach half
    # of their roof or more on a quiet machine
    faster: float = 0.35  # and may beat it by 35% (caches, a noisy bandwidth) or the measurement's spread,
    # whichever is larger
    rounds: int = 5  # alternating rounds of (ceilings, ops), as lesson 01 measures its roofline


def lab_setup(S: LessonSettings) -> LabSetup:
    """Lab 01's ops at lesson 01's sizes for this machine: a large square matmul, the GPT's first feed-forward
    matmul, a matrix-vector product and an elementwise add (two compute-bound, two memory-bound on every device
    of the course); and three more to count (a non-square matmul, a bf16 matmul and a bf16 add)."""
    n = S.peak_matmul
    tokens, width, hidden = S.token_matrix
    ops = (LabOp(f"matmul {n}x{n}x{n}", "matmul", (n, n, n)),
           LabOp(f"GPT fc {tokens}x{width}x{hidden}", "matmul", (tokens, width, hidden)),
           LabOp(f"matrix-vector {S.matvec}", "matmul", (1, S.matvec, S.matvec)),
           LabOp(f"add {S.elementwise_numel // 1024}x1024", "add", (S.elementwise_numel // 1024, 1024)))
    extra = (LabOp("matmul 96x40x24", "matmul", (96, 40, 24)),
             LabOp("bf16 matmul 64x128x256", "matmul", (64, 128, 256), torch.bfloat16),
             LabOp("bf16 add 8x256", "add", (8, 256), torch.bfloat16))
    return LabSetup(S, ops, extra)


# --- Exercise A: FLOPs and bytes -----------------------------------------------------------------------


def count_mistake(op: LabOp, flops: float, n_bytes: float) -> str | None:
    """What is wrong with the learner's (``flops``, ``n_bytes``) for ``op``, naming the classic mistake; None
    when both equal the lesson's count."""
    ref = op.reference()
    size = op.dtype.itemsize
    if op.kind == "matmul":
        m, k, n = op.shape
        arrays = {"A": m * k, "B": k * n, "C": m * n}
        flop_slips = {ref.flops / 2: "FLOPs without the factor 2: each of the k terms of a result is a multiply "
                                     "and an add, two operations",
                      2 * m * n: "FLOPs per result without its k terms: each result sums k products"}
    else:
        arrays = {"x": op.shape[0] * op.shape[1], "y": op.shape[0] * op.shape[1], "out": op.shape[0] * op.shape[1]}
        flop_slips = {2 * ref.flops: "an add is one operation per element, not a multiply-add (2)"}
    if flops != ref.flops:
        slip = flop_slips.get(flops)
        return (f"{op.name}: your FLOPs are {flops:.4g}, the lesson's count is {ref.flops:.4g}"
                + (f". Looks like {slip}" if slip else f" ({flops / ref.flops:.3g}x)"))
    if n_bytes == ref.bytes:
        return None
    inputs = [v for key, v in arrays.items() if key not in ("C", "out")]
    byte_slips = {sum(arrays.values()): "elements, not bytes: multiply by the bytes of one element",
                  size * sum(inputs): "the inputs only: the result is written to memory too"}
    for key, v in arrays.items():
        byte_slips.setdefault(size * v, f"the bytes of one operand only ({key}): every operand is read and the "
                                        "result written")
    if size != 4:
        byte_slips.setdefault(4 * sum(arrays.values()), f"4 bytes an element: {op.dtype} has {size}")
    slip = byte_slips.get(n_bytes)
    return (f"{op.name}: your bytes are {n_bytes:.4g}, the minimum traffic is {ref.bytes:.4g}"
            + (f". Looks like {slip}" if slip else f" ({n_bytes / ref.bytes:.3g}x)"))


def _as_pair(result, what: str) -> tuple[float, float]:
    checks.expect(isinstance(result, (tuple, list)) and len(result) == 2,
                  f"{what} should return a pair of numbers, got {type(result).__name__}")
    return tuple(float(v) for v in result)


def check_counts(count: Callable, setup: LabSetup, show: bool = True) -> checks.Verdict:
    """Lab 01, exercise A: ``count(op)`` gives the lesson's FLOPs and bytes for every op of the lab, and for a
    non-square matmul and two bf16 ops. Exact: both are whole numbers."""

    def body():
        wrong = []
        for op in setup.ops + setup.extra:
            mistake = count_mistake(op, *_as_pair(count(op), f"count({op.name!r})"))
            if mistake:
                wrong.append(mistake)
        checks.expect(not wrong, f"{len(wrong)} of {len(setup.ops) + len(setup.extra)} counts differ. "
                                 + " | ".join(wrong[:3]))
        return (f"{len(setup.ops) + len(setup.extra)} ops counted exactly, matmuls of four shapes and the "
                f"elementwise add, in fp32 and bf16")

    return checks.run_check("FLOPs and bytes", body, show=show, hint=checks.stub_message(BANK, "A"))


# --- Exercise B: bound and time under the roofline ------------------------------------------------------

# Ceilings the check gives predict(): two ridge points (10 and 50 FLOPs a byte), so a ridge typed in by hand
# fails one of them; ops on both sides of each, and one at 20 FLOPs a byte, between the two ridges.
TEST_CEILINGS = (Ceilings(100e9, 10e9), Ceilings(1e12, 20e9))
TEST_OPS = ((2e9, 4e9), (8e9, 4e7), (4e9, 2e8), (6e6, 2e7))  # (FLOPs, bytes): intensity 0.5, 200, 20, 0.3


def reference_prediction(flops: float, n_bytes: float, ceilings: Ceilings) -> tuple[str, float]:
    """The roofline's answer: the side of the ridge point, and the slower of the two limits' times."""
    return ceilings.bound(flops / n_bytes), max(flops / ceilings.flops, n_bytes / ceilings.bandwidth)


def prediction_mistake(flops: float, n_bytes: float, c: Ceilings, bound: str, seconds: float) -> str | None:
    """What is wrong with a prediction (``bound``, ``seconds``), naming the classic mistake; None if right."""
    right_bound, right = reference_prediction(flops, n_bytes, c)
    intensity = flops / n_bytes
    where = (f"an op of {flops:.3g} FLOPs and {n_bytes:.3g} bytes (intensity {intensity:.3g} FLOPs/byte) under "
             f"a peak of {c.flops:.3g} FLOP/s and {c.bandwidth:.3g} B/s (ridge {c.ridge:.3g})")
    if bound not in ("memory", "compute"):
        return f"the bound should be 'memory' or 'compute', got {bound!r}"
    if bound != right_bound:
        return (f"{where}: you said {bound}-bound, it is {right_bound}-bound. Wrong side of the ridge point: "
                "compare the op's FLOPs per byte with the ridge, peak FLOP/s over bandwidth")
    compute, memory = flops / c.flops, n_bytes / c.bandwidth
    slips = [(compute + memory, "the sum of the two times: compute and memory traffic overlap, the slower "
                                "decides"),
             (min(compute, memory), "the faster of the two limits: the slower one decides"),
             (compute, "the compute time, but this op waits for its bytes"),
             (memory, "the memory time, but this op waits for its arithmetic"),
             (right * 1e3, "milliseconds: the check wants seconds"),
             (right * 1e6, "microseconds: the check wants seconds")]
    if abs(seconds - right) <= 1e-6 * right:
        return None
    slip = "; or ".join(why for value, why in slips if abs(seconds - value) <= 1e-6 * value)
    return (f"{where}: you predicted {seconds:.4g} s, the roofline says {right:.4g} s"
            + (f". Looks like {slip}" if slip else f" ({seconds / right:.3g}x)"))


def _prediction(result, what: str) -> tuple[str, float]:
    checks.expect(isinstance(result, (tuple, list)) and len(result) == 2,
                  f"{what} should return (bound, seconds), got {type(result).__name__}")
    return str(result[0]), float(result[1])


def check_predictions(predict: Callable, show: bool = True) -> checks.Verdict:
    """Lab 01, exercise B: ``predict(flops, n_bytes, ceilings)`` gives the roofline's bound and time, on two
    sets of ceilings the check chooses (ridges at 10 and 50 FLOPs a byte) and ops on both sides."""

    def body():
        for c in TEST_CEILINGS:
            for flops, n_bytes in TEST_OPS:
                what = f"predict({flops:.3g}, {n_bytes:.3g}, ceilings)"
                mistake = prediction_mistake(flops, n_bytes, c, *_prediction(predict(flops, n_bytes, c), what))
                checks.expect(mistake is None, mistake or "")
        return f"{len(TEST_CEILINGS) * len(TEST_OPS)} predictions on two machines (ridges 10 and 50) right"

    return checks.run_check("bound and time", body, show=show, hint=checks.stub_message(BANK, "B"))


# --- The measurement: your predictions against the ops timed in this run ---------------------------------


@dataclass(frozen=True)
class Compared:
    op: LabOp
    bound: str  # the learner's
    roofline_bound: str  # the side of the measured ridge point the op's intensity is on
    predicted: float  # seconds, the learner's
    measured: float  # seconds, the fastest run
    spread: float

    @property
    def ratio(self) -> float:
        """Measured over predicted: 1.0 means the op ran exactly at its roof."""
        return self.measured / self.predicted


def measure_ops(setup: LabSetup) -> roofline.Roofline:
    """Lab 01's ops and both ceilings, measured in alternating rounds on lesson 01's threads (one on a CPU)."""
    S = setup.settings
    return roofline.measure_roofline([op.reference(S.device) for op in setup.ops], S, rounds=setup.rounds)


def compare(count: Callable, predict: Callable, roof: roofline.Roofline, setup: LabSetup) -> list[Compared]:
    """Lab 01: the learner's prediction for each op, on the ceilings measured in ``roof``, beside its time."""
    rows = []
    for op, point in zip(setup.ops, roof.points):
        flops, n_bytes = _as_pair(count(op), f"count({op.name!r})")
        bound, seconds = _prediction(predict(flops, n_bytes, roof.ceilings), f"predict for {op.name}")
        checks.expect(seconds > 0, f"{op.name}: a predicted time must be positive, got {seconds:.3g} s")
        rows.append(Compared(op, bound, point.bound, seconds, point.seconds, point.spread))
    return rows


def verdict_of(row: Compared, setup: LabSetup) -> str | None:
    """Why ``row``'s prediction is off, or None: measured within [1/(1 + faster), slower x (1 + spread)] x the
    prediction, ``faster`` widened to the spread too."""
    faster = max(setup.faster, row.spread)
    if row.bound != row.roofline_bound:
        return (f"{row.op.name}: you said {row.bound}-bound; on the ceilings measured with it, its intensity is on "
                f"the {row.roofline_bound} side of the ridge point")
    if row.ratio < 1 / (1 + faster):
        return (f"{row.op.name} ran in {row.measured * 1e3:.3g} ms, {1 / row.ratio:.2f}x faster than your "
                f"{row.predicted * 1e3:.3g} ms ({row.bound}-bound), more than the {faster:.0%} the measurement "
                "allows: no op beats its roof, so the prediction counts too much work or the wrong limit")
    slower = setup.slower * (1 + row.spread)  # a busy machine's slow runs widen it, as they do below
    if row.ratio > slower:
        return (f"{row.op.name} took {row.measured * 1e3:.3g} ms, {row.ratio:.2f}x your {row.predicted * 1e3:.3g}"
                f" ms ({row.bound}-bound), over the {slower:.2g}x allowed ({setup.slower:g}x, widened by the "
                f"measurement's {row.spread:.0%} spread): the prediction misses work, bytes, or the limit that "
                "applies")
    return None


def check_measured(count: Callable, predict: Callable, setup: LabSetup, show: bool = True,
                   measure: Callable[[LabSetup], roofline.Roofline] = measure_ops,
                   results: list | None = None) -> checks.Verdict:
    """Lab 01: each op's measured time within [1/(1 + 35 % or its spread), 2 (1 + spread)] x the learner's
    prediction, with the ceilings measured in the same rounds as the ops (``measure``; tests pass a fake one).
    ``results``, when given, receives the roofline and the comparisons, for the notebook's table and plot."""
    label = setup.settings.label

    def body():
        for op in setup.ops:  # an unfinished exercise stops here, before the measurement's seconds
            predict(*_as_pair(count(op), f"count({op.name!r})"), Ceilings(1e9, 1e9))
        roof = measure(setup)
        rows = compare(count, predict, roof, setup)
        if results is not None:
            results[:] = [roof, rows]
        off = [why for why in (verdict_of(r, setup) for r in rows) if why]
        checks.expect(not off, " | ".join(off) + label)
        shown = ", ".join(f"{r.op.name} {r.ratio:.2f}x" for r in rows)
        return (f"measured / predicted: {shown} (allowed {1 / (1 + setup.faster):.2f}x to {setup.slower:g}x, "
                f"each widened by the measurement's spread; "
                f"{roof.threads} thread(s), ceilings measured in the same rounds){label}")

    return checks.run_check("predictions against the measurement", body, show=show,
                            hint=checks.stub_message(BANK, "B"))


class Pending(str):
    """A line that stands in for a table until the exercises are done (shown without quotes)."""

    def __repr__(self) -> str:
        return str(self)


def prediction_table(count: Callable, predict: Callable, ceilings: Ceilings, setup: LabSetup):
    """The learner's predictions for the lab's ops on ``ceilings``, as a table (before anything is measured);
    a line saying what is missing while an exercise still raises."""
    try:
        rows = []
        for op in setup.ops:
            flops, n_bytes = _as_pair(count(op), f"count({op.name!r})")
            bound, seconds = _prediction(predict(flops, n_bytes, ceilings), f"predict for {op.name}")
            rows.append((op.name, f"{flops:.4g}", f"{n_bytes:.4g}", f"{flops / n_bytes:.3g}", bound,
                         f"{seconds * 1e3:.3g} ms"))
    except NotImplementedError:
        return Pending("⏳ not done yet: your predictions appear here once exercises A and B are done")
    return Table(["op", "FLOPs", "bytes", "FLOPs/byte", "your bound", "your predicted time"], rows)


COMPARED_COLUMNS = ["op", "your bound", "predicted", "measured", "measured / predicted", "spread"]


def compared_rows(rows: list[Compared]) -> list[tuple]:
    """Lab 01's comparison as rows for a ``utils.tables.Table`` of ``COMPARED_COLUMNS``."""
    return [(r.op.name, r.bound, f"{r.predicted * 1e3:.3g} ms", f"{r.measured * 1e3:.3g} ms", f"{r.ratio:.2f}x",
             f"{r.spread:.0%}") for r in rows]
