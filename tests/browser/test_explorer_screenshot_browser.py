"""tools/explorer_screenshot.py, which takes the READMEs' pictures of the explorer, still takes one.

It runs the explorer's cell in a throw-away JupyterLab and photographs the cell; here the picture must be a PNG
of palette colours, wide enough for the explorer's two-column layout and as small as the READMEs allow
(tests/test_docs.py holds the committed pictures to the same limits).
"""

import pytest
from PIL import Image

import explorer_screenshot

pytestmark = pytest.mark.browser


def test_the_tool_photographs_the_explorers_cell_as_a_small_palette_png(browser, tmp_path):
    path = explorer_screenshot.photograph(browser, "en", tmp_path / "explorer.png")
    with Image.open(path) as picture:
        assert picture.format == "PNG" and picture.mode == "P"
        width, height = picture.size
    assert 800 <= width <= explorer_screenshot.VIEWPORT["width"] and 600 <= height <= 1600
    assert path.stat().st_size <= 120_000
