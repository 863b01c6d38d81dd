"""Section 2's two readings of lesson 03: did overlap (small buckets against 25 MiB ones) and fewer messages
(25 MiB buckets against by hand) shorten the step? Worked from the step times and noises as printed, so that a
reader who redoes them from the page agrees.

A step's noise is a share of a step (``overlap.step_noise``), so on a ratio of two steps it is a share of the
ratio too: the ± on "1.31x" is 29% of 1.31, 0.38, as lesson 04 works a speedup's spread
(``compression.measure.printed_ratio_spread``). A difference is real where that ± leaves 1x out, or where the
two ways' step ranges do not overlap at all: every step of one way slower than every step of the other is not
noise, however wide one way's range (t36_0304 #1)."""

from __future__ import annotations

from utils.claims import half_up, percent, within_noise
from utils.lessons.ddp.overlap import pace, printed_multiple, step_range, step_ratios


def ratio_spread(ratio: float, noise: float) -> float:
    """The ± on a step ratio as printed: the multiple the page prints (``printed_multiple``) times the noise
    as printed (whole per cent), rounded half up to two decimals, as a reader works it (1.31 x 29% = 0.38)."""
    return half_up(printed_multiple(ratio) * half_up(noise, 2), 2)


def apart(other: tuple[str, float, float] | None, this: tuple[str, float, float] | None) -> bool:
    """Whether two ways' step ranges (name, fastest, slowest ms as printed; ``ranges``) do not overlap: every
    step of one way slower than every step of the other. Without ranges, False (only the ± decides)."""
    if other is None or this is None:
        return False
    return other[1] > this[2] or this[1] > other[2]


def read_ratio(ratio: float, noise: float, other=None, this=None) -> str:
    """``"shorter"``, ``"longer"`` or ``"within noise"``: a step ratio (the other way's step over this one's)
    read from the page. Within noise where the printed multiple ± ``ratio_spread`` covers 1x (a tie is within:
    the course's one rule, ``claims.within_noise``), unless the two ways' step ranges (``other`` and ``this``,
    from ``ranges``) lie apart, which no noise explains."""
    if within_noise(printed_multiple(ratio), ratio_spread(ratio, noise), 1.0) and not apart(other, this):
        return "within noise"
    return "shorter" if ratio > 1 else "longer"


def reason(ratio: float, noise: float, other=None, this=None) -> str:
    """Why a step ratio is beyond noise, in words a reader can check: past the ± worked from the noise
    ("beyond 29% noise (± 0.38 on 1.31x)"), or, where that ± covers 1x, the two step ranges lying apart
    ("within 29% noise (± 0.38 on 1.31x), but every step of "by hand" (86.5–141.0 ms) was slower than every
    step of ..."). Call it only for a ratio ``read_ratio`` reads beyond noise."""
    spread = f"{percent(noise)} noise (± {ratio_spread(ratio, noise):.2f} on {printed_multiple(ratio):.2f}x)"
    if not within_noise(printed_multiple(ratio), ratio_spread(ratio, noise), 1.0):
        return f"beyond {spread}"
    slow, fast = (other, this) if ratio > 1 else (this, other)   # the way whose steps were all slower first
    return (f"within {spread}, but every step of \"{slow[0]}\" ({slow[1]:.1f}–{slow[2]:.1f} ms) was slower "
            f"than every step of \"{fast[0]}\" ({fast[1]:.1f}–{fast[2]:.1f} ms)")


def ranges(timelines: dict, hand: str, large: str, small: str) -> dict:
    """Each way's step range as ``read_ratio`` takes it: ``{"hand": (name, fastest, slowest), "large": ...,
    "small": ...}``, ms as printed, of the rank shown (``overlap.step_range``, the figures the noise line
    prints). ``timelines``: section 2's ranks per way; ``hand``, ``large``, ``small``: its way names."""
    return {key: (way, *step_range(timelines[way])[:2])
            for key, way in (("hand", hand), ("large", large), ("small", small))}


def tied(ratio: float) -> str:
    """A step ratio read within noise, as the page prints it: the multiple with no direction word ("1.07x
    apart"), since a ± that covers 1x leaves the direction unmeasured: "1.07x faster" beside "± 0.12" would
    state a result the figures do not give (t38_0304 #2). ``pace`` words a ratio beyond noise."""
    return f"{printed_multiple(ratio):.2f}x apart"


def tie_verdict(small_mb: float, large_mb: float, messages: float, steps_ms: tuple[str, str, str],
                overlapped: float, noise_text: str) -> str:
    """Section 2's reasons where overlap is within noise. ``steps_ms``: the small, large and default buckets'
    steps as printed. The ratio (``tied``, no direction) follows the one step it divides, the large buckets';
    the default buckets' step is named apart, since it is not part of the comparison and no noise figure was
    taken for it."""
    small, large, default = steps_ms
    return (f"Within noise: overlap not shown to pay or cost here. With {small_mb:g} MiB buckets "
            f"({messages:.0f} all-reduces, started during the backward) the step took {small} against {large} "
            f"with {large_mb:g} MiB buckets ({tied(overlapped)}, a difference no larger than the {noise_text}); "
            f"the default buckets' {default} is not part of this comparison (section 4 starts from it).")


def _reading(read: str, ratio: float, noise: float, other=None, this=None) -> str:
    """One comparison of ``answer``: ``read`` (``read_ratio``'s word), ``ratio`` (the other way's step over this
    one's, from the steps as printed), ``noise`` (the share it was read with) and the two ways' ranges."""
    if read == "within noise":
        # "noise" is defined where a learner first meets it, in the visible line, not only in the block below
        return (f"within noise ({tied(ratio)}, noise {percent(noise)}, half the steps' range over their median: "
                f"± {ratio_spread(ratio, noise):.2f} on "
                f"{printed_multiple(ratio):.2f}x)")
    return f"{'paid' if read == 'shorter' else 'cost'}: {pace(ratio)}, {reason(ratio, noise, other, this)}"


def step_reads(hand: float, large: float, small: float, noise: float, fewer_noise: float,
               spans: dict | None = None) -> tuple[str, str]:
    """Section 2's two readings (``read_ratio``'s words), worked from the step ratios as printed (``step_ratios``,
    from the steps as printed, 0.1 ms) and the noises as printed (whole per cent): overlap (``small`` buckets
    against ``large``, read with ``noise``) and fewer messages (``large`` against ``hand``, read with
    ``fewer_noise``). Step times in seconds; ``spans``: the ways' step ranges (``ranges``), or None."""
    ratios, spans = step_ratios(hand, large, small), spans or {}
    return (read_ratio(ratios["overlapped"], noise, spans.get("large"), spans.get("small")),
            read_ratio(ratios["fewer"], fewer_noise, spans.get("hand"), spans.get("large")))


def answer(hand: float, large: float, small: float, noise: float, fewer_noise: float,
           spans: dict | None = None) -> str:
    """Section 2's answer in one line, printed before its table and charts: did starting small buckets during
    the backward (``small`` against ``large``) and sending fewer messages (``large`` against ``hand``) shorten
    the step? Read by ``step_reads``, as the collapsed block's lines are, so the two never disagree."""
    ratios, got = step_ratios(hand, large, small), spans or {}
    overlap_read, fewer_read = step_reads(hand, large, small, noise, fewer_noise, spans)
    overlap = _reading(overlap_read, ratios["overlapped"], noise, got.get("large"), got.get("small"))
    fewer = _reading(fewer_read, ratios["fewer"], fewer_noise, got.get("hand"), got.get("large"))
    return f"Answer: overlap {overlap}; fewer messages {fewer}."
