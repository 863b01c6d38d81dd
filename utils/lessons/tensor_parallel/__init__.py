"""Lesson 07, ``notebooks/07_tensor_parallel.ipynb``: tensor parallelism, splitting a layer (not the model)
across two devices: column- then row-parallel layers with one all-reduce each way, torch's
``parallelize_module``, and what the all-reduce costs against the compute it saves."""
