"""Scoring a :class:`~ndcg_teach.core.context.Query` with a metric: :func:`call` for values, :func:`explain` for the steps.

A metric is given the facts of the query it declares in ``needs`` and the
conventions it declares in ``params``; :func:`route` says, before anything
runs, whether its batch function or its plain function does the work.
"""

from numbers import Real

import numpy as np

from ..context import FACTS
from ..validation import check_k
from .registered import metric as registered
from .spec import READING, fact_keywords
from ...i18n import gettext

def _check_conventions(spec, conventions):
    for name in conventions:
        if name not in spec.params:
            kind = gettext("a fact of the query: give it to the Query") if name in fact_keywords(FACTS) else (
                gettext("how grades are read: give it to the Query") if name == READING else
                gettext("not one of {key}'s conventions ({names})").format(
                    key=spec.key, names=", ".join(spec.params) or gettext("it has none")))
            raise TypeError(gettext("conventions of {key} must be its params; {name} is {kind}. Got {name}= "
                                    "instead.").format(key=spec.key, name=name, kind=kind))


def route(metric, query, **conventions):
    """How :func:`call` computes ``metric`` on ``query``: ``"one"``, ``"batch"`` or ``"loop"``.

    The rule, decided before anything is computed: one query goes to the
    plain function ("one"). A batch goes to the metric's batch function
    ("batch") when it has one and every convention is one the batch function
    takes: a named choice of a :class:`Param` that lists choices, a number for
    one that lists none. Otherwise ("loop": no batch function, a gain mapping
    or function, a value that is not a choice) the plain function scores the
    queries one by one, and words any refusal as it always does.

    Examples
    --------
    >>> from ndcg_teach.core.context import Query
    >>> batch = Query.from_lists([[3, 1], [0, 2]])
    >>> route("ndcg", batch), route("ndcg", batch, gain={1: 1.0, 2: 5.0, 3: 9.0}), route("bpref", batch)
    ('batch', 'loop', 'loop')
    """
    spec = registered(metric)
    _check_conventions(spec, conventions)
    if not query.batch:
        return "one"
    if spec.batch is None:
        return "loop"
    for name, value in conventions.items():
        param = spec.params[name]
        fits = param.named(value) if param.choices else isinstance(value, Real) and not isinstance(value, (bool, np.bool_))
        if not fits:
            return "loop"
    return "batch"


def _ranked(spec, query):
    """What the plain function takes first: the grades (None for unjudged items when it tells them apart), or the
    grades per subtopic for a metric that needs them."""
    if "subtopics" in spec.needs:
        return query.subtopics
    if "judged" in spec.needs and query.judged is not None:
        return [float(grade) if seen else None for grade, seen in zip(query.grades.tolist(), query.judged.tolist())]
    return query.grades


def _facts(spec, query, batch=False):
    facts = {FACTS[name].keyword: getattr(query, name) for name in spec.needs if FACTS[name].keyword}
    if batch and "judged" in spec.needs:
        facts["judged"] = np.ones(query.grades.shape, dtype=bool) if query.judged is None else query.judged
    return facts


def call(metric, query, k=None, **conventions):
    """The value of ``metric`` for ``query``: a float for one query, one float64 per query for a batch.

    The metric is given the facts it ``needs`` from the query and the
    ``conventions`` (its ``params``), through its plain function or its batch
    function as :func:`route` says.

    Parameters
    ----------
    metric : str or Metric
        A registry key ("ndcg", "ap", ...) or a spec.
    query : Query
        One query or a batch (see :mod:`ndcg_teach.core.context`).
    k : int or None, default None
        The cut-off.
    **conventions
        Values of the metric's params, e.g. ``gain="exponential"``.

    Examples
    --------
    >>> from ndcg_teach.core.context import Query
    >>> round(call("ndcg", Query.of([3, 0, 2], pool=[3, 3, 2]), 3), 4)  # the ideal holds the unretrieved 3
    0.6788
    >>> call("ap", Query.from_lists([[1, 0, 1], [0, 1]], n_relevant=[4, 1])).round(4)
    array([0.4167, 0.5   ])
    >>> call("precision", Query.of([1, 0]), 2, gain="exponential")
    Traceback (most recent call last):
    ...
    TypeError: conventions of precision must be its params; gain is not one of precision's conventions (adaptive_k). Got gain= instead.
    """
    spec = registered(metric)
    k = check_k(k)
    path = route(spec, query, **conventions)
    if path == "one":
        return spec.function(_ranked(spec, query), k, **_facts(spec, query), **conventions)
    if path == "batch":
        ranked = query.subtopics if "subtopics" in spec.needs else query.grades
        return np.asarray(spec.batch(ranked, query.lengths, k, **_facts(spec, query, batch=True), **conventions),
                          dtype=np.float64)
    values = np.empty(len(query))
    for index in range(len(query)):
        try:
            values[index] = call(spec, query.row(index), k, **conventions)
        except (TypeError, ValueError) as error:
            raise type(error)(gettext("query {value}: {error}").format(value=index + 1, error=error)) from None
    return values


def explain(metric, query, k=None, **conventions):
    """The :class:`~ndcg_teach.Trace` of ``metric`` for one query: :func:`call`'s value with every step and the item ids.

    Examples
    --------
    >>> from ndcg_teach.core.context import Query
    >>> print(explain("rr", Query.of([0, 2, 1], ranking=["a", "b", "c"])).formula)
    RR = 1 / 2 = 0.5000  (first relevant item at position 2)
    """
    spec = registered(metric)
    if spec.explain is None:
        raise ValueError(gettext("metric {key} has no explain twin. Got {key!r} instead.").format(key=spec.key))
    if query.batch:
        raise ValueError(gettext("explain shows the steps of one query; take one with query.row(i). Got a batch "
                                 "of {n_query} instead.").format(n_query=len(query)))
    k = check_k(k)
    _check_conventions(spec, conventions)
    return spec.explain(_ranked(spec, query), k, ranking=query.ranking, **_facts(spec, query), **conventions)
