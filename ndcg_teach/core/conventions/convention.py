"""One peer library function's conventions, written in ndcg_teach's terms: its query, its settings, its call.

A :class:`Convention` turns its facts (where the ideal and the relevant
count come from, the gain, the value when nothing is relevant, ...) into what
ndcg_teach computes with: a :class:`~ndcg_teach.core.context.Query` and the
metric's conventions (its :class:`~ndcg_teach.Param` names), scored by
:func:`~ndcg_teach.core.registry.call`. The conventions themselves are data
(``peers.json``, read and checked by :mod:`.peers`); lesson 08 compares them.
"""

import math
from dataclasses import dataclass, field

import numpy as np

from ..context import FACTS, Query
from ...i18n import _, gettext
from ..registry import READING, call, metric
from ..registry.spec import same_default

# The fields that are a metric's conventions (its Param of the same name), passed on by Convention.settings().
SETTINGS = ("gain", "log_base", "zero_idcg", "adaptive_k", "max_grade")
# The named values of the fields that are not a metric's Param (a gain is one of its Param's choices, or "binary").
CHOICES = {"negative": ("raise", "zero", "kept", "unjudged"), "denominator": ("hits", "R", "min(R, k)")}

THRESHOLD = 1  # trec_eval's relevance_level, ranx's rel_lvl and "target > 0" all mean grade >= 1 for integer grades


def reads_subtopics(spec):
    """Whether ``spec`` reads each ranked item's grade per subtopic (a table) rather than one grade per item."""
    return "subtopics" in spec.needs


def is_table(values):
    """Whether ``values`` holds rows (a table of grades per subtopic, one row per item) rather than grades.

    Examples
    --------
    >>> is_table([[1, 0], [0, 1]]), is_table([1, 0]), is_table([])
    (True, False, False)
    """
    if isinstance(values, np.ndarray):
        return values.ndim == 2 and len(values) > 0
    return isinstance(values, (list, tuple)) and len(values) > 0 and isinstance(values[0], (list, tuple, np.ndarray))


def _flat(values):
    """Every number of a list, or of a table's rows, in one list (what :meth:`Convention.refuses` looks at)."""
    if isinstance(values, np.ndarray):
        return values.ravel().tolist()
    if isinstance(values, (list, tuple)):
        return [number for value in values for number in _flat(value)]
    return [values]


def binary_gain(grades):
    """Gain 1 for a relevant grade (>= 1), else 0: recommenders' default ``score_type="binary"``.

    Examples
    --------
    >>> binary_gain(np.array([3.0, 0.0, 1.0]))
    array([1., 0., 1.])
    """
    return (np.asarray(grades, dtype=np.float64) >= THRESHOLD).astype(np.float64)


@dataclass(frozen=True)
class Convention:
    """One library function's conventions, in ndcg_teach's terms.

    Attributes
    ----------
    library, function : str
        Where it lives, e.g. ``"scikit-learn"``, ``"ndcg_score"``.
    metric : str
        What it computes: a registry key ("ndcg", "dcg", "precision",
        "recall", "ap", "rr"; see :func:`ndcg_teach.core.metrics`).
    gain : {"linear", "exponential", "binary"} or None
        ndcg_teach's ``gain`` (``"binary"`` is :func:`binary_gain`).
    log_base : float
        Base of the ``1/log_b(i + 1)`` discount; it changes DCG, not NDCG.
    uses_pool : bool
        True when the ideal ranking (NDCG) or the relevant count (recall, AP)
        comes from every judged item of the query, retrieved or not (our
        ``pool=`` / ``n_relevant=``); False when it comes from the list.
    zero_idcg : float, "nan" or None
        NDCG when nothing judged is relevant (our ``zero_idcg``).
    ties : str
        How tied scores are ordered (informative: :func:`compare` takes a
        ranking, not scores).
    negative : {"raise", "zero", "kept", "unjudged"}
        Negative grades: refused, read as 0 (our ``negative="zero"``),
        kept as they are (a negative gain, or a hit for libraries that count
        every item of the truth table as relevant): no ndcg_teach convention
        does that; or read as "in the pool but unjudged" (trec_eval's bpref:
        our ``None``, which :func:`compare` does not take).
    adaptive_k : bool or None
        P@k of a list shorter than k: divide by k (False) or by the list length (True).
    denominator : {"hits", "R", "min(R, k)"} or None
        What AP divides by: relevant items found in the top k, all relevant
        items of the query, or the smaller of R and k.
    integer_grades : bool
        True when the library refuses grades that are not whole numbers.
    max_grade : float or None
        ERR's top of the grading scale (our ``max_grade``); None for the
        largest grade given, or for metrics without one.
    cut_off : bool
        False when the library's measure has no cut-off (trec_eval's Rprec,
        set_F and bpref score the whole run): a ``k`` given to :func:`compare`
        is then not passed on.
    depths : tuple of two int or None
        The smallest and largest cut-off at which the library computes the
        measure as this row says (ndeval: k from 2 to 20); None for any k,
        or the whole list.
    params : dict or None
        The metric's other conventions, by :class:`~ndcg_teach.Param` name
        (ERR-IA's ``graded`` and ``normalise``, α-nDCG's ``alpha``); None
        leaves each at its default.
    source : str
        The file and function the facts were read from.
    note : str
        Anything else a learner should know.

    Examples
    --------
    >>> from ndcg_teach.core.conventions import CONVENTIONS_BY_NAME
    >>> sklearn = CONVENTIONS_BY_NAME["scikit-learn ndcg_score"]
    >>> sklearn.uses_pool, sklearn.zero_idcg, sklearn.ties
    (False, 0.0, 'averaged over each tied group')
    """

    library: str
    function: str
    metric: str
    source: str
    gain: str = None
    log_base: float = 2
    uses_pool: bool = False
    zero_idcg: float = None
    ties: str = "not applicable"
    negative: str = "raise"
    adaptive_k: bool = None
    denominator: str = None
    integer_grades: bool = False
    max_grade: float = None
    cut_off: bool = True
    depths: tuple = None
    params: dict = field(default=None, hash=False)
    note: str = ""

    @property
    def name(self):
        """``"library function"``, the key :func:`compare` rows are looked up by."""
        return f"{self.library} {self.function}"

    @property
    def spec(self):
        """The registry's :class:`~ndcg_teach.Metric` this convention computes."""
        return metric(self.metric)

    def cut(self, k):
        """The cut-off this library's measure takes: ``k``, or None for a measure without one (Rprec, set_F, bpref).

        Examples
        --------
        >>> from ndcg_teach.core.conventions import CONVENTIONS_BY_NAME
        >>> CONVENTIONS_BY_NAME["trec_eval Rprec"].cut(2) is None, CONVENTIONS_BY_NAME["trec_eval P"].cut(2)
        (True, 2)
        """
        return k if self.cut_off else None

    def given(self, relevances, pool=None):
        """``(relevances, pool)`` as this library reads them from what the caller gives.

        Lists (or, for a metric of subtopics, tables with one row per item)
        stay as they are. From a :class:`~ndcg_teach.core.context.Query` of one
        query: its table of grades per subtopic and its ``subtopic_pool`` when
        the metric reads subtopics, else its grades and its pool. The library
        counts R and N and decides what is relevant itself (at grade
        :data:`THRESHOLD`), so a Query that knows them is refused.

        Examples
        --------
        >>> from ndcg_teach.core.conventions import CONVENTIONS_BY_NAME
        >>> query = Query.of_subtopics([[1, 0], [2, 1]], subtopic_pool=[[1, 0], [2, 1], [0, 1]])
        >>> CONVENTIONS_BY_NAME["ndeval alpha-nDCG"].given(query)[1]  # the ideal is built from every judged item
        [[1.0, 0.0], [2.0, 1.0], [0.0, 1.0]]
        >>> CONVENTIONS_BY_NAME["trec_eval ndcg_cut"].given(query)  # each item's largest grade; no flat pool
        ([1.0, 2.0], None)
        """
        if not isinstance(relevances, Query):
            return relevances, pool
        query = relevances
        if pool is not None:
            raise TypeError(gettext("pool must be None when relevances is a Query (the Query holds its pool). Got "
                                    "pool={pool!r} instead.").format(pool=pool))
        if query.batch:
            raise ValueError(gettext("{name} scores one query at a time. Got {query!r} instead.")
                             .format(name=self.name, query=query))
        known = [name for name in ("judged", "pooled", "n_relevant", "n_nonrelevant") if getattr(query, name) is not None]
        if known or query.threshold != THRESHOLD:
            raise ValueError(gettext("{name} counts R and N and reads what is relevant as its library does (from the "
                                     "grades and the pool, at grade {threshold}); give the Query only those. Got a Query "
                                     "that knows {known} instead.")
                             .format(name=self.name, threshold=THRESHOLD,
                                     known=", ".join(known) or gettext("threshold {value:g}").format(value=query.threshold)))
        if not reads_subtopics(self.spec):
            return query.grades.tolist(), None if query.pool is None else query.pool.tolist()
        if query.subtopics is None:
            raise ValueError(gettext("{name} reads each ranked item's grade per subtopic: build the Query with "
                                     "Query.of_subtopics(judgements, subtopic_pool=...). Got {query!r} instead.")
                             .format(name=self.name, query=query))
        return query.subtopics.tolist(), None if query.subtopic_pool is None else query.subtopic_pool.tolist()

    def facts(self, relevances, pool=None, k=None):
        """What this library knows about the query of one ranking: where its ideal and its relevant count come
        from (the keywords of :meth:`query`, written from the lists as given).

        Examples
        --------
        >>> from ndcg_teach.core.conventions import CONVENTIONS_BY_NAME
        >>> CONVENTIONS_BY_NAME["recommenders map_at_k"].facts([1, 0, 1], pool=[1, 0, 1, 1], k=2)["n_relevant"]  # min(R, k)
        2
        """
        if reads_subtopics(self.spec):
            return {"subtopic_pool": list(pool) if pool is not None and self.uses_pool else None, "threshold": THRESHOLD}
        k = self.cut(k)
        judged = list(relevances) if pool is None else list(pool)
        n_relevant = n_nonrelevant = None
        if self.uses_pool and self.denominator != "hits":
            n_relevant = sum(grade >= THRESHOLD for grade in judged)
            n_nonrelevant = sum(grade < THRESHOLD for grade in judged)
            if self.denominator == "min(R, k)":
                n_relevant = min(n_relevant, k or len(relevances))
        return {"pool": list(pool) if pool is not None and self.uses_pool else None, "n_relevant": n_relevant,
                "n_nonrelevant": n_nonrelevant, "threshold": THRESHOLD}

    def query(self, relevances, pool=None, k=None):
        """The :class:`~ndcg_teach.core.context.Query` this library builds from one ranking (see :meth:`facts`), its
        negative grades read as the library reads them; ``relevances`` may be a Query (see :meth:`given`).

        Examples
        --------
        >>> from ndcg_teach.core.conventions import CONVENTIONS_BY_NAME
        >>> trec_map = CONVENTIONS_BY_NAME["trec_eval map / map_cut"]
        >>> trec_map.query([1, 0, 1], pool=[1, 0, 1, 1]).n_relevant  # every judged relevant item, retrieved or not
        3
        """
        relevances, pool = self.given(relevances, pool)
        facts = self.facts(relevances, pool, k)
        if reads_subtopics(self.spec):
            return Query.of_subtopics(relevances, subtopic_pool=facts["subtopic_pool"], negative=self.reads_negative)
        return Query.of(relevances, **facts, negative=self.reads_negative)

    @property
    def reads_negative(self):
        """How ndcg_teach reads a negative grade for this library: "zero" (judged non-relevant) or "raise"."""
        return "zero" if self.negative == "zero" else "raise"

    def settings(self):
        """This library's choices among the metric's conventions (its :class:`~ndcg_teach.Param` names).

        Examples
        --------
        >>> from ndcg_teach.core.conventions import CONVENTIONS_BY_NAME
        >>> CONVENTIONS_BY_NAME["LightGBM ndcg"].settings()
        {'gain': 'exponential', 'log_base': 2, 'zero_idcg': 1.0}
        >>> CONVENTIONS_BY_NAME["ndeval ERR-IA"].settings()
        {'max_grade': None, 'graded': False, 'normalise': 'max'}
        """
        choices = {"gain": binary_gain if self.gain == "binary" else self.gain, "log_base": self.log_base,
                   "zero_idcg": self.zero_idcg, "adaptive_k": bool(self.adaptive_k), "max_grade": self.max_grade}
        return {**{name: choices[name] for name in SETTINGS if name in self.spec.params}, **(self.params or {})}

    def call(self, relevances, pool=None, k=None):
        """The ndcg_teach call as text, e.g. ``"ndcg(relevances, k=3, pool=pool)"``; defaults are left out.

        Examples
        --------
        >>> from ndcg_teach.core.conventions import CONVENTIONS_BY_NAME
        >>> CONVENTIONS_BY_NAME["trec_eval ndcg_cut"].call([3, 0, 2], pool=[3, 2, 3], k=3)
        "ndcg(relevances, k=3, pool=pool, negative='zero')"
        >>> CONVENTIONS_BY_NAME["recommenders map_at_k"].call([1, 0, 1], pool=[1, 0, 1, 1], k=2)
        'average_precision(relevances, k=2, n_relevant=2)'
        >>> CONVENTIONS_BY_NAME["ndeval ERR-IA"].call([[1, 0]], pool=[[1, 0], [0, 1]], k=5)
        "err_ia(judgements, k=5, graded=False, normalise='max', subtopic_pool=subtopic_pool)"
        """
        relevances, pool = self.given(relevances, pool)
        spec = self.spec
        defaults = {**{fact.keyword: fact.default for fact in FACTS.values() if fact.keyword},
                    **{name: param.default for name, param in spec.params.items()}, READING: "raise"}
        given = {**self.facts(relevances, pool, k), **self.settings(), READING: self.reads_negative}
        shown = [] if self.cut(k) is None else [f"k={self.cut(k)!r}"]
        for name in spec.keywords:
            value = given.get(name, defaults[name])
            if same_default(value, defaults[name]):
                continue
            if name in ("pool", "subtopic_pool"):
                text = name
            elif callable(value):
                text = value.__name__
            elif value == math.e:
                text = "math.e"
            else:
                text = repr(value)
            shown.append(f"{name}={text}")
        first = "judgements" if reads_subtopics(spec) else "relevances"
        return f"{spec.function.__name__}({', '.join([first, *shown])})"

    def value(self, relevances, pool=None, k=None):
        """This convention's value for one ranking: ``relevances`` in ranked order (a table of grades per subtopic,
        one row per item, for α-nDCG and ERR-IA), or the ranking's :class:`~ndcg_teach.core.context.Query` (see :meth:`given`).

        Raises
        ------
        ValueError
            When the library itself would refuse the input (negative or
            fractional grades, a cut-off it does not compute), or adds
            negative gains, which no ndcg_teach convention reproduces.

        Examples
        --------
        >>> from ndcg_teach.core.conventions import CONVENTIONS_BY_NAME
        >>> lightgbm = CONVENTIONS_BY_NAME["LightGBM ndcg"]
        >>> lightgbm.value([0, 0, 0])  # nothing relevant: LightGBM counts the query as perfect
        1.0
        >>> round(CONVENTIONS_BY_NAME["scikit-learn ndcg_score"].value([5, 2, 3]), 4)
        0.9834
        >>> round(CONVENTIONS_BY_NAME["ndeval alpha-nDCG"].value(Query.of_subtopics([[1, 0], [1, 0], [0, 1]]), k=3), 4)
        0.9652
        """
        relevances, pool = self.given(relevances, pool)
        refusal = self.refuses(relevances, pool, language=None, k=k)
        if refusal:
            name = "judgements" if reads_subtopics(self.spec) else "relevances"
            at = f", k={k!r}" if self.depths is not None else ""
            raise ValueError(gettext("{name} {refusal}. Got {given} instead.")
                             .format(name=self.name, refusal=refusal, given=f"{name}={list(relevances)!r}{at}"))
        return call(self.spec, self.query(relevances, pool, k), self.cut(k), **self.settings())

    def refuses(self, relevances, pool=None, language="en", k=None):
        """Why the library would not score this input at cut-off ``k`` (or ndcg_teach cannot say what it gives), else ``""``.

        In English unless ``language`` is given (None: the learner's language, as in an error message).
        """
        grades = _flat(relevances) + ([] if pool is None or not self.uses_pool else _flat(pool))
        if any(grade < 0 for grade in grades):
            if self.negative == "raise":
                return _("refuses negative grades", language)
            if self.negative == "kept":
                return _("keeps negative grades as they are, which no ndcg_teach convention reproduces", language)
            if self.negative == "unjudged":
                return _("reads a negative grade as an unjudged item: write None for it and call the metric itself",
                         language)
        if self.integer_grades and any(float(grade) != int(grade) for grade in grades):
            return _("takes whole-number grades only", language)
        if self.max_grade is not None and any(grade > self.max_grade for grade in grades):
            return _("takes grades up to {max_grade:g} only", language).format(max_grade=self.max_grade)
        if self.depths is not None and (k is None or not self.depths[0] <= k <= self.depths[1]):
            low, high = self.depths
            return _("computes this measure at cut-offs k = {low} to {high} only", language).format(low=low, high=high)
        return ""

