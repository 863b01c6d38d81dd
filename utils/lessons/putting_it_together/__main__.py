"""``python -m utils.lessons.putting_it_together --help``: lesson 08's training script (see ``cli.py``)."""

import os
import sys

from utils.lessons.putting_it_together.cli import main

if __name__ == "__main__":
    code = main()
    # End as lesson 03's script does (utils/lessons/ddp/__main__.py): without the interpreter's teardown,
    # which can abort or hang while gloo's threads still run.
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)
