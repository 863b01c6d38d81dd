"""How lesson 04 (``notebooks/04_compression.ipynb``) shows a timing: one narrow headline table in the main
flow, and the whole measurement (fastest, median, spread, paired speedup, its noise and verdict) in the
collapsed "How this was measured" block (``utils.details.how_measured``).

    show(headline(times, "fp32", bounds={"BN folded": 1.04}, title="Folding BatchNorm"))
    how_measured("paired rounds", full_table(times, "fp32", "Folding BatchNorm"), timing_note(times))
    say("a sentence printed from the run, folded at 110 characters")
"""

from __future__ import annotations

import textwrap

from utils import bench, claims
from utils.bench import fmt_seconds_as_printed  # noqa: F401  (re-exported: lesson 04 imports it from here)
from utils.lessons.compression.measure import (SPEEDUP_COLUMNS, TIMING_COLUMNS, compare, noise_text, printed_ratio_spread,
                                               speedup_cells, spread, timing_cells)
from utils.lessons.compression.measure import verdict as against_one  # beyond or within noise of 1x
from utils.lessons.compression.roofline import figure_text
from utils.tables import Table

__all__ = ["say", "headline", "medians_note", "fmt_seconds_as_printed", "full_table", "speedup_claim", "verdict_against",
           "WIDTH", "folded", "above_reference", "beside_reference", "passed_references",
           "references_reading", "pair_spread", "ties", "agree_within", "again_sentence", "stored_size_words",
           "FOLD_CLAIM", "baseline_again"]

WIDTH = 110  # no visible output line is wider (the learner's form)


def say(text: str) -> None:
    """Print ``text`` folded at 110 characters, each paragraph (``\\n``) apart; nothing where it is empty (a
    note that this run does not need, such as ``medians_note``'s). Lesson 04."""
    if not text:
        return
    print(folded(text))


def folded(text: str) -> str:
    """``text`` folded at 110 characters as ``say`` prints it, each paragraph (``\n``) apart: the same lines
    for a part of a collapsed block (``utils.details.how_measured``) as for a visible sentence. Lesson 04."""
    return "\n".join(textwrap.fill(part, WIDTH, subsequent_indent="  ") for part in text.split("\n"))


def headline(times: dict[str, bench.Measurement], baseline: str, bounds: dict[str, float] | None = None,
             title: str = "", bound_name: str = "bound", judged: bool = True, rough=()) -> Table:
    """variant | latency (median) | speedup (median of rounds) | noise | bound | verdict: at most six columns.
    The latency shown is the median, the statistic the speedup is a median of (each round's own ratio, so
    it lies near the ratio of two medians, not exactly on it); the fastest runs are in ``full_table``.
    ``bounds``: by variant, the bound (or reference: ``bound_name`` says "reference") its speedup is set
    beside; the verdict is the closing table's (``verdict_against``, in ``utils.claims``' words), so a row and its claim agree.
    ``judged=False``: the figure is only shown beside the speedup (measured on something else, e.g. another
    model's layer), and the verdict says no more than whether the speedup is one. ``rough``: the variants whose
    figure rests on a measured term that spread too far: printed ``~5.0x (rough)`` (``roofline.figure_text``),
    as everywhere else in the lesson. Lesson 04."""
    bounds = bounds or {}
    kind = "reference" if "reference" in bound_name else "bound"  # a reference may be passed; say which
    rows = []
    for name, m in times.items():
        if name == baseline:
            rows.append((name, bench.fmt_seconds(m.median), "1.00x", "", "", "baseline"))
            continue
        ratio, noise, _ = compare(times[baseline], m)
        bound = bounds.get(name)
        verdict = verdict_against(ratio, bound if judged else None, noise, kind, slower=f"slower than {baseline}")
        rows.append((name, bench.fmt_seconds(m.median), f"{ratio:.2f}x", f"±{noise:.0%}",
                     figure_text(bound, name in rough) if bound else "", verdict))
    columns = ["variant", "latency (median)", "speedup (median of rounds)", "noise", bound_name, "verdict"]
    return Table(columns, rows, title=title, wrap=40)


def verdict_against(ratio: float, figure: float | None, noise: float = 0.0, kind: str = "bound",
                    slower: str = "slower than fp32", rough: bool = False) -> str:
    """The verdict of a speed-up ``ratio`` whose paired rounds spread by ``noise`` (relative), beside a
    ``bound`` or a ``reference`` (``kind``) ``figure``, in ``utils.claims``' words, read on the figures as
    printed (two decimals): within noise of 1x, slower, or the share of the figure's gain reached,
    (ratio - 1) / (figure - 1). A reference may be passed (it is not a ceiling): above it beyond the noise the
    verdict says so, in a reference's words, not a bound's.
    ``figure=None``: no figure to judge against (only whether it is a speed-up); ``rough``: the reference rests
    on a measured term whose repeats spread too far for a share of its gain to mean anything. Lesson 04."""
    ratio, spread = claims.as_printed(ratio, 2), printed_ratio_spread(ratio, noise)
    if kind == "bound" and figure is not None:
        return claims.speedup_verdict(ratio, round(figure, 2), spread, slower=slower)
    verdict = claims.speedup_verdict(ratio, None, spread, slower=slower)
    if verdict.startswith("within noise") and figure is not None and figure > 1 and not rough:
        return verdict + _beside_reference(ratio, claims.as_printed(figure, 2), spread)
    if verdict != "faster than the baseline" or figure is None or figure <= 1:
        return verdict
    if rough:
        return "faster; the reference is rough: no share of its gain scored"
    figure = claims.as_printed(figure, 2)
    if claims.within_noise(ratio, spread, figure):  # either side of it: the noise covers the gap
        return "at the reference (within noise)"
    if ratio > figure:
        return "above the reference, beyond noise (a reference may be passed)"
    return f"faster: {claims.percent((ratio - 1) / (figure - 1))} of the reference's gain"  # half up, as a reader


def _beside_reference(ratio: float, figure: float, spread: float) -> str:
    """What a speed-up within noise of 1x says of its reference (both as printed): within the same noise of
    it too (this run cannot tell the two apart), or the reference beyond the noise (a gain that size did not
    show): a reference's claim is tested only against the reference, not against 1x alone."""
    # the course's noise rule, on the figures as printed: 1.04 ± 0.04 reaches 1.08 (abs(1.04 - 1.08) is
    # 0.040000000000000036 in floats, which an unrounded test would call beyond the noise)
    if claims.within_noise(ratio, spread, figure):
        return f"; within noise of the reference {figure:.2f}x too: this run cannot tell the two apart"
    return f"; the reference {figure:.2f}x lies beyond the noise: a gain that size did not show"


MEDIAN_OF_RATIOS = "the speedup is the median of the paired rounds' ratios, not the ratio of the medians"


def full_table(times: dict[str, bench.Measurement], baseline: str, title: str = "") -> Table:
    """Every figure of the timing: fastest, median, spread, and the paired speedup with its noise and verdict
    (seven columns: for the collapsed block); its title says which statistic the speedup is. Lesson 04."""
    return Table(["variant", *TIMING_COLUMNS, *SPEEDUP_COLUMNS],
                 [(n, *timing_cells(t), *speedup_cells(times, baseline, n)) for n, t in times.items()],
                 title=f"{title} ({MEDIAN_OF_RATIOS})" if title else MEDIAN_OF_RATIOS)


def medians_note(times: dict[str, bench.Measurement], baseline: str) -> str:
    """What to print under ``headline``: for each variant whose paired speedup (the median of the rounds'
    ratios) differs at two decimals from the ratio of the two medians the table prints, both figures; where
    the two lie on opposite sides of 1x, that the medians alone rank the variants the other way, and which
    figure is read (the paired one: each round's two runs saw the same machine). "" where none differs."""
    notes = []
    for name, m in times.items():
        if name == baseline:
            continue
        ratio = claims.as_printed(compare(times[baseline], m)[0], 2)
        (over, a), (under, b) = fmt_seconds_as_printed(times[baseline].median), fmt_seconds_as_printed(m.median)
        divided = claims.medians_divide_to(ratio, a, b)   # a and b: the two medians as printed, in seconds
        if divided is None:
            continue
        note = f"{name}: " + claims.medians_clause(ratio, over, under, divided)
        if (ratio - 1) * (claims.as_printed(divided, 2) - 1) < 0:   # opposite sides of 1x, as printed
            runs = max(spread(times[baseline]), spread(m))
            note += (f"; the medians alone rank the two the other way (their runs spread up to {runs:.0%}): the "
                     "paired rounds are the figure read, each round's two runs having met the same machine")
        notes.append(note)
    return "; ".join(notes) + ("." if notes else "")


def speedup_claim(claim: str, ratio: float, figure: float, noise: float = 0.0, kind: str = "bound",
                  slower: str = "slower than fp32", reference: str | None = None,
                  rough: bool = False) -> claims.Claim:
    """A closing-table row for a speed-up set beside a ``bound`` (nothing may pass it) or a ``reference`` (what
    the bytes would give), in the course's words (``verdict_against``, the same as ``headline``'s): a ratio at
    or under 1x, or one whose ``noise`` (relative, round to round) covers 1x, is said to be so; otherwise the
    share of the figure's gain reached, (ratio - 1) / (figure - 1), the same convention for a bound and a
    reference. ``reference``, where given, is the column's text for a figure measured on something else
    (another layer): then no share of its gain is given. ``rough``: a reference whose measured terms spread
    too far (``roofline.Reference.rough``): shown as about its value, no share scored.
    The noise shows as the lesson's tables and sentences show it, a share of the speedup ("1.05x ± 3%"), so
    that one figure reads the same everywhere; the verdict reads it as ``noise × ratio``. Lesson 04."""
    spread = printed_ratio_spread(ratio, noise)
    noise_text = f" ± {noise:.0%}" if spread > 0 else ""
    if kind == "bound":
        row = claims.against_speedup(claim, ratio, figure, spread, slower=slower)
        return claims.Claim(row.claim, f"{ratio:.2f}x{noise_text}", row.against, row.verdict)
    verdict = verdict_against(ratio, None if reference else figure, noise, "reference", slower, rough)
    shown = f"reference {figure_text(figure, rough)}"
    return claims.Claim(claim, f"{ratio:.2f}x{noise_text}", reference or shown, verdict)


# Printed once before a list of paired speedups beside a table's latencies, so that each line carries only
# the division (``paired_note(..., lead_said=True)``) instead of the whole aside (t32_0304 other (d)).
PAIRED_LEAD = ("Each speedup below is the median of the paired rounds' ratios, not the ratio of the table's two "
               "latencies (each a median of its own); where those two divide to another figure, the division "
               "follows in brackets.")


def paired_note(ratio: float, over: float, under: float, unit: str = "x", digits: int = 2,
                lead_said: bool = False) -> str:
    """The clause to print beside a paired speedup ``ratio`` (``compare``'s: the median of the round-by-round
    ratios) when figures printed nearby could be divided instead: ``over`` / ``under`` as printed (two
    decimals, or ``digits`` as the figures are printed, in ``unit``: ``"x"`` for two speedups, ``" ms"`` or
    ``" µs"`` for two latencies). A median of ratios is not the ratio of two medians, so where the two differ
    at two decimals the clause names both; else ``""``. ``lead_said``: ``PAIRED_LEAD`` was printed above the
    lines, so the clause is the division alone."""
    a, b = claims.as_printed(over, digits), claims.as_printed(under, digits)
    own = claims.medians_divide_to(ratio, a, b or 10.0 ** -digits)  # b printed as 0 counts as its last digit
    if own is None:
        return ""
    division = f"{a:.{digits}f}{unit} / {b:.{digits}f}{unit} = {own:.2f}x"
    if lead_said:
        return f" ({division})"
    return f" (the median of the paired rounds' ratios, not the ratio of the figures printed: {division})"


def against_one_and_reference(ratio: float, noise: float, reference: float, slower: str) -> str:
    """A paired speedup read twice, each verdict named with what it is read against: against 1x (``verdict``:
    beyond or within its noise) and against its ``reference`` (the headline table's own words,
    ``verdict_against``), so that "beyond noise" is never read as beyond the reference: "1.03x (beyond noise
    of 1x, noise ±2%) against a reference of 1.03x: at the reference (within noise)". Lesson 04, folding BN."""
    one = against_one(ratio, noise)
    at_reference = verdict_against(ratio, reference, noise, "reference", slower=slower)
    return (f"{ratio:.2f}x ({one} of 1x, noise ±{noise:.0%}) against a reference of {reference:.2f}x: "
            f"{at_reference}")


def above_reference(ratio: float, noise: float, reference: float, cause: str) -> str:
    """The clause for a speedup that passes its ``reference`` (both as printed, two decimals): "" where it does
    not; else whether the excess lies within the speedup's spread as printed (``printed_ratio_spread``: the
    ratio as printed times its noise as printed, half up), by the one noise rule (``claims.within_noise``), or
    beyond it, which a reference allows (``cause``: the likely reason). Judged on the figures the page prints,
    so 1.05x ±2% beside 1.03x reads within noise (0.02 covers the 0.02 gap) whatever the unrounded noise."""
    if claims.as_printed(ratio, 2) <= claims.as_printed(reference, 2):
        return ""
    if beside_reference(ratio, noise, reference) == "at":
        return (f" Above the reference: the excess is within the speedup's noise (±{noise:.0%}), so no gain "
                "beyond the reference is measured.")
    return f" Above the reference: beyond its noise, which a reference allows: {cause}."


def beside_reference(ratio: float, noise: float, reference: float) -> str:
    """Where a speedup stands against its ``reference``, both as printed (two decimals), by the one noise rule
    (``claims.within_noise``) on the speedup's spread as printed (``printed_ratio_spread``): "at" where the
    spread covers the reference, else "above" or "below" it beyond noise. Lesson 04."""
    shown, ref = claims.as_printed(ratio, 2), claims.as_printed(reference, 2)
    if claims.within_noise(shown, printed_ratio_spread(ratio, noise), ref):
        return "at"
    return "above" if shown > ref else "below"


def passed_references(rows: list[tuple[str, float, float, float]]) -> list[str]:
    """The rows that passed their reference beyond noise, each named with its figures as the tables print
    them: "int8 weight-only, by hand (0.29x against its 0.24x reference, noise ±3%)". ``rows``: (name as
    printed, speedup, noise, reference) of every row timed at one batch. What ``roofline.pass_rate_note``
    names beside its word that a pass served from a cache can pass a memory-bound reference. Lesson 04."""
    return [f"{name} ({ratio:.2f}x against its {reference:.2f}x reference, noise ±{noise:.0%})"
            for name, ratio, noise, reference in rows if beside_reference(ratio, noise, reference) == "above"]


def _how_far(ratio: float, noise: float, reference: float) -> str:
    """One row of ``references_reading``: its speedup, its reference, and where it stands: short of the
    reference with no gain beyond noise, slower, or the share of the reference's gain it reached (from the
    figures as printed, as ``verdict_against`` works it); at the reference within noise; or above it."""
    shown, ref = claims.as_printed(ratio, 2), claims.as_printed(reference, 2)
    figures = f"{ratio:.2f}x against {reference:.2f}x"
    side = beside_reference(ratio, noise, reference)
    if side == "at":  # its ± as printed beside it: the reader sees that it covers the reference (t27_0304)
        return f"{ratio:.2f}x ({noise_text(ratio, noise)}) against {reference:.2f}x (at it, within noise)"
    if side == "above":
        return figures + " (above it, beyond noise)"
    if against_one(ratio, noise) == "within noise":
        return figures + " (no gain beyond noise)"
    if shown < 1 or ref <= 1:
        return figures + (" (slower)" if shown < 1 else "")
    return figures + f" ({claims.percent((shown - 1) / (ref - 1))} of its gain)"  # half up, as a reader rounds


# The paths ``references_reading`` counts, named so that a reader counting the collapsed table's rows finds the
# same number: its float rows (fp32, bf16, compiled or not) are bases, not quantized paths (t32_0304 other (e))
TIMED_WHICH = "with int8 or int4 weights timed (section 4's collapsed table; its fp32 and bf16 rows not counted)"


def references_reading(batch: int, label: str, rows: list[tuple[str, float, float, float]],
                       timed: list[tuple[str, float, float, float]] | None = None) -> str:
    """How this run's quantized paths at ``batch`` (its regime, ``label``: "memory-bound (L3)") stood against
    their roofline references. ``rows``: (name, speedup, noise, reference) of the figures the lesson reads,
    each printed with its figures. ``timed``: the same for every quantized path (int8 or int4 weights) timed at
    that batch (section 4's collapsed table; ``TIMED_WHICH`` names them); the count ("6 of the 7 quantized
    paths with int8 or int4 weights timed ...") is over them, and those that did not fall short are named, so
    the head never speaks for rows it was not given (the twenty-sixth reading: "every quantized path fell
    short" beside a by-hand row at its reference). Without ``timed`` the count is
    over ``rows`` alone, said to be the paths read here. Lesson 04: section 4's answer, and the line under the
    closing table that the summary's quantization bullet points to."""
    each = "; ".join(f"{name} {_how_far(ratio, noise, ref)}" for name, ratio, noise, ref in rows)
    if timed is None:
        return f"At batch {batch} ({label}) {_short_count(rows, 'read here')}: {each}."
    head = _short_count(timed, TIMED_WHICH)
    spared = [f"{name} {_how_far(ratio, noise, ref)}" for name, ratio, noise, ref in timed
              if beside_reference(ratio, noise, ref) != "below"]
    if spared and len(spared) < len(timed):   # some fell short: name those that did not
        head += "; not short: " + "; ".join(spared)
    elif spared:                               # none fell short: each with its figures
        head += ": " + "; ".join(spared)
    return f"At batch {batch} ({label}) {head}. The figures the lesson reads: {each}."


def references_count(batch: int, label: str, timed: list[tuple[str, float, float, float]]) -> str:
    """Section 4's count of quantized paths short of their roofline references at ``batch``, without the
    figures: the closing line the summary's quantization bullet points to, so that the page does not print
    section 4's answer twice (t33_0304 other (d)). It points to where every path's figures are: section 4's
    collapsed table, since its answer names only the paths not short and the few the lesson reads (t35_0304
    #2: three short paths were named nowhere in it). ``timed`` as in ``references_reading``. Lesson 04."""
    return (f"At batch {batch} ({label}) {_short_count(timed, 'with int8 or int4 weights timed')}; section 4's "
            "collapsed table (every variant, both batches, with its reference) gives each one's speedup beside "
            "its reference.")


def _short_count(rows: list[tuple[str, float, float, float]], which: str) -> str:
    """How many of ``rows`` (name, speedup, noise, reference) fell short of their roofline references, in
    words that fit the count: all of them, some ("2 of 3"), none, or the one row's. ``which``: the paths
    counted ("read here", "timed ...")."""
    short = sum(beside_reference(*row[1:]) == "below" for row in rows)
    if len(rows) == 1:
        return (f"the one quantized path {which} "
                + ("fell short of its roofline reference" if short else "did not fall short of its roofline reference"))
    if short == len(rows):
        return f"all {len(rows)} quantized paths {which} fell short of their roofline references"
    if not short:
        return f"none of the {len(rows)} quantized paths {which} fell short of its roofline reference"
    return f"{short} of the {len(rows)} quantized paths {which} fell short of their roofline references"


def pair_spread(a: float, a_noise: float, b: float, b_noise: float) -> float:
    """The spread two paired speedups (against the same base's rounds) are compared with: the larger noise
    times the larger ratio, both as printed (two decimals), rounded half up, so a reader redoes it from the
    table: 0.80x ±11% and 0.76x ±15% give 0.15 x 0.80 = 0.12."""
    larger_noise = max(claims.as_printed(a_noise, 2), claims.as_printed(b_noise, 2))
    return claims.half_up(larger_noise * max(claims.as_printed(a, 2), claims.as_printed(b, 2)), 2)


def ties(a: float, a_noise: float, b: float, b_noise: float) -> bool:
    """True where two paired speedups are the same within noise as printed: their printed gap within
    ``pair_spread`` (the one noise rule, ``claims.within_noise``). Lesson 04: weight-only int8 against
    compile alone."""
    return claims.within_noise(claims.as_printed(a, 2), pair_spread(a, a_noise, b, b_noise),
                               claims.as_printed(b, 2))


def agree_within(a: float, a_noise: float, b: float, b_noise: float) -> bool:
    """True where one variant's speedups from two sets of rounds agree by the course's one rule between two
    runs (``claims.runs_agree``, the rule lesson 09 sets two lessons' figures side by side with): either figure
    as printed ± its own spread as printed (``printed_ratio_spread``) covers the other. So 1.10x ±5% (± 0.06)
    beside 1.05x ±5% agrees, and 1.10x ±5% beside 1.00x ±5% (1.04-1.16 and 0.95-1.05) does not: a sum of the
    two spreads (0.11, past the 0.10 gap) would have called those agreeing. Lesson 04, the closing section."""
    return claims.runs_agree(claims.as_printed(a, 2), printed_ratio_spread(a, a_noise),
                             claims.as_printed(b, 2), printed_ratio_spread(b, b_noise))


AGREE_RULE = "either figure ± its spread covers the other"  # agree_within's rule, as the page names it


def gain_over_compile(a: float, c: float, tie: bool) -> str:
    """Weight-only int8 (``a``, a speedup over fp32) against compile alone (``c``): "showed no gain over compile
    alone beyond noise (0.84x against 0.79x)" where the two tie within noise (``tie``), which a higher printed
    figure can do, so never "gained nothing" beside 0.84x over 0.79x; "gained nothing" only where it is no
    higher as printed. Lesson 04, section 4."""
    figures = f"({a:.2f}x against {c:.2f}x)"
    if tie:
        return f"showed no gain over compile alone beyond noise {figures}"
    if claims.as_printed(a, 2) <= claims.as_printed(c, 2):
        return f"gained nothing over compile alone {figures}"
    return f"gained over compile alone {figures}"


def load_sentence(pairs: list[tuple[str, str, str]]) -> str:
    """Where every pair of timings agrees within noise: which pairs' figures differ as printed (``pairs``: the
    name and its two figures as printed), said to differ by no more than their rounds' noise, so no cause is
    named for them (the machine's load is named only where a pair is apart beyond noise, a sentence the lesson
    prints itself), and a pair printed 1.00x and 1.00x is never said to "differ". The names are parted by
    semicolons, since a name may hold a comma. Lesson 04, section 7."""
    apart = [name for name, here, there in pairs if here != there]
    head = f"Each pair agrees within the two timings' noise ({AGREE_RULE})"
    if not apart:
        return head + ": every pair prints the same figure in both sets of rounds."
    named = "; ".join(apart)  # names hold commas ("torchao int8 dynamic, compiled"): semicolons part them
    return (head + f": where a pair's figures differ as printed ({named}), they differ by no more "
            "than their rounds' noise, so no difference between the two sets of rounds is shown.")


def again_sentence(pairs: list[tuple[str, str, str]], agree: list[bool]) -> str:
    """The closing word on variants timed again in the trade-off table's rounds beside their own section's
    (``pairs``: the name and its two figures as printed; ``agree``: ``agree_within`` per pair): where every pair
    agrees, ``load_sentence``; else what a pair apart means, by the same rule. Lesson 04, section 7."""
    if all(agree):
        return load_sentence(pairs)
    return ("A pair apart (neither figure ± its spread covers the other) means the machine's load changed "
            "between the two sets of rounds (other programs on its cores): each figure is true of its own rounds.")


def stored_size_words(base: int, size: int, digits: int = 2, base_name: str = "") -> str:
    """A variant's stored size against its family's fp32 (``base``), both in whole bytes as the tables print
    them: the ratio is worked from those bytes, as section 4's table works it, so one model reads one ratio
    everywhere in the lesson (11,656,269 / 2,943,603 = 3.96x, where MB to two decimals, 11.66 / 2.94, give
    3.97x). ``base_name`` ("dense") names the base where the line does not; ``digits``: the ratio's decimals."""
    than, as_base = (f" than {base_name}", f" as {base_name}") if base_name else ("", "")
    if size == base:
        return f"the same stored size{as_base} ({size:,} bytes)"
    if f"{base / size:.{digits}f}" == f"{1:.{digits}f}":  # a few bytes apart: no ratio to read
        return f"about the same stored size{as_base} ({size:,} against {base:,} bytes)"
    if size > base:
        return f"{size / base:.{digits}f}x the stored bytes{' of ' + base_name if base_name else ''}"
    return f"{base / size:.{digits}f}x fewer stored bytes{than}"


def retimed_verdict(ratio: float, noise: float, reference, same_rounds: bool, batch: int, device: str) -> str:
    """A speedup timed again in the trade-off table's rounds, set beside section 4's roofline reference for the
    same variant where that reference was worked for this batch on this device (``same_rounds``), as section 4
    sets its own figures; else the words say why no reference stands beside it. ``reference``: a
    ``roofline.Reference`` or None. Lesson 04."""
    if not same_rounds:
        return (f"{verdict_against(ratio, None, noise)}; no reference beside it: section 4's roofline references "
                f"are worked for batch {batch} on {device}, not for this table's batch and device")
    if reference is None:
        return (f"{verdict_against(ratio, None, noise)}; no reference beside it: section 4 worked none for this "
                "variant")
    verdict = verdict_against(ratio, reference.value, noise, "reference", rough=reference.rough)
    return (f"against section 4's roofline reference of {reference.text()} ({reference.label}, batch {batch}, "
            f"this device): {verdict}")


def cnn_int8_verdict(ratio: float, noise: float) -> str:
    """The CNN's int8 speedup: no reference stands beside it, and the words say why (section 4's roofline
    references are worked for the MLP's Linear layers, not for this CNN, whose convolutions stay fp32)."""
    return (f"{verdict_against(ratio, None, noise)}; no reference beside it: section 4's roofline references "
            "are worked for the MLP's Linear layers, not for this CNN, whose convolutions stay fp32")


INTEGER_KERNELS = ("qlinear", "quantized::", "_int_mm", "int8", "int4pack")  # in integer matmuls' operator names


def held_words(ops: list[str]) -> str:
    """What a compiled quantized model holds while it runs, read from the operator names its compiled code calls
    (``time_by_op(model, x, top=None)``, slowest first): the table's stored bytes are the state dict of the
    quantized model it was compiled from, and compiling may repack its weights. An integer kernel is read first
    (its quantized layers run on integer weights); else mkl's float matmul on a weight packed while compiling.
    "" where ``ops`` is empty (an eager model: it runs on what it stores). Lesson 04, section 7."""
    if not ops:
        return ""
    integer = next((op for op in ops if any(kernel in op for kernel in INTEGER_KERNELS)), None)
    if integer:
        return (f"and the compiled model calls {integer}, an integer kernel: from that operator name (its memory "
                "is not measured), its quantized layers likely run on integer weights, the bytes it stores")
    floats = next((op for op in ops if "_mkl_linear" in op), None)
    if floats:
        return (f"yet the compiled model calls {floats}, a float matmul on a weight packed while compiling, and no "
                "int8 kernel: from those operator names (its memory is not measured), it likely holds float "
                "weights while it runs, not fewer bytes")
    return ("and the compiled model's operators name neither an integer kernel nor a float matmul on packed "
            "weights: what it holds while it runs is not shown")


# The closing-table row of section 2 names what is compared, not an outcome: the verdict beside it says where this
# run's speedup stood (short of BN's share, at it within noise, or above it), so the row reads right either way.
FOLD_CLAIM = "folding BN's speedup, beside BN's measured share of the time"


def baseline_again(name: str, earlier: dict[str, bench.Measurement], here: bench.Measurement) -> str:
    """One model's latency timed in several sets of rounds (the same model, batch and device): its median in each
    section (``earlier``: by where it was timed, printed as those tables print it) and ``here`` (section 7's
    table: ms, two decimals), and whether they agree. Worked from the figures as printed, half up: the slowest
    over the fastest, against the largest middle-half spread of those runs. Within it: one latency, timed again;
    beyond it: the machine ran at another speed between the sets of rounds. Either way each speedup is read
    within its own rounds, so no section's speedup stands on another section's baseline. Lesson 04."""
    shown = {where: fmt_seconds_as_printed(m.median) for where, m in earlier.items()}
    shown["here"] = (f"{here.median * 1e3:.2f} ms", claims.as_printed(here.median * 1e3, 2) / 1e3)
    seconds = [s for _, s in shown.values()]
    apart = claims.half_up(max(seconds) / min(seconds) - 1)  # as a reader works it from the printed figures
    widest = claims.half_up(max(spread(m) for m in [*earlier.values(), here]))
    figures = ", ".join(f"{text} ({where})" for where, (text, _) in shown.items())
    reading = (f"within the largest spread of those runs ({widest:.0%}, middle half / median): one latency, timed "
               "again" if apart <= widest else
               f"beyond the largest spread of those runs ({widest:.0%}, middle half / median): the machine ran at "
               "another speed between these sets of rounds")
    return (f"{name}, timed in {len(shown)} sets of rounds (the same batch, the same device): {figures}; the "
            f"slowest is {apart:.0%} above the fastest, {reading}. Each speedup is a median of ratios within one "
            "set of rounds, where the baseline and the variant met the same machine: a section's speedups stand on "
            "its own baseline, not on another section's.")
