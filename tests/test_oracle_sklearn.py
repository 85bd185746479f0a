"""Oracle: ndcg_teach against scikit-learn's ``ndcg_score`` and ``dcg_score``.

Thousands of seeded random cases (integer, binary and float grades, all-zero
rows, tied and untied scores, ``k`` below, at and beyond the list) must agree
to 1e-12 wherever the two libraries follow the same convention:

* gain: linear (``rel``); ndcg_teach's exponential gain equals scikit-learn
  fed ``2**rel - 1`` as grades;
* discount: ``1 / log_b(i + 1)`` (``dcg_score``'s ``log_base`` = our ``log_base``);
* ideal ranking built from the row itself (our ``pool=None``);
* a row whose ideal DCG is 0 scores 0.0 (our ``zero_idcg=0.0``);
* tied scores: ``ignore_ties=False`` averages over the orders of each tied
  group (our ``ties="average"``); without ties every policy agrees.

Where scikit-learn differs (one-item lists, 1-D input, negative grades, what
``ignore_ties=True`` does with ties) the tests at the end show the difference.
The source read for these facts: ``sklearn/metrics/_ranking.py``
(``_dcg_sample_scores``, ``_tie_averaged_dcg``, ``_ndcg_sample_scores``,
``ndcg_score``).
"""

import itertools

import numpy as np
import pytest
from sklearn.metrics import dcg_score, ndcg_score

import ndcg_teach as nt
from ndcg_teach.core.ties import tie_averaged_dcg

TOL = 1e-12
TIES = ("average", "optimistic", "pessimistic", "stable")


def random_grades(rng, shape):
    """Grades of one of four kinds: integer 0-4, binary, float, or mostly zero (all-zero rows happen)."""
    kind = rng.integers(4)
    if kind == 0:
        return rng.integers(0, 5, size=shape).astype(float)
    if kind == 1:
        return rng.integers(0, 2, size=shape).astype(float)
    if kind == 2:
        return np.round(rng.uniform(0.0, 4.0, size=shape) * (rng.random(shape) < 0.7), rng.integers(1, 4))
    return rng.integers(0, 3, size=shape) * (rng.random(shape) < 0.2).astype(float)


def random_scores(rng, shape, tied):
    """Model scores: distinct floats, or a few integer levels so that ties are common."""
    if tied:
        return rng.integers(0, rng.integers(1, 4), size=shape).astype(float)
    return rng.permutation(shape[0] * shape[1]).reshape(shape) + rng.random(shape) * 0.5


def random_case(rng, tied, max_items=10):
    n_queries, n_items = int(rng.integers(1, 4)), int(rng.integers(2, max_items + 1))
    true = random_grades(rng, (n_queries, n_items))
    score = random_scores(rng, (n_queries, n_items), tied)
    k = None if rng.random() < 0.25 else int(rng.integers(1, n_items + 4))
    return true, score, k


def ranked_rows(true, score):
    """Each row's grades in the order of its (distinct) scores, best first."""
    return [t[np.argsort(-s, kind="stable")] for t, s in zip(true, score)]


def assert_agree(pairs, minimum):
    """Every ``(case, ours, theirs)`` agrees to TOL, and there were at least ``minimum`` of them."""
    assert len(pairs) >= minimum
    bad = [(case, ours, theirs) for case, ours, theirs in pairs if not abs(ours - theirs) <= TOL]
    assert not bad, f"{len(bad)} of {len(pairs)} cases disagree; first ones (case, ndcg_teach, scikit-learn): {bad[:3]}"


def test_ndcg_score_equals_sklearn_with_tied_scores_averaged():
    rng = np.random.default_rng(20240601)
    pairs = []
    for _ in range(1500):
        true, score, k = random_case(rng, tied=rng.random() < 0.6)
        pairs.append(((true.tolist(), score.tolist(), k), nt.ndcg_score(true, score, k=k), ndcg_score(true, score, k=k)))
    assert_agree(pairs, 1500)


def test_every_tie_policy_equals_sklearn_when_scores_are_distinct():
    rng = np.random.default_rng(20240602)
    pairs = []
    for _ in range(400):
        true, score, k = random_case(rng, tied=False)
        case = (true.tolist(), score.tolist(), k)
        averaged, ignoring = ndcg_score(true, score, k=k), ndcg_score(true, score, k=k, ignore_ties=True)
        pairs.append((case, averaged, ignoring))
        for ties in TIES:
            pairs.append((case + (ties,), nt.ndcg_score(true, score, k=k, ties=ties), averaged))
        pairs.append((case + ("mean_ndcg",), nt.mean_ndcg(ranked_rows(true, score), k=k), averaged))
    assert_agree(pairs, 400 * 6)


def test_exponential_gain_equals_sklearn_fed_exponential_grades():
    rng = np.random.default_rng(20240603)
    pairs = []
    for _ in range(400):
        true, score, k = random_case(rng, tied=rng.random() < 0.5)
        ours = nt.ndcg_score(true, score, k=k, gain="exponential")
        pairs.append(((true.tolist(), score.tolist(), k), ours, ndcg_score(2.0**true - 1.0, score, k=k)))
    assert_agree(pairs, 400)


@pytest.mark.parametrize("log_base", [2, np.e, 10, 1.5, 3])
def test_dcg_equals_dcg_score_for_every_log_base(log_base):
    rng = np.random.default_rng(int(log_base * 1000))
    pairs = []
    for _ in range(150):
        true, score, k = random_case(rng, tied=False)
        ours = np.mean([nt.dcg(row, k=k, log_base=log_base) for row in ranked_rows(true, score)])
        pairs.append(((true.tolist(), score.tolist(), k), ours, dcg_score(true, score, k=k, log_base=log_base, ignore_ties=True)))
        tied_true, tied_score, tied_k = random_case(rng, tied=True)
        averaged = np.mean([tie_averaged_dcg(t, s, tied_k, "linear", "log2", log_base) for t, s in zip(tied_true, tied_score)])
        pairs.append(((tied_true.tolist(), tied_score.tolist(), tied_k), averaged, dcg_score(tied_true, tied_score, k=tied_k, log_base=log_base)))
    assert_agree(pairs, 300)


def orders_within_ties(true, score):
    """Every ranking of ``true`` that the scores allow: tied groups in every order."""
    groups = [true[score == level] for level in sorted(set(score.tolist()), reverse=True)]
    for parts in itertools.product(*(set(itertools.permutations(group.tolist())) for group in groups)):
        yield [grade for part in parts for grade in part]


def test_tie_average_is_the_mean_over_every_order_the_scores_allow():
    # An oracle independent of both libraries' tie code: enumerate the orders.
    rng = np.random.default_rng(20240604)
    pairs = []
    for _ in range(150):
        n = int(rng.integers(2, 7))
        true = rng.integers(0, 4, size=n).astype(float)
        score = rng.integers(0, 3, size=n).astype(float)
        k = int(rng.integers(1, n + 2))
        orders = list(orders_within_ties(true, score))
        by_enumeration = np.mean([nt.dcg(order, k=k) for order in orders])
        case = (true.tolist(), score.tolist(), k)
        pairs.append((case, by_enumeration, dcg_score([true], [score], k=k)))
        ideal = nt.idcg(true.tolist(), k=k)
        expected = by_enumeration / ideal if ideal > 0 else 0.0
        pairs.append((case, nt.ndcg_score(true, score, k=k), expected))
    assert_agree(pairs, 300)


def test_rows_with_nothing_relevant_score_zero_in_both():
    true = np.array([[0.0, 0.0, 0.0], [3.0, 0.0, 1.0], [0.0, 0.0, 0.0]])
    score = np.array([[0.3, 0.2, 0.1], [0.1, 0.2, 0.3], [0.5, 0.5, 0.5]])
    assert ndcg_score(true, score) == pytest.approx(nt.ndcg_score(true, score), abs=TOL)
    assert nt.ndcg_score(true[[0]], score[[0]]) == 0.0 == ndcg_score(true[[0]], score[[0]])


def test_design_reference_values_match_sklearn():
    # The reference values quoted in DESIGN.md, in float64.
    assert nt.ndcg([5, 2, 3], k=3) == pytest.approx(0.98341147226327856, abs=TOL)
    assert ndcg_score([[5, 2, 3]], [[3, 2, 1]], k=3) == pytest.approx(0.98341147226327856, abs=TOL)
    graded = [[4, 5, 2, 3, 1]]
    order = [[5, 4, 3, 2, 1]]
    assert nt.ndcg(graded[0], k=5) == pytest.approx(ndcg_score(graded, order, k=5), abs=TOL)
    assert nt.ndcg(graded[0], k=5) == pytest.approx(0.95732117485131151, abs=TOL)
    exponential = nt.ndcg(graded[0], k=5, gain="exponential")
    assert exponential == pytest.approx(ndcg_score(2.0 ** np.array(graded) - 1, order, k=5), abs=TOL)
    assert exponential == pytest.approx(0.86454788462648288, abs=TOL)


# Documented differences ------------------------------------------------------


def test_difference_ignore_ties_true_picks_one_arbitrary_order_of_a_tie():
    # ignore_ties=True sorts with np.argsort(y_score)[:, ::-1]: tied items come
    # out in whatever order that unstable sort leaves them (here reversed), so the
    # value is one of the orders the scores allow, not their average and not
    # necessarily the input order that ties="stable" keeps.
    true, score = [[3, 2, 1, 0]], [[1.0, 1.0, 1.0, 0.0]]
    allowed = {round(nt.ndcg(order), 12) for order in orders_within_ties(np.array(true[0], float), np.array(score[0]))}
    ignoring = ndcg_score(true, score, ignore_ties=True)
    assert round(ignoring, 12) in allowed
    assert nt.ndcg_score(true, score, ties="pessimistic") <= ignoring <= nt.ndcg_score(true, score, ties="optimistic")
    assert nt.ndcg_score(true, score) == pytest.approx(ndcg_score(true, score), abs=TOL)
    assert abs(ignoring - nt.ndcg_score(true, score)) > 0.05
    assert nt.ndcg_score(true, score, ties="stable") == 1.0


def test_difference_sklearn_refuses_one_item_lists_and_1d_input():
    with pytest.raises(ValueError, match="more than 1 document"):
        ndcg_score([[3]], [[0.5]])
    with pytest.raises(ValueError, match="formats are supported"):
        ndcg_score([3, 2, 1], [0.1, 0.2, 0.3])
    # ndcg_teach scores a one-item list (the ideal order of one item is itself)
    # and reads a 1-D pair as one query.
    assert nt.ndcg([3]) == 1.0
    assert nt.ndcg_score([[3]], [[0.5]]) == 1.0
    assert nt.ndcg_score([3, 2, 1], [0.1, 0.2, 0.3]) == pytest.approx(ndcg_score([[3, 2, 1]], [[0.1, 0.2, 0.3]]), abs=TOL)


def test_difference_negative_grades():
    # ndcg_score refuses them, as ndcg_teach does by default; dcg_score does not
    # check and adds the negative gain (3 - 1/log2(3) + 2/2), which no
    # ndcg_teach convention reproduces: negative="zero" reads -1 as "judged
    # non-relevant" (trec_eval), gain 0.
    with pytest.raises(ValueError, match="negative y_true"):
        ndcg_score([[3, -1, 2]], [[3, 2, 1]])
    with pytest.raises(ValueError, match="non-negative grades"):
        nt.ndcg([3, -1, 2])
    assert dcg_score([[3, -1, 2]], [[3, 2, 1]]) == pytest.approx(3 - 1 / np.log2(3) + 1, abs=TOL)
    assert nt.dcg([3, -1, 2], negative="zero") == pytest.approx(3 + 1, abs=TOL)
