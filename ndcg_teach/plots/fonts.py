"""A font for the Chinese in figures, installed with the course, and a clear fallback where there is none.

matplotlib's own font (DejaVu Sans) has no Chinese characters: a Chinese label
is drawn as boxes, with one "Glyph ... missing" warning per character. The
course's requirements install Noto Sans SC (SIL Open Font License, the
``pylopdf-fonts-zh-cn`` package ships the upstream file unchanged), on Linux,
macOS, Windows and Binder alike. :func:`use_chinese_font`, called when
:mod:`ndcg_teach.plots` is imported, registers it with matplotlib's font
manager and puts it after the default family in ``font.family`` (matplotlib
falls back glyph by glyph along that list, not along ``font.sans-serif``), so
Latin letters and digits keep their look and each Chinese character is drawn
with it. Without that package the first Chinese font the system has is used
(:data:`SYSTEM_FONTS`); with none at all, one warning says what to install,
the per-character warnings are silenced, and the library's own plots label
their axes in English (:func:`labels_language`) instead of drawing boxes.

Figures saved as SVG keep their text as text (``svg.fonttype = "none"``):
a browser draws it with its own fonts, and a test can read it.
"""

from __future__ import annotations

import functools
import warnings

import matplotlib
from matplotlib import font_manager

from ..i18n import language

PACKAGED_FONT = "Noto Sans SC"
"""The family of the font the course installs (``pylopdf-fonts-zh-cn``)."""

SYSTEM_FONTS = ("Noto Sans CJK SC", "Source Han Sans SC", "Microsoft YaHei", "PingFang SC", "Hiragino Sans GB",
                "Heiti SC", "STHeiti", "WenQuanYi Zen Hei", "WenQuanYi Micro Hei", "Droid Sans Fallback",
                "Arial Unicode MS")
"""Chinese fonts of Linux (fonts-noto-cjk, fonts-wqy-*), Windows and macOS, tried in this order after the course's."""

INSTALL_HINT = "pip install pylopdf-fonts-zh-cn==0.1.1 (or install a Chinese font such as Debian's fonts-noto-cjk)"


@functools.cache
def chinese_font() -> str | None:
    """The family matplotlib will draw Chinese with: the course's font, else a system one, else None."""
    try:
        import pylopdf_fonts_zh_cn

        font_manager.fontManager.addfont(str(pylopdf_fonts_zh_cn.sans_path()))
    except (ImportError, OSError, RuntimeError):
        pass
    known = {entry.name for entry in font_manager.fontManager.ttflist}
    return next((family for family in (PACKAGED_FONT, *SYSTEM_FONTS) if family in known), None)


def use_chinese_font() -> str | None:
    """Make matplotlib draw Chinese with :func:`chinese_font` (once); warn once, and quietly, when there is none."""
    family = chinese_font()
    matplotlib.rcParams["svg.fonttype"] = "none"
    if family is None:
        warnings.filterwarnings("ignore", message=r"Glyph \d+ .* missing from font", category=UserWarning)
        if language() == "zh-CN":
            _warn_once()
        return None
    families = list(matplotlib.rcParams["font.family"])
    if family not in families:
        matplotlib.rcParams["font.family"] = [*families, family]
    return family


def with_chinese(family: str) -> list[str]:
    """``family`` and then :func:`chinese_font`, for a text given a family of its own (``family="monospace"``).

    matplotlib falls back glyph by glyph along the text's own family list only,
    so without this a Chinese name in monospace text is drawn as boxes.
    """
    chinese = chinese_font()
    return [family] if chinese is None else [family, chinese]


@functools.cache
def _warn_once():
    warnings.warn(f"No Chinese font found, so figures cannot draw Chinese: {INSTALL_HINT}. Until then "
                  "ndcg_teach's plots label their axes in English.", UserWarning, stacklevel=3)


def labels_language() -> str:
    """The language the library's plots label in: the learner's, or English (warned once) when Chinese cannot be drawn."""
    if language() == "en" or chinese_font():
        return language()
    _warn_once()
    return "en"
