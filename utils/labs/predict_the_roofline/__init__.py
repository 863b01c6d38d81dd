"""Lab 01, ``labs/01_predict_the_roofline.ipynb``: ops lesson 01 did not place on its roofline (``ops``: an
embedding lookup, a convolution, attention with and without its mask), the checks of a learner's counts and
turning length against what the ops do and against the ops measured in the run (``checks``, ``mistakes``), and
the report of the misses (``report``)."""
