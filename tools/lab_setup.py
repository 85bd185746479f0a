"""Kept for the commands written before ``python -m ndcg_teach.jupyter.setup`` existed: it runs that command.

``python tools/lab_setup.py [--prefix DIR] [--check]`` is ``python -m ndcg_teach.jupyter.setup [...]`` (see
:mod:`ndcg_teach.jupyter.setup`) in an environment where ndcg_teach is installed.
"""

import sys

from ndcg_teach.jupyter.setup import main

if __name__ == "__main__":
    sys.exit(main())
