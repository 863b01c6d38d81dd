"""Lab 00, ``labs/00_fix_the_article.ipynb``: the checks of the articles' code, fixed by the learner."""
