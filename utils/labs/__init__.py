"""The checks of each lab, one folder per lab notebook, named after its slug:
``utils/labs/fix_the_article/`` serves ``labs/00_fix_the_article.ipynb``. A lab may import the lesson it
practises and the shared infrastructure, never a benchmark or a tool.
"""
