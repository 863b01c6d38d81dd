"""Lab 00 (utils.labs.fix_the_article.checks): the solutions pass, and each plausible wrong answer (a mutant,
``pytest -m mutants``) fails the check that measures its skill, with a message that says what is wrong.

The launched workers are module-level functions (a launch pickles them by name). Every worker that builds a
DDP model keeps it until the process exits (``launch.keep_until_exit``), as the lab's solutions do.
"""

from __future__ import annotations

import pytest
import torch
from torch import nn

from utils import article, checks
from utils.labs.fix_the_article import checks as lab


@pytest.fixture(autouse=True)
def _in_cpu_mode_leaving_nothing(cpu_mode_and_no_leftovers):
    yield


# --- Part A: the split ------------------------------------------------------------------------------------


class Split(nn.Module):
    """Article 1's split, right, or with one mistake (``placement``: where each layer goes and what moves)."""

    def __init__(self, dev0, dev1, placement="right"):
        super().__init__()
        self.dev0, self.dev1, self.placement = dev0, dev1, placement
        first, second = (dev1, dev0) if placement == "swapped" else (dev0, dev1)
        if placement == "layer2 on the first device":
            second = dev0
        self.layer1, self.layer2 = nn.Linear(128, 64).to(first), nn.Linear(64, 32).to(second)

    def forward(self, x):
        if self.placement == "layer2 on the first device":  # computes on dev0, then moves only the output
            return self.layer2(self.layer1(x)).to(self.dev1)
        if self.placement == "swapped":
            return self.layer2(self.layer1(x.to(self.dev1)).to(self.dev0))
        if self.placement == "no transfer":
            return self.layer2(self.layer1(x))
        return self.layer2(self.layer1(x).to(self.dev1))


class TwoCopies(nn.Module):  # the article's mistake: a whole model per device
    def __init__(self, dev0, dev1):
        super().__init__()
        self.first, self.second = article.ArticleModel().to(dev0), article.ArticleModel().to(dev1)

    def forward(self, x):
        return self.second(self.first(x))


def _split(placement):
    return type(f"Split_{placement.replace(' ', '_')}", (Split,),
                {"__init__": lambda self, d0, d1: Split.__init__(self, d0, d1, placement)})


@pytest.mark.timeout(60)
def test_the_right_split_passes_and_its_layers_are_recorded_where_they_ran():
    assert lab.check_split(_split("right")).passed
    out, layers = lab.where_layers_ran(Split("cpu", "meta"), torch.randn(3, 128))
    assert out.device.type == "meta" and layers["layer1"] == {"parameters": "cpu", "input": "cpu", "output": "cpu"}
    assert layers["layer2"] == {"parameters": "meta", "input": "meta", "output": "meta"}


SPLIT_MUTANTS = [
    (TwoCopies, "do not match article 1's"),
    (_split("no transfer"), "forward pass fails"),
    (_split("layer2 on the first device"), "layer2's parameters are on cpu, expected meta"),
    (_split("swapped"), "layer1's parameters are on meta, expected cpu"),
]


@pytest.mark.mutants
@pytest.mark.timeout(60)
@pytest.mark.parametrize("model_cls, says", SPLIT_MUTANTS, ids=lambda m: getattr(m, "__name__", "says"))
def test_a_wrong_split_fails_saying_where_a_layer_ran(model_cls, says):
    verdict = lab.check_split(model_cls)
    assert verdict.status == checks.FAILED and says in verdict.message, str(verdict)


# --- Exercise B: what crosses the link ---------------------------------------------------------------------


def test_the_right_count_passes():
    assert lab.check_crossing(lambda n: 2 * n * 64 * 4).passed


WEIGHTS = sum(p.numel() for p in article.ArticleModel().parameters()) * 4
CROSSING_MUTANTS = [  # (mistake, the learner's answer, what the message must say)
    ("forward only", lambda n: n * 64 * 4, "the forward activation only"),
    ("weights too", lambda n: 2 * n * 64 * 4 + WEIGHTS, "the weights too"),
    ("the input's size", lambda n: 2 * n * 128 * 4, "the input never leaves the first device"),
    ("bits", lambda n: 2 * n * 64 * 32, "bits, not bytes"),
    ("half precision", lambda n: 2 * n * 64 * 2, "the model computes in float32"),
    ("one batch size only", lambda n: 51_200, "expected 512"),
]


@pytest.mark.mutants
@pytest.mark.parametrize("mistake, answer, says", CROSSING_MUTANTS, ids=[m[0] for m in CROSSING_MUTANTS])
def test_a_wrong_count_fails_naming_the_mistake(mistake, answer, says):
    verdict = lab.check_crossing(answer)
    assert verdict.status == checks.FAILED and says in verdict.message, str(verdict)


# --- The lab's source ---------------------------------------------------------------------------------------


def _code_cells():
    import json
    from pathlib import Path

    nb = json.loads((Path(__file__).resolve().parents[1] / "labs" / "00_fix_the_article.ipynb").read_text())
    return ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code"]


def test_lab_00_needs_nothing_of_ddp():
    """Issue 26: lab 00 needs lesson 00 only; the articles' DDP repairs are lab 03's."""
    code = "\n".join(_code_cells())
    assert "DistributedDataParallel" not in code and "init_process_group" not in code


def test_no_cell_runs_the_device_demos_in_the_notebook_process():
    """On GPUs they start CUDA, and CUDA started in the notebook stops every later forked launch."""
    code = "\n".join(_code_cells())
    assert "article.split_as_written(" not in code and "article.split_shapes_fixed_only(" not in code
    assert code.count("article.run_in_worker(article.split_") == 2
