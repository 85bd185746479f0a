"""ndcg_teach.jupyter.server_extension: saved explorers keep their picture, come back live on a reload, and nothing else is touched.

Unit tests on contents models; a real kernel asked for its widget models while
it runs a cell; then a real Jupyter server with the extension enabled (as an
install enables it), driven through its contents API: every malformed
notebook still opens (200) and saves (201), and an opening that waits for a
slow kernel interpreter leaves the server answering. The browser tests
(tests/browser/test_lessons_survive_browser.py, test_lessons_open_clean.py)
show what a learner sees.
"""

import asyncio
import copy
import json
import os
import shutil
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

import nbformat
import pytest
from jupyter_client.kernelspec import NoSuchKernel

from ndcg_teach.jupyter import server_extension
from ndcg_teach.jupyter.server_extension import (
    STASH,
    WIDGET_STATE,
    WIDGET_VIEW,
    KernelPythons,
    restore_live_views,
    stash_explorer_views,
    with_kernel_python,
)

PICTURE = {"text/html": '<div class="ndcg-x-static"><p>picture</p></div>', "text/plain": "RankingExplorer(...)"}
SLIDER = {"text/plain": "IntSlider(value=3)"}


def view(model_id):
    return {"model_id": model_id, "version_major": 2, "version_minor": 1}


def widget_output(model_id, shown=PICTURE):
    return {"output_type": "display_data", "metadata": {}, "data": {WIDGET_VIEW: view(model_id), **shown}}


def notebook(outputs, saved=()):
    content = {"cells": [{"cell_type": "code", "source": "explorer", "metadata": {}, "outputs": outputs, "execution_count": 1}],
               "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
                            "language_info": {"name": "python", "version": "3.9.99", "mimetype": "text/x-python"}},
               "nbformat": 4, "nbformat_minor": 5}
    if saved:
        content["metadata"]["widgets"] = {WIDGET_STATE: {"state": {model_id: {} for model_id in saved}}}
    return {"type": "notebook", "content": content}


def outputs_of(model):
    return model["content"]["cells"][0]["outputs"]


def test_an_explorers_view_is_stashed_and_its_picture_kept():
    bare = {"output_type": "display_data", "data": {"text/plain": "7"}}  # no metadata: it gets none
    model = notebook([widget_output("a1"), {"output_type": "stream", "name": "stdout", "text": "7\n"}, copy.deepcopy(bare)])
    stash_explorer_views(model=model, path="lesson.ipynb", contents_manager=None)
    first, second, third = outputs_of(model)
    assert first["data"] == PICTURE
    assert first["metadata"] == {"ndcg_teach": {"widget_view": view("a1")}}
    assert second == {"output_type": "stream", "name": "stdout", "text": "7\n"} and third == bare


def test_a_learners_own_widget_is_saved_as_ipywidgets_saves_it():
    # An IntSlider's output (a widget view and text/plain) is not this package's: it keeps its view.
    slider = widget_output("s1", shown=SLIDER)
    model = notebook([copy.deepcopy(slider)])
    stash_explorer_views(model=model)
    assert outputs_of(model) == [slider]


def test_an_explorer_whose_state_is_saved_keeps_its_view():
    # Saved with ipywidgets' saveState: it reopens live, so nothing is moved.
    model = notebook([widget_output("a1"), widget_output("b2")], saved=["a1"])
    stash_explorer_views(model=model)
    kept, stashed = outputs_of(model)
    assert WIDGET_VIEW in kept["data"] and kept["metadata"] == {}
    assert stashed["data"] == PICTURE


def test_a_picture_built_elsewhere_with_the_same_class_further_in_is_not_ours():
    lookalike = widget_output("x1", shown={"text/html": '<p>see <div class="ndcg-x-static"></div></p>', "text/plain": "x"})
    model = notebook([copy.deepcopy(lookalike)])
    stash_explorer_views(model=model)
    assert outputs_of(model) == [lookalike]


def test_a_reload_puts_back_the_views_the_kernel_still_holds():
    model = notebook([widget_output("a1"), widget_output("b2"), widget_output("s1", shown=SLIDER)])
    stash_explorer_views(model=model)
    restore_live_views(model, {"a1", "s1"})
    live, picture, slider = outputs_of(model)
    assert live["data"][WIDGET_VIEW] == view("a1") and live["metadata"] == {}
    assert WIDGET_VIEW not in picture["data"] and picture["metadata"][STASH[0]][STASH[1]] == view("b2")
    assert slider["data"][WIDGET_VIEW] == view("s1")


@pytest.mark.parametrize("model", [
    {"type": "file", "format": "text", "content": "not a notebook"},
    {"type": "directory"},
    {"type": "notebook"},  # a model without content (a rename) passes through
    "not a model",
])
def test_other_models_pass_through_unchanged(model):
    before = copy.deepcopy(model)
    stash_explorer_views(model=model)
    restore_live_views(model, {"a1"})
    assert model == before
    assert with_kernel_python(model, KernelSpecs()) == before


def malformed(edit):
    """A notebook with an explorer output, ``edit`` applied to its JSON."""
    content = notebook([widget_output("a1")])["content"]
    edit(content)
    return content


MALFORMED = {
    "kernelspec null": lambda nb: nb["metadata"].update(kernelspec=None),
    "kernelspec a string": lambda nb: nb["metadata"].update(kernelspec="python3"),
    "kernelspec a list": lambda nb: nb["metadata"].update(kernelspec=["python3"]),
    "kernelspec name null": lambda nb: nb["metadata"]["kernelspec"].update(name=None),
    "kernelspec name a number": lambda nb: nb["metadata"]["kernelspec"].update(name=3),
    "language_info null": lambda nb: nb["metadata"].update(language_info=None),
    "language_info a string": lambda nb: nb["metadata"].update(language_info="python"),
    "widgets a string": lambda nb: nb["metadata"].update(widgets="saved"),
    "widget state a list": lambda nb: nb["metadata"].update(widgets={WIDGET_STATE: {"state": ["a1"]}}),
    "output metadata a list": lambda nb: nb["cells"][0]["outputs"][0].update(metadata=[]),
    "widget view a string": lambda nb: nb["cells"][0]["outputs"][0]["data"].update({WIDGET_VIEW: "a1"}),
    "model id a number": lambda nb: nb["cells"][0]["outputs"][0]["data"].update({WIDGET_VIEW: {"model_id": 7}}),
    "html a list with a number": lambda nb: nb["cells"][0]["outputs"][0]["data"].update({"text/html": ["<div>", 3]}),
    "stash a string": lambda nb: nb["cells"][0]["outputs"][0]["metadata"].update(ndcg_teach="view"),
    "outputs a dict": lambda nb: nb["cells"][0].update(outputs={}),
    "cells a dict": lambda nb: nb.update(cells={}),
}
"""Shapes Jupyter itself opens and saves: with the extension, each must open (200) and save (201) too."""
REFUSED_BY_JUPYTER = {
    "metadata a list": lambda nb: nb.update(metadata=[]),
    "metadata a string": lambda nb: nb.update(metadata="python"),
    "metadata null": lambda nb: nb.update(metadata=None),
    "output data a list": lambda nb: nb["cells"][0]["outputs"][0].update(data=[]),
    "an output a string": lambda nb: nb["cells"][0].update(outputs=["text"]),
    "a cell a string": lambda nb: nb.update(cells=["print(1)"]),
}
"""Shapes jupyter_server itself cannot save (500) or read (400), with or without the extension; the extension's own
code must still not raise on them (a contents manager of another kind might pass them on)."""


@pytest.mark.parametrize("edit", [*MALFORMED.values(), *REFUSED_BY_JUPYTER.values()],
                         ids=[*MALFORMED, *REFUSED_BY_JUPYTER])
def test_a_malformed_notebook_never_raises(edit):
    model = {"type": "notebook", "content": malformed(edit)}
    stash_explorer_views(model=model)
    restore_live_views(model, {"a1"})
    with_kernel_python(model, KernelSpecs(python3=Spec(["python"])))


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


def served_version(model, specs, pythons=None):
    return with_kernel_python(model, specs, pythons)["content"]["metadata"]["language_info"]["version"]


def test_a_python_notebook_is_served_with_the_kernels_version():
    specs = KernelSpecs(python3=Spec(["python", "-m", "ipykernel_launcher", "-f", "{connection_file}"]))
    model = notebook([])
    assert served_version(model, specs) == sys.version.split()[0]
    assert model["content"]["metadata"]["language_info"]["mimetype"] == "text/x-python", "only the version changes"


def other_python():
    found = shutil.which("python3", path="/usr/bin")
    if found is None:
        pytest.skip("no /usr/bin/python3 to stand for another interpreter")
    return found


def test_a_kernel_of_another_interpreter_is_asked_its_version_in_a_thread():
    other = other_python()
    expected = subprocess.run([other, "-c", "import sys; print(sys.version.split()[0])"], capture_output=True, text=True).stdout.strip()
    pythons = KernelPythons()
    assert asyncio.run(pythons.version(other, wait=60)) == expected
    assert served_version(notebook([]), KernelSpecs(python3=Spec([other, "-m", "ipykernel_launcher"])), pythons) == expected


def slow_interpreter(folder, seconds):
    """A kernel launcher that takes ``seconds`` before it runs Python (as a network home or a conda activation may)."""
    script = folder / "slow-python"
    script.write_text(f"#!/bin/sh\nsleep {seconds}\nexec {sys.executable} \"$@\"\n")
    script.chmod(0o755)
    return script


@pytest.mark.skipif(os.name == "nt", reason="the slow launcher is a shell script")
def test_an_opening_waits_a_bounded_time_for_a_slow_interpreter_and_finds_its_version_later(tmp_path):
    slow = str(slow_interpreter(tmp_path, 3))
    pythons = KernelPythons()
    start = time.monotonic()
    assert asyncio.run(pythons.version(slow, wait=0.2)) is None, "not known yet: served as stored"
    assert time.monotonic() - start < 2, "the opening gave up waiting long before the interpreter answered"
    pythons.ask(slow).result(timeout=60)
    assert pythons.known(slow) == sys.version.split()[0]


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
    pythons = KernelPythons()
    assert with_kernel_python(model, specs, pythons) == before
    for future in pythons._asked.values():
        future.result(timeout=60)  # the interpreter that does not run is asked and answers nothing
    assert with_kernel_python(model, specs, pythons) == before


def test_the_contents_managers_get_is_wrapped_sync_or_async():
    class App:
        kernel_spec_manager = KernelSpecs(python3=Spec(["python"]))
        log = None

    opening = server_extension.Opening(App())

    def get(path, content=True):
        return notebook([])

    async def async_get(path, content=True):
        return notebook([])

    version = sys.version.split()[0]
    assert server_extension.wrapped_get(get, opening)("x.ipynb")["content"]["metadata"]["language_info"]["version"] == version
    served = asyncio.run(server_extension.wrapped_get(async_get, opening)("x.ipynb", content=True))
    assert served["content"]["metadata"]["language_info"]["version"] == version


def test_a_running_kernel_lists_its_widget_models_even_while_a_cell_runs():
    from kernels import AsyncUnixSocketKernelManager

    async def scenario():
        kernel = AsyncUnixSocketKernelManager(kernel_name="python3")
        await kernel.start_kernel()
        client = kernel.client()
        client.start_channels()
        try:
            await client.wait_for_ready(timeout=60)
            reply = await client.execute("import ipywidgets; slider = ipywidgets.IntSlider(3); print(slider.model_id)",
                                         reply=True, timeout=60)
            assert reply["content"]["status"] == "ok"
            model_id = None
            while model_id is None:
                message = await client.get_iopub_msg(timeout=30)
                if message["msg_type"] == "stream":
                    model_id = message["content"]["text"].strip()
            client.execute("import time; time.sleep(20)")  # busy: the shell channel would not answer now
            await asyncio.sleep(0.5)
            start = time.monotonic()
            listed = await server_extension.widget_models(kernel, timeout=10)
            return model_id, listed, time.monotonic() - start
        finally:
            client.stop_channels()
            await kernel.shutdown_kernel(now=True)

    model_id, listed, seconds = asyncio.run(scenario())
    assert model_id in listed
    assert seconds < 10, "the control channel answered while the cell ran"


def request(server, method, path, body=None):
    """(status, JSON) of a contents API call."""
    data = None if body is None else json.dumps(body).encode()
    call = urllib.request.Request(f"{server.base_url}/api/contents/{urllib.parse.quote(path)}", data=data, method=method,
                                  headers={"Authorization": f"token {server.token}", "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(call, timeout=60) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode(errors="replace")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    from jupyter_harness import JupyterServer

    launcher = slow_interpreter(tmp_path_factory.mktemp("slow"), 10)
    with JupyterServer("lab") as server:  # the extension enabled, as an install enables it
        spec = server._dirs["data"] / "kernels" / "slow" / "kernel.json"
        spec.parent.mkdir(parents=True)
        spec.write_text(json.dumps({"argv": [str(launcher), "-m", "ipykernel_launcher", "-f", "{connection_file}"],
                                    "display_name": "Python (slow to start)", "language": "python"}))
        yield server


def test_a_saved_explorer_keeps_its_picture_and_its_stashed_view(server):
    status, _ = request(server, "PUT", "lesson.ipynb", notebook([widget_output("a1"), widget_output("s1", shown=SLIDER)]))
    assert status == 201
    on_disk = nbformat.read(server.root / "lesson.ipynb", as_version=4)
    explorer, slider = on_disk.cells[0].outputs
    assert explorer.data == PICTURE and explorer.metadata == {"ndcg_teach": {"widget_view": view("a1")}}
    assert slider.data == {WIDGET_VIEW: view("s1"), **SLIDER}
    assert on_disk.metadata.language_info.version == "3.9.99"
    status, served = request(server, "GET", "lesson.ipynb")
    explorer, slider = served["content"]["cells"][0]["outputs"]
    assert status == 200 and WIDGET_VIEW not in explorer["data"], "no kernel runs: the picture shows"
    assert served["content"]["metadata"]["language_info"]["version"] == sys.version.split()[0]
    assert "ndcg_teach.jupyter.server_extension | extension was successfully loaded" in server.log_text()


@pytest.mark.parametrize("shape", MALFORMED)
def test_a_malformed_notebook_opens_and_saves(server, shape):
    name = f"malformed {shape}.ipynb"
    (server.root / name).write_text(json.dumps(malformed(MALFORMED[shape])), encoding="utf-8")
    status, served = request(server, "GET", name)
    assert status == 200, served
    status, saved = request(server, "PUT", f"saved {name}", {"type": "notebook", "content": served["content"]})
    assert status == 201, saved  # created
    assert request(server, "GET", f"saved {name}")[0] == 200
    assert request(server, "PUT", name, {"type": "notebook", "content": served["content"]})[0] == 200  # overwritten


def status_seconds(server):
    start = time.monotonic()
    with urllib.request.urlopen(f"{server.base_url}/api/status?token={server.token}", timeout=30) as response:
        assert response.status == 200
    return time.monotonic() - start


@pytest.mark.skipif(os.name == "nt", reason="the slow launcher is a shell script")
def test_opening_a_notebook_of_a_slow_kernel_leaves_the_server_answering(server):
    # Before: the opening ran the kernel's interpreter on the event loop, and /api/status waited 19 s for a 20 s one.
    content = notebook([])["content"]
    content["metadata"]["kernelspec"] = {"name": "slow", "display_name": "Python (slow to start)", "language": "python"}
    (server.root / "slow.ipynb").write_text(json.dumps(content), encoding="utf-8")
    opened = {}

    def open_it():
        start = time.monotonic()
        opened["status"], opened["model"] = request(server, "GET", "slow.ipynb")
        opened["seconds"] = time.monotonic() - start

    opening = threading.Thread(target=open_it)
    opening.start()
    time.sleep(0.3)
    answers = []
    while opening.is_alive() and len(answers) < 10:
        answers.append(status_seconds(server))
    opening.join(timeout=60)
    # A behaviour bound, not a benchmark: a blocked loop answers after seconds; a free one within a few ms.
    assert answers and min(answers) < 0.1, answers
    assert opened["status"] == 200
    assert opened["seconds"] < server_extension.VERSION_WAIT + 5
    assert opened["model"]["content"]["metadata"]["language_info"]["version"] == "3.9.99", "not known yet: as stored"
