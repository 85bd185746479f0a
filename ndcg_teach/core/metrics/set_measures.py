"""R-precision, F-measure and success@k: three scores of the set of the top items.

R-precision is P@R with R the query's number of relevant items (the rank
where precision equals recall); the F-measure is the weighted harmonic mean
of P@k and R@k; success@k (trec_eval), called HitRate@k by recommender
libraries, is 1 when any relevant item is in the top k. Lesson 10 teaches
R-precision and F; lesson 14 teaches success@k.
"""

import numpy as np

from ..binary import checked_binary, hit_arrays, relevant_flags
from ..formulas import at, number, threshold_note
from ...i18n import _, mark
from ..registry import Metric, Param, register_metric
from ..trace import GRADE, HITS, ITEM, POSITION, PRECISION, RECALL, RELEVANT, RUNNING, Row, Trace
from ..validation import check_items, check_n_relevant, check_positive

__all__ = [
    "r_precision", "explain_r_precision", "f_measure", "explain_f_measure", "success_at_k", "explain_success_at_k",
]

BINARY_COLUMNS = (POSITION, ITEM, GRADE, RELEVANT, HITS, PRECISION)
R_PRECISION_COLUMNS = (*BINARY_COLUMNS, RUNNING)
F_COLUMNS = (*BINARY_COLUMNS, RECALL)
BETA_PARAM = Param(float, (), 1.0, "how many times more recall matters than precision (1 weighs them equally)")


def _listed(grades, k):
    """The ranked list after the cut-off: a system that returned only the top ``k``."""
    return grades if k is None else grades[:k]


def _found(hits):
    """Relevant items in the positions counted (0 for an empty list)."""
    return int(hits[-1]) if hits.size else 0


def _rows(columns, grades, labels, relevant, hits, precision, more=None):
    """Rows of a binary trace holding ``columns``, the last one from ``more`` when given (recall, running);
    positions past the end of the list (no item) have no grade."""
    rows = []
    for index in range(hits.size):
        listed = index < grades.size
        values = [index + 1, labels[index] if listed else None, float(grades[index]) if listed else None,
                  bool(relevant[index]), int(hits[index]), float(precision[index])]
        if more is not None:
            values.append(float(more[index]))
        rows.append(Row(**dict(zip((column.key for column in columns), values))))
    return tuple(rows)


# R-precision


def r_precision_steps(grades, k, threshold, n_relevant):
    """``(R, relevant, hits, precision, running)`` over the top R positions of the (cut) list, missing ones as misses.

    With R = 0 the rows cover the whole list instead, all misses: there is nothing to find.
    """
    total = check_n_relevant(n_relevant, int(relevant_flags(grades, threshold).sum()))
    listed = _listed(grades, k)
    depth = total if total else listed.size
    relevant = np.zeros(depth, dtype=bool)
    found = relevant_flags(listed[:depth], threshold)
    relevant[:found.size] = found
    hits = np.cumsum(relevant, dtype=np.int64)
    precision = hits / np.arange(1, depth + 1, dtype=np.float64)
    return total, relevant, hits, precision, hits / total if total else np.zeros(depth)


def r_precision(relevances, k=None, *, n_relevant=None, threshold=1, negative="raise"):
    """R-precision: precision at rank R, where R is the number of relevant items of the query.

    At rank R precision equals recall, so R-precision is also the recall
    reached after R items. A list shorter than R counts its missing positions
    as misses (trec_eval ``Rprec``).

    Parameters
    ----------
    relevances : sequence of float
        Grades of the ranked items, position 1 first. An empty list scores 0.
    k : int or None, default None
        Cut the list to its top ``k`` first, as if the system had returned
        only ``k`` items (R itself does not change). None, the usual
        R-precision, keeps the whole list. The registry's callers pass a
        cut-off to every metric, so R-precision takes one too.
    n_relevant : int or None, default None
        R: relevant items of the query in total, retrieved or not (what
        trec_eval uses). None counts the relevant items in ``relevances``.
        A query with no relevant item scores 0.0.
    threshold : float, default 1
        Smallest grade that counts as relevant.
    negative : {"raise", "zero"}, default "raise"
        "zero" reads negative grades as 0, as trec_eval does.

    Returns
    -------
    float

    See Also
    --------
    explain_r_precision. Lesson 10 teaches R-precision.

    Examples
    --------
    >>> r_precision([1, 0, 1, 1, 0])  # R = 3: the top 3 hold 2 relevant items, 2 / 3
    0.6666666666666666
    >>> r_precision([1, 0, 1, 1, 0], n_relevant=5)  # R = 5: 3 relevant in the top 5, 3 / 5
    0.6
    """
    grades, k, threshold = checked_binary(relevances, k, threshold, negative)
    steps = r_precision_steps(grades, k, threshold, n_relevant)
    total, hits = steps[0], steps[2]
    return float(hits[-1] / total) if total else 0.0


def explain_r_precision(relevances, k=None, *, n_relevant=None, threshold=1, negative="raise", ranking=None):
    """R-precision with every step: the top R positions and the hits among them.

    ``ranking`` names the ranked items (default ``#1, #2, ...``); other
    parameters as in :func:`r_precision`.

    Examples
    --------
    >>> print(explain_r_precision([1, 0, 1, 1, 0]).formula)
    R-Prec = (relevant in the top R = 3) / R = 2 / 3 = 0.6667
    """
    grades, k, threshold = checked_binary(relevances, k, threshold, negative)
    labels = check_items(ranking, grades.size)
    total, relevant, hits, precision, running = r_precision_steps(grades, k, threshold, n_relevant)
    value = float(hits[-1] / total) if total else 0.0
    name = at("R-Prec", k)
    listed = _listed(grades, k)
    notes = [threshold_note(threshold), "R = n_relevant" if n_relevant is not None
             else _("R counted in the list (pass n_relevant for the query's true total)")]
    if total == 0:
        formula = _("{name} = 0 (the query has no relevant item, R = 0)").format(name=name)
        latex = rf"\mathrm{{{name}}} = 0"
    else:
        formula = _("{name} = (relevant in the top R = {total}) / R = {hits} / {total} = {value}").format(
            name=name, total=total, hits=int(hits[-1]), value=number(value))
        latex = rf"\mathrm{{{name}}} = \frac{{{int(hits[-1])}}}{{{total}}} = {number(value)}"
        if total > listed.size:
            notes.append(_("the list has {n} items; positions {first}-{total} count as misses").format(
                n=listed.size, first=listed.size + 1, total=total))
    return Trace(name, value, _rows(R_PRECISION_COLUMNS, listed, labels, relevant, hits, precision, running), formula,
                 latex, R_PRECISION_COLUMNS, tuple(notes))


# F-measure


def f_measure_steps(grades, k, beta, threshold, n_relevant):
    """``(P, R, F, relevant, hits, precision, recall)``: P@k and R@k as trec_eval computes them, and F_beta."""
    beta = check_positive("beta", beta, mark("how many times more recall matters than precision (1 weighs them equally)"))
    total = check_n_relevant(n_relevant, int(relevant_flags(grades, threshold).sum()))
    relevant, hits, precision = hit_arrays(grades, k, threshold)
    found = _found(hits)
    depth = grades.size if k is None else k
    p = found / depth if depth else 0.0
    r = found / total if total else 0.0
    f = (1 + beta**2) * p * r / (beta**2 * p + r) if found else 0.0
    recall = hits / total if total else np.zeros(hits.size)
    return p, r, f, relevant, hits, precision, recall


def f_measure(relevances, k=None, *, beta=1.0, n_relevant=None, threshold=1, negative="raise"):
    """F-measure: the weighted harmonic mean of precision and recall of the top ``k``.

    ``F_beta = (1 + beta^2) P R / (beta^2 P + R)`` with ``P = P@k`` and
    ``R = R@k``; 0 when nothing relevant is in the top ``k``. ``beta = 1``
    gives F1 = 2PR / (P + R). trec_eval's ``set_F`` is F over the whole
    retrieved list (``k=None``); its parameter is ``beta**2`` (``set_F.0.25``
    is ``beta=0.5``).

    Parameters
    ----------
    relevances : sequence of float
        Grades of the ranked items, position 1 first. An empty list scores 0.
    k : int or None, default None
        Cut-off; None uses the whole list. P@k divides by ``k`` even when the
        list is shorter (trec_eval, ranx).
    beta : float, default 1.0
        How many times more recall matters than precision (van Rijsbergen).
    n_relevant : int or None, default None
        Relevant items of the query in total, for recall; None counts them in
        ``relevances``.
    threshold : float, default 1
        Smallest grade that counts as relevant.
    negative : {"raise", "zero"}, default "raise"
        "zero" reads negative grades as 0, as trec_eval does.

    Returns
    -------
    float

    See Also
    --------
    explain_f_measure, precision_at_k, recall_at_k. Lesson 10 teaches F.

    Examples
    --------
    >>> f_measure([1, 0, 1, 0], k=2, n_relevant=4)  # P = 1/2, R = 1/4: 2 * 1/8 / (3/4) = 1/3
    0.3333333333333333
    >>> round(f_measure([1, 0, 1, 0], k=2, n_relevant=4, beta=2), 4)  # recall weighs more: 5 * 1/8 / (2 + 1/4)
    0.2778
    """
    grades, k, threshold = checked_binary(relevances, k, threshold, negative)
    return f_measure_steps(grades, k, beta, threshold, n_relevant)[2]


def explain_f_measure(relevances, k=None, *, beta=1.0, n_relevant=None, threshold=1, negative="raise", ranking=None):
    """F-measure with every step: P@i and R@i at each position, then F from P@k and R@k.

    ``ranking`` names the ranked items (default ``#1, #2, ...``); other
    parameters as in :func:`f_measure`.

    Examples
    --------
    >>> print(explain_f_measure([1, 0, 1, 0], k=2, n_relevant=4).formula)
    F1@2 = (1 + 1^2) * P * R / (1^2 * P + R) = 2 * 0.5000 * 0.2500 / (1 * 0.5000 + 0.2500) = 0.3333
    """
    grades, k, threshold = checked_binary(relevances, k, threshold, negative)
    labels = check_items(ranking, grades.size)
    p, r, f, relevant, hits, precision, recall = f_measure_steps(grades, k, beta, threshold, n_relevant)
    b = float(beta)
    name = at("F1" if b == 1 else f"F{b:g}", k)
    if f == 0.0:
        formula = (_("{name} = 0 (no relevant item: P = R = 0)") if k is None
                   else _("{name} = 0 (no relevant item in the top {k}: P = R = 0)")).format(name=name, k=k)
        latex = rf"\mathrm{{{name}}} = 0"
    else:
        formula = (f"{name} = (1 + {b:g}^2) * P * R / ({b:g}^2 * P + R) = {1 + b**2:g} * {number(p)} * {number(r)} / "
                   f"({b**2:g} * {number(p)} + {number(r)}) = {number(f)}")
        latex = (rf"\mathrm{{{name}}} = \frac{{(1 + {b:g}^2) \cdot {number(p)} \cdot {number(r)}}}"
                 rf"{{{b:g}^2 \cdot {number(p)} + {number(r)}}} = {number(f)}")
    depth = grades.size if k is None else k
    notes = (threshold_note(threshold), _("P = {p} (hits / {depth}), R = {r} (hits / relevant in total)").format(
        p=number(p), depth=depth, r=number(r)))
    return Trace(name, f, _rows(F_COLUMNS, grades, labels, relevant, hits, precision, recall), formula, latex,
                 F_COLUMNS, notes)


# success@k


def success_steps(grades, k, threshold):
    """``(value, relevant, hits, precision)``: 1 once a relevant item is in the top ``k``."""
    relevant, hits, precision = hit_arrays(grades, k, threshold)
    return (1.0 if _found(hits) else 0.0), relevant, hits, precision


def success_at_k(relevances, k=None, *, threshold=1, negative="raise"):
    """Success@k (trec_eval), HitRate@k (recommender libraries): 1 if any relevant item is in the top ``k``, else 0.

    Averaged over queries (:func:`~ndcg_teach.core.mean`), it is the share of
    queries (or users) for which the top ``k`` found something.

    Parameters
    ----------
    relevances : sequence of float
        Grades of the ranked items, position 1 first. An empty list scores 0.
    k : int or None, default None
        Cut-off; None uses the whole list.
    threshold : float, default 1
        Smallest grade that counts as relevant.
    negative : {"raise", "zero"}, default "raise"
        "zero" reads negative grades as 0, as trec_eval does.

    Returns
    -------
    float
        1.0 or 0.0.

    See Also
    --------
    explain_success_at_k, reciprocal_rank. Lesson 14 teaches HitRate@k.

    Examples
    --------
    >>> success_at_k([0, 0, 2, 0], k=3)  # a relevant item at position 3
    1.0
    >>> success_at_k([0, 0, 2, 0], k=2)
    0.0
    """
    grades, k, threshold = checked_binary(relevances, k, threshold, negative)
    return success_steps(grades, k, threshold)[0]


def explain_success_at_k(relevances, k=None, *, threshold=1, negative="raise", ranking=None):
    """Success@k with every step: whether a relevant item appears in the top ``k``.

    ``ranking`` names the ranked items (default ``#1, #2, ...``); other
    parameters as in :func:`success_at_k`.

    Examples
    --------
    >>> print(explain_success_at_k([0, 0, 2, 0], k=3).formula)
    Success@3 = 1 (first relevant item at position 3)
    """
    grades, k, threshold = checked_binary(relevances, k, threshold, negative)
    labels = check_items(ranking, grades.size)
    value, relevant, hits, precision = success_steps(grades, k, threshold)
    name = at("Success", k)
    if value:
        first = int(np.flatnonzero(relevant)[0]) + 1
        formula = _("{name} = 1 (first relevant item at position {first})").format(name=name, first=first)
    else:
        formula = (_("{name} = 0 (no relevant item in the list)") if k is None
                   else _("{name} = 0 (no relevant item in the top {k})")).format(name=name, k=k)
    latex = rf"\mathrm{{{name}}} = {value:g}"
    return Trace(name, value, _rows(BINARY_COLUMNS, grades, labels, relevant, hits, precision), formula, latex,
                 BINARY_COLUMNS, (threshold_note(threshold),))


register_metric(Metric(
    "r_precision", "R-Prec@{k}", "binary", r_precision, explain_r_precision,
    mark("precision at rank R, R = relevant items of the query (where P = R)"), "10-precision-recall-curves", order=62,
    names={"Rprec": {}}, needs=("threshold", "n_relevant"), params={}, columns=R_PRECISION_COLUMNS))
register_metric(Metric(
    "f_measure", "F@{k}", "binary", f_measure, explain_f_measure,
    mark("harmonic mean of P@k and R@k (beta weighs recall)"), "10-precision-recall-curves", order=64,
    names={"set_F": {}, "SetF": {}}, needs=("threshold", "n_relevant"), params={"beta": BETA_PARAM}, columns=F_COLUMNS))
register_metric(Metric(
    "success", "Success@{k}", "binary", success_at_k, explain_success_at_k,
    mark("1 if any relevant item is in the top k (HitRate@k)"), "14-recommender-evaluation", order=85,
    names={"success.{k}": {}, "Success@{k}": {}}, needs=("threshold",), params={}, columns=BINARY_COLUMNS))
