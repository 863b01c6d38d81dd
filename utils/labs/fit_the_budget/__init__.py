"""Lab 06 (``labs/06_fit_the_budget.ipynb``): make a training step fit a memory budget, predicted first."""
