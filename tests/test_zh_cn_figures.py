"""The figures a Chinese learner sees: their text, as drawn, is Chinese, and every character of it has a glyph.

The lessons store figures as PNG (drawn with the course's font, so they look
the same in every browser), and so do the explorers' saved pictures; a test
cannot read either. So the run of each zh-CN lesson with a figure or a picture
(nbval's, tests/lesson_runs.py) has the inline backend draw SVG beside PNG and
the library's plots hand over an SVG of each PNG they render
(``svg.fonttype = "none"`` keeps text as ``<text>``; ndcg_teach.plots.fonts sets
it). Every figure's labels are then checked
like the printed outputs (tests/zh_text.py's english_words: one English word is
already too many in a label; names allowed by name and the values a learner
types, such as score_type='raw', are not words), and every character against the fonts matplotlib drew
it with: Chinese in the course's Noto Sans SC, no "Glyph missing" warning, no
stand-in. The library's own plots are drawn as SVG the same way in zh-CN."""

import warnings
from pathlib import Path

import nbformat
import pytest
from lesson_runs import SVG, figure_cells
from zh_text import CJK, GLYPH_WARNINGS, english_words, glyph_faults, label_texts, svg_too

import ndcg_teach as nt
from ndcg_teach import plots
from ndcg_teach.widgets import CompareExplorer, RankingExplorer
from ndcg_teach.widgets.picture import static_html

ROOT = Path(__file__).resolve().parent.parent
CHINESE = sorted((ROOT / "notebooks" / "zh-CN").glob("*.zh-CN.ipynb"))


def with_figures():
    return [path for path in CHINESE if figure_cells(nbformat.read(path, as_version=4))]


def faults_of(svg):
    """What is wrong with one figure: no text at all, English in a label, a character drawn as a box."""
    labels = label_texts(svg)
    if not labels:
        return ["no <text>: was it drawn with svg.fonttype = 'none'?"]
    return [f"English: {word!r} in {label!r}" for label in labels for word in english_words(label)] + glyph_faults(svg)


@pytest.mark.parametrize("path", with_figures(), ids=lambda path: path.name[:2])
def test_the_chinese_lesson_draws_its_figures_in_chinese_with_every_glyph(path, lesson_run):
    # The lesson's run (tests/lesson_runs.py) drew its figures as SVG too, and the library's plots handed theirs over.
    outputs = lesson_run(path).outputs
    warned = [f"cell {number}: {line}" for number, shown in enumerate(outputs) for output in shown
              if output.get("name") == "stderr" for line in GLYPH_WARNINGS.findall(output.text)]
    faults, chinese = [], 0
    for number in figure_cells(nbformat.read(path, as_version=4)):
        svgs = [output["data"][SVG] for output in outputs[number] if SVG in output.get("data", {})]
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
