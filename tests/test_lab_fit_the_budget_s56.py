"""Twentieth reading (t20_labs48, lab 06): exercise C's stub stated the answer ("a weighted mean: a mean of
means is the whole batch's mean only when every part holds as many"). The stub (level 1) now says what the
step must give and which APIs to read; the weighted mean moves to level 2."""

from utils import checks


def test_exercise_c_s_stub_says_what_not_how():
    first, second, third = checks.hint_texts("labs/fit_the_budget")["C"]
    assert first.startswith("What your step must give: the gradient of one step on the whole batch")
    assert "weighted" not in first and "mean of means" not in first
    assert "torch.Tensor.chunk" in first and "ignore_index" in first
    assert "weighted mean" in second and "1 token" in third
    assert checks.stub_message("labs/fit_the_budget", "C").startswith("exercise C: What your step must give")
