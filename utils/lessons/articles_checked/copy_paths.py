"""Rows A9 and A18's checks: the copy paths between the two GPUs (lesson 00's fits), read from the run.

Moved out of ``checks`` (which re-exports them) to keep that module under the course's 600-line cap.
"""

from __future__ import annotations

from utils.lessons.articles_checked.figures import Missing


def _paths(m) -> dict:
    if isinstance(m.get("paths"), Exception):
        raise Missing("paths")
    return m["paths"]


def _peer_path_faster(m) -> bool:
    """Where the GPUs have peer access, the direct copy's bandwidth beats the host path's; where they have
    none, CUDA stages the "direct" copy through the host too, and it cannot."""
    if "paths" not in m:
        return True  # nothing measured: the row has no MEASURED part and is not checked
    p = _paths(m)
    faster_direct = p["direct"].fit.beta > 1.2 * p["via host"].fit.beta
    return faster_direct == bool(m["hw"].link and m["hw"].link.peer_access)
