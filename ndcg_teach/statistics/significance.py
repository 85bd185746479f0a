"""Is system A really better than B? Paired tests and a bootstrap interval on per-query scores.

Two systems are scored on the same queries, so the tests here work on the
per-query differences ``d = a - b`` (positive where A scores higher), as
Smucker, Allan & Carterette (2007) and Sakai (2014) recommend for IR:

* :func:`paired_t_test`: is the mean difference far from 0, measured in
  standard errors? (scipy.stats.ttest_rel)
* :func:`wilcoxon_test`: do the larger differences mostly go one way?
  (scipy.stats.wilcoxon)
* :func:`randomisation_test`: if A and B were interchangeable, how often would
  flipping each query's sign give a mean difference as large?
* :func:`bootstrap_interval`: which mean differences are plausible, from
  resampling the queries.

Each returns a frozen result with the numbers and an effect size, printed as
one readable sentence (:mod:`ndcg_teach.statistics.significance_results`). The result
calls the difference ``a - b`` after the parameters; ``labels=("B", "A")``
makes it say "B - A" when B's scores are passed first. Lesson 13 teaches
them, how many queries a difference needs, and why many comparisons need a
stricter threshold; :mod:`ndcg_teach.statistics.many_systems` compares many systems at once.

scipy (``scipy.special``, for the t and normal distributions) is imported by
the first test that needs it, not by importing this module: a lesson's
explorers (:mod:`ndcg_teach.widgets`) import this module, and every lesson's
kernel would otherwise pay about 0.1 s for scipy at its first cell.
"""

import numpy as np

from ..core.checks import check_two_names
from ..i18n import gettext, mark
from .significance_results import BootstrapInterval, SignificanceResult, cohen_dz
from ..core.validation import check_count, check_open_unit, check_paired_scores, check_seed, shown

__all__ = ["paired_t_test", "wilcoxon_test", "randomisation_test", "bootstrap_interval", "SignificanceResult",
           "BootstrapInterval"]

# Sign-flipped sums within this share of sum(|d|) of the observed one count as "as extreme": the same
# differences added in another order round differently, and scores such as 0.7 - 0.6 are not exact in binary.
SUM_TOLERANCE = 1e-10
BATCH = 1000  # resamples drawn at a time: memory stays at BATCH * queries numbers
WILCOXON_METHODS = ("auto", "exact", "normal")


def paired_t_test(a, b, *, labels=("a", "b")):
    """Paired t-test of the per-query differences ``a - b`` (two-sided).

    ``t = mean(d) / (sd(d) / sqrt(n))`` with ``n - 1`` degrees of freedom;
    the same numbers as ``scipy.stats.ttest_rel(a, b)``. It assumes the mean
    difference is roughly normal, which holds well for 25+ queries.

    Parameters
    ----------
    a, b : sequence of float
        Two systems' scores on the same queries, in the same order (at least 2).

    labels : (str, str), default ("a", "b")
        What the result calls the two systems: it prints the difference as
        ``labels[0] - labels[1]`` (pass ``("B", "A")`` when B's scores come first).

    Returns
    -------
    SignificanceResult
        ``effect_size`` is paired Cohen's d, ``d_z = mean(d) / sd(d)``.

    Raises
    ------
    ValueError
        When every query has the same difference: the spread is 0 and t is undefined.

    See Also
    --------
    wilcoxon_test, randomisation_test. Lesson 13 teaches paired tests.

    Examples
    --------
    >>> result = paired_t_test([0.5, 0.6, 0.7], [0.4, 0.4, 0.6])  # d = 0.1, 0.2, 0.1
    >>> round(result.statistic, 4)  # mean 0.1333 / (sd 0.0577 / sqrt(3)) = 0.1333 / 0.0333
    4.0
    >>> print(result)
    paired t-test: statistic = 4.0000, p = 0.0572 (df = 2); mean difference a - b = +0.1333, effect size d_z = 2.3094, n = 3 queries

    Naming the systems, with the new system B first:

    >>> print(paired_t_test([0.5, 0.6, 0.7], [0.4, 0.4, 0.6], labels=("B", "A")))
    paired t-test: statistic = 4.0000, p = 0.0572 (df = 2); mean difference B - A = +0.1333, effect size d_z = 2.3094, n = 3 queries
    """
    first, second = check_paired_scores(a, b)
    labels = check_two_names("labels", labels, ("B", "A"))
    differences = first - second
    spread = float(np.std(differences, ddof=1))
    if spread == 0:
        raise ValueError(
            gettext("a - b must vary from query to query for a t-test (its standard deviation is the "
                    "denominator); every difference is {difference:g}. Got a={a}, b={got} instead.")
                   .format(difference=differences[0], a=shown(a), got=shown(b))
        )
    n = differences.size
    t = float(np.mean(differences) / (spread / np.sqrt(n)))
    from scipy.special import stdtr

    p = float(2 * stdtr(n - 1, -abs(t)))
    return SignificanceResult("paired t-test", t, p, float(np.mean(differences)), cohen_dz(differences), "d_z", n,
                              f"df = {n - 1}", labels)


def _midranks(values):
    """Ranks 1..n of ``values``, tied values sharing their average rank."""
    order = np.argsort(values, kind="stable")
    ranks = np.empty(values.size)
    sorted_values = values[order]
    start = 0
    for end in range(1, values.size + 1):
        if end == values.size or sorted_values[end] != sorted_values[start]:
            ranks[order[start:end]] = (start + 1 + end) / 2
            start = end
    return ranks


def _signed_rank_distribution(ranks):
    """Counts of every sum of a random-signed subset of ``ranks`` (midranks doubled to whole numbers)."""
    doubled = np.rint(2 * ranks).astype(np.int64)
    counts = np.zeros(int(doubled.sum()) + 1)
    counts[0] = 1.0
    for rank in doubled:
        counts[rank:] = counts[rank:] + counts[:-rank]  # the right side is built before it is assigned
    return counts


def wilcoxon_test(a, b, *, method="auto", labels=("a", "b")):
    """Wilcoxon signed-rank test of the per-query differences ``a - b`` (two-sided).

    Queries with difference 0 are dropped (Wilcoxon's own rule, scipy's
    ``zero_method="wilcox"``); the rest are ranked by ``|d|`` (ties share
    their average rank), and W+ and W- sum the ranks of the positive and the
    negative differences. The statistic is ``min(W+, W-)``.

    Parameters
    ----------
    a, b : sequence of float
        Two systems' scores on the same queries, in the same order (at least 2).
    method : {"auto", "exact", "normal"}, default "auto"
        "exact" counts every assignment of signs to the ranks (exact even with
        ties); "normal" uses the normal approximation with the tie
        correction and no continuity correction. "auto" chooses as scipy 1.15
        does: normal for more than 50 queries, and for more than 13 queries
        when there are ties or zero differences; exact otherwise. The numbers
        are those of ``scipy.stats.wilcoxon(a, b)`` (defaults).

    labels : (str, str), default ("a", "b")
        What the result calls the two systems: it prints the difference as
        ``labels[0] - labels[1]`` (pass ``("B", "A")`` when B's scores come first).

    Returns
    -------
    SignificanceResult
        ``effect_size`` is the matched-pairs rank-biserial correlation
        ``r = (W+ - W-) / (W+ + W-)``.

    Raises
    ------
    ValueError
        When every difference is 0: there is nothing to rank.

    See Also
    --------
    paired_t_test. Lesson 13 teaches the signed-rank test.

    Examples
    --------
    >>> result = wilcoxon_test([0.5, 0.6, 0.7, 0.3, 0.8], [0.4, 0.4, 0.6, 0.35, 0.5])
    >>> result.statistic  # d = 0.1, 0.2, 0.1, -0.05, 0.3: ranks 2.5, 4, 2.5, 1, 5; W- = 1
    1.0
    >>> round(result.p_value, 4), result.details
    (0.125, 'exact')
    """
    first, second = check_paired_scores(a, b)
    labels = check_two_names("labels", labels, ("B", "A"))
    if not isinstance(method, str) or method not in WILCOXON_METHODS:
        raise (ValueError if isinstance(method, str) else TypeError)(
            gettext("method must be one of {names}. Got {got} instead.").format(names=', '.join(map(repr, WILCOXON_METHODS)),
                                                                                got=shown(method)))
    differences = first - second
    nonzero = differences[differences != 0]
    if nonzero.size == 0:
        raise ValueError(gettext("a and b must differ on at least one query for a signed-rank test; every "
                                 "difference is 0. Got a={a}, b={got} instead.").format(a=shown(a), got=shown(b)))
    ranks = _midranks(np.abs(nonzero))
    plus, minus = float(ranks[nonzero > 0].sum()), float(ranks[nonzero < 0].sum())
    n = nonzero.size
    tied = np.unique(np.abs(nonzero)).size < n
    if method == "auto":
        small = differences.size <= 50 and not tied and nonzero.size == differences.size
        method = "exact" if small or differences.size <= 13 else "normal"
    if method == "exact":
        counts = _signed_rank_distribution(ranks)
        total = counts.sum()
        observed = round(2 * plus)
        at_most, at_least = counts[: observed + 1].sum() / total, counts[observed:].sum() / total
        p = min(1.0, 2 * min(at_most, at_least))
    else:
        ties = np.unique(np.abs(nonzero), return_counts=True)[1]
        spread = np.sqrt((n * (n + 1) * (2 * n + 1) - (ties**3 - ties).sum() / 2) / 24)
        z = (plus - n * (n + 1) / 4) / spread
        from scipy.special import ndtr

        p = float(2 * ndtr(-abs(z)))
    return SignificanceResult("Wilcoxon signed-rank test", min(plus, minus), float(p), float(np.mean(differences)),
                              (plus - minus) / (plus + minus), "r", n, method, labels)


def _sign_flip_sums(differences, n, rng):
    """Sums of ``differences`` with random signs: every assignment when there are at most ``n``, else ``n`` draws."""
    m = differences.size
    if 2**m <= n:
        signs = 1 - 2 * ((np.arange(2**m)[:, None] >> np.arange(m)) & 1)
        return signs @ differences, True
    sums = [((1 - 2 * rng.integers(0, 2, size=(min(BATCH, n - start), m))) @ differences)
            for start in range(0, n, BATCH)]
    return np.concatenate(sums), False


def randomisation_test(a, b, *, n=10_000, seed=0, labels=("a", "b")):
    """Paired randomisation (permutation) test: how often random sign flips give a mean difference as large.

    If A and B were interchangeable, each query's difference could as well
    have the other sign. The test flips signs at random ``n`` times (or tries
    all ``2^queries`` assignments when that is at most ``n``: then the
    p-value is exact) and counts the mean differences at least as far from 0
    as the observed one (Fisher; Smucker et al. 2007).

    Parameters
    ----------
    a, b : sequence of float
        Two systems' scores on the same queries, in the same order (at least 2).
    n : int, default 10_000
        Random sign assignments to draw.
    seed : int or None, default 0
        Seed of the random draws: the same seed gives the same p-value. None
        draws fresh randomness on each call.

    labels : (str, str), default ("a", "b")
        What the result calls the two systems: it prints the difference as
        ``labels[0] - labels[1]`` (pass ``("B", "A")`` when B's scores come first).

    Returns
    -------
    SignificanceResult
        ``statistic`` is the mean difference; with random draws the p-value is
        ``(count + 1) / (n + 1)`` so that it is never 0 (the observed signs
        are one possible assignment). ``effect_size`` is paired Cohen's d (d_z).

    See Also
    --------
    paired_t_test, bootstrap_interval. Lesson 13 runs it by hand.

    Examples
    --------
    >>> result = randomisation_test([0.5, 0.6, 0.7], [0.4, 0.4, 0.6])
    >>> result.p_value  # of the 8 sign assignments, 2 (+ + + and - - -) give |mean| >= 0.1333
    0.25
    >>> result.details
    'all 8 sign assignments (exact)'
    """
    first, second = check_paired_scores(a, b)
    labels = check_two_names("labels", labels, ("B", "A"))
    n = check_count("n", n, mark("how many random sign assignments to draw"))
    rng = np.random.default_rng(check_seed(seed))
    differences = first - second
    observed = float(differences.sum())
    sums, exact = _sign_flip_sums(differences, n, rng)
    extreme = int(np.count_nonzero(np.abs(sums) >= abs(observed) - SUM_TOLERANCE * np.abs(differences).sum()))
    if exact:
        p, details = extreme / sums.size, f"all {sums.size} sign assignments (exact)"
    else:
        p, details = (extreme + 1) / (n + 1), f"{n} random sign assignments, seed {seed}"
    return SignificanceResult("paired randomisation test", observed / differences.size, float(p),
                              observed / differences.size, cohen_dz(differences), "d_z", differences.size, details,
                              labels)


def bootstrap_interval(a, b, *, confidence=0.95, n=10_000, seed=0, labels=("a", "b")):
    """Percentile bootstrap confidence interval of the mean per-query difference ``a - b``.

    Draw the queries ``n`` times with replacement, take the mean difference
    of each draw, and keep the middle ``confidence`` share of those means
    (``numpy.quantile``, linear interpolation). An interval that excludes 0
    says the same as a test rejecting "no difference" at ``1 - confidence``,
    and also how large the difference plausibly is.

    Parameters
    ----------
    a, b : sequence of float
        Two systems' scores on the same queries, in the same order (at least 2).
    confidence : float, default 0.95
        Strictly between 0 and 1.
    n : int, default 10_000
        Bootstrap resamples.
    seed : int or None, default 0
        Seed of the draws; None draws fresh randomness on each call.

    labels : (str, str), default ("a", "b")
        What the result calls the two systems: it prints the difference as
        ``labels[0] - labels[1]`` (pass ``("B", "A")`` when B's scores come first).

    Returns
    -------
    BootstrapInterval

    See Also
    --------
    randomisation_test, paired_t_test. Lesson 13 teaches intervals.

    Examples
    --------
    >>> interval = bootstrap_interval([0.5, 0.6, 0.7, 0.3], [0.4, 0.4, 0.6, 0.35])
    >>> round(interval.statistic, 4)  # (0.1 + 0.2 + 0.1 - 0.05) / 4
    0.0875
    >>> interval.excludes_zero  # only 4 queries: a mean difference of 0 is still plausible
    False
    """
    first, second = check_paired_scores(a, b)
    labels = check_two_names("labels", labels, ("B", "A"))
    confidence = check_open_unit("confidence", confidence, mark("the share of resampled means the interval keeps"))
    n = check_count("n", n, mark("how many bootstrap resamples to draw"))
    rng = np.random.default_rng(check_seed(seed))
    differences = first - second
    m = differences.size
    means = np.concatenate([differences[rng.integers(0, m, size=(min(BATCH, n - start), m))].mean(axis=1)
                            for start in range(0, n, BATCH)])
    tail = (1 - confidence) / 2
    low, high = np.quantile(means, [tail, 1 - tail])
    return BootstrapInterval(float(low), float(high), float(differences.mean()), confidence, cohen_dz(differences), m,
                             n, labels)
