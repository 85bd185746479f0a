"""Explained: how a result that is not a per-position metric shows its steps (lessons 13-19).

Agreement coefficients, rank correlations, click models, interleaving,
A/B test sizes and off-policy estimators each return a frozen result whose
fields hold the numbers. This base class shows any of them the way a
:class:`~ndcg_teach.Trace` shows a metric: a title with the value, the step
tables, the formula with the numbers in it, and notes; as aligned text
(``print``) and as HTML (in a notebook), both built from the same parts.

A subclass is a frozen dataclass that defines ``_parts()``, returning
``(title, tables, formula, notes)``: a string, :class:`~ndcg_teach.core.table.Table`
objects, formula lines and note lines, written in ``self.language`` (the
language set when the result was built).
"""

from dataclasses import dataclass, field
from html import escape

from .. import i18n
from ..i18n import _
from .table import formula_block, styled


def number(value):
    """A number as a formula shows it: four decimals.

    Examples
    --------
    >>> number(2 / 3), number(1)
    ('0.6667', '1.0000')
    """
    return f"{value:.4f}"


@dataclass(frozen=True, repr=False)
class Explained:
    """A result that shows its steps: subclasses define ``_parts()`` and inherit the text and HTML.

    Examples
    --------
    >>> from ndcg_teach.core.table import Table
    >>> @dataclass(frozen=True, repr=False)
    ... class Sum(Explained):
    ...     values: tuple = (1, 2)
    ...     def _parts(self):
    ...         table = Table(None, ("i", "value"), tuple(enumerate(self.values, 1)), align="rr")
    ...         return f"sum = {sum(self.values)}", (table,), (f"1 + 2 = {sum(self.values)}",), ()
    >>> print(Sum())
    sum = 3
    <BLANKLINE>
    i  value
    -  -----
    1      1
    2      2
    <BLANKLINE>
    1 + 2 = 3
    """

    language: str = field(default_factory=i18n.language, kw_only=True, compare=False)

    def _parts(self):
        raise NotImplementedError

    @property
    def title(self):
        """The heading: what was computed and its value."""
        return self._parts()[0]

    @property
    def tables(self):
        """The step tables (:class:`~ndcg_teach.core.table.Table`)."""
        return self._parts()[1]

    @property
    def formula(self):
        """The formula lines with the numbers substituted, joined by newlines."""
        return "\n".join(self._parts()[2])

    @property
    def notes(self):
        """The notes shown under the formula."""
        return self._parts()[3]

    def __str__(self):
        title, tables, formula, notes = self._parts()
        lines = [title]
        for table in tables:
            lines += ["", str(table)]
        if formula:
            lines += ["", *formula]
        lines += [_("note: {note}", self.language).format(note=note) for note in notes]
        return "\n".join(lines)

    __repr__ = __str__

    def _repr_html_(self):
        title, tables, formula, notes = self._parts()
        parts = [table.html() for table in tables]
        if formula:
            parts.append(formula_block(escape("\n".join(formula))))
        if notes:
            parts.append(f'<div class="ndcg-notes">{"".join(f"<div>{escape(note)}</div>" for note in notes)}</div>')
        return styled(*parts, title=escape(title), kind="ndcg-explained")
