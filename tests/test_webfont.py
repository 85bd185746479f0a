"""The explorers' Chinese web font (ndcg_teach/widgets/webfont.py, built by tools/subset_font.py).

The subset is a committed data file: this test fails when the catalogue, a widget or a Chinese lesson's code starts
using a character the subset lacks (run ``python tools/subset_font.py`` to rebuild it). The browser side, that the
explorer really draws with it where the system has no Chinese font, is tests/browser/test_explorer_font_browser.py.
"""

import base64
import re

import subset_font

from ndcg_teach.widgets import webfont
from ndcg_teach.widgets.differences import DifferenceExplorer
from ndcg_teach.widgets.explorer import RankingExplorer


def test_the_subset_has_every_character_the_widgets_can_show():
    wanted = subset_font.wanted()
    assert len(wanted) > 500 and "排" in wanted and "（" in wanted
    assert "".join(sorted(wanted - subset_font.covered())) == ""


def test_the_subset_is_small_and_carries_the_fonts_licence():
    assert webfont.FONT.read_bytes()[:4] == b"wOF2" and webfont.FONT.stat().st_size < 300_000
    assert "SIL OPEN FONT LICENSE Version 1.1" in (webfont.FONT.parent / "OFL.txt").read_text(encoding="utf-8")
    assert len(subset_font.covered()) < 1500  # a subset, not the 30,000 glyphs of the whole font


def test_the_css_loads_the_font_inline_and_every_widget_names_it_after_the_page_fonts():
    face = webfont.font_face()
    data = re.search(r"url\(data:font/woff2;base64,([A-Za-z0-9+/=]+)\)", face).group(1)
    assert base64.b64decode(data) == webfont.FONT.read_bytes()
    assert f'font-family: "{webfont.FAMILY}"' in face and "unicode-range: U+2E80-FFFF" in face
    for widget in (RankingExplorer, DifferenceExplorer):
        assert widget._css.startswith(face)
        families = re.findall(r"font-family:\s*([^;]+);", widget._css.replace(face, ""))
        assert families and all(f'"{webfont.FAMILY}"' in family or family.strip() == "inherit" for family in families)
