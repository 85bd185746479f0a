"""Checks of named items: the explorer's rankings, grade maps and labels, and any text a browser must receive.

Like :mod:`ndcg_teach.core.validation` (whose helpers they use), each check returns a clean value or raises with a message
that names the parameter, says what is required, and ends with "Got X instead.".
"""

import math

from .subtopics import check_judgements
from .validation import _is_number, _whole, shown
from ..i18n import gettext, mark


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
        raise TypeError(gettext("{name} must hold text (str). Got {got} instead.").format(name=name, got=shown(text)))
    lone = next((char for char in text if "\ud800" <= char <= "\udfff"), None)
    if lone is not None:
        raise ValueError(
            gettext("{name} must hold text a browser can receive, with no lone surrogate (half of a UTF-16 pair; "
                    "here U+{code:04X}). Got {got} instead.").format(name=name, code=ord(lone), got=shown(text))
        )
    return text


def check_ranking(ranking, name="ranking"):
    """Return ``ranking`` (item ids, best first) as a list of distinct strings a browser can receive."""
    if isinstance(ranking, (str, bytes)) or not hasattr(ranking, "__iter__"):
        raise TypeError(gettext("{name} must be a list of item ids (strings), best first. Got {got} instead.")
                               .format(name=name, got=shown(ranking)))
    ranking = list(ranking)
    if not all(isinstance(item, str) for item in ranking):
        raise TypeError(gettext("{name} must be a list of item ids (strings), best first. Got {got} instead.")
                               .format(name=name, got=shown(ranking)))
    for item in ranking:
        check_text(name, item)
    if not ranking:
        raise ValueError(gettext("{name} must hold at least one item id. Got [] instead.").format(name=name))
    if len(set(ranking)) != len(ranking):
        repeated = sorted({item for item in ranking if ranking.count(item) > 1})
        raise ValueError(gettext("{name} must name each item once; {repeated} repeat. Got {got} instead.")
                                .format(name=name, repeated=shown(repeated), got=shown(ranking)))
    return ranking


def check_grade(grade, item, max_grade=None):
    """Return one item's grade as an int in ``0..max_grade``; text such as ``"3"`` (typed into a widget) is read as a number."""
    requirement = gettext("The grade of {item!r} must be a whole number from 0") if max_grade is None else \
        gettext("The grade of {item!r} must be a whole number from 0 to {top}")
    requirement = requirement.format(item=item, top=max_grade)
    value = grade
    if isinstance(grade, str):
        try:
            value = float(grade.strip())
        except ValueError:
            raise ValueError(gettext("{requirement}. Got {got} instead.")
                                    .format(requirement=requirement, got=shown(grade))) from None
    if not _is_number(value):
        raise TypeError(gettext("{requirement}. Got {got} instead.").format(requirement=requirement, got=shown(grade)))
    whole = _whole(value)
    if whole is None or whole < 0 or (max_grade is not None and whole > max_grade):
        raise ValueError(gettext("{requirement}. Got {got} instead.").format(requirement=requirement, got=shown(grade)))
    return whole


def check_relevance_map(relevance, ranking, max_grade=None):
    """Return ``{item: grade}`` for exactly the items of ``ranking``, grades whole numbers in ``0..max_grade``."""
    if not hasattr(relevance, "items"):
        raise TypeError(gettext("relevance must map each item id to its grade, e.g. {{'A': 5}}. Got {got} "
                                "instead.").format(got=shown(relevance)))
    missing = [item for item in ranking if item not in relevance]
    if missing:
        raise ValueError(gettext("relevance must give a grade for every item; missing {missing}. Got {got} "
                                 "instead.").format(missing=shown(missing), got=shown(dict(relevance))))
    listed = set(ranking)  # not the list itself: a membership test in it made a 100,000-item explorer take minutes
    extra = [item for item in relevance if item not in listed]
    if extra:
        raise ValueError(
            gettext("relevance must grade only the listed items (judged items that are not listed go in pool=); "
                    "{extra} are not listed. Got {got} instead.").format(extra=shown(extra),
                                                                         got=shown(dict(relevance)))
        )
    return {item: check_grade(relevance[item], item, max_grade) for item in ranking}


def check_max_grade(max_grade, grades, ceiling=None):
    """Return the highest grade a learner may enter: a whole number >= 1, >= every grade in ``grades``, <= ``ceiling``."""
    lowest = max(1, *grades.values())
    requirement = gettext("a whole number at least 1 and at least the highest grade ({top})").format(
        top=max(grades.values(), default=0))
    if ceiling is not None:
        requirement = gettext("a whole number from {lowest} (the highest grade, or 1) to {ceiling}").format(
            lowest=lowest, ceiling=ceiling)
    if not _is_number(max_grade):
        raise TypeError(gettext("max_grade must be {requirement}. Got {got} instead.")
                               .format(requirement=requirement, got=shown(max_grade)))
    top = _whole(max_grade)
    if top is None or top < lowest or (ceiling is not None and top > ceiling):
        raise ValueError(gettext("max_grade must be {requirement}. Got {got} instead.")
                                .format(requirement=requirement, got=shown(max_grade)))
    return top


def check_labels(labels, ranking):
    """Return a display name for every item of ``ranking``: the given one, or the id itself."""
    if labels is None:
        return {item: item for item in ranking}
    if not hasattr(labels, "get"):
        raise TypeError(gettext("labels must map item ids to names, e.g. {{'A': 'Apple pie'}}. Got {got} instead.")
                               .format(got=shown(labels)))
    return {item: check_text("labels", str(labels.get(item, item))) for item in ranking}


def check_subtopic_map(subtopics, ranking):
    """Return ``{item: (grade per subtopic, ...)}`` for exactly the items of ``ranking``: rows of one length (at least
    one subtopic), finite non-negative grades, as the diversity metrics (α-nDCG, ERR-IA) read them."""
    example = "e.g. {'A': [1, 0], 'B': [0, 2]}"
    if not hasattr(subtopics, "items"):
        raise TypeError(gettext("subtopics must map each item id to its grades per subtopic (one per subtopic), "
                                "{example}. Got {got} instead.").format(example=example, got=shown(subtopics)))
    missing = [item for item in ranking if item not in subtopics]
    if missing:
        raise ValueError(gettext("subtopics must give a row of grades for every item; missing {missing}. Got "
                                 "{got} instead.").format(missing=shown(missing), got=shown(dict(subtopics))))
    extra = [item for item in subtopics if item not in ranking]
    if extra:
        raise ValueError(gettext("subtopics must hold rows only for the listed items; {extra} are not listed. "
                                 "Got {got} instead.").format(extra=shown(extra), got=shown(dict(subtopics))))
    rows = {}
    for item in ranking:
        row = subtopics[item]
        if isinstance(row, (str, bytes)) or not hasattr(row, "__len__"):
            raise TypeError(gettext("subtopics must give each item a list of grades, one per subtopic, "
                                    "{example}; item {item!r} has {row}. Got {got} instead.")
                                   .format(example=example, item=item, row=shown(row), got=shown(dict(subtopics))))
        rows[item] = list(row)
    widths = sorted({len(row) for row in rows.values()})
    if widths != [widths[-1]] or widths[-1] == 0:
        raise ValueError(gettext("subtopics must give every item the same number of grades (one per subtopic, at "
                                 "least one); the rows have {names} grades. Got {got} instead.")
                                .format(names=', '.join(map(str, widths)), got=shown(dict(subtopics))))
    for item, row in rows.items():
        for column, grade in enumerate(row, start=1):
            if not _is_number(grade) or not math.isfinite(grade) or grade < 0:
                raise ValueError(gettext("subtopics must hold finite non-negative grades; item {item!r}, "
                                         "subtopic {column} has {grade}. Got {got} instead.")
                                        .format(item=item, column=column, grade=shown(grade),
                                                got=shown(dict(subtopics))))
    table = check_judgements([rows[item] for item in ranking], name="subtopics", what=mark("item of the ranking"))
    return {item: tuple(float(grade) for grade in row) for item, row in zip(ranking, table)}
