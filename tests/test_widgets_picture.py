"""The explorers' static picture: the text/html view next to the live widget, and what nbconvert makes of a lesson."""

import base64
import re
from pathlib import Path

import nbformat
import pytest
from nbconvert import HTMLExporter
from nbconvert.preprocessors import ExecutePreprocessor

from ndcg_teach.plots import PNG_SIGNATURE
from ndcg_teach.widgets import CompareExplorer, RankingExplorer
from ndcg_teach.widgets.picture import RUN

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


@pytest.mark.parametrize("lesson", ["03-ideal-ranking-ndcg.ipynb"])
def test_nbconvert_html_of_a_lesson_shows_the_picture_of_each_widget(lesson, tmp_path):
    notebook = nbformat.read(LESSONS / lesson, as_version=4)
    ExecutePreprocessor(timeout=300, kernel_name="python3").preprocess(notebook, {"metadata": {"path": str(LESSONS)}})
    notebook.metadata.pop("widgets", None)  # as the lessons are saved
    widgets = [output for cell in notebook.cells if cell.cell_type == "code" for output in cell.outputs
               if WIDGET_VIEW in output.get("data", {})]
    assert widgets, f"{lesson} shows no widget"
    html, _ = HTMLExporter().from_notebook_node(notebook)
    assert html.count(RUN) == len(widgets)
    assert "Error displaying widget" not in html
    assert len(pictures(html)) >= len(widgets)
