"""Lab 01, ``labs/01_predict_the_roofline.ipynb``: the checks of a learner's roofline predictions (FLOPs and
bytes of an op, its bound and its time), and of those predictions against the op measured in the run."""
