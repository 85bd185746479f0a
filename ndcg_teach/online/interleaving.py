"""Interleaving: mix two rankers' results in one list and let clicks say which is better. Lesson 18.

An A/B test shows each user one ranker; interleaving shows every user both,
mixed, and credits each click to the ranker that contributed the clicked
item. It needs far fewer users to find which ranker people prefer.

* :func:`team_draft` (Radlinski, Kurup & Joachims 2008): like picking teams
  in a schoolyard, the rankers take turns adding their best item not yet
  shown; a coin decides who goes first in each round. A click counts for the
  team that picked the item.
* :func:`balanced` (Joachims 2002): one coin decides who goes first; the
  list then alternates between the rankers' next items. Credit compares the
  clicks in each ranker's top ``k``, where ``k`` reaches the lowest click.

:func:`interleaving_outcomes` enumerates every coin flip of a small case and
every click pattern of a click model (:mod:`ndcg_teach.online.click_models`), so the
chances that A wins, B wins or they tie are exact;
:func:`simulate_interleaving` draws impressions with a seed.
"""

from dataclasses import dataclass
from itertools import product

import numpy as np

from ..core.checks import check_grade_map
from .click_models import CascadeModel, PositionBasedModel, hoeffding_bound
from ..core.explained import Explained, number
from ..i18n import _, gettext, mark
from ..core.item_checks import check_ranking
from ..core.metrics.ndcg import ndcg
from ..core.table import Table
from ..core.validation import check_choice, check_count, check_k, check_seed, shown

__all__ = ["team_draft", "balanced", "interleaving_outcomes", "simulate_interleaving", "Interleaved",
           "InterleavingOutcome", "SimulatedInterleaving"]

METHODS = ("team_draft", "balanced")
_METHOD_NAMES = {"team_draft": mark("team-draft interleaving"), "balanced": mark("balanced interleaving")}


def _next_unused(ranking, start, used):
    while start < len(ranking) and ranking[start] in used:
        start += 1
    return start


def _team_draft(a, b, k, flips):
    """The team-draft list for a sequence of coin flips (True: A picks first in that round)."""
    items, teams, used, flips_used = [], [], set(), 0
    pointer_a = pointer_b = picks_a = picks_b = 0
    while len(items) < k:
        pointer_a, pointer_b = _next_unused(a, pointer_a, used), _next_unused(b, pointer_b, used)
        if pointer_a == len(a) or pointer_b == len(b):
            break
        if picks_a == picks_b:
            a_turn = flips[flips_used]
            flips_used += 1
        else:
            a_turn = picks_a < picks_b
        item = a[pointer_a] if a_turn else b[pointer_b]
        items.append(item)
        teams.append("A" if a_turn else "B")
        used.add(item)
        picks_a, picks_b = picks_a + a_turn, picks_b + (not a_turn)
    return tuple(items), tuple(teams), tuple(flips[:flips_used])


def _balanced(a, b, k, a_first):
    items, used = [], set()
    pointer_a = pointer_b = 0
    while len(items) < k and pointer_a < len(a) and pointer_b < len(b):
        if pointer_a < pointer_b or (pointer_a == pointer_b and a_first):
            if a[pointer_a] not in used:
                items.append(a[pointer_a])
                used.add(a[pointer_a])
            pointer_a += 1
        else:
            if b[pointer_b] not in used:
                items.append(b[pointer_b])
                used.add(b[pointer_b])
            pointer_b += 1
    return tuple(items)


@dataclass(frozen=True, repr=False)
class Interleaved(Explained):
    """One interleaved list and how to credit clicks on it (from :func:`team_draft` or :func:`balanced`). Lesson 18.

    Attributes
    ----------
    method : str
        ``"team_draft"`` or ``"balanced"``.
    items : tuple of str
        The list shown, best first.
    teams : tuple of str
        Team draft: ``"A"`` or ``"B"`` per position (who picked it). Balanced: empty.
    flips : tuple of bool
        The coin flips used: True where A went first.
    ranking_a, ranking_b : tuple of str
        The two rankings.
    """

    method: str
    items: tuple
    teams: tuple
    flips: tuple
    ranking_a: tuple
    ranking_b: tuple

    def credit(self, clicks):
        """Clicks credited to A and to B: ``(a, b)``. ``clicks`` is one 0/1 per position of :attr:`items`."""
        clicked = [item for item, click in zip(self.items, _check_clicks(clicks, len(self.items))) if click]
        if self.method == "team_draft":
            team = dict(zip(self.items, self.teams))
            return sum(team[item] == "A" for item in clicked), sum(team[item] == "B" for item in clicked)
        if not clicked:
            return 0, 0
        lowest = clicked[-1]
        depth = min(_rank(self.ranking_a, lowest), _rank(self.ranking_b, lowest))
        top_a, top_b = set(self.ranking_a[:depth]), set(self.ranking_b[:depth])
        return sum(item in top_a for item in clicked), sum(item in top_b for item in clicked)

    def winner(self, clicks):
        """``"A"``, ``"B"`` or ``"tie"`` for the clicks ``clicks``."""
        a, b = self.credit(clicks)
        return "A" if a > b else "B" if b > a else "tie"

    def _parts(self):
        language = self.language
        if self.method == "team_draft":
            rows = tuple((i, item, team) for i, (item, team) in enumerate(zip(self.items, self.teams), 1))
            table = Table(None, ("i", "item", "team"), rows, align="rll",
                          shown_headers=("i", _("item", language), _("picked by", language)))
            formula = (_("a click counts for the ranker that picked the item", language),)
        else:
            rows = tuple((i, item, _rank_text(self.ranking_a, item), _rank_text(self.ranking_b, item))
                         for i, item in enumerate(self.items, 1))
            table = Table(None, ("i", "item", "rank in A", "rank in B"), rows, align="rlrr",
                          shown_headers=("i", _("item", language), _("rank in A", language), _("rank in B", language)))
            formula = (_("k = the smaller rank, in A or B, of the lowest clicked item; each ranker is credited the "
                         "clicks within its own top k", language),)
        flips = " ".join("A" if flip else "B" for flip in self.flips)
        title = _("{method} (coin flips: {flips})", language).format(method=_(_METHOD_NAMES[self.method], language),
                                                                    flips=flips)
        return title, (table,), formula, ()


def _rank(ranking, item):
    return ranking.index(item) + 1 if item in ranking else len(ranking) + 1


def _rank_text(ranking, item):
    return str(ranking.index(item) + 1) if item in ranking else "-"


def _check_clicks(clicks, n):
    values = list(clicks) if hasattr(clicks, "__iter__") and not isinstance(clicks, (str, bytes)) else None
    if values is None or len(values) != n or any(v not in (0, 1, True, False) for v in values):
        raise ValueError(gettext("clicks must hold one 0 or 1 per position of the interleaved list ({n}). Got "
                                 "{got} instead.").format(n=n, got=shown(clicks)))
    return [bool(v) for v in values]


def _rankings(ranking_a, ranking_b, k):
    a = tuple(check_ranking(ranking_a, "ranking_a"))
    b = tuple(check_ranking(ranking_b, "ranking_b"))
    k = check_k(k)
    return a, b, len(set(a) | set(b)) if k is None else k


def team_draft(ranking_a, ranking_b, *, k=None, flips=None, seed=0):
    """Team-draft interleaving of two rankings (Radlinski, Kurup & Joachims 2008). Lesson 18.

    Rounds of two picks: a coin decides which ranker picks first; each adds
    its highest-ranked item not yet in the list. It stops at ``k`` items or
    when a ranker has nothing left to add.

    Parameters
    ----------
    ranking_a, ranking_b : sequence of str
        Item ids, best first.
    k : int or None, default None
        Length of the interleaved list; None: until a ranker runs out.
    flips : sequence of bool or None, default None
        The coin flips, True where A picks first; None draws them with ``seed``.
    seed : int or None, default 0

    Returns
    -------
    Interleaved

    Examples
    --------
    >>> shown = team_draft(["a", "b", "c"], ["b", "c", "a"], flips=[True, False])
    >>> shown.items, shown.teams  # A picks a; B picks b; round 2, B first: c; A has nothing left: stop
    (('a', 'b', 'c'), ('A', 'B', 'B'))
    >>> shown.credit([0, 1, 1])  # clicks on b and c, both B's
    (0, 2)
    """
    a, b, k = _rankings(ranking_a, ranking_b, k)
    rounds = (k + 1) // 2
    if flips is None:
        flips = tuple(bool(f) for f in np.random.default_rng(check_seed(seed)).integers(0, 2, size=rounds))
    else:
        flips = tuple(flips)
        if len(flips) < rounds or not all(isinstance(f, (bool, np.bool_)) for f in flips):
            raise ValueError(gettext("flips must hold a True (A first) or False (B first) for each of the "
                                     "{rounds} rounds. Got {got} instead.").format(rounds=rounds, got=shown(flips)))
    items, teams, used = _team_draft(a, b, k, flips)
    return Interleaved("team_draft", items, teams, used, a, b)


def balanced(ranking_a, ranking_b, *, k=None, a_first=True):
    """Balanced interleaving of two rankings (Joachims 2002). Lesson 18.

    The ranker that goes first (one coin flip) and the other alternate,
    each adding its next item unless it is already shown, so that any top of
    the list holds as many of A's top items as of B's, give or take one.

    Parameters
    ----------
    ranking_a, ranking_b : sequence of str
    k : int or None, default None
    a_first : bool, default True

    Returns
    -------
    Interleaved

    Examples
    --------
    >>> shown = balanced(["a", "b", "c"], ["b", "c", "a"])
    >>> shown.items  # a (A's 1st), b (B's 1st), c (B's 2nd: A's 2nd, b, is shown already)
    ('a', 'b', 'c')
    >>> shown.credit([0, 0, 1])  # lowest click c: rank 3 in A, 2 in B, so k = 2; c is in B's top 2 only
    (0, 1)
    """
    a, b, k = _rankings(ranking_a, ranking_b, k)
    if not isinstance(a_first, (bool, np.bool_)):
        raise TypeError(gettext("a_first must be True (A goes first) or False. Got {got} instead.")
                               .format(got=shown(a_first)))
    return Interleaved("balanced", _balanced(a, b, k, bool(a_first)), (), (bool(a_first),), a, b)


def _all_lists(a, b, k, method):
    """Every distinct outcome of the coin flips with its probability and list.

    Flip sequences that differ only in flips the list never used (it ended first) give one outcome.
    """
    if method == "balanced":
        return [(0.5, Interleaved("balanced", _balanced(a, b, k, first), (), (first,), a, b))
                for first in (True, False)]
    rounds = (k + 1) // 2
    chances = {}
    for flips in product((True, False), repeat=rounds):
        items, teams, used = _team_draft(a, b, k, flips)
        key = (items, teams, used)
        chances[key] = chances.get(key, 0.0) + 0.5**rounds
    return [(chance, Interleaved("team_draft", items, teams, used, a, b))
            for (items, teams, used), chance in chances.items()]


def _check_inputs(ranking_a, ranking_b, grades, model, method, k):
    check_choice("method", method, METHODS)
    a, b, k = _rankings(ranking_a, ranking_b, k)
    check_grade_map(grades)
    if not isinstance(model, (CascadeModel, PositionBasedModel)):
        raise TypeError(gettext("model must be a CascadeModel or a PositionBasedModel. Got {got} instead.")
                               .format(got=shown(model)))
    return a, b, k


@dataclass(frozen=True, repr=False)
class InterleavingOutcome(Explained):
    """The exact chances that A wins, B wins or they tie (from :func:`interleaving_outcomes`). Lesson 18.

    Attributes
    ----------
    method : str
    a_wins, b_wins, ties : float
    lists : tuple of (float, Interleaved, float, float)
        Each coin-flip outcome: its probability, the list, P(A wins | list), P(B wins | list).
    ndcg_a, ndcg_b : float
        The offline NDCG@k of each ranking (linear gain, ideal from every graded item).
    model : str
    """

    method: str
    a_wins: float
    b_wins: float
    ties: float
    lists: tuple
    ndcg_a: float
    ndcg_b: float
    model: str

    def _parts(self):
        language = self.language
        rows = tuple((" ".join("A" if f else "B" for f in shown_list.flips), float(p), " ".join(shown_list.items),
                      " ".join(shown_list.teams) if shown_list.teams else "", float(pa), float(pb))
                     for p, shown_list, pa, pb in self.lists)
        table = Table(None, ("flips", "P(flips)", "list", "teams", "P(A wins)", "P(B wins)"), rows, align="lrllrr",
                      shown_headers=(_("coin flips", language), _("chance", language), _("list", language),
                                     _("picked by", language), _("P(A wins | list)", language),
                                     _("P(B wins | list)", language)))
        terms = " + ".join(f"{number(p)}·{number(pa)}" for p, _list, pa, _pb in self.lists)
        formula = (
            _("P(A wins) = Σ P(flips)·P(A wins | list) = {terms} = {value}", language).format(
                terms=terms, value=number(self.a_wins)),
            _("P(B wins) = {b}, P(tie) = {tie}", language).format(b=number(self.b_wins), tie=number(self.ties)),
            _("offline: NDCG of A = {a}, of B = {b}", language).format(a=number(self.ndcg_a), b=number(self.ndcg_b)),
        )
        notes = (_("every click pattern of the {model} model is enumerated with its probability", language).format(
            model=_(self.model, language)),)
        title = _("{method}: P(A wins) = {a:.4f}, P(B wins) = {b:.4f}, P(tie) = {tie:.4f}", language).format(
            method=_(_METHOD_NAMES[self.method], language), a=self.a_wins, b=self.b_wins, tie=self.ties)
        return title, (table,), formula, notes


def interleaving_outcomes(ranking_a, ranking_b, grades, model, *, method="team_draft", k=None):
    """Exact chances that interleaving prefers A, prefers B, or ties, by enumeration. Lesson 18.

    Every coin-flip sequence (``2^⌈k/2⌉`` for team draft, 2 for balanced)
    gives an interleaved list; every click pattern on it has a probability
    under ``model``; each pattern's credit decides a winner. Summing gives
    the exact outcome, which a simulation only approaches.

    Parameters
    ----------
    ranking_a, ranking_b : sequence of str
        Item ids, best first.
    grades : mapping of str to int
        The true grade of each item (0 for an item not in it); the click model reads them.
    model : CascadeModel or PositionBasedModel
    method : {"team_draft", "balanced"}, default "team_draft"
    k : int or None, default None
        Length of the interleaved list (keep it small: the patterns of a
        position-based model are ``2^k``).

    Returns
    -------
    InterleavingOutcome

    Examples
    --------
    A puts the relevant item first, B second; the user clicks only it:

    >>> from ndcg_teach.online.click_models import CascadeModel
    >>> model = CascadeModel(attractiveness={0: 0.0, 1: 1.0})
    >>> outcome = interleaving_outcomes(["r", "x"], ["x", "r"], {"r": 1}, model)
    >>> outcome.a_wins, outcome.b_wins  # whoever goes first, r is A's pick and is clicked
    (1.0, 0.0)
    """
    a, b, k = _check_inputs(ranking_a, ranking_b, grades, model, method, k)
    lists, a_total, b_total = [], 0.0, 0.0
    for chance, shown_list in _all_lists(a, b, k, method):
        relevances = [grades.get(item, 0) for item in shown_list.items]
        a_win = b_win = 0.0
        for pattern, p in model.pattern_probabilities(relevances):
            winner = shown_list.winner(pattern)
            a_win += p * (winner == "A")
            b_win += p * (winner == "B")
        lists.append((chance, shown_list, a_win, b_win))
        a_total, b_total = a_total + chance * a_win, b_total + chance * b_win
    pool = [g for g in grades.values() if g > 0]
    offline = [ndcg([grades.get(item, 0) for item in ranking[:k]], k, pool=pool or None) for ranking in (a, b)]
    name = "cascade" if isinstance(model, CascadeModel) else "position-based"
    return InterleavingOutcome(method, float(a_total), float(b_total), float(1.0 - a_total - b_total), tuple(lists),
                               float(offline[0]), float(offline[1]), name)


@dataclass(frozen=True, repr=False)
class SimulatedInterleaving(Explained):
    """Wins of A and B over simulated impressions, beside the exact chances. Lesson 18.

    Returned by :func:`simulate_interleaving`.

    Attributes
    ----------
    impressions, a_wins, b_wins, ties : int
    exact : InterleavingOutcome
    seed : int or None
    """

    impressions: int
    a_wins: int
    b_wins: int
    ties: int
    exact: InterleavingOutcome
    seed: int = None

    @property
    def preference(self):
        """Share of the decided impressions that A won (0.5: no preference)."""
        decided = self.a_wins + self.b_wins
        return self.a_wins / decided if decided else 0.5

    def _parts(self):
        language = self.language
        bound = hoeffding_bound(self.impressions)
        n = self.impressions
        rows = tuple((label, count, count / n, float(p), abs(count / n - p) <= bound) for label, count, p in (
            (_("A wins", language), self.a_wins, self.exact.a_wins), (_("B wins", language), self.b_wins,
                                                                       self.exact.b_wins),
            (_("tie", language), self.ties, self.exact.ties)))
        table = Table(None, ("outcome", "count", "share", "exact", "within"),
                      tuple(row[:4] + (_("yes", language) if row[4] else _("no", language),) for row in rows),
                      align="lrrrl", shown_headers=(_("outcome", language), _("impressions", language),
                                                    _("share", language), _("exact", language),
                                                    _("within ±{bound}", language).format(bound=number(bound))))
        formula = (_("preference for A = A wins / (A wins + B wins) = {a} / {decided} = {share}", language).format(
            a=self.a_wins, decided=self.a_wins + self.b_wins, share=number(self.preference)),)
        title = _("{method}, {n} simulated impressions (seed {seed})", language).format(
            method=_(_METHOD_NAMES[self.exact.method], language), n=n, seed=self.seed)
        return title, (table,), formula, ()


def simulate_interleaving(ranking_a, ranking_b, grades, model, *, method="team_draft", k=None, impressions=1000,
                          seed=0):
    """Simulate ``impressions`` users, each shown a freshly interleaved list and clicking by ``model``. Lesson 18.

    Parameters
    ----------
    ranking_a, ranking_b, grades, model, method, k
        As for :func:`interleaving_outcomes`.
    impressions : int, default 1000
    seed : int or None, default 0

    Returns
    -------
    SimulatedInterleaving

    Examples
    --------
    >>> from ndcg_teach.online.click_models import PositionBasedModel
    >>> run = simulate_interleaving(["r", "x", "y"], ["x", "y", "r"], {"r": 3}, PositionBasedModel(), impressions=200)
    >>> run.a_wins > run.b_wins  # A ranks the only relevant item first
    True
    """
    a, b, k = _check_inputs(ranking_a, ranking_b, grades, model, method, k)
    impressions = check_count("impressions", impressions, mark("how many users to simulate"))
    exact = interleaving_outcomes(a, b, grades, model, method=method, k=k)
    rng = np.random.default_rng(check_seed(seed))
    lists = [shown_list for _, shown_list, _, _ in exact.lists]
    choices = rng.choice(len(lists), size=impressions, p=[chance for chance, _, _, _ in exact.lists])
    counts = {"A": 0, "B": 0, "tie": 0}
    for index in range(len(lists)):
        shown_list = lists[index]
        sessions = int((choices == index).sum())
        if not sessions:
            continue
        relevances = [grades.get(item, 0) for item in shown_list.items]
        clicks = model.simulate(relevances, sessions, seed=int(rng.integers(0, 2**32))).clicks
        for row in clicks:
            counts[shown_list.winner(row)] += 1
    return SimulatedInterleaving(impressions, counts["A"], counts["B"], counts["tie"], exact, seed)
