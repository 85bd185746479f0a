"""Do two judges (or many) agree beyond chance? Cohen's and Fleiss' κ. Lesson 15.

Raw agreement flatters: two judges who call 90% of documents "not relevant"
agree on 82% of them by chance alone. κ measures agreement above that
chance level, as a share of the most that was possible above it:

    κ = (p_o - p_e) / (1 - p_e)

where ``p_o`` is the observed agreement and ``p_e`` the agreement expected
from each judge's label shares. 1 is perfect agreement, 0 what chance gives,
below 0 worse than chance. :func:`cohen_kappa` compares two judges (with
optional weights that give partial credit to near misses between grades),
:func:`fleiss_kappa` any number of judges per item (Fleiss 1971).
Landis & Koch's (1977) words for the ranges are a convention, not a law.
"""

from dataclasses import dataclass

import numpy as np

from ..core.checks import check_label_list, check_number_array
from ..core.explained import Explained, number
from ..i18n import _, gettext, mark
from ..core.table import Table
from ..core.validation import check_choice, shown

__all__ = ["cohen_kappa", "fleiss_kappa", "CohenKappa", "FleissKappa"]

WEIGHTS = (None, "linear", "quadratic")
MAX_ROWS = 20  # item rows Fleiss' table shows; the formula always uses every item
# Landis & Koch (1977): the upper end of each range and its name.
_STRENGTH = ((0.0, mark("poor")), (0.2, mark("slight")), (0.4, mark("fair")), (0.6, mark("moderate")),
             (0.8, mark("substantial")), (1.0, mark("almost perfect")))


def strength(kappa):
    """Landis & Koch's (1977) word for a κ value (English; shown translated).

    Examples
    --------
    >>> strength(0.6), strength(0.61), strength(-0.1)
    ('moderate', 'substantial', 'poor')
    """
    for upper, word in _STRENGTH:
        if kappa <= upper + 1e-12:
            return word
    return _STRENGTH[-1][1]


def _categories(labels, seen, name):
    """The categories in table order: ``labels`` as given (each seen label among them), else the seen ones sorted."""
    if labels is None:
        try:
            return sorted(set(seen))
        except TypeError:
            return list(dict.fromkeys(seen))  # labels of mixed types: first-seen order
    categories = check_label_list("labels", labels, mark("every category, in order"))
    if len(set(categories)) != len(categories):
        raise ValueError(gettext("labels must name each category once. Got {got} instead.").format(got=shown(labels)))
    unknown = [label for label in dict.fromkeys(seen) if label not in categories]
    if unknown:
        raise ValueError(gettext("labels must include every label used in {name}; {unknown} are missing. Got "
                                 "labels={got} instead.").format(name=name, unknown=shown(unknown), got=shown(labels)))
    return categories


def _strength_note(value, language):
    return _("Landis & Koch (1977) call this agreement {word}.", language).format(word=_(strength(value), language))


@dataclass(frozen=True, repr=False)
class CohenKappa(Explained):
    """Cohen's κ of two judges, with the agreement table it came from (returned by :func:`cohen_kappa`). Lesson 15.

    Attributes
    ----------
    value : float
        κ.
    observed, expected : float
        Unweighted: the agreement observed (``p_o``) and expected by chance
        (``p_e``). Weighted: the disagreement observed and expected, each a
        mean weight per item, and ``κ = 1 - observed / expected``.
    weights : str or None
        None, "linear" or "quadratic".
    categories : tuple
        The labels in table order.
    counts : tuple of tuple of int
        ``counts[i][j]``: items judge A labels ``categories[i]`` and judge B ``categories[j]``.
    """

    value: float
    observed: float
    expected: float
    weights: str
    categories: tuple
    counts: tuple

    @property
    def strength(self):
        """Landis & Koch's (1977) word for κ: poor, slight, fair, moderate, substantial or almost perfect."""
        return strength(self.value)

    def _parts(self):
        language = self.language
        counts = np.array(self.counts)
        n = int(counts.sum())
        rows, columns = counts.sum(axis=1), counts.sum(axis=0)
        names = [str(label) for label in self.categories]
        corner = _("judge A \\ judge B", language)
        body = tuple((name, *map(int, row), int(total)) for name, row, total in zip(names, counts, rows))
        body += ((_("total", language), *map(int, columns), n),)
        tables = [Table(None, (corner, *names, "total"), body, align="l" + "r" * (len(names) + 1),
                        shown_headers=(corner, *names, _("total", language)))]
        if self.weights is None:
            title = _("Cohen's κ = {value:.4f}", language).format(value=self.value)
            diagonal = " + ".join(str(int(count)) for count in np.diag(counts))
            chance = " + ".join(f"{int(r)}·{int(c)}" for r, c in zip(rows, columns))
            formula = (
                _("p_o = ({diagonal}) / {n} = {p_o}   (share of items both judges label alike)", language).format(
                    diagonal=diagonal, n=n, p_o=number(self.observed)),
                _("p_e = ({chance}) / {n}² = {p_e}   (agreement expected by chance from each judge's label shares)",
                  language).format(chance=chance, n=n, p_e=number(self.expected)),
                f"κ = (p_o - p_e) / (1 - p_e) = ({number(self.observed)} - {number(self.expected)}) / "
                f"(1 - {number(self.expected)}) = {number(self.value)}",
            )
        else:
            title = _("weighted Cohen's κ ({weights}) = {value:.4f}", language).format(
                weights=_(self.weights, language), value=self.value)
            weight = _weight_matrix(len(names), self.weights).astype(np.int64)
            tables.append(Table(_("disagreement weights w_ij", language), (corner, *names),
                                tuple((name, *map(int, row)) for name, row in zip(names, weight)),
                                align="l" + "r" * len(names), shown_headers=(corner, *names)))
            terms = " + ".join(f"{w}·{c}" for w, c in zip(weight.ravel(), counts.ravel()) if w and c) or "0"
            chance_sum = int((weight * np.outer(rows, columns)).sum())
            formula = (
                _("D_o = Σ w_ij·n_ij / n = ({terms}) / {n} = {d_o}   (mean weight of the disagreements seen)",
                  language).format(terms=terms, n=n, d_o=number(self.observed)),
                _("D_e = Σ w_ij·row_i·column_j / n² = {total} / {n}² = {d_e}   (mean weight expected by chance)",
                  language).format(total=chance_sum, n=n, d_e=number(self.expected)),
                f"κ = 1 - D_o / D_e = 1 - {number(self.observed)} / {number(self.expected)} = {number(self.value)}",
            )
        return title, tuple(tables), formula, (_strength_note(self.value, language),)


def _weight_matrix(size, weights):
    """Disagreement weights between category indices: 1 off the diagonal, |i - j| or (i - j)²."""
    index = np.arange(size)
    distance = np.abs(index[:, None] - index[None, :]).astype(np.float64)
    if weights is None:
        return (distance > 0).astype(np.float64)
    return distance if weights == "linear" else distance**2


def cohen_kappa(a, b, *, weights=None, labels=None):
    """Cohen's κ: how much two judges agree beyond what their label shares give by chance. Lesson 15.

    ``p_o`` is the share of items both label alike; ``p_e = Σ_k (A's share
    of k)·(B's share of k)`` is what two judges labelling at random with
    those shares would reach; ``κ = (p_o - p_e) / (1 - p_e)``. With weights
    (for ordered grades) a near miss costs less than a far one:
    ``κ = 1 - Σ w_ij n_ij / Σ w_ij e_ij`` with ``w_ij = |i - j|`` ("linear")
    or ``(i - j)²`` ("quadratic") over the categories' positions in ``labels``.
    The same numbers as scikit-learn's ``cohen_kappa_score``.

    Parameters
    ----------
    a, b : sequence of labels
        What judges A and B said about the same items, in the same order
        (grades such as 0-3, or words such as "relevant").
    weights : {None, "linear", "quadratic"}, default None
        None: every disagreement counts fully (Cohen 1960). "linear" or
        "quadratic": weighted κ (Cohen 1968), for ordered grades.
    labels : sequence or None, default None
        The categories in order (their order sets the weights); None takes
        the labels used, sorted.

    Returns
    -------
    CohenKappa

    Raises
    ------
    ValueError
        When ``p_e`` is 1 (both judges give every item the same one label):
        chance explains all agreement and κ is 0 / 0.

    See Also
    --------
    fleiss_kappa : more than two judges.

    Examples
    --------
    Ten documents, judged relevant (1) or not (0) by two assessors:

    >>> a = [1, 1, 1, 1, 1, 0, 0, 0, 0, 0]
    >>> b = [1, 1, 1, 1, 0, 1, 0, 0, 0, 0]
    >>> result = cohen_kappa(a, b)
    >>> result.observed, result.expected  # p_o = 8/10; p_e = 0.5·0.5 + 0.5·0.5
    (0.8, 0.5)
    >>> round(result.value, 4)  # (0.8 - 0.5) / (1 - 0.5)
    0.6
    >>> print(result.formula.splitlines()[-1])
    κ = (p_o - p_e) / (1 - p_e) = (0.8000 - 0.5000) / (1 - 0.5000) = 0.6000
    """
    first = check_label_list("a", a, mark("judge A's label for each item"))
    second = check_label_list("b", b, mark("judge B's label for each item"))
    if len(first) != len(second):
        raise ValueError(gettext("a and b must label the same items, one label each. Got {n_first} and "
                                 "{n_second} labels instead.").format(n_first=len(first), n_second=len(second)))
    if weights is not None:
        check_choice("weights", weights, WEIGHTS[1:])
    categories = _categories(labels, first + second, "a and b")
    index = {label: i for i, label in enumerate(categories)}
    counts = np.zeros((len(categories), len(categories)), dtype=np.int64)
    np.add.at(counts, ([index[label] for label in first], [index[label] for label in second]), 1)
    n = len(first)
    expected_counts = np.outer(counts.sum(axis=1), counts.sum(axis=0)) / n
    weight = _weight_matrix(len(categories), weights)
    disagreement, chance = float((weight * counts).sum()) / n, float((weight * expected_counts).sum()) / n
    if chance == 0:
        raise ValueError(gettext("a and b must not both give every item one and the same label: chance then "
                                 "explains all agreement (p_e = 1) and κ is 0 / 0. Got a={a}, b={got} instead.")
                                .format(a=shown(a), got=shown(b)))
    value = 1.0 - disagreement / chance
    observed, expected = (1.0 - disagreement, 1.0 - chance) if weights is None else (disagreement, chance)
    return CohenKappa(value, observed, expected, weights, tuple(categories), tuple(map(tuple, counts.tolist())))


@dataclass(frozen=True, repr=False)
class FleissKappa(Explained):
    """Fleiss' κ of several judges per item, with each item's agreement (returned by :func:`fleiss_kappa`). Lesson 15.

    Attributes
    ----------
    value : float
        κ.
    observed : float
        ``P̄``: the mean over items of the share of judge pairs that agree on the item.
    expected : float
        ``P_e = Σ_j p_j²``: the agreement of two random labels drawn with the overall label shares ``p_j``.
    categories : tuple
        The labels in table order.
    counts : tuple of tuple of int
        ``counts[i][j]``: judges who gave item ``i`` the label ``categories[j]``.
    raters : int
        Judges per item.
    """

    value: float
    observed: float
    expected: float
    categories: tuple
    counts: tuple
    raters: int

    @property
    def strength(self):
        """Landis & Koch's (1977) word for κ."""
        return strength(self.value)

    def _parts(self):
        language = self.language
        counts = np.array(self.counts, dtype=np.float64)
        n, r = counts.shape[0], self.raters
        agreement = ((counts**2).sum(axis=1) - r) / (r * (r - 1))
        shares = counts.sum(axis=0) / (n * r)
        names = [str(label) for label in self.categories]
        body = tuple((str(i), *map(int, row), float(p)) for i, (row, p) in enumerate(zip(counts, agreement), 1))
        shown_rows = body[:MAX_ROWS] + ((_("share p_j", language), *map(float, shares), ""),)
        table = Table(None, ("item", *names, "P_i"), shown_rows, align="l" + "r" * (len(names) + 1),
                      shown_headers=(_("item", language), *names, "P_i"))
        squares = " + ".join(f"{number(p)}²" for p in shares)
        formula = (
            _("P_i = (Σ_j n_ij² - {r}) / ({r}·{r1})   (share of the item's judge pairs that agree)",
              language).format(r=r, r1=r - 1),
            _("P̄ = mean of the {n} P_i = {observed}", language).format(n=n, observed=number(self.observed)),
            f"P_e = Σ_j p_j² = {squares} = {number(self.expected)}",
            f"κ = (P̄ - P_e) / (1 - P_e) = ({number(self.observed)} - {number(self.expected)}) / "
            f"(1 - {number(self.expected)}) = {number(self.value)}",
        )
        notes = [_strength_note(self.value, language)]
        if n > MAX_ROWS:
            notes.append(_("the table shows the first {shown} of {n} items; the formula uses them all",
                           language).format(shown=MAX_ROWS, n=n))
        title = _("Fleiss' κ = {value:.4f} ({n} items, {r} judges each)", language).format(value=self.value, n=n, r=r)
        return title, (table,), formula, tuple(notes)


def fleiss_kappa(ratings, *, labels=None, counts=False):
    """Fleiss' κ: agreement beyond chance among several judges who each label every item. Lesson 15.

    For item ``i`` with ``n_ij`` of its ``r`` judges choosing label ``j``,
    ``P_i = (Σ_j n_ij² - r) / (r (r - 1))`` is the share of its judge pairs
    that agree; ``P̄`` is their mean. ``p_j`` is label ``j``'s share of all
    labels and ``P_e = Σ_j p_j²`` the agreement of two labels drawn at
    random with those shares; ``κ = (P̄ - P_e) / (1 - P_e)`` (Fleiss 1971).
    The same numbers as statsmodels' ``fleiss_kappa(table, method="fleiss")``.
    With two judges it is Scott's π, not Cohen's κ: chance uses the pooled
    label shares, not each judge's own.

    Parameters
    ----------
    ratings : 2-D sequence
        One row per item, one column per judge, a label in each cell. The
        judges need not be the same people from item to item, but each item
        has the same number of them (at least 2).
    labels : sequence or None, default None
        The categories in order; None takes the labels used, sorted.
    counts : bool, default False
        True: ``ratings`` is already a table of counts, one row per item and
        one column per category (statsmodels' layout), each row adding up to
        the number of judges.

    Returns
    -------
    FleissKappa

    Raises
    ------
    ValueError
        When every label is the same (``P_e = 1``): κ is 0 / 0.

    Examples
    --------
    Four documents, three assessors each:

    >>> result = fleiss_kappa([[1, 1, 1], [1, 1, 0], [0, 0, 0], [0, 1, 0]])
    >>> result.counts  # per document: (label 0, label 1)
    ((0, 3), (1, 2), (3, 0), (2, 1))
    >>> round(result.observed, 4)  # P_i = 1, 1/3, 1, 1/3 (of 3 pairs, 3 or 1 agree); mean 2/3
    0.6667
    >>> result.expected  # p_0 = p_1 = 6/12, so P_e = 0.25 + 0.25
    0.5
    >>> round(result.value, 4)  # (2/3 - 1/2) / (1 - 1/2)
    0.3333
    """
    if counts:
        table = check_number_array("ratings", ratings, mark("with counts=True: judges per item (row) and category (column)"),
                                   ndim=2)
        if (table < 0).any() or not np.array_equal(table, np.round(table)):
            raise ValueError(gettext("ratings must hold whole numbers of judges of at least 0 when counts=True. "
                                     "Got {got} instead.").format(got=shown(ratings)))
        totals = table.sum(axis=1)
        categories = list(range(table.shape[1])) if labels is None else check_label_list(
            "labels", labels, mark("one name per column of the counts"))
        if len(categories) != table.shape[1]:
            raise ValueError(gettext("labels must name each of the {n_columns} columns of the counts. Got {got} "
                                     "instead.").format(n_columns=table.shape[1], got=shown(labels)))
        if not (totals == totals[0]).all():
            raise ValueError(gettext("ratings must give every item the same number of judges (each row of counts "
                                     "adds up to the same total). Got row totals {got} instead.")
                                    .format(got=shown(totals.astype(int).tolist())))
        table = table.astype(np.int64)
    else:
        rows = _label_rows(ratings)
        categories = _categories(labels, [label for row in rows for label in row], "ratings")
        index = {label: j for j, label in enumerate(categories)}
        table = np.zeros((len(rows), len(categories)), dtype=np.int64)
        for i, row in enumerate(rows):
            for label in row:
                table[i, index[label]] += 1
    raters = int(table[0].sum())
    if raters < 2 or table.shape[0] < 1:
        raise ValueError(gettext("ratings must have at least 2 judges per item and at least 1 item. Got "
                                 "{n_items} items with {raters} judge(s) each instead.")
                                .format(n_items=table.shape[0], raters=raters))
    agreement = ((table.astype(np.float64) ** 2).sum(axis=1) - raters) / (raters * (raters - 1))
    shares = table.sum(axis=0) / table.sum()
    observed, expected = float(agreement.mean()), float((shares**2).sum())
    if np.isclose(expected, 1.0, rtol=0, atol=1e-15):
        raise ValueError(gettext("ratings must use at least two labels: when every judge gives every item the "
                                 "same label, chance explains all agreement (P_e = 1) and κ is 0 / 0. Got {got} "
                                 "instead.").format(got=shown(ratings)))
    value = (observed - expected) / (1.0 - expected)
    return FleissKappa(value, observed, expected, tuple(categories), tuple(map(tuple, table.tolist())), raters)


def _label_rows(ratings):
    """``ratings`` as a list of label lists, one per item, all equally long."""
    if isinstance(ratings, (str, bytes)) or not hasattr(ratings, "__iter__"):
        raise TypeError(gettext("ratings must be a table: one row per item, one label per judge. Got {got} "
                                "instead.").format(got=shown(ratings)))
    rows = [check_label_list("ratings", row, mark("one label per judge of an item")) if hasattr(row, "__iter__")
            and not isinstance(row, (str, bytes)) else None for row in ratings]
    if not rows or any(row is None for row in rows):
        raise TypeError(gettext("ratings must be a table: one row per item, one label per judge. Got {got} "
                                "instead.").format(got=shown(ratings)))
    if len({len(row) for row in rows}) != 1:
        raise ValueError(gettext("ratings must give every item the same number of judges (rows of equal length). "
                                 "Got rows of lengths {lengths} instead.")
                                .format(lengths=sorted({len(row) for row in rows})))
    return rows
