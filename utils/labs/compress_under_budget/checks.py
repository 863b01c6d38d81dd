"""The checks of lab 04 (``labs/04_compress_under_budget.ipynb``): a deeper, narrower MLP than lesson 04's must
be made smaller by a given factor, faster by a given factor than the faster of the trained model (fp32) and
torchao's int8 of the whole model, both measured in the same run, and lose at most a given share of accuracy
on held-out images the learner's code never sees (the drop's upper bound, two standard errors above it).

The speed budget is relative to what this CPU runs fastest without the learner's plan (whole-model int8 buys much
on VNNI and AMX, little or nothing on AVX2's 7-bit path); and a speed-up counts only where the compiled
model's outputs stay within lesson 04's ``TOLERANCE`` of the same weights multiplied in float (correct before
fast).

``candidate`` is a model or a function that returns one: it is called inside the check, so that an
unfinished exercise reports "not done yet" instead of stopping the notebook.

    train_set, validation_set = lab_data()            # the images the learner may use
    whole = int8_whole(model, x)                      # torchao int8 of the whole model, compiled for x
    check_smaller(model, candidate, target)           # model_bytes ratio
    check_faster(model, candidate, x, whole, factor)  # medians of paired rounds of the three, interleaved
    check_accuracy(model, candidate, max_drop)        # the paired drop on the held-out images
"""

from __future__ import annotations

import copy
import functools
import statistics
import textwrap
import warnings
from dataclasses import dataclass, replace

import torch
from torch import nn

from utils import bench, checks, claims, models
from utils.lessons.compression.measure import compare_latency, model_bytes
from utils.lessons.compression.quantize import (TOLERANCE, compile_quantized, int8_path, output_error,
                                                quantize_torchao)
from utils.lessons.compression.train import load_digits, resplit
from utils.labs.compress_under_budget.speed_words import in_proportion, proportional_words, what_it_did

__all__ = ["lab_data", "int8_whole", "budget_sentence", "check_smaller", "check_faster", "check_accuracy", "paired_drop",
           "quantization_of", "hidden_widths", "zero_share", "float_twin"]

BANK = "labs/compress_under_budget"  # the lab's hints: utils/labs/compress_under_budget/hints.toml
TRAIN_SHARE = 0.5      # of the pooled digits: the learner trains on these
HELD_OUT_SHARE = 0.7   # of the rest: the accuracy check's images; the learner sees the other 30 % (validation)


@functools.cache
def _splits(seed: int):
    """(train, validation, held out), stratified by class; the digits pooled first (their own test split is
    too small for a budget of a point or two)."""
    train_set, rest = resplit(*_quiet(load_digits), 1 - TRAIN_SHARE, seed=seed)
    empty = torch.utils.data.TensorDataset(rest.tensors[0][:0], rest.tensors[1][:0])
    validation, held_out = resplit(rest, empty, HELD_OUT_SHARE, seed=seed)
    return train_set, validation, held_out


def _quiet(load):
    """``load()`` without the line it prints about which data set it found (the lab prints its own)."""
    import contextlib
    import io

    with contextlib.redirect_stdout(io.StringIO()):
        return load()


def lab_data(seed: int = 0):
    """Lab 04: the training and validation images. The accuracy check scores on a third split, held out."""
    train_set, validation, _ = _splits(seed)
    return train_set, validation


def _build(candidate) -> nn.Module:
    """The model ``candidate`` is, or returns when called; a ``torch.compile`` wrapper is unwrapped (the check
    compiles for each shape itself)."""
    model = candidate() if callable(candidate) and not isinstance(candidate, nn.Module) else candidate
    checks.expect(isinstance(model, nn.Module), f"make_small_and_fast returned a {type(model).__name__}, "
                                                "not a torch model (an nn.Module)")
    return getattr(model, "_orig_mod", model)


def quantization_of(model: nn.Module) -> str:
    """Lab 04: how ``model``'s Linear weights are stored and multiplied: "torch.ao" (the deprecated eager
    path), "int8_dynamic" or "int8_weight_only" (torchao), "int4_weight_only", or "float"."""
    if any(type(m).__module__.startswith("torch.ao.nn.quantized") for m in model.modules()):
        return "torch.ao"
    kinds = set()
    for module in model.modules():
        weight = getattr(module, "weight", None) if isinstance(module, nn.Linear) else None
        name = type(weight).__name__ if weight is not None else ""
        if "Int4" in name:
            kinds.add("int4_weight_only")
        elif "Int8" in name:
            kinds.add("int8_dynamic" if getattr(weight, "act_quant_kwargs", None) else "int8_weight_only")
    return "int8_dynamic" if "int8_dynamic" in kinds else (kinds.pop() if kinds else "float")


def zero_share(model: nn.Module) -> float:
    """Lab 04: the share of exactly-zero weights over the Linear layers, float or quantized (a torchao int8
    weight keeps its integers in ``qdata``; lesson 04's ``sparsity`` reads float weights only)."""
    zeros = total = 0
    for module in model.modules():
        if isinstance(module, nn.Linear):
            weight = getattr(module.weight, "qdata", module.weight)  # the stored integers, or the floats
            zeros, total = zeros + int((weight == 0).sum()), total + weight.numel()
    return zeros / total if total else 0.0


def hidden_widths(model: nn.Module) -> list[int]:
    """Lab 04: the output width of every Linear but the last (the hidden neurons)."""
    linears = [m for m in model.modules() if isinstance(m, nn.Linear)]
    return [m.out_features for m in linears[:-1]]


def _compiled(model: nn.Module, x: torch.Tensor) -> nn.Module:
    """``compile_quantized`` on one thread, the thread count it is then timed on (a compiled model guards on
    it: compiled on two and timed on one, it would compile again, without freezing)."""
    with bench.threads(1 if x.device.type == "cpu" else None), warnings.catch_warnings():
        # torchao's int8 tensor tells the compiler's cache it cannot hash it: a note for torchao, not the learner
        warnings.filterwarnings("ignore", message=r"(?s).*_stable_hash_for_caching")
        return compile_quantized(model, x)[0]


# What the check's messages call the float twin, said where they use the name (twenty-third reading)
TWIN = "the same int8-rounded weights multiplied in float"


def float_twin(model: nn.Module) -> nn.Module:
    """Lab 04: a copy of ``model`` whose quantized Linear weights are dequantized to fp32: the same rounded
    weights multiplied in float, against which the int8 kernels' own error is measured (correct before fast)."""
    twin = copy.deepcopy(model)
    for module in twin.modules():
        if isinstance(module, nn.Linear) and hasattr(module.weight, "dequantize"):
            module.weight = nn.Parameter(module.weight.dequantize().float(), requires_grad=False)
    return twin


def fp32_compiled(baseline: nn.Module, x: torch.Tensor) -> nn.Module:
    """The trained model compiled as the learner's is (``compile_quantized``: once per model and shape): the
    fp32 reference, so that compiling alone never counts as the plan's speed-up."""
    return _compiled(baseline, x)


def int8_whole(baseline: nn.Module, x: torch.Tensor) -> nn.Module:
    """Lab 04: torchao's int8 dynamic quantization of the whole trained model, compiled for ``x``: what int8
    alone buys on this CPU, against which the speed budget is set."""
    return _compiled(quantize_torchao(baseline, "int8_dynamic"), x)


def check_smaller(baseline: nn.Module, candidate, target: float, show: bool = True) -> checks.Verdict:
    """Lab 04: the candidate's stored bytes (state dict, ``model_bytes``) are at least ``target`` times fewer."""

    def body():
        model = _build(candidate)
        before, after = model_bytes(baseline), model_bytes(model)
        ratio = before / after
        if ratio < target:
            raise checks.CheckFailed(f"your model stores {ratio:.2f}x fewer bytes than the trained one, short of "
                                     f"{target:g}x{_why_not_smaller(model, baseline)}")
        return f"{ratio:.2f}x smaller ({before:,} -> {after:,} stored bytes, state dict)"

    return checks.run_check(f"at least {target:g}x smaller", body, show=show, hint=checks.stub_message(BANK, "A"))


def _why_not_smaller(model: nn.Module, baseline: nn.Module) -> str:
    """The plausible reason a candidate is too big, named from what it is."""
    kind, narrower = quantization_of(model), hidden_widths(model) != hidden_widths(baseline)
    if zero_share(model) > 0.3:
        return ": zeros from unstructured pruning are still stored, each in full (section 3 of lesson 04)"
    if kind == "float":
        return ": its weights are still 4-byte floats"
    if not narrower:
        return (": it has every neuron of the trained model, so bytes per weight are all it saves; count what a "
                "weight costs and how many the budget leaves")
    return (": fewer neurons and fewer bytes a weight multiply, but not to the budget yet: count the weights your "
            "widths keep (a hidden matrix shrinks with both its widths, the first only with its own: its inputs "
            "stay) at your bytes per weight")


# The last speed check's (widths, kind, PairedSpeed): ``plan.plan_lines`` prints its reading from these figures
MEASURED_SPEED: list = []


# The speed budget's bar, one name wherever the page names it (twenty-seventh reading: the verdict and the
# budget line named it in other words than the check's title): cell 0 defines both of its models.
BAR = "the faster of fp32 and whole-model int8"


def check_faster(baseline: nn.Module, candidate, x: torch.Tensor, whole: nn.Module, factor: float,
                 rounds: int = 21, show: bool = True) -> checks.Verdict:
    """Lab 04: compiled for ``x`` (``compile_quantized``), the candidate's outputs stay within int8's tolerance
    of its ``float_twin``'s, and it runs ``factor`` times as fast as the faster of the baseline and ``whole``
    (torchao int8 of the whole baseline: faster on VNNI and AMX, often slower on AVX2's 7-bit path), judged by
    ``speed_reading`` on the median of paired rounds' ratios (each round times the three in turn, on one
    thread) and their spread. A busy moment slows one round's runs alike and moves the median little; where
    the spread still covers ``factor``, ``rounds`` more rounds are timed and all of them judged together."""

    def body():
        MEASURED_SPEED.clear()  # a model not timed here must not inherit an earlier one's speed
        model = _build(candidate)
        kind = quantization_of(model)
        if kind == "torch.ao":
            raise checks.CheckFailed("your model runs torch.ao's eager int8, which lesson 04 measures but "
                                     "deprecates: quantize it with torchao (section 4), as the lab asks")
        fast = _compiled(model, x)
        with bench.threads(1):  # the thread count it was compiled for (another would compile it again)
            off = output_error(fast, float_twin(model), x)  # the int8 kernels' error, not the weights' rounding
        if kind.startswith("int8") and not off <= TOLERANCE["int8"]:  # a NaN error is not within it either
            shown = f"{off:.1%}" if off < 10 else "over 1000%"
            raise checks.CheckFailed(f"compiled, your model's outputs are {shown} off its float twin's "
                                     f"({TWIN}), beyond int8's tolerance of {TOLERANCE['int8']:.0%}: a fast "
                                     f"wrong answer (this CPU: {int8_path(x.device)}); see section 4's int8 "
                                     "on older CPUs")
        samples = _paired_samples(baseline, whole, fast, x, rounds)
        if speed_reading(paired_speed(samples), factor) == "cannot tell":  # more rounds before saying either
            more = _paired_samples(baseline, whole, fast, x, rounds)
            samples = {name: seconds + more[name] for name, seconds in samples.items()}
        fewer = _weights(baseline) / max(_weights(model), 1)  # as the plan line counts them
        speed = replace(paired_speed(samples), fewer=fewer)
        MEASURED_SPEED[:] = [(hidden_widths(model), kind, speed)]  # the plan's summary reads these same figures
        runs = (f"batch of {len(x)}, on the CPU; each figure the median of {speed.rounds} interleaved "
                "rounds' own ratios, a round timing the three in turn")
        reading, why = speed_reading(speed, factor), _why_not_faster(model, baseline)
        said = f"{speed.over:.2f}x ± {speed.spread:.2f} as fast as {BAR} ({reference_words(speed.gain)}; {runs})"
        if reading == "short":
            raise checks.CheckFailed(f"your model is {said}, short of {factor:g}x{why}")
        if reading == "cannot tell":
            raise checks.CheckFailed(f"your model is {said}: the rounds' spread covers {factor:g}x, so this "
                                     f"run cannot tell it at least {factor:g}x; leave a margin{why}")
        # one sentence: the plan's Speed line reads the rest (the medians' division, the work's proportion)
        return (f"compiled as the trained model is, yours ran at {speed.over:.2f}x ± {speed.spread:.2f} the speed "
                f"of {BAR} ({reference_words(speed.gain)}; "
                f"{runs}), and its outputs "
                f"are {off:.2%} off its float twin's ({TWIN}; tolerance {TOLERANCE['int8']:.0%})")

    return checks.run_check(f"at least {factor:g}x the speed of {BAR}", body,
                            show=show,
                            hint=checks.stub_message(BANK, "A"))


@dataclass(frozen=True)
class PairedSpeed:
    """The speed check's figures, each the median of paired rounds' own ratios (a round times the three
    models in turn), so that a busy moment, which slows one round's three runs alike, cancels in its ratio."""

    ratio: float   # the trained model's time over yours
    over: float    # the reference's time over yours: the reference is BAR
    spread: float  # ``claims.paired_spread`` of the rounds' ``over`` ratios
    gain: float    # the trained model's time over int8 of the whole model's: above 1, int8 is the reference
    rounds: int
    fewer: float | None = None  # the whole model's weights over yours (``_weights``), once the check counted them


def _paired_samples(baseline: nn.Module, whole: nn.Module, fast: nn.Module, x: torch.Tensor,
                    rounds: int) -> dict[str, list[float]]:
    """Each model's seconds, round by round (``compare_latency``, interleaved: sample r from round r)."""
    times = compare_latency({"baseline": fp32_compiled(baseline, x), "whole": whole, "yours": fast}, x,
                            rounds=rounds)
    return {name: list(m.samples) for name, m in times.items()}


def paired_speed(samples: dict[str, list[float]]) -> PairedSpeed:
    """Lab 04: ``PairedSpeed`` from the seconds of "baseline", "whole" and "yours", round by round."""
    base, whole, yours = samples["baseline"], samples["whole"], samples["yours"]
    gain = statistics.median(b / w for b, w in zip(base, whole))
    reference = whole if int8_set_the_bar(gain) else base  # the faster of the two, by their own paired rounds
    over = [r / y for r, y in zip(reference, yours)]
    return PairedSpeed(statistics.median(b / y for b, y in zip(base, yours)), statistics.median(over),
                       claims.paired_spread(over), gain, len(yours))


def int8_set_the_bar(gain: float) -> bool:
    """Whether int8 of the whole model is the faster of the two, judged on its speed-up over the trained model
    as printed (two decimals): whole-model int8 at 1.004x prints "1.00x", no faster, so the trained model is the bar,
    and every sentence that names the bar says so from the same printed figure."""
    return claims.as_printed(gain, 2) > 1


def speed_reading(speed: PairedSpeed, factor: float) -> str:
    """"met", "short" or "cannot tell", on the figures as printed (two decimals): met where the median less
    the spread reaches ``factor``, short where the median plus the spread stays under it; otherwise the
    spread covers ``factor`` (the course's noise rule, ``claims.within_noise``) and this run cannot tell."""
    over, spread = claims.as_printed(speed.over, 2), claims.as_printed(speed.spread, 2)
    if round(over - spread, 9) >= factor:  # to 9 decimals: 1.62 - 0.12 is 1.5000000000000002 in floats
        return "met"
    return "short" if round(over + spread, 9) < factor else "cannot tell"


def medians_note(speed: PairedSpeed) -> str:
    """Where int8 of the whole model set the bar and the two speeds printed over the trained model divide to
    another figure than the paired one (11.50x / 3.28x = 3.51x against 3.34x), the clause that prints that
    division and says which one the check reads (``claims.medians_divide_to``: the figures as printed); else "".
    It follows the paired figure, so it does not print that figure again."""
    ratio, gain = claims.as_printed(speed.ratio, 2), claims.as_printed(speed.gain, 2)
    if not int8_set_the_bar(gain):
        return ""  # the trained model set the bar: the two figures are the same median
    divided = claims.medians_divide_to(speed.over, ratio, gain)
    if divided is None:  # they divide to the paired figure as printed: nothing to add
        return ""
    return (f" ({speed.ratio:.2f}x / {speed.gain:.2f}x = {divided:.2f}x from the two medians; the check reads "
            "the median of each round's own ratio)")


def reference_words(gain: float) -> str:
    """What int8 of the whole model bought in the speed check's runs, and so which model the budget is set by
    (the figure is measured in the same interleaved runs as the learner's model, and printed only there)."""
    if int8_set_the_bar(gain):
        return f"in these runs int8 of the whole model ran {gain:.2f}x the trained model's speed, so it set the bar"
    return (f"in these runs int8 of the whole model ran {gain:.2f}x the trained model's speed, no faster, so the "
            "trained model set the bar")


def _why_not_faster(model: nn.Module, baseline: nn.Module) -> str:
    """The plausible reason a candidate is not fast enough, named from what it is."""
    kind, narrower = quantization_of(model), hidden_widths(model) != hidden_widths(baseline)
    if kind == "int8_weight_only":
        return (": weight-only int8 stores int8 but multiplies in floating point, so where the matmuls decide "
                "(the regime of lesson 04's roofline at this batch) it buys no time")
    if kind == "float":
        return ": its matrix multiplies are still floating point, slower per operation than int8's"
    if kind == "int4_weight_only":
        return ": int4 weight-only multiplies in bf16: fewer bytes, not cheaper multiplies"
    if zero_share(model) > 0.3:
        return ": zeros from unstructured pruning are still multiplied"
    if not narrower:
        return ": it does the same work as the whole model; only less work is faster than that"
    return ": fewer neurons cut the work, but not in proportion at every width: time a few widths"


def paired_drop(baseline: nn.Module, model: nn.Module, test_set) -> tuple[float, float, float, float]:
    """Accuracy before and after, the drop (fractions) and its paired standard error. Lab 04.

    Per image, the difference is 1 (lost), -1 (gained) or 0 (same answer either way); the drop is its mean and
    the standard error its standard deviation over sqrt(n): only the images the two models disagree on count.
    """
    before, after = models.correct_answers(baseline, test_set), models.correct_answers(model, test_set)
    differences = before - after  # (n,)
    error = differences.std().item() / len(differences) ** 0.5 if len(differences) > 1 else float("nan")
    return before.mean().item(), after.mean().item(), differences.mean().item(), error


def check_accuracy(baseline: nn.Module, candidate, max_drop: float, seed: int = 0,
                   show: bool = True) -> checks.Verdict:
    """Lab 04: on the held-out images (``lab_data`` does not hand them out), the accuracy drop (a fraction,
    paired: the same images for both models) is within ``max_drop`` even at its upper bound, the drop plus two
    paired standard errors: a drop under the limit by less than that is one the measurement cannot tell from
    one over it (lesson 04's reading of a drop beside its spread)."""

    def body():
        model = _build(candidate)
        held_out = _splits(seed)[2]
        with torch.inference_mode():
            before, after, drop, error = paired_drop(baseline, model, held_out)
        drop, error, upper = drop_as_printed(drop, error)  # points: the bound a learner adds up from the page
        limit = claims.as_printed(max_drop, 2, 0.01)
        spread = f"{drop:.2f} ± {error:.2f} points (paired standard error, {len(held_out):,} images)"
        worked = (f"{drop_worked(before, after, len(held_out))} ± {error:.2f} points (paired standard error"
                  f"{percentages_note(before, after, len(held_out))})")
        if drop > limit:
            raise checks.CheckFailed(f"on the held-out images your model loses {spread}, over the limit of "
                                     f"{max_drop * 100:g} points{_why_less_accurate(model, baseline)}")
        if upper > limit:
            raise checks.CheckFailed(f"on the held-out images your model loses {spread}: under the limit of "
                                     f"{max_drop * 100:g} points, but by less than two standard errors (up to "
                                     f"{upper:.2f} points), so the check cannot tell it within the budget; "
                                     f"leave a margin{_why_less_accurate(model, baseline)}")
        bound = (f"at most {drop:.2f} + 2 x {error:.2f} = {upper:.2f} points at two standard errors, within the "
                 f"limit of {max_drop * 100:g} points" if error > 0 else "the two models agree on every image")
        return f"held-out accuracy {accuracy_counts(before, after, len(held_out))}: a drop of {worked}; {bound}"

    return checks.run_check(f"accuracy drop at most {max_drop * 100:g} points ({max_drop:g})", body, show=show,
                            hint=checks.stub_message(BANK, "A"))


def accuracy_counts(before: float, after: float, images: int) -> str:
    """"97.14% -> 96.67% (612 -> 609 of 630 images right)": the two accuracies (fractions) with the counts they
    come from, so that the drop printed after them is worked from printed figures: 3 / 630 is 0.48 points,
    where the percentages, each rounded, subtract to 0.47 (twenty-fourth reading)."""
    return f"{before:.2%} -> {after:.2%} ({round(before * images):,} -> {round(after * images):,} of {images:,} " \
           "images right)"


def drop_worked(before: float, after: float, images: int) -> str:
    """"3 of 630 images: 0.48": the drop in points worked from the images each model got right (``accuracy_counts``'
    counts), so that it reads from the counts printed before it (twenty-seventh reading: "97.14% -> 96.67% ...:
    a drop of 0.48", where the percentages subtract to 0.47). A gain prints as a negative drop: "-2 of 630
    images: -0.32" (not "3/630 = 0.48": 3/630 is 0.0048, the points are that times 100)."""
    lost = round(before * images) - round(after * images)
    return f"{lost:,} of {images:,} images: {claims.half_up(100 * lost / images, 2):.2f}"


def percentages_note(before: float, after: float, images: int) -> str:
    """"; from the counts: the rounded percentages subtract to 0.47" where the two percentages
    ``accuracy_counts`` prints do not subtract to the drop ``drop_worked`` prints, so that a reader knows which
    figure to redo (fortieth reading); nothing where they agree."""
    from_percentages = float(f"{before * 100:.2f}") - float(f"{after * 100:.2f}")
    lost = round(before * images) - round(after * images)
    from_counts = claims.half_up(100 * lost / images, 2)
    if round(from_percentages, 2) == from_counts:
        return ""
    return f"; from the counts: the rounded percentages subtract to {from_percentages:.2f}"


def drop_as_printed(drop: float, error: float) -> tuple[float, float, float]:
    """The drop and its paired standard error (fractions) in points at the two decimals the check prints, and
    its upper bound, the drop plus two standard errors, added up from those printed figures (the drop alone
    where the error is 0: the two models agree on every image)."""
    drop, error = claims.as_printed(drop, 2, 0.01), claims.as_printed(error, 2, 0.01)
    return drop, error, claims.as_printed(drop + 2 * error, 2) if error > 0 else drop


def _why_less_accurate(model: nn.Module, baseline: nn.Module) -> str:
    """The plausible reason a candidate lost accuracy, named from what it is."""
    narrower = hidden_widths(model) != hidden_widths(baseline)
    if narrower:
        return (": removing neurons costs accuracy that only learning again wins back (lesson 04: fine-tuning "
                "after pruning, distillation); judge it on the validation images, not the training ones")
    return ": compare its validation accuracy with the trained model's after each step, to see which step costs it"


def budget_sentence(baseline: nn.Module, whole: nn.Module, x: torch.Tensor, size_target: float,
                    factor: float) -> str:
    """Lab 04: what int8 of the whole model saves in bytes on this machine (measured: a state dict's size does
    not vary), and the budgets. Its speed is not timed here: the speed check times it in the same interleaved
    runs as the learner's model and prints it there, so that the page holds one measurement of it."""
    smaller = model_bytes(baseline) / model_bytes(getattr(whole, "_orig_mod", whole))
    lines = [f"This CPU's int8: {int8_path(x.device)}.",
             f"torchao's int8 of the whole model stores {smaller:.2f}x fewer bytes than the trained model.",
             f"Your budgets: at least {size_target:g}x fewer bytes; at least {factor:g}x the speed of {BAR} "
             f"(batch of {len(x)}), both compiled. The speed check times the three in the same interleaved runs "
             "and prints there what whole-model int8 bought; to see it while you plan, time it yourself with "
             "compare_latency."]
    return "\n".join(textwrap.fill(line, 110) for line in lines)


def _weights(model: nn.Module) -> int:
    """The weights of every linear layer, its matrix's entries counted from its shape (float or quantized
    alike), biases not counted: "weight" means one thing wherever the plan's lines use it (twenty-third
    reading: the Bytes line counted the biases as weights, the next sentence as stored beyond them)."""
    shaped = [m for m in model.modules() if all(isinstance(getattr(m, name, None), int)
                                                 for name in ("in_features", "out_features"))]
    return sum(m.in_features * m.out_features for m in shaped)


def _beyond_a_byte(model: nn.Module) -> float:
    """The share of an int8 model's stored bytes that is not its weights' one byte each: each row's scale, the
    biases, the file's own overhead (measured from the state dict's size and the layers' shapes)."""
    return 1 - _weights(model) / model_bytes(model)


def _against_whole(baseline: nn.Module, model: nn.Module, whole: nn.Module | None, per_weight: float) -> str:
    """Why the plan's bytes a weight differ from int8 of the whole model's, from the stored bytes: in a thinner
    model what is stored beyond one byte a weight weighs more ("" where either is not int8)."""
    whole = getattr(whole, "_orig_mod", whole)
    if whole is None or not quantization_of(model).startswith("int8") or \
            not quantization_of(whole).startswith("int8"):
        return ""
    ratio = model_bytes(baseline) / model_bytes(whole)
    if f"{per_weight:.2f}" == f"{ratio:.2f}":
        return f" The same {ratio:.2f}x a weight as int8 of the whole model."
    return (f" Int8 of the whole model stores {ratio:.2f}x fewer bytes a weight, yours {per_weight:.2f}x: what is "
            f"stored beyond one byte a weight (each row's scale, the biases, the file's own overhead) is "
            f"{_beyond_a_byte(model):.1%} of your model's bytes and {_beyond_a_byte(whole):.1%} of the whole "
            "model's.")


def _size_line(baseline: nn.Module, model: nn.Module, size_target: float, whole: nn.Module | None = None) -> str:
    """Which factor of the stored bytes the plan changed, measured: weights kept, bytes a weight; beside int8 of
    the whole model's bytes a weight (``whole``), where both are int8."""
    total = model_bytes(baseline) / model_bytes(model)
    fewer = _weights(baseline) / max(_weights(model), 1)
    per_weight = total / fewer
    if max(fewer, per_weight) >= size_target:
        which = "fewer weights" if fewer >= per_weight else "fewer bytes a weight"
        verdict = f"{which} alone reach {size_target:g}x"
    else:
        verdict = f"neither alone reaches {size_target:g}x: the two savings multiply"
    return (f"Bytes: {fewer:.2f}x fewer weights times {per_weight:.2f}x fewer bytes a weight make "
            f"{total:.1f}x; {verdict}." + _against_whole(baseline, model, whole, per_weight))


def _accuracy_line(baseline: nn.Module, model: nn.Module, seed: int) -> str:
    """The drop the learner could judge (validation) beside the one the check measured (held out)."""
    _, validation, held_out = _splits(seed)
    with torch.inference_mode():
        *_, seen, seen_error = paired_drop(baseline, model, validation)
        *_, unseen, unseen_error = paired_drop(baseline, model, held_out)
    # in points as printed: the difference of the two drops and the standard error of their difference are
    # worked from the printed figures (twenty-fourth reading: 2 x √(0.52² + 0.35²) is 1.25, not 1.27)
    seen, seen_error, unseen, unseen_error = (claims.as_printed(x, 2, 0.01)
                                              for x in (seen, seen_error, unseen, unseen_error))
    differ = claims.half_up(unseen - seen, 2)
    twice = claims.half_up(2 * (seen_error ** 2 + unseen_error ** 2) ** 0.5, 2)
    if abs(differ) <= twice:
        verdict = (f"they differ by {abs(differ):.2f} points, within two standard errors of their difference "
                   f"(2 x √({seen_error:.2f}² + {unseen_error:.2f}²) = {twice:.2f}): not distinguishable at this "
                   "size; the held-out images do not contradict the validation result")
    elif differ > 0:
        verdict = ("the held-out drop is larger by more than two standard errors: validation flattered the "
                   "plan; leave a margin under the budget")
    else:
        verdict = ("the held-out drop is smaller by more than two standard errors: the held-out images were "
                   "kinder")
    step = lambda images: f"one image: {100 / len(images):.2f} points"  # noqa: E731 - the smallest drop each can show
    return (f"Accuracy: a drop of {seen:.2f} ± {seen_error:.2f} points on the validation images you "
            f"could judge it on ({step(validation)}), {unseen:.2f} ± {unseen_error:.2f} on the "
            f"held-out ones ({step(held_out)}; paired standard errors); {verdict}.")


def _speed_line(model: nn.Module, baseline: nn.Module, whole: nn.Module | None) -> str:
    """The speed check's reading (goal 2: which saving buys speed, against whole-model int8), from the figures that
    check printed for this same model; where it did not time this model, said so. Its verdict comes first, the
    speed-up in proportion to the work on a line of its own after it (thirty-second reading: that reference ran
    six lines inside the sentence a learner reads as the verdict on their plan)."""
    kind, widths = quantization_of(model), hidden_widths(model)
    if not MEASURED_SPEED or MEASURED_SPEED[0][:2] != (widths, kind):
        return "Speed: not timed for this plan (run the speed check above on it)."
    speed = MEASURED_SPEED[0][2]
    whole_kind = quantization_of(getattr(whole, "_orig_mod", whole)) if whole is not None else "int8_dynamic"
    said = (f"Speed: whole-model int8 ran {speed.gain:.2f}x the trained model's speed, yours {speed.ratio:.2f}x it. "
            + _against_bar(speed, kind, widths != hidden_widths(baseline), whole_kind))
    reference = in_proportion(speed, kind, kind == whole_kind)
    return f"{said}\n{reference}" if reference else said


def _against_bar(speed: PairedSpeed, kind: str, narrower: bool, whole_kind: str) -> str:
    """What the speed check measured against the bar, and what the one change from it did (every branch)."""
    if int8_set_the_bar(speed.gain):  # the same printed figure as the check's own words
        against = f"{speed.over:.2f}x ± {speed.spread:.2f} whole-model int8's speed{medians_note(speed)}"
        if kind == whole_kind:
            return (f"With int8 in both, {what_it_did('your narrower widths', speed)}: {against}." if narrower else
                    f"With int8 in both and the same widths, yours is whole-model int8: {against}.")
        return (f"Against whole-model int8, yours ran {against}; your weights' type and your widths both differ "
                "from it, and this run does not time the two apart.")
    bar = f"{speed.over:.2f}x ± {speed.spread:.2f} the trained model's speed"
    said = f"Whole-model int8 bought no speed here, so the trained model set the bar: yours ran {bar}"
    if kind == "float":
        return said + (f", float in both: {what_it_did('your narrower widths', speed)}." if narrower else
                       ", float in both and the same widths: the same model.")
    if narrower:
        return said + "; your weights' type and your widths both differ from it, and this run does not time the " \
                      "two apart."
    return said + ", the same widths: " + what_it_did("your weights' type", speed) + "."
