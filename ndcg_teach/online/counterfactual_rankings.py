"""Position-based IPS: a new ranking's value from clicks logged on an old one. Lesson 19.

Treating a whole ranking as one action makes IPS hopeless: a new ranking
was almost never shown whole. Under the position-based click model
(:class:`~ndcg_teach.online.click_models.PositionBasedModel`) an item shown at
position ``k`` is clicked with chance ``θ_k·α_d``, so a click, divided by the
examination chance ``θ_k`` of the position it was logged at, is an unbiased
estimate of the item's attractiveness ``α_d`` (Wang et al. 2016; Joachims,
Swaminathan & Schnabel 2017). The new ranking ``σ``'s expected clicks,
``V(σ) = Σ_i θ_i·α_{σ(i)}``, then follow item by item:

    V̂_IPS = Σ_{clicked d} θ_{rank_σ(d)} / θ_{rank_logged(d)}

The naive estimate counts each click as if the item had been examined for
sure (``Σ_{clicked d} θ_{rank_σ(d)}``) and so inherits the logged ranking's
position bias. An item never shown by the logging policy contributes
nothing: IPS cannot see it, and stays biased wherever the new ranking puts
such items.
"""

from dataclasses import dataclass

import numpy as np

from ..core.checks import check_grade_map
from .click_models import PositionBasedModel
from ..core.explained import Explained, number
from ..i18n import _, gettext
from ..core.item_checks import check_ranking
from ..core.table import Table
from ..core.validation import shown

__all__ = ["position_based_ips", "position_based_exact", "RankingEstimate", "RankingMoments"]


def _check_logging(logging):
    """``[(ranking, probability), ...]``: one ranking (always shown) or several with their chances."""
    if isinstance(logging, (list, tuple)) and logging and all(isinstance(item, str) for item in logging):
        return [(tuple(check_ranking(logging, "logging")), 1.0)]
    if not isinstance(logging, (list, tuple)) or not logging or not all(
            isinstance(pair, (list, tuple)) and len(pair) == 2 for pair in logging):
        raise TypeError(gettext("logging must be a ranking (item ids, best first) or a list of (ranking, "
                                "probability) pairs. Got {got} instead.").format(got=shown(logging)))
    pairs = [(tuple(check_ranking(ranking, "logging")), pair_chance) for ranking, pair_chance in logging]
    chances = np.array([p for _, p in pairs], dtype=np.float64)
    if (chances < 0).any() or not np.isclose(chances.sum(), 1.0, atol=1e-9):
        raise ValueError(gettext("logging's probabilities must be from 0 to 1 and add up to 1. Got {got} instead.")
                                .format(got=shown(chances.tolist())))
    return pairs


def _examination(model, length):
    if not isinstance(model, PositionBasedModel):
        raise TypeError(gettext("model must be a PositionBasedModel (its θ are the propensities). Got {got} "
                                "instead.").format(got=shown(model)))
    return model.examination_of(length)


@dataclass(frozen=True, repr=False)
class RankingEstimate(Explained):
    """IPS and naive estimates of a new ranking's expected clicks from logged sessions. Lesson 19.

    Returned by :func:`position_based_ips`.
    Lesson 19.

    Attributes
    ----------
    value : float
        The IPS estimate (per session).
    naive : float
        The naive estimate (per session).
    items : tuple of str
        The new ranking's items.
    clicks : tuple of int
        Logged clicks on each of them.
    weights : tuple of float
        Sum over each item's clicks of ``1 / θ_logged``: its estimated attractiveness times the sessions.
    sessions : int
    examination : tuple of float
        ``θ`` of the new ranking's positions.
    """

    value: float
    naive: float
    items: tuple
    clicks: tuple
    weights: tuple
    sessions: int
    examination: tuple

    def _parts(self):
        language = self.language
        rows = tuple((i, item, clicks, float(w / self.sessions), float(theta), float(theta * w / self.sessions))
                     for i, (item, clicks, w, theta) in
                     enumerate(zip(self.items, self.clicks, self.weights, self.examination), 1))
        table = Table(None, ("i", "item", "clicks", "alpha", "theta", "term"), rows, align="rlrrrr",
                      shown_headers=("i", _("item", language), _("logged clicks", language),
                                     "α̂ = Σ 1/θ_logged / n", "θ_i", "θ_i·α̂"))
        terms = " + ".join(number(row[5]) for row in rows if row[5])
        formula = (
            _("α̂_d = (1/n) Σ over the clicks on d of 1 / θ(position d was logged at); n = {n} sessions",
              language).format(n=self.sessions),
            f"V̂_IPS = Σ_i θ_i·α̂_(σ(i)) = {terms or '0'} = {number(self.value)}",
            _("naive (clicks taken as examined for sure): {naive}", language).format(naive=number(self.naive)),
        )
        title = _("position-based IPS: expected clicks of the new ranking ≈ {value:.4f}", language).format(
            value=self.value)
        return title, (table,), formula, ()


def position_based_ips(logged, clicks, target, model):
    """Estimate a new ranking's expected clicks per session from clicks logged on other rankings. Lesson 19.

    Parameters
    ----------
    logged : sequence of str, or sequence of sequences of str
        The ranking shown (the same in every session) or one ranking per session.
    clicks : 2-D sequence of 0/1
        One row per session, one 0/1 per position of that session's ranking.
    target : sequence of str
        The new ranking ``σ``.
    model : PositionBasedModel
        Its examination probabilities ``θ`` are the propensities.

    Returns
    -------
    RankingEstimate

    Examples
    --------
    Two sessions of the ranking d1 d2 with ``θ = (1, 0.5)``; d2 was clicked once:

    >>> from ndcg_teach.online.click_models import PositionBasedModel
    >>> model = PositionBasedModel(examination=[1.0, 0.5])
    >>> estimate = position_based_ips(["d1", "d2"], [[0, 1], [0, 0]], ["d2", "d1"], model)
    >>> estimate.value  # α̂(d2) = (1/0.5) / 2 = 1; the new ranking puts d2 first: θ_1·1 = 1
    1.0
    >>> estimate.naive  # one click, counted at the new position: θ_1·1 / 2
    0.5
    """
    target = tuple(check_ranking(target, "target"))
    if logged and all(isinstance(item, str) for item in logged):
        sessions_rankings = None
        logged = tuple(check_ranking(logged, "logged"))
    else:
        sessions_rankings = [tuple(check_ranking(r, "logged")) for r in logged]
    matrix = np.asarray(clicks)
    if matrix.ndim != 2 or not np.isin(matrix, (0, 1)).all():
        raise ValueError(gettext("clicks must be a table of 0/1, one row per session. Got {got} instead.")
                                .format(got=shown(clicks)))
    rankings = [logged] * matrix.shape[0] if sessions_rankings is None else sessions_rankings
    if len(rankings) != matrix.shape[0] or any(len(r) != matrix.shape[1] for r in rankings):
        raise ValueError(gettext("clicks must have one row per logged session and one column per position of its "
                                 "ranking. Got shape {shape} for {n_rankings} session(s) instead.")
                                .format(shape=matrix.shape, n_rankings=len(rankings)))
    theta_logged = _examination(model, matrix.shape[1])
    theta_target = _examination(model, len(target))
    if (theta_logged[matrix.any(axis=0)] <= 0).any():
        raise ValueError(gettext("model must give every clicked position a positive examination chance (θ > 0): "
                                 "a click there would weigh 1/0. Got θ = 0 at a clicked position instead."))
    weights = dict.fromkeys(target, 0.0)
    counts = dict.fromkeys(target, 0)
    for ranking, row in zip(rankings, matrix):
        for position in np.flatnonzero(row):
            item = ranking[position]
            if item in weights:
                weights[item] += 1.0 / theta_logged[position]
                counts[item] += 1
    n = matrix.shape[0]
    value = sum(theta * weights[item] for item, theta in zip(target, theta_target)) / n
    naive = sum(theta * counts[item] for item, theta in zip(target, theta_target)) / n
    return RankingEstimate(float(value), float(naive), target, tuple(counts[i] for i in target),
                           tuple(weights[i] for i in target), n, tuple(map(float, theta_target)))


@dataclass(frozen=True, repr=False)
class RankingMoments(Explained):
    """Exact expectations and variances of the per-session estimates (from :func:`position_based_exact`). Lesson 19.

    Attributes
    ----------
    truth : float
        ``V(σ) = Σ_i θ_i·α_{σ(i)}``.
    ips_mean, ips_variance, naive_mean, naive_variance : float
        Per session (a mean over ``n`` sessions has variance / n).
    unseen : tuple of str
        Items of the new ranking the logging policy never shows.
    """

    truth: float
    ips_mean: float
    ips_variance: float
    naive_mean: float
    naive_variance: float
    unseen: tuple

    def _parts(self):
        language = self.language
        rows = ((_("position-based IPS", language), self.ips_mean, _bias(self.ips_mean - self.truth),
                 self.ips_variance),
                (_("naive clicks", language), self.naive_mean, _bias(self.naive_mean - self.truth),
                 self.naive_variance))
        table = Table(None, ("estimator", "E", "bias", "variance"), rows, align="lrrr",
                      shown_headers=(_("estimator", language), _("expectation", language), _("bias", language),
                                     _("variance per session", language)))
        formula = (_("V(σ) = Σ_i θ_i·α_(σ(i)) = {truth}; every click pattern of every logged ranking enumerated",
                     language).format(truth=number(self.truth)),)
        notes = (_("never shown by the logging policy, so invisible to IPS: {items}", language).format(
            items=", ".join(self.unseen)),) if self.unseen else ()
        return _("new ranking's expected clicks: {truth:.4f}", language).format(truth=self.truth), (table,), formula, \
            notes


def _bias(value):
    return 0.0 if abs(value) < 1e-12 else float(value)


def position_based_exact(logging, grades, target, model):
    """Exact expectation and variance of position-based IPS and of the naive estimate, for one session. Lesson 19.

    Every ranking the logging policy shows, and every click pattern on it
    under ``model``, is enumerated with its probability.

    Parameters
    ----------
    logging : sequence of str, or sequence of (ranking, probability)
        The ranking always shown, or the logging policy's rankings with their chances.
    grades : mapping of str to int
        True grades (the model turns them into attractiveness); 0 for an item not in it.
    target : sequence of str
        The new ranking.
    model : PositionBasedModel

    Returns
    -------
    RankingMoments

    Examples
    --------
    >>> from ndcg_teach.online.click_models import PositionBasedModel
    >>> model = PositionBasedModel(examination=[1.0, 0.5], attractiveness={0: 0.1, 1: 0.8})
    >>> moments = position_based_exact(["d1", "d2"], {"d2": 1}, ["d2", "d1"], model)
    >>> round(moments.truth, 4), round(moments.ips_mean, 4)  # 1·0.8 + 0.5·0.1, and IPS is unbiased
    (0.85, 0.85)
    >>> round(moments.naive_mean, 4)  # d2 was examined half the time: 1·(0.5·0.8) + 0.5·(1·0.1)
    0.45
    """
    pairs = _check_logging(logging)
    target = tuple(check_ranking(target, "target"))
    check_grade_map(grades)
    theta_target = _examination(model, len(target))
    alpha = dict(zip(target, model.attractiveness_of([grades.get(item, 0) for item in target])))
    truth = float(sum(theta * alpha[item] for item, theta in zip(target, theta_target)))
    new_theta = dict(zip(target, theta_target))
    first = second = naive_first = naive_second = 0.0
    for ranking, chance in pairs:
        theta_logged = _examination(model, len(ranking))
        for pattern, p in model.pattern_probabilities([grades.get(item, 0) for item in ranking]):
            clicked = [position for position, click in enumerate(pattern) if click]
            estimate = sum(new_theta.get(ranking[k], 0.0) / theta_logged[k] for k in clicked)
            naive = sum(new_theta.get(ranking[k], 0.0) for k in clicked)
            first, second = first + chance * p * estimate, second + chance * p * estimate**2
            naive_first, naive_second = naive_first + chance * p * naive, naive_second + chance * p * naive**2
    shown_items = {item for ranking, chance in pairs if chance > 0 for item in ranking}
    unseen = tuple(item for item in target if item not in shown_items)
    return RankingMoments(truth, float(first), float(second - first**2), float(naive_first),
                          float(naive_second - naive_first**2), unseen)
