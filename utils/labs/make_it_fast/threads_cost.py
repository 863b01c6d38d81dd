"""Lab 08: what the slow script's thread count costs, timed alone. The slow script's workers each ask for
``os.cpu_count()`` threads; the launcher gives each ``cores // workers``. On the workers that just profiled
the slow script, both time the slow script's forward and backward of one micro-batch at each count, in
alternating paired rounds after a warm-up; the take-aways scale the measured speed-up to the profile's
forward and backward, against the prediction's miss.

    outcome = launch(profiled_then_timed, profiled, steps, readers, nprocs=2)[0]   # the diagnosis's launch
    threads_sentence(outcome["threads"], fb_ms, miss_ms, reading)                   # the take-away's words
"""

from __future__ import annotations

import contextlib
import os
import statistics
import tempfile
import time

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

from utils import bench, claims
from utils.labs.make_it_fast import script
from utils.labs.make_it_fast.threads_agree import disagree_text, timings_disagree
from utils.labs.make_it_fast.threads_groups import spread_working
from utils.labs.make_it_fast.threads_spread import (_not_outlying, _outside, _past_spread_text, reach_below_one,
                                                    savings_across_rounds)
from utils.launch import current_backend, current_device, keep_until_exit

ROUNDS = 5  # paired rounds after one warm-up pair: from 4 rounds on, claims' spread is the middle half's
KEPT = ("optimizer", "evaluate", "checkpoint")  # besides forward and backward, what the prediction keeps
PART = "the threads explain part of the miss, not all of it"  # the verdict where even the high end falls short
NOT_TIMED = ("this run did not time one thread count against the other alone, so what the threads cost is "
             "not measured here")


def profiled_then_timed(profiled, steps: int, readers: tuple) -> dict:
    """A worker: the diagnosis's profiled slow script (``profiled``, checks' ``_profiled_slow``), then the
    thread counts timed on the same workers; rank 0's outcome carries the timing under "threads"."""
    launcher = torch.get_num_threads()  # cores // workers, the launcher's: the slow script then asks for more
    outcome = profiled(steps, readers)
    timed = time_thread_counts(os.cpu_count() or 1, launcher)
    return dict(outcome, threads=timed) if outcome else outcome


def _own_group(device: torch.device) -> str:
    """A process group for the timing alone, on a file store (returns its path): the slow script's store still
    holds MASTER_PORT (its DDP model lives until the worker exits), so a second env:// init would find the port
    taken. The path is the launch's own: both workers share the parent and MASTER_PORT."""
    path = os.path.join(tempfile.gettempdir(), f"lab08-threads-{os.getppid()}-{os.environ['MASTER_PORT']}")
    world = int(os.environ["WORLD_SIZE"])
    dist.init_process_group(current_backend(), store=dist.FileStore(path, world), rank=int(os.environ["RANK"]),
                            world_size=world, device_id=device if device.type == "cuda" else None)
    return path


def _one_micro_batch():
    """The slow script's first micro-batch: (MICRO_BATCH, CONTEXT) inputs and targets, read without the
    storage's wait (only the compute is timed)."""
    windows = script.text().windows
    return (torch.stack(t) for t in zip(*(windows[i] for i in range(script.MICRO_BATCH))))


def time_thread_counts(slow: int, launcher: int, rounds: int = ROUNDS) -> dict:
    """Both workers time the slow script's forward and backward of one micro-batch (DDP's all-reduce
    included, as the slow script syncs every micro-batch) at ``slow`` and at ``launcher`` threads, each round
    starting with the other count (``bench.alternate``). Returns the counts, each round's ms at each, and the
    rounds' ratios slow / launcher (how much faster the launcher's count ran): none where the counts are
    the same."""
    timed = {"slow": slow, "launcher": launcher, "slow_ms": [], "launcher_ms": [], "ratios": []}
    if slow == launcher:
        return timed
    device = current_device()
    store = _own_group(device)
    x, y = (t.to(device) for t in _one_micro_batch())
    model = keep_until_exit(DDP(script.build_model(script.text().corpus.vocab_size).to(device),
                                device_ids=[device.index] if device.type == "cuda" else None))

    def forward_and_backward(threads: int) -> float:
        with bench.threads(threads):
            dist.barrier()  # both workers compute at once, as in the slow script: they share the cores
            bench.synchronize(device)
            start = time.perf_counter()
            (model(x, y)[1] / script.ACCUMULATE).backward()
            bench.synchronize(device)
            return (time.perf_counter() - start) * 1e3

    bench.alternate(lambda: forward_and_backward(slow), lambda: forward_and_backward(launcher), 1)  # warm-up
    slow_ms, launcher_ms = bench.alternate(lambda: forward_and_backward(slow),
                                           lambda: forward_and_backward(launcher), rounds)
    dist.barrier()  # both are done with the store: its file can go (the worker exits without freeing it)
    if dist.get_rank() == 0:
        with contextlib.suppress(OSError):
            os.remove(store)
    dist.destroy_process_group()
    return dict(timed, slow_ms=slow_ms, launcher_ms=launcher_ms,
                ratios=[s / f for s, f in zip(slow_ms, launcher_ms)])


def _saved_ms(fb_ms: float, speedup: float) -> float:
    """The ms a step the profile's forward and backward (``fb_ms``, as printed) would lose at ``speedup``,
    worked as a reader does from the printed figures (1576 - 1576 / 6.12 = 1318), never below none."""
    return max(0.0, claims.half_up(fb_ms - fb_ms / speedup, 0)) if speedup > 0 else 0.0


def kept_ms(reading: dict) -> tuple[float, str]:
    """The regions besides forward and backward that the prediction keeps at their profiled cost
    (``prediction.needed_step_ms``): the optimizer every step, the held-out loss every ``EVAL_EVERY``-th step,
    the checkpoint every ``CHECKPOINT_EVERY``-th, worked from cell 11's rows as printed (0.1 ms) and rounded
    half up, with the working: (129.0, "76.5 + 281.3 / 6 + 35.2 / 6 = 129"). They ran at the slow script's
    thread count too, but the threads were timed on forward and backward alone."""
    optimizer, evaluate, checkpoint = (claims.as_printed(reading[region], 1) for region in KEPT)
    ms = claims.half_up(optimizer + evaluate / script.EVAL_EVERY + checkpoint / script.CHECKPOINT_EVERY, 0)
    return ms, (f"{optimizer:.1f} + {evaluate:.1f} / {script.EVAL_EVERY} + {checkpoint:.1f} / "
                f"{script.CHECKPOINT_EVERY} = {ms:.0f}")


def _percent(ms: float, of_ms: float) -> float:
    """``ms`` as a whole percent of ``of_ms`` (both as printed), half up; none of nothing is unbounded."""
    return claims.half_up(100 * ms / of_ms, 0) if of_ms > 0 else float("inf")


def _bases(timed: dict, fb_ms: float) -> list[float]:
    """The ms a step of forward and backward at the slow count that the speed-up is scaled to, as printed:
    timed alone (``ACCUMULATE`` x the rounds' median a micro-batch, as printed: 4 x 166.3 = 665), where this
    run kept the rounds' ms, then the profile's (``fb_ms``, under the profiler). Both are readings of the same
    work: the profiled one may hold the profiler's overhead, which the speed-up was not timed on."""
    bases = [claims.as_printed(fb_ms, 0)]
    if timed["slow_ms"]:
        per = claims.as_printed(statistics.median(timed["slow_ms"]), 1)
        bases.insert(0, claims.as_printed(script.ACCUMULATE * per, 0))
    return bases


def _profile_gap(timed: dict, fb_ms: float) -> tuple[float, float, float] | None:
    """The slow count's forward and backward a step timed alone (``ACCUMULATE`` x the rounds' median a
    micro-batch, as printed: 4 x 84.3 = 337.2), the profile's (cell 11's row, 691.6) and how many ms more the
    profiled took, worked from those two as printed to the ms, half up (691.6 - 337.2 = 354; twenty-ninth
    reading: 692 - 337 = 355 from their roundings sat beside 691.6 and 337.2). None where no ms were kept."""
    if not timed or not timed["slow_ms"]:
        return None
    per = claims.as_printed(statistics.median(timed["slow_ms"]), 1)
    alone, profiled = claims.half_up(script.ACCUMULATE * per, 1), claims.as_printed(fb_ms, 1)
    gap = claims.half_up(abs(profiled - alone), 0)
    return alone, profiled, gap if profiled >= alone else -gap


def _beside_the_profile(timed: dict, fb_ms: float) -> str:
    """The slow count's forward and backward timed alone (the rounds' median a micro-batch, times
    ``ACCUMULATE``) beside the profile's at the same count, under the profiler (cell 11's row), and how far
    apart they are (``_profile_gap``): that gap is a candidate of its own in the miss. Empty where no ms were
    kept."""
    if not timed["slow_ms"]:
        return ""
    per = claims.as_printed(statistics.median(timed["slow_ms"]), 1)
    alone, profiled, gap = _profile_gap(timed, fb_ms)
    apart = (f"{profiled:.1f} - {alone:.1f} = {gap:.0f} ms more" if gap > 0 else
             f"{alone:.1f} - {profiled:.1f} = {-gap:.0f} ms less" if gap < 0 else "as much, to the ms")
    return (f". At {timed['slow']} threads a micro-batch took a median {per:.1f} ms timed alone, "
            f"{script.ACCUMULATE} x {per:.1f} = {alone:.1f} ms a step; under the profiler, forward and backward "
            f"took {profiled:.1f} ms a step ({profiled:.1f} / {script.ACCUMULATE} = "
            f"{claims.half_up(profiled / script.ACCUMULATE, 1):.1f} ms a micro-batch), {apart} at the same count")


def profiler_gap_ms(timed: dict | None, fb_ms: float) -> float | None:
    """How many ms a step more forward and backward took under the profiler than timed alone at the slow
    script's thread count, as ``_beside_the_profile`` prints it (691.6 - 337.2 = 354); None where this run
    kept no rounds' ms, or where it was not more."""
    worked = _profile_gap(timed, fb_ms)
    return worked[2] if worked and worked[2] > 0 else None


def _saving_text(bases: list[float], value: float, ratios: list | None = None) -> str:
    """What the speed-up saves on each basis (``_bases``), worked from the printed figures. Scaling the
    profiled ms assumes the profiler's overhead shrank in the speed-up's ratio: not measured, so said.
    ``ratios``: the rounds, given where the ± reaches 1x, so each saving also says its range across them."""
    worked = [f"{ms:.0f} - {ms:.0f} / {value:.2f} = {_saved_ms(ms, value):.0f} ms" for ms in bases]
    across = [savings_across_rounds(ms, ratios, _saved_ms) if ratios else "" for ms in bases]
    if len(bases) == 1:
        return (f". Scaled to the profile's {bases[0]:.0f} ms a step of it (under the profiler, the speed-up "
                f"without it), the launcher's thread count saves {worked[0]} a step{across[0]}")
    shrank = ", if the profiler's overhead shrank in the same ratio (not measured)" if bases[1] > bases[0] else ""
    return (f". Scaled to the {bases[0]:.0f} ms timed alone, the launcher's thread count saves {worked[0]} a "
            f"step{across[0]}; scaled to the profiled {bases[1]:.0f} ms, it saves {worked[1]}{across[1]}{shrank}")


def _ends(value: float, spread: float, ratios: list) -> tuple[float, float, str]:
    """The speed-up's low and high ends across its ±, each kept within the rounds as printed (a wide spread
    can reach below the smallest round, even below 0x: no round ran that slow), and the words for a clipped
    end."""
    shown = [claims.as_printed(r, 2) for r in ratios]
    low, high = claims.half_up(value - spread, 2), claims.half_up(value + spread, 2)
    notes = []
    if low < min(shown):
        low = min(shown)
        notes.append(f"its low end at the smallest round, {low:.2f}x")
    if high > max(shown):
        high = max(shown)
        notes.append(f"its high end at the largest round, {high:.2f}x")
    return low, high, "".join(f", {note}" for note in notes)


def _rest_text(low: float, high: float, at: str, wide: tuple[float, str] | None = None) -> str:
    """The miss the saving leaves, as printed, and the speed-up it is read at (``at``: "the median 3.82x",
    "2.56x, the low end of its ±"): "the other 215 ms of the miss at the median 3.82x", "the other 215 to 573 ms
    of the miss at the median 3.82x on the two scalings", or "the rest of the miss, up to 573 ms at ..." where
    the largest saving covers the whole miss. A range is of what it names (thirty-seventh reading: "the other
    406 to 980 ms", from the median alone, read as the rounds'). ``wide``: the most it leaves at the low end of
    the speed-up's ± or rounds, and where ("2.25x, the smallest round"), named where it leaves more
    (thirty-sixth reading: "up to 153 ms" beside rounds down to 2.25x, which leave 359 ms)."""
    low = max(low, 0.0)
    more = f" ({wide[0]:.0f} ms at {wide[1]})" if wide and wide[0] > high else ""
    if low == high:
        return f"the other {high:.0f} ms of the miss at {at}{more}"
    if not low:
        return f"the rest of the miss, up to {high:.0f} ms at {at}{more}"
    return f"the other {low:.0f} to {high:.0f} ms of the miss at {at} on the two scalings{more}"


def _candidates(rest: str, kept: float, gap: str = "", most: float | None = None) -> str:
    """The miss the threads' saving leaves (``rest``, ``_rest_text``'s), and what may hold it: named as
    candidates, since this run times none of them apart (the kept regions first: they ran at the slow count
    too, and can hold at most their own ms, and no more than ``most``, the most ``rest`` leaves: thirty-sixth
    reading, "up to 313 ms" of a rest of 153 ms; then ``gap``, the profiled forward and backward over the
    timed, where this run kept both; where it did not, the profiler's overhead in general)."""
    held = "all of it" if most is not None and kept >= most else f"{kept:.0f} ms of it"
    first = f"the kept regions above (up to {held}), " if kept else ""
    if gap:  # three candidates or more: a sentence of their own
        return (f". {rest[0].upper()}{rest[1:]} is not timed apart. Its candidates: {first}{gap}, and "
                "your script's other changes inside forward and backward (fewer all-reduces a step, for one)")
    return (f"; {rest}: {first}your script's other changes inside forward and backward "
            "(fewer all-reduces a step, for one) and the profiler's own overhead on the slow script's step, "
            "candidates not timed apart")


def _gap_text(bases: list[float], value: float, gap_ms: float | None = None) -> str:
    """The profiled forward and backward over the one timed alone, a candidate of its own (the profiler's
    overhead, or the profiled run's share of the cores), with how much of it the profiled scaling counts as
    the threads'. ``gap_ms``: that gap as ``_beside_the_profile`` prints it (``profiler_gap_ms``); None: the
    bases' difference. Empty with one basis, or where the profiled ms are no more than the timed."""
    gap = bases[1] - bases[0] if gap_ms is None and len(bases) > 1 else gap_ms
    if len(bases) < 2 or not gap or gap <= 0:
        return ""
    counted = _saved_ms(bases[1], value) - _saved_ms(bases[0], value)
    return (f"forward and backward's {gap:.0f} ms more under the profiler than timed alone (the "
            f"profiled scaling counts {_saved_ms(bases[1], value):.0f} - {_saved_ms(bases[0], value):.0f} = "
            f"{counted:.0f} ms of it as the threads')")


def _share(percent: float) -> str:
    """"76%", or "all" past 100%: no saving explains more than the whole of what it is set against
    (thirty-sixth reading: "1059% of that part")."""
    return "all" if percent > 100 else f"{percent:.0f}%"


def _range(low: float, high: float) -> str:
    """"71% to 96%", "71% to all" where the high end passes 100%, or "76%" where both ends print alike."""
    return _share(low) if _share(low) == _share(high) else f"{_share(low)} to {_share(high)}"


def _across(ends: tuple, centre: tuple, notes: str, over: str = "its ±") -> str:
    """The shares across the speed-up's ± beside the central ones, naming only an end that prints differently
    (twenty-fifth reading: "22%-76% (22%-78% across its ±)" repeated the low end): " (up to 78% across its ±)",
    " (down to 71% across its ±)", " (71% to 104% across its ±)", or "" where both ends print alike. ``over``:
    what the ends span, the ± or, where it leaves out most rounds, the rounds ("the rounds, 1.83x to 2.69x")."""
    low, high = ends
    if _range(low, high) == _range(*centre):
        return ""
    if _share(low) == _share(centre[0]):
        return f" (up to {_share(high)} across {over}{notes})"
    if _share(high) == _share(centre[1]):
        return f" (down to {_share(low)} across {over}{notes})"
    return f" ({_range(low, high)} across {over}{notes})"


def _share_text(saved: tuple, ends: tuple, miss_ms: float, kept: tuple, notes: str,
                over: str = "its ±") -> tuple[str, float, float]:
    """The saving's share of the part of the miss forward and backward can hold, like with like: the whole miss
    where the prediction keeps nothing else (``kept`` none), else from the miss less the most the kept regions
    could save (all their ms) up to the whole miss. ``saved``: the least and most ms saved across the bases;
    ``ends``: the same at the speed-up's low and high ends (``_ends``; ``notes``: its clipped ends; ``over``:
    what they span, ``_across``). Returns the words and the shares' ends, as printed."""
    kept_most, worked = kept
    part = miss_ms - kept_most  # the least of the miss forward and backward can hold
    low, high = _percent(ends[0], miss_ms), _percent(ends[1], part)
    centre = (_percent(saved[0], miss_ms), _percent(saved[1], part))
    across = _across((low, high), centre, notes, over)
    either = " on either scaling" if saved[0] != saved[1] else ""
    if not kept_most:
        return f". That is{either} {_range(*centre)}{across} of the prediction's {miss_ms:.0f} ms miss", low, high
    said = (f". The prediction's {miss_ms:.0f} ms miss also holds what the other regions it keeps saved: the "
            f"optimizer, and the evaluations and checkpoints it keeps ({worked} ms as profiled, run at the slow "
            f"script's thread count too, not timed apart), at most those {kept_most:.0f} ms")
    if part <= 0:  # they could hold it all: forward and backward's part has no floor, the share no ceiling
        across = f" ({low:.0f}% or more across {over}{notes})" if low != centre[0] else ""
        said += f". So the saving{either} is {centre[0]:.0f}% or more{across} of forward and backward's part"
        return said, low, high
    saves = "On either scaling, the launcher's thread count saves" if either else "The launcher's thread count saves"
    # one sentence with the kept regions it follows from (thirty-fifth reading: a one-line sub-bullet)
    said += (f", so forward and backward's part of the miss is {part:.0f} to {miss_ms:.0f} ms. {saves} "
             f"{_range(*centre)} of that part{across}")
    return said, low, high


def _share_of_miss(bases: list[float], value: float, spread: float, ratios: list, miss_ms: float,
                   kept: tuple = (0.0, ""), gap_ms: float | None = None) -> str:
    """What the saving on forward and backward (scaled to each of ``bases``) is of its part of the prediction's
    miss (``miss_ms``; ``kept``: ``kept_ms``'s, the other regions the prediction keeps), and the branch, judged
    on the shares as printed (whole percent, half up) across both scalings and the speed-up's ± (kept within
    the rounds; the rounds' whole range where the ± sets none of the rounds it leaves out apart, ``_not_outlying``): more than
    the whole miss even at the low end, part of even the least part forward and backward can hold at the high
    end, the whole miss across the ±, or not told apart (the ± reaching both). ``gap_ms``: the profiled forward
    and backward over the timed, as printed (``profiler_gap_ms``; ``_gap_text``)."""
    savings = [_saved_ms(ms, value) for ms in bases]
    low_x, high_x, notes = _ends(value, spread, ratios)
    over, reaches = "its ±", "its ± reaches"
    if _not_outlying(ratios):  # the ± does not give the rounds' reach: the shares' ends come from their range
        shown = [claims.as_printed(r, 2) for r in ratios]
        low_x, high_x, notes = min(shown), max(shown), ""
        over, reaches = f"the rounds, {low_x:.2f}x to {high_x:.2f}x", "the rounds reach"
    saved = (min(savings), max(savings))
    ends = (min(_saved_ms(ms, low_x) for ms in bases), max(_saved_ms(ms, high_x) for ms in bases))
    said, low, high = _share_text(saved, ends, miss_ms, kept, notes, over)
    # where the rounds stand in for the ± (most lie outside it), what the smallest leaves is named too
    wide = (miss_ms - ends[0], f"{low_x:.2f}x, the smallest round") if over != "its ±" else None
    at_median = f"the median {value:.2f}x"
    rest = _candidates(_rest_text(miss_ms - saved[1], miss_ms - saved[0], at_median, wide), kept[0],
                       _gap_text(bases, value, gap_ms), max(miss_ms - saved[0], miss_ms - ends[0]))
    if low > 100:
        return said + ": more than the whole miss, a finding to explain"
    if high < 100:
        return said + f": {PART}" + rest
    if low >= 100:  # the low end touches the whole as printed: nothing across the ± falls short of it
        left = f", leaving none of it to the other kept regions' {kept[0]:.0f} ms" if kept[0] else ""
        return said + ": the threads explain the whole miss, within noise" + left
    if miss_ms - kept[0] <= 0:
        return said + ": how much of that part the threads explain is not told apart here" + rest
    # the range reaches past the whole and below it: one reading is not told from the other
    if saved[0] >= miss_ms:  # every scaling's median covers the miss; only its ± leaves some of it
        smallest = low_x == min(claims.as_printed(r, 2) for r in ratios)
        at_low = f"{low_x:.2f}x, {'the smallest round' if smallest else 'the low end of its ±'}"
        rest = _candidates(_rest_text(0.0, miss_ms - ends[0], at_low), kept[0], _gap_text(bases, value, gap_ms),
                           miss_ms - ends[0])
        medians = "every scaling's median covers" if len(bases) > 1 else "the median covers"
        return (said + f": {medians} the whole miss, but {reaches} {low:.0f}%, so whether the threads "
                "explain all of it is not told apart here" + rest)
    return said + ": whether the threads explain all of it is not told apart here" + rest


def _range_of(rounds: list) -> float:
    """One group's range as printed (largest - smallest round, two decimals, half up); 0.0 for one round."""
    shown = [claims.as_printed(r, 2) for r in rounds]
    return claims.half_up(max(shown) - min(shown), 2)


def _gap(near: list, apart: list) -> float:
    """The gap between two groups of rounds as printed: from the nearer group's edge to the other's (28.49 -
    3.10 = 25.39), on whichever side the other lies; 0.0 or less where they overlap."""
    near_s, apart_s = ([claims.as_printed(r, 2) for r in g] for g in (near, apart))
    if min(apart_s) > max(near_s):
        return claims.half_up(min(apart_s) - max(near_s), 2)
    return claims.half_up(min(near_s) - max(apart_s), 2)


def really_apart(near: list, apart: list) -> bool:
    """Whether two groups of rounds are really apart: the gap between them wider than either group's range,
    so that no round sits nearer the other group than its own reaches. 1.76x, 1.91x, 3.10x beside 28.49x,
    34.36x are (a gap of 25.39 against ranges of 1.34 and 5.87); 1.81x, 2.43x, 2.55x beside 4.04x, 23.50x are
    not (1.49 against 19.46: 4.04x lies far nearer 2.55x than 23.50x, twenty-sixth reading)."""
    gap = _gap(near, apart)
    return gap > _range_of(near) and gap > _range_of(apart)


def spread_apart(ratios: list) -> tuple[float, list, list, float]:
    """The median as printed, the rounds near it, the rounds set apart, and all the rounds' ± (half the middle
    half's range, claims' ``printed_spread``). Where that ± reaches past the smallest or the largest round as
    printed, the rounds on its other side beyond it set it (2.45x ± 5.75, set by 13.54x, reaches -3.30x): those
    are set apart, once (a second pass would trim every spread down to nothing), but only where the two groups
    are really apart (``really_apart``): a ± that passes the far end by a hair beside rounds that run on
    without a gap (2.55x ± 0.81 beside 1.81x and 4.04x, twenty-sixth reading) is an ordinary ± with outlying
    rounds. ``gathered`` reads rounds set apart as two groups; no ± of the rounds near the median is printed
    beside two groups, so none is worked."""
    value, spread = claims.as_printed(statistics.median(ratios), 2), claims.printed_spread(ratios)
    shown = [claims.as_printed(r, 2) for r in ratios]
    below, above = _outside(ratios, value, spread)
    if claims.half_up(value - spread, 2) < min(shown) and above:
        apart = above
    elif claims.half_up(value + spread, 2) > max(shown) and below:
        apart = below
    else:
        return value, list(ratios), [], spread
    near = [r for r in ratios if r not in apart]
    if not really_apart(near, apart):
        return value, list(ratios), [], spread
    return value, near, apart, spread


def gathered(ratios: list) -> bool:
    """Whether the rounds gather around one figure, so that their median ± spread describes them: not where
    ``spread_apart`` sets rounds apart. It does so only where all the rounds' ± reaches past the rounds' far
    end, which takes the middle half itself reaching into a group far from the median, and where that group is
    really apart: two groups, as in 1.76x, 1.91x, 3.10x, 28.49x, 34.36x (3.10x ± 13.29). The ± of the nearer
    group alone left most of the rounds outside it too (3.10x ± 0.67 beside 1.76x and 1.91x, twenty-fourth
    reading), so neither ± is printed, nor anything scaled from the median."""
    return not spread_apart(ratios)[2]


def _rounds_text(timed: dict) -> str:
    """The rounds' ratios as printed, smallest first (ratios, not times: no round is "slowest", twenty-third
    reading), so that a reader sees how far they spread, and those outside the median ± the spread named, on
    either side (``_past_spread_text``)."""
    shown = ", ".join(f"{claims.as_printed(r, 2):.2f}x" for r in sorted(timed["ratios"]))
    return (f". Its {len(timed['ratios'])} paired rounds (one micro-batch each, on the same two workers after "
            f"the profile, after a warm-up) gave, smallest first: {shown}" + _past_spread_text(timed["ratios"]))


def _group(rounds: list) -> str:
    """"3 rounds from 1.76x to 3.10x", or "1 round at 28.49x": one group of rounds, as printed."""
    shown = sorted(claims.as_printed(r, 2) for r in rounds)
    if len(shown) == 1:
        return f"1 round at {shown[0]:.2f}x"
    return f"{len(shown)} rounds from {shown[0]:.2f}x to {shown[-1]:.2f}x"


def _apart_text(near: list, apart: list) -> str:
    """Why the two groups are apart, worked from the rounds as printed: "a gap of 28.49 - 3.10 = 25.39x,
    wider than either group's range (3.10 - 1.76 = 1.34x; 34.36 - 28.49 = 5.87x)" (``really_apart``)."""
    groups = sorted((near, apart), key=min)
    low, high = ([claims.as_printed(r, 2) for r in g] for g in groups)
    ranges = "; ".join(f"{max(g):.2f} - {min(g):.2f} = {claims.half_up(max(g) - min(g), 2):.2f}x" if len(g) > 1
                       else f"one round, {g[0]:.2f}x: none" for g in (low, high))
    return (f"a gap of {min(high):.2f} - {max(low):.2f} = {_gap(near, apart):.2f}x, wider than either group's "
            f"range ({ranges})")


def _edge_text(value: float, whole: float, high: bool) -> str:
    """Where all the rounds' median ± spread reaches on the side away from the far group (``high``: the far
    group above the median), worked: "past the largest round (2.40 + 0.98 = 3.38x)", "below the smallest round
    (3.10 - 1.00 = 2.10x)", or, where the ± is wider than the median, "below zero, where no speed ratio lies
    (3.71 - 9.00 < 0)": the difference is no ratio, so it is not printed as one (twenty-seventh reading:
    "-5.29x")."""
    if not high:
        return f"past the largest round ({value:.2f} + {whole:.2f} = {claims.half_up(value + whole, 2):.2f}x)"
    edge = claims.half_up(value - whole, 2)
    if edge < 0:
        return f"below zero, where no speed ratio lies ({value:.2f} - {whole:.2f} < 0)"
    return f"below the smallest round ({value:.2f} - {whole:.2f} = {edge:.2f}x)"


def _groups_text(timed: dict, fb_ms: float, miss_ms: float | None) -> str:
    """The take-away where the rounds fall in two groups (``gathered`` false): the range, the groups, how far apart
    they are and why all the rounds' median ± describes neither (its working), and no saving scaled from one figure: what share of the miss the threads hold is not
    measured (twenty-fourth reading: 287 ms scaled from 3.10x, beside rounds of 1.76x, which give 183 ms)."""
    slow, ratios = timed["slow"], timed["ratios"]
    value, kept, apart, whole = spread_apart(ratios)
    shown = sorted(claims.as_printed(r, 2) for r in ratios)
    side = claims.one_side(ratios, 1.0)
    sides = {"above": "every round above 1.00x; both counts ran on the same "
                      f"{slow} cores: the gain is what oversubscribing them cost; there is no bound to set it against",
             "below": "every round below 1.00x: its own count ran faster"}.get(side, "rounds on both sides of 1.00x")
    plural = "s" if timed["launcher"] > 1 else ""
    high = apart[0] > value  # the far group above the median: all the rounds' ± reaches below the smallest
    other = claims.half_up(value + whole if high else value - whole, 2)  # the edge short of the far group
    said = (f"timed alone, without the profiler, the slow script's forward and backward ran between {shown[0]:.2f}x "
            f"and {shown[-1]:.2f}x as fast with the launcher's {timed['launcher']} thread{plural} a worker "
            f"(cores // workers) as with its own {slow}, in rounds that fall in two groups: this run cannot put "
            f"one figure on it ({sides}). Its {len(ratios)} paired rounds (one micro-batch each, on the same two "
            f"workers after the profile, after a warm-up) gave, smallest first: "
            + ", ".join(f"{x:.2f}x" for x in shown)
            + f": {' and '.join(_group(g) for g in sorted((kept, apart), key=min))}, {_apart_text(kept, apart)}. "
            f"All {len(ratios)} rounds' median ± spread, {value:.2f}x ± {whole:.2f} ({spread_working(shown)}), "
            f"reaches {_edge_text(value, whole, high)} and stops short of the other group ({value:.2f} "
            f"{'+' if high else '-'} {whole:.2f} = {other:.2f}x): one ± cannot describe two groups")
    # no ms a micro-batch beside the profile's here (thirtieth reading: the block was long): rounds in two
    # groups give no one figure to set against it, so the range added length and no conclusion
    if miss_ms and miss_ms > 0:
        return said + (f". So how much of the prediction's {miss_ms:.0f} ms miss the threads explain is not "
                       "measured here: a saving scaled from one figure would claim a precision these rounds do "
                       "not have")
    return said + ". So what the thread count saves a step is not measured here"


def threads_sentence(timed: dict | None, fb_ms: float, miss_ms: float | None,
                     reading: dict | None = None) -> str:
    """The take-away on the threads, from this run, in short sentences: how much faster the slow script's
    forward and backward ran at the launcher's thread count than at its own (the paired rounds' median ±
    spread, claims' verdict, and the rounds; where the rounds fall in two groups, their range alone,
    ``_groups_text``), and, scaled to that work's ms a step timed alone and to the
    profile's ``fb_ms``, what share of the prediction's miss (``miss_ms``, as printed; None where the
    prediction did not miss under the measured step) that accounts for: of the part of the miss forward and
    backward can hold, the other regions the prediction keeps (from ``reading``, the profile's reading; None:
    none kept) holding the rest. ``timed``: from ``time_thread_counts``; None where this run did not time
    them. Starts in lower case: the take-away goes on from its own clause."""
    if not timed:
        return NOT_TIMED
    slow, launcher, ratios = timed["slow"], timed["launcher"], timed["ratios"]
    if not ratios:
        return f"the launcher gives {launcher} too, so the thread count cost nothing to time here"
    if not gathered(ratios):  # two groups: no median ±, and nothing scaled from one
        return _groups_text(timed, fb_ms, miss_ms)
    value, spread = claims.as_printed(statistics.median(ratios), 2), claims.printed_spread(ratios)
    verdict = claims.speedup_verdict(value, None, spread, rounds=ratios, slower="its own count ran faster")
    verdict = verdict.replace("than the baseline", f"than with its own {slow}")  # the baseline: its own count
    plural = "s" if launcher > 1 else ""
    said = (f"timed alone, without the profiler, the slow script's forward and backward ran {value:.2f}x ± "
            f"{spread:.2f} as fast with the launcher's {launcher} thread{plural} a worker (cores // workers) as "
            f"with its own {slow}")
    none = (f"the threads explain none of the prediction's {miss_ms:.0f} ms miss" if miss_ms and miss_ms > 0
            else "the thread count saved nothing measured here")
    if not verdict.startswith("faster"):  # within noise of 1x, equal as printed, or the slow count faster
        return said + f": {verdict}; so {none}" + _rounds_text(timed)
    if timings_disagree(timed, fb_ms):  # t39: the block opened "ran 13.24x ± 6.53 as fast ... the gain is what
        # oversubscribing them cost" and then threw its own timing out: the rounds' ratios, then why none is read
        return (f"timed alone, without the profiler, the slow script's forward and backward gave rounds' ratios of "
                f"a median {value:.2f}x ± {spread:.2f} (the launcher's {launcher} thread{plural} a worker against "
                f"its own {slow}), not read as a speed-up: the two timings disagree (below)"
                + _rounds_text(timed) + disagree_text(timed, fb_ms, miss_ms))
    # faster: the figure says so; what is left to say is why no bound stands beside it (twenty-third reading:
    # "faster than at its own 2" repeated the clause before it), and where the spread covers 1x that every
    # round is above it
    every = verdict.removeprefix(f"faster than with its own {slow}").strip(" ()")
    reach = reach_below_one(value, spread)  # the rounds, not the ±, carry the verdict: said where it is given
    every += reach if every else ""
    said += (f" ({every}; " if every else " (") + (f"both counts ran on the same {slow} cores: the gain is what "
                                                   "oversubscribing them cost; there is no bound to set it against)")
    bases = _bases(timed, fb_ms)
    said += _rounds_text(timed) + _beside_the_profile(timed, fb_ms) + _saving_text(bases, value, ratios if reach else None)
    if not miss_ms or miss_ms <= 0:
        # the prediction keeps forward and backward as profiled: a step that meets it did not show the saving
        return said + (". Beside a prediction (forward and backward as profiled) that did not miss under your "
                       "step, your step did not show that saving: a finding to explain")
    kept = kept_ms(reading) if reading else (0.0, "")
    return said + _share_of_miss(bases, value, spread, ratios, miss_ms, kept, profiler_gap_ms(timed, fb_ms))
