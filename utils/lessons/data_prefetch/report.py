"""Lesson 05's summary: every configuration's measured epoch next to its bound, as a table and a chart.

``results`` maps a configuration's name to ``(epoch seconds, bound seconds, loaders)``, as the notebook
keeps them while it measures. ``ideal`` is the best any configuration of the lesson can do, max(L/2, C): each
is set beside its own bound ("bound reached") and beside that ideal, so that a loop whose own bound is slow
(no workers: L + C) does not look as good as one that reaches the ideal.
"""

from __future__ import annotations

import statistics
import string
import textwrap
from dataclasses import replace

from utils import plots
from utils.claims import (Claim, against_speedup, bound_verdict,  # noqa: F401
                          as_printed, gain_share_range, half_up, no_gain_claim, paired_spread, percent,
                          printed_ratio, signed_percent, speedup_verdict, within_noise)
from utils.lessons.data_prefetch.epoch import bound_formula
from utils.tables import Table

WIDTH = 110  # the course's widest visible line


def say(text: str) -> None:
    """Print ``text`` folded at 110 characters, each paragraph (``\\n``) apart. Lesson 05."""
    print("\n".join(textwrap.fill(part, WIDTH, subsequent_indent="  ", break_on_hyphens=False)
                    for part in text.split("\n")))


NOISE_FLOOR = 0.02  # one epoch's noise is never read as less than 2 %, however close a few repeats came


def runner_up(fastest: float, runner: float, noise: float) -> tuple[float, float, bool]:
    """``(speed, spread, close)`` for the runner-up epoch against the fastest (seconds): its speed x the
    fastest's, worked from the two epochs as printed (two decimals: ``claims.printed_ratio``) and rounded to
    three (1.35 s over 1.38 s: 0.978x), its spread (one epoch's ``noise`` times that speed, three decimals),
    and whether that speed ± the spread reaches 1x: the epochs as printed, 2.2% apart, are then not within a
    2.0% noise."""
    speed = as_printed(printed_ratio(fastest, runner), 3)
    spread = as_printed(noise * speed, 3)
    return speed, spread, within_noise(speed, spread)


def paired_noise(ratios: list[float], floor: float = NOISE_FLOOR, digits: int = 3) -> float:
    """The noise of paired rounds' ratios: their own spread (``claims.paired_spread``), at least ``floor`` of
    their median AS PRINTED (``digits``), rounded half up: 2 % of a printed 1.025x is 0.0205, so ± 0.021,
    never a ± under the 2 % the sentence states (2 % of an unrounded 1.0249 would print 0.020). Lesson 05."""
    floor_share = half_up(floor * as_printed(statistics.median(ratios), digits), digits)
    return half_up(max(paired_spread(ratios), floor_share), digits)


def epoch_range(epochs: list[float]) -> float:
    """The range of repeated epochs over their median, as a share, with no floor: worked from the epochs as
    printed (0.01 s) and rounded to 0.1 % as printed (1.60-1.63 s around 1.615 s: 0.019) (lesson 05)."""
    shown = [as_printed(e, 2) for e in epochs]   # the epochs as the sentence prints them: a reader's range
    return as_printed((max(shown) - min(shown)) / statistics.median(shown), 3)


def epoch_noise(epochs: list[float], floor: float = NOISE_FLOOR) -> float:
    """One epoch's noise, read from the run: ``epoch_range`` of repeated epochs of one configuration
    (1.59-1.65 s around 1.63 s: 0.037), at least ``floor``.
    Two single epochs differ beyond noise only when their ratio, as printed, lies outside 1 ± this (lesson 05)."""
    return as_printed(max(epoch_range(epochs), floor), 3)


def noise_details(epochs: list[float], names: list[str], floor: float = NOISE_FLOOR) -> str:
    """The details' account of one epoch's noise: the epochs as printed, their range (``epoch_range``),
    and the noise taken from it; the floor is named only where it set the figure, so that "a range of 1.9%"
    never reads as 2.0% (lesson 05)."""
    spread, noise = epoch_range(epochs), epoch_noise(epochs, floor)
    taken = (f"under the {floor:.0%} floor, so one epoch's noise is taken as {noise:.1%}" if spread < noise
             else "taken as one epoch's noise")
    return (f"One epoch's noise ({noise:.1%}): {len(epochs)} epochs of 2 workers started fresh took "
            f"{', '.join(f'{s:.2f} s ({w})' for s, w in zip(epochs, names))}, a range of {spread:.1%} of their "
            f"median ({taken}): a single epoch's gap under {noise:.1%} is noise, here and in every comparison "
            "of single epochs below.")


def epoch_two(restarted: float, kept: float) -> str:
    """Epoch 2 restarted against kept (persistent workers), from the two epochs as the table prints them
    (0.01 s): 1.61 s and 1.40 s read "0.21 s less kept", a reader's subtraction, not the unrounded 0.22 s."""
    restarted, kept = as_printed(restarted, 2), as_printed(kept, 2)
    gap = round(abs(restarted - kept), 2)
    if gap == 0:
        return "Epoch 2 took the same time kept, at this precision"
    return f"Epoch 2 took {gap:.2f} s " + ("less" if kept < restarted else "more") + " kept"


def kept_ratio(restarted: float, kept: float, ideal: float) -> str:
    """Epoch 2's speed kept over restarted, with the bound beside it that the claims table judges it against:
    the restarted epoch over the ideal max(L/2, C), all as printed (0.01 s), so "1.17x" never stands alone
    ("1.61 s / 1.38 s = 1.17x ..., against its bound 1.25x: 1.61 s / 1.29 s"). Lesson 05."""
    restarted, kept, ideal = (as_printed(x, 2) for x in (restarted, kept, ideal))
    return (f"{restarted:.2f} s / {kept:.2f} s = {printed_ratio(restarted, kept):.2f}x the restarted loader's "
            f"speed, against its bound {printed_ratio(restarted, ideal):.2f}x: {restarted:.2f} s / {ideal:.2f} s, "
            f"the restarted epoch over the ideal max(L/2, C)")


def gain_verdict(value: float, bound: float | None, spread: float, slower: str, baseline: float = 1.0,
                 digits: int = 2, rounds=None) -> str:
    """``claims.speedup_verdict`` on the figures as printed, with the share of the bound's gain given as the
    range its ``± spread`` allows ("13% of its gain (5-21% across its ±)"), so that a share is never read
    more exactly than the rounds measured it (lesson 05). ``rounds``: every paired round's ratio; where all
    lie on one side of 1x, that is not noise (``claims.one_side``), even where the ± touches 1x."""
    # the ± half up, as ``against_speedup`` prints it in the same row (1.80 x 2.5% = 0.045 -> 0.05): the
    # verdict's range is worked from that ±, not from ``round``'s 0.04
    value, spread = as_printed(value, digits), half_up(spread, digits)
    bound = as_printed(bound, digits) if bound is not None else None
    verdict = speedup_verdict(value, bound, spread, baseline, slower, rounds)
    verdict, bracket, note = verdict.partition(" (every round")   # the one-side note goes last
    if spread > 0 and verdict.endswith("of its gain") and bound is not None:
        verdict += gain_share_range(value, spread, bound, baseline, digits)
    return verdict + bracket + note


def speedup_claim(claim: str, value: float, bound: float | None, spread: float, slower: str,
                  rounds=None, digits: int = 2) -> Claim:
    """``claims.against_speedup`` with ``gain_verdict``'s verdict: the share of the gain as a range.
    ``digits``: 3 where a 2 % noise floor decides, so that "1.022x ± 0.020" shows why it is not noise."""
    row = against_speedup(claim, value, bound, spread=spread, slower=slower, digits=digits, rounds=rounds)
    return replace(row, verdict=gain_verdict(value, bound, spread, slower, digits=digits, rounds=rounds))


def bound_share(limit: float, seconds: float) -> str:
    """The share of its bound an epoch reached, "96%", worked from the two figures as printed (two decimals,
    ``claims.printed_ratio``): 1.29 s over 1.35 s reads 96%, a reader's division, not 95% from unrounded
    seconds. Whole per cent half up (``claims.percent``), as ``epoch_claim``'s verdict prints it."""
    return percent(printed_ratio(limit, seconds))


def bound_note(limit: float, seconds: float, noise: float = NOISE_FLOOR) -> str:
    """The note after "an epoch, N% of its bound", judged on the two figures as printed (0.01 s), as
    ``epoch_claim`` judges them: "" where the epoch prints at or over its bound (2.86 s beside 2.86 s is at
    it, even where the unrounded epoch is a hair under), "within noise" where it prints under by at most
    ``noise``, else "under it beyond noise" (lesson 05)."""
    ratio = printed_ratio(limit, seconds)   # > 1: the epoch, as printed, is shorter than its bound
    if ratio <= 1:
        return ""
    return (" (within noise of it: L and C are measured too)" if ratio <= 1 + noise else
            " (under it beyond noise: L or C was measured at a busier moment)")


def epoch_claim(claim: str, seconds: float, limit: float, loaders: int, noise: float = NOISE_FLOOR) -> Claim:
    """An epoch beside its bound, the shortest epoch its configuration allows: the verdict is the share of
    the bound's speed reached, 1/epoch against 1/bound; an epoch under its bound by less than ``noise`` (one
    epoch's, ``epoch_noise``) is at the bound, within noise (lesson 05). Both branches read the two figures
    as printed (0.01 s): an epoch printed 2.86 s beside a bound printed 2.86 s is "100% of the bound", even
    where the unrounded epoch is a hair under it."""
    shown = printed_ratio(limit, seconds)   # the bound's speed over the epoch's: 1/epoch over 1/bound
    verdict = ("at the bound (within noise)" if 1 < shown <= 1 + noise else bound_verdict(shown, 1.0))
    return Claim(claim, f"{seconds:.2f} s", f"bound {bound_formula(loaders)} = {limit:.2f} s", verdict)


def keys(results: dict) -> dict[str, str]:
    """A short key (A, B, ...) per configuration, in the order measured: the chart's labels (lesson 05)."""
    return dict(zip(results, string.ascii_uppercase))


def epochs_table(results: dict[str, tuple[float, float, int]], title: str, ideal: float | None = None) -> Table:
    """One row per configuration: the bound's formula, the epoch, the bound and bound / epoch, and with
    ``ideal`` the ideal and ideal / epoch too (lesson 05; the full table, for 'How this was measured')."""
    rows, columns = [], ["configuration", "bound formula", "epoch (s)", "bound (s)", "bound / epoch"]
    for name, (seconds, limit, loaders) in results.items():
        row = (name, bound_formula(loaders), f"{seconds:.2f}", f"{limit:.2f}", bound_share(limit, seconds))
        rows.append(row + ((f"{ideal:.2f}", bound_share(ideal, seconds)) if ideal else ()))
    if ideal:
        columns += ["ideal (s)", "ideal / epoch"]
    return Table(columns, rows, title=title)


def summary_table(results: dict[str, tuple[float, float, int]], ideal: float, title: str) -> Table:
    """key | configuration | epoch | its bound | bound reached | ideal reached: six columns (lesson 05)."""
    key = keys(results)
    rows = [(key[name], name, f"{seconds:.2f}", f"{bound_formula(loaders)} = {limit:.2f}",
             bound_share(limit, seconds), bound_share(ideal, seconds))
            for name, (seconds, limit, loaders) in results.items()]
    return Table(["key", "configuration", "epoch (s)", "its bound (s)", "bound reached", "ideal reached"],
                 rows, title=title, wrap=44)


def plot_epochs(results: dict[str, tuple[float, float, int]], simulated: bool, ideal: float | None = None,
                short: bool = False):
    """A bar per configuration's measured epoch, a black tick at its bound, a dashed line at ``ideal``;
    ``short``: the bars are labelled by ``keys`` (the summary table is the key) (lesson 05)."""
    names = list(results)
    labels = [keys(results)[n] for n in names] if short else names
    fig, (ax,) = plots.new_figure(rows=1, row_height=(0.3 if short else 0.45) * len(names) + 0.8)
    ax.barh(labels, [results[n][0] for n in names], color=plots.device_color(0), label="measured epoch")
    ax.scatter([results[n][1] for n in names], labels, color="black", marker="|", s=400, zorder=3,
               label="its bound")
    if ideal:
        ax.axvline(ideal, color="0.4", linestyle="--", lw=1, label=f"ideal max(L/2, C) = {ideal:.2f} s")
    ax.invert_yaxis()  # the first configuration measured on top
    ax.set_xlabel("seconds per epoch")
    if short:
        ax.set_ylabel("configuration (key: the table above)")
    ax.legend(loc="lower right", fontsize=8)
    plots.stamp_simulated(fig, simulated)
    title = "Each configuration's epoch and its bound" + (" (simulated on CPU)" if simulated else "")
    return plots.finish(fig, title)




def start_up_sentence(fresh_ms: list[float], restarted_ms: float, kept_ms: float, read_ms: float,
                      open_ms: float, noise_ms: float) -> str:
    """What kept (persistent) workers saved at the start of epoch 2, and what of it is measured: the start-up
    is a first batch's wait less one batch's read. A restarted start-up is read from the median of every first
    batch on 2 fresh workers (``fresh_ms``, whole ms as printed), not from the restarted epoch 2's one alone
    (``restarted_ms``): one batch may sit at either end of the spread the noise itself is read from (t29_0506).
    The kept loader's epoch 2 has one first batch (``kept_ms``): one read and any start-up it still waited, so
    the saving is the median less it, one subtraction (t33_0506); a kept batch within one read is taken as one
    read; a kept batch past one read is said apart, in the details (``kept_wait_sentence``). Of the saving,
    ``open_ms`` is the data set's open, a setting, saved by construction; the rest is
    judged against ``noise_ms`` in whole ms as printed.
    Lesson 05."""
    median = half_up(statistics.median(fresh_ms), 0)
    fresh_beyond, kept_beyond = max(median - read_ms, 0.0), max(kept_ms - read_ms, 0.0)
    saved = fresh_beyond - kept_beyond
    rest = round(saved - open_ms)
    noise = round(noise_ms)
    brief = f"the noise ({noise} ms, the details below)"
    # the table prints the restarted epoch 2's own first batch: where the median differs, it is named as one of them
    among = "" if median == round(restarted_ms) else f", the table's {restarted_ms:.0f} among them"
    fresh = f"{median:.0f}: the median of {len(fresh_ms)} first batches on 2 fresh workers{among}"
    # one subtraction, said once (t33_0506: three nested parentheses worked it two ways): the kept loader's
    # first batch is itself one read and whatever start-up it still waited, so it is taken off whole
    working = f"{saved:.0f} ms of start-up = {median:.0f} - "
    working += (f"{kept_ms:.0f} ms ({fresh}; {kept_ms:.0f}: the kept loader's first batch, its workers already "
                "started)" if kept_beyond > 0 else
                f"{read_ms:.0f} ms ({fresh}; {read_ms:.0f}: one read, as the kept loader's first batch, "
                f"{kept_ms:.0f} ms, waited no longer than one read)")
    if rest > noise:
        verdict = f"{rest} ms measured beyond it, more than {brief}: the worker processes' start"
    elif rest >= -noise:
        verdict = (f"{rest:+d} ms beyond it, not more than {brief}: no start-up of the processes shown beyond "
                   "the noise")
    else:
        verdict = f"{rest:+d} ms beyond it, less than the open by more than {brief}: a finding to explain"
    return (f"The start-up: at the start of epoch 2, kept loader workers saved {working}. Of it, {open_ms:.0f} ms "
            f"is by construction (the data set's open, a setting). The rest: {verdict}")


def kept_wait_sentence(fresh_ms: list[float], kept_ms: float, read_ms: float) -> str:
    """For the details under ``start_up_sentence``: the kept loader's first batch past one read is a wait a fresh
    start pays too, not start-up, said with its figures, so that the fresh first wait beyond one read (section
    2's figure) comes to the saving (t34_0506 #3: 207 ms is 204 of start-up and 3 ms the kept one waits too).
    Out of the answer's paragraph, which it took past 120 words (t76_0506 #4). "" where the kept batch waited
    no longer than one read. Lesson 05."""
    median = half_up(statistics.median(fresh_ms), 0)
    kept_beyond = kept_ms - read_ms
    if kept_beyond <= 0:
        return ""
    fresh_beyond = max(median - read_ms, 0.0)
    return (f"The kept loader's first batch still waited {kept_beyond:.0f} ms past one read ({kept_ms:.0f} - "
            f"{read_ms:.0f}): a wait a fresh start pays too, so of the {fresh_beyond:.0f} ms a fresh first batch "
            f"waited beyond one read ({median:.0f} - {read_ms:.0f}), {fresh_beyond - kept_beyond:.0f} ms is "
            f"start-up.")
