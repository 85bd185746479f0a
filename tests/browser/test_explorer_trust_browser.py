"""A refused edit in a real browser (JupyterLab 4 and Notebook 7): the notice shows, the page keeps the kernel's value.

The page's own controls offer only values the kernel accepts, so these tests
tamper with the page as a broken or hostile front end would (an extra option in
a select, a slider stretched past its range) and let the widget's own code send
the value. The kernel refuses it; the page must show the notice (visible, an
alert for screen readers) and go back to the kept value. A 150-item list shows
that a long list is previewed in windows: the numbers of a drop show while
dragging, the step table and the plots wait greyed for the kernel, and the
step table shows its first and last rows. Screenshots of a refused edit, light
and dark, wide and narrow, land in tests/browser/screenshots/ for a person to
look at.
"""

import re

import pytest
from jupyter_harness import APPS, JupyterServer, NotebookPage, write_notebook

import ndcg_teach as nt

pytestmark = pytest.mark.browser

ITEMS = ["B", "A", "D", "C", "E"]
GRADES = {"A": 5, "B": 4, "C": 3, "D": 2, "E": 1}
LABELS = {"A": "Apple pie recipe", "B": "Banana bread", "C": "Carrot cake", "D": "Date squares", "E": "Egg tart"}
LONG = [f"doc{i:03d}" for i in range(150)]
LONG_GRADES = {item: (7 * i) % 5 for i, item in enumerate(LONG)}
NOTEBOOK = "trust.ipynb"
CELLS = [
    "from ndcg_teach.widgets import CompareExplorer, RankingExplorer\n"
    f"explorer = RankingExplorer({ITEMS!r}, {GRADES!r}, k=3, labels={LABELS!r})\nexplorer",
    f"duel = CompareExplorer({ITEMS!r}, ['E', 'A', 'B', 'C', 'D'], {GRADES!r}, k=3)\nduel",
    f"long = RankingExplorer({LONG!r}, {LONG_GRADES!r})\nlong",
]
RESET = ("explorer.reset(); explorer.k = 3; explorer.gain = 'linear'; explorer.threshold = 1; duel.reset('a'); long.reset()\n"
         "explorer.notice = duel.notice = long.notice = {}")
SINGLE = "[data-testid=ranking-explorer]"
CONFIRMED = "() => [...document.querySelectorAll('[data-testid$=-explorer]')].every((root) => root.dataset.state === 'confirmed')"
# Add an option the kernel refuses to one of a widget's selects, and choose it as a learner would.
TAMPER_SELECT = """([root, control, value]) => {
  const select = document.querySelectorAll(root)[0].querySelector(`[data-control=${control}]`);
  select.append(Object.assign(document.createElement("option"), { value, textContent: value }));
  select.value = value;
  select.dispatchEvent(new Event("change", { bubbles: true }));
}"""
TAMPER_SLIDER = """([root, value]) => {
  const slider = document.querySelector(root).querySelector("[data-control=k]");
  slider.max = String(value);
  slider.value = String(value);
  slider.dispatchEvent(new Event("input", { bubbles: true }));
}"""


@pytest.fixture(scope="module", params=APPS)
def page_of(request, browser):
    server = JupyterServer(request.param).start()
    write_notebook(server.root / NOTEBOOK, CELLS)
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    try:
        notebook = NotebookPage(page, server, NOTEBOOK)
        notebook.open()
        notebook.run_all()
        page.locator(f"{SINGLE} [data-item]").first.wait_for(timeout=60_000)
        page.locator(f"[data-testid=ranking-explorer] [data-item={LONG[-1]}]").wait_for(state="attached", timeout=60_000)
        notebook.app = request.param
        notebook.errors = []
        page.on("pageerror", lambda error: notebook.errors.append(error.message))
        yield notebook
    finally:
        page.close()
        server.stop()


@pytest.fixture
def notebook(page_of):
    page_of.execute(RESET)
    page_of.page.set_viewport_size({"width": 1400, "height": 1000})
    page_of.page.wait_for_function(CONFIRMED, timeout=30_000)
    page_of.page.wait_for_function("(s) => document.querySelector(`${s} [data-testid=notice]`).textContent === ''", arg=SINGLE)
    yield page_of
    assert page_of.errors == []


def notice_of(page, root=SINGLE):
    return page.locator(root).first.locator("[data-testid=notice]")


def expect_text(locator, text):
    from playwright.sync_api import expect

    expect(locator).to_have_text(text, timeout=15_000)


def expect_shown_alert(locator, start):
    """The notice starts with ``start``, is an alert for screen readers, is styled as an error and is visible."""
    from playwright.sync_api import expect

    expect(locator).to_have_text(re.compile("^" + re.escape(start)), timeout=15_000)
    assert locator.get_attribute("role") == "alert"
    assert "is-error" in locator.get_attribute("class")
    box = locator.bounding_box()
    assert box and box["width"] > 100 and box["height"] > 10
    assert locator.is_visible()


def test_a_refused_threshold_shows_a_notice_and_the_select_goes_back(notebook):
    page = notebook.page
    page.evaluate(TAMPER_SELECT, [SINGLE, "threshold", "0"])
    expect_shown_alert(notice_of(page), "Refused threshold = 0 from the page, kept threshold = 1. threshold must be a whole number")
    select = page.locator(SINGLE).first.locator("[data-control=threshold]")
    page.wait_for_function("(s) => document.querySelector(s).querySelector('[data-control=threshold]').value === '1'", arg=SINGLE)
    assert select.input_value() == "1"
    assert notebook.kernel_value("explorer.threshold") == 1
    ndcg = f"{nt.ndcg(nt.relevances_from(ITEMS, GRADES), k=3):.4f}"
    expect_text(page.locator(SINGLE).first.locator("[data-metric=ndcg]"), ndcg)  # the numbers are still the kept settings'


def test_a_k_past_the_slider_is_refused_and_the_slider_shows_the_kept_k(notebook):
    page = notebook.page
    page.evaluate(TAMPER_SLIDER, [SINGLE, 99])
    expect_shown_alert(notice_of(page), "Refused k = 99 from the page, kept k = 3. k must be a whole number from 1 to 5")
    page.wait_for_function("(s) => document.querySelector(s).querySelector('[data-control=k]').value === '3'", arg=SINGLE)
    expect_text(page.locator(SINGLE).first.locator(".ndcg-x-kvalue"), "3 of 5")
    assert notebook.kernel_value("explorer.k") == 3


def test_a_refused_gain_in_compare_mode_shows_above_both_rankings(notebook):
    page = notebook.page
    duel = "[data-testid=compare-explorer]"
    page.evaluate(TAMPER_SELECT, [duel, "gain", "cubic"])
    expect_shown_alert(notice_of(page, duel), "Refused gain = 'cubic' from the page, kept gain = 'linear'.")
    page.wait_for_function("(s) => document.querySelector(s).querySelector('[data-control=gain]').value === 'linear'", arg=duel)
    assert notebook.kernel_value("duel.gain") == "linear"


def test_a_kernel_trait_sent_by_the_page_is_refused_and_the_numbers_stay(notebook):
    page = notebook.page
    before = page.locator(SINGLE).first.locator("[data-metric=ndcg]").text_content()
    # As ipywidgets delivers a state update from the page: here, one that tries to blank the numbers.
    notebook.execute("explorer._handle_msg({'content': {'data': {'method': 'update', 'state': {'panels': []}, "
                     "'buffer_paths': []}}, 'buffers': []})")
    expect_shown_alert(notice_of(page), "Refused panels = [] from the page, kept panels = ")
    assert page.locator(SINGLE).first.locator("[data-metric=ndcg]").text_content() == before


def test_the_next_good_change_clears_the_notice(notebook):
    page = notebook.page
    page.evaluate(TAMPER_SELECT, [SINGLE, "threshold", "0"])
    expect_shown_alert(notice_of(page), "Refused threshold = 0")
    page.locator(SINGLE).first.locator("[data-control=gain]").select_option("exponential")
    expect_text(notice_of(page), "")
    assert notebook.kernel_value("explorer.gain") == "exponential"


def long_root(page):
    return page.locator(SINGLE).nth(1)


def test_a_long_list_previews_the_numbers_of_a_drop_and_greys_the_table_until_the_kernel_answers(notebook):
    page = notebook.page
    root = long_root(page)
    source, target = root.locator(f"[data-item={LONG[2]}]"), root.locator(f"[data-item={LONG[6]}]")
    source.scroll_into_view_if_needed()
    start, end = source.bounding_box(), target.bounding_box()
    x = start["x"] + 90
    page.mouse.move(x, start["y"] + start["height"] / 2)
    page.wait_for_timeout(400)  # resting on the row: its window of previews arrives
    page.mouse.down()
    page.mouse.move(x, end["y"] + end["height"] / 2, steps=8)
    moved = [*LONG[:2], *LONG[3:7], LONG[2], *LONG[7:]]
    expected = f"{nt.ndcg(nt.relevances_from(moved, LONG_GRADES)):.4f}"
    shown = root.evaluate("""(root) => {
      const state = root.dataset.state;
      return { state, ndcg: root.querySelector("[data-metric=ndcg]").textContent,
               table: root.querySelector("[data-testid=step-table]").className,
               plot: root.querySelector("[data-testid=cumulative-plot]").className };
    }""")
    page.mouse.up()
    assert shown["state"] == "preview" and shown["ndcg"] == expected
    assert "is-stale" in shown["table"] and "is-stale" in shown["plot"]
    page.wait_for_function(CONFIRMED, timeout=30_000)
    assert notebook.kernel_value("long.order")[:8] == moved[:8]
    expect_text(root.locator("[data-metric=ndcg]"), expected)
    classes = root.evaluate("""(root) => [root.querySelector("[data-testid=step-table]").className,
                                         root.querySelector("[data-testid=cumulative-plot]").className]""")
    assert not any("is-stale" in name for name in classes)


def test_a_long_step_table_shows_its_first_and_last_rows(notebook):
    rows = long_root(notebook.page).locator("[data-testid=step-table] tbody tr")
    assert rows.count() == 61
    expect_text(rows.nth(50), "… 90 rows hidden …")
    assert rows.nth(49).locator("td").first.text_content() == "50"
    assert rows.nth(51).locator("td").first.text_content() == "141"


def change_theme(page, theme, light):
    page.evaluate("(theme) => window.jupyterapp.commands.execute('apputils:change-theme', { theme })", theme)
    page.wait_for_function("(light) => document.body.dataset.jpThemeLight === light", arg=light, timeout=30_000)
    page.wait_for_timeout(500)


@pytest.mark.parametrize(("theme", "light"), [("JupyterLab Light", "true"), ("JupyterLab Dark", "false")])
@pytest.mark.parametrize("width", [None, 420])
def test_screenshots_of_a_refused_edit(notebook, screenshots, theme, light, width):
    """The widget from its top to the notice, at the notebook's width and in a 420 px output, light and dark."""
    page = notebook.page
    page.set_viewport_size({"width": 1400, "height": 1600})
    change_theme(page, theme, light)
    root = page.locator(SINGLE).first
    root.evaluate("(root, width) => { root.parentElement.style.width = root.parentElement.style.maxWidth = width; }",
                  "" if width is None else f"{width}px")
    try:
        page.evaluate(TAMPER_SELECT, [SINGLE, "threshold", "0"])
        notice = notice_of(page)
        expect_shown_alert(notice, "Refused threshold = 0 from the page, kept threshold = 1.")
        colours = notice.evaluate("(node) => [getComputedStyle(node).color, getComputedStyle(node).backgroundColor]")
        assert colours[0] != colours[1]
        root.evaluate("(root) => root.scrollIntoView({ block: 'start' })")
        page.wait_for_timeout(300)
        top, bottom = root.bounding_box(), notice.bounding_box()
        name = f"{notebook.app}-refused-{'light' if light == 'true' else 'dark'}-{'narrow' if width else 'wide'}.png"
        page.screenshot(path=screenshots / name, clip={"x": top["x"], "y": top["y"], "width": top["width"],
                                                       "height": bottom["y"] + bottom["height"] + 12 - top["y"]})
    finally:
        root.evaluate("(root) => { root.parentElement.style.width = root.parentElement.style.maxWidth = ''; }")
        change_theme(page, "JupyterLab Light", "true")
