"""Lab 08's exercise B habits in one call (``check_fixes``): one verdict that names none of them until all four
pass (``fixes_verdict``). Split from ``checks``, which holds the four checks and re-exports these for the
notebook."""

from __future__ import annotations

from utils import checks
from utils.labs.make_it_fast import checks as lab
from utils.labs.make_it_fast import script
from utils.tables import show as display


def check_fixes(train_fn, steps: int = script.STEPS, show: bool = True) -> list[checks.Verdict]:
    """Exercise B's habits, one verdict each: communication, feeding, threads, the work asked for. One call, so
    that the notebook's cell does not name what exercise A asks the learner to find: until all four pass it
    shows one verdict, how many passed and what the failing ones measured in the learner's run, never their
    names; once they pass, each by name."""
    found = [check(train_fn, steps, show=False)   # looked up on ``lab`` when called, where the checks live
             for check in (lab.check_communication, lab.check_feeding, lab.check_threads, lab.check_asked_for)]
    if show:
        for verdict in found if all(v.passed for v in found) else [fixes_verdict(found)]:
            display(verdict)
    return found


def fixes_verdict(found: list[checks.Verdict]) -> checks.Verdict:
    """One verdict for exercise B's habits that names none: not done yet, or how many of them passed and,
    for the rest, what the run measured (each failure's first clause: the learner's evidence, not the fix)."""
    name, hint = "exercise B's fixes", checks.stub_message(lab.BANK, "B")
    if any(v.status == checks.NOT_DONE for v in found):
        return checks.Verdict(name, checks.NOT_DONE, "the exercise still raises NotImplementedError", hint)
    failed = [v for v in found if not v.passed]
    if not failed:
        return checks.Verdict(name, checks.PASSED, f"{len(found)} of {len(found)} found")
    evidence = list(dict.fromkeys(v.message if v.message.startswith("your code raised")
                                  else v.message.split(": ")[0] for v in failed))
    return checks.Verdict(name, checks.FAILED, f"{len(found) - len(failed)} of {len(found)} passed; what the "
                          f"{len(failed)} others measured in your run: {'; '.join(evidence)}", hint)
