"""Jupyter widgets for the lessons: reorder a ranking and watch every metric follow.

Importing this package imports anywidget, ipywidgets and matplotlib (the
``widgets`` extra); ``import ndcg_teach`` alone does not.

- :class:`RankingExplorer`: one ranked list to drag, with live numbers, the
  step table, the discount curve and running DCG against running IDCG.
- :class:`CompareExplorer`: two rankings of the same items side by side, with
  the difference in every metric.
- :class:`DifferenceExplorer`: two systems' per-query scores to drag or swap,
  with the paired tests of B − A (lesson 13).
- :class:`QueryExplorer`: one query of an evaluated run, as trec_eval ranked
  and judged it, with what the run's mean would become (lesson 20).
- :class:`RunExplorer`: a run's per-query scores (or two runs' differences)
  with the mean and its paired tests; any query opens below (lesson 20).

Python computes, JavaScript draws: every number comes from the rooms below.

May import: ``plots``, ``runs``, ``statistics``, ``core``, ``i18n``.
"""

from .compare import CompareExplorer
from .differences import DifferenceExplorer
from .explorer import RankingExplorer
from .run_explorer import RunExplorer
from .run_query import QueryExplorer

__all__ = ["CompareExplorer", "DifferenceExplorer", "QueryExplorer", "RankingExplorer", "RunExplorer"]
