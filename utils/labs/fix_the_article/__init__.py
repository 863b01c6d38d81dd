"""Lab 00, ``labs/00_fix_the_article.ipynb``: article 1's split fixed, then what a split sends over the link
each training step, and where to cut a model under a memory budget (``split``: the measured split and link;
``checks``: the checks)."""
