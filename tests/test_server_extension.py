"""ndcg_teach.server_extension: saved widget outputs keep their picture, and notebooks open with the kernel's Python.

Unit tests on contents models, then a real Jupyter server configured by
``tools/lab_setup.py`` (as ``make lab`` configures one), driven through its
contents API. The browser tests (tests/browser/test_lessons_survive_browser.py,
test_lessons_open_clean.py) show what a learner sees.
"""

import asyncio
import copy
import json
import shutil
import subprocess
import sys
import urllib.request

import nbformat
import pytest
from jupyter_client.kernelspec import NoSuchKernel

from ndcg_teach import server_extension
from ndcg_teach.server_extension import WIDGET_STATE, WIDGET_VIEW, strip_unsaved_widget_views, with_kernel_python

PICTURE = {"text/html": "<div class='ndcg-x-static'>picture</div>", "text/plain": "RankingExplorer(...)"}


def widget_output(model_id, **more):
    return {"output_type": "display_data", "metadata": {},
            "data": {WIDGET_VIEW: {"model_id": model_id, "version_major": 2, "version_minor": 1}, **PICTURE, **more}}


def notebook(outputs, saved=()):
    content = {"cells": [{"cell_type": "code", "source": "explorer", "metadata": {}, "outputs": outputs, "execution_count": 1}],
               "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
                            "language_info": {"name": "python", "version": "3.9.99", "mimetype": "text/x-python"}},
               "nbformat": 4, "nbformat_minor": 5}
    if saved:
        content["metadata"]["widgets"] = {WIDGET_STATE: {"state": {model_id: {} for model_id in saved}}}
    return {"type": "notebook", "content": content}


def test_an_unsaved_widgets_view_is_dropped_and_its_picture_kept():
    model = notebook([widget_output("a1"), {"output_type": "stream", "name": "stdout", "text": "7\n"}])
    strip_unsaved_widget_views(model=model, path="lesson.ipynb", contents_manager=None)
    first, second = model["content"]["cells"][0]["outputs"]
    assert first["data"] == PICTURE
    assert second == {"output_type": "stream", "name": "stdout", "text": "7\n"}


def test_a_widget_whose_state_is_saved_keeps_its_view():
    # Saved with ipywidgets' saveState: it reopens live, so nothing is dropped.
    model = notebook([widget_output("a1"), widget_output("b2")], saved=["a1"])
    strip_unsaved_widget_views(model=model)
    kept, dropped = model["content"]["cells"][0]["outputs"]
    assert WIDGET_VIEW in kept["data"] and dropped["data"] == PICTURE


def test_a_view_with_nothing_else_to_show_is_kept():
    only = {"output_type": "display_data", "metadata": {}, "data": {WIDGET_VIEW: {"model_id": "a1"}}}
    model = notebook([copy.deepcopy(only)])
    strip_unsaved_widget_views(model=model)
    assert model["content"]["cells"][0]["outputs"] == [only]


@pytest.mark.parametrize("model", [
    {"type": "file", "format": "text", "content": "not a notebook"},
    {"type": "directory"},
    {"type": "notebook"},  # a model without content (a rename) passes through
])
def test_other_models_pass_through_unchanged(model):
    before = copy.deepcopy(model)
    strip_unsaved_widget_views(model=model)
    assert model == before
    assert with_kernel_python(model, KernelSpecs()) == before


class Spec:
    def __init__(self, argv, language="python"):
        self.argv, self.language = argv, language


class KernelSpecs:
    """A stand-in for jupyter_client's KernelSpecManager."""

    def __init__(self, **specs):
        self.specs = specs

    def get_kernel_spec(self, name):
        if name not in self.specs:
            raise NoSuchKernel(name)
        return self.specs[name]


def served_version(model, specs):
    return with_kernel_python(model, specs)["content"]["metadata"]["language_info"]["version"]


def test_a_python_notebook_is_served_with_the_kernels_version():
    specs = KernelSpecs(python3=Spec(["python", "-m", "ipykernel_launcher", "-f", "{connection_file}"]))
    model = notebook([])
    assert served_version(model, specs) == sys.version.split()[0]
    assert model["content"]["metadata"]["language_info"]["mimetype"] == "text/x-python", "only the version changes"


def test_a_kernel_of_another_interpreter_is_asked_its_version():
    other = shutil.which("python3", path="/usr/bin")
    if other is None:
        pytest.skip("no /usr/bin/python3 to stand for another interpreter")
    expected = subprocess.run([other, "-c", "import sys; print(sys.version.split()[0])"], capture_output=True, text=True).stdout.strip()
    assert served_version(notebook([]), KernelSpecs(python3=Spec([other, "-m", "ipykernel_launcher"]))) == expected


@pytest.mark.parametrize("specs, edit", [
    (KernelSpecs(), None),  # the kernelspec it names is not installed
    (KernelSpecs(python3=Spec(["R"], language="R")), None),  # a kernel of another language under that name
    (KernelSpecs(python3=Spec(["/nonexistent/python"])), None),  # an interpreter that does not run
    (KernelSpecs(python3=Spec(["python"])), lambda metadata: metadata["language_info"].update(name="R")),
    (KernelSpecs(python3=Spec(["python"])), lambda metadata: metadata.pop("kernelspec")),
])
def test_a_notebook_the_python_kernel_will_not_run_is_served_as_stored(specs, edit):
    model = notebook([])
    if edit:
        edit(model["content"]["metadata"])
    before = copy.deepcopy(model)
    assert with_kernel_python(model, specs) == before


def test_the_contents_managers_get_is_wrapped_sync_or_async():
    specs = KernelSpecs(python3=Spec(["python"]))

    def get(path, content=True):
        return notebook([])

    async def async_get(path, content=True):
        return notebook([])

    version = sys.version.split()[0]
    assert server_extension._serving_kernel_python(get, specs)("x.ipynb")["content"]["metadata"]["language_info"]["version"] == version
    served = asyncio.run(server_extension._serving_kernel_python(async_get, specs)("x.ipynb", content=True))
    assert served["content"]["metadata"]["language_info"]["version"] == version


def request(server, method, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    call = urllib.request.Request(f"{server.base_url}/api/contents/{path}", data=data, method=method,
                                  headers={"Authorization": f"token {server.token}", "Content-Type": "application/json"})
    with urllib.request.urlopen(call, timeout=60) as response:
        return json.loads(response.read())


def test_a_server_set_up_by_lab_setup_saves_pictures_and_serves_the_kernels_version():
    from jupyter_harness import JupyterServer

    with JupyterServer("lab") as server:  # configured by lab_setup.write_server_config, as make lab's environment
        model = notebook([widget_output("a1")])
        request(server, "PUT", "lesson.ipynb", model)
        on_disk = nbformat.read(server.root / "lesson.ipynb", as_version=4)
        assert on_disk.cells[0].outputs[0].data == PICTURE
        assert on_disk.metadata.language_info.version == "3.9.99"
        served = request(server, "GET", "lesson.ipynb")
        assert served["content"]["metadata"]["language_info"]["version"] == sys.version.split()[0]
        assert "ndcg_teach.server_extension | extension was successfully loaded" in server.log_text()
