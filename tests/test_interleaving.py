"""Interleaving: the lists keep their defining properties, exact outcomes match a brute force and hand cases."""

from itertools import product

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ndcg_teach.online.click_models import CascadeModel, PositionBasedModel, hoeffding_bound
from ndcg_teach.online.interleaving import balanced, interleaving_outcomes, simulate_interleaving, team_draft

TOL = 1e-12
invariant = settings(max_examples=100, deadline=None, derandomize=True)
ITEMS = list("abcdef")
two_rankings = st.tuples(st.permutations(ITEMS), st.permutations(ITEMS))


@invariant
@given(two_rankings, st.lists(st.booleans(), min_size=3, max_size=3))
def test_team_draft_lists_each_item_once_and_each_team_in_its_rankers_order(rankings, flips):
    a, b = map(list, rankings)
    shown = team_draft(a, b, flips=flips)
    assert sorted(shown.items) == sorted(ITEMS)
    picks = {team: [item for item, t in zip(shown.items, shown.teams) if t == team] for team in "AB"}
    assert abs(len(picks["A"]) - len(picks["B"])) <= 1
    for team, ranking in (("A", a), ("B", b)):
        assert picks[team] == sorted(picks[team], key=ranking.index)
    for position, (item, team) in enumerate(zip(shown.items, shown.teams)):
        ranking = a if team == "A" else b
        unused = [x for x in ranking if x not in shown.items[:position]]
        assert item == unused[0]  # each pick is the picker's best item not yet shown


@invariant
@given(two_rankings, st.booleans())
def test_every_top_of_a_balanced_list_holds_both_rankers_tops_within_one(rankings, a_first):
    a, b = map(list, rankings)
    shown = balanced(a, b, a_first=a_first).items
    for m in range(1, len(shown) + 1):
        # Joachims (2002): each top m is A's top ka together with B's top kb, with ka and kb at most 1 apart.
        assert any(set(shown[:m]) == set(a[:ka]) | set(b[:kb])
                   for ka in range(m + 1) for kb in range(max(0, ka - 1), ka + 2))


def test_hand_case_click_on_the_relevant_item_whoever_goes_first():
    model = PositionBasedModel(examination=[1.0, 0.5], attractiveness={0: 0.0, 1: 1.0})
    for method in ("team_draft", "balanced"):
        # a first: a clicked surely, A wins. b first: a sits at position 2, clicked half the time (A wins), else no click.
        outcome = interleaving_outcomes(["a", "b"], ["b", "a"], {"a": 1}, model, method=method)
        assert (outcome.a_wins, outcome.b_wins, outcome.ties) == pytest.approx((0.75, 0.0, 0.25), abs=TOL)


def brute_team_draft(a, b, flips):
    """Radlinski et al.'s pseudo-code, written again: picks alternate by team size, a coin when equal."""
    shown, team_a, team_b, coin = [], [], [], iter(flips)
    while any(x not in shown for x in a) and any(x not in shown for x in b):
        if len(team_a) < len(team_b) or (len(team_a) == len(team_b) and next(coin)):
            pick = next(x for x in a if x not in shown)
            team_a.append(pick)
        else:
            pick = next(x for x in b if x not in shown)
            team_b.append(pick)
        shown.append(pick)
    return shown, set(team_a)


def brute_outcome(a, b, grades, theta, alpha_of):
    a_wins = b_wins = 0.0
    rounds = (len(set(a) | set(b)) + 1) // 2
    for flips in product((True, False), repeat=rounds):
        shown, team_a = brute_team_draft(a, b, flips)
        chance = [theta[i] * alpha_of[grades.get(item, 0)] for i, item in enumerate(shown)]
        for clicks in product((0, 1), repeat=len(shown)):
            p = np.prod([c if k else 1 - c for c, k in zip(chance, clicks)]) / 2**rounds
            credit_a = sum(k for item, k in zip(shown, clicks) if item in team_a)
            credit_b = sum(clicks) - credit_a
            a_wins += p * (credit_a > credit_b)
            b_wins += p * (credit_b > credit_a)
    return a_wins, b_wins


@invariant
@given(two_rankings, st.lists(st.integers(0, 3), min_size=6, max_size=6))
def test_team_draft_outcomes_equal_a_brute_force_under_the_position_based_model(rankings, grade_list):
    a, b = map(list, rankings)
    grades = dict(zip(ITEMS, grade_list))
    model = PositionBasedModel(eta=1.0)
    outcome = interleaving_outcomes(a, b, grades, model)
    theta = 1 / np.arange(1, 7)
    alpha_of = {g: (2**g - 1) / 8 for g in range(4)}
    assert (outcome.a_wins, outcome.b_wins) == pytest.approx(brute_outcome(a, b, grades, theta, alpha_of), abs=TOL)
    assert outcome.a_wins + outcome.b_wins + outcome.ties == pytest.approx(1.0, abs=TOL)


@invariant
@given(two_rankings, st.lists(st.integers(0, 3), min_size=6, max_size=6), st.sampled_from(["team_draft", "balanced"]))
def test_swapping_the_rankers_swaps_the_winners_and_identical_rankers_tie_on_average(rankings, grade_list, method):
    a, b = map(list, rankings)
    grades = dict(zip(ITEMS, grade_list))
    model = CascadeModel()
    forward = interleaving_outcomes(a, b, grades, model, method=method)
    backward = interleaving_outcomes(b, a, grades, model, method=method)
    assert (forward.a_wins, forward.b_wins) == pytest.approx((backward.b_wins, backward.a_wins), abs=TOL)
    same = interleaving_outcomes(a, a, grades, model, method=method)
    assert same.a_wins == pytest.approx(same.b_wins, abs=TOL)


@pytest.mark.parametrize("method", ["team_draft", "balanced"])
def test_simulated_impressions_fall_within_the_bound_of_the_exact_chances(method):
    a, b = ["d1", "d2", "d3", "d4", "d5"], ["d3", "d1", "d5", "d2", "d4"]
    grades = {"d1": 2, "d2": 0, "d3": 3, "d4": 1, "d5": 0}
    run = simulate_interleaving(a, b, grades, PositionBasedModel(), method=method, impressions=20_000, seed=18)
    bound = hoeffding_bound(20_000, delta=1e-9)
    for count, exact in ((run.a_wins, run.exact.a_wins), (run.b_wins, run.exact.b_wins), (run.ties, run.exact.ties)):
        assert abs(count / 20_000 - exact) <= bound
    assert run.a_wins + run.b_wins + run.ties == 20_000
    assert "within ±" in str(run)


def test_offline_ndcg_and_the_explanation():
    outcome = interleaving_outcomes(["d1", "d2", "d3"], ["d3", "d2", "d1"], {"d1": 2, "d2": 1}, CascadeModel())
    assert outcome.ndcg_a == pytest.approx(1.0, abs=TOL) and outcome.ndcg_b < 1
    text = str(outcome)
    assert "P(A wins) = Σ P(flips)·P(A wins | list)" in text and "offline: NDCG of A = 1.0000" in text
    assert sum(chance for chance, *_ in outcome.lists) == pytest.approx(1.0, abs=TOL)


def test_balanced_credit_reaches_the_lowest_click():
    shown = balanced(["a", "b", "c", "d"], ["c", "d", "a", "b"])  # a c b d
    assert shown.items == ("a", "c", "b", "d")
    assert shown.credit([1, 1, 0, 0]) == (1, 1)  # lowest click c: rank 3 in A, 1 in B, k = 1
    assert shown.credit([0, 0, 1, 1]) == (1, 1)  # b, d; lowest d: rank 4 in A, 2 in B, k = 2: b in A's top 2, d in B's
    assert shown.winner([1, 0, 1, 0]) == "A"  # lowest b: rank 2 in A, 4 in B; k = 2: a, b in A's top 2, none in B's


@pytest.mark.parametrize(("call", "error", "match"), [
    (lambda: team_draft(["a", "a"], ["a", "b"]), ValueError, r"ranking_a must name each item once"),
    (lambda: team_draft("ab", ["a", "b"]), TypeError, r"ranking_a must be a list of item ids"),
    (lambda: team_draft(["a", "b"], ["b", "a"], flips=[]), ValueError, r"flips must hold a True \(A first\) or False \(B first\) for each of the 1 rounds"),
    (lambda: team_draft(["a", "b"], ["b", "a"], flips=[1]), ValueError, r"flips must hold a True \(A first\)"),
    (lambda: team_draft(["a", "b", "c"], ["b", "a", "c"], flips=[True]), ValueError, r"for each of the 2 rounds"),
    (lambda: team_draft(["a"], ["a"], k=0), ValueError, r"k must be a positive integer"),
    (lambda: balanced(["a"], ["a"], a_first="yes"), TypeError, r"a_first must be True"),
    (lambda: team_draft(["a", "b"], ["b", "a"], flips=[True]).credit([1]), ValueError, r"clicks must hold one 0 or 1 per position of the interleaved list \(2\)"),
    (lambda: interleaving_outcomes(["a"], ["a"], {"a": 1}, "cascade"), TypeError, r"model must be a CascadeModel or a PositionBasedModel"),
    (lambda: interleaving_outcomes(["a"], ["a"], [1], CascadeModel()), TypeError, r"grades must map item ids to their true grades"),
    (lambda: interleaving_outcomes(["a"], ["a"], {"a": 1}, CascadeModel(), method="probabilistic"), ValueError, r"method must be one of 'team_draft', 'balanced'"),
    (lambda: simulate_interleaving(["a"], ["a"], {"a": 1}, CascadeModel(), impressions=0), ValueError, r"impressions must be a positive integer"),
])
def test_bad_input_is_refused_by_name(call, error, match):
    with pytest.raises(error, match=match):
        call()
