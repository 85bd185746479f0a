"""Citation support: does each cited passage support the sentence that cites it? ALCE's recall and precision. Lesson 21.

Gao et al. (2023, ALCE) score the citations of an answer sentence by
sentence. A sentence's citations are *recalled* when the passages it cites,
taken together, support it; citation recall is the share of sentences whose
citations support them (a sentence without citations: 0). A citation is
*irrelevant* when it does not support the sentence alone and the sentence's
other citations support it without it; citation precision is the share of
all the answer's citations that are not irrelevant, a citation of a sentence
its citations do not support counting as not precise (as ALCE's code counts
it; 0 when the answer cites nothing). Whether passages support a sentence is
decided by facts (:mod:`.facts`), where ALCE asks an NLI model.
"""

from dataclasses import dataclass
from fractions import Fraction

from ...core.explained import Explained, number
from ...i18n import _, gettext, mark
from ...core.table import Table
from ...core.validation import shown
from .facts import check_claims, check_passages, supported

__all__ = ["citation_support", "CitationSupport"]

ALONE, NEEDED, IRRELEVANT, UNSUPPORTED = "alone", "needed", "irrelevant", "unsupported"
VERDICTS = {ALONE: mark("supports it alone"), NEEDED: mark("needed with the others"),
            IRRELEVANT: mark("irrelevant: the others suffice"), UNSUPPORTED: mark("not precise: the sentence is unsupported")}
_HEADERS = (mark("sentence"), mark("facts"), mark("cites"), mark("supported"), mark("each citation"))


@dataclass(frozen=True, repr=False)
class CitationSupport(Explained):
    """An answer's citation recall and precision, sentence by sentence (from :func:`citation_support`). Lesson 21.

    Attributes
    ----------
    recall, precision : float
    supported : tuple of bool
        Per sentence: do its citations, together, support it?
    verdicts : tuple of tuple of str
        Per sentence, per citation: ``"alone"`` (supports the sentence by
        itself), ``"needed"`` (only with the others, which fail without it),
        ``"irrelevant"`` (the others suffice), ``"unsupported"`` (the sentence's
        citations do not support it).
    claims, citations : tuple of tuple of str
        The facts of each sentence, the passages each cites.
    """

    recall: float
    precision: float
    supported: tuple
    verdicts: tuple
    claims: tuple
    citations: tuple

    def _parts(self):
        language = self.language
        yes, no = _("yes", language), _("no", language)
        rows = tuple((i, ", ".join(claim), ", ".join(cited) or "-", yes if ok else no,
                      _("; ", language).join(_("{label}: {text}", language).format(label=p, text=_(VERDICTS[v], language))
                                             for p, v in zip(cited, verdicts)) or "-")
                     for i, (claim, cited, ok, verdicts) in enumerate(
                         zip(self.claims, self.citations, self.supported, self.verdicts), 1))
        table = Table(None, _HEADERS, rows, align="rllll", shown_headers=tuple(_(h, language) for h in _HEADERS))
        n_citations = sum(map(len, self.citations))
        precise = sum(v in (ALONE, NEEDED) for verdicts in self.verdicts for v in verdicts)
        formula = (
            _("citation recall = sentences their citations support / sentences = {supported} / {n} = {value}",
              language).format(supported=sum(self.supported), n=len(self.claims), value=number(self.recall)),
            _("citation precision = citations not irrelevant, of supported sentences / citations = {precise} / "
              "{n} = {value}", language).format(precise=precise, n=n_citations, value=number(self.precision)),
        )
        notes = (_("passages support a sentence when together they state every one of its facts", language),)
        title = _("citation support: recall {recall}, precision {precision}", language).format(
            recall=number(self.recall), precision=number(self.precision))
        return title, (table,), formula, notes


def _verdicts(claim, cited, passages):
    """(supported, verdict of each citation) of one sentence, by ALCE's two conditions."""
    if not cited or not supported(claim, [passages[p] for p in cited]):
        return False, (UNSUPPORTED,) * len(cited)
    verdicts = []
    for p in cited:
        if supported(claim, [passages[p]]):
            verdicts.append(ALONE)
        elif len(cited) > 1 and supported(claim, [passages[q] for q in cited if q != p]):
            verdicts.append(IRRELEVANT)
        else:
            verdicts.append(NEEDED)
    return True, tuple(verdicts)


def citation_support(claims, citations, passages):
    """Citation recall and precision of one answer, as ALCE (Gao et al. 2023) defines them. Lesson 21.

    Parameters
    ----------
    claims : sequence of sequence of str
        One list per sentence of the answer: the facts it states.
    citations : sequence of sequence of str
        One list per sentence: the ids of the passages it cites (maybe none),
        each at most once.
    passages : mapping of str to sequence of str
        ``{passage id: the facts it states}``; every cited passage must be here.

    Returns
    -------
    CitationSupport

    Examples
    --------
    Three sentences. The first cites p1, which states its fact; the second
    needs both its citations (p2 states n2, p3 states n3); the third cites p1
    and p4, but p4 alone states n4:

    >>> passages = {"p1": ["n1"], "p2": ["n2"], "p3": ["n3", "n9"], "p4": ["n4"]}
    >>> result = citation_support([["n1"], ["n2", "n3"], ["n4"]], [["p1"], ["p2", "p3"], ["p1", "p4"]], passages)
    >>> result.verdicts
    (('alone',), ('needed', 'needed'), ('irrelevant', 'alone'))
    >>> result.recall, result.precision  # 3 of 3 sentences; 4 of 5 citations (p1 in the third is irrelevant)
    (1.0, 0.8)
    """
    claims = check_claims("claims", claims)
    passages = check_passages("passages", passages)
    if isinstance(citations, (str, bytes)) or not hasattr(citations, "__iter__") or hasattr(citations, "keys"):
        raise TypeError(gettext("citations must be a list with one list of passage ids per sentence. Got {got} "
                                "instead.").format(got=shown(citations)))
    cited = tuple(_cited(i, sentence, passages) for i, sentence in enumerate(citations))
    if len(cited) != len(claims):
        raise ValueError(gettext("citations must give one list of passage ids per sentence of claims ({n}). Got {got} "
                                 "lists instead.").format(n=len(claims), got=len(cited)))
    results = [_verdicts(claim, sentence, passages) for claim, sentence in zip(claims, cited)]
    n_citations = sum(map(len, cited))
    precise = sum(v in (ALONE, NEEDED) for found in results for v in found[1])
    recall = Fraction(sum(found[0] for found in results), len(claims))
    precision = Fraction(precise, n_citations) if n_citations else Fraction(0)
    return CitationSupport(float(recall), float(precision), tuple(found[0] for found in results),
                           tuple(found[1] for found in results), claims, cited)


def _cited(i, sentence, passages):
    if isinstance(sentence, (str, bytes)) or not hasattr(sentence, "__iter__"):
        raise TypeError(gettext("citations[{i}] must be a list of passage ids (maybe empty). Got {got} instead.")
                        .format(i=i, got=shown(sentence)))
    ids = tuple(sentence)
    unknown = [p for p in ids if p not in passages]
    if unknown or len(set(ids)) != len(ids):
        raise ValueError(gettext("citations[{i}] must name passages of passages, each at most once. Got {got} "
                                 "instead.").format(i=i, got=shown(list(ids))))
    return ids
