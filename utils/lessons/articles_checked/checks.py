"""What each row's evidence must show for its verdict to stand: lesson 09's checks, and the answers they give.

Introduced in lesson 09. A check (``CHECKS``) returns True (the evidence agrees) or False (it disagrees), or
raises: ``Missing`` where a lesson has not recorded the figure yet, ``Busy`` where other programs took the
cores a timing needed, ``AboveBound`` where a figure passed its ceiling while the verdict stands (a finding to
explain, never agreement), ``Noisy`` where a figure's spread covers the comparison or is too wide to read as
one figure, or a recorded figure past its bound kept no rounds (inconclusive either way).
Speed-ups are read with ``utils.claims.speedup_verdict`` (``figures.recorded_verdict``: with the recorded
rounds' spread, as the lesson that measured them reads them), the course's words for a figure beside its bound.
"""

from __future__ import annotations

import statistics

from utils import claims as words
from utils.lessons.articles_checked import capstone, figures, host_memory
from utils.lessons.articles_checked.pipeline_reference import (  # noqa: F401  (re-exported)
    EXPLAINED_MARGIN, explained_by_reference, median_two_words, work_scaled_reference)
from utils.lessons.articles_checked.figures import (  # noqa: F401  (rounds_above_words: re-exported)
    LEDGER_NOISE, READ_AS_LESSON_02, TWO_STAGES, Busy, Missing, needs_undisturbed, _sends, _stopped,
    PACKED_BOUND, capstone_two_devices, cnn_rounds, compression_rounds, fixed_cost, fused_verdict, inversions,
    no_spread, paired, read_by_rounds, recorded, recorded_int8_units, recorded_verdict, rounds_above_words,
    rounds_finding, rounds_record, share_of_rate, split_reference, spread_of, value)
from utils.lessons.articles_checked.copy_paths import _paths, _peer_path_faster  # noqa: F401  (rows A9, A18)
from utils.lessons.articles_checked.split_alone import (  # noqa: F401  (re-exported: report, verdicts, tests)
    FINDING_IN_EVERY_LAUNCH, LAUNCHES_DISAGREE, launches, launches_text, launches_words, past_bound,
    split_alone_words, split_explained, split_rounds_finding)
from utils.lessons.articles_checked.busy_cores import (  # noqa: F401  (re-exported: rows and tests)
    MARGIN, busy_note, needs_quiet_cores, quiet, too_busy)
from utils.lessons.articles_checked.peak_ratios import (  # noqa: F401  (re-exported: rows B13, B15)
    WIDE_SPREAD, peak_ratio, too_wide)

AGREES, DISAGREES, WAITING, BUSY = "agrees", "disagrees", "waits for a figure", "inconclusive: a busy machine"
ABOVE, NOISY = "above its bound: a finding to explain", "inconclusive: noise-bound"  # report.NOISY_WORDS
STATES = (AGREES, DISAGREES, WAITING, BUSY, ABOVE, NOISY)
# Lesson 07's article split read from its fastest pass (where a record kept no rounds, hence no spread): the
# scatter allowed around 1x
TURNS_NOISE = 0.05
PIPELINE_CAUSE = "the stages' work below one device's"  # what raises the reference over 2m/(m+1)
# lesson 02 §5's own verdict on such a median (``model_split.reference.EXPLAINED``), quoted, never re-judged
# short: the rows' visible cell must hold the deciding clause whole, rounds past 2x included (the cause is
# PIPELINE_CAUSE, said in the note under §1's counts)
PIPELINE_EXPLAINED = "explained by the reference, as lesson 02 §5 reads it"
TWO_STAGES_EXPLAINED = "explained by the reference, as lesson 02 §9 reads it"  # its schedules, two stages a device
# A summary claim stands when the rows it sums up stand.
SUMMED = {"A17": ["A10", "A20", "A13", "A15", "A3"], "B18": [f"B{k}" for k in range(5, 17)]}  # B5-B16: the cures


class AboveBound(Exception):
    """A speed-up passed its ceiling: the verdict is not contradicted, but the figure is a finding to explain
    (a bound that missed something, or a baseline that ran slow), never agreement."""


class Noisy(Exception):
    """The figure's spread covers what it is compared with, or is too wide (``WIDE_SPREAD``): neither way."""


# --- Speed-ups beside their bounds --------------------------------------------------------------------------------


def speedup_words(m, name: str) -> str:
    """The course's verdict words for recorded speed-up ``name`` beside its bound (``recorded_verdict``), as
    lesson 02 reads a pipeline past it (§5's best and §9's schedules alike: explained by its work-scaled
    reference, or not: ``explained_by_reference``) and its split alone against its 1x bound (``split_alone_words``)."""
    r = recorded(m, name).record
    if name == "naive_split":
        return split_alone_words(r)
    text = recorded_verdict(r, r.get("bound"))  # as printed: 1.7797 is 1.78, at 1.78, as lesson 02 judges it
    if name not in ("pipeline", *TWO_STAGES) or not past_bound(text):
        return text
    # rule 4: a median printed past 2 devices' 2x is read against 2x with its spread, never by a reference
    if median_two_words(r):
        return f"{text}, {median_two_words(r)}"
    if name in TWO_STAGES and not reference_explains(r):  # §9: past its reference too (A19 says by how much)
        return text
    if explained_by_reference(r):
        if work_scaled_reference(r) is not None:  # lesson 02's verdict: above the bound, explained by it
            return f"above the bound, {pipeline_explanation(r, name in TWO_STAGES)}"
        return f"{text}; {pipeline_explanation(r)}"
    return text


def reference_explains(record: dict) -> bool:
    """Lesson 02 §9's rule for a schedule past its bound (``two_stages.lesson_02_two_stages_reading``): only a
    work-scaled reference kept, above the bound as printed, with the median within it plus the rounds' spread
    (a reference at or under the bound cannot explain a median past the bound)."""
    reference = work_scaled_reference(record)
    return (reference is not None and words.as_printed(reference, 2) > words.as_printed(record["bound"], 2)
            and explained_by_reference(record))


def pipeline_explanation(record: dict, two_stages: bool = False) -> str:
    """Beside a pipeline past 2m/(m+1): lesson 02's reading (§5's; §9's where ``two_stages``), where it kept a
    work-scaled reference, word for word as lesson 02 reads it ("within the work-scaled reference (1.93x) plus
    the rounds' spread (± 0.05): explained by the reference"), in the median (its rounds past 2x stay findings,
    read beside it); with none kept, an excess under ``EXPLAINED_MARGIN`` is left a finding, with the cause a
    reference would show."""
    reference = work_scaled_reference(record)
    if reference is None:
        return (f"past it by under {EXPLAINED_MARGIN:.0%}, with no work-scaled reference kept: lesson 02 §5 "
                f"explains such an excess by one ({PIPELINE_CAUSE}), which this entry cannot show")
    ref = words.as_printed(reference, 2)
    plus = (f" plus the rounds' spread (± {spread_of(record):.2f})"
            if record.get("rounds") and words.as_printed(record["value"], 2) > ref else "")
    explained = TWO_STAGES_EXPLAINED if two_stages else PIPELINE_EXPLAINED
    return "; ".join(filter(None, (f"within its work-scaled reference {ref:.2f}x{plus} in the median: "
                                   f"{explained}", figures.reference_past_two_words(reference))))


def faster(text: str) -> bool:
    """Faster than one device, at or under the bound (not within noise of 1x, not past the bound)."""
    return text.startswith(("faster", "at the bound"))


def faster_within_bound(m, name: str) -> bool:
    """True for a speed-up under or at its bound, False for none; ``AboveBound`` for one past it, whatever
    explains it (a finding to explain, never agreement); ``Noisy`` past it with no spread recorded."""
    text = speedup_words(m, name)
    needs_undisturbed(m, name)  # measured on a loaded machine: inconclusive, never "disagrees"
    if no_spread(text):
        raise Noisy(name)
    record = read_by_rounds(name, recorded(m, name).record)
    if past_bound(text) or name in READ_AS_LESSON_02 and rounds_finding(record):
        raise AboveBound(name)  # the median past its bound, or a single round lesson 02 reads as a finding
    return faster(text)


def all_hold(*reads) -> bool:
    """Every read (a function returning True or False) holds: False where any does not, even where another
    passed its bound (a contradiction is said before a finding); ``AboveBound`` where one passed its bound and
    none failed; True where all hold within their bounds. An inconclusive read (``Missing``, ``Busy``,
    ``Noisy``) hides neither: a figure from a loaded machine is not evidence either way, so the other figures
    are still read (t36_09 #1), and the first inconclusive answer is raised only where none of them decides."""
    above = inconclusive = None
    for read in reads:
        try:
            if not read():
                return False
        except AboveBound as found:
            above = above or found
        except (Missing, Busy, Noisy) as unread:
            inconclusive = inconclusive or unread
    if above is not None or inconclusive is not None:
        raise above or inconclusive
    return True


def turns_words(speedup: float, noise: float = TURNS_NOISE) -> str:
    """The words for two devices that take turns: their bound is one device's time (1x)."""
    return words.speedup_verdict(speedup, 1.0, noise, slower="slower than one device")


def split_takes_turns(m) -> bool:
    """Lesson 02's split without micro-batches within its 1x bound (one stage at a time): True; past it, or
    with a single round lesson 02 reads as a finding, ``AboveBound``, a finding to explain as lesson 02 reads
    it (its timeline shows the stages taking turns); ``Noisy`` where lesson 02's launches, read together,
    read differently (``launches_words``: one past the bound and another not, or one slower than one device
    beyond its noise and another within it), unless every launch holds a finding (``launch_findings``): then
    ``AboveBound``, as the row's evidence says."""
    record = recorded(m, "naive_split").record
    text, together = recorded_verdict(record, 1.0), launches_words(record)
    # lesson 02's launches read together: launches that read differently are no verdict either way
    if no_spread(text) or together.startswith(LAUNCHES_DISAGREE):
        raise Noisy("naive_split")
    # a single round lesson 02 §3 reads as a finding (beyond the rounds' spread) is one, whatever the median
    # (read against each round's own per-process reference, as §3 reads them: ``split_rounds_finding``)
    if (not past_bound(text) and not together.startswith(FINDING_IN_EVERY_LAUNCH)
            and not split_rounds_finding(read_by_rounds("naive_split", record))):
        return True
    raise AboveBound("naive_split")


def superlinear(m) -> bool:
    """Two DDP workers beat 2x by more than their rounds' spread: each GPU did more work a second than one alone."""
    r = recorded(m, "ddp").record
    needs_undisturbed(m, "ddp")  # a figure from a loaded machine: not evidence either way (``Busy``)
    return r["value"] > 2.0 + spread_of(r)


def within_linear(m) -> bool:
    """Rows A4, A24, B21 say cost falls and efficiency rises only past 2x (superlinear): GPU-hours are
    2 / speed-up, efficiency speed-up / 2, whatever the speed-up. Lesson 03's speed-up up to 2x (slower than
    one device included) agrees: the condition unmet, and no saving; past 2x by more than its spread the
    condition is met, a finding to explain (``AboveBound``), never agreement. Whether two GPUs cut the time at
    all is row A3's check."""
    if superlinear(m):
        raise AboveBound("ddp")
    return True


def capstone_within_bound(m) -> bool:
    """Lesson 08's two-device step: faster than one device and within 2x (``AboveBound`` past it); ``Noisy``
    within noise of one device (``capstone.within_noise_of_one``), as lesson 08 reads its own step."""
    record = recorded(m, "capstone").record
    speedup = capstone_two_devices(record)
    if speedup > 2.0:
        raise AboveBound("capstone")
    if capstone.within_noise_of_one(record):
        raise Noisy("capstone")  # a tie with one device is no evidence that two devices do not cut the time
    return speedup > 1.0


def _a10(m) -> bool:
    """Row A10: the split alone takes turns (within 1x), the pipeline beats it within 2m/(m+1); either past
    its bound is a finding to explain (``AboveBound``), never agreement."""
    return all_hold(lambda: split_takes_turns(m), lambda: faster_within_bound(m, "pipeline"),
                    lambda: value(m, "pipeline") > value(m, "naive_split"))


# Row A19: a method keeps both GPUs working where each keeps more than this share of its rate alone (a speed-up
# over 1.2x); a split whose halves take turns keeps about half (one GPU idle at a time).
BOTH_WORKING = 0.6


def _a19(m) -> bool:
    """Row A19, "false: as stated, true of data parallel only" (both GPUs working): the article's own split keeps
    no more than about half of each GPU's rate (one idle at a time), read from the median of its paired rounds
    as the row prints it, and lesson 03's data parallel keeps more than ``BOTH_WORKING`` (``Missing`` where
    not recorded), shares as printed (whole per cent); a figure it quotes past its bound: ``AboveBound``."""
    needs_quiet_cores(m, "passes", 2)  # the split's share means something only where each worker had a core
    line = words.as_printed(BOTH_WORKING, 0, scale=0.01)  # per cent, as the row prints each share
    if share_of_rate(article_split_speedup(m)[0]) > line:  # x / 2, as printed
        return False  # a contradiction is said before a figure is waited for
    if m["results"].get("ddp") is None:
        raise Missing("ddp")
    quoted = ("pipeline", "ddp", *TWO_STAGES)  # lesson 02 §9's schedules too, where recorded
    return all_hold(lambda: needs_undisturbed(m, "ddp") or share_of_rate(value(m, "ddp")) > line,
                    *(lambda name=name: not_past_bound(m, name) for name in quoted),
                    lambda: split_rounds_in_bound(m))  # the split's single rounds, by the same rule as A11's


def not_past_bound(m, name: str) -> bool:
    """True where recorded figure ``name`` is not past its bound, or is not recorded (a row that only quotes
    it); ``AboveBound`` where it passed it."""
    if m["results"].get(name) is None:
        return True
    return faster_within_bound(m, name) or True  # slower is not past it: True; past it, with no spread: raised


def article_split_speedup(m) -> tuple[float, bool]:
    """The article's split over one device: (the median of its paired rounds, True), or (the fastest pass
    against one device's fastest, False) where the passes kept no rounds. Rows A11, A19 and A21 quote it."""
    p = m["passes"]
    rounds = p.get("article split rounds")
    return (paired(rounds)[0], True) if rounds else (p["article split"], False)


def split_rounds_in_bound(m) -> bool:
    """True, or ``AboveBound`` where a single round of the article's split is above its 1x bound beyond the
    rounds' spread (lesson 02's rule, ``rounds_finding``: one rule for every row that lists rounds)."""
    rounds = m["passes"].get("article split rounds")
    if rounds and rounds_finding(rounds_record(rounds, 1.0)):
        raise AboveBound("article split")
    return True


def article_split_words(m) -> str:
    """The article's split beside its 1x bound (halves that take turns): the median of its paired rounds read
    by the course's noise rule (their spread); the fastest pass with ``TURNS_NOISE`` where no rounds were
    kept."""
    rounds = m["passes"].get("article split rounds")
    if rounds:
        return rounds_verdict(rounds, 1.0, "slower than one device")
    return turns_words(m["passes"]["article split"])


# --- Other checks' pieces --------------------------------------------------------------------------------------


def _fragmentation_shown(m) -> bool:
    """In host memory (every mode): the larger requests grew the process with holes free, and fresh pages took
    longer than reused ones. On a GPU, where measured: the larger block needed more reserved memory with holes
    free, and a new reservation took longer than a request the cache served."""
    host = m["host_memory"]  # its bytes contradict on busy cores too; its timing needs a quiet core
    if not (host_memory.memory_shown(host) and quiet(m, "host_memory", 1) and host_memory.time_shown(host)):
        return False
    if "fragmentation" not in m:
        return True
    if isinstance(m["fragmentation"], Exception) or isinstance(m.get("allocation"), Exception):
        raise Missing("fragmentation")
    stages, times = m["fragmentation"], m.get("allocation")
    return stages[3][2] > stages[1][2] and (times is None or times["new"] > times["cached"])


def sizes_out_of_order(m) -> list[tuple[int, int]]:
    """Every pair of sizes whose larger message took less time (``inversions``; [] where all are in order):
    rows B2 and B10 read the fixed cost and the bytes from these times, so both are inconclusive where any
    pair is out of order, and both name every such pair."""
    return inversions(m)


def fixed_cost_dominates(m) -> bool:
    """A 4-byte message takes more than half a 4 KiB one's time (the fixed cost is most of a small message);
    ``Noisy`` where any larger message took less time than a smaller one (``sizes_out_of_order``)."""
    if sizes_out_of_order(m):
        raise Noisy("link")
    return small_share(_sends(m)) > 50


def small_share(sec: dict[int, float]) -> float:
    """The 4-byte message's time over the 4 KiB one's in whole per cent, from the two times as row B2 prints
    them (whole µs), so the row's share and this check read one figure."""
    return words.as_printed(words.printed_ratio(sec[4], sec[2**12], 0, 1e-6), 0, 0.01)


def bytes_dominate_4_mib(m) -> bool:
    """Row B10: a 4 MiB message takes more than twice a few-byte message's time (the bytes, not the fixed cost,
    take most of it); ``Noisy`` where any sizes' times are out of order (``sizes_out_of_order``)."""
    if sizes_out_of_order(m):
        raise Noisy("link")
    return _sends(m)[2**22] > 2 * fixed_cost(m)


def gain_where_units(m, dtype: str, has_units: bool) -> bool:
    """A gain over fp32 where the CPU has the units for ``dtype``, none to speak of (under 1.2x) where not;
    ``Noisy`` where the spreads let the ratio fall on either side of that line."""
    ratio, low, high = peak_ratio(m, dtype)
    line = 1.0 if has_units else 1.2
    if low <= line < high:  # however wide, a range wholly on one side of the line says which side
        raise Noisy(dtype)
    return ratio > 1.0 if has_units else ratio < 1.2


def _code_missing(m, claim_id: str, names: tuple[str, ...]) -> bool:
    found = m["missing"][claim_id]
    return all(n in found["undefined"] for n in names) and not found["optimizer"]


def _case_study_walk_holds(m) -> bool:
    """Article 2's own code: started as a plain script, it stops first where it reads RANK from os.environ
    (os never imported), then where no launcher set RANK; fixed, it trains each rank on its own batches."""
    outcomes = [text for _, text in m["case_study"]]
    return (outcomes[0].startswith("NameError: name 'os'") and outcomes[1].startswith("KeyError: 'RANK'")
            and outcomes[-1].endswith("each rank its own batches")
            and _code_missing(m, "B17", ("dataloader", "criterion")))


# --- Paired rounds read by the course's noise rule (utils.claims.speedup_verdict) ----------------------------


def rounds_verdict(ratios: list[float], bound: float | None, slower: str) -> str:
    """The course's words for paired rounds' median beside its bound, their spread the noise."""
    median, spread = paired(ratios)
    return words.speedup_verdict(median, bound, spread, slower=slower)


def faster_by_rounds(ratios: list[float], bound: float | None, slower: str, name: str) -> bool:
    """True where the rounds' median is faster beyond their spread, False where slower; ``Noisy`` where the
    spread covers 1x, ``AboveBound`` past the bound by more than the spread."""
    said = rounds_verdict(ratios, bound, slower)
    if said.startswith("within noise"):
        raise Noisy(name)
    if past_bound(said) or rounds_finding(rounds_record(ratios, bound)):
        raise AboveBound(name)  # the median past its bound, or a single round lesson 02 reads as a finding
    return faster(said)


def tensor_parallel_rounds(m) -> list[float]:
    """Lesson 07's tensor-parallel passes, one device's time over the pair's, each paired round (the fastest
    alone where a record kept no rounds)."""
    return m["passes"].get("tensor parallel rounds") or [m["passes"]["tensor parallel"]]


def _tensor_parallel_beats_taking_turns(m) -> bool:
    """Row A21's condition: a batch's forward pass, every layer halved, faster than one device beyond the
    rounds' spread, and faster than the article's halves that take turns beyond the two medians' spreads (rows
    A11 and A19 quote the split's median)."""
    needs_quiet_cores(m, "passes", 2)  # each worker needs a core of its own for either to gain
    rounds = tensor_parallel_rounds(m)
    # lesson 07's recorded pass past its bound: a finding, never agreement; a slower figure is said first
    return all_hold(lambda: faster_by_rounds(rounds, m["passes"]["bound"], "slower than one device",
                                             "tensor parallel"),
                    lambda: beats_article_split(m, rounds),
                    lambda: not_past_bound(m, "tensor_parallel"))


def beats_article_split(m, rounds: list[float]) -> bool:
    """Tensor parallel's median against the article's split's, by the course's noise rule between two medians
    (``runs_agree``: one median ± its spread covers the other's): ``Noisy`` there, a tie this run cannot
    decide (t40_09 #1); else True where tensor parallel is the faster."""
    split, with_rounds = article_split_speedup(m)
    split_spread = paired(m["passes"]["article split rounds"])[1] if with_rounds else 0.0
    if words.runs_agree(*paired(rounds), split, split_spread):
        raise Noisy("tensor parallel against the article's split")
    return paired(rounds)[0] > split


BREAK_EVEN = 0.05  # packing within 5 % of what it saves: at break-even, within the timings' noise


def compression_reading(m) -> tuple[str, str]:
    """Row B8's condition in this run: ("holds" | "fails" | "break-even" | "unread", what the packed way did end
    to end: ``rounds_verdict``'s words). The condition: packing and unpacking cost less than the bytes not sent
    save. Where the smaller message took as long or longer (no saving as timed: the timings' noise, since fewer
    bytes cannot cost more), the saving is not read from the run: the condition fails only where the packing
    alone cost at least the whole plain send, which no saving could repay; else it is "unread"."""
    c = m["compressed"]
    # whole µs, as the row prints them: the condition is judged on the figures a reader sees
    us = {k: words.as_printed(_median(c[k]), 0, scale=1e-6) for k in ("plain", "bytes", "packing")}
    saved, packing = us["plain"] - us["bytes"], us["packing"]
    condition = ("break-even" if abs(packing - saved) <= BREAK_EVEN * max(abs(saved), packing) else
                 "holds" if packing < saved else "unread" if saved <= 0 < us["plain"] - packing else "fails")
    return condition, rounds_verdict(compression_rounds(c), PACKED_BOUND, "slower than sending fp32")


_median = statistics.median  # the middle value; of an even count, the mean of the two middle ones


def _compression_follows_its_condition(m) -> bool:
    """Row B8: where packing costs less than it saves, the packed way is faster end to end; where more,
    slower. Either outcome against its condition disagrees; break-even or a spread over 1x says neither."""
    needs_quiet_cores(m, "compressed", 2)  # two processes: each needs a core
    condition, said = compression_reading(m)
    if condition in ("break-even", "unread") or said.startswith("within noise"):
        raise Noisy("compressed")
    ratios = compression_rounds(m["compressed"])  # past a quarter of the bytes' 4x: a finding, as every row's
    if past_bound(said) or rounds_finding(rounds_record(ratios, PACKED_BOUND, devices=None)):
        raise AboveBound("compressed")
    return (condition == "holds") == said.startswith("faster")


def cnn_ddp_rounds(m) -> list[float]:
    """Article 2's CNN: one worker's step time over two DDP workers', each paired round (``cnn_rounds``)."""
    c = m["cnn_ddp"]
    if isinstance(c, Exception):  # the two-worker run failed here: no figure to judge (its row says why)
        raise Missing("cnn_ddp")
    return cnn_rounds(c)  # each from the times as the page prints them


def _case_study_faster(m) -> bool:
    """Row B22: two DDP workers train the case study's CNN faster than one, within 2x, beyond the spread."""
    needs_quiet_cores(m, "cnn_ddp", 2)
    return faster_by_rounds(cnn_ddp_rounds(m), 2.0, "slower than one worker", "cnn_ddp")


def _second_core_helps(m) -> bool:
    needs_quiet_cores(m, "threads", 2)  # a second thread adds compute only where the second core is free
    return min(m["threads"]["train"], m["threads"]["forward"]) > 1.05


def _prefetch_holds(m) -> bool:
    r = recorded(m, "prefetch").record  # this run's lesson 05 where recorded; its configurations from make bench
    bench = m["results"].get("prefetch_configs")
    configs = r.get("configs") or (bench.record.get("configs") if bench else None)
    beats_no_prefetch = not configs or configs["Prefetcher thread"]["seconds"] < configs["no workers"]["seconds"]
    return beats_no_prefetch and r["value"] >= 0.95 * r["bound"]  # an epoch never beats max(load/k, compute)


def _width(m, key: str) -> float:
    return m["width"][key]


CHECKS = {
    # true of GPT-3, not of BERT: either failing disagrees
    "A1": lambda m: m["sizes"]["GPT-3"] > 1e10 and m["sizes"]["BERT-large"] < 1e9,
    "A23": lambda m: 0.9 < _width(m, "counted_over_formula") < 1.1 and 0.9 < _width(m, "forward_over_formula") < 1.1
    and 2.5 < _width(m, "train_over_forward") < 3.5,
    "A24": lambda m: all_hold(lambda: faster_within_bound(m, "ddp"), lambda: capstone_within_bound(m),  # as A3
                              lambda: within_linear(m)),  # throughput up (both figures), per GPU down
    "A3": lambda m: all_hold(lambda: faster_within_bound(m, "ddp"), lambda: capstone_within_bound(m)),
    "A21": _tensor_parallel_beats_taking_turns,
    "A4": within_linear,  # GPU-hours only past 2x; less time, A3's check, is named in A4's evidence
    "A18": _peer_path_faster,
    "A9": lambda m: _paths(m)["direct"].fit.alpha < _paths(m)["one PCIe hop"].fit.alpha,
    "A10": _a10,
    "A11": lambda m: quiet(m, "passes", 2)  # a busy core slows one side of a pair more than the other
    and not past_bound(article_split_words(m))  # past 1x beyond the noise: they did not take turns
    and split_rounds_in_bound(m),
    "A12": lambda m: any(_stopped(s) for s in m["split"][:-1]) and not _stopped(m["split"][-1]),
    "A22": lambda m: m["copies"]["same_layers"] and len(set(m["copies"]["parameters"])) == 1,
    "A20": lambda m: m["merges"]["linear_diff"] < 1e-4 and m["merges"]["bn_diff"] < 1e-3,
    "A13": lambda m: m["fold"]["diff"] < 1e-4 and m["maxpool"] > 1e-3,
    "A14": lambda m: not _stopped(m["conv"][-1]) and m["simplified"]["layers"] == 1,
    "A15": lambda m: value(m, "fsdp") <= 0.6,
    "A16": lambda m: m["ddp"][-1][0] == "ran" and any(_stopped(t) for _, t in m["ddp"])
    and _code_missing(m, "A16", ("data_loader", "criterion", "target")),
    "A19": _a19,
    "B1": _second_core_helps,
    "B2": lambda m: quiet(m, "link", 2) and fixed_cost_dominates(m),  # the fixed cost: most of 4 KiB
    "B3": lambda m: quiet(m, "width", 1) and m["width"]["time_ratio"] > 1.5,
    "B4": lambda m: quiet(m, "algorithms", 1) and fused_holds(m, "attention"),
    "B5": lambda m: all_hold(lambda: _a10(m), lambda: faster_within_bound(m, "ddp")),
    "B7": _fragmentation_shown,
    "B8": _compression_follows_its_condition,
    "B9": _prefetch_holds,
    "B10": lambda m: quiet(m, "link", 2) and bytes_dominate_4_mib(m),  # 4 MiB: the bytes take most
    "B11": lambda m: _removing_cuts_zeroing_does_not(m)
    and gain_at(value(m, "quantize"), recorded_int8_units(recorded(m, "quantize").record)),
    "B12": lambda m: _removing_cuts_zeroing_does_not(m),
    "B13": lambda m: quiet(m, "peaks", None) and gain_where_units(m, "int8", m["units"].int8_dot),
    "B14": lambda m: quiet(m, "algorithms", 1) and fused_holds(m, "gelu"),
    "B15": lambda m: quiet(m, "peaks", None) and gain_where_units(m, "bf16", m["units"].bf16_units),
    "B16": lambda m: faster_within_bound(m, "ddp"),
    "B21": lambda m: faster_within_bound(m, "ddp") and within_linear(m),  # as row A24
    "B17": _case_study_walk_holds,
    "B19": lambda m: m["cnn"]["parameters"] < 1e8,  # below BERT-base's 1.1e8: no large model
    "B22": _case_study_faster,
}


def fused_holds(m, name: str) -> bool:
    """Rows B4, B14: the same result, and faster beyond the rounds' spread (``fused_verdict``); within it,
    ``Noisy``; past a bytes ceiling, ``AboveBound``."""
    c, said = m["algorithms"][name], fused_verdict(m["algorithms"][name])
    if said.startswith("within noise") or past_bound(said):
        raise Noisy(name) if said.startswith("within noise") else AboveBound(name)
    return c.same_result and faster(said)


def _removing_cuts_zeroing_does_not(m, faster_allowed: bool = False) -> bool:
    """Rows B11, B12: half the neurons removed under 0.8 of the dense time; half the weights zeroed no faster by
    the paired rounds (``figures.zeroed_no_faster``); two fastest times alone: ``Noisy``. ``faster_allowed``:
    row B18's reading (a zeroed layer faster than expected is no cure that failed)."""
    quiet(m, "prune", 1)
    if figures.zeroed_side(m["prune"]) == "unpaired":
        raise Noisy("prune")
    zeroing = faster_allowed or figures.zeroed_no_faster(m["prune"])
    return m["prune"]["removed"] < 0.8 * m["prune"]["dense"] and zeroing


# Row B18 ("these methods speed up") reads B11 and B12 with a faster zeroed layer allowed (not against it)
FOR_B18 = {"B11": lambda m: _removing_cuts_zeroing_does_not(m, True)
           and gain_at(value(m, "quantize"), recorded_int8_units(recorded(m, "quantize").record)),
           "B12": lambda m: _removing_cuts_zeroing_does_not(m, True)}


def gain_at(ratio: float, has_units: bool) -> bool:
    """A recorded speed-up over fp32 where the CPU had the units, none to speak of where not."""
    return ratio > 1.0 if has_units else ratio < 1.2


def run_check(claim_id: str, m: dict, earlier: dict) -> str:
    """The check's answer for one row: one of ``STATES``."""
    if claim_id in SUMMED:
        return run_check_with(lambda m: _summed_rows_agree(claim_id, earlier, m), m)
    return run_check_with(CHECKS[claim_id], m)


def _summed_rows_agree(claim_id: str, earlier: dict, m: dict | None = None) -> bool:
    """A summary disagrees where a row it sums up does; otherwise it waits, is inconclusive or carries a
    finding wherever one of them does: a finding before a spread, so that no row's finding hides behind another
    row's noise (its evidence names every row its check follows, each with its own state); ``_as_summed``."""
    checks = [_as_summed(claim_id, i, earlier[i].check, m) for i in SUMMED[claim_id] if earlier[i].check is not None]
    if DISAGREES in checks:
        return False
    for state, raised in ((WAITING, Missing), (BUSY, Busy), (ABOVE, AboveBound), (NOISY, Noisy)):
        if state in checks:
            raise raised(claim_id)
    return True


def _as_summed(claim_id: str, row: str, check: str, m: dict | None) -> str:
    """Row ``row``'s check as summary ``claim_id`` counts it: row B18 recounts B11 and B12 by ``FOR_B18``."""
    if claim_id != "B18" or check != DISAGREES or row not in FOR_B18 or m is None:
        return check
    return run_check_with(FOR_B18[row], m)


def run_check_with(check, m: dict) -> str:
    """One of ``STATES`` from a check function, as ``run_check`` reads ``CHECKS``."""
    states = ((Missing, WAITING), (Busy, BUSY), (AboveBound, ABOVE), (Noisy, NOISY))
    try:
        return AGREES if check(m) else DISAGREES
    except (Missing, Busy, AboveBound, Noisy) as raised:
        return next(state for kind, state in states if isinstance(raised, kind))
