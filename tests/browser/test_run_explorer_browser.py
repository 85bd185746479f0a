"""Lesson 20's run explorer in a real browser (JupyterLab 4): bars, tests, a query opened below, a drag's what-if.

One throw-away server runs a notebook with a two-run RunExplorer and a Chinese one-run one. Expected numbers come
from ndcg_teach.evaluate in this process, on the same seeded runs (the explorer's order written back as scores for
a what-if); what the kernel holds is read back by running code in it. Screenshots, wide, 400 px and dark, land in
tests/browser/screenshots/ for a person to look at.
"""

import re
import sys
import time
from pathlib import Path

import pytest
from jupyter_harness import JupyterServer, NotebookPage, write_notebook
from test_explorers_12_13_browser import OVERFLOW, expect_text, theme

import ndcg_teach as nt

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from test_widgets_run_explorer import collection  # noqa: E402  (the Python tests' seeded runs)

pytestmark = pytest.mark.browser

MEASURES = ["ndcg_cut.10", "map", "P.10", "recip_rank"]
OURS = re.compile(r"blob:|anywidget|ndcg", re.IGNORECASE)
WIDE = {"width": 1440, "height": 2200}
QRELS, FIRST, SECOND = collection(seed=11, n_queries=14)
LONG = ("msmarco_v2.1_doc_19_1030657904#5_1406672887", "msmarco_v2.1_doc_08_50681209#1_105051739")
CELLS = [
    "import ndcg_teach as nt\nfrom ndcg_teach.widgets import RunExplorer\n"
    f"qrels, first, second = {QRELS!r}, {FIRST!r}, {SECOND!r}\n"
    f"a, b = nt.evaluate(qrels, first, {MEASURES!r}), nt.evaluate(qrels, second, {MEASURES!r})",
    # As in lesson 20, a query explorer first (its stylesheet is in the page before the run explorer's), of a run
    # with TREC's long document ids.
    f"long = nt.evaluate({{'q': {{{LONG[0]!r}: 2, {LONG[1]!r}: 1}}}}, {{'q': {{{LONG[0]!r}: 0.9, {LONG[1]!r}: 0.8, 'd3': 0.7}}}}, "
    "['ndcg_cut.10'])\nsingle = long.explore('q')\nsingle",
    "runs = RunExplorer(a, b, labels=('BM25', 'reranker'))\nruns",
    "zh_runs = RunExplorer(a, language='zh-CN')\nzh_runs",
]
RESET = "runs.reset(); runs.open_query(runs.scores.worst_first()[0], 1); zh_runs.reset()"


def evaluated():
    return nt.evaluate(QRELS, FIRST, MEASURES), nt.evaluate(QRELS, SECOND, MEASURES)


def rewritten(run, qid, order):
    return {**run, qid: {doc: float(len(order) - position) for position, doc in enumerate(order)}}


def narrow(root, width=400):
    root.evaluate("(root, width) => { const out = root.closest('.jp-OutputArea-output'); out.style.width = out.style.maxWidth = `${width}px`; }", width)
    root.page.wait_for_timeout(300)


def wide(root):
    root.evaluate("(root) => { const out = root.closest('.jp-OutputArea-output'); out.style.width = out.style.maxWidth = ''; }")


@pytest.fixture(scope="module")
def lesson_page(browser):
    server = JupyterServer("lab").start()
    write_notebook(server.root / "runs.ipynb", CELLS)
    page = browser.new_page(viewport=WIDE)
    errors = []
    page.on("pageerror", lambda error: errors.append(f"{error.message}\n{error.stack or ''}"))
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    try:
        notebook = NotebookPage(page, server, "runs.ipynb")
        notebook.open()
        notebook.run_all()
        page.locator("[data-testid=run-explorer] [data-testid=worst] button").first.wait_for(timeout=60_000)
        page.locator("[data-testid=ranking-explorer] [data-item]").first.wait_for(timeout=60_000)
        yield notebook, errors
    finally:
        page.close()
        server.stop()


@pytest.fixture
def page(lesson_page):
    notebook, errors = lesson_page
    notebook.execute(RESET)
    a, b = evaluated()
    overview = notebook.page.locator("[data-testid=run-explorer]").first
    expect_text(overview.locator("[data-result=mean-b]"), f"{b['ndcg_cut.10']:.4f}")
    yield notebook
    assert [error for error in errors if OURS.search(error)] == []


def pair(notebook):
    """The first run explorer's overview and the query explorer under it (the same output)."""
    overview = notebook.page.locator("[data-testid=run-explorer]").first
    output = overview.locator("xpath=ancestor::div[contains(@class, 'jp-OutputArea-output')][1]")
    return overview, output.locator("[data-testid=ranking-explorer]")


def test_the_bars_the_means_and_the_tests_of_b_minus_a_and_the_worst_query_open_below(page, screenshots):
    a, b = evaluated()
    overview, query = pair(page)
    d = b.per_query["ndcg_cut_10"] - a.per_query["ndcg_cut_10"]
    worst = a.queries[int(d.argmin())]
    expect_text(overview.locator("[data-testid=title]"), f"ndcg_cut_10: reranker − BM25 on {len(a.queries)} queries, where reranker loses most first")
    expect_text(overview.locator("[data-result=mean-a]"), f"{a['ndcg_cut.10']:.4f}")
    expect_text(overview.locator("[data-result=mean]"), f"{d.mean():+.4f}")
    assert overview.locator("[data-testid=worst] button").count() == 10
    assert overview.locator("[data-testid=worst] button").first.get_attribute("data-query") == worst
    assert overview.locator("[data-testid=open-bar]").count() == 1
    expect_text(query.locator('[data-metric="ndcg_cut_10"]'), f"{b.value(worst, 'ndcg_cut_10'):.4f}")
    expect_text(query.locator('[data-metric="mean_ndcg_cut_10"]'), f"{b['ndcg_cut.10']:.4f}")
    # The evaluation's relevance level, gain and discount have no control; the step table's k keeps its slider.
    assert query.locator("[data-control=k]").count() == 1 and query.locator(".ndcg-x-controls select").count() == 0
    assert overview.evaluate("""(root) => [...root.querySelectorAll("button, [tabindex]")]
        .every((node) => node.getAttribute("data-lm-suppress-shortcuts") === "true")""")
    overview.screenshot(path=screenshots / "lesson20-runs-wide.png")
    query.screenshot(path=screenshots / "lesson20-query-wide.png")


def kernel_eventually(page, expression, expected, seconds=30):
    """The kernel's value of ``expression`` once it equals ``expected``, or the last one read after ``seconds``."""
    deadline = time.monotonic() + seconds
    while (value := page.kernel_value(expression)) != expected and time.monotonic() < deadline:
        time.sleep(0.25)
    return value


def test_a_drag_below_shows_the_query_and_the_mean_at_once_then_moves_the_bar_and_the_tests(page, screenshots):
    overview, query = pair(page)
    qid = page.kernel_value("runs.explorer.qid")
    order = page.kernel_value("runs.explorer.order")
    relevant = [doc for doc in order[10:] if QRELS[qid].get(doc, 0) > 0]
    item = relevant[0] if relevant else order[-1]
    source, target = query.locator(f'[data-item="{item}"]'), query.locator(f'[data-item="{order[0]}"]')
    source.scroll_into_view_if_needed()
    target.scroll_into_view_if_needed()
    start, end = source.bounding_box(), target.bounding_box()
    x = start["x"] + 90
    page.page.mouse.move(x, start["y"] + start["height"] / 2)
    page.page.mouse.down()
    page.page.mouse.move(x, end["y"] + 4, steps=8)
    page.page.mouse.up()
    moved = [item, *[doc for doc in order if doc != item]]
    a = nt.evaluate(QRELS, FIRST, MEASURES)
    b = nt.evaluate(QRELS, rewritten(SECOND, qid, moved), MEASURES)
    expect_text(query.locator('[data-metric="ndcg_cut_10"]'), f"{b.value(qid, 'ndcg_cut_10'):.4f}")
    expect_text(query.locator('[data-metric="mean_ndcg_cut_10"]'), f"{b['ndcg_cut.10']:.4f}")
    # The cards show the drop at once, from the preview; the kernel gets the drop's message a moment later, and a cell
    # executed now can overtake it (a CI run read the order from before the drop), so wait for the kernel's order.
    assert kernel_eventually(page, "runs.explorer.order", moved) == moved
    expect_text(overview.locator("[data-result=mean-b]"), f"{b['ndcg_cut.10']:.4f}")
    d = b.per_query["ndcg_cut_10"] - a.per_query["ndcg_cut_10"]
    expect_text(overview.locator("[data-result=mean]"), f"{d.mean():+.4f}")
    page.page.wait_for_function("() => document.querySelector('[data-testid=run-explorer]').dataset.state === 'confirmed'")
    assert overview.locator("[data-testid=changed-bars]").get_attribute("d") != ""
    assert page.kernel_value("runs.tests['randomisation'].p_value") is not None
    overview.screenshot(path=screenshots / "lesson20-runs-after-drag.png")
    overview.locator("[data-action=reset]").click()
    expect_text(overview.locator("[data-result=mean-b]"), f"{nt.evaluate(QRELS, SECOND, MEASURES)['ndcg_cut.10']:.4f}")


def test_a_query_opens_by_button_by_keyboard_and_in_either_run(page):
    overview, query = pair(page)
    buttons = overview.locator("[data-testid=worst] button")
    third = buttons.nth(2).get_attribute("data-query")
    buttons.nth(2).click()
    expect_text(overview.locator("[data-testid=notice]"), f"Open below: query {third} of reranker.")
    assert page.kernel_value("runs.explorer.qid") == third
    expect_text(query.locator('[data-metric="P_10"]'), f"{evaluated()[1].value(third, 'P_10'):.4f}")
    overview.locator('[data-run="0"]').click()
    expect_text(overview.locator("[data-testid=notice]"), f"Open below: query {third} of BM25.")
    expect_text(query.locator('[data-metric="P_10"]'), f"{evaluated()[0].value(third, 'P_10'):.4f}")
    cells = page.cell_count()
    frame = overview.locator(".ndcg-r-frame")
    frame.focus()
    page.page.keyboard.press("End")
    page.page.keyboard.press("Enter")
    last = page.kernel_value("runs.scores.worst_first()[-1]")
    expect_text(overview.locator("[data-testid=bar-caption]"), re.compile(rf"^query {last}: "))
    expect_text(overview.locator("[data-testid=notice]"), f"Open below: query {last} of BM25.")
    assert page.cell_count() == cells  # the keys moved the cursor, not the notebook's cells


def test_nothing_overflows_at_400_px_and_the_dark_theme_keeps_it_readable(page, screenshots):
    overview, query = pair(page)
    narrow(overview)
    try:
        assert overview.evaluate(OVERFLOW) == []
        assert query.evaluate(OVERFLOW) == []
        # One column, the numbers above the list: the overview injects explorer.css again, after the query
        # explorer's numbers.css, and must not bring back the wide layout's two columns.
        assert query.locator(".ndcg-x-main").evaluate("(main) => getComputedStyle(main).gridTemplateColumns.split(' ').length") == 1
        overview.screenshot(path=screenshots / "lesson20-runs-narrow.png")
        theme(page.page, "JupyterLab Dark", "false")
        overview.screenshot(path=screenshots / "lesson20-runs-narrow-dark.png")
        wide(overview)
        overview.screenshot(path=screenshots / "lesson20-runs-wide-dark.png")
        colour = overview.locator(".ndcg-r-bar").first.evaluate("(node) => getComputedStyle(node).fill")
        assert colour == "rgb(86, 180, 233)"  # the dark theme's lighter accent
    finally:
        wide(overview)
        theme(page.page, "JupyterLab Light", "true")


def test_a_long_document_id_wraps_in_its_row_clear_of_the_grade_wide_and_at_400_px(page, screenshots):
    single = page.page.locator("[data-testid=ranking-explorer]").first
    single.scroll_into_view_if_needed()

    def clear():
        for docno in LONG:
            row = single.locator(f'[data-item="{docno}"]')
            name, grade, frame = (box.bounding_box() for box in (row.locator(".ndcg-x-id"), row.locator(".ndcg-x-grade"), row))
            assert name["x"] + name["width"] <= grade["x"] + 0.5 and frame["x"] + frame["width"] <= single.bounding_box()["x"] + single.bounding_box()["width"] + 0.5
            assert row.locator(".ndcg-x-id").inner_text() == docno  # wrapped, never cut

    clear()
    single.screenshot(path=screenshots / "lesson20-long-ids-wide.png")
    narrow(single)
    try:
        clear()
        assert single.evaluate(OVERFLOW) == []
        single.screenshot(path=screenshots / "lesson20-long-ids-narrow.png")
    finally:
        wide(single)


def test_the_chinese_run_explorer_speaks_chinese(page, screenshots):
    overview = page.page.locator("[data-testid=run-explorer]").nth(1)
    output = overview.locator("xpath=ancestor::div[contains(@class, 'jp-OutputArea-output')][1]")
    query = output.locator("[data-testid=ranking-explorer]")
    a, _ = evaluated()
    assert overview.get_attribute("lang") == "zh-CN" and query.get_attribute("lang") == "zh-CN"
    expect_text(overview.locator("[data-testid=title]"), f"运行结果 {a.run_id} 的 ndcg_cut_10：{len(a.queries)} 个查询，最低的在前")
    expect_text(overview.locator(".ndcg-r-subtitle"), "最差的查询")
    expect_text(overview.locator(".ndcg-d-card-label").first, "评估时的平均值")
    expect_text(query.locator(".ndcg-x-group-title").first, f"查询 {page.kernel_value('zh_runs.explorer.qid')}，按 evaluate() 的算法计分")
    overview.scroll_into_view_if_needed()
    overview.screenshot(path=screenshots / "lesson20-runs-zh.png")
    narrow(overview)
    try:
        assert overview.evaluate(OVERFLOW) == []
        overview.screenshot(path=screenshots / "lesson20-runs-zh-narrow.png")
    finally:
        wide(overview)
