"""Lesson 02's section 3 (the naive split) in sentences and its rounds' table, printed from the run. Split from
``report``, which re-exports these names for the notebook: import them from ``report`` (this module reads
``report``'s verdicts, so ``report`` loads first)."""

from __future__ import annotations

from decimal import Decimal

from utils import timeline
from utils.claims import Claim, as_printed, half_up, percent, runs_agree, within_noise
from utils.lessons.model_split.bounds import paired_digits, round_as_printed
from utils.lessons.model_split.noise import (beside_line, excess_past_weak_reference, explained_then,
                                            ms_as_printed, noise_of_one, printed, reference_gain,
                                            reference_reading, reference_side, round_shortfall,
                                            reference_then,
                                            paired_reference, weak_reference_words,
                                            round_text, rounds_text)
from utils.lessons.model_split.reference import findings_past, own_reference_explains, past_indices
from utils.lessons.model_split.report import (CONTENDED, EXTRA, GAP, headline_verdict,
                                             process_reference_explains, process_reference_noise,
                                             process_reference_spread, reading,
                                             row_verdict, within_process_reference)
from utils.lessons.model_split import launch_findings  # a module: it reads report, which imports this one
from utils.lessons.model_split.runs import PipelineRun, Row, tenth_ms
from utils.tables import Table


def naive_headline(r: Row, run: PipelineRun | None = None) -> str:
    """The answer of section 3 in two sentences: the step times, then which figure is the speedup and why it
    is not the ratio of the two step times printed before it. The step times are the medians of the rounds
    table's columns as it prints them (``run``: ``_column_medians``), so that a reader who takes the median of
    the printed column finds the headline's figure (115.5 ms, not 115 from the unrounded 115.46: t33_02 #4);
    without ``run``, the medians to 0.1 ms, as the table prints most rounds."""
    lo, hi = r.speedup_range
    split_ms, one_ms = (_column_medians(run, r) if run is not None else
                        (f"{tenth_ms(r.seconds):.1f}", f"{tenth_ms(r.baseline):.1f}"))
    text = (f"Naive split {split_ms} ms per step, one device {one_ms} ms (medians of "
            f"{len(r.speedups)} rounds). The speedup is one device's time over the split's, round by round: "
            f"{r.speedup:.2f}x (median of the paired ratios; every round {rounds_text(lo, hi)}) against a bound "
            "of 1x.")
    divided = half_up(float(one_ms) / float(split_ms), 2)  # a worked figure, rounded as a reader rounds it
    if divided == as_printed(r.speedup, 2):
        return text
    return (f"{text} The ratio of the two medians, {one_ms} / {split_ms} = {divided:.2f}x, differs: "
            f"the median of the ratios pairs each split step with the one-device step timed beside it in the "
            f"same round, while the two medians may come from different rounds.")


def _column_medians(run: PipelineRun, row: Row) -> tuple[str, str]:
    """The medians of the rounds table's split and one-device columns, worked from the ms as it prints them
    (``_paired_ms``): ("115.5", "121.9"). An odd count's median is one printed figure; an even count's halves
    two, exactly (115.5 and 115.8 give 115.65)."""
    times = run.raw[0]["times"]
    pairs = [_paired_ms(o, t) for o, t in zip(times[f"batch {row.batch} one device"], times[row.key])]
    return _median_text([t for _, t in pairs]), _median_text([o for o, _ in pairs])


def _median_text(texts: list[str]) -> str:
    """The median of printed figures, as printed: the middle one, or the exact half of the middle two."""
    ordered, n = sorted(texts, key=Decimal), len(texts)
    if n % 2:
        return ordered[n // 2]
    return str((Decimal(ordered[n // 2 - 1]) + Decimal(ordered[n // 2])) / 2)


def naive_reading(r: Row, spans) -> str:
    """What the naive split's timeline and numbers say, from this run: the stages' busy fractions (their sum
    near 100 % means one device at a time), and where the median stands against 1x and against the bound
    measured per process (each stage timed alone in its own process)."""
    # each share in whole percent, rounded half up; "together" adds the shares as printed (49% + 51% is 100%)
    busy = {name: half_up(f * 100, 0) for name, f in timeline.busy_fractions(spans).items()}
    total = sum(busy.values())
    shares = ", ".join(f"{name} {p:.0f}%" for name, p in busy.items())
    turns = ("one device works at a time" if total <= 110 else
             "they overlapped a little (a send can finish while the other stage starts)")
    text = f"Busy on the timeline: {shares}; together {total:.0f}%: {turns}."
    if r.process_bound is None:  # no stage timed alone: the verdict's cause, from the measured work
        word = row_verdict(r)
        if word.startswith(GAP) and EXTRA in word:
            cause = (f"the two stages did {r.work_inflation:.2f}x one device's work (sending, receiving and "
                     f"the second process's own overhead)")
        else:
            cause = word[len(GAP):] if word.startswith(GAP) else word
        return (f"{text} The bound is 1x; this run measured {r.speedup:.2f}x (every round "
                f"{rounds_text(*r.speedup_range)}): {headline_verdict(r)}; {cause}.")
    pb, (value, spread) = r.process_bound, printed(r)
    if noise_of_one(r):  # claims' one rule: the median ± the paired spread covers 1x
        # the block below still sets the rounds beside the reference; no excess means nothing for it to explain
        why = (f"within noise of 1x ({value:.2f}x ± {spread:.2f} covers it): no effect shown, as the 1x bound "
               f"says, so no excess over 1x for the per-process reference ({pb:.2f}x) to explain")
    elif value > 1:  # the one verdict of the naive row (reference.naive_verdict), as every table prints it
        why = f"above 1x ({value:.2f}x ± {spread:.2f}): {headline_verdict(r)}"
        if process_reference_explains(r):
            why += (f". The reference ({pb:.2f}x) is itself above 1x by more than its rounds' spread "
                    f"(± {process_reference_spread(r):.2f}): each stage alone in its own process cost less than its "
                    "share of one device's step, consistent with each process's caches holding only half the model "
                    "(not measured here)")
        elif within_process_reference(r):  # the verdict's "it explains nothing": the pairing, a sentence apart
            why += (f". The split is {reference_reading(r, r.process_bounds)}, but a reference within noise of 1x "
                    "explains no excess over 1x")
    else:
        side = reference_side(r, r.process_bounds)  # paired round by round, the one reading
        rest = f"the rest is {_rest(r)}" if side == "under" else ""
        why = (f"below 1x by more than the rounds' spread ({value:.2f}x ± {spread:.2f}): slower than one device; "
               f"{reference_reading(r, r.process_bounds, rest)}")
    return f"{text} The median, {r.speedup:.2f}x, is {why}."


def naive_process_reading(r: Row) -> str:
    """Why the naive split can beat its 1x bound, from this run: each stage timed alone in its own process
    (``runs.alone_runners``) against one device's whole step, and the naive split against that bound."""
    if r.process_bound is None:
        return ""
    lo, hi = min(r.process_bounds), max(r.process_bounds)
    # as the table's last column prints them (``round_text``): 0.9955 prints 0.995x, below 1x, not 1.00x
    low = [p for p in r.process_bounds if round_as_printed(p) <= 1]
    if not low:
        reading = ("; in every round the two stages alone cost less than one device's step (consistent with "
                   "each process holding half the model in its caches; the caches were not measured)")
    elif r.process_bound > 1:
        where = ", ".join(f"{round_text(p)}x" for p in low)
        side = "below" if all(round_as_printed(p) < 1 for p in low) else "at or below"
        reading = (f"; in most rounds the two stages alone cost less than one device's step, though {len(low)} "
                   f"of {len(r.process_bounds)} rounds {'is' if len(low) == 1 else 'are'} {side} 1x ({where}): "
                   "a tendency, not a law")
    else:
        reading = "; within the rounds' spread the stages cost what the whole model does"
    if process_reference_noise(r) and as_printed(r.process_bound, 2) > 1:  # the rule a gain over 1x needs
        reading += (f"; its ± {process_reference_spread(r):.2f} covers 1x, so the reference is itself within noise "
                    "of 1x and explains no excess over 1x")
    # to 0.1 ms, as the rounds table above prints every step: the medians' ratio is worked from those figures
    # (113.5 / (53.4 + 58.4) = 1.02), not from whole ms rounded before the sum (114 / (53 + 58) = 1.03)
    one = as_printed(r.baseline, 1, 1e-3)
    parts = [as_printed(a, 1, 1e-3) for a in r.alone]
    stages, total = " + ".join(f"{p:.1f}" for p in parts), as_printed(sum(parts), 1)
    divided = half_up(one / total, 2)  # a worked figure, rounded as a reader rounds it
    medians = (f"the medians' own ratio, {one:.1f} / {total:.1f} = {divided:.2f}x, pairs figures from "
               f"different rounds" if divided != r.process_bound else
               f"the same as the medians' ratio, {one:.1f} / {total:.1f}")
    return (f"Each stage alone in its own process: {stages} ms (medians), against one device's {one:.1f} ms for "
            f"the whole step. Round by round, one device's step over the sum of that round's two stages (the "
            f"table's last column) gives the per-process reference: {r.process_bound:.2f}x ± "
            f"{process_reference_spread(r):.2f}, the median of those ratios ± their spread (rounds "
            f"{rounds_text(lo, hi)}; {medians})"
            + reading
            + ". The naive split " + _against_process_reference(r))


def _process_gain(r: Row) -> str:
    """How far the naive split went from 1x towards its per-process reference: the share of the reference's
    gain (``reference_gain``, the course's one measure, as the claims table prints it)."""
    value, pb = as_printed(r.speedup, 2), as_printed(r.process_bound, 2)
    if pb <= 1:
        return f"no share of its gain: the reference ({pb:.2f}x) offers none over 1x"
    if value <= 1:
        return f"none of its gain ({value:.2f}x is at or below 1x)"
    return (f"{percent(reference_gain(r, pb))} of its gain (({value:.2f} - 1) / ({pb:.2f} - 1): the share of the way "
            "from 1x to the reference)")


def _against_process_reference(r: Row) -> str:
    """The end of ``naive_process_reading``: the one reading against the reference, paired round by round
    (``noise.reference_reading``, as the claims table and the verdict print it), after claims' noise rule
    against 1x; where the split is above 1x, a reference itself within noise of 1x explains none of it; under
    a reference above 1x, the share of its gain and the rest."""
    value, spread = printed(r)
    said = reference_reading(r, r.process_bounds)
    side = reference_side(r, r.process_bounds)
    near = reference_then(r, r.process_bounds)  # of the rounds the reference reaches: the claims row's words
    if noise_of_one(r):  # no gain shown: nothing to share, and no cause read where the reference is near too
        return (f"is within noise of 1x ({value:.2f}x ± {spread:.2f} covers it): no gain shown; and it is "
                f"{reference_reading(r, r.process_bounds, near)}.")
    if side == "above":
        return f"is {said}."
    if excess_past_weak_reference(r, r.process_bounds):  # a reference within noise of 1x explains nothing
        return f"is {said}; {weak_reference_words(r.process_bounds)}."
    if side == "within noise":
        return f"is {reference_reading(r, r.process_bounds, near)}."
    # under a reference clear of 1x: the excess over 1x is explained (cell 15), and the share says how much
    # of the reference's gain the messages and the turn-taking left (the words ``noise.explained_then`` starts)
    if value > 1:  # the shortfall round by round, never a share worked from two medians (t34_02 #1)
        then = f"explained by the reference; {round_shortfall(r, r.process_bounds)}: {_rest(r)}"
    else:
        then = f"it reaches {_process_gain(r)}; the rest is {_rest(r)}"
    return f"is {reference_reading(r, r.process_bounds, then)}."


def _rest(r: Row) -> str:
    """What the naive split lost against its per-process reference: the messages and the turn-taking, and
    waiting for a core where a stage's CPU/busy fell below ``CONTENDED`` (as ``naive_reading`` says it)."""
    if r.cpu_share and beside_line(min(r.cpu_share), CONTENDED) == "below":  # as printed
        return ("the messages, the turn-taking and waiting for a core (CPU/busy "
                + " / ".join(percent(f) for f in r.cpu_share) + ")")  # half up, as beside_line judges
    return "the messages and the turn-taking"


def _slower_closing(r: Row) -> str:
    """``naive_closing`` for a split slower than one device, read against the per-process reference by the
    same rule as the line above the block (``_against_process_reference``): within its noise, no cost is left
    for the messages to name; above it by more than the spread, a finding; under it, the rest is named."""
    said = "slower than one device, as the bound allows"
    side = reference_side(r, r.process_bounds)
    if side == "within noise":  # a round past its own round's reference is named before this conclusion
        return (f"{said}, and " + reference_reading(r, r.process_bounds, "the two stages, each timed alone in its "
                "own process, cost together what this step did, so no cost of the messages or the turn-taking "
                "shows beyond them") + ".")
    if side == "above":
        return f"{said}, but {reference_reading(r, r.process_bounds)}."
    return f"{said}; {reference_reading(r, r.process_bounds, f'the rest is {_rest(r)}, not timed one by one')}."


def naive_closing(r: Row) -> str:
    """Section 3's last sentence: what this run's naive split explains and what it leaves open, by the one
    verdict every table prints (``reference.naive_verdict``): within noise of 1x, slower than one device, above
    1x and explained by the per-process reference, or above it with a part this run does not explain. ""
    where no stage was timed alone (no reference: ``naive_reading`` says what the work shows)."""
    if r.process_bound is None:
        return ""
    value, spread = printed(r)
    pb = as_printed(r.process_bound, 2)
    said = f"In short, this run's naive split: {value:.2f}x ± {spread:.2f} against its 1x bound; "
    past = rounds_past_words(r)
    if noise_of_one(r):  # "nothing left" only where the block above names no finding either
        if not past:
            return said + "within noise of it, as theory says: nothing left to explain."
        if not findings_past(r):  # every round past the spread reached by its own round's reference
            return said + f"within noise of it, as theory says, and nothing left to explain: {past}."
        return said + f"within noise of it, as theory says; but {past}."
    # round by round only where the verdict is not "above the bound" (those rounds are read with the median)
    also = f" Round by round, {past}." if past and not launch_findings.read_with_median(r) else ""
    return said + _closing_verdict(r, value, pb) + also


def _own_reference_words(r: Row, explained: list[int]) -> str:
    """"round 3 is not past its own round's per-process reference (1.09x / 1.11x = 0.98x)": the rounds
    ``own_reference_explains`` names, each with the division a reader redoes from the rounds table."""
    value, spread, _ = paired_reference(r, r.process_bounds)  # the ratios' median and spread, as printed
    divisions = []
    for i in explained:
        s, p = r.speedups[i - 1], r.process_bounds[i - 1]
        ratio = round_as_printed(s) / round_as_printed(p)  # as ``noise.paired_ratios`` works it
        within = (f", within the ratios' {value:.2f} + {spread:.2f} = {as_printed(value + spread, 2):.2f}"
                  if round_as_printed(ratio) > 1 else "")  # past 1, but not past the ratios' spread
        divisions.append(f"{round_text(s)}x / {round_text(p)}x = {round_text(ratio)}x{within}")
    if len(explained) == 1:
        return f"round {explained[0]} is not past its own round's per-process reference ({divisions[0]})"
    names = ", ".join(map(str, explained[:-1])) + f" and {explained[-1]}"
    return f"rounds {names} are not past their own rounds' per-process references ({'; '.join(divisions)})"


def _weak_reference_note(r: Row) -> str:
    """Why no round is set beside its own round's per-process reference, where that reference is itself within
    noise of 1x (``process_reference_noise``), with its median ± spread for the reader to check: "; the
    per-process reference (1.06x ± 0.12) is itself within noise of 1x: it explains no round"; "" otherwise."""
    if not r.process_bounds or not process_reference_noise(r):
        return ""
    return (f"; the per-process reference ({as_printed(r.process_bound, 2):.2f}x ± "
            f"{process_reference_spread(r):.2f}) is itself within noise of 1x: it explains no round")


def rounds_past_words(r: Row) -> str:
    """``findings_past`` in words, with the sum a reader checks: "1 of 5 rounds (1.11x) lies above the 1x bound
    and past the median + the spread (1.00 + 0.03 = 1.03): a finding to explain"; "" where none. A round not
    past its own round's per-process reference (``own_reference_explains``, the pairing section 3's block
    reads) is named with its division and is no finding: "2 of 5 rounds (1.19x, 1.09x) lie ... (0.99 + 0.06 =
    1.05); round 3 is not past its own round's per-process reference (1.09x / 1.11x = 0.98x): no finding;
    round 1: a finding to explain"."""
    indices = past_indices(r)
    if not indices:
        return ""
    value, spread = printed(r)
    verb = "lies" if len(indices) == 1 else "lie"
    shown = ", ".join(f"{round_text(r.speedups[i - 1])}x" for i in indices)
    said = (f"{len(indices)} of {len(r.speedups)} rounds ({shown}) {verb} above the {r.bound:.2f}x bound and past "
            f"the median + the spread ({value:.2f} + {spread:.2f} = {as_printed(value + spread, 2):.2f})")
    explained = own_reference_explains(r)
    rest = [i for i in indices if i not in explained]
    if not explained:
        return said + _weak_reference_note(r) + (": a finding to explain" if len(indices) == 1 else
                                                 ": findings to explain")
    own = _own_reference_words(r, explained)
    if not rest:
        return f"{said}; {own}: no finding left"
    which = f"round {rest[0]}: a finding" if len(rest) == 1 else f"rounds {', '.join(map(str, rest))}: findings"
    return f"{said}; {own}: no finding; {which} to explain"


def _closing_verdict(r: Row, value: float, pb: float) -> str:
    """``naive_closing``'s verdict past the noise of 1x: slower, explained by the per-process reference, or a
    part this run does not explain."""
    if value <= 1:
        return _slower_closing(r)
    paired = reference_reading(r, r.process_bounds)  # the one reading against the reference, round by round
    if process_reference_explains(r):  # of the median and the rounds within the ratios' spread only
        under = reference_side(r, r.process_bounds) == "under"  # the shortfall the block works, round by round
        share = f"; {round_shortfall(r, r.process_bounds, figures=False)}: {_rest(r)}" if under else ""
        explained = (f"explained by each stage's lower cost in its own process (the per-process reference, "
                     f"{pb:.2f}x{share}); why a stage costs less alone (its caches, say) is not measured")
        return f"above it, and {reference_reading(r, r.process_bounds, explained)}."
    if within_process_reference(r):  # a reference itself within noise of 1x explains none of it
        return (f"above it, and {paired}; but the per-process reference ({pb:.2f}x) is itself within noise of "
                "1x: this run does not explain the excess, a finding to explain.")
    return (f"above it, and {paired} (the same step's other launches, in sections 5 and 8, put it in "
            "context).")


def _paired_ms(one: float, split: float) -> tuple[str, str]:
    """One round's two step times (s) as the rounds table prints them: to 0.1 ms, or finer where the two ms at
    0.1 would divide to another figure than the round prints (``bounds.paired_digits``, the digits
    ``runs.process_reference`` divides one device's ms with): a round of 0.99996 from 155.3 / 155.3 = 1.00
    prints its ms as 155.294 / 155.300, whose ratio a reader finds beside them."""
    digits = paired_digits(one, split)
    return f"{as_printed(one, digits, 1e-3):.{digits}f}", f"{as_printed(split, digits, 1e-3):.{digits}f}"


def naive_rounds_table(run: PipelineRun, row: Row) -> Table:
    """The naive split round by round: one device's step, the split's step, their paired ratio (the speedup,
    printed as every round is, ``round_text``), each stage timed alone in its own process, and one device over
    their sum (the per-process reference, ``runs.process_reference``, the figures ``Row.process_bound`` is the
    median of). Every round measured, none left out. The ms are printed to 0.1 (finer where a round needs it,
    ``_paired_ms``) and each ratio is worked from them as printed: a reader who divides two printed ms finds
    the ratio beside them."""
    times = run.raw[0]["times"]
    one, split = times[f"batch {row.batch} one device"], times[row.key]
    alone = [times[f"{row.key} stage {k} alone"] for k in range(len(run.raw))]
    rows = []
    for i, (o, t) in enumerate(zip(one, split)):
        parts = [tenth_ms(a[i]) for a in alone]  # the figures runs.process_reference sums
        rows.append((i + 1, *_paired_ms(o, t), f"{round_text(row.speedups[i])}x",
                     " + ".join(f"{p:.1f}" for p in parts), f"{round_text(row.process_bounds[i])}x"))
    return Table(["round", "one device ms", "naive split ms", "speedup", "stages alone ms",
                  "per-process reference"], rows, title=f"Naive split, batch {row.batch}, every round")


def _effect(r: Row) -> bool:
    """Whether a row's verdict reads an effect (faster, slower, above the bound), not "within noise"."""
    return not noise_of_one(r)


def _the_rest(entries: list, shown: list[str]) -> str:
    """The launches not in ``shown``, by name: "section 5", "section 5 and section 8"."""
    return " and ".join(where for where, _, _ in entries if where not in shown)


def _covers(a: str, ra: Row, b: str, rb: Row) -> str:
    """Which band covers which, for two launches within each other's noise: the noise rule asks only that one
    median ± its spread cover the other's, and a narrow band may not reach back ("section 3's 0.97x ± 0.10
    covers 0.99x; section 5's ± 0.01 does not reach 0.97x")."""
    (va, sa), (vb, sb) = printed(ra), printed(rb)
    ab, ba = within_noise(va, sa, vb), within_noise(vb, sb, va)
    if ab and ba:
        return f"{a}'s {va:.2f}x ± {sa:.2f} and {b}'s {vb:.2f}x ± {sb:.2f} each cover the other's median"
    (wide, v, s), (narrow, w, t) = ((a, va, sa), (b, vb, sb)) if ab else ((b, vb, sb), (a, va, sa))
    return f"{wide}'s {v:.2f}x ± {s:.2f} covers {w:.2f}x; {narrow}'s ± {t:.2f} does not reach {v:.2f}x"


def same_step_note(entries: list[tuple[str, str, Row]], split=None) -> str:
    """One step (one batch, one split, one micro-batch) run by different code in different launches, e.g.
    section 3's hand-written naive split, section 5's ``ScheduleGPipe`` with m=1 and section 8's layers
    placement: each ``(where, code, row)`` is paired with its own launch's one-device rounds and read by its
    own verdict (``headline_verdict``). Their figures, spreads and verdicts side by side; then each pair of
    launches by the one noise rule first (``claims.runs_agree``: either median ± its paired spread covers the
    other's), so that the launches are grouped as their figures say, not by their verdicts' words; then the
    verdicts against 1x, and where a pair's verdicts and figures part, why. ``split``: the split points where
    the rows ran the run's default split (their ``split_points`` None)."""
    first = entries[0][2]
    points = first.split_points or split
    split = f", split {list(points)}" if points else ""
    each = "; ".join(f"{where} ({code}): {printed(r)[0]:.2f}x ± {printed(r)[1]:.2f}, {headline_verdict(r)}"
                     for where, code, r in entries)
    said = (f"The same step (batch {first.batch}{split}, one micro-batch, bound 1x) ran in {len(entries)} "
            f"launches, each with its own code and its own one-device rounds. {each[0].upper()}{each[1:]}.")
    pairs = [(a, ra, b, rb) for i, (a, _, ra) in enumerate(entries) for b, _, rb in entries[i + 1:]]
    if pairs:
        said += (" Launch against launch, by the lesson's noise rule (either median ± its spread covers the "
                 f"other's): {'; '.join(_pair_words(*p) for p in pairs)}.")
    shown = [where for where, _, r in entries if _effect(r)]
    values = [printed(r)[0] for _, _, r in entries]
    together = f"together they range from {min(values):.2f}x to {max(values):.2f}x against the same 1x bound"
    if 0 < len(shown) < len(entries):
        said += (f" Against 1x the verdicts disagree on whether there is an effect: {_effect_sides(entries, shown)}, "
                 f"{_the_rest(entries, shown)} none; {together}.")
    elif len(entries) > 1 and shown:  # every launch reads an effect: on one side of 1x, or on both
        said += f" Against 1x {_effect_directions(entries, values)}; {together}."
    elif len(entries) > 1:
        said += f" Against 1x the verdicts agree on whether there is an effect; {together}."
    if not any(_apart(ra, rb) for _, ra, _, rb in pairs):
        return said
    return said + (" Where two launches lie outside each other's noise, the figure moved between launches and codes "
                   "by more than one launch's ± shows, so no launch's verdict alone decides; read them together.")


def _apart(ra: Row, rb: Row) -> bool:
    """Two launches outside each other's noise: neither median ± its spread covers the other's."""
    return not runs_agree(*printed(ra), *printed(rb))


def _reads(r: Row) -> str:
    """A launch's verdict against 1x in two words, as ``_effect_sides`` names it: "no effect", "below 1x"."""
    if not _effect(r):
        return "no effect"
    v = printed(r)[0]
    return "above 1x" if v > 1 else "below 1x" if v < 1 else "at 1x"


def _pair_words(a: str, ra: Row, b: str, rb: Row) -> str:
    """One pair of launches by the noise rule, and where their verdicts part from it: "section 3 and section 5
    agree (section 3's 0.95x ± 0.05 covers 0.96x; ...), yet their verdicts differ: ..."; "section 3 and section 8
    lie outside each other's noise (0.95x ± 0.05, 1.02x ± 0.02), though both read no effect"."""
    (va, sa), (vb, sb) = printed(ra), printed(rb)
    if _apart(ra, rb):
        said = f"{a} and {b} lie outside each other's noise ({va:.2f}x ± {sa:.2f}, {vb:.2f}x ± {sb:.2f})"
        return said + (f", though both read {_reads(ra)}" if _reads(ra) == _reads(rb) else "")
    said = f"{a} and {b} agree ({_covers(a, ra, b, rb)})"
    if _reads(ra) == _reads(rb):
        return said
    return f"{said}, yet their verdicts differ: {_verdicts_part(a, ra, b, rb)}"


def _verdicts_part(a: str, ra: Row, b: str, rb: Row) -> str:
    """Why two launches within each other's noise read differently against 1x: one's median ± its spread reaches
    1x, the other's does not ("only through their spreads" where the launch that reads an effect lies no
    farther from 1x: the figure did not move, the spreads differ); or every round of one lies on one side of
    1x (``noise_of_one``: not noise, whatever the ±)."""
    if _effect(ra) == _effect(rb):  # both an effect, on opposite sides: their own words
        return f"{a} reads {_reads(ra)}, {b} {_reads(rb)}"
    (none, rn), (eff, re) = ((a, ra), (b, rb)) if _effect(rb) else ((b, rb), (a, ra))
    (vn, sn), (ve, se) = printed(rn), printed(re)
    if within_noise(ve, se, 1.0):  # its ± reaches 1x too: the rounds, all on one side, decide
        return f"every round of {eff} lies {_reads(re)}: not noise around 1x, by the lesson's rule"
    only = (f"only through their spreads (medians {half_up(abs(vn - ve), 2):.2f} apart), "
            if abs(ve - 1) <= abs(vn - 1) else "")
    return f"{only}{none}'s {vn:.2f}x ± {sn:.2f} reaches 1x, {eff}'s {ve:.2f}x ± {se:.2f} does not"


def _pairs_claim(entries: list[tuple[str, str, Row]]) -> str:
    """The claims row's short form of ``same_step_note``'s pairs: "; launch against launch (the noise rule):
    section 3 and section 5 agree; section 3 and section 8, section 5 and section 8 apart"; "" for one launch."""
    pairs = [(a, ra, b, rb) for i, (a, _, ra) in enumerate(entries) for b, _, rb in entries[i + 1:]]
    agree = ", ".join(f"{a} and {b}" for a, ra, b, rb in pairs if not _apart(ra, rb))
    apart = ", ".join(f"{a} and {b}" for a, ra, b, rb in pairs if _apart(ra, rb))
    said = "; ".join(w for w in (agree and f"{agree} agree", apart and f"{apart} apart") if w)
    return f"; launch against launch (the noise rule): {said}" if said else ""


def launches_claim(claim: str, entries: list[tuple[str, str, Row]]) -> Claim:
    """The claims-table row of one step measured in several launches (``same_step_note``), read together:
    the launches' medians, and each launch's verdict against 1x by the lesson's one noise rule (``noise_of_one``,
    cell 15), no other yardstick: where only some launches read above 1x beyond their noise, the row names them
    as findings, not as a verdict on theory (``_faster_where``); then which pairs of launches agree and which
    lie apart (``_pairs_claim``), so that the row does not group the launches by their verdicts' words alone."""
    values = [printed(r)[0] for _, _, r in entries]
    far = max(abs(v - 1) for v in values)
    shown = [where for where, _, r in entries if _effect(r)]
    faster = all(v > 1 for v in values)
    slower = all(v < 1 for v in values)
    if not shown:
        verdict = "within noise of 1x in every launch: no effect shown, as the bound says"
    elif len(shown) == len(entries) and (faster or slower):
        verdict = (f"above the 1x bound in every launch, by up to {far:.2f}: each section's verdict reads it "
                   "against its own reference" if faster else "slower than one device in every launch: no speed-up")
    elif len(shown) == len(entries):  # every launch reads an effect, not all in one direction
        verdict = _directions(entries, values) + _faster_where(entries)
    else:
        verdict = (f"by the noise rule, launch by launch: {_effect_sides(entries, shown)}, "
                   f"{_the_rest(entries, shown)} no effect" + _faster_where(entries))
    return Claim(claim, f"{min(values):.2f}x to {max(values):.2f}x ({len(entries)} launches)", "bound 1.00x",
                 verdict + _pairs_claim(entries) + launch_findings.launches_past(entries))


def _faster_where(entries: list[tuple[str, str, Row]]) -> str:
    """Where only some launches read above 1x beyond their noise: a finding in those launches, not a verdict on
    theory, since the others do not read above 1x and the launches are read together (``same_step_note``: no
    launch alone decides): "; above the 1x bound in section 3, beyond its noise: a finding to explain there
    (...), not a verdict on theory's "no faster": section 5 and section 8 do not read above 1x, and no launch
    alone decides"; "" where none does."""
    above = [where for where, _, r in entries if _effect(r) and printed(r)[0] > 1]
    if not above:
        return ""
    others = [where for where, _, _ in entries if where not in above]
    its, that = ("its", "that section reads") if len(above) == 1 else ("their", "those sections read")
    return (f"; above the 1x bound in {' and '.join(above)}, beyond {its} noise: a finding to explain there ({that} "
            f"the excess against {its} own reference), not a verdict on theory's \"no faster\": "
            f"{' and '.join(others)} {'does' if len(others) == 1 else 'do'} not read above 1x, and no launch alone "
            "decides")


def launch_fields(entries: list[tuple[str, str, Row]]) -> dict[str, list]:
    """The ledger's extra fields for one step measured in several launches (``same_step_note``): each launch's
    median speedup and its ± as printed, in the launches' order, so that a reader of the ledger (lesson 09)
    sees every launch, not the one whose figure is recorded as ``value``; and each launch's paired rounds
    (``launch_rounds``: one device's step over the split's, round by round, as ``Row.speedups`` holds them),
    named by the section that ran it, so that lesson 09 can read each launch's rounds, not only section 3's;
    and each launch's verdict as this lesson prints it (``headline_verdict``: its rounds read against every
    reference measured here, the work-scaled one included, which the rounds alone do not carry), so that lesson
    09 quotes this lesson's reading instead of working a second one:
    ``ledger.record("naive_split_speedup", ..., **launch_fields(launches))``."""
    figures = [printed(r) for _, _, r in entries]
    return {"launches": [v for v, _ in figures], "launch_spreads": [s for _, s in figures],
            "launch_rounds": [{"where": where, "rounds": [float(x) for x in r.speedups],
                               "verdict": headline_verdict(r)} for where, _, r in entries]}


def _effect_sides(entries: list, shown: list[str]) -> str:
    """The launches that read an effect, each with its side of 1x as printed, so that two opposite effects are
    not lumped together as one: "section 3 reads above 1x, section 8 below it"."""
    sides = []
    for where, _, r in entries:
        if where in shown:
            v = printed(r)[0]
            side = "above 1x" if v > 1 else "below 1x" if v < 1 else "at 1x"
            sides.append(f"{where} reads {side}")
    return ", ".join(sides)


def _effect_directions(entries: list, values: list[float]) -> str:
    """Where every launch reads an effect, whether they agree on its side of 1x: launches on both sides do not
    agree, whatever their verdicts share ("every launch reads an effect, but the launches disagree on the
    direction: section 3 above 1x; section 5 below"); "the verdicts agree: every launch reads above 1x"."""
    for side, same in (("above", all(v > 1 for v in values)), ("below", all(v < 1 for v in values))):
        if same:
            return f"the verdicts agree: every launch reads {side} 1x"
    return "every launch reads an effect, but " + _directions(entries, values)


def _directions(entries: list, values: list[float]) -> str:
    """Where launches that all read an effect disagree on its direction: which lie above 1x, which below
    (and which at it, as printed), by name: "section 3, section 8 above 1x; section 5 below"."""
    sides = [("above 1x", [w for (w, _, _), v in zip(entries, values) if v > 1]),
             ("below", [w for (w, _, _), v in zip(entries, values) if v < 1]),
             ("at 1x", [w for (w, _, _), v in zip(entries, values) if v == 1])]
    return "the launches disagree on the direction: " + "; ".join(
        f"{', '.join(names)} {side}" for side, names in sides if names)
