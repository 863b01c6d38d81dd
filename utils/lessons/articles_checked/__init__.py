"""Lesson 09 (``notebooks/09_articles_checked.ipynb``): every claim and code block of the two articles,
with a verdict and the evidence for it, measured in the run or read from a results file that names its
hardware."""
