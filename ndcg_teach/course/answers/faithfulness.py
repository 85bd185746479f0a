"""Faithfulness: the share of an answer's statements that the retrieved context supports. Lesson 21.

A RAG answer is *faithful* (grounded) when what it says can be found in the
passages its generator was given, cited or not. Es et al. (2024, RAGAS)
measure it as the share of the answer's statements that the context
supports; an LLM splits the answer into statements and checks each. Here a
statement and a passage are sets of facts (:mod:`.facts`). Faithfulness is
not correctness: a statement from the model's own memory can be true and
still unfaithful, and a statement copied from a wrong passage is faithful.
"""

from dataclasses import dataclass
from fractions import Fraction

from ...core.explained import Explained, number
from ...i18n import _, gettext, mark
from ...core.table import Table
from ...core.validation import shown
from .facts import check_claims, check_passages, supported

__all__ = ["faithfulness", "Faithfulness"]

_HEADERS = (mark("statement"), mark("facts"), mark("found in"), mark("supported"))


@dataclass(frozen=True, repr=False)
class Faithfulness(Explained):
    """The share of an answer's statements its context supports (from :func:`faithfulness`). Lesson 21.

    Attributes
    ----------
    value : float
    supported : tuple of bool
        Per statement: does the context state every one of its facts?
    claims : tuple of tuple of str
    sources : tuple of tuple of tuple of str
        Per statement, per fact: the context passages that state it.
    """

    value: float
    supported: tuple
    claims: tuple
    sources: tuple

    def _parts(self):
        language = self.language
        yes, no = _("yes", language), _("no", language)
        missing = _("nowhere", language)
        rows = tuple((i, ", ".join(claim),
                      "; ".join(f"{fact}: {', '.join(found) or missing}" for fact, found in zip(claim, sources)),
                      yes if ok else no)
                     for i, (claim, sources, ok) in enumerate(zip(self.claims, self.sources, self.supported), 1))
        table = Table(None, _HEADERS, rows, align="rlll", shown_headers=tuple(_(h, language) for h in _HEADERS))
        formula = (_("faithfulness = statements the context supports / statements = {supported} / {n} = {value}",
                     language).format(supported=sum(self.supported), n=len(self.claims), value=number(self.value)),)
        title = _("faithfulness = {value}", language).format(value=number(self.value))
        return title, (table,), formula, ()


def faithfulness(claims, context):
    """The share of an answer's statements that the passages its generator read support (Es et al. 2024). Lesson 21.

    Parameters
    ----------
    claims : sequence of sequence of str
        One list per statement of the answer: the facts it states.
    context : mapping of str to sequence of str
        ``{passage id: the facts it states}`` for every passage the generator
        was given (its top k), whether the answer cites it or not.

    Returns
    -------
    Faithfulness

    Examples
    --------
    Three statements; the context states n1 (in p1) and n2 (in p2), not n7:

    >>> result = faithfulness([["n1"], ["n1", "n2"], ["n7"]], {"p1": ["n1", "n4"], "p2": ["n2"]})
    >>> result.supported, result.sources[1]
    ((True, True, False), (('p1',), ('p2',)))
    >>> round(result.value, 4)  # 2 of 3 statements
    0.6667
    """
    claims = check_claims("claims", claims)
    passages = check_passages("context", context)
    if not passages:
        raise ValueError(gettext("context must hold at least one passage the generator read. Got {got} instead.")
                         .format(got=shown(context)))
    ok = tuple(supported(claim, passages.values()) for claim in claims)
    sources = tuple(tuple(tuple(p for p, facts in passages.items() if fact in facts) for fact in claim) for claim in claims)
    return Faithfulness(float(Fraction(sum(ok), len(claims))), ok, claims, sources)
