"""How users click on a ranking: the cascade model and the position-based model, exact and simulated. Lesson 18.

Online evaluation reads clicks, and clicks depend on *where* an item is as
much as on how good it is. Two classic models make that precise:

* :class:`CascadeModel` (Craswell et al. 2008): the user reads from the top,
  clicks the first item that attracts them, and stops. An item at position
  ``i`` is clicked with probability ``α_i · Π_{j<i} (1 - α_j)``.
* :class:`PositionBasedModel` (Richardson et al. 2007; Joachims et al.
  2017): the user examines position ``i`` with probability ``θ_i`` (falling
  with rank), and clicks an examined item with probability ``α_i``,
  independently of the others: ``P(click at i) = θ_i · α_i``.

An item's attractiveness ``α`` comes from its grade, by default as ERR
does: ``α(g) = (2^g - 1) / 2^max_grade``. Each model computes click
probabilities exactly (:meth:`~CascadeModel.click_probabilities`), lists
every click pattern with its probability (what the exact interleaving
outcomes enumerate), and simulates sessions with a seed
(:meth:`~CascadeModel.simulate`), so a lesson can show the simulated
click-through rate closing in on the exact one.
"""

from dataclasses import dataclass, field
from itertools import product

import numpy as np

from ..core.checks import check_number_array, check_whole
from ..core.explained import Explained, number
from ..i18n import _, gettext, mark
from ..core.table import Table
from ..core.validation import check_count, check_open_unit, check_relevances, check_seed, shown

__all__ = ["CascadeModel", "PositionBasedModel", "ClickProbabilities", "SimulatedClicks", "hoeffding_bound"]

DELTA = 0.001  # the chance a simulated rate may fall outside its Hoeffding bound
_MODELS = (mark("cascade"), mark("position-based"))


def hoeffding_bound(sessions, delta=DELTA):
    """Half-width ``ε`` around a rate measured on ``sessions`` independent sessions, failing with chance ``delta``.
    Lesson 18.

    Hoeffding's inequality for a mean of ``n`` independent values in
    [0, 1]: ``P(|mean - expectation| ≥ ε) ≤ 2·exp(-2nε²)``; setting the right
    side to ``delta`` gives ``ε = √(ln(2/δ) / (2n))``.

    Examples
    --------
    >>> round(hoeffding_bound(10_000), 4)  # √(ln(2000) / 20000)
    0.0195
    """
    sessions = check_count("sessions", sessions, mark("how many sessions the rate is measured on"))
    delta = check_open_unit("delta", delta, mark("the chance the bound may fail"))
    return float(np.sqrt(np.log(2 / delta) / (2 * sessions)))


def _attractiveness(model, relevances):
    grades = check_relevances(relevances)
    if model.attractiveness is not None:
        table = model.attractiveness
        unknown = sorted({float(g) for g in grades if g not in table})
        if unknown:
            raise ValueError(gettext("relevances must use only the grades the model's attractiveness gives "
                                     "({value}); {unknown} are not among them. Got {got} instead.")
                                    .format(value=shown(sorted(table)), unknown=shown(unknown), got=shown(relevances)))
        return grades, np.array([table[g] for g in grades], dtype=np.float64)
    if grades.size and grades.max() > model.max_grade:
        raise ValueError(gettext("relevances must be grades from 0 to max_grade={max_grade} (attractiveness (2^g "
                                 "- 1) / 2^{max_grade}). Got {got} instead.")
                                .format(max_grade=model.max_grade, got=shown(relevances)))
    return grades, (2.0**grades - 1) / 2.0**model.max_grade


def _check_attractiveness(attractiveness, max_grade):
    check_whole("max_grade", max_grade, mark("the top of the grading scale"), low=1)
    if attractiveness is None:
        return None
    if not hasattr(attractiveness, "items"):
        raise TypeError(gettext("attractiveness must map each grade to the chance an examined item of that grade "
                                "is clicked, e.g. {{0: 0.05, 1: 0.5, 2: 0.9}}. Got {got} instead.")
                               .format(got=shown(attractiveness)))
    table = {}
    for grade, chance in attractiveness.items():
        if isinstance(chance, bool) or not isinstance(chance, (int, float, np.floating)) or not 0 <= chance <= 1:
            raise ValueError(gettext("attractiveness must give each grade a probability from 0 to 1. Got "
                                     "{grade!r}: {chance!r} instead.").format(grade=grade, chance=chance))
        table[float(grade)] = float(chance)
    return table


@dataclass(frozen=True, repr=False)
class ClickProbabilities(Explained):
    """Exact click probabilities of one ranking under a click model (from ``click_probabilities``). Lesson 18.

    Attributes
    ----------
    model : str
        ``"cascade"`` or ``"position-based"``.
    grades, attractiveness, examination, clicks : tuple of float
        Per position: the grade, ``α``, the chance the position is examined
        (cascade: reached), and the chance it is clicked.
    ctr : float
        Click-through rate: the chance of at least one click.
    expected_clicks : float
        Clicks per session on average (equal to ``ctr`` in the cascade model: it clicks at most once).
    """

    model: str
    grades: tuple
    attractiveness: tuple
    examination: tuple
    clicks: tuple
    ctr: float
    expected_clicks: float
    items: tuple = ()

    def _parts(self):
        language = self.language
        items = self.items or tuple(f"#{i}" for i in range(1, len(self.grades) + 1))
        reach = mark("P(reach i)") if self.model == "cascade" else "θ_i"
        rows = tuple((i, item, f"{g:g}", float(a), float(e), float(c)) for i, (item, g, a, e, c) in
                     enumerate(zip(items, self.grades, self.attractiveness, self.examination, self.clicks), 1))
        table = Table(None, ("i", "item", "grade", "α_i", "reach", "P(click at i)"), rows, align="rlrrrr",
                      shown_headers=("i", _("item", language), _("grade", language), "α_i", _(reach, language),
                                     _("P(click at i)", language)))
        misses = " · ".join(f"(1 - {number(c)})" for c in (self.attractiveness if self.model == "cascade"
                                                           else self.clicks))
        if self.model == "cascade":
            formula = (
                _("P(reach i) = Π_{j<i} (1 - α_j): every item above i failed to attract", language),
                _("P(click at i) = α_i · P(reach i); at most one click per session", language),
                f"CTR = 1 - Π_i (1 - α_i) = 1 - {misses or '1'} = {number(self.ctr)}",
            )
        else:
            formula = (
                _("P(click at i) = θ_i · α_i: examined, then attracted, independently of the other positions",
                  language),
                f"CTR = 1 - Π_i (1 - θ_i·α_i) = 1 - {misses or '1'} = {number(self.ctr)}",
                _("expected clicks = Σ_i θ_i·α_i = {total}", language).format(total=number(self.expected_clicks)),
            )
        title = _("{model} model: CTR = {ctr:.4f}", language).format(model=_(self.model, language), ctr=self.ctr)
        return title, (table,), formula, ()


@dataclass(frozen=True, repr=False, eq=False)
class SimulatedClicks(Explained):
    """Clicks of simulated sessions on one ranking, beside the exact probabilities (from ``simulate``). Lesson 18.

    Attributes
    ----------
    clicks : numpy.ndarray of bool
        One row per session, one column per position.
    exact : ClickProbabilities
    seed : int or None
    """

    clicks: np.ndarray
    exact: ClickProbabilities
    seed: int = None

    @property
    def sessions(self):
        """How many sessions were simulated."""
        return self.clicks.shape[0]

    @property
    def ctr(self):
        """The share of sessions with at least one click."""
        return float(self.clicks.any(axis=1).mean())

    @property
    def rates(self):
        """Per position: the share of sessions that clicked it."""
        return self.clicks.mean(axis=0)

    def _parts(self):
        language = self.language
        bound = hoeffding_bound(self.sessions)
        rows = tuple((i, float(rate), float(p), abs(float(rate) - p) <= bound)
                     for i, (rate, p) in enumerate(zip(self.rates, self.exact.clicks), 1))
        rows += (("CTR", self.ctr, self.exact.ctr, abs(self.ctr - self.exact.ctr) <= bound),)
        table = Table(None, ("i", "simulated", "exact", "within"), tuple(
            row[:3] + (_("yes", language) if row[3] else _("no", language),) for row in rows), align="rrrl",
            shown_headers=("i", _("simulated", language), _("exact", language),
                           _("within ±{bound}", language).format(bound=number(bound))))
        formula = (_("Hoeffding: P(|rate - p| ≥ ε) ≤ 2·exp(-2nε²); with n = {n} sessions and δ = {delta:g}, "
                     "ε = √(ln(2/δ) / (2n)) = {bound}", language).format(n=self.sessions, delta=DELTA,
                                                                       bound=number(bound)),)
        title = _("{model} model, {n} simulated sessions (seed {seed}): CTR = {ctr:.4f} (exact {exact:.4f})",
                  language).format(model=_(self.exact.model, language), n=self.sessions, seed=self.seed, ctr=self.ctr,
                                   exact=self.exact.ctr)
        return title, (table,), formula, ()


class _ClickModel:
    """What both models share: attractiveness from grades, exact probabilities, patterns and simulation."""

    def attractiveness_of(self, relevances):
        """``α`` for each grade of ``relevances`` (position 1 first)."""
        return _attractiveness(self, relevances)[1]

    def simulate(self, relevances, sessions=1000, *, seed=0, ranking=None):
        """Simulate ``sessions`` independent users on the ranking with grades ``relevances``.

        Parameters
        ----------
        relevances : sequence of float
            The grades of the ranked items, position 1 first.
        sessions : int, default 1000
        seed : int or None, default 0
            The same seed gives the same clicks.
        ranking : sequence of str or None
            Item ids for the table.

        Returns
        -------
        SimulatedClicks
        """
        exact = self.click_probabilities(relevances, ranking=ranking)
        sessions = check_count("sessions", sessions, mark("how many user sessions to simulate"))
        rng = np.random.default_rng(check_seed(seed))
        return SimulatedClicks(self._draw(np.array(exact.attractiveness), sessions, rng), exact, seed)

    def pattern_probabilities(self, relevances):
        """Every click pattern on the ranking (a tuple of 0/1 per position) with its probability, 0s left out."""
        alpha = self.attractiveness_of(relevances)
        return [(pattern, float(p)) for pattern, p in self._patterns(alpha) if p > 0]


@dataclass(frozen=True)
class CascadeModel(_ClickModel):
    """The cascade model: read down, click the first attractive item, stop (Craswell et al. 2008). Lesson 18.

    Parameters
    ----------
    max_grade : int, default 3
        The top of the grading scale: ``α(g) = (2^g - 1) / 2^max_grade``.
    attractiveness : mapping of grade to float, or None
        Instead of that formula, the click chance of an examined item of each grade.

    Examples
    --------
    Grades 1, 3, 0 with ``max_grade=3``: ``α = 1/8, 7/8, 0``.

    >>> probabilities = CascadeModel().click_probabilities([1, 3, 0])
    >>> [round(p, 4) for p in probabilities.clicks]  # 1/8; (1 - 1/8)·7/8; α = 0 at position 3
    [0.125, 0.7656, 0.0]
    >>> round(probabilities.ctr, 4)  # 1 - (7/8)·(1/8)·1
    0.8906
    """

    max_grade: int = 3
    attractiveness: dict = field(default=None, hash=False)

    def __post_init__(self):
        object.__setattr__(self, "attractiveness", _check_attractiveness(self.attractiveness, self.max_grade))

    def click_probabilities(self, relevances, *, ranking=None):
        """Exact per-position click probabilities, CTR and expected clicks. Lesson 18."""
        grades, alpha = _attractiveness(self, relevances)
        reach = np.concatenate([[1.0], np.cumprod(1 - alpha)[:-1]]) if alpha.size else alpha
        clicks = alpha * reach
        ctr = float(1 - np.prod(1 - alpha))
        return ClickProbabilities("cascade", tuple(map(float, grades)), tuple(map(float, alpha)),
                                  tuple(map(float, reach)), tuple(map(float, clicks)), ctr, float(clicks.sum()),
                                  _items(ranking, grades.size))

    @staticmethod
    def _draw(alpha, sessions, rng):
        attracted = rng.random((sessions, alpha.size)) < alpha
        first = np.argmax(attracted, axis=1)
        clicks = np.zeros_like(attracted)
        any_click = attracted.any(axis=1)
        clicks[np.flatnonzero(any_click), first[any_click]] = True
        return clicks

    @staticmethod
    def _patterns(alpha):
        reach = 1.0
        for i, a in enumerate(alpha):
            yield tuple(int(j == i) for j in range(alpha.size)), reach * a
            reach *= 1 - a
        yield (0,) * alpha.size, reach


@dataclass(frozen=True)
class PositionBasedModel(_ClickModel):
    """The position-based model: examine position i with chance θ_i, click if attracted. Lesson 18.

    Richardson, Dominowska & Ragno (2007); Craswell et al. (2008).

    Parameters
    ----------
    examination : sequence of float or None, default None
        ``θ_1, θ_2, ...``: the chance each position is examined. None:
        ``θ_i = (1/i)^eta`` (Joachims, Swaminathan & Schnabel 2017).
    eta : float, default 1.0
        How steeply examination falls with rank when ``examination`` is None.
    max_grade : int, default 3
    attractiveness : mapping of grade to float, or None

    Examples
    --------
    >>> model = PositionBasedModel(examination=[1.0, 0.5, 0.25])
    >>> probabilities = model.click_probabilities([1, 3, 0])  # α = 1/8, 7/8, 0
    >>> [round(p, 4) for p in probabilities.clicks]  # 1·1/8, 0.5·7/8, 0.25·0
    [0.125, 0.4375, 0.0]
    >>> round(probabilities.expected_clicks, 4), round(probabilities.ctr, 4)  # 0.125 + 0.4375; 1 - 0.875·0.5625
    (0.5625, 0.5078)
    """

    examination: tuple = None
    eta: float = 1.0
    max_grade: int = 3
    attractiveness: dict = field(default=None, hash=False)

    def __post_init__(self):
        object.__setattr__(self, "attractiveness", _check_attractiveness(self.attractiveness, self.max_grade))
        if self.examination is not None:
            theta = check_number_array("examination", self.examination, mark("the chance each position is examined"))
            if theta.size == 0 or (theta < 0).any() or (theta > 1).any():
                raise ValueError(gettext("examination must hold one probability from 0 to 1 per position. Got "
                                         "{got} instead.").format(got=shown(self.examination)))
            object.__setattr__(self, "examination", tuple(map(float, theta)))
        if isinstance(self.eta, bool) or not isinstance(self.eta, (int, float)) or not 0 <= self.eta < np.inf:
            raise ValueError(gettext("eta must be a finite number of at least 0 (how steeply examination falls "
                                     "with rank). Got {got} instead.").format(got=shown(self.eta)))

    def examination_of(self, length):
        """``θ_1 .. θ_length``."""
        if self.examination is None:
            return (1.0 / np.arange(1, length + 1)) ** self.eta
        if length > len(self.examination):
            raise ValueError(gettext("relevances must be at most {n_examination} long: examination gives a "
                                     "probability for {n_examination} positions only. Got {length} grades "
                                     "instead.").format(n_examination=len(self.examination), length=length))
        return np.array(self.examination[:length])

    def click_probabilities(self, relevances, *, ranking=None):
        """Exact per-position click probabilities, CTR and expected clicks. Lesson 18."""
        grades, alpha = _attractiveness(self, relevances)
        theta = self.examination_of(grades.size)
        clicks = theta * alpha
        return ClickProbabilities("position-based", tuple(map(float, grades)), tuple(map(float, alpha)),
                                  tuple(map(float, theta)), tuple(map(float, clicks)), float(1 - np.prod(1 - clicks)),
                                  float(clicks.sum()), _items(ranking, grades.size))

    def _draw(self, alpha, sessions, rng):
        return rng.random((sessions, alpha.size)) < self.examination_of(alpha.size) * alpha

    def _patterns(self, alpha):
        chance = self.examination_of(alpha.size) * alpha
        for pattern in product((0, 1), repeat=alpha.size):
            bits = np.array(pattern, dtype=bool)
            yield pattern, float(np.prod(np.where(bits, chance, 1 - chance)))


def _items(ranking, n):
    if ranking is None:
        return ()
    items = tuple(str(item) for item in ranking)
    if len(items) != n:
        raise ValueError(gettext("ranking must hold one item id per grade ({n}). Got {n_items} ids: {got} "
                                 "instead.").format(n=n, n_items=len(items), got=shown(ranking)))
    return items
