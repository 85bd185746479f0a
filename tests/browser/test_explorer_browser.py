"""The explorer in a real browser: JupyterLab 4 and Notebook 7, mouse, keyboard and buttons.

Each front end gets one throw-away server and one page running a notebook that
builds a RankingExplorer and a CompareExplorer; before each test the kernel
puts both back in their starting state. Expected numbers come from ndcg_teach
itself, and the kernel's ``order`` is read back by running code in the kernel
(no extra cell, so a stray notebook shortcut would show as a changed cell count).
Screenshots land in tests/browser/screenshots/ for a person to look at.
"""

import contextlib
import re

import pytest
from jupyter_harness import APPS, JupyterServer, NotebookPage, write_notebook

import ndcg_teach as nt

pytestmark = pytest.mark.browser

ITEMS = ["B", "A", "D", "C", "E"]
GRADES = {"A": 5, "B": 4, "C": 3, "D": 2, "E": 1}
LABELS = {"A": "Apple pie recipe", "B": "Banana bread", "C": "Carrot cake", "D": "Date squares", "E": "Egg tart"}
DUEL_B = ["E", "A", "B", "C", "D"]
K = 3
NOTEBOOK = "explorer.ipynb"
DUEL_B_LIST = "[data-testid=compare-explorer] [data-ranking=order_b]"
# An instructor's own metric, registered in the kernel before the explorer is built: asked for, it gets a card after
# the course's default ones.
CUSTOM = (
    "import ndcg_teach as nt\n"
    "from ndcg_teach.widgets.panel import DEFAULT_CARDS\n"
    "def top_grade(relevances, k=None):\n"
    "    return float(max(list(relevances)[:k], default=0))\n"
    "nt.register_metric(nt.Metric('top_grade', 'Top@{k}', 'graded', top_grade, meaning='the best grade in the top k'))\n"
    "CARDS = [*DEFAULT_CARDS, 'top_grade']\n"
)
CELLS = [
    CUSTOM + "from ndcg_teach.widgets import CompareExplorer, RankingExplorer\n"
    f"explorer = RankingExplorer({ITEMS!r}, {GRADES!r}, k={K}, labels={LABELS!r}, metrics=CARDS)\n"
    "explorer",
    f"duel = CompareExplorer({ITEMS!r}, {DUEL_B!r}, {GRADES!r}, k={K}, metrics=CARDS)\nduel",
]
RESET = (
    "explorer.reset(); explorer.k = 3; explorer.gain = 'linear'; explorer.discount = 'log2'; explorer.threshold = 1\n"
    "duel.reset('a'); duel.reset('b'); duel.k = 3"
)
# Page errors count as ours when they come from the widget module (anywidget loads it from a blob: URL).
OURS = re.compile(r"blob:|anywidget|ndcg", re.IGNORECASE)


def ndcg_text(order, grades=GRADES, k=K, **conventions):
    return f"{nt.ndcg(nt.relevances_from(order, grades), k=k, **conventions):.4f}"


class Explorers:
    """The page of one front end, with locators for both widgets and the errors seen so far."""

    def __init__(self, notebook, app):
        self.notebook = notebook
        self.page = notebook.page
        self.app = app
        self.errors = []
        self.page.on("pageerror", lambda error: self.errors.append(f"{error.message}\n{error.stack or ''}"))
        self.page.on("console", lambda message: self.errors.append(message.text) if message.type == "error" else None)
        self.single = self.page.locator("[data-testid=ranking-explorer]")
        self.duel = self.page.locator("[data-testid=compare-explorer]")

    def our_errors(self):
        return [error for error in self.errors if OURS.search(error)]

    def rows(self, root=None):
        return (root or self.single).locator("[data-item]")

    def order(self, root=None):
        return self.rows(root).evaluate_all("rows => rows.map(row => row.dataset.item)")

    def row(self, item, root=None):
        return (root or self.single).locator(f'[data-item="{item}"]')

    def metric(self, key, root=None):
        return (root or self.single).locator(f'[data-metric="{key}"]')

    def plots(self, root=None):
        """The drawn SVG of both plots (the discount plot is absent in compare mode)."""
        return (root or self.single).evaluate(
            """(root) => ["discount-plot", "cumulative-plot"].map(
              (name) => root.querySelector(`[data-testid=${name}] svg`)?.innerHTML ?? null)"""
        )

    def wait_for_new_plots(self, before):
        self.page.wait_for_function(
            """(before) => {
              const root = document.querySelector("[data-testid=ranking-explorer]");
              const drawn = ["discount-plot", "cumulative-plot"].map(
                (name) => root.querySelector(`[data-testid=${name}] svg`).innerHTML);
              return drawn.every((svg, i) => svg && svg !== before[i]);
            }""",
            arg=before,
            timeout=15_000,
        )

    def kernel(self, expression):
        """``expression`` in the kernel, once it has confirmed what every explorer shows (a move is sent after its paint)."""
        self.page.wait_for_function(
            "() => [...document.querySelectorAll('[data-testid$=-explorer]')].every((root) => root.dataset.state === 'confirmed')",
            timeout=30_000)
        return self.notebook.kernel_value(expression)

    def drag(self, item, onto, root=None):
        """Press on ``item``'s label, move onto the middle of ``onto``'s row in 8 steps, release."""
        source, target = self.row(item, root), self.row(onto, root)
        source.scroll_into_view_if_needed()
        start, end = source.bounding_box(), target.bounding_box()
        x = start["x"] + 90  # over the label: clear of the grade input and the buttons
        self.page.mouse.move(x, start["y"] + start["height"] / 2)
        self.page.mouse.down()
        self.page.mouse.move(x, end["y"] + end["height"] / 2, steps=8)
        self.page.mouse.up()

    def touch_drag(self, item, onto):
        """Put a finger on ``item``'s handle, slide onto the middle of ``onto``'s row, lift (Chromium's touch emulation)."""
        handle, target = self.row(item).locator(".ndcg-x-handle"), self.row(onto)
        handle.scroll_into_view_if_needed()
        start, end = handle.bounding_box(), target.bounding_box()
        x, y0, y1 = start["x"] + start["width"] / 2, start["y"] + start["height"] / 2, end["y"] + end["height"] / 2
        cdp = self.page.context.new_cdp_session(self.page)
        cdp.send("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 1})
        try:
            cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y0}]})
            for step in range(1, 9):
                point = {"x": x, "y": y0 + (y1 - y0) * step / 8}
                cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [point]})
            cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        finally:
            cdp.send("Emulation.setTouchEmulationEnabled", {"enabled": False})
            cdp.detach()

    def shot(self, screenshots, name, locator=None):
        (locator or self.single).screenshot(path=screenshots / f"{self.app}-{name}.png")


@contextlib.contextmanager
def opened_explorers(browser, app, name=NOTEBOOK, cells=CELLS):
    """A notebook of ``cells`` (a ranking explorer, then a compare explorer) run in ``app``, as :class:`Explorers`."""
    server = JupyterServer(app).start()
    write_notebook(server.root / name, cells)
    page = browser.new_page(viewport={"width": 1440, "height": 1900})
    try:
        notebook = NotebookPage(page, server, name)
        result = Explorers(notebook, app)
        notebook.open()
        notebook.run_all()
        result.rows().first.wait_for(timeout=60_000)
        result.rows(result.duel).first.wait_for(timeout=60_000)
        yield result
    finally:
        page.close()
        server.stop()


@pytest.fixture(scope="module", params=APPS)
def explorers(request, browser):
    with opened_explorers(browser, request.param) as result:
        yield result


@pytest.fixture(autouse=True)
def fresh(explorers):
    explorers.notebook.execute(RESET)
    expect_order(explorers, ITEMS)
    expect_text(explorers.metric("ndcg"), ndcg_text(ITEMS))
    explorers.cells_before = explorers.notebook.cell_count()
    yield
    assert explorers.our_errors() == []


def expect_order(explorers, order, selector="[data-testid=ranking-explorer]"):
    explorers.page.wait_for_function(
        """([selector, order]) => {
          const rows = [...document.querySelector(selector).querySelectorAll("[data-item]")];
          return JSON.stringify(rows.map((row) => row.dataset.item)) === JSON.stringify(order);
        }""",
        arg=[selector, order],
        timeout=15_000,
    )


def expect_text(locator, text):
    from playwright.sync_api import expect

    expect(locator).to_have_text(text, timeout=15_000)


def test_the_widget_shows_every_hook_and_number(explorers, screenshots):
    assert explorers.single.count() == 1
    assert explorers.order() == ITEMS
    relevances = nt.relevances_from(ITEMS, GRADES)
    expected = {
        "ndcg": nt.ndcg(relevances, k=K), "dcg": nt.dcg(relevances, k=K), "idcg": nt.idcg(relevances, k=K),
        "cg": nt.cg(relevances, k=K), "precision": nt.precision_at_k(relevances, K), "recall": nt.recall_at_k(relevances, K),
        "ap": nt.average_precision(relevances, k=K), "rr": nt.reciprocal_rank(relevances, k=K),
    }
    for key, value in expected.items():
        expect_text(explorers.metric(key), f"{value:.4f}")
    explorers.page.wait_for_function(
        """() => [...document.querySelectorAll("[data-testid=ranking-explorer] svg.ndcg-x-plot")]
          .every((svg) => svg.querySelector("polyline"))""",
        timeout=15_000,
    )
    rows = explorers.single.locator("[data-testid=step-table] tbody tr")
    assert rows.count() == K
    # Every focusable element carries the attribute that keeps notebook shortcuts away.
    unguarded = explorers.single.evaluate(
        """(root) => [...root.querySelectorAll("[tabindex], input, select, button")]
          .filter((node) => node.getAttribute("data-lm-suppress-shortcuts") !== "true").length"""
    )
    assert unguarded == 0
    assert explorers.single.locator(".ndcg-x-handle").first.evaluate("(node) => getComputedStyle(node).touchAction") == "none"
    explorers.shot(screenshots, "explorer")
    explorers.shot(screenshots, "compare", explorers.duel)


def test_a_mouse_drag_updates_numbers_plots_and_the_kernel(explorers, screenshots):
    before = explorers.plots()
    explorers.drag("E", onto="B")
    moved = ["E", "B", "A", "D", "C"]
    expect_text(explorers.metric("ndcg"), ndcg_text(moved))
    explorers.wait_for_new_plots(before)
    assert explorers.order() == moved
    assert explorers.kernel("explorer.order") == moved
    explorers.shot(screenshots, "after-drag")


def test_a_metric_registered_in_the_kernel_gets_a_card_that_follows_a_drag(explorers):
    card = explorers.metric("top_grade")
    expect_text(card, "5.0000")  # A (grade 5) is in the top 3 of the starting order
    explorers.drag("A", onto="E")
    expect_text(card, "4.0000")  # B, D, C are left in the top 3
    assert explorers.kernel("explorer.metrics['top_grade']") == 4.0


def test_a_finger_drag_on_the_handle(explorers):
    explorers.touch_drag("C", onto="A")
    moved = ["B", "C", "A", "D", "E"]
    expect_order(explorers, moved)
    expect_text(explorers.metric("ndcg"), ndcg_text(moved))
    assert explorers.kernel("explorer.order") == moved


def test_a_drag_down_the_list(explorers):
    explorers.drag("B", onto="C")
    moved = ["A", "D", "C", "B", "E"]
    expect_text(explorers.metric("ndcg"), ndcg_text(moved))
    assert explorers.kernel("explorer.order") == moved


def test_alt_arrow_moves_the_focused_item_and_no_notebook_shortcut_fires(explorers):
    row = explorers.row("D")
    row.focus()
    explorers.page.keyboard.press("Alt+ArrowUp")
    moved = ["B", "D", "A", "C", "E"]
    expect_order(explorers, moved)
    expect_text(explorers.metric("ndcg"), ndcg_text(moved))
    assert explorers.kernel("explorer.order") == moved
    focused = explorers.page.evaluate("() => document.activeElement.dataset.item")
    assert focused == "D"
    expect_text(explorers.single.locator("[data-testid=announcer]"), "D moved to position 2 of 5.")
    # Plain arrows move the focus only.
    explorers.page.keyboard.press("ArrowDown")
    assert explorers.page.evaluate("() => document.activeElement.dataset.item") == "A"
    # Keys that are notebook commands in command mode: insert above / below, to markdown, delete.
    for key in ("a", "b", "m", "d", "d", "x"):
        explorers.page.keyboard.press(key)
    assert explorers.notebook.cell_count() == explorers.cells_before
    assert explorers.page.locator(".jp-MarkdownCell").count() == 0
    assert explorers.kernel("explorer.order") == moved


def test_the_up_and_down_buttons(explorers):
    explorers.row("B").locator("[data-role=down]").click()
    expect_order(explorers, ["A", "B", "D", "C", "E"])
    explorers.row("E").locator("[data-role=up]").click()
    moved = ["A", "B", "D", "E", "C"]
    expect_order(explorers, moved)
    expect_text(explorers.metric("ndcg"), ndcg_text(moved))
    assert explorers.kernel("explorer.order") == moved


def test_the_order_buttons(explorers):
    explorers.single.locator("[data-action=ideal]").click()
    expect_text(explorers.metric("ndcg"), "1.0000")
    assert explorers.kernel("explorer.order") == ["A", "B", "C", "D", "E"]
    explorers.single.locator("[data-action=worst]").click()
    expect_order(explorers, ["E", "D", "C", "B", "A"])
    explorers.single.locator("[data-action=shuffle]").click()
    shuffled = explorers.kernel("explorer.order")
    expect_order(explorers, shuffled)
    explorers.single.locator("[data-action=reset]").click()
    expect_order(explorers, ITEMS)


def test_k_and_gain_controls(explorers):
    k_slider = explorers.single.locator("[data-control=k]")
    k_slider.focus()
    explorers.page.keyboard.press("ArrowRight")
    expect_text(explorers.metric("ndcg"), ndcg_text(ITEMS, k=4))
    expect_text(explorers.single.locator(".ndcg-x-card.is-primary .ndcg-x-card-label"), "NDCG@4")
    assert explorers.kernel("explorer.k") == 4
    explorers.single.locator("[data-control=gain]").select_option("exponential")
    expect_text(explorers.metric("ndcg"), ndcg_text(ITEMS, k=4, gain="exponential"))
    assert explorers.notebook.cell_count() == explorers.cells_before


def test_a_grade_edit_and_a_refused_one(explorers, screenshots):
    grade = explorers.row("C").locator("[data-role=grade]")
    grade.fill("9")
    grade.press("Enter")
    notice = explorers.single.locator("[data-testid=notice]")
    expect_text(notice, "The grade of 'C' must be a whole number from 0 to 5. Got '9' instead.")
    assert explorers.kernel("explorer.relevance") == GRADES
    assert explorers.row("C").locator("[data-role=grade]").input_value() == "3"
    explorers.shot(screenshots, "refused-grade")
    grade = explorers.row("C").locator("[data-role=grade]")
    grade.fill("5")
    grade.press("Enter")
    expect_text(explorers.metric("ndcg"), ndcg_text(ITEMS, grades={**GRADES, "C": 5}))
    assert explorers.kernel("explorer.relevance")["C"] == 5
    assert explorers.notebook.cell_count() == explorers.cells_before


def test_setting_order_from_python_updates_the_browser(explorers):
    explorers.notebook.execute("explorer.order = ['C', 'E', 'A', 'B', 'D']")
    expect_order(explorers, ["C", "E", "A", "B", "D"])
    expect_text(explorers.metric("ndcg"), ndcg_text(["C", "E", "A", "B", "D"]))


def test_compare_mode_drags_one_ranking_and_shows_the_difference(explorers, screenshots):
    panel = explorers.duel.locator("[data-ranking=order_b]")
    explorers.drag("A", onto="E", root=panel)
    moved = ["A", "E", "B", "C", "D"]
    expect_order(explorers, moved, DUEL_B_LIST)
    ndcg_a, ndcg_b = (nt.ndcg(nt.relevances_from(order, GRADES), k=K) for order in (ITEMS, moved))
    expect_text(explorers.duel.locator("[data-metric-diff=ndcg]"), f"{ndcg_b - ndcg_a:+.4f}")
    expect_text(explorers.metric("ndcg", panel), ndcg_text(moved))
    assert explorers.kernel("duel.order_b") == moved
    assert explorers.kernel("duel.order_a") == ITEMS
    explorers.shot(screenshots, "compare-after-drag", explorers.duel)
