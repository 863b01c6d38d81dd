"""``torchrun --nproc-per-node 2 -m utils.lessons.ddp --steps 30``: lesson 03's training (see ``cli.py``)."""

import os
import sys

from utils.lessons.ddp.cli import main

if __name__ == "__main__":
    code = main()
    # End without the interpreter's teardown, as the notebook's workers do (utils.launch): at teardown the
    # DDP model kept by keep_until_exit frees its gloo group while gloo's threads may still run, which now
    # and then aborts the worker ("terminate called without an active exception") or hangs it; torchrun then
    # reports a failure, and with two agents the other waits at its exit barrier for minutes.
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)
