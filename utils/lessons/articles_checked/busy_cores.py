"""Whether other programs took the cores a timing of lesson 09 needed: a figure from a loaded machine is no
evidence either way (``Busy``), and the row says so. Introduced in lesson 09 (moved out of ``checks``)."""

from __future__ import annotations

from utils.lessons.articles_checked.figures import Busy

MARGIN = 0.2  # of the cores: what other programs may take beyond the cores a timing leaves them


def too_busy(m, name: str, cores_needed: int | None) -> bool:
    """Whether other programs took some of the cores timing ``name`` needed (None: every core), beyond a margin."""
    cores = m["cores"]
    return m["others"].get(name, 0.0) > 1 - min(cores_needed or cores, cores) / cores + MARGIN


def needs_quiet_cores(m, name: str, cores_needed: int | None) -> None:
    """Raise ``Busy`` where the timing ``name`` could not have its cores: its check cannot say either way."""
    if too_busy(m, name, cores_needed):
        raise Busy(name)


def quiet(m, name: str, cores_needed: int | None) -> bool:
    """True, or ``Busy`` raised: a check's first step where its timing needs cores to itself."""
    needs_quiet_cores(m, name, cores_needed)
    return True


def busy_note(m, name: str, cores_needed: int | None) -> str:
    """The row's note where ``name`` was timed on a busy machine ("; other programs kept 60% ..."), else ""."""
    if not too_busy(m, name, cores_needed):
        return ""
    return (f"; other programs kept {m['others'][name]:.0%} of the cores busy meanwhile: rerun on a quiet "
            "machine")
