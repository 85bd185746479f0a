"""The registered metrics: one :class:`~.spec.Metric` per key, in display order.

Each metric family module in :mod:`ndcg_teach.core.metrics` registers its metrics
when it is imported; an instructor registers one of their own the same way.
"""

from ..validation import shown
from .spec import GROUPS, Metric, checked
from ...i18n import gettext

_REGISTRY = {}


def register_metric(spec, *, replace=False):
    """Add ``spec`` to the registry and return it (with ``needs`` and ``params`` filled in when they were None).

    Parameters
    ----------
    spec : Metric
    replace : bool, default False
        Allow replacing a metric registered under the same key.

    Raises
    ------
    ValueError
        When the key is taken (and ``replace`` is False) or the spec is
        malformed: a label that does not format, declarations that do not
        match the functions' keywords, ...

    Examples
    --------
    >>> import ndcg_teach as nt
    >>> def hits(relevances, k=None, *, threshold=1):
    ...     return float(sum(grade >= threshold for grade in list(relevances)[:k]))
    >>> spec = nt.register_metric(nt.Metric("hits", "Hits@{k}", "binary", hits, meaning="relevant items in the top k"))
    >>> spec.keywords, spec.needs  # threshold is a fact of the query, read from the function's keywords
    (('threshold',), ('threshold',))
    >>> nt.mean("hits", [[1, 0, 1], [0, 0]], k=2)  # (1 + 0) / 2
    0.5
    >>> nt.unregister_metric("hits")
    """
    spec = checked(spec)
    if spec.key in _REGISTRY and not replace:
        raise ValueError(gettext("spec.key must be new; {key!r} is registered already (pass replace=True). Got "
                                 "{key!r} instead.").format(key=spec.key))
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
    group : {"graded", "binary", "diversity"} or None
        Keep only one group.

    Examples
    --------
    >>> import ndcg_teach as nt
    >>> [spec.key for spec in nt.metrics()][:4]
    ['ndcg', 'dcg', 'idcg', 'cg']
    """
    if group is not None and group not in GROUPS:
        raise ValueError(gettext("group must be one of {names} or None. Got {got} instead.")
                                .format(names=', '.join(map(repr, GROUPS)), got=shown(group)))
    ranked = sorted(enumerate(_REGISTRY.values()), key=lambda pair: (pair[1].order, pair[0]))
    return tuple(spec for _, spec in ranked if group is None or spec.group == group)


def metric(key):
    """The :class:`Metric` registered under ``key`` (a spec is returned as it is).

    Examples
    --------
    >>> import ndcg_teach as nt
    >>> nt.metric("ap").title(5)
    'AP@5'
    """
    if isinstance(key, Metric):
        return key
    if not isinstance(key, str) or key not in _REGISTRY:
        known = ", ".join(repr(spec.key) for spec in metrics())
        raise ValueError(gettext("metric key must be one of {known}. Got {got} instead.")
                                .format(known=known, got=shown(key)))
    return _REGISTRY[key]
