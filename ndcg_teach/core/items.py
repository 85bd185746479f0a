"""Named items: from "B, A, D, C with A=5, B=4 ..." to the grades the metrics take."""

from .validation import shown
from ..i18n import gettext


def relevances_from(order, relevance):
    """Grades of the items of ``order`` (ids, best first) looked up in ``relevance``.

    Examples
    --------
    >>> grades = {"A": 5, "B": 4, "C": 3, "D": 2, "E": 1}
    >>> relevances_from(["B", "A", "D", "C", "E"], grades)
    [4, 5, 2, 3, 1]
    """
    if isinstance(order, (str, bytes)):
        raise TypeError(gettext("order must be a list of item ids, best first. Got {got} instead.")
                               .format(got=shown(order)))
    if not hasattr(relevance, "get"):
        raise TypeError(gettext("relevance must map each item id to its grade, e.g. {{'A': 5}}. Got {got} "
                                "instead.").format(got=shown(relevance)))
    missing = [item for item in order if item not in relevance]
    if missing:
        raise ValueError(gettext("relevance must give a grade for every item in order; missing {missing}. Got "
                                 "{got} instead.").format(missing=shown(missing), got=shown(relevance)))
    return [relevance[item] for item in order]


def ideal_order(order, relevance):
    """The items of ``order`` sorted by grade, best first (ties keep their order).

    Examples
    --------
    >>> ideal_order(["B", "A", "D", "C", "E"], {"A": 5, "B": 4, "C": 3, "D": 2, "E": 1})
    ['A', 'B', 'C', 'D', 'E']
    """
    grades = relevances_from(order, relevance)
    return [item for _, item in sorted(zip(grades, order), key=lambda pair: -pair[0])]
