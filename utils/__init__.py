"""Two-GPU Lab's shared helpers. Notebooks import modules by name: ``from utils import devices, bench``.

Importing this package does nothing else: no CUDA, no NVML, no threads, no files (the launcher forks
workers, and a forked child cannot use CUDA that its parent already started).
"""
