"""Lab 04, ``labs/04_compress_under_budget.ipynb``: the checks of a model compressed under a budget."""
