"""Sentences of lesson 07 that read an inequality or a ranking from the run's figures, both ways, each worked
from the figures as printed (``utils.claims.as_printed``), so that a reader who redoes it finds the same."""

from utils import claims
from utils.lessons.tensor_parallel import inference
from utils.lessons.tensor_parallel.window_note import window_note

TOLERANCE = 0.05   # the lesson's chosen allowance for timing noise: 5 % of the figure compared against


RANK_SECONDS = ("step", "compute", "allreduce", "waited", "after_both", "after_other", "thread_cpu",
                "other_threads_cpu")   # a rank's figures in ``miss_table``, printed in ms to 2 decimals


def seconds_dict_as_printed(d: dict, keys) -> dict:
    """A copy of ``d`` with its seconds at ``keys`` as the page prints them (ms to 2 decimals, given back in
    seconds): the miss sentences work every difference, product and ratio from these, so that a reader who
    redoes one from ``report.miss_table`` finds the figure printed (20.22 - 19.18 is the +1.04 ms said)."""
    return d | {k: claims.as_printed(d[k], 2, 1e-3) * 1e-3 for k in keys if d.get(k) is not None}


def rank_as_printed(rank: dict) -> dict:
    """A rank's seconds as printed, the rows adding up as the reader adds them: inside the all-reduces =
    waiting + after both (where the calls were cut); the step is its wall time as every table prints it (the
    width table's 22.87 for the same round), and the compute, the step outside the all-reduces, is the step
    less inside, both as printed (rounding each part on its own once printed a step 0.01 ms off the wall)."""
    r = seconds_dict_as_printed(rank, RANK_SECONDS)
    ms = lambda *keys: claims.as_printed(sum(r[k] for k in keys), 2, 1e-3) * 1e-3  # noqa: E731
    if r.get("waited") is not None and r.get("after_both") is not None:
        r["allreduce"] = ms("waited", "after_both")
    if r.get("step") is not None and r.get("allreduce") is not None:
        r["compute"] = claims.half_up((r["step"] - r["allreduce"]) * 1e3, 2) * 1e-3
    return r


def cpu_row_verdict(m: dict) -> str:
    """The miss table's CPU row read against its model (``cost.miss``): a thread that holds its core through
    the step gets at least its compute's time in CPU, so each rank's CPU time should be >= its compute; below
    it by more than the 5 % tolerance, the thread lost its core that long. '' where the CPU was not timed.
    Each figure is the table's as printed (``rank_as_printed``: the compute is step - all-reduces as printed),
    so the line, the table and the subtraction a reader does from them agree."""
    ranks = [rank_as_printed(r) if r else r for r in m.get("ranks") or []]
    if not any(r and r.get("thread_cpu") is not None and r.get("compute") for r in ranks):
        return ""
    said = []
    for index, rank in enumerate(ranks):
        if not (rank and rank.get("thread_cpu") is not None and rank.get("compute")):
            continue
        cpu, compute = rank["thread_cpu"], rank["compute"]
        head = f"rank {index} {cpu * 1e3:.2f} ms against {compute * 1e3:.2f} ms"
        if cpu >= compute:
            said.append(f"{head}: at or above it, as the model says")
        elif compute - cpu <= TOLERANCE * compute:
            said.append(f"{head}: below it by {(compute - cpu) * 1e3:.2f} ms, within the 5 % tolerance "
                        f"({TOLERANCE * compute * 1e3:.2f} ms) the lesson allows for timing noise: within noise "
                        "of the model's floor, not a break of it shown")
        else:
            said.append(f"{head}: below it by {(compute - cpu) * 1e3:.2f} ms, beyond the 5 % tolerance: the "
                        f"model is broken there, the thread was off its core at least "
                        f"{(compute - cpu) * 1e3:.2f} ms of its compute")
    return ("The table's CPU row, the step thread's CPU time against its compute (its model: at least the "
            "compute, while the thread holds its core): " + "; ".join(said) + ".")


def real_width_sentence(rows: list[tuple], speedups: dict, width: int, tokens: int) -> str:
    """The datasheet pairs' modelled speed-up at a real width, read from the rows (``plan.datasheet_rows``:
    GPU, link, dtype, peak FLOP/s, link bytes/s; ``speedups`` keyed 'GPU, link'): whether the gain follows
    the ratio of peak FLOP/s to link rate, and, where two pairs share a GPU peak, what the link alone does."""
    ratio = {f"{gpu}, {link}": peak / bw for gpu, link, _, peak, bw in rows}
    by_ratio = sorted(ratio, key=ratio.get)
    follows = all(claims.as_printed(speedups[a], 1) >= claims.as_printed(speedups[b], 1)
                  for a, b in zip(by_ratio, by_ratio[1:]))
    listed = ", ".join(f"{speedups[k]:.1f}x on {k} ({ratio[k]:,.0f} FLOP a link byte)" for k in by_ratio)
    out = (f"At width {width:,}, {tokens} tokens, the same model gives, from the lowest ratio of peak "
           f"FLOP/s to link rate to the highest: {listed}, against a pair's 2x: "
           + ("the gain falls as the ratio rises, so the ratio of compute speed to link speed decides it, "
              "not the link alone" if follows else
              "the gain does not fall with every rise of the ratio: the ratio alone does not order the "
              "pairs"))
    same = {}
    for gpu, link, _, peak, bw in rows:
        same.setdefault(peak, []).append((bw, f"{gpu}, {link}"))
    for peak, pairs in same.items():
        if len(pairs) < 2:
            continue
        (slow_bw, slow), (fast_bw, fast) = min(pairs), max(pairs)
        if fast_bw == slow_bw:
            continue
        gained = claims.as_printed(speedups[fast], 1) > claims.as_printed(speedups[slow], 1)
        out += (f". Only pairs with the same GPU peak ({peak / 1e12:.0f} TFLOP/s) isolate the link: "
                f"{speedups[slow]:.1f}x on {slow} against {speedups[fast]:.1f}x on {fast}: "
                + ("the faster link keeps more of the 2x, which is why tensor parallelism is used inside an "
                   "NVLink domain where it can be" if gained else
                   "the faster link keeps no more of the 2x at this width"))
        break
    return out


def seconds_as_printed(seconds: float) -> float:
    """Seconds as the lesson prints them, in ms to 2 decimals (``claims.as_printed``), given back in seconds:
    the cells' arithmetic stays in seconds while working from the printed figures, so sums check by hand."""
    return claims.as_printed(seconds, 2, scale=1e-3) * 1e-3


def call_as_printed(link, nbytes: float) -> float:
    """One all-reduce of ``nbytes`` at section 4's fit as it prints it (alpha in whole us, beta in GB/s to
    2 decimals), in seconds: a reader who prices a call from the two printed figures finds the same ms."""
    alpha_us = claims.as_printed(link.alpha, 0, 1e-6)
    beta_gbs = claims.as_printed(link.beta, 2, 1e9)
    return alpha_us * 1e-6 + nbytes / (beta_gbs * 1e9)


def call_terms_as_printed(link, nbytes: float) -> tuple[float, float, float]:
    """One all-reduce of ``nbytes`` at section 4's fit, as its two terms print in whole us: (alpha us,
    bytes/beta us, their sum in seconds). Alpha is the figure section 4 prints (whole us) and beta its GB/s
    to 2 decimals; the sum is worked from the two printed terms and rounded half up to the ms the page
    prints (2 decimals), so "175 us + 115 us = 0.29 ms" checks by hand and alpha is one figure everywhere."""
    alpha_us = claims.as_printed(link.alpha, 0, 1e-6)
    bytes_us = claims.as_printed(nbytes / (claims.as_printed(link.beta, 2, 1e9) * 1e9), 0, 1e-6)
    return alpha_us, bytes_us, claims.half_up((alpha_us + bytes_us) / 1e3, 2) * 1e-3


def residual_allowance(model: float, call: float, residual: float) -> tuple[float, float, float, float]:
    """A measured call against the alpha-beta model (seconds), worked from the figures as printed (ms to 2
    decimals, the residual to a whole percent): (the call above the model, the excess the residual allows,
    the model plus that allowance, the part of the call beyond it), in seconds."""
    model, call = seconds_as_printed(model), seconds_as_printed(call)
    allowed = seconds_as_printed(model * (1 + claims.as_printed(residual, 2)))   # the residual: a whole per cent
    return call - model, allowed - model, allowed, call - allowed


def beyond_edge(beyond: float) -> int:
    """Where a call beyond the residual (seconds) lies, as printed (ms, 2 decimals): 1 past it by more than the
    last printed digit, 0 at its edge (exactly 0.01 ms beyond: one rounding step, no excess a reader can
    trust), -1 within it."""
    shown = claims.half_up(beyond * 1e3, 2)
    return 1 if shown > EDGE_MS else 0 if shown == EDGE_MS else -1


EDGE_MS = 0.01   # the last digit the call's ms print: a margin of one such step is the printing's, not the run's


def call_against_model(model: float, call: float, residual: float, parts: bool) -> str:
    """Section 1's measured all-reduce (``call``) read against the alpha-beta ``model`` and the fit's worst
    ``residual``, both ways, from the figures as printed. The residual's allowance is named as an excess
    (ms above the model) beside the call's own excess, so the two compare like with like; ``parts``: the
    call was timed with both ranks inside (the wait for the other rank left out)."""
    above, allowance, allowed, beyond = residual_allowance(model, call, residual)
    if beyond_edge(beyond) == 0:   # one step of the printed ms: no finding rests on the last digit (t30_0708)
        return (f"{above * 1e3:.2f} ms a call above the model; the fit's {residual:.0%} residual allows "
                f"{allowance * 1e3:.2f} ms of that excess (a call up to {allowed * 1e3:.2f} ms): at the edge of "
                f"the residual, {beyond * 1e3:.2f} ms beyond it, the last digit printed, too little to call an "
                "excess")
    if claims.half_up(beyond * 1e3, 2) > 0:   # ms as printed: no float dust decides it
        why = ("inside a pass the exchange itself cost more than the sweep's all-reduces, timed back to back "
               "with no compute between; this run does not time why" if parts else
               "the call also holds the rank's wait for the other to arrive, which alpha and beta do not price "
               "and which this run does not time apart")
        return (f"{above * 1e3:.2f} ms a call above the model; the fit's {residual:.0%} residual allows "
                f"{allowance * 1e3:.2f} ms of that excess (a call up to {allowed * 1e3:.2f} ms), so "
                f"{beyond * 1e3:.2f} ms lies beyond the residual: {why}")
    if beyond_edge(-(above + allowance)) == 0:   # the same edge below the model
        return ("below the model at the edge of its residual, 0.01 ms past it, the last digit printed: too little "
                "to call the exchange cheaper than the sweep's")
    if claims.half_up((above + allowance) * 1e3, 2) < 0:   # below the model by more than the residual allows
        return ("below the model by more than its residual: inside a pass the exchange cost less than the "
                "sweep's all-reduces; this run does not time why")
    return "within the fit's residual: the fixed cost and the bytes account for it"


def _beside(drawn: float, times: list[float]) -> str:
    """Where one pass (seconds) falls against a set of timed passes, judged on the figures as printed (ms, one
    decimal, as the caption prints them)."""
    lo, hi, d = (claims.as_printed(t, 1, scale=1e-3) for t in (min(times), max(times), drawn))
    where = ("faster than every one of" if d < lo else "slower than every one of" if d > hi else
             "within the range of")
    return f"{where} {len(times)} timed passes ({lo:.1f} to {hi:.1f} ms)"


def drawn_pass_caption(number: int, recorded: list[float], split_rounds: list[float],
                       alone_rounds: list[float], window: float | None = None, early: float = 0.0,
                       late: float = 0.0) -> str:
    """The line under section 1's Gantt chart: which recorded pass it draws (``number``, counting from 1, of
    the ``recorded`` passes, in seconds: rank 0's first span to its last, as the timed rounds time a pass)
    and how that pass compares with the timed rounds' split passes and one device's passes, so that a chart
    slower than every timed pass cannot pass for the verdict; and where the chart's ``window`` (both ranks,
    seconds; ``early``: rank 1's lead over rank 0; ``late``: its late return from the last all-reduce) is
    longer than the pass, by how much and why."""
    drawn = recorded[number - 1]
    shown = claims.as_printed(drawn, 1, scale=1e-3)   # ms, as the caption prints it
    fastest, slowest = (claims.as_printed(t, 1, scale=1e-3) for t in (min(alone_rounds), max(alone_rounds)))
    # "slower than every one" already says it is slower than the fastest: named only inside the range
    # (t33_0708 other #5: the caption said the one fact twice)
    above_fastest = (f", so slower than one device's fastest pass ({fastest:.1f} ms)"
                     if fastest < shown <= slowest else "")
    return (f"The chart draws recorded pass {number} of {len(recorded)}, {shown:.1f} ms, recorded after "
            f"the timed rounds with every span recorded: {_beside(drawn, split_rounds)} of the split, and "
            f"{_beside(drawn, alone_rounds)} on one device{above_fastest}: the chart shows who computes and who "
            "waits, in what order, not the speed-up (the timed rounds above give that; the block under the "
            "chart says more)."
            + ("" if window is None else window_note(drawn, window, early, late)))


def _relation(x: float, one: float) -> str:
    """A method's tokens a second against one device's, both as printed (whole numbers)."""
    x, one = claims.half_up(x, 0), claims.half_up(one, 0)   # as ``inference.tokens_text`` prints them
    return "below" if x < one else "level with" if x == one else "above"


def inference_plot_caption(got: dict) -> str:
    """One line under section 5's plot, read from its rows (``inference.inference_worker``'s): what the
    lines are, how far each method's tokens a second moved from the smallest batch to the largest, and where
    each two-device line lies against one device's, batch by batch, from the figures as printed."""
    n, rows = got["new_tokens"], got["rows"]
    first, last = rows[0], rows[-1]
    speed = lambda r, m: inference.tokens_per_s(r, m, n)  # noqa: E731  (the plot's y, as the table prints it)
    text = lambda r, m: inference.tokens_text(r, m, n)  # noqa: E731
    moved = ", ".join(f"{m} from {text(first, m)} to {text(last, m)}"
                      for m in ("one device", "tensor parallel", "pipeline"))
    placed = []
    for m in ("tensor parallel", "pipeline"):
        by = {}
        for r in rows:
            by.setdefault(_relation(speed(r, m), speed(r, "one device")), []).append(str(r["batch"]))
        if len(by) == 1:
            placed.append(f"{m}'s line lies {next(iter(by))} one device's at every batch")
        else:
            placed.append(f"{m}'s line lies " + ", ".join(
                f"{where} one device's at batch {' and '.join(batches)}" for where, batches in by.items()))
    return (f"The plot: tokens a second against the batch (both axes logarithmic), one line per method, the "
            "dashed and dotted lines their bounds"
            + ("; at batch 1 a step is one token of one request, so those points are the latency case"
               if first["batch"] == 1 else "")
            + f". From batch {first['batch']} to {last['batch']}, "
            f"{moved} tokens a second; " + "; ".join(placed)
            + " (as printed; the lines below judge the gaps against the rounds' spread).")


def inside_allreduces(comm: dict[str, float], window: tuple[float, float], calls: int) -> tuple[str, float]:
    """Section 1's chart's comm labels said in ms: each rank's time inside the all-reduces (``comm``: its
    share of the chart's ``window``) and the window, both as printed (2 decimals), each share worked from
    those; and the mean call in seconds, the ranks' printed time inside over their ``calls``, as a reader
    redoes it: half up, as a reader rounds (21.08 / 8 = 2.635 prints 2.64, not the float's 2.63)."""
    span = claims.as_printed(window[1] - window[0], 2, 1e-3)   # ms
    inside = inside_ms(comm, window)
    said = (f"time inside all-reduces, share of the chart's window ({span:.2f} ms, the pass drawn's first "
            "span to its last on either rank; the chart's comm labels): "
            + ", ".join(f"{k} {t:.2f} ms ({chart_share(t, span, comm[k])})" for k, t in inside.items()))
    return said, claims.half_up(sum(inside.values()) / max(calls, 1), 2) * 1e-3


def chart_share(ms: float, span: float, share: float) -> str:
    """A rank's share of the chart's window, the figure its comm label prints (``timeline._busy_text``:
    ``claims.percent``, half up, of the unrounded ``share``), so text and chart give one figure. Where the
    printed ms divide to another whole percent (7.48 / 27.20 = 27.5%, 28% half up, while the unrounded share
    is 27.4...%), the division is shown beside it, so the reader sees why."""
    label = claims.percent(share)   # half up, as the chart's label: 0.385 is 39%, where :.0% gives 38%
    worked = ms / max(span, 0.01)
    if claims.percent(worked) == label:
        return label
    return (f"{label} on the chart, from the unrounded times; {ms:.2f} / {span:.2f} = "
            f"{claims.half_up(worked * 100, 1):.1f}% as printed")


def inside_ms(comm: dict[str, float], window: tuple[float, float]) -> dict[str, float]:
    """Each rank's time inside the all-reduces in ms as the chart's comm labels print it (2 decimals), from
    its share ``comm`` of the chart's ``window``."""
    return {k: claims.as_printed(v * (window[1] - window[0]), 2, 1e-3) for k, v in comm.items()}


def parts_as_printed(parts: dict[str, dict], inside: dict[str, float]) -> dict[str, dict]:
    """Each rank's all-reduces cut in two (``parts``: seconds ``waited``, ``after_both``, ``after_other``) in
    ms as printed, cut from its printed time inside (``inside``, ms): the wait as printed, and the time after
    both arrived the rest, worked half up (7.74 - 0.01 = 7.73), so that each rank's two parts add up to its
    printed time inside and the ranks' parts to their printed sum, as a reader checks them."""
    shown = {}
    for k, p in parts.items():
        waited = claims.as_printed(p["waited"], 2, 1e-3)
        total = inside.get(k, claims.as_printed(p["waited"] + p["after_both"], 2, 1e-3))
        after_both = max(claims.half_up(total - waited, 2), 0.0)
        # after the other had returned is a part of after_both: never printed above it
        shown[k] = {"waited": waited, "after_both": after_both,
                    "after_other": min(claims.as_printed(p["after_other"], 2, 1e-3), after_both)}
    return shown


def waiter_of(ranks: list[dict]) -> int:
    """The rank that waited for the other, read from the two ranks' measured waits as printed (ms, 2
    decimals): the longer wait; where the two print equal (both 0.00 ms, say), the faster to compute, the one
    that would have waited. A rank can wait for one that computed no longer: it arrived late for another
    reason (a late return from the last all-reduce), so the compute alone does not say who waited."""
    waits = [claims.as_printed(r["waited"], 2, 1e-3) for r in ranks]
    if waits[0] != waits[1]:
        return int(waits[1] > waits[0])
    return int(claims.as_printed(ranks[1]["compute"], 2, 1e-3) < claims.as_printed(ranks[0]["compute"], 2, 1e-3))


def wait_reading(ranks: list[dict], waiter: int) -> dict:
    """Whether rank ``waiter``'s wait inside its all-reduces is the other rank finishing its compute late: the
    one rule that section 4's cause and its collapsed evidence both read, from the figures as printed (ms, 2
    decimals). The other rank finished late only where it computed longer beyond the 5 % timing tolerance (in
    ms, as the compute's own check: the gap against 5 % of the waiter's compute, rounded half up to the 0.01 ms
    printed, so a reader compares two printed ms): a gap inside the tolerance is noise, whatever share of the
    wait it covers, so it names no cause."""
    other = 1 - waiter
    ms = [claims.as_printed(r["compute"], 2, 1e-3) for r in ranks]
    gap = claims.half_up(ms[other] - ms[waiter], 2)   # how much longer the other rank computed
    wait = claims.as_printed(ranks[waiter]["waited"], 2, 1e-3)
    allowed = claims.half_up(TOLERANCE * ms[waiter], 2)   # the tolerance in ms, as printed
    beyond = gap > allowed
    share = claims.half_up(100 * gap / wait, 0) if gap > 0 and wait else 0.0
    late = gap > 0 and beyond
    return {"waiter": waiter, "other": other, "ms": ms, "gap": gap, "wait": wait, "allowed": allowed,
            "beyond": beyond, "share": share, "late": late,
            "other_wait": claims.as_printed(ranks[other]["waited"], 2, 1e-3)}   # the wait the other way


def wait_words(r: dict) -> str:
    """``wait_reading`` said: the gap, the tolerance, its share of the wait, and the one conclusion."""
    w, o, ms, gap, wait = r["waiter"], r["other"], r["ms"], r["gap"], r["wait"]
    if gap <= 0:
        return (f"rank {w}, which waited {wait:.2f} ms, computed no less than rank {o} ({ms[w]:.2f} against "
                f"{ms[o]:.2f} ms): its wait is not rank {o} finishing its compute late (a longer compute); rank {o} "
                f"reached the all-reduces late for another reason")
    side = "beyond" if r["beyond"] else "within"
    said = (f"rank {o} computed {gap:.2f} ms longer than rank {w} ({side} the lesson's 5 % timing "
            f"tolerance: 5 % of rank {w}'s {ms[w]:.2f} ms is {r['allowed']:.2f} ms), ")
    if not wait:
        return said + f"and rank {w} did not wait for it (0.00 ms): " + _no_wait(r)
    said += f"{gap:.2f} / {wait:.2f} = {r['share']:.0f}% of the {wait:.2f} ms rank {w} waited for it: "
    # a cause is named only from a gap that clears the tolerance; inside it the gap is noise (t42_0708 #3)
    return said + (f"the wait is rank {o} finishing its compute late" if r["late"] else
                   f"a gap within the tolerance is noise, so this run does not show rank {o}'s compute as the "
                   "wait's cause")


def _no_wait(r: dict) -> str:
    """``wait_words``'s close where rank w waited 0.00 ms for the longer-computing rank o: what rank o's longer
    compute cost, and the wait the other way read from rank o's own measured wait, so "no rank finished late"
    is said only where both ranks' waits print 0.00 ms."""
    w, o, other_wait = r["waiter"], r["other"], r.get("other_wait", 0.0)
    said = (f"rank {o} finished its compute late, but no wait came of it" if r["late"] else
            f"rank {o}'s longer compute cost no wait")
    if other_wait:
        return said + (f"; rank {o} waited {other_wait:.2f} ms for rank {w}, which computed no longer: rank "
                       f"{w}'s late arrival, not a longer compute")
    return said if r["late"] else said + f", and rank {o} did not wait either: no rank finished its compute late"


def ruled_apart(sentence: str) -> tuple[str, str]:
    """The miss's cause (``report._cause``'s sentence) cut from what the run ruled out and left open ("Ruled
    out: ... Not ruled out: ...", up to "What would show"): the answer stays short, and the two lists go to
    the collapsed block. ("", where the sentence has no such lists.)"""
    head, found, rest = sentence.partition(" Ruled out: ")
    if not found:
        return sentence, ""
    ruled, found, tail = rest.partition(" What would show")
    return head + (" What would show" + tail if found else ""), "Ruled out: " + ruled


def inside_split(ranks: dict[str, dict]) -> str:
    """The two ranks' time inside the all-reduces (``ranks``: each rank's ``waited``, ``after_both`` and of it
    ``after_other``, ms as printed) cut three ways, each summed over the ranks: the wait for the other rank (no
    byte moves), the exchange with both inside, and a rank staying after the other had returned (no
    exchange either); each part's share of the whole, and the largest named, so the page never calls it
    the transfer when it is not."""
    waited = claims.half_up(sum(p["waited"] for p in ranks.values()), 2)
    late = claims.half_up(sum(p["after_other"] for p in ranks.values()), 2)
    exchange = claims.half_up(sum(p["after_both"] - p["after_other"] for p in ranks.values()), 2)
    total = claims.half_up(waited + exchange + late, 2)
    parts = {"waiting for the other rank, still computing (no byte moves then)": waited,
             "the exchange itself, both ranks inside": exchange,
             "a rank staying inside after the other had returned (no exchange either)": late}
    shares = {what: claims.half_up(100 * ms / max(total, 0.01), 0) for what, ms in parts.items()}
    # 4% + 96% + 1% printed beside one whole: say why they miss 100 (t36_0708 #3)
    note = (f" (each share rounded on its own: they add to {sum(shares.values()):.0f}%)"
            if total and sum(shares.values()) != 100 else "")
    said = (f"The two ranks' {waited:.2f} + {exchange:.2f} + {late:.2f} = {total:.2f} ms inside the all-reduces"
            f"{note}: " + "; ".join(f"{ms:.2f} ms ({shares[what]:.0f}%) {what}" for what, ms in parts.items()))
    largest = max(parts.values())
    if list(parts.values()).count(largest) > 1:
        return said + ". No one part is the largest"
    name = next(what for what, ms in parts.items() if ms == largest).split(" (")[0]
    return said + ". The largest part is " + name


def residual_reach(rows: list[dict], residual: float) -> str:
    """What the alpha-beta fit's worst residual does to the model's speed-ups (section 4's width table,
    ``cost.analyse`` rows: one, comm, predicted in seconds), worked from the table's ms as printed and the
    residual as its whole per cent. An all-reduce off by R moves a speed-up by the factor 1 / (1 + R x share),
    share being the all-reduces' part of the split step: the larger the share, the further it moves. The
    widths where that share is most of the step are read from the printed shares, never assumed."""
    big = rows[-1]
    one_ms, comm_ms = (claims.as_printed(big[k], 2, 1e-3) for k in ("one", "comm"))
    r_shown = claims.as_printed(residual, 2)
    low_x, high_x = (claims.half_up(one_ms / (one_ms / 2 + comm_ms * k), 2)
                     for k in (1 + r_shown, max(1 - r_shown, 0.0)))
    # each width's share as printed: whole per cent, half up, from the table's two ms columns
    shares = {r["width"]: claims.percent(claims.printed_ratio(r["comm"], r["predicted"], 2, 1e-3))
              for r in rows}
    points = {w: int(p[:-1]) for w, p in shares.items()}   # the printed whole per cents, to compare
    most = [w for w in points if points[w] > 50]
    top = max(points, key=points.get)   # the width with the largest printed share
    where = (f"the all-reduces are most of the split step at width{'s' * (len(most) > 1)} "
             + ", ".join(f"{w} ({shares[w]})" for w in most) if most else
             f"at no width swept are they most of it (the largest share, {shares[top]}, at width {top})")
    return (f"a predicted all-reduce may be off by {residual:.0%}, which moves the model's speed-up at "
            f"width {big['width']} between {low_x:.2f}x and {high_x:.2f}x (the all-reduces are "
            f"{shares[big['width']]} of its split step); the larger their share of a split step, the further "
            f"in proportion the residual moves its speed-up, and {where}")


def compute_links(inside: float, apart: float, half: float | None = None) -> dict:
    """The compute's path from the model's t1/2 to the longer-step rank's compute inside the step, through the
    shard measured apart with both ranks computing (seconds in), in ms as printed: each link's step and its
    5 % allowance (of the figure it starts from), each worked from the printed figures, half up. Without
    ``half`` only the link inside the step."""
    inside_ms, apart_ms = claims.as_printed(inside, 2, 1e-3), claims.as_printed(apart, 2, 1e-3)
    links = {"inside_ms": inside_ms, "apart_ms": apart_ms,
             "in_step": claims.half_up(inside_ms - apart_ms, 2),
             "in_step_allowed": claims.half_up(TOLERANCE * apart_ms, 2)}
    if half is not None:
        half_ms = claims.as_printed(half, 2, 1e-3)
        links.update(half_ms=half_ms, to_shard=claims.half_up(apart_ms - half_ms, 2),
                     allowed=claims.half_up(TOLERANCE * half_ms, 2))   # t1/2's 5 %: the shard's and the sum's
    return links


def within_words(step: float, allowed: float) -> str:
    """A link's own verdict against its 5 % allowance, both as printed: a tie is within."""
    return f"{'within' if step <= allowed else 'beyond'} its 5 % ({allowed:.2f} ms)"


def step_beside_shard(inside: float, apart: float, half: float | None = None) -> str | None:
    """The longer-step rank's compute inside the step (one round) beside the shard measured apart with both
    ranks computing (seconds), where the two differ by no more than the lesson's 5 % tolerance, worked from
    the ms as printed; None beyond it (the caller then takes the gap apart). The difference is printed, not
    only judged: a chain of tolerances each passed can still add up to a miss, so the reader sees it, and
    with ``half`` (the model's t1/2) the chain is added up against the miss's compute part."""
    k = compute_links(inside, apart, half)
    extra, allowed = k["in_step"], k["in_step_allowed"]
    if abs(extra) > allowed:
        return None
    return (f"The longer-step rank's compute inside the step ({k['inside_ms']:.2f} ms) differs by "
            f"{abs(extra):.2f} ms from the shard measured apart with both ranks computing "
            f"({k['apart_ms']:.2f} ms): within the 5 % tolerance ({allowed:.2f} ms) this lesson allows for "
            "timing noise, so the step added nothing measurable to the shard's work beyond that noise" + (
                f"; those {extra:.2f} ms are not timed apart in this run" if extra > 0 else "")
            + _chained(k) + ".")


def _chained(k: dict) -> str:
    """Where the compute inside the step passed t1/2's 5 % though the step's own link (the shard apart to the
    step) passed its 5 %: the two links (t1/2 to the shard apart, and the shard to the step), each said by
    its own verdict, named and added up, so the miss's compute part is accounted for beside "added nothing
    measurable". '' where there is no such sum (no t1/2, a link not above zero, or the sum within)."""
    if "half_ms" not in k:
        return ""
    to_shard, in_step, allowed = k["to_shard"], k["in_step"], k["allowed"]
    total = claims.half_up(to_shard + in_step, 2)
    if not (to_shard > 0 and in_step > 0 and total > allowed):   # the step's link within, the sum beyond
        return ""
    return (f". Added up from t1/2 ({k['half_ms']:.2f} ms), the compute went {to_shard:.2f} ms to the shard "
            f"apart, {within_words(to_shard, allowed)}, and {in_step:.2f} ms more inside the step, "
            f"{within_words(in_step, k['in_step_allowed'])}: {total:.2f} ms together, beyond the 5 % of t1/2 "
            f"({allowed:.2f} ms); that excess is the compute's part of the miss counted above")


def off_core(slow: dict) -> tuple[float, float]:
    """Seconds of the slower rank's compute its thread spent off its core, as far as its CPU time (read over
    the whole step, all-reduces included) bounds them: at least the compute less all of that CPU time, at most
    the compute less the CPU time left after all of its time inside the all-reduces is taken out (where it
    may have used CPU too)."""
    least_cpu = max(slow["thread_cpu"] - slow["allreduce"], 0.0)   # the CPU its compute can have had
    return max(slow["compute"] - slow["thread_cpu"], 0.0), max(slow["compute"] - least_cpu, 0.0)


def off_core_printed(slow: dict) -> tuple[float, float, float]:
    """``off_core``'s two bounds in ms as printed, with the lesson's 5 % of the compute as printed (half up):
    every verdict on the time off the core compares these, so a bound printed as its tolerance is within."""
    low, high = off_core(slow)
    compute_ms = claims.as_printed(slow["compute"], 2, 1e-3)
    return (claims.as_printed(low, 2, 1e-3), claims.as_printed(high, 2, 1e-3),
            claims.half_up(TOLERANCE * compute_ms, 2))


def core_loss(slow: dict, miss: float, late: float = 0.0) -> tuple[str, str]:
    """``core_losses``'s words, its candidates left open joined in one clause."""
    ruled, open_ = core_losses(slow, miss, late)
    return ruled, "; ".join(open_)


def core_losses(slow: dict, miss: float, late: float = 0.0) -> tuple[str, list[str]]:
    """The step's thread losing its core, set against the compute's miss part (``miss``: seconds beyond t1/2
    and its 5 %), both as printed: words for 'ruled out' where the most time off its core is smaller than that
    part, so it cannot be the whole of it (or no part is left), with 'part of it' still open where that most
    is above 0 (t35_0708 #1); else ('', the candidates 'not ruled out', one string each, so a caller can
    count them). Both empty where the least time off its core already passes 5 % of the compute: a measured
    candidate, said with the cores' sharing instead. ``late``: seconds the rank stayed inside the all-reduces
    after the other had returned, given where the all-reduces' part of the miss is above 0: ruling the core
    out for the compute says nothing of that late return, which the time off its core may hold."""
    low_ms, high_ms, tol_ms = off_core_printed(slow)
    if low_ms > tol_ms:
        return "", []
    late_ms = claims.as_printed(late, 2, 1e-3)
    inside = [f"a thread of the longer-step rank losing its core inside the all-reduces (late return "
              f"{late_ms:.2f} ms, off its core at most {high_ms:.2f} ms over the step)"   # no ';': it parts a list
              ] if late_ms > 0 and high_ms > 0 else []
    miss_ms = claims.as_printed(miss, 2, 1e-3)
    if miss_ms <= 0:
        return ("the step's thread losing its core as the cause of the compute's part of the miss (none "
                "beyond t1/2 and its 5 %)"), inside
    if high_ms < miss_ms:   # not the whole; any time off its core may still be a part of it
        part = [f"the step's thread losing its core for part of the compute's miss (off it {low_ms:.2f} to "
                f"{high_ms:.2f} ms of the {miss_ms:.2f} ms beyond t1/2 and its 5 %)"] if high_ms > 0 else []
        return (f"the step's thread losing its core as the whole of the compute's miss (off it at most "
                f"{high_ms:.2f} ms, less than the {miss_ms:.2f} ms beyond t1/2 and its 5 %, below)"), part + inside
    return "", [f"the step's thread losing its core during the compute (off it {low_ms:.2f} to {high_ms:.2f} "
                f"ms, below, which can cover the {miss_ms:.2f} ms beyond t1/2 and its 5 %)"] + inside


def step_added_nothing(m: dict, slow: dict, part: float) -> tuple[str, str] | None:
    """The compute's part of the miss (``part``, seconds) where the shard was measured apart with both ranks
    computing and the step's own link (that shard to the compute inside the step) lies within its 5 %, as
    printed: where the part lies along the printed links from t1/2, each by its own verdict, naming no cause
    for what is within noise; and the step's additions (gloo's threads, the all-reduces' copies) as a
    candidate left open, not named. None where the shard was not measured apart or the step's link is
    beyond."""
    together = (m.get("corun") or {}).get("together")
    if not together or m.get("model_compute") is None:
        return None
    k = compute_links(slow["compute"], together, m["model_compute"])
    if abs(k["in_step"]) > k["in_step_allowed"]:
        return None
    where = (f"from t1/2 ({k['half_ms']:.2f} ms) to the shard measured apart with both ranks computing "
             f"({k['apart_ms']:.2f} ms) {k['to_shard']:+.2f} ms, "
             f"{within_words(k['to_shard'], k['allowed'])}; "
             f"then inside the step ({k['inside_ms']:.2f} ms) {k['in_step']:+.2f} ms, "
             f"{within_words(k['in_step'], k['in_step_allowed'])}")
    said = (f"No cause found: the compute's part of the miss ({part * 1e3:.2f} ms beyond t1/2 and its 5 %) "
            f"builds up along two links, {where}. The step added nothing measurable, and "
            + ("the shard measured apart beside the other rank's was already past t1/2's 5 %: why is not "
               "timed apart in this run." if k["to_shard"] > k["allowed"] else
               "each link lies within its noise: only their sum passes t1/2's 5 %."))
    return said, (f"gloo's threads and the all-reduces' copies passing through the core and its caches "
                  f"(inside the step {k['in_step']:+.2f} ms against the shard apart, within noise)")
