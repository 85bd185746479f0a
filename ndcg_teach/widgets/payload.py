"""The explorer's numbers on the wire: one schema for the step rows and plot arrays of the confirmed panel and of
every preview.

A step row is the text of the NDCG trace's columns at one position: first
the fields a reorder changes (:data:`STEP`), then the ideal ranking's
(:data:`IDEAL`), which no reorder changes and previews never carry. The
confirmed panel sends whole rows (:func:`step_row`, :func:`ideal_row`). The
previews are packed (see ``previews.py``): each field of :data:`STEP` is sent
once per message, per item, per position, per item and position or per
destination, as its :class:`Field` says (its ``by``), under its ``packed``
name. An explorer given each item's grades per subtopic shows one more
field after the item (:data:`COVERAGE`, :func:`step_fields`): the subtopics
the item covers, the new ones marked. The plots' arrays of an order
(:data:`PLOT`) are the numbers of step fields over the whole list or the top
k: the panel writes them with :func:`plot_arrays`, and a preview reads them
from the packed fields as it reads its step rows. The page gets
:func:`schema` once (the explorer's ``payload`` trait) and reads every
field's place from it (``static/previews.js``); :func:`unpacked_steps` and
:func:`unpacked_plot` read a packed entry the same way in Python. Nothing
else writes a field's position.
"""

from dataclasses import dataclass

import numpy as np

from ..core.metrics.ndcg import NDCG_COLUMNS
from ..core.metrics.subtopic_recall import COVERAGE as COVERAGE_COLUMN
from ..core.trace import FORMATS

# What a packed value depends on, and so where the page finds it (p: the position, 0-based; j: the index of the item
# at p in the message's base order; d: the destination; n: the list's length; k: the cut-off):
BY = {
    "position": "the position itself, 1 at the top",
    "item_id": "the id of the item at the position",
    "item": "the item alone: message[packed][j]",
    "place": "the position alone: message[packed][p]",
    "item_at_place": "the item and its position: message[packed] split at spaces, [j * n + p]",
    "destination": "the whole order: entry[packed] split at spaces, [d * k + p]",
}
PACKED = ("item", "place", "item_at_place", "destination")  # sent under the field's packed name
SPLIT = ("item_at_place", "destination")  # sent as one string of space-separated texts, split by the page when needed
CELLS = {column.key: column for column in (*NDCG_COLUMNS, COVERAGE_COLUMN)}


@dataclass(frozen=True)
class Field:
    """One column of the step rows: its trace column ``key``, what its value depends on (``by``, one of
    :data:`BY`), and the name its packed values travel under in a previews message (None when nothing is sent)."""

    key: str
    by: str
    packed: str = None

    def __post_init__(self):
        if self.by not in BY:
            raise ValueError(f"Field {self.key!r}: by must be one of {', '.join(map(repr, BY))}. Got {self.by!r} instead.")
        if self.packed is None and self.by in PACKED:
            raise ValueError(f"Field {self.key!r}: a field placed by {self.by!r} needs its packed name. Got None instead.")

    def cell(self, value, language=None):
        """``value`` as the NDCG trace writes it in this column."""
        return CELLS[self.key].cell(value, language)

    def pack(self, values):
        """The texts of ``values`` (a list, or an array read as Python numbers) as a previews message carries them: a
        list, or one space-separated string. Up to 64,000 values a message: the column's format is looked up once."""
        column = CELLS[self.key]
        write = column.format if callable(column.format) else FORMATS[column.format]
        texts = ["" if value is None else write(value, None)  # an empty cell, as Column.cell writes None
                 for value in (values.tolist() if isinstance(values, np.ndarray) else values)]
        return " ".join(texts) if self.by in SPLIT else texts


STEP = (
    Field("position", "position"),
    Field("item", "item_id"),
    Field("grade", "item", "grades"),
    Field("gain", "item", "gains"),
    Field("discount", "place", "discounts"),
    Field("contribution", "item_at_place", "shares"),
    Field("running", "destination", "running"),
)
COVERAGE = Field("coverage", "destination", "coverage")  # which subtopics come before it decides which are new
IDEAL = ("ideal_item", "ideal_grade", "ideal_contribution", "ideal_running")  # whole rows in the panel; never packed


def step_fields(subtopics=False):
    """The step rows' fields: :data:`STEP`, with :data:`COVERAGE` after the item when the explorer holds subtopics."""
    return (*STEP[:2], COVERAGE, *STEP[2:]) if subtopics else STEP


def columns(subtopics=False):
    """The step table's columns, in order (the ideal ones last)."""
    return tuple(field.key for field in step_fields(subtopics)) + IDEAL


COLUMNS = columns()
"""An explorer's step columns without subtopics: ``COLUMNS.index("running")`` is where a row holds the running DCG."""
FIELDS = {field.key: field for field in step_fields(True)}

# How many positions a plot array covers: n is the list's length, k the cut-off.
OVER = {"list": "every position of the list (n values)", "cut": "the top k positions (k values)"}


@dataclass(frozen=True)
class Plotted:
    """One array of the plots of an order: its name in the panel's ``plot``, the :data:`STEP` field whose values it
    holds (as numbers; the items' ids as they are) and the positions it covers (``over``, one of :data:`OVER`)."""

    key: str
    field: str
    over: str

    def __post_init__(self):
        if self.field not in FIELDS or self.over not in OVER:
            raise ValueError(f"Plotted {self.key!r}: field must be one of {', '.join(map(repr, FIELDS))} and over one of "
                             f"{', '.join(map(repr, OVER))}. Got field {self.field!r}, over {self.over!r} instead.")
        if self.over == "list" and FIELDS[self.field].by in ("place", "destination"):
            raise ValueError(f"Plotted {self.key!r}: a preview holds field {self.field!r} for the top k positions only, "
                             f"so it must be over 'cut'. Got over {self.over!r} instead.")


PLOT = (
    Plotted("items", "item", "list"),
    Plotted("gains", "gain", "list"),
    Plotted("shares", "contribution", "list"),
    Plotted("running", "running", "cut"),
)
"""The plots' arrays of an order; ``score`` (the cumulative plot's NDCG text) goes beside them, and the arrays no
reorder changes (positions, discounts, the ideal's running DCG) come once, with the panel."""


def schema(subtopics=False):
    """The schema as the page reads it (sent once, in the explorer's ``payload`` trait)."""
    return {"steps": [{"key": field.key, "by": field.by, "packed": field.packed} for field in step_fields(subtopics)],
            "ideal": list(IDEAL),
            "plot": [{"key": plotted.key, "field": plotted.field, "over": plotted.over} for plotted in PLOT]}


def plot_arrays(values, n, k, score):
    """The plots' arrays of one order from ``values`` (step field -> the values at positions 1, 2, ...), each cut to
    the positions its :class:`Plotted` covers, and the ``score`` text: the panel's ``plot`` as a reorder changes it."""
    return {**{plotted.key: list(values[plotted.field])[:n if plotted.over == "list" else k] for plotted in PLOT},
            "score": score}


def step_row(values, language=None, fields=STEP):
    """The texts of one position's ``fields`` (:func:`step_fields`), from ``values`` (a mapping, e.g. a trace row's
    ``as_dict()``, with the ``coverage`` text when ``fields`` hold it)."""
    return [field.cell(values[field.key], language) for field in fields]


def ideal_row(values, language=None):
    """The texts of one position's :data:`IDEAL` fields, from ``values``."""
    return [CELLS[key].cell(values[key], language) for key in IDEAL]


def _packed_cells(message, entry, d, fields=STEP):
    """``cell(field, p)``: the text of ``field`` at position p of destination ``d`` of a packed previews ``entry``,
    read where the schema says, as the page reads it; ``fields`` the explorer's (:func:`step_fields`)."""
    base = message["base"]
    n, k = len(base), message["k"]
    order = [item for item in base if item != entry["item"]]
    order.insert(entry["start"] + d, entry["item"])
    index = {item: j for j, item in enumerate(base)}
    split = {field.key: (message if field.by == "item_at_place" else entry)[field.packed].split(" ")
             for field in fields if field.by in SPLIT}

    def cell(field, p):
        j = index[order[p]]
        return {
            "position": lambda: str(p + 1),
            "item_id": lambda: order[p],
            "item": lambda: message[field.packed][j],
            "place": lambda: message[field.packed][p],
            "item_at_place": lambda: split[field.key][j * n + p],
            "destination": lambda: split[field.key][d * k + p],
        }[field.by]()

    return cell


def unpacked_steps(message, entry, d, fields=STEP):
    """The step rows of destination ``d`` of a packed previews ``entry``, read by the schema as the page reads them.

    ``d`` is the destination's index in the entry (0 for its ``start``); ``fields`` the explorer's (:func:`step_fields`).
    """
    cell = _packed_cells(message, entry, d, fields)
    return [[cell(field, p) for field in fields] for p in range(min(message["k"], len(message["base"])))]


def unpacked_plot(message, entry, d):
    """The plots' arrays of destination ``d`` of a packed previews ``entry`` (numbers, the items' ids as text), read
    by the schema as the page reads them, and its score text."""
    cell = _packed_cells(message, entry, d)
    n = len(message["base"])
    values = {plotted.field: [cell(FIELDS[plotted.field], p) for p in range(n if plotted.over == "list" else message["k"])]
              for plotted in PLOT}
    numbers = {field: texts if FIELDS[field].by == "item_id" else [float(text) for text in texts]
               for field, texts in values.items()}
    return plot_arrays(numbers, n, message["k"], f"{message['label']} = {entry['scores'].split(' ')[d]}")
