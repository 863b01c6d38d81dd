"""Lab 08: whether the learner's ``fast_train`` is their own script, not the reference plan behind a wrapper.

    is_the_reference(fast_train)   # True for reference_train itself, a wrapper, a lambda or a partial of it
"""

from __future__ import annotations

from utils.labs.make_it_fast.reference import reference_train


def is_the_reference(train_fn) -> bool:
    """Whether ``train_fn`` is the reference plan itself, or a function whose code names it (a wrapper that
    only calls it): the lab asks for the learner's own script."""
    seen, fn = set(), train_fn
    while fn is not None and id(fn) not in seen:  # through functools.wraps and partial
        seen.add(id(fn))
        if fn is reference_train or getattr(fn, "__code__", None) is reference_train.__code__:
            return True
        code = getattr(fn, "__code__", None)
        if code is not None and _names_in(code) & {"reference_train"}:
            return True
        fn = getattr(fn, "__wrapped__", None) or getattr(fn, "func", None)
    return False


def _names_in(code) -> set[str]:
    """Every global and attribute name a code object and the functions defined in it refer to."""
    names = set(code.co_names)
    for const in code.co_consts:
        if hasattr(const, "co_names"):
            names |= _names_in(const)
    return names
