"""Means over queries: one :func:`mean` for every registered metric.

Each query is scored by the metric's own steps and the scores are averaged
with equal weight, added up one at a time in the order given, as trec_eval adds
them (:func:`running_sum`); a query whose ranked list is empty (the system returned
nothing) counts, with its score. The lists and what differs from query to
query (the pool of judged grades, the number of relevant items: ``per_query``)
become one batch :class:`~ndcg_teach.core.context.Query`, which
:func:`~ndcg_teach.core.registry.call` scores: all queries at once through the
metric's batch function, or one by one, by the rule of
:func:`~ndcg_teach.core.registry.route`. Lesson 09 evaluates a model this way.
"""

import numpy as np

from .context import FACTS, Query
from .registry import READING, call, metric
from .validation import shown
from ..i18n import gettext, mark

# The facts a Query holds one value of per query; every other keyword is one value for the whole batch.
PER_QUERY_FACTS = ("pool", "n_relevant", "n_nonrelevant", "pooled")


def running_sum(values):
    """The sum of ``values`` as trec_eval adds them up: one at a time, in order, in one float64 (a C ``double``).

    ``np.sum`` adds eight values or more in pairs, which can end one unit of the last place apart: enough to turn the
    4th decimal of a mean that falls on a half (0.56875 is 0.5687 here and in trec_eval, 0.5688 after ``np.sum``).

    >>> values = [1, 1 / 5, 1, 3 / 4, 1 / 2, 1 / 2, 0, 3 / 5]
    >>> f"{running_sum(values) / 8:.4f}", f"{np.sum(values) / 8:.4f}"
    ('0.5687', '0.5688')
    """
    total = 0.0
    for value in np.asarray(values, dtype=np.float64).ravel().tolist():
        total += value
    return total


def _mean(values):
    values = np.asarray(values, dtype=np.float64)
    return running_sum(values) / values.size


def _as_query_list(name, values, what):
    if isinstance(values, (str, bytes)) or np.isscalar(values) or values is None:
        raise TypeError(gettext("{name} must be a list with {what}, one per query. Got {got} instead.")
                               .format(name=name, what=gettext(what), got=shown(values)))
    return list(values)


def _reading(spec, keywords):
    """How :class:`~ndcg_teach.core.context.Query` reads the lists: the threshold, negative grades, unjudged items."""
    return {"threshold": keywords.get("threshold", FACTS["threshold"].default),
            "negative": keywords.get(READING, "raise"), "unjudged": "judged" in spec.needs}


def mean(key, queries, k=None, *, per_query=None, **keywords):
    """The mean of a registered metric over queries.

    Parameters
    ----------
    key : str
        The metric's registry key ("ndcg", "ap", "rr", ...; see :func:`~ndcg_teach.core.metrics`).
    queries : list of sequences of float
        One relevance list per query, in ranked order (an empty list is a
        query for which nothing was retrieved); for a diversity metric
        (``alpha_ndcg``, ``err_ia``) one table per query, a row per ranked
        item and a column per subtopic.
    k : int or None, default None
        Cut-off for every query.
    per_query : dict of str to list, optional
        Keywords whose value differs per query, each with one value per
        query: ``{"pool": [...]}`` for NDCG as trec_eval computes it,
        ``{"n_relevant": [...]}`` for recall and MAP, ``{"subtopic_pool": [...]}``
        for a diversity metric.
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
    >>> mean("alpha_ndcg", [[[1, 0], [0, 1]], [[1], [1]]])  # two queries, two subtopics and one
    1.0
    """
    spec = metric(key)
    queries = _as_query_list("queries", queries, mark("a relevance list"))
    if not queries:
        raise ValueError(gettext("queries must hold at least one relevance list. Got [] instead."))
    if per_query is not None and not hasattr(per_query, "items"):
        raise TypeError(gettext("per_query must map a keyword to one value per query, e.g. {{'pool': [...]}}. "
                                "Got {got} instead.").format(got=shown(per_query)))
    for name in keywords:
        if name not in spec.keywords:
            raise TypeError(gettext("keywords must be keywords of {key} ({value}). Got {name}= instead.")
                                   .format(key=key, value=', '.join(spec.keywords) or 'none', name=name))
    lists = {}
    for name, values in (per_query or {}).items():
        if name in keywords:
            raise TypeError(gettext("per_query gives {name!r} per query, so it must not also be passed as "
                                    "{name}=. Got both instead.").format(name=name))
        if name not in spec.keywords:
            raise ValueError(gettext("per_query keys must be keywords of {key} ({value}). Got {name!r} instead.")
                                    .format(key=key, value=', '.join(spec.keywords) or 'none', name=name))
        lists[name] = _as_query_list(f"per_query[{name!r}]", values, mark("a value"))
        if len(lists[name]) != len(queries):
            raise ValueError(gettext("per_query[{name!r}] must hold one value per query ({n_queries}). Got "
                                     "{n_values} values instead.").format(name=name, n_queries=len(queries),
                                                                          n_values=len(lists[name])))
    if "subtopics" in spec.needs:
        return _subtopic_mean(spec, queries, k, lists, keywords)
    if set(lists) <= set(PER_QUERY_FACTS) and not any(value is None for given in lists.values() for value in given):
        facts = {name: lists.get(name, [keywords.get(name)] * len(queries)) for name in PER_QUERY_FACTS
                 if name in lists or keywords.get(name) is not None}
        query = Query.from_lists(queries, **facts, **_reading(spec, keywords))
        conventions = {name: value for name, value in keywords.items() if name in spec.params}
        return _mean(call(spec, query, k, **conventions))
    # A threshold, a reading rule or a convention differs per query (or a fact is known for some queries only):
    # each query is scored on its own.
    values = []
    for index, relevances in enumerate(queries):
        own = {**keywords, **{name: given[index] for name, given in lists.items()}}
        try:
            query = Query.of(relevances, **{name: own.get(name) for name in PER_QUERY_FACTS}, **_reading(spec, own))
            values.append(call(spec, query, k, **{name: value for name, value in own.items() if name in spec.params}))
        except (TypeError, ValueError) as error:
            raise type(error)(gettext("query {value}: {error}").format(value=index + 1, error=error)) from None
    return _mean(values)


def _subtopic_mean(spec, queries, k, lists, keywords):
    """A diversity metric's mean: one table of grades per subtopic per query (and its subtopic pool), in one batch."""
    pools = lists.pop("subtopic_pool", [None] * len(queries))
    if lists:
        raise ValueError(gettext("per_query keys of {key} must be 'subtopic_pool' (the rest is one value for "
                                 "every query). Got {names} instead.").format(key=spec.key,
                                                                              names=', '.join(map(repr, lists))))
    rows = []
    for index, (table, pool) in enumerate(zip(queries, pools)):
        try:
            rows.append(Query.of_subtopics(table, subtopic_pool=pool, negative=keywords.get(READING, "raise")))
        except (TypeError, ValueError) as error:
            raise type(error)(gettext("query {value}: {error}").format(value=index + 1, error=error)) from None
    if not all((row.subtopic_pool is None) == (rows[0].subtopic_pool is None) for row in rows):
        raise ValueError(gettext("per_query['subtopic_pool'] must hold a pool for every query or None for every "
                                 "query. Got a mix instead."))
    conventions = {name: value for name, value in keywords.items() if name in spec.params}
    if "subtopic_pool" in keywords:
        raise TypeError(gettext("subtopic_pool differs per query: pass it as per_query={'subtopic_pool': [...]}. "
                                "Got subtopic_pool= instead."))
    return _mean(call(spec, Query.stacked(rows), k, **conventions))
