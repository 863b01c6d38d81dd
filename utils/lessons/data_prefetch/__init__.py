"""Lesson 05, ``notebooks/05_data_prefetch.ipynb``: DataLoader knobs, a prefetcher, uint8 transfers."""
