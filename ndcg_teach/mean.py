"""Means over queries: mean NDCG, MAP and MRR.

Each query is scored by its own per-list function and the scores are averaged
with equal weight. Lesson 09 evaluates a model this way.
"""

import numpy as np

from .average_precision import average_precision
from .dcg import ndcg
from .reciprocal_rank import reciprocal_rank
from .validation import shown


def _mean(metric, queries, keywords):
    if isinstance(queries, (str, bytes)) or np.isscalar(queries) or queries is None:
        raise TypeError(f"queries must be a list of relevance lists, one per query. Got {shown(queries)} instead.")
    queries = list(queries)
    if not queries:
        raise ValueError("queries must hold at least one relevance list. Got [] instead.")
    values = []
    for number, relevances in enumerate(queries, start=1):
        if np.isscalar(relevances):
            raise TypeError(
                f"queries must be a list of relevance lists, one per query; query {number} is a single number. "
                f"Got {shown(queries)} instead."
            )
        try:
            values.append(metric(relevances, **keywords))
        except (TypeError, ValueError) as error:
            raise type(error)(f"query {number}: {error}") from None
    return float(np.mean(values))


def mean_ndcg(queries, **keywords):
    """Mean NDCG over queries; keywords as in :func:`ndcg`.

    Examples
    --------
    >>> round(mean_ndcg([[5, 2, 3], [0, 1]]), 4)  # (0.9834 + 0.6309) / 2
    0.8072
    """
    return _mean(ndcg, queries, keywords)


def mean_average_precision(queries, **keywords):
    """MAP: mean average precision over queries; keywords as in :func:`average_precision`.

    Examples
    --------
    >>> mean_average_precision([[1, 0, 1], [0, 1]])  # ((1 + 2/3) / 2 + 1/2) / 2
    0.6666666666666666
    """
    return _mean(average_precision, queries, keywords)


def mean_reciprocal_rank(queries, **keywords):
    """MRR: mean reciprocal rank over queries; keywords as in :func:`reciprocal_rank`.

    Examples
    --------
    >>> mean_reciprocal_rank([[0, 1], [1, 0], [0, 0]])  # (1/2 + 1 + 0) / 3
    0.5
    """
    return _mean(reciprocal_rank, queries, keywords)
