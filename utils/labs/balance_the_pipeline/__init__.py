"""Lab 02, ``labs/02_balance_the_pipeline.ipynb``: split an uneven model and balance the pipeline; its checks."""
