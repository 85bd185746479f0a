"""Comparing many systems at once: Tukey's HSD, its randomised version, and discriminative power. Lessons 13 and 15.

Twenty systems make 190 pairs; test each at α = 0.05 and about ten look
"significant" by chance alone. A family-wise test keeps the chance of *any*
false claim among all pairs at α:

* :func:`tukey_hsd`: Tukey's honestly significant difference (Tukey 1953,
  printed in his Collected Works VIII, 1994; Kramer 1956 for groups of
  unequal size). A pair
  differs when its mean difference, in standard errors, exceeds what the
  largest of ``k`` means minus the smallest would reach by chance (the
  studentized range). With ``design="paired"`` (the default) the error
  comes from a two-way ANOVA of systems and queries, as IR's topics-by-
  systems matrix needs; ``design="independent"`` is one-way, as
  ``scipy.stats.tukey_hsd``.
* :func:`randomised_tukey_hsd`: Carterette's (2012) permutation version: if
  the systems were interchangeable, shuffling their scores within each
  query would leave the largest mean difference as large as observed this
  often. No normality assumed.
* :func:`discriminative_power`: Sakai's (2006) yardstick for a measure: the
  share of system pairs a test finds significant at α. A measure that
  separates more pairs, on the same data, discriminates better.

Scores are ``{system: per-query scores}`` (every system on the same queries,
in the same order) or a 2-D array with one row per system. Importing this
module imports SciPy (its studentized range distribution).
"""

from dataclasses import dataclass
from functools import lru_cache
from itertools import permutations, product
from math import factorial

import numpy as np
from scipy.stats import studentized_range

from ..core.checks import check_number_array
from ..core.explained import Explained, number
from ..i18n import _, gettext, mark
from .significance_results import p_text
from ..core.table import Table
from ..core.validation import check_choice, check_count, check_open_unit, check_seed, shown

__all__ = ["tukey_hsd", "randomised_tukey_hsd", "discriminative_power", "ManySystems", "DiscriminativePower"]

DESIGNS = ("paired", "independent")
POWER_METHODS = ("randomised_tukey_hsd", "tukey_hsd", "paired_t", "randomisation")
BATCH = 500  # shuffles drawn at a time
RANGE_TOLERANCE = 1e-10  # shuffled ranges within this share of the score scale count as "as large"


def check_system_scores(scores):
    """Return ``(systems, matrix)``: names and a systems x queries float64 array (at least 2 x 2)."""
    if hasattr(scores, "items"):
        systems = tuple(str(name) for name in scores)
        lengths = {len(values) if hasattr(values, "__len__") else None for values in scores.values()}
        if len(lengths) > 1 or None in lengths:
            raise ValueError(gettext("scores must give every system one score per query, for the same queries. "
                                     "Got lists of lengths {lengths} instead.").format(lengths=sorted(lengths, key=str)))
        matrix = check_number_array("scores", list(scores.values()), mark("one row of per-query scores per system"), ndim=2)
    else:
        matrix = check_number_array("scores", scores, mark("one row of per-query scores per system"), ndim=2)
        systems = tuple(str(i) for i in range(1, matrix.shape[0] + 1))
    if matrix.shape[0] < 2 or matrix.shape[1] < 2:
        raise ValueError(gettext("scores must hold at least 2 systems with at least 2 queries each. Got "
                                 "{n_systems} system(s) with {n_queries} query score(s) instead.")
                                .format(n_systems=matrix.shape[0], n_queries=matrix.shape[1]))
    return systems, matrix


@dataclass(frozen=True, repr=False)
class ManySystems(Explained):
    """Every pair of systems tested with one family-wise test (from :func:`tukey_hsd`, :func:`randomised_tukey_hsd`).
    Lesson 15.

    Attributes
    ----------
    test : str
        ``"Tukey HSD"`` or ``"randomised Tukey HSD"``.
    systems : tuple of str
    means : tuple of float
        Each system's mean score.
    pairs : tuple of (str, str)
        Every pair ``(first, second)`` in input order.
    differences : tuple of float
        ``mean(first) - mean(second)`` per pair.
    p_values : tuple of float
        Family-wise (adjusted) p-values per pair.
    alpha : float
    details : tuple of (str, dict)
        The formula lines, each an English template (shown translated) and its values: the error and degrees
        of freedom (Tukey), or the shuffles (randomised).
    low, high : tuple of float
        Simultaneous confidence intervals of each difference (Tukey only; empty otherwise).
    """

    test: str
    systems: tuple
    means: tuple
    pairs: tuple
    differences: tuple
    p_values: tuple
    alpha: float
    details: tuple
    low: tuple = ()
    high: tuple = ()

    @property
    def significant(self):
        """The pairs whose family-wise p-value is below ``alpha``."""
        return tuple(pair for pair, p in zip(self.pairs, self.p_values) if p < self.alpha)

    def p_value(self, first, second):
        """The p-value of the pair ``(first, second)``, in either order."""
        for pair, p in zip(self.pairs, self.p_values):
            if pair in ((first, second), (second, first)):
                return p
        raise KeyError(gettext("first and second must name two of the systems {value}. Got {first!r} and "
                               "{second!r} instead.").format(value=shown(list(self.systems)), first=first,
                                                             second=second))

    def _parts(self):
        language = self.language
        with_interval = bool(self.low)
        headers = ("pair", "difference", "p", "significant") + (("low", "high") if with_interval else ())
        rows = tuple((f"{a} - {b}", float(d), p_text(p), p < self.alpha)
                     + ((float(lo), float(hi)) if with_interval else ())
                     for (a, b), d, p, lo, hi in zip(self.pairs, self.differences, self.p_values,
                                                     self.low or self.differences, self.high or self.differences))
        shown_headers = (_("pair", language), _("mean difference", language), "p",
                         _("p < {alpha:g}", language).format(alpha=self.alpha))
        if with_interval:
            confidence = f"{1 - self.alpha:.0%}"
            shown_headers += (_("{confidence} low", language).format(confidence=confidence),
                              _("{confidence} high", language).format(confidence=confidence))
        table = Table(None, headers, tuple(row[:3] + (_("yes", language) if row[3] else _("no", language),) + row[4:]
                                           for row in rows), align="lrrl" + "rr" * with_interval,
                      shown_headers=shown_headers)
        order = np.argsort(-np.array(self.means), kind="stable")
        means = Table(None, ("system", "mean"), tuple((self.systems[k], float(self.means[k])) for k in order),
                      align="lr", shown_headers=(_("system", language), _("mean", language)))
        title = _("{test}: {significant} of {pairs} pairs differ at α = {alpha:g}", language).format(
            test=_(self.test, language), significant=len(self.significant), pairs=len(self.pairs), alpha=self.alpha)
        return title, (means, table), tuple(_(template, language).format(**values)
                                            for template, values in self.details), ()


@lru_cache(maxsize=64)
def critical_range(level, k, df):
    """The studentized range's ``level`` quantile for ``k`` means and ``df`` degrees of freedom (SciPy takes ~0.5 s).

    Examples
    --------
    >>> round(critical_range(0.95, 3, 6), 4)  # the q_crit of a table of the studentized range
    4.3392
    """
    return float(studentized_range.ppf(level, k, df))


def _anova_error(matrix, design):
    """The error mean square and its degrees of freedom, with the sum of squares they come from."""
    k, n = matrix.shape
    if design == "independent":
        residual = matrix - matrix.mean(axis=1, keepdims=True)
        df = k * (n - 1)
    else:
        residual = matrix - matrix.mean(axis=1, keepdims=True) - matrix.mean(axis=0, keepdims=True) + matrix.mean()
        df = (k - 1) * (n - 1)
    squares = float((residual**2).sum())
    return squares / df, df, squares


def tukey_hsd(scores, *, alpha=0.05, design="paired"):
    """Tukey's HSD: every pair of systems at once, the family-wise error kept at ``alpha``. Lessons 13 and 15.

    With ``k`` systems on ``n`` queries and an error mean square ``MSE``,
    pair ``(i, j)`` has ``q = |mean_i - mean_j| / √(MSE / n)`` and p-value
    ``P(Q ≥ q)`` for the studentized range ``Q`` of ``k`` means with the
    error's degrees of freedom. Its simultaneous interval is
    ``mean_i - mean_j ± q_crit·√(MSE / n)``.

    Parameters
    ----------
    scores : mapping of str to sequence of float, or 2-D array
        Per-query scores of each system (at least 2 systems, 2 queries).
    alpha : float, default 0.05
        The family-wise significance level.
    design : {"paired", "independent"}, default "paired"
        "paired": every system ran on the same queries, so the error is the
        residual of a two-way ANOVA (systems + queries, no interaction), with
        ``(k - 1)(n - 1)`` degrees of freedom, as IR evaluation needs
        (Carterette 2012, Sakai 2018). "independent": one-way, the groups'
        pooled variance with ``k(n - 1)`` degrees of freedom; the same
        numbers as ``scipy.stats.tukey_hsd`` (queries' difficulty then
        counts as noise).

    Returns
    -------
    ManySystems

    Raises
    ------
    ValueError
        When the error mean square is 0 (every difference is exactly the same across queries).

    Examples
    --------
    Three systems on four queries; C is better on every query:

    >>> scores = {"A": [0.2, 0.4, 0.3, 0.5], "B": [0.3, 0.4, 0.4, 0.5], "C": [0.5, 0.6, 0.6, 0.8]}
    >>> result = tukey_hsd(scores)
    >>> [round(m, 4) for m in result.means]
    [0.35, 0.4, 0.625]
    >>> result.significant  # B - A is 0.05: within what the largest of three means minus the smallest reaches by chance
    (('A', 'C'), ('B', 'C'))
    """
    systems, matrix = check_system_scores(scores)
    alpha = check_open_unit("alpha", alpha, mark("the family-wise significance level"))
    check_choice("design", design, DESIGNS)
    k, n = matrix.shape
    mse, df, squares = _anova_error(matrix, design)
    if mse == 0:
        raise ValueError(gettext("scores must vary beyond what systems and queries explain: the error mean "
                                 "square is 0, so q is undefined. Got {got} instead.")
                                .format(got=shown(matrix.tolist())))
    means = matrix.mean(axis=1)
    error = np.sqrt(mse / n)
    critical = critical_range(1 - alpha, k, df)
    i, j = np.triu_indices(k, 1)
    differences = means[i] - means[j]
    p = studentized_range.sf(np.abs(differences) / error, k, df)
    model = mark("error from a two-way ANOVA (systems + queries): SS_error = Σ (x_sq - mean_s - mean_q + mean)²") \
        if design == "paired" else mark("error from a one-way ANOVA (systems): SS_error = Σ (x_sq - mean_s)²")
    details = (
        (model, {}),
        (mark("MSE = SS_error / df = {squares} / {df} = {mse};  √(MSE / n) = √({mse} / {n}) = {error}"),
         {"squares": number(squares), "df": df, "mse": f"{mse:.6f}", "n": n, "error": number(error)}),
        (mark("q = |mean_i - mean_j| / {error};  p = P(Q ≥ q) for the studentized range of {k} means with {df} "
              "degrees of freedom"), {"error": number(error), "k": k, "df": df}),
        (mark("q_crit = {critical} at {level:g}: pairs differ when |mean_i - mean_j| > {critical} · {error} = {hsd}"),
         {"critical": number(critical), "level": 1 - alpha, "error": number(error), "hsd": number(critical * error)}),
    )
    return ManySystems(mark("Tukey HSD"), systems, tuple(map(float, means)),
                       tuple((systems[a], systems[b]) for a, b in zip(i, j)), tuple(map(float, differences)),
                       tuple(float(min(1.0, v)) for v in p), alpha, details,
                       tuple(map(float, differences - critical * error)),
                       tuple(map(float, differences + critical * error)))


def _shuffled_ranges(matrix, n, rng):
    """Largest minus smallest system mean when each query's scores are shuffled among the systems.

    Every assignment when there are at most ``n``, else ``n`` random ones; returns ``(ranges, exact)``.
    """
    k, queries = matrix.shape
    if factorial(k) ** queries <= n:
        orders = np.array(list(permutations(range(k))))  # k! ways to hand one query's scores to the systems
        choice = np.array(list(product(range(len(orders)), repeat=queries)))
        shuffled = matrix.T[np.arange(queries)[None, :, None], orders[choice]]  # (assignments, queries, k)
        means = shuffled.mean(axis=1)
        return means.max(axis=1) - means.min(axis=1), True
    ranges = []
    for start in range(0, n, BATCH):
        size = min(BATCH, n - start)
        shuffled = rng.permuted(np.broadcast_to(matrix.T, (size, queries, k)), axis=2)
        means = shuffled.mean(axis=1)
        ranges.append(means.max(axis=1) - means.min(axis=1))
    return np.concatenate(ranges), False


def randomised_tukey_hsd(scores, *, alpha=0.05, n=10_000, seed=0):
    """Carterette's (2012) randomised Tukey HSD: a permutation test for every pair of systems at once. Lesson 15.

    If the systems were interchangeable, each query's scores could have
    belonged to any of them. Shuffle them within every query, note the
    largest system mean minus the smallest, and repeat. A pair's p-value is
    the share of shuffles whose largest range is at least the pair's
    observed difference: comparing each pair with the *largest* difference
    chance makes is what keeps the family-wise error at ``alpha``. With two
    systems it is the paired randomisation test.

    Parameters
    ----------
    scores : mapping of str to sequence of float, or 2-D array
        Per-query scores of each system, as for :func:`tukey_hsd`.
    alpha : float, default 0.05
    n : int, default 10_000
        Random shuffles; when ``(k!)^queries`` is at most ``n``, every
        assignment is tried instead and the p-values are exact.
    seed : int or None, default 0

    Returns
    -------
    ManySystems
        With random shuffles a p-value is ``(count + 1) / (n + 1)`` (the
        observed assignment is one of them), so it is never 0.

    Examples
    --------
    >>> scores = {"A": [0.2, 0.4, 0.3], "B": [0.3, 0.5, 0.5], "C": [0.25, 0.45, 0.3]}
    >>> result = randomised_tukey_hsd(scores)
    >>> result.details[0][1]  # 3! orderings of each query's three scores, for 3 queries: 6³
    {'count': 216}
    >>> round(result.p_value("A", "B"), 4)  # |A - B| = 0.1333; 12 of the 216 shuffles have a range that large
    0.0556
    """
    systems, matrix = check_system_scores(scores)
    alpha = check_open_unit("alpha", alpha, mark("the family-wise significance level"))
    n = check_count("n", n, mark("how many random shuffles to draw"))
    rng = np.random.default_rng(check_seed(seed))
    ranges, exact = _shuffled_ranges(matrix, n, rng)
    means = matrix.mean(axis=1)
    i, j = np.triu_indices(matrix.shape[0], 1)
    differences = means[i] - means[j]
    slack = RANGE_TOLERANCE * max(float(np.abs(matrix).max()), 1.0)
    counts = np.array([np.count_nonzero(ranges >= abs(d) - slack) for d in differences])
    p = counts / ranges.size if exact else (counts + 1) / (n + 1)
    draws = (mark("all {count} assignments of each query's scores to the systems (exact)"), {"count": ranges.size}) \
        if exact else (mark("{count} random shuffles of each query's scores among the systems, seed {seed}"),
                       {"count": n, "seed": seed})
    details = (draws, (mark("p(i, j) = share of shuffles whose max mean - min mean ≥ |mean_i - mean_j|"), {}))
    return ManySystems(mark("randomised Tukey HSD"), systems, tuple(map(float, means)),
                       tuple((systems[a], systems[b]) for a, b in zip(i, j)), tuple(map(float, differences)),
                       tuple(map(float, p)), alpha, details)


@dataclass(frozen=True, repr=False)
class DiscriminativePower(Explained):
    """The share of system pairs a test finds significant (returned by :func:`discriminative_power`). Lesson 15.

    Attributes
    ----------
    value : float
        Significant pairs / all pairs.
    method : str
    alpha : float
    pairs : tuple of (str, str)
    p_values : tuple of float
        Sorted from smallest: plotted against the pair's rank they give Sakai's achieved significance level curve.
    family_wise : bool
        Whether the p-values are adjusted for the number of pairs.
    """

    value: float
    method: str
    alpha: float
    pairs: tuple
    p_values: tuple
    family_wise: bool

    def _parts(self):
        language = self.language
        significant = sum(p < self.alpha for p in self.p_values)
        rows = tuple((f"{a} - {b}", p_text(p), _("yes", language) if p < self.alpha else _("no", language))
                     for (a, b), p in zip(self.pairs, self.p_values))
        table = Table(None, ("pair", "p", "significant"), rows, align="lrl",
                      shown_headers=(_("pair", language), "p", _("p < {alpha:g}", language).format(alpha=self.alpha)))
        formula = (_("discriminative power = {significant} / {pairs} = {value}", language).format(
            significant=significant, pairs=len(self.pairs), value=number(self.value)),)
        notes = () if self.family_wise else (
            _("these p-values are not adjusted for the number of pairs: among many pairs, some will be significant by "
              "chance alone", language),)
        title = _("discriminative power ({method}, α = {alpha:g}) = {value:.4f}", language).format(
            method=self.method, alpha=self.alpha, value=self.value)
        return title, (table,), formula, notes


def discriminative_power(scores, *, alpha=0.05, method="randomised_tukey_hsd", n=10_000, seed=0):
    """Sakai's (2006) discriminative power: the share of system pairs found significantly different. Lesson 15.

    Score the same systems on the same queries with two measures; the one
    that separates more pairs at the same α discriminates better (with the
    same test and α, a fair comparison). Sakai's achieved significance level
    curve is ``p_values`` (sorted) plotted against the pair's rank.

    Parameters
    ----------
    scores : mapping of str to sequence of float, or 2-D array
        Per-query scores of each system under one measure.
    alpha : float, default 0.05
    method : {"randomised_tukey_hsd", "tukey_hsd", "paired_t", "randomisation"}, default "randomised_tukey_hsd"
        The first two are family-wise; "paired_t" and "randomisation" test
        each pair alone (unadjusted: more pairs come out significant, some
        by chance). A pair whose difference is the same on every query has
        t-test p-value 0 (1 when that difference is 0).
    n, seed
        Shuffles and seed of the randomised methods.

    Returns
    -------
    DiscriminativePower

    Examples
    --------
    >>> scores = {"A": [0.2, 0.4, 0.3, 0.5], "B": [0.3, 0.4, 0.4, 0.5], "C": [0.5, 0.6, 0.6, 0.8]}
    >>> power = discriminative_power(scores, method="tukey_hsd")
    >>> power.value  # A-C and B-C of the 3 pairs
    0.6666666666666666
    """
    check_choice("method", method, POWER_METHODS)
    systems, matrix = check_system_scores(scores)
    alpha = check_open_unit("alpha", alpha, mark("the significance level"))
    if method == "tukey_hsd":
        result = tukey_hsd(dict(zip(systems, matrix)), alpha=alpha)
        pairs, p_values = result.pairs, result.p_values
    elif method == "randomised_tukey_hsd":
        result = randomised_tukey_hsd(dict(zip(systems, matrix)), alpha=alpha, n=n, seed=seed)
        pairs, p_values = result.pairs, result.p_values
    else:
        from .significance import randomisation_test

        pairs = tuple((systems[a], systems[b]) for a, b in zip(*np.triu_indices(len(systems), 1)))
        if method == "paired_t":
            p_values = tuple(_t_p(matrix[systems.index(a)], matrix[systems.index(b)]) for a, b in pairs)
        else:
            p_values = tuple(randomisation_test(matrix[systems.index(a)], matrix[systems.index(b)], n=n,
                                                seed=seed).p_value for a, b in pairs)
    order = np.argsort(p_values, kind="stable")
    significant = sum(p < alpha for p in p_values)
    return DiscriminativePower(significant / len(pairs), method, alpha, tuple(pairs[k] for k in order),
                               tuple(float(p_values[k]) for k in order), method in POWER_METHODS[:2])


def _t_p(first, second):
    """A pair's paired t-test p-value, with its limits when the differences do not vary: 1 when they are all 0,
    0 when they are all the same non-zero number (t is infinite)."""
    from .significance import paired_t_test

    differences = first - second
    if np.all(differences == differences[0]):
        return 1.0 if differences[0] == 0 else 0.0
    return paired_t_test(first, second).p_value
