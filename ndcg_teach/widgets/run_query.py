"""Lesson 20's query explorer: one query of an evaluated run, with what its score and the run's mean would become.

:class:`QueryExplorer` is the ranking explorer opened on one query of an
:class:`~ndcg_teach.Evaluation` (``result.explore(qid)``), as trec_eval saw it
(:func:`~ndcg_teach.runs.exploring.run_query`): the run's order, the grades, the
unjudged items as unjudged rows (lesson 12), every judged grade of the query
as the pool (so the ideal is trec_eval's), the evaluation's relevance level,
and the cut-off and gains of the measure asked for. Its cards, two per
evaluated measure, are computed by the library:

- :class:`MeasureCard`: the measure, with its own cut-off and conventions:
  as the explorer opens, ``result.value(qid, measure)`` exactly;
- :class:`MeanCard`: the run's ``all`` line were the query as shown
  (:meth:`~ndcg_teach.Evaluation.mean_of`, the other queries as they are).

The previews a drop is drawn from carry both, so a drag shows at once what the
query's score and the run's mean would become. The relevance level, the gain
and the discount are the evaluation's and have no control.
"""

from dataclasses import dataclass, replace
from functools import partial

import traitlets

from ..runs.exploring import RunScores, run_query
from ..i18n import chosen_language, gettext, mark
from ..core.registry import call
from ..core.validation import shown
from .explorer import RankingExplorer

GROUPS = {
    "query": mark("query {qid}, scored as evaluate() scores it"),
    "run": mark("the run's mean over {n} queries, were this query as shown"),
}


@dataclass(frozen=True, eq=False)
class MeasureCard:
    """A card of one evaluated measure: its own cut-off and conventions (trec_eval's), whatever the explorer's k."""

    measure: object
    group = "query"
    params = {}  # the explorer's gain and discount controls do not reach it: the measure says its own

    @property
    def key(self):
        return self.measure.name

    @property
    def needs(self):
        return self.measure.spec.needs

    @property
    def meaning(self):
        return self.measure.spec.meaning

    def title(self, k):
        return self.measure.name

    def value_of(self, query, k, **settings):
        """The measure's value for ``query`` (one query or a batch of orders), as :func:`~ndcg_teach.evaluate` computes it."""
        return call(self.measure.spec, query, self.measure.k, **self.measure.keywords)


@dataclass(frozen=True, eq=False)
class MeanCard:
    """A card of the run's mean of a measure, were the query worth what its :class:`MeasureCard` says.

    ``means(values)`` gives the run's mean for each of the query's ``values``.
    """

    card: MeasureCard
    means: object
    language: str
    group = "run"
    params = {}
    meaning = mark("the run's mean of this measure were this query as shown, the other queries as they are")

    @property
    def key(self):
        return f"mean_{self.card.key}"

    @property
    def needs(self):
        return self.card.needs

    def title(self, k):
        return gettext(mark("mean {measure}"), self.language).format(measure=self.card.key)

    def value_of(self, query, k, **settings):
        values = self.card.value_of(query, k)
        means = self.means(self.card.measure.name, values)
        return float(means) if query.grades.ndim == 1 else means


class QueryExplorer(RankingExplorer):
    """One query of an evaluated run in the ranking explorer, with the run's mean beside each of its scores.

    Built by :meth:`Evaluation.explore <ndcg_teach.Evaluation.explore>`, or
    by :class:`~ndcg_teach.widgets.RunExplorer` for the query chosen there.

    Parameters
    ----------
    result : Evaluation
        What :func:`~ndcg_teach.evaluate` returned.
    qid : str
        An evaluated query the run answered.
    measure : str or None, default None
        The measure whose cut-off and gains the step table takes (its card
        comes first); None takes the first evaluated one the explorer can show.
    language : {"en", "zh-CN"} or None, default None
        As for :class:`~ndcg_teach.widgets.RankingExplorer`.
    seed : int, default 0
        Of the shuffle button.
    scores : RunScores or None, default None
        The run's per-query values the mean cards read (other queries as a
        :class:`~ndcg_teach.widgets.RunExplorer` changed them); None: as evaluated.
    run : int, default 0
        Which run of ``scores`` this is (1 for the second of two).

    Attributes
    ----------
    result, qid, query
        The evaluation, the query's id, and the :class:`~ndcg_teach.runs.exploring.RunQuery` it was opened from.
    metrics : dict of str to float
        Each measure's value by its printed name (``"ndcg_cut_10"``), and the
        run's mean of each under ``"mean_"`` and that name.

    Examples
    --------
    >>> import ndcg_teach as nt
    >>> qrels = {"q1": {"a": 2, "b": 0, "z": 1}, "q2": {"x": 1}}
    >>> result = nt.evaluate(qrels, {"q1": {"a": 0.2, "b": 0.9, "c": 0.5}, "q2": {"x": 0.3}}, ["ndcg_cut.10", "P.2"])
    >>> explorer = result.explore("q1")
    >>> explorer.order, explorer.unjudged, explorer.pool
    (['b', 'c', 'a'], ['c'], [2, 1, 0])
    >>> explorer.metrics["ndcg_cut_10"] == result.value("q1", "ndcg_cut.10")
    True
    >>> explorer.move("a", 1)  # 2 / (2 + 1 / log2(3)), the ideal from every judged grade; q2 scores 1
    >>> round(explorer.metrics["ndcg_cut_10"], 4), round(explorer.metrics["mean_ndcg_cut_10"], 4)
    (0.7602, 0.8801)
    """

    _group_titles = GROUPS
    _locked = ("gain", "discount", "threshold")

    def __init__(self, result, qid, measure=None, *, language=None, seed=0, scores=None, run=0):
        query = run_query(result, qid, measure)
        self.result, self.qid, self.query = result, query.qid, query
        self._scores = RunScores(result, measure=query.measure.name) if scores is None else scores
        self._fixed = {"gain": "linear", "discount": "log2", "threshold": query.threshold}
        language = chosen_language(language)
        cards = [MeasureCard(measure) for measure in query.measures]
        means = partial(self._scores.means_if, run, query.qid)
        super().__init__(list(query.ranking), query.relevance, query.k, threshold=query.threshold,
                         pool=list(query.pool), seed=seed, language=language, unjudged=list(query.unjudged),
                         metrics=[*cards, *(MeanCard(card, means, language) for card in cards)])

    def _group_title(self, group, threshold):
        return self._text(self._group_titles[group]).format(qid=self.qid, n=len(self.result.queries))

    def _conventions_of(self, settings):
        conventions = super()._conventions_of(settings)
        # trec_eval's gain map (ndcg.1=3,2=9) reaches the step table and the plots; the page has no control for it.
        return conventions if self.query.gain is None else replace(conventions, gain=self.query.gain)

    @traitlets.validate("gain", "discount")
    def _valid_fixed(self, proposal):
        return self._fixed_value(proposal)

    @traitlets.validate("threshold")
    def _valid_threshold(self, proposal):  # the base class's check gives way to this one
        return self._fixed_value(proposal)

    def _fixed_value(self, proposal):
        """The evaluation's setting, or a refusal: the page has no control for it, and Python may not change it."""
        name, value = proposal.trait.name, proposal.value
        wanted = self._fixed[name]
        if value == wanted and type(value) is type(wanted):
            return value
        if name == "threshold":
            raise traitlets.TraitError(gettext(
                "threshold is the evaluation's relevance level ({wanted}; trec_eval -l) in an explorer of a run's "
                "query: evaluate again with relevance_level= to change it. Got {got} instead.", self._language)
                .format(wanted=wanted, got=shown(value)))
        raise traitlets.TraitError(gettext(
            "{name} is the measure's ({wanted}, as trec_eval computes it) in an explorer of a run's query. Got {got} "
            "instead.", self._language).format(name=name, wanted=wanted, got=shown(value)))

    def __repr__(self):
        key = self._specs[0].key
        return (f"QueryExplorer(query {self.qid!r} of run {self.result.run_id!r}, {len(self.items)} items): "
                f"{key} = {self.metrics[key]:.4f}, mean {self.metrics['mean_' + key]:.4f}")

