"""Lab 03's hints (t20_labs03 item 4): A2 points to the documentation's uneven-inputs page and the mean the
gradient is meant to be, never the API's name nor the divisor's option; B3 asks for the largest sum a group
can make against int8's range, never the design (what crosses the wire, what the sum is made in)."""

from utils import checks
from utils.labs.ddp_from_scratch import checks as lab
from utils.labs.ddp_from_scratch import compress


def _text(part: str) -> str:
    return " ".join(" ".join(checks.hint_texts(lab.BANK)[part]).split())


def test_hint_a_points_to_the_uneven_inputs_page_never_to_join_or_its_divisor():
    said = _text("A")
    assert "documentation on uneven inputs across ranks" in said and "mean over the sequences" in said
    for gives_away in ("Join", "join", "divide_by_initial_world_size", "algorithms", "divides by?"):
        assert gives_away not in said


def test_hint_b_asks_for_the_largest_sum_never_the_type_to_sum_in():
    said = _text("B")
    largest_group = max(c[4] for c in compress.CONFIGURATIONS)
    assert f"clipped to at most {compress.LEVELS} either way" in said  # the hint's figures are the lab's
    assert f"the largest sum of counts a group of {largest_group} ranks can make" in said
    for gives_away in ("crosses the wire", "the sum is made in", "the type it needs", "int32", "int16", "wider"):
        assert gives_away not in said
