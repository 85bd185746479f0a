"""Input checks of the modules behind lessons 13-19 (agreement, click models, estimators, ...).

They follow :mod:`ndcg_teach.core.validation` (and use its helpers): each returns
a clean value or raises with a message that names the parameter, says what is
required, and ends with "Got X instead.".
"""

from collections.abc import Mapping
from numbers import Integral, Real

import numpy as np

from ..i18n import gettext, mark, refused
from .validation import shown


def _is_number(value):
    return isinstance(value, Real) and not isinstance(value, (bool, np.bool_))


def check_label_list(name, values, meaning):
    """Return ``values`` (labels such as grades or category names) as a list of hashable labels, at least one."""
    if isinstance(values, (str, bytes, Mapping)) or not hasattr(values, "__iter__"):
        raise TypeError(gettext("{name} must be a list of labels ({meaning}). Got {got} instead.")
                               .format(name=name, meaning=gettext(meaning), got=shown(values)))
    labels = [value.item() if isinstance(value, np.generic) else value for value in values]
    for label in labels:
        if isinstance(label, (list, tuple, np.ndarray, dict, set)) or label is None:
            raise TypeError(gettext("{name} must be a flat list of labels ({meaning}), not None or nested lists. "
                                    "Got {got} instead.").format(name=name, meaning=gettext(meaning), got=shown(values)))
        if isinstance(label, float) and not np.isfinite(label):
            raise ValueError(gettext("{name} must hold finite labels ({meaning}). Got {got} instead.")
                                    .format(name=name, meaning=gettext(meaning), got=shown(values)))
    if not labels:
        raise ValueError(gettext("{name} must hold at least one label ({meaning}). Got [] instead.")
                                .format(name=name, meaning=gettext(meaning)))
    return labels


def check_probability(name, value, meaning):
    """Return ``value`` as a float from 0 to 1 (both ends allowed)."""
    requirement = mark("a number from 0 to 1: {meaning}")
    if not _is_number(value):
        raise refused(TypeError, name, requirement, shown(value), meaning=gettext(meaning))
    if not 0 <= value <= 1:
        raise refused(ValueError, name, requirement, shown(value), meaning=gettext(meaning))
    return float(value)


def check_number_array(name, values, meaning, ndim=1):
    """Return ``values`` as a finite float64 array of ``ndim`` dimensions."""
    shape = mark("a flat list") if ndim == 1 else mark("a table (a list of equally long rows)")
    if isinstance(values, (str, bytes, Mapping)) or values is None or np.isscalar(values):
        raise TypeError(gettext("{name} must be {shape} of numbers ({meaning}). Got {got} instead.")
                               .format(name=name, shape=gettext(shape), meaning=gettext(meaning), got=shown(values)))
    try:
        array = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(gettext("{name} must be {shape} of numbers ({meaning}). Got {got} instead.")
                               .format(name=name, shape=gettext(shape), meaning=gettext(meaning), got=shown(values))) from None
    if array.ndim != ndim:
        raise ValueError(gettext("{name} must be {shape} of numbers ({meaning}); it has shape {shape2}. Got "
                                 "{got} instead.").format(name=name, shape=gettext(shape), meaning=gettext(meaning), shape2=array.shape,
                                                          got=shown(values)))
    if not np.isfinite(array).all():
        raise ValueError(gettext("{name} must hold finite numbers ({meaning}), no NaN or infinity. Got {got} "
                                 "instead.").format(name=name, meaning=gettext(meaning), got=shown(values)))
    return array


def check_distribution(name, values, meaning, size=None):
    """Return ``values`` as probabilities (each from 0 to 1) that add up to 1, ``size`` of them when given."""
    array = check_number_array(name, values, meaning)
    if size is not None and array.size != size:
        raise ValueError(gettext("{name} must hold {size} probabilities ({meaning}). Got {size2}: {got} instead.")
                                .format(name=name, size=size, meaning=gettext(meaning), size2=array.size, got=shown(values)))
    if array.size == 0 or (array < 0).any() or not np.isclose(array.sum(), 1.0, rtol=0, atol=1e-9):
        raise ValueError(gettext("{name} must be probabilities from 0 to 1 that add up to 1 ({meaning}). Got "
                                 "{values} (sum {sum:g}) instead.").format(name=name, meaning=gettext(meaning),
                                                                           values=shown(values), sum=array.sum()))
    return array


def check_whole(name, value, meaning, low=0):
    """Return ``value`` as an int of at least ``low``."""
    requirement = mark("a whole number of at least {low}: {meaning}")
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, Integral):
        raise refused(TypeError, name, requirement, shown(value), low=low, meaning=gettext(meaning))
    if value < low:
        raise refused(ValueError, name, requirement, shown(value), low=low, meaning=gettext(meaning))
    return int(value)


def check_named_scores(name, scores, meaning):
    """Return ``(names, values)``: a ``{name: score}`` mapping, or a list of scores (named "1", "2", ...)."""
    if isinstance(scores, Mapping):
        names = tuple(str(key) for key in scores)
        values = check_number_array(name, list(scores.values()), meaning)
    else:
        values = check_number_array(name, scores, meaning)
        names = tuple(str(i) for i in range(1, values.size + 1))
    return names, values


def check_same_systems(first_name, first, second_name, second, meaning, at_least=2):
    """Return ``(systems, x, y)``: two systems' scores paired by name (mappings) or by position (lists)."""
    names_x, x = check_named_scores(first_name, first, meaning)
    names_y, y = check_named_scores(second_name, second, meaning)
    if isinstance(first, Mapping) != isinstance(second, Mapping):
        raise TypeError(gettext("{first_name} and {second_name} must both be {{system: score}} mappings or both "
                                "be lists. Got {name} and {name2} instead.")
                               .format(first_name=first_name, second_name=second_name, name=type(first).__name__,
                                       name2=type(second).__name__))
    if isinstance(first, Mapping):
        if set(names_x) != set(names_y):
            raise ValueError(gettext("{first_name} and {second_name} must score the same systems; {value} appear "
                                     "in only one. Got {first} and {got} instead.")
                                    .format(first_name=first_name, second_name=second_name,
                                            value=shown(sorted(set(names_x) ^ set(names_y))), first=shown(first),
                                            got=shown(second)))
        y = np.array([y[names_y.index(system)] for system in names_x])
    elif x.size != y.size:
        raise ValueError(gettext("{first_name} and {second_name} must hold one score per system each, in the "
                                 "same order. Got {size} and {size2} scores instead.")
                                .format(first_name=first_name, second_name=second_name, size=x.size, size2=y.size))
    if x.size < at_least:
        raise ValueError(gettext("{first_name} and {second_name} must score at least {at_least} systems. Got "
                                 "{size} instead.").format(first_name=first_name, second_name=second_name,
                                                           at_least=at_least, size=x.size))
    return names_x, x, y


def check_grade_map(grades):
    """Return ``grades`` when it maps item ids to grades (anything with ``get``)."""
    if not hasattr(grades, "get"):
        raise TypeError(gettext("grades must map item ids to their true grades, e.g. {{'d1': 2}}. Got {got} "
                                "instead.").format(got=shown(grades)))
    return grades


def check_two_names(name, value, example):
    """Return ``value`` as a pair of non-empty strings (what two systems or evaluations are called)."""
    if (not isinstance(value, (tuple, list)) or len(value) != 2
            or not all(isinstance(part, str) and part.strip() for part in value)):
        raise TypeError(gettext("{name} must be two non-empty strings, e.g. {example!r}. Got {got} instead.")
                               .format(name=name, example=example, got=shown(value)))
    return tuple(value)
