"""Why a printed number differs from ndcg_teach's: the engine of :func:`~ndcg_teach.examples.audit`.

Every :class:`AuditRecord` pairs a number a source document prints with what
ndcg_teach's functions give for the document's own inputs and stated
convention. Where the two disagree, the cause is found by computing: which
logarithm a printed denominator really is, whether the printed terms add up,
which relevance threshold a printed precision needs. This module holds the
causes, how a printed number is read and compared, and the sums the documents
work by hand; :mod:`~ndcg_teach.examples.code_and_claims` checks their code
and their claims in prose, and :mod:`~ndcg_teach.examples.auditing` gathers
the records into a report.
"""

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from .. import cg, explain_ndcg, explain_precision_at_k, precision_at_k

WRONG_DISCOUNT = "wrong discount"
ARITHMETIC_SLIP = "arithmetic slip"
MISMATCHED_THRESHOLD = "mismatched relevance threshold"
IGNORES_ORDER = "ignores the predicted order"
DOES_NOT_RUN = "does not run"
CODE_OUTPUT = "code output differs"
FALSE_CLAIM = "false claim"
CAUSES = (WRONG_DISCOUNT, ARITHMETIC_SLIP, MISMATCHED_THRESHOLD, IGNORES_ORDER, DOES_NOT_RUN, CODE_OUTPUT, FALSE_CLAIM)


@dataclass(frozen=True)
class AuditRecord:
    """One printed number of a source document, checked.

    Attributes
    ----------
    source : str
        File name of the document.
    example : str
        Name of the worked example (see :func:`ndcg_teach.examples.example`).
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


@dataclass(frozen=True)
class _Finding:
    """A cause of disagreement: its labels from CAUSES and the explanation."""

    causes: tuple
    text: str

    def note(self):
        label = " and ".join(sorted(self.causes, key=CAUSES.index))
        return f"{label[0].upper()}{label[1:]}: {self.text}"


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
                    return f"{shown}, the {'discount' if reciprocal else 'denominator'} of position {n - 1}"
                return shown
    return None


def _discount_finding(text, part, position, row, n_positions):
    reciprocal = part == "discount"
    right = row.discount if reciprocal else 1 / row.discount
    right_text = f"{'1/' if reciprocal else ''}log2({position}+1) = {right:.4g}"
    named = _log_named(_number(text), _decimals(text), reciprocal, n_positions)
    if named is None:
        return _Finding((ARITHMETIC_SLIP,), f"{right_text}, not {text}.")
    return _Finding((WRONG_DISCOUNT,), f"{text} is {named}, not {right_text}.")


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
            return _Finding((WRONG_DISCOUNT,), (
                f"{text} = {gain_text}/{denominator} follows the wrong denominator printed for this position; "
                f"with log2({position}+1) = {1 / row.discount:.4g} the term is {correct}."))
        return _Finding((ARITHMETIC_SLIP,), f"{gain_text}/{denominator} = {_at(quotient, decimals)}, not {text}.")
    for n in range(2, n_positions + 2):
        if n != position + 1 and round(gain / math.log2(n), decimals) == value:
            return _Finding((WRONG_DISCOUNT,), (
                f"{text} is {gain_text}/log2({n}), the discount of position {n - 1}; position {position} takes "
                f"log2({position}+1), which gives {correct}."))
    for n in range(2, 65):
        if round(math.log2(n), decimals) == value:
            return _Finding((ARITHMETIC_SLIP,), (
                f"{text} is log2({n}) itself, not a quotient; {gain_text}/log2({position}+1) = {correct}."))
    repeated = [other for other in range(1, n_positions + 1)
                if other != position and printed.get(f"{name} term {other}") == text]
    if repeated:
        return _Finding((ARITHMETIC_SLIP,), (
            f"{text} repeats the term printed for position {repeated[0]}; "
            f"{gain_text}/log2({position}+1) = {correct}."))
    return _Finding((ARITHMETIC_SLIP,), f"{gain_text}/log2({position}+1) = {correct}, not {text}.")


def _total_finding(printed, findings, name, text, computed, n_positions):
    decimals = _decimals(text)
    correct = f"the correct {name} is {_at(computed, decimals)}"
    terms = [printed.get(f"{name} term {position}") for position in range(1, n_positions + 1)]
    if None in terms:
        return _Finding((ARITHMETIC_SLIP,), f"{correct}, not {text}.")
    added = sum(_number(term) for term in terms)
    if round(added, decimals) != _number(text):
        return _Finding((ARITHMETIC_SLIP,), f"the printed terms add up to {_at(added, decimals)}, not {text}; {correct}.")
    wrong = {}
    for position in range(1, n_positions + 1):
        finding = findings.get(f"{name} term {position}")
        for cause in finding.causes if finding else ():
            wrong.setdefault(cause, []).append(str(position))
    if not wrong:
        return _Finding((ARITHMETIC_SLIP,), f"the printed terms, each rounded, add up to {text}; {correct}.")
    where = "; ".join(f"{cause} in term{'s' if len(at) > 1 else ''} {', '.join(at)}" for cause, at in wrong.items())
    return _Finding(tuple(wrong), f"the printed terms do add up to {text}, but they carry the errors above ({where}); {correct}.")


def _ratio_finding(printed, findings, k, text, computed):
    decimals = _decimals(text)
    correct = f"the correct NDCG@{k} is {_at(computed, decimals)}"
    dcg_text, idcg_text = printed.get(f"DCG@{k}"), printed.get(f"IDCG@{k}")
    if dcg_text is None or idcg_text is None:
        return _Finding((ARITHMETIC_SLIP,), f"{correct}, not {text}.")
    ratio = _number(dcg_text) / _number(idcg_text)
    if round(ratio, decimals) != _number(text):
        return _Finding((ARITHMETIC_SLIP,), f"{dcg_text}/{idcg_text} = {_at(ratio, decimals)}, not {text}; {correct}.")
    causes = []
    for total in (f"DCG@{k}", f"IDCG@{k}"):
        for cause in findings[total].causes if total in findings else ():
            if cause not in causes:
                causes.append(cause)
    if not causes:
        return _Finding((ARITHMETIC_SLIP,), f"{dcg_text}/{idcg_text} rounds to {text}, but {correct}.")
    return _Finding(tuple(causes), (
        f"{dcg_text}/{idcg_text} = {text} is right arithmetic on the wrong DCG@{k} and IDCG@{k} above; {correct}."))


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
    return " or ".join(f"grade >= {threshold:g}" for threshold in thresholds) or "no grade threshold"


def _threshold_finding(example, printed, k):
    """Which thresholds each printed count needs, and what the document's own labels give."""
    wanted = {}
    for quantity, text in printed.items():
        metric, cut, _, _ = _parse(quantity)
        if metric in ("P", "hits"):
            wanted[cut] = round(_number(text) * cut) if metric == "P" else int(_number(text))
    grades = example.relevances
    needs = {cut: _thresholds_for(grades, cut, hits) for cut, hits in sorted(wanted.items())}
    common = set.intersection(*(set(fits) for fits in needs.values()))
    listed = "; ".join(f"{hits}/{cut} in the top {cut} needs {_either(needs[cut])}" for cut, hits in sorted(wanted.items()))
    opening = (f"every printed count needs {_either(sorted(common))}" if common
               else "no single threshold gives every printed count")
    if not example.labels:
        return _Finding((MISMATCHED_THRESHOLD,), f"{opening} ({listed}).")
    own = _hits(list(example.labels), k, 1)
    labels = f"[{', '.join(map(str, example.labels))}]"
    return _Finding((MISMATCHED_THRESHOLD,), (
        f"{opening} ({listed}); the document's own labels {labels} (grade >= "
        f"{_labels_threshold(grades, example.labels):g}) give {own} relevant in the top {k}, P@{k} = {own / k:g}."))


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
        return _Finding((ARITHMETIC_SLIP,), f"the gain of grade {row.grade:g} is {row.gain:g}, not {text}.")
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
