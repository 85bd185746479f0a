"""Lessons 12 and 13's explorers in a real browser (JupyterLab 4): unjudged rows, and per-query differences.

One throw-away server runs a notebook with lesson 12's judging RankingExplorer
and lesson 13's DifferenceExplorer. Expected numbers come from ndcg_teach's
plain functions; what the kernel holds is read back by running code in it.
Screenshots, wide and narrow, land in tests/browser/screenshots/ for a person
to look at.
"""

import re

import pytest
from jupyter_harness import JupyterServer, NotebookPage, write_notebook

import ndcg_teach as nt
from ndcg_teach.statistics.significance import paired_t_test

pytestmark = pytest.mark.browser

RUN = ["d7", "d1", "d8", "d4", "d2", "d3", "d11"]
TRUTH = {"d1": 1, "d2": 0, "d3": 1, "d4": 1, "d7": 1, "d8": 1, "d11": 0}
UNJUDGED = ["d7", "d8", "d11"]
POOL = [1, 0, 1, 1, 0, 0]
A = [0.42, 0.31, 0.65, 0.20, 0.55, 0.48, 0.37, 0.60]
B = [0.50, 0.35, 0.62, 0.32, 0.61, 0.47, 0.46, 0.65]
CELLS = [
    "from ndcg_teach.widgets import DifferenceExplorer, RankingExplorer\n"
    f"holes = RankingExplorer({RUN!r}, {TRUTH!r}, unjudged={UNJUDGED!r}, pool={POOL!r}, "
    "metrics=['ap', 'condensed_ap', 'bpref'])\nholes",
    f"tests = DifferenceExplorer({A!r}, {B!r})\ntests",
    # The Chinese edition's two explorers (its lessons call nt.set_language("zh-CN") first; here the argument says it).
    f"zh_holes = RankingExplorer({RUN!r}, {TRUTH!r}, unjudged={UNJUDGED!r}, pool={POOL!r}, "
    "metrics=['ap', 'condensed_ap', 'bpref'], language='zh-CN')\nzh_holes",
    f"zh_tests = DifferenceExplorer({A!r}, {B!r}, language='zh-CN')\nzh_tests",
]
RESET = "holes.reset(); tests.reset()"
OURS = re.compile(r"blob:|anywidget|ndcg", re.IGNORECASE)
WIDE = {"width": 1440, "height": 1900}
# Nothing may stick out of the widget, or out of its own box, when the output is this narrow (a phone, a split screen).
OVERFLOW = """(root) => {
  const frame = root.getBoundingClientRect();
  return [...root.querySelectorAll("*")].filter((node) => {
    if (node.closest(".ndcg-x-table-wrap, .ndcg-d-table-wrap")) return false;  // tables scroll sideways on purpose
    const r = node.getBoundingClientRect();
    return r.width > 0 && (r.left < frame.left - 1 || r.right > frame.right + 1);
  }).map((node) => node.className.baseVal ?? node.className);
}"""


def narrow(root, width=400):
    """Set the output around ``root`` to ``width`` px (undone by :func:`wide`); the widget lays out by its container."""
    root.evaluate("(root, width) => { root.parentElement.style.width = root.parentElement.style.maxWidth = `${width}px`; }", width)
    root.page.wait_for_timeout(300)


def wide(root):
    root.evaluate("(root) => { root.parentElement.style.width = root.parentElement.style.maxWidth = ''; }")


def theme(page, name, light):
    page.evaluate("(theme) => window.jupyterapp.commands.execute('apputils:change-theme', { theme })", name)
    page.wait_for_function("(light) => document.body.dataset.jpThemeLight === light", arg=light, timeout=30_000)
    page.wait_for_timeout(500)


def three_cards(order, unjudged, pool):
    relevances = [None if item in unjudged else TRUTH[item] for item in order]
    r = sum(grade >= 1 for grade in pool)
    return {
        "ap": f"{nt.average_precision([0 if g is None else g for g in relevances], n_relevant=r):.4f}",
        "condensed_ap": f"{nt.average_precision(nt.condensed(relevances), n_relevant=r):.4f}",
        "bpref": f"{nt.bpref(relevances, n_relevant=r, n_nonrelevant=len(pool) - r):.4f}",
    }


@pytest.fixture(scope="module")
def lesson_page(browser):
    server = JupyterServer("lab").start()
    write_notebook(server.root / "explorers.ipynb", CELLS)
    page = browser.new_page(viewport=WIDE)
    errors = []
    page.on("pageerror", lambda error: errors.append(f"{error.message}\n{error.stack or ''}"))
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    try:
        notebook = NotebookPage(page, server, "explorers.ipynb")
        notebook.open()
        notebook.run_all()
        page.locator("[data-testid=ranking-explorer] [data-item]").first.wait_for(timeout=60_000)
        page.locator("[data-testid=difference-explorer] tbody tr").first.wait_for(timeout=60_000)
        yield notebook, errors
    finally:
        page.close()
        server.stop()


@pytest.fixture
def page(lesson_page):
    notebook, errors = lesson_page
    notebook.execute(RESET)
    expect_text(notebook.page.locator("[data-testid=difference-explorer] [data-result=mean]").first, "+0.0500")
    yield notebook
    assert [error for error in errors if OURS.search(error)] == []


def expect_text(locator, text):
    from playwright.sync_api import expect

    expect(locator).to_have_text(text, timeout=15_000)


def confirmed(notebook, expression):
    notebook.page.wait_for_function(
        "() => document.querySelector('[data-testid=ranking-explorer]').dataset.state === 'confirmed'", timeout=30_000)
    return notebook.kernel_value(expression)


def test_unjudged_rows_show_in_the_list_and_the_step_table_and_the_cards_read_the_hole(page, screenshots):
    root = page.page.locator("[data-testid=ranking-explorer]").first
    for key, text in three_cards(RUN, UNJUDGED, POOL).items():
        expect_text(root.locator(f'[data-metric="{key}"]'), text)
    assert root.locator(".ndcg-x-row.is-unjudged").evaluate_all("rows => rows.map(row => row.dataset.item)") == UNJUDGED
    assert root.locator("[data-testid=step-table] tbody tr.is-unjudged").count() == 3
    pressed = root.locator('[data-role=judge][aria-pressed="true"]')
    assert pressed.count() == 3 and pressed.first.get_attribute("data-lm-suppress-shortcuts") == "true"
    root.screenshot(path=screenshots / "lesson12-unjudged-wide.png")
    narrow(root)
    try:
        assert root.evaluate(OVERFLOW) == []
        root.screenshot(path=screenshots / "lesson12-unjudged-narrow.png")
    finally:
        wide(root)


def test_dragging_an_unjudged_item_moves_ap_only(page):
    root = page.page.locator("[data-testid=ranking-explorer]").first
    source, target = root.locator('[data-item="d7"]'), root.locator('[data-item="d11"]')
    source.scroll_into_view_if_needed()
    start, end = source.bounding_box(), target.bounding_box()
    x = start["x"] + 90
    page.page.mouse.move(x, start["y"] + start["height"] / 2)
    page.page.mouse.down()
    page.page.mouse.move(x, end["y"] + end["height"] / 2, steps=8)
    page.page.mouse.up()
    moved = [*RUN[1:], "d7"]
    expected = three_cards(moved, UNJUDGED, POOL)
    assert expected["ap"] != three_cards(RUN, UNJUDGED, POOL)["ap"]
    assert {key: expected[key] for key in ("condensed_ap", "bpref")} == {
        key: three_cards(RUN, UNJUDGED, POOL)[key] for key in ("condensed_ap", "bpref")}
    for key, text in expected.items():
        expect_text(root.locator(f'[data-metric="{key}"]'), text)
    assert confirmed(page, "holes.order") == moved


def test_the_row_button_judges_an_item_in_the_kernel(page, screenshots):
    root = page.page.locator("[data-testid=ranking-explorer]").first
    root.locator('[data-item="d8"] [data-role=judge]').click()
    expect_text(root.locator('[data-metric="bpref"]'), three_cards(RUN, ["d7", "d11"], [*POOL, 1])["bpref"])
    assert confirmed(page, "holes.unjudged") == ["d7", "d11"]
    assert root.locator('[data-item="d8"] [data-role=judge]').get_attribute("aria-pressed") == "false"
    assert root.locator(".ndcg-x-row.is-unjudged").count() == 2
    expect_text(root.locator("[data-testid=notice]"), "d8 is judged again: grade 1.")


def test_the_difference_explorer_shows_the_tests_of_b_minus_a(page, screenshots):
    root = page.page.locator("[data-testid=difference-explorer]").first
    t_test = paired_t_test(B, A)
    expect_text(root.locator("[data-result=t]"), f"t = {t_test.statistic:.4f}")
    expect_text(root.locator("[data-result=randomisation]"), "p = 0.0391")
    assert root.locator("[data-testid=interval]").count() == 1
    assert root.evaluate("""(root) => [...root.querySelectorAll("input, button")]
        .every((node) => node.getAttribute("data-lm-suppress-shortcuts") === "true")""")
    root.scroll_into_view_if_needed()
    root.screenshot(path=screenshots / "lesson13-differences-wide.png")
    narrow(root)
    try:
        assert root.evaluate(OVERFLOW) == []
        assert root.locator(".ndcg-d-table-wrap").evaluate("(node) => node.scrollWidth <= node.clientWidth + 1")
        root.screenshot(path=screenshots / "lesson13-differences-narrow.png")
        theme(page.page, "JupyterLab Dark", "false")
        root.screenshot(path=screenshots / "lesson13-differences-narrow-dark.png")
        wide(root)
        root.screenshot(path=screenshots / "lesson13-differences-wide-dark.png")
        holes = page.page.locator("[data-testid=ranking-explorer]").first
        holes.scroll_into_view_if_needed()
        holes.screenshot(path=screenshots / "lesson12-unjudged-wide-dark.png")
    finally:
        wide(root)
        theme(page.page, "JupyterLab Light", "true")


def test_swapping_a_query_and_dragging_a_score_reach_the_kernel(page, screenshots):
    root = page.page.locator("[data-testid=difference-explorer]").first
    cells = page.cell_count()
    root.locator('button.ndcg-d-swap[data-query="3"]').click()
    expect_text(root.locator("[data-result=mean]"), "+0.0200")
    assert page.kernel_value("tests.b[3]") == 0.2
    slider = root.locator('input[data-system=b][data-query="0"]')
    slider.focus()
    for _ in range(5):
        page.page.keyboard.press("ArrowRight")
    expect_text(root.locator("tbody tr").first.locator("[data-testid=difference]"), "+0.1300")
    assert page.kernel_value("round(tests.b[0], 4)") == 0.55
    box = slider.bounding_box()
    page.page.mouse.click(box["x"] + box["width"] - 2, box["y"] + box["height"] / 2)
    expect_text(root.locator("tbody tr").first.locator("[data-testid=difference]"), "+0.5800")
    assert page.kernel_value("tests.b[0]") == 1.0
    assert page.cell_count() == cells  # the arrow keys moved the slider, not the notebook's cells
    root.screenshot(path=screenshots / "lesson13-after-changes.png")


def test_the_chinese_edition_s_explorers_speak_chinese(page, screenshots):
    holes = page.page.locator("[data-testid=ranking-explorer]").nth(1)
    tests = page.page.locator("[data-testid=difference-explorer]").nth(1)
    assert holes.get_attribute("lang") == "zh-CN" and tests.get_attribute("lang") == "zh-CN"
    assert holes.locator('[data-item="d7"] [data-role=judge]').get_attribute("title") == "d7 未判断：指标不知道它的等级；点击可判断它"
    expect_text(tests.locator(".ndcg-d-title"), "逐查询指标值与 B − A 的检验")
    expect_text(tests.locator("[data-result=randomisation]"), "p = 0.0391")
    assert "精确：穷举全部 256 种符号组合" in tests.locator("[data-testid=results]").inner_text()
    holes.scroll_into_view_if_needed()
    holes.screenshot(path=screenshots / "lesson12-unjudged-zh.png")
    tests.scroll_into_view_if_needed()
    tests.screenshot(path=screenshots / "lesson13-differences-zh.png")
