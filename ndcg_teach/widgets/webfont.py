"""The explorers' stylesheet, with the Chinese web font they draw Chinese with, whatever fonts the system has.

The explorers draw their labels, buttons and tables in the browser. Without a Chinese font on the machine (a minimal
Linux desktop, a kiosk, a CI screenshot) every Chinese character is a box. ``static/fonts/NotoSansSC-subset.woff2``
holds the Noto Sans SC glyphs the widgets can show (built by tools/subset_font.py from the font the course installs
for its figures; SIL Open Font License, ``static/fonts/OFL.txt``). anywidget injects a widget's ``_css`` into the page
as a ``<style>`` element, where a relative ``url()`` would resolve against the page (``/lab/tree/...`` in
JupyterLab, ``/notebooks/...`` in Notebook 7, ``/user/<name>/...`` behind JupyterHub), not against the package: the
font therefore travels inside the CSS as a ``data:`` URL (about 150 kB of base64), and works wherever the widget
does, offline too. The widgets' CSS names :data:`FAMILY` first, and ``unicode-range`` limits it to CJK: Latin text
keeps the page's fonts, and Chinese is drawn with the bundled glyphs on every machine. (Named last, after the page's
fonts, it was loaded but not used for text laid out before it arrived: Chromium drew the explorer's labels as boxes
until they changed, tests/browser/test_explorer_font_browser.py.)
"""

from __future__ import annotations

import base64
import functools
from pathlib import Path

STATIC = Path(__file__).parent / "static"
FONT = STATIC / "fonts" / "NotoSansSC-subset.woff2"
FAMILY = "ndcg Noto Sans SC"
UNICODE_RANGE = "U+2E80-FFFF, U+20000-3FFFF"


@functools.cache
def font_face() -> str:
    """The ``@font-face`` rule of :data:`FAMILY`, its WOFF2 inline."""
    data = base64.b64encode(FONT.read_bytes()).decode("ascii")
    return (f'@font-face {{ font-family: "{FAMILY}"; src: url(data:font/woff2;base64,{data}) format("woff2"); '
            f"font-display: block; unicode-range: {UNICODE_RANGE}; }}")


def stylesheet(*names: str) -> str:
    """The files ``names`` of ``static/``, one after the other, after the font's ``@font-face`` rule."""
    return "\n".join([font_face(), *((STATIC / name).read_text(encoding="utf-8") for name in names)])
