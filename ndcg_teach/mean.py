"""Means over queries: mean NDCG, MAP and MRR.

Each query is scored by its own per-list function and the scores are averaged
with equal weight. What differs from query to query (the pool of judged
grades, the number of relevant items) is passed as one value per query.
Lesson 09 evaluates a model this way.
"""

import numpy as np

from .average_precision import average_precision
from .dcg import ndcg
from .reciprocal_rank import reciprocal_rank
from .validation import shown


def _as_query_list(name, values, what):
    if isinstance(values, (str, bytes)) or np.isscalar(values) or values is None:
        raise TypeError(f"{name} must be a list with {what}, one per query. Got {shown(values)} instead.")
    return list(values)


def _mean(metric, queries, keywords, per_query=None):
    queries = _as_query_list("queries", queries, "a relevance list")
    if not queries:
        raise ValueError("queries must hold at least one relevance list. Got [] instead.")
    # per_query maps a parameter name to (the metric's keyword, one value per query).
    lists = {}
    for name, (keyword, values) in (per_query or {}).items():
        if values is None:
            continue
        lists[keyword] = _as_query_list(name, values, "a value")
        if len(lists[keyword]) != len(queries):
            raise ValueError(f"{name} must hold one value per query ({len(queries)}). Got {len(lists[keyword])} values instead.")
    values = []
    for index, relevances in enumerate(queries):
        if np.isscalar(relevances):
            raise TypeError(
                f"queries must be a list of relevance lists, one per query; query {index + 1} is a single number. "
                f"Got {shown(queries)} instead."
            )
        own = {keyword: values_[index] for keyword, values_ in lists.items()}
        try:
            values.append(metric(relevances, **keywords, **own))
        except (TypeError, ValueError) as error:
            raise type(error)(f"query {index + 1}: {error}") from None
    return float(np.mean(values))


def mean_ndcg(queries, pools=None, **keywords):
    """Mean NDCG over queries; keywords as in :func:`ndcg`.

    Parameters
    ----------
    queries : list of sequences of float
        One relevance list per query, in ranked order.
    pools : list of sequences of float, optional
        One pool of judged grades per query (see :func:`idcg`), as trec_eval uses.
    **keywords
        Passed to :func:`ndcg` for every query (k, gain, discount, ...).

    Examples
    --------
    >>> round(mean_ndcg([[5, 2, 3], [0, 1]]), 4)  # (0.9834 + 0.6309) / 2
    0.8072
    >>> round(mean_ndcg([[3], [1]], pools=[[3, 3], [1]]), 4)  # the first query missed a grade-3 item
    0.8066
    """
    return _mean(ndcg, queries, keywords, {"pools": ("pool", pools)})


def mean_average_precision(queries, n_relevant=None, **keywords):
    """MAP: mean average precision over queries; keywords as in :func:`average_precision`.

    Parameters
    ----------
    queries : list of sequences of float
        One relevance list per query, in ranked order.
    n_relevant : list of int, optional
        Relevant items of each query in total (trec_eval's ``map`` divides by
        these). None counts the relevant items each list holds.
    **keywords
        Passed to :func:`average_precision` for every query (k, threshold, ...).

    Examples
    --------
    >>> mean_average_precision([[1, 0, 1], [0, 1]])  # ((1 + 2/3) / 2 + 1/2) / 2
    0.6666666666666666
    >>> mean_average_precision([[1, 0, 1], [0, 1]], n_relevant=[4, 1])  # ((1 + 2/3) / 4 + 1/2) / 2
    0.4583333333333333
    """
    return _mean(average_precision, queries, keywords, {"n_relevant": ("n_relevant", n_relevant)})


def mean_reciprocal_rank(queries, **keywords):
    """MRR: mean reciprocal rank over queries; keywords as in :func:`reciprocal_rank`.

    Examples
    --------
    >>> mean_reciprocal_rank([[0, 1], [1, 0], [0, 0]])  # (1/2 + 1 + 0) / 3
    0.5
    """
    return _mean(reciprocal_rank, queries, keywords)
