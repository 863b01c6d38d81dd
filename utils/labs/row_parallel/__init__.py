"""Lab 07, ``labs/07_row_parallel.ipynb``: the checks of the learner's row-parallel layer and its
all-reduce."""
