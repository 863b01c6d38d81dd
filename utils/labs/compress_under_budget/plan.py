"""Lab 04's take-away on the learner's plan (``labs/04_compress_under_budget.ipynb``, "What the lab showed"):
the plan and whether it meets every budget at once, visible; how its bytes, speed and accuracy came out, worked
from this run's figures, in the collapsed "How this was measured" block (thirty-eighth reading: 287 words in
one visible block buried the answer). Split from ``checks`` to keep it under the course's 600 lines.

    show_plan(model, candidate, verdicts, SIZE_TARGET, seed=SEED, whole=WHOLE)
"""

from __future__ import annotations

import textwrap

from torch import nn

from utils import checks
from utils.details import how_measured
from utils.labs.compress_under_budget.checks import (_accuracy_line, _build, _size_line, _speed_line,
                                                     hidden_widths, quantization_of)
from utils.lessons.compression.measure import model_bytes


def plan_lines(baseline: nn.Module, candidate, verdicts: list[checks.Verdict], size_target: float = 12.0,
               seed: int = 0, whole: nn.Module | None = None) -> list[str]:
    """Lab 04's take-away, from the run: what the learner's plan is and which budgets it met (the first line,
    the answer), then which factor of the bytes each saving changed, what the speed check measured against
    whole-model int8, and whether the accuracy judged on validation held on the held-out images."""
    try:
        model = _build(candidate)
    except Exception:  # unfinished or wrong: the checks above have said why
        return ["Your plan: not built yet (the checks above say why)."]
    widths, kind = hidden_widths(model), quantization_of(model)
    missed = [v.name for v in verdicts if not v.passed]
    met = ", ".join(v.name for v in verdicts if v.passed) or "none"
    said = [f"Your plan: hidden widths {widths} (the trained model's: {hidden_widths(baseline)}), weights "
            f"{kind.replace('_', ' ')}, {model_bytes(baseline) / model_bytes(model):.1f}x fewer bytes. "
            + ("It meets every budget at once." if not missed else f"Met: {met}; still missed: {', '.join(missed)}.")]
    try:
        said += [_size_line(baseline, model, size_target, whole), _speed_line(model, baseline, whole),
                 _accuracy_line(baseline, model, seed)]
    except Exception as exc:  # noqa: BLE001 - a model that cannot be measured: the checks say why
        said.append(f"Its bytes and accuracy could not be read ({type(exc).__name__}): the checks above say "
                    "why.")
    return said


def show_plan(baseline: nn.Module, candidate, verdicts: list[checks.Verdict], size_target: float = 12.0,
              seed: int = 0, whole: nn.Module | None = None) -> None:
    """Prints the plan's first line, the answer; the bytes, speed and accuracy lines (``plan_lines``) go into
    the collapsed block, one click away. Lab 04."""
    answer, *worked = plan_lines(baseline, candidate, verdicts, size_target, seed, whole)
    print(wrapped([answer]))
    if worked:
        how_measured("your plan's bytes, speed and accuracy, from this run's figures", wrapped(worked))


def wrapped(lines: list[str]) -> str:
    """The plan's lines, each wrapped to 110 characters with its continuation indented; a break inside a line
    starts a paragraph indented as that continuation (the Speed line's reference, ``_speed_line``)."""
    parts = [(part, "  " if n else "") for line in lines for n, part in enumerate(line.split("\n"))]
    return "\n".join(textwrap.fill(part, 110, initial_indent=first, subsequent_indent="  ") for part, first in parts)
