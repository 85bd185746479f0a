"""Means over queries: one :func:`mean` for every registered metric.

Each query is scored by the metric's own steps and the scores are averaged
with equal weight (all queries at once through the metric's ``batch``
function when it has one, else one query at a time); a query whose ranked list is empty (the system
returned nothing) counts, with its score. What differs from query to query
(the pool of judged grades, the number of relevant items) is passed in
``per_query`` as one value per query. Lesson 09 evaluates a model this way.
"""

import inspect
from itertools import chain

import numpy as np

from .registry import metric
from .validation import shown


def _as_query_list(name, values, what):
    if isinstance(values, (str, bytes)) or np.isscalar(values) or values is None:
        raise TypeError(f"{name} must be a list with {what}, one per query. Got {shown(values)} instead.")
    return list(values)


def mean(key, queries, k=None, *, per_query=None, **keywords):
    """The mean of a registered metric over queries.

    Parameters
    ----------
    key : str
        The metric's registry key ("ndcg", "ap", "rr", ...; see :func:`~ndcg_teach.metrics`).
    queries : list of sequences of float
        One relevance list per query, in ranked order (an empty list is a
        query for which nothing was retrieved).
    k : int or None, default None
        Cut-off for every query.
    per_query : dict of str to list, optional
        Keywords whose value differs per query, each with one value per
        query: ``{"pool": [...]}`` for NDCG as trec_eval computes it,
        ``{"n_relevant": [...]}`` for recall and MAP.
    **keywords
        Passed to the metric for every query.

    Returns
    -------
    float

    Examples
    --------
    >>> mean("rr", [[0, 1], [1, 0], [0, 0]])  # (1/2 + 1 + 0) / 3
    0.5
    >>> mean("ap", [[1, 0, 1], [0, 1]], per_query={"n_relevant": [4, 1]})  # ((1 + 2/3) / 4 + 1/2) / 2
    0.4583333333333333
    >>> mean("ndcg", [[3, 2], []], per_query={"pool": [[3, 2], [1]]})  # the second query retrieved nothing: 0
    0.5
    """
    spec = metric(key)
    queries = _as_query_list("queries", queries, "a relevance list")
    if not queries:
        raise ValueError("queries must hold at least one relevance list. Got [] instead.")
    if per_query is not None and not hasattr(per_query, "items"):
        raise TypeError(f"per_query must map a keyword to one value per query, e.g. {{'pool': [...]}}. Got {shown(per_query)} instead.")
    lists = {}
    for name, values in (per_query or {}).items():
        if name in keywords:
            raise TypeError(f"per_query gives {name!r} per query, so it must not also be passed as {name}=. Got both instead.")
        if name not in spec.keywords:
            raise ValueError(f"per_query keys must be keywords of {key} ({', '.join(spec.keywords) or 'none'}). Got {name!r} instead.")
        lists[name] = _as_query_list(f"per_query[{name!r}]", values, "a value")
        if len(lists[name]) != len(queries):
            raise ValueError(f"per_query[{name!r}] must hold one value per query ({len(queries)}). Got {len(lists[name])} values instead.")
    batched = _batched(spec, queries, k, lists, keywords)
    if batched is not None:
        return batched
    values = []
    for index, relevances in enumerate(queries):
        if np.isscalar(relevances):
            raise TypeError(
                f"queries must be a list of relevance lists, one per query; query {index + 1} is a single number. "
                f"Got {shown(queries)} instead."
            )
        own = {name: values_[index] for name, values_ in lists.items()}
        try:
            values.append(spec.function(relevances, k, **keywords, **own))
        except (TypeError, ValueError) as error:
            raise type(error)(f"query {index + 1}: {error}") from None
    return float(np.mean(values))


def _padded(queries):
    """The lists as one zero-padded float64 array and their lengths, or None when they are not all number lists."""
    try:
        lengths = np.fromiter(map(len, queries), dtype=np.int64, count=len(queries))
        flat = np.array(list(chain.from_iterable(queries)))
    except (TypeError, ValueError):
        return None
    if flat.dtype.kind not in "biuf" or flat.ndim != 1:  # strings, nested lists, ...: the per-query path words the error
        return None
    flat = flat.astype(np.float64)
    matrix = np.zeros((len(queries), int(lengths.max(initial=0))))
    matrix[np.arange(matrix.shape[1]) < lengths[:, np.newaxis]] = flat
    return matrix, lengths, flat


def _batched(spec, queries, k, lists, keywords):
    """The mean through ``spec.batch`` in one pass, or None when only the per-query path can take these inputs.

    The first query goes through the plain function too, so a bad keyword is refused with its usual message.
    """
    accepted = set(inspect.signature(spec.batch).parameters) if spec.batch is not None else set()
    if (spec.batch is None or not set(lists) <= {"n_relevant"} or not set(keywords) <= accepted | {"negative"}
            or not isinstance(keywords.get("gain", "linear"), str)):
        return None
    padded = _padded(queries)
    if padded is None or not np.isfinite(padded[2]).all():
        return None
    grades, lengths, flat = padded
    if (flat < 0).any():
        if keywords.get("negative", "raise") != "zero":
            return None
        grades = np.maximum(grades, 0.0)
    own = {}
    if "n_relevant" in lists:
        counts = lists["n_relevant"]
        if not all(isinstance(c, (int, np.integer)) and not isinstance(c, bool) and c >= 0 for c in counts):
            return None
        own["n_relevant"] = np.asarray(counts, dtype=np.int64)
    spec.function(queries[0], k, **keywords, **{name: values[0] for name, values in lists.items()})
    chosen = {name: value for name, value in keywords.items() if name in accepted}
    try:
        values = spec.batch(grades, lengths, k, **chosen, **own)
    except ValueError:
        return None  # the per-query path says which query is wrong
    return float(np.mean(values))
