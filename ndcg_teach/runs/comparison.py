"""Two evaluations of the same queries paired query by query, ready for a paired test (:func:`compare`). Lesson 09.

:func:`~ndcg_teach.evaluate` scores one run; :func:`compare` pairs two of them
by query, and :class:`Comparison` hands the pairs to
:mod:`ndcg_teach.statistics.significance`. Lessons 13 and 20 test the differences.
"""

from dataclasses import dataclass

import numpy as np

from ..i18n import _, gettext
from ..core.table import Table, styled
from ..core.validation import check_choice, shown


def compare(result_a, result_b, measure=None):
    """Two evaluations of the same queries paired query by query, ready for a significance test.

    Parameters
    ----------
    result_a, result_b : Evaluation
        Two runs evaluated on the same judgements.
    measure : str or None
        The measure to pair; None takes the first measure of ``result_a``.

    Returns
    -------
    Comparison

    Examples
    --------
    >>> from ndcg_teach import evaluate
    >>> qrels = {"q1": {"a": 1}, "q2": {"b": 1}}
    >>> a = evaluate(qrels, {"q1": {"a": 1.0, "x": 0.5}, "q2": {"x": 1.0, "b": 0.5}}, ["recip_rank"])
    >>> b = evaluate(qrels, {"q1": {"a": 1.0}, "q2": {"b": 1.0}}, ["recip_rank"])
    >>> pair = compare(a, b)
    >>> pair.differences  # b - a per query: q2 rises from 1/2 to 1
    array([0. , 0.5])
    """
    from .evaluation import Evaluation  # which imports this module

    for name, result in (("result_a", result_a), ("result_b", result_b)):
        if not isinstance(result, Evaluation):
            raise TypeError(gettext("{name} must be an Evaluation returned by evaluate(). Got {got} instead.")
                                   .format(name=name, got=shown(result)))
    name = result_a.measures[0] if measure is None else result_a._measure(measure).name
    result_b._measure(name)
    shared = [qid for qid in result_a.queries if qid in set(result_b.queries)]
    if not shared:
        raise ValueError(gettext("result_a and result_b must share queries to be paired. Got {queries} and {got} "
                                 "instead.").format(queries=shown(result_a.queries), got=shown(result_b.queries)))
    a = np.array([result_a.value(qid, name) for qid in shared])
    b = np.array([result_b.value(qid, name) for qid in shared])
    return Comparison(name, tuple(shared), a, b)


@dataclass(frozen=True, eq=False)
class Comparison:
    """Per-query values of one measure for two runs, paired by query (returned by :func:`compare`). Lesson 09.

    ``a`` and ``b`` are aligned arrays; :meth:`test` hands them to
    :mod:`ndcg_teach.statistics.significance`.

    Examples
    --------
    >>> pair = Comparison("P_1", ("q1", "q2", "q3"), np.array([1.0, 0.0, 1.0]), np.array([1.0, 1.0, 0.0]))
    >>> pair.differences, pair.wins  # (B better, A better, tied)
    (array([ 0.,  1., -1.]), (1, 1, 1))
    """

    measure: str
    queries: tuple
    a: np.ndarray
    b: np.ndarray

    @property
    def differences(self):
        """``b - a`` per query."""
        return self.b - self.a

    @property
    def wins(self):
        """``(b better, a better, tied)`` query counts."""
        d = self.differences
        return int((d > 0).sum()), int((d < 0).sum()), int((d == 0).sum())

    def test(self, method="randomisation", **keywords):
        """A paired significance test from :mod:`ndcg_teach.statistics.significance` of B against A.

        ``method`` is "t" (``paired_t_test``), "wilcoxon" (``wilcoxon_test``),
        "randomisation" (``randomisation_test``) or "bootstrap"
        (``bootstrap_interval``); keywords go to that function. It is given
        ``(b, a)`` and ``labels=("B", "A")`` (unless ``labels`` is passed), so
        its mean difference, printed as "B - A", has the sign of
        :attr:`differences` and :meth:`table`.

        Examples
        --------
        >>> pair = Comparison("P_1", ("q1", "q2", "q3"), np.array([0.0, 0.0, 1.0]), np.array([1.0, 1.0, 1.0]))
        >>> result = pair.test("randomisation")
        >>> round(result.mean_difference, 4), round(float(pair.differences.mean()), 4)  # B gains on two of three queries
        (0.6667, 0.6667)
        """
        functions = {"t": "paired_t_test", "wilcoxon": "wilcoxon_test", "randomisation": "randomisation_test",
                     "bootstrap": "bootstrap_interval"}
        check_choice("method", method, tuple(functions))
        from ..statistics import significance  # imported on first use: it may need SciPy

        return getattr(significance, functions[method])(self.b, self.a, **{"labels": ("B", "A"), **keywords})

    def table(self):
        """Each query's two values and their difference as a :class:`~ndcg_teach.core.table.Table`."""
        rows = tuple((qid, float(a), float(b), float(b - a)) for qid, a, b in zip(self.queries, self.a, self.b))
        rows += ((_("mean"), float(self.a.mean()), float(self.b.mean()), float(self.differences.mean())),)
        caption = _("{measure}: B better on {b}, A better on {a}, tied on {tied}").format(
            measure=self.measure, b=self.wins[0], a=self.wins[1], tied=self.wins[2])
        return Table(caption, ("query", "A", "B", "B - A"), rows, align="lrrr", shown_headers=(_("query"), "A", "B", "B - A"))

    def __str__(self):
        return str(self.table())

    def _repr_html_(self):
        return styled(self.table().html())

    def to_pandas(self):
        """The paired values as a DataFrame: columns a, b, difference; one row per query."""
        import pandas as pd

        return pd.DataFrame({"a": self.a, "b": self.b, "difference": self.differences},
                            index=pd.Index(self.queries, name="query"))
