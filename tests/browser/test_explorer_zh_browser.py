"""The Chinese explorer (``language="zh-CN"``) in a real browser: JupyterLab 4 and Notebook 7.

It shows Chinese labels, buttons, plot axes, legends, step-table headers,
tooltips and announcements (every text from Python's catalogue), while its DOM
contract (data-testid, data-item, data-metric, data-state) is the English
explorer's and a drag updates the numbers, which come from ndcg_teach itself.
At narrow output widths nothing overflows. The text content is checked, not
pixels: the machine's Chromium may have no CJK font.
"""

import re

import pytest
from jupyter_harness import APPS
from test_explorer_browser import (
    DUEL_B,
    GRADES,
    ITEMS,
    K,
    expect_order,
    expect_text,
    ndcg_text,
    opened_explorers,
)
from test_explorer_live_browser import OVERFLOW

import ndcg_teach as nt
from ndcg_teach.widgets.messages import front_end
from ndcg_teach.widgets.panel import DEFAULT_CARDS

pytestmark = pytest.mark.browser

LABELS = {"A": "苹果派的做法", "B": "香蕉面包", "C": "胡萝卜蛋糕", "D": "椰枣方块酥", "E": "捷豹汽车参数（不相关的那种美洲豹）"}
NOTEBOOK = "chinese.ipynb"
ZH = front_end("zh-CN")
CELLS = [
    (
        "import ndcg_teach as nt\nfrom ndcg_teach.widgets import CompareExplorer, RankingExplorer\n"
        f"explorer = RankingExplorer({ITEMS!r}, {GRADES!r}, k={K}, labels={LABELS!r}, language='zh-CN')\nexplorer"
    ),
    # The learner's language set for the lesson: language=None follows it.
    f"nt.set_language('zh-CN')\nduel = CompareExplorer({ITEMS!r}, {DUEL_B!r}, {GRADES!r}, k={K}, labels={LABELS!r})\nduel",
]
RESET = "explorer.reset(); explorer.k = 3; duel.reset('a'); duel.reset('b')"
DUEL_B_LIST = "[data-testid=compare-explorer] [data-ranking=order_b]"
CJK = re.compile(r"[\u4e00-\u9fff]")
# An English word of 4 letters or more (acronyms such as NDCG and the function name explain_ndcg aside).
ENGLISH = re.compile(r"(?<![A-Za-z_])[A-Za-z][a-z]{3,}(?![A-Za-z_])")
# What a learner reads of the widget's own making: texts and the attributes screen readers and tooltips use.
# The formula and its notes are the trace's (translated with the library's traces), and item ids and labels the learner's.
READ = """(root) => {
  const skip = ".ndcg-x-formula, .ndcg-x-notes, .ndcg-x-id, .ndcg-x-label, .ndcg-x-card-value, tbody";
  const texts = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.parentElement.closest(skip) && node.data.trim()) texts.push(node.data.trim());
  }
  for (const node of root.querySelectorAll("[aria-label], [title], [data-cut]")) {
    for (const name of ["aria-label", "title", "data-cut"]) if (node.getAttribute(name)) texts.push(node.getAttribute(name));
  }
  return texts;
}"""


@pytest.fixture(scope="module", params=APPS)
def chinese(request, browser):
    with opened_explorers(browser, request.param, NOTEBOOK, CELLS) as result:
        yield result


@pytest.fixture(autouse=True)
def fresh(chinese):
    chinese.notebook.execute(RESET)
    chinese.page.set_viewport_size({"width": 1440, "height": 1900})
    expect_order(chinese, ITEMS)
    expect_text(chinese.metric("ndcg"), ndcg_text(ITEMS))
    yield
    assert chinese.our_errors() == []


def test_the_dom_contract_is_the_english_explorers(chinese):
    for root, testid in ((chinese.single, "ranking-explorer"), (chinese.duel, "compare-explorer")):
        assert root.get_attribute("data-testid") == testid
        assert root.get_attribute("lang") == "zh-CN"
        assert root.get_attribute("data-state") == "confirmed"
    assert chinese.order() == ITEMS
    assert [chinese.order(chinese.duel.locator(f"[data-ranking={side}]")) for side in ("order_a", "order_b")] == [ITEMS, DUEL_B]
    keys = list(DEFAULT_CARDS)
    assert chinese.single.locator("[data-metric]").evaluate_all("nodes => nodes.map(n => n.dataset.metric)") == keys
    relevances = nt.relevances_from(ITEMS, GRADES)
    for key in DEFAULT_CARDS:
        expect_text(chinese.metric(key), f"{nt.metric(key).function(relevances, K):.4f}")
    for name in ("discount-plot", "cumulative-plot", "step-table", "ranked-list", "notice", "announcer"):
        assert chinese.single.locator(f"[data-testid={name}]").count() == 1, name
    assert chinese.duel.locator("[data-testid=comparison] [data-metric-diff=ndcg]").count() == 1
    assert chinese.single.locator("[data-action]").evaluate_all("nodes => nodes.map(n => n.dataset.action)") == [
        "ideal", "worst", "shuffle", "reset"]


def test_every_word_the_widget_shows_is_chinese(chinese, screenshots):
    chinese.page.wait_for_function(
        """() => [...document.querySelectorAll("[data-testid=ranking-explorer] svg.ndcg-x-plot")]
          .every((svg) => svg.querySelector("polyline"))""",
        timeout=15_000,
    )
    single = chinese.single
    assert single.locator(".ndcg-x-field-label").all_inner_texts() == [ZH["cutoff"], ZH["gain"], ZH["discount"], ZH["relevant_if"]]
    assert single.locator("[data-action]").all_inner_texts() == ["理想排序", "最差排序", "打乱", "重置"]
    assert single.locator(".ndcg-x-hint").inner_text() == ZH["hint"]
    assert single.locator("[data-testid=step-table] thead th").all_inner_texts()[:5] == ["i", "条目", "等级", "增益", "折损"]
    assert single.locator("[data-testid=discount-plot] .ndcg-x-svg-title").all_text_contents() == ["增益、增益 × 折损", "折损", "位置 i"]
    assert single.locator("[data-testid=cumulative-plot] figcaption").inner_text() == ZH["cumulative_caption"]
    assert chinese.duel.locator(".ndcg-x-legend li").all_inner_texts() == ["模型 A 的 DCG 累加和", "模型 B 的 DCG 累加和", "IDCG 累加和（理想排序）"]
    assert chinese.duel.locator("[data-testid=comparison] thead th").first.inner_text() == "指标"
    for root in (single, chinese.duel):
        shown = root.evaluate(READ)
        assert len(shown) > 40
        # Names stay as written: the function explain_ndcg and Järvelin (the discount's author, in its choice).
        english = [text for text in shown if ENGLISH.search(text.replace("explain_ndcg", "").replace("Järvelin", ""))]
        assert english == []
        assert [text for text in shown if re.search(r"[A-Za-z]{2}", text) and not CJK.search(text)
                and not re.fullmatch(r"[A-Z]+@\d+( = [\d.]+)?|rel|2\^rel − 1|1/log2\(i\+1\)|Järvelin: 1/log2\(i\)", text)] == []
    chinese.shot(screenshots, "zh-explorer")
    chinese.shot(screenshots, "zh-compare", chinese.duel)


def test_a_drag_updates_the_numbers_and_is_announced_in_chinese(chinese):
    before = chinese.plots()
    chinese.drag("E", onto="B")
    moved = ["E", "B", "A", "D", "C"]
    expect_text(chinese.metric("ndcg"), ndcg_text(moved))
    chinese.wait_for_new_plots(before)
    assert chinese.order() == moved
    assert chinese.kernel("explorer.order") == moved
    chinese.row("B").focus()
    chinese.page.keyboard.press("Alt+ArrowDown")
    moved = ["E", "A", "B", "D", "C"]
    expect_text(chinese.metric("ndcg"), ndcg_text(moved))
    expect_text(chinese.single.locator("[data-testid=announcer]"), "B 已移到第 3 位（共 5 位）。")
    chinese.single.locator("[data-action=ideal]").click()
    expect_text(chinese.single.locator("[data-testid=notice]"), "理想排序：A、B、C、D、E。")
    expect_text(chinese.metric("ndcg"), "1.0000")


def test_a_refused_grade_is_explained_in_chinese(chinese):
    grade = chinese.row("C").locator("[data-role=grade]")
    grade.fill("9")
    grade.press("Enter")
    expect_text(chinese.single.locator("[data-testid=notice]"), "C 的相关性等级必须是 0 到 5 之间的整数，而输入的是 '9'。")
    assert chinese.kernel("explorer.relevance") == GRADES


def test_compare_mode_drag_in_chinese(chinese):
    panel = chinese.duel.locator("[data-ranking=order_b]")
    chinese.drag("A", onto="E", root=panel)
    moved = ["A", "E", "B", "C", "D"]
    expect_order(chinese, moved, DUEL_B_LIST)
    ndcg_a, ndcg_b = (nt.ndcg(nt.relevances_from(order, GRADES), k=K) for order in (ITEMS, moved))
    expect_text(chinese.duel.locator("[data-metric-diff=ndcg]"), f"{ndcg_b - ndcg_a:+.4f}")
    expect_text(chinese.duel.locator("[data-testid=cumulative-plot-score]"),
                f"模型 A：NDCG@3 = {ndcg_a:.4f} · 模型 B：NDCG@3 = {ndcg_b:.4f}")
    assert chinese.kernel("duel.order_b") == moved


@pytest.mark.parametrize("width", [320, 400])
def test_nothing_overflows_the_chinese_widget_at_narrow_output_widths(chinese, width):
    for root in (chinese.single, chinese.duel):
        root.evaluate("(root, width) => { const out = root.parentElement; out.style.width = `${width}px`; out.style.maxWidth = `${width}px`; }", width)
        chinese.page.wait_for_timeout(300)  # the plots redraw at their new width on the next frames
        try:
            assert root.evaluate(OVERFLOW) == [], width
        finally:
            root.evaluate("(root) => { root.parentElement.style.width = ''; root.parentElement.style.maxWidth = ''; }")
