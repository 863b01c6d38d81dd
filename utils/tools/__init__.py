"""Maintainer tools, not imported by lessons: notebook execute/clean/hygiene/student copies/grading
(``python -m utils.tools.nbtools``) and the one-shot GPU check (``python -m utils.tools.gpucheck``)."""
