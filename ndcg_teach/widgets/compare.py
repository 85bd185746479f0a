"""Two rankings of the same items side by side: drag either and watch the difference in every metric.

:class:`CompareExplorer` shares its state, its checks and its front end
(``static/explorer.js``) with :class:`~ndcg_teach.widgets.RankingExplorer`;
only the two rankings and the differences are its own. Lessons 06 and 08 use it.
"""

import traitlets

from ..i18n import chosen_language, gettext
from ..core.item_checks import check_ranking, check_text
from ..core.validation import shown
from .explorer import _Explorer


class CompareExplorer(_Explorer):
    """Two rankings of the same items side by side, each draggable, with the difference in every metric.

    Both rankings share the grades, ``k``, the gain, the discount and the
    threshold, so every difference comes from the order alone. The
    cumulative plot draws both running DCGs against the one ideal.

    Parameters
    ----------
    ranking_a, ranking_b : list of str
        The two rankings (item ids, best first); they must hold the same items.
    relevance : dict of str to int
        Each item's grade.
    names : pair of str or None, default None
        What the two rankings are called; None names them "Model A" and
        "Model B" in the explorer's language.
    k, gain, discount, threshold, pool, labels, max_grade, seed, metrics, language, subtopics
        As in :class:`RankingExplorer`.

    Attributes
    ----------
    order_a, order_b : list of str
        The two current rankings (synced with the browser, repaired like ``RankingExplorer.order``).
    metrics : dict
        ``{"a": {...}, "b": {...}}``, each as ``RankingExplorer.metrics``.
    differences : dict of str to float
        ``b - a`` for every metric (what the widget shows in its last column).

    Examples
    --------
    >>> grades = {"A": 3, "B": 2, "C": 0, "D": 1}
    >>> duel = CompareExplorer(["A", "B", "D", "C"], ["C", "A", "B", "D"], grades, k=3)
    >>> round(duel.metrics["a"]["ndcg"], 4), round(duel.metrics["b"]["ndcg"], 4)
    (1.0, 0.6075)
    >>> round(duel.differences["ndcg"], 4)  # b - a: the grade-0 item on top costs B 0.39
    -0.3925
    """

    _rankings = ("order_a", "order_b")
    order_a = traitlets.List(traitlets.Unicode()).tag(sync=True, echo_update=False)
    order_b = traitlets.List(traitlets.Unicode()).tag(sync=True, echo_update=False)

    def __init__(self, ranking_a, ranking_b, relevance, k=None, *, names=None, gain="linear",
                 discount="log2", threshold=1, pool=None, labels=None, max_grade=None, seed=0, metrics=None, language=None,
                 subtopics=None):
        first, second = check_ranking(ranking_a, "ranking_a"), check_ranking(ranking_b, "ranking_b")
        if names is None:
            names = (gettext("Model A", chosen_language(language)), gettext("Model B", chosen_language(language)))
        if sorted(first) != sorted(second):
            raise ValueError(
                gettext("ranking_b must hold the same items as ranking_a {value}. Got {got} instead.")
                       .format(value=shown(sorted(first)), got=shown(second))
            )
        if isinstance(names, str) or not hasattr(names, "__len__") or len(names) != 2 or not all(isinstance(name, str) for name in names):
            raise ValueError(gettext("names must be two strings, one per ranking. Got {got} instead.")
                                    .format(got=shown(names)))
        for name in names:
            check_text("names", name)
        super().__init__(
            [first, second], relevance, names=names, k=k, gain=gain, discount=discount,
            threshold=threshold, pool=pool, labels=labels, max_grade=max_grade, seed=seed, metrics=metrics,
            language=language, subtopics=subtopics,
        )

    @traitlets.validate("order_a", "order_b")
    def _valid_orders(self, proposal):
        return self._repair(proposal)

    @property
    def metrics(self):
        """``{"a": {...}, "b": {...}}``: the live numbers of each ranking."""
        return {"a": dict(self._values[0]), "b": dict(self._values[1])}

    @property
    def traces(self):
        """``{"a": Trace, "b": Trace}``: the current :func:`~ndcg_teach.explain_ndcg` traces."""
        return {"a": self._traces[0], "b": self._traces[1]}

    @property
    def differences(self):
        """``b - a`` for every metric."""
        first, second = self._values
        return {key: second[key] - first[key] for key in first}

    def _side(self, side):
        if side not in ("a", "b"):
            raise ValueError(gettext("side must be 'a' or 'b'. Got {got} instead.").format(got=shown(side)))
        return f"order_{side}"

    def move(self, side, item, position):
        """Move ``item`` to ``position`` (1 = top) in ranking ``side`` ("a" or "b")."""
        self._move(self._side(side), item, position)

    def ideal(self, side):
        """Sort ranking ``side`` best first."""
        self._reorder(self._side(side), "ideal")

    def worst(self, side):
        """Sort ranking ``side`` least relevant first."""
        self._reorder(self._side(side), "worst")

    def shuffle(self, side):
        """Shuffle ranking ``side`` with the explorer's seeded generator."""
        self._reorder(self._side(side), "shuffle")

    def reset(self, side):
        """Put ranking ``side`` back in its starting order, and every grade back to its start."""
        self._reorder(self._side(side), "reset")

    def __repr__(self):
        first, second = self._traces
        name_a, name_b = self.names
        return (
            f"CompareExplorer(order_a={self.order_a!r}, order_b={self.order_b!r}, {self._conventions()}): "
            f"{first.metric} {name_a} = {first.value:.4f}, {name_b} = {second.value:.4f}"
        )
