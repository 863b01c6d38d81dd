"""``python -m utils.benchmarks [NAME ...] [--all] [--json] [--list] [--out DIR]``: see ``utils.bench``."""

import sys

from utils import bench

if __name__ == "__main__":
    sys.exit(bench.main("utils.benchmarks"))
