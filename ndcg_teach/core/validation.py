"""Input checks shared by every metric.

Each check returns a clean value (a float64 array, an int, ...) or raises with
a message that names the parameter, says what is required, and ends with
"Got X instead.".  Keeping them in one place means every function refuses bad
input the same way, and no metric can return NaN by accident.
"""

from collections import Counter
from collections.abc import Mapping, Set
from numbers import Integral, Real

import numpy as np

from .shown import shown as shown  # re-exported: every module imports it from here
from ..i18n import gettext, mark, refused

NEGATIVE_CHOICES = ("raise", "zero")
GRADES = mark("grades")


def check_choice(name, value, choices):
    """Return ``value`` if it is one of ``choices`` (strings)."""
    if not isinstance(value, str) or value not in choices:
        options = ", ".join(repr(c) for c in choices)
        error = ValueError if isinstance(value, str) else TypeError
        raise error(gettext("{name} must be one of {options}. Got {got} instead.")
                           .format(name=name, options=options, got=shown(value)))
    return value


def _as_float_array(name, values, what):
    if isinstance(values, (str, bytes)) or np.isscalar(values) or values is None:
        raise TypeError(gettext("{name} must be a list or 1-D array of {what}. Got {got} instead.")
                               .format(name=name, what=gettext(what), got=shown(values)))
    try:
        array = np.asarray(values)
    except ValueError:
        raise ValueError(gettext("{name} must be a flat list of {what}, not nested lists. Got {got} instead.")
                                .format(name=name, what=gettext(what), got=shown(values))) from None
    if array.dtype == object and what == "relevance grades" and any(v is None for v in np.ravel(array)):
        raise TypeError(
            gettext("{name} must hold numbers ({what}); None marks an unjudged item, which only bpref, "
                    "rank_biased_precision and rbp_residual accept: drop unjudged items with "
                    "condensed(relevances), or write 0 to count them as not relevant. Got {got} instead.")
                   .format(name=name, what=gettext(what), got=shown(values))
        )
    if array.dtype == object and array.ndim and all(_is_real(v) for v in np.ravel(array)):
        return _object_floats(name, array, values, what)  # e.g. a pandas column of Python ints
    if array.dtype == object or array.dtype.kind in "USVmM":
        kinds = {type(v).__name__ for v in np.ravel(array)} if array.dtype == object else {_kind_name(array.dtype)}
        if array.dtype == object and any(isinstance(v, (list, tuple, np.ndarray)) for v in np.ravel(array)):
            raise ValueError(gettext("{name} must be a flat list of {what}, not nested lists. Got {got} instead.")
                                    .format(name=name, what=gettext(what), got=shown(values)))
        raise TypeError(gettext("{name} must hold numbers ({what}), not {names}. Got {got} instead.")
                               .format(name=name, what=gettext(what), names=', '.join(sorted(kinds)), got=shown(values)))
    if array.dtype.kind == "c":
        raise TypeError(gettext("{name} must hold real numbers ({what}). Got {got} instead.")
                               .format(name=name, what=gettext(what), got=shown(values)))
    return array.astype(np.float64, copy=False)  # no function writes into its checked input


def _is_real(value):
    return isinstance(value, Real)


def _kind_name(dtype):
    """How a message names a dtype that holds no numbers: str, bytes, datetime64, timedelta64, ..."""
    return {"U": "str", "S": "bytes", "V": "void"}.get(dtype.kind, dtype.name.split("[")[0])


def _object_floats(name, array, values, what):
    """An object array of real numbers (Python ints, Fractions, ...) as float64; an int too large for float64 is refused."""
    try:
        return array.astype(np.float64)
    except OverflowError:
        position = next(i for i, v in enumerate(np.ravel(array), start=1) if abs(v) > float(np.finfo(np.float64).max))
        raise ValueError(
            gettext("{name} must be finite numbers within float64's range (up to about 1.8e308); position "
                    "{position} is outside it. Got {got} instead.").format(name=name, position=position,
                                                                           got=shown(values))
        ) from None


def check_relevances(relevances, negative="raise", name="relevances"):
    """Return graded relevances as a 1-D float64 array, or raise.

    An empty list is allowed: a query for which the system returned nothing
    scores 0 on every metric (as trec_eval with ``-c``, ranx and ir_measures do).

    Parameters
    ----------
    relevances : sequence of real numbers
        Grades of the ranked items, position 1 first.
    negative : {"raise", "zero"}
        What a negative grade means. ``"raise"`` (default) refuses it;
        ``"zero"`` reads it as 0 ("judged non-relevant"), as trec_eval does.

    Examples
    --------
    >>> check_relevances([5, 2, 3])
    array([5., 2., 3.])
    >>> check_relevances([3, -1], negative="zero")
    array([3., 0.])
    """
    check_choice("negative", negative, NEGATIVE_CHOICES)
    array = _as_float_array(name, relevances, mark("relevance grades"))
    if array.ndim != 1:
        raise ValueError(
            gettext("{name} must be a flat (1-D) list of grades, one per ranked item; it has shape {shape}. Got "
                    "{got} instead.").format(name=name, shape=array.shape, got=shown(relevances))
        )
    bad = ~np.isfinite(array)
    if bad.any():
        position = int(np.argmax(bad)) + 1
        raise ValueError(
            gettext("{name} must be finite numbers; position {position} holds {value!r}. Got {got} instead.")
                   .format(name=name, position=position, value=array[position - 1], got=shown(relevances))
        )
    if (array < 0).any():
        if negative != "zero":
            position = int(np.argmax(array < 0)) + 1
            raise ValueError(
                gettext("{name} must be non-negative grades; position {position} holds {grade:g}. trec_eval "
                        "reads a negative grade as 'judged non-relevant' (gain 0): pass negative='zero' to do "
                        "the same. Got {got} instead.").format(name=name, position=position,
                                                               grade=array[position - 1], got=shown(relevances))
            )
        array = np.where(array < 0, 0.0, array)
    return check_finite_total(name, array, relevances)


def check_finite_total(name, values, given, what=GRADES):
    """``values`` (non-negative floats; 2-D: one query per row) when each row's sum is finite.

    CG is the sum of the grades, and DCG and IDCG are at most the sum of the
    gains: each stays finite when this sum does, so no total becomes inf or NaN.

    Examples
    --------
    >>> check_finite_total("relevances", np.array([1e308, 1e308]), [1e308, 1e308])
    Traceback (most recent call last):
    ...
    ValueError: relevances must have a finite sum of grades: theirs is beyond float64 (about 1.8e308). Got [1e+308, 1e+308] instead.
    """
    with np.errstate(over="ignore", invalid="ignore"):
        totals = values.sum(axis=-1)
    if not np.isfinite(totals).all():
        raise ValueError(
            gettext("{name} must have a finite sum of {what}: theirs is beyond float64 (about 1.8e308). Got "
                    "{got} instead.").format(name=name, what=gettext(what), got=shown(given))
        )
    return values


def check_k(k, allow_none=True, name="k", n=None):
    """Return the cut-off ``k`` as an int >= 1 (or None for the whole list); at most ``n`` when ``n`` is given.

    Examples
    --------
    >>> check_k(3)
    3
    >>> check_k(0)
    Traceback (most recent call last):
    ...
    ValueError: k must be a positive integer (the cut-off: how many top positions count), or None for the whole list. Got 0 instead.
    """
    if k is None and allow_none:
        return None
    if n is not None:
        requirement = mark("a whole number from 1 to {n} (the number of items), or None for all") if allow_none else \
            mark("a whole number from 1 to {n} (the number of items)")
    else:
        requirement = mark("a positive integer (the cut-off: how many top positions count), or None for the whole list") \
            if allow_none else mark("a positive integer (the cut-off: how many top positions count)")
    if isinstance(k, (bool, np.bool_)) or not isinstance(k, Integral):
        raise refused(TypeError, name, requirement, shown(k), n=n)
    if k < 1 or (n is not None and k > n):
        raise refused(ValueError, name, requirement, shown(k), n=n)
    return int(k)


def _is_number(value):
    return isinstance(value, Real) and not isinstance(value, (bool, np.bool_))


def _whole(value):
    """``value`` as an int when it is a whole number (3 or 3.0), else None."""
    if isinstance(value, (bool, np.bool_)):
        return None
    if isinstance(value, Integral):
        return int(value)
    if isinstance(value, Real) and np.isfinite(value) and float(value).is_integer():
        return int(value)
    return None


def check_threshold(threshold, max_grade=None):
    """Return the relevance threshold as a float > 0 (a whole number up to ``max_grade`` when that is given).

    A grade counts as relevant when it is ``>= threshold``; a grade of 0
    always means "not relevant", so the threshold must be positive. The
    explorer passes ``max_grade``: its grades are whole numbers.

    Examples
    --------
    >>> check_threshold(2)
    2.0
    >>> check_threshold(0)
    Traceback (most recent call last):
    ...
    ValueError: threshold must be a positive finite number: the smallest grade that counts as relevant (grade 0 never does). Got 0 instead.
    """
    if max_grade is not None:
        requirement = mark("a whole number from 1 to {max_grade}: the smallest grade that counts as relevant")
        if not _is_number(threshold):
            raise refused(TypeError, "threshold", requirement, shown(threshold), max_grade=max_grade)
        whole = _whole(threshold)
        if whole is None or not 1 <= whole <= max_grade:
            raise refused(ValueError, "threshold", requirement, shown(threshold), max_grade=max_grade)
        return float(whole)
    requirement = mark("a positive finite number: the smallest grade that counts as relevant (grade 0 never does)")
    if not _is_number(threshold):
        raise refused(TypeError, "threshold", requirement, shown(threshold))
    if not np.isfinite(threshold) or threshold <= 0:
        raise refused(ValueError, "threshold", requirement, shown(threshold))
    return float(threshold)


def check_n_relevant(n_relevant, found):
    """Return ``n_relevant`` (relevant items of the query) or ``found`` when it is None."""
    if n_relevant is None:
        return found
    requirement = mark("a non-negative integer: how many relevant items the query has in total")
    if isinstance(n_relevant, (bool, np.bool_)) or not isinstance(n_relevant, Integral):
        raise refused(TypeError, "n_relevant", requirement, shown(n_relevant))
    if n_relevant < 0:
        raise refused(ValueError, "n_relevant", requirement, shown(n_relevant))
    if n_relevant < found:
        raise refused(ValueError, "n_relevant", mark("at least the number of relevant items already in the list ({found})"),
                      shown(n_relevant), found=found)
    return int(n_relevant)


def check_judged_relevances(relevances, negative="raise", name="relevances"):
    """Return ``(grades, judged)``: None in ``relevances`` marks an unjudged item (grade 0, ``judged`` False).

    Examples
    --------
    >>> grades, judged = check_judged_relevances([2, None, 0])
    >>> grades, judged
    (array([2., 0., 0.]), array([ True, False,  True]))
    """
    if not _is_sequence(relevances) or (isinstance(relevances, np.ndarray) and relevances.dtype != object):
        # Refused as every other metric refuses it, or an array of numbers: nothing in it can be None.
        grades = check_relevances(relevances, negative, name)
        return grades, np.ones(grades.shape, dtype=bool)
    values = list(relevances)
    judged = np.array([value is not None for value in values], dtype=bool)
    grades = check_relevances([0 if value is None else value for value in values], negative, name)
    return grades, judged


def _is_sequence(values):
    """A list, tuple, array or pandas Series: ordered, sized, read by position (not a dict, set or generator)."""
    if isinstance(values, (str, bytes, Mapping, Set)) or values is None or np.isscalar(values):
        return False
    return hasattr(values, "__len__") and hasattr(values, "__getitem__")


def check_n_nonrelevant(n_nonrelevant, found):
    """Return ``n_nonrelevant`` (judged non-relevant items of the query) or ``found`` when it is None."""
    if n_nonrelevant is None:
        return found
    requirement = mark("a non-negative integer: how many judged non-relevant items the query has in total")
    if isinstance(n_nonrelevant, (bool, np.bool_)) or not isinstance(n_nonrelevant, Integral):
        raise refused(TypeError, "n_nonrelevant", requirement, shown(n_nonrelevant))
    if n_nonrelevant < found:
        raise refused(ValueError, "n_nonrelevant", mark("a non-negative integer: how many judged non-relevant items the "
                                                        "query has in total, at least the judged non-relevant items "
                                                        "already in the list ({found})"), shown(n_nonrelevant), found=found)
    return int(n_nonrelevant)


def check_open_unit(name, value, meaning):
    """Return ``value`` as a float strictly between 0 and 1 (a probability such as RBP's ``p``).

    Examples
    --------
    >>> check_open_unit("p", 1, "the chance the reader goes on to the next item")
    Traceback (most recent call last):
    ...
    ValueError: p must be a number strictly between 0 and 1: the chance the reader goes on to the next item. Got 1 instead.
    """
    requirement = mark("a number strictly between 0 and 1: {meaning}")
    if not _is_number(value):
        raise refused(TypeError, name, requirement, shown(value), meaning=gettext(meaning))
    if not 0 < value < 1:
        raise refused(ValueError, name, requirement, shown(value), meaning=gettext(meaning))
    return float(value)


def check_positive(name, value, meaning):
    """Return ``value`` as a finite float > 0 (F's ``beta``)."""
    requirement = mark("a positive finite number: {meaning}")
    if not _is_number(value):
        raise refused(TypeError, name, requirement, shown(value), meaning=gettext(meaning))
    if not np.isfinite(value) or value <= 0:
        raise refused(ValueError, name, requirement, shown(value), meaning=gettext(meaning))
    return float(value)


def check_grade_ceiling(max_grade, grades):
    """Return ERR's ``max_grade``: the given number, at least every grade, or the largest grade when it is None.

    Examples
    --------
    >>> check_grade_ceiling(None, np.array([1.0, 3.0]))
    3.0
    >>> check_grade_ceiling(2, np.array([1.0, 3.0]))
    Traceback (most recent call last):
    ...
    ValueError: max_grade must be a finite number at least the largest grade in relevances (3): the top of the grading scale. Got 2 instead.
    """
    top = float(grades.max()) if grades.size else 0.0
    if max_grade is None:
        return top
    requirement = mark("a finite number at least the largest grade in relevances ({top:g}): the top of the grading scale")
    if not _is_number(max_grade):
        raise refused(TypeError, "max_grade", mark("a finite number at least the largest grade in relevances ({top:g}): "
                                                   "the top of the grading scale, or None"), shown(max_grade), top=top)
    if not np.isfinite(max_grade) or max_grade < top or max_grade < 0:
        raise refused(ValueError, "max_grade", requirement, shown(max_grade), top=top)
    return float(max_grade)


def check_paired_scores(a, b):
    """Return two systems' per-query scores as float64 arrays of the same length (at least 2 queries)."""
    first = _as_float_array("a", a, mark("per-query scores"))
    second = _as_float_array("b", b, mark("per-query scores"))
    for name, array, given in (("a", first, a), ("b", second, b)):
        if array.ndim != 1:
            raise ValueError(gettext("{name} must be a flat list of per-query scores. Got {got} instead.")
                                    .format(name=name, got=shown(given)))
        if not np.isfinite(array).all():
            raise ValueError(gettext("{name} must hold finite scores (no NaN or infinity). Got {got} instead.")
                                    .format(name=name, got=shown(given)))
    if first.size != second.size:
        raise ValueError(
            gettext("a and b must hold one score per query each, for the same queries in the same order. Got "
                    "{size} and {size2} scores instead.").format(size=first.size, size2=second.size)
        )
    if first.size < 2:
        raise ValueError(gettext("a and b must hold scores for at least 2 queries. Got {size} instead.")
                                .format(size=first.size))
    return first, second


def check_count(name, value, meaning):
    """Return ``value`` as an int >= 1 (the number of resamples)."""
    requirement = mark("a positive integer: {meaning}")
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, Integral):
        raise refused(TypeError, name, requirement, shown(value), meaning=gettext(meaning))
    if value < 1:
        raise refused(ValueError, name, requirement, shown(value), meaning=gettext(meaning))
    return int(value)


def check_seed(seed):
    """Return ``seed`` (a non-negative int, or None for fresh randomness each call)."""
    requirement = mark("a non-negative integer (the same seed gives the same resamples), or None")
    if seed is None:
        return None
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, Integral):
        raise refused(TypeError, "seed", requirement, shown(seed))
    if seed < 0:
        raise refused(ValueError, "seed", requirement, shown(seed))
    return int(seed)


def check_pool(pool, relevances, negative="raise"):
    """Return the pool of judged grades, checked to contain the listed grades.

    The pool holds the grade of every judged item of the query, retrieved or
    not, so each positive grade in ``relevances`` must appear in it (as many
    times as in the list). Zeros may be unjudged items and need not appear.
    """
    grades = check_relevances(pool, negative=negative, name="pool")
    have = Counter(grades[grades > 0].tolist())
    need = Counter(relevances[relevances > 0].tolist())
    for grade, count in sorted(need.items(), reverse=True):
        if have[grade] < count:
            raise ValueError(
                gettext("pool must hold the grades of every judged item of the query, so it must contain each "
                        "positive grade of relevances; grade {grade:g} appears {count} time(s) in relevances but "
                        "{in_pool} in pool. Got pool={got} instead.").format(grade=grade, count=count,
                                                                               in_pool=have[grade], got=shown(pool))
            )
    return grades


def check_pooled(pooled, n):
    """Return ``pooled`` (which ranked items were in the judgement pool) as a bool array of ``n`` flags.

    Examples
    --------
    >>> check_pooled([True, False], 2)
    array([ True, False])
    """
    requirement = gettext("one True or False per ranked item ({n}): whether it was in the judgement pool").format(n=n)
    if not _is_sequence(pooled):
        raise TypeError(gettext("pooled must hold {requirement}. Got {got} instead.")
                               .format(requirement=requirement, got=shown(pooled)))
    values = list(pooled)
    if len(values) != n or not all(isinstance(value, (bool, np.bool_)) for value in values):
        raise ValueError(gettext("pooled must hold {requirement}. Got {got} instead.")
                                .format(requirement=requirement, got=shown(pooled)))
    return np.array(values, dtype=bool)


def check_zero_idcg(zero_idcg):
    """Return what NDCG should be when IDCG is 0: a number from 0 to 1, NaN (for ``"nan"``), or the string "raise".

    NaN must be asked for by name: a ``float('nan')`` that reached here is
    more often an accident upstream than a choice.

    Examples
    --------
    >>> check_zero_idcg(1), check_zero_idcg("nan")
    (1.0, nan)
    >>> check_zero_idcg(5)
    Traceback (most recent call last):
    ...
    ValueError: zero_idcg must be the NDCG of a query whose IDCG is 0: a number from 0 to 1 (0.0 as in scikit-learn and trec_eval, 1.0 as in LightGBM), 'nan' to mark such queries (as recommenders does), or 'raise'. Got 5 instead.
    """
    if isinstance(zero_idcg, str) and zero_idcg in ("raise", "nan"):
        return zero_idcg if zero_idcg == "raise" else float("nan")
    requirement = mark("the NDCG of a query whose IDCG is 0: a number from 0 to 1 (0.0 as in scikit-learn and "
                       "trec_eval, 1.0 as in LightGBM), 'nan' to mark such queries (as recommenders does), or 'raise'")
    if isinstance(zero_idcg, (bool, np.bool_)) or not isinstance(zero_idcg, (Real, str)):
        raise refused(TypeError, "zero_idcg", requirement, shown(zero_idcg))
    if isinstance(zero_idcg, str) or not 0 <= zero_idcg <= 1:  # NaN fails the comparison too
        raise refused(ValueError, "zero_idcg", requirement, shown(zero_idcg))
    return float(zero_idcg)


def check_items(ranking, n):
    """Return ids for ``n`` ranked items: the given ``ranking``, or "#1", "#2", ... (each item's position)."""
    if ranking is None:
        return tuple(f"#{i}" for i in range(1, n + 1))
    if isinstance(ranking, (str, bytes)) or not hasattr(ranking, "__iter__"):
        raise TypeError(gettext("ranking must be a list of {n} item ids, one per ranked item. Got {got} instead.")
                               .format(n=n, got=shown(ranking)))
    labels = tuple(str(item) for item in ranking)
    if len(labels) != n:
        raise ValueError(gettext("ranking must hold one item id per grade ({n}). Got {n_labels} ids: {got} "
                                 "instead.").format(n=n, n_labels=len(labels), got=shown(ranking)))
    return labels


def check_score_arrays(y_true, y_score):
    """Return ``(y_true, y_score)`` as 2-D float64 arrays, one row per query.

    A 1-D pair is read as a single query (scikit-learn refuses that shape).
    """
    true = _as_float_array("y_true", y_true, mark("relevance grades"))
    score = _as_float_array("y_score", y_score, mark("scores"))
    if true.shape != score.shape:
        raise ValueError(gettext("y_true and y_score must have the same shape (one score per judged item). Got shapes "
                                 "{shape} and {shape2} instead.").format(shape=true.shape, shape2=score.shape))
    if true.ndim == 1:
        true, score = true[np.newaxis, :], score[np.newaxis, :]
    if true.ndim != 2:
        raise ValueError(gettext("y_true must be 1-D (one query) or 2-D (one row per query). Got shape {shape} "
                                 "instead.").format(shape=true.shape))
    if true.shape[1] == 0 or true.shape[0] == 0:
        raise ValueError(gettext("y_true must hold at least one item per query. Got shape {shape} instead.")
                                .format(shape=true.shape))
    for name, array in (("y_true", true), ("y_score", score)):
        # min and max are NaN when any value is, and infinite when any value is: two passes, no temporary array
        if not (np.isfinite(array.min()) and np.isfinite(array.max())):
            raise ValueError(gettext("{name} must be finite numbers. Got {got} instead.")
                                    .format(name=name, got=shown(y_true if name == 'y_true' else y_score)))
    if true.min() < 0:
        raise ValueError(gettext("y_true must be non-negative grades (as in scikit-learn's ndcg_score). Got "
                                 "{got} instead.").format(got=shown(y_true)))
    return true, score
