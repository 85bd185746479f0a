"""What the package knows about one metric: its :class:`Metric` spec, its conventions (:class:`Param`), and the
checks a spec passes when it is registered.

This is the one place that reads a function's signature: to check that a
spec's declarations (``needs``, ``params``) match its functions, and to fill
in the declarations of a metric registered without them. Every caller reads
the declarations instead.
"""

import inspect
import math
from dataclasses import dataclass, field, replace
from string import Formatter
from types import MappingProxyType

from ..context import FACTS
from ..trace import Column
from ..validation import shown
from ...i18n import gettext, mark

GROUPS = ("graded", "binary", "diversity")
"""What a metric reads, and so the heading its card stands under: every grade, whether a grade reaches the threshold,
or each item's grades per subtopic (the metrics that need ``"subtopics"``, and only they)."""
READING = "negative"
"""The one keyword of the plain functions that is neither a fact nor a convention: how a negative grade is read
(the :class:`~ndcg_teach.core.context.Query` has read them already)."""


@dataclass(frozen=True)
class Param:
    """One convention of a metric: its type, its named choices, its default and what it means (lesson 08).

    ``choices`` lists the named values (empty when any value of ``dtype``
    will do); a parameter whose ``dtype`` admits more (a gain mapping or
    function) takes those too, but only the named choices reach a metric's
    batch function (see :func:`route`).

    Examples
    --------
    >>> import ndcg_teach as nt
    >>> gain = nt.metric("ndcg").params["gain"]
    >>> gain.choices, gain.default
    (('linear', 'exponential'), 'linear')
    >>> gain.named("exponential"), gain.named({1: 3.0})
    (True, False)
    """

    dtype: object
    choices: tuple = ()
    default: object = None
    description: str = ""

    def named(self, value):
        """Whether ``value`` is one of the choices (of the same type: True is not 1)."""
        return any(value is choice or (type(value) is type(choice) and value == choice) for choice in self.choices)


@dataclass(frozen=True)
class Metric:
    """What the package knows about one metric.

    Attributes
    ----------
    key : str
        Short identifier, e.g. ``"ndcg"``: the key of ``RankingExplorer.metrics``
        and of :func:`~ndcg_teach.core.mean`.
    label : str
        How the metric is written, with ``{k}`` for the cut-off, e.g. ``"NDCG@{k}"``.
    group : {"graded", "binary", "diversity"}
        "graded" metrics use every grade; "binary" ones only ask whether a
        grade reaches the relevance threshold; "diversity" ones read each
        item's grades per subtopic (exactly the metrics that need
        ``"subtopics"``).
    function : callable
        The plain function, ``function(relevances, k=None, *, ...) -> float``
        (``judgements`` first for a metric that needs ``"subtopics"``).
    explain : callable or None
        Its ``explain_*`` twin returning a :class:`~ndcg_teach.Trace`, with the
        same parameters plus ``ranking``.
    meaning : str
        One line a learner reads next to the number.
    lesson : str
        The lesson that teaches it (a notebook name without ``.ipynb``), or "".
    order : float
        Where it is shown among the others (smaller first); ties keep the
        order of registration.
    names : mapping of str to dict
        The metric's names in trec_eval and ir_measures, with ``{k}`` for the
        cut-off, each mapped to the conventions that tool's name implies,
        e.g. ``{"ndcg_cut.{k}": {}, "ERR@{k}": {"max_grade": 4}}``. Empty when
        no such tool computes it.
    batch : callable or None
        The metric of many queries at once,
        ``batch(grades, lengths, k=None, *, ...) -> array``: ``grades`` is a
        2-D float64 array, one query per row in ranked order, padded with 0
        after each list's ``lengths[q]`` items; the facts come as arrays
        (``pool`` zero-padded 2-D, ``n_relevant`` one int per query,
        ``judged`` like ``grades``). It must compute from the same steps as
        ``function``; :func:`call` chooses it by the rule of :func:`route`.
    needs : tuple of str or None
        The facts of a :class:`~ndcg_teach.core.context.Query` the metric reads
        (keys of :data:`ndcg_teach.core.context.FACTS`), e.g. ``("pool",)``. None
        (for a metric of your own): read from the function's keywords when
        registered (``pool``, ``n_relevant``, ``n_nonrelevant``,
        ``threshold``; a function that counts judged non-relevant items also
        needs ``"judged"``, so it is given None for unjudged items).
    params : mapping of str to Param, or None
        The metric's conventions, each a :class:`Param`. None: read from the
        function's keywords and defaults when registered.
    columns : tuple of Column
        The columns its ``explain`` twin's traces show (see
        :class:`~ndcg_teach.core.trace.Column`).

    Examples
    --------
    >>> import ndcg_teach as nt
    >>> spec = nt.metric("ndcg")
    >>> spec.title(10), spec.group, spec.needs, tuple(spec.params)
    ('NDCG@10', 'graded', ('pool',), ('gain', 'discount', 'log_base', 'zero_idcg'))
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
    batch: object = field(default=None, repr=False, compare=False)
    needs: tuple = None
    params: object = field(default=None, repr=False, compare=False)
    columns: tuple = field(default=(), repr=False, compare=False)

    @property
    def keywords(self):
        """The keyword-only parameters of the plain function, in its order, e.g. ``("gain", "discount", ...)``."""
        return _keywords(self.function)

    def title(self, k):
        """The label with its cut-off, e.g. ``"NDCG@3"``; without ``@k`` when ``k`` is None."""
        if k is None:
            return self.label.replace("@{k}", "").format(k="")
        return self.label.format(k=k)

    def accepted(self, keywords):
        """The items of ``keywords`` this metric's plain function takes (the rest are for other metrics)."""
        names = self.keywords
        return {name: value for name, value in keywords.items() if name in names}


def _keywords(function):
    parameters = inspect.signature(function).parameters.values()
    return tuple(p.name for p in parameters if p.kind is inspect.Parameter.KEYWORD_ONLY)


def _defaults(function):
    return {p.name: p.default for p in inspect.signature(function).parameters.values()
            if p.kind is inspect.Parameter.KEYWORD_ONLY}


def fact_keywords(needs):
    return {FACTS[name].keyword for name in needs if FACTS[name].keyword}


def _check_label(label):
    requirement = mark("a non-empty string whose only field is {k} (the cut-off), such as 'NDCG@{k}'")
    if not isinstance(label, str) or not label:
        raise ValueError(gettext("Metric label must be {requirement}. Got {got} instead.")
                                .format(requirement=gettext(requirement), got=shown(label)))
    try:
        fields = {name for _, name, _, _ in Formatter().parse(label) if name is not None}
        label.format(k=10)
    except (ValueError, IndexError, KeyError):
        fields = None
    if fields is None or not fields <= {"k"}:
        raise ValueError(gettext("Metric label must be {requirement}. Got {got} instead.")
                                .format(requirement=gettext(requirement), got=shown(label)))


def _declared(spec):
    """``spec`` with ``needs`` and ``params`` filled in from its function when they were left None."""
    defaults = _defaults(spec.function)
    missing = [name for name, default in defaults.items() if default is inspect.Parameter.empty]
    if missing:
        raise ValueError(gettext("Metric function's keywords must each have a default (the convention everyone "
                                 "gets unless they choose). Got {names} without one instead.")
                                .format(names=', '.join(missing)))
    keywords = {FACTS[name].keyword: name for name in FACTS if FACTS[name].keyword}
    needs = spec.needs
    if needs is None:
        needs = tuple(keywords[name] for name in defaults if name in keywords)
        if "n_nonrelevant" in needs:  # a metric that counts judged non-relevant items must tell unjudged ones apart
            needs = ("judged", *needs)
    params = spec.params
    if params is None:
        params = {name: Param(object if default is None else type(default), (), default, "")
                  for name, default in defaults.items() if name not in keywords and name != READING}
    return replace(spec, needs=tuple(needs), params=MappingProxyType(dict(params)), columns=tuple(spec.columns))


def _check_keywords(spec):
    """The plain function, its twin and its batch take exactly the facts and conventions the spec declares."""
    unknown = [name for name in spec.needs if name not in FACTS]
    if unknown:
        raise ValueError(gettext("Metric needs must be facts of a Query ({names}). Got {got} instead.")
                                .format(names=', '.join(FACTS), got=shown(unknown)))
    for name, param in spec.params.items():
        if not isinstance(param, Param) or name in fact_keywords(FACTS) or name in (READING, "k", "ranking"):
            raise TypeError(gettext("Metric params must map convention names (not facts of the query) to "
                                    "Param(dtype, choices, default, description). Got {name!r}: {got} instead.")
                                   .format(name=name, got=shown(param)))
    if not all(isinstance(column, Column) for column in spec.columns):
        raise TypeError(gettext("Metric columns must be Column(key, header, format, meaning) objects. Got {got} "
                                "instead.").format(got=shown(spec.columns)))
    first = "judgements" if "subtopics" in spec.needs else "relevances"
    parameters = list(inspect.signature(spec.function).parameters)
    if parameters[0] != first:
        raise ValueError(gettext("Metric function must take ({first}, k=None, *, ...): {first} is what a metric "
                                 "that needs {needs} is given first. Got parameters {got} instead.")
                                .format(first=first, needs=list(spec.needs), got=shown(parameters)))
    declared = fact_keywords(spec.needs) | set(spec.params)
    defaults = _defaults(spec.function)
    own = set(defaults) - {READING}
    if own != declared:
        raise ValueError(gettext("Metric {key!r}: its function's keywords must be the facts it needs and its "
                                 "params. Got keywords {keywords} for needs {needs} and params {params} instead.")
                                .format(key=spec.key, keywords=sorted(own), needs=list(spec.needs),
                                        params=list(spec.params)))
    for name in declared:
        default = spec.params[name].default if name in spec.params else next(
            fact.default for fact in FACTS.values() if fact.keyword == name)
        if not same_default(defaults[name], default):
            raise ValueError(gettext("Metric {key!r}: {name}'s declared default must be the function's "
                                     "({default!r}). Got {default2!r} instead.")
                                    .format(key=spec.key, name=name, default=defaults[name], default2=default))
    if spec.explain is not None and set(_keywords(spec.explain)) != set(defaults) | {"ranking"}:
        raise ValueError(gettext("Metric explain must take the plain function's keywords and ranking=. Got {got} "
                                 "instead.").format(got=list(_keywords(spec.explain))))
    if spec.batch is not None:
        takes = declared | ({"judged"} if "judged" in spec.needs else set())
        if set(_keywords(spec.batch)) != takes:
            raise ValueError(gettext("Metric batch must take the facts and conventions the function takes "
                                     "({keywords}). Got {got} instead.").format(keywords=sorted(takes),
                                                                               got=list(_keywords(spec.batch))))


def same_default(value, default):
    """Whether ``value`` is ``default``: 2 meets a default of 2.0, True is not 1, and NaN meets NaN only."""
    if isinstance(value, float) and isinstance(default, float) and math.isnan(value) != math.isnan(default):
        return False
    same_kind = type(value) is type(default) or {type(value), type(default)} <= {int, float}
    return value is default or (same_kind and value == default)


def checked(spec):
    """``spec`` checked against its functions, with ``needs`` and ``params`` filled in when they were None."""
    if not isinstance(spec, Metric):
        raise TypeError(gettext("spec must be an ndcg_teach.Metric. Got {got} instead.").format(got=shown(spec)))
    if not isinstance(spec.key, str) or not spec.key.isidentifier():
        raise ValueError(gettext("Metric key must be a Python identifier such as 'ndcg'. Got {got} instead.")
                                .format(got=shown(spec.key)))
    _check_label(spec.label)
    if spec.group not in GROUPS:
        raise ValueError(gettext("Metric group must be one of {names}. Got {got} instead.")
                                .format(names=', '.join(map(repr, GROUPS)), got=shown(spec.group)))
    for name in ("function", "explain"):
        value = getattr(spec, name)
        if not callable(value) and not (name == "explain" and value is None):
            message = gettext("Metric {name} must be a function or None. Got {got} instead.") if name == "explain" \
                else gettext("Metric {name} must be a function. Got {got} instead.")
            raise TypeError(message.format(name=name, got=shown(value)))
    if spec.batch is not None and not callable(spec.batch):
        raise TypeError(gettext("Metric batch must be a function or None. Got {got} instead.")
                               .format(got=shown(spec.batch)))
    if not isinstance(spec.names, dict) or not all(isinstance(n, str) and isinstance(v, dict) for n, v in spec.names.items()):
        raise TypeError(gettext("Metric names must map measure names to keyword dicts, e.g. {{'P.{{k}}': {{}}}}. "
                                "Got {got} instead.").format(got=shown(spec.names)))
    if spec.needs is not None and (isinstance(spec.needs, str) or not isinstance(spec.needs, (tuple, list))):
        raise TypeError(gettext("Metric needs must be a tuple of fact names such as ('pool',). Got {got} instead.")
                               .format(got=shown(spec.needs)))
    if spec.params is not None and not hasattr(spec.params, "items"):
        raise TypeError(gettext("Metric params must map names to Param objects. Got {got} instead.")
                               .format(got=shown(spec.params)))
    parameters = list(inspect.signature(spec.function).parameters) if _has_signature(spec.function) else []
    if parameters[:1] not in (["relevances"], ["judgements"]) or parameters[1:2] != ["k"]:
        raise ValueError(
            gettext("Metric function must take (relevances, k=None, *, ...) so every caller can pass the list "
                    "and the cut-off. Got parameters {got} instead.").format(got=shown(parameters))
        )
    spec = _declared(spec)
    if (spec.group == "diversity") != ("subtopics" in spec.needs):
        raise ValueError(gettext("Metric group must be 'diversity' exactly when the metric needs 'subtopics' (it reads "
                                 "each item's grades per subtopic). Got group {group!r} and needs {needs} instead.")
                         .format(group=spec.group, needs=shown(spec.needs)))
    _check_keywords(spec)
    return spec


def _has_signature(function):
    try:
        inspect.signature(function)
    except (TypeError, ValueError):
        return False
    return True
