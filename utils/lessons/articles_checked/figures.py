"""Lesson 09's figures: the quick measurements it makes in the run, and the figures it reads from the lessons'
ledger and the benchmarks' file (``measure(plan)`` gathers both; ``recorded`` and ``quote`` read one).
``verdicts`` judges the claims with them. Introduced in lesson 09.
"""

from __future__ import annotations

import re
import statistics
from types import SimpleNamespace

import psutil

from utils import article, claims as words, devices
from utils.lessons.articles_checked import case_study, evidence as ev, host_memory, snippets, zeroed
from utils.lessons.articles_checked.stored_peaks import stored_peaks, stored_spreads
from utils.lessons.model_split.bounds import round_above, round_as_printed  # one round, with the digits it prints
from utils.lessons.model_split.report import above_as_printed  # lesson 02's rule: above as printed
from utils.lessons.model_split.noise import round_text  # lesson 02's rounds: 1.997, never 2.00 under 2x
from utils.lessons.start_here.line_check import EDGE  # lesson 00's rule: what one noisy median may miss by
from utils.lessons.model_split.rounds_above import band_clauses  # lesson 02's words for rounds above a bound
from utils.lessons.model_split.rounds_above import _work_reference_clause as work_reference_clause
from utils.lessons.model_split.rounds_above import past_reach_words, work_reference_reaches
from utils.lessons.articles_checked.sources import LEDGER, Part, isa
# the recorded figures by short name and where each is recorded: a module of their own, re-exported here
from utils.lessons.articles_checked.recorded_names import TWO_STAGES, WHERE_TO_RECORD, read_results  # noqa: F401
# each device's share of its rate, one printer for every row (re-exported: checks and verdicts read it here)
from utils.lessons.articles_checked.shares import percent_text, share_of_rate, share_text  # noqa: F401


# A figure kept without its rounds (the ledger keeps a median, its bound and its reference) is read within this
# share of its value of what it is compared with: the course's noise floor (lesson 05's), one rule for every such
# figure on the page; a figure kept with its rounds is read with their spread.
LEDGER_NOISE = 0.02


class Missing(Exception):
    """A figure a check needs has not been recorded yet (a lesson to run first)."""


class Busy(Exception):
    """Other programs held cores a timing needed (a second thread's or worker's, or a single thread's own), or
    the lesson that recorded a figure marked it measured on a loaded machine (``disturbed``)."""


def disturbed(m, name: str) -> str:
    """The note of a recorded figure its lesson marked measured on a loaded machine (lesson 03's field
    ``disturbed``: the machine's load changed between its sections; lesson 02's CPU/busy below its line:
    ``contended``), or "" where it did not."""
    found = m["results"].get(name)
    return found.record.get("disturbed", "") or contended(found.record) if found is not None else ""


def contended(record: dict) -> str:
    """Lesson 02's own warning on a pipeline figure, where its ledger record keeps it: each worker's CPU/busy
    (``cpu_busy``, CPU time over busy wall time) and the host's load average (``load``, on ``cores``). Below
    lesson 02's line (``CONTENDED``) a stage waited for a core (its own gloo threads or other programs held it): "CPU/busy 76% / 88%,
    host load average 2.5 on 2 cores: below 80%, a stage waited for a core"; "" where every worker kept its
    core, or the record keeps no CPU/busy (an older ledger)."""
    from utils.lessons.model_split.report import CONTENDED  # lesson 02's line, one rule on both pages

    busy = record.get("cpu_busy")
    if not busy or min(words.half_up(b * 100, 0) for b in busy) >= CONTENDED * 100:  # as printed, whole per cent
        return ""
    load = (f", host load average {record['load']:.1f} on {record['cores']} cores" if "load" in record
            and "cores" in record else "")
    return (f"CPU/busy {' / '.join(words.percent(b) for b in busy)}{load}: below {CONTENDED:.0%}, a stage waited "
            "for a core")


def needs_undisturbed(m, name: str) -> None:
    """Raise ``Busy`` where recorded figure ``name`` was measured on a loaded machine: not evidence either way,
    so a check that reads it is inconclusive, never "disagrees"."""
    if disturbed(m, name):
        raise Busy(name)


LOADED = "measured on a loaded machine, so not evidence either way"



# --- Measuring -------------------------------------------------------------------------------------------------


def capabilities(plan: devices.Plan, hw: devices.Hardware) -> dict[str, bool]:
    """What this machine lets the lesson measure, by ``claims.NEEDS`` key (and "gpu pair": two GPUs, one per
    rank, for the copies between them)."""
    pair = not plan.simulated and len(set(plan.devices)) == plan.world_size >= 2
    return {"gpu": not plan.simulated, "gpu pair": pair,
            "nvlink pair": pair and hw.link is not None and hw.link.kind == "NVLink"}


def _attempt(fn, *args):
    """A GPU-only measurement: its result, or the error it met (the row then says so and waits)."""
    try:
        return fn(*args)
    except Exception as err:  # noqa: BLE001 - one failed extra must not stop the lesson
        return err


TIMED = {"prune": ev.pruning_costs, "csr": ev.sparse_at, "algorithms": ev.attention_and_gelu,
         "width": ev.width_scaling, "threads": ev.threads_speedup, "peaks": ev.peaks}  # watched while they run


def measure(plan) -> dict:
    """Every quick measurement of the lesson and every recorded figure, by name; ``m["others"]`` holds the
    share of the cores other programs kept busy during each timing (``too_busy`` reads it)."""
    hw = devices.hardware()
    m = {"plan": plan, "hw": hw, "can": capabilities(plan, hw), "cores": psutil.cpu_count(), "others": {},
         "results": read_results(), "batches": ddp_batches(plan, hw), "fold": ev.conv_pool_fold(),
         "maxpool": ev.conv_maxpool_is_not_linear(), "merges": ev.merges(), "copies": ev.article_copies(),
         "simplified": ev.simplified_model(), "cnn": ev.case_study_cnn(), "units": ev.cpu_units(),
         "sheet": ev.datasheet_ratios(), "bytes": ev.step_bytes(),
         "split": snippets.split_steps(plan.devices), "conv": snippets.conv_steps(plan.devices),
         "ddp": snippets.ddp_walk(), "case_study": case_study.walk(), "sizes": ev.published_sizes(),
         "setups": setups(plan, hw),
         "stored_peaks": stored_peaks(), "stored_spreads": stored_spreads(),  # lesson 00's kept peaks, beside ours
         "missing": {"A16": snippets.missing_pieces(article.ddp_loop_as_written),
                     "B17": snippets.missing_pieces(article.cnn_case_study_as_written)}}
    for name, fn in TIMED.items():
        m[name] = watched(m["others"], name, fn)
    m["passes"] = watched(m["others"], "passes", ev.two_device_passes, plan, hw)
    m["link"] = watched(m["others"], "link", ev.link, plan)  # two processes: each needs a core
    m["compressed"] = watched(m["others"], "compressed", ev.compressed_sends)
    m["cnn_ddp"] = watched(m["others"], "cnn_ddp", _attempt, ev.case_study_ddp)  # a failed launch: its error
    m["host_memory"] = watched(m["others"], "host_memory", host_memory.measure)  # row B7, in every mode
    if m["can"]["gpu pair"]:
        m["paths"] = _attempt(ev.gpu_pair_paths, plan)
    if m["can"]["gpu"]:
        m["fragmentation"] = _attempt(ev.gpu_fragmentation, plan)
        m["allocation"] = _attempt(ev.gpu_allocation_times, plan)
    return m


def watched(others: dict, name: str, fn, *args):
    """``fn(*args)``, noting in ``others[name]`` the share of the cores other programs kept busy meanwhile."""
    out: dict = {}
    with ev.others_on_the_cores(out):
        result = fn(*args)
    others[name] = out["others"]
    return result


def ddp_batches(plan, hw) -> dict[str, int]:
    """Sequences each worker computes a step in lesson 03's scaling run (the same batch per worker as one
    worker alone) and in lesson 08's two-device step (its one-device batch, split in two)."""
    from utils.lessons.ddp.plan import lesson_settings as lesson_03
    from utils.lessons.putting_it_together.plan import lesson_settings as lesson_08

    return {"03": lesson_03(plan, hw).batch_per_worker,
            "08": max(1, lesson_08(plan, hw).training.batch_per_worker // 2)}


def setups(plan, hw) -> dict:
    """The set-up behind each two-worker figure the rows quote, in words, so that a row never sets figures
    of different models or sizes side by side unnamed; and lesson 07's decode model (depth, width), whose
    all-reduces a token row B2 prices."""
    from utils.lessons.ddp.plan import lesson_settings as lesson_03
    from utils.lessons.putting_it_together.plan import lesson_settings as lesson_08
    from utils.lessons.tensor_parallel.plan import lesson_settings as lesson_07

    ddp, capstone, l07 = lesson_03(plan, hw), lesson_08(plan, hw).training, lesson_07(plan, hw)
    blocks, generation = l07.blocks, l07.generation
    return {"03": f"lesson 03's GPT, width {ddp.model['width']}, depth {ddp.model['depth']}, {ddp.precision}, "
                  f"training, {ddp.batch_per_worker} sequences a worker",
            "08": f"lesson 08's GPT, width {capstone.width}, depth {capstone.depth}, training, "
                  f"{ddp_batches(plan, hw)['08']} sequences a worker",
            "07": f"lesson 07's blocks, width {blocks.width}, depth {blocks.depth}, forward passes, batch "
                  f"{blocks.batch} x {blocks.context} tokens",
            "decode": (generation.depth, generation.width)}


def kept_before_two_devices(record: dict) -> str:
    """The steps lesson 08 kept before its two-device step, as its figure names them: "precision 1.41x,
    optimizer 1.10x" ("" where the figure does not name them)."""
    steps = re.findall(r"(\w[\w -]*?) (\d+(?:\.\d+)?x)( \(not kept\))?", record.get("what", ""))
    before = []
    for name, speedup, dropped in steps:
        if name.strip().endswith("two devices"):
            break
        if not dropped:
            before.append(f"{name.strip()} {speedup}")
    return ", ".join(before)


# --- Reading figures -----------------------------------------------------------------------------------------


def spread_of(record: dict) -> float:
    """The paired rounds' spread of a recorded speed-up, as its lesson prints it (``claims.printed_spread``:
    worked from the rounds as printed, half up, lesson 02's one rule); ``LEDGER_NOISE`` of its value where none
    was kept."""
    if record.get("rounds"):
        return words.printed_spread(record["rounds"])
    return LEDGER_NOISE * record["value"]


def median_text(record: dict) -> str:
    """A recorded speed-up as a row or the note quotes it: "1.88x ± 0.09" where its paired rounds were kept (the
    spread its verdict and its rounds' count are read with, printed beside it), "1.88x" where none were."""
    spread = f" ± {spread_of(record):.2f}" if record.get("rounds") else ""
    return f"{record['value']:.2f}x{spread}"


def fused_figure(c) -> tuple[float, float]:
    """Rows B4 and B14's figure: the median of the pair's rounds' own ratios (slow over fast within one round) ±
    their spread, as printed (``paired``), never the ratio of the two fastest times, which need not share a
    round (zeroed.py); that ratio with no spread where a run kept no rounds."""
    return paired(list(c.round_ratios)) if c.round_ratios else (words.as_printed(c.speedup, 2), 0.0)


def fused_verdict(c) -> str:
    """Lesson 01 §5's pair (an ``algorithms.Comparison``) as rows B4 and B14 read it: ``fused_figure``'s median
    ± spread beside its bytes ceiling where it has one."""
    ceiling = words.as_printed(c.ceiling, 2) if c.ceiling else None
    median, spread = fused_figure(c)
    return words.speedup_verdict(median, ceiling, spread, slower=f"not faster than {c.slow}")


NO_SPREAD = "no spread recorded"


def recorded_verdict(record: dict, bound: float | None, slower: str = "slower than one device") -> str:
    """The course's one rule (``claims.speedup_verdict``) for a recorded speed-up, on its figures as printed:
    with its rounds, their spread and their sides of 1x, as the lesson that measured it reads them (so the
    two pages print one verdict); without them, a figure past its bound is not called a finding on the
    ``LEDGER_NOISE`` floor alone: "past the bound by 3%, no spread recorded" (inconclusive)."""
    value, bound = words.as_printed(record["value"], 2), None if bound is None else words.as_printed(bound, 2)
    rounds = record.get("rounds")
    shown = round_as_printed if record.get("lesson") == "02" else None   # lesson 02 prints 1.9996, not 2.00
    text = words.speedup_verdict(value, bound, spread_of(record), slower=slower, rounds=rounds or None,
                                 shown=shown)
    if rounds or bound is None or value <= bound or text.startswith("within noise"):
        return text
    return (f"past the bound by {value / bound - 1:.0%}, {NO_SPREAD}: the ledger kept no rounds, so this page "
            "cannot tell a finding from noise (its lesson reads it with its rounds)")


def no_spread(text: str) -> bool:
    return NO_SPREAD in text


def recorded(m, name: str):
    """The recorded figure ``name``; ``Missing`` where no lesson has recorded it (a check then waits)."""
    found = m["results"][name]
    if found is None:
        raise Missing(name)
    return found


def value(m, name: str) -> float:
    return recorded(m, name).record["value"]


def quote(m, name: str, say) -> Part:
    """A Part quoting figure ``name`` as ``say(record)`` says it, or what to run where it is missing."""
    found = m["results"][name]
    if found is None:
        return Part("no figure yet", LEDGER, f"not recorded: run {WHERE_TO_RECORD[name]} first")
    note = disturbed(m, name)  # its lesson's mark: the load changed while it measured, or a stage lacked a core
    return found.part(say(found.record) + (f"; {WHERE_TO_RECORD[name]} marked it {LOADED} ({note})" if note else ""))


def capstone_two_devices(record: dict) -> float:
    """Lesson 08's two-device step: the benchmark keeps each step (``x_previous``), the ledger its ``value``
    with its spread and rounds (since t26), an older ledger names it in its text."""
    step = record.get("steps", {}).get("two devices", {})
    if "value" in step or "x_previous" in step:
        return step.get("value", step.get("x_previous"))
    found = re.search(r"two devices (\d+(?:\.\d+)?)x", record.get("what", ""))
    return float(found.group(1)) if found else record["value"]


def recorded_int8_units(record: dict) -> bool:
    """Whether the CPU a figure was recorded on had int8 dot-product units (VNNI, AMX), as its label says."""
    return bool(re.search(r"VNNI \(int8\)|AMX-INT8", isa(record["hardware"])))


def _walk(walk, skip=(), start: int = 1) -> str:
    """The DDP walk as numbered steps, in the order Python met them; the last is the fixed run."""
    steps = [text for fix, text in walk if fix not in skip]
    return "; ".join(f"{k}. {text}" for k, text in enumerate(steps, start))


def _stopped(step: str) -> bool:
    return "Error" in step


def _sends(m) -> dict[int, float]:
    return dict(zip(m["link"].fit.sizes, m["link"].seconds))


FIXED_COST_PAIR = (4, 2**12)  # both almost all fixed cost: row B2 reads their order itself, by lesson 00's 10% rule


def inversions(m) -> list[tuple[int, int]]:
    """Every pair of sizes (smaller, larger) whose larger message took less time beyond the ``EDGE`` one noisy
    median may miss by (lesson 00's rule), in whole µs as printed: no row reads bytes from them. The 4 B/4 KiB
    pair is row B2's, read as fixed cost within or beyond that noise (``timed_rows.slower_small_words``); the
    fixed cost is then read from the 4 KiB time (``fixed_cost``), so the 4-byte time is left out."""
    us = {n: int(words.as_printed(t, 0, scale=1e-6)) for n, t in _sends(m).items()}
    small, kib = FIXED_COST_PAIR
    if small in us and kib in us and us[small] > us[kib]:
        del us[small]
    return [(a, b) for a in sorted(us) for b in sorted(us)
            if a < b and us[a] > us[b] * (1 + EDGE) and (a, b) != FIXED_COST_PAIR]  # t34_09 #3: 6% is noise


def fixed_cost(m) -> float:
    """The link's fixed cost read from the measured times: the smaller of a 4-byte and a 4 KiB message's (both
    are almost all fixed cost; where the 4-byte one took longer, row B2 says whether by noise). Rows B2, B8
    and B10 use it."""
    sec = _sends(m)
    return min(sec[4], sec[2**12])


def _units_note(has_units: bool, dtype: str) -> str:
    return "" if has_units else f" (a CPU without {dtype} units: no gain to expect there)"


def walk_told(walk, skip=()) -> str:
    """``_walk``'s steps, with what the silent step and the fixed run's losses mean: the same batches on both
    ranks come from the course's own first fix (a DataLoader without a DistributedSampler), and the fixed run,
    each rank taking half the steps, is compared with it."""
    told, same = [], None
    for fix, text in walk:
        if "same batches" in text:
            same = _losses(text)
            text = text.replace("(no DistributedSampler; ", "(").replace(
                "no error, but", "no error, but with the course's fix for the missing loader (a DataLoader "
                "without a DistributedSampler, the sampler that gives each rank its own share of the data)")
        elif fix == "ran" and same:
            # each figure is one rank's last batch, on other batches than the same-batch run's: not compared
            text += ("; each rank now takes half the steps (its half of the data); these losses are each "
                     "rank's "
                     "last batch, on other batches than the same-batch run's, so the two runs' losses do not "
                     "compare")
        told.append((fix, text))
    return _walk(told, skip)


def _losses(text: str) -> list[float]:
    """The losses a walk's step names: "(losses 1.318, 1.318)" or "final loss per rank 0.52, 0.51"."""
    return [float(x) for x in re.findall(r"\d+\.\d+", text.split("loss", 1)[-1])]


# --- Paired rounds timed in this run, each ratio from its printed times -------------------------------------


def paired(ratios: list[float]) -> tuple[float, float]:
    """The median of paired rounds' ratios and their spread (``claims.printed_spread``: from the rounds as
    ``round_text`` prints them, 0.999 near 1x, half up; t34_09 #5), two decimals, as the page shows them.
    The median too is worked from the rounds as ``round_text`` prints them (0.998, not 1.00), half up, as a
    reader redoes it from the rounds line: 0.998 and 1.01 in the middle give 1.004, printed 1.00x."""
    shown = [round_as_printed(r) for r in ratios]
    return words.half_up(statistics.median(shown), 2), words.printed_spread(ratios, shown=round_as_printed)


def rounds_record(ratios: list[float], bound: float, devices: int | None = 2) -> dict:
    """This page's paired rounds as a record ``rounds_above_words`` reads (lesson 02's rule, one for every row
    that lists rounds); ``devices`` None where the bound counts no devices (row B8's bytes: no "past 2x")."""
    return {"value": paired(ratios)[0], "bound": bound, "rounds": ratios, "devices": devices}


PACKED_BOUND = 4  # row B8: 4 MiB of fp32 against 1 MiB of uint8, a quarter of the bytes; alpha and packing stay


def printed_ratios(over: list[float], under: list[float], digits: int, scale: float) -> list[float]:
    """Each paired round's ratio worked from its two times as printed (``claims.printed_ratio``: ``digits``
    decimals in the unit ``scale``), itself as printed (two decimals): the median, spread and range a row
    prints are worked from these, so a reader who divides the printed times finds them."""
    return [words.as_printed(words.printed_ratio(o, u, digits, scale), 2) for o, u in zip(over, under)]


def zeroed_ratio(prune: dict) -> float:
    """Half the weights zeroed over the dense layer, as rows B11 and B12 print it: from the ms they print, half up."""
    return zeroed.fastest_ratio(prune)


def zeroed_side(prune: dict) -> str:
    """The zeroed time against the dense one (``zeroed.side``): by the paired rounds where the run kept them;
    without them, a fastest-of ratio within the ``LEDGER_NOISE`` floor is "within", and beyond it "unpaired"."""
    return zeroed.side(prune, LEDGER_NOISE)


def removed_reading(ratio: float, share: float = 0.5) -> str:
    """Half the neurons removed (``ratio``, its time over the dense one as printed) against the share of the
    FLOPs it keeps, by the ``LEDGER_NOISE`` floor of that share (a fastest time kept without rounds: 2% of 0.5
    is 0.01, so 0.49x is within it and 0.47x is not), each side said."""
    floor = f"{LEDGER_NOISE:.0%} noise floor of {share:.2f}x"
    if words.within_noise(ratio, LEDGER_NOISE * share, share):  # the course's one noise rule, as printed
        return f" (as its FLOPs predict: within the {floor})"
    side = "less" if ratio < share else "more"
    return f" ({side} time than its FLOPs alone predict, beyond the {floor}; this run does not time why)"


def zeroed_no_faster(prune: dict) -> bool:
    """Row B12's "zeroed connections cost as much", one rule for its check and row B18: the paired rounds
    show no gain, or a loss (``zeroed_side`` "within" or "slower"); "unpaired" decides nothing (the check
    reads it as noise)."""
    return zeroed_side(prune) in (zeroed.WITHIN, zeroed.SLOWER)


def compression_rounds(c: dict) -> list[float]:
    """Row B8's rounds: the plain way's time over the packed way's, from the whole µs the page prints."""
    return printed_ratios(c["plain"], c["packed"], 0, 1e-6)


def cnn_rounds(c: dict) -> list[float]:
    """Row B22's rounds: one worker's step over two DDP workers', from the ms (one decimal) printed."""
    return printed_ratios(c["one"], c["two"], 1, 1e-3)


# --- Single rounds of lesson 02's pipelines, read by lesson 02's rule ------------------------------------------


def rounds_above_words(record: dict, lesson: str = "lesson 02 §5") -> str:
    """A recorded median's single rounds above its bound, by lesson 02's rule, read round by round: a round
    above the bound and above the median + the rounds' spread (``claims.rounds_past_spread``, as printed) is a
    finding to explain, whatever the median; only a round within that band is explained by the spread; a round
    past 2 devices' 2x (equal work on two devices cannot give it) is a finding to explain whatever the spread.
    A median itself above its bound names its rounds past 2x first; beyond the spread it is read by its own
    verdict and its rounds are counted; within it, they are read as above (one reading for every schedule,
    past 2x or not). A record without its rounds says where they are counted."""
    rounds = record.get("rounds")
    if not rounds:
        return (f"a median of paired rounds; the ledger keeps no rounds, so single rounds above the bound do not "
                f"show here: {lesson} counts them, and reads any beyond the rounds' spread as a finding to explain")
    above, past, near = rounds_above(record)
    if not above:
        return f"none of its {len(rounds)} rounds above the bound"
    if above_as_printed(record["value"], record["bound"]):
        return _rounds_above_a_median_above(record, above, past, near)
    of_them = f", {len(past)} of them past {DEVICES} devices' {DEVICES}x" if past else ""
    said = f"{len(above)} of {len(rounds)} rounds above the bound (up to {round_text(max(above))}x{of_them})"
    return f"{said}: {per_round_words(record, above, named=bool(past))}"


def per_round_words(record: dict, above: list[float], named: bool = False) -> str:
    """What the rounds' spread says of ``above`` (rounds above the bound), round by round, as printed, in lesson
    02's words (``model_split.rounds_above.spread_words``): a round past 2 devices' 2x first, a finding by that
    alone; those beyond the median + the spread are a finding to explain; those within it are explained by it."""
    devices = record.get("devices", DEVICES)  # None: a bound that counts no devices (row B8's bytes)
    # rule 1 (t33_09 #2): a round past 2x is a finding by that alone, so it gets that reason, never the spread's
    two = [x for x in above if devices is not None and round_above(x, devices)]
    above = [x for x in above if x not in two]
    beyond = [x for x in rounds_past_spread(record) if x in above]
    # lesson 02's rule (t30_09 #2): a round the work-scaled reference + the spread reaches is no finding
    work = work_reached(record, beyond) if devices is not None else []
    above, beyond = [x for x in above if x not in work], [x for x in beyond if x not in work]
    said = band_clauses(above, beyond, [], spread_of(record), DEVICES, "") if above else ""
    reached = work_reference_clause(work_row(record), work, spread_of(record)) if work else ""
    if (reached or two) and said:  # the count covers the rounds named first: the band reads the others
        said = (f"the other round ({round_text(above[0])}x): " if len(above) == 1
                else f"the other {len(above)}: ") + said
    reason = "the spread or the reference" if work_row(record).work_bound is not None else "the spread"
    return "; ".join(filter(None, [past_two_clause(two, named, reason), reached, said]))


def past_two_clause(two: list[float], named: bool = False, reason: str = "the spread or the reference") -> str:
    """Rounds past 2 devices' 2x, a finding by that alone (cell 0's rule 1), whatever ``reason``; "" if none."""
    if not two:
        return ""
    shown = ", ".join(f"{round_text(x)}x" for x in two)
    if named:  # the count past 2x leads the clause already: only its reason here
        return f"{shown}: past {DEVICES}x, so a finding by that alone, whatever {reason}"
    return (f"{shown} past {DEVICES} devices' {DEVICES}x: {'a finding' if len(two) == 1 else 'findings'} to "
            f"explain by that alone, whatever {reason}")


def work_row(record: dict):
    """A pipeline's record as lesson 02's round rule reads it: its ``reference`` is the work-scaled reference
    (the bound over the stages' measured work); the split alone's per-process reference is not (``read_by_rounds``
    marks it ``per_process``, and its own rounds' references are kept in ``reference_rounds``)."""
    per_process = record.get("per_process") or record.get("reference_rounds") is not None
    return SimpleNamespace(bound=record["bound"], devices=record.get("devices") or DEVICES, process_bound=None,
                           work_bound=None if per_process else record.get("reference"))


def work_reached(record: dict, beyond: list[float]) -> list[float]:
    """The rounds past the rounds' spread that the work-scaled reference + the spread reaches, by lesson 02's
    own function (``rounds_above.work_reference_reaches``); [] where the record keeps no such reference."""
    return work_reference_reaches(work_row(record), beyond, spread_of(record))


def rounds_past_spread(record: dict) -> list[float]:
    """A record's rounds above its bound and above the median + the rounds' spread, as printed (the course's
    one rule, ``claims.rounds_past_spread``, each round printed as lesson 02 prints it)."""
    return words.rounds_past_spread(record["rounds"], record["value"], spread_of(record), record["bound"],
                                    shown=round_as_printed)


def _rounds_above_a_median_above(record: dict, above: list[float], past: list[float], near: bool) -> str:
    """``rounds_above_words`` where the median itself is above its bound as printed (lesson 02's words beside
    such a median): rounds past 2x first, a finding to explain, then the count of rounds above the bound. Where
    the bound lies within the spread (the median "at the bound (within noise)"), each is read round by round
    (``per_round_words``: beyond the median + the spread, a finding to explain; within it, explained by it up
    to 2x), whether or not a round passed 2x: one reading for every schedule, as lesson 02 gives it. Beyond it,
    the row's verdict reads the median (a finding to explain): its rounds are only counted."""
    said = f"{len(above)} of {len(record['rounds'])} rounds above the bound (up to {round_text(max(above))}x)"
    if past:
        listed = ", ".join(f"{round_text(r)}x" for r in past)
        said = (f"{len(past)} of {len(record['rounds'])} rounds above {DEVICES} devices' {DEVICES}x ({listed}): "
                f"a finding to explain; {said}")
    # a median above its bound beyond the spread is a finding itself: its spread explains no round above the
    # bound. At the bound, the same per-round reading as under it; a round past 2x stays a finding within it
    if not near:  # but a round past the work-scaled reference + the spread too stays one (t31_09 #2)
        past_reach = past_reach_words(_reach_row(record)) if work_row(record).work_bound is not None else ""
        return f"{said}, read with the median, except {past_reach}" if past_reach else said
    return f"{said}: {per_round_words(record, above, named=bool(past))}"


def _reach_row(record: dict):
    """A record as lesson 02's ``rounds_above.past_reach_words`` reads it: its rounds, median, bound and
    work-scaled reference, so that a round past both the median + spread and that reference + spread reads
    here as lesson 02 §5 prints it ("1.99x past ... : a finding to explain")."""
    return SimpleNamespace(speedups=[float(x) for x in record["rounds"]], speedup=float(record["value"]),
                           bound=record["bound"], devices=record.get("devices") or DEVICES, process_bound=None,
                           work_bound=work_row(record).work_bound)


def split_reference(record: dict) -> float | None:
    """Lesson 02's per-process reference for its split alone: each stage alone in its process measured less
    than its share of one device's work, so the split may beat 1x by that factor. The ledger keeps it in
    ``reference`` (make bench in ``process_bound``, an older entry in ``bound``); the split's bound is 1x."""
    if record.get("reference") is not None:  # lesson 02's own: a measured 1.00x is a reference too
        return record["reference"]
    reference = next((record[k] for k in ("process_bound", "bound") if k in record), None)
    return reference if reference and reference != 1.0 else None  # an older entry's 1.0 is the split's bound


def read_by_rounds(name: str, record: dict) -> dict:
    """A figure's record as lesson 02's per-round rule reads it: the split alone against its 1x bound and its
    per-process reference (an older entry kept that reference in ``bound`` or ``process_bound``); the
    pipelines' records as kept."""
    if name != "naive_split":
        return record
    return record | {"bound": 1.0, "reference": split_reference(record), "per_process": True}


# lesson 02's split alone (§3) and pipelines (§5, §9): their single rounds read by its per-round rule
READ_AS_LESSON_02 = ("naive_split", "pipeline", *TWO_STAGES)
DEVICES = 2  # the rows' two devices: a round past 2x is more than equal work on both can give


def reference_past_two_words(reference: float | None) -> str:
    """Lesson 02 §5's reading of a work-scaled reference itself past 2 devices' 2x (as printed), one wording for
    every row and note that sets a pipeline beside its reference: equal work on two devices gives no more, so
    the part above 2x would be work the split saved, not overlap, and the reference explains no figure past 2x.
    "" where no reference is kept or it is at most 2x."""
    if reference is None or words.as_printed(reference, 2) <= DEVICES:
        return ""
    return (f"its reference, {words.as_printed(reference, 2):.2f}x, is itself past {DEVICES} devices' {DEVICES}x, "
            f"which equal work on {DEVICES} devices cannot give: past {DEVICES}x it counts work the split saved, "
            f"not overlap, so it explains no figure past {DEVICES}x")


def rounds_past_two_words(record: dict) -> str:
    """A record's single rounds past 2 devices' 2x (each as printed, lesson 02's rule), one wording and one
    separator for every row and note that lists them: "2 of its 5 rounds above 2 devices' 2x (2.002x, 2.03x): a
    finding to explain, which no reference explains"; "" where none is."""
    past = rounds_above(record)[1]
    if not past:
        return ""
    listed = ", ".join(f"{round_text(x)}x" for x in past)
    return (f"{len(past)} of its {len(record['rounds'])} rounds above {DEVICES} devices' {DEVICES}x ({listed}): "
            "a finding to explain, which no reference explains")


def rounds_above(record: dict) -> tuple[list[float], list[float], bool]:
    """A record's rounds above its bound and those past 2x (each as printed, lesson 02's rule), and whether the
    bound lies within the rounds' spread of the median (``claims.within_noise``, as printed)."""
    rounds = record.get("rounds")
    if not rounds:
        return [], [], True
    bound = record["bound"]
    # each round with the digits lesson 02 prints it with (2.002, not 2.00): 1.78 is not above a bound printed 1.78x
    above = [r for r in rounds if round_above(r, bound)]
    # "devices": None for a ratio whose bound is no count of devices (row B8's bytes): no round is "past 2x"
    devices = record.get("devices", DEVICES)
    past = [r for r in above if devices is not None and round_above(r, devices)]
    # the course's one noise rule on the figures as printed: median - spread <= bound <= median + spread
    near = words.within_noise(words.as_printed(record["value"], 2), spread_of(record), words.as_printed(bound, 2))
    return above, past, near


def rounds_finding(record: dict) -> bool:
    """Rounds that lesson 02 reads as a finding to explain: one past 2x, or one above the bound and above the
    median + the rounds' spread (``rounds_past_spread``) that the work-scaled reference + the spread does not
    reach (``work_reached``), also under a bound beyond the rounds' spread; or any above a median itself past
    its bound beyond that spread (a row quoting them says so, and its check reads ``AboveBound``)."""
    above, past, near = rounds_above(record)
    if past or not above:
        return bool(past)
    if not near and record["value"] > record["bound"]:  # the median itself past its bound: rounds read with it
        return True
    # lesson 02's rule (t30_09 #2, t38_09 #2): a round the work-scaled reference + the spread reaches is no
    # finding, as ``per_round_words`` says: the row's check, its evidence and §1's note read the round alike
    beyond = rounds_past_spread(record)
    return bool([x for x in beyond if x not in work_reached(record, beyond)])
