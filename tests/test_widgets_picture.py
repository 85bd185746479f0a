"""The explorers' static picture: the text/html view next to the live widget, and what nbconvert makes of a lesson."""

import base64
import re
from pathlib import Path

import nbformat
import pytest
from nbconvert import HTMLExporter

from ndcg_teach.plots import PNG_SIGNATURE
from ndcg_teach.widgets import CompareExplorer, RankingExplorer
from ndcg_teach.widgets.picture import RUN, static_html

LESSONS = Path(__file__).resolve().parents[1] / "notebooks"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
GRADES = {"A": 5, "B": 4, "C": 3, "D": 2, "E": 1}
IMAGE = re.compile(r"src=\"data:image/png;base64,([^\"]+)\"")


def pictures(html):
    return [base64.b64decode(data) for data in IMAGE.findall(html)]


def test_the_bundle_holds_the_live_widget_and_a_picture_of_its_state():
    explorer = RankingExplorer(["B", "A", "D", "C", "E"], GRADES, k=3, labels={"A": "Apple pie"})
    explorer.move("E", 1)
    data, _ = explorer._repr_mimebundle_()
    assert WIDGET_VIEW in data and data["text/plain"] == repr(explorer)
    html = data["text/html"]
    assert RUN in html
    assert [png[:8] for png in pictures(html)] == [PNG_SIGNATURE, PNG_SIGNATURE]  # both plots
    for metric in explorer.panels[0]["metrics"]:
        assert f"{metric['label']} = <b>{metric['text']}</b>" in html
    positions = re.findall(r"<tr><td>(\d+)</td><td><b>(\w+)</b>", html)
    assert positions == [(str(i), item) for i, item in enumerate(explorer.order, start=1)]
    assert "Apple pie" in html


def test_the_compare_picture_shows_both_rankings_and_one_plot():
    duel = CompareExplorer(["B", "A", "D", "C", "E"], ["E", "A", "B", "C", "D"], GRADES, k=3)
    html = duel._repr_mimebundle_()[0]["text/html"]
    assert len(pictures(html)) == 1
    assert all(name in html for name in duel.names)


@pytest.mark.parametrize("path", [LESSONS / "03-ideal-ranking-ndcg.ipynb"], ids=["03-ideal-ranking-ndcg"])
def test_nbconvert_html_of_a_lesson_shows_the_picture_of_each_widget(path, lesson_run):
    # The lesson as a kernel ran it (nbval's run, tests/lesson_runs.py), with no widget state, as the lessons are saved.
    notebook = nbformat.read(path, as_version=4)
    for cell, outputs in zip(notebook.cells, lesson_run(path).outputs):
        if cell.cell_type == "code":
            cell.outputs = [nbformat.from_dict(output) for output in outputs]
    notebook.metadata.pop("widgets", None)
    widgets = [output for cell in notebook.cells if cell.cell_type == "code" for output in cell.outputs
               if WIDGET_VIEW in output.get("data", {})]
    assert widgets, f"{path.name} shows no widget"
    html, _ = HTMLExporter().from_notebook_node(notebook)
    assert html.count(RUN) == len(widgets)
    assert "Error displaying widget" not in html
    assert len(pictures(html)) >= len(widgets)


def test_the_picture_is_the_explorer_as_displayed_and_its_caption_says_so():
    # Displayed at DCG@3 = 2.7619, then dragged to 3.5000: the first output's picture keeps what it showed, and says it
    # shows the explorer as the cell displayed it (not "as it was saved", which it was not); a display after the drag
    # shows the new numbers. Running the cell again gives the first state again, as its picture does.
    explorer = RankingExplorer(["A", "B", "C"], {"A": 0, "B": 2, "C": 3}, k=3)
    first = explorer._repr_mimebundle_()[0]["text/html"]
    explorer.move("B", 1)
    after = explorer._repr_mimebundle_()[0]["text/html"]
    assert "DCG@3 = <b>2.7619</b>" in first and "3.5000" not in first
    assert "DCG@3 = <b>3.5000</b>" in after and "2.7619" not in after
    for html in (first, after):
        assert "as the cell displayed it; changes made after that, in the live widget or by code, are not in it." in html
        assert "as it was saved" not in html


def test_the_chinese_caption_says_the_same():
    html = RankingExplorer(["A", "B"], {"A": 1, "B": 0}, language="zh-CN")._repr_mimebundle_()[0]["text/html"]
    assert "这张图片是该单元格显示探索器时的样子" in html


def test_a_2000_item_picture_shows_the_first_and_last_rows_and_stays_small():
    from ndcg_teach.core.table import HEAD_ROWS, TAIL_ROWS

    items = [f"doc{i}" for i in range(2000)]
    explorer = RankingExplorer(items, {item: i % 4 for i, item in enumerate(items)}, k=10)
    html = static_html(explorer)
    positions = [int(position) for position, _ in re.findall(r"<tr><td>(\d+)</td><td><b>(\w+)</b>", html)]
    assert positions == [*range(1, HEAD_ROWS + 1), *range(2000 - TAIL_ROWS + 1, 2001)]
    assert "… 1,940 rows hidden …" in html
    assert len(pictures(html)) == 2
    assert len(html.encode()) <= 200_000, len(html.encode())


@pytest.mark.parametrize("k", [None, 150])
def test_a_long_list_without_a_cut_off_inside_it_displays(k):
    # The grouped discount plot failed when k cut no group (k None or the whole list): the cell showed a traceback and
    # no explorer.
    items = [f"doc{i:03d}" for i in range(150)]
    explorer = RankingExplorer(items, {item: (7 * i) % 5 for i, item in enumerate(items)}, k=k)
    data, _ = explorer._repr_mimebundle_()
    assert WIDGET_VIEW in data
    assert [png[:8] for png in pictures(data["text/html"])] == [PNG_SIGNATURE, PNG_SIGNATURE]
