"""What each peer library computes, one :class:`~.convention.Convention` per library function.

Each records the choices that decide the function's value and the source file
each fact was read from. The scikit-learn and trec_eval rows are checked
against the real libraries in ``tests/test_conventions.py``; the others
against hand-computed cases built from the formulas in their source.
Lesson 08 shows them side by side (:func:`ndcg_teach.conventions.compare`).
"""

import math

from .convention import Convention

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
