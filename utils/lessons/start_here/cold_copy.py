"""Lesson 00's copies above DRAM's reference, copied again cold (caches flushed first): what the cold copy says
of caches and of the reference, judged on the shares as printed.

Introduced in lesson 00 (``notebooks/00_start_here.ipynb``, section 2); ``summary`` names these too.
"""

from __future__ import annotations

from dataclasses import dataclass

from utils import claims
from utils.lessons.start_here.line_check import EDGE
from utils.lessons.start_here.printed import percent_shown, points, reference_share, reference_text
from utils.plots import size_label

# How far a cold copy may sit from its warm copy, or above its reference, and still read as the same figure:
# both are medians of 5 runs with no spread kept, so the course allows one noisy median's miss
# (line_check.EDGE), a chosen threshold
NOISE = EDGE
NOISE_SAID = "one noisy median may miss by (a threshold the course chooses: no spread is kept)"
NOISE_POINTS = round(NOISE * 100)  # the same noise in whole percentage points, as shares are printed: 10


def past_noise(shown: float) -> bool:
    """Whether a share as printed (whole percent: 1.1 for "110%") passes its reference by more than ``NOISE``,
    judged in whole percents as a reader reads them: in floats 1.10 - 1 is 0.10000000000000009, which would call
    "110%" more than 10% above (reader t28_0001 #1)."""
    return round(shown * 100) > 100 + NOISE_POINTS


def near_reference(shown: float) -> bool:
    """Whether a share as printed lies within ``NOISE`` of its reference on either side (90% to 110%): at it."""
    return abs(round(shown * 100) - 100) <= NOISE_POINTS


@dataclass(frozen=True)
class Passed:
    """A copy out of DRAM printed above 100% of DRAM's reference (past the noise or within it), and the same copy
    measured cold (its caches flushed first)."""

    size: int
    warm_rate: float
    cold_rate: float
    bound: float
    repeats: int = 5  # copies behind each median, warm and cold

    @property
    def grade(self) -> str:
        """Judged on the shares as printed (reader t20_0001: the cold share alone never says what a cache did):
        "low" (cold above the reference by more than NOISE: the reference is low for this copy), "cache" (cold
        at or under it, and slower than warm by more than NOISE: a cache served part of the warm copy), "not
        shown" (warm and cold within NOISE of each other: this run shows no cache at work)."""
        if past_noise(self.cold_shown):
            return "low"
        return "cache" if self.drop_points > NOISE_POINTS else "not shown"

    @property
    def warm_shown(self) -> float:
        """The warm share as printed (whole percent, half up): 1.24 for "124%"."""
        return percent_shown(self.share(self.warm_rate))

    @property
    def cold_shown(self) -> float:
        return percent_shown(self.share(self.cold_rate))

    @property
    def drop_points(self) -> int:
        """How many points the copy lost once its caches were flushed, from the two printed percents."""
        return round((self.warm_shown - self.cold_shown) * 100)

    def share(self, rate: float) -> float:
        """``rate``'s share of the reference, from the two GB/s as printed (``printed.reference_share``): 11.58 /
        9.64 = 120%, 5.94 / 5.375 = 111%."""
        return reference_share(rate, self.bound, dram=True)

    def _drop_said(self) -> str:
        """"warm 124% → cold 107%: 17 points", the move the grade judges, from the printed percents."""
        return (f"warm {claims.percent(self.warm_shown)} → cold {claims.percent(self.cold_shown)}: "
                f"{points(self.drop_points / 100)}")

    def _move_said(self) -> str:
        """Cold against warm from the two printed percents, as a reader says it: "warm and cold differ by 9
        points", or "cold ran 3 points faster than warm" (t28_0001: "differ by -3 points" read oddly)."""
        if self.drop_points < 0:
            return f"cold ran {points(-self.drop_points / 100)} faster than warm"
        return f"warm and cold differ by {points(self.drop_points / 100)}"

    def _cache_said(self, where: str, than: str) -> str:
        """A drop past the noise once the caches were flushed: the warm copy was partly served by ``where``."""
        return (f"Cold it ran slower ({self._drop_said()}), more than {than}: its {size_label(2 * self.size)} "
                f"working set was partly held by {where}, so a warm copy is not served by DRAM alone.")

    def sentence(self, l3_bytes: int | None) -> str:
        """Section 2's reading of this copy, warm and cold, on every branch of ``grade``."""
        where = f"the {size_label(l3_bytes)} L3" if l3_bytes else "the last cache"
        # the threshold's why is in ``note`` (the block): t29_0001, cell 21's visible text was too long
        noise = f"the {NOISE:.0%} one noisy median may miss by"
        head = (f"{size_label(self.size)}: warm {self.warm_rate / 1e9:.2f} GB/s = "
                f"{claims.percent(self.warm_shown)} of the reference beyond the caches "
                f"({reference_text(self.bound, dram=True)} GB/s); cold (caches flushed first) {self.cold_rate / 1e9:.2f} GB/s = "
                f"{claims.percent(self.cold_shown)}. ")
        if self.grade == "cache":
            return head + self._cache_said(where, noise)
        if self.grade == "not shown":  # warm > 100% and a drop within NOISE: cold is within NOISE of 100%
            return head + (f"{_capital(self._move_said())}, within {noise}: this run "
                           "does not show a cache serving the warm copy, and cold is within that "
                           f"{NOISE:.0%} of the reference, so nothing shows that the reference is low either.")
        too = " too," if past_noise(self.warm_shown) else ""  # warm may be at it, within the noise
        low = (f"Cold it passes the reference{too} by more than {noise}: the reference is low for this copy, "
               "which streams faster than the read loop the reference halves (so a measured rate is a reference, "
               "never a bound).")
        if self.drop_points > NOISE_POINTS:
            return head + low + " " + self._cache_said(where, f"that {NOISE:.0%} too")
        if self.drop_points < -NOISE_POINTS:  # cold faster past the noise: no cache, and no reason measured
            return head + low + (f" {_capital(self._move_said())}, more than that {NOISE:.0%}: no cache is "
                                 "needed to explain the warm copy, and this run does not measure why cold ran faster.")
        return head + low + (f" {_capital(self._move_said())}, within that {NOISE:.0%}: no cache is needed to "
                             "explain the warm copy.")

    @property
    def verdict(self) -> str:
        drop = f"({self._drop_said()}, more than the {NOISE:.0%} one noisy median may miss by)"
        past = "more than" if abs(self.drop_points) > NOISE_POINTS else "within"
        within = f"{self._move_said()}, {past} the {NOISE:.0%} one noisy median may miss by"
        if self.grade == "cache":
            return f"yes: a cache held part of it {drop}"
        if self.grade == "not shown":
            return f"not shown: {within}"
        low = "the reference is low (the read loop it halves streams slower than this copy)"
        if self.drop_points > NOISE_POINTS:
            return f"partly: {low}, and a cache held part of the warm copy {drop}"
        return f"no: {low}; {within}"

    def note(self) -> str:
        """For the measurement block: what the cold copy's verdict rests on, and what it says of the other
        references, which are the same read loop, halved."""
        return (f"{size_label(self.size)} at {claims.percent(self.warm_shown)} of DRAM's reference, copied again "
                f"cold: warm and cold are each the median of {self.repeats} copies (no spread is kept, so the "
                f"{NOISE:.0%} one noisy median may miss by is a threshold the course chooses); a busy moment while "
                "the read loop ran would make the "
                "reference low too, since a busy machine only slows a loop. The L2 and L3 references are the same "
                "loop, halved, so they may be low alike: a copy's share of them compares it with that loop, not "
                "with what the memory can do.")


def _capital(said: str) -> str:
    return said[:1].upper() + said[1:]


def copies_above_dram(points, repeats: int = 5) -> list[Passed]:
    """Every host memcpy out of DRAM above DRAM's reference, copied again cold (4 x L3 streamed through the
    caches first), on one thread like the warm copy: the measurement that says whether a cache explains it."""
    from utils import bench, devices
    from utils.lessons.start_here.regimes import cold_copy_seconds

    evict = 4 * devices.cpu_caches().get("L3", 32 * 2**20)
    found = []
    with bench.threads(1):
        for p in points:
            # above as printed (to the percent): a copy printed at 100% is not called above its reference
            above = p.fraction_of_bound and round(p.fraction_of_bound, 2) > 1
            if p.path == "host memcpy" and p.regime == "DRAM" and above:
                found.append(Passed(p.size, p.rate, p.size / cold_copy_seconds(p.size, evict, repeats), p.bound,
                                    repeats))
    return found
