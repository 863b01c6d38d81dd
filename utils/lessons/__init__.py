"""The code of each lesson, one folder per notebook, named after the notebook's slug (so renumbering moves
nothing): ``utils/lessons/model_split/`` serves ``notebooks/02_model_split.ipynb``.

What lives here is the code a lesson's workers or ``torchrun`` must import; the notebook shows it where it is
used (``utils.source.show_source``). A lesson imports the shared infrastructure (``utils.devices``,
``utils.launch``, ``utils.bench`` ...), never a lab, a benchmark or a tool.
"""
