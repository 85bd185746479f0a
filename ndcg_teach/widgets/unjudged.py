"""Unjudged items in the ranking explorer: a state of a row, and the cards that show how each convention reads the hole.

An explorer built with ``unjudged=[...]`` lets the learner mark any item
unjudged (nobody judged it: its grade is what it would turn out to be, hidden
from the metrics) or judged again, from Python (:meth:`Judgements.set_judged`)
or from the row's button. Every number still comes from the library through
the explorer's :class:`~ndcg_teach.core.context.Query`, whose ``judged`` mask says
which items were judged:

- a metric that does not tell the two apart (AP, NDCG, ...) reads an
  unjudged item as not relevant, as trec_eval does;
- ``"condensed_ap"`` (and ``"condensed_"`` before any registry key) is that
  metric on the condensed list, :meth:`~ndcg_teach.core.context.Query.condensed`
  (Sakai 2007's AP′);
- bpref needs the judged mask and skips unjudged items (Buckley & Voorhees 2004).

Lesson 12 uses it: drag an unjudged item and AP moves while bpref and AP′ stay.
"""

from dataclasses import dataclass

from ..i18n import gettext, mark
from ..core.registry import Metric, call, metric
from ..core.validation import shown

CONDENSED = "condensed_"  # before a registry key: the card of that metric on the condensed list


@dataclass(frozen=True)
class Condensed:
    """A card of a registered metric computed on the condensed list; it reads as the metric's spec does."""

    metric: Metric

    @property
    def key(self):
        return CONDENSED + self.metric.key

    @property
    def group(self):
        return self.metric.group

    @property
    def params(self):
        return self.metric.params

    @property
    def needs(self):
        return self.metric.needs

    @property
    def meaning(self):
        return mark("the same metric on the condensed list: unjudged items removed, the rest closed up")

    def title(self, k):
        """The metric's title with a prime, as Sakai writes it: ``"AP′@5"``."""
        return self.metric.title(k).replace("@", "′@", 1) if "@" in self.metric.title(k) else self.metric.title(k) + "′"

    def value_of(self, query, k, **settings):
        """The metric's value on the condensed ``query`` (one query or a batch)."""
        return call(self.metric, query.condensed(), k, **settings)


def card(key):
    """The spec a card key names: a registry key, or ``"condensed_"`` and a registry key; a card object (one with
    its own ``value_of``, such as lesson 20's) is its own spec."""
    if not isinstance(key, str) and hasattr(key, "value_of"):
        return key
    if isinstance(key, str) and key.startswith(CONDENSED):
        return Condensed(metric(key[len(CONDENSED):]))
    return metric(key)


def card_value(spec, query, k, **settings):
    """A card's value: a registered metric's through :func:`~ndcg_teach.core.registry.call`; a card of another kind (a
    :class:`Condensed` one, or lesson 20's cards of an evaluated run) computes its own, by its ``value_of``."""
    if isinstance(spec, Metric):
        return call(spec, query, k, **settings)
    return spec.value_of(query, k, **settings)


def check_unjudged(unjudged, items):
    """The unjudged ids, checked: a list of the explorer's items, each once (None: the explorer has no judging)."""
    if unjudged is None:
        return None
    if isinstance(unjudged, str) or not hasattr(unjudged, "__iter__"):
        raise TypeError(gettext("unjudged must be a list of the explorer's item ids, e.g. ['D'], or None. Got "
                                "{got} instead.").format(got=shown(unjudged)))
    listed = list(unjudged)
    unknown = [item for item in listed if item not in items]
    if unknown or len(set(listed)) != len(listed):
        raise ValueError(gettext("unjudged must name the explorer's items {value}, each once. Got {got} instead.")
                                .format(value=shown(list(items)), got=shown(listed)))
    return [item for item in items if item in set(listed)]


class Judgements:
    """The judging half of an explorer (mixed into ``_Explorer``): which items are unjudged, and how that changes."""

    def set_judged(self, item, judged=True):
        """Mark ``item`` judged (``True``) or unjudged (``False``); every number follows.

        The item keeps its grade: it is what a judge would say, and it counts
        again once the item is judged. With a ``pool`` (every judged grade of
        the query), the item's grade leaves the pool when it becomes unjudged
        and comes back when it is judged.
        """
        if not self._judging:
            raise ValueError(gettext("This explorer was built without judging: pass unjudged=[...] (an empty "
                                     "list for none) to RankingExplorer to mark items unjudged. Got set_judged "
                                     "instead."))
        if item not in self.relevance:
            raise ValueError(gettext("item must be one of the explorer's items {value}. Got {got} instead.")
                                    .format(value=shown(list(self.items)), got=shown(item)))
        if not isinstance(judged, bool):
            raise TypeError(gettext("judged must be True or False. Got {got} instead.").format(got=shown(judged)))
        if judged == (item not in self.unjudged):
            return
        if self.pool is not None:
            pool = list(self.pool)
            if judged:
                pool.append(self.relevance[item])
            elif self.relevance[item] in pool:
                pool.remove(self.relevance[item])
            self.pool = pool
        self.unjudged = [other for other in self.items if other in set(self.unjudged) ^ {item}]
        text = mark("{item} is judged again: grade {grade}.") if judged else mark("{item} is now unjudged.")
        self._tell(gettext(text, self._language).format(item=item, grade=self.relevance[item]))
