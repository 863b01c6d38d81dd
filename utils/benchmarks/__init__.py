"""The course's performance targets, one small module per benchmark (``make bench``).

Every function here decorated with ``utils.bench.register`` is found by ``utils.bench.discover``; nothing
lists them. Each returns a ``utils.bench.Result``: the measured figure, its theoretical bound, the ratio.
Run them with ``python -m utils.benchmarks --all --out results`` or by name (``--list`` names them).
"""
