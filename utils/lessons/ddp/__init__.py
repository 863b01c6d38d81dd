"""Lesson 03, ``notebooks/03_ddp.ipynb``: DistributedDataParallel from the notebook and under ``torchrun``."""
