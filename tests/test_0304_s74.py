"""The thirty-fifth reading of lessons 03 and 04 (t35_0304): markdown that asserted an outcome the run
refuted, and cross-references that pointed to the wrong section."""
from pathlib import Path

import nbformat

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"


def _cells(name: str) -> list:
    return nbformat.read(NOTEBOOKS / name, as_version=4).cells


def _markdown(name: str, marker: str) -> str:
    return " ".join(next(c.source for c in _cells(name) if c.cell_type == "markdown" and marker in c.source).split())


def test_03_knobs_markdown_asserts_no_outcome():
    """t35_0304 #1: 'the bucket size barely matters' where the all-reduce is small was refuted by a run whose
    0.25 MiB buckets stood apart (1.10x, every round outside the defaults'): the markdown says what a small
    all-reduce limits (what a bucket size can hide) and what it does not (the cost of more buckets, alpha each),
    and leaves the outcome to the printed line."""
    text = _markdown("03_ddp.ipynb", "Read the times against the *every round* column")
    assert "barely matters" not in text
    assert "can *hide* little" in text and "can still *cost*: each extra bucket pays $\\alpha$ again" in text
    assert "the same line says whether any setting stood apart here" in text


def test_03_deterministic_kernels_point_to_the_restart_section():
    """t35_0304 #3: deterministic kernels are for the section that reruns the training and compares weights
    ("A worker dies"), not section 6 (the all-reduce's speed): the comment and the printed GPU-mode reason
    name that section's number, whatever it is."""
    cells = _cells("03_ddp.ipynb")
    restart = next(c.source for c in cells if c.cell_type == "markdown" and "A worker dies" in c.source)
    number = restart.split("·")[0].strip("# ").strip()
    code = [c.source for c in cells if c.cell_type == "code"]
    assert any(f"because section {number} reruns this training and compares weights" in s for s in code)
    assert any(f"deterministic kernels (section {number} needs them)" in s for s in code)
    assert not any("section 6 reruns" in s or "(section 6 needs them)" in s for s in code)


def _size(n: int, ms: float, low: float, high: float) -> dict:
    """One size of the all-reduce table (two ranks: busbw = algbw), times in ms."""
    return {"bytes": n, "seconds": ms * 1e-3, "low": low * 1e-3, "high": high * 1e-3, "busbw": n / (ms * 1e-3)}


def test_03_a_rough_peak_scores_no_share_of_the_link():
    """t35_0304 #4: the claims row scored 34% of beta on a peak whose repeats spread 2.70-8.32 ms around a 3.55
    ms median, which the page itself calls rough: a rough peak prints ~, with its repeats' rates, and no share;
    a steady one is left to the caller to score (fabricated figures)."""
    from utils.lessons.ddp import allreduce

    rough = _size(4_000_000, 4.0, 2.5, 8.0)  # range 5.5 ms over a 4.0 ms median: rough
    claim = allreduce.rough_peak_claim("busbw at its peak vs beta", rough, 3.48e9, "reference", 2)
    assert claim.measured == "~1.00 GB/s (rough: its repeats ran 0.50-1.60 GB/s)"
    assert claim.against == "reference 3.48 GB/s"
    assert claim.verdict == "the peak's median is rough: no share of the reference scored" and "%" not in claim.verdict
    bound = allreduce.rough_peak_claim("busbw vs the link", rough, 64e9, "bound", 1)
    assert bound.against == "bound 64.0 GB/s" and "no share of the bound scored" in bound.verdict
    steady = _size(4_000_000, 4.0, 3.8, 4.4)  # range 0.6 ms: not rough
    assert allreduce.rough_peak_claim("x", steady, 3.48e9, "reference", 2) is None
    assert allreduce.rough_rate(steady) == "" and allreduce.rough_rate(rough).startswith(" (rough: its repeats ran")


def test_03_the_claims_row_asks_for_the_rough_reading_first():
    """t35_0304 #4: the closing cell builds the peak's row from rough_peak_claim before scoring a share, and
    section 6's sentence gives the peak's repeats where its median is rough."""
    code = [c.source for c in _cells("03_ddp.ipynb") if c.cell_type == "code"]
    closing = next(s for s in code if "largest_msg" in s and "show_claims(rows)" in s)
    assert "allreduce.rough_peak_claim(peak_name, top, LINK.fit.beta" in closing
    assert "allreduce.rough_peak_claim(peak_name, top, line" in closing
    assert sum("GB/s{allreduce.rough_rate(top)}" in s for s in code) == 1
