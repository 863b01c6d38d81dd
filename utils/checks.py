"""Automatic checks for the labs: run the learner's code, measure, and say what to do next.

Introduced in ``labs/00_fix_the_article.ipynb``; every lab uses it. A check never raises into the
notebook: an unfinished exercise (its stub raises ``NotImplementedError``) reports *not done yet*, a wrong
answer reports what failed, by how much, and a hint, and the rest of the notebook still runs.

    def check_split(model_cls):
        def body():
            out = model_cls(...)(x)
            expect_close(out, reference, atol=1e-6, what="the split model's output")
        return run_check("model split", body, hint="move the activation with .to(dev1)")

``run_check`` returns a ``Verdict`` (``.status`` is "passed", "failed" or "not done yet") and shows it.
"""

from __future__ import annotations

import html
import traceback
from dataclasses import dataclass
from typing import Callable

from utils.tables import show as display

PASSED, FAILED, NOT_DONE = "passed", "failed", "not done yet"
# The latest verdict of every check run in this kernel, by name (re-running a cell replaces its verdict).
HISTORY: dict[str, "Verdict"] = {}
ICONS = {PASSED: "✅", FAILED: "❌", NOT_DONE: "⏳"}
COLOURS = {PASSED: "#1a7f37", FAILED: "#cf222e", NOT_DONE: "#9a6700"}


class CheckFailed(AssertionError):
    """Raised inside a check body: the message says what failed and by how much."""


@dataclass
class Verdict:
    name: str
    status: str
    message: str = ""
    hint: str = ""

    @property
    def passed(self) -> bool:
        return self.status == PASSED

    def __str__(self) -> str:
        text = f"{ICONS[self.status]} {self.name}: {self.status}"
        if self.message:
            text += f". {self.message}"
        if self.hint and self.status != PASSED:
            text += f"\n   hint: {self.hint}"
        return text

    def _repr_html_(self) -> str:
        hint = (f"<br><span style='margin-left:1.5em'><i>hint:</i> {html.escape(self.hint)}</span>"
                if self.hint and self.status != PASSED else "")
        message = f". {html.escape(self.message)}" if self.message else ""
        return (f"<div style='color:{COLOURS[self.status]}'>{ICONS[self.status]} <b>{html.escape(self.name)}"
                f"</b>: {self.status}{message}{hint}</div>")

    def __repr__(self) -> str:
        return str(self)


def _is_not_implemented(exc: BaseException) -> bool:
    """True when the learner's stub (or anything it called) raised NotImplementedError."""
    while exc is not None:
        if isinstance(exc, NotImplementedError) or "NotImplementedError" in str(exc):
            return True
        exc = exc.__cause__ or exc.__context__
    return False


def _where(exc: BaseException) -> str:
    """The last frame of the traceback that is the learner's notebook code, as 'line N'."""
    frames = traceback.extract_tb(exc.__traceback__)
    mine = [f for f in frames if "ipykernel" in f.filename or f.filename.startswith("<")]
    return f" (in your code, line {mine[-1].lineno}: {mine[-1].line})" if mine and mine[-1].line else ""


def run_check(name: str, body: Callable[[], str | None], hint: str = "", show: bool = True) -> Verdict:
    """Run ``body``; it raises ``CheckFailed`` for a wrong answer and may return a success message."""
    try:
        message = body() or ""
        verdict = Verdict(name, PASSED, message)
    except CheckFailed as exc:
        verdict = Verdict(name, FAILED, str(exc), hint)
    except Exception as exc:  # noqa: BLE001 - any error in the learner's code becomes feedback
        if _is_not_implemented(exc):
            verdict = Verdict(name, NOT_DONE, "the exercise still raises NotImplementedError", hint)
        else:
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
            verdict = Verdict(name, FAILED, f"your code raised {type(exc).__name__}: {first}{_where(exc)}", hint)
    HISTORY[name] = verdict
    if show:

        display(verdict)
    return verdict


# --- Expectations used inside check bodies ---------------------------------------------------------------


def expect(condition: bool, message: str) -> None:
    """Fail the check with ``message`` unless ``condition`` holds."""
    if not condition:
        raise CheckFailed(message)


def expect_close(actual, expected, *, atol: float = 1e-6, rtol: float = 0.0, what: str = "the result") -> float:
    """Tensors (or numbers) equal within ``atol + rtol*|expected|``; fails saying by how much. Returns the gap."""
    import torch

    actual = torch.as_tensor(actual).detach().cpu()
    expected = torch.as_tensor(expected).detach().cpu()
    expect(actual.shape == expected.shape,
           f"{what} has shape {tuple(actual.shape)}, expected {tuple(expected.shape)}")
    gap = (actual.double() - expected.double()).abs()
    allowed = atol + rtol * expected.double().abs()
    worst = gap.max().item() if gap.numel() else 0.0
    expect(bool((gap <= allowed).all()), f"{what} differs from the reference by up to {worst:.3g} "
                                         f"(allowed {atol:.1g}{f' + {rtol:.1g}×|reference|' if rtol else ''})")
    return worst


def expect_at_least(value: float, target: float, what: str, unit: str = "") -> None:
    """``value >= target``, or fail saying how far short it is."""
    expect(value >= target, f"{what} is {value:.3g}{unit}, short of the target {target:.3g}{unit} "
                            f"by {target - value:.3g}{unit}")


def expect_at_most(value: float, target: float, what: str, unit: str = "") -> None:
    """``value <= target``, or fail saying by how much it is over."""
    expect(value <= target, f"{what} is {value:.3g}{unit}, over the limit {target:.3g}{unit} "
                            f"by {value - target:.3g}{unit}")


def summary(verdicts: list[Verdict] | None = None) -> str:
    """One line for the end of a lab: how many checks passed, failed, or are not done yet.

    Without ``verdicts`` it sums up every check run in this kernel (``HISTORY``).
    """
    verdicts = list(HISTORY.values()) if verdicts is None else verdicts
    counts = {s: sum(v.status == s for v in verdicts) for s in (PASSED, FAILED, NOT_DONE)}
    line = f"{counts[PASSED]}/{len(verdicts)} checks passed"
    if counts[FAILED]:
        line += f", {counts[FAILED]} failed"
    if counts[NOT_DONE]:
        line += f", {counts[NOT_DONE]} not done yet"
    return line
