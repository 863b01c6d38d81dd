"""Lab 05, ``labs/05_feed_the_gpu.ipynb``: the checks of a loading set-up within 10% of max(L/2, C)."""
