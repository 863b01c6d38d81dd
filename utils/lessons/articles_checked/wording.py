"""Lesson 09's longer evidence sentences, each from its figures: lesson 04's int8 MLP with its set-up, which
method kept the most of each GPU's rate, work per worker, why lesson 05's uint8 transfer differs from row B8's
packing, a peak ratio with its spread, lesson 02's schedules with two stages per device. Used by ``verdicts`` and ``timed_rows``."""

from __future__ import annotations

from utils import claims, devices
from utils.lessons.articles_checked.stored_peaks import stored_words
from utils.lessons.articles_checked.lesson_01_pairs import GAP_BETWEEN_RUNS, lesson_01_beside, shared_conditions
from utils.lessons.articles_checked.checks import (BOTH_WORKING, WIDE_SPREAD, busy_note, peak_ratio, share_of_rate,
                                                   too_wide, work_scaled_reference)
from utils.lessons.articles_checked.reference_rounds import median_past_reference
# per_worker_words re-exported: verdicts reads it here
from utils.lessons.articles_checked.shares import per_worker_words, printed_share  # noqa: F401
from utils.lessons.articles_checked import sections
from utils.lessons.articles_checked.figures import (LEDGER_NOISE, TWO_STAGES, _units_note, disturbed, fused_figure,
                                                    fused_verdict, percent_text, rounds_above_words, share_text,
                                                    spread_of)
from utils.lessons.articles_checked.sources import MEASURED, THIS_CPU, Part

TWO_STAGES_SECTION = ("02", "two stages per device")  # lesson 02 §9, cited from its heading


def int8_mlp_words(record: dict) -> str:
    """Lesson 04's int8 MLP figure with its set-up: "lesson 04's MLP (784 -> 1024 x 3 -> 10), torchao int8
    compiled, batch 256: 4.30x faster than fp32"."""
    import inspect

    from utils.lessons.compression.train import linear_heavy_mlp

    defaults = inspect.signature(linear_heavy_mlp).parameters
    width, layers = defaults["width"].default, defaults["hidden_layers"].default
    setup = record.get("what", "").split(", against")[0]
    return (f"lesson 04's MLP (784 -> {width} x {layers} -> 10){', ' + setup if setup else ''}: "
            f"{record['value']:.2f}x faster than fp32")


def int8_reference_words(record: dict) -> str:
    """Lesson 04's int8 reference as lesson 04 printed it ("8.21x", or "~8.2x (rough)" where a measured rate
    it rests on spread too far): the record's "what" ends with it; an older record holds only the figure."""
    marker = "against its roofline reference "
    what = record.get("what", "")
    return what.split(marker, 1)[1] if marker in what else f"{record['bound']:.2f}x"


def int8_against_reference(record: dict, why: str = "") -> str:
    """"against its reference 4.47x: faster: 76% of the reference's gain": lesson 04's figure beside its
    roofline reference in lesson 04's own words (``verdict_against``: a reference, which may be passed), read
    within the ``LEDGER_NOISE`` floor (the ledger keeps no rounds); ``why`` says what the reference is."""
    from utils.lessons.compression.report import verdict_against

    reference = int8_reference_words(record)
    said = verdict_against(record["value"], record["bound"], LEDGER_NOISE, kind="reference",
                           rough="rough" in reference)
    return f"against its reference {reference}{why}: {said}"


def kept_most_words(kept: dict[str, float], split: str = "the article's split",
                    spreads: dict[str, float | None] | None = None) -> str:
    """Row A19's reading, from each method's share of one GPU's rate (speed-up / 2), judged as printed (whole
    per cent): which kept both GPUs working (over ``BOTH_WORKING`` each: past the half that GPUs taking turns
    keep, by a margin for noise), whether the split left one idle at a time, and which kept the most of the
    figures the row reads: at 100% or more, "all of it or more" only where each top figure's rounds' spread
    (``spreads``, of the speed-up; halved for the share) keeps it past 100%, else "about all of it" (rule 4)."""
    pct = {name: int(claims.half_up(share * 100, 0)) for name, share in kept.items()}  # as printed (half up)
    ranked = sorted(pct.items(), key=lambda item: -kept[item[0]])
    shares = ", ".join(f"{name} {percent_text(kept[name])}%" for name, _ in ranked)
    line = int(claims.as_printed(BOTH_WORKING, 0, scale=0.01))
    working = [name for name, share in ranked if name != split and share > line]
    nearest = min(ranked, key=lambda item: abs(item[1] - line))[0]
    over = (f"each keeps over {line}% of its rate: past the 50% that two GPUs taking turns keep at most, by a "
            f"margin for a timing's noise that this course chose (no standard); the share nearest that line "
            f"here: {nearest} {percent_text(kept[nearest])}%")  # printed as every share is printed
    both = (f"kept both GPUs working ({over}): {', '.join(working)}" if working else
            f"no method kept both GPUs working ({over}) here")
    if split in pct:
        both += (f"; {split} kept about half or less: one GPU idle at a time" if pct[split] <= line
                 else f"; {split} kept over {line}%: not one GPU at a time")
    best = ranked[0][0]
    # every name printed with the top share: a tie as printed is said as a tie, never one name of two
    tied = [name for name, _ in ranked if percent_text(kept[name]) == percent_text(kept[best])
            or _ties_by_noise(best, name, kept, spreads or {})]
    shares_near = sorted({percent_text(kept[name]) for name in tied}, key=float, reverse=True)
    each = (f"{shares_near[0]}%{' each' if len(tied) > 1 else ''}" if len(shares_near) == 1 else
            f"{_listed([f'{p}%' for p in shares_near])}, within noise of each other")  # a tie by the spreads
    # "all of it" from the share itself (the speed-up as printed, 2.00x or more), never from a rounded 100%
    lead = (f"of the figures this row reads, none kept all of each GPU's rate ({_listed(tied)} came nearest, "
            f"{each})" if claims.half_up(kept[best] * 100, 9) < 100
            else _all_of_it(tied, kept, spreads or {}))
    return f"{both}; {lead}; each GPU's share here, most first: {shares}"


def _ties_by_noise(best: str, name: str, kept: dict[str, float], spreads: dict[str, float | None]) -> bool:
    """Whether ``name``'s speed-up (twice its share) lies within noise of ``best``'s by the course's rule
    (``claims.runs_agree``, figures as printed), both kept with a spread: then it came as near as ``best``."""
    if spreads.get(best) is None or spreads.get(name) is None:
        return False
    speedup = lambda n: claims.as_printed(2 * kept[n], 2)  # noqa: E731
    return claims.runs_agree(speedup(best), claims.as_printed(spreads[best], 2), speedup(name),
                             claims.as_printed(spreads[name], 2))


def _all_of_it(tied: list[str], kept: dict[str, float], spreads: dict[str, float | None]) -> str:
    """The top shares at 100% or more (speed-up / 2, as printed): "all of it or more" where each one's spread
    (half its speed-up's, as printed) keeps it past 100%; within that spread of 100%, "about all of it" with
    the share and its spread (t34_09 #1: 2.01x ± 0.07 is 100.5% ± 4, within noise of 100%)."""
    near = [name for name in tied if spreads.get(name) is not None and claims.half_up(kept[name] * 100, 9) > 100
            and claims.half_up(kept[name] * 100 - spreads[name] * 50, 9) <= 100]  # "or more" within noise: no
    if not near:
        return f"{_listed(tied)} kept all of it or more"
    each = "; ".join(f"{name + ' ' if len(tied) > 1 else ''}{percent_text(kept[name])}% ± "
                     f"{percent_text(spreads[name] / 2)}" for name in near)  # one name: not said twice
    return f"{_listed(tied)} kept about all of it ({each}: within noise of 100%)"


def fused_words(c, names: tuple[str, str], setup: str, gpu: bool = False, recorded=None) -> str:
    """Rows B4 and B14: lesson 01 §5's pair (an ``algorithms.Comparison``) as the page reads it: the two fastest
    times and their ratio, labelled as such (two best cases need not share a round, so no verdict rests on it),
    then the median of the rounds' own ratios ± their spread (``fused_figure``, the figure the verdict reads),
    whether the results agree, and ``fused_verdict``'s words beside the bytes ceiling lesson 01 gives the pair
    (or its reason for none).
    ``recorded``: lesson 01 §5's run of the pair from the ledger (``m["results"]``, None where none is kept): on
    the CPU, set beside this one (``lesson_01_pairs.lesson_01_beside``); on a GPU, lesson 01 timed another
    device (``lesson_01_conditions``)."""
    from utils.lessons.why_slow.algorithms import SAME_RESULT

    slow, fast = (claims.sig_text(t, 3, 1e-3) for t in (c.slow_seconds, c.fast_seconds))  # ms, as lesson 01
    median, spread = fused_figure(c)
    same = (f"the same result (largest difference {c.max_difference:.0e}, within {SAME_RESULT:.0e})" if c.same_result
            else f"results apart by {c.max_difference:.0e}, past {SAME_RESULT:.0e}")
    ceiling = (f"against its bytes ceiling {claims.as_printed(c.ceiling, 2):.2f}x ({round(c.ceiling * 2)} "
               "whole-tensor reads and writes cut to 2, lesson 01 §5)" if c.ceiling else
               f"no bytes ceiling (lesson 01 §5: {c.no_ceiling})")
    n = len(c.round_ratios)
    figure = (f"each round's own ratio (slow over fast in one round): median {median:.2f}x ± {spread:.2f} (its {n} "
              "rounds, listed in the collapsed block of quick measurements after section 9)" if n else
              f"no rounds kept, so the verdict reads the fastest times' ratio {median:.2f}x, with no spread")
    # one figure for the speed-up: two fastest times need not share a round, so their ratio is not printed
    # beside the rounds' median, which would give the same quantity two figures (t40_09 #4)
    timed = (f"the fastest of {n} interleaved rounds each, which need not come from one round" if n else
             f"the fastest times; {slow} / {fast} = {claims.as_printed(c.speedup, 2):.2f}x")
    return (f"{names[0]} {slow} ms, {names[1]} {fast} ms ({setup}, {timed}); {figure}, {same}; {ceiling}: "
            f"{fused_verdict(c)}; {_lesson_01(c, names, gpu, recorded)}")


def _lesson_01(c, names: tuple[str, str], gpu: bool, recorded) -> str:
    """Lesson 01 §5's run beside this one where the ledger keeps it and both ran on the CPU; else the words
    that say why the row quotes only its own run."""
    if recorded is None or gpu:
        return lesson_01_conditions(c.what, gpu, recorded is not None)
    return lesson_01_beside(c, names, recorded.record)


def lesson_01_conditions(what: str, gpu: bool = False, recorded: bool = False) -> str:
    """What rows B4 and B14 share with lesson 01 §5, which they cite, and what differs (read from the two pages'
    code, not measured), where the row quotes only its own run. With no GPU and no lesson 01 §5 figure in the
    ledger (an older ledger: ``lesson_01_pairs`` sets a kept one beside the row): the same functions, sizes,
    thread and timer (``algorithms.compare``), but another process at another moment, and for GELU rounds shared
    with torch.compile's version; a gap between the two pages' ratios beyond their spreads would be a gap
    between runs to explain (no cause is measured, so none is named). With a GPU (``gpu``), lesson 01 §5 times on it, at its own
    sizes, and this row on the CPU: its figure (``recorded``: the ledger keeps one) is another device's."""
    kept = ("the ledger's lesson 01 §5 figure is the GPU's" if gpu and recorded
            else "the ledger keeps no lesson 01 §5 figure")
    lead = f"this run's ratio, not lesson 01 §5's: {kept}; "
    if gpu:
        return (lead + "lesson 01 §5 times the same two functions on the GPU at its own, larger sizes, this row on "
                "this CPU: another device, so the two pages' ratios need not match")
    return (lead + shared_conditions(what) + ": where the two pages' medians differ beyond their spreads, that is "
            + GAP_BETWEEN_RUNS)


def _lesson_05_differs(m) -> str:
    """Why lesson 05's uint8 transfer can pay where row B8's packing does not: what is packed, and how much."""
    from utils.lessons.data_prefetch.plan import lesson_settings

    s = lesson_settings(m["plan"], m["hw"])
    batch = s.transfer_images * 3 * s.transfer_side**2 * 4  # bytes of the batch as float32
    return (f"Lesson 05 §5 times another thing: its images are stored as uint8, so nothing is packed and only "
            f"the conversion to float32 after the transfer is paid (one pass), on a batch of {batch / 1e6:.1f} MB "
            f"({s.transfer_images} images of 3 x {s.transfer_side}² x 4 bytes); here fp32 values are packed and "
            "unpacked (scale, round, cast, cast back, divide) around a 4 MiB message")


def _peak_part(m, dtype: str, has_units: bool, note: str = "") -> Part:
    other, fp32 = m["peaks"].peak(dtype), m["peaks"].peak("fp32")
    ratio, low, high = peak_ratio(m, dtype)
    wide = ""
    if too_wide(m, dtype):  # no single rate; a range wholly on one side of the line still says which side
        line = 1.0 if has_units else 1.2
        wide = (f": a spread over {WIDE_SPREAD:.0%} is no single rate, " + (
            f"but the whole range lies {'above' if low > line else 'below'} {line:g}x" if not low <= line < high
            else "and its range spans the line: inconclusive within its spread"))
    # each peak's spread over its timed runs ((slowest - fastest) / median), as printed: the ends use these
    spreads = tuple(f"{claims.as_printed(c.spread, 2):.0%}" for c in (other, fp32))
    return Part(f"{other.name}: {ratio:.1f}x the fp32 peak; with the spreads of their timed runs ({spreads[0]}, "
                f"fp32 {spreads[1]}): {ratio:.1f}x / (1 + {spreads[0]}) = {low:.1f}x to {ratio:.1f}x x (1 + "
                f"{spreads[1]}) = {high:.1f}x{wide}"
                f"{stored_words(m.get('stored_peaks', {}), dtype, fp32, m.get('stored_spreads'))}"
                f"{_units_note(has_units, dtype)}{note}"
                f"{busy_note(m, 'peaks', None)}", MEASURED, f"{THIS_CPU}, {devices.cpu_isa()}")


def two_stage_parts(m, verdict_words) -> tuple[list[Part], dict[str, float]]:
    """Row A19's reading of lesson 02 §9's schedules with two stages per device, where the ledger holds them:
    one Part each (its speed-up, its share of each GPU's rate, and ``verdict_words(m, name)``: the course's
    rule on the paired rounds lesson 02 recorded), and each one's share for ``kept_most_words``."""
    parts, kept = [], {}
    for name, schedule in TWO_STAGES.items():
        found = m["results"].get(name)
        if found is None:
            continue
        r = found.record
        if not disturbed(m, name):  # a figure from a busy machine is quoted, never ranked
            kept[f"{schedule} (two stages per device)"] = printed_share(r["value"])  # from the speed-up as printed
        rounds = (f"the median of {len(r['rounds'])} paired rounds, ± {spread_of(r):.2f}" if r.get("rounds")
                  else "no rounds kept")  # the spread that decides "at the bound (within noise)", printed
        verdict = verdict_words(m, name)  # lesson 02 §9's reading: within its work-scaled reference, or past it
        setup = r.get("what", "").split(", against")[0].removeprefix(f"{schedule}, ")  # "two stages per worker, ..."
        parts.append(found.part(
            f"{sections.cite(TWO_STAGES_SECTION)}'s {schedule}{', ' + setup if setup else ''}: "
            f"{r['value']:.2f}x one, {share_text(r['value'])}% each (speed-up / 2; {rounds}), against its bound of "
            f"{r['bound']:.2f}x: {verdict}; {rounds_above_words(r, sections.cite(TWO_STAGES_SECTION))}"
            + ("" if "work-scaled reference" in verdict else reference_note(r))))  # said once: explained by it
    return parts, kept


def reference_note(record: dict) -> str:
    """Row A19's reading of a §9 median against its work-scaled reference, as lesson 02 prints it: past it by
    more than the rounds' spread, a finding to explain; within the spread, said so; "" where the median is not
    past it or no reference is kept (``reference_rounds.median_past_reference``)."""
    reference = work_scaled_reference(record)
    if reference is None:
        return ""
    past = median_past_reference(record, claims.as_printed(reference, 2))
    return f"; above its work-scaled reference ({claims.as_printed(reference, 2):.2f}x) {past}" if past else ""


def two_stages_read_words(m) -> str:
    """Which of lesson 02 §9's schedules with two stages per device this page reads (row A19, and the counts of
    medians read against a bound), and which the ledger lacks, with the lesson to run."""
    where = f"{sections.cite(TWO_STAGES_SECTION)}'s schedules with two stages per device"
    read = [s for name, s in TWO_STAGES.items() if m["results"].get(name) is not None]
    missing = [s for name, s in TWO_STAGES.items() if m["results"].get(name) is None]
    if not read:
        return f"{where} are not recorded yet (run lesson 02 to record them), so no figure here reads them"
    said = f"{where}: row A19 reads {_listed(read)} against their bounds, with the rounds lesson 02 recorded"
    return said + (f"; not recorded yet: {_listed(missing)} (run lesson 02 to record "
                   f"{'it' if len(missing) == 1 else 'them'})" if missing else "")


def _listed(names: list[str]) -> str:
    """"a", "a and b", "a, b and c"."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def load_and_compute(serial: float, overlapped: float, workers: float) -> tuple[float, float]:
    """An epoch's load and compute seconds, each as printed (two decimals), from the three bounds bench stores:
    load + compute, max(load, compute) and max(load / 2, compute). The larger is max(load, compute), the other
    the sum less it; which one is the load the third bound tells (load / 2 or compute). The row then works
    every bound from these two printed figures, so 1.56 + 1.28 reads 2.84 s on the page."""
    big, small = overlapped, serial - overlapped
    load_is_big = abs(max(big / 2, small) - workers) <= abs(max(small / 2, big) - workers)
    load, compute = (big, small) if load_is_big else (small, big)
    return claims.as_printed(load, 2), claims.as_printed(compute, 2)


def ranked_figures(m, kept: dict[str, float]) -> dict[str, tuple[float, float | None]]:
    """Row A19's ranked recorded figures (labels as ``kept`` names them), each as printed with its rounds'
    spread (None where its lesson's ledger record keeps no rounds, as lesson 03's ``ddp_speedup`` did before it
    kept its ``rounds``)."""
    names = {"data parallel": "ddp", **{f"{label} (two stages per device)": name
                                        for name, label in TWO_STAGES.items()}}
    found = {}
    for label in kept:
        name = "pipeline" if label.endswith("'s pipeline") else names.get(label)
        r = name and m["results"].get(name)
        if r:
            found[label] = (claims.as_printed(r.record["value"], 2),
                            spread_of(r.record) if r.record.get("rounds") else None)
    return found


def ranking_words(figures: dict[str, tuple[float, float | None]]) -> str:
    """Whether row A19's order among the recorded figures is read: neighbours by median, each with its rounds'
    spread, by the course's one noise rule between two runs (``claims.runs_agree``: either median ± its spread
    covers the other's, figures as printed). A ranking is said only where the spreads separate two neighbours;
    neighbours within noise tie (``noise_tiers``), and a tier below another lies beyond noise of it. A figure
    kept with no rounds has no spread, so its place is not read; each figure's rank holds for its own lesson's
    run ("" where fewer than two are recorded)."""
    if len(figures) < 2:
        return ""
    shown = {label: (claims.as_printed(x, 2), None if t is None else claims.as_printed(t, 2))
             for label, (x, t) in figures.items()}
    bare = [label for label, (_, t) in shown.items() if t is None]
    each = lambda names: _listed([f"{n} ({shown[n][0]:.2f}x ± {shown[n][1]:.2f})" for n in names])  # noqa: E731
    said = ("the order is by medians, each from its own lesson's run, read only where the spreads separate two "
            "neighbours (the course's rule: where one median ± its spread covers the other's, they tie)")
    tiers = noise_tiers({n: v for n, v in shown.items() if n not in bare})
    for k, tier in enumerate(tiers):
        below = "" if k == 0 else f"below {'it' if len(tiers[k - 1]) == 1 else 'them'} beyond noise, "
        if len(tier) == 1:
            said += f"; {below}{each(tier)}"
        else:
            chain = "" if len(tier) == 2 else ", each within noise of the next"
            said += f"; {below}{each(tier)} tie{chain}: their order is not read"
    if bare:
        said += (f"; {_listed(bare)} kept no rounds in the ledger (no spread), so "
                 f"{'their places are' if len(bare) > 1 else 'its place is'} not read")
    return said


def noise_tiers(shown: dict[str, tuple[float, float]]) -> list[list[str]]:
    """The figures by median, highest first, in tiers: a figure within noise of the one above it joins its tier
    (a tie), one beyond noise of it starts the next, so that no order is read between figures that tie."""
    tiers: list[list[str]] = []
    for label in sorted(shown, key=lambda n: -shown[n][0]):
        if tiers and claims.runs_agree(*shown[tiers[-1][-1]], *shown[label]):
            tiers[-1].append(label)
        else:
            tiers.append([label])
    return tiers
