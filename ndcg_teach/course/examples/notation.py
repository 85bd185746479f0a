"""The source documents' notation, mapped to the course's symbols and to the functions that compute each quantity.

The five documents write the same quantities in five ways (``DCG_p``,
``DCG_n``, ``DCG@K``, ``DCGk`` for the course's DCG@k; ``\\text{relative}_i``
and ``rel_i`` for the grade at position i). Each :class:`Symbol` keeps the
forms exactly as the documents print them (a test finds each one in its
document) and what the course writes instead; :func:`notation` shows the
table in the learner's language (lesson 07).

>>> print(notation().rows[0][:2])
('CG_n (001), CG_p (003), CGk (004)', 'CG@k')
"""

from dataclasses import dataclass

from ...i18n import gettext, mark
from ...core.table import Table


@dataclass(frozen=True)
class Symbol:
    """One quantity as the documents write it and as the course does.

    Attributes
    ----------
    printed : tuple of (str, str)
        (form, documents) for each way the documents print it: the form verbatim, the documents' numbers
        (``"000, 001"``).
    course : str
        The course's symbol.
    meaning : str
        What it is (marked for translation).
    call : str
        The ndcg_teach call that computes it (empty for a position, which nothing needs to compute).
    """

    printed: tuple
    course: str
    meaning: str
    call: str


NOTATION = (
    Symbol((("CG_n", "001"), ("CG_p", "003"), ("CGk", "004")), "CG@k",
           mark("cumulative gain: the grades of the first k results added"), "nt.cg(relevances, k)"),
    Symbol((("DCG_n", "001"), ("DCG_p", "003"), ("DCG@K", "000"), ("DCGk", "004")), "DCG@k",
           mark("discounted cumulative gain of the first k results"), "nt.dcg(relevances, k)"),
    Symbol((("IDCG_n", "001"), ("IDCG_P", "003"), ("IDCG@K", "000"), ("IDCGk", "004")), "IDCG@k",
           mark("DCG@k of the ideal ranking (003's capital P is the same cut-off as its p)"), "nt.idcg(relevances, k)"),
    Symbol((("NDCG_n", "001"), ("NDCG_p", "003"), ("NDCG@K", "000"), ("NDCGk", "004")), "NDCG@k",
           mark("DCG@k divided by IDCG@k"), "nt.ndcg(relevances, k)"),
    Symbol((("rel_i", "000, 001"), ("\\text{relative}_i", "003"), ("reli", "004")), "rel_i",
           mark("the grade of the result at position i"), "relevances[i - 1]"),
    Symbol((("rel_i^*", "001"),), "rel*_i",
           mark("the grade at position i of the ideal ranking"), "nt.explain_idcg(relevances).rows[i - 1]"),
    Symbol((("准确率@K", "000"), ("Precision@K", "000")), "P@k",
           mark("precision at k: the share of relevant results among the first k"), "nt.precision_at_k(relevances, k)"),
    Symbol((("y_{i,j}", "003"),), "y_i",
           mark("the 0/1 label of a result (the course gets it from a grade: rel_i >= threshold)"), "threshold=1"),
    Symbol((("\\pi_i(j)", "003"),), "i",
           mark("the position of result j in the ranking (document 003's i is the query, the course's i a position)"),
           ""),
    Symbol((("P(j)", "003"),), "P@i, i = π_i(j)",
           mark("precision at the position of result j"), "nt.precision_at_k(relevances, i)"),
    Symbol((("AP_i", "003"),), "AP",
           mark("average precision of one query, divided by the relevant results in the list"),
           "nt.average_precision(relevances)"),
    Symbol((("AP值", "003"),), "MAP",
           mark("what document 003's last line calls the mean of AP over the queries"),
           "nt.mean_average_precision(queries)"),
)
"""Every symbol of the documents lesson 07 maps, in the order the course introduces the quantities."""


def notation(language=None):
    """The documents' notation and the course's, as a table in ``language`` (the learner's when None).

    Each printed form is followed by the number of the document that prints it.
    """
    rows = []
    for symbol in NOTATION:
        printed = gettext(", ", language).join(f"{form} ({numbers})" for form, numbers in symbol.printed)
        rows.append((printed, symbol.course, symbol.call, gettext(symbol.meaning, language)))
    headers = ("documents", "course", "ndcg_teach", "meaning")
    shown = tuple(gettext(header, language) for header in (mark("The documents write"), mark("The course writes"),
                                                            "ndcg_teach", mark("Meaning")))
    return Table(gettext(mark("The source documents' notation, in the course's symbols"), language), headers,
                 tuple(rows), shown_headers=shown, language=language)
