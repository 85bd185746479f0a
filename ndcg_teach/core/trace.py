"""Trace: a metric's value together with every step that produced it.

An ``explain_*`` function returns a frozen :class:`Trace`: the value, one
:class:`Row` per position, the formula with the numbers substituted, and
three renderings (plain text, HTML for notebooks, LaTeX). Each metric
declares the columns its traces show, one :class:`Column` each (key, header,
format, meaning); the columns many metrics share (position, item, grade,
gain, discount, ...) are defined here once, and a metric with a step of its
own (ERR's stop probability, RBP's residual, ...) defines that column in its
own module. A row holds exactly its trace's columns, read as attributes
(``row.discount``).

A trace speaks the language that was set when it was built
(:func:`ndcg_teach.set_language`): its formula words and notes are written
then, and its headers are shown in the same language.
"""

from dataclasses import FrozenInstanceError, dataclass, field
from html import escape
from types import MappingProxyType

from .. import i18n
from ..i18n import _, gettext, mark
from .table import Mapped, Table, formula_block, shortened, styled

NOT_RETRIEVED = mark("(not retrieved)")
"""The ideal item a list does not hold: kept in English in ``Trace.ideal_items``, shown in the trace's language."""


def _text(value, language):
    return _(value, language) if value == NOT_RETRIEVED else str(value)


FORMATS = {
    "text": _text,
    "flag": lambda value, language: _("yes", language) if value else _("no", language),
    "count": lambda value, language: str(value),
    "grade": lambda value, language: f"{value:g}",
    "number": lambda value, language: f"{value:.4f}",
}
"""How a column writes its cells: item ids as they are, yes / no, whole counts, grades as written, 4 decimals."""


@dataclass(frozen=True)
class Column:
    """One column of a trace's step table.

    Attributes
    ----------
    key : str
        The row attribute it shows, e.g. ``"discount"`` (``row.discount``).
        A key starting with ``ideal_`` is shaded as the ideal ranking's side.
    header : str
        Its heading, marked for translation (symbols such as ``"P@i"`` read
        the same in every language).
    format : str or callable
        A name in :data:`FORMATS`, or ``format(value, language) -> str``.
        Text columns are aligned left, the others right.
    meaning : str
        What the column holds, in one line (marked for translation).

    Examples
    --------
    >>> DISCOUNT.cell(0.63092975357), ITEM.cell(NOT_RETRIEVED, "zh-CN")
    ('0.6309', '（未检索到）')
    """

    key: str
    header: str
    format: object
    meaning: str

    def __post_init__(self):
        if not self.key.isidentifier() or not (callable(self.format) or self.format in FORMATS):
            raise ValueError(gettext("Column must have an identifier key and a format in {names} or a function. "
                                     "Got key {key!r}, format {format!r} instead.")
                                    .format(names=', '.join(FORMATS), key=self.key, format=self.format))

    def cell(self, value, language=None):
        """``value`` as table text in ``language``; an empty cell for None."""
        if value is None:
            return ""
        return (self.format if callable(self.format) else FORMATS[self.format])(value, language)

    @property
    def left(self):
        """Whether the column is aligned left (text)."""
        return self.format == "text"


# The columns many metrics share. Symbols (i, P@i, ...) read the same in every language; words are marked.
POSITION = Column("position", "i", "count", mark("the position in the ranking, 1 at the top"))
ITEM = Column("item", mark("item"), "text", mark("the item at this position"))
GRADE = Column("grade", mark("grade"), "grade", mark("its relevance grade"))
GAIN = Column("gain", mark("gain"), "number", mark("what the item is worth before its position counts"))
DISCOUNT = Column("discount", mark("discount"), "number", mark("the weight of this position"))
CONTRIBUTION = Column("contribution", mark("contribution"), "number", mark("what this position adds to the value"))
RUNNING = Column("running", mark("running total"), "number", mark("the sum of the contributions so far"))
RELEVANT = Column("relevant", mark("relevant"), "flag", mark("whether the grade reaches the threshold"))
HITS = Column("hits", mark("hits"), "count", mark("relevant items up to this position"))
PRECISION = Column("precision", "P@i", "number", mark("the share of relevant items up to this position"))
RECALL = Column("recall", "R@i", "number", mark("the share of the query's relevant items found up to this position"))
JUDGED = Column("judged", mark("judged"), "flag", mark("whether the item was judged"))
SHARED = {column.key: column for column in (POSITION, ITEM, GRADE, GAIN, DISCOUNT, CONTRIBUTION, RUNNING, RELEVANT,
                                            HITS, PRECISION, RECALL, JUDGED)}


def cell(key, value, language=None):
    """A value of one of the shared columns (:data:`SHARED`) as table text, e.g. ``cell("discount", 0.5)``."""
    return SHARED[key].cell(value, language)


class Row:
    """One position of a trace: one read-only attribute per column of its trace (``row.position``, ``row.gain``, ...).

    Examples
    --------
    >>> row = Row(position=1, item="A", grade=5.0)
    >>> row.item, row
    ('A', Row(position=1, item='A', grade=5.0))
    >>> row.gain
    Traceback (most recent call last):
    ...
    AttributeError: this trace row has no 'gain'; it holds position, item, grade
    """

    __slots__ = ("_values",)

    def __init__(self, **values):
        object.__setattr__(self, "_values", MappingProxyType(values))

    def __getattr__(self, name):
        try:
            return self._values[name]
        except KeyError:
            raise AttributeError(gettext("this trace row has no {name!r}; it holds {names}")
                                        .format(name=name, names=', '.join(self._values))) from None

    def __setattr__(self, name, value):
        raise FrozenInstanceError(gettext("cannot assign to field {name!r}: trace rows are read-only")
                                         .format(name=name))

    def get(self, name, default=None):
        """The row's ``name`` value, or ``default`` when its trace has no such column."""
        return self._values.get(name, default)

    def as_dict(self):
        """Every value of the row, by column key."""
        return dict(self._values)

    def __eq__(self, other):
        return isinstance(other, Row) and self._values == other._values

    def __hash__(self):
        return hash(tuple(self._values.items()))

    def __repr__(self):
        return f"Row({', '.join(f'{name}={value!r}' for name, value in self._values.items())})"


def rows_of(columns, *arrays):
    """One :class:`Row` per position from one sequence per column (in the order of ``columns``)."""
    keys = [column.key for column in columns]
    return tuple(Row(**dict(zip(keys, values))) for values in zip(*arrays))


@dataclass(frozen=True)
class Trace:
    """A metric's value and its steps.

    Attributes
    ----------
    metric : str
        What was computed, with its cut-off, e.g. ``"NDCG@3"``.
    value : float
        The result; equal to the plain function's.
    rows : tuple of Row
        One row per position shown, holding a value (or None) for each column.
    formula : str
        The formula with the numbers substituted (several lines for NDCG).
    latex : str
        The same formula in LaTeX.
    columns : tuple of Column
        The columns the tables show, in order (declared by the metric).
    notes : tuple of str
        The conventions in force (gain, discount, threshold, ...).
    parts : mapping of str to Trace
        Sub-traces, e.g. ``{"dcg": ..., "idcg": ...}`` for NDCG.
    ideal_items : tuple of str
        Item labels in the ideal order (NDCG and IDCG traces).
    language : str
        The language the trace was built in (the one set then); its text and
        HTML are shown in it.
    """

    metric: str
    value: float
    rows: tuple
    formula: str
    latex: str
    columns: tuple
    notes: tuple = ()
    parts: MappingProxyType = field(default_factory=lambda: MappingProxyType({}))
    ideal_items: tuple = ()
    language: str = field(default_factory=i18n.language)

    def __post_init__(self):
        keys = [column.key for column in self.columns]
        for row in self.rows:
            if list(row.as_dict()) != keys:
                raise ValueError(gettext("Trace rows must hold exactly its columns {keys}. Got {got} instead.")
                                        .format(keys=keys, got=list(row.as_dict())))

    def _table(self):
        # Rows are formatted when shown: a long table shows only its first and last rows (see table.ROW_LIMIT).
        return Table(
            None,
            tuple(_(column.header, self.language) for column in self.columns),
            Mapped(lambda row: tuple(column.cell(getattr(row, column.key), self.language) for column in self.columns),
                   self.rows),
            align="".join("l" if column.left else "r" for column in self.columns),
            column_classes=tuple("ndcg-ideal" if column.key.startswith("ideal_") else "" for column in self.columns),
            row_classes=Mapped(self._row_class, self.rows),
            language=self.language,
        )

    @staticmethod
    def _row_class(row):
        # Relevant rows are tinted; positions past the end of the list (no item) are set apart.
        return " ".join((["ndcg-relevant"] if row.get("relevant") else [])
                        + (["ndcg-beyond"] if row.get("item") is None else []))

    def column(self, key):
        """The :class:`Column` shown under ``key``."""
        for column in self.columns:
            if column.key == key:
                return column
        raise KeyError(gettext("key must be one of this trace's columns ({names}). Got {key!r} instead.")
                              .format(names=', '.join(c.key for c in self.columns), key=key))

    def table(self):
        """The step table as aligned plain text."""
        return "\n".join(self._table().lines())

    def __str__(self):
        lines = [f"{self.metric} = {self.value:.6f}", "", self.table(), "", shortened(self.formula, self.language)]
        lines += [_("note: {note}", self.language).format(note=note) for note in self.notes]
        return "\n".join(lines)

    __repr__ = __str__

    def _repr_html_(self):
        notes = "".join(f"<div>{escape(note)}</div>" for note in self.notes)
        return styled(
            self._table().html(),
            formula_block(escape(shortened(self.formula, self.language))),
            f'<div class="ndcg-notes">{notes}</div>',
            title=f'{escape(self.metric)} = <span class="ndcg-trace-value">{self.value:.6f}</span>',
            kind="ndcg-trace",
        )

    def to_latex(self):
        """The formula with its numbers, as LaTeX (e.g. for a Markdown cell or a paper)."""
        return self.latex

    def to_rows(self):
        """Every row as a dict of its columns (``pandas.DataFrame(trace.to_rows())``)."""
        return [row.as_dict() for row in self.rows]
