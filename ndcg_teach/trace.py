"""Trace: a metric's value together with every step that produced it.

An ``explain_*`` function returns a frozen :class:`Trace`: the value, one
:class:`Row` per position, the formula with the numbers substituted, and
three renderings (plain text, HTML for notebooks, LaTeX).

A trace speaks the language that was set when it was built
(:func:`ndcg_teach.set_language`): its formula words and notes are written
then, and its headers are shown in the same language.
"""

from dataclasses import asdict, dataclass, field
from html import escape
from types import MappingProxyType

from . import i18n
from .i18n import _, mark
from .table import Mapped, Table, formula_block, shortened, styled

# Symbols (i, P@i, ...) read the same in every language; words are marked for translation.
HEADERS = {
    "position": "i",
    "item": mark("item"),
    "grade": mark("grade"),
    "gain": mark("gain"),
    "discount": mark("discount"),
    "contribution": mark("contribution"),
    "running": mark("running total"),
    "relevant": mark("relevant"),
    "hits": mark("hits"),
    "precision": "P@i",
    "ideal_item": mark("ideal item"),
    "ideal_grade": mark("ideal grade"),
    "ideal_gain": mark("ideal gain"),
    "ideal_discount": mark("ideal discount"),
    "ideal_contribution": mark("ideal contribution"),
    "ideal_running": mark("running IDCG"),
    "judged": mark("judged"),
    "recall": "R@i",
    "interpolated": mark("interpolated P"),
    "stop": mark("stop probability"),
    "reach": mark("P(reach i)"),
    "weight": "p^(i-1)",
    "residual": mark("residual"),
    "nonrelevant_above": mark("non-relevant above"),
}
TEXT_FIELDS = {"item", "ideal_item"}
NOT_RETRIEVED = mark("(not retrieved)")
"""The ideal item a list does not hold: kept in English in ``Trace.ideal_items``, shown in the trace's language."""


@dataclass(frozen=True)
class Row:
    """One position of a trace. Fields a metric does not use are None."""

    position: int
    item: str = None
    grade: float = None
    gain: float = None
    discount: float = None
    contribution: float = None
    running: float = None
    relevant: bool = None
    hits: int = None
    precision: float = None
    ideal_item: str = None
    ideal_grade: float = None
    ideal_gain: float = None
    ideal_discount: float = None
    ideal_contribution: float = None
    ideal_running: float = None
    judged: bool = None
    recall: float = None
    interpolated: float = None
    stop: float = None
    reach: float = None
    weight: float = None
    residual: float = None
    nonrelevant_above: int = None


def cell(name, value, language=None):
    """A row's field as table text: grades as written, other numbers to 4 decimals; yes/no in ``language``."""
    if value is None:
        return ""
    if name in TEXT_FIELDS:
        return _(value, language) if value == NOT_RETRIEVED else str(value)
    if name in ("relevant", "judged"):
        return _("yes", language) if value else _("no", language)
    if name in ("position", "hits", "nonrelevant_above"):
        return str(value)
    if name in ("grade", "ideal_grade"):
        return f"{value:g}"
    return f"{value:.4f}"


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
        One row per position shown.
    formula : str
        The formula with the numbers substituted (several lines for NDCG).
    latex : str
        The same formula in LaTeX.
    columns : tuple of str
        The Row fields the tables show, in order.
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

    def _table(self):
        # Rows are formatted when shown: a long table shows only its first and last rows (see table.ROW_LIMIT).
        return Table(
            None,
            tuple(_(HEADERS[name], self.language) for name in self.columns),
            Mapped(lambda row: tuple(cell(name, getattr(row, name), self.language) for name in self.columns), self.rows),
            align="".join("l" if name in TEXT_FIELDS else "r" for name in self.columns),
            column_classes=tuple("ndcg-ideal" if name.startswith("ideal_") else "" for name in self.columns),
            row_classes=Mapped(self._row_class, self.rows),
            language=self.language,
        )

    @staticmethod
    def _row_class(row):
        # Relevant rows are tinted; positions past the end of the list (no item) are set apart.
        return " ".join((["ndcg-relevant"] if row.relevant else []) + (["ndcg-beyond"] if row.item is None else []))

    def table(self):
        """The step table as aligned plain text."""
        return "\n".join(self._table().lines())

    def __str__(self):
        lines = [f"{self.metric} = {self.value!r}", "", self.table(), "", shortened(self.formula, self.language)]
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
        """The shown columns of every row as dicts (``pandas.DataFrame(trace.to_rows())``)."""
        return [{name: asdict(row)[name] for name in self.columns} for row in self.rows]
