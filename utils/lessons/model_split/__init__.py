"""Lesson 02, ``notebooks/02_model_split.ipynb``: the model split, pipelining (GPipe, 1F1B) and balancing."""
