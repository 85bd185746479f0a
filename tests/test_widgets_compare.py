"""CompareExplorer on the Python side: two rankings side by side, their previews and the comparison."""

import pytest
from test_widgets_explorer import GRADES, ITEMS, expected_metrics, front_end_custom, front_end_update, record

from ndcg_teach.widgets import CompareExplorer


@pytest.fixture
def duel():
    return CompareExplorer(ITEMS, ["E", "A", "B", "C", "D"], GRADES, k=3)


def test_compare_shows_both_rankings_and_the_difference(duel):
    first, second = expected_metrics(ITEMS, k=3), expected_metrics(["E", "A", "B", "C", "D"], k=3)
    assert duel.metrics == {"a": first, "b": second}
    assert duel.differences == {key: second[key] - first[key] for key in first}
    rows = {row["key"]: row for row in duel.comparison}
    assert rows["ndcg"] == {
        "key": "ndcg", "label": "NDCG@3", "a": f"{first['ndcg']:.4f}", "b": f"{second['ndcg']:.4f}",
        "delta": f"{second['ndcg'] - first['ndcg']:+.4f}", "sign": -1,
    }
    assert rows["idcg"]["sign"] == 0
    assert [panel["trait"] for panel in duel.panels] == ["order_a", "order_b"]
    assert duel.names == ["Model A", "Model B"]
    assert [panel["plot"]["running"] for panel in duel.panels] == [
        [row.running for row in duel.traces[side].rows] for side in "ab"
    ]


def test_compare_each_ranking_moves_and_repairs_on_its_own(duel):
    record(duel)
    front_end_update(duel, order_b=["A", "A", "E"])
    assert duel.order_b == ["A", "E", "B", "D", "C"]
    assert duel.order_a == ITEMS
    front_end_custom(duel, {"event": "action", "name": "ideal", "ranking": "order_a"})
    assert duel.order_a == ["A", "B", "C", "D", "E"]
    duel.move("b", "C", 1)
    assert duel.order_b[0] == "C"
    duel.reset("b")
    assert duel.order_b == ["E", "A", "B", "C", "D"]
    assert duel.metrics["b"] == expected_metrics(duel.order_b, k=3)


def test_compare_grade_edits_change_both_rankings(duel):
    duel.set_grade("E", 5)
    assert duel.metrics["a"] == expected_metrics(ITEMS, grades={**GRADES, "E": 5}, k=3)
    assert duel.metrics["b"] == expected_metrics(["E", "A", "B", "C", "D"], grades={**GRADES, "E": 5}, k=3)


def test_compare_repr(duel):
    assert repr(duel) == (
        "CompareExplorer(order_a=['B', 'A', 'D', 'C', 'E'], order_b=['E', 'A', 'B', 'C', 'D'], k=3, gain='linear', "
        "discount='log2', threshold=1): NDCG@3 Model A = 0.9037, Model B = 0.6821"
    )


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"ranking_b": ["A", "B"]}, r"ranking_b must hold the same items as ranking_a \['A', 'B', 'C', 'D', 'E'\]\. Got \['A', 'B'\] instead\."),
        ({"names": "AB"}, r"names must be two strings, one per ranking\. Got 'AB' instead\."),
        ({"ranking_a": "ABCDE"}, r"ranking_a must be a list of item ids"),
    ],
)
def test_compare_refuses_bad_arguments(kwargs, message):
    arguments = {"ranking_a": ITEMS, "ranking_b": ITEMS[::-1], "relevance": GRADES, **kwargs}
    with pytest.raises((ValueError, TypeError), match=message):
        CompareExplorer(**arguments)


def test_compare_side_must_be_a_or_b(duel):
    with pytest.raises(ValueError, match=r"side must be 'a' or 'b'\. Got 'c' instead\."):
        duel.ideal("c")


def test_compare_previews_carry_the_comparison_after_the_move(duel):
    destination = duel.previews("order_b", "A")["destinations"][0]
    duel.move("b", "A", 1)
    assert destination["comparison"] == duel.comparison
    assert destination["texts"] == [metric["text"] for metric in duel.panels[1]["metrics"]]

