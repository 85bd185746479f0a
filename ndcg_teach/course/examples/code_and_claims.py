"""The documents' code, emulated with ndcg_teach, and the claims their prose makes with a number.

Code must run as printed (every module it uses imported, every function still
in the installed library) and return the published number; a claim must hold.
The causes and the checks of numbers worked by hand are in
:mod:`~ndcg_teach.course.examples.findings`.
"""

import importlib
import itertools

import numpy as np

from ...core import dcg, explain_dcg, ndcg, ndcg_score, precision_at_k
from ...i18n import _, mark
from .findings import (
    CODE_OUTPUT,
    DOES_NOT_RUN,
    FALSE_CLAIM,
    IGNORES_ORDER,
    MISMATCHED_THRESHOLD,
    _decimals,
    _either,
    _Finding,
    _hits,
    _labels_threshold,
    _number,
    _parse,
    _record,
    _shown,
    _thresholds_for,
)

# Names a code snippet may use for a module it never imports, and the modules they mean.
_MODULES = {"np": "numpy", "numpy": "numpy", "math": "math"}
# Functions removed from a library: detected with hasattr at run time, this only says when.
_REMOVED_IN = {"np.asfarray": "NumPy 2.0"}
_DISPLAY = {"numpy": "NumPy"}
# A gain convention's name in a sentence, translated where the sentence is written.
_GAIN_WORDS = {"linear": mark("linear"), "exponential": mark("exponential")}


def _code_problems(example):
    """Why the code cannot run as printed: names it never imports, functions the installed library lacks."""
    problems = []
    for alias in sorted({call.split(".")[0] for call in example.code_calls} - set(example.code_imports)):
        problems.append(_("it uses {alias} without importing it (NameError)").format(alias=alias))
    for call in example.code_calls:
        alias, attribute = call.split(".", 1)
        module = importlib.import_module(_MODULES[alias])
        if not hasattr(module, attribute):
            when = _REMOVED_IN.get(call)
            shown = _DISPLAY.get(module.__name__, module.__name__)
            problem = (_("{call} was removed in {when} (AttributeError with the {shown} installed here)") if when else
                       _("{call} is missing from the installed {module} (AttributeError with the {shown} installed here)"))
            problems.append(problem.format(call=call, when=when, module=module.__name__, shown=shown))
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
        return _Finding(causes, _("{problems}. Once fixed, {text}").format(problems=_("; ").join(problems), text=finding.text))

    return _record(example, entry, computed, not_running, runs=False)


def _precision_code(example):
    grades, labels = example.relevances, list(example.labels)
    for entry in example.printed:
        k = _parse(entry.quantity)[1]
        computed = precision_at_k(labels, k)

        def explain(k=k, entry=entry, computed=computed):
            needs = _thresholds_for(grades, k, round(_number(entry.text) * k))
            return _Finding((MISMATCHED_THRESHOLD,), _(
                "run on its own labels [{labels}] (grade >= {threshold:g}) the function returns {hits}/{k} = {computed!r}; "
                "{text} needs {thresholds}, the threshold of the prose's P@{k}, not of the code's labels.").format(
                labels=", ".join(map(str, labels)), threshold=_labels_threshold(grades, labels), hits=_hits(labels, k, 1),
                k=k, computed=computed, text=entry.text, thresholds=_either(needs)))

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
            returns = _("the function returns {computed!r} for this list ({gain} gain, 1/log2(i+1))").format(
                computed=computed, gain=_(_GAIN_WORDS[example.gain]))
            if matching:
                return _Finding((CODE_OUTPUT,), _("{returns}; {text} is what {gain} gain with the {discount} discount gives.").format(
                    returns=returns, text=entry.text, gain=_(_GAIN_WORDS[matching[0][0]]), discount=matching[0][1]))
            tried = _(", ").join(f"{gain}/{discount} {value:.4f}" for (gain, discount), value in values.items())
            return _Finding((CODE_OUTPUT,), _("{returns}; {text} is what no gain/discount convention gives ({tried}).").format(
                returns=returns, text=entry.text, tried=tried))

        yield _code_record(example, entry, computed, explain)


def _numpy_code(example):
    """Code that, once runnable, computes NDCG@k; its document prints no output, so its hand value is the claim."""
    for entry in example.printed:
        computed = ndcg(example.relevances, k=example.k, gain=example.gain, discount=example.discount)

        def explain(entry=entry, computed=computed):
            return _Finding((CODE_OUTPUT,), _(
                "it returns {computed} for this list ({gain} gain, 1/log2(i+1)), ndcg_teach's NDCG@{k}, not the {text} "
                "of the document's hand calculation.").format(
                computed=_shown(computed, entry.text), gain=_(_GAIN_WORDS[example.gain]), k=example.k, text=entry.text))

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
        return _Finding((IGNORES_ORDER,), _(
            "the code sums the rescaled true_scores in their input order and uses pred_scores only for the list "
            "it returns, so its {code_value:.3f} grades the input order; ranked by pred_scores, with the same "
            "min-max rescaled 2^x - 1 gains, NDCG@{k} = {ranked:.3f} (ties averaged; "
            "{low:.3f}-{high:.3f} over tie orders). Min-max rescaling is not neutral either: "
            "it gives the lowest grade gain 0, and the raw grades with linear gain (scikit-learn) give {raw:.3f}.").format(
            code_value=code_value, k=example.k, ranked=ranked, low=min(tie_orders), high=max(tie_orders), raw=raw))

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
            return _Finding((FALSE_CLAIM,), _(
                "with 0/1 grades the gains agree (2^1 - 1 = 1) but the discounts do not: from position 2 on, the "
                "first form divides by log2(i), the second by log2(i+1). On {grades}, the shortest counterexample, "
                "{metric}@{k} is {first:.4f} against {second:.4f}.").format(
                grades=grades, metric=metric, k=k, first=first, second=second))

        yield _record(example, entry, first - second, explain)


def _position_claim(example):
    rows = explain_dcg([1] * 10, discount=example.discount).rows
    ratio = rows[9].discount / rows[0].discount
    for entry in example.printed:
        yield _record(example, entry, ratio, lambda: _Finding((FALSE_CLAIM,), _("the ratio is {ratio:.4f}.").format(ratio=ratio)))


# The examples that are not worked by hand, by name, and the function that checks each.
CHECKS = {
    "p_at_k_code": _precision_code,
    "ndcg_exponential_code": _ndcg_code,
    "ndcg_numpy_code": _numpy_code,
    "nineteen_items_ndcg_code": _input_order_code,
    "binary_grades_claim": _binary_claim,
    "position_10_discount": _position_claim,
}
