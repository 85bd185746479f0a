"""Nugget scores (ndcg_teach.course.answers.nuggets), recomputed by code that shares nothing with the library.

The oracle writes the six scores of Pradeep et al. (2024) straight from their definitions, in exact
fractions: credit 1 / 1/2 / 0 for support / partial_support / not_support (0 for partial support when
strict), averaged over all nuggets, over the vital ones (0 when there are none, as the track's
`nuggetizer` scorer does), or weighted 1 for vital and 1/2 for okay. Every refusal is tested by its message.
"""

import itertools
import random
from fractions import Fraction

import pytest

import ndcg_teach as nt
from ndcg_teach.course.answers import SCORES

LABELS = ("support", "partial_support", "not_support")


def oracle(importance, support):
    """The six scores as Fractions, from the definitions."""
    found = {}
    for strict in (False, True):
        credit = {"support": Fraction(1), "partial_support": Fraction(0 if strict else 1, 2), "not_support": Fraction(0)}
        credits = [credit[label] for label in support]
        vital = [c for c, kind in zip(credits, importance) if kind == "vital"]
        weights = [Fraction(1) if kind == "vital" else Fraction(1, 2) for kind in importance]
        suffix = "_strict" if strict else ""
        found["all" + suffix] = sum(credits, Fraction(0)) / len(credits)
        found["vital" + suffix] = sum(vital, Fraction(0)) / len(vital) if vital else Fraction(0)
        found["weighted" + suffix] = sum((w * c for w, c in zip(weights, credits)), Fraction(0)) / sum(weights)
    return found


def cases():
    """Every labelling of up to three nuggets, and 300 random ones of up to 12."""
    for n in range(1, 4):
        for importance in itertools.product(("vital", "okay"), repeat=n):
            for support in itertools.product(LABELS, repeat=n):
                yield list(importance), list(support)
    rng = random.Random(21)
    for _ in range(300):
        n = rng.randint(1, 12)
        yield [rng.choice(("vital", "okay")) for _ in range(n)], [rng.choice(LABELS) for _ in range(n)]


def test_every_score_is_the_definitions_fraction_rounded_once():
    for importance, support in cases():
        result = nt.nugget_scores(importance, support)
        expected = oracle(importance, support)
        assert result.as_dict() == {score: float(expected[score]) for score in SCORES}, (importance, support)


def test_the_lessons_moon_answer():
    importance = ["vital"] * 3 + ["okay"] * 3
    support = ["support", "support", "partial_support", "support", "not_support", "partial_support"]
    result = nt.nugget_scores(importance, support)
    assert result.as_dict() == {"all": 4 / 6, "all_strict": 3 / 6, "vital": 2.5 / 3, "vital_strict": 2 / 3,
                                "weighted": 3.25 / 4.5, "weighted_strict": 2.5 / 4.5}
    assert "weighted = (1·1 + 1·1 + 1·0.5 + 0.5·1 + 0.5·0 + 0.5·0.5) / (3 + 0.5·3) = 0.7222" in str(result)


def test_invariants():
    for importance, support in cases():
        s = nt.nugget_scores(importance, support)
        assert s.all_strict <= s.all and s.vital_strict <= s.vital and s.weighted_strict <= s.weighted
        assert all(0 <= value <= 1 for value in s.as_dict().values())
        if "partial_support" not in support:
            assert (s.all, s.vital, s.weighted) == (s.all_strict, s.vital_strict, s.weighted_strict)
        if "okay" not in importance:
            assert s.all == s.vital == s.weighted


def test_a_query_without_vital_nuggets_scores_0_on_the_vital_scores_and_says_so():
    result = nt.nugget_scores(["okay", "okay"], ["support", "support"])
    assert (result.vital, result.vital_strict, result.all) == (0.0, 0.0, 1.0)
    assert "no vital nugget" in str(result)


def test_a_run_is_the_mean_of_its_answers_exactly():
    rng = random.Random(5)
    nuggets = {f"q{q}": {f"n{j}": rng.choice(("vital", "okay")) for j in range(rng.randint(1, 7))} for q in range(9)}
    assignments = {system: {q: {n: rng.choice(LABELS) for n in found} for q, found in nuggets.items()}
                   for system in ("S1", "S2", "S3")}
    result = nt.nugget_evaluation(nuggets, assignments)
    for system, by_query in assignments.items():
        per_query = [oracle(list(nuggets[q].values()), [by_query[q][n] for n in nuggets[q]]) for q in nuggets]
        for score in SCORES:
            assert result.per_query[score][system] == tuple(float(found[score]) for found in per_query)
            assert result.means[score][system] == float(sum((found[score] for found in per_query), Fraction(0)) / 9)
    assert result.queries == tuple(nuggets) and result.systems == ("S1", "S2", "S3")


def test_the_ranking_orders_by_the_mean_best_first_and_keeps_ties_in_order():
    nuggets = {"q": {"a": "vital", "b": "okay"}}
    assignments = {"S1": {"q": {"a": "support", "b": "not_support"}}, "S2": {"q": {"a": "support", "b": "support"}},
                   "S3": {"q": {"a": "support", "b": "not_support"}}}
    result = nt.nugget_evaluation(nuggets, assignments)
    assert result.ranking("all") == ("S2", "S1", "S3") and result.ranking("vital") == ("S1", "S2", "S3")


def test_the_table_speaks_chinese_with_the_same_numbers():
    with nt.language_set("zh-CN"):
        chinese = str(nt.nugget_scores(["vital", "okay"], ["partial_support", "support"], nuggets=["甲", "乙"]))
    assert "部分支持" in chinese and "关键" in chinese and "次要" in chinese and "0.6667" in chinese


@pytest.mark.parametrize(("call", "error", "match"), [
    (lambda: nt.nugget_scores("vital", ["support"]), TypeError, r"importance must be a list of labels, one per nugget"),
    (lambda: nt.nugget_scores({"a": "vital"}, ["support"]), TypeError, r"importance must be a list of labels"),
    (lambda: nt.nugget_scores(["vital"], 7), TypeError, r"support must be a list of labels.* Got 7 instead\."),
    (lambda: nt.nugget_scores([], []), ValueError, r"importance must hold at least one label, each one of 'vital', "
                                                   r"'okay'\. Got \[\] instead\."),
    (lambda: nt.nugget_scores(["vital", "crucial"], ["support", "support"]), ValueError,
     r"importance must hold at least one label, each one of 'vital', 'okay'\. Got \['vital', 'crucial'\] instead\."),
    (lambda: nt.nugget_scores(["vital"], ["supported"]), ValueError, r"support must hold .* 'not_support'\. Got "
                                                                     r"\['supported'\] instead\."),
    (lambda: nt.nugget_scores(["vital", "okay"], ["support"]), ValueError,
     r"importance and support must label the same nuggets, one label each\. Got 2 and 1 labels instead\."),
    (lambda: nt.nugget_scores(["vital"], ["support"], nuggets="n1"), TypeError,
     r"nuggets must be a list of nugget ids, one per label\. Got 'n1' instead\."),
    (lambda: nt.nugget_scores(["vital", "okay"], ["support"] * 2, nuggets=["a", "a"]), ValueError,
     r"nuggets must name each of the 2 nuggets once\. Got \['a', 'a'\] instead\."),
    (lambda: nt.nugget_evaluation({}, {"S": {}}), TypeError, r"nuggets must map each query to its nuggets"),
    (lambda: nt.nugget_evaluation({"q": {}}, {"S": {}}), TypeError, r"at least one of each\. Got \{'q': \{\}\} instead"),
    (lambda: nt.nugget_evaluation({"q": {"a": "big"}}, {"S": {}}), ValueError,
     r"nuggets\['q'\] must hold at least one label, each one of 'vital', 'okay'\. Got \['big'\] instead\."),
    (lambda: nt.nugget_evaluation({"q": {"a": "vital"}}, {}), TypeError,
     r"assignments must map each system to its labels.* Got \{\} instead\."),
    (lambda: nt.nugget_evaluation({"q": {"a": "vital"}}, {"S": {"q": {"b": "support"}}}), ValueError,
     r"assignments\['S'\]\['q'\] must label every nugget of the query, \['a'\], and no other\. Got \{'b': 'support'\}"),
    (lambda: nt.nugget_evaluation({"q": {"a": "vital"}}, {"S": {}}), ValueError,
     r"assignments\['S'\]\['q'\] must label every nugget of the query, \['a'\], and no other\. Got None instead\."),
    (lambda: nt.nugget_evaluation({"q": {"a": "vital"}}, {"S": {"q": {"a": "yes"}}}), ValueError,
     r"assignments\['S'\]\['q'\] must hold at least one label, each one of 'support'"),
    (lambda: nt.nugget_evaluation({"q": {"a": "vital"}}, {"S": {"q": {"a": "support"}}}).ranking("best"), ValueError,
     r"score must be one of 'all', .*'weighted_strict'\. Got 'best' instead\."),
])
def test_every_refusal_names_the_parameter_and_what_it_got(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_a_refusal_speaks_chinese_in_the_chinese_edition():
    with nt.language_set("zh-CN"), pytest.raises(ValueError, match=r"importance 和 support 必须标注相同的信息块.*传入的分别是"):
        nt.nugget_scores(["vital", "okay"], ["support"])
