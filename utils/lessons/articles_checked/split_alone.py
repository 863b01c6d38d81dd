"""Lesson 09's reading of lesson 02's split alone (no micro-batches: the stages take turns, so its bound is 1x)
against lesson 02's per-process reference (each stage timed alone in its own process), from the ledger. Where
the ledger kept the reference's own rounds, the split is read round by round by lesson 02's own functions
(``model_split.reference``), so that this page and lesson 02 §3 print one verdict; an older entry keeps only
the medians, read by the rule lesson 02 used before it paired them. Lesson 02 runs the same step in several
launches (§3's hand-written split, §5's ScheduleGPipe with m=1, §8's layers placement); where the ledger keeps
every launch (``launches``, ``launch_spreads``), the launches are read together, as lesson 02 reads them: no
launch's verdict alone decides (``launches_words``), and each launch's single rounds are read by lesson 02's rule
where the ledger keeps them (``launch_rounds``; else the page says it reads none)."""

from __future__ import annotations

from types import SimpleNamespace

from utils import claims as words
from utils.lessons.articles_checked.figures import (median_text, recorded_verdict, rounds_above_words,
                                                    rounds_past_spread, split_reference, spread_of)
from utils.lessons.model_split import noise as lesson_02_noise
from utils.lessons.model_split import reference as lesson_02
from utils.lessons.model_split import rounds_above as lesson_02_rounds
from utils.lessons.model_split.bounds import round_above, round_as_printed  # one round, as lesson 02 prints it
from utils.lessons.model_split.noise import reference_reading, round_text


THEN = "explained by the reference"  # said of the rounds the reference reaches (lesson 02's reference_reading)


def past_bound(text: str) -> bool:
    """Whether a verdict's words put its figure past its bound (the course's words: "above the bound...")."""
    return text.startswith("above the bound")


def launches(record: dict) -> list[tuple[float, float]]:
    """Lesson 02's launches of the split alone, each (median, its ±) as recorded; [] for an older entry, which
    keeps one launch only (§3's, its ``value``): then that figure is read alone, as before."""
    values, spreads = record.get("launches") or [], record.get("launch_spreads") or []
    if len(values) < 2 or len(values) != len(spreads):
        return []
    return [(float(v), float(s)) for v, s in zip(values, spreads)]


def launch_verdict(value: float, spread: float) -> str:
    """One launch against the split's 1x bound, by the course's one rule on its figures as printed."""
    return words.speedup_verdict(words.as_printed(value, 2), 1.0, words.as_printed(spread, 2),
                                 slower="slower than one device")


def launches_text(record: dict) -> str:
    """Every launch as printed, with its ±, then their range: "1.04x ± 0.03, 0.95x ± 0.02 and 1.01x ± 0.04 in
    3 launches (0.95x to 1.04x)"; an older entry's one figure (``median_text``) where it keeps one launch."""
    found = launches(record)
    if not found:
        return median_text(record)
    each = [f"{v:.2f}x ± {s:.2f}" for v, s in found]
    low, high = min(v for v, _ in found), max(v for v, _ in found)
    return f"{', '.join(each[:-1])} and {each[-1]} in {len(found)} launches ({low:.2f}x to {high:.2f}x)"


LAUNCHES_DISAGREE = "inconclusive: the launches disagree"  # not "above the bound": split_takes_turns reads Noisy
# Launches that each hold a finding past the 1x bound (its median, or a round lesson 02 reads as one), whether
# their medians read alike or not: they agree on a finding, and the row's check reads it (AboveBound); which
# figure holds each launch's finding follows in words, not an aside, so a short cell keeps it (``findings_text``)
FINDING_IN_EVERY_LAUNCH = "above the bound in every launch"


def launch_findings(record: dict) -> list[bool]:
    """Per launch, whether it holds a finding to explain past the 1x bound: lesson 02's own verdict naming one
    where the ledger keeps it (``lesson_02_verdicts``), else its median past the bound by the course's rule."""
    said = lesson_02_verdicts(record)
    if said:
        return [past_bound(text) or rounds_above_found(text) for text in said]
    return [past_bound(launch_verdict(v, s)) for v, s in launches(record)]


def findings_text(record: dict) -> str:
    """Which figure holds each launch's finding past 1x: its median where the median is past the bound, else its
    highest round ("section 3's median 1.05x, section 5's round 1.01x and section 8's round 1.06x"), so that a
    launch whose median is under 1x (0.97x) is not read as above it."""
    said = lesson_02_verdicts(record) or [launch_verdict(v, s) for v, s in launches(record)]
    kept = launch_rounds(record) or [None] * len(said)
    each = []
    for name, (value, _), verdict, rounds in zip(launch_names(record), launches(record), said, kept):
        if past_bound(verdict):
            each.append(f"{name}'s median {value:.2f}x")
        else:  # its highest round is the one furthest past the bound and the rounds' spread
            each.append(f"{name}'s round {round_text(max(rounds))}x" if rounds else f"one of {name}'s rounds")
    return f"{', '.join(each[:-1])} and {each[-1]}"


def note_figure(record: dict) -> str:
    """The split alone as lesson 09's note on rows above a bound quotes it: every launch, and which figure holds
    each one's finding, where every launch holds one (t42_09 #2: not section 3's launch alone); else its median."""
    if not launches(record) or not all(launch_findings(record)):
        return f"{median_text(record)} against a bound of 1.00x"
    return (f"{launches_text(record)} against a bound of 1.00x, {FINDING_IN_EVERY_LAUNCH}: "
            f"{findings_text(record)}")


def rounds_above_found(verdict: str) -> bool:
    """Whether lesson 02's verdict reads a round above the 1x bound as a finding ("1 of 5 rounds above the bound
    (up to 1.09x): beyond the rounds' spread ...: a finding to explain"); a finding against another reference
    ("above its work-scaled reference (0.94x) ...: a finding to explain", t39 run's section 5 at 0.95x, slower
    than one device) is not one past the 1x bound."""
    return any("rounds above the bound" in clause and "a finding to explain" in clause
               for clause in verdict.split("; "))


def reading(verdict: str) -> str:
    """A launch's reading, its verdict's head: "within noise", "slower than one device", "above the bound"."""
    return verdict.split(":")[0]


def launch_names(record: dict) -> list[str]:
    """Each launch's name, lesson 02's where the ledger keeps it ("section 3"), else its place ("launch 2")."""
    kept = record.get("launch_rounds") or []
    names = [k.get("where") if isinstance(k, dict) else None for k in kept]
    return [(names[i] if i < len(names) and names[i] else f"launch {i + 1}") for i in range(len(launches(record)))]


def launches_words(record: dict) -> str:
    """Lesson 02's launches of the split read together against the 1x bound: "" where every launch is past
    it (the median's own reading follows) or the ledger keeps one launch; "none of its 3 launches above the 1x
    bound (...)" where every launch reads the same (each within noise, say); where they read differently (one
    slower than one device beyond its noise, the others within noise; or one past the bound, another not), the
    launches disagree, as lesson 02 reads them (its note on its launches: no launch's verdict alone decides):
    inconclusive, each verdict beside its own launch, never one launch's verdict given to all."""
    found = launches(record)
    if not found:
        return ""
    verdicts = [launch_verdict(v, s) for v, s in found]
    if all(past_bound(said) for said in verdicts):
        return ""
    kept = lesson_02_verdicts(record)  # lesson 02's own words, its rounds read against every reference it measured
    shown = kept or verdicts
    each = [f"{name}'s {v:.2f}x ± {s:.2f}, {said}" for name, (v, s), said in zip(launch_names(record), found, shown)]
    rounds = "" if kept else f"; {launch_rounds_words(record)}"  # lesson 02's verdicts read the rounds already
    # every launch passed the ceiling (its median, or a round lesson 02 reads as a finding), whether their medians
    # read alike or not (t40 run: three medians within noise of 1x, each with a round past its spread)
    if all(launch_findings(record)):
        return f"{FINDING_IN_EVERY_LAUNCH}: a finding to explain in {findings_text(record)}; {'; '.join(each)}{rounds}"
    if len({reading(said) for said in verdicts}) == 1:
        return f"none of its {len(found)} launches above the 1x bound ({'; '.join(each)}){rounds}"
    # "; " after the verdict: each launch is a clause of its own, so the row's short cell keeps the verdict whole
    return (f"{LAUNCHES_DISAGREE}; {'; '.join(each)}; one launch's ± understates how far the figure moves between "
            f"launches and codes, so no launch's verdict alone decides (lesson 02's note on its launches){rounds}")


def lesson_02_verdicts(record: dict) -> list[str] | None:
    """Each launch's verdict as lesson 02 printed it (``naive.launch_fields`` keeps ``headline_verdict``: the
    median, then its rounds above the bound read against the rounds' spread, their own round's per-process
    reference and the work-scaled reference), so that this page and lesson 02 read one launch alike; None where
    the ledger keeps no verdict for every launch (an older entry: the rounds are then read here,
    ``launch_rounds_words``)."""
    kept = record.get("launch_rounds") or []
    said = [k.get("verdict") if isinstance(k, dict) else None for k in kept]
    if not said or len(said) != len(launches(record)) or not all(said):
        return None
    return said


def split_rounds_words(record: dict) -> str:
    """The split alone's kept rounds (lesson 02 §3's, the record's ``rounds``) above the 1x bound, by lesson 02's
    own functions (``model_split.rounds_above``): a round past the median + the spread that its own round's
    per-process reference reaches is no finding, as §3 reads it ("1.08x, 1.07x past the rounds' spread, but
    not past their own rounds' per-process references: no finding"); "" where no round is above the bound."""
    row = _rounds_row(record)
    if row is None:
        return ""
    if median_past_bound(record):  # a median that is itself a finding explains no round: read them with it
        above = rounds_with_median(row)
    else:
        above = lesson_02_rounds.rounds_above_bound(row) or lesson_02_rounds.rounds_in_noise(row)
    return "; ".join(filter(None, [lesson_02_rounds.rounds_past_devices(row), above]))


def rounds_with_median(row) -> str:
    """The rounds above the 1x bound under a median itself past it beyond its spread, counted and read with
    the median as lesson 02 §3 prints them: "4 of 5 rounds above the bound (up to 1.10x), read with the
    median"."""
    above = [x for x in row.speedups if round_above(x, 1.0)]
    top = round_text(max(above))
    return f"{len(above)} of {len(row.speedups)} rounds above the bound (up to {top}x), read with the median"


def median_past_bound(record: dict) -> bool:
    """Whether the split alone's median is past its 1x bound beyond its rounds' spread (1.06x ± 0.02: 1.04 is
    past 1): lesson 02's rule 3 then reads its rounds with the median, never one by one against a spread whose
    centre is itself a finding (t38_09 #1)."""
    return past_bound(launch_verdict(record["value"], spread_of(record)))


def _rounds_row(record: dict):
    """The split alone's kept rounds as lesson 02's Row reads them (its 1x bound, each round's own per-process
    reference where the ledger kept them), or None where the ledger keeps no rounds."""
    rounds = [float(x) for x in record.get("rounds") or []]
    if not rounds:
        return None
    paired = split_row(record)
    return SimpleNamespace(speedups=rounds, speedup=float(record["value"]), bound=1.0, devices=2,
                           above_devices=[x for x in rounds if round_above(x, 2)], work_bound=None,
                           process_bounds=paired.process_bounds if paired else [],
                           process_bound=paired.process_bound if paired else None)


def split_rounds_finding(record: dict) -> bool:
    """Whether lesson 02 §3 reads one of the split alone's kept rounds as a finding to explain: a round past 2
    devices' 2x, or one past the rounds' spread that its own round's per-process reference does not reach
    (lesson 02's own list, ``reference.findings_past``), so that a row naming the split's rounds among
    findings reads them as A10, B5 and lesson 02 §3 do (t31_09 #1); False where the ledger keeps no rounds."""
    row = _rounds_row(record)
    if row is None:
        return False
    return bool(row.above_devices) or bool(lesson_02.findings_past(row))


def split_rounds_clause(record: dict) -> str:
    """The split alone's single rounds in lesson 02 §3's words (``split_rounds_words``), or the figures' own
    per-round reading (``rounds_above_words``) where the ledger keeps no rounds for lesson 02's functions."""
    return split_rounds_words(record) or rounds_above_words(record, "lesson 02 §3")


def launch_readings(record: dict) -> str | None:
    """Each launch's reading in a few words, "section 3 within noise, section 5 slower than one device" (row
    B18's list), or None where the ledger keeps one launch or a launch is past the 1x bound."""
    found = launches(record)
    verdicts = [launch_verdict(v, s) for v, s in found]
    if not found or any(past_bound(said) for said in verdicts):
        return None
    return ", ".join(f"{name} {reading(said)}" for name, said in zip(launch_names(record), verdicts))


def launch_rounds(record: dict) -> list[list[float]] | None:
    """Each launch's paired rounds (``launch_rounds``: one list of ratios per launch, in the launches' order),
    or None where the ledger keeps none (an older entry) or not one list for each launch."""
    kept = record.get("launch_rounds")
    if not kept or len(kept) != len(launches(record)):
        return None
    # lesson 02 writes {"where": "section 3", "rounds": [...]} per launch (``naive.launch_fields``); a bare list
    # of ratios per launch is read too
    kept = [k.get("rounds") if isinstance(k, dict) else k for k in kept]
    if not all(kept):
        return None
    return [[float(x) for x in r] for r in kept]


def launch_rounds_words(record: dict) -> str:
    """Each launch's single rounds by lesson 02's rule: a round above the 1x bound and beyond its own launch's
    median + spread (``claims.rounds_past_spread``, as lesson 02 prints rounds) is a finding to explain, the
    rounds lesson 02's claims table lists; in the launch whose rounds lesson 02 §3 also pairs with its own
    round's per-process reference (the record's ``rounds``), a round within that reference is not counted, as
    §3 reads it. A launch whose median is itself past the bound beyond its spread is a finding by its own
    verdict: its rounds above the bound are counted and read with the median, as lesson 02 reads them
    (``with_median_words``), never listed as findings no median shows. Where the ledger keeps no rounds per
    launch, said so: no launch's rounds are read here."""
    kept = launch_rounds(record)
    if kept is None:
        return ("the ledger keeps no rounds for each launch, so no launch's single rounds are read here (lesson "
                "02's claims table lists those past their launch's spread, as findings to explain)")
    paired, named, with_median, count = split_row(record), [], [], 0
    for name, (value, spread), rounds in zip(launch_names(record), launches(record), kept):
        if past_bound(launch_verdict(value, spread)):  # its rounds are read with its median (lesson 02's rule)
            with_median.append(with_median_words(name, value, spread, rounds))
            continue
        count += len(rounds)
        past = words.rounds_past_spread(rounds, value, spread, 1.0, shown=round_as_printed)
        if paired is not None and rounds == paired.speedups:  # §3's launch: each round against its own reference
            beyond = {paired.speedups[j - 1] for j in lesson_02_noise.rounds_past_reference(paired,
                                                                                          paired.process_bounds)}
            past = [x for x in past if x in beyond]
        if past:
            named.append(f"{name} ({value:.2f}x ± {spread:.2f}) "
                         + " and ".join(f"{round_text(x)}x" for x in past))
    others = "other " if with_median else ""
    if not named:
        said = (f"none of the {others}launches' {count} rounds lies above the 1x bound beyond its launch's "
                "median + spread (lesson 02's rule)")
    else:
        said = (f"rounds above the 1x bound beyond their launch's median + spread (lesson 02's rule), findings to "
                f"explain that no launch's median shows: {'; '.join(named)} (launches in lesson 02's order)")
    if not with_median:
        return said
    return (f"{said}; launches above the bound themselves, their rounds read with the median (lesson 02's rule "
            f"for a median past its bound): {'; '.join(with_median)}")


def with_median_words(name: str, value: float, spread: float, rounds: list[float]) -> str:
    """A launch past the 1x bound beyond its spread, its rounds above the bound counted as lesson 02 prints them
    (``model_split.report.headline_verdict``): "section 8 (1.02x ± 0.01) 4 of 5 rounds above the bound"."""
    above = sum(round_above(x, 1.0) for x in rounds)
    return f"{name} ({value:.2f}x ± {spread:.2f}) {above} of {len(rounds)} rounds above the bound"


def paired_launch_name(record: dict) -> str:
    """The launch whose rounds the record's ``rounds`` are (those lesson 02 §3 pairs with its per-process
    reference), by its name ("section 3"); lesson 02 §3's where no kept launch matches them."""
    kept, rounds = launch_rounds(record), record.get("rounds")
    for name, launch in zip(launch_names(record), kept or []):
        if rounds and launch == [float(x) for x in rounds]:
            return name
    return "section 3"


def split_alone_words(record: dict) -> str:
    """Lesson 02's split without micro-batches (its bound 1x: the stages take turns); past 1x, a finding to
    explain, with lesson 02 §3's reading of its per-process reference: explained by it, or not. Where the
    ledger kept the reference's own rounds, read round by round by lesson 02's own functions (each round's
    speedup over that round's reference), the words section 3 prints."""
    together = launches_words(record)  # every launch lesson 02 ran, where the ledger keeps them
    if together.startswith((LAUNCHES_DISAGREE, FINDING_IN_EVERY_LAUNCH)):
        return together
    text = recorded_verdict(record, 1.0)  # its bound: one device's time (the stages take turns)
    if together:  # no launch past the bound: the recorded launch's own reading, then all of them
        return f"{text}; {together}"
    reference = split_reference(record)
    if not past_bound(text) or not reference:
        return text
    paired = split_row(record)
    if paired is not None:
        said = reference_reading(paired, paired.process_bounds)
        if lesson_02.process_reference_explains(paired):  # a round past its own reference stays a finding
            return f"{text}; {reference_reading(paired, paired.process_bounds, THEN)} (lesson 02 §3)"
        if lesson_02.within_process_reference(paired):
            return (f"{text}; {said}, but the reference itself ({reference:.2f}x ± "
                    f"{words.printed_spread(paired.process_bounds):.2f}) is within noise of 1x: it explains "
                    "nothing (lesson 02 §3)")
        return f"{text}; {said} (lesson 02 §3)"
    if split_explained(record, text):
        return f"{text}; within the per-process reference {reference:.2f}x: explained by the reference (lesson 02 §3)"
    return (f"{text}; above the per-process reference ({reference:.2f}x) too, by more than the rounds' spread "
            f"(± {spread_of(record):.2f}): not explained by it (lesson 02 §3)")


def split_row(record: dict):
    """The ledger's split as lesson 02's Row reads it (its rounds and its reference's, one per round), or None
    where an older entry kept no reference rounds: then the medians are all there is."""
    rounds, references = record.get("rounds"), record.get("reference_rounds")
    if not rounds or not references or len(rounds) != len(references) or split_reference(record) is None:
        return None
    return SimpleNamespace(speedups=list(rounds), speedup=float(record["value"]), bound=1.0,  # the split's bound
                           process_bounds=list(references), process_bound=split_reference(record))


def split_explained(record: dict, text: str) -> bool:
    """The split past its 1x bound explained by lesson 02's per-process reference, by lesson 02 §3's rule:
    round by round where the ledger kept the reference's rounds (``model_split.reference
    .process_reference_explains``: within it, paired, and the reference itself clear of 1x); an older entry, by
    the figures as printed: the median less the rounds' spread at or under it (1.09x ± 0.02 is beyond 1.06x)."""
    reference = split_reference(record)
    if not past_bound(text) or not reference:
        return False
    paired = split_row(record)
    if paired is not None:
        return lesson_02.process_reference_explains(paired)
    # rounded to 9 decimals: the float error of a difference
    return round(words.as_printed(record["value"], 2) - spread_of(record), 9) <= words.as_printed(reference, 2)


# What lesson 02 §3's per-process reference is, in lesson 02's own words (cell "How a speedup is measured"): not
# the work-scaled reference (§5: the bound divided by the stages' measured work), which lesson 02 keeps apart
PER_PROCESS_IS = ("one device's step over the two stages' times, each stage timed alone in its own process: the "
                  "median of that ratio over the rounds")


def split_rounds_reading(record: dict) -> str | None:
    """Lesson 02 §3's reading of the split alone's single rounds, where the ledger kept the reference's own
    rounds (``reference_rounds``): each round against its own round's per-process reference, never against the
    reference's median (lesson 02 §3's rule: two medians may come from different rounds), by lesson 02's own
    function (``noise.reference_reading``); then each round above the 1x bound beyond the rounds' spread that
    lies within its own round's reference (``within_own_words``), so that no round reads as past the reference
    here that lesson 02 reads within it. None for an older entry: then the medians are all there is."""
    paired = split_row(record)
    if paired is None:
        return None
    references = ", ".join(f"{round_text(p)}x" for p in paired.process_bounds)
    said = (f"Lesson 02 §3 printed the split alone's per-process reference, {paired.process_bound:.2f}x "
            f"({PER_PROCESS_IS}), and reads each round against its own round's reference ({references}), never "
            f"against that median: {reference_reading(paired, paired.process_bounds)}")
    within = within_own_words(record | {"bound": 1.0}, paired) or weak_reference_words(record, paired)
    return said + (f"; {within}" if within else "") + "."


def weak_reference_words(record: dict, paired) -> str:
    """Where the per-process reference is itself within noise of 1x (lesson 02 §3's rule,
    ``reference.process_reference_noise``), what that leaves of the rounds the rows count (t33_09 #1): such a
    reference explains no round, so a round past the median + the spread stays a finding even where its own
    round's reference reaches it: "that reference is itself within noise of 1x (1.02x ± 0.04), so it explains
    no round: the 1.08x and 1.05x rounds stay findings to explain, as rows A10 and B5 count them"; under a
    median itself past 1x beyond its spread, every round above 1x, read with that median (t38_09 #1); "" where
    the reference stands clear of 1x or no round is past the spread."""
    if not lesson_02.process_reference_noise(paired):
        return ""
    spread = lesson_02.process_reference_spread(paired)
    said = (f"that reference is itself within noise of 1x ({paired.process_bound:.2f}x ± {spread:.2f}), so it "
            "explains no round")
    row = _rounds_row(record)
    # a median past 1x beyond its spread is a finding itself: every round above 1x is read with it (rule 3)
    with_median = median_past_bound(record)
    stay = [x for x in row.speedups if round_above(x, 1.0)] if with_median else lesson_02.findings_past(row)
    if not stay:
        return said
    shown = ", ".join(f"{round_text(x)}x" for x in stay[:-1]) + (" and " if len(stay) > 1 else "") + \
        f"{round_text(stay[-1])}x"
    which = f"the {shown} round stays a finding" if len(stay) == 1 else f"the {shown} rounds stay findings"
    read = ", read with the median," if with_median else ","
    return (f"{said}: {which} to explain{read} as the rows that quote the split count "
            f"{'it' if len(stay) == 1 else 'them'}")


def within_own_words(record: dict, paired) -> str:
    """The rounds above the 1x bound beyond the median + the rounds' spread (those the rows count as a finding)
    that do not lie past their own round's reference beyond the ratios' spread, with the division a reader redoes
    from lesson 02's rounds table: "the 1.09x round lies under its own round's reference (1.09x / 1.11x = 0.98x):
    lesson 02 §3 counts 1 of the 2 past the reference, not 2"; "" where every such round lies past it, or where
    the reference is itself within noise of 1x (``reference.own_reference_explains``: it then explains none)."""
    above = rounds_past_spread(record)
    past = {paired.speedups[i - 1] for i in lesson_02_noise.rounds_past_reference(paired, paired.process_bounds)}
    inside = [(i, x) for i, x in enumerate(paired.speedups) if x in above and x not in past]
    if not inside or lesson_02.process_reference_noise(paired):   # lesson 02's rule: such a reference explains none
        return ""
    ratios = lesson_02_noise.paired_ratios(paired, paired.process_bounds)
    each = []
    for i, x in inside:
        shown = words.as_printed(ratios[i], 2)  # compared as printed: 1.00x lies at it, not under (t31_09 #6)
        side = ("under" if shown < 1 else "at" if shown == 1 else
                "past, but within the ratios' spread of,")  # above 1, not beyond the ratios' median + spread
        each.append(f"the {round_text(x)}x round lies {side} its own round's reference ({round_text(x)}x / "
                    f"{round_text(paired.process_bounds[i])}x = {round_text(ratios[i])}x)")
    counted = len(above) - len(inside)
    if len(above) == 1:  # "of its 1 rounds" reads badly (reader t27_09, other problems)
        return (f"its one round above the 1x bound beyond the rounds' spread: {each[0]}: lesson 02 §3 does not "
                "count it past the reference")
    return (f"of its {len(above)} rounds above the 1x bound beyond the rounds' spread, {'; '.join(each)}: lesson "
            f"02 §3 counts {counted} of them past the reference, not {len(above)}")
