"""Data parallelism by hand, then what DDP adds: buckets all-reduced while the backward pass still runs
(lesson 03, section 2).

``by_hand_step`` is the whole idea of data parallelism in five lines: each rank computes the gradient of its
own rows, then every gradient is all-reduced (summed over the ranks) and divided by the world size, so every
rank holds the gradient of the whole global batch. DDP computes the same numbers; what it adds is *when* it
communicates: gradients are grouped into buckets (by default a first bucket of 1 MiB, then up to 25 MiB
each), and a bucket is all-reduced, asynchronously, as soon as its last gradient is ready, while the
backward pass goes on with earlier layers.

``timeline`` measures both on every rank, for the chart of section 2: the backward computation (from
``backward()`` to the last gradient accumulated, seen by each parameter's post-accumulate hook) and each
all-reduce (from the moment its gradients are ready to its completion, waiting for the other rank included).
Where each is read matters. On a CPU (gloo) work runs when it is called, so the host's clock
(``perf_counter``, one clock for all processes) times it. With NCCL the host only *queues* work: an
all-reduce's future completes as soon as its kernel is queued, and a host clock would time the queueing. So
with NCCL every time is read on the GPU (``GpuClock``): CUDA events recorded on the compute stream (gradients
ready, the step's end) and, for each all-reduce, on a stream that waits for the NCCL kernel (its end).
``slowest`` picks the rank whose step took longest: a step is over when its slowest rank is.
"""

from __future__ import annotations

import contextlib
import statistics
import time

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

from utils import precision
from utils.claims import as_printed, half_up, percent, printed_ratio
from utils.launch import keep_until_exit, process_group
from utils.lessons.ddp.gradients import fixed_global_batch, flat_grad
from utils.lessons.ddp.settings import Settings, build_model, text_data
from utils.timeline import Span


def by_hand_step(model: torch.nn.Module, loss: torch.Tensor) -> None:
    """Data parallelism without DDP: backward, then all-reduce every gradient and divide by the world size."""
    loss.backward()  # this rank's gradient of its own rows
    world = dist.get_world_size()
    for p in model.parameters():
        dist.all_reduce(p.grad)  # the sum over the ranks (one message per tensor, after the whole backward)
        p.grad /= world  # the mean: the gradient of the mean loss over the whole global batch


def _model_and_rows(s: Settings, device) -> tuple[torch.nn.Module, torch.Tensor, torch.Tensor]:
    """A fresh model (the same seed on every rank) and this rank's rows of ``fixed_global_batch``, on
    ``device``: x, y are (batch_per_worker x accumulate, T) int64."""
    rank, world = dist.get_rank(), dist.get_world_size()
    x, y = fixed_global_batch(s, world)
    model = build_model(s, text_data(s).corpus.vocab_size).to(device)
    return model, x[rank::world].to(device), y[rank::world].to(device)


def by_hand_gradients(s: Settings) -> torch.Tensor:
    """On every worker: ``by_hand_step`` on this rank's rows of ``fixed_global_batch``; the gradient (CPU)."""
    with process_group(backend="gloo" if s.device == "cpu" else None) as planned_device:
        model, x, y = _model_and_rows(s, torch.device(s.device) if s.device else planned_device)
        by_hand_step(model, model.loss(x, y))
        return flat_grad(model)


class HostClock:
    """Times read on the host (``perf_counter``): right where work runs when it is called (CPU, gloo)."""

    def start(self) -> float:
        return time.perf_counter()

    def now(self):
        return time.perf_counter()

    def when_done(self, work):
        """A mark filled in when the all-reduce ``work`` completes (its future's callback, on the host)."""
        mark = []
        work.get_future().then(lambda fut: mark.append(time.perf_counter()))
        return mark

    def seconds(self, mark) -> float:
        return mark[0] if isinstance(mark, list) else mark

    def settle(self) -> None:
        pass


class GpuClock:
    """Times read on the GPU: CUDA events, placed on the host's clock from a base event recorded when the GPU
    was idle (``start``). Read them (``seconds``) only after ``settle``, which waits for the GPU."""

    def __init__(self, device):
        self.device = device
        self.waiter = torch.cuda.Stream(device)  # does nothing but wait for NCCL kernels, then record

    def _event(self, stream=None):
        event = torch.cuda.Event(enable_timing=True)
        event.record(stream)
        return event

    def start(self) -> float:
        torch.cuda.synchronize(self.device)  # idle: the base event fires as it is recorded
        self.t0, self.base = time.perf_counter(), self._event()
        return self.t0

    def now(self):
        """An event on the compute stream: it fires when the work queued before it has run."""
        return self._event()

    def when_done(self, work):
        """An event that fires when the NCCL kernel of ``work`` ends: ``work.wait()`` makes the current stream
        (here the idle ``waiter``) wait for it, without blocking the host or the compute stream."""
        with torch.cuda.stream(self.waiter):
            work.wait()
            return self._event(self.waiter)

    def seconds(self, mark) -> float:
        return self.t0 + self.base.elapsed_time(mark) / 1e3  # elapsed_time: milliseconds

    def settle(self) -> None:
        torch.cuda.synchronize(self.device)


def clock_for(device):
    """The GPU's clock where NCCL queues the work on a GPU; the host's elsewhere (CPU, gloo)."""
    on_nccl = device.type == "cuda" and dist.get_backend() == "nccl"
    return GpuClock(device) if on_nccl else HostClock()


@contextlib.contextmanager
def _timed_all_reduces(clock, marks: list, row: str):
    """For the block, ``dist.all_reduce`` records each call as (row, index, start, end) marks (as
    ``instrumentation.ByteCounter`` counts its bytes), so that ``by_hand_step`` runs as the lesson shows it,
    timed; put back on the way out. After the backward the stream runs nothing else, so an event after the
    call fires when the all-reduce is done."""
    original = dist.all_reduce

    def timed(tensor, *args, **kwargs):
        start = clock.now()
        result = original(tensor, *args, **kwargs)
        marks.append((row, len(marks), start, clock.now()))
        return result

    dist.all_reduce = timed
    try:
        yield
    finally:
        dist.all_reduce = original


def _timed_allreduce_hook(clock, marks: list, row: str):
    """A DDP communication hook doing what DDP does (average the bucket in fp32), recording each bucket's
    all-reduce as (row, bucket, start, end) marks: from its gradients being ready to its completion."""

    def hook(state, bucket):  # no annotations: DDP checks them
        start = clock.now()
        buffer = bucket.buffer().div_(dist.get_world_size())
        work = dist.all_reduce(buffer, async_op=True)
        marks.append((row, bucket.index(), start, clock.when_done(work)))
        return work.get_future().then(lambda fut: fut.value()[0])

    return hook


def _gradient_clock(model: torch.nn.Module, clock, ready: list) -> None:
    """Each parameter's post-accumulate hook appends a mark to ``ready`` when its gradient is ready."""
    for p in model.parameters():
        p.register_post_accumulate_grad_hook(lambda _p: ready.append(clock.now()))


def _one_step(net, model, x, y, clock, ready: list, marks: list, rows: tuple[str, str], use_ddp: bool,
              regime: str = "fp32") -> dict:
    """One forward (in ``regime``: ``utils.precision``) and backward (by hand: ``by_hand_step``), timed on
    ``clock``; returns the figures and the step's spans."""
    comm_row, compute_row = rows
    marks.clear()
    ready.clear()
    model.zero_grad(set_to_none=True)
    dist.barrier()  # both ranks start together
    start = clock.start()
    with precision.autocast(regime, x.device):
        loss = net(x, y)[1]  # (logits, loss)
    backward_start = clock.now()
    if use_ddp:
        loss.backward()  # DDP's hooks all-reduce the buckets as their gradients become ready
    else:
        with _timed_all_reduces(clock, marks, comm_row):
            by_hand_step(model, loss)  # the step the lesson shows, its all-reduces timed
    end = clock.now()  # after DDP waited for the last bucket (on a GPU: its stream waits for NCCL)
    clock.settle()
    backward_start, end = clock.seconds(backward_start), clock.seconds(end)
    last_ready = max(clock.seconds(mark) for mark in ready)
    gpu = isinstance(clock, GpuClock)  # the spans say which clock they were read on
    spans = [Span(row, "all-reduce", k, clock.seconds(a), clock.seconds(b), gpu) for row, k, a, b in marks]
    spans += [Span(compute_row, "forward", None, start, backward_start, gpu),
              Span(compute_row, "backward", None, backward_start, last_ready, gpu)]
    return {"compute": last_ready - backward_start, "exposed": end - last_ready, "step": end - start,
            "communication": sum(sp.duration for sp in spans if sp.name == "all-reduce"),
            "messages": len(marks), "spans": spans, "ready": last_ready - start,  # both ranks start at a barrier
            "start": start,  # on the clock both ranks share: where their times are compared (``waiting``)
            "calls": {k: clock.seconds(a) - start for _, k, a, _ in marks}}  # each call's start, since the step's


def timeline(s: Settings, use_ddp: bool, steps: int = 5) -> dict:
    """On every worker: ``steps`` forward and backward passes, by hand or with DDP (``s.bucket_cap_mb``; None
    is DDP's own default: a first bucket of 1 MiB, then up to 25 MiB, which an explicit 25 would not give).

    Returns this rank's median over the steps after the first of ``compute`` (backward until the last
    gradient is ready), ``communication`` (all-reduce spans summed, waits for the other rank included),
    ``exposed`` (last gradient ready to the step's end: communication not hidden), ``step`` and ``messages``
    (seconds, counts), ``ready`` (the last gradient, since the step's start), the last step's ``spans``, every
    timed step's spans (``step_spans``: the chart draws the one ``drawn_step`` picks), per step its start, its
    ``step`` time, the ``ready`` time and each all-reduce call's start (``steps``, for ``waiting``), its
    ``rank`` and the ``clock`` it was read on.
    """
    with process_group(backend="gloo" if s.device == "cpu" else None) as planned_device:
        device = torch.device(s.device) if s.device else planned_device
        rank = dist.get_rank()
        precision.use(s.precision)
        model, x, y = _model_and_rows(s, device)
        clock = clock_for(device)
        marks, ready = [], []
        rows = (f"rank {rank} all-reduce", f"rank {rank} forward+backward")
        net = model
        if use_ddp:
            net = keep_until_exit(DDP(model, device_ids=[device.index] if device.type == "cuda" else None,
                                      **s.ddp_options()))
            net.register_comm_hook(None, _timed_allreduce_hook(clock, marks, rows[0]))
        _gradient_clock(model, clock, ready)
        # The first step warms up (and DDP rebuilds its buckets in the order the gradients arrived).
        figures = [_one_step(net, model, x, y, clock, ready, marks, rows, use_ddp, s.precision)
                   for _ in range(steps)][1:]
        medians = {k: statistics.median(f[k] for f in figures) for k in figures[0]
                   if k not in ("spans", "calls", "start")}
        return {**medians, "spans": [sp.to_dict() for sp in figures[-1]["spans"]], "rank": rank,
                "step_spans": [[sp.to_dict() for sp in f["spans"]] for f in figures],
                "steps": [{"start": f["start"], "step": f["step"], "ready": f["ready"], "calls": f["calls"]}
                          for f in figures],
                "clock": "GPU (CUDA events)" if isinstance(clock, GpuClock) else "host (Python's perf_counter)"}


def slowest(ranks: list[dict]) -> dict:
    """The figures of the rank whose step took longest (``timeline``'s results, one per rank): the step is
    over only when its slowest rank is, so that rank's exposed time is the one the step pays."""
    return max(ranks, key=lambda r: r["step"])


def _ready_at(step: dict) -> float:
    """When a step's last gradient was ready, on the clock both ranks share (host ``perf_counter``; on GPUs each
    rank's events placed on it): a wait for the other rank is a difference of these, not of times measured
    from each rank's own start, which differ by how unevenly the ranks left the barrier."""
    return step["start"] + step["ready"]


def lags(ranks: list[dict]) -> list[float]:
    """Per timed step, how much later rank 1's last gradient was ready than rank 0's (seconds; negative where
    rank 0's was the later one): the rank whose gradients were ready first waited that long for the other."""
    by_rank = {r["rank"]: r for r in ranks}
    return [_ready_at(one) - _ready_at(zero) for zero, one in zip(by_rank[0]["steps"], by_rank[1]["steps"])]


def drawn_step(ranks: list[dict]) -> int:
    """The timed step the chart draws: the one whose lag (``lags``) is the median (the lower middle for an
    even count), so that the chart shows the step the medians of ``waiting`` are read from."""
    order = sorted(range(len(lags(ranks))), key=lags(ranks).__getitem__)
    return order[(len(order) - 1) // 2]


def who_waited(ranks: list[dict], step: int) -> dict:
    """In timed step ``step``, which rank's last gradient was ready first (``waited``: its last all-reduce
    could not finish before the other rank joined it), which was ``late``, and by how much (``lag``, s)."""
    lag = lags(ranks)[step]
    return {"waited": 0 if lag > 0 else 1, "late": 1 if lag > 0 else 0, "lag": abs(lag)}


def start_skew(ranks: list[dict], step: int) -> float:
    """In timed step ``step``, how much later rank 1 left the step's starting barrier than rank 0 (seconds, on
    the clock both ranks share; negative: rank 0 left it later). A barrier releases the ranks together only
    to within the time its last message takes to arrive and each process takes to be scheduled."""
    by_rank = {r["rank"]: r for r in ranks}
    return by_rank[1]["steps"][step]["start"] - by_rank[0]["steps"][step]["start"]


def drawn_text(way: str, ranks: list[dict], step: int, label: str = "") -> str:
    """The one collapsed sentence on a chart of section 2: why the later rank was late in the drawn step (it
    left the barrier later, or computed longer: the lag is the start skew plus the difference of the ranks'
    own forward+backward times), or that the two were level. The rest is on the page already: the chart's
    title gives the step, its time and the table's median (``picture.drawn_title``), the line under it who
    waited (``picture.drawn_line``), and the steps' range the noise paragraph; the twenty-ninth reading found
    this paragraph repeating them. ``label``: the run's label (" (simulated on CPU)"), said at the end."""
    ms = lambda seconds: f"{abs(seconds) * 1e3:.1f} ms"
    head = f'Chart "{way}", step {step + 1}: '  # the way quoted, as its chart's title names it: not "buckets's"
    w, skew = who_waited(ranks, step), start_skew(ranks, step)
    if as_printed(w["lag"], 1, 1e-3) == 0:
        left = (f"rank {1 if skew > 0 else 0} left the starting barrier {ms(skew)} after rank {0 if skew > 0 else 1}"
                if as_printed(abs(skew), 1, 1e-3) > 0 else "both ranks left the starting barrier 0.0 ms apart")
        inside = (" (each rank can still wait inside its per-tensor all-reduce calls: the per-row paragraphs "
                  "below give how long)" if way == "by hand" else "")  # by hand, every call runs after the backward
        return (head + f"{left}, and their last gradients were ready level (0.0 ms apart as printed): neither "
                f"waited for the other's backward to end{inside}{label}.")
    # rank 1's forward+backward less rank 0's, each from its own start: lag less skew, both as printed
    # (0.1 ms), so that the reader's sum of the two printed figures gives the third
    skew_ms, lag_ms = as_printed(skew, 1, 1e-3), as_printed(lags(ranks)[step], 1, 1e-3)
    own_ms = as_printed(lag_ms - skew_ms, 1)  # rounded again: 0.3 - 0.1 is 0.19999999999999998 in floats
    return (head + f"rank {w['late']}'s last gradient came {ms(w['lag'])} after rank {w['waited']}'s "
            f"{late_because(skew_ms, own_ms, lag_ms)}{label}.")


def late_because(skew_ms: float, own_ms: float, lag_ms: float) -> str:
    """Why the later rank's last gradient came ``lag_ms`` late (ms as printed; > 0: rank 1 was late): it left
    the starting barrier ``skew_ms`` later (rank 1 less rank 0) and computed ``own_ms`` longer (rank 1's
    forward+backward less rank 0's), the two adding up to the lag. Each part is read from the late rank's side
    and its share of the lag with ``MOSTLY``, as the closing table reads shares: 1.1 ms and 1.2 ms of 2.3 ms
    is "about half each", never "mostly" either. A part of the other sign made up some of the lag."""
    side = 1 if lag_ms > 0 else -1
    start, own = skew_ms * side, own_ms * side  # each part's push on the late rank's lag (ms)
    barrier = f"it left the barrier {abs(start):.1f} ms {'later' if start > 0 else 'earlier'}"
    computed = f"its forward+backward took {abs(own):.1f} ms {'longer' if own > 0 else 'less'}"
    if start <= 0 < own:  # computing made all the lag; the start added nothing, or took some back
        # the skew is printed even at 0.0 ms: the lesson's markdown promises the gap in ms for each chart
        return f"because {computed}" + ("; the two ranks left the barrier 0.0 ms apart, so not because of the "
                                        "start" if start == 0 else f"; {barrier}, which made up part of that")
    if own <= 0 < start:
        return f"because {barrier}" + ("; the two forward+backward passes took the same time (0.0 ms apart), "
                                       "so not because it computed longer" if own == 0 else
                                       f"; {computed}, which made up part of that")
    share = half_up(own / (own + start), 6)  # both parts pushed the same way: computing's share of the lag
    if share > MOSTLY:
        return f"mostly because {computed}; leaving the barrier {abs(start):.1f} ms later made the rest"
    if share < 1 - MOSTLY:
        return f"mostly because {barrier}; computing {abs(own):.1f} ms longer made the rest"
    return f"about equally because {barrier} and because {computed} (about half each)"


def waiting(ranks: list[dict]) -> dict:
    """How much of the slowest rank's all-reduce time was waiting for the other rank, not transfer (medians
    over the timed steps, seconds). ``in_calls``: summed over its calls, how much later the other rank started
    the same call (an all-reduce cannot finish before both ranks have joined it); ``other_in_calls``: the same
    from the other rank's side; ``exposed``: how much later
    the other rank's last gradient was ready than its own (capped at its exposed time); ``lag``: the same,
    signed (negative: the other rank waited for this one); ``me``, ``other``: the two ranks. Times are
    compared on the clock both ranks share (``_ready_at``), so with an odd number of steps the medians are
    those of the step ``drawn_step`` picks for the chart."""
    me = slowest(ranks)
    other = next(r for r in ranks if r is not me)
    in_calls, other_in_calls, exposed, lag = [], [], [], []
    for mine, theirs in zip(me["steps"], other["steps"]):
        in_calls.append(_call_wait(mine, theirs))
        other_in_calls.append(_call_wait(theirs, mine))
        lag.append(_ready_at(theirs) - _ready_at(mine))
        exposed.append(min(max(lag[-1], 0.0), me["exposed"]))
    return {"in_calls": statistics.median(in_calls), "other_in_calls": statistics.median(other_in_calls),
            "exposed": statistics.median(exposed), "lag": statistics.median(lag), "me": me["rank"],
            "other": other["rank"]}


def _call_wait(mine: dict, theirs: dict) -> float:
    """Seconds one rank (``mine``, one timed step) spent, summed over its all-reduce calls, waiting for the other
    (``theirs``, the same step) to start the same call. ``waiting`` reads it for both ranks: over many calls
    (by hand: one per tensor) each rank can wait a little, the rank whose gradients were ready first the most."""
    skew = theirs["start"] - mine["start"]  # the other rank's clock readings, placed on this rank's
    return sum(max(theirs["calls"][k] + skew - t, 0.0) for k, t in mine["calls"].items() if k in theirs["calls"])


NOISE_FLOOR = 0.05  # where no spread is measured, a difference under 5% of a step is read as noise
MOSTLY = 0.6  # a share above this is "mostly"; from 1 - MOSTLY to MOSTLY it is "about half"


def printed_difference(longer: float, shorter: float) -> float:
    """``longer - shorter`` (seconds) in ms, worked from the two as section 2's table prints them (0.1 ms), so
    that exposed 97.9 ms beside 95.4 ms in calls reads 2.5 ms longer, whatever the unrounded times give;
    rounded again because 97.9 - 95.4 is 2.5000000000000057 in floats. Negative where ``longer`` is not."""
    return as_printed(as_printed(longer, 1, 1e-3) - as_printed(shorter, 1, 1e-3), 1)


def exposed_change(before: float, after: float) -> str:
    """The exposed time from ``before`` to ``after`` (seconds), with the verb taken from the two figures as
    printed (0.1 ms): "fell from 5.8 ms to 4.1 ms", "rose from 5.8 ms to 11.9 ms" or "stayed at 5.8 ms"."""
    a, b = as_printed(before, 1, 1e-3), as_printed(after, 1, 1e-3)
    if a == b:
        return f"stayed at {a:.1f} ms"
    return f"{'fell' if b < a else 'rose'} from {a:.1f} ms to {b:.1f} ms"


def longer_or_shorter(grew_ms: float) -> str:
    """``grew_ms`` (a printed difference, ms) as "11.0 ms longer", "2.3 ms shorter" or "no longer (0.0 ms)":
    the size without its sign, the direction in words, so a shorter time never reads "-2.3 ms longer"."""
    if as_printed(grew_ms, 1) == 0:
        return "no longer (0.0 ms apart as printed)"
    return f"{abs(grew_ms):.1f} ms {'longer' if grew_ms > 0 else 'shorter'}"


def parts_account(small: dict, large: dict, steps: int) -> str:
    """How much of the whole step's difference (``small`` buckets' step over ``large``'s, the table's medians,
    as printed) the two parts explain: forward+backward and exposed, each a difference of printed figures.
    A cause is named only for the part that rose, and only as where it would show (this run does not time a
    bucket's fixed cost or the backward's slowdown apart); the rest of the step's difference is left in the
    step's own median over ``steps`` steps, each column of the table being a median of its own."""
    fb, exposed = printed_difference(small["ready"], large["ready"]), printed_difference(small["exposed"],
                                                                                         large["exposed"])
    together, whole = as_printed(fb + exposed, 1), printed_difference(small["step"], large["step"])
    where = []  # where each part that rose would show a cause: named for that part only
    if fb > 0:
        where.append("the forward+backward rise is where the all-reduces inside the backward would slow it, their "
                     "copies and sums sharing the workers' cores, or the GPU, with it")
    if exposed > 0:
        where.append("the exposed rise is where the more buckets' fixed costs would show")
    cause = "".join(f"; {clause}" for clause in where)
    rest = f"the whole step's own median of {steps} steps (each column is a median of its own)"
    if whole <= 0:  # the other outcome: no step difference to account for
        return f"; the whole step was not longer as printed ({whole:+.1f} ms)"
    if together <= 0:
        return (f"; the two parts together did not rise as printed ({together:+.1f} ms), so none of the "
                f"{whole:.1f} ms the whole steps differ by is in a part this run times: it is in {rest}")
    if together >= whole:
        return (f"; the two parts rose {together:.1f} ms together, all of the {whole:.1f} ms the whole steps "
                f"differ by{cause}")
    share = percent(together / whole)
    # 29.9 of 30.0 ms rounds to 100%, yet 0.1 ms is left; 0.1 of 30.0 ms rounds to 0%, yet the parts rose
    share = {"100%": "nearly all", "0%": "almost none"}.get(share, share)
    return (f"; the two parts rose {together:.1f} ms together, {share} of the {whole:.1f} ms "
            f"the whole steps differ by; the other {as_printed(whole - together, 1):.1f} ms is in {rest}, not in "
            f"a part this run times{cause}")


def shown_rank_waited(lags_ms: list[float]) -> str:
    """How many of the table's rows show the rank whose backward finished first, and so waited for the other
    at the step's last all-reduce: ``lags_ms`` holds, per row, how much later the OTHER rank's last gradient
    came, in ms as printed (> 0: the rank shown waited; < 0: the other rank did; 0: level as printed). Printed
    from the run, so the lesson's text never says "often" where this run shows it once. Lesson 03, section 2."""
    waited, other = sum(lag > 0 for lag in lags_ms), sum(lag < 0 for lag in lags_ms)
    even = len(lags_ms) - waited - other
    # a tie is the printed zero only: a lag printed as 0.1 ms is counted as a wait, so the groups never overlap
    tie = f"; in {even} the two were level (0.0 ms apart as printed)" if even else ""
    return (f"In this run the rank shown finished its backward first (and waited for the other at the last "
            f"all-reduce) in {waited} of {len(lags_ms)} rows; in {other} the other rank did{tie} (the collapsed "
            "block measures each wait).")


def waiting_share(wait: float, total: float) -> str:
    """``"mostly waiting"``, ``"about half"`` or ``"mostly not waiting"``: how much of ``total`` the ``wait``
    for the other rank was (both in one unit), read with ``MOSTLY`` from the share in whole percent as the page
    prints it (``percent``): 2.2 ms of 4.4 ms is "about half", and 2.1 of 5.3 (39.6%) prints 40%, so it reads
    "about half" beside a printed 42% (t32_0304 #2), never across a boundary the reader cannot see."""
    shown = half_up(100 * wait / total, 0) / 100 if total > 0 else 0.0  # the share as percent() prints it
    if shown > MOSTLY:
        return "mostly waiting"
    return "about half" if shown >= 1 - MOSTLY else "mostly not waiting"


def beyond_wait(left_ms: float, isolated_ms: float) -> str:
    """The closing table's words for the ms exposed beyond the wait for the other rank (``left_ms``, worked
    from the printed figures) against the isolated all-reduce (``isolated_ms``, as printed, two decimals): a
    share where it is less than the all-reduce alone ("80% of"), a multiple where it is more, as every ratio
    above 1 is printed (9.5 / 1.52 = 6.25, "6.3x", half up as a reader rounds), not "625%"."""
    if left_ms <= 0:
        return "nothing exposed beyond the wait"
    ratio = left_ms / (isolated_ms or 0.01)  # an all-reduce printed 0.00 ms counts as its last digit
    if half_up(ratio, 2) >= 1:
        return f"beyond the wait, {half_up(ratio, 1):.1f}x the isolated all-reduce"
    return f"beyond the wait, {half_up(ratio * 100, 0):.0f}% of the isolated all-reduce"


def step_range(ranks: list[dict]) -> tuple[float, float, float]:
    """The fastest, slowest and median timed step of a way's slowest rank (``timeline``'s ranks), in ms as
    the lesson prints them (0.1 ms): the figures a step's noise is worked from, so a reader can redo it."""
    times = [s["step"] for s in slowest(ranks)["steps"]]
    return tuple(as_printed(t, 1, 1e-3) for t in (min(times), max(times), statistics.median(times)))


def way_noise(ranks: list[dict]) -> float:
    """Half the range of a way's step times over their median (``step_range``, as printed): its own noise."""
    low, high, median = step_range(ranks)
    return (high - low) / 2 / median if median else 0.0


def step_noise(*ways: list[dict]) -> float:
    """The noise of a step time in section 2: for each way (``timeline``'s ranks), half the range of its slowest
    rank's timed step times as a share of their median (``way_noise``, from the ms printed); the largest of
    them, and never under ``NOISE_FLOOR``. The one rule section 2 and the closing table read the bucket
    comparison with."""
    return max([NOISE_FLOOR, *(way_noise(ranks) for ranks in ways)])


# A step noise in whole per cent: ``claims.percent`` itself (half up), by the name lesson 03's notebook uses
noise_percent = percent


def noise_ranges(ways: dict[str, list[dict]]) -> str:
    """Where section 2's step noise comes from: each way's fastest and slowest step and their median (the rank
    shown, as printed) and half the range over the median, so that the noise a comparison quotes (the larger
    of its two ways', never under ``NOISE_FLOOR``) can be checked from the page."""
    parts = []
    for way, ranks in ways.items():
        low, high, median = step_range(ranks)
        parts.append(f"{way} {low:.1f} to {high:.1f} ms around a median of {median:.1f} ms "
                     f"({percent(way_noise(ranks))})")
    n = len(slowest(next(iter(ways.values())))["steps"])
    return (f"Step noise, from the rank shown's {n} timed steps of each way (half the range over the median): "
            f"{'; '.join(parts)}. A comparison of two ways reads with the larger of their two figures, never "
            f"under {percent(NOISE_FLOOR)}.")


def pace(ratio: float) -> str:
    """A step ratio (the other way's step over this one's) as the page prints it: "1.92x faster" or "1.09x
    slower", the multiple rounded half up as a reader rounds it (``printed_multiple``)."""
    return f"{printed_multiple(ratio):.2f}x {'faster' if ratio >= 1 else 'slower'}"


def printed_multiple(ratio: float) -> float:
    """The multiple ``pace`` prints: ``ratio`` or, under 1x, its inverse, rounded half up (1.005 -> 1.01)."""
    return half_up(ratio if ratio >= 1 else 1 / ratio, 2)


def faster_buckets(overlapped: float, small_mb: float, large_mb: float) -> str:
    """Which bucket size's step was shorter, as a clause whose words and figure name the same way:
    "fewer messages were faster in this run (the 25 MiB buckets' step 1.10x faster than the 1 MiB buckets'".
    ``overlapped`` is the large buckets' step over the small ones' (``step_ratios``); the faster way is the
    clause's subject, so its figure always reads "faster" (``pace`` of the other's step over its own).
    Section 2 prints it where overlap cost beyond the noise; the other outcome names the small buckets."""
    if overlapped < 1:   # the large buckets' step was the shorter: fewer, larger messages
        return (f"fewer messages were faster in this run (the {large_mb:g} MiB buckets' step "
                f"{pace(1 / overlapped)} than the {small_mb:g} MiB buckets'")
    return (f"more, smaller messages were faster in this run (the {small_mb:g} MiB buckets' step "
            f"{pace(overlapped)} than the {large_mb:g} MiB buckets'")


def step_ratios(hand: float, large: float, small: float) -> dict:
    """The three step ratios of section 2, worked from the step times as printed (0.1 ms), so a learner who
    divides the printed figures gets the printed ratios: ``total`` (by hand over small buckets), ``fewer``
    (by hand over 25 MiB buckets) and ``overlapped`` (25 MiB over small buckets). ``product`` is the two
    printed factors multiplied; ``rounding`` is a clause saying so when it differs from ``total`` at 2 decimals
    (each ratio is rounded on its own), to end a parenthesis the caller opens ("; the two factors ..."), else
    ``""``."""
    ratio = lambda over, under: printed_ratio(over, under, 1, 1e-3)  # step times as the table prints them (ms)
    total, fewer, overlapped = ratio(hand, small), ratio(hand, large), ratio(large, small)
    # the two factors as printed (half up, as a reader rounds), multiplied and rounded by hand
    product = half_up(half_up(fewer, 2) * half_up(overlapped, 2), 2)
    # a clause to close the caller's parenthesis with ("(rough ratios...; the factors as printed ...)")
    rounding = (f"; the two factors as printed multiply to {product:.2f}x, each rounded on its own"
                if product != half_up(total, 2) else "")
    return {"total": total, "fewer": fewer, "overlapped": overlapped, "product": product, "rounding": rounding}
