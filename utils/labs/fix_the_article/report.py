"""Lab 00's report after the checks: where the cost model missed the measured split, which cut each link
favours, what the memory budget allowed, and the take-aways. Split from ``checks``, which re-exports these names
for the notebook."""

from __future__ import annotations

import textwrap
from numbers import Number

from utils import claims
from utils.details import how_measured
from utils.labs.fix_the_article.checks import (  # the checks' own cases, plans and helpers
    CASES, MB, PLANS, Plan, SplitRun, UNSEEN_PLANS,
    WIDTH, _median, _try, _us, fits, judging_links,
    band_source, band_words, jumped_rounds, model_seconds, plan_cuts,
    us_ratio, verdict_of,
)
from utils.labs.fix_the_article.rounds import (
    JUMP, band_named, cancelled_words, median_jumped, plan_band, printed_fit, rule_words,
)


def prediction_misses(plan_split, link, timed: dict[str, SplitRun]) -> str:
    """Goal 3, read: each prediction beside the split's median round (the statistic of the report and of the
    fit), and how far the largest gap went; why a ping-pong left the fit's band is the report block's line on
    the link, pointed to (``_medians_in_band``), not printed twice."""
    pairs = []
    for plan in PLANS:
        x, _ = plan.case(1).batch_of()
        answer = _try(plan_split, plan.case(1).build(), x, link, plan.budget)
        if not (isinstance(answer, tuple) and len(answer) == 2 and isinstance(answer[1], Number)
                and answer[1] > 0 and plan.name in timed):  # changed since the report timed it
            return "- Your predictions changed since your cuts were timed: run the checks and the report again."
        pairs.append((plan.name, answer[1], _median(timed[plan.name].link_seconds())))
    # every ratio from the two times as printed (whole µs): a reader dividing them finds the printed figure
    named = ", ".join(f"{_us(p)} predicted, {_us(m)} measured ({us_ratio(m, p):.2f}x)" for _, p, m in pairs)
    miss = lambda p, m: max(us_ratio(m, p), us_ratio(p, m))  # noqa: E731 - over or under, as a factor
    worst = max(pairs, key=lambda t: miss(t[1], t[2]))
    side = "over" if us_ratio(worst[2], worst[1]) > 1 else "under"
    # a "gap", not a "miss": whether it is a miss of the model is judged against the fit's band after it
    return (f"- Your predictions against the split's median rounds, as in the report above: {named}. The "
            f"largest gap of the medians from their predictions, {worst[0]}, is "
            f"{miss(worst[1], worst[2]):.2f}x {side} the prediction; "
            f"{_miss_owner(timed[worst[0]], worst[1], *_run_band(link, timed[worst[0]]))}")


def _run_band(link, run: SplitRun) -> tuple[tuple[float, float], int | None]:
    """The band a timed cut is judged on, one that holds the sizes it sends (``plan_band``), as in the report."""
    return plan_band(link, [m.nbytes for m in run.messages])


def _miss_owner(run: SplitRun, predicted: float, band: tuple[float, float], included: int | None = None) -> str:
    """Whether a case's miss is the split's own, by the report's rule (every branch written): its rounds
    against the ping-pong of the same bytes in the same rounds (``verdict_of``, a sign test), then both
    medians against ``predicted`` and the fit's ``band``, in every branch (``owner_words`` where the rounds
    ran longer, printed once, in the report's block: pointed to here; ``_medians_in_band`` otherwise). Where the rule shows no difference, it says so, never that
    the two did not differ (a failure to show is not a finding)."""
    ratios = [us_ratio(a, b) for a, b in zip(run.link_seconds(), run.ping_pong_seconds())]  # as the table's
    verdict = verdict_of(ratios, jumped_rounds(run.ping_pong_seconds()))
    if verdict == "longer":  # the report's block prints whose miss it is (owner_words): pointed to, not repeated
        return ("by the report's rule its rounds ran longer than the ping-pong of the same bytes; whose miss it "
                "is, from both figures, is this plan's line in the report's block above.")
    if verdict == "shorter":
        return ("by the report's rule its rounds ran shorter than the ping-pong of the same bytes; "
                f"{_medians_in_band(run, predicted, band, included)}.")
    return ("by the report's rule its rounds were not shown to differ from the ping-pong of the same bytes "
            f"(that needs {rule_words(ratios, jumped_rounds(run.ping_pong_seconds()))}); "
            f"{_medians_in_band(run, predicted, band, included)}.")


def _medians_in_band(run: SplitRun, predicted: float, band: tuple[float, float], included: int | None = None
                     ) -> str:
    """Where the rounds did not show the split longer than the ping-pong of the same bytes: both medians
    against the prediction and the fit's band, named (every branch written). Inside the band the fit
    predicts no better than that for its own sizes: no miss of the model; outside it, a miss that this run
    does not show to be the split's own (the ping-pong's too where it left the band on that side). Where the
    ping-pong left the band, why is the report block's line on the link (``drift_sentence``, which reads every
    case out of the band): pointed to, not printed twice (t26_labs03). ``included``: the size ``fit_band``
    leaves out, where this cut sends it and ``band`` holds it (``plan_band``)."""
    split_x = us_ratio(_median(run.link_seconds()), predicted)
    pp_x = us_ratio(_median(run.ping_pong_seconds()), predicted)
    lo, hi = claims.as_printed(band[0], 2), claims.as_printed(band[1], 2)
    split, pp = claims.as_printed(split_x, 2), claims.as_printed(pp_x, 2)
    side_of_band = lambda x: "above" if x > hi else "under" if x < lo else "inside"  # noqa: E731 - as printed
    where = side_of_band(split)
    said = (f"against the prediction the split took {split_x:.2f}x, {where} {band_named(band, included)}, "
            f"and the ping-pong of the same bytes {pp_x:.2f}x, "
            f"{_ping_pong_pointed(side_of_band(pp))}")
    if where == "inside":
        return said + ": no miss of the model" + cancelled_words(side_of_band(pp))
    miss = "a miss" if where == "above" else "a miss under the prediction"
    too = (" (the ping-pong of the same bytes left the band on that side too)"
           if side_of_band(pp) == where else "")
    return said + f": {miss}, which this run does not show to be the split's own{too}"


def _ping_pong_pointed(side: str) -> str:
    """The ping-pong's side of the fit's band ("above", "under", "inside"); outside it, where the report's
    block says why (its line on the link), rather than that line again."""
    if side == "inside":
        return "inside it"
    return f"{side} it (why, as far as this run tells: the report's block above, its line on the link)"


def _best_cut(plan: Plan, link, runs: dict[str, SplitRun]) -> tuple[int, SplitRun] | None:
    """The fastest cut of ``plan`` that fits, by what its split's workers measured (the first of a tie)."""
    cuts = {cut: run for cut, run in plan_cuts(plan, runs).items() if fits(run, plan.budget)}
    return min(cuts.items(), key=lambda item: model_seconds(item[1], link)) if cuts else None


def link_choice_line(link, runs: dict[str, SplitRun]) -> str:
    """Whether the frozen plan's best cut changed with the link (every branch written): the visible answer; how
    this run's link ranks the two leading cuts is ``ranking_detail``'s, in the block below the take-aways."""
    plan = PLANS[2]
    best = {name: _best_cut(plan, fit, runs) for name, fit in judging_links(link).items()}
    said = "; ".join(f"on {name} cut {cut}, {run.bytes_per_step:,} bytes in {len(run.messages)} "
                     f"message{'s' if len(run.messages) > 1 else ''}" for name, (cut, run) in best.items())
    sizes = {run.bytes_per_step for _, run in best.values()}
    verdict = ("the best cut depends on the link: where alpha outweighs the bytes, one larger message beats "
               "two small ones" if len(sizes) > 1 else "the same traffic won on every link here")
    return f"- Where to cut, {plan.name}: {said}: {verdict}."


def ranking_detail(link, runs: dict[str, SplitRun], timed: dict[str, SplitRun] | None = None) -> str:
    """How this run's link ranks the frozen plan's two leading cuts (``_ranking_note``): the model's band and the
    timed messages' order, behind the take-aways' "Where to cut" answer in a collapsed block (t40_labs03 #1: one
    answer visible); "" where no two fitting cuts send other messages."""
    return _ranking_note(PLANS[2], link, runs, timed).strip()


def _ranking_note(plan: Plan, link, runs: dict[str, SplitRun], timed: dict[str, SplitRun] | None = None) -> str:
    """On this run's link, whether the fastest cut's lead over the fastest that sends other messages is larger
    than the fit's band could swap (every branch written): its own sizes ran lo..hi x its predictions
    (``fit_band``), so two predictions less than hi / lo apart may run in either order; within that, the model
    alone cannot rank them. Then what the timed messages of the same sizes measured (``_measured_order``), which
    may rank them on this machine: so the model's words never say that no finding was made (t32_labs03 #1)."""
    fitting = {cut: run for cut, run in plan_cuts(plan, runs).items() if fits(run, plan.budget)}
    traffic = lambda run: [m.nbytes for m in run.messages]  # noqa: E731 - cuts that send the same bytes tie
    times = sorted((model_seconds(run, link), cut) for cut, run in fitting.items())
    if not times:
        return ""
    first, cut1 = times[0]
    others = [(t, cut) for t, cut in times if traffic(fitting[cut]) != traffic(fitting[cut1])]
    if not others:
        return ""
    second, cut2 = others[0]  # the fastest cut that sends other messages than the fastest
    lo, hi, source = _swap_band(link, [fitting[cut1], fitting[cut2]])
    # both ratios from the figures as printed: the times to 0.1 µs, as the report's block prints the same
    # predictions (185.4 µs, not 185: t42_labs03 #2), the band's ends to two decimals
    apart = claims.half_up(claims.printed_ratio(second, first, 1, 1e-6), 2)
    swap = claims.printed_ratio(hi, lo)
    band = (f"the fit's band, {band_words((lo, hi))} (measured / predicted at {source}), is "
            f"{'wide enough' if apart <= swap else 'too narrow'} to swap two times {apart:.2f}x apart")
    measured = _measured_order({cut1: fitting[cut1], cut2: fitting[cut2]}, timed, plan.name)
    if apart <= 1.0:  # a tie as printed: no band, however narrow, orders two equal times (CI's run: 160 µs each)
        return (f" On this run's link the model gives cut {cut2} ({_tenth_us(second)}) and cut {cut1} ({_tenth_us(first)}) "
                f"the same time to two decimals (1.00x): the model alone cannot rank them.{measured}")
    if apart <= swap:
        return (f" On this run's link the model gives cut {cut2} ({_tenth_us(second)}) {apart:.2f}x the "
                f"time of cut {cut1} ({_tenth_us(first)}); {band}: the model alone cannot rank them.{measured}")
    return (f" On this run's link the model gives cut {cut2} ({_tenth_us(second)}) {apart:.2f}x the time "
            f"of cut {cut1} ({_tenth_us(first)}); {band}.{measured}")


def _tenth_us(seconds: float) -> str:
    """A model time to 0.1 µs, as the report's block prints the same prediction (``rounds.rows_words``)."""
    return f"{claims.as_printed(seconds, 1, 1e-6):,.1f} µs"


def _swap_band(link, compared: list[SplitRun]) -> tuple[float, float, str]:
    """The band that may swap the compared cuts, and its words: the fit's band (``fit_band``, its farthest size
    left out), but where a compared cut sends that very size, every size, that one included: the band must
    hold the sizes the cuts send (cut 1's 262,144 bytes, at 0.87x, makes 0.92-1.10x into 0.87-1.10x)."""
    (lo, hi), included = plan_band(link, [m.nbytes for run in compared for m in run.messages])
    if included is None:
        return lo, hi, band_source(link)
    return lo, hi, f"its own sizes, {included:,} bytes included (a compared cut sends it)"


def _measured_order(cuts: dict[int, SplitRun], timed: dict[str, SplitRun] | None,
                    plan: str | None = None) -> str:
    """Whether the report's timed messages of the same sizes as two cuts (``cuts``, the model's faster
    first) ran in the model's order, by their median rounds as printed (every branch written). A timed cut
    of another plan that sends the same messages stands in: the link's time depends on the messages only, but
    the step around them does not, so a cut timed in a plan other than ``plan`` says so (t38_labs03 #4)."""
    if not timed:
        return ""
    found = {}
    for cut, run in cuts.items():
        sizes = [m.nbytes for m in run.messages]
        found[cut] = next(((name, t) for name, t in timed.items() if [m.nbytes for m in t.messages] == sizes),
                          (None, None))
    (cut1, (name1, fast)), (cut2, (name2, slow)) = found.items()
    if fast is None or slow is None:
        missing = cut1 if fast is None else cut2
        # a timed cut of another plan may bear the same number and send other messages: say which are missing
        return (f" None of your timed cuts sent the messages of this plan's cut {missing} "
                f"({_messages_words(cuts[missing])}): this run measured no order of the two.")
    split = tuple(_us(_median(r.link_seconds())) for r in (fast, slow))
    split_order = _order_words(fast, slow, "link_seconds", explain=True)
    # a cut timed in another plan sent the same bytes inside another step: the reader is told which
    elsewhere = " and ".join(f"cut {cut}'s in \"{name}\"" for cut, name in ((cut1, name1), (cut2, name2))
                             if plan is not None and name != plan)
    timed_where = f" ({elsewhere}: the same bytes, another step around them)" if elsewhere else ""
    # the ± is explained where it is first printed: the split's words print it unless they read a tie
    return (f" The report timed messages of both sizes (medians of rounds taken at different moments): the "
            f"split's took {split[0]} for cut {cut1}'s and {split[1]} for cut {cut2}'s{timed_where}, "
            f"{split_order}; {_ping_pong_order(fast, slow, explain='±' not in split_order)}.")


def _messages_words(run: SplitRun) -> str:
    """A cut's messages in words: "one of 262,144 bytes", "two of 1,024 and 4,096 bytes"."""
    sizes = [m.nbytes for m in run.messages]
    count = {1: "one", 2: "two"}.get(len(sizes), str(len(sizes)))
    if len(set(sizes)) == 1:
        return f"{count} of {sizes[0]:,} bytes"
    return f"{count} of {', '.join(f'{n:,}' for n in sizes[:-1])} and {sizes[-1]:,} bytes"


def _ping_pong_order(fast: SplitRun, slow: SplitRun, explain: bool = True) -> str:
    """The ping-pong of the same sizes, in the model's order or not, where neither median is a jumped round
    (``median_jumped``); where one is, it says so beside that median and reads no order from the two: a jumped
    median is a busy spell of the link, not its speed at that size (every branch written). ``explain``: say
    what ± is (``_order_words``), where the sentence has not said it yet."""
    medians, any_jumped = [], False
    for run in (fast, slow):
        seconds = run.ping_pong_seconds()
        jumps = len(jumped_rounds(seconds))
        jumped = median_jumped(jumps, len(seconds))
        any_jumped |= jumped
        medians.append(_us(_median(seconds)) + (f" (a jumped round: {jumps} of {len(seconds)} rounds took over "
                                                f"{JUMP:.0f}x its fastest)" if jumped else ""))
    said = f"the ping-pong of the same sizes {medians[0]} and {medians[1]}"
    if any_jumped:
        return said + ": no order shown by them, a jumped median being a busy spell of the link, not its speed"
    return said + f", {_order_words(fast, slow, 'ping_pong_seconds', explain)}"


def spread_means(rounds: list[list[float]]) -> str:
    """What the ± beside two medians is (``_printed_spreads``, by ``claims.printed_spread``): from 4 rounds on,
    half the range *of the middle half* (not half the middle half of the whole range, a quarter of it, which
    read 264 ± 702 where 264 ± 13 was printed: t33_labs03 #1); with fewer, half the whole range."""
    middle = [len(seconds) >= 4 for seconds in rounds]
    if all(middle):
        return "± is half the range of the middle half of each one's rounds"
    if not any(middle):
        return "± is half the range of each one's rounds"
    return "± is half the range of the middle half of each one's rounds (of all of them, under 4 rounds)"


def _order_words(fast: SplitRun, slow: SplitRun, timing: str, explain: bool = True) -> str:
    """The model's order kept or reversed, by two medians at the microseconds the page prints, only where they
    stand apart beyond their rounds' noise; tied as printed, or no order shown (every branch written; not "too
    close to order": a median far from the other may lie inside its wide spread, t76_labs03: 109 beside 140 ±
    760 µs). The
    two medians come from different plans' rounds, taken at different moments: the course's noise rule between
    two runs (``claims.runs_agree``) reads no order where either median ± its rounds' spread covers the other
    (t30_labs03 #3: 105 µs and 103 µs, rounds 98-146 and 94-112 µs, were read as an order). An order read
    prints its ± too, and how far apart the two medians are (t32_labs03 #1: 196 µs and 351 µs, 1.79x apart,
    beside a model that put them 1.01x apart). ``explain``: say what ± is (``spread_means``) beside it."""
    rounds = [getattr(r, timing)() for r in (fast, slow)]
    (a, b), (da, db) = _printed_medians(rounds), _printed_spreads(rounds)
    if a == b:
        return "a tie as printed"
    both = f"{a:,.0f} ± {da:,.0f} µs and {b:,.0f} ± {db:,.0f} µs"
    both += f"; {spread_means(rounds)}" if explain else ""
    if claims.runs_agree(a, da, b, db):
        return f"no order shown: one median ± its rounds' spread covers the other ({both})"
    order = "the model's order" if a < b else "the opposite of the model's order"
    apart = claims.half_up(max(a, b) / (min(a, b) or 1.0), 2)  # the medians as printed (0 µs: its step, 1)
    return f"{order}, {apart:.2f}x apart, neither median ± its rounds' spread covering the other ({both})"


def _printed_medians(rounds: list[list[float]]) -> list[float]:
    """Each list of rounds' median, seconds, in the whole microseconds the page prints."""
    return [claims.as_printed(_median(seconds), 0, 1e-6) for seconds in rounds]


def _printed_spreads(rounds: list[list[float]]) -> list[float]:
    """Each list of rounds' ± in whole microseconds (``claims.printed_spread``: half the middle half's range
    from 4 rounds on, of the rounds as printed): how far one median may move between two moments."""
    shown = lambda s: claims.as_printed(s, 0, 1e-6)  # noqa: E731 - a round as the page prints it, µs
    return [claims.printed_spread(seconds, 0, shown) for seconds in rounds]


def memory_line(runs: dict[str, SplitRun]) -> str:
    """What freezing the first layer did to the cuts that fit under 6 MB (every branch written)."""
    learning, frozen = UNSEEN_PLANS[2], PLANS[2]
    n = {p: sum(fits(run, p.budget) for run in plan_cuts(p, runs).values()) for p in (learning, frozen)}
    total = len(frozen.cases())
    if n[frozen] > n[learning]:
        return (f"- Under {frozen.budget / MB:g} MB a device, {n[learning]} of {total} cuts fit while every "
                f"layer learns and {n[frozen]} with the first layer frozen: a frozen layer keeps its weights "
                "but needs no gradient.")
    return (f"- Under {frozen.budget / MB:g} MB a device, freezing the first layer did not add a cut that "
            f"fits ({n[learning]} and {n[frozen]} of {total}).")


def alpha_times_beta(link) -> str:
    """The size at which a message's bytes cost as much as its alpha, worked from alpha and beta as the link
    sentence prints them (µs to one decimal, GB/s to two), so that a reader who multiplies the printed pair
    finds it: "226.8 µs x 2.69 GB/s = 610,092 bytes (596 KiB)"."""
    alpha_us, beta_gbs = claims.as_printed(link.alpha, 1, 1e-6), claims.as_printed(link.beta, 2, 1e9)
    size = claims.half_up(alpha_us * beta_gbs * 1e3, 0)  # µs x GB/s = 1e3 bytes
    return (f"{alpha_us:,.1f} µs x {beta_gbs:.2f} GB/s = {size:,.0f} bytes "
            f"({claims.half_up(size / 1024, 0):,.0f} KiB)")


def take_aways(link_bytes, plan_split, link_fit, runs: dict[str, SplitRun],
               timed: dict[str, SplitRun] | None) -> None:
    """The lab's conclusions, with this run's figures; shown once both checks pass (they state the answers):
    ``timed``, what ``measured_report`` returned, is None until then."""
    if timed is None:  # measured_report times your cuts only once both checks pass
        print("⏳ not done yet: the take-aways appear once checks 1 and 2 pass (they state the answers)")
        return
    link = printed_fit(link_fit.fit)  # every worked figure from alpha and beta as printed (``printed_fit``)
    fc1, pool1, one, frozen = (runs[c.name] for c in CASES)
    share = lambda run: len(run.messages) * link.alpha / model_seconds(run, link)  # noqa: E731
    lines = [
        f"- What crosses a cut is the activation there, forward, and its gradient, backward, when anything "
        f"before the cut learns: {fc1.bytes_per_step:,} bytes a step for the CNN cut before fc1 at 64 images, "
        f"{pool1.bytes_per_step / fc1.bytes_per_step:.1f}x that after pool1. Where you cut decides the "
        f"traffic; the weights never move.",
        f"- With everything before the cut frozen, the backward pass stops at the cut: {frozen.bytes_per_step:,} "
        f"bytes, one message.",
        f"- Each message pays alpha: at 1 image alpha is {claims.percent(share(one))} of the time lesson 00's "
        f"model gives on this run's link for the CNN's cut before fc1, at 64 images "
        f"{claims.percent(share(fc1))}. Below alpha x beta = {alpha_times_beta(link)}, a "
        f"message's bytes cost less than its alpha.",
        link_choice_line(link, runs),
        memory_line(runs),
        prediction_misses(plan_split, link, timed),
        "- A split alone is not parallel: the second device waits for the first. Lesson 02 measures it, and "
        "pipelines micro-batches: more messages, each paying alpha.",
    ]
    for line in lines:
        print(textwrap.fill(line, WIDTH, subsequent_indent="  "))
    if ranking := ranking_detail(link, runs, timed):
        how_measured("the frozen plan's two best cuts, ranked on this run's link",
                     textwrap.fill(ranking, WIDTH - 4))
