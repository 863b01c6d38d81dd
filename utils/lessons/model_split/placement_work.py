"""Section 8's extra time read against the stages' measured work (lesson 02): the work's rise summed from the
placements table's whole-ms figures (``printed_work_rise``), which readings of the extra time it accounts for
(``work_reach``) and the words for it (``work_note``). ``placement`` reads these and re-exports them; they need
only the run's dict, no process group."""

from __future__ import annotations

from utils.claims import as_printed, within_noise
from utils.lessons.model_split.placement_figures import extra_range, extra_time, medians_apart, ms_text
from utils.lessons.model_split.work_words import covers_words, sum_rounding


def printed_work_rise(got: dict) -> float | None:
    """The stages' measured work's rise (ms, both workers, attention/feed-forward over layers), worked from
    each stage's work as the placements table prints it (whole ms): (71 + 101) - (78 + 77) = +17, the reader's own
    sum. None where the rows carry no work."""
    placed, layers = got["attn/ffn"]["row"], got["layers"]["row"]
    if not (placed.work and layers.work):
        return None
    return sum(placed.work_ms[0]) - sum(layers.work_ms[0])


def work_covers(more: float, extra_ms: float, noise_ms: float) -> bool:
    """Whether the work's rise ``more`` accounts for the extra step time ``extra_ms`` (± ``noise_ms``, the
    paired rounds' spread), all as printed: at least as large, or short of it by less than the spread (the one
    noise rule, ``claims.within_noise``). A shortfall the spread covers is noise, not waiting shown."""
    return more >= extra_ms or within_noise(extra_ms, noise_ms, more)


def work_rise(got: dict, extra_ms: float, noise_ms: float) -> float | None:
    """``printed_work_rise`` where it covers ``extra_ms``, the extra step time ± ``noise_ms`` (``work_covers``),
    as ``work_note`` says it; None where the rows carry no work or it falls short by more than the spread. One
    computation for the headline, the reading and the claims table."""
    more = printed_work_rise(got)
    return more if more is not None and work_covers(more, extra_ms, noise_ms) else None


def overlap(got: dict) -> str:
    """Why the messages' ms and the work's rise are not added: on CPU workers the stages' measured work is
    their CPU time, sends and receives included, so it holds the messages' time too ("" on GPUs, whose
    device time is read on its own)."""
    if not got["attn/ffn"]["row"].cpu_workers:
        return ""
    return ("; that work includes the messages' own CPU time (sends and receives), so the two overlap: they are "
            "not added")


def work_beside_rest(got: dict, rest: float, digits: int, other: str = "") -> str:
    """What the stages' measured work says of the ``rest`` ms the messages leave (as printed, ``digits``
    decimals; ``other``: "other " where the sentence named the messages' part first), where its rise falls
    short of the extra time by more than the spread (``work_rise`` is None): it accounts for up to its rise,
    which on CPU workers holds the messages' own CPU time too, and the rest is waiting, as section 8's line
    says (``work_note``); a rise as large as the rest could be all of it (the two overlap). "" where the rows
    carry no work: then the run did not measure it."""
    more = printed_work_rise(got)  # the table's per-stage ms, summed: the line's figure
    if more is None:
        return ""
    what = ("their CPU time, sends and receives included" if got["attn/ffn"]["row"].cpu_workers else
            "their device time")
    of = f"the {other}{ms_text(rest, digits=digits)} ms"
    if more >= rest:  # the work could be all of it: it overlaps the messages' own time
        return (f"the stages' measured work ({more:+.0f} ms, {what}) could account for all of {of}: it overlaps "
                "the messages' time, and this run does not split them further")
    if more <= 0:  # the work fell: none of the extra time is work
        return (f"of {of}, the stages' measured work accounts for none (it rose by {more:+.0f} ms, {what}): it "
                "is waiting")
    return f"of {of}, the stages' measured work accounts for up to {more:+.0f} ms ({what}); the rest is waiting"


def work_note(got: dict, extra_ms: float, noise_ms: float, digits: int = 1) -> str:
    """The stages' measured work (both workers, ``Row.work``: CPU time on CPU workers, which also covers
    their sends and receives; device time on GPUs) of the attention/feed-forward placement over the layers
    split's, set beside the extra step time (ms, ± ``noise_ms``, both as printed with ``digits`` decimals): with
    one micro-batch the stages take turns, so extra work shows in full in the step. A rise short of the extra
    time by less than its spread covers it within noise: no waiting is named. The rise is set against every
    reading of the extra time, as the messages' price is (``work_reach``): "covers the extra step time" only
    where it reaches them all. "" where the rows carry no work."""
    more = printed_work_rise(got)  # from the table's per-stage ms: the reader's own sum
    if more is None:
        return ""
    ms = lambda x, sign=False: ms_text(x, sign, digits)  # noqa: E731
    said = (f" The stages' measured work rose by {more:+.0f} ms against the layers split's (their CPU time "
            "on CPU workers, sends and receives included, summed from the table's ms per stage): "
            if got["attn/ffn"]["row"].cpu_workers else
            f" The stages' measured device time rose by {more:+.0f} ms against the layers split's (summed from "
            "the table's ms per stage): ")
    reached, missed, unsure = work_reach(got, more, extra_ms, noise_ms, digits)
    if not reached:  # short of the median by more than its spread
        return said + (f"less than the extra step time by more than its spread (± {ms(noise_ms)} ms); the other "
                       f"{ms(extra_ms - more)} ms is waiting, which the work leaves out (for a "
                       "message, or for the other stage).")
    if not missed and not unsure:
        return said + (f"that alone accounts for the extra step time at every reading of it, up to {reached[-1]}, "
                       "since with one micro-batch the stages take turns.")
    rest = (f"; the rest of the {'larger reading' if len(missed) == 1 else 'larger readings'}, beyond the "
            "work's rise, this run does not explain" if missed else "")
    return said + (f"that accounts for {covers_words(reached, missed, unsure, work_rounding(got))}: with one "
                   f"micro-batch the stages take turns, so the work explains those readings{rest}.")


def extra_readings(got: dict) -> list[tuple[float, str, int]]:
    """The readings of the extra time above its median that section 8's block prints, as printed: (ms, what
    it is, decimals). The messages' price and the work's rise are both set against these (one test for both)."""
    placed, layers, _ = medians_apart(got)
    return [(median_plus_spread(got), "the paired median plus its spread", 1),
            (placed - layers, "the table's median steps' difference", 0),
            (as_printed(extra_range(got)[1], 1), f"the highest of {len(got['extra_rounds'])} rounds", 1)]


def median_plus_spread(got: dict) -> float:
    """The paired median extra time plus its spread (ms), each as printed to 0.1 ms: the reading of the extra
    time that holds the spread already (``extra_readings``), so ``work_reach`` adds it to no other figure."""
    extra, noise = extra_time(got)[:2]
    return as_printed(extra, 1) + as_printed(noise, 1)


def work_reach(got: dict, more: float, extra_ms: float, noise_ms: float, digits: int) -> tuple[list, list, list]:
    """Which readings of the extra time the work's rise ``more`` (whole ms, as printed) covers, in words, which
    it does not, and which its own rounding leaves undecided: the median (``extra_ms`` ± ``noise_ms``, as printed:
    covered within its spread by the noise rule, ``work_covers``), then each of ``extra_readings``, covered only
    where reached even at the low end of the rise's rounding (``work_rounding``), missed only where past its high
    end, so that the readings it accounts for are the smallest ones, in order."""
    ms = lambda x, sign=False: ms_text(x, sign, digits)  # noqa: E731
    median = (f"the median extra time ({ms(extra_ms, True)} ms)" if more >= extra_ms else
              f"the median extra time within its spread ({ms(extra_ms, True)} ± {ms(noise_ms)} ms covers {more:+.0f})")
    if not work_covers(more, extra_ms, noise_ms):
        return [], [median], []
    reached, missed, unsure, slack = [median], [], [], work_rounding(got)
    for value, name, shown in sorted(extra_readings(got)):  # smallest first: "not 17.2 ms, 18 ms or 18.8 ms"
        # the rise summed from whole-ms figures lies anywhere within ± slack: reached only at its low end, missed
        # only past its high end (no spread on top); the median alone is read by the noise rule
        words = f"{value:.{shown}f} ms ({name})"
        (reached if more - slack >= value else missed if more + slack < value else unsure).append(words)
    return reached, missed, unsure


def work_rounding(got: dict) -> float:
    """How far ``printed_work_rise`` may be from the unrounded rise: it sums each stage's whole-ms work."""
    return sum_rounding(len(got["attn/ffn"]["row"].work_ms[0]) + len(got["layers"]["row"].work_ms[0]))


def reach_words(got: dict, more: float, extra_ms: float, noise_ms: float, digits: int) -> str:
    """``work_reach``'s lists in words, after "accounts for" (``covers_words``)."""
    return covers_words(*work_reach(got, more, extra_ms, noise_ms, digits), work_rounding(got))
