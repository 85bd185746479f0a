"""Named items to grades."""

import ndcg_teach as nt

GRADES = {"A": 5, "B": 4, "C": 3, "D": 2, "E": 1}


def test_document_000_ranking_to_grades():
    assert nt.relevances_from(["B", "A", "D", "C", "E"], GRADES) == [4, 5, 2, 3, 1]


def test_ideal_order_keeps_ties_in_their_order():
    assert nt.ideal_order(["x", "y", "z"], {"x": 1, "y": 2, "z": 1}) == ["y", "x", "z"]
