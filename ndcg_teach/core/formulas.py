"""Pieces every ``explain_*`` trace is written with: names with cut-offs, sums with their numbers, notes.

The metric modules build their formulas from these, so every trace writes a
sum, a cut-off and a threshold the same way. Their words are in the language
set when the trace is built.
"""

from ..i18n import _
from .trace import rows_of


def at(name, k):
    """``name@k``, or ``name`` alone when there is no cut-off."""
    return name if k is None else f"{name}@{k}"


def number(value):
    """A number as a formula shows it: four decimals."""
    return f"{value:.4f}"


def sum_line(name, symbols, values, total, beyond=""):
    """``NAME = s1 + s2 = v1 + v2 = total``, skipping the middle part when it adds nothing."""
    if not symbols:
        return _("{name} = 0 (no positions){beyond}").format(name=name, beyond=beyond)
    parts = [" + ".join(symbols)]
    numbers = " + ".join(number(v) for v in values)
    if numbers != parts[0]:
        parts.append(numbers)
    return f"{name} = {' = '.join(parts)} = {number(total)}{beyond}"


def averaged(name, k, terms, denominator, total, divisor=None):
    """``(formula, latex)`` of a mean over the relevant positions, as AP and Q-measure write it:
    ``NAME = (s1 + s2) / d = (v1 + v2) / d = total`` for ``terms`` ``[(symbol, value), ...]``, ``divisor`` naming
    ``d`` in the first part (``min(k, R)``); ``NAME = 0`` with the reason when there is nothing to average.

    Examples
    --------
    >>> averaged("AP", None, [("P@1", 1.0), ("P@3", 2 / 3)], 2, 5 / 6)[0]
    'AP = (P@1 + P@3) / 2 = (1.0000 + 0.6667) / 2 = 0.8333'
    """
    if not terms or not denominator:
        reason = (_("{name} = 0 (no relevant item in the list)") if k is None
                  else _("{name} = 0 (no relevant item in the list top {k})"))
        return reason.format(name=name, k=k), rf"\mathrm{{{name}}} = 0"
    names = " + ".join(symbol for symbol, _value in terms)
    values = " + ".join(number(value) for _symbol, value in terms)
    formula = f"{name} = ({names}) / {divisor or denominator} = ({values}) / {denominator} = {number(total)}"
    return formula, rf"\mathrm{{{name}}} = \frac{{{values}}}{{{denominator}}} = {number(total)}"


def beyond_note(k, n):
    """Say which positions up to ``k`` lie past the end of an ``n``-item list (they add 0)."""
    if k is None or k <= n:
        return ""
    first = n + 1
    if first == k:
        return _("  (position {k} is beyond the list and add 0)").format(k=k)
    return _("  (positions {first}-{k} are beyond the list and add 0)").format(first=first, k=k)


def threshold_note(threshold):
    """The note every binary metric carries."""
    return _("relevant means grade >= {threshold:g}").format(threshold=threshold)


def binary_rows(steps, labels, columns):
    """Trace rows of a binary metric holding ``columns``: relevant or not, hits so far, precision so far, what each
    position adds and the running sum, read from the steps' arrays."""
    arrays = {
        "position": range(1, steps.grades.size + 1), "item": labels, "grade": steps.grades.tolist(),
        "relevant": steps.relevant.tolist(), "hits": steps.hits.tolist(), "precision": steps.precision.tolist(),
        "contribution": steps.contributions.tolist(), "running": steps.running.tolist(),
    }
    return rows_of(columns, *(arrays[column.key] for column in columns))
