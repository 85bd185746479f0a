"""What each peer library computes, written as the ndcg_teach keywords that reproduce it.

A learner's first real question is "why does library X give a different
number?". Each :class:`Convention` below records, for one function of one
library, the choices that decide its value (gain, discount, whether the ideal
and the relevant count come from the list or from every judged item, the value
when nothing is relevant, ties, negative grades, the P@k and AP denominators)
and the source file each fact was read from. :func:`compare` scores one
ranking under every convention at once, so lesson 08 can show the disagreement
without any of those libraries installed; :func:`facts` shows the table itself.

The scikit-learn and trec_eval rows are checked against the real libraries in
``tests/test_conventions.py``; the others against hand-computed cases built
from the formulas in their source.
"""

import inspect
import math
import warnings
from dataclasses import dataclass

import numpy as np

from .i18n import _
from .registry import metric, metrics
from .table import Table
from .validation import check_k, check_pool, check_relevances, shown
THRESHOLD = 1  # trec_eval's relevance_level, ranx's rel_lvl and "target > 0" all mean grade >= 1 for integer grades


def binary_gain(grades):
    """Gain 1 for a relevant grade (>= 1), else 0: recommenders' default ``score_type="binary"``.

    Examples
    --------
    >>> binary_gain(np.array([3.0, 0.0, 1.0]))
    array([1., 0., 1.])
    """
    return (np.asarray(grades, dtype=np.float64) >= THRESHOLD).astype(np.float64)


@dataclass(frozen=True)
class Convention:
    """One library function's conventions, in ndcg_teach's terms.

    Attributes
    ----------
    library, function : str
        Where it lives, e.g. ``"scikit-learn"``, ``"ndcg_score"``.
    metric : str
        What it computes: a registry key ("ndcg", "dcg", "precision",
        "recall", "ap", "rr"; see :func:`ndcg_teach.metrics`).
    gain : {"linear", "exponential", "binary"} or None
        ndcg_teach's ``gain`` (``"binary"`` is :func:`binary_gain`).
    log_base : float
        Base of the ``1/log_b(i + 1)`` discount; it changes DCG, not NDCG.
    uses_pool : bool
        True when the ideal ranking (NDCG) or the relevant count (recall, AP)
        comes from every judged item of the query, retrieved or not (our
        ``pool=`` / ``n_relevant=``); False when it comes from the list.
    zero_idcg : float, "nan" or None
        NDCG when nothing judged is relevant (our ``zero_idcg``).
    ties : str
        How tied scores are ordered (informative: :func:`compare` takes a
        ranking, not scores).
    negative : {"raise", "zero", "kept", "unjudged"}
        Negative grades: refused, read as 0 (our ``negative="zero"``),
        kept as they are (a negative gain, or a hit for libraries that count
        every item of the truth table as relevant): no ndcg_teach convention
        does that; or read as "in the pool but unjudged" (trec_eval's bpref:
        our ``None``, which :func:`compare` does not take).
    adaptive_k : bool or None
        P@k of a list shorter than k: divide by k (False) or by the list length (True).
    denominator : {"hits", "R", "min(R, k)"} or None
        What AP divides by: relevant items found in the top k, all relevant
        items of the query, or the smaller of R and k.
    integer_grades : bool
        True when the library refuses grades that are not whole numbers.
    max_grade : float or None
        ERR's top of the grading scale (our ``max_grade``); None for the
        largest grade given, or for metrics without one.
    cut_off : bool
        False when the library's measure has no cut-off (trec_eval's Rprec,
        set_F and bpref score the whole run): a ``k`` given to :func:`compare`
        is then not passed on.
    source : str
        The file and function the facts were read from.
    note : str
        Anything else a learner should know.

    Examples
    --------
    >>> sklearn = CONVENTIONS_BY_NAME["scikit-learn ndcg_score"]
    >>> sklearn.uses_pool, sklearn.zero_idcg, sklearn.ties
    (False, 0.0, 'averaged over each tied group')
    """

    library: str
    function: str
    metric: str
    source: str
    gain: str = None
    log_base: float = 2
    uses_pool: bool = False
    zero_idcg: float = None
    ties: str = "not applicable"
    negative: str = "raise"
    adaptive_k: bool = None
    denominator: str = None
    integer_grades: bool = False
    max_grade: float = None
    cut_off: bool = True
    note: str = ""

    @property
    def name(self):
        """``"library function"``, the key :func:`compare` rows are looked up by."""
        return f"{self.library} {self.function}"

    @property
    def spec(self):
        """The registry's :class:`~ndcg_teach.Metric` this convention computes."""
        return metric(self.metric)

    def keywords(self, relevances, pool=None, k=None):
        """The ndcg_teach function and keywords that reproduce this convention on one ranking.

        One recipe serves every metric: the convention's choices are written
        as ndcg_teach keywords, and the metric keeps the ones it accepts.

        Returns
        -------
        (callable, dict)

        Examples
        --------
        >>> trec_map = CONVENTIONS_BY_NAME["trec_eval map / map_cut"]
        >>> function, keywords = trec_map.keywords([1, 0, 1], pool=[1, 0, 1, 1])
        >>> function.__name__, keywords["n_relevant"]
        ('average_precision', 3)
        >>> CONVENTIONS_BY_NAME["trec_eval Rprec"].keywords([1, 0, 1], k=2)[1]["k"] is None  # Rprec has no cut-off
        True
        """
        k = k if self.cut_off else None
        judged = list(relevances) if pool is None else list(pool)
        n_relevant = n_nonrelevant = None
        if self.uses_pool and self.denominator != "hits":
            n_relevant = sum(grade >= THRESHOLD for grade in judged)
            n_nonrelevant = sum(grade < THRESHOLD for grade in judged)
            if self.denominator == "min(R, k)":
                n_relevant = min(n_relevant, k or len(relevances))
        choices = {
            "gain": binary_gain if self.gain == "binary" else self.gain,
            "log_base": self.log_base,
            "pool": None if pool is None or not self.uses_pool else list(pool),
            "zero_idcg": self.zero_idcg,
            "threshold": THRESHOLD,
            "adaptive_k": bool(self.adaptive_k),
            "n_relevant": n_relevant,
            "n_nonrelevant": n_nonrelevant,
            "max_grade": self.max_grade,
            "negative": "zero" if self.negative == "zero" else "raise",
        }
        return self.spec.function, {"k": k, **self.spec.accepted(choices)}

    def call(self, relevances, pool=None, k=None):
        """The ndcg_teach call as text, e.g. ``"ndcg(relevances, k=3, pool=pool)"``; defaults are left out.

        Examples
        --------
        >>> CONVENTIONS_BY_NAME["trec_eval ndcg_cut"].call([3, 0, 2], pool=[3, 2, 3], k=3)
        "ndcg(relevances, k=3, pool=pool, negative='zero')"
        >>> CONVENTIONS_BY_NAME["recommenders map_at_k"].call([1, 0, 1], pool=[1, 0, 1, 1], k=2)
        'average_precision(relevances, k=2, n_relevant=2)'
        """
        function, keywords = self.keywords(relevances, pool, k)
        defaults = {name: p.default for name, p in inspect.signature(function).parameters.items()}
        shown = []
        for name, value in keywords.items():
            if _same(value, defaults.get(name, inspect.Parameter.empty)):
                continue
            if name == "pool":
                text = "pool"
            elif callable(value):
                text = value.__name__
            elif value == math.e:
                text = "math.e"
            else:
                text = repr(value)
            shown.append(f"{name}={text}")
        return f"{function.__name__}({', '.join(['relevances', *shown])})"

    def value(self, relevances, pool=None, k=None):
        """This convention's value for one ranking (``relevances`` in ranked order).

        Raises
        ------
        ValueError
            When the library itself would refuse the input (negative or
            fractional grades), or adds negative gains, which no ndcg_teach
            convention reproduces.

        Examples
        --------
        >>> lightgbm = CONVENTIONS_BY_NAME["LightGBM ndcg"]
        >>> lightgbm.value([0, 0, 0])  # nothing relevant: LightGBM counts the query as perfect
        1.0
        >>> round(CONVENTIONS_BY_NAME["scikit-learn ndcg_score"].value([5, 2, 3]), 4)
        0.9834
        """
        refusal = self.refuses(relevances, pool)
        if refusal:
            raise ValueError(f"{self.name} {refusal}. Got relevances={list(relevances)!r} instead.")
        function, keywords = self.keywords(relevances, pool, k)
        return function(relevances, **keywords)

    def refuses(self, relevances, pool=None, language="en"):
        """Why the library would not score this input (or ndcg_teach cannot say what it gives), else ``""``.

        In English unless ``language`` is given: the reason is part of an error message too.
        """
        grades = list(relevances) + ([] if pool is None or not self.uses_pool else list(pool))
        if any(grade < 0 for grade in grades):
            if self.negative == "raise":
                return _("refuses negative grades", language)
            if self.negative == "kept":
                return _("keeps negative grades as they are, which no ndcg_teach convention reproduces", language)
            if self.negative == "unjudged":
                return _("reads a negative grade as an unjudged item: write None for it and call the metric itself",
                         language)
        if self.integer_grades and any(float(grade) != int(grade) for grade in grades):
            return _("takes whole-number grades only", language)
        if self.max_grade is not None and any(grade > self.max_grade for grade in grades):
            return _("takes grades up to {max_grade:g} only", language).format(max_grade=self.max_grade)
        return ""


def _same(value, default):
    # A float default such as log_base=2 is met by 2 as well as 2.0; True is not 1.
    same_kind = type(value) is type(default) or {type(value), type(default)} <= {int, float}
    return value is default or (same_kind and value == default)


SKLEARN = "sklearn/metrics/_ranking.py"
TREC = "usnistgov/trec_eval"
RANX = "ranx/metrics"
RECOMMENDERS = "recommenders/evaluation/python_evaluation.py"
TORCH = "src/torchmetrics/functional/retrieval"
LIGHTGBM = "LightGBM src/metric"
EVIDENTLY = "src/evidently"
GDEVAL = "gdeval.pl (TREC Web track; ir_measures' ERR@k runs it)"

CONVENTIONS = (
    Convention(
        "scikit-learn", "ndcg_score", "ndcg", gain="linear", zero_idcg=0.0, ties="averaged over each tied group",
        source=f"{SKLEARN}: ndcg_score, _ndcg_sample_scores (ideal from y_true's own row; all_irrelevant -> 0), "
        "_dcg_sample_scores, _tie_averaged_dcg",
        note="needs 2-D input with at least 2 items per query; ignore_ties=True leaves tied items in an arbitrary order",
    ),
    Convention(
        "scikit-learn", "dcg_score", "dcg", gain="linear", ties="averaged over each tied group", negative="kept",
        source=f"{SKLEARN}: dcg_score, _dcg_sample_scores (discount 1 / (log(i + 2) / log(log_base)))",
        note="log_base (default 2) scales DCG; y_true is not checked, so negative grades add negative gains",
    ),
    Convention(
        "trec_eval", "ndcg_cut", "ndcg", gain="linear", uses_pool=True, zero_idcg=0.0, ties="document id descending",
        negative="zero", integer_grades=True,
        source=f"{TREC}: m_ndcg_cut.c te_calc_ndcg_cut, m_ndcg.c te_calc_ndcg (gain / log2(i + 2), ideal from "
        "rel_levels of every judged document), form_res_rels.c comp_sim_docno (ties: strcmp on docno, descending; "
        "qrels rel < 0 never counted)",
        note="measure ndcg_cut.k, or ndcg without a cut-off; the ideal list runs to k even past the end of the run",
    ),
    Convention(
        "trec_eval", "P", "precision", uses_pool=True, ties="document id descending", negative="zero", adaptive_k=False,
        integer_grades=True, source=f"{TREC}: m_P.c te_calc_P (rel_so_far / cutoff for cutoffs past the run)",
        note="relevant means grade >= relevance_level (1)",
    ),
    Convention(
        "trec_eval", "recall", "recall", uses_pool=True, ties="document id descending", negative="zero",
        integer_grades=True, source=f"{TREC}: m_recall.c te_calc_recall (rel_so_far / num_rel)",
        note="num_rel counts every judged document with grade >= relevance_level; 0 when there is none",
    ),
    Convention(
        "trec_eval", "map / map_cut", "ap", uses_pool=True, ties="document id descending", negative="zero",
        denominator="R", integer_grades=True,
        source=f"{TREC}: m_map.c te_calc_map, m_map_cut.c te_calc_map_cut (sum of precisions / num_rel)",
        note="an unretrieved relevant document counts as precision 0",
    ),
    Convention(
        "trec_eval", "recip_rank", "rr", uses_pool=True, ties="document id descending", negative="zero",
        integer_grades=True, source=f"{TREC}: m_recip_rank.c te_calc_recip_rank",
    ),
    Convention(
        "ranx", "ndcg", "ndcg", gain="linear", uses_pool=True, zero_idcg=0.0, ties="numba argsort (not guaranteed)",
        negative="zero",
        source=f"{RANX}/ndcg.py: _dcg (jarvelin=True: rel / log2(i + 1)), _idcg (the qrels as the ideal run), "
        "_ndcg (IDCG 0 replaced by 1; DCG is then 0); common.py clean_qrels (grades below rel_lvl dropped)",
        note="ranx calls this form Järvelin's; it is the 1/log2(i+1) discount, not ndcg_teach's discount='jarvelin'. "
        "Runs are sorted with numba's np.argsort (quicksort): tied documents may come back reversed or shuffled "
        "(ranx issue #9)",
    ),
    Convention(
        "ranx", "ndcg_burges", "ndcg", gain="exponential", uses_pool=True, zero_idcg=0.0,
        ties="numba argsort (not guaranteed)", negative="zero",
        source=f"{RANX}/ndcg.py: _dcg (jarvelin=False: (2**rel - 1) / log2(i + 1))",
    ),
    Convention(
        "ranx", "precision", "precision", uses_pool=True, ties="numba argsort (not guaranteed)", negative="zero",
        adaptive_k=False, source=f"{RANX}/precision.py: _precision (hits / k)",
    ),
    Convention(
        "ranx", "average_precision", "ap", uses_pool=True, ties="numba argsort (not guaranteed)", negative="zero",
        denominator="R", source=f"{RANX}/average_precision.py: _average_precision (sum / number of relevant qrels)",
    ),
    Convention(
        "recommenders", "ndcg_at_k", "ndcg", gain="binary", log_base=math.e, uses_pool=True, zero_idcg="nan",
        ties="input order (pandas sort on two columns)", negative="kept",
        source=f"{RECOMMENDERS}: ndcg_at_k (score_type='binary', discfun_type='loge'; ideal from every row of "
        "rating_true), get_top_k_items",
        note="default score_type='binary': every item in the truth table has gain 1, whatever its rating",
    ),
    Convention(
        "recommenders", "ndcg_at_k(score_type='raw')", "ndcg", gain="linear", log_base=math.e, uses_pool=True,
        zero_idcg="nan", ties="input order (pandas sort on two columns)", negative="kept",
        source=f"{RECOMMENDERS}: ndcg_at_k (rel = rating; dcg / idcg is 0 / 0 = NaN when every rating is 0)",
    ),
    Convention(
        "recommenders", "ndcg_at_k(score_type='exp')", "ndcg", gain="exponential", log_base=math.e, uses_pool=True,
        zero_idcg="nan", ties="input order (pandas sort on two columns)", negative="kept",
        source=f"{RECOMMENDERS}: ndcg_at_k (rel = 2 ** rating - 1)",
    ),
    Convention(
        "recommenders", "precision_at_k", "precision", uses_pool=True, ties="input order (pandas sort on two columns)",
        negative="kept", adaptive_k=False, source=f"{RECOMMENDERS}: precision_at_k (hit / k)",
    ),
    Convention(
        "recommenders", "map_at_k", "ap", uses_pool=True, ties="input order (pandas sort on two columns)",
        negative="kept", denominator="min(R, k)",
        source=f"{RECOMMENDERS}: map_at_k (rr / min(actual, k)), _get_reciprocal_rank",
        note="recommenders' map (no k) divides by R, as trec_eval does",
    ),
    Convention(
        "torchmetrics", "RetrievalNormalizedDCG", "ndcg", gain="linear", zero_idcg=0.0,
        ties="averaged over each tied group", negative="kept",
        source=f"{TORCH}/ndcg.py: retrieval_normalized_dcg (ideal from the target itself), _tie_average_dcg "
        "(translated from scikit-learn, torchmetrics 1.2 onwards)",
    ),
    Convention(
        "torchmetrics", "RetrievalMAP", "ap", denominator="hits", ties="torch.topk order",
        source=f"{TORCH}/average_precision.py: retrieval_average_precision (mean over the relevant positions in the top k)",
        note="binary targets only: grade >= 1 is passed as True",
    ),
    Convention(
        "torchmetrics", "RetrievalPrecision", "precision", adaptive_k=False, ties="torch.topk order",
        source=f"{TORCH}/precision.py: retrieval_precision (relevant / top_k)",
        note="binary targets only: grade >= 1 is passed as True",
    ),
    Convention(
        "torchmetrics", "RetrievalPrecision(adaptive_k=True)", "precision", adaptive_k=True, ties="torch.topk order",
        source=f"{TORCH}/precision.py: retrieval_precision (top_k = number of documents when it is larger)",
        note="binary targets only: grade >= 1 is passed as True",
    ),
    Convention(
        "LightGBM", "ndcg", "ndcg", gain="exponential", zero_idcg=1.0, ties="input order (std::stable_sort)",
        integer_grades=True,
        source=f"{LIGHTGBM}/rank_metric.hpp NDCGMetric::Eval (all-negative query: NDCG 1); dcg_calculator.cpp "
        "DefaultLabelGain (2**i - 1), Init (1 / log2(2 + i)), CalMaxDCG (ideal from the query's own labels), CheckLabel",
        note="label_gain can be changed; labels must be non-negative integers",
    ),
    Convention(
        "Evidently", "NDCGKMetric", "ndcg", gain="linear", uses_pool=True, zero_idcg=0.0,
        ties="average rank (pandas rank)", negative="kept",
        source=f"{EVIDENTLY}/metrics/recsys/ndcg_k.py NDCGKMetric.calculate_ndcg (ideal from every row of the user; "
        "0 / 0 filled with 0); calculations/recommender_systems.py collect_dataset",
        note="tied scores get the mean of their ranks, a discount no ndcg_teach tie policy reproduces",
    ),
    Convention(
        "Evidently", "PrecisionTopKMetric", "precision", uses_pool=True, adaptive_k=True, ties="average rank (pandas rank)",
        negative="zero", source=f"{EVIDENTLY}/metrics/recsys/precision_recall_k.py get_precision_and_recall_dict "
        "(tp / min(size, k); target binarised as > 0)",
    ),
    Convention(
        "Evidently", "MAPKMetric", "ap", uses_pool=True, denominator="R", ties="average rank (pandas rank)",
        negative="zero", source=f"{EVIDENTLY}/metrics/recsys/precision_recall_k.py get_precision_and_recall_dict "
        "(sum of precision_i * rel_i / all relevant of the user)",
    ),
)

# The measures of lessons 10-14 (issue 8): where a peer library computes one, how.
CONVENTIONS += (
    Convention(
        "trec_eval", "Rprec", "r_precision", uses_pool=True, cut_off=False, ties="document id descending", negative="zero",
        integer_grades=True, source=f"{TREC}: m_Rprec.c te_calc_Rprec (relevant in the top min(R, retrieved) / R)",
        note="R counts every judged document with grade >= relevance_level; a run shorter than R counts its gap as misses",
    ),
    Convention(
        "trec_eval", "success", "success", ties="document id descending", negative="zero", integer_grades=True,
        source=f"{TREC}: m_success.c te_calc_success (1 if rel_so_far at the cutoff)",
        note="measure success.1,5,10 by default",
    ),
    Convention(
        "trec_eval", "set_F", "f_measure", uses_pool=True, cut_off=False, ties="document id descending", negative="zero",
        integer_grades=True, source=f"{TREC}: m_set_F.c te_calc_set_F ((x + 1) P R / (R + x P) over the whole run)",
        note="no cut-off: it is F over the whole run (k=None); its parameter x is beta ** 2 (set_F.0.25 is beta=0.5)",
    ),
    Convention(
        "trec_eval", "bpref", "bpref", uses_pool=True, cut_off=False, ties="document id descending", negative="unjudged",
        integer_grades=True,
        source=f"{TREC}: m_bpref.c te_calc_bpref (min(nonrel_so_far, R) / min(N, R), unjudged skipped); "
        "form_res_rels.c (a qrels grade < 0 is 'in pool but unjudged')",
        note="no cut-off; N counts judged documents with 0 <= grade < relevance_level",
    ),
    Convention(
        "ranx", "r_precision", "r_precision", uses_pool=True, cut_off=False, ties="numba argsort (not guaranteed)", negative="zero",
        source=f"{RANX}/r_precision.py: _r_precision (_precision at k = number of relevant qrels)",
    ),
    Convention(
        "ranx", "f1", "f_measure", uses_pool=True, ties="numba argsort (not guaranteed)", negative="zero",
        source=f"{RANX}/f1.py: _f1 (hits / k and hits / relevant qrels; k = 0 means the whole run)",
        note="beta is always 1",
    ),
    Convention(
        "ranx", "hit_rate", "success", ties="numba argsort (not guaranteed)", negative="zero",
        source=f"{RANX}/hit_rate.py: _hit_rate (1.0 at the first relevant document in the top k)",
    ),
    Convention(
        "ranx", "bpref", "bpref", uses_pool=True, ties="numba argsort (not guaranteed)", negative="zero",
        source=f"{RANX}/bpref.py: _bpref (unjudged removed; min(non-relevant above, R) / min(R, N))",
        note="divides by min(R, N) without a guard: a query with no judged non-relevant (or no relevant) document "
        "is 0 / 0 there, 0 here",
    ),
    Convention(
        "gdeval", "ERR@k", "err", negative="zero", integer_grades=True, max_grade=4, ties="score, then docno descending",
        source=f"{GDEVAL}: sub err ((2**gain - 1) / 2**$MAX_JUDGMENT, $MAX_JUDGMENT = 4); qrels grades above 4 refused",
        note="ranx's rank_biased_precision is not listed: it multiplies by the raw grade (above 1 with graded "
        "judgements), which no ndcg_teach keyword reproduces",
    ),
)

CONVENTIONS_BY_NAME = {convention.name: convention for convention in CONVENTIONS}


def _metric_key(name):
    """A registry key from ``name``; the names of the first release ("NDCG", "P@k", ...) still work, with a warning."""
    keys = [spec.key for spec in metrics()]
    if name in keys:
        return name
    old = {spec.label.replace("{k}", "k"): spec.key for spec in metrics()}
    old.update({spec.title(None): spec.key for spec in metrics()})
    if isinstance(name, str) and name in old:
        warnings.warn(f"metric={name!r} is now spelled metric={old[name]!r} (the registry key); the old name will stop "
                      "working in the next release.", DeprecationWarning, stacklevel=4)
        return old[name]
    error = ValueError if isinstance(name, str) else TypeError
    raise error(f"metric must be a registry key, one of {', '.join(map(repr, keys))}, or None. Got {shown(name)} instead.")


def _pick(metric):
    if metric is None:
        return CONVENTIONS
    key = _metric_key(metric)
    return tuple(c for c in CONVENTIONS if c.metric == key)


def compare(relevances, k=None, *, pool=None, metric=None):
    """The value every peer library's convention gives for one ranking.

    Parameters
    ----------
    relevances : sequence of float
        Grades of the ranked items, position 1 first.
    pool : sequence of float or None, default None
        Grades of every judged item of the query, retrieved or not; None
        means the list holds every judged item. Conventions that build the
        ideal (or count the relevant items) from the list ignore it.
    k : int or None, default None
        Cut-off; None uses the whole list (and the list's length as P@k's and
        R@k's k).
    metric : str or None, default None
        Keep only the conventions of one metric.

    Returns
    -------
    Table
        One row per convention: the library function, the metric, the value
        (empty when the library refuses the input), the ndcg_teach call that
        gives it, and why a value is missing. ``table[name]`` returns a value.

    See Also
    --------
    facts : the conventions themselves. Lesson 08 asks why libraries disagree.

    Examples
    --------
    A grade-3 item was judged but never retrieved:

    >>> table = compare([3, 0, 2], pool=[3, 0, 2, 3], k=3, metric="ndcg")
    >>> round(table["scikit-learn ndcg_score"], 4)  # (3 + 2/2) / (3 + 2/log2(3)): ideal [3, 2, 0] from the list
    0.9386
    >>> round(table["trec_eval ndcg_cut"], 4)  # (3 + 2/2) / (3 + 3/log2(3) + 2/2): ideal [3, 3, 2] from every judged item
    0.6788
    >>> round(table["LightGBM ndcg"], 4)  # (7 + 3/2) / (7 + 3/log2(3)): exponential gain, ideal from the list
    0.9558
    >>> print(table.rows[1][3])  # how to get trec_eval's number from ndcg_teach
    ndcg(relevances, k=3, pool=pool, negative='zero')
    """
    grades = check_relevances(relevances, negative="zero")
    check_k(k)
    if pool is not None:
        check_pool(pool, grades, negative="zero")
    rows = []
    for convention in _pick(metric):
        refusal = convention.refuses(relevances, pool)
        value = None if refusal else convention.value(relevances, pool, k)
        label = convention.spec.title(k)
        if not refusal and convention.spec.explain is not None:
            # The trace names what was computed: P over a whole 3-item list is P@3, NDCG without a cut-off is NDCG.
            keywords = convention.keywords(relevances, pool, k)[1]
            label = convention.spec.explain(relevances, **keywords).metric
        rows.append((convention.name, label, value, convention.call(relevances, pool, k),
                     convention.refuses(relevances, pool, language=None)))
    caption = _("relevances {relevances}").format(relevances=list(relevances)) + (
        _(", pool {pool}").format(pool=list(pool)) if pool is not None else "") + (
        _(", k = {k}").format(k=k) if k is not None else "")
    headers = ("convention", "metric", "value", "ndcg_teach call", "refused because")
    shown_headers = (_("convention"), _("metric"), _("value"), _("ndcg_teach call"), _("refused because"))
    return Table(caption, headers, tuple(rows), shown_headers=shown_headers)


def facts(metric=None):
    """The conventions as a table: one row per library function, with its source.

    Parameters
    ----------
    metric : str or None, default None
        Keep only the conventions of one metric.

    Returns
    -------
    Table

    See Also
    --------
    compare : the value each convention gives for one ranking. Lesson 08.

    Examples
    --------
    >>> table = facts("ap")
    >>> [row[0] for row in table.rows]
    ['trec_eval map / map_cut', 'ranx average_precision', 'recommenders map_at_k', 'torchmetrics RetrievalMAP', 'Evidently MAPKMetric']
    >>> table["recommenders map_at_k"][table.headers.index("AP denominator")]
    'min(R, k)'
    """
    headers = ("convention", "metric", "gain", "log base", "ideal / R from", "IDCG = 0", "ties", "negative grades",
               "P@k short list", "AP denominator", "source")
    shown_headers = (_("convention"), _("metric"), _("gain"), _("log base"), _("ideal / R from"), _("IDCG = 0"), _("ties"),
                     _("negative grades"), _("P@k short list"), _("AP denominator"), _("source"))
    rows = []
    for c in _pick(metric):
        short = None if c.adaptive_k is None else (_("divide by list length") if c.adaptive_k else _("divide by k"))
        takes = c.spec.keywords
        judged = (_("every judged item") if c.uses_pool else _("the list")) if {"pool", "n_relevant"} & set(takes) else None
        rows.append((c.name, c.spec.label.replace("{k}", "k"), c.gain, c.log_base if "log_base" in takes else None, judged,
                     None if c.zero_idcg is None else str(c.zero_idcg), c.ties, c.negative, short, c.denominator, c.source))
    return Table(_("What each library computes, in ndcg_teach's terms"), headers, tuple(rows), shown_headers=shown_headers)
