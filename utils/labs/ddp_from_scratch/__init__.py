"""Lab 03, ``labs/03_ddp_from_scratch.ipynb``: the checks of the learner's DDP training function."""
