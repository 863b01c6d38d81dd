"""Lesson 08, putting it together (``notebooks/08_putting_it_together.ipynb``): one training run of the
course's small GPT made fast step by step. ``guide`` chooses the steps; ``script`` is the training script
(``python -m utils.lessons.putting_it_together`` or under ``torchrun``); ``plan`` sizes the lesson for the
machine; ``ladder`` runs the steps against their bounds; ``report`` keeps the ledger; ``serve``: int8."""
