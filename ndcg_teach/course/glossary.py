"""The course's terms in English and Chinese, with the names the source documents and other material print.

Both editions of the course use these terms, and a test checks that the
Chinese lessons do. The five source documents (lesson 07) are Chinese posts
that name the same ideas in different ways, and three of their words are
traps for a learner moving between them and English material:

- 准确率@K in document 000, and 准确率 in document 003's AP, is precision
  (P@k), not accuracy;
- 相关性得分 / 相关度得分 / 得分 in documents 001, 002 and 004 is a relevance
  grade, while this course keeps "score" (打分) for a model's output;
- 归一化 in document 002 also names min-max scaling of grades, which the N of
  NDCG is not (NDCG divides by IDCG).

Two more are traps of textbooks, not of the documents: 精度 is accuracy in
周志华《机器学习》 but precision in computer vision's 平均精度 (AP), and 准确率
itself is accuracy (see the term ``accuracy``).

Where the course once wrote one concept two ways (评估 / 评价, 条目 / 物品,
排序模型 / 排序器, 吸引度 / 吸引力, ...), one term was chosen, for the reasons in
its ``chosen_because``, and the others are its ``rejected`` variants: a test
keeps them out of everything a Chinese learner reads (the lessons' prose, code
and outputs, the catalogue, the READMEs, hub/, docs/ and the site). The
terms themselves are in :mod:`ndcg_teach.course.glossary_terms`, with the source of
each name met outside the documents.

>>> from ndcg_teach.course.glossary import term
>>> term("precision@k").chinese
'精确率@k'
>>> term("精确率@k").english
'precision@k'
>>> "准确率@K" in term("precision@k").variants
True
>>> term("排序器").chinese
'排序模型'
"""

from __future__ import annotations

from .glossary_terms import SOURCES, TERMS, Term
from ..i18n import gettext as _
from ..i18n import language
from ..core.table import Table

__all__ = ["SOURCES", "TERMS", "Term", "glossary", "term"]


def term(name: str) -> Term:
    """The term named ``name`` in English or Chinese (with or without its abbreviation), or a variant of it.

    >>> term("得分").english
    'relevance grade'
    >>> term("NDCG").chinese
    '归一化折损累积增益（NDCG）'
    """
    if not isinstance(name, str):
        raise TypeError(_("name must be a term as a string, such as 'gain' or '增益'. Got {name!r} ({kind}) "
                          "instead.").format(name=name, kind=type(name).__name__))
    wanted = name.strip().lower()
    for entry in TERMS:
        names = {entry.english, entry.chinese, *_short_names(entry.english), *_short_names(entry.chinese), *entry.names()}
        if wanted in {candidate.lower() for candidate in names}:
            return entry
    raise ValueError(_("name must be a term of the glossary, in English or Chinese, such as 'gain' or "
                             "'增益'. Got {name!r} instead.").format(name=name))


def _short_names(name: str) -> tuple:
    """``"average precision (AP)"`` -> ``("average precision", "AP")``; Chinese full-width brackets too."""
    for opening, closing in (("（", "）"), (" (", ")")):
        if name.endswith(closing) and opening in name:
            head, _, tail = name.partition(opening)
            return head.strip(), tail[: -len(closing)]
    return ()


def elsewhere(entry: Term, chinese: bool) -> str:
    """``entry``'s names met outside the source documents, each with its source: ``查准率（图书情报学）``.

    >>> elsewhere(term("recall@k"), chinese=False)
    '查全率 (library and information science), Recall@K (common usage)'
    """
    if chinese:
        return "、".join(f"{name}（{SOURCES[source][1]}）" for name, source in entry.elsewhere)
    return ", ".join(f"{name} ({SOURCES[source][0]})" for name, source in entry.elsewhere)


class Glossary(tuple):
    """The terms as a table: printed as text, shown as HTML in a notebook, in the learner's language."""

    def table(self) -> Table:
        zh = language() == "zh-CN"
        rows = tuple(
            (entry.english, entry.chinese, "、".join(entry.variants), elsewhere(entry, zh), entry.meaning_zh if zh else entry.meaning)
            for entry in self
        )
        notes = tuple((entry.trap_zh if zh else entry.trap) or None for entry in self)
        headers = (_("English"), _("Chinese"), _("Also written (source documents)"), _("Also written elsewhere (where)"),
                   _("Meaning"))
        return Table(_("Glossary: the course's terms, and the traps in the source documents"), headers, rows, notes=notes)

    def __str__(self):
        return str(self.table())

    __repr__ = __str__

    def _repr_html_(self):
        return self.table()._repr_html_()


def glossary() -> Glossary:
    """Every term of the course, in course order; traps are shown as notes under their term.

    >>> print(str(glossary()).splitlines()[0])
    Glossary: the course's terms, and the traps in the source documents
    >>> len(glossary()) == len(TERMS)
    True
    """
    return Glossary(TERMS)
