"""The article's other idea, attention on one device and feed-forward on the other, measured: lesson 02.

Lesson 02 (``notebooks/02_model_split.ipynb``, section 8):

    stages = attention_ffn_stages(gpt.as_sequential())   # [embed + attn 0], [ffn 0], [attn 1], ... [ffn + head]
    got = measure_placements(task, batch=32, split_points=S.split)   # one device, both placements, messages
    placements_table(got, title), placement_reading(got, S.transport)

One launch times one device, the layer split, the attention/feed-forward placement and two message sizes,
interleaved round by round, so that every number shares the machine's state.
"""

from __future__ import annotations

import math
import time
import statistics
from typing import Callable, Sequence

import torch
import torch.distributed as dist
from torch import nn
from torch.distributed.pipelining import ScheduleLoopedBFS

from utils import launch, precision
from utils.claims import as_printed, as_printed_sig, sig_text
from utils.lessons.model_split.fit_accuracy import alpha_ms, alpha_text, factor_text
from utils.lessons.model_split.instrument import RecordedStage
from utils.lessons.model_split.link import message_time
from utils.lessons.model_split.work_words import listed
from utils.lessons.model_split.report import ms_as_printed, reading, round_text, rounds_text
from utils.lessons.model_split.outputs import launch_losses
from utils.lessons.model_split.placement_figures import (extra_range, extra_time, medians_apart, ms_text,  # noqa: F401
                                                        resolved, sum_digits)
from utils.lessons.model_split.placement_work import (extra_readings, median_plus_spread, overlap,  # noqa: F401
                                                     printed_work_rise, reach_words, work_beside_rest, work_covers,
                                                     work_note, work_reach, work_rise, work_rounding)
from utils.lessons.model_split.runs import Row, baseline_runner, loss_values, pin_cpu_worker, time_rounds
from utils.lessons.model_split.schedules import stage_device
from utils.lessons.model_split.split import output_shape, split_sequential
from utils.lessons.model_split.tasks import Task
from utils.tables import Table

PLACEMENTS = ("layers", "attn/ffn")
MESSAGE_TRIPS = 10  # round trips per timed message sample (one sample per round)


class Residual(nn.Module):
    """``x + f(x)``: one sub-layer of a pre-LayerNorm block (``f`` is ``block.attn`` or ``block.ffn``)."""

    def __init__(self, f: nn.Module):
        super().__init__()
        self.f = f

    def forward(self, x):
        return x + self.f(x)


def attention_ffn_stages(gpt_sequence: nn.Sequential) -> list[nn.Sequential]:
    """The article's other idea as pipeline stages: attention on one device, feed-forward on the other.

    [embed + attn 0], [ffn 0], [attn 1], [ffn 1], ... [ffn last + head]: stage k runs on worker k % 2, so
    the activation crosses between devices twice per block (2·depth − 1 times forward, as many backward).
    Uses the same modules as ``gpt_sequence`` (an unsplit GPT's ``as_sequential()``).
    """
    embed, *blocks, head = list(gpt_sequence)
    stages = []
    for k, block in enumerate(blocks):
        stages.append(nn.Sequential(*([embed] if k == 0 else []), Residual(block.attn)))
        stages.append(nn.Sequential(Residual(block.ffn), *([head] if k == len(blocks) - 1 else [])))
    return stages


def _placed_modules(model: nn.Sequential, placement: str, split_points: Sequence[int]) -> list[nn.Sequential]:
    if placement == "layers":
        return split_sequential(model, split_points)
    if placement == "attn/ffn":
        return attention_ffn_stages(model)
    raise ValueError(f"placement must be one of {PLACEMENTS}, got {placement!r}")


def _placement_runner(task: Task, model, rank: int, device, placement: str, split_points, x, y,
                      sent: dict, losses: dict) -> tuple[Callable, int]:
    """A runner (for ``time_rounds``) of one step with the model placed as ``placement``, one micro-batch;
    it leaves this worker's bytes sent in ``sent[placement]``. Returns ``(runner, crossings per pass)``."""
    modules = _placed_modules(model, placement, split_points)
    world = dist.get_world_size()
    mine = [RecordedStage(mod, k, len(modules), device) for k, mod in enumerate(modules) if k % world == rank]
    sched = ScheduleLoopedBFS(mine, n_microbatches=1, loss_fn=task.loss_fn)  # several stages per worker
    args = (x,) if rank == 0 else ()
    kwargs = {"target": y, "return_outputs": False} if any(s.is_last for s in mine) else {}

    def run(recorder):
        model.zero_grad(set_to_none=True)
        for stage in mine:
            stage.bytes_sent, stage.recorder = 0, recorder
        if kwargs:  # the last stage's worker: it keeps the step's loss (read after the rounds)
            kwargs["losses"] = losses[placement] = []
        sched.step(*args, **kwargs)
        sent[placement] = sum(s.bytes_sent for s in mine)
    return run, len(modules) - 1


def _message_runner(rank: int, device, numel: int, trips: list) -> Callable:
    """``MESSAGE_TRIPS`` round trips of a float32 tensor of ``numel`` elements between the two workers; each
    trip's seconds go to ``trips``. The lesson uses their median, as lesson 00's ping-pong does: a trip that
    waits for a thread to wake, or for a core another program holds, does not move it."""
    buf = torch.zeros(numel, device=device)

    def run(recorder):
        for _ in range(MESSAGE_TRIPS):
            start = time.perf_counter()
            if rank == 0:
                dist.send(buf, dst=1)
                dist.recv(buf, src=1)
            else:
                dist.recv(buf, src=0)
                dist.send(buf, dst=0)
            trips.append(time.perf_counter() - start)
    return run


def placements_worker(task: Task, batch: int, split_points: Sequence[int], rounds: int, seed: int) -> dict:
    """Worker (run by ``launch``): one device, both placements and two message sizes, interleaved round by
    round (``runs.time_rounds``); step times, bytes sent and crossings, each message's round trips."""
    pin_cpu_worker()  # before the process group: gloo's threads inherit the core (as every timing worker)
    with launch.process_group():
        device, rank = stage_device(), dist.get_rank()
        regime = precision.fp32_matmuls(device)  # TF32 on Ampere+ GPUs, as in practice (checks stay IEEE fp32)
        model = task.build().to(device)
        x, y = (t.to(device) for t in task.make_batch(batch, seed))
        activation = output_shape(split_sequential(model, split_points)[0], x)  # (B, T, C)
        sent, losses = {}, {}
        runners = {"one device": baseline_runner(task, model, rank, x, y, losses)}
        crossings = {}
        for name in PLACEMENTS:
            runners[name], crossings[name] = _placement_runner(task, model, rank, device, name, split_points, x, y,
                                                               sent, losses)
        trips = {"message 4 B": [], "message activation": []}
        runners["message 4 B"] = _message_runner(rank, device, 1, trips["message 4 B"])
        runners["message activation"] = _message_runner(rank, device, math.prod(activation),
                                                        trips["message activation"])
        out = time_rounds(runners, rounds, False, device, f"stage {rank}")
        skip = MESSAGE_TRIPS  # round 0 warms up: its trips are left out, as its times are
        return {"times": out["times"], "busy": out["busy"], "cpu": out["cpu"], "sent": sent, "crossings": crossings,
                "device": str(device), "trips": {k: v[skip:] for k, v in trips.items()},
                "activation_bytes": 4 * math.prod(activation),  # float32
                "losses": loss_values(losses), "regime": regime}


def measure_placements(task: Task, batch: int, split_points: Sequence[int], rounds: int = 5, seed: int = 0,
                       timeout: float = 300) -> dict:
    """One device, the layer split at ``split_points`` and the attention/feed-forward placement, timed in
    ONE launch, interleaved, with a one-way message of 4 bytes and of one activation.

    Returns ``{"layers"/"attn/ffn": {"row": a runs.Row against one device (bound 1x: one micro-batch),
    "bytes" (both workers, both directions), "crossings"}, "extra_rounds" (seconds the attention/feed-forward
    step took over the layers step, round by round: paired), "message": {"tiny", "activation" (median seconds
    per one-way message), "activation_bytes"}, "device"}``.
    """
    raw = launch.launch(placements_worker, task, batch, list(split_points), rounds, seed, nprocs=2, timeout=timeout)
    med = statistics.median
    times, on_cpu = raw[0]["times"], raw[0]["device"].startswith("cpu")
    one = times["one device"]
    out = {"device": raw[0]["device"]}
    for name in PLACEMENTS:
        t = times[name]
        row = Row(batch, 1, name, med(t), med(one), [med(w["busy"][name]) for w in raw], naive=True,
                  spread=(max(t) - min(t)) / med(t), cpu=[med(w["cpu"][name]) for w in raw],
                  baseline_cpu=med(raw[0]["cpu"]["one device"]), speedups=[a / b for a, b in zip(one, t)],
                  cpu_workers=on_cpu, baseline_busy=med(raw[0]["busy"]["one device"]))
        out[name] = {"row": row, "bytes": sum(w["sent"][name] for w in raw), "crossings": raw[0]["crossings"][name]}
    out["extra_rounds"] = [a - b for a, b in zip(times["attn/ffn"], times["layers"])]  # paired: the same round
    trips = raw[0]["trips"]  # rank 0's round trips, every round's: one way is half of one
    out["message"] = {"tiny": med(trips["message 4 B"]) / 2, "activation": med(trips["message activation"]) / 2,
                      "activation_bytes": raw[0]["activation_bytes"]}
    out["losses"], out["regime"] = launch_losses(raw), raw[0]["regime"]  # the same loss as one device: ``outputs.same_losses``
    return out


def placements_table(got: dict, title: str, full: bool = False) -> Table:
    """Each placement against one device: crossings, bytes, step time, speedup with every round's range, and
    its bound (1x: one micro-batch, nothing overlaps). ``full`` adds the one-device time, the work and
    ``report.reading`` of each row against its bound (the "How this was measured" block)."""
    rows = []
    for name in PLACEMENTS:
        r = got[name]["row"]
        lo, hi = r.speedup_range
        row = [name, got[name]["crossings"], f"{got[name]['bytes'] / 2**20:.1f}", f"{r.seconds * 1e3:.0f}",
               f"{r.speedup:.2f}x ({rounds_text(lo, hi)})", f"{r.bound:.2f}x"]
        if full:  # the work's operands printed beside it (whole ms), so that a reader redoes the division
            work, (stages, one) = r.work_inflation, r.work_ms
            row += [f"{ms_as_printed(r.baseline)}", " / ".join(f"{w:.0f}" for w in stages) if work else "",
                    f"{one:.0f}" if work else "", f"{work:.2f}x" if work else "", reading(r)]
            if r.cpu_workers:  # CPU/busy's divisor (whole ms, as ``Row.cpu_share`` divides), t34_02 other
                row.insert(-3, " / ".join(f"{as_printed(b, 0, 1e-3):.0f}" for b in r.busy))
        rows.append(tuple(row))
    columns = ["placement", "crossings per pass", "MiB moved per step", "step ms", "speedup (range)", "bound"]
    if full:
        kind = "CPU" if got[PLACEMENTS[0]]["row"].cpu_workers else "busy"
        columns += ["one device ms", f"{kind} ms per stage", f"one device {kind} ms", "work vs 1 dev",
                    "reading against 1x"]
        if kind == "CPU":  # each stage's busy (wall) ms beside its CPU ms: the CPU/busy the readings print
            columns.insert(-3, "busy ms per stage")
    return Table(columns, rows, title=title)


def rounds_note(got: dict) -> str:
    """Every round behind section 8's counts and ± (t21_02: the table prints only each range): each placement's
    speedup round by round, and each round's paired difference, so that a reader redoes "4 of 5 rounds above
    the bound", the ± and "4 of 5 paired rounds above 0" from the page."""
    lines = [f"{name}, every round's speedup over one device: " + ", ".join(
        f"{round_text(x)}x" for x in got[name]["row"].speedups) for name in PLACEMENTS]
    return "\n".join(lines + ["attn/ffn minus layers, every round's paired difference: " + ", ".join(
        ms_text(as_printed(x * 1e3, 1), True, 1) for x in got["extra_rounds"]) + " ms"])


def placement_reading(got: dict, transport: str, alphas: dict[str, float] | None = None) -> str:
    """Where the attention/feed-forward placement's extra time went, from the run's own numbers: the extra
    messages' fixed cost (each costs what a 4-byte message took in this launch: the probe), their bytes (an
    activation's time minus the probe's), and what is left, unmeasured (said so, with its untimed
    candidates). When the two placements' difference is within noise of 0 (claims' rule), it says so instead
    of naming a cause. ``alphas``: the link's fitted α under each of its names (lesson 00's fit, this run's fit
    in section 5), printed beside the probe with its difference from each: the probe is not α (a fit's
    intercept over many sizes) but one size timed now, and it is the one the arithmetic uses. The arithmetic
    keeps every digit; only the printing rounds (``ms_text``)."""
    extra, noise, messages, fixed, in_bytes = extra_time(got)
    tiny, one = got["message"]["tiny"], got["message"]["activation"]
    size = got["message"]["activation_bytes"] / 2**20
    beside = ""
    if alphas and any(alphas.values()):
        probe = lambda a: factor_text(as_printed(tiny, 3, 1e-3), alpha_ms(a))  # noqa: E731 (α as tabled)
        beside = "; beside it, the fitted α of " + ", ".join(  # a factor either way, as the link block reads it
            f"{name}: {alpha_text(a)} (the probe {probe(a)} it)" for name, a in alphas.items() if a)
    low, high = extra_range(got)
    d = sum_digits(extra, fixed, in_bytes, extra - fixed - in_bytes)  # one precision for the sentence's ms
    extra, fixed, in_bytes = (as_printed(x, d) for x in (extra, fixed, in_bytes))  # as printed: its sums add up
    rest = as_printed(extra - fixed - in_bytes, d)
    ms = lambda x, sign=False: ms_text(x, sign, d)  # noqa: E731
    text = (f"The attention/feed-forward placement took {ms(extra, True)} ms per step against the layers split "
            f"(the median of each round's difference, paired round by round: {ms(low, True)} to {ms(high, True)} "
            f"ms, ± {ms(noise)} ms) for {messages} more messages ({transport}). Timed in the same launch, a 4-byte "
            f"message takes {tiny * 1e3:.3f} ms (this run's probe of a message's fixed cost: the median of its "
            f"round trips, halved{beside}) and a {size:.1f} MiB activation {sig_text(one, 3, 1e-3)} ms: the extra "
            f"messages should cost {messages} x {tiny * 1e3:.3f} = {ms(fixed)} ms of fixed cost and "
            f"{ms(in_bytes)} ms of bytes")
    if not resolved(got):
        return text + (f". The difference is within noise of 0 ({ms(extra, True)} ± {ms(noise)} ms covers it): "
                       "this run does not resolve it, so it is not split into causes.")
    if not split_decided(got):  # where the messages at the probe's price pass either reading, it says so
        return text + "." + medians_clause(got) + (f" The {probe_refuted(got)}." if overpriced(got) else "")
    if rest >= 0:
        text += (f"; {ms(extra)} - {ms(fixed)} - {ms(in_bytes)} leaves {ms(rest)} ms that the messages do not "
                 "explain")
        covered = work_rise(got, extra, as_printed(noise, d))
        short = work_beside_rest(got, rest, d)  # the work measured, short of the extra time
        text += (f": the stages' measured work, {covered:+.0f} ms, accounts for "
                 f"{reach_words(got, covered, extra, as_printed(noise, d), d)} (where it went inside "
                 f"the work, untimed here{overlap(got)})" if covered is not None else
                 f": {short} (for a message, or for the other stage)" if short else
                 ": this run did not measure where it went (candidates, untimed here: the schedule's "
                 "bookkeeping, one more forward and backward call per sub-layer)")
        share = "most" if fixed + in_bytes > rest else "less than half"
        return text + f". The messages measured here account for {share} of the extra time."
    if not overpriced(got):  # above the median, not above its largest reading: the price is not decided
        undecided = messages_undecided(got)
        return text + f". {undecided[0].upper()}{undecided[1:]}." + work_note(got, extra, as_printed(noise, d), d)
    # one micro-batch: nothing overlaps, so the messages' whole cost is in the step: the probe overprices them
    text += (f", {ms(-rest)} ms more than the placement's whole extra time: the probe, timing one message "
             "alone, overprices these messages inside the step (this run does not tell why)")
    cause = ("their fixed cost (the 4-byte probe's time, per message), not bytes" if fixed > in_bytes
             else "bytes, not the number of crossings")
    return (text + f". Of the messages' cost at the probe's price, most is {cause}." +
            work_note(got, extra, as_printed(noise, d), d))


def extra_note(got: dict) -> str:
    """The claims table's addition to the placement's verdict: the extra time against the layers split and
    what the messages explain, only where the difference clears the paired rounds' spread ("" otherwise)."""
    extra, noise, _, fixed, in_bytes = extra_time(got)
    if not resolved(got) or extra <= 0:
        return ""
    d = sum_digits(extra, fixed, in_bytes, extra - fixed - in_bytes)  # the precision section 8's sentence uses
    extra, fixed, in_bytes = (as_printed(x, d) for x in (extra, fixed, in_bytes))
    cost = as_printed(fixed + in_bytes, d)
    above = sum(x > 0 for x in got["extra_rounds"])
    said = (f"; against the layers split, {ms_text(extra, True, d)} ± {ms_text(noise, digits=d)} ms ({above} of "
            f"{len(got['extra_rounds'])} paired rounds above 0)")
    placed, layers, apart = medians_apart(got)
    if overpriced(got):  # tested first: it holds for the paired figure and for the table's medians alike
        return f"{said}: the {probe_refuted(got)}"
    if apart:  # the table's medians disagree with the paired figure beyond its spread: no split into causes
        return (f"{said}; the table's median steps differ by {placed - layers:+.0f} ms, outside that spread: the "
                "split into causes is not decided by this run")
    if cost > extra:  # above the median but within its spread: not refuted, and not a split either
        return f"{said}: {messages_undecided(got)}" + _work_split(got)
    rest, covered = ms_text(as_printed(extra - cost, d), digits=d), work_rise(got, extra, as_printed(noise, d))
    covers = covered is not None and reach_words(got, covered, extra, as_printed(noise, d), d)
    # not "the other N ms lie in the work": the work holds the messages' own CPU time, so it is no second part
    return (f"{said}: its extra messages explain {ms_text(cost, digits=d)} ms, " +
            (f"and {rest} ms are left that they do not explain; the stages' measured work ({covered:+.0f} ms) "
             f"accounts for {covers}{overlap(got)}" if covered is not None else
             work_beside_rest(got, as_printed(extra - cost, d), d, "other ") or f"{rest} ms are not explained by this run"))


def messages_undecided(got: dict) -> str:
    """Where the extra messages at the probe's price cost more than the median extra time but not more than
    its largest reading (``overpriced`` is False): the one conclusion section 8 prints of the link, in every place
    (the block, the claims table), as a clause: neither refuted nor a share of the extra time."""
    extra, noise, _, fixed, in_bytes = extra_time(got)
    d = sum_digits(extra, fixed, in_bytes, extra - fixed - in_bytes)
    cost = as_printed(as_printed(fixed, d) + as_printed(in_bytes, d), d)
    return (f"the extra messages, at the probe's price, would cost {ms_text(cost, digits=d)} ms, more than "
            f"the median difference but not more than {_largest_extra(got):.1f} ms, its largest reading (the "
            "median plus its spread, or the highest round): the messages' share of the extra time is not decided by "
            "this run")


def _largest_extra(got: dict) -> float:
    """The largest reading of the placement's extra ms this run prints: the paired median plus its spread, the
    table's two median steps' difference (whole ms), or the highest round (section 8's block prints every
    round's range: one round alone may cost more than the median plus its spread), all as printed."""
    return max(value for value, _, _ in extra_readings(got))  # the readings work_reach sets the work against


def overpriced(got: dict) -> bool:
    """Whether the extra messages at the probe's price (``extra_time``: fixed cost and bytes) cost more than
    the largest reading of the extra time (``_largest_extra``), where the difference clears the noise. With
    one micro-batch nothing overlaps, so the messages' whole cost is in the step: the probe overprices them."""
    extra, _, messages, fixed, in_bytes = extra_time(got)
    return resolved(got) and messages > 0 and fixed + in_bytes > _largest_extra(got)


def probe_refuted(got: dict) -> str:
    """What this launch says of the probe's price where ``overpriced``, as a phrase after "the": each extra
    message cost at most the largest extra time over their count, under the probe's price (one activation as
    printed), so the probe's price does not hold for them; "" otherwise."""
    if not overpriced(got):
        return ""
    _, _, messages, fixed, in_bytes = extra_time(got)
    top, d = _largest_extra(got), sum_digits(fixed, in_bytes)
    cost = as_printed(as_printed(fixed, d) + as_printed(in_bytes, d), d)  # the sum of the two printed terms
    probe = sig_text(got["message"]["activation"], 3, 1e-3)  # as the block prints it and extra_time uses it
    return (f"probe overprices these messages: at its price they would cost {ms_text(cost, digits=d)} ms, more "
            f"than {top:.1f} ms, the largest reading of the extra time; so each cost at most {top:.1f} / "
            f"{messages} = {top / messages:.2f} ms in this launch, under the probe's {probe} ms: a reading at "
            "the probe's price does not hold here, and the messages' share of the extra time is not decided by the "
            "probe" + _work_split(got))


def _work_split(got: dict) -> str:
    """The split of the extra time into work and waiting that section 8's line prints (``placement_answer``'s
    ``work_note``, the same figures as printed), as a clause; "" where that line prints none."""
    more = printed_work_rise(got)  # from the table's per-stage ms, as work_note prints it
    if not split_decided(got) or more is None:
        return ""
    extra, noise = extra_time(got)[:2]
    d = sum_digits(extra, noise)
    shown, spread = as_printed(extra, d), as_printed(noise, d)  # as section 8's line prints them
    if not work_reach(got, more, shown, spread, d)[0]:
        return (f"; of the extra time, the stages' measured work rose by {more:+.0f} ms and the other "
                f"{ms_text(shown - more, digits=d)} ms is waiting")  # at the line's digits, as work_note
    return f"; the stages' measured work, {more:+.0f} ms, accounts for {reach_words(got, more, shown, spread, d)}"


def price_support(got: dict) -> str:
    """Where the probe's price stands (the difference resolved, not ``overpriced``), what it stands on: the extra
    messages' cost at that price beside each reading of the extra time ``_largest_extra`` weighs, as printed,
    and which of them allow it. Sections 5 and 9 are read again at that price, so a price that only the highest
    round allows is said to rest on one round. "" where the price is refuted or nothing is resolved."""
    _, _, messages, fixed, in_bytes = extra_time(got)
    if not resolved(got) or messages <= 0 or overpriced(got):
        return ""
    d = sum_digits(fixed, in_bytes)
    fixed, in_bytes = as_printed(fixed, d), as_printed(in_bytes, d)
    cost = as_printed(fixed + in_bytes, d)  # the sum of the two printed terms, as section 8's block adds them
    # the median first, as the line above leads with it, then the readings the work's rise is set against
    # (work_reach): "every one of them" then covers every reading the page prints of the extra time
    readings = [(extra_time(got)[0], "the paired median", 1)] + extra_readings(got)
    listed = ", ".join(f"{value:.{digits}f} ms ({name})" for value, name, digits in readings)
    which = _which_allow([name for value, name, _ in readings if value >= cost], len(readings))
    # the rule first (one reading as large as the cost keeps the price), then which readings meet it
    return ("The probe's price is not ruled out while some reading of the extra time is as large as what the extra "
            f"messages would cost at that price: section 8's {messages} extra messages would cost "
            f"{ms_text(fixed, digits=d)} + {ms_text(in_bytes, digits=d)} = {ms_text(cost, digits=d)} ms at it; the "
            f"extra time read {listed}: {which}")


def _which_allow(allow: list[str], count: int) -> str:
    """Which readings of the extra time reach the messages' cost at the probe's price, in words."""
    if len(allow) == count:
        return "every one of them reaches that cost"
    if len(allow) == 1:  # the highest round alone: one round of five carries the price
        rests = ", so the price rests on one round" if allow[0].startswith("the highest") else ""
        return f"only {allow[0]} reaches that cost{rests}"
    if allow:
        return f"{len(allow)} of {count} reach that cost ({listed(allow, 'and')})"
    return "none of them, as printed, reaches that cost"


def price_ceiling(got: dict, link) -> float | None:
    """Where the placements refute the probe's price (``overpriced``), the most each extra message cost in this
    launch (``probe_refuted``'s "at most 22.6 / 12 = 1.88 ms") over the price section 5's link (``link``, a
    ``runs.Link``) gives one activation (0.860 ms, as section 8's block prints it): 1.88 / 0.860 = 2.2x, the
    ceiling section 5's link readings are read again at. None where the probe's price is not refuted."""
    if not overpriced(got):
        return None
    each = as_printed(_largest_extra(got) / extra_time(got)[2], 2)  # ms, as probe_refuted prints it
    fitted = as_printed_sig(message_time(link, got["message"]["activation_bytes"]), 3, 1e-3)  # ms, as the block prints it
    return each / fitted


def medians_clause(got: dict) -> str:
    """Set the paired difference beside the two median steps the table prints, so that a reader sees why they
    differ; where they differ by more than the paired spread, the extra time is not split into causes."""
    placed, layers, apart = medians_apart(got)
    said = (f" The table's two median steps, {placed:.0f} and {layers:.0f} ms, differ by {placed - layers:+.0f} ms; "
            "the figure read here is the median of each round's paired difference (the two medians may come "
            "from different rounds)")
    if not apart:
        return said + ", and the two agree within its spread (and the table's 1 ms of rounding)."
    return (said + ": they differ by more than its spread (and the table's 1 ms of rounding), so the split of the "
            "extra time into causes is not decided by this run.")


def split_decided(got: dict) -> bool:
    """Whether the extra time is split into causes: it clears the noise (``resolved``) and the two median
    steps agree with it within its spread (``medians_apart``)."""
    return resolved(got) and not medians_apart(got)[2]


def _does_it_help(got: dict) -> str:
    """Section 8's question answered first, from the run: "No", "Yes" or "Not shown", by the paired difference
    (``resolved``), beside the two placements' speedups as the table prints them."""
    placed, layers = (as_printed(got[name]["row"].speedup, 2) for name in ("attn/ffn", "layers"))
    slower = extra_time(got)[0] > 0
    than = "than the layers split"  # the question compares the placements; one device's 1x is the table's
    word = ("Not shown (within noise)" if not resolved(got) else
            f"No, slower {than}" if slower else f"Yes, faster {than}")
    agree = not resolved(got) or (placed < layers if slower else placed > layers)  # the speedups say it too
    return (f"{word}: {placed:.2f}x over one device against the layers split's {layers:.2f}x. " if agree else
            f"{word} by the paired rounds (the two speedups, {placed:.2f}x and {layers:.2f}x, do not show it). ")


def placement_answer(got: dict) -> str:
    """Section 8's visible answer, in two sentences: whether the attention/feed-forward placement helps, then its
    extra time against the layers split (paired rounds' median ± spread) for its extra messages, or, where that
    difference is within noise of 0 (``resolved``), that the run does not resolve it. What the extra time is made
    of sits in the block below the answer (``placement_split``, ``placement_reading``)."""
    extra, noise, messages, _, _ = extra_time(got)
    d = sum_digits(extra, noise)
    said = _does_it_help(got) + (f"The attention/feed-forward placement took {ms_text(extra, True, d)} ± {ms_text(noise, False, d)} ms "
            f"per step against the layers split (paired round by round) for {messages} more messages.")
    if not resolved(got):
        return said + " That difference is within noise of 0: this run does not resolve it."
    return said


def placement_split(got: dict) -> str:
    """The answer's extra time, for the block: set beside the table's two median steps (``medians_clause``) and,
    where the difference clears the noise and the medians agree with it (``split_decided``), what the stages'
    measured work says of it (``work_note``)."""
    extra, noise, _, _, _ = extra_time(got)
    d = sum_digits(extra, noise)
    said = medians_clause(got)
    if split_decided(got):
        said += work_note(got, as_printed(extra, d), as_printed(noise, d), d)
    return said.strip()
