"""Lessons 00 and 01's one test of a link: do this run's messages lie on the machine profile's line?

Introduced in lesson 00, section 3 (``summary.rerun_link_sentence`` and its closing table); lesson 01's section 3
(``why_slow.link_report``) applies the same test, so that the two lessons give one verdict on one link.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb

from utils import claims
from utils.lessons.start_here.printed import printed_accuracy, printed_residual
from utils.plots import size_label


def _points(share: float) -> str:
    """A difference of two percentages, in percentage points: 0.1 -> "10 points"."""
    return f"{round(share * 100):.0f} point" + ("" if round(share * 100) == 1 else "s")


def printed_time(fit, n: float) -> float:
    """Seconds ``fit`` (a ``linkmodel.AlphaBeta``) gives ``n`` bytes, worked from its α and β as the lessons
    print them (α in µs to one decimal, β in GB/s to two): a reader who redoes α + n/β finds the same figure."""
    return claims.as_printed(fit.alpha, 1, 1e-6) * 1e-6 + n / (claims.as_printed(fit.beta, 2, 1e9) * 1e9)


def misses(fit, sizes, seconds) -> list[tuple[int, float, float, float]]:
    """(size, measured s, the fit's s, miss) at each size: the miss is (measured - fitted) / measured, the
    residual of the lesson's fits, here of another run's points against ``fit`` (a ``linkmodel.AlphaBeta``);
    the fit's time from its printed α and β (``printed_time``), both times in µs to one decimal."""
    out = []
    for n, t in zip(sizes, seconds):
        shown, line = claims.as_printed(t, 1, 1e-6) or 0.1, claims.as_printed(printed_time(fit, n), 1, 1e-6)
        out.append((n, t, printed_time(fit, n), (shown - line) / shown))
    return out


def miss_shown(miss: float) -> float:
    """A miss as the line check prints and judges it: to the tenth of a percent, half up (0.40406 -> 0.404).
    Judged at this precision, not the whole percent: +40.4% against ±30% plus 10 points is past the edge,
    though both would print "40%" (reader t23_0001 #1)."""
    return claims.half_up(miss, 3)


def miss_text(miss: float) -> str:
    """A miss as the line check prints it: "+40.4%", "-32.8%" (``miss_shown``)."""
    return f"{miss_shown(miss) * 100:+.1f}%"


def residual_words(miss: float) -> str:
    """"measured above the line by 31.8% of the measured time (residual +31.8%)": a miss with the side it lies
    on in words (t29_0001: "+31.8% of its measured time" beside a line below the measured time read as the line
    31.8% above). The sign is measured - line, so "+" is always "measured above"."""
    shown = miss_shown(miss) * 100
    if shown == 0:
        return "measured on the line (residual 0.0%)"
    side = "above" if shown > 0 else "below"
    return f"measured {side} the line by {abs(shown):.1f}% of the measured time (residual {miss_text(miss)})"


def side_words(miss: float) -> str:
    """The side of the line a miss lies on, as ``residual_words`` says it ("measured below the line"), for the
    claims rows, where a bare "-49.2%" left the reader to recall that the sign is measured - line (t32_0001)."""
    shown = miss_shown(miss)
    return "on the line" if shown == 0 else f"measured {'above' if shown > 0 else 'below'} the line"


def _size(n: int) -> str:
    """A message size: "8 B" under a KiB (lesson 01 sends such messages), else "64 KiB", "16 MiB"."""
    return f"{n} B" if n < 2**10 else size_label(n)


# A size that misses the kept line by no more than this beyond the kept fit's own error is "at the edge": that
# error is the fit's single worst size, itself one noisy median, so one point just past it decides nothing
EDGE = 0.1
EDGE_SAID = (f"(The verdict allows an edge band of {round(EDGE * 100)} percentage points past that error, a "
             "threshold the course chooses: the error is the fit's single worst size, itself one noisy median, "
             "so one size just past it decides nothing.)")
# A fit's misses beyond EDGE (one noisy median's), in order of size, follow a pattern (a tilt, a bow: a shape
# the line misses) only when random signs would rarely change as seldom: under random signs, the changes
# between m misses are Binomial(m - 1, 1/2), and the course calls the signs a pattern only when at most k
# changes has a chance under PATTERN_P (a sign test, its threshold the course's choice). A miss within EDGE
# says nothing by its sign.
PATTERN_P = 0.1


def _span(far) -> str:
    """The smallest and largest miss of ``far`` by size, as printed: "+13.5% to +40.7%" (one alone: "-15.8%")."""
    shown = sorted((miss_shown(m[3]) for m in far), key=abs)
    return f"{shown[0]:+.1%}" if len(shown) == 1 else f"{shown[0]:+.1%} to {shown[-1]:+.1%}"


def few_changes_chance(misses: int, changes: int) -> float:
    """The chance that ``misses`` random signs change at most ``changes`` times: sum over j <= changes of
    C(misses - 1, j) / 2**(misses - 1). 5 signs: 0 changes 6%, at most 1 31%, at most 2 69%."""
    return sum(comb(misses - 1, j) for j in range(changes + 1)) / 2 ** (misses - 1) if misses > 1 else 1.0


# the fewest misses whose signs can be a pattern at all (no change at all is still likelier than PATTERN_P
# among fewer): 5 for PATTERN_P = 10%
PATTERN_SIZES = next(m for m in range(2, 64) if few_changes_chance(m, 0) < PATTERN_P)


@dataclass(frozen=True)
class LineCheck:
    """The one test lessons 00 and 01 share: do this run's messages lie on the machine profile's line? Each
    size's miss against the kept fit, judged by that fit's own error (its worst residual) plus ``EDGE``."""

    misses: list  # (size, measured s, the line's s, miss) per size, as ``misses`` gives them
    error: float  # the kept fit's own worst residual: how far its line may miss its own points

    @property
    def worst(self) -> tuple[int, float, float, float]:
        return max(self.misses, key=lambda m: abs(m[3]))

    @property
    def beyond(self) -> list:
        """The sizes missing by more than the fit's own error plus the edge: what says the line is not this run's."""
        # the miss to the tenth of a percent it prints at, against the error as printed (whole percent) plus
        # the edge: rounding both to the whole percent would call +40.4% "at most 10 points past ±30%". Compared
        # in tenths of a percent: in floats 0.24 + 0.1 is 0.33999999999999997, which +34.0% would pass (t28_0001)
        return [m for m in self.misses if round(abs(miss_shown(m[3])) * 1000) > round((self._own + EDGE) * 1000)]

    @property
    def _own(self) -> float:
        """The fit's own error as the sentences print it (whole percent): the figure a reader compares with."""
        return claims.half_up(self.error, 2)

    @property
    def one_sided(self) -> list:
        """The misses past ``EDGE`` (one noisy median's), in order of size, where they are at least
        ``PATTERN_SIZES`` and their signs change so seldom that random signs would do so under ``PATTERN_P`` of the
        time (the sign test ``pattern_sentence`` applies to a fit's own misses), else []. Not only zero changes:
        t39_0001 #1, 9 of 10 misses slower with 2 changes (9.0%) was passed as "yes, at the edge"."""
        far = sorted(m for m in self.misses if abs(miss_shown(m[3])) > EDGE)
        if len(far) < PATTERN_SIZES or few_changes_chance(len(far), self.changes(far)) >= PATTERN_P:
            return []
        return far

    @staticmethod
    def changes(far) -> int:
        """How often the misses' signs change in order of size (``sign_changes``)."""
        return sign_changes([m[3] for m in far])

    @property
    def side(self) -> str:
        """"slower" or "faster": the side of the line most one-sided misses lie on (a positive miss: slower);
        "off" where as many lie on each side (a shape the line misses, not a moved link)."""
        slow = sum(m[3] > 0 for m in self.one_sided)
        return "slower" if 2 * slow > len(self.one_sided) else "faster" if 2 * slow < len(self.one_sided) else "off"

    @property
    def where(self) -> str:
        """Where the one-sided misses lie, as the verdicts say it: "slower than the line at every size past one
        median's noise", or "at 9 of its 10 sizes past ..." where some lie on the other side."""
        far, side = self.one_sided, self.side
        on_side = sum((m[3] > 0) == (side == "slower") for m in far)
        if side == "off":
            return (f"off the line in runs of one sign along the sizes past one median's noise ({self.changes(far)} "
                    "sign changes)")
        at = "every size" if on_side == len(far) else f"{on_side} of its {len(far)} sizes"
        return f"{side} than the line at {at} past one median's noise"

    @property
    def grade(self) -> str:
        """"within" (every size within the fit's own error), "edge" (some past it by at most EDGE), "one size"
        (one size alone past the edge: one median, which cannot tell noise from a changed link), "one side"
        (no more than one size past the edge, but the misses past noise all on one side of the line: a sign
        test says the run moved), "beyond" (two sizes or more past the edge)."""
        if len(self.beyond) > 1:
            return "beyond"
        if self.one_sided:
            return "one side"
        if len(self.beyond) == 1:
            return "one size"
        return "edge" if abs(miss_shown(self.worst[3])) > self._own else "within"

    @property
    def verdict(self) -> str:
        if self.grade == "one size":
            return (f"not shown: one size ({_size(self.beyond[0][0])}){self._lone_said()}; time it again "
                    "(meanwhile use measured times)")
        if self.grade == "one side":
            return f"no: {self.where} (a sign test): use this run's measured times"
        return {"within": "yes: within the fit's own error",
                "edge": f"yes, at the edge: past the fit's own error by at most {_points(EDGE)}",
                "beyond": "no: use this run's measured times"}[self.grade]

    def sentence(self) -> str:
        """The test's verdict, then (one size alone past the edge) that size against its neighbours, on a line
        of its own ("\n" between them): one finding per line."""
        n, t, line, miss = self.worst
        # both times in µs to one decimal: the figures ``misses`` works the miss from, so it can be redone
        at = (f"its worst at {_size(n)}: {t * 1e6:,.1f} µs measured, {line * 1e6:,.1f} µs on the line, "
              f"{residual_words(miss)}")
        own = f"that fit's own ±{self.error:.0%}"
        if self.grade == "one side":
            return self._one_side_sentence(own, at)
        if self.grade == "within":
            return (f"Against the profile's line, every size of this run lies within {own} ({at}): the line "
                    f"describes this run's link too. {EDGE_SAID}")
        if self.grade == "edge":
            return (f"Against the profile's line, this run's worst size lies past {own} by at most the "
                    f"{_points(EDGE)} the course allows one noisy median ({at}): the line describes this run's link, "
                    "at the edge of its own error.")
        far = ", ".join(f"{_size(m[0])} ({miss_text(m[3])})" for m in self.beyond)
        head = (f"Against the profile's line, {len(self.beyond)} of this run's {len(self.misses)} sizes "
                f"miss{'es' * (len(self.beyond) == 1)} by more than {own} plus the {_points(EDGE)} the course "
                f"allows one noisy median ({far})")
        if self.grade == "one size":
            # not "noise": a median's noise is the EDGE it may miss by; past it, one disturbed median (t31_0001 #4)
            return (head + ": one size's median alone, which a one-off busy moment can make as well as a changed "
                    "link (beyond the noise every median has), so this "
                    "run does not show whether the line describes its link; time that size again (meanwhile, "
                    "use this run's measured times).\n" + self.lone_size_sentence())
        # the worst size's two µs too, so its miss can be redone from printed figures (t36_0001 #3)
        return (f"{head[:-1]}; {at}): the line does not describe this run's link, measured at another moment "
                "than the profile; for this run, use its measured times, not the line.")

    def _one_side_sentence(self, own: str, at: str) -> str:
        """The sign test's finding: the misses past noise lie in runs of one sign (``one_sided``)."""
        far, k = self.one_sided, self.changes(self.one_sided)
        past = "no size" if not self.beyond else f"only {_size(self.beyond[0][0])}"
        head = (f"Against the profile's line, {past} of this run lies past {own} plus the {_points(EDGE)} the "
                f"course allows one noisy median ({at}), but ")
        noise = f"miss by more than the ±{EDGE:.0%} one noisy median may miss by"
        odds = (f"{few_changes_chance(len(far), k):.0%} of the time, under the {PATTERN_P:.0%} at which the course "
                "calls signs a pattern (a sign test)")
        if k == 0:
            where = self.where.replace("the line", "the profile's line")
            return (head + f"all {len(far)} of its {len(self.misses)} sizes that {noise} are {self.side} than the "
                    f"line ({_span(far)}); with {len(far)} misses of random sign, all on one side happens {odds}: "
                    f"this run's link was {where}, so the line does "
                    "not describe this run; use its measured times.")  # past noise, not every size (t40_0001 #2)
        slow = [m for m in far if m[3] > 0]
        fast = [m for m in far if m[3] < 0]
        return (head + f"of its {len(far)} sizes that {noise}, {len(slow)} are slower than the line"
                + (f" ({_span(slow)})" if slow else "") + f" and {len(fast)} faster"
                + (f" ({_span(fast)})" if fast else "") + f", their signs changing only {k} time{'s' * (k != 1)} "
                f"in order of size; with {len(far)} misses of random sign, {k} or fewer changes happen {odds}: "
                f"this run is {self.where}, so the line does not describe this run; use its measured times.")

    def _lone(self):
        """(its µs, the neighbours' line µs, lower (size, µs), upper (size, µs), miss in %) for the one size
        past the edge, or None where it is the first or last size (one neighbour only)."""
        pts = sorted(self.misses)
        i = [m[0] for m in pts].index(self.beyond[0][0])
        if not 0 < i < len(pts) - 1:
            return None
        (n_lo, t_lo, *_), (n, t, *_), (n_hi, t_hi, *_) = pts[i - 1], pts[i], pts[i + 1]
        mine, between = _us(t), neighbours_line(n, (n_lo, _us(t_lo)), (n_hi, _us(t_hi)))
        miss = claims.half_up((mine - between) / mine * 100, 0)  # the course's residual, of the printed µs
        return mine, between, (n_lo, _us(t_lo)), (n_hi, _us(t_hi)), miss

    def _lone_said(self) -> str:
        """The verdict's few words on the lone size: ", an outlier among its neighbours" or not, or its place."""
        if self._lone() is None:
            return ", the end of the sizes"
        return ", an outlier among its neighbours" if self.outlier else ", on its neighbours' line"

    @property
    def outlier(self) -> int | None:
        """The size the verdict calls "an outlier among its neighbours" (one size alone past the edge, missing the
        straight line through its two neighbours by more than ``EDGE``), else None. Lesson 01 sets such a size
        apart when it compares two runs, as this verdict sets it apart from the line (reader t35_0001 #1)."""
        lone = self._lone() if self.grade == "one size" else None
        return self.beyond[0][0] if lone is not None and abs(lone[4]) > EDGE * 100 else None

    def lone_size_sentence(self) -> str:
        """Where one size alone misses past the edge: its time set against the straight line through its two
        neighbours' times (all in µs as printed), the local form of α + n/β: it is "an outlier among them"
        only where it misses that line by more than ``EDGE`` (one noisy median's miss). Either way the verdict
        is the same (``grade`` "one size": time it again). (Rates alone cannot single it out: under α + n/β
        a rate rises with size, so running faster than a smaller neighbour is expected.)"""
        if len(self.beyond) != 1:
            return ""
        head = f"{_size(self.beyond[0][0])} against its neighbours: "
        lone = self._lone()
        if lone is None:
            return head + "it is the end of the sizes (one neighbour only), so no line through two neighbours."
        mine, between, (n_lo, t_lo), (n_hi, t_hi), miss = lone
        times = (f"it took {mine:,.1f} µs, against {between:,.1f} µs on the straight line through its neighbours' "
                 f"times, {t_lo:,.1f} µs at {_size(n_lo)} and {t_hi:,.1f} µs at {_size(n_hi)}: {miss:+.0f}% of "
                 "its measured time")
        if abs(miss) <= EDGE * 100:
            return (f"{head}{times}, within the ±{EDGE:.0%} one noisy median may miss by: on its neighbours' "
                    "line, not an outlier among them.")
        side = "slower" if miss > 0 else "faster"
        return (f"{head}{times}, {side} than that line by more than the ±{EDGE:.0%} one noisy median may miss "
                "by: an outlier among its neighbours.")

    def claim(self, name: str) -> claims.Claim:
        """The closing tables' row: lesson 00's and lesson 01's are the same test."""
        return claims.Claim(f"this run's messages lie on the profile's line ({name})",
                            f"worst miss {miss_text(self.worst[3])} ({_size(self.worst[0])}, "
                            f"{side_words(self.worst[3])})",
                            # t38_0001: "edge +10 points" was defined only in a collapsed block; said in words here
                            f"the fit's own ±{self.error:.0%}, plus an edge of {round(EDGE * 100)} percentage points "
                            "(one noisy size may pass the ± by that)", self.verdict)


def sign_changes(residuals) -> int:
    """How often the misses' sign changes from one size to the next (in order of size; a zero keeps none)."""
    signs = [r > 0 for r in residuals if r != 0]
    return sum(a != b for a, b in zip(signs, signs[1:]))


def rate_change(before: float, after: float) -> float:
    """The rate's change from ``before`` to ``after`` (B/s), worked from the rates as printed (GB/s to 2
    decimals) and rounded half up to the tenth of a percent the sentences print it at (3.87 -> 3.47 GB/s is
    -10.3%). Rounded to the whole percent, -10.3% would read -10%, "within ±10%": a fall past noise called flat."""
    return claims.half_up(claims.printed_ratio(after, before, 2, 1e9) - 1, 3)


def rate_trend(before: float, after: float) -> str:
    """"rising", "falling" or "flat": a change within ``EDGE`` (one noisy median's miss), judged on the change
    as printed (``rate_change``), is no trend. Section 3's shape reading and the weights sentence both use it,
    so one drop is read by one rule."""
    change = rate_change(before, after)
    return "flat" if abs(change) <= EDGE else "rising" if change > 0 else "falling"


def rate_falls(sizes, seconds) -> list[tuple[int, float, int, float]]:
    """(size, its rate, the next size, its rate), rates n/t in B/s, for every pair of neighbouring sizes whose
    rate falls by more than one noisy median's ``EDGE`` (``rate_trend``, the test lesson 00's weights sentence
    applies too), in order of size. Under t = alpha + n/beta the rate only rises with n, so each such fall is a
    shape one line misses, wherever it lies along the sizes (t27_0001 #1: 1 MiB -> 4 MiB fell 24% while only
    the two largest sizes were looked at)."""
    pts = sorted(zip(sizes, seconds))
    # a rate printed 0.00 GB/s (a few bytes' message) gives no printed change to judge: skipped, not "-100%"
    return [(n1, n1 / t1, n2, n2 / t2) for (n1, t1), (n2, t2) in zip(pts, pts[1:])
            if claims.as_printed(n1 / t1, 2, 1e9) and rate_trend(n1 / t1, n2 / t2) == "falling"]


def falling_rate(sizes, seconds) -> tuple[float, float] | None:
    """(rate before, rate after) in B/s of the largest fall between neighbouring sizes (``rate_falls``), else
    None."""
    falls = rate_falls(sizes, seconds)
    if not falls:
        return None
    _, before, _, after = min(falls, key=lambda f: rate_change(f[1], f[3]))
    return before, after


def _fall_said(fall) -> str:
    """One fall, as the sentences print it: "2.79 GB/s at 16 MiB, 2.36 at 64 MiB: -15.4%"."""
    n1, r1, n2, r2 = fall
    return f"{r1 / 1e9:.2f} GB/s at {_size(n1)}, {r2 / 1e9:.2f} at {_size(n2)}: {rate_change(r1, r2):+.1%}"


def falling_sentence(sizes, seconds) -> str:
    """" But the rate n/t falls ..." naming every fall ``rate_falls`` finds (the largest sizes' first, where
    they fall), else "": lesson 00's sign test and lesson 01's fit sentence both add it, since one line (whose
    rate only rises) misses that."""
    falls = rate_falls(sizes, seconds)
    if not falls:
        return ""
    noise = f"past the ±{EDGE:.0%} one noisy median may miss by"
    top = [f for f in falls if f[2] == max(sizes)]  # the two largest sizes' fall, where there is one
    rest = "; ".join(_fall_said(f) for f in falls if f not in top)
    if top:
        said = f"falls at the largest sizes ({_fall_said(top[0])}, {noise})"
        said += f", and between smaller neighbours too ({rest})" if rest else ""
    else:
        each = "each " if len(falls) > 1 else ""
        said = f"falls between neighbouring sizes ({rest}, {each}{noise})"
    return (f" But the rate n/t {said}, which t = alpha + n/beta cannot do (its rate only rises with n): there, a "
            "shape the line misses.")


def pattern_sentence(sizes, residuals, seconds=None) -> str:
    """Whether a fit's misses (``residuals``, in order of ``sizes``) beyond EDGE follow the sizes (a pattern:
    the line's shape misses) or go back and forth (noise around one line), with the figures that decide;
    with ``seconds`` (the measured times), a rate falling at the largest sizes is also said to be a shape."""
    # judged as printed (to the percent): a miss printed -10% is not larger than ±10%
    far = [(n, r) for n, r in zip(sizes, residuals) if round(abs(r), 2) > EDGE]
    k, listed = sign_changes([r for _, r in far]), ", ".join(f"{claims.signed_percent(r)} at {_size(n)}" for n, r in far)
    beyond = (f"larger than ±{round(EDGE * 100)}% of the measured time (a threshold the course chooses, not "
              "measured here: about what one noisy median may miss by)")
    falling = falling_sentence(sizes, seconds) if seconds is not None else ""
    if len(far) < PATTERN_SIZES:
        return (f"{len(far)} of its {len(residuals)} misses are {beyond}" + (f" ({listed})" if far else "")
                + f": too few (under {PATTERN_SIZES}) to tell a shape the line misses from noise by their signs."
                + falling)
    chance = few_changes_chance(len(far), k)
    few = "no change happens" if k == 0 else f"{k} or fewer changes happen"
    odds = (f"with {len(far)} misses of random sign, {few} {chance:.0%} of the time, and "
            f"the course calls signs a pattern only under {PATTERN_P:.0%} (a sign test)")
    if k == len(far) - 1:  # t25_0001: "4 or fewer changes happen 100% of the time" tells a reader nothing
        odds = "at every step, the most they can: no run of one sign, so no shape by the sign test"
    if chance < PATTERN_P:
        return (f"In order of size, its {len(far)} misses {beyond} change sign only {k} time{'s' * (k != 1)} "
                f"({listed}); {odds}: a pattern, not noise: the line's shape misses, one alpha and one beta "
                "being too simple for this path here." + falling)
    head = (f"In order of size, its {len(far)} misses {beyond} change sign {k} time{'s' * (k != 1)} ({listed}); "
            f"{odds}: ")
    # signs going back and forth are noise's only while the misses are of noise's size: one noisy median
    # misses by about EDGE, so misses past twice that scatter more than such noise explains; one such miss
    # alone is one size's median, which a one-off busy moment can make (the verdict on the kept line reads it the
    # same way; not "noise", whose size is EDGE: t31_0001 #4)
    wide = [(n, r) for n, r in far if round(abs(r), 2) > 2 * EDGE]
    twice = f"±{round(2 * EDGE * 100)}%, twice one median's noise"
    if len(wide) == 1:
        (n, r), = wide
        return (head + f"their signs show no shape the line misses, but {_size(n)} ({claims.signed_percent(r)}) is past {twice}: "
                "one size's median alone, which a one-off busy moment can make; time it again." + falling)
    if wide:
        return (head + f"their signs show no shape the line misses, but {len(wide)} of them are larger than "
                f"{twice}: the misses scatter more than noise explains." + falling)
    if falling:
        return head + "by their signs alone, back and forth, as noise leaves them." + falling
    return head + "back and forth, as noise around one line leaves them, not a shape the line misses."


def check_line(kept, this_run) -> LineCheck:
    """This run's messages (``this_run``: a ``machine.LinkFit``, any sizes) against the kept profile's line."""
    # the kept fit's own error as lesson 00 prints it (``printed_accuracy``), so both lessons quote one ±
    return LineCheck(misses(kept.fit, this_run.fit.sizes, this_run.seconds), printed_accuracy(kept))


def kept_line_sentence(kept, this_run) -> str:
    """Whether this run's messages lie on the kept profile's line (``check_line``: the test lesson 01 uses too)."""
    return check_line(kept, this_run).sentence()


def shape_note(this_run) -> str:
    """For section 3's measurement block: how this run's own fit (a ``machine.LinkFit``) misses its sizes
    (``pattern_sentence``: the sign test, and the rate at the largest sizes)."""
    fit = this_run.fit
    # the misses as the fit table prints them (worked from its printed α, β and times), so the two agree
    shown = [printed_residual(fit, n, r) for n, r in zip(fit.sizes, fit.residuals)]
    return (f"This run's own fit of {this_run.name} (its column of residuals above). "
            + pattern_sentence(fit.sizes, shown, this_run.seconds))


def neighbours_line(n: int, lower: tuple[int, float], upper: tuple[int, float]) -> float:
    """The time in µs (one decimal, half up) that the straight line through two neighbours' (size, µs as
    printed) gives ``n`` bytes: α + n/β fitted to those two points alone. 512 KiB between 256 KiB's 129.3 µs and
    1 MiB's 324.4 µs: 129.3 + (324.4 - 129.3) x (512 - 256) / (1024 - 256) = 194.3 µs."""
    (n_lo, t_lo), (n_hi, t_hi) = lower, upper
    return claims.half_up(t_lo + (t_hi - t_lo) * (n - n_lo) / (n_hi - n_lo), 1)


def _us(seconds: float) -> float:
    """A message's time in µs as section 3 prints it (one decimal; never 0): comparisons use this figure."""
    return claims.as_printed(seconds, 1, 1e-6) or 0.1


def _falls(sizes, seconds) -> list[tuple[int, float, int, float, float]]:
    """(size, its µs, larger size, that one's µs, how much longer) for each message that took longer than a
    larger one at all, judged on the µs as printed and set beside the larger message that took the least time;
    "how much longer" is to the tenth of a percent, as a reader divides the two printed µs."""
    pts = sorted(zip(sizes, seconds))
    out = []
    for i, (n, t) in enumerate(pts[:-1]):
        m, u = min(pts[i + 1:], key=lambda p: _us(p[1]))
        if _us(t) > _us(u):
            out.append((n, _us(t), m, _us(u), claims.half_up(_us(t) / _us(u) - 1, 3)))
    return out


def slower_than_larger(sizes, seconds) -> list[tuple[int, float, int, float]]:
    """(size, its µs, larger size, that one's µs) for each message that took longer than a larger one by more
    than ``EDGE`` (one noisy median's miss), judged on the µs as printed and set beside the larger message
    that took the least time. Under t = alpha + n/beta a time only grows with n: these are what no line has.
    110.4 against 100.0 µs is past 10% (+10.4%), as a reader divides the two µs."""
    return [(n, t, m, u) for n, t, m, u, longer in _falls(sizes, seconds) if longer > EDGE]


def _no_slow_sentence(sizes, seconds) -> str:
    """No message past the edge: say whether any time fell at all, as printed, so that "time does not fall"
    is never said beside a printed fall (the eleventh reading: 4 B 120.2 µs, then 4 KiB 119.3 µs)."""
    falls = _falls(sizes, seconds)
    if not falls:
        return (" No message took longer than a larger one: time does not fall as the size grows, as "
                "t = alpha + n/beta has it.")
    n, t, m, u, longer = max(falls, key=lambda f: f[4])
    # plain words for the one case (t35_0001 other: "1 message ... (it: ..." read awkwardly)
    said = (f" One message, {_size(n)} ({t:,.1f} µs), took a little longer than {_size(m)} ({u:,.1f} µs), "
            f"{longer:+.1%}" if len(falls) == 1 else
            f" {len(falls)} messages took a little longer than a larger one (the most, {_size(n)}: {t:,.1f} µs "
            f"against {u:,.1f} µs at {_size(m)}, {longer:+.1%})")
    return (said + f", within the {EDGE:.0%} one noisy median may miss by: beyond that noise, no time falls as "
            "the size grows, as t = alpha + n/beta has it.")


def message_times_sentence(this_run, kept=None) -> str:
    """This run's time at every size (``this_run``: a ``machine.LinkFit``; the measured times section 3 tells a
    reader to use where the line does not describe the run), and, said plainly, any message that ran slower
    than a larger one; with ``kept`` (the profile's link), how far its line misses each such message, judged as
    the line check judges (t27_0001: "the line misses it" read against "lie on it" one line above)."""
    sizes, seconds = this_run.fit.sizes, this_run.seconds
    listed = ", ".join(f"{_size(n)} {_us(t):,.1f}" for n, t in sorted(zip(sizes, seconds)))
    head = f"This run's messages over '{this_run.name}' took, one way, in µs: {listed}."
    slow = slower_than_larger(sizes, seconds)
    if not slow:
        return head + _no_slow_sentence(sizes, seconds)
    said = "; ".join(f"{_size(n)} took {t:,.1f} µs against {u:,.1f} µs at {_size(m)}" for n, t, m, u in slow)
    many = len(slow) > 1
    return (head + f" {len(slow)} message{'s' * many} ran slower than a larger one, by more than "
            f"the {EDGE:.0%} one noisy median may miss by ({said}): a smaller message taking longer is "
            "something t = alpha + n/beta cannot do (its time only grows with n), so no line fits "
            f"{'them' if many else 'it'} exactly, whatever its alpha and beta. This run does not measure why."
            + _kept_misses(kept, this_run, slow))


def _kept_misses(kept, this_run, slow) -> str:
    """" The profile's line gives 4 B 75.8 µs, measured above the line by 22.6% of the measured time (residual
    +22.6%): within that line's own ±45%." for the messages ``slow`` names, judged as ``LineCheck.beyond`` judges
    (its own error plus ``EDGE``); "" with no ``kept`` or where ``kept`` is this run's own fit. A miss past the ±
    but not past the edge says both (t40_0001 #1: +51.5% was called "within ±45%")."""
    if kept is None or kept.seconds == this_run.seconds:
        return ""
    check = check_line(kept, this_run)
    past = {m[0] for m in check.beyond}
    own = f"that line's own ±{check.error:.0%}"
    parts = []
    for n, *_ in slow:
        _, _, line, miss = next(m for m in check.misses if m[0] == n)
        # compared in tenths of a percent, as ``LineCheck.beyond`` compares
        past_own = round(abs(miss_shown(miss)) * 1000) > round(check._own * 1000)
        where = (f"past {own} plus the {_points(EDGE)} edge" if n in past else
                 f"past {own}, within the {_points(EDGE)} edge the course allows one noisy median" if past_own
                 else f"within {own}")
        parts.append(f"{_size(n)} {_us(line):,.1f} µs, {residual_words(miss)}: {where}")
    return " The profile's line gives " + "; ".join(parts) + "."


def cost_answer(kept, this_run, tolerance: float) -> str:
    """Section 3's answer in one line: what a message costs in this run: about the kept fit's alpha + n/beta
    where it is within ``tolerance`` and this run lies on its line (``check_line``), else its measured time."""
    line = f"alpha {kept.fit.alpha * 1e6:,.1f} µs, beta {kept.fit.beta / 1e9:.2f} GB/s"
    head = f"What a message costs on '{kept.name}' in this run: "
    acc = printed_accuracy(kept)  # the ± the fit table's residuals print
    if acc > tolerance:
        return (head + f"its measured time (listed below): one alpha and one beta fit its sizes only within "
                f"±{acc:.0%}, outside the ±{tolerance:.0%} tolerance.")
    if kept.seconds == this_run.seconds:
        return (head + f"about alpha + n/beta with this run's fit ({line}), good to about ±{acc:.0%}"
                f"{_below_fall(this_run)}.")
    check = check_line(kept, this_run)
    if check.grade == "one side":  # every miss past noise on one side: the run's link moved as a whole
        return (head + f"its measured time (listed below), not the profile's line ({line}): this run's messages "
                f"are {check.where.replace('the line', 'that line')} (up to "
                f"{miss_text(check.worst[3])}), a pattern by the course's sign test: misses of random sign fall so "
                f"much on one side {_one_side_odds(check):.0%} of the time, under the {PATTERN_P:.0%} it calls a "
                "pattern.")  # the term said where the verdict first uses it (t40_0001)
    if check.grade == "beyond":
        return (head + f"its measured time (listed below), not the profile's line ({line}), which this run's "
                f"messages miss by up to {miss_text(check.worst[3])}.")
    if check.grade == "one size":  # one median alone: neither the line nor its failure shown
        return (head + f"its measured time (listed below): whether its messages lie on the profile's line "
                f"({line}) is not shown, one size alone missing it ({_size(check.worst[0])}, "
                f"{miss_text(check.worst[3])}).")
    return (head + f"about alpha + n/beta on the profile's line ({line}): this run's messages lie on it "
            f"({check.verdict}){_below_fall(this_run)}.")


def _one_side_odds(check) -> float:
    """The sign test's chance behind a "one side" grade: misses of random sign changing as seldom."""
    return few_changes_chance(len(check.one_sided), check.changes(check.one_sided))


def _below_fall(this_run) -> str:
    """", for messages up to 1 MiB: above 1 MiB, ..." where this run's rate falls between neighbouring sizes
    (``rate_falls``: every fall, not only at the largest sizes), a shape no line has, else "". The line is read
    only up to the first fall's smaller size, whose rate is still the line's (t26_0001); above it lies a fall
    (t27_0001 #1: 1 MiB -> 4 MiB, -24%, beside a scope "up to 16 MiB"). Reader t25_0001: the answer said "lie on it" while the block found the line
    under-predicting the largest messages, and an exercise predicts with that line."""
    falls = rate_falls(this_run.fit.sizes, this_run.seconds)
    if not falls:
        return ""
    n1 = _size(falls[0][0])  # the first fall's smaller size: its rate is still the line's
    # where the only fall is above n1 itself, "where the rate falls" says it; else each fall is named
    where = "" if len(falls) == 1 and falls[0][2] == max(this_run.fit.sizes) else \
        " (" + ", ".join(f"{_size(f[0])} to {_size(f[2])}" for f in falls) + ")"
    return f", for messages up to {n1}: above {n1}, where the rate falls{where}, use the measured times"
