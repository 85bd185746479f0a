"""What a paired significance test returns: :class:`SignificanceResult` and :class:`BootstrapInterval`. Lesson 13.

The tests themselves are in :mod:`ndcg_teach.statistics.significance`; the many-systems
tests of :mod:`ndcg_teach.statistics.many_systems` print their p-values the same way.
A result names the difference it tested after the systems it was given
(``labels``, "a" and "b" unless the caller names them): a lesson that passes
B's scores first and says ``labels=("B", "A")`` reads "mean difference B - A".
"""

from dataclasses import dataclass, field
from html import escape

import numpy as np

from .. import i18n
from ..i18n import _, gettext_matching, mark
from ..core.table import Table, formula_block, styled

__all__ = ["SignificanceResult", "BootstrapInterval"]


def cohen_dz(differences):
    """Paired Cohen's d (d_z): the mean difference in standard deviations of the differences."""
    spread = float(np.std(differences, ddof=1))
    mean = float(np.mean(differences))
    if spread == 0:
        return 0.0 if mean == 0 else float(np.copysign(np.inf, mean))
    return mean / spread


def p_text(p):
    """A p-value as printed: four decimals, or scientific notation below 0.0001.

    Examples
    --------
    >>> p_text(0.05), p_text(0.00001234)
    ('0.0500', '1.23e-05')
    """
    return f"{p:.4f}" if p >= 1e-4 else f"{p:.2e}"


# A result keeps its test's name (one of _TESTS) and details as English keys; they are shown in the result's language.
_TESTS = (mark("paired t-test"), mark("Wilcoxon signed-rank test"), mark("paired randomisation test"))
_DETAILS = (
    (r"all (?P<n>\d+) sign assignments \(exact\)", mark("all {n} sign assignments (exact)")),
    (r"(?P<n>\d+) random sign assignments, seed (?P<seed>.+)", mark("{n} random sign assignments, seed {seed}")),
    (r"exact", mark("exact")),
    (r"normal", mark("normal")),
)


def _details(details, language):
    """``details`` in ``language``: its words translated, its numbers kept."""
    return gettext_matching(details, _DETAILS, language)


@dataclass(frozen=True)
class SignificanceResult:
    """The outcome of a paired test on per-query scores of systems A and B.

    Attributes
    ----------
    test : str
        Which test, e.g. ``"paired t-test"``.
    statistic : float
        The test statistic (t; Wilcoxon's smaller rank sum; the mean difference).
    p_value : float
        Two-sided: the chance, if A and B were equally good, of a statistic at
        least this far from what no difference gives.
    mean_difference : float
        Mean of ``a - b`` over the queries (positive: the first system given scores higher).
    effect_size : float
        How big the difference is, whatever the number of queries; see
        ``effect_size_name``.
    effect_size_name : str
        ``"d_z"`` (mean difference / standard deviation of the differences,
        paired Cohen's d) or ``"r"`` (matched-pairs rank-biserial correlation,
        Kerby 2014: (W+ - W-) / (W+ + W-), from -1 to 1).
    n : int
        Queries the test used (Wilcoxon drops queries with difference 0).
    details : str
        Degrees of freedom, method or resamples.
    labels : (str, str)
        What the result calls the two systems, first and second: the
        difference it prints is ``labels[0] - labels[1]``.
    language : str
        The language set when the test ran; the result is shown in it.

    Examples
    --------
    >>> from ndcg_teach.statistics.significance import paired_t_test
    >>> result = paired_t_test([0.5, 0.6, 0.7], [0.4, 0.4, 0.6])
    >>> round(result.statistic, 4), round(result.p_value, 4)
    (4.0, 0.0572)
    """

    test: str
    statistic: float
    p_value: float
    mean_difference: float
    effect_size: float
    effect_size_name: str
    n: int
    details: str = ""
    labels: tuple = ("a", "b")
    language: str = field(default_factory=i18n.language, repr=False, compare=False)

    def __str__(self):
        return _("{test}: statistic = {statistic:.4f}, p = {p} ({details}); mean difference {first} - {second} = "
                 "{mean:+.4f}, effect size {effect_name} = {effect:.4f}, n = {n} queries", self.language).format(
            test=_(self.test, self.language), statistic=self.statistic, p=p_text(self.p_value),
            details=_details(self.details, self.language), first=self.labels[0], second=self.labels[1],
            mean=self.mean_difference, effect_name=self.effect_size_name, effect=self.effect_size, n=self.n)

    @property
    def shown_details(self):
        """``details`` in the result's language, e.g. "all 256 sign assignments (exact)"."""
        return _details(self.details, self.language)

    def _table(self):
        language = self.language
        return Table(_(self.test, language), ("", "value"), (
            (_("statistic", language), float(self.statistic)), (_("p-value", language), p_text(self.p_value)),
            (_("mean difference {first} - {second}", language).format(first=self.labels[0], second=self.labels[1]),
             float(self.mean_difference)),
            (_("effect size {name}", language).format(name=self.effect_size_name), float(self.effect_size)),
            (_("queries", language), self.n), (_("details", language), _details(self.details, language))),
            align="lr", shown_headers=("", _("value", language)))

    def _repr_html_(self):
        return styled(self._table().html(), kind="ndcg-significance")


@dataclass(frozen=True)
class BootstrapInterval:
    """A bootstrap confidence interval of the mean per-query difference ``a - b``.

    Attributes
    ----------
    low, high : float
        The interval's ends.
    statistic : float
        The observed mean difference (the interval's centre of interest).
    confidence : float
        E.g. 0.95.
    effect_size : float
        Paired Cohen's d (d_z) of the observed differences.
    n : int
        Queries.
    resamples : int
        Bootstrap resamples drawn.
    labels : (str, str)
        What the interval calls the two systems: it is of ``labels[0] - labels[1]``.

    Examples
    --------
    >>> from ndcg_teach.statistics.significance import bootstrap_interval
    >>> interval = bootstrap_interval([0.5, 0.6, 0.7, 0.9], [0.4, 0.4, 0.6, 0.9], n=2000)
    >>> interval.low <= interval.statistic <= interval.high
    True
    """

    low: float
    high: float
    statistic: float
    confidence: float
    effect_size: float
    n: int
    resamples: int
    labels: tuple = ("a", "b")
    language: str = field(default_factory=i18n.language, repr=False, compare=False)

    @property
    def excludes_zero(self):
        """True when 0 lies outside the interval: the data favour one system at this confidence."""
        return not self.low <= 0 <= self.high

    def __str__(self):
        return _("bootstrap {confidence:.0%} interval of the mean difference {first} - {second}: [{low:+.4f}, "
                 "{high:+.4f}] around {statistic:+.4f} ({resamples} resamples of {n} queries; effect size d_z = "
                 "{effect:.4f})", self.language).format(
            confidence=self.confidence, first=self.labels[0], second=self.labels[1], low=self.low, high=self.high,
            statistic=self.statistic, resamples=self.resamples, n=self.n, effect=self.effect_size)

    def _repr_html_(self):
        return styled(formula_block(escape(str(self))), kind="ndcg-significance")
