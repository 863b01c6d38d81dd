"""Lab 02, ``labs/02_balance_the_pipeline.ipynb``: predict and choose a pipeline's split and micro-batch count."""
