"""What each peer library computes, written as the ndcg_teach query and conventions that reproduce it.

A learner's first real question is "why does library X give a different
number?". Each :class:`Convention` below records, for one function of one
library, the choices that decide its value (gain, discount, whether the ideal
and the relevant count come from the list or from every judged item, the value
when nothing is relevant, ties, negative grades, the P@k and AP denominators)
and the source file each fact was read from. :func:`compare` scores one
ranking under every convention at once, so lesson 08 can show the disagreement
without any of those libraries installed; :func:`facts` shows the table itself.

The scikit-learn and trec_eval rows are checked against the real libraries in
``tests/test_conventions.py``; the others against hand-computed cases built
from the formulas in their source. The conventions are data, one row per
library function in ``peers.json``, which :mod:`.peers` reads and checks;
:mod:`.convention` turns each into a query and settings for
:func:`~ndcg_teach.core.registry.call`.
"""

import warnings

from ..context import Query
from ...i18n import _, gettext, mark
from ..registry import explain, metrics
from ..subtopics import checked_tables
from ..table import Table
from ..validation import check_k, check_pool, check_relevances, shown
from .convention import THRESHOLD, Convention, binary_gain, is_table, reads_subtopics
from .peers import CONVENTIONS, CONVENTIONS_BY_NAME

__all__ = ["CONVENTIONS", "CONVENTIONS_BY_NAME", "THRESHOLD", "Convention", "Table", "binary_gain", "compare", "facts"]


def _metric_key(name):
    """A registry key from ``name``; the names of the first release ("NDCG", "P@k", ...) still work, with a warning."""
    keys = [spec.key for spec in metrics()]
    if name in keys:
        return name
    old = {spec.label.replace("{k}", "k"): spec.key for spec in metrics()}
    old.update({spec.title(None): spec.key for spec in metrics()})
    if isinstance(name, str) and name in old:
        warnings.warn(f"metric={name!r} is now spelled metric={old[name]!r} (the registry key); the old name will stop "
                      "working in the next release.", DeprecationWarning, stacklevel=4)
        return old[name]
    error = ValueError if isinstance(name, str) else TypeError
    raise error(gettext("metric must be a registry key, one of {names}, or None. Got {got} instead.")
                       .format(names=', '.join(map(repr, keys)), got=shown(name)))


def _pick(metric, given=None):
    """The conventions of ``metric`` (all when None) that can read ``given``: a list of grades feeds the metrics of
    one grade per item, a table of grades per subtopic those of subtopics, a Query with subtopics both."""
    chosen = CONVENTIONS if metric is None else tuple(c for c in CONVENTIONS if c.metric == _metric_key(metric))
    if given is None or (isinstance(given, Query) and given.subtopics is not None):
        return chosen
    table = not isinstance(given, Query) and is_table(given)
    readers = tuple(c for c in chosen if reads_subtopics(c.spec) == table)
    if chosen and not readers:
        needed = (mark("a list of grades, one per ranked item") if table else
                  mark("a table of grades per subtopic (one row per ranked item, one column per subtopic)"))
        raise ValueError(gettext("metric {metric!r} reads {needed}, or a Query. Got relevances={given!r} instead.")
                         .format(metric=metric, needed=gettext(needed), given=given))
    return readers


def _checked(relevances, pool, k):
    """Check what :func:`compare` is given (a list and its pool, a table and its subtopic pool, or a Query) and
    write it for the table's caption."""
    check_k(k)
    if isinstance(relevances, Query):
        if pool is not None:
            raise TypeError(gettext("pool must be None when relevances is a Query (the Query holds its pool). Got "
                                    "pool={pool!r} instead.").format(pool=pool))
        return _("query {query}").format(query=repr(relevances))
    if is_table(relevances):
        checked_tables(relevances, pool, "zero")
        return _("subtopic judgements {judgements}").format(judgements=[list(row) for row in relevances]) + (
            _(", subtopic pool {pool}").format(pool=[list(row) for row in pool]) if pool is not None else "")
    grades = check_relevances(relevances, negative="zero")
    if pool is not None:
        check_pool(pool, grades, negative="zero")
    return _("relevances {relevances}").format(relevances=list(relevances)) + (
        _(", pool {pool}").format(pool=list(pool)) if pool is not None else "")


def compare(relevances, k=None, *, pool=None, metric=None):
    """The value every peer library's convention gives for one ranking.

    Parameters
    ----------
    relevances : sequence of float, table of float or Query
        Grades of the ranked items, position 1 first; for α-nDCG and ERR-IA
        a table of grades per subtopic (one row per ranked item, one column
        per subtopic); or the ranking's :class:`~ndcg_teach.core.context.Query`
        (``Query.of_subtopics`` holds a table, its pool and each item's
        largest grade, so every convention can read it).
    pool : sequence of float, table of float or None, default None
        Grades of every judged item of the query, retrieved or not (rows of
        grades per subtopic with a table); None means the list holds every
        judged item. Conventions that build the ideal (or count the relevant
        items) from the list ignore it.
    k : int or None, default None
        Cut-off; None uses the whole list (and the list's length as P@k's and
        R@k's k).
    metric : str or None, default None
        Keep only the conventions of one metric.

    Returns
    -------
    Table
        One row per convention that reads this kind of input: the library
        function, the metric, the value (empty when the library refuses the
        input), the ndcg_teach call that gives it, and why a value is missing.
        ``table[name]`` returns a value.

    See Also
    --------
    facts : the conventions themselves. Lesson 08 asks why libraries disagree.

    Examples
    --------
    A grade-3 item was judged but never retrieved:

    >>> table = compare([3, 0, 2], pool=[3, 0, 2, 3], k=3, metric="ndcg")
    >>> round(table["scikit-learn ndcg_score"], 4)  # (3 + 2/2) / (3 + 2/log2(3)): ideal [3, 2, 0] from the list
    0.9386
    >>> round(table["trec_eval ndcg_cut"], 4)  # (3 + 2/2) / (3 + 3/log2(3) + 2/2): ideal [3, 3, 2] from every judged item
    0.6788
    >>> round(table["LightGBM ndcg"], 4)  # (7 + 3/2) / (7 + 3/log2(3)): exponential gain, ideal from the list
    0.9558
    >>> print(table.rows[1][3])  # how to get trec_eval's number from ndcg_teach
    ndcg(relevances, k=3, pool=pool, negative='zero')

    Two subtopics; the list repeats the first, and a judged item it missed covers both:

    >>> table = compare([[1, 0], [1, 0]], k=2, pool=[[1, 0], [1, 0], [1, 1]], metric="err_ia")
    >>> round(table["ndeval ERR-IA"], 4), round(table["ndeval nERR-IA"], 4)
    (0.5, 0.5556)
    """
    caption = _checked(relevances, pool, k) + (_(", k = {k}").format(k=k) if k is not None else "")
    rows = []
    for convention in _pick(metric, relevances):
        given = convention.given(relevances, pool)
        refusal = convention.refuses(*given, k=k)
        value = None if refusal else convention.value(*given, k)
        label = convention.spec.title(k)
        if not refusal and convention.spec.explain is not None:
            # The trace names what was computed: P over a whole 3-item list is P@3, NDCG without a cut-off is NDCG.
            label = explain(convention.spec, convention.query(*given, k), convention.cut(k),
                            **convention.settings()).metric
        rows.append((convention.name, label, value, convention.call(*given, k),
                     convention.refuses(*given, language=None, k=k)))
    headers = ("convention", "metric", "value", "ndcg_teach call", "refused because")
    shown_headers = (_("convention"), _("metric"), _("value"), _("ndcg_teach call"), _("refused because"))
    return Table(caption, headers, tuple(rows), shown_headers=shown_headers)


def facts(metric=None):
    """The conventions as a table: one row per library function, with its source.

    Parameters
    ----------
    metric : str or None, default None
        Keep only the conventions of one metric.

    Returns
    -------
    Table

    See Also
    --------
    compare : the value each convention gives for one ranking. Lesson 08.

    Examples
    --------
    >>> table = facts("ap")
    >>> [row[0] for row in table.rows]
    ['trec_eval map / map_cut', 'ranx average_precision', 'recommenders map_at_k', 'torchmetrics RetrievalMAP', 'Evidently MAPKMetric']
    >>> table["recommenders map_at_k"][table.headers.index("AP denominator")]
    'min(R, k)'
    """
    headers = ("convention", "metric", "gain", "log base", "ideal / R from", "IDCG = 0", "ties", "negative grades",
               "P@k short list", "AP denominator", "other conventions", "source")
    shown_headers = (_("convention"), _("metric"), _("gain"), _("log base"), _("ideal / R from"), _("IDCG = 0"), _("ties"),
                     _("negative grades"), _("P@k short list"), _("AP denominator"), _("other conventions"), _("source"))
    rows = []
    for c in _pick(metric):
        short = None if c.adaptive_k is None else (_("divide by list length") if c.adaptive_k else _("divide by k"))
        from_pool = {"pool", "n_relevant", "subtopic_pool"} & set(c.spec.needs)
        judged = (_("every judged item") if c.uses_pool else _("the list")) if from_pool else None
        others = ", ".join(f"{name}={value!r}" for name, value in (c.params or {}).items()) or None
        rows.append((c.name, c.spec.label.replace("{k}", "k"), c.gain, c.log_base if "log_base" in c.spec.params else None, judged,
                     None if c.zero_idcg is None else str(c.zero_idcg), c.ties, c.negative, short, c.denominator, others,
                     c.source))
    return Table(_("What each library computes, in ndcg_teach's terms"), headers, tuple(rows), shown_headers=shown_headers)
