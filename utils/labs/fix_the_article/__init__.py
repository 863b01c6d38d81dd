"""Lab 00, ``labs/00_fix_the_article.ipynb``: article 1's split fixed, then what a split sends over the link
each training step and what that costs (``split``: the measured split and link; ``checks``: the checks)."""
