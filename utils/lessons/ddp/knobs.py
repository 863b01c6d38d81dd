"""DDP's knobs, measured in one launch: bucket size, gradient_as_bucket_view, static_graph,
find_unused_parameters, and ZeroRedundancyOptimizer (ZeRO-1) (lesson 03, ``notebooks/03_ddp.ipynb``).

    got = launch(measure_knobs, settings, rounds=5, nprocs=2)[0]
    got["times"]["bucket_cap_mb=1"]     # seconds per training step, one per round
    got["buckets"]["bucket_cap_mb=1"]   # how many buckets that DDP model all-reduces per backward
    got["grad_copy_bytes"]               # gradient bytes held apart from DDP's buckets, without / with the view
    got["optimizer_bytes"]               # AdamW's state on this rank: plain / ZeRO-1

Every variant is its own DDP model over a copy of the same weights, in the same process group, and the
variants take one training step each in turn, round after round (the order reversed every other round), so
that they share the machine's state and none always runs first.
"""

from __future__ import annotations

import contextlib
import copy
import os
import time

import torch
import torch.distributed as dist
from torch.distributed.optim import ZeroRedundancyOptimizer
from torch.nn.parallel import DistributedDataParallel as DDP

from utils import precision
from utils.bench import synchronize, threads
from utils.claims import Claim, as_printed, half_up, percent, printed_ratio
from utils.launch import keep_until_exit, process_group
from utils.lessons.ddp.settings import Settings, build_model, text_data

# name -> DDP keyword arguments; the first is DDP's defaults, the reference of the others
VARIANTS = {
    "defaults (1 MiB first bucket, then 25 MiB)": {},  # bucket_cap_mb unset: an explicit 25 has no 1 MiB one
    "bucket_cap_mb=0.25": {"bucket_cap_mb": 0.25},
    "bucket_cap_mb=1": {"bucket_cap_mb": 1},
    "bucket_cap_mb=4": {"bucket_cap_mb": 4},
    "gradient_as_bucket_view=True": {"gradient_as_bucket_view": True},
    "static_graph=True": {"static_graph": True},
    "find_unused_parameters=True": {"find_unused_parameters": True},
}


@contextlib.contextmanager
def c_stderr_silenced():
    """Silence what C++ writes to stderr in this block. Why: with ``find_unused_parameters=True`` and no
    unused parameter, DDP's reducer warns once per rank, from its own thread, that the flag costs an extra
    traversal of the autograd graph; that cost is what the lesson measures and prints, in fewer words."""
    saved = os.dup(2)
    try:
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), 2)
            yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def _step(ddp_model, optimizer, x, y, device, regime: str = "fp32", scaler=None) -> float:
    """One training step in ``regime`` (``utils.precision``); its wall time (DDP's backward returns once
    every bucket is all-reduced)."""
    scaler = scaler or precision.grad_scaler("fp32", device)  # a pass-through outside fp16
    synchronize(device)
    start = time.perf_counter()
    optimizer.zero_grad(set_to_none=True)
    with precision.autocast(regime, device):
        loss = ddp_model(x, y)[1]
    scaler.scale(loss).backward()
    scaler.step(optimizer)
    scaler.update()
    synchronize(device)
    return time.perf_counter() - start


def grad_copy_bytes(model, device, x, y, view: bool) -> int:
    """Bytes of gradients stored apart from DDP's buckets after one backward pass: one whole copy of the
    gradients without ``gradient_as_bucket_view`` (DDP copies them into its buckets to all-reduce), none
    with it (the gradients ARE views of the buckets). Read from the buckets' own buffers, seen by a hook."""
    buffers = []

    def seeing_hook(state, bucket):  # no annotations: DDP checks them
        buffers.append(bucket.buffer())
        fut = dist.all_reduce(bucket.buffer().div_(dist.get_world_size()), async_op=True).get_future()
        return fut.then(lambda f: f.value()[0])

    ddp_model = keep_until_exit(DDP(copy.deepcopy(model), gradient_as_bucket_view=view))
    ddp_model.register_comm_hook(None, seeing_hook)
    ddp_model(x, y)[1].backward()
    spans = [(b.untyped_storage().data_ptr(), b.untyped_storage().nbytes()) for b in buffers]
    apart = 0
    for p in ddp_model.parameters():
        ptr = p.grad.untyped_storage().data_ptr()
        if not any(a <= ptr < a + n for a, n in spans):
            apart += p.grad.numel() * p.grad.element_size()
    return apart


def bucket_count(ddp_model) -> int | None:
    """How many buckets ``ddp_model`` all-reduces per backward, from DDP's own log (``_get_ddp_logging_data``,
    a private API): the buckets DDP rebuilt after its first step, in the order the gradients arrived. None
    where it logs no rebuild (``static_graph``, ``find_unused_parameters``): its first log is not the count."""
    sizes = ddp_model._get_ddp_logging_data().get("rebuilt_bucket_sizes")
    return len([b for b in str(sizes).split(",") if b.strip()]) if sizes else None


def optimizer_bytes(optimizer) -> int:
    """Bytes of the optimizer state this rank holds (AdamW: two moments per parameter it updates)."""
    inner = optimizer.optim if isinstance(optimizer, ZeroRedundancyOptimizer) else optimizer
    return sum(t.numel() * t.element_size() for state in inner.state.values() for t in state.values()
               if torch.is_tensor(t) and t.dim() > 0)


def measure_knobs(s: Settings, rounds: int = 5) -> dict:
    """Worker (run by ``launch``): every variant of ``VARIANTS`` one step each in turn for ``rounds`` rounds
    (after one warm-up round; the order reversed every other round, so that no variant always runs first), the gradient copy with and without the bucket view, and AdamW's state per
    rank, plain and sharded by ``ZeroRedundancyOptimizer``. Plain numbers, so that nothing else pickles."""
    with threads(s.threads), process_group() as device:
        precision.use(s.precision)
        data = text_data(s)
        model = build_model(s, data.corpus.vocab_size).to(device)
        rows = [data[dist.get_rank() * s.batch_per_worker + i] for i in range(s.batch_per_worker)]  # own rows
        x, y = (torch.stack(t).to(device) for t in zip(*rows))
        runs = {}
        for name, options in VARIANTS.items():
            ddp_model = keep_until_exit(DDP(copy.deepcopy(model), **options))
            runs[name] = (ddp_model, torch.optim.AdamW(ddp_model.parameters(), lr=s.lr),
                          precision.grad_scaler(s.precision, device))
        times = {name: [] for name in runs}
        for r in range(rounds + 1):  # round 0 warms up (allocations, bucket rebuild)
            with contextlib.nullcontext() if r else c_stderr_silenced():
                for name, (ddp_model, optimizer, scaler) in round_order(list(runs.items()), r):
                    t = _step(ddp_model, optimizer, x, y, device, s.precision, scaler)
                    if r:
                        times[name].append(t)
        zero = keep_until_exit(DDP(copy.deepcopy(model)))
        sharded = ZeroRedundancyOptimizer(zero.parameters(), optimizer_class=torch.optim.AdamW, lr=s.lr)
        _step(zero, sharded, x, y, device, s.precision)  # one step fills the state: its size is measured
        plain = runs[next(iter(VARIANTS))][1]
        return {"times": times, "grad_bytes": sum(p.numel() * p.element_size() for p in model.parameters()),
                "buckets": {name: bucket_count(ddp_model) for name, (ddp_model, _, _) in runs.items()},
                "grad_copy_bytes": {view: grad_copy_bytes(model, device, x, y, view) for view in (False, True)},
                "optimizer_bytes": {"AdamW": optimizer_bytes(plain), "ZeRO-1": optimizer_bytes(sharded)},
                "rank": dist.get_rank()}


def round_order(items: list, r: int) -> list:
    """The variants in the order round ``r`` runs them: as listed in odd rounds, reversed in even ones (round 0
    warms up), so that the first of the list does not always run first: a step right after another variant's
    can find the caches and the allocator in that variant's state."""
    return items if r % 2 else items[::-1]


def round_spread(times: list[float]) -> float:
    """A variant's spread from round to round: its range (slowest less fastest round) over its median, worked
    from the three in whole ms as the table prints them, so that (123 - 94) / 106 on the page reads 27%."""
    whole_ms = lambda seconds: as_printed(seconds, 0, 1e-3)
    median = as_printed(median_ms(times), 0)
    return (whole_ms(max(times)) - whole_ms(min(times))) / median if median else 0.0


def way_from_defaults(times: dict[str, list[float]], name: str) -> str:
    """How ``name``'s rounds lie against the defaults' range, read in whole ms as the table prints them:
    "faster" (every round below it), "slower" (every round above it), or "" (some rounds inside it: no
    difference shown). ``times`` as ``measure_knobs`` returns them, the defaults first."""
    shown = lambda n: [as_printed(t, 0, 1e-3) for t in times[n]]
    base, mine = shown(next(iter(times))), shown(name)
    return "faster" if max(mine) < min(base) else "slower" if min(mine) > max(base) else ""


def apart_from_defaults(times: dict[str, list[float]]) -> list[str]:
    """The variants whose every round lies beyond the defaults' range (all slower or all faster), read in
    whole ms as the table prints them: ``times`` as ``measure_knobs`` returns them, the defaults first."""
    return [n for n in list(times)[1:] if way_from_defaults(times, n)]


def median_ms(rounds: list[float]) -> float:
    """A variant's median step in ms, as the knobs' table takes it (the upper middle for an even count)."""
    return sorted(rounds)[len(rounds) // 2] * 1e3


# what lesson 03's markdown expects of each setting that changes no bucket size (theory): the way it should move
# the step, and why
EXPECTED = {"gradient_as_bucket_view=True": ("faster", "one copy of the gradients fewer"),
            "static_graph=True": ("faster", "bookkeeping skipped"),
            "find_unused_parameters=True": ("slower", "a walk of the graph every step")}


def bookkeeping_reading(times: dict[str, list[float]], apart: list[str], hideable: float | None = None) -> str:
    """The settings that change no bucket size (``gradient_as_bucket_view``, ``static_graph``,
    ``find_unused_parameters``): what theory expects of them (bookkeeping, smaller than what a bucket size
    could save), then what this run measured, each median beside the defaults' and read by the table's one
    rule (``apart``: every round outside the defaults' range), with its way (faster or slower) and its size
    in whole ms set beside ``hideable`` (the most a bucket size could save, in ms, printed to one decimal) and
    beside ``EXPECTED``. ``times`` as ``measure_knobs`` returns them."""
    default, *others = times
    base = as_printed(median_ms(times[default]), 0)
    measured = [_bookkeeping_row(n, times, base, n in apart, hideable)
                for n in others if not n.startswith("bucket_cap")]
    if not measured:
        return ""
    return ("The settings that change no bucket size change bookkeeping (a copy of the gradients, a walk of the "
            "graph): expected to move the step less than a bucket size can (theory). Measured, against the "
            f"defaults' {base:.0f} ms median: "
            + "; ".join(measured) + ".")


def _bookkeeping_row(name: str, times: dict[str, list[float]], base: float, shown: bool,
                     hideable: float | None) -> str:
    """One setting's words for ``bookkeeping_reading``: its median and the table's rule; where every round lies
    outside the defaults' range (``shown``), which way, by how many ms (the two medians as printed), and
    whether that way (``EXPECTED``) and that size (against ``hideable``) are what theory expects."""
    median = as_printed(median_ms(times[name]), 0)
    way = way_from_defaults(times, name) if shown else ""
    if not way:
        return f"{name} {median:.0f} ms (some rounds inside the defaults' range: no difference shown)"
    gap = abs(median - base)  # whole ms, from the two medians as printed
    kind = {"faster": "a gain", "slower": "a cost"}
    expected, cause = EXPECTED.get(name, (None, ""))
    against = expected is not None and expected != way
    larger = hideable is not None and gap > as_printed(hideable, 1)
    said = (f"{name} {median:.0f} ms (every round outside the defaults' range: a difference shown): "
            f"{gap:.0f} ms {way}, {kind[way]}")
    if expected:
        said += f" where theory expects {kind[expected]} ({cause})" if against else f", as theory expects ({cause})"
    if hideable is not None:
        said += (f", and {'more than' if larger else 'no more than'} the {hideable:.1f} ms any bucket size could "
                 "save")
    return said + (": the theory's expectation is not borne out here, and this run does not say why"
                   if against or larger else "")


def knob_answer(times: dict[str, list[float]], base_range: tuple[float, float]) -> str:
    """The knobs' table's answer in one sentence, printed above its collapsed reasons: which settings stood
    apart from the defaults by the table's rule (``apart_from_defaults``: every round outside the defaults'
    range of rounds, ``base_range`` in whole ms as printed), and which way. ``times`` as ``measure_knobs``
    returns them, the defaults first. Lesson 03, section 4."""
    rng = f"{base_range[0]:.0f}-{base_range[1]:.0f} ms"
    apart = apart_from_defaults(times)
    if not apart:
        return (f"Answer: no setting stood apart from the defaults in this run: each had rounds inside the "
                f"defaults' {rng} range of rounds.")
    named = ", ".join(f"{n} ({way_from_defaults(times, n)})" for n in apart)
    others = "the others had" if len(apart) < len(times) - 1 else "no setting had"
    return (f"Answer: {named} stood apart from the defaults (every round outside their {rng} range of "
            f"rounds); {others} rounds inside it.")


def knob_conclusion(apart: list[str], most: float, spread: float,
                    base_range: tuple[float, float] | None = None, hideable: float | None = None,
                    times: dict[str, list[float]] | None = None) -> str:
    """One conclusion for the knobs' table: which variants stood apart from the defaults (``apart``: every
    round outside the defaults' range of rounds), read beside the most the bucket size could save (``most``,
    the exposed share of a step) and the defaults' round-to-round ``spread`` (both shares). ``base_range``:
    the defaults' fastest and slowest round in ms, as the table prints them, to name the rule's range;
    ``hideable``: the most it could save, in ms (printed to one decimal). Given both, the saving is judged
    against the range in ms, as printed: 5.1 ms is more than 100 - 95 = 5 ms, though both read 5% of 97 ms.
    ``times`` (as ``measure_knobs`` returns them), where given, names each variant's way (faster or slower)."""
    ways = {n: way_from_defaults(times, n) for n in apart} if times else {}
    named = ", ".join(f"{n} ({ways[n]})" if ways.get(n) else n for n in apart)
    kinds = {"faster": "a gain", "slower": "a cost"}
    kind = " or ".join(sorted({kinds[w] for w in ways.values() if w})) if ways else "a cost or a gain"
    rng = f" {base_range[0]:.0f}-{base_range[1]:.0f} ms" if base_range else ""
    outside = f"every round outside the defaults'{rng} range of rounds"  # the rule apart_from_defaults applies
    median = "a median outside that range, with some rounds inside it, is not a difference shown"
    if base_range and hideable is not None:  # in ms as printed: one decimal against the range's whole ms
        span = base_range[1] - base_range[0]
        within = as_printed(hideable, 1) <= span
        shares = spread_words(most, spread)
        versus = f"{hideable:.1f} ms against {base_range[1]:.0f} - {base_range[0]:.0f} = {span:.0f} ms; {shares}"
    else:  # the shares alone, as printed (whole percents)
        within = as_printed(most, 2) <= as_printed(spread, 2)
        versus = f"whole range/median: {spread:.0%}"
    if within:  # the largest possible saving is within the noise
        return (f"That is no more than the defaults' own spread from round to round ({versus}; section 2's "
                "noise is half a range), so no saving can show here; "
                + (f"only {named} had {outside} (a difference this large is {kind} "
                f"of its own, not hidden all-reduce time); the others cannot show here: {median}." if apart else
                f"and no setting had {outside}, the rule this table is read by: {median}."))
    return (f"That is more than the defaults' spread ({versus}), so a knob that hid more of it could show: "
            + (f"{named} had {outside}; the others did not ({median})." if apart
               else f"none had {outside} here ({median})."))


def spread_words(most: float, spread: float) -> str:
    """The defaults' spread as a share of their median, beside the saving's share where both print alike as
    whole percents (5% and 5%): then both to one decimal, so that the words "more" or "no more" show."""
    if f"{most:.0%}" != f"{spread:.0%}":
        return f"whole range/median: {spread:.0%}"
    return f"whole range/median: {spread:.1%}, against the saving's {most:.1%}"


def memory_reading(knob: dict, world: int = 2) -> tuple[str, float]:
    """The sentence on the memory ``measure_knobs`` measured (rank 0), and ZeRO-1's share of AdamW's state,
    worked from the two MiB figures as the sentence prints them (two decimals): 3.16 MiB of 6.30 MiB reads
    50%, near the even 1/``world`` but not exactly it (``zero_split``). The closing table reads the share."""
    mib = lambda n: as_printed(n, 2, 2**20)  # the figures the sentence prints
    adamw, zero1 = knob["optimizer_bytes"]["AdamW"], knob["optimizer_bytes"]["ZeRO-1"]
    share, split = zero_split(knob, world)
    even = f"1/world size = {percent(1 / world)}"
    words = {"even": f"exactly {even}",
             "near-even": f"near {even}, not exactly it: ZeroRedundancyOptimizer gives each rank whole tensors, so "
                          "the shares are only as even as the tensors' sizes allow"}.get(
        split, f"not the even share, {even}: the parameters split unevenly between the ranks, so this one holds "
               f"{split}")
    copies = knob["grad_copy_bytes"]
    return (f"Memory, measured: without gradient_as_bucket_view, {mib(copies[False]):.2f} MiB of gradients live "
            f"apart from DDP's buckets (the model's gradients are {mib(knob['grad_bytes']):.2f} MiB); with it, "
            f"{mib(copies[True]):.2f} MiB. AdamW's state on rank 0: {mib(adamw):.2f} MiB plain, "
            f"{mib(zero1):.2f} MiB with ZeRO-1 ({percent(share)} of plain: {words})."), share


def zero_split(knob: dict, world: int = 2) -> tuple[float, str]:
    """ZeRO-1's share of AdamW's state on rank 0, from the two MiB figures as printed, and how even it is:
    "even" where the ZeRO-1 figure is the plain one over ``world`` to the digit (6.30 / 2 = 3.15), "near-even"
    where it only rounds to the same whole percent (3.16 of 6.30: 50%), else "more" or "less" than 1/world.
    ZeroRedundancyOptimizer hands out whole tensors, so an exact split is the exception, not the rule."""
    plain, zero1 = (as_printed(knob["optimizer_bytes"][k], 2, 2**20) for k in ("AdamW", "ZeRO-1"))
    share = printed_ratio(knob["optimizer_bytes"]["ZeRO-1"], knob["optimizer_bytes"]["AdamW"], 2, 2**20)
    if half_up(plain / world, 2) == zero1:
        return share, "even"
    if percent(share) == percent(1 / world):
        return share, "near-even"
    return share, "more" if share > 1 / world else "less"


def zero_claim(knob: dict, world: int = 2) -> Claim:
    """The closing table's row for ZeRO-1, its verdict from ``zero_split``: equal, near-even or unequal shares."""
    share, split = zero_split(knob, world)
    plain, zero1 = (as_printed(knob["optimizer_bytes"][k], 2, 2**20) for k in ("AdamW", "ZeRO-1"))
    verdict = {"even": "equal shares", "near-even": "near-even shares (whole tensors per rank)"}.get(
        split, "unequal shares")
    return Claim("ZeRO-1 shares AdamW's state", f"{zero1:.2f} of {plain:.2f} MiB on rank 0 ({percent(share)})",
                 f"even share: 1/world size = {percent(1 / world)}", verdict)


def identical_rows_note(rows: list[tuple[str, str, str]], buckets: dict[str, int | None]) -> str:
    """A sentence for the knobs' rows that print the same figures (``rows``: setting, median, every round, as
    printed), or "" where none do: the table rounds to whole ms, so the settings moved the step by less than
    that here; ``buckets`` (``bucket_count``, by setting) shows whether the knob acted at all."""
    groups: dict[tuple[str, str], list[str]] = {}
    for name, median, every in rows:
        groups.setdefault((median, every), []).append(name)
    notes = []
    for (median, every), names in groups.items():
        if len(names) < 2:
            continue
        counts = [buckets.get(n) for n in names]
        acted = (f"; DDP's log gives them {', '.join(str(c) for c in counts)} bucket(s), so the settings did "
                 "change the buckets" if None not in counts and len(set(counts)) > 1 else "")
        notes.append(f"{', '.join(names)} print the same figures (median {median} ms, every round {every} ms): "
                     "the table rounds to whole ms, and their medians, fastest and slowest rounds differ by less "
                     f"than that in this run{acted}")
    return ". ".join(notes) + ("." if notes else "")


def _about_ms(gap_ms: float) -> str:
    """A gap worked against a median printed to whole ms, in whole ms as it is known: "about 6 ms" (6.0 could
    be 5.5 to 6.5), "under 1 ms" where it rounds to none."""
    whole = half_up(abs(gap_ms), 0)
    return f"about {whole:.0f} ms" if whole >= 1 else "under 1 ms"


def step_beside_table(step_ms: float, base_ms: float, lag_ms: float, base_range: tuple[float, float]) -> str:
    """How section 2's default-bucket step (``step_ms``, printed to 0.1 ms; no optimizer step) sits beside this
    table's default median (``base_ms``, whole ms) and its rounds (``base_range``, whole ms); ``lag_ms``: how
    much later the other rank's last gradient came there. All figures as printed. A step inside the defaults'
    own rounds is not told apart from their median, however far from it: the rounds show how far one step
    moves from round to round (never "about" the median: 67.8 ms is 7 ms from 75, which no rounding to whole
    ms hides; t32_0304 #1). Outside them the gap is known to half a ms either way (``_about_ms``), and is said
    to pass the wait only where its low end does. Both a shorter step and one inside the rounds name the
    optimizer step this table's steps include. Lesson 03."""
    gap = half_up(step_ms - base_ms, 1)  # ms, worked from the two printed figures
    low, high = base_range
    if low <= step_ms <= high:
        return (f", inside this table's default rounds ({low:.0f}-{high:.0f} ms), so not told apart from its "
                f"{base_ms:.0f} ms median: one step moves that far from round to round (this table's steps also "
                "include an optimizer step, which section 2's do not)")
    about = _about_ms(gap)
    if gap - 0.5 > lag_ms:  # beyond what the wait for the other rank explains, even at the gap's low end
        waited = (f"more than the {lag_ms:.1f} ms by which the other rank's last gradient came later can explain"
                  if lag_ms > 0 else "no wait for the other rank explains it (its last gradient came no later)")
        return (f", {about} longer although it has no optimizer step: {waited}; the two figures come from "
                "different runs at different moments, and the machine's load moves between them")
    if gap > 0:
        within = (f"not shown to be more than the {lag_ms:.1f} ms by which the other rank's last gradient came "
                  "later" if lag_ms > 0 else "within the half ms either way that the whole-ms median leaves open")
        return f", {about} longer although it has no optimizer step: {within}"
    if gap < 0:  # the optimizer step this table's steps include is absent there
        return (f", {about} shorter than this table's median (printed to whole ms), whose steps include an "
                "optimizer step that section 2's do not")
    return ", as long as this table's median"
