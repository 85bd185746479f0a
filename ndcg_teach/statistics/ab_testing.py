"""How many users an A/B test needs: sample sizes and power from the normal approximation. Lesson 18.

An A/B test splits users at random between the current ranker (control)
and a new one (treatment) and compares a rate such as the click-through
rate. To find a true difference ``δ`` with probability ``1 - β`` (the
power) in a two-sided test at level ``α``, each arm needs

    n = (z_{1-α/2}·σ_0 + z_{1-β}·σ_1)² / δ²

where ``σ_0`` is the spread of the difference if there were none and
``σ_1`` its spread under the alternative (Fleiss, Levin & Paik 2003,
without continuity correction). :func:`ab_test_size` does this for
proportions, :func:`ab_test_size_means` for a per-user mean (clicks per
user, time to first click) and :func:`ab_test_power` goes the other way.
The count is of whatever was randomised: users, not impressions (one
user's impressions are not independent of each other).
"""

from dataclasses import dataclass
from math import ceil, sqrt
from statistics import NormalDist

from ..core.explained import Explained, number
from ..i18n import _, gettext, mark
from ..core.table import Table
from ..core.validation import check_open_unit, check_positive, shown

__all__ = ["ab_test_size", "ab_test_size_means", "ab_test_power", "SampleSize"]

_NORMAL = NormalDist()


def _z(probability):
    return _NORMAL.inv_cdf(probability)


@dataclass(frozen=True, repr=False)
class SampleSize(Explained):
    """Users per arm that an A/B test needs (from :func:`ab_test_size` and :func:`ab_test_size_means`). Lesson 18.

    Attributes
    ----------
    n_treatment, n_control : int
        Users in each arm, rounded up.
    exact : float
        ``n_treatment`` before rounding up.
    difference : float
        The difference to find (treatment - control).
    sd_null, sd_alternative : float
        ``σ_0`` and ``σ_1`` for one user in the treatment arm (the control arm's share scaled by ``ratio``).
    alpha, power, ratio : float
    kind : str
        ``"proportions"`` or ``"means"``.
    control, treatment : float
        The two rates (proportions) or the standard deviation and 0 (means).
    """

    n_treatment: int
    n_control: int
    exact: float
    difference: float
    sd_null: float
    sd_alternative: float
    alpha: float
    power: float
    ratio: float
    kind: str
    control: float
    treatment: float

    @property
    def total(self):
        """Users in both arms."""
        return self.n_treatment + self.n_control

    def _parts(self):
        language = self.language
        z_alpha, z_beta = _z(1 - self.alpha / 2), _z(self.power)
        rows = [(_("level α (two-sided)", language), self.alpha), ("z_(1-α/2)", z_alpha),
                (_("power 1 - β", language), self.power), ("z_(1-β)", z_beta)]
        if self.kind == "proportions":
            pooled = (self.treatment + self.ratio * self.control) / (1 + self.ratio)
            rows += [(_("control rate", language), self.control), (_("treatment rate", language), self.treatment)]
            spreads = (
                f"σ_0 = √(p̄(1 - p̄)(1 + 1/r)) = "
                f"√({number(pooled)}·{number(1 - pooled)}·{1 + 1 / self.ratio:g}) = "
                f"{number(self.sd_null)}   (p̄ = {number(pooled)})",
                f"σ_1 = √(p_t(1 - p_t) + p_c(1 - p_c)/r) = {number(self.sd_alternative)}",
            )
        else:
            rows += [(_("standard deviation per user", language), self.control)]
            spreads = (f"σ_0 = σ_1 = σ·√(1 + 1/r) = {number(self.control)}·√{1 + 1 / self.ratio:g} = "
                       f"{number(self.sd_null)}",)
        table = Table(None, ("", "value"), tuple(rows), align="lr", shown_headers=("", _("value", language)))
        formula = spreads + (
            f"n = (z_(1-α/2)·σ_0 + z_(1-β)·σ_1)² / δ² = ({number(z_alpha)}·{number(self.sd_null)} + "
            f"{number(z_beta)}·{number(self.sd_alternative)})² / {self.difference:.4g}² = {self.exact:.1f}",
            _("rounded up: {treatment} users get the treatment and {control} the control ({total} in all)",
              language).format(treatment=self.n_treatment, control=self.n_control, total=self.total),
        )
        notes = (_("r = control users per treatment user = {ratio:g}; count what was randomised (users), not "
                   "impressions", language).format(ratio=self.ratio),)
        title = _("A/B test: {n} users per arm to find a difference of {difference:+.4g} with power {power:.0%}",
                  language).format(n=self.n_treatment, difference=self.difference, power=self.power)
        return title, (table,), formula, notes


def _check_rate(name, value):
    return check_open_unit(name, value, mark("a rate such as the click-through rate"))


def _check_design(alpha, power, ratio):
    alpha = check_open_unit("alpha", alpha, mark("the two-sided significance level"))
    power = check_open_unit("power", power, mark("the chance to find the difference when it is real"))
    ratio = check_positive("ratio", ratio, mark("control users per treatment user"))
    if power <= alpha / 2:
        raise ValueError(gettext("power must exceed alpha / 2 ({value:g}): any sample size reaches a lower "
                                 "power. Got {got} instead.").format(value=alpha / 2, got=shown(power)))
    return alpha, power, ratio


def _size(difference, sd_null, sd_alternative, alpha, power, ratio, kind, control, treatment):
    exact = ((_z(1 - alpha / 2) * sd_null + _z(power) * sd_alternative) / difference) ** 2
    n = ceil(exact - 1e-9)  # an exact whole number stays itself despite rounding in the last digit
    return SampleSize(n, ceil(n * ratio - 1e-9), exact, difference, sd_null, sd_alternative, alpha, power, ratio,
                      kind, control, treatment)


def ab_test_size(p_control, p_treatment, *, alpha=0.05, power=0.8, ratio=1.0):
    """Users per arm to find a change in a rate (CTR, conversion) with a two-sided z-test. Lesson 18.

    ``n = (z_{1-α/2}·σ_0 + z_{1-β}·σ_1)² / δ²`` with ``δ = p_t - p_c``,
    ``σ_0 = √(p̄(1 - p̄)(1 + 1/r))`` (``p̄`` the pooled rate) and
    ``σ_1 = √(p_t(1 - p_t) + p_c(1 - p_c)/r)``. The same number as
    statsmodels' ``samplesize_proportions_2indep_onetail`` (two-sided),
    which, like this formula, leaves out the far tail's tiny share of power.

    Parameters
    ----------
    p_control, p_treatment : float
        The control's rate and the treatment's rate to be found (strictly between 0 and 1, not equal).
    alpha : float, default 0.05
        Two-sided significance level.
    power : float, default 0.8
        The chance of a significant result when the difference is real.
    ratio : float, default 1.0
        Control users per treatment user (``r``).

    Returns
    -------
    SampleSize

    Examples
    --------
    CTR 10% today; to find 11%:

    >>> size = ab_test_size(0.10, 0.11)
    >>> size.n_treatment  # (1.96·√(0.105·0.895·2) + 0.8416·√(0.11·0.89 + 0.1·0.9))² / 0.01²
    14751
    >>> ab_test_size(0.10, 0.12).n_treatment  # twice the difference, about a quarter of the users
    3841
    """
    control, treatment = _check_rate("p_control", p_control), _check_rate("p_treatment", p_treatment)
    alpha, power, ratio = _check_design(alpha, power, ratio)
    if control == treatment:
        raise ValueError(gettext("p_treatment must differ from p_control: no sample size finds a difference of "
                                 "0. Got {p_treatment} for both instead.").format(p_treatment=shown(p_treatment)))
    pooled = (treatment + ratio * control) / (1 + ratio)
    sd_null = sqrt(pooled * (1 - pooled) * (1 + 1 / ratio))
    sd_alternative = sqrt(treatment * (1 - treatment) + control * (1 - control) / ratio)
    return _size(treatment - control, sd_null, sd_alternative, alpha, power, ratio, "proportions", control, treatment)


def ab_test_size_means(difference, sd, *, alpha=0.05, power=0.8, ratio=1.0):
    """Users per arm to find a change ``difference`` in a per-user mean with spread ``sd``. Lesson 18.

    ``n = (z_{1-α/2} + z_{1-β})²·σ²·(1 + 1/r) / δ²``: with ``r = 1``, the
    familiar ``2(z_{1-α/2} + z_{1-β})²(σ/δ)²``, about ``15.7 (σ/δ)²`` at
    α = 0.05 and 80% power. (Lesson 13's paired version needs half: every
    query sees both systems.) The same number as statsmodels'
    ``NormalIndPower`` one-sided at α/2.

    Parameters
    ----------
    difference : float
        The change to find (not 0), in the metric's units.
    sd : float
        The metric's standard deviation across users (positive).
    alpha, power, ratio
        As for :func:`ab_test_size`.

    Returns
    -------
    SampleSize

    Examples
    --------
    >>> ab_test_size_means(0.1, 1.0).n_treatment  # 2·(1.96 + 0.8416)²·(1/0.1)² = 1569.8
    1570
    """
    if isinstance(difference, bool) or not isinstance(difference, (int, float)) or difference == 0 \
            or difference != difference or abs(difference) == float("inf"):
        raise ValueError(gettext("difference must be a finite number other than 0: the change to find. Got {got} "
                                 "instead.").format(got=shown(difference)))
    sd = check_positive("sd", sd, mark("the metric's standard deviation across users"))
    alpha, power, ratio = _check_design(alpha, power, ratio)
    spread = sd * sqrt(1 + 1 / ratio)
    return _size(float(difference), spread, spread, alpha, power, ratio, "means", sd, 0.0)


def ab_test_power(n_treatment, p_control, p_treatment, *, alpha=0.05, ratio=1.0):
    """The power of a two-sided test of two rates with ``n_treatment`` users. Lesson 18.

    The control arm has ``ratio`` times as many users.

    The inverse of :func:`ab_test_size`:
    ``power = Φ((|δ|·√n - z_{1-α/2}·σ_0) / σ_1)``, the far tail left out.

    Examples
    --------
    >>> round(ab_test_power(14751, 0.10, 0.11), 3)  # the size ab_test_size gives for 80%
    0.8
    >>> round(ab_test_power(1000, 0.10, 0.11), 3)  # a thousand users each: mostly missed
    0.109
    """
    if isinstance(n_treatment, bool) or not isinstance(n_treatment, (int, float)) or not n_treatment > 0 \
            or n_treatment == float("inf"):
        raise ValueError(gettext("n_treatment must be a positive number of users. Got {got} instead.")
                                .format(got=shown(n_treatment)))
    control, treatment = _check_rate("p_control", p_control), _check_rate("p_treatment", p_treatment)
    alpha = check_open_unit("alpha", alpha, mark("the two-sided significance level"))
    ratio = check_positive("ratio", ratio, mark("control users per treatment user"))
    pooled = (treatment + ratio * control) / (1 + ratio)
    sd_null = sqrt(pooled * (1 - pooled) * (1 + 1 / ratio))
    sd_alternative = sqrt(treatment * (1 - treatment) + control * (1 - control) / ratio)
    return _NORMAL.cdf((abs(treatment - control) * sqrt(n_treatment) - _z(1 - alpha / 2) * sd_null) / sd_alternative)
