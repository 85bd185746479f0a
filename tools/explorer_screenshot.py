"""Take the READMEs' pictures of the explorer: a real JupyterLab in Chromium, one picture per edition.

Starts a throw-away JupyterLab on 127.0.0.1 through tests/browser/jupyter_harness.py (temporary config,
settings and runtime folders; the course's server extension, as ``make lab`` sets it up), runs a notebook
whose one cell builds a RankingExplorer, waits until the kernel has confirmed what the explorer shows, and
photographs that cell: its code and the live explorer with its cards, its list, the step table and both plots.
The picture is reduced to a palette of at most 256 colours, so that it stays small, and written to
``docs/images/explorer.png`` (English) and ``docs/images/explorer.zh-CN.png`` (Chinese).
The browser is Debian's ``chromium`` when it is on the PATH, else Playwright's own; it is given the Chinese font
the course installs (Noto Sans SC, from ``pylopdf-fonts-zh-cn``) through a fontconfig file of its own, so the
Chinese picture shows characters, not boxes, on a machine without a Chinese font. The server is stopped by its
PID and its folders removed, also after an error.

Usage (from the repository root)::

    python tools/explorer_screenshot.py                    # both pictures, into docs/images/
    python tools/explorer_screenshot.py --edition zh-CN --out /tmp/pictures
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "browser"))

from jupyter_harness import JupyterServer, NotebookPage, launch_chromium, write_notebook  # noqa: E402

OUT = ROOT / "docs" / "images"
# A query for a cake recipe: five results, in an order a learner can improve by dragging.
ORDER = ["B", "A", "D", "C", "E"]
GRADES = {"A": 3, "B": 2, "C": 3, "D": 0, "E": 1}
K = 3
LABELS = {
    "en": {"A": "Chocolate cake recipe", "B": "Cake shop near you", "C": "Easy sponge cake", "D": "Cake emoji", "E": "History of cake"},
    "zh-CN": {"A": "巧克力蛋糕做法", "B": "附近的蛋糕店", "C": "简单海绵蛋糕", "D": "蛋糕表情", "E": "蛋糕的历史"},
}
FILES = {"en": "explorer.png", "zh-CN": "explorer.zh-CN.png"}
# Wide enough for the explorer's two-column layout (its container query switches below 760 px), tall enough for the
# whole cell to be on screen.
VIEWPORT = {"width": 1280, "height": 2400}
CONFIRMED = "() => [...document.querySelectorAll('[data-testid$=-explorer]')].every((root) => root.dataset.state === 'confirmed')"


def cell_source(edition: str) -> str:
    """The code of the photographed cell: what a learner types to get the explorer."""
    language = ', language="zh-CN"' if edition == "zh-CN" else ""
    labels = "".join(f"    {item!r}: {label!r},\n" for item, label in LABELS[edition].items())
    return (
        "from ndcg_teach.widgets import RankingExplorer\n\n"
        f"grades = {GRADES!r}\n"
        f"labels = {{\n{labels}}}\n"
        f"RankingExplorer({ORDER!r}, grades, k={K}, labels=labels{language})"
    )


def small_png(path: Path) -> None:
    """Rewrite the screenshot at ``path`` with a palette of at most 256 colours (interface colours need no more)."""
    from PIL import Image

    with Image.open(path) as image:
        reduced = image.convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    reduced.save(path, optimize=True)


def fontconfig(folder: Path) -> Path:
    """A fontconfig file that adds the course's Chinese font to the system's fonts, written into ``folder``."""
    import pylopdf_fonts_zh_cn

    conf = folder / "fonts.conf"
    conf.write_text(
        '<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n'
        '  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>\n'
        f"  <dir>{Path(pylopdf_fonts_zh_cn.sans_path()).parent}</dir>\n"
        f"  <cachedir>{folder / 'cache'}</cachedir>\n</fontconfig>\n",
        encoding="utf-8",
    )
    return conf


def photograph(browser, edition: str, target: Path) -> Path:
    """Run the explorer's cell in a fresh JupyterLab and save the cell as it shows, as ``target``."""
    with JupyterServer("lab") as server:
        write_notebook(server.root / "explorer.ipynb", [cell_source(edition)])
        page = browser.new_page(viewport=VIEWPORT)
        try:
            notebook = NotebookPage(page, server, "explorer.ipynb").open()
            page.evaluate("() => window.jupyterapp.shell.collapseLeft()")  # the file browser, out of the picture
            notebook.run_all()
            explorer = page.locator("[data-testid=ranking-explorer]")
            explorer.locator("[data-item]").first.wait_for(timeout=60_000)
            page.wait_for_function(CONFIRMED, timeout=60_000)
            page.mouse.move(0, 0)  # no row under the pointer, so none shows as hovered
            page.evaluate("() => document.activeElement && document.activeElement.blur()")
            cell = page.locator(".jp-Notebook .jp-Cell").first
            target.parent.mkdir(parents=True, exist_ok=True)
            cell.screenshot(path=str(target), animations="disabled")
        finally:
            page.close()
    small_png(target)
    return target


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edition", nargs="+", choices=sorted(FILES), default=["en", "zh-CN"])
    parser.add_argument("--out", type=Path, default=OUT, help=f"where the pictures go (default: {OUT.relative_to(ROOT)})")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="ndcg-fonts-") as folder, sync_playwright() as driver:
        browser = launch_chromium(driver, shell=False, env={**os.environ, "FONTCONFIG_FILE": str(fontconfig(Path(folder)))})
        try:
            for edition in args.edition:
                path = photograph(browser, edition, args.out / FILES[edition])
                print(f"{path}: {path.stat().st_size:,} bytes")
        finally:
            browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
