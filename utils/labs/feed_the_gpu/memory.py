"""Lab 05's memory rule: what a loading holds, in batches' worth, and what it may hold for a draw, worked from
the configuration that meets the target holding least (``checks._draw_needs``, passed in as ``needs``). Split
from ``checks``, which calls these."""

from __future__ import annotations

from utils import checks

DEPTH_SLACK = 2  # batches' worth of memory beyond the least the draw needs, before it counts as waste
TORCH_PREFETCH = 2  # DataLoader's own prefetch_factor: the batches each worker reads ahead when none is given


def held_memory(setup, reads: int, ahead: int) -> int:
    """The memory a loading holds, in batches' worth: each loader (reads at once) ``loader_batches``, and each
    batch read ahead of the step one (lab 05's spec)."""
    return max(1, reads) * setup.loader_batches + ahead


def defaults_memory(setup) -> int:
    """What DataLoader's defaults hold with the budget's loaders: ``setup.loaders`` workers, each reading
    ``TORCH_PREFETCH`` batches ahead (10 with 2 loaders of 3 batches' worth)."""
    return held_memory(setup, setup.loaders, setup.loaders * TORCH_PREFETCH)


def slack(setup, needs) -> int:
    """The slack the allowance adds to the least memory: ``DEPTH_SLACK``, less where that would admit
    DataLoader's defaults (``defaults_memory``) while they hold more than the least: the allowance must be
    worked out, never met by keeping the defaults (fortieth reading: 8 + 2 = 10, the defaults' 10)."""
    defaults = defaults_memory(setup)
    if needs.memory >= defaults:
        return DEPTH_SLACK
    return min(DEPTH_SLACK, defaults - 1 - needs.memory)


def allowed_memory(setup, needs) -> int | None:
    """The most memory, in batches' worth, a loading may hold for this draw (None: not known in advance, a real
    GPU step): what the configuration holding least needs, plus its ``slack``."""
    return needs.memory + slack(setup, needs) if needs.memory else None


def allowance_words(setup, needs, reads: int, ahead: int) -> str:
    """`` holding N batches' worth of memory (allowed: M, ...)`` for the pass message, with the least memory a
    configuration meeting the target holds and its loaders (so M can be traced), and why the slack is less than
    ``DEPTH_SLACK`` where it is; empty where not known."""
    if not needs.memory:
        return ""
    extra = slack(setup, needs)
    why = "" if extra == DEPTH_SLACK else (f": {DEPTH_SLACK} would admit the {defaults_memory(setup)} that "
                                           f"DataLoader's defaults hold with {setup.loaders} loaders")
    return (f"; holding {held_memory(setup, reads, ahead)} batches' worth of memory (allowed: {needs.memory} + "
            f"{extra} = {needs.memory + extra}, the least a configuration meeting the target holds, with "
            f"{needs.loaders} loader{'s' * (needs.loaders != 1)}, plus {extra} of slack{why})")


def expect_no_excess(setup, needs, reads: int, ahead: int) -> None:
    """Fast enough, but holding more memory than the draw needs: loaders (each ``loader_batches`` batches'
    worth) and batches read ahead (one each), beyond the least any configuration meeting the target holds."""
    allowed = allowed_memory(setup, needs)
    if allowed is None:
        return
    held = held_memory(setup, reads, ahead)
    checks.expect(held <= allowed,
                  f"your loading met the target holding {held} batches' worth of memory ({reads} loader"
                  f"{'s' if reads != 1 else ''} at {setup.loader_batches} each, up to {ahead} batches read ahead "
                  "of the step): another configuration meets it holding less. What does a second loader cost, "
                  "and what read-ahead does it save on this draw's runs of slow batches? Or: how far ahead must "
                  "the reading really run?")
