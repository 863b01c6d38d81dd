"""Lab 05, exercise B: memory for a few items. Which ones should it keep?

The learner's data set is bursty: a few batches of slow items take several steps of compute to read, the rest
are fast. The lab has room in memory for ``room`` items; an item kept there costs nothing to read in later
epochs. The learner writes ``choose_cache(dataset, room)``: the indices to keep. Lesson 05 never kept
anything: it hid the reading behind the compute. Here the question is where the reading time is, which a total
such as L does not say.

``check_cache`` calls the learner's function on their own draw and on two draws it has never seen (other
seeds: other spreads of slow items, other mean reads), and counts what each choice saves with the draw's own per-item read
times, against the most that the same room can save (the slowest items). It never names the items.
"""

from __future__ import annotations

from collections.abc import Callable

import torch

from utils import checks
from utils.claims import as_printed, printed_ratio
from utils.labs.feed_the_gpu.checks import BANK, LabSetup, lab_dataset, lab_setup

HIDDEN_SEEDS = (101, 202)  # draws the learner's code never sees, each with its own costliest items
ENOUGH = 0.95  # a choice must save this share of the most the room can save (a timing hiccup may swap an item)
ROOM_BATCHES = 2  # the cache holds two batches' worth of items


def room_for(setup: LabSetup) -> int:
    """Items the cache holds: ``ROOM_BATCHES`` batches' worth."""
    return ROOM_BATCHES * setup.batch_size


def read_seconds(dataset) -> torch.Tensor:
    """Each item's read time in the draw (n_items,), seconds: what a cached item no longer costs."""
    costs = dataset._read_costs  # the draw's, private to the checks: the learner times reads
    weights = costs if costs is not None else torch.ones(len(dataset))
    return weights.double() * dataset.item_seconds


def savings(chosen: list[int], dataset) -> tuple[float, float]:
    """(seconds of an epoch's reading that ``chosen`` saves, the most that as many items can save)."""
    seconds = read_seconds(dataset)
    best = seconds.sort(descending=True).values[:len(chosen)].sum().item()
    return seconds[chosen].sum().item(), best


def _as_indices(chosen, dataset, room: int, where: str) -> list[int]:
    """The learner's choice as a list of item indices, or a failed check that says what is wrong with it."""
    checks.expect(hasattr(chosen, "__iter__") and not isinstance(chosen, (str, bytes, dict)),
                  f"{where} returned {type(chosen).__name__}: return the indices of the items to keep")
    try:
        indices = [int(i) for i in chosen]
    except (TypeError, ValueError):
        checks.expect(False, f"{where} returned {type(chosen).__name__} of something other than item indices")
    checks.expect(len(indices) <= room, f"{where} keeps {len(indices)} items; the cache has room for {room}")
    checks.expect(all(0 <= i < len(dataset) for i in indices),
                  f"{where} names an item outside the data set (0 to {len(dataset) - 1})")
    twice = len(indices) - len(set(indices))
    checks.expect(not twice, f"{where} names {twice} item(s) twice: each takes its room once, so the room holds "
                             "fewer items than it could")
    return indices


def _judge(chosen: list[int], dataset, room: int, where: str) -> float:
    saved, best = savings(chosen, dataset)
    seconds = read_seconds(dataset)
    threshold = seconds.sort(descending=True).values[room - 1].item()
    # item 0 in place of a slow one, the rest right: a process's opening made its first read look slow
    if 0 in chosen and seconds[0].item() < threshold and saved - seconds[0].item() + threshold >= ENOUGH * best:
        checks.expect(False, f"{where} keeps item 0, whose read is not among the slowest: the first read in a "
                             "process also pays the data set's opening (lesson 05 §2), a cost of the process, "
                             "not of the item")
    if saved >= ENOUGH * best and len(chosen) == room:
        return saved / best
    checks.expect(len(chosen) == room, f"{where} keeps {len(chosen)} items in room for {room}: every item left "
                                       "out of the room is reading time not saved")
    checks.expect(False, f"{where} saves {saved / best:.0%} of the reading time that the same room can save: the "
                         "items it keeps are not the ones that cost the most to read. Where is the time of your "
                         "draw's reading? A total such as L does not say")
    return 0.0


def check_cache(choose_cache: Callable, setup: LabSetup, show: bool = True) -> checks.Verdict:
    """Lab 05: ``choose_cache(dataset, room)`` keeps the items whose reads cost most, on the learner's draw and
    on ``HIDDEN_SEEDS``' draws (measured against each draw's own per-item read times)."""

    def body():
        room = room_for(setup)
        draws = [("your draw", setup)] + [(f"a draw you have not seen ({i + 1})", lab_setup(seed=seed))
                                          for i, seed in enumerate(HIDDEN_SEEDS)]
        shares = []
        for name, s in draws:
            dataset = lab_dataset(s)
            where = f"choose_cache on {name}"
            shares.append(_judge(_as_indices(choose_cache(dataset, room), dataset, room, where), dataset, room,
                                 where))
        saves = ("the most that room can save" if f"{min(shares):.0%}" == "100%"
                 else f"at least {min(shares):.0%} of the most that room can save")
        return f"{len(draws)} draws (yours and {len(draws) - 1} unseen): each cache of {room} items saves {saves}"

    return checks.run_check("the cache saves the most reading its room can", body, show=show, hint=checks.stub_message(BANK, "B"))


def cache_take_away(choose_cache: Callable, setup: LabSetup, load: float) -> str:
    """What the learner's cache saves on their own draw, beside the same room spent on the first items; never
    raises on a wrong or unfinished answer."""
    room, dataset = room_for(setup), lab_dataset(setup)
    try:
        chosen = _as_indices(choose_cache(dataset, room), dataset, room, "choose_cache")
    except BaseException as exc:  # noqa: BLE001 - a stub or a wrong answer: the check says why
        return f"- Your cache has not chosen yet ({type(exc).__name__}): its check says why."
    saved, best = savings(chosen, dataset)
    first, _ = savings(list(range(room)), dataset)
    nominal = read_seconds(dataset).sum().item()  # L by the same nominal costs: a share of like with like
    # the share of L from the seconds as printed (0.40 s of 1.04 s: 38%, not the unrounded figures' 39%)
    share, of_l = as_printed(room / len(dataset), 2), as_printed(printed_ratio(saved, nominal), 2)
    of_best = printed_ratio(saved, best)
    return (f"- Your cache keeps {room} items ({share:.0%} of the data set) and saves {saved:.2f} s of an epoch's "
            f"reading by the data set's nominal read costs (each item's read time as your draw sets it, "
            f"not timed), {of_l:.0%} of its nominal L = "
            f"{nominal:.2f} s (measured: L = {load:.2f} s), {of_best:.0%} of the {best:.2f} s that room can "
            f"save at most; "
            f"the first {room} items would save {first:.2f} s (nominal costs too). "
            + share_sentence(of_l, share))


def share_sentence(of_l: float, share: float) -> str:
    """The cache's share of L against its share of the items, both as printed (whole percent): nominal costs,
    no rounds, so no noise to allow for; every branch written (more by half again, a little more, the same
    as printed, less)."""
    pair = f"({of_l:.0%} of L for {share:.0%} of the items)"
    percent_l, percent_items = round(of_l * 100), round(share * 100)  # the two whole percents printed
    if percent_l > 1.5 * percent_items:
        return ("Where a total hides slow reads, a little memory in the right place saves more than its share "
                f"{pair}.")
    if percent_l > percent_items:
        return (f"Your cache saved a little more than its share of the items {pair}, not half again as much: "
                "set it beside the most that room can save, above.")
    if percent_l == percent_items:
        return (f"Your cache saved its share of the items and no more {pair}: the reading is not where it "
                "looked.")
    return f"Your cache saved less than its share of the items {pair}: the reading is not where it looked."
