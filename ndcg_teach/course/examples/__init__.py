"""The five source documents, their worked examples as data, short quotations of the lines lesson 07 corrects, an audit of every number they print, and their notation mapped to the course's.

>>> from ndcg_teach.course.examples import audit, example
>>> example("ndcg_5_2_3").relevances
(5, 2, 3)
>>> print(audit().summary)
77 printed numbers audited: 44 agree, 33 disagree.
"""

from .auditing import AuditReport, audit
from .findings import CAUSES, AuditRecord
from .notation import NOTATION, Symbol, notation
from .quotations import QUOTATIONS, Quotation, quotations
from .sources import SOURCES, Source, source
from .worked import EXAMPLES, KINDS, Printed, WorkedExample, example, examples

__all__ = [
    "CAUSES",
    "EXAMPLES",
    "KINDS",
    "NOTATION",
    "QUOTATIONS",
    "SOURCES",
    "AuditRecord",
    "AuditReport",
    "Printed",
    "Quotation",
    "Source",
    "Symbol",
    "WorkedExample",
    "audit",
    "example",
    "examples",
    "notation",
    "quotations",
    "source",
]
