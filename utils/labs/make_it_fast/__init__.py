"""Lab 08 (labs/08_make_it_fast.ipynb), make it fast: the slow script, its pieces, and the checks."""
