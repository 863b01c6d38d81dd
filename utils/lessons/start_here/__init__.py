"""Lesson 00, ``notebooks/00_start_here.ipynb``: the hardware tour and copy bandwidth against its bound."""
