"""Bad input: every refusal names the parameter, the requirement and what was given."""

import math

import numpy as np
import pytest

import ndcg_teach as nt

# Every registered metric and its explain twin refuse bad grades the same way.
PER_LIST = [
    pytest.param(function, id=function.__name__)
    for spec in nt.metrics() if "subtopics" not in spec.needs  # tables of grades: test_diversity.py
    for function in (spec.function, spec.explain) if function is not None
]

@pytest.mark.parametrize("spec", nt.metrics(), ids=lambda spec: spec.key)
def test_an_empty_ranking_scores_zero(spec):
    # A query for which the system returned nothing: trec_eval -c, ranx and ir_measures score it 0.
    assert spec.function([]) == 0.0
    if spec.explain is not None:
        trace = spec.explain([])
        assert trace.value == 0.0 and trace.rows == ()


def test_an_empty_ranking_keeps_the_ideal_of_its_judged_items():
    assert nt.idcg([], k=2, pool=[2, 1]) == pytest.approx(2 + 1 / math.log2(3), abs=1e-15)
    assert nt.ndcg([], k=2, pool=[2, 1]) == 0.0
    assert nt.ndcg([], zero_idcg=1.0) == 1.0  # nothing relevant and nothing retrieved: zero_idcg decides
    assert nt.recall_at_k([], 5, n_relevant=3) == 0.0


@pytest.mark.parametrize("metric", PER_LIST)
@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
def test_non_finite_grades_are_refused(metric, bad):
    with pytest.raises(ValueError, match=r"relevances must be finite numbers; position 2 holds .* Got \[3, .*\] instead\."):
        metric([3, bad, 1])


@pytest.mark.parametrize("metric", PER_LIST)
def test_negative_grade_is_refused_and_explained(metric):
    with pytest.raises(ValueError, match=r"position 3 holds -1\. trec_eval reads a negative grade as 'judged non-relevant' "
                                         r"\(gain 0\): pass negative='zero' to do the same\. Got \[3, 2, -1\] instead\."):
        metric([3, 2, -1])


def test_negative_zero_reads_negative_as_non_relevant():
    assert nt.ndcg([3, -2, 1], negative="zero") == nt.ndcg([3, 0, 1])
    assert nt.average_precision([-1, 1], negative="zero") == 0.5


def test_negative_keyword_is_checked():
    with pytest.raises(ValueError, match=r"negative must be one of 'raise', 'zero'\. Got 'clip' instead\."):
        nt.dcg([1, 2], negative="clip")


@pytest.mark.parametrize("metric", PER_LIST)
def test_strings_are_refused(metric):
    with pytest.raises(TypeError, match=r"relevances must hold numbers \(relevance grades\), not str\. Got \['a', 'b'\] instead\."):
        metric(["a", "b"])


@pytest.mark.parametrize("value", ["53", b"53", 5, None])
def test_a_single_value_is_not_a_list(value):
    with pytest.raises(TypeError, match=r"relevances must be a list or 1-D array of relevance grades\. Got .* instead\."):
        nt.ndcg(value)


@pytest.mark.parametrize("nested", [[[1, 2], [3, 4]], [[1, 2], [3]], [1, [2, 3]]])
def test_nested_lists_are_refused(nested):
    with pytest.raises(ValueError, match=r"relevances must be a (flat \(1-D\) list of grades|flat list of relevance grades, not nested lists).* Got .* instead\."):
        nt.dcg(nested)


def test_mixed_types_are_refused():
    with pytest.raises(TypeError, match=r"relevances must hold numbers \(relevance grades\), not str\. Got \[1, '2'\] instead\."):
        nt.dcg([1, "2"])


def test_complex_grades_are_refused():
    with pytest.raises(TypeError, match=r"relevances must hold real numbers"):
        nt.dcg([1 + 2j])


@pytest.mark.parametrize("k", [0, -1, -10])
def test_k_must_be_positive(k):
    with pytest.raises(ValueError, match=rf"k must be a positive integer \(the cut-off: how many top positions count\), or None for the whole list\. Got {k} instead\."):
        nt.ndcg([3, 2, 1], k=k)


@pytest.mark.parametrize("k, shown", [(2.0, r"2\.0"), (2.5, r"2\.5"), (True, "True"), (False, "False"), ("3", "'3'"), (np.bool_(True), ".*True.*")])
def test_k_must_be_an_integer(k, shown):
    with pytest.raises(TypeError, match=rf"k must be a positive integer .* Got {shown} instead\."):
        nt.dcg([3, 2, 1], k=k)


def test_numpy_integer_k_is_accepted():
    assert nt.dcg([3, 2, 1], k=np.int64(2)) == nt.dcg([3, 2, 1], k=2)


@pytest.mark.parametrize("metric", [nt.precision_at_k, nt.recall_at_k])
def test_k_none_means_the_whole_list(metric):
    assert metric([1, 0, 1]) == metric([1, 0, 1], 3)


@pytest.mark.parametrize("threshold, error", [(0, ValueError), (-1, ValueError), (math.nan, ValueError), (math.inf, ValueError),
                                              ("1", TypeError), (True, TypeError)])
def test_threshold_must_be_a_positive_number(threshold, error):
    with pytest.raises(error, match=r"threshold must be a positive finite number: the smallest grade that counts as relevant \(grade 0 never does\)\. Got .* instead\."):
        nt.precision_at_k([1, 0], 1, threshold=threshold)


def test_n_relevant_cannot_be_below_what_the_list_holds():
    with pytest.raises(ValueError, match=r"n_relevant must be at least the number of relevant items already in the list \(3\)\. Got 2 instead\."):
        nt.recall_at_k([1, 1, 1], 2, n_relevant=2)


@pytest.mark.parametrize("n_relevant, error", [(-1, ValueError), (2.0, TypeError), (True, TypeError), ("3", TypeError)])
def test_n_relevant_must_be_a_count(n_relevant, error):
    with pytest.raises(error, match=r"n_relevant must be a non-negative integer: how many relevant items the query has in total\. Got .* instead\."):
        nt.average_precision([1, 0], n_relevant=n_relevant)


def test_pool_must_contain_the_listed_grades():
    with pytest.raises(ValueError, match=r"pool must hold the grades of every judged item of the query, so it must contain each positive grade "
                                         r"of relevances; grade 5 appears 2 time\(s\) in relevances but 1 in pool\. Got pool=\[5, 3, 2\] instead\."):
        nt.ndcg([5, 5, 2], pool=[5, 3, 2])


def test_pool_may_leave_out_unjudged_zero_grades():
    assert nt.ndcg([3, 0, 2], pool=[3, 2, 1]) == pytest.approx(nt.dcg([3, 0, 2]) / nt.dcg([3, 2, 1]), abs=1e-15)


def test_pool_is_itself_validated():
    with pytest.raises(ValueError, match=r"pool must be finite numbers"):
        nt.idcg([1], pool=[1, math.nan])


@pytest.mark.parametrize("gain", ["exp", "log"])
def test_gain_must_be_a_known_name(gain):
    with pytest.raises(ValueError, match=r"gain must be one of 'linear', 'exponential'\. Got .* instead\."):
        nt.dcg([1, 2], gain=gain)


@pytest.mark.parametrize("gain", [2, None])
def test_gain_must_be_a_name_a_mapping_or_a_function(gain):
    with pytest.raises(TypeError, match=r"gain must be 'linear', 'exponential', a \{grade: gain\} mapping or a function\. Got .* instead\."):
        nt.dcg([1, 2], gain=gain)


def test_gain_mapping_must_name_every_grade_and_give_valid_gains():
    with pytest.raises(ValueError, match=r"gain, when a mapping, must give a gain for every grade; grade 2 has none\. Got \{1: 4\} instead\."):
        nt.dcg([1, 2], gain={1: 4})
    with pytest.raises(ValueError, match=r"gain, when a mapping, must map grades to finite, non-negative gains\."):
        nt.dcg([1, 2], gain={1: 4, 2: -1})


def test_gain_function_must_return_valid_gains():
    with pytest.raises(ValueError, match=r"gain, when a function, must return one finite, non-negative gain per grade\."):
        nt.dcg([1, 2], gain=lambda g: -g)
    with pytest.raises(ValueError, match=r"gain, when a function, must return one finite, non-negative gain per grade\."):
        nt.dcg([1, 2], gain=lambda g: g.sum())


def test_gain_function_that_raises_is_reported():
    def broken(grades):
        raise TypeError("nope")

    with pytest.raises(ValueError, match=r"gain, when a function, must map an array of grades to numbers; it raised TypeError\('nope'\)"):
        nt.dcg([1, 2], gain=broken)


@pytest.mark.parametrize("discount, error", [("log", ValueError), ("log10", ValueError), (None, TypeError), (2, TypeError)])
def test_discount_must_be_known(discount, error):
    with pytest.raises(error, match=r"discount must be one of 'log2', 'jarvelin'\. Got .* instead\."):
        nt.dcg([1, 2], discount=discount)


@pytest.mark.parametrize("log_base, error", [(1, ValueError), (0.5, ValueError), (-2, ValueError), (math.nan, ValueError),
                                             ("2", TypeError), (True, TypeError)])
def test_log_base_must_exceed_one(log_base, error):
    with pytest.raises(error, match=r"log_base must be a finite number greater than 1 \(2 is usual\)\. Got .* instead\."):
        nt.dcg([1, 2], log_base=log_base)


@pytest.mark.parametrize("zero_idcg, error", [(math.nan, ValueError), (5, ValueError), (-0.5, ValueError), (math.inf, ValueError),
                                               (None, TypeError), (True, TypeError), ("ignore", ValueError), ("NaN", ValueError)])
def test_zero_idcg_must_be_a_number_from_0_to_1_nan_by_name_or_raise(zero_idcg, error):
    with pytest.raises(error, match=r"zero_idcg must be the NDCG of a query whose IDCG is 0: a number from 0 to 1 .* 'nan' "
                                    r"to mark such queries \(as recommenders does\), or 'raise'\. Got .* instead\."):
        nt.ndcg([0, 0], zero_idcg=zero_idcg)
    with pytest.raises(error, match=r"zero_idcg must be the NDCG of a query whose IDCG is 0"):
        nt.ndcg_batch(np.zeros((1, 2)), np.array([2]), zero_idcg=zero_idcg) if hasattr(nt, "ndcg_batch") else nt.explain_ndcg([0, 0], zero_idcg=zero_idcg)


def test_zero_idcg_raise_explains_why():
    with pytest.raises(ValueError, match=r"IDCG is 0 \(no judged item has a positive gain\), so NDCG = DCG / IDCG is undefined\."):
        nt.ndcg([0, 0], zero_idcg="raise")


def test_nan_only_when_asked_for_by_name():
    assert nt.ndcg([0, 0]) == 0.0
    assert math.isnan(nt.ndcg([0, 0], zero_idcg="nan"))
    assert nt.ndcg([2, 0], zero_idcg="nan") == 1.0  # only a query whose IDCG is 0 takes it
    assert math.isnan(nt.explain_ndcg([0, 0], zero_idcg="nan").value)


# Overflow: a total beyond float64 is refused, never returned as inf or NaN.


def test_exponential_gain_refuses_a_grade_whose_gain_overflows():
    with pytest.raises(ValueError, match=r"gain='exponential' needs grades below 1024: 2\*\*grade - 1 is beyond float64 "
                                         r"\(about 1\.8e308\) from grade 1024 on\. Got grade 1030 instead\."):
        nt.ndcg([1030, 1], gain="exponential")
    assert nt.dcg([1023], gain="exponential") == 2.0 ** 1023 - 1  # the largest grade whose gain float64 holds


@pytest.mark.parametrize("call", [
    lambda: nt.ndcg([1023, 1023], gain="exponential"),
    lambda: nt.dcg([1000, 1023, 1023], gain="exponential"),
    lambda: nt.explain_ndcg([1023, 1, 1023], gain="exponential"),
], ids=["ndcg", "dcg", "explain_ndcg"])
def test_exponential_gains_whose_sum_overflows_are_refused(call):
    with pytest.raises(ValueError, match=r"relevances must have a finite sum of exponential gains \(2\*\*grade - 1\): "
                                         r"theirs is beyond float64 \(about 1\.8e308\)\. Got .* instead\."):
        call()


@pytest.mark.parametrize("metric", PER_LIST)
def test_grades_whose_sum_overflows_are_refused_by_every_metric(metric):
    with pytest.raises(ValueError, match=r"relevances must have a finite sum of grades: theirs is beyond float64 "
                                         r"\(about 1\.8e308\)\. Got \[1e\+308, 1e\+308\] instead\."):
        metric([1e308, 1e308])


def test_a_mapped_or_custom_gain_whose_sum_overflows_is_refused():
    with pytest.raises(ValueError, match=r"relevances must have a finite sum of gains: theirs is beyond float64"):
        nt.dcg([1, 1], gain={0: 0, 1: 1e308})
    with pytest.raises(ValueError, match=r"relevances must have a finite sum of gains: theirs is beyond float64"):
        nt.dcg([1, 1], gain=lambda grades: grades * 1e308)


# What counts as a list of numbers: the same for every metric.


@pytest.mark.parametrize("metric", PER_LIST)
@pytest.mark.parametrize("given, kind", [({3: 1, 0: 2}, "dict"), ({1, 0}, "set"), ((grade for grade in [1, 0]), "generator")],
                         ids=["dict", "set", "generator"])
def test_a_dict_set_or_generator_is_refused_by_every_metric(metric, given, kind):
    with pytest.raises(TypeError, match=rf"relevances must hold numbers \(relevance grades\), not {kind}\. Got .* instead\."):
        metric(given)


@pytest.mark.parametrize("metric", PER_LIST)
def test_an_object_array_of_numbers_is_read_as_numbers(metric):
    from fractions import Fraction

    assert metric(np.array([3, 0, 2], dtype=object)) == metric([3.0, 0.0, 2.0])
    assert metric(np.array([Fraction(3), 0, 2.0], dtype=object)) == metric([3.0, 0.0, 2.0])


@pytest.mark.parametrize("given", [[10 ** 400, 1], np.array([1, -(10 ** 400)], dtype=object)], ids=["list", "object array"])
def test_an_int_beyond_float64_is_refused(given):
    position = 1 if given[0] != 1 else 2
    with pytest.raises(ValueError, match=rf"relevances must be finite numbers within float64's range \(up to about 1\.8e308\); "
                                         rf"position {position} is outside it\. Got .* instead\."):
        nt.ndcg(given)


@pytest.mark.parametrize("metric", PER_LIST)
@pytest.mark.parametrize("dtype", ["datetime64[D]", "timedelta64[s]"])
def test_dates_and_durations_are_not_grades(metric, dtype):
    with pytest.raises(TypeError, match=rf"relevances must hold numbers \(relevance grades\), not {dtype.split('[')[0]}\. "
                                        r"Got array\(.*\) instead\."):
        metric(np.array([1, 2], dtype=dtype))


def test_dates_are_not_scores_either():
    with pytest.raises(TypeError, match=r"y_score must hold numbers \(scores\), not datetime64\. Got .* instead\."):
        nt.ndcg_score([[1, 0]], np.array([["2020-01-01", "2020-01-02"]], dtype="datetime64[D]"))


def test_ranking_must_match_the_list():
    with pytest.raises(ValueError, match=r"ranking must hold one item id per grade \(3\)\. Got 2 ids: \['A', 'B'\] instead\."):
        nt.explain_dcg([3, 2, 1], ranking=["A", "B"])
    with pytest.raises(TypeError, match=r"ranking must be a list of 3 item ids, one per ranked item\. Got 'ABC' instead\."):
        nt.explain_dcg([3, 2, 1], ranking="ABC")


def test_items_is_the_old_name_of_ranking():
    with pytest.warns(DeprecationWarning, match=r"explain_dcg\(items=\.\.\.\) is now spelled ranking=\.\.\."):
        old = nt.explain_dcg([3, 2], items=["A", "B"])
    assert old == nt.explain_dcg([3, 2], ranking=["A", "B"])
    with pytest.raises(TypeError, match=r"explain_dcg\(\) got both items= and its new name ranking=; pass ranking= only\."):
        nt.explain_dcg([3, 2], items=["A", "B"], ranking=["A", "B"])


def test_long_inputs_are_shortened_in_messages():
    with pytest.raises(ValueError) as error:
        nt.dcg(list(range(1000)) + [-1])
    assert len(str(error.value)) < 400
    assert "Got [0, 1, 2" in str(error.value)


def test_adaptive_k_must_be_boolean():
    with pytest.raises(TypeError, match=r"adaptive_k must be True or False\. Got 'yes' instead\."):
        nt.precision_at_k([1, 0], 3, adaptive_k="yes")


def test_explain_checks_adaptive_k_too():
    with pytest.raises(TypeError, match=r"adaptive_k must be True or False\. Got 1 instead\."):
        nt.explain_precision_at_k([1, 0], 3, adaptive_k=1)


def test_mean_helpers_say_which_query_is_bad():
    with pytest.raises(ValueError, match=r"query 2: relevances must be non-negative grades; position 1 holds -1"):
        nt.mean_ndcg([[1, 2], [-1, 3]])
    with pytest.raises(ValueError, match=r"queries must hold at least one relevance list\. Got \[\] instead\."):
        nt.mean_average_precision([])
    with pytest.raises(TypeError, match=r"queries must be a list of relevance lists, one per query; query 1 is a single number\."):
        nt.mean_reciprocal_rank([1, 0, 1])


def test_relevances_from_names_missing_items():
    with pytest.raises(ValueError, match=r"relevance must give a grade for every item in order; missing \['Z'\]\."):
        nt.relevances_from(["A", "Z"], {"A": 1})
    with pytest.raises(TypeError, match=r"order must be a list of item ids, best first\. Got 'AB' instead\."):
        nt.relevances_from("AB", {"A": 1, "B": 2})


@pytest.mark.parametrize(
    "y_true, y_score, message",
    [
        ([1, 2, 3], [1, 2], r"y_true and y_score must have the same shape \(one score per judged item\)\. Got shapes \(3,\) and \(2,\) instead\."),
        ([[1, 2]], [1, 2], r"Got shapes \(1, 2\) and \(2,\) instead\."),
        ([1, -2], [1, 2], r"y_true must be non-negative grades \(as in scikit-learn's ndcg_score\)\. Got \[1, -2\] instead\."),
        ([1, 2], [1, math.nan], r"y_score must be finite numbers\. Got \[1, nan\] instead\."),
        ([], [], r"y_true must hold at least one item per query\. Got shape \(1, 0\) instead\."),
        ([[[1]]], [[[1]]], r"y_true must be 1-D \(one query\) or 2-D \(one row per query\)\. Got shape \(1, 1, 1\) instead\."),
    ],
)
def test_ndcg_score_refuses_bad_arrays(y_true, y_score, message):
    with pytest.raises(ValueError, match=message):
        nt.ndcg_score(y_true, y_score)


def test_ndcg_score_checks_ties():
    with pytest.raises(ValueError, match=r"ties must be one of 'average', 'optimistic', 'pessimistic', 'stable'\. Got 'random' instead\."):
        nt.ndcg_score([1, 2], [2, 1], ties="random")
