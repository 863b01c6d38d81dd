"""Lab 07, ``labs/07_attention_by_heads.ipynb``: the checks of the learner's attention block split by heads, its
hints and its quiz."""
