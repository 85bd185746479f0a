"""The explorer's subtopic column in a real browser: the step table shows each item's subtopics, "+" before the new
ones, from the kernel's first panel, in the preview drawn at a drop and in the kernel's confirmation.

Expected texts are written by hand from the subtopic table below (the library's own tests check them against an
independent computation); the cards' numbers come from ndcg_teach.
"""

import pytest
from jupyter_harness import APPS
from test_explorer_browser import expect_order, expect_text, opened_explorers

import ndcg_teach as nt

pytestmark = pytest.mark.browser

ITEMS = ["car-1", "car-2", "cat-1", "os-1", "logo-1"]
GRADES = {"car-1": 1, "car-2": 1, "cat-1": 1, "os-1": 1, "logo-1": 1}
SUBTOPICS = {"car-1": [0, 1, 0], "car-2": [0, 1, 0], "cat-1": [1, 0, 0], "os-1": [0, 0, 1], "logo-1": [1, 1, 0]}
CARDS = ["ndcg", "subtopic_recall", "alpha_ndcg", "err_ia"]
CELLS = [
    "from ndcg_teach.widgets import CompareExplorer, RankingExplorer\n"
    f"explorer = RankingExplorer({ITEMS!r}, {GRADES!r}, k=3, subtopics={SUBTOPICS!r}, metrics={CARDS!r})\nexplorer",
    f"duel = CompareExplorer({ITEMS!r}, {ITEMS[::-1]!r}, {GRADES!r}, k=3, subtopics={SUBTOPICS!r}, metrics={CARDS!r})\n"
    "duel",
]


def column(explorers):
    """The step table's third column (the subtopics), top to bottom."""
    cells = explorers.single.locator("[data-testid=step-table] tbody tr td:nth-child(3)")
    return cells.evaluate_all("cells => cells.map(cell => cell.textContent)")


@pytest.fixture(scope="module", params=APPS)
def diverse(request, browser):
    with opened_explorers(browser, request.param, "subtopics.ipynb", CELLS) as result:
        yield result


def test_the_step_table_shows_each_items_subtopics_before_and_after_a_drag(diverse, screenshots):
    header = diverse.single.locator("[data-testid=step-table] thead th:nth-child(3)")
    expect_text(header, "subtopics (+ new)")
    diverse.page.wait_for_function(
        "(root) => root.querySelectorAll('[data-testid=step-table] tbody tr').length === 3", arg=diverse.single.element_handle())
    assert column(diverse) == ["+2", "2", "+1"]
    diverse.shot(screenshots, "subtopics")
    diverse.drag("logo-1", onto="car-1")
    moved = ["logo-1", "car-1", "car-2", "cat-1", "os-1"]
    expect_order(diverse, moved)
    table = [SUBTOPICS[item] for item in moved]
    expect_text(diverse.metric("alpha_ndcg"), f"{nt.alpha_ndcg(table, 3):.4f}")
    expect_text(diverse.metric("subtopic_recall"), f"{nt.subtopic_recall(table, 3):.4f}")
    assert diverse.kernel("explorer.order") == moved
    assert column(diverse) == ["+1,+2", "2", "2"]
    diverse.shot(screenshots, "subtopics-after-drag")
    assert diverse.our_errors() == []
