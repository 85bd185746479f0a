"""Named items: from "B, A, D, C with A=5, B=4 ..." to the grades the metrics take."""

from .validation import shown


def relevances_from(order, relevance):
    """Grades of the items of ``order`` (ids, best first) looked up in ``relevance``.

    Examples
    --------
    >>> grades = {"A": 5, "B": 4, "C": 3, "D": 2, "E": 1}
    >>> relevances_from(["B", "A", "D", "C", "E"], grades)
    [4, 5, 2, 3, 1]
    """
    if isinstance(order, (str, bytes)):
        raise TypeError(f"order must be a list of item ids, best first. Got {shown(order)} instead.")
    if not hasattr(relevance, "get"):
        raise TypeError(f"relevance must map each item id to its grade, e.g. {{'A': 5}}. Got {shown(relevance)} instead.")
    missing = [item for item in order if item not in relevance]
    if missing:
        raise ValueError(f"relevance must give a grade for every item in order; missing {shown(missing)}. Got {shown(relevance)} instead.")
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
