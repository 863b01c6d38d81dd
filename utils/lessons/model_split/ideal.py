"""Idealised schedules: what a pipeline schedule gives when every pass costs what theory assumes (lesson 02).

Lesson 02 (``notebooks/02_model_split.ipynb``) draws these *before* the measured timelines, so that a learner
knows what to look for, and uses them for the one figure a bubble formula cannot give: what a schedule
achieves at the lesson's own m (ZBV's "zero bubble" needs many micro-batches; at m = 4 it does not reach p).

    spans = simulate(order("1F1B", m=4))               # each worker's passes, placed as early as they can run
    achievable("ZBV", m=4)                             # one device's time over the schedule's, equal passes
    achievable("ZBV", m=4, costs=(13.5, 15.7, 12.4))   # ... with a run's measured F, B and W

Nothing here is measured: a pass of kind F, B (input gradients, or the whole backward where a schedule does
not split it) or W (weight gradients) takes ``costs`` units, every stage the same, and a message takes no
time. The order of each worker's passes is the schedule's own: GPipe and 1F1B written out below, the
schedules with two stages per worker read from ``torch.distributed.pipelining`` itself.
"""

from __future__ import annotations

import re

from utils import timeline

# (stage, pass, micro-batch): pass is "F" forward, "B" whole backward, "I" input gradients, "W" weight gradients
Action = tuple[int, str, int]
NAMES = {"F": "forward", "B": "backward", "I": "backward", "W": "weight"}  # the span names of the measured charts
EQUAL = (1.0, 1.0, 1.0)  # F, I, W: what the zero-bubble formulas assume; a whole backward B = I + W = 2F


def gpipe_order(m: int, p: int = 2) -> dict[int, list[Action]]:
    """GPipe: every worker runs all m forwards, then all m backwards."""
    return {r: [(r, "F", k) for k in range(m)] + [(r, "B", k) for k in range(m)] for r in range(p)}


def one_f_one_b_order(m: int, p: int = 2) -> dict[int, list[Action]]:
    """1F1B: worker r runs p − 1 − r forwards ahead (the warm-up), then alternates one forward and one
    backward, then drains the backwards left."""
    out = {}
    for r in range(p):
        warm = min(p - 1 - r, m)
        acts = [(r, "F", k) for k in range(warm)]
        for k in range(m - warm):
            acts += [(r, "F", warm + k), (r, "B", k)]
        acts += [(r, "B", k) for k in range(m - warm, m)]
        out[r] = acts
    return out


def torch_order(name: str, m: int, p: int = 2) -> dict[int, list[Action]]:
    """The pass order torch's own schedule (``multi.MULTI[name]``) gives each worker, with two stages per
    worker. Built without a process group: the schedule only reads each stage's index, count and rank."""
    from torch import nn
    from torch.distributed.pipelining.schedules import _PipelineStageBase

    from utils.lessons.model_split.multi import CHUNKS, MULTI, stage_ranks

    ranks = stage_ranks(name, p)
    n = p * CHUNKS
    # A stand-in stage with only what the schedules' constructors read (no tensors, no communication).
    Fake = type("OrderOnlyStage", (_PipelineStageBase,), {"_create_grad_recv_info": None,
                                                          "_prepare_backward_infra": None,
                                                          "_prepare_forward_infra": None})
    out = {}
    for rank in range(p):
        stages = []
        for k in (k for k in range(n) if ranks[k] == rank):
            s = object.__new__(Fake)
            s.__dict__.update(stage_index=k, num_stages=n, group_size=p, group_rank=rank, is_first=k == 0,
                              is_last=k == n - 1, submod=nn.Identity())
            stages.append(s)
        schedule = MULTI[name](stages, n_microbatches=m)
        out[rank] = [_parse(a) for a in schedule.pipeline_order[rank] if a is not None]
    return {r: [a for a in acts if a is not None] for r, acts in out.items()}


def _parse(action) -> Action | None:
    """"2I0" (stage 2, input gradients, micro-batch 0) as (2, "I", 0); other actions (sends, receives,
    gradient reductions) are not passes: None."""
    got = re.fullmatch(r"(\d+)([FBIW])(\d+)", str(action))
    return (int(got[1]), got[2], int(got[3])) if got else None


def order(name: str, m: int, p: int = 2) -> dict[int, list[Action]]:
    """Each worker's passes in the order schedule ``name`` runs them ("GPipe", "1F1B", or a ``multi`` name)."""
    if name.lower() == "gpipe":
        return gpipe_order(m, p)
    if name.lower() == "1f1b":
        return one_f_one_b_order(m, p)
    return torch_order(name, m, p)


def _cost(kind: str, costs) -> float:
    f, i, w = costs
    return {"F": f, "I": i, "W": w, "B": i + w}[kind]


def simulate(orders: dict[int, list[Action]], costs=EQUAL, label: str = "worker") -> list[timeline.Span]:
    """Each pass placed as early as its worker and its inputs allow: a forward after the previous stage's
    forward of that micro-batch, a backward after its own forward and the next stage's backward, a weight
    gradient after its input gradient. Returns spans (``timeline.plot_gantt`` draws them), in cost units."""
    n_stages = 1 + max(s for acts in orders.values() for s, _, _ in acts)
    last = n_stages - 1
    chunks = {r: sorted({s for s, _, _ in acts}) for r, acts in orders.items()}
    done: dict[tuple[int, str, int], float] = {}  # (stage, "F"/"I"/"W", micro-batch) -> end time
    free = {r: 0.0 for r in orders}
    nxt = {r: 0 for r in orders}
    spans = []
    while any(nxt[r] < len(orders[r]) for r in orders):
        progressed = False
        for r, acts in orders.items():
            while nxt[r] < len(acts):
                s, kind, k = acts[nxt[r]]
                needs = _needs(s, kind, k, last)
                if any(d not in done for d in needs):
                    break
                start = max([free[r]] + [done[d] for d in needs])
                end = start + _cost(kind, costs)
                for key in ("I", "W") if kind == "B" else (kind,):
                    done[(s, key, k)] = end
                free[r], nxt[r], progressed = end, nxt[r] + 1, True
                chunk = chunks[r].index(s) if len(chunks[r]) > 1 else None
                spans.append(timeline.Span(f"{label} {r}", NAMES[kind], k, start, end, chunk=chunk))
        if not progressed:
            raise ValueError("the schedule's order waits on a pass that never runs")
    return spans


def _needs(stage: int, kind: str, k: int, last: int) -> list[tuple[int, str, int]]:
    if kind == "F":
        return [(stage - 1, "F", k)] if stage else []
    if kind in ("B", "I"):
        return [(stage, "F", k)] + ([(stage + 1, "I", k)] if stage < last else [])
    return [(stage, "I", k)]  # W


def achievable(name: str, m: int, p: int = 2, costs=EQUAL) -> float:
    """One device's time (every stage's passes, one after the other) over the schedule's idealised time."""
    orders = order(name, m, p)
    spans = simulate(orders, costs)
    one_device = sum(_cost(kind, costs) for acts in orders.values() for _, kind, _ in acts)
    return one_device / (max(s.end for s in spans) - min(s.start for s in spans))
