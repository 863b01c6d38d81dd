"""README's labs table states each lab's learner time as the lab's own header does (a reader found 4 of 9 apart)."""
import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LABS = sorted((ROOT / "labs").glob("0*.ipynb"))


def minutes_stated(text: str) -> str:
    """'45', '60' or '30-45' from a header's "about 45 minutes", "about an hour", "Learner time: 30-45 minutes"."""
    if re.search(r"about an hour for a learner", text):
        return "60"
    found = re.search(r"(\d+(?:-\d+)?) minutes", text)
    assert found, "no learner time in the lab's header"
    return found.group(1)


def header(lab: Path) -> str:
    cells = json.loads(lab.read_text())["cells"][:3]
    return " ".join("".join(c["source"]) for c in cells).replace("\n", " ")


def readme_row(lab: Path) -> str:
    rows = [line for line in (ROOT / "README.md").read_text().splitlines()
            if line.startswith(f"| [`labs/{lab.name}`]")]
    assert len(rows) == 1, f"README has {len(rows)} rows for {lab.name}"
    return rows[0]


@pytest.mark.parametrize("lab", LABS, ids=[lab.stem for lab in LABS])
def test_readme_learner_time_is_the_labs_own(lab):
    said = readme_row(lab).rstrip(" |").rsplit("|", 1)[-1].strip()
    assert said == f"{minutes_stated(header(lab))} min", said


def test_minutes_stated_reads_each_form():
    assert minutes_stated("About 10 s; about 45 minutes for a learner.") == "45"
    assert minutes_stated("once solved; about an hour for a learner.") == "60"
    assert minutes_stated("Learner time: 30-45 minutes.") == "30-45"
