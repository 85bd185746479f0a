"""The metric registry: one :class:`Metric` spec per metric, the one list everything reads.

Each metric family module in :mod:`ndcg_teach.metrics` registers its metrics
when it is imported. The explorer's cards, the conventions' recipes, the means
over queries, the package's ``__all__`` and the tests all read
:func:`metrics` instead of keeping a list of their own, so a new metric is one
new module. An instructor can register a metric of their own the same way:

>>> import ndcg_teach as nt
>>> def top_grade(relevances, k=None):
...     '''The best grade in the top k.'''
...     return float(max(list(relevances)[:k], default=0))
>>> spec = nt.register_metric(nt.Metric("top", "Top@{k}", "graded", top_grade, meaning="the best grade in the top k"))
>>> spec.title(3), spec.keywords
('Top@3', ())
>>> nt.mean("top", [[1, 3], [2]])  # (3 + 2) / 2
2.5
>>> nt.unregister_metric("top")
"""

import inspect
from dataclasses import dataclass, field

from .validation import shown

GROUPS = ("graded", "binary")


@dataclass(frozen=True)
class Metric:
    """What the package knows about one metric.

    Attributes
    ----------
    key : str
        Short identifier, e.g. ``"ndcg"``: the key of ``RankingExplorer.metrics``
        and of :func:`~ndcg_teach.mean`.
    label : str
        How the metric is written, with ``{k}`` for the cut-off, e.g. ``"NDCG@{k}"``.
    group : {"graded", "binary"}
        "graded" metrics use every grade; "binary" ones only ask whether a
        grade reaches the relevance threshold.
    function : callable
        The plain function, ``function(relevances, k=None, *, ...) -> float``.
    explain : callable or None
        Its ``explain_*`` twin returning a :class:`~ndcg_teach.Trace`, with the
        same parameters plus ``items``.
    meaning : str
        One line a learner reads next to the number.
    lesson : str
        The lesson that teaches it (a notebook name without ``.ipynb``), or "".
    order : float
        Where it is shown among the others (smaller first); ties keep the
        order of registration.
    names : mapping of str to dict
        The metric's names in trec_eval and ir_measures, with ``{k}`` for the
        cut-off, each mapped to the keyword arguments that tool's convention
        implies, e.g. ``{"ndcg_cut.{k}": {"gain": "linear"}, "nDCG@{k}": {}}``.
        Empty when no such tool computes it.
    batch : callable or None
        The metric of many queries at once,
        ``batch(grades, lengths, k=None, *, ...) -> array``: ``grades`` is a
        2-D float64 array, one query per row in ranked order, padded with 0
        after each list's ``lengths[q]`` items; per-query keywords come as
        arrays (``pool`` a zero-padded 2-D array, ``n_relevant`` one int per
        query). It must compute from the same steps as ``function``;
        :func:`~ndcg_teach.evaluate` and :func:`~ndcg_teach.mean` use it, and
        fall back to ``function`` one query at a time when it is None.
    in_explorer : bool
        Whether :class:`~ndcg_teach.RankingExplorer` shows a card for it when
        ``metrics=`` is not given (False for metrics that need more than a
        ranked list of grades, or that would crowd the panel).

    Examples
    --------
    >>> import ndcg_teach as nt
    >>> spec = nt.metric("ndcg")
    >>> spec.title(10), spec.group, spec.keywords
    ('NDCG@10', 'graded', ('gain', 'discount', 'log_base', 'pool', 'zero_idcg', 'negative'))
    >>> round(spec.function([5, 2, 3], 3), 4)
    0.9834
    """

    key: str
    label: str
    group: str
    function: object = field(repr=False)
    explain: object = field(default=None, repr=False)
    meaning: str = ""
    lesson: str = ""
    order: float = 1000.0
    names: dict = field(default_factory=dict, repr=False, compare=False)
    in_explorer: bool = True
    batch: object = field(default=None, repr=False, compare=False)

    @property
    def keywords(self):
        """The keyword-only parameters the plain function accepts, e.g. ``("gain", "discount", ...)``."""
        parameters = inspect.signature(self.function).parameters.values()
        return tuple(p.name for p in parameters if p.kind is inspect.Parameter.KEYWORD_ONLY)

    def title(self, k):
        """The label with its cut-off, e.g. ``"NDCG@3"``; without ``@k`` when ``k`` is None."""
        if k is None:
            return self.label.replace("@{k}", "").format(k="")
        return self.label.format(k=k)

    def accepted(self, keywords):
        """The items of ``keywords`` this metric takes (the rest are for other metrics)."""
        names = self.keywords
        return {name: value for name, value in keywords.items() if name in names}


_REGISTRY = {}


def _check_spec(spec):
    if not isinstance(spec, Metric):
        raise TypeError(f"spec must be an ndcg_teach.Metric. Got {shown(spec)} instead.")
    if not isinstance(spec.key, str) or not spec.key.isidentifier():
        raise ValueError(f"Metric key must be a Python identifier such as 'ndcg'. Got {shown(spec.key)} instead.")
    if not isinstance(spec.label, str) or not spec.label:
        raise ValueError(f"Metric label must be a non-empty string such as 'NDCG@{{k}}'. Got {shown(spec.label)} instead.")
    if spec.group not in GROUPS:
        raise ValueError(f"Metric group must be one of {', '.join(map(repr, GROUPS))}. Got {shown(spec.group)} instead.")
    for name in ("function", "explain"):
        value = getattr(spec, name)
        if not callable(value) and not (name == "explain" and value is None):
            raise TypeError(f"Metric {name} must be a function{' or None' if name == 'explain' else ''}. Got {shown(value)} instead.")
    if spec.batch is not None and not callable(spec.batch):
        raise TypeError(f"Metric batch must be a function or None. Got {shown(spec.batch)} instead.")
    if not isinstance(spec.names, dict) or not all(isinstance(n, str) and isinstance(v, dict) for n, v in spec.names.items()):
        raise TypeError(f"Metric names must map measure names to keyword dicts, e.g. {{'P.{{k}}': {{}}}}. Got {shown(spec.names)} instead.")
    if not isinstance(spec.in_explorer, bool):
        raise TypeError(f"Metric in_explorer must be True or False. Got {shown(spec.in_explorer)} instead.")
    parameters = list(inspect.signature(spec.function).parameters)
    if parameters[:2] != ["relevances", "k"]:
        raise ValueError(
            f"Metric function must take (relevances, k=None, *, ...) so every caller can pass the list and the cut-off. "
            f"Got parameters {shown(parameters)} instead."
        )


def register_metric(spec, *, replace=False):
    """Add ``spec`` to the registry and return it.

    Parameters
    ----------
    spec : Metric
    replace : bool, default False
        Allow replacing a metric registered under the same key.

    Raises
    ------
    ValueError
        When the key is taken (and ``replace`` is False) or the spec is malformed.

    Examples
    --------
    >>> import ndcg_teach as nt
    >>> def hits(relevances, k=None, *, threshold=1):
    ...     return float(sum(grade >= threshold for grade in list(relevances)[:k]))
    >>> nt.register_metric(nt.Metric("hits", "Hits@{k}", "binary", hits, meaning="relevant items in the top k")).keywords
    ('threshold',)
    >>> nt.mean("hits", [[1, 0, 1], [0, 0]], k=2)  # (1 + 0) / 2
    0.5
    >>> nt.unregister_metric("hits")
    """
    _check_spec(spec)
    if spec.key in _REGISTRY and not replace:
        raise ValueError(f"spec.key must be new; {spec.key!r} is registered already (pass replace=True). Got {spec.key!r} instead.")
    _REGISTRY[spec.key] = spec
    return spec


def unregister_metric(key):
    """Remove the metric registered under ``key``.

    Examples
    --------
    >>> import ndcg_teach as nt
    >>> spec = nt.register_metric(nt.Metric("first", "First", "graded", lambda relevances, k=None: float(relevances[0])))
    >>> nt.unregister_metric("first")
    >>> "first" in [spec.key for spec in nt.metrics()]
    False
    """
    metric(key)
    del _REGISTRY[key]


def metrics(group=None):
    """Every registered metric, in display order.

    Parameters
    ----------
    group : {"graded", "binary"} or None
        Keep only one group.

    Examples
    --------
    >>> import ndcg_teach as nt
    >>> [spec.key for spec in nt.metrics()][:4]
    ['ndcg', 'dcg', 'idcg', 'cg']
    """
    if group is not None and group not in GROUPS:
        raise ValueError(f"group must be one of {', '.join(map(repr, GROUPS))} or None. Got {shown(group)} instead.")
    ranked = sorted(enumerate(_REGISTRY.values()), key=lambda pair: (pair[1].order, pair[0]))
    return tuple(spec for _, spec in ranked if group is None or spec.group == group)


def metric(key):
    """The :class:`Metric` registered under ``key``.

    Examples
    --------
    >>> import ndcg_teach as nt
    >>> nt.metric("ap").title(5)
    'AP@5'
    """
    if not isinstance(key, str) or key not in _REGISTRY:
        known = ", ".join(repr(spec.key) for spec in metrics())
        raise ValueError(f"metric key must be one of {known}. Got {shown(key)} instead.")
    return _REGISTRY[key]
