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

**Hints** (every lab uses them). A lab's hints live in ``utils/labs/<slug>/hints.toml``, one table per
exercise (part), never in the notebook:

    [A]
    hints = ["level 1: the concept, and the API to look up (the student stub's message)",
             "level 2: fuller: how the pieces fit, still no line to type"]

- ``hint("labs/<slug>", "A", level=2)`` returns level 2 of exercise A's hints (a ``Hint``: a cell that
  ends with it shows it); a learner types it in any cell. Every lab spells it this one way,
  ``checks.hint("labs/<slug>", "A", 2)``, as the stubs' messages do (``hints_for`` binds a bank, for code).
- In a lab source, a solution block that holds ``# PART: A`` becomes, in the student copy,
  ``raise NotImplementedError("exercise A: <level 1> (more: checks.hint('labs/<slug>', 'A', 2))")``
  (``utils.tools.nbtools.strip_solutions``; a ``# HINT: text`` line still gives a literal message).
- ``hint_texts("labs/<slug>")`` gives every part's texts. ``tests/test_labs.py`` holds every stub message,
  hint and check hint to "no line of the solution, no ``keyword=value``, no call with arguments that the
  solution contains".
Hints name the concept and the API to look up, never the line to type. A lab source says at the top (second
cell, ``utils.tools.nbtools.SOURCE_NOTE``) that it holds the solutions; its student copy replaces that note.

**Watching a distributed worker.** ``watched(worker)`` runs a launched worker inside a ``DistributedWatch``
(bytes and calls each rank's DDP all-reduced, optimizer steps, the indices each ``DistributedSampler`` pass
handed out); ``expect_wrapped_in_ddp`` and ``expect_own_share_each_epoch`` judge the reports.
"""

from __future__ import annotations

import html
import textwrap
import traceback
from dataclasses import dataclass
from typing import Callable

from utils.tables import show as display

PASSED, FAILED, NOT_DONE = "passed", "failed", "not done yet"
# The latest verdict of every check run in this kernel, by name (re-running a cell replaces its verdict).
HISTORY: dict[str, "Verdict"] = {}
ICONS = {PASSED: "✅", FAILED: "❌", NOT_DONE: "⏳"}
WIDTH = 110  # columns of a verdict as text
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
        # Wrapped at 110 columns (the learner's form, issue 22): a verdict is read, not scrolled sideways.
        text = f"{ICONS[self.status]} {self.name}: {self.status}"
        if self.message:
            text += f". {self.message}"
        text = _wrap(text, "", "   ")
        if self.hint and self.status != PASSED:
            text += "\n" + _wrap(f"hint: {self.hint}", "   ", "         ")
        return text

    def _repr_html_(self) -> str:
        hint = (f"<br><span style='margin-left:1.5em'><i>hint:</i> {html.escape(self.hint)}</span>"
                if self.hint and self.status != PASSED else "")
        message = f". {html.escape(self.message)}" if self.message else ""
        return (f"<div style='color:{COLOURS[self.status]}'>{ICONS[self.status]} <b>{html.escape(self.name)}"
                f"</b>: {self.status}{message}{hint}</div>")

    def __repr__(self) -> str:
        return str(self)


def _wrap(text: str, first: str, rest: str) -> str:
    """``text`` wrapped at ``WIDTH`` columns, line by line (a message's own line breaks are kept)."""
    return "\n".join(textwrap.fill(line, WIDTH, initial_indent=first if k == 0 else rest, subsequent_indent=rest,
                                    break_on_hyphens=False, break_long_words=False)
                      for k, line in enumerate(text.splitlines() or [""]))


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


def code_names(code) -> set[str]:
    """The global, attribute and enclosing names a code object reads, the functions defined in it included."""
    nested = (code_names(c) for c in code.co_consts if hasattr(c, "co_names"))
    return set(code.co_names + code.co_freevars).union(*nested)


def refers_to(fn, names: set[str], targets: tuple = ()) -> bool:
    """Whether ``fn`` is one of ``targets`` (or shares its code), or its code names one of ``names``, looking
    through ``functools.wraps`` and ``functools.partial``: a lab that asks for the learner's own code uses it
    to refuse the course's worked answer behind a wrapper."""
    target_codes = {getattr(t, "__code__", None) for t in targets} - {None}
    seen = set()
    while fn is not None and id(fn) not in seen:
        seen.add(id(fn))
        code = getattr(fn, "__code__", None)
        if any(fn is t for t in targets) or code in target_codes:
            return True
        if code is not None and code_names(code) & names:
            return True
        fn = getattr(fn, "__wrapped__", None) or getattr(fn, "func", None)
    return False


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


def all_passed() -> bool:
    """Whether at least one check ran in this kernel and every check run passed (``HISTORY``): the gate of a
    lab's quiz and take-aways, which state the checks' answers."""
    return bool(HISTORY) and all(v.passed for v in HISTORY.values())


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


# --- Hints: concept first, a fuller one on request ------------------------------------------------------


@dataclass
class Hint:
    """One hint of one exercise, shown as text or HTML (introduced in ``labs/00_fix_the_article.ipynb``)."""
    bank: str
    part: str
    level: int
    levels: int
    text: str

    def __str__(self) -> str:
        more = (f" (more: checks.hint({self.bank!r}, {self.part!r}, {self.level + 1}))"
                if self.level < self.levels else "")
        return f"💡 hint {self.level}/{self.levels} for exercise {self.part}: {self.text}{more}"

    def _repr_html_(self) -> str:
        return f"<div style='color:#0969da'>{html.escape(str(self))}</div>"

    def __repr__(self) -> str:
        return str(self)


def hints_path(bank: str):
    """``"labs/ddp_from_scratch"`` -> ``utils/labs/ddp_from_scratch/hints.toml``."""
    from pathlib import Path

    path = Path(__file__).parent / bank / "hints.toml"
    if not path.is_file():
        raise FileNotFoundError(f"no hints for {bank!r}: expected {path} (banks are 'labs/<folder>')")
    return path


def hint_texts(bank: str) -> dict[str, list[str]]:
    """Every exercise's hints in ``bank``, by part: ``{"A": [level 1, level 2, ...], ...}``."""
    import tomllib

    path = hints_path(bank)
    with open(path, "rb") as f:
        table = tomllib.load(f)
    texts = {}
    for part, entry in table.items():
        hints = entry.get("hints") if isinstance(entry, dict) else None
        if not (isinstance(hints, list) and hints and all(isinstance(h, str) and h.strip() for h in hints)):
            raise ValueError(f"{path}: [{part}] needs hints = [\"level 1\", \"level 2\", ...] (non-empty)")
        texts[part] = [" ".join(h.split()) for h in hints]  # one line each: TOML's long strings may wrap
    return texts


def hint(bank: str, part: str, level: int = 1) -> Hint:
    """Hint ``level`` (1: the concept and the API; 2 and up: fuller) for exercise ``part`` of ``bank``.

    ``checks.hint("labs/ddp_from_scratch", "B", 2)`` as a cell's last line shows it. Bad input names what
    exists.
    """
    texts = hint_texts(bank)
    if part not in texts:
        raise KeyError(f"{bank} has no exercise {part!r}; its exercises are {sorted(texts)}")
    if not 1 <= level <= len(texts[part]):
        raise ValueError(f"exercise {part} of {bank} has hints 1 to {len(texts[part])}, not {level}")
    return Hint(bank, part, level, len(texts[part]), texts[part][level - 1])


def hints_for(bank: str) -> Callable[..., Hint]:
    """``hint`` bound to one lab's bank: ``lab.hint("A", 2)`` in that lab's notebook."""

    def lab_hint(part: str, level: int = 1) -> Hint:
        return hint(bank, part, level)

    lab_hint.__doc__ = f"Show hint ``level`` of exercise ``part`` of {bank} (see ``utils.checks.hint``)."
    return lab_hint


def stub_message(bank: str, part: str) -> str:
    """What a student stub raises: exercise ``part``'s first hint, and how to ask for the next."""
    texts = hint_texts(bank)
    if part not in texts:
        raise KeyError(f"{bank} has no exercise {part!r} in hints.toml; its exercises are {sorted(texts)}")
    more = f" (more: checks.hint({bank!r}, {part!r}, 2))" if len(texts[part]) > 1 else ""
    return f"exercise {part}: {texts[part][0]}{more}"


# --- Watching a distributed worker: what it sends, how often it steps, what data it reads ----------------


class DistributedWatch:
    """What one rank of a DDP worker did, recorded while it ran (introduced in ``labs/03_ddp_from_scratch``).

    Inside ``with DistributedWatch() as watch:`` (in the worker process, around the learner's function):

    - every ``DistributedDataParallel`` built gets a communication hook that counts the gradient buckets it
      all-reduces (``ddp_models``, ``allreduce_calls``, ``allreduce_bytes``; ``gradient_bytes``: the bytes of
      one full gradient of the wrapped model), then all-reduces them exactly as DDP does without a hook;
    - every optimizer step is counted (``optimizer_steps``), through torch's global step hook;
    - every pass over a ``DistributedSampler`` is recorded as ``(sampler.epoch, [indices], len(dataset))``
      (``epochs``).

    ``report()`` is a plain dict, so a launch can return it to the notebook. Nothing is left patched on exit.
    """

    def __init__(self):
        self.ddp_models = self.allreduce_calls = self.allreduce_bytes = self.gradient_bytes = 0
        self.optimizer_steps = 0
        self.epochs: list[tuple[int, list[int], int]] = []
        self._undo: list[Callable[[], None]] = []

    def __enter__(self) -> "DistributedWatch":
        import torch.optim.optimizer as optim_module
        from torch.nn.parallel import DistributedDataParallel as DDP
        from torch.utils.data import DistributedSampler

        watch, ddp_init, sampler_iter = self, DDP.__init__, DistributedSampler.__iter__

        def counting_init(ddp, *args, **kwargs):
            ddp_init(ddp, *args, **kwargs)
            watch.ddp_models += 1
            watch.gradient_bytes = sum(p.numel() * p.element_size() for p in ddp.module.parameters()
                                       if p.requires_grad)
            ddp.register_comm_hook(None, watch._counting_allreduce)

        def recording_iter(sampler):
            indices = list(sampler_iter(sampler))
            watch.epochs.append((int(sampler.epoch), indices, len(sampler.dataset)))
            return iter(indices)

        DDP.__init__, DistributedSampler.__iter__ = counting_init, recording_iter
        handle = optim_module.register_optimizer_step_post_hook(lambda *_: watch._count_step())
        self._undo = [lambda: setattr(DDP, "__init__", ddp_init),
                      lambda: setattr(DistributedSampler, "__iter__", sampler_iter), handle.remove]
        return self

    def __exit__(self, *exc) -> None:
        for undo in self._undo:
            undo()
        self._undo = []

    def _count_step(self) -> None:
        self.optimizer_steps += 1

    def _counting_allreduce(self, process_group, bucket):  # no annotations: DDP checks a hook's
        """DDP's own all-reduce (``default_hooks.allreduce_hook``), counted: one call per gradient bucket."""
        from torch.distributed.algorithms.ddp_comm_hooks import default_hooks

        buffer = bucket.buffer()  # the bucket's gradients, flattened: (numel,)
        self.allreduce_calls += 1
        self.allreduce_bytes += buffer.numel() * buffer.element_size()
        return default_hooks.allreduce_hook(process_group, bucket)

    def report(self) -> dict:
        return {"ddp_models": self.ddp_models, "allreduce_calls": self.allreduce_calls,
                "allreduce_bytes": self.allreduce_bytes, "gradient_bytes": self.gradient_bytes,
                "optimizer_steps": self.optimizer_steps, "epochs": self.epochs}


def watched(worker: Callable) -> Callable:
    """``worker`` run inside a ``DistributedWatch``: returns ``{"result": its result, "watch": the report}``.

    The launcher forks, so the closure reaches the workers as it is.
    """

    def watched_worker(*args):
        with DistributedWatch() as watch:
            result = worker(*args)
        return {"result": result, "watch": watch.report()}

    watched_worker.__name__ = getattr(worker, "__name__", "worker")
    return watched_worker


def expect_wrapped_in_ddp(reports: list[dict]) -> None:
    """Every rank wrapped a model in ``DistributedDataParallel`` and all-reduced gradients (reports of
    ``DistributedWatch``)."""
    for rank, report in enumerate(reports):
        expect(report["ddp_models"] > 0,
               f"rank {rank} never wrapped its model in DistributedDataParallel, so no gradient was "
               "all-reduced (0 bytes sent): each rank trained its own model, and agreeing weights only mean "
               "they saw the same data")
        expect(report["allreduce_bytes"] > 0,
               f"rank {rank} built a DDP model but never all-reduced a gradient: did backward run on the DDP "
               "model's output, outside no_sync?")


def expect_own_share_each_epoch(reports: list[dict], min_epochs: int = 2) -> str:
    """Each rank read its own share of the data (disjoint from every other rank's) in a new order each epoch.

    Measured from the passes over each rank's ``DistributedSampler`` (``DistributedWatch``); returns a
    summary.
    """
    for rank, report in enumerate(reports):
        expect(report["epochs"], f"rank {rank} read no data through a DistributedSampler: every rank then "
                                 "reads the same samples, and the second rank's work is wasted")
        expect(len(report["epochs"]) >= min_epochs,
               f"rank {rank} went over its data {len(report['epochs'])} time(s); this check runs "
               f"{min_epochs} epochs (does the loop start a new pass over the DataLoader when one ends?)")
    passes, world = min(len(r["epochs"]) for r in reports), len(reports)
    for k in range(passes):
        shares = [set(r["epochs"][k][1]) for r in reports]
        n_items = reports[0]["epochs"][k][2]
        padding = -n_items % world  # without drop_last, the sampler repeats this many to even out the shares
        for a in range(len(shares)):
            for b in range(a + 1, len(shares)):
                common = len(shares[a] & shares[b])
                expect(common <= padding,
                       f"in pass {k} over the data, ranks {a} and {b} read {common} samples in common "
                       f"({common / max(len(shares[a]), 1):.0%} of a share): each rank needs its own share "
                       "(the sampler's rank and number of replicas, the same seed everywhere)")
    for rank, report in enumerate(reports):
        for k in range(1, len(report["epochs"])):
            (e0, first, _), (e1, then, _) = report["epochs"][k - 1], report["epochs"][k]
            why = ("the sampler was told the same epoch both times: it reshuffles only when told each new "
                   "epoch" if e0 == e1 else "is the sampler shuffling?")
            expect(first != then, f"rank {rank} read its share in the same order in passes {k - 1} and {k} "
                                  f"(epoch {e0} then {e1}): {why}")
    share = len(reports[0]["epochs"][0][1])
    return f"{len(reports)} disjoint shares of {share} samples, a new order in each of {passes} epochs"
