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
from dataclasses import dataclass

import numpy as np

from .. import explain_dcg, explain_ndcg, relevances_from
from ..context import Query
from ..i18n import gettext, mark
from ..metrics.dcg import dcg_steps
from ..metrics.ndcg import NDCG_COLUMNS
from ..registry import call, metric

DEFAULT_CARDS = ("ndcg", "dcg", "idcg", "cg", "precision", "recall", "ap", "rr")
"""The metric cards an explorer shows when it is not given ``metrics=``: a course decision (lessons 01-05 teach
these), not every registered metric. Pass ``metrics=`` to show others, e.g. ``[*DEFAULT_CARDS, "err"]``."""

STEP_COLUMNS = (
    "position", "item", "grade", "gain", "discount", "contribution", "running",
    "ideal_item", "ideal_grade", "ideal_contribution", "ideal_running",
)
# The ideal columns do not depend on the order: previews send only the columns before them.
IDEAL_START = STEP_COLUMNS.index("ideal_item")
# The NDCG trace's columns the step table shows, three of them under the table's own heading.
STEP_HEADERS = {
    **{column.key: column.header for column in NDCG_COLUMNS},
    "contribution": mark("gain × discount"),
    "running": mark("running DCG"),
    "ideal_contribution": mark("ideal gain × discount"),
}
CELLS = {column.key: column for column in NDCG_COLUMNS}


def cell(key, value, language=None):
    """A step-table value as the NDCG trace writes it."""
    return CELLS[key].cell(value, language)


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

    def query(self, order):
        """The query the explorer's ranking ``order`` makes: its grades, the pool, R counted in the pool, the threshold."""
        n_relevant = None if self.pool is None else sum(grade >= self.threshold for grade in self.pool)
        return Query.of(relevances_from(order, self.relevance), pool=self.pool, n_relevant=n_relevant,
                        threshold=self.threshold, ranking=list(order))

    def settings(self, spec):
        """The explorer's conventions (gain, discount) that ``spec`` declares among its params."""
        return {name: value for name, value in (("gain", self.gain), ("discount", self.discount)) if name in spec.params}

    def key(self, *others):
        """A short fingerprint of these conventions (and ``others``): previews made under another one are stale."""
        text = json.dumps([sorted(self.relevance.items()), self.k, self.gain, self.discount, self.threshold, self.pool,
                           [spec.key for spec in self.specs], others])
        return hashlib.blake2s(text.encode(), digest_size=8).hexdigest()


@dataclass(frozen=True)
class Numbers:
    """The library's results for one order: the NDCG trace at k, the DCG trace of the whole list, every metric."""

    order: tuple
    trace: object
    full_trace: object
    values: dict

    def shown(self):
        """The order-dependent part of a panel, as the front end shows it (a preview sends just this)."""
        rows = [row for row in self.full_trace.rows if row.item is not None]
        return {
            "order": list(self.order),
            "texts": [f"{value:.4f}" for value in self.values.values()],
            "steps": [[cell(column, getattr(row, column)) for column in STEP_COLUMNS[:IDEAL_START]]
                      for row in self.trace.rows],
            "plot": {
                "items": [row.item for row in rows],
                "gains": _floats(rows, "gain"),
                "shares": _floats(rows, "contribution"),
                "running": _floats(self.trace.rows, "running"),
                "score": f"{self.trace.metric} = {self.trace.value:.4f}",
            },
        }


def compute(order, conventions):
    """Every number the explorer shows for ``order`` under ``conventions``, from the library."""
    grades = relevances_from(order, conventions.relevance)
    query = conventions.query(order)
    trace = explain_ndcg(grades, conventions.k, ranking=list(order), gain=conventions.gain,
                         discount=conventions.discount, pool=conventions.pool)
    full = explain_dcg(grades, gain=conventions.gain, discount=conventions.discount, ranking=list(order))
    values = {spec.key: call(spec, query, conventions.k, **conventions.settings(spec)) for spec in conventions.specs}
    return Numbers(tuple(order), trace, full, values)


def fixed(numbers, language="en"):
    """The part of a panel that no reorder changes: step columns (headed in ``language``), ideal cells and the plots' fixed arrays."""
    rows = [row for row in numbers.full_trace.rows if row.item is not None]
    return {
        "columns": [
            {"text": gettext(STEP_HEADERS[column], language), "ideal": i >= IDEAL_START, "label": CELLS[column].left, "start": i == IDEAL_START}
            for i, column in enumerate(STEP_COLUMNS)
        ],
        "ideal_steps": [[cell(column, getattr(row, column), language) for column in STEP_COLUMNS[IDEAL_START:]]
                        for row in numbers.trace.rows],
        "plot": {
            "positions": [row.position for row in numbers.trace.rows],
            "discounts": _floats(rows, "discount"),
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
    top k; ``values`` holds every metric's value per row and ``score`` the
    NDCG at k the cumulative plot names.
    """

    base: tuple
    indices: np.ndarray
    gains: np.ndarray
    shares: np.ndarray
    running: np.ndarray
    values: dict
    score: np.ndarray

    def orders(self):
        return [tuple(self.base[i] for i in row) for row in self.indices.tolist()]


def compute_moves(base, moves, conventions):
    """The orders ``moves`` lead to from ``base``, all at once: one batch query of the reordered lists, scored by
    :func:`~ndcg_teach.registry.call` (through each metric's batch function where it has one).

    ``moves`` holds ``(item, destinations)`` pairs: each item of ``base`` moved to each of its destinations (0-based
    positions).
    """
    n = len(base)
    rows = [_move_indices(n, base.index(item), destinations) for item, destinations in moves]
    indices = np.concatenate(rows) if rows else np.zeros((0, n), int)
    moved = conventions.query(list(base)).reordered(indices)
    steps = dcg_steps(moved.grades, None, conventions.gain, conventions.discount)
    values = {spec.key: call(spec, moved, conventions.k, **conventions.settings(spec)) for spec in conventions.specs}
    ndcg = metric("ndcg")
    score = call(ndcg, moved, conventions.k, **conventions.settings(ndcg))
    return Moves(tuple(base), indices, steps.gains, steps.contributions, steps.running[:, :conventions.k], values, score)


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
