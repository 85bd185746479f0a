"""``python -m ndcg_teach QRELS RUN [-m MEASURE ...] [-q] [-c] [-M N] [-l N] ...``: trec_eval's command, explained.

Everything is in :mod:`ndcg_teach.runs.cli`; lesson 09 runs it.
"""

import sys

from .runs.cli import main

if __name__ == "__main__":
    sys.exit(main())
