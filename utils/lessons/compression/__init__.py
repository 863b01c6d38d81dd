"""Lesson 04, ``notebooks/04_compression.ipynb``: folding, pruning, int8, bf16 and distillation, measured."""
