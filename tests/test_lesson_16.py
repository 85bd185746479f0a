"""Lesson 16's numbers, recomputed without the library: plain Python from the papers' definitions, and ndeval itself.

S-recall is Zhai, Cohen and Lafferty's count of covered subtopics; α-nDCG is Clarke et al.'s gain (1 - α)^c over
log2(rank + 1), its ideal built greedily as ndeval builds it (on a tie, the docno that sorts last); ERR-IA is
Chapelle et al.'s cascade run once per intent. ndeval's own numbers come from pyndeval, a wrapper of ndeval's C
source (TREC Web track, version 4.5). Each test states the numbers the lesson prints, rounded as printed.
"""

import itertools
import math

import pytest

JUDGEMENTS = {  # the lesson's seven pages: one row each, subtopics animal, car, OS
    "car-1": [0, 1, 0], "car-2": [0, 1, 0], "car-3": [0, 1, 0], "cat-1": [1, 0, 0], "os-1": [0, 0, 1],
    "logo-1": [1, 1, 0], "nfl-1": [0, 0, 0],
}
RUNS = {"A": ["car-1", "car-2", "car-3", "cat-1", "os-1"], "B": ["car-1", "cat-1", "os-1", "car-2", "car-3"]}
TRICKY = {"w": [0, 0, 1, 1, 0], "x": [0, 1, 0, 0, 1], "y": [1, 0, 0, 0, 1], "z": [0, 0, 1, 0, 1]}


def gains(order, alpha, table=JUDGEMENTS):
    seen, out = [0] * len(next(iter(table.values()))), []
    for page in order:
        out.append(sum((1 - alpha) ** seen[i] for i, grade in enumerate(table[page]) if grade))
        seen = [count + (grade > 0) for count, grade in zip(seen, table[page])]
    return out


def alpha_dcg(order, alpha, table=JUDGEMENTS):
    return sum(gain / math.log2(rank + 1) for rank, gain in enumerate(gains(order, alpha, table), start=1))


def greedy_ideal(table, k, alpha):
    """ndeval's idealResult: at each rank the page that gains most; on a tie the docno that sorts last."""
    left, ideal = sorted(table), []
    while left and len(ideal) < k:
        best = max(left, key=lambda page: (gains(ideal + [page], alpha, table)[-1], page))
        ideal.append(best)
        left.remove(best)
    return ideal


def alpha_ndcg(order, k, alpha=0.5, table=JUDGEMENTS):
    return alpha_dcg(order[:k], alpha, table) / alpha_dcg(greedy_ideal(table, k, alpha), alpha, table)


def err_of_intent(order, intent, k):
    """ERR of one intent's reader: a page relevant to it stops them with probability (2^1 - 1) / 2^1 = 1/2."""
    reach, value = 1.0, 0.0
    for rank, page in enumerate(order[:k], start=1):
        stop = 0.5 if JUDGEMENTS[page][intent] else 0.0
        value += reach * stop / rank
        reach *= 1 - stop
    return value


def err_ia(order, k, weights=(1 / 3, 1 / 3, 1 / 3)):
    return sum(w * err_of_intent(order, i, k) for i, w in enumerate(weights))


def covered(order, k):
    return {i for page in order[:k] for i, grade in enumerate(JUDGEMENTS[page]) if grade}


def ndeval(table, order, measures):
    """ndeval's numbers for one query (topic 1) and one run, through pyndeval."""
    pyndeval = pytest.importorskip("pyndeval", reason="pyndeval (ndeval's C source) has wheels for Linux x86-64 only")
    qrels = [("1", str(i + 1), page, grade) for page, row in table.items() for i, grade in enumerate(row)]
    run = [("1", page, float(10 - rank)) for rank, page in enumerate(order, 1)]
    return pyndeval.RelevanceEvaluator(qrels, measures).evaluate(run)["1"]


def test_section_1_one_grade_per_page_scores_both_runs_1():
    metrics = pytest.importorskip("sklearn.metrics")
    any_subtopic = [max(row) for row in JUDGEMENTS.values()]
    for order in RUNS.values():
        scores = [float(len(order) - order.index(page)) if page in order else 0.0 for page in JUDGEMENTS]
        assert metrics.ndcg_score([any_subtopic], [scores], k=5) == 1.0


def test_section_2s_subtopic_recall():
    printed = {"A": "0.3333, 0.3333, 0.3333, 0.6667, 1.0000", "B": "0.3333, 0.6667, 1.0000, 1.0000, 1.0000"}
    for name, order in RUNS.items():
        assert ", ".join(f"{len(covered(order, k)) / 3:.4f}" for k in range(1, 6)) == printed[name]


def test_section_3s_alpha_ndcg_and_its_greedy_ideal():
    assert greedy_ideal(JUDGEMENTS, 5, 0.5) == ["logo-1", "os-1", "cat-1", "car-3", "car-2"]  # ndeval's tie rule
    assert gains(["logo-1", "os-1", "car-1", "cat-1", "car-2"], 0.5) == [2.0, 1.0, 0.5, 0.5, 0.25]  # the library's
    assert f"{alpha_dcg(greedy_ideal(JUDGEMENTS, 5, 0.5), 0.5):.4f}" == "3.1930"
    assert gains(RUNS["A"], 0.5) == [1.0, 0.5, 0.25, 1.0, 1.0] and gains(RUNS["B"], 0.5) == [1.0, 1.0, 1.0, 0.5, 0.25]
    printed = {0.0: ("0.7467", "0.7467"), 0.5: ("0.7072", "0.7651"), 1.0: ("0.6908", "0.8100")}
    for alpha, (a, b) in printed.items():
        assert (f"{alpha_ndcg(RUNS['A'], 5, alpha):.4f}", f"{alpha_ndcg(RUNS['B'], 5, alpha):.4f}") == (a, b)


def test_section_4s_greedy_ideal_is_beaten():
    assert greedy_ideal(TRICKY, 3, 0.5) == ["z", "y", "w"] and gains(["z", "y", "w"], 0.5, TRICKY) == [2.0, 1.5, 1.5]
    best = max(itertools.permutations(TRICKY, 3), key=lambda order: alpha_dcg(order, 0.5, TRICKY))
    assert gains(best, 0.5, TRICKY) == [2.0, 2.0, 1.5]
    score = alpha_ndcg(list(best), 3, table=TRICKY)
    assert f"{score:.4f}" == "1.0853"
    assert ndeval(TRICKY, best, ["alpha-nDCG@3"])["alpha-nDCG@3"] == pytest.approx(score, abs=1e-12)


def test_section_5s_err_ia_and_the_verdict_that_flips_with_the_weights():
    per_intent = {name: [f"{err_of_intent(order, i, 5):.4f}" for i in range(3)] for name, order in RUNS.items()}
    assert per_intent == {"A": ["0.1250", "0.6667", "0.1000"], "B": ["0.2500", "0.5875", "0.1667"]}
    equal = {name: err_ia(order, 5) for name, order in RUNS.items()}
    car = {name: err_ia(order, 5, (0.3, 0.6, 0.1)) for name, order in RUNS.items()}
    assert [f"{equal[n]:.4f}" for n in "AB"] == ["0.2972", "0.3347"] and equal["B"] > equal["A"]
    assert [f"{car[n]:.4f}" for n in "AB"] == ["0.4475", "0.4442"] and car["A"] > car["B"]


def test_section_6s_numbers_are_ndevals():
    # ndeval's ERR-IA@k divides by the ERR-IA of a page relevant to every intent at every rank; nERR-IA@k by the
    # greedy ideal's; both read R = 1/2 for a relevant page.
    every_intent = sum(0.5 * 0.5 ** (rank - 1) / rank for rank in range(1, 6))
    printed = {"A": ("0.3333", "0.7072", "0.4317", "0.6276"), "B": ("1.0000", "0.7651", "0.4861", "0.7067")}
    for name, order in RUNS.items():
        mine = (len(covered(order, 3)) / 3, alpha_ndcg(order, 5), err_ia(order, 5) / every_intent,
                err_ia(order, 5) / err_ia(greedy_ideal(JUDGEMENTS, 5, 0.5), 5))
        theirs = ndeval(JUDGEMENTS, order, ["strec@3", "alpha-nDCG@5", "ERR-IA@5", "nERR-IA@5"])
        assert list(mine) == pytest.approx([theirs[m] for m in ("strec@3", "alpha-nDCG@5", "ERR-IA@5", "nERR-IA@5")],
                                           abs=1e-12)
        assert tuple(f"{value:.4f}" for value in mine) == printed[name]


def test_try_it_drags_and_the_orders_that_score_1():
    order = RUNS["A"] + ["logo-1", "nfl-1"]
    cards = []
    for page, position in ((None, None), ("cat-1", 2), ("os-1", 3), ("logo-1", 1)):
        if page:
            order.remove(page)
            order.insert(position - 1, page)
        cards.append((order[:3], f"{len(covered(order, 3)) / 3:.4f}", f"{alpha_ndcg(order, 3):.4f}",
                      f"{err_ia(order, 3):.4f}"))
    assert cards == [
        (["car-1", "car-2", "car-3"], "0.3333", "0.5000", "0.2222"),
        (["car-1", "cat-1", "car-2"], "0.6667", "0.6529", "0.2778"),
        (["car-1", "cat-1", "os-1"], "1.0000", "0.7397", "0.3056"),
        (["logo-1", "car-1", "cat-1"], "0.6667", "0.8905", "0.4028"),
    ]
    orders = list(itertools.permutations(JUDGEMENTS, 3))
    perfect = [order for order in orders if abs(alpha_ndcg(list(order), 3) - 1) < 1e-12]
    assert len(orders) == 210 and sorted(perfect) == [("logo-1", "os-1", page) for page in ("car-1", "car-2", "car-3",
                                                                                          "cat-1")]
    assert max(alpha_ndcg(list(order), 3) for order in orders) == pytest.approx(1.0, abs=1e-12)


def test_the_exercises():
    rows = [[1, 0, 0, 0], [1, 1, 0, 0], [0, 1, 0, 0], [0, 0, 1, 1]]
    assert len({i for row in rows[:3] for i, grade in enumerate(row) if grade}) / 4 == 0.5
    table = {"r1": [1, 0, 0], "r2": [1, 0, 0], "r3": [0, 1, 1]}
    assert f"{alpha_ndcg(['r1', 'r2', 'r3'], 3, table=table):.4f}" == "0.8037"
    intents = [[1, 0], [1, 0], [0, 1]]

    def err(column):
        reach, value = 1.0, 0.0
        for rank, row in enumerate(intents, start=1):
            stop = 0.5 if row[column] else 0.0
            value, reach = value + reach * stop / rank, reach * (1 - stop)
        return value

    assert f"{0.8 * err(0) + 0.2 * err(1):.4f}" == "0.5333"
