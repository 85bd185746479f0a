"""Lesson 18's numbers against oracles: exact fractions, brute-force enumeration written here, scipy and statsmodels.

Nothing here calls the library to compute what it checks the library against: click probabilities are summed over
every click pattern, team-draft lists are drawn by an implementation of Radlinski, Kurup & Joachims (2008) written
below, and sample sizes come from statsmodels.
"""

from fractions import Fraction
from itertools import permutations, product
import json
from math import ceil, log2, sqrt
from pathlib import Path

import pytest
from scipy.stats import kendalltau
from statsmodels.stats.power import NormalIndPower, normal_sample_size_one_tail
from statsmodels.stats.proportion import proportion_effectsize, samplesize_proportions_2indep_onetail

import ndcg_teach as nt
from ndcg_teach.exercises import check
from ndcg_teach.exercises.lesson_18 import standard_sizes


def alpha(grade, top=3):
    return Fraction(2**grade - 1, 2**top)


def cascade_patterns(grades):
    """Every click pattern of the cascade model: the first attractive position is clicked, or none is."""
    reach = Fraction(1)
    for i, grade in enumerate(grades):
        yield tuple(int(j == i) for j in range(len(grades))), reach * alpha(grade)
        reach *= 1 - alpha(grade)
    yield (0,) * len(grades), reach


def pbm_patterns(grades):
    """Every click pattern of the position-based model with θ_i = 1/i."""
    chances = [Fraction(1, i) * alpha(g) for i, g in enumerate(grades, 1)]
    for pattern in product((0, 1), repeat=len(grades)):
        p = Fraction(1)
        for clicked, chance in zip(pattern, chances):
            p *= chance if clicked else 1 - chance
        yield pattern, p


def team_draft_list(a, b, k, coins):
    """Radlinski et al.'s team draft: the smaller team picks next; a coin breaks the tie; stop when a ranker is out."""
    shown, teams, coins = [], [], iter(coins)
    while len(shown) < k:
        next_a = next((item for item in a if item not in shown), None)
        next_b = next((item for item in b if item not in shown), None)
        if next_a is None or next_b is None:
            break
        a_turn = teams.count("A") < teams.count("B") or (teams.count("A") == teams.count("B") and next(coins))
        shown.append(next_a if a_turn else next_b)
        teams.append("A" if a_turn else "B")
    return shown, teams


def exact_outcome(a, b, grades, patterns, k=None):
    """P(A wins), P(B wins) by every coin sequence and every click pattern, as fractions."""
    k = len(set(a) | set(b)) if k is None else k
    rounds = (k + 1) // 2
    wins = {"A": Fraction(0), "B": Fraction(0)}
    for coins in product((True, False), repeat=rounds):
        shown, teams = team_draft_list(a, b, k, coins)
        for pattern, p in patterns([grades.get(item, 0) for item in shown]):
            credit_a = sum(c for c, t in zip(pattern, teams) if t == "A")
            credit_b = sum(c for c, t in zip(pattern, teams) if t == "B")
            if credit_a != credit_b:
                wins["A" if credit_a > credit_b else "B"] += p / 2**rounds
    return wins["A"], wins["B"]


def ndcg_by_hand(relevances, pool):
    dcg = sum(g / log2(i + 1) for i, g in enumerate(relevances, 1))
    ideal = sorted(pool, reverse=True)[: len(relevances)]
    return dcg / sum(g / log2(i + 1) for i, g in enumerate(ideal, 1))


def test_section_1s_click_probabilities_are_the_sums_over_every_click_pattern():
    grades = [2, 0, 3, 1, 0]
    for model, patterns in ((nt.CascadeModel(), cascade_patterns), (nt.PositionBasedModel(), pbm_patterns)):
        shown = model.click_probabilities(grades)
        every = list(patterns(grades))
        assert sum(p for _, p in every) == 1
        for i in range(len(grades)):
            assert shown.clicks[i] == pytest.approx(float(sum(p for pattern, p in every if pattern[i])), abs=1e-15)
        assert shown.ctr == pytest.approx(float(sum(p for pattern, p in every if any(pattern))), abs=1e-15)
    assert nt.CascadeModel().click_probabilities(grades).ctr == pytest.approx(477 / 512, abs=1e-15)
    assert nt.PositionBasedModel().click_probabilities(grades).expected_clicks == pytest.approx(67 / 96, abs=1e-15)


def twenty_four_orders():
    """Per order of the grades 3, 2, 1, 0 (as the lesson's cell builds them): grades, cascade click patterns, NDCG,
    the exact reciprocal rank of the cascade's click and the exact PBM expected clicks."""
    grade_of = {"a": 3, "b": 2, "c": 1, "d": 0}
    rows = []
    for order in permutations(grade_of):
        grades = [grade_of[item] for item in order]
        every = list(cascade_patterns(grades))
        reciprocal = sum(p / (pattern.index(1) + 1) for pattern, p in every if any(pattern))
        clicks = sum(Fraction(1, i) * alpha(g) for i, g in enumerate(grades, 1))
        rows.append((grades, every, ndcg_by_hand(grades, grades), reciprocal, clicks))
    return rows


def test_section_3_the_cascade_ctr_ignores_the_order_and_its_reciprocal_rank_is_err():
    rows = twenty_four_orders()
    for grades, every, _, reciprocal, _ in rows:
        assert float(sum(p for pattern, p in every if any(pattern))) == pytest.approx(477 / 512, abs=1e-15)
        assert nt.expected_reciprocal_rank(grades, max_grade=3) == pytest.approx(float(reciprocal), abs=1e-15)
    ndcgs, errs, clicks = ([float(row[j]) for row in rows] for j in (2, 3, 4))
    assert round(kendalltau(ndcgs, errs).statistic, 4) == 0.9256  # the lesson prints these
    assert round(kendalltau(ndcgs, clicks).statistic, 4) == 0.9197
    assert nt.kendall_tau(ndcgs, errs).value == pytest.approx(kendalltau(ndcgs, errs).statistic, abs=1e-12)



def sign(x, tolerance=0):
    return (x > tolerance) - (x < -tolerance)


def test_section_3s_prose_states_tau_a_beside_tau_b():
    """Kendall's tau-a = (concordant - discordant) / 276 counted here pair by pair, tau-b by scipy; both in cell 14's prose."""
    rows = twenty_four_orders()
    pairs = [(rows[i], rows[j]) for i in range(len(rows)) for j in range(i + 1, len(rows))]
    assert len(pairs) == 276
    assert sum(sign(x[2] - y[2], 1e-12) == 0 for x, y in pairs) == 0  # no two orders share an NDCG
    ndcgs = [row[2] for row in rows]
    stated = {}
    for column, ties in ((3, 1), (4, 4)):  # ERR ties one pair of orders, the PBM's expected clicks four
        products = [sign(x[2] - y[2], 1e-12) * sign(x[column] - y[column]) for x, y in pairs]
        assert products.count(0) == ties
        tau_a = (products.count(1) - products.count(-1)) / len(pairs)
        tau_b = kendalltau(ndcgs, [float(row[column]) for row in rows], variant="b").statistic
        by_formula = (products.count(1) - products.count(-1)) / sqrt(len(pairs) * (len(pairs) - ties))  # NDCG ties none
        assert by_formula == pytest.approx(tau_b, abs=1e-12)
        stated[column] = (f"{tau_a:.4f}", f"{tau_b:.4f}")
    assert stated == {3: ("0.9239", "0.9256"), 4: ("0.9130", "0.9197")}
    notebook = json.loads((Path(__file__).resolve().parent.parent / "notebooks" / "18-online-evaluation.ipynb")
                          .read_text(encoding="utf-8"))
    prose = [text for text in ("".join(c["source"]) for c in notebook["cells"] if c["cell_type"] == "markdown")
             if "(concordant − discordant) / 276" in text]
    assert len(prose) == 1
    assert f"gives {stated[3][0]} and {stated[4][0]} instead" in prose[0]
    assert "$\\tau_b = (C - D)/\\sqrt{(P - T_x)(P - T_y)}$, with $P = 276$ pairs" in prose[0]
    assert f"NDCG and ERR is {stated[3][1]}, between NDCG and the PBM's expected clicks {stated[4][1]}" in prose[0]

@pytest.mark.parametrize("a, b, grades, patterns, expected", [
    (["x", "y"], ["y", "x"], {"x": 3, "y": 1}, cascade_patterns, (Fraction(105, 128), Fraction(9, 128))),
    (["x", "y"], ["y", "x"], {"x": 2, "y": 1}, cascade_patterns, (Fraction(45, 128), Fraction(13, 128))),  # exercise 2
    (["a", "b", "d"], ["d", "b", "a"], {"a": 3, "b": 2, "d": 1}, cascade_patterns, (0.8408, 0.0908)),
    (["b", "c", "d", "a"], ["c", "a", "e", "d"], {"a": 3, "b": 2, "c": 2, "d": 1}, cascade_patterns, (0.3322, 0.6251)),
    (["b", "c", "d", "a"], ["c", "a", "e", "d"], {"a": 3, "b": 2, "c": 2, "d": 1}, pbm_patterns, (0.1748, 0.3474)),
])
def test_section_4s_win_chances_by_every_coin_flip_and_click_pattern(a, b, grades, patterns, expected):
    mine = exact_outcome(a, b, grades, patterns)
    model = nt.CascadeModel() if patterns is cascade_patterns else nt.PositionBasedModel()
    theirs = nt.interleaving_outcomes(a, b, grades, model)
    assert (theirs.a_wins, theirs.b_wins) == pytest.approx(tuple(map(float, mine)), abs=1e-14)
    if isinstance(expected[0], Fraction):
        assert mine == expected
    else:
        assert tuple(round(float(x), 4) for x in mine) == expected


def test_section_4s_disagreement_ndcg_prefers_a_while_err_and_expected_clicks_prefer_b():
    grades = {"a": 3, "b": 2, "c": 2, "d": 1}
    a, b = [grades.get(i, 0) for i in "bcda"], [grades.get(i, 0) for i in "caed"]
    pool = list(grades.values())
    assert round(ndcg_by_hand(a, pool), 4) == 0.8878 and round(ndcg_by_hand(b, pool), 4) == 0.7595

    def err(grades_):
        return float(sum(p / (pattern.index(1) + 1) for pattern, p in cascade_patterns(grades_) if any(pattern)))

    assert (round(err(a), 4), round(err(b), 4)) == (0.5832, 0.6509)
    clicks = [float(sum(Fraction(1, i) * alpha(g) for i, g in enumerate(r, 1))) for r in (a, b)]
    assert [round(c, 4) for c in clicks] == [0.8229, 0.8438]


def test_section_5s_sample_sizes_against_statsmodels():
    for control, treatment, users in ((0.10, 0.11, 14751), (0.10, 0.105, 57763), (0.10, 0.12, 3841), (0.20, 0.22, 6510)):
        theirs = samplesize_proportions_2indep_onetail(treatment - control, control, 0.8, ratio=1, alpha=0.05)
        assert -(-theirs // 1) == users == nt.ab_test_size(control, treatment).n_treatment
    # Interleaving: A's share q of the decided impressions tested against 1/2, sigma_0 = 1/2, sigma_1 = sqrt(q(1 - q)).
    shy = {0: 0.02, 1: 0.05, 2: 0.10, 3: 0.20}
    grade_of = {"a": 3, "b": 2, "c": 1, "d": 0}
    for model, impressions in ((nt.CascadeModel(attractiveness=shy), 251), (nt.PositionBasedModel(attractiveness=shy), 303)):
        outcome = nt.interleaving_outcomes(["a", "b", "c", "d"], ["b", "a", "c", "d"], grade_of, model)
        decided = outcome.a_wins + outcome.b_wins
        q = outcome.a_wins / decided
        n = normal_sample_size_one_tail(q - 0.5, 0.8, 0.025, std_null=0.5, std_alternative=(q * (1 - q)) ** 0.5)
        assert round(n / decided) == impressions
    ctr_a, ctr_b = (1 - (1 - shy[grade_of[order[0]]]) * (1 - shy[grade_of[order[1]]] / 2) * (1 - shy[1] / 3)
                    * (1 - shy[0] / 4) for order in ("abcd", "bacd"))
    assert -(-samplesize_proportions_2indep_onetail(ctr_a - ctr_b, ctr_b, 0.8, ratio=1, alpha=0.05) // 1) == 1168


def test_exercise_1_by_the_cascade_fractions():
    assert nt.CascadeModel().click_probabilities([1, 2, 3]).clicks[2] == float(Fraction(7, 8) * Fraction(5, 8) * Fraction(7, 8))


def test_exercise_3_accepts_every_standard_formulas_answer_and_its_hint_names_them():
    """6,510 (the lesson's), 6,507, 6,508, 6,610 and 6,636 users per arm, each by its own route."""
    p_c, p_t = 0.20, 0.22
    z = 1.959963984540054 + 0.8416212335729143  # z_{0.975} + z_{0.8}
    fleiss = samplesize_proportions_2indep_onetail(p_t - p_c, p_c, 0.8, ratio=1, alpha=0.05)
    unpooled = z**2 * (p_t * (1 - p_t) + p_c * (1 - p_c)) / (p_t - p_c) ** 2
    arcsine = NormalIndPower().solve_power(proportion_effectsize(p_t, p_c), power=0.8, alpha=0.05, ratio=1)
    continuity = fleiss / 4 * (1 + sqrt(1 + 4 / (fleiss * (p_t - p_c)))) ** 2
    rule_of_16 = 16 * Fraction(21, 100) * Fraction(79, 100) / Fraction(2, 100) ** 2  # exact: no rounding to undo
    ours = standard_sizes({"p_control": p_c, "p_treatment": p_t})
    for name, theirs in (("fleiss", fleiss), ("unpooled", unpooled), ("continuity", continuity), ("rule of 16", rule_of_16)):
        assert ours[name] == pytest.approx(float(theirs), rel=1e-9), name
    assert abs(ours["arcsine"] - arcsine) < 0.1  # statsmodels also counts the far tail's power, a few hundredths of a user
    users = {"fleiss": ceil(fleiss), "unpooled": ceil(unpooled), "arcsine": ceil(arcsine),
             "continuity": ceil(continuity), "rule of 16": int(rule_of_16)}
    assert users == {"fleiss": 6510, "unpooled": 6507, "arcsine": 6508, "continuity": 6610, "rule of 16": 6636}
    assert all(check("18-ab-size", n) for n in users.values())
    assert not any(check("18-ab-size", n) for n in (6506, 6509, 6511, 6609, 6611, 6635, 6637, 6400))
    hint = check("18-ab-size", 1000).message
    for named in ("Fleiss, Levin & Paik", "σ_0 = σ_1 (unpooled)", "arcsine", "h = 2·asin√p_t - 2·asin√p_c",
                  "continuity correction", "16·p̄(1 - p̄) / (p_t - p_c)²"):
        assert named in hint


def test_section_5s_prose_puts_interleavings_gain_on_the_paired_contrast_and_ctrs_bluntness():
    """Identical simulated users: the prose's numbers by exact fractions, every coin flip and click pattern."""
    shy = {0: Fraction(2, 100), 1: Fraction(5, 100), 2: Fraction(10, 100), 3: Fraction(20, 100)}
    grade_of = {"a": 3, "b": 2, "c": 1, "d": 0}

    def shy_pbm_patterns(grades):
        chances = [Fraction(1, i) * shy[g] for i, g in enumerate(grades, 1)]
        for pattern in product((0, 1), repeat=len(grades)):
            p = Fraction(1)
            for clicked, chance in zip(pattern, chances):
                p *= chance if clicked else 1 - chance
            yield pattern, p

    ctr = {order: 1 - sum(p for pattern, p in shy_pbm_patterns([grade_of[i] for i in order]) if not any(pattern))
           for order in ("abcd", "bacd")}
    a_wins, b_wins = exact_outcome(list("abcd"), list("bacd"), grade_of, shy_pbm_patterns)
    stated = (f"{float(ctr['abcd']):.4f}", f"{float(ctr['bacd']):.4f}", f"{float(ctr['abcd'] - ctr['bacd']):.4f}",
              f"{float(a_wins + b_wins):.4f}", f"{float(a_wins / (a_wins + b_wins)):.4f}")
    assert stated == ("0.2564", "0.2075", "0.0489", "0.2199", "0.6687")
    notebook = json.loads((Path(__file__).resolve().parent.parent / "notebooks" / "18-online-evaluation.ipynb")
                          .read_text(encoding="utf-8"))
    prose = [text for text in ("".join(c["source"]) for c in notebook["cells"] if c["cell_type"] == "markdown")
             if "Its gain has two other sources." in text]
    assert len(prose) == 1
    assert "with no differences between users to cancel" in prose[0]
    assert f"impressions with a winner ({stated[3]} of them under the position-based model)" in prose[0]
    # More impressions have a click than have a winner: a tie has clicks but no vote.
    clicked = Fraction(0)
    for coins in product((True, False), repeat=2):
        shown, _ = team_draft_list(list("abcd"), list("bacd"), 4, coins)
        clicked += sum(p for pattern, p in shy_pbm_patterns([grade_of[i] for i in shown]) if any(pattern)) / 4
    assert f"{float(clicked):.4f}" == "0.2319" and clicked > a_wins + b_wins
    assert f"A winning {stated[4]} of the votes" in prose[0]
    assert f"two CTRs, {stated[0]} and {stated[1]}, measured on separate arms" in prose[0]


def test_try_its_answer_by_fractions_in_both_editions():
    """The PBM clicks of each result before and after the last drag (d a b c, then c to the top), and the DCG terms."""
    grade_of = {"a": 3, "b": 2, "c": 1, "d": 0}

    def clicks(order):
        return {item: Fraction(1, i) * alpha(grade_of[item]) for i, item in enumerate(order, 1)}

    before, after = clicks("dabc"), clicks("cdab")
    assert (before["a"], after["a"]) == (Fraction(7, 16), Fraction(7, 24))
    assert before["b"] - after["b"] == Fraction(1, 32) and after["c"] - before["c"] == Fraction(3, 32)
    assert sum(before.values()) - sum(after.values()) == Fraction(1, 12)
    assert alpha(3) / alpha(1) == 7
    terms = (3 * (1 / log2(3) - 1 / log2(4)), 2 * (1 / log2(4) - 1 / log2(5)), 1 * (1 - 1 / log2(5)))
    stated = [f"{t:.4f}" for t in terms]
    assert stated == ["0.3928", "0.1386", "0.5693"]
    assert terms[2] > terms[0] + terms[1]  # NDCG rises
    root = Path(__file__).resolve().parent.parent / "notebooks"
    for path, marker in (("18-online-evaluation.ipynb", "What the last drag shows."),
                         ("zh-CN/18-online-evaluation.zh-CN.ipynb", "最后一次拖动说明了什么。")):
        notebook = json.loads((root / path).read_text(encoding="utf-8"))
        prose = [t for t in ("".join(c["source"]) for c in notebook["cells"] if c["cell_type"] == "markdown") if marker in t]
        assert len(prose) == 1, path
        for number in ("7/16", "7/24", "1/32", "3/32", "1/12", *(f"= {x}" for x in stated)):
            assert number in prose[0], (path, number)
