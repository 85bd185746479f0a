"""The explorers' diversity cards (α-nDCG, ERR-IA): given each item's grades per subtopic, they show what the
library's functions give for the current order, confirmed and previewed alike; without them they refuse clearly.

The oracle is the public functions ``nt.alpha_ndcg`` and ``nt.err_ia`` called on the table of the reordered
items' rows, independently of the explorer's Query and registry path.
"""

import pytest
from test_widgets_explorer import GRADES, ITEMS, front_end_custom, front_end_update, record

import ndcg_teach as nt
from ndcg_teach.widgets import CompareExplorer, RankingExplorer, payload

SUBTOPICS = {"A": [1, 0, 1], "B": [1, 0, 0], "C": [0, 1, 0], "D": [0, 0, 2], "E": [0, 0, 0]}
CARDS = ["ndcg", "alpha_ndcg", "err_ia"]


def expected(order, k=None, threshold=1):
    table = [SUBTOPICS[item] for item in order]
    return {
        "ndcg": nt.ndcg(nt.relevances_from(order, GRADES), k=k),
        "alpha_ndcg": nt.alpha_ndcg(table, k, threshold=threshold),
        "err_ia": nt.err_ia(table, k, threshold=threshold),
    }


def texts(values):
    return [f"{values[key]:.4f}" for key in CARDS]


@pytest.fixture
def diverse():
    return RankingExplorer(ITEMS, GRADES, metrics=CARDS, subtopics=SUBTOPICS)


def test_the_cards_are_the_library_values_of_the_current_order(diverse):
    assert diverse.metrics == pytest.approx(expected(ITEMS), abs=1e-15)
    panel = diverse.panels[0]
    assert [card["key"] for card in panel["metrics"]] == CARDS
    assert [card["label"] for card in panel["metrics"]] == ["NDCG@5", "α-nDCG@5", "ERR-IA@5"]
    assert [card["text"] for card in panel["metrics"]] == texts(expected(ITEMS))
    assert diverse.subtopics == {item: [float(grade) for grade in row] for item, row in SUBTOPICS.items()}


@pytest.mark.parametrize(("item", "position"), [("D", 1), ("C", 2), ("B", 5), ("E", 3)])
def test_the_cards_follow_each_move(diverse, item, position):
    diverse.move(item, position)
    assert diverse.metrics == pytest.approx(expected(diverse.order), abs=1e-15)
    assert diverse.order != ITEMS
    assert diverse.metrics["alpha_ndcg"] == nt.alpha_ndcg([SUBTOPICS[i] for i in diverse.order])


def test_k_and_the_threshold_reach_the_diversity_cards(diverse):
    diverse.k, diverse.threshold = 3, 2
    assert diverse.metrics == pytest.approx(expected(ITEMS, k=3, threshold=2), abs=1e-15)
    assert diverse.metrics["alpha_ndcg"] != expected(ITEMS, k=3)["alpha_ndcg"]  # the threshold changed what counts


@pytest.mark.parametrize("k", [None, 2])
def test_each_preview_is_the_value_after_that_move(k):
    widget = RankingExplorer(ITEMS, GRADES, k=k, metrics=CARDS, subtopics=SUBTOPICS)
    destinations = widget.previews("order", "D")["destinations"]
    assert len({tuple(d["texts"]) for d in destinations}) > 1
    for position, destination in enumerate(destinations, start=1):
        fresh = RankingExplorer(ITEMS, GRADES, k=k, metrics=CARDS, subtopics=SUBTOPICS)
        fresh.move("D", position)
        assert destination["texts"] == [card["text"] for card in fresh.panels[0]["metrics"]]
        assert destination["texts"] == texts(expected(fresh.order, k=k))


def test_the_packed_previews_sent_to_the_page_carry_the_diversity_values(diverse):
    record(diverse)
    front_end_custom(diverse, {"event": "preview", "ranking": "order", "item": "C"})
    (message,) = [m["content"] for m in diverse.comm.messages if m.get("method") == "custom"]
    entry = next(entry for entry in message["items"] if entry["item"] == "C")
    shown = entry["texts"].split(" ")
    for d in range(len(ITEMS)):
        order = [item for item in ITEMS if item != "C"]
        order.insert(d, "C")
        assert shown[d * len(CARDS):(d + 1) * len(CARDS)] == texts(expected(order))


def test_compare_mode_shows_the_difference_in_the_diversity_cards():
    duel = CompareExplorer(ITEMS, sorted(ITEMS), GRADES, metrics=CARDS, subtopics=SUBTOPICS)
    first, second = expected(ITEMS), expected(sorted(ITEMS))
    assert [row["delta"] for row in duel.comparison] == [f"{second[key] - first[key]:+.4f}" for key in CARDS]


def test_a_diversity_card_without_subtopics_is_refused_naming_subtopics():
    with pytest.raises(ValueError) as refusal:
        RankingExplorer(ITEMS, GRADES, metrics=["ndcg", "err_ia"])
    assert str(refusal.value) == (
        "subtopics is required for the err_ia card: it reads each item's grade per subtopic; pass "
        "subtopics={item: [grade per subtopic, ...]}, e.g. {'A': [1, 0], 'B': [0, 2]}. "
        "Got metrics=['ndcg', 'err_ia'] and no subtopics instead.")


@pytest.mark.parametrize(("subtopics", "error", "message"), [
    ([[1, 0]] * 5, TypeError, r"^subtopics must map each item id to its grades per subtopic .* Got \[\[1, 0\], "),
    ({**SUBTOPICS, "E": None}, TypeError, r"^subtopics must give each item a list of grades, one per subtopic, .*"
                                          r"item 'E' has None\. Got .* instead\.$"),
    ({key: row for key, row in SUBTOPICS.items() if key != "C"}, ValueError,
     r"^subtopics must give a row of grades for every item; missing \['C'\]\. Got .* instead\.$"),
    ({**SUBTOPICS, "F": [1, 1, 1]}, ValueError, r"^subtopics must hold rows only for the listed items; \['F'\] are not listed\."),
    ({**SUBTOPICS, "A": [1, 0]}, ValueError, r"^subtopics must give every item the same number of grades \(one per "
                                             r"subtopic, at least one\); the rows have 2, 3 grades\. Got .* instead\.$"),
    ({item: [] for item in ITEMS}, ValueError, r"the rows have 0 grades\."),
    ({**SUBTOPICS, "B": [1, -1, 0]}, ValueError, r"^subtopics must hold finite non-negative grades; item 'B', subtopic 2 "
                                                 r"has -1\. Got .* instead\.$"),
    ({**SUBTOPICS, "B": [1, float("nan"), 0]}, ValueError, r"item 'B', subtopic 2 has nan\."),
    ({**SUBTOPICS, "B": [1, "2", 0]}, ValueError, r"item 'B', subtopic 2 has '2'\."),
    ({**SUBTOPICS, "B": [True, 0, 0]}, ValueError, r"item 'B', subtopic 1 has True\."),
])
def test_bad_subtopics_are_refused_at_construction(subtopics, error, message):
    with pytest.raises(error, match=message):
        RankingExplorer(ITEMS, GRADES, metrics=CARDS, subtopics=subtopics)


def test_subtopics_without_a_diversity_card_change_nothing_shown():
    plain, given = RankingExplorer(ITEMS, GRADES), RankingExplorer(ITEMS, GRADES, subtopics=SUBTOPICS)
    assert given.metrics == plain.metrics
    assert given.panels[0]["metrics"] == plain.panels[0]["metrics"]


def test_the_page_may_not_set_subtopics(diverse):
    record(diverse)
    before = diverse.metrics
    front_end_update(diverse, subtopics={item: [0, 0, 0] for item in ITEMS})
    assert diverse.notice["kind"] == "error"
    assert "subtopics is the kernel's to set" in diverse.notice["text"]
    assert diverse.subtopics == {item: [float(grade) for grade in row] for item, row in SUBTOPICS.items()}
    assert diverse.metrics == before


def test_a_grade_edit_leaves_the_diversity_cards_to_the_subtopics(diverse):
    front_end_custom(diverse, {"event": "grade", "item": "D", "grade": 5})
    assert diverse.relevance["D"] == 5
    assert diverse.metrics == pytest.approx({**expected(ITEMS), "ndcg": nt.ndcg(
        nt.relevances_from(ITEMS, {**GRADES, "D": 5}))}, abs=1e-15)


# ---- The step table's subtopic column --------------------------------------------------------------

def coverage_by_hand(order, k=None, threshold=1):
    """Each of the top k items' subtopics (1-based), "+" before those no item above it covers, "-" for none."""
    seen, texts = set(), []
    for item in order[:k]:
        mine = [i + 1 for i, grade in enumerate(SUBTOPICS[item]) if grade >= threshold]
        texts.append(",".join(("" if i in seen else "+") + str(i) for i in mine) or "-")
        seen.update(mine)
    return texts


def column(panel, key):
    return [row[[c["text"] for c in panel["columns"]].index(key)] for row in panel["steps"]]


def test_each_step_row_shows_the_items_subtopics_new_ones_marked(diverse):
    panel = diverse.panels[0]
    assert column(panel, "subtopics (+ new)") == coverage_by_hand(ITEMS) == ["+1", "1,+3", "3", "+2", "-"]
    assert [field["key"] for field in diverse.payload["steps"]][:3] == ["position", "item", "coverage"]
    assert len(panel["columns"]) == len(payload.columns(True)) == len(panel["steps"][0])
    assert [c["start"] for c in panel["columns"]].index(True) == len(payload.step_fields(True))
    diverse.move("D", 1)
    assert column(diverse.panels[0], "subtopics (+ new)") == coverage_by_hand(diverse.order) == [
        "+3", "+1", "1,3", "+2", "-"]
    diverse.k, diverse.threshold = 3, 2
    assert column(diverse.panels[0], "subtopics (+ new)") == coverage_by_hand(diverse.order, 3, 2) == ["+3", "-", "-"]


def test_an_explorer_without_subtopics_keeps_its_columns():
    plain = RankingExplorer(ITEMS, GRADES)
    assert plain.payload == payload.schema() and "coverage" not in payload.COLUMNS
    assert len(plain.panels[0]["columns"]) == len(payload.COLUMNS) == len(plain.panels[0]["steps"][0])


def test_the_chinese_explorer_heads_the_column_in_chinese():
    panel = RankingExplorer(ITEMS, GRADES, metrics=CARDS, subtopics=SUBTOPICS, language="zh-CN").panels[0]
    assert panel["columns"][2]["text"] == nt.i18n.gettext("subtopics (+ new)", "zh-CN") != "subtopics (+ new)"


@pytest.mark.parametrize("k", [None, 3])
def test_every_preview_and_packed_preview_shows_the_subtopics_after_that_move(k):
    widget = record(RankingExplorer(ITEMS, GRADES, k=k, metrics=CARDS, subtopics=SUBTOPICS))
    at = payload.columns(True).index("coverage")
    fields = payload.step_fields(True)
    front_end_custom(widget, {"event": "preview", "ranking": "order", "item": "D"})
    (message,) = [m["content"] for m in widget.comm.messages if m.get("method") == "custom"]
    entry = next(entry for entry in message["items"] if entry["item"] == "D")
    for d, destination in enumerate(widget.previews("order", "D")["destinations"]):
        fresh = RankingExplorer(ITEMS, GRADES, k=k, metrics=CARDS, subtopics=SUBTOPICS)
        fresh.move("D", d + 1)
        confirmed = [row[:len(fields)] for row in fresh.panels[0]["steps"]]
        assert [row[at] for row in confirmed] == coverage_by_hand(fresh.order, k)
        assert destination["steps"] == confirmed
        assert payload.unpacked_steps(message, entry, d, fields) == confirmed
def test_the_diversity_cards_stand_under_their_own_heading(diverse):
    # Not "graded: every grade counts": alpha-nDCG reads each subtopic's grade through the threshold by default.
    panel = diverse.panels[0]
    assert [card["group"] for card in panel["metrics"]] == ["graded", "diversity", "diversity"]
    assert panel["groups"] == {"graded": "graded: every grade counts",
                               "diversity": "diversity: each subtopic counts, less each time it is covered again"}
    chinese = RankingExplorer(ITEMS, GRADES, metrics=CARDS, subtopics=SUBTOPICS, language="zh-CN")
    assert chinese.panels[0]["groups"]["diversity"] == "多样性指标：每个子主题都计入，每被再次覆盖一次就少算一些"
