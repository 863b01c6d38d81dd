"""Lesson 09's rows whose evidence is timed on two workers or on the link: A21 (inference on two devices), B2
(transfer delay), B8 (compression), B10 (a faster network) and B22 (the case study's CNN under DDP). Each
figure is printed with its spread and read by the course's noise rule (``utils.claims.speedup_verdict``);
messages are priced at ONE alpha and beta, the machine profile's (lesson 00's ledger ``link_alpha`` and
``link_beta``), and every other time of a small message is named as what it is. Used by ``verdicts``.
"""

from __future__ import annotations

from utils import claims
from utils.lessons.articles_checked import sections
from utils.lessons.articles_checked.checks import (_median, busy_note, cnn_ddp_rounds,
                                                   paired, rounds_verdict, sizes_out_of_order, small_share,
                                                   tensor_parallel_rounds, too_busy)
from utils.lessons.articles_checked.evidence import CNN_BATCH, CNN_STEPS, LINK_REPEATS, PASS_ROUNDS, small_gpt_words
from utils.lessons.articles_checked.figures import (DEVICES, PACKED_BOUND, _sends, cnn_rounds,
                                                    compression_rounds, fixed_cost, quote, recorded_verdict,
                                                    rounds_above_words, rounds_finding, rounds_record, spread_of)
from utils.lessons.articles_checked.bench_lessons import figure_text, run_figures  # two runs, one rule
from utils.lessons.articles_checked.sources import ARITHMETIC, MEASURED, Part, two_devices
from utils.lessons.articles_checked.lesson_01_pairs import GAP_BETWEEN_RUNS  # one wording for a gap between runs
from utils.lessons.start_here.line_check import EDGE  # lesson 00's rule: what one noisy median may miss by
from utils.lessons.model_split.noise import round_text  # lesson 02's one rounding: 1.005x shows its side of 1x
# shared printers and row B8's parts, each in a module of its own; re-exported: the tests read them here
from utils.lessons.articles_checked.timed_words import _us, rounds_above_note, rounds_words, size_words  # noqa: F401
from utils.lessons.articles_checked.compressed_sends import (APART, PARTS_GAP, b8, b8_in_this_run,  # noqa: F401
                                                             condition_words, medians_words, other_timing_words,
                                                             parts_gap_words, per_round_words, saved_words)
# the decode on two workers (rows A21, B2); re-exported: the tests read them here
from utils.lessons.articles_checked.decode_loss import (decode_priced, decode_times,  # noqa: F401
                                                        decode_words, one_way_words, profile_link)


def rounds_found_here(m) -> dict[str, str]:
    """This page's own paired rounds that lesson 02's rule reads as a finding to explain (a round past 2x, or
    above the bound and above the median + the rounds' spread), by list, each with its figures, so the note
    under §1's counts names them as it names the ledger's (``report.QUOTED_BY`` says which rows quote each list)."""
    p, cnn, packed = m.get("passes") or {}, m.get("cnn_ddp"), m.get("compressed")  # each where it was timed
    lists = {"tensor parallel rounds": ("tensor-parallel passes", p.get("tensor parallel rounds"),
                                        p.get("bound", DEVICES), DEVICES),
             "article split rounds": ("article's split", p.get("article split rounds"), ARTICLE_SPLIT_BOUND,
                                      DEVICES),
             "cnn_ddp rounds": ("CNN on two DDP workers", None if cnn is None or isinstance(cnn, Exception)
                                else cnn_rounds(cnn), 2.0, DEVICES),
             "compressed rounds": ("packed way", packed and compression_rounds(packed), PACKED_BOUND, None)}
    found = {}
    for name, (label, ratios, bound, devices) in lists.items():
        if len(ratios or []) < 2:  # a fastest pass alone, or not timed: no single rounds to read
            continue
        record = rounds_record(ratios, bound, devices)
        if rounds_finding(record):
            found[name] = (f"this page's {label}, {record['value']:.2f}x against a bound of {bound:.2f}x, by "
                           f"its single rounds: {rounds_above_words(record)}")
    return found


def split_rounds_note(m) -> str:
    """``rounds_above_note`` for the article's split against its 1x bound (halves that take turns)."""
    return rounds_above_note(m["passes"].get("article split rounds") or [], ARTICLE_SPLIT_BOUND)


def article_split_figure(m) -> str:
    """The article's split over one device as rows A11 and A21 print it: the median of its paired rounds with
    their spread (as row A19 quotes it), or its fastest pass, labelled, where the passes kept no rounds."""
    rounds = m["passes"].get("article split rounds")
    if rounds:
        return f"{rounds_words(rounds)} one device's speed"
    return (f"{m['passes']['article split']:.2f}x one device (fastest pass against one device's fastest, "
            f"over {PASS_ROUNDS} paired rounds: no rounds kept)")


# --- The machine profile's link: one alpha ---------------------------------------------------------------------


def profile_alpha_words(m) -> str:
    """"the machine profile's alpha (lesson 00): 74 µs", or what to run where lesson 00 has not recorded it."""
    link = profile_link(m)
    if link is None:
        return "the machine profile's alpha: not recorded yet (run lesson 00)"
    return f"the machine profile's alpha (lesson 00): {link[0] * 1e6:.0f} µs"


def out_of_order_words(m) -> str:
    """Where any larger message took less time than a smaller one (``sizes_out_of_order``): every such pair,
    whatever their sizes, and why rows B2 and B10 read neither share from these times ("" where in order)."""
    found = sizes_out_of_order(m)
    if not found:
        return ""
    # "; " after the verdict: each pair a clause of its own, so a short cell keeps the verdict whole (t37 run's
    # B2: a 16 KiB message slower than four larger ones made the verdict's clause too long to show)
    return (f"; INCONCLUSIVE: this run's message times are out of order beyond the {EDGE:.0%} one noisy median "
            f"may miss by (lesson 00's rule), which no bytes explain; "
            f"{inversions_words(m, found)}; so neither the fixed cost's share (row B2) nor the bytes' share "
            "(row B10) is read from them")


def inversions_words(m, found: list[tuple[int, int]]) -> str:
    """"the 4 KiB message (1942 µs) took longer than the 256 KiB (191 µs) and 4 MiB (1256 µs) ones": each
    smaller message that took longer, with every larger one that took less time, in whole µs as printed."""
    us = {n: _us(t) for n, t in _sends(m).items()}
    said = []
    for small in dict.fromkeys(a for a, _ in found):
        larger = [f"{size_words(b)} ({us[b]} µs)" for a, b in found if a == small]
        listed = ", ".join(larger[:-1]) + " and " + larger[-1] if len(larger) > 1 else larger[0]
        said.append(f"the {size_words(small)} message ({us[small]} µs) took longer than the {listed} "
                    f"one{'s' if len(larger) > 1 else ''}")
    return "; ".join(said)


# --- The rows ------------------------------------------------------------------------------------------------


def a21(m):
    p, where = m["passes"], two_devices(m["plan"], m["hw"])
    ratios = tensor_parallel_rounds(m)
    said = rounds_verdict(ratios, p["bound"], "slower than one device")
    parts = [Part(f"{m['setups']['07']}, tensor parallel: {rounds_words(ratios)} one device's speed, bound "
                  f"{p['bound']:g}x: {said}{rounds_above_note(ratios, p['bound'])}; the article's split in its "
                  "own paired rounds (row A11): "
                  f"{article_split_figure(m)}{busy_note(m, 'passes', 2)}", MEASURED, where)]
    if m["results"].get("tensor_parallel"):  # lesson 07 §1's run of the same blocks (the row's why compares)
        parts.append(quote(m, "tensor_parallel", lambda r: lesson_07_words(m, r)))
    if m["results"]["decode"]:
        mlp = m["results"].get("tensor_parallel_mlp")  # lesson 07's split MLP step, where recorded
        parts.append(quote(m, "decode", lambda r: f"{tensor_parallel_block_words(r, mlp and mlp.record)}; "
                                                  "decoding one token at a time (KV cache: each layer keeps the "
                                                  "keys and values of the tokens so far, so a new token computes "
                                                  f"only its own; batch 1): {decode_words(r)}"))
    return parts


def tensor_parallel_block_words(record: dict, lesson_07: dict | None = None) -> str:
    """make bench's tensor-parallel figure with its set-up, as its note names it: "an MLP block (...), forward
    and backward, on two workers: 1.50x one device's speed, bound 2x"; beside it lesson 07's split MLP step
    (``lesson_07``: its ledger record, ``tensor_parallel_mlp_step``) where recorded, both figures with their ±
    and whether the two runs agree by the course's rule between runs (``claims.runs_agree``); where lesson 07
    has not recorded it, that this row does not compare the two runs."""
    setup = record.get("note", "").split(", gloo")[0].split(";")[0]
    head = (f"{setup or 'its tensor-parallel block'}, on two workers: {record['value']:.2f}x one device's speed, "
            f"bound {record['bound']:g}x (another set-up than lesson 07's blocks above: one MLP block, and "
            "training's backward pass too; make bench's own run")
    if lesson_07 is None:
        return head + (": lesson 07 times its blocks in its own run, and this row does not compare the two "
                       "runs)")
    (bx, bs, brounds, _), (lx, ls, lrounds, _) = run_figures(record), run_figures(lesson_07)
    said = (f", {figure_text(bx, bs, brounds)}; lesson 07's own run of its split MLP step "
            f"({lesson_07.get('what', 'one MLP block').split(': the median')[0]}), {figure_text(lx, ls, lrounds)}")
    if claims.runs_agree(bx, bs, lx, ls):
        return head + said + ": within noise of each other (one median ± its spread covers the other's))"
    return head + said + (": neither median ± its spread covers the other's, so the two runs disagree, which "
                          "neither run measures the cause of)")


def b2(m):
    # The measured times themselves, not a fit: a fit can miss a size by tens of per cent.
    link, t, sec = m["link"], m["threads"], _sends(m)
    share = small_share(sec)  # per cent, from the two times as printed (whole µs), as the check reads it
    if sizes_out_of_order(m):  # times out of order: no share is read from them (said at the end)
        order = "no share of the fixed cost read from them (a larger message took less time, below"
    elif _us(sec[4]) == _us(sec[2**12]):  # equal as printed: no order to read between them
        order = "both almost all fixed cost (the two took the same, as printed"
    elif share > 100:  # a smaller message that took longer: lesson 00's 10% rule says whether that is noise
        order = f"both almost all fixed cost ({slower_small_words(m)}"
    elif share > 50:  # row B2's check: the fixed cost is most of a 4 KiB message
        order = f"both mostly fixed cost (the 4 bytes' time {share:.0f}% of the 4 KiB one's"
    else:
        order = (f"the 4 bytes' time only {share:.0f}% of the 4 KiB one's: more than the fixed cost in the 4 KiB "
                 "one (its bytes, or noise")
    # every message time in whole µs, as row B10 prints the same times (one unit, one rounding)
    parts = [Part(f"{link.name}, {one_way_words(LINK_REPEATS)}, this run: 4 bytes {_us(sec[4])} µs, "
                  f"4 KiB {_us(sec[2**12])} µs, {order}; {profile_alpha_words(m)}); "
                  f"1 MiB {_us(sec[2**20])} µs and 4 MiB {_us(sec[2**22])} µs, against "
                  f"{small_gpt_words(128)}: its {t['step_s'] * 1e3:.0f} ms step on one core (its gradients: "
                  f"{t['gradient_bytes'] / 2**20:.1f} MiB){out_of_order_words(m)}{busy_note(m, 'link', 2)}",
                  MEASURED,
                  two_devices(m["plan"], m["hw"]))]
    if m["results"].get("tensor_parallel"):  # lesson 07 §1's run of the same blocks (the row's why compares)
        # no blocks named before it in this row: it names them
        parts.append(quote(m, "tensor_parallel", lambda r: lesson_07_words(m, r, m["setups"]["07"])))
    if m["results"]["decode"]:
        parts.append(quote(m, "decode", lambda r: f"inference: {decode_words(r)}"))
        priced = decode_priced(m, m["results"]["decode"].record)
        if priced is not None:
            parts.append(priced)
    return parts


def slower_small_words(m) -> str:
    """Row B2's reading where the 4-byte message took longer than the 4 KiB one, by lesson 00's rule: within
    the 10% one noisy median may miss by, noise; beyond it, something t = alpha + n/beta cannot do, which no
    run here measures (said so, with lesson 00's own run where it shows the same): out of order then (t33_09
    #3), and the page says why the pair is still read (``figures.FIXED_COST_PAIR``): both times are mostly
    fixed cost, all the check reads, and the fixed cost is read from the smaller of the two, a lower estimate."""
    sec = _sends(m)
    small, kib = _us(sec[4]), _us(sec[2**12])
    head = f"the 4-byte message took longer, {small} against {kib} µs, "
    if small <= kib * (1 + EDGE):
        return head + f"within the {EDGE:.0%} one noisy median may miss by (lesson 00's rule): noise"
    return (head + f"beyond the {EDGE:.0%} one noisy median may miss by (lesson 00's rule): something t = alpha "
            f"+ n/beta cannot do, which this run does not measure{lesson_00_same_words(m)}; so this pair is out "
            "of order, yet both times are still mostly fixed cost, all the check reads: the fixed cost is read "
            "from the smaller, a lower estimate of it")


def lesson_00_same_words(m) -> str:
    """", as in lesson 00's run (98 against 73 µs)" where lesson 00's recorded run (ledger ``link_this_run_00``)
    has its 4-byte message past the same 10% over its 4 KiB one; "" where it does not, or none is recorded."""
    found = m["results"].get("link_00")
    if found is None:
        return ""
    times = dict(zip(found.record.get("sizes", []), found.record.get("seconds", [])))
    if 4 not in times or 2**12 not in times:
        return ""
    small, kib = _us(times[4]), _us(times[2**12])
    return f", as in lesson 00's run ({small} against {kib} µs)" if small > kib * (1 + EDGE) else ""


def tolerance_words(link) -> str:
    """A link fit's worst miss against lesson 00's ±50% tolerance, in lesson 00's words (``fit_verdict``)."""
    from utils.lessons.start_here.summary import FIT_USABLE, fit_verdict

    return f"by lesson 00's ±{FIT_USABLE:.0%} tolerance, {fit_verdict(link.accuracy)}"


def link_line(link) -> str:
    """This run's link fit as the details block prints it (named as row B10 names it, apart from the machine
    profile's alpha): its alpha, beta and worst miss, read by lesson 00's rule."""
    return (f"This run's alpha-beta fit (not the machine profile's), {link.name}: alpha "
            f"{link.fit.alpha * 1e6:,.1f} µs, beta {link.fit.beta / 1e9:.2f} GB/s (worst miss ±{link.accuracy:.0%}, "
            f"{tolerance_words(link)})")


def b10(m):
    # Read from the measured times, not the fit: a fit that misses some size by tens of per cent confirms nothing.
    link, sec = m["link"], _sends(m)
    small, big = fixed_cost(m), sec[2**22]
    times, aside = few_bytes_read(m)
    return [Part(f"{link.name}, {one_way_words(LINK_REPEATS)}, this run: {times} ({aside}{profile_alpha_words(m)}; "
                 f"this run's alpha-beta "
                 f"fit, {link.fit.alpha * 1e6:,.1f} µs and {link.fit.beta / 1e9:.2f} GB/s, misses some size by up "
                 f"to {link.accuracy:.0%}: {tolerance_words(link)}){out_of_order_words(m)}"
                 f"{busy_note(m, 'link', 2)}", MEASURED,
                 two_devices(m["plan"], m["hw"])),
            bytes_share_part(big, small, bool(sizes_out_of_order(m)))]


def few_bytes_read(m) -> tuple[str, str]:
    """Row B10's times and the few-byte time it reads from them, with the aside that opens the parenthesis
    after them: where this run's message times are out of order, none is read (as rows B2 and B8 say), the
    4-byte and 4 KiB times printed as they came, and the aside says why."""
    sec = _sends(m)
    if sizes_out_of_order(m):
        return (f"4 bytes {_us(sec[4])} µs, 4 KiB {_us(sec[2**12])} µs, 1 MiB {_us(sec[2**20])} µs, 4 MiB "
                f"{_us(sec[2**22])} µs; no few-byte time read from them", "out of order, below; ")
    slower = " (the 4-byte one took longer: row B2 says why that pair is still read)" if _us(sec[4]) > _us(
        sec[2**12]) else ""
    return (f"4 bytes {_us(sec[4])} µs, 1 MiB {_us(sec[2**20])} µs, 4 MiB {_us(sec[2**22])} µs; a few-byte "
            f"message's time read as the smaller of a 4-byte and a 4 KiB message's, {_us(fixed_cost(m))} µs"
            f"{slower}", "")


def bytes_share_part(big: float, small: float, noise_bound: bool) -> Part:
    """Row B10's arithmetic: the 4 MiB message's bytes against a few-byte message's time. Where this run's
    message times are out of order, the row has just said the bytes' share is not read from them: so it
    is not worked out, only said why (whole µs as printed, so the subtraction can be done again)."""
    if noise_bound:
        return Part("the bytes' share of the 4 MiB message is not worked out: it would be read from this run's "
                    "message times, out of order (above); a link with 10x the bandwidth cuts only "
                    "the bytes' part, and a message of a few bytes costs the link's own fixed cost there too "
                    "(less only on NVLink, RDMA)", ARITHMETIC)
    big_us, small_us = _us(big), _us(small)
    data = max(big_us - small_us, 0)  # the bytes' part of a 4 MiB message: what a faster link cuts
    faster_link = claims.half_up(small_us + data / 10, 0)  # half up, as by hand: 86 + 104.5 = 190.5 is 191
    return Part(f"the 4 MiB message's bytes: {big_us} - {small_us} = {data} µs, "
                f"{claims.half_up(data / small_us, 1):.1f}x a few-byte message's time; on a link with 10x the "
                f"bandwidth alone {small_us} + {data} / 10 = {faster_link:.0f} µs; a message of a "
                f"few bytes stays about {small_us} µs there, less only where the link's own fixed cost "
                "is smaller too (NVLink, RDMA)", ARITHMETIC)


def b22(m):
    if isinstance(m["cnn_ddp"], Exception):  # the launch failed: say so, judge nothing
        err = m["cnn_ddp"]
        return [Part(f"article 2's CNN on two DDP workers: the run failed here ({type(err).__name__}: "
                     f"{str(err)[:120]}); no figure, so no verdict from this run", MEASURED,
                     two_devices(m["plan"], m["hw"]))]
    ratios = cnn_ddp_rounds(m)  # each round's times: the "How this was measured" block
    return [Part(f"article 2's CNN, {CNN_BATCH} digits a training step, on one worker (the other waiting) and on "
                 f"two DDP workers ({CNN_BATCH // 2} digits each), timed alternately: one worker's time over two's "
                 f"{rounds_words(ratios)}, bound 2x: "
                 f"{rounds_verdict(ratios, 2.0, 'slower than one worker')}{rounds_above_note(ratios, 2.0)}"
                 f"{busy_note(m, 'cnn_ddp', 2)}",
                 MEASURED, two_devices(m["plan"], m["hw"]))]


def one_worker_beside(m) -> str:
    """Row B19's step time set beside row B22's one-worker rounds, which time the same step otherwise: B19's is
    the fastest of a few single steps in this page's own process; B22's each round averages ``CNN_STEPS`` steps
    in a worker process of its own, and B22 quotes their median. The two are different runs of different
    set-ups, so a fastest time here may lie above the median there (t26_09 #4): the words say which is higher,
    from the two figures as printed; where B22's launch failed there is nothing to set beside it."""
    c = m.get("cnn_ddp")
    if not isinstance(c, dict) or not c.get("one"):
        return " (its fastest repeat in this page's own process)"
    median_ms = claims.as_printed(_median(c["one"]), 1, 1e-3)  # as the rounds' line prints each round
    said = (f" (its fastest repeat in this page's own process; row B22 times the same step in a worker "
            f"process of its own, {CNN_STEPS} steps a round averaged: median {median_ms:.1f} ms over its "
            f"{len(c['one'])} rounds")
    step = m.get("cnn", {}).get("step_s")
    if step is None:
        return said + "; the set-ups differ, so the two need not match)"
    fastest_ms = claims.as_printed(step, 1, 1e-3)
    order = ("above" if fastest_ms > median_ms else "at or below") + f" that median ({fastest_ms:.1f} ms against " \
        f"{median_ms:.1f} ms)"
    return (f"{said}; this page's fastest repeat lies {order}: two different runs of different set-ups (one process "
            f"with single steps here, a worker process with {CNN_STEPS} steps averaged there), so the two need "
            "not match and their gap is not timed apart)")


def compression_rounds_line(c: dict) -> str:
    """The "How this was measured" line of row B8's rounds: each time in whole µs, then each round's ratio
    worked from those (``compression_rounds``), the figures the row's median, spread and range come from."""
    times = "; ".join(f"{name} " + ", ".join(f"{_us(s)}" for s in times) for name, times in c.items())
    ratios = ", ".join(f"{r:.2f}x" for r in compression_rounds(c))
    return (f"Compression, gloo, 2 processes, each round (µs; half a round trip): {times}; the plain way's "
            f"time over the packed way's, each round (row B8 quotes their median): {ratios}")


ARTICLE_SPLIT_BOUND = 1  # the article's halves take turns: at most one device's speed (rows A11 and A19)


def passes_rounds_line(passes: dict, where: str) -> str:
    """The "How this was measured" line of lesson 07's passes: each list of paired rounds after its own bound,
    as the rows read them (the article's split 1x, rows A11 and A19; tensor parallel lesson 07's 2x, row A21),
    never one bound for both. Each round with the digits that show its side of 1x or 2x (``round_text``:
    "1.005x", never "1.00x" for a round counted above the 1x bound)."""
    lists = (("article split", f"the article's split (bound {ARTICLE_SPLIT_BOUND}x: halves that take turns)"),
             ("tensor parallel", f"tensor parallel (bound {passes['bound']:g}x)"))
    rounds = "; ".join(f"{label} " + ", ".join(f"{round_text(r)}x" for r in passes.get(f"{name} rounds", []))
                       for name, label in lists)
    return (f"Lesson 07's blocks, forward passes, in paired rounds against one device ({where}); each round, one "
            f"device's time over the pair's (rows A11, A19 and A21 quote their median): {rounds}")


def cnn_rounds_line(cnn) -> str:
    """The same for row B22: each round's step in ms (one decimal), then one worker's over two's."""
    if isinstance(cnn, Exception):
        return f"Article 2's CNN: the run failed ({cnn!r})"
    one, two = (", ".join(f"{claims.as_printed(s, 1, scale=1e-3):.1f}" for s in cnn[k])
                for k in ("one", "two"))
    ratios = ", ".join(f"{round_text(r)}x" for r in cnn_rounds(cnn))  # a round's side of 1x or 2x shown
    return (f"Article 2's CNN, each round (ms a step): one worker {one}; two DDP workers {two}; one worker's "
            f"time over two's, each round (row B22 quotes their median): {ratios}")


LESSON_07_PASSES = ("07", "The article's claim, measured")  # lesson 07 §1: the same blocks, timed there


def a21_in_this_run(m) -> str:
    """Row A21's condition in this run: whether tensor parallel inference on lesson 07's blocks (the only
    inference split here that could be faster) beat one device beyond its noise. Only a figure slower than one
    device beyond its noise says the condition was not reached; one within its spread cannot say either way.
    Each branch ends with lesson 07 §1's own figure for the same blocks (``lesson_07_note``)."""
    ratios = tensor_parallel_rounds(m)
    said = rounds_verdict(ratios, m["passes"]["bound"], "slower than one device")
    if too_busy(m, "passes", 2):
        return "; in this run: other programs held the cores, so neither is shown (rerun on a quiet machine)"
    median, spread = paired(ratios)
    if said.startswith(("faster", "at the bound", "above the bound")):
        return (f"; in this run tensor parallel inference was faster than one device ({median:.2f}x ± "
                f"{spread:.2f}: {said}{found_in_rounds(ratios, m['passes']['bound'])})"
                f"{lesson_07_note(m, ratios, said)}")
    training = ("; make bench's MLP-block figure below includes training's backward pass, so it is no inference "
                "figure" if m["results"].get("decode") else "")
    if said.startswith("within noise"):
        return (f"; in this run tensor parallel inference, {median:.2f}x ± {spread:.2f}, is within its spread of "
                "one device's speed: this run cannot tell whether the condition holds (more paired rounds would "
                f"narrow the spread){lesson_07_note(m, ratios, said)}{training}")
    return (f"; in this run tensor parallel inference was slower than one device ({median:.2f}x ± {spread:.2f}): "
            "the condition (a larger model or batch, where a step's work outweighs its messages) is not reached "
            f"here{lesson_07_note(m, ratios, said)}{training}")


def found_in_rounds(ratios: list[float], bound: float) -> str:
    """A single round that lesson 02's rule reads as a finding to explain, beside the median's verdict (a median
    under its bound does not clear a round past it); "" where none is."""
    if len(ratios) < 2 or not rounds_finding(rounds_record(ratios, bound)):
        return ""
    return rounds_above_note(ratios, bound)


def reading(verdict: str) -> str:
    """A speed-up verdict's reading, as two verdicts are compared: "faster", "within noise" or "slower"."""
    if verdict.startswith("within noise"):
        return "within noise"
    return "slower" if verdict.endswith("no speed-up") else "faster"


def lesson_07_words(m, record: dict, blocks: str | None = None) -> str:
    """Lesson 07 §1's recorded tensor-parallel pass: its median ± its rounds' spread against its bound, read by
    the course's rule with the rounds lesson 07 recorded (``recorded_verdict``). ``blocks``: their set-up, for
    a row that names none before (row B2); else "the same blocks" as the row's own timing of them."""
    n = len(record.get("rounds") or [])
    run = f"own run, tensor parallel on {blocks}" if blocks else "own run of the same blocks, tensor parallel"
    return (f"{sections.cite(LESSON_07_PASSES)}'s {run}: "
            f"{record['value']:.2f}x ± {spread_of(record):.2f} one device's speed (median of {n} paired rounds), "
            f"bound {record['bound']:g}x: {recorded_verdict(record, record['bound'])}")


def lesson_07_note(m, ratios: list[float], said: str) -> str:
    """Beside a verdict from this page's own rounds (``said``): lesson 07 §1's figure for the same blocks, from
    the ledger, and whether the two read alike; where they differ, why (two launches: each its own worker
    processes at its own moment on the machine). Where the ledger lacks it, the lesson to run."""
    whose = f"{len(ratios)} paired rounds" if len(ratios) > 1 else "fastest pass (no rounds kept)"
    found = m["results"].get("tensor_parallel")
    if found is None:
        return (f"; this page's own {whose}: {sections.cite(LESSON_07_PASSES)} times the same blocks in its own "
                "run, and the ledger holds no figure of it yet (run lesson 07 to record it)")
    theirs = recorded_verdict(found.record, found.record["bound"])
    launches = ("different launches, each its own worker processes at its own moment on the machine, so their "
                "rounds met the cores differently; neither run measures why")
    alike = (f"the two read alike ({reading(said)})" if reading(said) == reading(theirs) else
             f"the two read differently ({reading(said)} here, {reading(theirs)} there): {launches}")
    mine, theirs = paired(ratios), (claims.as_printed(found.record["value"], 2), spread_of(found.record))
    # the course's one noise rule between two runs' medians (as lesson_07_split and lesson_01_pairs read theirs)
    if claims.runs_agree(*mine, *theirs):  # the verdicts' reading is said above; this is the medians' (t29_09)
        gap = "; the two medians agree too (one median ± its spread covers the other's)"
    else:
        gap = (f"; this page's {mine[0]:.2f}x ± {mine[1]:.2f} and lesson 07's {theirs[0]:.2f}x ± {theirs[1]:.2f} lie "
               f"outside each other's noise (neither median ± its spread covers the other's): {GAP_BETWEEN_RUNS}"
               + ("" if launches in alike else f" ({launches})"))
    return f"; this page's own {whose} beside {lesson_07_words(m, found.record)}: {alike}{gap}"


RUN_NOTES = {"B8": b8_in_this_run, "A21": a21_in_this_run}  # rows whose verdict says how this run bore it out
