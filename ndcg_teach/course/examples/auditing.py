"""The audit report: every number the source documents print, next to what ndcg_teach computes.

:func:`audit` returns an :class:`AuditReport`, a tuple of one
:class:`~ndcg_teach.course.examples.findings.AuditRecord` per printed number of every
:class:`~ndcg_teach.course.examples.worked.WorkedExample`: final values, each printed
gain, denominator, term and sum, what a document's code is said to print, and
the claims its prose makes with a number. The records and the cause of each
disagreement come from :mod:`~ndcg_teach.course.examples.findings` (sums worked by
hand) and :mod:`~ndcg_teach.course.examples.code_and_claims`; this module shows them:
the summary line, the views (``disagreements()``, ``for_source()``, ...), and
one text or HTML table per document.

A report speaks the language set when :func:`audit` ran (its notes are
written then), and its views keep that language.
"""

from dataclasses import asdict
from html import escape

from ... import i18n
from ...i18n import _, gettext_matching, mark
from ...core.table import Cell, Table, styled
from .code_and_claims import CHECKS
from .findings import _hand_records, _shown
from .sources import source
from .worked import EXAMPLES

_HEADERS = (mark("example"), mark("quantity"), mark("published"), mark("computed"), mark("agrees"))
# How a record's quantity (an English key, e.g. "DCG@5 term 3") reads in the report: its words are translated.
_QUANTITIES = (
    (r"relevant in top (?P<k>\d+)", mark("relevant in top {k}")),
    (r"(?P<name>\S+@\d+) gain (?P<position>\d+)", mark("{name} gain {position}")),
    (r"(?P<name>\S+@\d+) denominator (?P<position>\d+)", mark("{name} denominator {position}")),
    (r"(?P<name>\S+@\d+) discount (?P<position>\d+)", mark("{name} discount {position}")),
    (r"(?P<name>\S+@\d+) term (?P<position>\d+)", mark("{name} term {position}")),
    (r"(?P<name>\S+@\d+) the code prints", mark("{name} the code prints")),
    (r"(?P<name>\S+@\d+) of the ranking by pred_scores", mark("{name} of the ranking by pred_scores")),
    (r"discount at position (?P<a>\d+) / discount at position (?P<b>\d+)",
     mark("discount at position {a} / discount at position {b}")),
    (r"(?P<name>\w+), Järvelin form minus \(2\^rel - 1\) form, on 0/1 grades",
     mark("{name}, Järvelin form minus (2^rel - 1) form, on 0/1 grades")),
)


def _quantity(quantity, language):
    """``quantity`` in ``language``: the English key with its words translated (numbers and names kept)."""
    return gettext_matching(quantity, _QUANTITIES, language)


def tooltip(computed):
    """``computed`` in a table's tooltip: ten significant digits, more than any document prints.

    Not the float's full ``repr``: its last digits follow the machine's ``log2`` and BLAS, and differ from one CPU
    to another (0.8724869095986446 here, 0.8724869095986447 with another kernel).

    >>> tooltip(0.8724869095986446), tooltip(2.0)
    ('0.8724869096', '2')
    """
    return f"{computed:.10g}"


def _records(example):
    """The checked records of one worked example (none for a missing figure or a formula: they print no number)."""
    if example.kind in ("figure", "formula"):
        return []
    if example.kind == "hand":
        return _hand_records(example)
    return list(CHECKS[example.name](example))


class AuditReport(tuple):
    """The records of an audit, as a tuple, with plain-text and HTML tables.

    Examples
    --------
    >>> report = audit("004")
    >>> print(report.summary)
    18 printed numbers audited: 18 agree, 0 disagree.
    >>> report.to_rows()[0]["quantity"], report.to_rows()[0]["published"]
    ('CG@3', '10')
    """

    def __new__(cls, records=(), language=None):
        report = super().__new__(cls, tuple(records))
        report.language = i18n.chosen_language(language)
        return report

    @property
    def summary(self):
        """One line: how many numbers, how many agree."""
        right = sum(record.agrees for record in self)
        return _("{n} printed numbers audited: {right} agree, {wrong} disagree.", self.language).format(
            n=len(self), right=right, wrong=len(self) - right)

    def disagreements(self):
        """The records whose published number is wrong, each with its note.

        Examples
        --------
        >>> wrong = audit("000").disagreements()
        >>> wrong[0].quantity, wrong[0].published, round(wrong[0].computed, 4)
        ('relevant in top 5', '4', 3.0)
        """
        return AuditReport((record for record in self if not record.agrees), self.language)

    def agreements(self):
        """The records whose published number is right.

        Examples
        --------
        >>> [r.quantity for r in audit("002").agreements()]
        ['NDCG@19 the code prints']
        """
        return AuditReport((record for record in self if record.agrees), self.language)

    def for_source(self, name):
        """The records of one document, given by file name or first digits (``"001"``).

        Examples
        --------
        >>> print(audit().for_source("003").summary)
        2 printed numbers audited: 0 agree, 2 disagree.
        """
        file = source(name).file
        return AuditReport((record for record in self if record.source == file), self.language)

    def to_rows(self):
        """Every record as a dict, full precision (``pandas.DataFrame(report.to_rows())``).

        Examples
        --------
        >>> audit("004").to_rows()[-1]
        {'source': '004_064288211b98ea25.txt', 'example': 'ndcg_5_2_3', 'quantity': 'NDCG@3', 'published': '0.983', 'computed': 0.9834114722632786, 'agrees': True, 'note': None}
        """
        return [asdict(record) for record in self]

    def _groups(self):
        files = []
        for record in self:
            if record.source not in files:
                files.append(record.source)
        return [(source(file), [record for record in self if record.source == file]) for file in files]

    def _tables(self):
        """One table per source document, captioned with its citation; each wrong number's note under its row."""
        tables = []
        for doc, records in self._groups():
            rows = tuple((r.example, _quantity(r.quantity, self.language), r.published,
                          Cell(_shown(r.computed, r.published), tooltip(r.computed)),
                          _("yes", self.language) if r.agrees else _("NO", self.language)) for r in records)
            headers = tuple(_(header, self.language) for header in _HEADERS)
            tables.append(Table(doc.citation_in(self.language), headers, rows, notes=tuple(r.note for r in records),
                                row_classes=tuple("ndcg-audit-yes" if r.agrees else "ndcg-audit-no" for r in records)))
        return tables

    def __str__(self):
        lines = [self.summary]
        for table in self._tables():
            lines += ["", table.caption, *table.lines(indent="  ", rule=False)]
        return "\n".join(lines)

    __repr__ = __str__

    def _repr_html_(self):
        return styled(*(table.html() for table in self._tables()), title=escape(self.summary), kind="ndcg-audit")


def audit(source_name=None):
    """Check every number the source documents print against ndcg_teach.

    Parameters
    ----------
    source_name : str or None, default None
        One document's file name or first digits (``"000"``); None audits all five.

    Returns
    -------
    AuditReport
        A tuple of :class:`AuditRecord`, one per printed number, in document
        order, with ``disagreements()``, ``to_rows()``, a text table and an
        HTML table for notebooks.

    See Also
    --------
    ndcg_teach.course.examples.examples : the worked examples the numbers come from.

    Examples
    --------
    Document 000 prints DCG@5 = 38.23 for the products ranked B, A, D, C, E;
    three of its five denominators are not log2(i + 1):

    >>> report = audit("000")
    >>> [r.published for r in report if r.quantity.startswith("DCG@5 denominator") and not r.agrees]
    ['2.585', '3.17', '3.459']
    >>> record = [r for r in report if r.quantity == "DCG@5 denominator 3"][0]
    >>> record.note
    'Wrong discount: 2.585 is log2(6), the denominator of position 5, not log2(3+1) = 2.'
    >>> record = [r for r in report if r.quantity == "NDCG@5"][0]
    >>> record.published, round(record.computed, 3), record.agrees
    ('0.861', 0.865, False)

    Document 004's [5, 2, 3] example is right throughout:

    >>> audit("004").disagreements()
    0 printed numbers audited: 0 agree, 0 disagree.
    """
    file = None if source_name is None else source(source_name).file
    return AuditReport(
        record
        for example in EXAMPLES
        if file is None or example.source == file
        for record in _records(example)
    )
