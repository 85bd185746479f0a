"""ndcg_teach.core.conventions: each recipe gives what its library gives.

scikit-learn and trec_eval are installed in the dev environment, so their
recipes are checked against the real libraries on random rankings. The other
libraries are not installed; their recipes are checked on small cases worked
out by hand from the formulas in their source (and, for torchmetrics, from the
examples in its own docstrings).
"""

import json
import math
from importlib import resources

import numpy as np
import pytest
import pytrec_eval
from sklearn.metrics import dcg_score, ndcg_score

import ndcg_teach as nt
from ndcg_teach.core.conventions import CONVENTIONS, CONVENTIONS_BY_NAME, Table, binary_gain, compare, facts, peers

TOL = 1e-12
LOG2_3 = math.log2(3)


def value(name, relevances, pool=None, k=None):
    return CONVENTIONS_BY_NAME[name].value(relevances, pool=pool, k=k)


def test_every_convention_is_described_and_sourced():
    names = [c.name for c in CONVENTIONS]
    assert len(names) == len(set(names))
    for convention in CONVENTIONS:
        assert convention.metric in [spec.key for spec in nt.metrics()]
        assert convention.source and convention.ties
        assert convention.negative in ("raise", "zero", "kept", "unjudged")
        if convention.metric == "precision":
            assert convention.adaptive_k in (False, True)
        if convention.metric == "ap":
            assert convention.denominator in ("hits", "R", "min(R, k)")
        if convention.metric == "ndcg":
            assert convention.gain in ("linear", "exponential", "binary") and convention.zero_idcg is not None
    assert {c.library for c in CONVENTIONS} == {"scikit-learn", "trec_eval", "ranx", "recommenders", "torchmetrics", "LightGBM", "Evidently",
                                                "gdeval", "ndeval"}


# The two libraries installed here ---------------------------------------------


def test_sklearn_recipes_equal_sklearn_on_random_rankings():
    rng = np.random.default_rng(20240620)
    checked = 0
    for _ in range(300):
        n = int(rng.integers(2, 10))
        relevances = rng.integers(0, 5, size=n).tolist() if rng.random() < 0.6 else np.round(rng.uniform(0, 3, size=n), 2).tolist()
        k = None if rng.random() < 0.3 else int(rng.integers(1, n + 3))
        order = [list(range(n, 0, -1))]
        assert value("scikit-learn ndcg_score", relevances, k=k) == pytest.approx(ndcg_score([relevances], order, k=k), abs=TOL)
        assert value("scikit-learn dcg_score", relevances, k=k) == pytest.approx(dcg_score([relevances], order, k=k), abs=TOL)
        checked += 1
    assert checked == 300


def test_sklearn_recipes_refuse_what_sklearn_refuses_or_cannot_be_copied():
    with pytest.raises(ValueError, match="negative"):
        ndcg_score([[2, -1]], [[2, 1]])
    with pytest.raises(ValueError, match="refuses negative grades"):
        value("scikit-learn ndcg_score", [2, -1])
    # dcg_score adds the negative gain; ndcg_teach says it cannot reproduce that.
    assert dcg_score([[2, -1]], [[2, 1]]) == pytest.approx(2 - 1 / LOG2_3, abs=TOL)
    with pytest.raises(ValueError, match="keeps negative grades"):
        value("scikit-learn dcg_score", [2, -1])


def random_trec_query(rng):
    judged = [f"d{j}" for j in rng.choice(40, size=int(rng.integers(1, 10)), replace=False)]
    qrel = {doc: int(rng.choice([-1, 0, 0, 1, 2, 3])) for doc in judged}
    retrieved = [str(doc) for doc in rng.choice(judged, size=int(rng.integers(1, len(judged) + 1)), replace=False)]
    retrieved += [f"u{j}" for j in range(int(rng.integers(0, 3)))]
    rng.shuffle(retrieved)
    return qrel, retrieved


def test_trec_eval_recipes_equal_trec_eval_on_random_queries():
    rng = np.random.default_rng(20240621)
    queries = {f"q{i}": random_trec_query(rng) for i in range(250)}
    cutoffs = ",".join(map(str, range(1, 13)))
    measures = {"ndcg", f"ndcg_cut.{cutoffs}", "map", f"map_cut.{cutoffs}", f"P.{cutoffs}", f"recall.{cutoffs}", "recip_rank"}
    runs = {qid: {doc: float(len(ranking) - i) for i, doc in enumerate(ranking)} for qid, (_, ranking) in queries.items()}
    results = pytrec_eval.RelevanceEvaluator({qid: q for qid, (q, _) in queries.items()}, measures).evaluate(runs)
    pairs = []
    for qid, (qrel, ranking) in queries.items():
        relevances, pool, got = [qrel.get(doc, 0) for doc in ranking], list(qrel.values()), results[qid]
        pairs.append((value("trec_eval ndcg_cut", relevances, pool), got["ndcg"]))
        pairs.append((value("trec_eval map / map_cut", relevances, pool), got["map"]))
        pairs.append((value("trec_eval recip_rank", relevances, pool), got["recip_rank"]))
        for k in range(1, 13):
            pairs.append((value("trec_eval ndcg_cut", relevances, pool, k), got[f"ndcg_cut_{k}"]))
            pairs.append((value("trec_eval map / map_cut", relevances, pool, k), got[f"map_cut_{k}"]))
            pairs.append((value("trec_eval P", relevances, pool, k), got[f"P_{k}"]))
            pairs.append((value("trec_eval recall", relevances, pool, k), got[f"recall_{k}"]))
    bad = [(ours, theirs) for ours, theirs in pairs if abs(ours - theirs) > TOL]
    assert len(pairs) == 250 * 51
    assert not bad, bad[:3]


def test_trec_eval_recipes_of_the_later_lessons_equal_trec_eval_on_random_queries():
    rng = np.random.default_rng(20261124)
    queries = {f"q{i}": random_trec_query(rng) for i in range(300)}
    measures = {"Rprec", "success.1,2,3,5,10", "set_F", "bpref"}
    runs = {qid: {doc: float(len(ranking) - i) for i, doc in enumerate(ranking)} for qid, (_, ranking) in queries.items()}
    results = pytrec_eval.RelevanceEvaluator({qid: q for qid, (q, _) in queries.items()}, measures).evaluate(runs)
    pairs, refused = [], 0
    for qid, (qrel, ranking) in queries.items():
        got = results[qid]
        pool = list(qrel.values())
        # Documents outside the qrels are unjudged: bpref skips them, the others read them as not relevant.
        relevances = [qrel.get(doc, 0) for doc in ranking]
        pairs.append((value("trec_eval Rprec", relevances, pool), got["Rprec"]))
        pairs.append((value("trec_eval set_F", relevances, pool), got["set_F"]))
        pairs += [(value("trec_eval success", relevances, pool, k), got[f"success_{k}"]) for k in (1, 2, 3, 5, 10)]
        judged = [qrel[doc] for doc in ranking if doc in qrel]
        if CONVENTIONS_BY_NAME["trec_eval bpref"].refuses(judged, pool):
            refused += 1  # a grade -1 is "in the pool but unjudged" there: None here, which compare() cannot take
            continue
        pairs.append((value("trec_eval bpref", judged, pool), got["bpref"]))
    bad = [(ours, theirs) for ours, theirs in pairs if abs(ours - theirs) > TOL]
    assert len(pairs) == 300 * 7 + 300 - refused and 0 < refused < 300
    assert not bad, bad[:3]


def test_trec_eval_bpref_recipe_explains_why_it_refuses_negative_grades():
    with pytest.raises(ValueError, match=r"reads a negative grade as an unjudged item: write None for it"):
        value("trec_eval bpref", [1, -1, 0])


def test_trec_eval_recipes_refuse_fractional_grades_as_trec_eval_does():
    with pytest.raises(TypeError, match="integer"):
        pytrec_eval.RelevanceEvaluator({"q": {"a": 1.5}}, {"ndcg"})
    with pytest.raises(ValueError, match="whole-number grades"):
        value("trec_eval ndcg_cut", [1.5, 0])


# Libraries not installed here: hand-computed cases from their formulas ----------

RANKED, POOL = [3, 0, 2], [3, 0, 2, 3]  # a grade-3 item was judged but never retrieved
LINEAR_POOL_NDCG = (3 + 2 / 2) / (3 + 3 / LOG2_3 + 2 / 2)
EXPONENTIAL_POOL_NDCG = (7 + 3 / 2) / (7 + 7 / LOG2_3 + 3 / 2)


def test_ranx_recipes():
    assert value("ranx ndcg", RANKED, POOL, k=3) == pytest.approx(LINEAR_POOL_NDCG, abs=TOL)
    assert value("ranx ndcg_burges", RANKED, POOL, k=3) == pytest.approx(EXPONENTIAL_POOL_NDCG, abs=TOL)
    assert value("ranx ndcg", [0, 0], [0, 0]) == 0.0  # IDCG 0 is replaced by 1 and DCG is 0
    assert value("ranx precision", [1, 0], k=5) == pytest.approx(1 / 5, abs=TOL)
    assert value("ranx average_precision", [1, 0, 1], [1, 0, 1, 1]) == pytest.approx((1 + 2 / 3) / 3, abs=TOL)


def test_ranx_recipes_of_the_later_lessons():
    # r_precision: _precision at k = R (3 relevant qrels): 2 of the top 3.
    assert value("ranx r_precision", [1, 0, 1, 1], [1, 0, 1, 1]) == pytest.approx(2 / 3, abs=TOL)
    # f1@2: P = 1/2, R = 1/3 (the pool holds 3 relevant): 2 P R / (P + R).
    assert value("ranx f1", [1, 0, 1], [1, 0, 1, 1], k=2) == pytest.approx(2 * (1 / 2) * (1 / 3) / (1 / 2 + 1 / 3), abs=TOL)
    assert value("ranx hit_rate", [0, 0, 2], k=2) == 0.0 and value("ranx hit_rate", [0, 0, 2], k=3) == 1.0
    # bpref: R = 2, N = 2; the second relevant item has 1 non-relevant above it: (1 + (1 - 1/2)) / 2.
    assert value("ranx bpref", [1, 0, 1, 0]) == pytest.approx(0.75, abs=TOL)


def test_gdeval_err_recipe_uses_a_fixed_top_grade_of_four():
    # gdeval: stop probability (2**g - 1) / 16 whatever the largest grade given; [2, 0, 1] -> 3/16 + (13/16)(1/16)/3.
    assert value("gdeval ERR@k", [2, 0, 1], k=3) == pytest.approx(3 / 16 + 13 / 16 / 16 / 3, abs=TOL)
    assert CONVENTIONS_BY_NAME["gdeval ERR@k"].call([2, 0, 1], k=3) == (
        "expected_reciprocal_rank(relevances, k=3, max_grade=4, negative='zero')")
    with pytest.raises(ValueError, match=r"gdeval ERR@k takes grades up to 4 only\. Got relevances=\[5, 0\] instead\."):
        value("gdeval ERR@k", [5, 0])
    assert compare([5, 2, 3], metric="err")["gdeval ERR@k"] is None


def test_recommenders_recipes():
    # Default score_type="binary": gain 1 for each truth item; discfun_type="loge" cancels in the ratio.
    binary = (1 / math.log(2) + 1 / math.log(4)) / (1 / math.log(2) + 1 / math.log(3) + 1 / math.log(4))
    assert value("recommenders ndcg_at_k", RANKED, POOL, k=3) == pytest.approx(binary, abs=TOL)
    assert value("recommenders ndcg_at_k(score_type='raw')", RANKED, POOL, k=3) == pytest.approx(LINEAR_POOL_NDCG, abs=TOL)
    assert value("recommenders ndcg_at_k(score_type='exp')", RANKED, POOL, k=3) == pytest.approx(EXPONENTIAL_POOL_NDCG, abs=TOL)
    assert math.isnan(value("recommenders ndcg_at_k(score_type='raw')", [0, 0], [0, 0]))  # 0 / 0 in pandas
    # map_at_k: precisions at the hits in the top k, over min(R, k) = min(3, 2).
    assert value("recommenders map_at_k", [1, 0, 1], [1, 0, 1, 1], k=2) == pytest.approx(1 / 2, abs=TOL)
    assert value("recommenders precision_at_k", [1, 0], k=5) == pytest.approx(1 / 5, abs=TOL)


def test_torchmetrics_recipes_reproduce_torchmetrics_docstring_examples():
    # retrieval_normalized_dcg(preds=[.1, .2, .3, 4, 70], target=[10, 0, 0, 1, 5]) -> tensor(0.6957)
    preds, target = [0.1, 0.2, 0.3, 4, 70], [10, 0, 0, 1, 5]
    ranked = [t for _, t in sorted(zip(preds, target), reverse=True)]
    assert round(value("torchmetrics RetrievalNormalizedDCG", ranked), 4) == 0.6957
    # retrieval_average_precision(preds=[0.2, 0.3, 0.5], target=[True, False, True]) -> tensor(0.8333)
    assert round(value("torchmetrics RetrievalMAP", [1, 0, 1]), 4) == 0.8333
    # retrieval_precision(same, top_k=2) -> tensor(0.5000)
    assert value("torchmetrics RetrievalPrecision", [1, 0, 1], k=2) == 0.5
    assert value("torchmetrics RetrievalPrecision", [1, 0], k=5) == pytest.approx(1 / 5, abs=TOL)
    assert value("torchmetrics RetrievalPrecision(adaptive_k=True)", [1, 0], k=5) == 0.5
    # AP over the relevant items found, whatever the pool holds.
    assert value("torchmetrics RetrievalMAP", [1, 0, 1], [1, 0, 1, 1]) == pytest.approx((1 + 2 / 3) / 2, abs=TOL)


def test_lightgbm_recipe():
    assert value("LightGBM ndcg", [0, 0, 0]) == 1.0  # "if all doc in this query are all negative, let its NDCG=1"
    assert value("LightGBM ndcg", [2, 0, 1]) == pytest.approx((3 + 1 / 2) / (3 + 1 / LOG2_3), abs=TOL)
    assert value("LightGBM ndcg", RANKED, POOL, k=3) == value("LightGBM ndcg", RANKED, k=3)  # the query's own labels
    with pytest.raises(ValueError, match="whole-number"):
        value("LightGBM ndcg", [1.5, 0])
    with pytest.raises(ValueError, match="refuses negative"):
        value("LightGBM ndcg", [1, -1])


def test_evidently_recipes():
    assert value("Evidently NDCGKMetric", RANKED, POOL, k=3) == pytest.approx(LINEAR_POOL_NDCG, abs=TOL)
    assert value("Evidently NDCGKMetric", [0, 0], [0, 0]) == 0.0  # 0 / 0 filled with 0
    assert value("Evidently PrecisionTopKMetric", [1, 0], k=5) == 0.5  # tp / min(size, k)
    assert value("Evidently MAPKMetric", [1, 0, 1], [1, 0, 1, 1]) == pytest.approx((1 + 2 / 3) / 3, abs=TOL)


def test_binary_gain_counts_relevant_grades_once():
    assert binary_gain(np.array([0.0, 1.0, 4.0, 0.5])).tolist() == [0.0, 1.0, 1.0, 0.0]


# compare() and facts() -----------------------------------------------------------


def test_compare_shows_every_convention_with_its_value_and_call():
    table = compare(RANKED, pool=POOL, k=3)
    assert isinstance(table, Table)
    # A list of grades feeds every convention but the diversity ones (ndeval's), which read grades per subtopic.
    assert [row[0] for row in table.rows] == [c.name for c in CONVENTIONS if c.library != "ndeval"]
    for row in table.rows:
        name, _, got, call, refusal = row
        assert refusal == "" and got == CONVENTIONS_BY_NAME[name].value(RANKED, POOL, 3)
        assert call.startswith(CONVENTIONS_BY_NAME[name].spec.function.__name__ + "(relevances")
    assert table["scikit-learn ndcg_score"] == pytest.approx((3 + 1) / (3 + 2 / LOG2_3), abs=TOL)
    assert table["trec_eval ndcg_cut"] == pytest.approx(LINEAR_POOL_NDCG, abs=TOL)
    text = str(table)
    assert text.splitlines()[0] == "relevances [3, 0, 2], pool [3, 0, 2, 3], k = 3"
    assert "trec_eval ndcg_cut" in text and "ndcg(relevances, k=3, pool=pool, negative='zero')" in text
    html = table._repr_html_()
    assert html.count("<tr>") == len(table.rows) + 1 and "ndcg-trace" in html and "<style>" in html


def test_compare_design_reference_value():
    assert compare([5, 2, 3], k=3)["scikit-learn ndcg_score"] == pytest.approx(0.98341147226327856, abs=TOL)
    assert compare([5, 2, 3], k=3)["trec_eval ndcg_cut"] == pytest.approx(0.98341147226327856, abs=TOL)


def test_compare_without_a_pool_only_the_conventions_themselves_differ():
    # With no unretrieved judged item, list and pool conventions agree on linear NDCG.
    table = compare([3, 0, 2], k=3, metric="ndcg")
    linear = {row[0]: row[2] for row in table.rows if CONVENTIONS_BY_NAME[row[0]].gain == "linear"}
    assert len(set(round(v, 12) for v in linear.values())) == 1


def test_compare_marks_refusals_instead_of_guessing():
    table = compare([2, -1, 1], metric="ndcg")
    assert table["scikit-learn ndcg_score"] is None
    assert table["trec_eval ndcg_cut"] == pytest.approx((2 + 1 / 2) / (2 + 1 / LOG2_3), abs=TOL)
    reasons = {row[0]: row[4] for row in table.rows}
    assert reasons["LightGBM ndcg"] == "refuses negative grades"
    assert reasons["recommenders ndcg_at_k"].startswith("keeps negative grades")
    assert "refuses negative grades" in str(table)


def test_compare_filters_by_metric_and_checks_its_input():
    assert {row[1] for row in compare([1, 0, 1], k=2, metric="ap").rows} == {"AP@2"}
    assert {row[1] for row in compare([1, 0, 1], metric="precision").rows} == {"P@3"}
    with pytest.raises(ValueError, match=r"metric must be a registry key, one of 'ndcg', .* or None\. Got 'MRR' instead\."):
        compare([1, 0], metric="MRR")
    with pytest.warns(DeprecationWarning, match=r"metric='NDCG' is now spelled metric='ndcg'"):
        assert compare([1, 0], metric="NDCG").rows == compare([1, 0], metric="ndcg").rows
    # Nothing retrieved: 0 everywhere, except where a convention says what an empty ideal is worth.
    empty = {row[0]: row[2] for row in compare([]).rows}
    assert empty["trec_eval map / map_cut"] == 0.0 and empty["LightGBM ndcg"] == 1.0
    assert math.isnan(empty["recommenders ndcg_at_k"])
    with pytest.raises(ValueError, match="pool must hold"):
        compare([3, 1], pool=[3])
    with pytest.raises(KeyError, match="no row named"):
        compare([1, 0])["sklearn"]


def test_facts_table_names_gain_ideal_zero_idcg_ties_and_source():
    table = facts()
    headers = table.headers
    row = table["trec_eval ndcg_cut"]
    assert row[headers.index("ideal / R from")] == "every judged item"
    assert row[headers.index("ties")] == "document id descending"
    assert "m_ndcg_cut.c" in row[headers.index("source")]
    assert table["LightGBM ndcg"][headers.index("IDCG = 0")] == "1.0"
    assert table["scikit-learn ndcg_score"][headers.index("ideal / R from")] == "the list"
    assert table["recommenders map_at_k"][headers.index("AP denominator")] == "min(R, k)"
    assert table["Evidently PrecisionTopKMetric"][headers.index("P@k short list")] == "divide by list length"
    assert len(facts("ndcg").rows) == sum(c.metric == "ndcg" for c in CONVENTIONS)
    assert "What each library computes" in str(table) and "<table>" in table._repr_html_()


@pytest.mark.parametrize("name", ["trec_eval Rprec", "trec_eval set_F", "trec_eval bpref", "ranx r_precision"])
def test_a_measure_without_a_cut_off_ignores_k_and_is_labelled_without_one(name):
    # trec_eval's Rprec, set_F and bpref (and ranx's r_precision) score the whole run whatever k a learner passes.
    ranked, pool = [1, 0, 1, 1, 0], [1, 0, 1, 1, 0, 1]
    assert value(name, ranked, pool, k=2) == value(name, ranked, pool)
    row = next(row for row in compare(ranked, k=2, pool=pool).rows if row[0] == name)
    assert "@" not in row[1] and "k=" not in row[3], row


# The table is data (peers.json); the reader refuses a row it cannot trust, naming the row and the field ----------

ROW = {"library": "lib", "function": "f", "metric": "ndcg", "source": "lib/f.py", "gain": "linear", "zero_idcg": 0.0}
BINARY = {"library": "lib", "function": "f", "metric": "precision", "source": "lib/f.py", "adaptive_k": False}


def read_rows(*rows):
    return peers.read({"conventions": list(rows)})


def test_the_data_file_ships_with_the_package_and_reads_into_the_table():
    text = resources.files("ndcg_teach.core.conventions").joinpath(peers.DATA).read_text(encoding="utf-8")
    assert peers.read(json.loads(text)) == CONVENTIONS
    assert read_rows(ROW)[0] == nt.core.conventions.Convention(**ROW)
    # A field left out takes the Convention default; a whole number is a number (log_base 2, zero_idcg 1).
    lightgbm = read_rows({**ROW, "gain": "binary", "zero_idcg": 1, "log_base": 10})[0]
    assert lightgbm.settings() == {"gain": binary_gain, "log_base": 10, "zero_idcg": 1}
    assert lightgbm.value([1, 0, 0]) == 1.0


@pytest.mark.parametrize(("row", "message"), [
    ({**ROW, "metric": "mrr"}, r"row 1 \(lib f\): field 'metric' must be a registry key, one of 'ndcg', .* Got 'mrr' instead\."),
    ({**ROW, "gian": "linear"}, r"row 1 \(lib f\): unknown field 'gian'; the fields are library, function, metric"),
    ({key: value for key, value in ROW.items() if key != "source"}, r"row 1 \(lib f\): field 'source' is required"),
    ({**ROW, "gain": "cubic"}, r"field 'gain' must be one of 'linear', 'exponential', 'binary'\. Got 'cubic' instead\."),
    ({**ROW, "log_base": "two"}, r"field 'log_base' must be a value of ndcg's log_base .* Got 'two' instead\."),
    ({**ROW, "log_base": True}, r"field 'log_base' must be a value of ndcg's log_base .* Got True instead\."),
    ({**ROW, "log_base": 1}, r"row 1 \(lib f\): ndcg refuses this row's settings .*'log_base': 1.*log_base"),
    ({**ROW, "zero_idcg": "maybe"}, r"row 1 \(lib f\): ndcg refuses this row's settings .*zero_idcg"),
    ({**BINARY, "gain": "linear"}, r"field 'gain' is not a convention of metric 'precision' "
                                                       r"\(its conventions: adaptive_k\)\. Got gain='linear' instead\."),
    ({**BINARY, "adaptive_k": "yes"}, r"field 'adaptive_k' must be one of False, True\. Got 'yes' instead\."),
    ({**BINARY, "adaptive_k": 1}, r"field 'adaptive_k' must be one of False, True\. Got 1 instead\."),
    ({**ROW, "negative": "ignore"}, r"field 'negative' must be one of 'raise', 'zero', 'kept', 'unjudged'\. Got 'ignore'"),
    ({**ROW, "denominator": "k"}, r"field 'denominator' must be one of 'hits', 'R', 'min\(R, k\)'\. Got 'k' instead\."),
    ({**ROW, "uses_pool": "yes"}, r"field 'uses_pool' must be true or false\. Got 'yes' instead\."),
    ({**ROW, "note": 3}, r"field 'note' must be a string\. Got 3 instead\."),
    (["lib", "f"], r"row 1 must be an object of fields\. Got \['lib', 'f'\] instead\."),
])
def test_a_row_that_cannot_be_trusted_is_refused_naming_the_row_and_the_field(row, message):
    with pytest.raises(peers.ConventionError, match=message):
        read_rows(row)
    # The row is named by its place in the file, after the rows that were fine.
    with pytest.raises(ValueError, match=r"peers\.json row 3"):
        read_rows(ROW, {**ROW, "function": "g"}, row)


def test_the_file_itself_must_hold_a_list_of_distinct_rows():
    with pytest.raises(peers.ConventionError, match=r"peers\.json must be an object with the keys about, conventions\."):
        peers.read([ROW])
    with pytest.raises(peers.ConventionError, match=r"'conventions' must be a list of rows\. Got 'ROW' instead\."):
        peers.read({"conventions": "ROW"})
    with pytest.raises(peers.ConventionError, match=r"row 2: 'lib f' is listed twice \(rows 1 and 2\)\."):
        read_rows(ROW, ROW)
