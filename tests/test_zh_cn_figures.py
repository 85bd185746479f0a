"""The figures a Chinese learner sees: their text, as drawn, is Chinese, and every character of it has a glyph.

The lessons store figures as PNG (drawn with the course's font, so they look
the same in every browser), and so do the explorers' saved pictures; a test
cannot read either. So each zh-CN lesson with a figure or a picture is run
again in a kernel, up to its last one, with the inline backend drawing SVG
and the library's plots handing over an SVG of each PNG they render
(``svg.fonttype = "none"`` keeps text as ``<text>``; ndcg_teach.plots.fonts sets
it). Every figure's labels are then checked
like the printed outputs (tests/zh_text.py's english_words: one English word is
already too many in a label; names allowed by name and the values a learner
types, such as score_type='raw', are not words), and every character against the fonts matplotlib drew
it with: Chinese in the course's Noto Sans SC, no "Glyph missing" warning, no
stand-in. The library's own plots are drawn as SVG the same way in zh-CN.

About 2-4 s per lesson (a kernel's start and the lesson's cells up to its last figure).
"""

import warnings
from pathlib import Path

import nbformat
import pytest
from kernels import AsyncUnixSocketKernelManager
from nbclient import NotebookClient
from zh_text import CJK, GLYPH_WARNINGS, english_words, glyph_faults, label_texts, svg_too

import ndcg_teach as nt
from ndcg_teach import plots
from ndcg_teach.widgets import CompareExplorer, RankingExplorer
from ndcg_teach.widgets.picture import static_html

ROOT = Path(__file__).resolve().parent.parent
CHINESE = sorted((ROOT / "notebooks" / "zh-CN").glob("*.zh-CN.ipynb"))
SVG = "image/svg+xml"
# Run first in the kernel: the library's plots (the explorers' pictures, precision_recall_plot) show an SVG too.
SVG_TOO = f"""import sys
sys.path.insert(0, {str(Path(__file__).parent)!r})
from IPython.display import display
from zh_text import svg_too
svg_too(lambda svg: display({{{SVG!r}: svg}}, raw=True))"""


def shows_a_figure(output):
    """True for a figure (PNG) or an explorer's saved picture with plots in it (HTML with PNGs)."""
    data = output.get("data", {})
    html = data.get("text/html", "")
    return "image/png" in data or ("ndcg-x-static" in html and "data:image/png" in html)


def figure_cells(notebook):
    """Numbers of the cells whose stored outputs hold a figure or an explorer's picture."""
    return [number for number, cell in enumerate(notebook.cells) if any(map(shows_a_figure, cell.get("outputs", [])))]


def with_figures():
    return [path for path in CHINESE if figure_cells(nbformat.read(path, as_version=4))]


def drawn_again(path):
    """The lesson run in a fresh kernel up to its last figure, with figures drawn as SVG; and its figure cells."""
    notebook = nbformat.read(path, as_version=4)
    figures = figure_cells(notebook)
    notebook.cells = [nbformat.v4.new_code_cell(SVG_TOO), *notebook.cells[: figures[-1] + 1]]
    NotebookClient(notebook, timeout=600, extra_arguments=["--InlineBackend.figure_formats=svg"],
                   kernel_manager_class=AsyncUnixSocketKernelManager,
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    notebook.cells = notebook.cells[1:]
    return notebook, figures


def faults_of(svg):
    """What is wrong with one figure: no text at all, English in a label, a character drawn as a box."""
    labels = label_texts(svg)
    if not labels:
        return ["no <text>: was it drawn with svg.fonttype = 'none'?"]
    return [f"English: {word!r} in {label!r}" for label in labels for word in english_words(label)] + glyph_faults(svg)


@pytest.mark.parametrize("path", with_figures(), ids=lambda path: path.name[:2])
def test_the_chinese_lesson_draws_its_figures_in_chinese_with_every_glyph(path):
    notebook, figures = drawn_again(path)
    warned = [f"cell {number}: {line}" for number, cell in enumerate(notebook.cells) for output in cell.get("outputs", [])
              if output.get("name") == "stderr" for line in GLYPH_WARNINGS.findall(output.text)]
    faults, chinese = [], 0
    for number in figures:
        cell = notebook.cells[number]
        svgs = [output.data[SVG] for output in cell.outputs if SVG in output.get("data", {})]
        if not svgs:
            faults.append(f"cell {number}: drew no figure")
        faults += [f"cell {number}: {fault}" for svg in svgs for fault in faults_of(svg)]
        chinese += sum(bool(CJK.search(label)) for svg in svgs for label in label_texts(svg))
    assert warned == [] and faults == []
    assert chinese > 0, "no figure of the lesson has a Chinese label"


@pytest.fixture
def library_svgs():
    """Every figure the library's plots render during the test, also as SVG."""
    svgs = []
    restore = svg_too(svgs.append)
    yield svgs
    restore()


def test_the_library_plots_draw_in_chinese_with_every_glyph(library_svgs):
    grades = {"苹果": 3, "香蕉": 2, "樱桃": 3, "D": 0, "E": 1}
    with nt.language_set("zh-CN"), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        plots.DiscountPlot().draw(nt.explain_dcg(list(grades.values()), ranking=list(grades)), k=3)
        plots.CumulativePlot().draw([nt.explain_ndcg([3, 2, 3, 0, 1], k=3)])
        plots.precision_recall_plot(nt.precision_recall_curve([1, 0, 1, 0, 0, 1], n_relevant=4))
        plots.precision_recall_plot([nt.precision_recall_curve([1, 0, 1], n_relevant=2),
                                     nt.precision_recall_curve([0, 1, 1], n_relevant=2)])
        static_html(RankingExplorer(list(grades), grades, k=3))
        static_html(CompareExplorer(list(grades), list(grades)[::-1], grades, k=3))
    assert [str(warning.message) for warning in caught if GLYPH_WARNINGS.match(str(warning.message))] == []
    assert len(library_svgs) == 7  # 4 drawn above, 2 in the ranking explorer's picture, 1 in the compared one's
    faults = [f"figure {number}: {fault}" for number, svg in enumerate(library_svgs) for fault in faults_of(svg)]
    assert faults == []
    assert all(any(CJK.search(label) for label in label_texts(svg)) for svg in library_svgs)
