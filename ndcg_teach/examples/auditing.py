"""Audit: every number the source documents print, recomputed with ndcg_teach.

:func:`audit` returns one :class:`AuditRecord` per printed number of every
:class:`~ndcg_teach.examples.worked.WorkedExample`: final values, each printed
gain, denominator, term and sum, what a document's code is said to print, and
the claims its prose makes with a number. ``computed`` always comes from
ndcg_teach's functions applied to the document's own inputs and stated
convention. Where the two disagree, ``note`` gives the cause, found by
computing: which logarithm a printed denominator really is, whether the printed
terms add up, which relevance threshold a printed precision needs, what the
code really does when run.
"""

import importlib
import itertools
import math
from dataclasses import asdict, dataclass
from fractions import Fraction
from functools import lru_cache
from html import escape

import numpy as np

from .. import cg, dcg, explain_dcg, explain_ndcg, explain_precision_at_k, ndcg, ndcg_score, precision_at_k
from ..table import Cell, Table, styled
from .sources import source
from .worked import EXAMPLES

WRONG_DISCOUNT = "wrong discount"
ARITHMETIC_SLIP = "arithmetic slip"
MISMATCHED_THRESHOLD = "mismatched relevance threshold"
IGNORES_ORDER = "ignores the predicted order"
DOES_NOT_RUN = "does not run"
CODE_OUTPUT = "code output differs"
FALSE_CLAIM = "false claim"
CAUSES = (WRONG_DISCOUNT, ARITHMETIC_SLIP, MISMATCHED_THRESHOLD, IGNORES_ORDER, DOES_NOT_RUN, CODE_OUTPUT, FALSE_CLAIM)

# Names a code snippet may use for a module it never imports, and the modules they mean.
_MODULES = {"np": "numpy", "numpy": "numpy", "math": "math"}
# Functions removed from a library: detected with hasattr at run time, this only says when.
_REMOVED_IN = {"np.asfarray": "NumPy 2.0"}
_DISPLAY = {"numpy": "NumPy"}
_HEADERS = ("example", "quantity", "published", "computed", "agrees")


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
                        items=list(example.ranking) or None)


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


# The documents' code, emulated with ndcg_teach -------------------------------------------------------------


def _code_problems(example):
    """Why the code cannot run as printed: names it never imports, functions the installed library lacks."""
    problems = []
    for alias in sorted({call.split(".")[0] for call in example.code_calls} - set(example.code_imports)):
        problems.append(f"it uses {alias} without importing it (NameError)")
    for call in example.code_calls:
        alias, attribute = call.split(".", 1)
        module = importlib.import_module(_MODULES[alias])
        if not hasattr(module, attribute):
            when = _REMOVED_IN.get(call)
            removed = f"was removed in {when}" if when else f"is missing from the installed {module.__name__}"
            problems.append(f"{call} {removed} (AttributeError with the {_DISPLAY.get(module.__name__, module.__name__)} "
                            "installed here)")
    return problems


def _code_record(example, entry, computed, explain):
    """A record for code: it must run as printed and return the published number."""
    problems = _code_problems(example)
    if not problems:
        return _record(example, entry, computed, explain)

    def not_running():
        # What code that cannot run would print is hypothetical, so CODE_OUTPUT gives way to DOES_NOT_RUN.
        finding = explain()
        causes = (DOES_NOT_RUN, *(cause for cause in finding.causes if cause != CODE_OUTPUT))
        return _Finding(causes, f"{'; '.join(problems)}. Once fixed, {finding.text}")

    return _record(example, entry, computed, not_running, runs=False)


def _precision_code(example):
    grades, labels = example.relevances, list(example.labels)
    for entry in example.printed:
        k = _parse(entry.quantity)[1]
        computed = precision_at_k(labels, k)

        def explain(k=k, entry=entry, computed=computed):
            needs = _thresholds_for(grades, k, round(_number(entry.text) * k))
            return _Finding((MISMATCHED_THRESHOLD,), (
                f"run on its own labels [{', '.join(map(str, labels))}] (grade >= {_labels_threshold(grades, labels):g}) "
                f"the function returns {_hits(labels, k, 1)}/{k} = {computed!r}; {entry.text} needs {_either(needs)}, "
                f"the threshold of the prose's P@{k}, not of the code's labels."))

        yield _code_record(example, entry, computed, explain)


def _conventions(relevances, k):
    """NDCG@k under every gain and discount: {(gain, discount): value}."""
    return {(gain, discount): ndcg(relevances, k=k, gain=gain, discount=discount)
            for gain in ("linear", "exponential") for discount in ("log2", "jarvelin")}


def _ndcg_code(example):
    """Code that computes NDCG@k of the list it is given, with the document's gain and discount."""
    for entry in example.printed:
        computed = ndcg(example.relevances, k=example.k, gain=example.gain, discount=example.discount)

        def explain(entry=entry, computed=computed):
            values = _conventions(example.relevances, example.k)
            digits = _decimals(entry.text)
            matching = [pair for pair, value in values.items() if round(value, digits) == _number(entry.text)]
            returns = f"the function returns {computed!r} for this list ({example.gain} gain, 1/log2(i+1))"
            if matching:
                return _Finding((CODE_OUTPUT,), f"{returns}; {entry.text} is what {matching[0][0]} gain with the "
                                                f"{matching[0][1]} discount gives.")
            tried = ", ".join(f"{gain}/{discount} {value:.4f}" for (gain, discount), value in values.items())
            return _Finding((CODE_OUTPUT,), f"{returns}; {entry.text} is what no gain/discount convention gives ({tried}).")

        yield _code_record(example, entry, computed, explain)


def _numpy_code(example):
    """Code that, once runnable, computes NDCG@k; its document prints no output, so its hand value is the claim."""
    for entry in example.printed:
        computed = ndcg(example.relevances, k=example.k, gain=example.gain, discount=example.discount)

        def explain(entry=entry, computed=computed):
            return _Finding((CODE_OUTPUT,), (
                f"it returns {_shown(computed, entry.text)} for this list ({example.gain} gain, 1/log2(i+1)), "
                f"ndcg_teach's NDCG@{example.k}, not the {entry.text} of the document's hand calculation."))

        yield _code_record(example, entry, computed, explain)


def _min_max(values):
    """The document's rescaling to [0, 1]: (x - min) / (max - min), every value 0.5 when all are equal."""
    values = np.asarray(values, dtype=np.float64)
    spread = values.max() - values.min()
    return np.full(values.size, 0.5) if spread == 0 else (values - values.min()) / spread


def _input_order_code(example):
    """Code whose DCG reads the rescaled true scores in input order; the predicted scores never reach it."""
    rescaled = _min_max(example.relevances)
    code_value = ndcg(rescaled, k=example.k, gain=example.gain, discount=example.discount)
    ranked = ndcg_score(rescaled, example.scores, k=example.k, gain=example.gain, ties="average")
    computed = {f"NDCG@{example.k} the code prints": code_value,
                f"NDCG@{example.k} of the ranking by pred_scores": ranked}

    def explain():
        tie_orders = [ndcg_score(rescaled, example.scores, k=example.k, gain=example.gain, ties=ties)
                      for ties in ("optimistic", "pessimistic", "stable")]
        raw = ndcg_score(example.relevances, example.scores, k=example.k)
        return _Finding((IGNORES_ORDER,), (
            f"the code sums the rescaled true_scores in their input order and uses pred_scores only for the list "
            f"it returns, so its {code_value:.3f} grades the input order; ranked by pred_scores, with the same "
            f"min-max rescaled 2^x - 1 gains, NDCG@{example.k} = {ranked:.3f} (ties averaged; "
            f"{min(tie_orders):.3f}-{max(tie_orders):.3f} over tie orders). Min-max rescaling is not neutral either: "
            f"it gives the lowest grade gain 0, and the raw grades with linear gain (scikit-learn) give {raw:.3f}."))

    for entry in example.printed:
        yield _code_record(example, entry, computed[entry.quantity], explain)


# Claims made in prose ---------------------------------------------------------------------------------------


def _first_binary_counterexample(longest=4):
    """The shortest 0/1 list on which the two DCG forms differ."""
    for length in range(1, longest + 1):
        for grades in itertools.product((0, 1), repeat=length):
            if abs(dcg(grades, discount="jarvelin") - dcg(grades, gain="exponential")) > 1e-12:
                return list(grades)
    return None


def _binary_claim(example):
    grades = _first_binary_counterexample()
    k = len(grades)
    dcgs = (dcg(grades, discount="jarvelin"), dcg(grades, gain="exponential"))
    ndcgs = (ndcg(grades, discount="jarvelin"), ndcg(grades, gain="exponential"))
    pairs = {"DCG": dcgs, "NDCG": ndcgs}
    for entry in example.printed:
        metric = entry.quantity.split(",")[0]
        first, second = pairs[metric]

        def explain(metric=metric, first=first, second=second):
            return _Finding((FALSE_CLAIM,), (
                f"with 0/1 grades the gains agree (2^1 - 1 = 1) but the discounts do not: from position 2 on, the "
                f"first form divides by log2(i), the second by log2(i+1). On {grades}, the shortest counterexample, "
                f"{metric}@{k} is {first:.4f} against {second:.4f}."))

        yield _record(example, entry, first - second, explain)


def _position_claim(example):
    rows = explain_dcg([1] * 10, discount=example.discount).rows
    ratio = rows[9].discount / rows[0].discount
    for entry in example.printed:
        yield _record(example, entry, ratio, lambda: _Finding((FALSE_CLAIM,), f"the ratio is {ratio:.4f}."))


_NON_HAND = {
    "p_at_k_code": _precision_code,
    "ndcg_exponential_code": _ndcg_code,
    "ndcg_numpy_code": _numpy_code,
    "nineteen_items_ndcg_code": _input_order_code,
    "binary_grades_claim": _binary_claim,
    "position_10_discount": _position_claim,
}


def _records(example):
    if example.kind == "figure":
        return []
    if example.kind == "hand":
        return _hand_records(example)
    return list(_NON_HAND[example.name](example))


# The report ------------------------------------------------------------------------------------------------


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

    def __new__(cls, records=()):
        return super().__new__(cls, tuple(records))

    @property
    def summary(self):
        """One line: how many numbers, how many agree."""
        right = sum(record.agrees for record in self)
        return f"{len(self)} printed numbers audited: {right} agree, {len(self) - right} disagree."

    def disagreements(self):
        """The records whose published number is wrong, each with its note.

        Examples
        --------
        >>> wrong = audit("000").disagreements()
        >>> wrong[0].quantity, wrong[0].published, round(wrong[0].computed, 4)
        ('relevant in top 5', '4', 3.0)
        """
        return AuditReport(record for record in self if not record.agrees)

    def agreements(self):
        """The records whose published number is right.

        Examples
        --------
        >>> [r.quantity for r in audit("002").agreements()]
        ['NDCG@19 the code prints']
        """
        return AuditReport(record for record in self if record.agrees)

    def for_source(self, name):
        """The records of one document, given by file name or first digits (``"001"``).

        Examples
        --------
        >>> print(audit().for_source("003").summary)
        2 printed numbers audited: 0 agree, 2 disagree.
        """
        file = source(name).file
        return AuditReport(record for record in self if record.source == file)

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
            rows = tuple((r.example, r.quantity, r.published, Cell(_shown(r.computed, r.published), repr(r.computed)),
                          "yes" if r.agrees else "NO") for r in records)
            tables.append(Table(doc.citation, _HEADERS, rows, notes=tuple(r.note for r in records),
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
    ndcg_teach.examples.examples : the worked examples the numbers come from.

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
