"""``torchrun --nproc-per-node 2 -m utils.lessons.ddp --steps 30``: lesson 03's training (see ``cli.py``)."""

import sys

from utils.lessons.ddp.cli import main

if __name__ == "__main__":
    sys.exit(main())
