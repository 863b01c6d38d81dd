"""Knowledge distillation, lesson 04 (``notebooks/04_compression.ipynb``): a small student trained to match a
large teacher's softened outputs as well as the labels (Hinton, Vinyals and Dean, 2015).

    student = ArticleCNN(seed=2, scale=0.5)
    distill(student, teacher, train_set, epochs=6, temperature=4.0, alpha=0.7)
"""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn

from utils.lessons.compression.train import train

__all__ = ["distill_loss", "distill"]


def distill_loss(student_logits: torch.Tensor, teacher_logits: torch.Tensor, labels: torch.Tensor,
                 temperature: float = 4.0, alpha: float = 0.7) -> torch.Tensor:
    """Hinton's knowledge-distillation loss: ``alpha`` × soft-target KL + (1 - ``alpha``) × cross-entropy.

    Both logits (N, classes). Dividing by ``temperature`` softens the teacher's distribution so that its
    "dark knowledge" (which wrong classes look alike) carries signal; the ``T²`` factor keeps the soft
    term's gradients the same size as the hard term's whatever T is. Lesson 04.
    """
    soft = F.kl_div(F.log_softmax(student_logits / temperature, dim=1),  # (N, classes) log-probabilities
                    F.softmax(teacher_logits / temperature, dim=1),  # (N, classes) probabilities
                    reduction="batchmean")
    return alpha * temperature**2 * soft + (1 - alpha) * F.cross_entropy(student_logits, labels)


def distill(student: nn.Module, teacher: nn.Module, dataset, epochs: int, *, temperature: float = 4.0,
            alpha: float = 0.7, **train_kwargs) -> list[float]:
    """Train ``student`` with ``distill_loss`` against ``teacher``, which is frozen; ``train``'s other
    options. Lesson 04. Returns the mean loss of each epoch.
    """
    teacher.eval()

    def loss_fn(logits, labels, images):
        with torch.no_grad():
            teacher_logits = teacher(images)  # (B, 10): the teacher only gives targets, it does not learn
        return distill_loss(logits, teacher_logits, labels, temperature, alpha)

    return train(student, dataset, epochs, loss_fn=loss_fn, **train_kwargs)
