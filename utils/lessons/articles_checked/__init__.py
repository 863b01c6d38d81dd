"""Lesson 09 (``notebooks/09_articles_checked.ipynb``): every claim and code block of the two articles, with a
verdict, the evidence for it and a check that can disagree.

Modules: ``claims`` (the paraphrases and the course's reading), ``evidence`` (what the lesson measures itself),
``snippets`` (the articles' code, run as written and as fixed), ``sources`` (kinds of evidence, where a figure
ran, the ledger and the benchmarks' file), ``sections`` (references cited from the lessons' headings),
``host_memory`` (row B7's fragmenting pattern in the host's allocator), ``verdicts`` (each claim's evidence
and check, and its row) and ``report`` (the tables and README's summary).
"""
