"""Benchmark ``prune`` (lesson 04): the accuracy the article's CNN loses at 50 % global L1 sparsity after two
epochs of fine-tuning, against a limit of 0.01 (one percentage point). ``python -m utils.benchmarks prune``.
"""

from __future__ import annotations

from utils import bench, data, models
from utils.lessons.compression.measure import sparsity
from utils.lessons.compression.prune import pruned_copy, remove_masks
from utils.lessons.compression.train import train

EPOCHS, FINETUNE_EPOCHS = 6, 2
MAX_DROP = 0.01  # a fraction of the test set: one percentage point


@bench.register("prune")
def prune_benchmark() -> bench.Result:
    """Accuracy drop (a fraction) of the trained CNN pruned to 50 % zeros, then fine-tuned at a lower rate.

    ``ratio_to_bound`` is drop / limit: the share of the allowed drop that was used (0 = no drop, above 1 =
    over the limit; a pruned model that does better counts as 0).
    """
    train_set, test_set = data.digits_28("train"), data.digits_28("test")
    model = models.ArticleCNN(seed=0)
    train(model, train_set, EPOCHS)
    pruned = pruned_copy(model, "global unstructured", 0.5)
    train(pruned, train_set, FINETUNE_EPOCHS, lr=3e-4, seed=1)  # masked weights stay zero
    remove_masks(pruned)
    drop = models.accuracy(model, test_set) - models.accuracy(pruned, test_set)
    return bench.Result("prune", measured=drop, bound=MAX_DROP, unit="of accuracy",
                        ratio_to_bound=max(drop, 0.0) / MAX_DROP,
                        note=f"accuracy drop (a fraction) at 50% global L1 sparsity, {FINETUNE_EPOCHS} "
                             f"fine-tuning epochs (limit {MAX_DROP:g}: one point)",
                        extra={"sparsity": sparsity(pruned)})
