"""Checks for ``labs/00_fix_the_article.ipynb``: what a model split sends over the link, and what that costs.

The learner writes ``link_bytes(model, cut, x)`` (the bytes that cross the cut in one training step) and
``link_seconds(model, cut, x, link)`` (their time on the link, with alpha and beta fitted as in lesson 00,
in this lab's run). The checks run the split for real (``split.measure_split``: two workers, every message counted and timed) on the cases
the learner sees and on cases it has not seen, and judge the learner's answers against what crossed:

- ``check_crossing``: ``link_bytes`` equals the bytes the split's workers sent in a step, for every case
  (another cut, another width, bfloat16, layers frozen before the cut or only some of them);
- ``check_cost``: ``link_seconds`` equals lesson 00's model applied to the messages that crossed;
- ``measured_report``: the learner's predictions beside the split's messages timed on the link, and beside
  lesson 00's ping-pong of the same sizes in the same rounds (a report: a busy machine fails nothing).

A failed check names the case and the mistake, never the expected value.
"""

from __future__ import annotations

import math
import statistics
import textwrap
from numbers import Number

import torch

from utils import checks
from utils.details import how_measured
from utils.checks import expect, run_check
from utils.labs.fix_the_article import reference as _reference  # kept out of the lab's names
from utils.labs.fix_the_article.split import Case, SplitRun, measure_split
from utils.tables import Table
from utils.tables import show as display

SEED = 0
BANK = "labs/fix_the_article"
ROUNDS = 9  # training steps timed per case (after one untimed), each followed by a ping-pong of its sizes
WIDTH = 110

# The cases the learner sees. Article 2's CNN: conv1 relu1 pool1 conv2 relu2 pool2 flatten fc1 relu3 fc2.
CASES = (
    Case("cut before fc1, 64 images", "cnn", cut=7, batch=64),
    Case("cut after pool1, 64 images", "cnn", cut=3, batch=64),
    Case("cut before fc1, 1 image", "cnn", cut=7, batch=1),
    Case("cut before fc1, 64 images, convolutions frozen", "cnn", cut=7, batch=64, frozen=("conv1", "conv2")),
)
# Cases the learner's code never sees before the checks: another width, another model in bfloat16, a frozen
# layer before the cut while another still learns, everything before the cut frozen.
UNSEEN = (
    Case("CNN at half width cut after relu2, 16 images", "cnn half", cut=5, batch=16),
    Case("MLP 256-512-128-10 in bfloat16 cut after its first ReLU, 32 rows", "mlp", cut=2, batch=32,
         dtype=torch.bfloat16),
    Case("CNN cut before fc2, 8 images, conv1 frozen", "cnn", cut=9, batch=8, frozen=("conv1",)),
    Case("CNN cut after pool1, 4 images, conv1 frozen", "cnn", cut=3, batch=4, frozen=("conv1",)),
)


def measure(rounds: int = ROUNDS) -> dict[str, SplitRun]:
    """Every case, seen and unseen, trained on two workers with every message counted and timed (the unseen
    ones for one round: only their bytes are judged)."""
    return {**measure_split(CASES, rounds), **measure_split(UNSEEN, 1)}


def _where(case: Case) -> str:
    return case.name + ("" if case in CASES else " (a case you have not seen)")


def _number(value, what: str) -> float:
    """``value`` as a float, or a failed check saying what came back instead (never a crash)."""
    if isinstance(value, torch.Tensor) and value.numel() == 1:
        value = value.item()
    expect(isinstance(value, Number) and not isinstance(value, bool),
           f"{what} returned {type(value).__name__}: return a number")
    return float(value)


# --- Exercise A: what crosses the cut ----------------------------------------------------------------------


def crossing_mistake(case: Case, answer: float, run: SplitRun) -> str | None:
    """Why ``answer`` is not the bytes that crossed in one step of ``case``'s split (named, without the right
    number), or None when it is right."""
    right, messages = run.bytes_per_step, len(run.messages)
    if answer == right:
        return None
    model = case.build()
    x, y = case.batch_of()
    with torch.no_grad():
        out = model(x)
    activation = run.messages[0].nbytes
    weights = {sum(p.numel() * p.element_size() for p in part.parameters())
               for part in (model, model[:case.cut], model[case.cut:])}
    others = {_reference.activation_bytes(model, case.cut + k, x) for k in (-1, 1)} - {0, activation}
    learns_before = any(p.requires_grad for p in model[:case.cut].parameters())
    named = [
        (messages == 2 and answer == activation and case.frozen,
         "only the way forward: one layer before the cut is frozen, but another before it still learns"),
        (messages == 2 and answer == activation,
         "the way forward only: a training step runs backward too. What must the first device receive to run "
         "its part of the backward pass, and how large is it?"),
        (messages == 1 and answer == 2 * activation and not learns_before,
         "a way back too: nothing before the cut learns here (its parameters are frozen), so what does the "
         "backward pass need on the first device?"),
        (any(answer == right + k * w for w in weights for k in (1, 2)),
         "weights too: a split's layers keep their parameters on their own device"),
        (any(answer in (k * x.numel() * x.element_size(), right + k * x.numel() * x.element_size())
             for k in (1, 2)), "the input: it is read on the first device and stays there"),
        (answer == right + y.numel() * y.element_size(), "the labels: the loader hands them to the second device"),
        (any(answer in (k * out.numel() * out.element_size(), right + k * out.numel() * out.element_size())
             for k in (1, 2)), "the model's output: it is computed on the second device, beside the loss"),
        (answer == 8 * right, "bits, not bytes"),
        (answer * x.element_size() == right, "elements, not bytes: multiply by the bytes of one element"),
        (x.element_size() != 4 and answer * x.element_size() == 4 * right,
         f"4 bytes an element: this case computes in {str(case.dtype).removeprefix('torch.')}"),
        (any(answer in (o, 2 * o, messages * o) for o in others),
         "the activation of a neighbouring layer: the first device runs model[:cut], and what leaves it is "
         "that part's output"),
        (answer * case.batch == right, "one row (image) of the batch: the whole batch crosses"),
    ]
    why = next((text for hit, text in named if hit),
               f"{'more' if answer > right else 'less'} than what crossed in the split's step")
    return f"{_where(case)}: you counted {why}"


def check_crossing(link_bytes, runs: dict[str, SplitRun], show: bool = True) -> checks.Verdict:
    """Exercise A: ``link_bytes(model, cut, x)`` equals the bytes the split's workers sent in one training
    step, for every case (seen and unseen)."""

    def body():
        expect(not checks.refers_to(link_bytes, {"activation_bytes"}, (_reference.activation_bytes,)),
               "link_bytes calls the checks' own reference: the exercise is to count it yourself")
        for case in CASES + UNSEEN:
            x, _ = case.batch_of()
            answer = _number(link_bytes(case.build(), case.cut, x), f"link_bytes for {case.name}")
            mistake = crossing_mistake(case, answer, runs[case.name])
            expect(mistake is None, mistake or "")
        return (f"your count equals what the split's workers sent in each of {len(CASES) + len(UNSEEN)} cases, "
                f"{len(UNSEEN)} of them unseen: another width, an MLP in bfloat16, frozen layers before the cut")

    return run_check("what crosses the cut", body, show=show, hint=checks.stub_message(BANK, "A"))


# --- Exercise B: what the link costs -------------------------------------------------------------------


def model_seconds(run: SplitRun, link) -> float:
    """Lesson 00's model of the step's messages: alpha + n / beta for each one that crossed."""
    return sum(link.time(m.nbytes) for m in run.messages)


def cost_mistake(case: Case, answer: float, run: SplitRun, link, bytes_right: bool) -> str | None:
    """Why ``answer`` is not lesson 00's time for the messages that crossed in ``case`` (named, without the
    right number), or None when it is right."""
    right, sizes = model_seconds(run, link), [m.nbytes for m in run.messages]
    close = lambda a, b: abs(a - b) <= 1e-6 * abs(b) + 1e-15  # noqa: E731
    if close(answer, right):
        return None
    if not bytes_right:
        return f"{_where(case)}: your link_bytes is off for this case (check 1), and a time built on it too"
    total = sum(sizes) / link.beta
    named = [
        (close(answer, total), "your time has no alpha: every message pays the fixed cost alpha, however "
                               "small"),
        (len(sizes) > 1 and close(answer, link.alpha + total),
         "your time has one alpha for the whole step: each message pays its own"),
        (len(sizes) == 1 and close(answer, 2 * link.alpha + total),
         "your time has an alpha for a message that does not cross in this case"),
        (close(answer, len(sizes) * link.alpha), "your time has alpha only: a message also takes its bytes "
                                                 "over beta"),
        (close(answer, len(sizes) * link.alpha + 8 * total), "your time counts bits: beta is in bytes per "
                                                             "second"),
        (close(answer, 1e3 * right), "your time is in milliseconds: return seconds"),
        (close(answer, 1e6 * right), "your time is in microseconds: return seconds"),
    ]
    why = next((text for hit, text in named if hit),
               f"your time is {'more' if answer > right else 'less'} than alpha and beta (fitted as in lesson 00 (this lab's run)) give "
               "for the messages that crossed")
    return f"{_where(case)}: {why}"


def check_cost(link_seconds, link_bytes, link, runs: dict[str, SplitRun], show: bool = True) -> checks.Verdict:
    """Exercise B: ``link_seconds(model, cut, x, link)`` equals alpha + n / beta (this lab's fit) summed over the
    messages the split's workers sent, for every case (seen and unseen)."""

    def body():
        for case in CASES + UNSEEN:
            x, _ = case.batch_of()
            answer = _number(link_seconds(case.build(), case.cut, x, link), f"link_seconds for {case.name}")
            expect(answer > 0, f"{_where(case)}: a time on the link must be positive")
            run = runs[case.name]
            try:
                bytes_right = link_bytes(case.build(), case.cut, x) == run.bytes_per_step
            except Exception:  # noqa: BLE001 - exercise A unfinished or raising: its own check says so
                bytes_right = False
            mistake = cost_mistake(case, answer, run, link, bytes_right)
            expect(mistake is None, mistake or "")
        return (f"your times equal alpha + n / beta (fitted as in lesson 00 (this lab's run)) for the messages that crossed, in all "
                f"{len(CASES) + len(UNSEEN)} cases")

    return run_check("what the link costs", body, show=show, hint=checks.stub_message(BANK, "B"))


# --- Tables and sentences for the notebook -------------------------------------------------------------


def say(text: str) -> None:
    """Print ``text`` wrapped at the course's 110 columns."""
    print(textwrap.fill(text, WIDTH))


def _try(fn, *args):
    """``fn(*args)``, or the reason it gave nothing (an unfinished exercise, an error), as text."""
    try:
        return fn(*args)
    except NotImplementedError:
        return "not done yet"
    except Exception as exc:  # noqa: BLE001 - the learner's code: shown, never raised into the notebook
        return f"raised {type(exc).__name__}"


def _bytes_text(n) -> str:
    return f"{n:,.0f}" if isinstance(n, Number) else str(n)


def _us(seconds) -> str:
    return f"{seconds * 1e6:,.0f} µs" if isinstance(seconds, Number) else str(seconds)


def link_sentence(link_fit) -> str:
    """The link's fit in one sentence, with how far to trust it (both branches written)."""
    fit = link_fit.fit
    trust = ("so a time it predicts is good to about that share" if link_fit.accuracy <= 0.5 else
             "outside the ±50% tolerance within which lesson 00 predicts with a fit: the exercises still use "
             "it, as the model you practise, but a time it predicts is good to about that share only")
    return (f"{link_fit.name}: alpha {fit.alpha * 1e6:,.1f} µs, beta {fit.beta / 1e9:.2f} GB/s; one alpha and "
            f"one beta fit every size within ±{link_fit.accuracy:.0%}, {trust}.")


def link_table(link_fit) -> Table:
    """Every size of the link's fit: measured, fitted, residual (lesson 00's table)."""
    fit = link_fit.fit
    return Table(["bytes", "measured µs", "alpha + n / beta µs", "residual"],
                 [(f"{n:,}", f"{t * 1e6:,.1f}", f"{fit.time(n) * 1e6:,.1f}", f"{r:+.0%}")
                  for n, t, r in zip(fit.sizes, link_fit.seconds, fit.residuals)])


def rounds_table(runs: dict[str, SplitRun]) -> Table:
    """Every case's time on the link, round by round: the split's messages and the ping-pong after them."""
    rows = []
    for case in CASES:
        run = runs[case.name]
        for k, (split, pp) in enumerate(zip(run.link_seconds(), run.ping_pong_seconds()), 1):
            rows.append((case.name if k == 1 else "", k, _us(split), _us(pp), f"{split / pp:.2f}"))
    return Table(["case", "round", "the split's messages", "ping-pong, same sizes", "ratio"], rows, wrap=30)


def cases_table() -> Table:
    """The cases the learner predicts: model, cut, batch, dtype, frozen layers."""
    rows = []
    for case in CASES:
        model = case.build()
        names = [name for name, _ in model.named_children()]
        rows.append((case.name, f"{case.cut}: {names[case.cut - 1]} | {names[case.cut]}", case.batch,
                     str(case.dtype).removeprefix("torch."), ", ".join(case.frozen) or "none"))
    return Table(["case (article 2's CNN)", "cut: last | first layer", "batch", "dtype", "frozen"], rows,
                 wrap=28)


def prediction_table(link_bytes, link_seconds, link) -> Table:
    """The learner's predictions for the cases they see, before anything is measured."""
    rows = []
    for case in CASES:
        x, _ = case.batch_of()
        rows.append((case.name, _bytes_text(_try(link_bytes, case.build(), case.cut, x)),
                     _us(_try(link_seconds, case.build(), case.cut, x, link))))
    return Table(["case", "your bytes a step", "your time on the link a step"], rows)


def _fastest(values: list[float]) -> float:
    return min(values)  # a busy machine only ever slows a message down


def measured_report(link_bytes, link_seconds, link_fit, runs: dict[str, SplitRun]) -> None:
    """Your predictions beside the split's messages as timed, and lesson 00's ping-pong of the same sizes in
    the same rounds; shown once check 1 passes (the measured bytes would give exercise A away)."""
    if not check_crossing(link_bytes, runs, show=False).passed:
        print("⏳ not done yet: the measurement is shown once check 1 passes (it holds the bytes that crossed)")
        return
    link = link_fit.fit
    rows, ratios, pp_ratios = [], [], []
    for case in CASES:
        run, x = runs[case.name], case.batch_of()[0]
        predicted = _try(link_seconds, case.build(), case.cut, x, link)
        model = model_seconds(run, link)
        rows.append((case.name, f"{run.bytes_per_step:,}", _us(predicted), _us(_fastest(run.ping_pong_seconds())),
                     _us(_fastest(run.link_seconds()))))
        # medians against the fit, like with like: the fit is made on medians of round trips
        ratios.append(statistics.median(run.link_seconds()) / model)
        pp_ratios.append(statistics.median(run.ping_pong_seconds()) / model)
    rounds = {case.name: [a / b for a, b in zip(runs[case.name].link_seconds(), runs[case.name].ping_pong_seconds())]
              for case in CASES}  # each round: the split's messages over the ping-pong of the same round
    display(Table(["case", "bytes a step", "your prediction", "ping-pong, same sizes", "the split's messages"],
                  rows, title=f"Time on the link a step (fastest of {ROUNDS} rounds), {link_fit.name}", wrap=30))
    pp_rounds = {case.name: runs[case.name].ping_pong_seconds() for case in CASES}
    say(miss_sentence(ratios, pp_ratios, link.worst_residual, rounds, pp_rounds))
    how_measured("every round", rounds_table(runs), textwrap.fill(
        "A round: one training step of the split, every message timed from its start on the sender's clock to "
        "its arrival on the receiver's (one monotonic clock for the whole machine), then lesson 00's ping-pong "
        "(half a round trip, median of 3 after 1 untimed) at each message's size. The table above keeps each "
        "column's fastest round: a busy machine only slows a message.", WIDTH - 4))


def miss_sentence(ratios, pp_ratios, residual: float, rounds: dict[str, list[float]],
                  pp_rounds: dict[str, list[float]] | None = None) -> str:
    """What the measurement says about lesson 00's model (every branch written). ``ratios`` and ``pp_ratios``:
    for each case, the median round of the split's messages and of the ping-pong of the same sizes, over the
    model's time (medians, as the fit is made on medians). ``rounds``: for each case, every round's split over
    that same round's ping-pong; a case shows a gap when enough of its rounds fall on one side of 1
    (``gap_of``: a sign test, one rule for every case). ``pp_rounds``: each case's ping-pong seconds, round by
    round; a round where the ping-pong itself jumped (``jumped_rounds``) lowers that round's ratio, so a
    "shorter" verdict that needs such rounds is set aside, and the rule says so where it applies."""
    span = lambda r: f"{min(r):.1f}x" if max(r) / min(r) < 1.1 else f"{min(r):.1f}-{max(r):.1f}x"  # noqa: E731
    text = (f"Medians of the rounds against alpha + n / beta, fitted as in lesson 00 (this lab's run) on medians "
            f"too: the split's messages took {span(ratios)}, the ping-pong of the same sizes {span(pp_ratios)} "
            f"(the fit is good to about ±{residual:.0%}). ")
    text += drift_sentence(pp_ratios, residual)
    n = max(len(r) for r in rounds.values())
    jumped = {name: jumped_rounds(pp) for name, pp in (pp_rounds or {}).items()}
    cases = {name: verdict_of(r, jumped.get(name, set())) for name, r in rounds.items()}
    text += (f"The rule, the same for every case: the split's messages differ from the ping-pong of the same bytes "
             f"when at least {sign_test_least(n)} of {n} rounds fall on one side of 1 (a sign test: a coin does that "
             f"less than 1 time in {round(1 / SIGN_LEVEL)}); the median and the range are given beside. ")
    if "jumped" in cases.values():
        text += (f"A round in which the ping-pong itself took over {JUMP:.0f}x its fastest round has a ratio "
                 "lowered by that jump, so a verdict of 'shorter' that needs such rounds is set aside. ")
    text += "; ".join(_rounds_words(name, rounds[name], cases[name], jumped.get(name, set())) for name in rounds)
    text += ". "
    if all(gap != "longer" for gap in cases.values()):
        return text + ("In no case were the split's messages longer by that rule: this run shows no difference "
                       "between a split's messages and a ping-pong's of the same bytes (which is not the same as "
                       "showing that they cost the same: the ranges above say how widely the rounds scattered).")
    return text + ("Where the split's messages are longer, the miss is the split's own: alpha and beta were fitted "
                   "on a loop of messages that nothing interrupts, while a split's message leaves from the middle "
                   "of a training step; what the receiving worker was doing then is not measured here, so the "
                   "cause is not shown. A model holds for the situation it was measured in.")


def drift_sentence(pp_ratios: list[float], residual: float) -> str:
    """Whether the link drifted between the fit and the rounds: shown only when the ping-pong's median left
    the fit's band on the same side in every case (every branch written)."""
    out = [r > 1 + residual or r < 1 / (1 + residual) for r in pp_ratios]
    if not any(out):
        return "The ping-pong's medians stayed within the fit's band in every case: no drift of the link shown. "
    if all(r > 1 + residual for r in pp_ratios) or all(r < 1 / (1 + residual) for r in pp_ratios):
        which = "slower" if pp_ratios[0] > 1 else "faster"
        return (f"In every case the ping-pong's median ran {which} than the fit, outside its band: the link "
                "drifted between the fit and these rounds (what else ran on the machine then is not measured); "
                "your predictions are judged against the fit as it was measured above, a reference for its "
                "own moment. ")
    return (f"The ping-pong's median left the fit's band in {sum(out)} of {len(out)} cases and stayed inside it "
            "in the others: no drift of the link as a whole shown, only a rough fit at some sizes. ")


JUMP = 2.0  # a ping-pong round over this many times its fastest round: the ping-pong itself jumped


def jumped_rounds(seconds: list[float]) -> set[int]:
    """The rounds (indices) of a case's ping-pong that took over JUMP x its fastest round."""
    return {i for i, s in enumerate(seconds) if s > JUMP * min(seconds)} if seconds else set()


def ping_pong_jumps(seconds: list[float]) -> int:
    """How many rounds of a case's ping-pong took over JUMP x its fastest round."""
    return len(jumped_rounds(seconds))


def verdict_of(ratios: list[float], jumped: set[int]) -> str:
    """``gap_of``'s verdict, or "jumped" where a "shorter" verdict needs rounds in which the ping-pong itself
    jumped (a jump lowers a round's ratio: it can make the split's messages look shorter, never longer)."""
    gap = gap_of(ratios)
    steady_below = sum(r < 1 for i, r in enumerate(ratios) if i not in jumped)
    return "jumped" if gap == "shorter" and steady_below < sign_test_least(len(ratios)) else gap


SIGN_LEVEL = 0.05  # a sign test's level: rounds on one side of 1 that a fair coin gives less often than this


def sign_test_least(n: int) -> int:
    """The fewest of ``n`` rounds on one side of 1 (either side) that a fair coin gives with probability <=
    ``SIGN_LEVEL``; ``n + 1`` where even ``n`` of ``n`` is not that rare (too few rounds to show anything)."""
    either_side = lambda k: 2 * sum(math.comb(n, j) for j in range(k, n + 1)) / 2**n  # noqa: E731
    return next((k for k in range(n // 2 + 1, n + 1) if either_side(k) <= SIGN_LEVEL), n + 1)


def gap_of(ratios: list[float]) -> str:
    """"longer", "shorter" or "none": the split's messages over the ping-pong's, round by round, by the sign
    test (``sign_test_least``)."""
    least = sign_test_least(len(ratios))
    if sum(x > 1 for x in ratios) >= least:
        return "longer"
    return "shorter" if sum(x < 1 for x in ratios) >= least else "none"


def _rounds_words(name: str, ratios: list[float], gap: str, jumped: set[int] = frozenset()) -> str:
    """One case's rounds in words: how many rounds were above 1, its median ratio and range, and the rule's
    verdict ("jumped": a "shorter" verdict set aside, as it needs rounds in which the ping-pong jumped)."""
    above = sum(x > 1 for x in ratios)
    low_jumps = sum(ratios[i] < 1 for i in jumped)
    said = {"longer": "the split's messages longer", "shorter": "the split's messages shorter",
            "none": "no difference shown",
            "jumped": f"no difference shown: {low_jumps} of the rounds below 1 are rounds in which the ping-pong "
                      f"itself took over {JUMP:.0f}x its fastest, and without them too few fall below 1"}[gap]
    if gap == "none" and low_jumps:
        said += (f" ({low_jumps} of the rounds below 1 are rounds in which the ping-pong itself took over "
                 f"{JUMP:.0f}x its fastest)")
    return (f"{name}: {above} of {len(ratios)} rounds above 1, median {statistics.median(ratios):.2f}x, "
            f"range {min(ratios):.2f}-{max(ratios):.2f}x: {said}")


def prediction_misses(link_seconds, link, runs: dict[str, SplitRun]) -> str:
    """Goal 3, read: each prediction beside the split's fastest round, and how far the largest miss went."""
    pairs = []
    for case in CASES:
        run, x = runs[case.name], case.batch_of()[0]
        pairs.append((case.name, _try(link_seconds, case.build(), case.cut, x, link), _fastest(run.link_seconds())))
    named = ", ".join(f"{_us(p)} predicted, {_us(m)} measured ({m / p:.1f}x)" for _, p, m in pairs)
    worst = max(pairs, key=lambda t: max(t[2] / t[1], t[1] / t[2]))
    side = "over" if worst[2] > worst[1] else "under"
    return (f"- Your predictions against the split's fastest rounds: {named}. The largest miss, {worst[0]}, is "
            f"{max(worst[2] / worst[1], worst[1] / worst[2]):.1f}x {side} the prediction. Alpha + n / beta was fitted "
            "on a ping-pong that nothing interrupts; the report above sets the ping-pong of the same bytes beside "
            "the split's messages, which says whether the miss is the split's own.")


def take_aways(link_bytes, link_seconds, link_fit, runs: dict[str, SplitRun]) -> None:
    """The lab's conclusions, with this run's figures; shown once both checks pass (they state the answers)."""
    done = [check_crossing(link_bytes, runs, show=False).passed,
            check_cost(link_seconds, link_bytes, link_fit.fit, runs, show=False).passed]
    if not all(done):
        print("⏳ not done yet: the take-aways appear once checks 1 and 2 pass (they state the answers)")
        return
    link = link_fit.fit
    fc1, pool1, one, frozen = (runs[c.name] for c in CASES)
    share = lambda run: len(run.messages) * link.alpha / model_seconds(run, link)  # noqa: E731
    lines = [
        f"- What crosses a cut is the activation there, forward, and its gradient, backward, when anything "
        f"before the cut learns: {fc1.bytes_per_step:,} bytes a step for the CNN cut before fc1 at 64 images, "
        f"{pool1.bytes_per_step / fc1.bytes_per_step:.1f}x that after pool1. Where you cut decides the "
        f"traffic; the weights never move.",
        f"- With everything before the cut frozen, the backward pass stops at the cut: {frozen.bytes_per_step:,} "
        f"bytes, one message.",
        f"- Each message pays alpha: at 1 image alpha is {share(one):.0%} of the predicted time, at 64 images "
        f"{share(fc1):.0%}, and 64x the bytes cost {model_seconds(fc1, link) / model_seconds(one, link):.1f}x "
        f"the time. Below alpha x beta = {link.half_bandwidth_size / 1024:,.0f} KiB, a message's bytes cost "
        f"less than its alpha.",
        prediction_misses(link_seconds, link, runs),
        "- A split alone is not parallel: the second device waits for the first. Lesson 02 measures it, and "
        "pipelines micro-batches: more messages, each paying alpha.",
    ]
    for line in lines:
        print(textwrap.fill(line, WIDTH, subsequent_indent="  "))
