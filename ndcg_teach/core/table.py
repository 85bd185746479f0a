"""Table: rows of cells under a caption, as aligned plain text and as HTML.

Every table ndcg_teach shows is rendered here: the step table of a
:class:`~ndcg_teach.core.trace.Trace`, the tables of
:func:`~ndcg_teach.core.conventions.compare` and
:func:`~ndcg_teach.core.conventions.facts`, and the audit report of
:func:`ndcg_teach.course.examples.audit`. Their text is aligned the same way, and
their HTML shares one stylesheet, ``static/table.css``, whose colours follow
the JupyterLab theme (light or dark).
"""

import math
import re
import textwrap
import unicodedata
from collections.abc import Sequence
from dataclasses import KW_ONLY, dataclass
from functools import lru_cache
from html import escape
from typing import NamedTuple

from ..i18n import gettext, mark

ROWS_HIDDEN = mark("… {count} rows hidden …")
TERMS_HIDDEN = mark("… ({count} more terms) …")

NOTE_WIDTH = 110  # plain text: a row's note wraps at this width
# A table of more rows than ROW_LIMIT shows its first HEAD_ROWS and last TAIL_ROWS, with a line saying how many are
# hidden between them, so that printing the trace of a million-item list stays quick and small (.rows keeps them all).
ROW_LIMIT = 100
HEAD_ROWS = 50
TAIL_ROWS = 10
# A sum in a formula line of more than TERM_LIMIT terms shows its first HEAD_TERMS and last TAIL_TERMS.
TERM_LIMIT = 20
HEAD_TERMS = 8
TAIL_TERMS = 3
# The layout that must hold where the stylesheet is gone, written into the elements themselves: a lesson just opened
# in JupyterLab is untrusted, and JupyterLab then drops every output's <style> element but keeps style attributes.
# Without these, text columns and notes showed right-aligned and a formula's lines ran together. Colours and tints
# stay in static/table.css, with the theme's variables (JupyterLab's sanitizer drops a style value that holds var()).
LAYOUT = {
    "text": "text-align:left",
    "note": "text-align:left;white-space:normal;padding-left:28px",
    "formula": "font-family:monospace;white-space:pre-wrap;margin-top:6px",
    "hidden": "text-align:center;font-style:italic",
}
# Chinese punctuation that may not begin a wrapped line; it stays at the end of the line before.
_NO_LINE_START = set("，。、；：？！）》」』”’")


def width(text):
    """Columns ``text`` takes in a terminal, as East Asian Width counts them (the ``wcwidth`` package agrees):
    2 for a wide or full-width character (W, F: Chinese, full-width punctuation), 0 for a combining mark or a
    zero-width format character, 1 for any other.

    Examples
    --------
    >>> width("gain"), width("增益"), width("P@3 增益"), width("（注）"), width("e\u0301")
    (4, 4, 8, 6, 1)
    """
    return sum(_char_width(char) for char in text)


# Format characters that print a visible sign (the soft hyphen; Arabic number signs that join the digits after them).
_VISIBLE_FORMAT = set("\u00ad\u0600\u0601\u0602\u0603\u0604\u0605\u06dd\u070f\u0890\u0891\u08e2\U000110bd\U000110cd")


def _char_width(char):
    category = unicodedata.category(char)
    if category in ("Mn", "Me", "Mc", "Zl", "Zp") or (category == "Cf" and char not in _VISIBLE_FORMAT):
        return 0  # combining marks, zero-width spaces and joiners, line and paragraph separators
    if "\u1160" <= char <= "\u11ff" or "\ud7b0" <= char <= "\ud7ff" or char in "\u3164\uffa0":
        return 0  # Hangul's medial vowels and final consonants join the syllable before them; Hangul fillers
    return 2 if unicodedata.east_asian_width(char) in "WF" else 1


class Span(NamedTuple):
    """A cell of :func:`aligned` that spans ``columns`` columns, e.g. a heading over two of them.

    >>> print(aligned([[Span("抽样", 2)], ["0.3010", "0.1355"]], align="rr"))
               抽样
    0.3010  0.1355
    """

    text: str
    columns: int


def aligned(rows, align="", indent="", gap="  "):
    """``rows`` of cells (strings; a header row is a row like any other) as text whose columns line up on a terminal.

    Each column is as wide as its widest cell, by :func:`width`, so Chinese
    cells (two columns a character) line up with Latin ones, which
    ``f"{cell:>12}"`` and ``str.ljust`` (one column a character) do not. A
    :class:`Span` spans several columns; a row shorter than the others is
    left empty on the right.

    Parameters
    ----------
    rows : sequence of sequence of str or Span
    align : str, default ""
        One letter per column: ``"l"`` (left) or ``"r"`` (right, for
        numbers); ``""`` aligns every column left. A span follows the letter of
        its last column.
    indent : str, default ""
        Written before every line.
    gap : str, default "  "
        Written between two columns.

    Examples
    --------
    >>> print(aligned([["", Span("全部条目", 2)], ["模型", "命中率@10", "NDCG@10"], ["A", "0.3010", "0.1355"]], align="lrr"))
                 全部条目
    模型  命中率@10  NDCG@10
    A        0.3010   0.1355
    """
    rows = [list(row) for row in rows]
    count = max(sum(cell.columns if isinstance(cell, Span) else 1 for cell in row) for row in rows)
    widths = [0] * count
    for row in rows:
        column = 0
        for cell in row:
            if not isinstance(cell, Span):
                widths[column] = max(widths[column], width(cell))
            column += cell.columns if isinstance(cell, Span) else 1
    for row in rows:  # a span wider than its columns widens the last of them
        column = 0
        for cell in row:
            if isinstance(cell, Span):
                spanned = sum(widths[column:column + cell.columns]) + len(gap) * (cell.columns - 1)
                widths[column + cell.columns - 1] += max(width(cell.text) - spanned, 0)
                column += cell.columns
            else:
                column += 1
    return "\n".join(_aligned_line(row, widths, align, indent, gap) for row in rows)


def _aligned_line(row, widths, align, indent, gap):
    pieces, column = [], 0
    for cell in row:
        span = cell.columns if isinstance(cell, Span) else 1
        last = column + span - 1
        columns = sum(widths[column:last + 1]) + len(gap) * (span - 1)
        pieces.append(_pad(cell.text if isinstance(cell, Span) else cell, columns, not align or align[last] == "l"))
        column += span
    return (indent + gap.join(pieces)).rstrip()


def _pad(text, columns, left):
    fill = " " * max(columns - width(text), 0)
    return text + fill if left else fill + text


def wrap(text, columns, indent=""):
    """``text`` in lines of at most ``columns`` (after ``indent``): :func:`textwrap.wrap` for narrow text,
    a break between any two wide characters when the text holds some (Chinese has no spaces between words).

    Examples
    --------
    >>> wrap("相关性等级 >= 1 即算相关，未判断的条目跳过。", 16)
    ['相关性等级 >= 1', '即算相关，未判断', '的条目跳过。']
    """
    if width(text) == len(text):
        return textwrap.wrap(text, width=columns, initial_indent=indent, subsequent_indent=indent)
    room = columns - len(indent)
    lines, line = [], ""
    for token in re.findall(r"\s+|[^\s\u2e80-\uffff]+|.", text):
        if line and width(line + token) > room and token not in _NO_LINE_START and not token.isspace():
            lines.append(line.rstrip())
            line = ""
        if line or not token.isspace():
            line += token
    if line.strip():
        lines.append(line.rstrip())
    return [indent + line for line in lines]


class Mapped(Sequence):
    """``function`` of each of ``items``, computed when read: a table of a million rows formats only those it shows.

    Examples
    --------
    >>> squares = Mapped(lambda x: x * x, range(10 ** 9))
    >>> len(squares), squares[3], squares[-1]
    (1000000000, 9, 999999998000000001)
    """

    def __init__(self, function, items):
        self._function, self._items = function, items

    def __len__(self):
        return len(self._items)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self._function(item) for item in self._items[index]]
        return self._function(self._items[index])


class Cell(NamedTuple):
    """A value shown as ``text``, with ``title`` as its HTML tooltip (e.g. the number at full precision)."""

    text: str
    title: str


def text(value):
    """A value as table text: None empty, a bool yes/no, a float to 4 decimals (``nan``, ``e``).

    Examples
    --------
    >>> [text(value) for value in (None, True, 0.5, float("nan"), math.e, 3, Cell("0.86", "0.8645"))]
    ['', 'yes', '0.5000', 'nan', 'e', '3', '0.86']
    """
    if value is None:
        return ""
    if isinstance(value, Cell):
        return value.text
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return "nan" if math.isnan(value) else f"{value:.4f}" if value != math.e else "e"
    return str(value)


@lru_cache(maxsize=1)
def stylesheet():
    """The CSS every table's HTML carries (``static/table.css``)."""
    # Imported here: importlib.resources pulls in pathlib and zipfile, which `import ndcg_teach` does not need.
    from importlib import resources

    return resources.files(__package__).joinpath("static/table.css").read_text(encoding="utf-8")


def styled(*parts, title=None, kind=None):
    """HTML ``parts`` (tables, formulas, ...) in one block that carries the stylesheet.

    ``title`` is HTML shown above them; ``kind`` an extra class for the block,
    e.g. ``"ndcg-trace"``.
    """
    classes = "ndcg-table" if kind is None else f"ndcg-table {kind}"
    heading = "" if title is None else f'<div class="ndcg-title">{title}</div>'
    return f'<div class="{classes}"><style>{stylesheet()}</style>{heading}{"".join(parts)}</div>'


def formula_block(html):
    """A block of formula lines (``html``, already escaped), monospaced, each line kept."""
    return f'<div class="ndcg-formula" style="{LAYOUT["formula"]}">{html}</div>'


def shown_rows(n):
    """Indices of the rows a table of ``n`` rows shows, in order; None where the hidden ones are (see ``ROW_LIMIT``).

    >>> shown_rows(3)
    range(0, 3)
    >>> rows = shown_rows(1000)
    >>> rows[:2], rows[HEAD_ROWS], rows[-1]
    ([0, 1], None, 999)
    """
    if n <= ROW_LIMIT:
        return range(n)
    return [*range(HEAD_ROWS), None, *range(n - TAIL_ROWS, n)]


def rows_hidden(n, language=None):
    """The line that stands for the rows a table of ``n`` rows hides, in ``language``."""
    return gettext(ROWS_HIDDEN, language).format(count=f"{n - HEAD_ROWS - TAIL_ROWS:,}")


def shortened(formula, language=None):
    """``formula`` with every sum of more than ``TERM_LIMIT`` terms cut to its first and last terms.

    A trace's formula names every term, one per position: a list of a
    million items would print a formula of tens of megabytes. Only what is
    shown is cut; the trace keeps its whole ``formula``.

    Examples
    --------
    >>> print(shortened(" + ".join(["1"] * 30) + " = 30.0000"))
    1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + … (19 more terms) … + 1 + 1 + 1 = 30.0000
    """
    if formula.count(" + ") < TERM_LIMIT:
        return formula
    return "\n".join(" = ".join(_fewer_terms(part, language) for part in line.split(" = ")) for line in formula.split("\n"))


def _fewer_terms(part, language):
    terms = part.split(" + ")
    if len(terms) <= TERM_LIMIT:
        return part
    hidden = gettext(TERMS_HIDDEN, language).format(count=f"{len(terms) - HEAD_TERMS - TAIL_TERMS:,}")
    return " + ".join([*terms[:HEAD_TERMS], hidden, *terms[-TAIL_TERMS:]])


def _attribute(name, value):
    return f' {name}="{escape(value)}"' if value else ""


def _cell(tag, value, css, style):
    title = value.title if isinstance(value, Cell) else ""
    return f"<{tag}{_attribute('class', css)}{_attribute('style', style)}{_attribute('title', title)}>{escape(text(value))}</{tag}>"


@dataclass(frozen=True)
class Table:
    """A small table with a caption, shown as text (``print``) or HTML (in a notebook).

    ``table["scikit-learn ndcg_score"]`` returns the row's value column when
    the table has one, else the whole row.

    Attributes
    ----------
    caption : str or None
        The line above the table; None for none.
    headers : tuple of str
        Column headers; ``table[name]`` and ``headers.index(...)`` look
        columns up by them.
    rows : tuple of tuple
        The values, shown by :func:`text`.
    align : str, default ""
        One letter per column: ``"l"`` for text (left, HTML class
        ``ndcg-text``), ``"r"`` for numbers (right). ``""`` aligns every column
        left.
    column_classes : tuple of str, default ()
        An extra HTML class per column, e.g. ``"ndcg-ideal"``.
    row_classes : tuple of str, default ()
        An HTML class per row, e.g. ``"ndcg-relevant"``.
    notes : tuple of (str or None), default ()
        A note per row, shown under it: wrapped in text, one full-width cell
        in HTML.
    shown_headers : tuple of str, default ()
        The headers as shown, e.g. in the learner's language; ``()`` shows
        ``headers`` themselves.
    language : str or None, default None
        The language of the line that says how many rows are hidden (a
        table of more than ``ROW_LIMIT`` rows shows its first ``HEAD_ROWS``
        and last ``TAIL_ROWS``); None for the current one.

    Examples
    --------
    >>> print(Table("two libraries", ("convention", "value"), (("a", 0.5), ("b", float("nan")))))
    two libraries
    convention  value
    ----------  ------
    a           0.5000
    b           nan

    Numbers aligned right, and a note under a row:

    >>> table = Table(None, ("i", "gain"), (("1", "15"), ("2", "3")), align="rr", notes=(None, "gain 2**2 - 1"))
    >>> print("\\n".join(table.lines(indent="  ", rule=False)))
      i  gain
      1    15
      2     3
          gain 2**2 - 1
    """

    caption: str
    headers: tuple
    rows: tuple
    _: KW_ONLY
    align: str = ""
    column_classes: tuple = ()
    row_classes: tuple = ()
    notes: tuple = ()
    shown_headers: tuple = ()
    language: str = None

    def __getitem__(self, name):
        for row in self.rows:
            if row[0] == name:
                return row[self.headers.index("value")] if "value" in self.headers else row
        raise KeyError(gettext("no row named {name!r}; rows are {value}")
                              .format(name=name, value=[row[0] for row in self.rows]))

    def _left(self, column):
        return not self.align or self.align[column] == "l"

    def _note(self, row):
        return self.notes[row] if self.notes else None

    def _shown(self):
        return shown_rows(len(self.rows))

    def _hidden(self):
        return rows_hidden(len(self.rows), self.language)

    def lines(self, indent="", rule=True):
        """The header, a rule of dashes (unless ``rule=False``) and the rows, as lines of aligned text."""
        header = list(self.shown_headers or self.headers)
        shown = self._shown()
        body = {row: [text(value) for value in self.rows[row]] for row in shown if row is not None}
        widths = [max(width(line[i]) for line in [header, *body.values()]) for i in range(len(header))]
        align = self.align or "l" * len(header)

        def line(cells):
            return _aligned_line(cells, widths, align, indent, "  ")

        lines = [line(header)] + ([line(["-" * columns for columns in widths])] if rule else [])
        note_indent = indent + "    "
        for row in shown:
            if row is None:
                lines.append(indent + self._hidden())
                continue
            lines.append(line(body[row]))
            note = self._note(row)
            if note:
                lines += wrap(note, NOTE_WIDTH, note_indent)
        return lines

    def __str__(self):
        return "\n".join(([] if self.caption is None else [self.caption]) + self.lines())

    __repr__ = __str__

    def _column_class(self, column):
        extra = self.column_classes[column] if self.column_classes else ""
        return " ".join(css for css in ("ndcg-text" if self._left(column) else "", extra) if css)

    def html(self):
        """The ``<table>`` element alone (see :func:`styled` for the stylesheet around it)."""
        columns = range(len(self.headers))
        classes = [self._column_class(column) for column in columns]
        styles = [LAYOUT["text"] if self._left(column) else "" for column in columns]
        head = "".join(_cell("th", header, *css) for css, header in zip(zip(classes, styles), self.shown_headers or self.headers))
        body = []
        for row in self._shown():
            if row is None:
                body.append(f'<tr class="ndcg-rows-hidden"><td colspan="{len(self.headers)}" style="{LAYOUT["hidden"]}">'
                            f"{escape(self._hidden())}</td></tr>")
                continue
            cells = "".join(_cell("td", value, *css) for css, value in zip(zip(classes, styles), self.rows[row]))
            body.append(f"<tr{_attribute('class', self.row_classes[row] if self.row_classes else '')}>{cells}</tr>")
            note = self._note(row)
            if note:
                body.append(f'<tr class="ndcg-row-note"><td colspan="{len(self.headers)}" style="{LAYOUT["note"]}">{escape(note)}</td></tr>')
        caption = "" if self.caption is None else f"<caption>{escape(self.caption)}</caption>"
        return f"<table>{caption}<thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"

    def _repr_html_(self):
        return styled(self.html())
