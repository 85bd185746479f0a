"""Whole runs: judgements and a system's run in, trec_eval's numbers out, and trec_eval's command. Lesson 09 on.

A run is read (``trec`` from TREC files, dicts or DataFrames; ``trec_files``, ``trec_reading``, ``trec_tables`` and
``ids`` read as trec_eval does, in bounded blocks), paired with its judgements query by query (``judging``,
``judging_subtopics``), and scored by every measure asked for by name (``measures``: trec_eval's and ir_measures'
names) with the core's metrics (``evaluation``: :func:`evaluate`); ``trec_output`` sums the queries up and prints
trec_eval's lines, and ``rbp_leftover`` what trec_eval 10.0's rbp starts from. ``comparison`` pairs two evaluations
for a paired test, ``exploring`` opens one query of an evaluation (and its what-ifs), and ``cli`` is
``python -m ndcg_teach``, trec_eval's command, explained. ``data/`` holds the collection :func:`example_files` names.

May import: ``statistics``, ``core``, ``i18n``; and ``widgets`` inside :meth:`Evaluation.explore` only, which
opens the explorer of one query (the widgets extra is needed only when it is called).
"""

from .comparison import Comparison, compare
from .evaluation import Evaluation, evaluate
from .trec import TrecFormatError, example_files, read_qrels, read_run

__all__ = ["Comparison", "Evaluation", "TrecFormatError", "compare", "evaluate", "example_files", "read_qrels",
           "read_run"]
