"""Why a printed number differs from ndcg_teach's: the engine of :func:`~ndcg_teach.course.examples.audit`.

Every :class:`AuditRecord` pairs a number a source document prints with what
ndcg_teach's functions give for the document's own inputs and stated
convention. Where the two disagree, the cause is found by computing: which
logarithm a printed denominator really is, whether the printed terms add up,
which relevance threshold a printed precision needs. This module holds the
causes, how a printed number is read and compared, and the sums the documents
work by hand; :mod:`~ndcg_teach.course.examples.code_and_claims` checks their code
and their claims in prose, and :mod:`~ndcg_teach.course.examples.auditing` gathers
the records into a report.

A note is written in the language set when the audit runs; the causes in
:data:`CAUSES` stay English keys, translated where a note shows them.
"""

import math
import re
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from ...core import cg, explain_ndcg, explain_precision_at_k, precision_at_k
from ...i18n import LANGUAGES, _, gettext, mark

WRONG_DISCOUNT = mark("wrong discount")
ARITHMETIC_SLIP = mark("arithmetic slip")
MISMATCHED_THRESHOLD = mark("mismatched relevance threshold")
IGNORES_ORDER = mark("ignores the predicted order")
DOES_NOT_RUN = mark("does not run")
CODE_OUTPUT = mark("code output differs")
FALSE_CLAIM = mark("false claim")
CAUSES = (WRONG_DISCOUNT, ARITHMETIC_SLIP, MISMATCHED_THRESHOLD, IGNORES_ORDER, DOES_NOT_RUN, CODE_OUTPUT, FALSE_CLAIM)


@dataclass(frozen=True)
class AuditRecord:
    """One printed number of a source document, checked.

    Attributes
    ----------
    source : str
        File name of the document.
    example : str
        Name of the worked example (see :func:`ndcg_teach.course.examples.example`).
    quantity : str
        What the number is, e.g. ``"NDCG@5"``, ``"DCG@5 term 3"``, ``"P@3"``.
    published : str
        The number as printed. A claim made in words is a relation: ``"< 1/3"``, ``"= 0"``.
    computed : float
        What ndcg_teach gives for the document's own inputs and stated convention
        (for code: what the code really returns when run).
    agrees : bool
        ``computed`` rounded to the decimals printed equals ``published`` (a
        claim: the relation holds; code: it also runs as printed).
    note : str or None
        When it disagrees: the cause, starting with one of :data:`CAUSES`.
    """

    source: str
    example: str
    quantity: str
    published: str
    computed: float
    agrees: bool
    note: str = None

    @property
    def causes(self):
        """The causes the note names, as members of :data:`CAUSES` (English keys, in any language of the note).

        ``ndcg_teach.i18n.gettext(cause)`` shows one in the learner's language. Lesson 07 counts them.

        Examples
        --------
        >>> from ndcg_teach.course.examples import audit
        >>> [record.causes for record in audit("000") if record.quantity == "DCG@5"]
        [('wrong discount', 'arithmetic slip')]
        """
        if self.note is None:
            return ()
        label = re.split("[:：]", self.note, maxsplit=1)[0].lower()
        return tuple(cause for cause in CAUSES if any(gettext(cause, language) in label for language in LANGUAGES))


@dataclass(frozen=True)
class _Finding:
    """A cause of disagreement: its labels from CAUSES and the explanation."""

    causes: tuple
    text: str

    def note(self):
        label = _(" and ").join(_(cause) for cause in sorted(self.causes, key=CAUSES.index))
        return _("{label}: {text}").format(label=f"{label[0].upper()}{label[1:]}", text=self.text)


def _number(text):
    """The value of a printed number or of the right-hand side of a relation."""
    return float(Fraction(text.lstrip("<= ")))


def _decimals(text):
    digits = text.lstrip("<= ")
    return len(digits.split(".")[1]) if "." in digits else 0


def _is_relation(text):
    return text[:1] in "<="


def _agrees(computed, text):
    if text.startswith("<"):
        return computed < _number(text)
    if text.startswith("="):
        return abs(computed - _number(text)) <= 1e-12
    return round(computed, _decimals(text)) == _number(text)


def _shown(computed, text):
    """``computed`` to the precision ``text`` is printed with (4 decimals for a relation)."""
    return f"{computed:.{4 if _is_relation(text) else _decimals(text)}f}"


def _at(value, decimals):
    return f"{value:.{decimals}f}"


def _record(example, printed, computed, explain, runs=True):
    """A record; ``explain()`` (a :class:`_Finding`) is asked for only when the numbers disagree."""
    agrees = _agrees(computed, printed.text) and runs
    note = None if agrees else explain().note()
    return AuditRecord(example.source, example.name, printed.quantity, printed.text, float(computed), agrees, note)


# Hand-computed examples ---------------------------------------------------------------------------------


def _parse(quantity):
    """``"DCG@5 term 3"`` -> ("DCG", 5, "term", 3); ``"P@3"`` -> ("P", 3, None, None)."""
    if quantity.startswith("relevant in top "):
        return "hits", int(quantity.rsplit(" ", 1)[1]), None, None
    head, *rest = quantity.split(" ")
    metric, k = head.split("@")
    return metric, int(k), (rest[0] if rest else None), (int(rest[1]) if rest else None)


@lru_cache(maxsize=None)
def _sums_trace(example):
    return explain_ndcg(example.relevances, k=example.k, gain=example.gain, discount=example.discount,
                        ranking=list(example.ranking) or None)


def _binary(example):
    """The 0/1 labels P@k is computed on: the document's own, or the grades themselves."""
    return example.labels or example.relevances


def _hand_value(example, quantity):
    metric, k, part, position = _parse(quantity)
    if metric == "CG":
        return cg(example.relevances, k=k)
    if metric == "P":
        return precision_at_k(_binary(example), k)
    if metric == "hits":
        return explain_precision_at_k(_binary(example), k).rows[-1].hits
    trace = _sums_trace(example)
    if metric == "NDCG":
        return trace.value
    if part is None:
        return trace.parts[metric.lower()].value
    row = trace.parts[metric.lower()].rows[position - 1]
    return {"gain": row.gain, "denominator": 1 / row.discount, "discount": row.discount, "term": row.contribution}[part]


def _log_named(value, decimals, reciprocal, n_positions):
    """Which ``log(n)`` (or ``1/log(n)``) a printed number is, e.g. ``"log2(6), the denominator of position 5"``."""
    for name, log in (("log2", math.log2), ("ln", math.log), ("log10", math.log10)):
        for n in range(2, 65):
            if round(1 / log(n) if reciprocal else log(n), decimals) == value:
                shown = f"1/{name}({n})" if reciprocal else f"{name}({n})"
                if name == "log2" and n - 1 <= n_positions:
                    named = _("{shown}, the discount of position {position}") if reciprocal else _(
                        "{shown}, the denominator of position {position}")
                    return named.format(shown=shown, position=n - 1)
                return shown
    return None


def _discount_finding(text, part, position, row, n_positions):
    reciprocal = part == "discount"
    right = row.discount if reciprocal else 1 / row.discount
    right_text = f"{'1/' if reciprocal else ''}log2({position}+1) = {right:.4g}"
    named = _log_named(_number(text), _decimals(text), reciprocal, n_positions)
    if named is None:
        return _Finding((ARITHMETIC_SLIP,), _("{right}, not {text}.").format(right=right_text, text=text))
    return _Finding((WRONG_DISCOUNT,), _("{text} is {named}, not {right}.").format(text=text, named=named, right=right_text))


def _term_finding(printed, name, position, text, row, n_positions):
    decimals, value = _decimals(text), _number(text)
    gain_text = printed.get(f"{name} gain {position}", f"{row.gain:g}")
    gain = _number(gain_text)
    correct = _at(row.contribution, decimals)
    denominator = printed.get(f"{name} denominator {position}")
    if denominator is not None:
        quotient = gain / _number(denominator)
        denominator_right = round(1 / row.discount, _decimals(denominator)) == _number(denominator)
        if round(quotient, decimals) == value and not denominator_right:
            return _Finding((WRONG_DISCOUNT,), _(
                "{text} = {gain}/{denominator} follows the wrong denominator printed for this position; "
                "with log2({position}+1) = {right:.4g} the term is {correct}.").format(
                text=text, gain=gain_text, denominator=denominator, position=position, right=1 / row.discount,
                correct=correct))
        return _Finding((ARITHMETIC_SLIP,), _("{gain}/{denominator} = {quotient}, not {text}.").format(
            gain=gain_text, denominator=denominator, quotient=_at(quotient, decimals), text=text))
    for n in range(2, n_positions + 2):
        if n != position + 1 and round(gain / math.log2(n), decimals) == value:
            return _Finding((WRONG_DISCOUNT,), _(
                "{text} is {gain}/log2({n}), the discount of position {other}; position {position} takes "
                "log2({position}+1), which gives {correct}.").format(
                text=text, gain=gain_text, n=n, other=n - 1, position=position, correct=correct))
    for n in range(2, 65):
        if round(math.log2(n), decimals) == value:
            return _Finding((ARITHMETIC_SLIP,), _(
                "{text} is log2({n}) itself, not a quotient; {gain}/log2({position}+1) = {correct}.").format(
                text=text, n=n, gain=gain_text, position=position, correct=correct))
    repeated = [other for other in range(1, n_positions + 1)
                if other != position and printed.get(f"{name} term {other}") == text]
    if repeated:
        return _Finding((ARITHMETIC_SLIP,), _(
            "{text} repeats the term printed for position {other}; {gain}/log2({position}+1) = {correct}.").format(
            text=text, other=repeated[0], gain=gain_text, position=position, correct=correct))
    return _Finding((ARITHMETIC_SLIP,), _("{gain}/log2({position}+1) = {correct}, not {text}.").format(
        gain=gain_text, position=position, correct=correct, text=text))


def _total_finding(printed, findings, name, text, computed, n_positions):
    decimals = _decimals(text)
    correct = _("the correct {name} is {value}").format(name=name, value=_at(computed, decimals))
    terms = [printed.get(f"{name} term {position}") for position in range(1, n_positions + 1)]
    if None in terms:
        return _Finding((ARITHMETIC_SLIP,), _("{correct}, not {text}.").format(correct=correct, text=text))
    added = sum(_number(term) for term in terms)
    if round(added, decimals) != _number(text):
        return _Finding((ARITHMETIC_SLIP,), _("the printed terms add up to {added}, not {text}; {correct}.").format(
            added=_at(added, decimals), text=text, correct=correct))
    wrong = {}
    for position in range(1, n_positions + 1):
        finding = findings.get(f"{name} term {position}")
        for cause in finding.causes if finding else ():
            wrong.setdefault(cause, []).append(str(position))
    if not wrong:
        return _Finding((ARITHMETIC_SLIP,), _("the printed terms, each rounded, add up to {text}; {correct}.").format(
            text=text, correct=correct))
    where = _("; ").join(
        (_("{cause} in terms {positions}") if len(at) > 1 else _("{cause} in term {positions}")).format(
            cause=_(cause), positions=_(", ").join(at))
        for cause, at in wrong.items())
    return _Finding(tuple(wrong), _(
        "the printed terms do add up to {text}, but they carry the errors above ({where}); {correct}.").format(
        text=text, where=where, correct=correct))


def _ratio_finding(printed, findings, k, text, computed):
    decimals = _decimals(text)
    correct = _("the correct {name} is {value}").format(name=f"NDCG@{k}", value=_at(computed, decimals))
    dcg_text, idcg_text = printed.get(f"DCG@{k}"), printed.get(f"IDCG@{k}")
    if dcg_text is None or idcg_text is None:
        return _Finding((ARITHMETIC_SLIP,), _("{correct}, not {text}.").format(correct=correct, text=text))
    ratio = _number(dcg_text) / _number(idcg_text)
    if round(ratio, decimals) != _number(text):
        return _Finding((ARITHMETIC_SLIP,), _("{dcg}/{idcg} = {ratio}, not {text}; {correct}.").format(
            dcg=dcg_text, idcg=idcg_text, ratio=_at(ratio, decimals), text=text, correct=correct))
    causes = []
    for total in (f"DCG@{k}", f"IDCG@{k}"):
        for cause in findings[total].causes if total in findings else ():
            if cause not in causes:
                causes.append(cause)
    if not causes:
        return _Finding((ARITHMETIC_SLIP,), _("{dcg}/{idcg} rounds to {text}, but {correct}.").format(
            dcg=dcg_text, idcg=idcg_text, text=text, correct=correct))
    return _Finding(tuple(causes), _(
        "{dcg}/{idcg} = {text} is right arithmetic on the wrong DCG@{k} and IDCG@{k} above; {correct}.").format(
        dcg=dcg_text, idcg=idcg_text, text=text, k=k, correct=correct))


def _hits(grades, k, threshold):
    return explain_precision_at_k(grades, k, threshold=threshold).rows[-1].hits


def _labels_threshold(grades, labels):
    """The grade threshold that turns ``grades`` into ``labels``, or None."""
    for threshold in sorted(set(grades)):
        if all((grade >= threshold) == bool(label) for grade, label in zip(grades, labels)):
            return threshold
    return None


def _thresholds_for(grades, k, hits):
    return [threshold for threshold in sorted(set(grades)) if _hits(grades, k, threshold) == hits]


def _either(thresholds):
    return _(" or ").join(_("grade >= {threshold:g}").format(threshold=threshold) for threshold in thresholds) or _(
        "no grade threshold")


def _threshold_finding(example, printed, k):
    """Which thresholds each printed count needs, and what the document's own labels give."""
    wanted = {}
    for quantity, text in printed.items():
        metric, cut = _parse(quantity)[:2]
        if metric in ("P", "hits"):
            wanted[cut] = round(_number(text) * cut) if metric == "P" else int(_number(text))
    grades = example.relevances
    needs = {cut: _thresholds_for(grades, cut, hits) for cut, hits in sorted(wanted.items())}
    common = set.intersection(*(set(fits) for fits in needs.values()))
    listed = _("; ").join(_("{hits}/{cut} in the top {cut} needs {thresholds}").format(
        hits=hits, cut=cut, thresholds=_either(needs[cut])) for cut, hits in sorted(wanted.items()))
    opening = (_("every printed count needs {thresholds}").format(thresholds=_either(sorted(common))) if common
               else _("no single threshold gives every printed count"))
    if not example.labels:
        return _Finding((MISMATCHED_THRESHOLD,), _("{opening} ({listed}).").format(opening=opening, listed=listed))
    own = _hits(list(example.labels), k, 1)
    labels = f"[{', '.join(map(str, example.labels))}]"
    return _Finding((MISMATCHED_THRESHOLD,), _(
        "{opening} ({listed}); the document's own labels {labels} (grade >= {threshold:g}) give {own} relevant "
        "in the top {k}, P@{k} = {precision:g}.").format(
        opening=opening, listed=listed, labels=labels, threshold=_labels_threshold(grades, example.labels), own=own, k=k,
        precision=own / k))


def _hand_finding(example, printed, findings, quantity, text, computed):
    """Why the printed ``text`` of ``quantity`` differs from ``computed``."""
    metric, k, part, position = _parse(quantity)
    n_positions = len(example.relevances) if example.k is None else min(example.k, len(example.relevances))
    if metric in ("P", "hits"):
        return _threshold_finding(example, printed, k)
    if metric == "NDCG":
        return _ratio_finding(printed, findings, k, text, computed)
    name = f"{metric}@{k}"
    if part is None:
        return _total_finding(printed, findings, name, text, computed, n_positions)
    row = _sums_trace(example).parts[metric.lower()].rows[position - 1]
    if part == "term":
        return _term_finding(printed, name, position, text, row, n_positions)
    if part == "gain":
        return _Finding((ARITHMETIC_SLIP,), _("the gain of grade {grade:g} is {gain:g}, not {text}.").format(
            grade=row.grade, gain=row.gain, text=text))
    return _discount_finding(text, part, position, row, n_positions)


def _hand_records(example):
    """Records of an example worked by hand, in printed order; a sum's note cites the findings on its terms."""
    printed = {entry.quantity: entry.text for entry in example.printed}
    findings, records = {}, []
    for entry in example.printed:
        computed = _hand_value(example, entry.quantity)
        if not _agrees(computed, entry.text):
            findings[entry.quantity] = _hand_finding(example, printed, findings, entry.quantity, entry.text, computed)
        finding = findings.get(entry.quantity)
        records.append(AuditRecord(example.source, example.name, entry.quantity, entry.text, float(computed),
                                   finding is None, None if finding is None else finding.note()))
    return records
