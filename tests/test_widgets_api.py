"""The explorer's Python API: move, set a grade, set any trait, and what a failure while recomputing shows."""

import pytest
import traitlets
from test_widgets_explorer import GRADES, ITEMS, expected_metrics, shown_numbers

import ndcg_teach as nt
from ndcg_teach.widgets import RankingExplorer
from ndcg_teach.widgets import panel as panel_module


@pytest.fixture
def explorer():
    return RankingExplorer(ITEMS, GRADES)


def test_move(explorer):
    explorer.move("E", 1)
    assert explorer.order == ["E", "B", "A", "D", "C"]
    explorer.move("E", 5)
    assert explorer.order == ["B", "A", "D", "C", "E"]


@pytest.mark.parametrize(
    ("item", "position", "message"),
    [
        ("Z", 1, r"item must be one of the explorer's items \['B', 'A', 'D', 'C', 'E'\]\. Got 'Z' instead\."),
        ("A", 0, r"position must be a whole number from 1 to 5\. Got 0 instead\."),
        ("A", 6, r"position must be a whole number from 1 to 5\. Got 6 instead\."),
        ("A", 1.0, r"position must be a whole number from 1 to 5\. Got 1\.0 instead\."),
    ],
)
def test_move_refuses_bad_input(explorer, item, position, message):
    with pytest.raises(ValueError, match=message):
        explorer.move(item, position)
    assert explorer.order == ITEMS


def test_set_grade_from_python_raises_and_changes_nothing(explorer):
    with pytest.raises(ValueError, match=r"The grade of 'A' must be a whole number from 0 to 5\. Got 6 instead\."):
        explorer.set_grade("A", 6)
    assert explorer.relevance == GRADES


@pytest.mark.parametrize(
    ("trait", "value", "expected"),
    [
        ("k", 2, {"k": 2}),
        ("gain", "exponential", {"gain": "exponential"}),
        ("discount", "jarvelin", {"discount": "jarvelin"}),
        ("threshold", 3, {"threshold": 3}),
        ("order", ["C", "D", "E", "A", "B"], {}),
        ("relevance", {**GRADES, "A": 0}, {"grades": {**GRADES, "A": 0}}),
    ],
)
def test_every_trait_change_recomputes(explorer, trait, value, expected):
    setattr(explorer, trait, value)
    assert explorer.metrics == expected_metrics(explorer.order, **expected)
    assert shown_numbers(explorer) == {key: f"{number:.4f}" for key, number in explorer.metrics.items()}


@pytest.mark.parametrize(("trait", "value"), [("k", 0), ("k", 6), ("threshold", 6), ("gain", "cubic"), ("relevance", {"A": 1})])
def test_bad_trait_values_are_refused(explorer, trait, value):
    with pytest.raises(traitlets.TraitError):
        setattr(explorer, trait, value)
    assert explorer.metrics == expected_metrics(ITEMS)


def test_threshold_marks_relevant_items(explorer):
    explorer.threshold = 4
    assert explorer.panels[0]["relevant"] == {"A": True, "B": True, "C": False, "D": False, "E": False}
    assert explorer.panels[0]["groups"]["binary"] == "binary: relevant if grade ≥ 4"


def test_an_error_while_recomputing_is_shown_in_the_widget(explorer, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("the library is broken")

    monkeypatch.setattr(panel_module, "explain_ndcg", broken)
    explorer.k = 2  # no exception escapes the observer
    assert explorer.notice["kind"] == "error"
    assert explorer.notice["text"] == "Could not update the explorer: RuntimeError: the library is broken"


def test_pool_builds_the_ideal_from_every_judged_item_and_follows_grade_edits():
    widget = RankingExplorer(["A", "B", "C"], {"A": 1, "B": 0, "C": 2}, pool=[3, 2, 1, 0])
    relevances = [1, 0, 2]
    assert widget.metrics["ndcg"] == nt.ndcg(relevances, k=3, pool=[3, 2, 1, 0])
    assert widget.metrics["recall"] == nt.recall_at_k(relevances, 3, n_relevant=3)
    assert widget.metrics["ap"] == nt.average_precision(relevances, k=3, n_relevant=3)
    widget.set_grade("A", 3)
    assert sorted(widget.pool) == [0, 2, 3, 3]
    assert widget.metrics["ndcg"] == nt.ndcg([3, 0, 2], k=3, pool=[3, 3, 2, 0])
    widget.reset()
    assert widget.pool == [3, 2, 1, 0]
