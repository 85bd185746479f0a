"""``explain_*``: every metric with its steps, as a :class:`~ndcg_teach.trace.Trace`.

Each function takes the same arguments as its plain twin plus ``items=``
(labels to show; default ``"#1", "#2", ...``, each item's position in the given
list). The value comes from the same steps the table shows.
"""

from collections import defaultdict, deque
from types import MappingProxyType

import numpy as np

from .average_precision import average_precision_steps
from .binary import checked_binary
from .dcg import _checked, _checked_pool, cg_steps, dcg_steps, ideal_grades, normalise
from .discounts import discount_name, discount_symbol
from .gains import gain_name, gain_symbol
from .precision import precision_steps, recall_steps
from .reciprocal_rank import reciprocal_rank_steps
from .trace import Row, Trace
from .validation import check_items, check_zero_idcg

DCG_COLUMNS = ("position", "item", "grade", "gain", "discount", "contribution", "running")


def _at(name, k):
    return name if k is None else f"{name}@{k}"


def _number(value):
    return f"{value:.4f}"


def _sum_line(name, symbols, values, total, beyond=""):
    """``NAME = s1 + s2 = v1 + v2 = total``, skipping the middle part when it adds nothing."""
    if not symbols:
        return f"{name} = 0 (no positions){beyond}"
    parts = [" + ".join(symbols)]
    numbers = " + ".join(_number(v) for v in values)
    if numbers != parts[0]:
        parts.append(numbers)
    return f"{name} = {' = '.join(parts)} = {_number(total)}{beyond}"


def _beyond_note(k, n):
    if k is None or k <= n:
        return ""
    first = n + 1
    span = f"position {k} is" if first == k else f"positions {first}-{k} are"
    return f"  ({span} beyond the list and add 0)"


def _dcg_parts(steps, gain, discount, log_base):
    """Formula pieces of a DCG: symbolic terms, their values, LaTeX terms."""
    symbols, latex = [], []
    for position, grade in enumerate(steps.grades, start=1):
        numerator = gain_symbol(gain, grade)
        divisor = discount_symbol(position, discount, log_base)
        symbols.append(numerator if divisor is None else f"{numerator}/{divisor}")
        tex_num = numerator.replace("(2^", "(2^{").replace("-1)", "}-1)") if gain == "exponential" else numerator
        if divisor is None:
            latex.append(tex_num)
        else:
            arg = divisor[divisor.index("(") + 1 : -1]
            latex.append(rf"\frac{{{tex_num}}}{{\log_{{{log_base:g}}} {arg}}}")
    return symbols, latex


def _dcg_trace(name, steps, labels, gain, discount, log_base, k, n_listed, notes=()):
    rows = tuple(
        Row(position, labels[position - 1], float(g), float(gn), float(d), float(c), float(r))
        for position, (g, gn, d, c, r) in enumerate(
            zip(steps.grades, steps.gains, steps.discounts, steps.contributions, steps.running), start=1
        )
    )
    symbols, latex_terms = _dcg_parts(steps, gain, discount, log_base)
    beyond = _beyond_note(k, n_listed)
    formula = _sum_line(name, symbols, steps.contributions, steps.total, beyond)
    latex = rf"\mathrm{{{name}}} = {' + '.join(latex_terms) or '0'} = {_number(steps.total)}"
    notes = (gain_name(gain), discount_name(discount, log_base), *notes)
    return Trace(name, steps.total, rows, formula, latex, DCG_COLUMNS, notes)


def explain_cg(relevances, k=None, items=None, negative="raise"):
    """CG with every step: the grades of the top ``k`` added up.

    Examples
    --------
    >>> print(explain_cg([5, 2, 3], items=["A", "B", "C"]).formula)
    CG@3 = 5 + 2 + 3 = 10.0000
    """
    grades, k = _checked(relevances, k, negative)
    labels = check_items(items, grades.size)
    steps = cg_steps(grades, k)
    name = _at("CG", k or grades.size)
    rows = tuple(
        Row(position, labels[position - 1], float(g), float(g), 1.0, float(g), float(r))
        for position, (g, r) in enumerate(zip(steps.grades, steps.running), start=1)
    )
    terms = [f"{g:g}" for g in steps.grades]
    formula = f"{name} = {' + '.join(terms)} = {_number(steps.total)}{_beyond_note(k, grades.size)}"
    latex = rf"\mathrm{{{name}}} = {' + '.join(terms)} = {steps.total:g}"
    notes = ("CG ignores order: any shuffle of the same top-k grades gives the same CG",)
    return Trace(name, steps.total, rows, formula, latex, ("position", "item", "grade", "running"), notes)


def explain_dcg(relevances, k=None, gain="linear", discount="log2", log_base=2, items=None, negative="raise"):
    """DCG with every step: gain, discount and contribution of each position.

    Examples
    --------
    >>> trace = explain_dcg([5, 2, 3], items=["A", "B", "C"])
    >>> print(trace.formula)
    DCG@3 = 5/log2(2) + 2/log2(3) + 3/log2(4) = 5.0000 + 1.2619 + 1.5000 = 7.7619
    >>> [round(row.discount, 4) for row in trace.rows]
    [1.0, 0.6309, 0.5]
    """
    grades, k = _checked(relevances, k, negative)
    labels = check_items(items, grades.size)
    steps = dcg_steps(grades, k, gain, discount, log_base)
    return _dcg_trace(_at("DCG", k or grades.size), steps, labels, gain, discount, log_base, k, grades.size)


def _ideal_labels(grades, labels, ideal):
    """Label each ideal grade with a listed item of that grade, or "(not retrieved)"."""
    waiting = defaultdict(deque)
    for grade, label in zip(grades, labels):
        waiting[float(grade)].append(label)
    named = []
    for grade in ideal:
        queue = waiting[float(grade)]
        named.append(queue.popleft() if queue else "(not retrieved)")
    return tuple(named)


def _idcg_trace(grades, labels, k, gain, discount, log_base, pool):
    ideal = ideal_grades(grades, pool, k)
    steps = dcg_steps(ideal, k, gain, discount, log_base)
    ideal_labels = _ideal_labels(grades, labels, ideal)
    source = "every judged grade of the query (pool)" if pool is not None else "the ranked list itself"
    n_source = (grades if pool is None else pool).size
    trace = _dcg_trace(
        _at("IDCG", k or ideal.size), steps, ideal_labels, gain, discount, log_base, k, n_source,
        (f"ideal order built from {source}",),
    )
    return Trace(trace.metric, trace.value, trace.rows, trace.formula, trace.latex, trace.columns, trace.notes,
                 ideal_items=ideal_labels)


def explain_idcg(relevances, k=None, gain="linear", discount="log2", log_base=2, pool=None, items=None, negative="raise"):
    """IDCG with every step: the DCG of the ideal order.

    Examples
    --------
    >>> trace = explain_idcg([5, 2, 3], items=["A", "B", "C"])
    >>> trace.ideal_items
    ('A', 'C', 'B')
    >>> print(trace.formula)
    IDCG@3 = 5/log2(2) + 3/log2(3) + 2/log2(4) = 5.0000 + 1.8928 + 1.0000 = 7.8928
    """
    grades, k = _checked(relevances, k, negative)
    pool = _checked_pool(pool, grades, negative)
    labels = check_items(items, grades.size)
    return _idcg_trace(grades, labels, k, gain, discount, log_base, pool)


def explain_ndcg(relevances, k=None, gain="linear", discount="log2", log_base=2, pool=None, zero_idcg=0.0,
                 items=None, negative="raise"):
    """NDCG with DCG and IDCG side by side, and the ideal order.

    Examples
    --------
    >>> trace = explain_ndcg([5, 2, 3], items=["A", "B", "C"])
    >>> print(trace.formula.splitlines()[-1])
    NDCG@3 = DCG@3 / IDCG@3 = 7.7619 / 7.8928 = 0.9834
    >>> from ndcg_teach import ndcg
    >>> trace.value == ndcg([5, 2, 3])
    True
    """
    grades, k = _checked(relevances, k, negative)
    pool = _checked_pool(pool, grades, negative)
    zero_idcg = check_zero_idcg(zero_idcg)
    labels = check_items(items, grades.size)
    dcg_trace = _dcg_trace(_at("DCG", k or grades.size), dcg_steps(grades, k, gain, discount, log_base), labels,
                           gain, discount, log_base, k, grades.size)
    idcg_trace = _idcg_trace(grades, labels, k, gain, discount, log_base, pool)
    value = normalise(dcg_trace.value, idcg_trace.value, zero_idcg)
    cut = k or grades.size
    name = f"NDCG@{cut}"
    if idcg_trace.value > 0:
        last = f"{name} = DCG@{cut} / IDCG@{cut} = {_number(dcg_trace.value)} / {_number(idcg_trace.value)} = {_number(value)}"
        last_tex = rf"\mathrm{{{name}}} = \frac{{{_number(dcg_trace.value)}}}{{{_number(idcg_trace.value)}}} = {_number(value)}"
    else:
        last = f"{name}: IDCG@{cut} = 0 (nothing relevant to find), so NDCG takes zero_idcg = {value!r}"
        last_tex = rf"\mathrm{{{name}}} = {value!r} \quad (\mathrm{{IDCG}} = 0)"
    rows = []
    for index in range(max(len(dcg_trace.rows), len(idcg_trace.rows))):
        mine = dcg_trace.rows[index] if index < len(dcg_trace.rows) else Row(index + 1)
        ideal = idcg_trace.rows[index] if index < len(idcg_trace.rows) else Row(index + 1)
        rows.append(Row(index + 1, mine.item, mine.grade, mine.gain, mine.discount, mine.contribution, mine.running,
                        ideal_item=ideal.item, ideal_grade=ideal.grade, ideal_gain=ideal.gain,
                        ideal_discount=ideal.discount, ideal_contribution=ideal.contribution,
                        ideal_running=ideal.running))
    columns = DCG_COLUMNS + ("ideal_item", "ideal_grade", "ideal_gain", "ideal_contribution", "ideal_running")
    formula = "\n".join([dcg_trace.formula, idcg_trace.formula, last])
    latex = r" \\ ".join([dcg_trace.latex, idcg_trace.latex, last_tex])
    return Trace(name, value, tuple(rows), formula, latex, columns, idcg_trace.notes,
                 MappingProxyType({"dcg": dcg_trace, "idcg": idcg_trace}), idcg_trace.ideal_items)


def _binary_rows(steps, labels, with_running):
    return tuple(
        Row(position, labels[position - 1], float(g), float(gn), float(d),
            float(c) if with_running else None, float(r) if with_running else None,
            relevant=bool(rel), hits=int(h), precision=float(p))
        for position, (g, gn, d, c, r, rel, h, p) in enumerate(
            zip(steps.grades, steps.gains, steps.discounts, steps.contributions, steps.running,
                steps.relevant, steps.hits, steps.precision), start=1
        )
    )


def _threshold_note(threshold):
    return f"relevant means grade >= {threshold:g}"


def explain_precision_at_k(relevances, k, threshold=1, adaptive_k=False, items=None, negative="raise"):
    """P@k with every step: which of the top ``k`` are relevant.

    Examples
    --------
    >>> print(explain_precision_at_k([4, 5, 2, 3, 1], k=3, threshold=3).formula)
    P@3 = (relevant in the top 3) / 3 = 2 / 3 = 0.6667
    """
    grades, k, threshold = checked_binary(relevances, k, threshold, negative, k_required=True)
    labels = check_items(items, grades.size)
    steps = precision_steps(grades, k, threshold, adaptive_k)
    hits = int(steps.hits[-1])
    denominator = steps.denominator
    name = f"P@{k}"
    formula = f"{name} = (relevant in the top {k}) / {denominator} = {hits} / {denominator} = {_number(steps.total)}"
    notes = [_threshold_note(threshold)]
    if k > grades.size:
        notes.append(f"the list has {grades.size} items; " + (
            "adaptive_k=True divides by the list length" if adaptive_k else "missing positions count as misses (trec_eval)"))
    latex = rf"\mathrm{{{name}}} = \frac{{{hits}}}{{{denominator}}} = {_number(steps.total)}"
    return Trace(name, steps.total, _binary_rows(steps, labels, False), formula, latex,
                 ("position", "item", "grade", "relevant", "hits", "precision"), tuple(notes))


def explain_recall_at_k(relevances, k, threshold=1, n_relevant=None, items=None, negative="raise"):
    """R@k with every step: how many of the relevant items the top ``k`` found.

    Examples
    --------
    >>> print(explain_recall_at_k([1, 0, 1, 1], k=2).formula)
    R@2 = (relevant in the top 2) / (relevant in total) = 1 / 3 = 0.3333
    """
    grades, k, threshold = checked_binary(relevances, k, threshold, negative, k_required=True)
    labels = check_items(items, grades.size)
    steps = recall_steps(grades, k, threshold, n_relevant)
    total = steps.denominator
    name = f"R@{k}"
    hits = int(steps.hits[-1])
    formula = f"{name} = (relevant in the top {k}) / (relevant in total) = {hits} / {total} = {_number(steps.total)}"
    notes = [_threshold_note(threshold),
             "relevant in total = n_relevant" if n_relevant is not None else "relevant in total counted in the list (pass n_relevant for the query's true total)"]
    if total == 0:
        notes.append("the query has no relevant item: recall is 0.0 by convention")
    latex = rf"\mathrm{{{name}}} = \frac{{{hits}}}{{{total}}} = {_number(steps.total)}"
    return Trace(name, steps.total, _binary_rows(steps, labels, False), formula, latex,
                 ("position", "item", "grade", "relevant", "hits"), tuple(notes))


def explain_average_precision(relevances, k=None, threshold=1, n_relevant=None, items=None, negative="raise"):
    """AP with every step: P@i at each relevant position, summed and divided.

    Examples
    --------
    >>> print(explain_average_precision([1, 0, 1, 0]).formula)
    AP = (P@1 + P@3) / 2 = (1.0000 + 0.6667) / 2 = 0.8333
    """
    grades, k, threshold = checked_binary(relevances, k, threshold, negative, k_required=False)
    labels = check_items(items, grades.size)
    steps = average_precision_steps(grades, k, threshold, n_relevant)
    denominator = steps.denominator
    picked = [(i, p) for i, (rel, p) in enumerate(zip(steps.relevant, steps.precision), start=1) if rel]
    name = "AP" if k is None else f"AP@{k}"
    if picked:
        names = " + ".join(f"P@{i}" for i, _ in picked)
        values = " + ".join(_number(p) for _, p in picked)
        formula = f"{name} = ({names}) / {denominator} = ({values}) / {denominator} = {_number(steps.total)}"
        latex = rf"\mathrm{{{name}}} = \frac{{{values}}}{{{denominator}}} = {_number(steps.total)}"
    else:
        formula = f"{name} = 0 (no relevant item in the list{'' if k is None else f' top {k}'})"
        latex = rf"\mathrm{{{name}}} = 0"
    source = ("n_relevant (relevant items of the query in total)" if n_relevant is not None
              else "relevant items retrieved (pass n_relevant=R for trec_eval's denominator)")
    notes = (_threshold_note(threshold), f"denominator = {source}")
    return Trace(name, steps.total, _binary_rows(steps, labels, True), formula, latex,
                 ("position", "item", "grade", "relevant", "hits", "precision", "contribution", "running"), notes)


def explain_reciprocal_rank(relevances, k=None, threshold=1, items=None, negative="raise"):
    """RR with every step: where the first relevant item is.

    Examples
    --------
    >>> print(explain_reciprocal_rank([0, 0, 3, 1]).formula)
    RR = 1 / 3 = 0.3333  (first relevant item at position 3)
    """
    grades, k, threshold = checked_binary(relevances, k, threshold, negative, k_required=False)
    labels = check_items(items, grades.size)
    steps = reciprocal_rank_steps(grades, k, threshold)
    name = "RR" if k is None else f"RR@{k}"
    found = np.flatnonzero(steps.relevant)
    if found.size:
        first = int(found[0]) + 1
        formula = f"{name} = 1 / {first} = {_number(steps.total)}  (first relevant item at position {first})"
        latex = rf"\mathrm{{{name}}} = \frac{{1}}{{{first}}} = {_number(steps.total)}"
    else:
        formula = f"{name} = 0 (no relevant item in the list{'' if k is None else f' top {k}'})"
        latex = rf"\mathrm{{{name}}} = 0"
    return Trace(name, steps.total, _binary_rows(steps, labels, True), formula, latex,
                 ("position", "item", "grade", "relevant", "contribution", "running"), (_threshold_note(threshold),))
