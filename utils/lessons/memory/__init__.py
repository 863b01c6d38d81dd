"""Lesson 06 (``notebooks/06_memory.ipynb``): where a training step's memory goes, the calculator that predicts
it, the techniques that take bytes off each line, and sharding across two devices (DDP against FSDP2)."""
