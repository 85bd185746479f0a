"""What the explorers show for one order of the items: numbers, step rows and plot arrays.

Every number here comes from the library (:func:`~ndcg_teach.explain_ndcg`,
:func:`~ndcg_teach.explain_dcg` and the registry's functions); this module only
picks the fields and turns them into the text the front end prints. It serves
both the confirmed panel (the order the kernel holds) and the previews: the
same fields for every destination of one item, sent ahead so that a drop is
drawn in the browser without waiting for the kernel. Lesson 03 uses the explorer.
"""

import hashlib
import json
from dataclasses import dataclass, replace

import numpy as np

from ..core import explain_ndcg, relevances_from
from ..core.context import Query
from ..i18n import gettext, mark
from ..core.metrics.dcg import dcg_steps
from ..core.metrics.ndcg import NDCG_COLUMNS
from ..core.metrics.subtopic_recall import COVERAGE, coverage
from ..core.registry import call, metric
from ..core.validation import shown
from . import payload
from .unjudged import card, card_value

DEFAULT_CARDS = ("ndcg", "dcg", "idcg", "cg", "precision", "recall", "ap", "rr")
"""The metric cards an explorer shows when it is not given ``metrics=``: a course decision (lessons 01-05 teach
these), not every registered metric. Pass ``metrics=`` to show others, e.g. ``[*DEFAULT_CARDS, "err"]``."""

# The NDCG trace's columns the step table shows (payload.COLUMNS), three of them under the table's own heading.
STEP_HEADERS = {
    **{column.key: column.header for column in NDCG_COLUMNS},
    "contribution": mark("gain × discount"),
    "running": mark("running DCG"),
    "ideal_contribution": mark("ideal gain × discount"),
    "coverage": COVERAGE.header,
}


def _floats(rows, name):
    """One field of every row as floats; None (past the end of the list) stays None."""
    return [None if getattr(row, name) is None else float(getattr(row, name)) for row in rows]


@dataclass(frozen=True)
class Conventions:
    """Everything but the order that the numbers depend on: the explorer's settings at one moment."""

    relevance: dict
    k: int
    gain: str
    discount: str
    threshold: int
    pool: list | None
    specs: tuple
    subtopics: dict | None = None
    unjudged: frozenset = frozenset()

    def relevances(self, order):
        """The grades of ``order``, None for an unjudged item (see :mod:`.unjudged`)."""
        return [None if item in self.unjudged else grade for item, grade in zip(order, relevances_from(order, self.relevance))]

    def query(self, order):
        """The query the explorer's ranking ``order`` makes: its grades and judged mask, the pool, R and N counted in
        the pool, the threshold, and each item's grades per subtopic when the explorer holds them (the diversity
        cards read those)."""
        counted = {} if self.pool is None else {
            "n_relevant": sum(grade >= self.threshold for grade in self.pool),
            "n_nonrelevant": sum(grade < self.threshold for grade in self.pool)}
        query = Query.of(self.relevances(order), pool=self.pool, **counted, threshold=self.threshold,
                         ranking=list(order), unjudged=True)
        if self.subtopics is None:
            return query
        return replace(query, subtopics=np.array([self.subtopics[item] for item in order], dtype=np.float64))

    @property
    def fields(self):
        """The step rows' fields (:func:`.payload.step_fields`): with the subtopics each item covers when held."""
        return payload.step_fields(self.subtopics is not None)

    def coverage(self, query):
        """The step table's subtopic texts of a query (or batch) the explorer made, top k, or None without subtopics."""
        if self.subtopics is None:
            return None
        tables = query.subtopics if query.batch else query.subtopics[np.newaxis]
        return coverage(tables[:, :self.k], self.threshold)

    def settings(self, spec):
        """The explorer's conventions (gain, discount) that ``spec`` declares among its params."""
        return {name: value for name, value in (("gain", self.gain), ("discount", self.discount)) if name in spec.params}

    def key(self, *others):
        """A short fingerprint of these conventions (and ``others``): previews made under another one are stale."""
        text = json.dumps([sorted(self.relevance.items()), self.k, self.gain, self.discount, self.threshold, self.pool,
                           [spec.key for spec in self.specs], None if self.subtopics is None else sorted(self.subtopics.items()),
                           sorted(self.unjudged), others], default=repr)  # repr: a gain function (trec_eval's gain map)
        return hashlib.blake2s(text.encode(), digest_size=8).hexdigest()


@dataclass(frozen=True)
class Numbers:
    """The library's results for one order: the NDCG trace at k, the DCG steps of the whole list (the discount
    plot's arrays), every metric's value, and the grades and conventions they were computed from."""

    order: tuple
    trace: object
    steps: object
    values: dict
    grades: tuple
    conventions: object
    coverage: tuple = None

    def _coverage(self, p):
        """The subtopic text of position ``p`` (0-based), None past the list or without subtopics."""
        return self.coverage[p] if self.coverage is not None and p < len(self.coverage) else None

    def shown(self):
        """The order-dependent part of a panel, as the front end shows it (a preview sends just this)."""
        return {
            "order": list(self.order),
            "texts": [f"{value:.4f}" for value in self.values.values()],
            # An unjudged item's grade cell is empty, as in explain_bpref: nobody knows it (see .unjudged).
            "steps": [payload.step_row({**row.as_dict(), "coverage": self._coverage(p),
                                        **({"grade": None} if row.item in self.conventions.unjudged else {})},
                                       fields=self.conventions.fields)
                      for p, row in enumerate(self.trace.rows)],
            "plot": payload.plot_arrays(
                {"item": list(self.order), "gain": self.steps.gains.tolist(), "contribution": self.steps.contributions.tolist(),
                 "running": _floats(self.trace.rows, "running")},
                len(self.order), self.conventions.k, f"{self.trace.metric} = {self.trace.value:.4f}"),
        }


def compute(order, conventions):
    """Every number the explorer shows for ``order`` under ``conventions``, from the library, each metric once.

    The step table's NDCG trace is computed first; a card of NDCG, or of one
    of the parts its trace holds (DCG, IDCG: ``trace.parts``, keyed by
    registry key), takes its value from that trace, and every other card
    from :func:`~ndcg_teach.core.registry.call`.
    """
    query = conventions.query(order)
    ndcg = metric("ndcg")
    trace = explain_ndcg(query.grades, conventions.k, ranking=list(order), pool=conventions.pool,
                         **conventions.settings(ndcg))
    traced = {"ndcg": trace.value, **{key: part.value for key, part in trace.parts.items()}}
    values = {spec.key: traced[spec.key] if spec.key in traced else card_value(spec, query, conventions.k, **conventions.settings(spec))
              for spec in conventions.specs}
    steps = dcg_steps(query.grades, None, conventions.gain, conventions.discount)
    texts = conventions.coverage(query)
    return Numbers(tuple(order), trace, steps, values, tuple(query.grades.tolist()), conventions,
                   None if texts is None else tuple(texts[0].tolist()))


def fixed(numbers, language="en"):
    """The part of a panel that no reorder changes: step columns (headed in ``language``), ideal cells and the plots' fixed arrays."""
    subtopics = numbers.conventions.subtopics is not None
    start = len(payload.step_fields(subtopics))
    return {
        "columns": [
            {"text": gettext(STEP_HEADERS[column], language), "ideal": i >= start, "label": payload.CELLS[column].left,
             "start": i == start}
            for i, column in enumerate(payload.columns(subtopics))
        ],
        "ideal_steps": [payload.ideal_row(row.as_dict(), language) for row in numbers.trace.rows],
        "plot": {
            "positions": [row.position for row in numbers.trace.rows],
            "discounts": numbers.steps.discounts.tolist(),
            "ideal": _floats(numbers.trace.rows, "ideal_running"),
        },
    }


def _move_indices(n, start, destinations):
    """One row per destination d: the indices of ``range(n)`` after moving index ``start`` to index d.

    >>> _move_indices(4, 1, [0, 3]).tolist()
    [[1, 0, 2, 3], [0, 2, 3, 1]]
    """
    d = np.asarray(destinations, dtype=np.int64).reshape(-1, 1)
    p = np.arange(n)
    # Between the two places every index shifts by one, towards where the item left.
    shifted = p + ((p >= start) & (p < d)) - ((p > d) & (p <= start))
    return np.where(p == d, start, shifted)


@dataclass(frozen=True)
class Moves:
    """The library's arrays for every destination of some items, one row per order (item by item, destination 1..n).

    ``indices[r]`` is row r's order as indices into the base order; ``gains``
    and ``shares`` (gain × discount) cover the whole list, ``running`` the
    top k, ``discounts`` each position's; ``values`` holds every metric's
    value per row and ``score`` the NDCG at k the cumulative plot names;
    ``coverage`` the top k's subtopic texts when the explorer holds subtopics.
    """

    base: tuple
    indices: np.ndarray
    gains: np.ndarray
    shares: np.ndarray
    running: np.ndarray
    discounts: np.ndarray
    values: dict
    score: np.ndarray
    coverage: np.ndarray = None

    def orders(self):
        return [tuple(self.base[i] for i in row) for row in self.indices.tolist()]


def compute_moves(base, moves, conventions):
    """The orders ``moves`` lead to from ``base``, all at once: one batch query of the reordered lists, scored by
    :func:`~ndcg_teach.core.registry.call` (through each metric's batch function where it has one).

    ``moves`` holds ``(item, destinations)`` pairs: each item of ``base`` moved to each of its destinations (0-based
    positions). Each metric is computed once, for every row at once; the NDCG the cumulative plot names is the NDCG
    card's value when the explorer shows one.
    """
    n = len(base)
    rows = [_move_indices(n, base.index(item), destinations) for item, destinations in moves]
    indices = np.concatenate(rows) if rows else np.zeros((0, n), int)
    moved = conventions.query(list(base)).reordered(indices)
    steps = dcg_steps(moved.grades, None, conventions.gain, conventions.discount)
    values = {spec.key: card_value(spec, moved, conventions.k, **conventions.settings(spec)) for spec in conventions.specs}
    ndcg = metric("ndcg")
    score = values["ndcg"] if ndcg in conventions.specs else call(ndcg, moved, conventions.k, **conventions.settings(ndcg))
    return Moves(tuple(base), indices, steps.gains, steps.contributions, steps.running[:, :conventions.k],
                 steps.discounts, values, score, conventions.coverage(moved))


def shares(grades, conventions):
    """Each item's gain, its gain × discount at every position (``[item, position]``) and each position's discount.

    From the library's DCG steps of the n cyclic shifts of the list, in which
    every item stands once at every position.
    """
    n = len(grades)
    shifts = (np.arange(n)[:, np.newaxis] + np.arange(n)) % n
    steps = dcg_steps(np.asarray(grades, dtype=np.float64)[shifts], None, conventions.gain, conventions.discount)
    matrix = np.zeros((n, n))
    matrix[shifts, np.arange(n)] = steps.contributions
    gains = np.zeros(n)
    if n:
        gains[shifts[0]] = steps.gains[0]
    return gains, matrix, steps.discounts


def texts(values):
    """Numbers as the panel prints them (4 decimals), joined by spaces: one string the browser splits when needed."""
    return " ".join(f"{value:.4f}" for value in np.asarray(values, dtype=np.float64).ravel().tolist())


def chosen_metrics(keys, subtopics=False):
    """The specs of the cards to show: the course's default cards (:data:`DEFAULT_CARDS`), or the keys given, in that
    order (a registry key, or ``"condensed_"`` and one: see :mod:`.unjudged`); a diversity card only when the
    explorer holds ``subtopics``."""
    if keys is None:
        return tuple(metric(key) for key in DEFAULT_CARDS)
    if isinstance(keys, str) or not hasattr(keys, "__iter__"):
        raise TypeError(gettext("metrics must be a list of registry keys such as ['ndcg', 'dcg'], or None for "
                                "the default cards. Got {got} instead.").format(got=shown(keys)))
    specs = [card(key) for key in keys]
    if not specs:
        raise ValueError(gettext("metrics must name at least one metric, or be None for the default cards. Got "
                                 "[] instead."))
    tables = [spec.key for spec in specs if "subtopics" in spec.needs]
    if tables and not subtopics:
        raise ValueError(gettext("subtopics is required for the {names} card: it reads each item's grade per "
                                 "subtopic; pass subtopics={{item: [grade per subtopic, ...]}}, e.g. {{'A': [1, "
                                 "0], 'B': [0, 2]}}. Got metrics={value} and no subtopics instead.")
                                .format(names=', '.join(tables), value=shown(list(keys))))
    return tuple(specs)
