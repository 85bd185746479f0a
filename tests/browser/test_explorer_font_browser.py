"""The Chinese explorer draws its own Chinese in a browser that has no Chinese font (JupyterLab 4 and Notebook 7).

Chromium runs with a fontconfig that knows one folder of fonts, matplotlib's DejaVu (no CJK glyph), so a Chinese
character no web font covers is drawn as the same empty box whatever it is. The test first shows that this is so
(two different Chinese words in plain ``sans-serif`` give the same pixels), then that the explorer's own Chinese
(labels, buttons, headers: the catalogue's words) is drawn with the bundled web font: its characters are all in the
font, the font is loaded, two different words in the widget's font give different pixels, and each Chinese text of
the widget looks different when the bundled font is taken away.
"""

import os

import matplotlib
import pytest
from jupyter_harness import APPS, CHROMIUM_ARGS, NoBrowser, chromium_path
from subset_font import FIRST_WIDE, covered
from test_explorer_browser import opened_explorers

from ndcg_teach.widgets import webfont

pytestmark = pytest.mark.browser

FONTS_CONF = """<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
<fontconfig>
  <dir>{fonts}</dir>
  <cachedir>{cache}</cachedir>
</fontconfig>
"""
ITEMS = ["A", "B", "C"]
GRADES = {"A": 3, "B": 0, "C": 2}
CELLS = [  # the harness opens a ranking explorer and a compare explorer
    f"from ndcg_teach.widgets import CompareExplorer, RankingExplorer\n"
    f"explorer = RankingExplorer({ITEMS!r}, {GRADES!r}, k=2, language='zh-CN')\nexplorer",
    f"duel = CompareExplorer({ITEMS!r}, {ITEMS[::-1]!r}, {GRADES!r}, k=2, language='zh-CN')\nduel",
]
ROOT = "[data-testid=ranking-explorer]"
# The widget's Chinese texts (not the learner's item labels), each marked so that a locator can find it.
MARK_TEXTS = """(root) => {
  const found = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const element = node.parentElement;
    if (!/[\\u4e00-\\u9fff]/.test(node.data) || element.closest(".ndcg-x-label")) continue;
    const box = element.getBoundingClientRect();
    const style = getComputedStyle(element);
    // drawn on screen, at a readable size: not a screen reader's visually hidden text, not a closed menu
    if (box.width < 8 || box.height < 8 || element.children.length || style.visibility !== "visible"
        || style.clipPath !== "none" || style.clip !== "auto" || element.closest("select")) continue;
    element.dataset.fontProbe = String(found.length);
    found.push(node.data.trim());
  }
  return found;
}"""
PROBE = """([root, text, family]) => {
  const span = document.createElement("span");
  span.textContent = text;
  span.className = "font-probe";
  if (family) span.style.fontFamily = family;
  document.querySelector(root).prepend(span);
}"""


@pytest.fixture(scope="module")
def browser_without_cjk(playwright_driver, tmp_path_factory, no_browser):
    """Chromium that sees matplotlib's DejaVu fonts only: no font of the system, so none with Chinese."""
    folder = tmp_path_factory.mktemp("fontconfig")
    fonts = os.path.join(matplotlib.get_data_path(), "fonts", "ttf")
    (folder / "fonts.conf").write_text(FONTS_CONF.format(fonts=fonts, cache=folder / "cache"), encoding="utf-8")
    try:
        executable = chromium_path()
        if executable is None:
            raise NoBrowser("no chromium on the PATH")
        chromium = playwright_driver.chromium.launch(executable_path=executable, args=list(CHROMIUM_ARGS),
                                                     env={**os.environ, "FONTCONFIG_FILE": str(folder / "fonts.conf")})
    except NoBrowser as error:
        no_browser(str(error))
    yield chromium
    chromium.close()


@pytest.fixture(scope="module", params=APPS)
def chinese(request, browser_without_cjk):
    with opened_explorers(browser_without_cjk, request.param, "font.ipynb", CELLS) as result:
        result.page.wait_for_function("() => document.fonts.status === 'loaded'")
        yield result


def pixels(page, text, family):
    """A screenshot of ``text`` drawn at the top of the explorer, in ``family`` (None: the widget's own fonts)."""
    page.evaluate(PROBE, [ROOT, text, family])
    probe = page.locator(f"{ROOT} .font-probe").first
    shot = probe.screenshot()
    probe.evaluate("(node) => node.remove()")
    return shot


def test_this_browser_has_no_chinese_font(chinese):
    # Without a web font, two different Chinese words are the same row of boxes.
    assert pixels(chinese.page, "排序", "sans-serif") == pixels(chinese.page, "评估", "sans-serif")


def test_the_explorer_draws_its_chinese_with_the_bundled_font(chinese):
    page = chinese.page
    texts = page.evaluate(MARK_TEXTS, page.locator(ROOT).element_handle())
    assert len(texts) >= 5, texts
    assert {char for char in "".join(texts) if ord(char) >= FIRST_WIDE} <= covered()  # the rest is DejaVu's
    assert page.evaluate("([family, text]) => document.fonts.check(`16px \"${family}\"`, text)",
                         [webfont.FAMILY, "".join(texts)])
    assert pixels(page, "排序", None) != pixels(page, "评估", None)
    for number, text in enumerate(texts[:8]):
        element = page.locator(f"{ROOT} [data-font-probe='{number}']")
        drawn = element.screenshot()
        element.evaluate("(node) => { node.dataset.family = node.style.fontFamily; node.style.fontFamily = 'sans-serif'; }")
        boxes = element.screenshot()
        element.evaluate("(node) => { node.style.fontFamily = node.dataset.family; }")
        assert drawn != boxes, f"{text!r} is drawn the same without the bundled font: boxes"
