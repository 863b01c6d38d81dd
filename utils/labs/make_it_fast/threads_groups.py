"""Lab 08's threads take-away where the paired rounds fall in two groups (``threads_cost.gathered`` false):
the one-line verdict, and how the ± beside the two groups was worked. Split from ``threads_cost`` to keep it
under the course's 600 lines."""

from utils import claims


def spread_working(shown: list) -> str:
    """How the ± beside two groups was worked from the sorted rounds as printed, as ``claims.printed_spread``
    takes it (thirty-first reading: the block worked every figure but this one)."""
    if len(shown) >= 4:
        quarter = len(shown) // 4
        return f"half the middle half's range, ({shown[-1 - quarter]:.2f} - {shown[quarter]:.2f}) / 2"
    return f"half their range, ({shown[-1]:.2f} - {shown[0]:.2f}) / 2"


def groups_verdict(timed: dict) -> str:
    """The one-line verdict where the rounds fall in two groups, to follow "Timed without the profiler, ": the
    side of 1x every round lies on, where they all do, comes first; only the size of the gain is unmeasured
    (thirty-first reading: "not measured" alone read as if the run had learned nothing; thirty-fifth: the
    comparison named in full, the slow script's forward and backward at each count, not "a count ran")."""
    shown = sorted(claims.as_printed(r, 2) for r in timed["ratios"])
    count = f"the launcher's {timed['launcher']} thread{'s' if timed['launcher'] > 1 else ''} a worker"
    work, own = "the slow script's forward and backward", f"its own {timed['slow']}"
    side = claims.one_side(shown, 1.0)
    if side is None:
        return (f"{work} with {count} against {own} gave rounds in two groups, on both sides of 1.00x, so what "
                "the thread count saves is not measured here")
    ran, does = ("faster", "saves") if side == "above" else ("slower", "costs")
    return (f"{work} ran {ran} with {count} than with {own} in every round ({shown[0]:.2f}x to "
            f"{shown[-1]:.2f}x as fast), but the rounds fall in two groups, so how much that {does} is not "
            "measured here")
