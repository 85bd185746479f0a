"""The explorer's drop path, layouts and themes in a real browser (JupyterLab 4 and Notebook 7).

Previews while dragging equal what the drop gives; ``data-state`` goes preview ->
pending -> confirmed; with 100 ms of network delay added each way the drop shows
the new numbers while the kernel has not answered yet; Escape cancels a drag; a
drag held at the notebook's edge scrolls it, so a row crosses a 40-item list; at
output widths from 320 px nothing overflows the widget; in the dark theme the
plots and the library's tables follow the theme and axe-core finds no
colour-contrast violation. Expected numbers come from ndcg_teach itself.
"""

import subprocess
import sys

import pytest
from jupyter_harness import APPS, DelayProxy, JupyterServer, NotebookPage, write_notebook
from kernels import command_line_options

import ndcg_teach as nt

pytestmark = pytest.mark.browser

ITEMS = ["B", "A", "D", "C", "E"]
GRADES = {"A": 5, "B": 4, "C": 3, "D": 2, "E": 1}
LABELS = {"A": "Apple pie recipe", "B": "Banana bread with walnuts", "C": "Carrot cake", "D": "Date squares",
          "E": "Jaguar car specs"}
K = 3
LONG = [f"item{i:02d}" for i in range(40)]
LONG_GRADES = {item: (7 * i) % 6 for i, item in enumerate(LONG)}
NOTEBOOK = "live.ipynb"
CELLS = [
    "import ndcg_teach as nt\nfrom ndcg_teach.widgets import CompareExplorer, RankingExplorer\n"
    f"explorer = RankingExplorer({ITEMS!r}, {GRADES!r}, k={K}, labels={LABELS!r})\nexplorer",
    f"duel = CompareExplorer({ITEMS!r}, ['E', 'A', 'B', 'C', 'D'], {GRADES!r}, k={K}, labels={LABELS!r})\nduel",
    f"long = RankingExplorer({LONG!r}, {LONG_GRADES!r})\nlong",
    "nt.explain_ndcg([3, 2, 3, 0, 1], k=3, ranking=list('BADCE'))",
    "from ndcg_teach.course.examples.auditing import audit\naudit()",
    "from ndcg_teach.core.conventions import compare\ncompare([3, 2, 3, 0, 1], k=3)",
]
RESET = "explorer.reset(); explorer.k = 3; long.reset(); duel.reset('a'); duel.reset('b')"
SINGLE = "[data-testid=ranking-explorer]"
STATE = "(selector) => document.querySelector(selector).dataset.state"
# Everything the explorer shows that depends on the order: metric cards, step table, plot score, bars.
SHOWN = """(root) => ({
  metrics: [...root.querySelectorAll("[data-metric]")].map((node) => [node.dataset.metric, node.textContent]),
  steps: [...root.querySelectorAll("[data-testid=step-table] tbody tr")].map((row) => row.textContent),
  score: root.querySelector("[data-testid=cumulative-plot-score]").textContent,
  bars: [...root.querySelectorAll("[data-testid=discount-plot] rect title")].map((title) => title.textContent),
})"""


def ndcg_text(order, grades=GRADES, k=K):
    return f"{nt.ndcg(nt.relevances_from(order, grades), k=k):.4f}"


def open_notebook(browser, app, cells, viewport, port=None):
    server = JupyterServer(app).start()
    write_notebook(server.root / NOTEBOOK, cells)
    page = browser.new_page(viewport=viewport)
    notebook = NotebookPage(page, server, NOTEBOOK, port=port)
    return server, page, notebook


@pytest.fixture(scope="module", params=APPS)
def live(request, browser):
    server, page, notebook = open_notebook(browser, request.param, CELLS, {"width": 1400, "height": 900})
    try:
        notebook.open()
        notebook.run_all()
        page.locator(f"{SINGLE} [data-item]").first.wait_for(timeout=60_000)
        page.locator(".ndcg-table").first.wait_for(timeout=60_000)
        notebook.app = request.param
        yield notebook
    finally:
        page.close()
        server.stop()


@pytest.fixture
def notebook(live):
    live.execute(RESET)
    live.page.set_viewport_size({"width": 1400, "height": 900})
    live.page.wait_for_function("(s) => document.querySelector(s).dataset.state === 'confirmed'", arg=SINGLE)
    return live


def row_centre(page, item, root=SINGLE):
    row = page.locator(f'{root} [data-item="{item}"]')
    row.scroll_into_view_if_needed()
    box = row.bounding_box()
    return box["x"] + 90, box["y"] + box["height"] / 2


def press_and_move(page, item, onto, root=SINGLE):
    """Press on ``item`` and move onto ``onto``'s row in 8 steps, without releasing."""
    x, y0 = row_centre(page, item, root)
    _, y1 = row_centre(page, onto, root)
    page.mouse.move(x, y0)
    page.wait_for_timeout(300)  # a hand resting on the row: its previews arrive
    page.mouse.down()
    page.mouse.move(x, y1, steps=8)


def test_the_preview_during_a_drag_is_what_the_drop_gives(notebook):
    page = notebook.page
    root = page.locator(SINGLE).first
    press_and_move(page, "E", onto="A")
    moved = ["B", "E", "A", "D", "C"]
    page.wait_for_function(
        "([s, text]) => document.querySelector(s).dataset.state === 'preview'"
        " && document.querySelector(`${s} [data-metric=ndcg]`).textContent === text",
        arg=[SINGLE, ndcg_text(moved)],
    )
    during = root.evaluate(SHOWN)
    # Position numbers follow the rows while dragging.
    positions = root.evaluate("(r) => [...r.querySelectorAll('[data-item]')].map((row) => [row.dataset.item, row.querySelector('.ndcg-x-pos').textContent])")
    assert dict(positions) == {item: str(i + 1) for i, item in enumerate(moved)}
    page.mouse.up()
    page.wait_for_function("(s) => document.querySelector(s).dataset.state === 'confirmed'", arg=SINGLE)
    assert notebook.kernel_value("explorer.order") == moved
    after = root.evaluate(SHOWN)
    assert during == after
    expected = notebook.kernel_value("{key: f'{value:.4f}' for key, value in explorer.metrics.items()}")
    assert dict(after["metrics"]) == expected
    trace = nt.explain_ndcg(nt.relevances_from(moved, GRADES), K, ranking=moved)
    assert after["score"] == f"{trace.metric} = {trace.value:.4f}"


def test_data_state_goes_preview_pending_confirmed(notebook):
    page = notebook.page
    page.evaluate("""(s) => {
      const root = document.querySelector(s);
      window.__states = [root.dataset.state];
      new MutationObserver(() => window.__states.push(root.dataset.state))
        .observe(root, { attributes: true, attributeFilter: ["data-state"] });
    }""", SINGLE)
    press_and_move(page, "B", onto="C")
    page.mouse.up()
    page.wait_for_function("() => window.__states.at(-1) === 'confirmed' && window.__states.includes('pending')")
    states = page.evaluate("() => window.__states")
    assert states[0] == "confirmed"
    assert states.index("preview") < states.index("pending") < len(states) - 1
    assert states[-1] == "confirmed"


def test_escape_cancels_a_drag(notebook):
    page = notebook.page
    press_and_move(page, "B", onto="E")
    page.wait_for_function(STATE.replace("dataset.state", "dataset.state === 'preview'"), arg=SINGLE)
    page.keyboard.press("Escape")
    page.mouse.move(*row_centre(page, "D"), steps=2)
    page.mouse.up()
    page.wait_for_function("(s) => document.querySelector(s).dataset.state === 'confirmed'", arg=SINGLE)
    order = page.locator(SINGLE).first.locator("[data-item]").evaluate_all("rows => rows.map((row) => row.dataset.item)")
    assert order == ITEMS
    assert page.locator(SINGLE).first.locator("[data-metric=ndcg]").text_content() == ndcg_text(ITEMS)
    assert notebook.kernel_value("explorer.order") == ITEMS
    assert page.locator(SINGLE).first.locator("[data-testid=announcer]").text_content() in ("", "Drag cancelled.")


def test_a_drag_held_at_the_edge_scrolls_a_40_item_list(notebook):
    page = notebook.page
    page.set_viewport_size({"width": 1400, "height": 700})
    root = page.locator("[data-testid=ranking-explorer]").nth(1)
    first = root.locator("[data-item]").first
    first.scroll_into_view_if_needed()
    box = first.bounding_box()
    bottom = root.evaluate("""(root) => {
      for (let p = root.parentElement; p; p = p.parentElement) {
        const style = getComputedStyle(p);
        if (/(auto|scroll|overlay)/.test(style.overflowY) && p.scrollHeight > p.clientHeight) return p.getBoundingClientRect().bottom;
      }
      return window.innerHeight;
    }""")
    page.mouse.move(box["x"] + 90, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(box["x"] + 90, bottom - 8, steps=10)
    page.wait_for_function(
        "(root) => root.querySelector('.is-dragging .ndcg-x-pos').textContent === '40'", arg=root.element_handle(), timeout=60_000
    )
    page.mouse.up()
    page.wait_for_function("(root) => root.dataset.state === 'confirmed'", arg=root.element_handle())
    assert notebook.kernel_value("long.order")[-1] == LONG[0]


OVERFLOW = """(root) => {
  const box = root.getBoundingClientRect();
  const problems = [];
  if (root.scrollWidth > root.clientWidth) problems.push(`root scrollWidth ${root.scrollWidth} > ${root.clientWidth}`);
  for (const node of root.querySelectorAll("*")) {
    if (node.closest(".ndcg-x-table-wrap, .ndcg-x-sr") && !node.matches(".ndcg-x-table-wrap")) continue;
    const r = node.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    if (r.left < box.left - 0.5 || r.right > box.right + 0.5) problems.push(`${node.className.baseVal ?? node.className} ${Math.round(r.left)}..${Math.round(r.right)} outside ${Math.round(box.left)}..${Math.round(box.right)}`);
  }
  // Text cut short must be available in full (a title on the name), and numbers are never cut.
  for (const node of root.querySelectorAll(".ndcg-x-card-value, .ndcg-x-card-label, .ndcg-x-id, .ndcg-x-comparison td, .ndcg-x-comparison th, .ndcg-x-button")) {
    if (node.scrollWidth > node.clientWidth + 0.5) problems.push(`cut: ${node.textContent}`);
  }
  for (const node of root.querySelectorAll(".ndcg-x-label")) {
    const name = node.closest(".ndcg-x-name");
    if (node.scrollWidth > node.clientWidth + 0.5 && !name.title.includes(node.textContent)) problems.push(`label cut without title: ${node.textContent}`);
  }
  for (const svg of root.querySelectorAll("svg")) {
    const frame = svg.getBoundingClientRect();
    for (const text of svg.querySelectorAll("text")) {
      const r = text.getBoundingClientRect();
      if (r.left < frame.left - 1 || r.right > frame.right + 1) problems.push(`plot text outside: ${text.textContent}`);
    }
  }
  return problems;
}"""
ROOTS = ("[data-testid=ranking-explorer]", "[data-testid=compare-explorer]")


@pytest.mark.parametrize("width", [320, 400, 560])
def test_nothing_overflows_the_widget_at_narrow_output_widths(notebook, width):
    page = notebook.page
    for selector in ROOTS:
        root = page.locator(selector).first
        root.evaluate("(root, width) => { const out = root.parentElement; out.style.width = `${width}px`; out.style.maxWidth = `${width}px`; }", width)
        page.wait_for_timeout(300)  # the plots redraw at their new width on the next frames
        try:
            assert root.evaluate(OVERFLOW) == [], (selector, width)
        finally:
            root.evaluate("(root) => { root.parentElement.style.width = ''; root.parentElement.style.maxWidth = ''; }")


def test_jupyterlab_with_the_file_browser_open_in_an_820_px_window(notebook):
    if notebook.app != "lab":
        pytest.skip("JupyterLab's sidebar")
    page = notebook.page
    page.set_viewport_size({"width": 820, "height": 900})
    page.evaluate("() => window.jupyterapp.commands.execute('filebrowser:activate')")
    page.wait_for_function("() => document.querySelector('.jp-FileBrowser') && document.querySelector('.jp-FileBrowser').offsetWidth > 0")
    page.wait_for_timeout(500)
    try:
        for selector in ROOTS:
            root = page.locator(selector).first
            assert root.evaluate("(root) => root.getBoundingClientRect().width") < 480
            assert root.evaluate(OVERFLOW) == [], selector
    finally:
        page.evaluate("() => window.jupyterapp.commands.execute('application:toggle-left-area')")


def change_theme(page, theme, light):
    page.evaluate("(theme) => window.jupyterapp.commands.execute('apputils:change-theme', { theme })", theme)
    page.wait_for_function("(light) => document.body.dataset.jpThemeLight === light", arg=light, timeout=30_000)
    page.wait_for_timeout(500)


@pytest.mark.parametrize(("theme", "light"), [("JupyterLab Light", "true"), ("JupyterLab Dark", "false")])
def test_plots_and_tables_follow_the_theme_with_enough_contrast(notebook, theme, light):
    from axe_playwright_python.sync_playwright import Axe

    page = notebook.page
    change_theme(page, theme, light)
    try:
        colours = page.locator(SINGLE).first.evaluate("""(root) => {
          const style = (node) => getComputedStyle(node);
          const figure = root.querySelector("[data-testid=discount-plot]");
          return {
            root: style(root).backgroundColor, figure: style(figure).backgroundColor,
            text: style(root).color, label: style(figure.querySelector("svg text")).fill,
          };
        }""")
        assert colours["figure"] == colours["root"]  # no white box in a dark notebook
        assert colours["label"] == colours["text"]
        results = Axe().run(page, context={"include": [[s] for s in (*ROOTS, ".ndcg-table")]},
                            options={"runOnly": ["color-contrast"]})
        failures = [(node["target"], node["any"][0]["message"]) for v in results.response["violations"] for node in v["nodes"]]
        assert failures == []
        assert results.response["passes"], "axe checked nothing"
    finally:
        change_theme(page, "JupyterLab Light", "true")


@pytest.fixture(scope="module", params=APPS)
def delayed(request, browser):
    """A notebook reached through a proxy that adds 100 ms each way, as a distant Binder or JupyterHub."""
    server = JupyterServer(request.param).start()
    try:
        with DelayProxy(server.port, 0.1) as proxy:
            write_notebook(server.root / NOTEBOOK, CELLS[:1])
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            notebook = NotebookPage(page, server, NOTEBOOK, port=proxy.port)
            notebook.open(timeout=240_000)
            notebook.run_all(timeout=240_000)
            page.locator(f"{SINGLE} [data-item]").first.wait_for(timeout=120_000)
            yield notebook
            page.close()
    finally:
        server.stop()


def test_a_drop_under_network_delay_shows_the_new_numbers_before_the_kernel_answers(delayed):
    page = delayed.page
    page.evaluate("""(s) => {
      const root = document.querySelector(s);
      window.addEventListener("pointerup", () => requestAnimationFrame(() => {
        window.__atDrop = [root.dataset.state, root.querySelector("[data-metric=ndcg]").textContent];
      }), true);
    }""", SINGLE)
    page.wait_for_timeout(1500)  # the previews asked for at display time cross the delayed network
    press_and_move(page, "E", onto="B")
    page.mouse.up()
    page.wait_for_function("() => window.__atDrop !== undefined")
    moved = ["E", "B", "A", "D", "C"]
    assert page.evaluate("() => window.__atDrop") == ["pending", ndcg_text(moved)]
    page.wait_for_function("(s) => document.querySelector(s).dataset.state === 'confirmed'", arg=SINGLE, timeout=30_000)
    assert delayed.kernel_value("explorer.order") == moved


def back_to_the_start(delayed):
    delayed.execute("explorer.reset()")
    delayed.page.wait_for_function(
        "([s, order]) => document.querySelector(s).dataset.state === 'confirmed'"
        " && [...document.querySelectorAll(`${s} [data-item]`)].map((row) => row.dataset.item).join() === order",
        arg=[SINGLE, ",".join(ITEMS)], timeout=30_000)


def shown_order(page):
    return page.locator(f"{SINGLE} [data-item]").evaluate_all("(rows) => rows.map((row) => row.dataset.item)")


def test_quick_key_moves_under_network_delay_all_reach_the_kernel(delayed):
    """A change is sent once the drop is painted, one send for every move made before it: none may be lost."""
    back_to_the_start(delayed)
    page = delayed.page
    page.locator(f'{SINGLE} [data-item="E"]').focus()
    for _ in range(4):
        page.keyboard.press("Alt+ArrowUp", delay=10)
    page.wait_for_function(STATE + " === 'confirmed'", arg=SINGLE, timeout=30_000)
    moved = ["E", "B", "A", "D", "C"]
    assert shown_order(page) == moved
    assert delayed.kernel_value("explorer.order") == moved


def test_a_button_pressed_right_after_a_move_acts_on_the_moved_order(delayed):
    """The kernel gets the learner's actions in the order they were made, though a move's own send waits for the paint."""
    back_to_the_start(delayed)
    page = delayed.page
    # Both in one task, before any frame: the move's order is still waiting to be sent when the button is pressed.
    page.evaluate("""(s) => {
      const root = document.querySelector(s);
      const row = root.querySelector('[data-item="E"]');
      row.focus();
      row.dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowUp", altKey: true, bubbles: true }));
      root.querySelector('[data-action="shuffle"]').click();
    }""", SINGLE)
    from ndcg_teach.widgets import RankingExplorer

    expected = RankingExplorer(ITEMS, GRADES, k=K)  # the library's own explorer, given the same two actions
    expected.move("E", 4)
    expected.shuffle()
    assert expected.order != ["B", "A", "D", "E", "C"]
    page.locator(SINGLE).locator("[data-testid=notice]").filter(has_text=", ".join(expected.order)).wait_for(timeout=30_000)
    page.wait_for_function(STATE + " === 'confirmed'", arg=SINGLE, timeout=30_000)
    assert delayed.kernel_value("explorer.order") == expected.order
    assert shown_order(page) == expected.order


def test_a_grade_box_given_letters_quotes_them(notebook):
    grade = notebook.page.locator(SINGLE).first.locator('[data-item="C"] [data-role=grade]')
    grade.fill("abc")
    grade.press("Enter")
    notice = notebook.page.locator(SINGLE).first.locator("[data-testid=notice]")
    notice.filter(has_text="Got 'abc' instead.").wait_for(timeout=15_000)
    assert notebook.kernel_value("explorer.relevance") == GRADES


def test_the_40_item_discount_plot_labels_do_not_collide(notebook):
    boxes = notebook.page.locator("[data-testid=ranking-explorer]").nth(1).evaluate("""(root) => {
      const labels = [...root.querySelectorAll("[data-testid=discount-plot] text")];
      return labels.map((text) => { const r = text.getBoundingClientRect(); return [text.textContent, r.left, r.right, r.top, r.bottom]; });
    }""")
    assert len(boxes) > 5
    overlaps = [(a[0], b[0]) for i, a in enumerate(boxes) for b in boxes[i + 1:]
                if a[1] < b[2] - 0.5 and b[1] < a[2] - 0.5 and a[3] < b[4] - 0.5 and b[3] < a[4] - 0.5]
    assert overlaps == []


def test_an_executed_notebook_shows_the_picture_until_it_runs_then_only_the_widget(live, browser):
    import nbformat

    path = live.server.root / "saved.ipynb"
    write_notebook(path, CELLS[:1])
    # In a process of its own: nbclient's event loop must not meet Playwright's in this thread.
    subprocess.run([sys.executable, "-m", "jupyter", "nbconvert", "--to", "notebook", "--execute", "--inplace", str(path),
                    *command_line_options()],
                   check=True, capture_output=True, timeout=300)
    saved = nbformat.read(path, as_version=4)
    saved.metadata.pop("widgets", None)  # as the lessons are stored
    nbformat.write(saved, path)
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    try:
        notebook = NotebookPage(page, live.server, "saved.ipynb").open()
        picture = page.locator(".ndcg-x-static")  # the sanitizer of untrusted HTML keeps classes, not data-testid
        picture.wait_for(timeout=30_000)
        assert "Run this cell to drag the rows" in picture.text_content()
        assert picture.locator("img").count() == 2
        assert page.get_by_text("Error displaying widget").count() == 0
        notebook.run_all()
        page.locator(f"{SINGLE} [data-item]").first.wait_for(timeout=60_000)
        assert picture.count() == 0
    finally:
        page.close()
