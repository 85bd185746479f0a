"""Do two evaluations rank the systems alike? Kendall's τ, τ_AP and swapped pairs. Lessons 15 and 18.

Voorhees (2000) judged the same topics twice, by different assessors, and
scored every TREC system under each set of judgements: the scores moved,
the *ranking of the systems* hardly did. These functions measure that:

* :func:`kendall_tau`: Kendall's τ-b over every pair of systems,
  ``(concordant - discordant) / pairs`` with ties taken into account (the
  same number as ``scipy.stats.kendalltau``). Voorhees called τ ≥ 0.9
  "equivalent" rankings, a rule of thumb IR has kept.
* :func:`tau_ap`: Yilmaz, Aslam & Robertson's (2008) AP correlation, which
  weighs swaps near the top of the ranking more: which systems are best
  matters more than the order of the worst.
* :func:`swapped_pairs`: the pairs of systems the two evaluations order
  differently, and their share.

Scores are given as ``{system: score}`` mappings (paired by name) or as two
lists in the same system order; a higher score ranks a system higher.
"""

from dataclasses import dataclass

import numpy as np

from ..core.checks import check_same_systems, check_two_names
from ..core.explained import Explained, number
from ..i18n import _, gettext, mark
from ..core.table import Table
from ..core.validation import shown

__all__ = ["kendall_tau", "tau_ap", "swapped_pairs", "RankCorrelation", "SwappedPairs"]


def _ranks(scores):
    """Rank 1 for the highest score; tied scores share their average rank."""
    order = np.argsort(-scores, kind="stable")
    ranks = np.empty(scores.size)
    start = 0
    for end in range(1, scores.size + 1):
        if end == scores.size or scores[order[end]] != scores[order[start]]:
            ranks[order[start:end]] = (start + 1 + end) / 2
            start = end
    return ranks


def _pair_signs(x, y):
    """For every pair i < j: the sign of x_i - x_j and of y_i - y_j."""
    i, j = np.triu_indices(x.size, k=1)
    return np.sign(x[i] - x[j]), np.sign(y[i] - y[j]), i, j


def _systems_table(systems, x, y, names, language):
    ranks_x, ranks_y = _ranks(x), _ranks(y)
    order = np.lexsort((ranks_y, ranks_x))
    rows = tuple((systems[k], float(x[k]), f"{ranks_x[k]:g}", float(y[k]), f"{ranks_y[k]:g}") for k in order)
    first, second = names
    headers = ("system", first, _("rank by {name}", language).format(name=first), second,
               _("rank by {name}", language).format(name=second))
    return Table(None, ("system", "x", "rank x", "y", "rank y"), rows, align="lrrrr",
                 shown_headers=(_("system", language), *headers[1:]))


@dataclass(frozen=True, repr=False)
class RankCorrelation(Explained):
    """How alike two rankings of the same systems are (returned by :func:`kendall_tau` and :func:`tau_ap`). Lesson 15.

    Attributes
    ----------
    statistic : str
        ``"tau_b"`` or ``"tau_ap"``.
    value : float
        From -1 (reversed) through 0 (unrelated) to 1 (the same order).
    systems : tuple of str
    x, y : tuple of float
        The two evaluations' scores, in ``systems`` order (for τ_AP, ``x``
        is the reference ranking and ``y`` the one judged against it).
    concordant, discordant : int
        Pairs both evaluations order alike / oppositely.
    tied_x, tied_y, tied_both : int
        Pairs tied in ``x`` only, in ``y`` only, in both.
    names : tuple of str
        What the two evaluations are called in tables, e.g. ``("NIST", "LLM")``.
    """

    statistic: str
    value: float
    systems: tuple
    x: tuple
    y: tuple
    concordant: int
    discordant: int
    tied_x: int
    tied_y: int
    tied_both: int
    names: tuple = ("x", "y")

    def _parts(self):
        if self.statistic == "tau_ap":
            return self._tau_ap_parts()
        language = self.language
        x, y = np.array(self.x), np.array(self.y)
        c, d, tx, ty = self.concordant, self.discordant, self.tied_x, self.tied_y
        pairs = c + d + tx + ty + self.tied_both
        formula = (
            _("{pairs} pairs of {n} systems: {c} concordant, {d} discordant, {tx} tied in {x} only, {ty} tied in {y} "
              "only, {both} tied in both", language).format(pairs=pairs, n=len(self.systems), c=c, d=d, tx=tx, ty=ty,
                                                            both=self.tied_both, x=self.names[0], y=self.names[1]),
            f"τ_b = (C - D) / √((C + D + T_x)·(C + D + T_y)) = ({c} - {d}) / "
            f"√(({c} + {d} + {tx})·({c} + {d} + {ty})) = {number(self.value)}",
        )
        notes = (_("without ties τ_b = 1 - 2·(share of swapped pairs); Voorhees (2000) read τ ≥ 0.9 as rankings "
                   "that agree", language),)
        title = _("Kendall's τ_b = {value:.4f}", language).format(value=self.value)
        return title, (_systems_table(self.systems, x, y, self.names, language),), formula, notes

    def _tau_ap_parts(self):
        language = self.language
        truth, estimate = np.array(self.x), np.array(self.y)
        order = np.argsort(-estimate, kind="stable")
        rows, terms = [], []
        for position, k in enumerate(order, start=1):
            above = order[: position - 1]
            correct = int((truth[above] > truth[k]).sum())
            share = correct / (position - 1) if position > 1 else None
            rows.append((position, self.systems[k], float(estimate[k]), f"{_ranks(truth)[k]:g}",
                         correct if position > 1 else "", "" if share is None else float(share)))
            if share is not None:
                terms.append(share)
        reference, judged = self.names
        table = Table(None, ("i", "system", "y", "rank x", "C(i)", "C(i)/(i-1)"), tuple(rows), align="rlrrrr",
                      shown_headers=("i", _("system", language), judged,
                                     _("rank by {name}", language).format(name=reference), "C(i)", "C(i)/(i-1)"))
        n = len(self.systems)
        formula = (
            _("C(i): systems above position i (ranked by {judged}) that {reference} also ranks above it", language)
            .format(judged=judged, reference=reference),
            f"τ_AP = 2/(N-1) · Σ_i C(i)/(i-1) - 1 = 2/{n - 1} · ({' + '.join(number(t) for t in terms)}) - 1 "
            f"= {number(self.value)}",
        )
        notes = (_("a swap near the top of {judged}'s ranking costs more than one near the bottom (Yilmaz, Aslam & "
                   "Robertson 2008)", language).format(judged=judged),)
        return _("τ_AP = {value:.4f}", language).format(value=self.value), (table,), formula, notes


def _counts(sx, sy):
    return (int(((sx * sy) > 0).sum()), int(((sx * sy) < 0).sum()), int(((sx == 0) & (sy != 0)).sum()),
            int(((sy == 0) & (sx != 0)).sum()), int(((sx == 0) & (sy == 0)).sum()))


def kendall_tau(x, y, *, names=("x", "y")):
    """Kendall's τ-b between two evaluations' rankings of the same systems. Lessons 15 and 18.

    Every pair of systems is concordant (both evaluations order it alike),
    discordant (they disagree), or tied in one or both. τ-b =
    ``(C - D) / √((C + D + T_x)(C + D + T_y))`` where ``T_x`` counts pairs
    tied in ``x`` only and ``T_y`` in ``y`` only; without ties it is
    ``(C - D) / (n(n - 1)/2)``. The same number as ``scipy.stats.kendalltau``
    (its default, τ-b).

    Parameters
    ----------
    x, y : mapping of str to float, or sequence of float
        Each system's score under the two evaluations (e.g. MAP with NIST's
        judgements and with a second assessor's), as ``{system: score}``
        mappings or as lists in the same system order. At least 2 systems.
    names : (str, str), default ("x", "y")
        What to call the two evaluations in the tables.

    Returns
    -------
    RankCorrelation

    Raises
    ------
    ValueError
        When every system has the same score in ``x`` or in ``y``: there is
        no ranking to compare.

    See Also
    --------
    tau_ap : weighs swaps at the top more. swapped_pairs : the pairs that swap.

    Examples
    --------
    Four systems by MAP, under two assessors' judgements:

    >>> first = {"A": 0.31, "B": 0.28, "C": 0.25, "D": 0.20}
    >>> second = {"A": 0.35, "B": 0.36, "C": 0.27, "D": 0.22}
    >>> result = kendall_tau(first, second)
    >>> result.concordant, result.discordant  # of 6 pairs only (A, B) swaps
    (5, 1)
    >>> round(result.value, 4)  # (5 - 1) / 6
    0.6667
    """
    systems, first, second = check_same_systems("x", x, "y", y, mark("each system's score"))
    names = check_two_names("names", names, ("NIST", "LLM judge"))
    for name, values, given in (("x", first, x), ("y", second, y)):
        if np.all(values == values[0]):
            raise ValueError(gettext("{name} must not give every system the same score: there is no ranking to "
                                     "correlate. Got {got} instead.").format(name=name, got=shown(given)))
    sx, sy, _, _ = _pair_signs(first, second)
    c, d, tx, ty, both = _counts(sx, sy)
    value = (c - d) / np.sqrt(float(c + d + tx) * float(c + d + ty))
    return RankCorrelation("tau_b", float(value), systems, tuple(map(float, first)), tuple(map(float, second)),
                           c, d, tx, ty, both, names)


def tau_ap(truth, estimate, *, names=("x", "y")):
    """AP correlation τ_AP (Yilmaz, Aslam & Robertson 2008): τ that weighs swaps at the top more. Lesson 15.

    Rank the systems by ``estimate``. For each position ``i`` from 2 on,
    ``C(i)`` counts the systems above it that ``truth`` also ranks above
    it; ``C(i)/(i - 1)`` is the precision of that prefix, and
    ``τ_AP = 2/(N - 1) · Σ_i C(i)/(i - 1) - 1``. A swap at the top spoils
    every later prefix, one at the bottom only the last: unlike τ, τ_AP is
    not symmetric, and ``truth`` is the reference ranking.

    Parameters
    ----------
    truth, estimate : mapping of str to float, or sequence of float
        The reference scores (e.g. full judgements) and the scores judged
        against them (e.g. an LLM judge's), as for :func:`kendall_tau`.
        Neither may tie two systems (τ_AP is defined for strict rankings;
        :func:`kendall_tau` handles ties).
    names : (str, str), default ("x", "y")
        What to call the reference and the estimate in the tables.

    Returns
    -------
    RankCorrelation
        ``statistic`` is ``"tau_ap"``; ``x`` holds ``truth``, ``y`` ``estimate``.

    Examples
    --------
    The same single swap costs more at the top than at the bottom:

    >>> truth = [0.9, 0.8, 0.7, 0.6]
    >>> round(tau_ap(truth, [0.8, 0.9, 0.7, 0.6]).value, 4)  # top two swapped: 2/3·(0 + 2/2 + 3/3) - 1
    0.3333
    >>> round(tau_ap(truth, [0.9, 0.8, 0.6, 0.7]).value, 4)  # bottom two swapped: 2/3·(1/1 + 2/2 + 2/3) - 1
    0.7778
    >>> round(kendall_tau(truth, [0.8, 0.9, 0.7, 0.6]).value, 4)  # τ: either swap is 1 of 6 pairs
    0.6667
    """
    systems, first, second = check_same_systems("truth", truth, "estimate", estimate, mark("each system's score"))
    names = check_two_names("names", names, ("NIST", "LLM judge"))
    for name, values, given in (("truth", first, truth), ("estimate", second, estimate)):
        if np.unique(values).size < values.size:
            raise ValueError(gettext("{name} must not tie two systems: τ_AP is defined for strict rankings (use "
                                     "kendall_tau, whose τ-b handles ties). Got {got} instead.")
                                    .format(name=name, got=shown(given)))
    order = np.argsort(-second, kind="stable")
    total = sum(int((first[order[:i]] > first[order[i]]).sum()) / i for i in range(1, order.size))
    value = 2.0 * total / (order.size - 1) - 1.0
    sx, sy, _, _ = _pair_signs(first, second)
    c, d, tx, ty, both = _counts(sx, sy)
    return RankCorrelation("tau_ap", float(value), systems, tuple(map(float, first)), tuple(map(float, second)),
                           c, d, tx, ty, both, names)


@dataclass(frozen=True, repr=False)
class SwappedPairs(Explained):
    """The system pairs two evaluations order differently (returned by :func:`swapped_pairs`). Lesson 15.

    Attributes
    ----------
    value : float
        Swapped pairs / all pairs.
    swapped : tuple of (str, str)
        The swapped pairs, each as ``(higher in x, higher in y)``.
    pairs : int
        All pairs of systems.
    tied : int
        Pairs tied in ``x`` or ``y`` (neither swapped nor kept).
    differences : tuple of (float, float)
        For each swapped pair, its score difference in ``x`` and in ``y``.
    names : tuple of str
    """

    value: float
    swapped: tuple
    pairs: int
    tied: int
    differences: tuple
    names: tuple = ("x", "y")

    def _parts(self):
        language = self.language
        first, second = self.names
        rows = tuple((f"{a} / {b}", float(dx), float(dy)) for (a, b), (dx, dy) in zip(self.swapped, self.differences))
        table = Table(_("swapped pairs", language), ("pair", "dx", "dy"), rows, align="lrr",
                      shown_headers=(_("pair (higher by {x} first)", language).format(x=first),
                                     _("difference by {name}", language).format(name=first),
                                     _("difference by {name}", language).format(name=second)))
        formula = (_("share swapped = {swapped} / {pairs} = {value}", language).format(
            swapped=len(self.swapped), pairs=self.pairs, value=number(self.value)),)
        notes = (_("{tied} pairs tied in one evaluation count as neither kept nor swapped", language).format(
            tied=self.tied),) if self.tied else ()
        title = _("{swapped} of {pairs} system pairs swap", language).format(swapped=len(self.swapped),
                                                                             pairs=self.pairs)
        return title, (table,), formula, notes


def swapped_pairs(x, y, *, names=("x", "y")):
    """The pairs of systems two evaluations order oppositely, and their share of all pairs. Lessons 15 and 18.

    A pair is swapped when one evaluation puts system s above t and the
    other puts t above s. Without ties, Kendall's τ is ``1 - 2·share``:
    a share of 5% swapped pairs is τ = 0.9.

    Parameters
    ----------
    x, y : mapping of str to float, or sequence of float
        As for :func:`kendall_tau`.
    names : (str, str), default ("x", "y")
        What to call the two evaluations in the table.

    Returns
    -------
    SwappedPairs

    Examples
    --------
    >>> result = swapped_pairs({"A": 0.31, "B": 0.28, "C": 0.25}, {"A": 0.35, "B": 0.36, "C": 0.27})
    >>> result.swapped, result.pairs  # A above B by x, B above A by y
    ((('A', 'B'),), 3)
    >>> round(result.value, 4)  # 1 of 3 pairs
    0.3333
    """
    systems, first, second = check_same_systems("x", x, "y", y, mark("each system's score"))
    names = check_two_names("names", names, ("NIST", "LLM judge"))
    sx, sy, i, j = _pair_signs(first, second)
    swapped = np.flatnonzero(sx * sy < 0)
    pairs_swapped, differences = [], []
    for k in swapped:
        high, low = (i[k], j[k]) if sx[k] > 0 else (j[k], i[k])
        pairs_swapped.append((systems[high], systems[low]))
        differences.append((float(first[high] - first[low]), float(second[high] - second[low])))
    tied = int(((sx == 0) | (sy == 0)).sum())
    return SwappedPairs(len(swapped) / len(sx), tuple(pairs_swapped), len(sx), tied, tuple(differences), names)

