"""Build the explorers' Chinese web font: Noto Sans SC cut to the characters the widgets can show, as WOFF2.

The explorers draw their labels, buttons and step tables in the browser, with the browser's fonts. A machine with no
Chinese font (a minimal Linux desktop, a kiosk, a CI screenshot) shows boxes. The package therefore ships the
glyphs it needs, taken from the Noto Sans SC that the course already installs for its figures (the
``pylopdf-fonts-zh-cn`` package, SIL Open Font License 1.1; its licence is shipped beside the subset), and the
widgets' CSS loads them with ``@font-face`` (see ``ndcg_teach/widgets/webfont.py``).

The characters kept: every character from U+2E80 up (CJK, its punctuation and full-width forms) that the Chinese
catalogue (``ndcg_teach/i18n/locales/zh-CN.po``), the widgets' own files, or the code of a Chinese lesson (item names the
lessons give the explorers) contains. Latin letters, digits and ASCII punctuation are left to the page's own font.

Usage (from the repository root, after ``pip install -r requirements-dev.txt``, which brings ``brotli``)::

    python tools/subset_font.py            # write ndcg_teach/widgets/static/fonts/NotoSansSC-subset.woff2
    python tools/subset_font.py --check    # change nothing; exit 1 when the subset lacks a character it must have

The subset is committed (the package must work offline, and a learner's install has no ``brotli``); run this after
changing the catalogue, and tests/test_webfont.py fails until you do.
"""

from __future__ import annotations

import argparse
import io
import json
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FONTS = ROOT / "ndcg_teach" / "widgets" / "static" / "fonts"
SUBSET = FONTS / "NotoSansSC-subset.woff2"
LICENSE = FONTS / "OFL.txt"
FIRST_WIDE = 0x2E80  # CJK radicals: from here on, the page's Latin font has no glyphs


def wanted() -> set[str]:
    """The characters the subset must hold."""
    sys.path.insert(0, str(ROOT))
    from ndcg_teach import i18n

    texts = list(i18n.catalogue("zh-CN").values())
    texts += [path.read_text(encoding="utf-8") for path in sorted((ROOT / "ndcg_teach" / "widgets").rglob("*"))
              if path.suffix in (".py", ".js", ".css")]
    for path in sorted((ROOT / "notebooks" / "zh-CN").glob("*.ipynb")):
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        texts += ["".join(cell["source"]) for cell in cells if cell["cell_type"] == "code"]
    return {char for text in texts for char in text if ord(char) >= FIRST_WIDE}


def covered(path: Path = SUBSET) -> set[str]:
    """The characters a font file has glyphs for."""
    from fontTools.ttLib import TTFont

    with TTFont(path) as font:
        return {chr(code) for code in font.getBestCmap()}


def build(characters: set[str]) -> bytes:
    """Noto Sans SC cut to ``characters``, as WOFF2 bytes."""
    import pylopdf_fonts_zh_cn
    from fontTools import subset

    options = subset.Options()
    options.flavor = "woff2"
    options.hinting = False  # browsers hint CFF themselves; the hints double the size
    options.name_IDs = ["*"]  # keep the copyright, licence and licence URL the OFL asks a copy to carry
    options.name_languages = ["*"]
    options.layout_features = ["vert", "vrt2", "locl", "fwid", "halt", "palt"]
    font = subset.load_font(str(pylopdf_fonts_zh_cn.sans_path()), options)
    subsetter = subset.Subsetter(options)
    subsetter.populate(text="".join(sorted(characters)))
    subsetter.subset(font)
    buffer = io.BytesIO()
    subset.save_font(font, buffer, options)
    return buffer.getvalue()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check that the subset has every character")
    arguments = parser.parse_args(argv)
    characters = wanted()
    if arguments.check:
        missing = sorted(characters - covered()) if SUBSET.exists() else sorted(characters)
        print(f"{SUBSET.relative_to(ROOT)}: {len(characters)} characters wanted, {len(missing)} missing"
              + (f": {''.join(missing)}" if missing else ""))
        return 1 if missing else 0
    import pylopdf_fonts_zh_cn

    FONTS.mkdir(parents=True, exist_ok=True)
    SUBSET.write_bytes(build(characters))
    licence = Path(pylopdf_fonts_zh_cn.__file__).resolve().parent.parent.glob("pylopdf_fonts_zh_cn-*.dist-info/licenses/LICENSE")
    shutil.copyfile(next(licence), LICENSE)
    print(f"wrote {SUBSET.relative_to(ROOT)}: {len(characters)} characters, {SUBSET.stat().st_size:,} bytes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
