"""The ranking explorer's unjudged items (lesson 12): a row state, and cards that read the hole three ways.

Every card is checked against the plain functions as oracles: AP with the
unjudged items written as 0 (trec_eval's reading), AP on ``nt.condensed`` of
the list (Sakai's AP′) and ``nt.bpref`` with R and N counted in the pool.
"""

import itertools

import numpy as np
import pytest

import ndcg_teach as nt
from ndcg_teach.core.context import Query
from ndcg_teach.widgets import RankingExplorer
from ndcg_teach.widgets.unjudged import check_unjudged

# Lesson 12's run D: d7, d8 and d11 were never judged; the pool is the six judged documents' grades.
RUN = ["d7", "d1", "d8", "d4", "d2", "d3", "d11"]
TRUTH = {"d1": 1, "d2": 0, "d3": 1, "d4": 1, "d7": 1, "d8": 1, "d11": 0}
UNJUDGED = ["d7", "d8", "d11"]
POOL = [1, 0, 1, 1, 0, 0]
CARDS = ["ap", "condensed_ap", "bpref"]


def build(**changes):
    settings = {"unjudged": UNJUDGED, "pool": POOL, "metrics": CARDS, **changes}
    return RankingExplorer(RUN, TRUTH, **settings)


def by_library(order, unjudged, pool, k=None):
    """The three cards of ``order`` from the plain functions, R and N counted in the pool."""
    relevances = [None if item in unjudged else TRUTH[item] for item in order]
    k = len(order) if k is None else k
    n_relevant = sum(grade >= 1 for grade in pool)
    n_nonrelevant = len(pool) - n_relevant
    as_zero = [0 if grade is None else grade for grade in relevances]
    return {
        "ap": nt.average_precision(as_zero, k=k, n_relevant=n_relevant),
        "condensed_ap": nt.average_precision(nt.condensed(relevances), k=k, n_relevant=n_relevant),
        "bpref": nt.bpref(relevances[:k], n_relevant=n_relevant, n_nonrelevant=n_nonrelevant),
    }


def close(values, expected):
    return values.keys() == expected.keys() and all(abs(values[key] - expected[key]) < 1e-12 for key in expected)


def test_the_cards_are_the_library_s_three_readings_of_the_hole():
    explorer = build()
    assert close(explorer.metrics, by_library(RUN, UNJUDGED, POOL))
    # Lesson 12's numbers: AP 0.5 with the holes read as not relevant, AP' 0.9167, bpref 0.8889.
    assert [round(value, 4) for value in explorer.metrics.values()] == [0.5, 0.9167, 0.8889]
    assert [card["label"] for card in explorer.panels[0]["metrics"]] == ["AP@7", "AP′@7", "bpref@7"]


def test_dragging_an_unjudged_item_moves_ap_and_leaves_ap_prime_and_bpref():
    explorer = build()
    before = explorer.metrics
    explorer.move("d7", 7)
    after = explorer.metrics
    assert close(after, by_library(explorer.order, UNJUDGED, POOL))
    assert after["ap"] > before["ap"]
    assert after["condensed_ap"] == pytest.approx(before["condensed_ap"], abs=1e-12)
    assert after["bpref"] == pytest.approx(before["bpref"], abs=1e-12)


@pytest.mark.parametrize("k", [3, 7])
def test_every_preview_is_the_library_s_number_for_that_order(k):
    explorer = build(k=k)
    for item in RUN:
        for destination in explorer.previews("order", item)["destinations"]:
            order = destination["order"]
            expected = by_library(order, UNJUDGED, POOL, k)
            assert destination["texts"] == [f"{expected[key]:.4f}" for key in CARDS]
            grades = [row[2] for row in destination["steps"]]
            assert grades == ["" if item in UNJUDGED else str(TRUTH[item]) for item in order[:k]]


def test_the_step_table_and_the_list_show_which_rows_are_unjudged():
    panel = build().panels[0]
    assert panel["judged"] == {item: item not in UNJUDGED for item in RUN}
    grade_cells = [row[2] for row in panel["steps"]]
    assert grade_cells == ["", "1", "", "1", "0", "1", ""]
    assert build().choices["judging"] is True
    plain = RankingExplorer(RUN, TRUTH)
    assert plain.panels[0]["judged"] is None and plain.choices["judging"] is False


def test_judging_an_item_puts_its_grade_in_the_pool_and_every_card_follows():
    explorer = build()
    explorer.set_judged("d7", True)
    assert explorer.unjudged == ["d8", "d11"]
    assert sorted(explorer.pool) == sorted([*POOL, 1])
    assert close(explorer.metrics, by_library(RUN, ["d8", "d11"], [*POOL, 1]))
    assert explorer.notice["text"] == "d7 is judged again: grade 1."
    explorer.set_judged("d1", False)
    assert explorer.unjudged == ["d1", "d8", "d11"]
    assert sorted(explorer.pool) == sorted(POOL)  # d1's grade 1 left, d7's came in
    assert close(explorer.metrics, by_library(RUN, ["d1", "d8", "d11"], POOL))
    explorer.reset()
    assert explorer.unjudged == UNJUDGED and explorer.pool == POOL
    assert close(explorer.metrics, by_library(RUN, UNJUDGED, POOL))


def test_a_grade_edit_of_an_unjudged_item_leaves_the_pool_alone():
    explorer = build()
    explorer.set_grade("d8", 0)
    assert explorer.pool == POOL
    explorer.set_judged("d8", True)
    assert sorted(explorer.pool) == sorted([*POOL, 0])


def test_the_page_judges_through_a_checked_message():
    explorer = build()
    explorer._handle_msg({"content": {"data": {"method": "custom", "content": {"event": "judge", "item": "d8", "judged": True}}},
                          "buffers": []})
    assert explorer.unjudged == ["d7", "d11"]
    explorer._handle_msg({"content": {"data": {"method": "custom", "content": {"event": "judge", "item": "d8", "judged": "yes"}}},
                          "buffers": []})
    assert explorer.unjudged == ["d7", "d11"]
    assert explorer.notice == {"text": "judged must be True or False. Got 'yes' instead.", "kind": "error",
                               "serial": explorer.notice["serial"]}


def test_the_chinese_explorer_says_it_in_chinese():
    explorer = build(language="zh-CN")
    explorer.set_judged("d7", True)
    assert explorer.notice["text"] == "d7 已重新判断：等级为 1。"
    assert explorer.messages["row_unjudged"] == "，未判断"


@pytest.mark.parametrize("unjudged, error, message", [
    ("d7", TypeError, "unjudged must be a list of the explorer's item ids, e.g. ['D'], or None. Got 'd7' instead."),
    (["d7", "d7"], ValueError, "unjudged must name the explorer's items"),
    (["zz"], ValueError, "Got ['zz'] instead."),
])
def test_bad_unjudged_lists_are_refused_by_name(unjudged, error, message):
    with pytest.raises(error, match=message.replace("[", r"\[").replace("(", r"\(").replace(".", r"\.")):
        build(unjudged=unjudged)


def test_set_judged_needs_an_explorer_that_judges_and_a_known_item():
    with pytest.raises(ValueError, match="built without judging"):
        RankingExplorer(RUN, TRUTH).set_judged("d7", True)
    with pytest.raises(ValueError, match="item must be one of the explorer's items"):
        build().set_judged("zz", True)
    assert check_unjudged(["d8", "d7"], RUN) == ["d7", "d8"]  # kept in the list's order


def test_a_condensed_batch_is_each_query_condensed():
    base = Query.of([None, 1, 0, None, 2], unjudged=True, threshold=1)
    orders = list(itertools.permutations(range(5)))[:40]
    batch = base.reordered(orders).condensed()
    assert batch.lengths.tolist() == [3] * len(orders)
    for index, order in enumerate(orders):
        single = Query.of([[None, 1, 0, None, 2][i] for i in order], unjudged=True).condensed()
        np.testing.assert_array_equal(batch.row(index).grades, single.grades)
    assert Query.of([1, 0]).condensed().grades.tolist() == [1.0, 0.0]
    named = Query.of([None, 1], unjudged=True, ranking=["x", "y"]).condensed()
    assert named.ranking == ("y",) and named.judged is None
