"""Metrics on sampled negatives, and Krichene & Rendle's (2020) corrections of them. Lesson 14.

With one held-out item per user at rank ``r`` among ``n`` items, ranking it
against ``m`` sampled negatives gives a sampled rank ``r̃`` from 1 to
``m + 1``: the number of sampled items that beat it is binomial,
``r̃ - 1 ~ B(m, (r - 1)/(n - 1))`` when they are drawn with replacement (the
paper's analysis), hypergeometric without (what most code does; the two
barely differ). A metric computed on ``r̃`` is a different, AUC-like metric.

Krichene & Rendle keep the sampling but replace the metric's value at each
sampled rank, ``M(r̃)``, by a corrected value ``M̂(r̃)`` chosen so that its
expectation over the sampling tracks the true ``M(r)``:

* ``"rank_estimate"``: apply M to the rank the sample suggests,
  ``⌊1 + (n - 1)(r̃ - 1)/m⌋``.
* ``"minimal_bias"``: least squares, the smallest squared bias
  ``Σ_r p(r) (E[M̂(r̃) | r] - M(r))²`` under a prior ``p(r)`` of true ranks
  (uniform by default). The system is ill-conditioned: beyond small cases
  its values swing by orders of magnitude (1e10 for n = 1000, m = 99) and
  its variance swamps everything, which is why the paper adds ``γ``.
* ``"bias_variance"``: adds ``γ`` times the variance:
  ``M̂ = ((1 - γ) AᵀA + γ diag(c))⁻¹ Aᵀb`` with ``A = diag(√p) P``,
  ``b = √p ∘ M`` and ``c = Pᵀp``. ``γ = 0`` is minimal bias, ``γ = 1`` the
  posterior mean ``E[M(r) | r̃]``; the paper found ``γ = 0.1`` best.

Their advice stands: do not sample if you can rank the whole catalogue.
"""

from dataclasses import dataclass
from math import lgamma

import numpy as np

from ..core.checks import check_number_array, check_probability, check_whole
from ..core.explained import Explained
from ..i18n import _, gettext, mark
from ..core.table import Table
from ..core.validation import check_choice, check_k, shown

__all__ = ["rank_distribution", "sampled_metric_expectation", "corrected_metric", "sampled_metric_estimates",
           "CorrectedMetric", "SampledEstimates"]

METRICS = ("recall", "ndcg", "ap", "auc")
METHODS = ("naive", "rank_estimate", "minimal_bias", "bias_variance")
SAMPLING = ("with_replacement", "without_replacement")
MAX_ROWS = 12  # sampled ranks the table shows
_METHOD_NAMES = {"naive": mark("uncorrected"), "rank_estimate": mark("rank estimate"),
                 "minimal_bias": mark("minimal bias"), "bias_variance": mark("bias-variance, γ = {gamma:g}")}


def metric_of_rank(metric, ranks, size, k=None):
    """A one-relevant-item metric at each rank of a list of ``size`` items.

    ``recall`` (HitRate@k): 1 when ``r ≤ k``; ``ndcg``: ``1/log2(r + 1)`` (0
    beyond ``k``); ``ap``: ``1/r`` (the reciprocal rank; 0 beyond ``k``);
    ``auc``: ``(size - r)/(size - 1)``, the share of the other items ranked below.

    Examples
    --------
    >>> metric_of_rank("ndcg", np.array([1, 3, 11]), 100, k=10).round(4).tolist()
    [1.0, 0.5, 0.0]
    """
    ranks = np.asarray(ranks, dtype=np.float64)
    cut = np.ones_like(ranks) if k is None else (ranks <= k).astype(np.float64)
    if metric == "recall":
        return cut
    if metric == "ndcg":
        return cut / np.log2(ranks + 1)
    if metric == "ap":
        return cut / ranks
    return (size - ranks) / (size - 1)


def _log_factorials(top):
    return np.array([lgamma(i + 1) for i in range(top + 1)])


def rank_distribution(n, m, *, sampling="with_replacement"):
    """``P[r - 1, r̃ - 1]``: the chance of sampled rank ``r̃`` given true rank ``r``, for ``r = 1..n``. Lesson 14.

    Parameters
    ----------
    n : int
        Items in the catalogue (the held-out item and ``n - 1`` negatives), at least 2.
    m : int
        Negatives sampled, from 1 to ``n - 1`` (without replacement).
    sampling : {"with_replacement", "without_replacement"}, default "with_replacement"
        Binomial (Krichene & Rendle's analysis) or hypergeometric.

    Returns
    -------
    numpy.ndarray
        ``n`` rows of ``m + 1`` probabilities, each row adding up to 1.

    Examples
    --------
    >>> rank_distribution(3, 1)  # one negative: it beats an item of rank r with chance (r - 1)/2
    array([[1. , 0. ],
           [0.5, 0.5],
           [0. , 1. ]])
    """
    n, m, sampling = _check_sizes(n, m, sampling)
    beaten = np.arange(m + 1)[None, :]  # sampled negatives that beat the item: r̃ - 1
    better = np.arange(n)[:, None]  # negatives that beat it in the catalogue: r - 1
    log_factorial = _log_factorials(n)
    if sampling == "with_replacement":
        p = better / (n - 1)
        with np.errstate(divide="ignore", invalid="ignore"):
            log = (log_factorial[m] - log_factorial[beaten] - log_factorial[m - beaten]
                   + np.where(beaten > 0, beaten * np.log(p), 0.0)
                   + np.where(m - beaten > 0, (m - beaten) * np.log1p(-p), 0.0))
        return np.exp(np.nan_to_num(log, nan=-np.inf))
    worse = n - 1 - better
    possible = (beaten <= better) & (m - beaten <= worse)
    safe_a, safe_b = np.where(possible, better - beaten, 0), np.where(possible, worse - (m - beaten), 0)
    log = (log_factorial[better] - log_factorial[beaten] - log_factorial[safe_a]
           + log_factorial[worse] - log_factorial[np.where(possible, m - beaten, 0)] - log_factorial[safe_b]
           - (log_factorial[n - 1] - log_factorial[m] - log_factorial[n - 1 - m]))
    return np.exp(np.where(possible, log, -np.inf))


def _check_sizes(n, m, sampling):
    n = check_whole("n", n, mark("items in the catalogue"), low=2)
    m = check_whole("m", m, mark("sampled negatives"), low=1)
    check_choice("sampling", sampling, SAMPLING)
    if sampling == "without_replacement" and m > n - 1:
        raise ValueError(gettext("m must be at most n - 1 = {value} when sampling without replacement (there are "
                                 "only {value} negatives). Got {m} instead.").format(value=n - 1, m=m))
    return n, m, sampling


def sampled_metric_expectation(rank, n, m, metric, *, k=None, sampling="with_replacement"):
    """The expected uncorrected sampled metric ``Σ_r̃ p(r̃ | r) M(r̃)`` for an item at rank ``rank``. Lesson 14.

    Examples
    --------
    Catalogue of 10,000, item at rank 100, 99 sampled negatives: on average
    about one negative beats it, so it nearly always lands in the top 10:

    >>> round(sampled_metric_expectation(100, 10_000, 99, "recall", k=10), 4)
    1.0
    >>> round(float(metric_of_rank("recall", [100], 10_000, k=10)[0]), 4)  # on the full catalogue: a miss
    0.0
    """
    metric = check_choice("metric", metric, METRICS)
    n, m, sampling = _check_sizes(n, m, sampling)
    rank = check_whole("rank", rank, mark("the item's rank in the catalogue"), low=1)
    if rank > n:
        raise ValueError(gettext("rank must be at most n = {n}. Got {rank} instead.").format(n=n, rank=rank))
    row = rank_distribution(n, m, sampling=sampling)[rank - 1]
    return float(row @ metric_of_rank(metric, np.arange(1, m + 2), m + 1, check_k(k)))


@dataclass(frozen=True, repr=False, eq=False)
class CorrectedMetric(Explained):
    """Corrected values ``M̂(r̃)`` of a metric for each sampled rank (from :func:`corrected_metric`). Lesson 14.

    Attributes
    ----------
    metric, method, sampling : str
    n, m : int
    k : int or None
    gamma : float or None
    values : numpy.ndarray
        ``M̂(1) .. M̂(m + 1)``.
    naive : numpy.ndarray
        ``M(1) .. M(m + 1)`` on the sampled list.
    squared_bias, variance : float
        ``Σ_r p(r)·(E[M̂ | r] - M(r))²`` and ``Σ_r p(r)·Var[M̂ | r]`` under the prior.
    """

    metric: str
    method: str
    sampling: str
    n: int
    m: int
    k: int
    gamma: float
    values: np.ndarray
    naive: np.ndarray
    squared_bias: float
    variance: float

    def estimate(self, sampled_ranks):
        """The corrected metric of a set of users: the mean of ``M̂`` at their sampled ranks.

        Examples
        --------
        >>> corrected_metric(1000, 10, "recall", k=10, method="naive").estimate([1, 2, 11])  # hits at 1 and 2
        0.6666666666666666
        """
        ranks = check_number_array("sampled_ranks", sampled_ranks, mark("each user's rank among the sampled list"))
        if ranks.size == 0 or not np.all(ranks == np.round(ranks)) or ranks.min() < 1 or ranks.max() > self.m + 1:
            raise ValueError(gettext("sampled_ranks must be whole numbers from 1 to m + 1 = {value}. Got {got} "
                                     "instead.").format(value=self.m + 1, got=shown(sampled_ranks)))
        return float(self.values[ranks.astype(np.int64) - 1].mean())

    def _parts(self):
        language = self.language
        shown_rows = min(self.m + 1, MAX_ROWS)
        rows = tuple((r, float(self.naive[r - 1]), float(self.values[r - 1])) for r in range(1, shown_rows + 1))
        table = Table(None, ("r~", "M", "corrected"), rows, align="rrr",
                      shown_headers=("r̃", _("M(r̃) uncorrected", language), "M̂(r̃)"))
        distribution = ("p(r̃ | r) = B(r̃ - 1; m, (r - 1)/(n - 1))" if self.sampling == "with_replacement"
                        else "p(r̃ | r) = H(r̃ - 1; n - 1, r - 1, m)")
        formula = (
            distribution + f",  n = {self.n}, m = {self.m}",
            _(_RULES[self.method], language),
            _("under a uniform prior of true ranks: mean squared bias {bias}, mean variance {variance}",
              language).format(bias=f"{self.squared_bias:.3g}", variance=f"{self.variance:.3g}"),
        )
        notes = (_("the table shows the first {shown} of {total} sampled ranks", language).format(
            shown=shown_rows, total=self.m + 1),) if self.m + 1 > shown_rows else ()
        name = _(_METHOD_NAMES[self.method], language).format(gamma=self.gamma or 0.0)
        k = "" if self.k is None else f"@{self.k}"
        return _("{label}: {text}", language).format(label=f"{self.metric}{k}", text=name), (table,), formula, notes


_RULES = {
    "naive": mark("M̂(r̃) = M(r̃): the metric on the sampled list, uncorrected"),
    "rank_estimate": mark("M̂(r̃) = M(⌊1 + (n - 1)(r̃ - 1)/m⌋): the metric at the rank the sample suggests"),
    "minimal_bias": mark("M̂ = argmin Σ_r p(r)·(Σ_r̃ p(r̃|r)·M̂(r̃) - M(r))²: least squares (γ = 0)"),
    "bias_variance": mark("M̂ = ((1 - γ)·AᵀA + γ·diag(c))⁻¹·Aᵀb, A = diag(√p)·P, b = √p ∘ M, "
                          "c = Pᵀp"),
}


def corrected_metric(n, m, metric, *, k=None, method="bias_variance", gamma=0.1, prior=None,
                     sampling="with_replacement"):
    """Krichene & Rendle's corrected values of a metric at each sampled rank. Lesson 14.

    Parameters
    ----------
    n : int
        Items in the catalogue.
    m : int
        Sampled negatives per user.
    metric : {"recall", "ndcg", "ap", "auc"}
        With one held-out item: HitRate@k, NDCG@k, AP (= RR), AUC.
    k : int or None, default None
        The cut-off of recall, ndcg and ap (recall needs one).
    method : {"naive", "rank_estimate", "minimal_bias", "bias_variance"}, default "bias_variance"
    gamma : float, default 0.1
        The weight of the variance (``bias_variance`` only), from 0 to 1.
    prior : sequence of float or None, default None
        ``p(r)`` for ``r = 1..n``; None is uniform.
    sampling : {"with_replacement", "without_replacement"}, default "with_replacement"

    Returns
    -------
    CorrectedMetric

    Examples
    --------
    >>> corrected = corrected_metric(100, 9, "recall", k=10, method="rank_estimate")
    >>> corrected.values[:3].tolist()  # r̃ = 1, 2, 3 suggest ranks 1, 12, 23: only the first is in the top 10
    [1.0, 0.0, 0.0]
    >>> posterior = corrected_metric(100, 9, "recall", k=10, gamma=1.0)
    >>> round(float(posterior.values[0]), 4)  # γ = 1: Σ_(r≤10) (1 - (r-1)/99)⁹ / Σ_(r≤100) (1 - (r-1)/99)⁹
    0.6533
    """
    metric = check_choice("metric", metric, METRICS)
    method = check_choice("method", method, METHODS)
    n, m, sampling = _check_sizes(n, m, sampling)
    k = check_k(k)
    if metric == "recall" and k is None:
        raise ValueError(gettext("k must be given for recall (HitRate@k): without a cut-off every rank is a hit. "
                                 "Got None instead."))
    gamma = check_probability("gamma", gamma, mark("the weight of the variance against the squared bias"))
    weights = np.full(n, 1.0 / n) if prior is None else check_number_array("prior", prior, mark("p(r) for r = 1..n"))
    if weights.size != n or (weights < 0).any() or not np.isclose(weights.sum(), 1.0, atol=1e-9):
        raise ValueError(gettext("prior must give each of the n = {n} ranks a probability, adding up to 1. Got "
                                 "{got} instead.").format(n=n, got=shown(prior)))
    distribution = rank_distribution(n, m, sampling=sampling)
    truth = metric_of_rank(metric, np.arange(1, n + 1), n, k)
    sampled = np.arange(1, m + 2)
    naive = metric_of_rank(metric, sampled, m + 1, k)
    if method == "naive":
        values = naive
    elif method == "rank_estimate":
        values = metric_of_rank(metric, np.floor(1 + (n - 1) * (sampled - 1) / m), n, k)
    else:
        a = np.sqrt(weights)[:, None] * distribution
        b = np.sqrt(weights) * truth
        if method == "minimal_bias" or gamma == 0:
            values = np.linalg.lstsq(a, b, rcond=None)[0]
        else:
            values = np.linalg.solve((1 - gamma) * a.T @ a + gamma * np.diag(distribution.T @ weights), a.T @ b)
    expected = distribution @ values
    variance = distribution @ values**2 - expected**2
    return CorrectedMetric(metric, method, sampling, n, m, k, gamma if method == "bias_variance" else None, values,
                           naive, float(weights @ (expected - truth) ** 2), float(weights @ variance))


@dataclass(frozen=True, repr=False)
class SampledEstimates(Explained):
    """One set of users' metric, uncorrected and corrected (from :func:`sampled_metric_estimates`). Lesson 14.

    Attributes
    ----------
    metric : str
    k : int or None
    methods : tuple of str
    values : tuple of float
    users : int
    exact : float or None
        The metric on the full catalogue, when the users' true ranks were given.
    """

    metric: str
    k: int
    methods: tuple
    values: tuple
    users: int
    gamma: float
    exact: float = None

    def _parts(self):
        language = self.language
        rows = tuple((_(_METHOD_NAMES[method], language).format(gamma=self.gamma), float(value))
                     for method, value in zip(self.methods, self.values))
        if self.exact is not None:
            rows += ((_("full catalogue (the truth)", language), float(self.exact)),)
        table = Table(None, ("estimate", "value"), rows, align="lr",
                      shown_headers=(_("estimate", language), _("value", language)))
        k = "" if self.k is None else f"@{self.k}"
        formula = (_("each estimate is the mean over {users} users of M̂ at their sampled rank", language).format(
            users=self.users),)
        return _("{metric}{k} from sampled negatives", language).format(metric=self.metric, k=k), (table,), formula, ()


def sampled_metric_estimates(sampled_ranks, n, m, metric, *, k=None, gamma=0.1, sampling="with_replacement",
                             full_ranks=None, methods=("naive", "rank_estimate", "bias_variance")):
    """A set of users' metric from their sampled ranks: uncorrected and with each correction. Lesson 14.

    Parameters
    ----------
    sampled_ranks : sequence of int
        Each user's held-out item's rank among itself and the ``m`` negatives.
    n, m, metric, k, gamma, sampling
        As for :func:`corrected_metric` (uniform prior).
    full_ranks : sequence of int or None
        The same users' ranks in the full catalogue, to show the truth beside the estimates.
    methods : sequence of str, default ("naive", "rank_estimate", "bias_variance")
        Which estimates to give (``"minimal_bias"`` too, for small catalogues).

    Returns
    -------
    SampledEstimates

    Examples
    --------
    >>> result = sampled_metric_estimates([1, 3, 8], 1000, 99, "recall", k=10, full_ranks=[5, 40, 70])
    >>> result.values[0], result.exact  # every sampled rank is in the top 10; only one full rank is
    (1.0, 0.3333333333333333)
    """
    if isinstance(methods, str) or not methods:
        raise TypeError(gettext("methods must be a list of estimates to give, e.g. ('naive', 'bias_variance'). "
                                "Got {got} instead.").format(got=shown(methods)))
    methods = tuple(check_choice("methods", method, METHODS) for method in methods)
    values = tuple(corrected_metric(n, m, metric, k=k, method=method, gamma=gamma, sampling=sampling)
                   .estimate(sampled_ranks) for method in methods)
    exact = None
    if full_ranks is not None:
        ranks = check_number_array("full_ranks", full_ranks, mark("each user's rank in the full catalogue"))
        if ranks.size != np.size(sampled_ranks) or ranks.min() < 1 or ranks.max() > n:
            raise ValueError(gettext("full_ranks must hold one rank from 1 to n = {n} per user of sampled_ranks. "
                                     "Got {got} instead.").format(n=n, got=shown(full_ranks)))
        exact = float(metric_of_rank(metric, ranks, n, k).mean())
    return SampledEstimates(metric, k, methods, values, int(np.size(sampled_ranks)), gamma, exact)
