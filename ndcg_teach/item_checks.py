"""Checks of named items: the explorer's rankings, grade maps and labels, and any text a browser must receive.

Like :mod:`ndcg_teach.validation` (whose helpers they use), each check returns a clean value or raises with a message
that names the parameter, says what is required, and ends with "Got X instead.".
"""

import math

from .subtopics import check_judgements
from .validation import _is_number, _whole, shown


def check_text(name, text):
    """Return ``text`` when Jupyter can send it to a browser: a str with no lone surrogate (such as ``"\\ud800"``).

    Python strings may hold half of a UTF-16 pair on its own; JSON messages
    cannot carry it, so a widget holding one could not be shown at all.

    Examples
    --------
    >>> check_text("names", "Model $A$")
    'Model $A$'
    >>> check_text("ranking", "x\\ud800")
    Traceback (most recent call last):
    ...
    ValueError: ranking must hold text a browser can receive, with no lone surrogate (half of a UTF-16 pair; here U+D800). Got 'x\\ud800' instead.
    """
    if not isinstance(text, str):
        raise TypeError(f"{name} must hold text (str). Got {shown(text)} instead.")
    lone = next((char for char in text if "\ud800" <= char <= "\udfff"), None)
    if lone is not None:
        raise ValueError(
            f"{name} must hold text a browser can receive, with no lone surrogate (half of a UTF-16 pair; "
            f"here U+{ord(lone):04X}). Got {shown(text)} instead."
        )
    return text


def check_ranking(ranking, name="ranking"):
    """Return ``ranking`` (item ids, best first) as a list of distinct strings a browser can receive."""
    if isinstance(ranking, (str, bytes)) or not hasattr(ranking, "__iter__"):
        raise TypeError(f"{name} must be a list of item ids (strings), best first. Got {shown(ranking)} instead.")
    ranking = list(ranking)
    if not all(isinstance(item, str) for item in ranking):
        raise TypeError(f"{name} must be a list of item ids (strings), best first. Got {shown(ranking)} instead.")
    for item in ranking:
        check_text(name, item)
    if not ranking:
        raise ValueError(f"{name} must hold at least one item id. Got [] instead.")
    if len(set(ranking)) != len(ranking):
        repeated = sorted({item for item in ranking if ranking.count(item) > 1})
        raise ValueError(f"{name} must name each item once; {shown(repeated)} repeat. Got {shown(ranking)} instead.")
    return ranking


def check_grade(grade, item, max_grade=None):
    """Return one item's grade as an int in ``0..max_grade``; text such as ``"3"`` (typed into a widget) is read as a number."""
    top = "" if max_grade is None else f" to {max_grade}"
    requirement = f"The grade of {item!r} must be a whole number from 0{top}"
    value = grade
    if isinstance(grade, str):
        try:
            value = float(grade.strip())
        except ValueError:
            raise ValueError(f"{requirement}. Got {shown(grade)} instead.") from None
    if not _is_number(value):
        raise TypeError(f"{requirement}. Got {shown(grade)} instead.")
    whole = _whole(value)
    if whole is None or whole < 0 or (max_grade is not None and whole > max_grade):
        raise ValueError(f"{requirement}. Got {shown(grade)} instead.")
    return whole


def check_relevance_map(relevance, ranking, max_grade=None):
    """Return ``{item: grade}`` for exactly the items of ``ranking``, grades whole numbers in ``0..max_grade``."""
    if not hasattr(relevance, "items"):
        raise TypeError(f"relevance must map each item id to its grade, e.g. {{'A': 5}}. Got {shown(relevance)} instead.")
    missing = [item for item in ranking if item not in relevance]
    if missing:
        raise ValueError(f"relevance must give a grade for every item; missing {shown(missing)}. Got {shown(dict(relevance))} instead.")
    extra = [item for item in relevance if item not in ranking]
    if extra:
        raise ValueError(
            f"relevance must grade only the listed items (judged items that are not listed go in pool=); "
            f"{shown(extra)} are not listed. Got {shown(dict(relevance))} instead."
        )
    return {item: check_grade(relevance[item], item, max_grade) for item in ranking}


def check_max_grade(max_grade, grades, ceiling=None):
    """Return the highest grade a learner may enter: a whole number >= 1, >= every grade in ``grades``, <= ``ceiling``."""
    lowest = max(1, *grades.values())
    requirement = f"a whole number at least 1 and at least the highest grade ({max(grades.values(), default=0)})"
    if ceiling is not None:
        requirement = f"a whole number from {lowest} (the highest grade, or 1) to {ceiling}"
    if not _is_number(max_grade):
        raise TypeError(f"max_grade must be {requirement}. Got {shown(max_grade)} instead.")
    top = _whole(max_grade)
    if top is None or top < lowest or (ceiling is not None and top > ceiling):
        raise ValueError(f"max_grade must be {requirement}. Got {shown(max_grade)} instead.")
    return top


def check_labels(labels, ranking):
    """Return a display name for every item of ``ranking``: the given one, or the id itself."""
    if labels is None:
        return {item: item for item in ranking}
    if not hasattr(labels, "get"):
        raise TypeError(f"labels must map item ids to names, e.g. {{'A': 'Apple pie'}}. Got {shown(labels)} instead.")
    return {item: check_text("labels", str(labels.get(item, item))) for item in ranking}


def check_subtopic_map(subtopics, ranking):
    """Return ``{item: (grade per subtopic, ...)}`` for exactly the items of ``ranking``: rows of one length (at least
    one subtopic), finite non-negative grades, as the diversity metrics (α-nDCG, ERR-IA) read them."""
    example = "e.g. {'A': [1, 0], 'B': [0, 2]}"
    if not hasattr(subtopics, "items"):
        raise TypeError(f"subtopics must map each item id to its grades per subtopic (one per subtopic), {example}. "
                        f"Got {shown(subtopics)} instead.")
    missing = [item for item in ranking if item not in subtopics]
    if missing:
        raise ValueError(f"subtopics must give a row of grades for every item; missing {shown(missing)}. "
                         f"Got {shown(dict(subtopics))} instead.")
    extra = [item for item in subtopics if item not in ranking]
    if extra:
        raise ValueError(f"subtopics must hold rows only for the listed items; {shown(extra)} are not listed. "
                         f"Got {shown(dict(subtopics))} instead.")
    rows = {}
    for item in ranking:
        row = subtopics[item]
        if isinstance(row, (str, bytes)) or not hasattr(row, "__len__"):
            raise TypeError(f"subtopics must give each item a list of grades, one per subtopic, {example}; item "
                            f"{item!r} has {shown(row)}. Got {shown(dict(subtopics))} instead.")
        rows[item] = list(row)
    widths = sorted({len(row) for row in rows.values()})
    if widths != [widths[-1]] or widths[-1] == 0:
        raise ValueError(f"subtopics must give every item the same number of grades (one per subtopic, at least one); "
                         f"the rows have {', '.join(map(str, widths))} grades. Got {shown(dict(subtopics))} instead.")
    for item, row in rows.items():
        for column, grade in enumerate(row, start=1):
            if not _is_number(grade) or not math.isfinite(grade) or grade < 0:
                raise ValueError(f"subtopics must hold finite non-negative grades; item {item!r}, subtopic {column} has "
                                 f"{shown(grade)}. Got {shown(dict(subtopics))} instead.")
    table = check_judgements([rows[item] for item in ranking], name="subtopics", what="item of the ranking")
    return {item: tuple(float(grade) for grade in row) for item, row in zip(ranking, table)}
