"""Lab 08: whether the learner's ``fast_train`` is their own script, not the reference plan behind a wrapper.

    is_the_reference(fast_train)   # True for reference_train itself, a wrapper, a lambda or a partial of it
"""

from __future__ import annotations

from utils.checks import refers_to


def is_the_reference(train_fn) -> bool:
    """Whether ``train_fn`` is the reference plan itself, or a function whose code names it (a wrapper that
    only calls it): the lab asks for the learner's own script. The plan is imported here, not held at the
    module's top, so that nothing the lab imports leads to it."""
    from utils.labs.make_it_fast.reference import reference_train

    return refers_to(train_fn, {"reference_train", "_reference_plan"}, targets=(reference_train,))
