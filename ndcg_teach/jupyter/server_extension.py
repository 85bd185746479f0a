"""A Jupyter server extension that keeps a saved lesson reopening cleanly, and never gets in the way.

Installing ndcg_teach enables it in the environment (its wheel carries
``etc/jupyter/jupyter_server_config.d/ndcg_teach.json``; after an editable
install, ``python -m ndcg_teach.jupyter.setup`` writes that file). It does three things:

- **Saving** (a pre-save hook): ipywidgets saves no widget state by default,
  so a saved widget view points at a model that is gone once the kernel is,
  and a reopened notebook shows "Error displaying widget: model not found".
  For every output of this package's explorers (its ``text/html`` is an
  explorer's static picture, :data:`PICTURE`) whose model is not saved with the
  notebook, the hook moves the widget view into the output's metadata
  (:data:`STASH`). The file then shows the picture in every front end
  (JupyterLab and Notebook 7 without this extension, nbconvert, GitHub).
  Other outputs are left as they are: a learner's own ``IntSlider`` keeps its
  widget view, as ipywidgets saves it.
- **Opening** a notebook whose kernel still runs (a page reload, a second
  tab): each stashed view whose model the kernel still holds is put back, so
  ipywidgets restores the live explorer from the kernel. The kernel is asked
  on its control channel, which answers while a cell runs; without an answer
  within :data:`KERNEL_WAIT` seconds, or with no kernel, the picture shows.
- **Opening**, too: JupyterLab and Notebook 7 replace a notebook's
  ``language_info`` with the kernel's when the kernel starts, and any
  difference (the lessons are executed on the author's Python) marks the
  notebook as changed before anything has run. A Python notebook is served
  with the Python version of the kernel it names, so it opens unchanged; the
  file on disk is not touched. A kernel's interpreter is asked its version
  once, in a thread, never on the server's event loop; a request waits for
  the answer at most :data:`VERSION_WAIT` seconds.

Whatever a notebook holds (metadata that is not a dict, a ``kernelspec`` of
``null``, outputs of any shape), the extension passes it through unchanged
rather than fail a request; an error of its own is logged and the notebook
served or saved as Jupyter alone would.

>>> picture = '<div class="ndcg-x-static">picture</div>'
>>> output = {"output_type": "display_data", "metadata": {},
...           "data": {WIDGET_VIEW: {"model_id": "a1"}, "text/html": picture, "text/plain": "explorer"}}
>>> stash_explorer_views({"type": "notebook", "content": {"metadata": {}, "cells": [{"outputs": [output]}]}})
>>> sorted(output["data"]), output["metadata"]
(['text/html', 'text/plain'], {'ndcg_teach': {'widget_view': {'model_id': 'a1'}}})
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import os
import subprocess
import sys
import threading
from concurrent.futures import Future

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
PICTURE = '<div class="ndcg-x-static"'
"""How an explorer's static picture (:mod:`ndcg_teach.widgets.picture`) begins: the outputs this extension acts on."""
STASH = ("ndcg_teach", "widget_view")
"""Where in an output's metadata a saved explorer keeps its widget view: ``metadata["ndcg_teach"]["widget_view"]``."""
KERNEL_WAIT = 2.0
"""Seconds an opening waits for the running kernel to list its widget models."""
VERSION_WAIT = 2.0
"""Seconds an opening waits for a kernel's Python version (the question itself may take up to :data:`VERSION_TIMEOUT`)."""
VERSION_TIMEOUT = 30.0
"""Seconds a kernel's interpreter is given to print its version."""


def _dict(value) -> dict:
    return value if isinstance(value, dict) else {}


def _list(value) -> list:
    return value if isinstance(value, list) else []


def _outputs(notebook: dict):
    """Every output of ``notebook`` that is a dict with a dict of data, however malformed the rest is."""
    for cell in _list(notebook.get("cells")):
        for output in _list(_dict(cell).get("outputs")):
            if isinstance(output, dict) and isinstance(output.get("data"), dict):
                yield output


def _is_explorer(output: dict) -> bool:
    """Whether ``output`` is one of this package's explorers: its HTML is an explorer's picture."""
    html = output["data"].get("text/html")
    if isinstance(html, list):
        html = "".join(part for part in html if isinstance(part, str))
    return isinstance(html, str) and html.lstrip().startswith(PICTURE)


def _saved_models(notebook: dict) -> set:
    """The ids of the widget models whose state is saved in ``notebook`` (ipywidgets' "save widget state")."""
    state = _dict(_dict(_dict(_dict(notebook.get("metadata")).get("widgets")).get(WIDGET_STATE)).get("state"))
    return set(state)


def _notebook(model) -> dict | None:
    """The notebook of a contents model, or None for anything else (a file, a folder, a model without content)."""
    if isinstance(model, dict) and model.get("type") == "notebook" and isinstance(model.get("content"), dict):
        return model["content"]
    return None


def stash_explorer_views(model: dict, **kwargs) -> None:
    """Pre-save hook: move the widget view of every explorer whose state is not saved into the output's metadata."""
    notebook = _notebook(model)
    if notebook is None:
        return
    saved = _saved_models(notebook)
    section, key = STASH
    for output in _outputs(notebook):
        view = output["data"].get(WIDGET_VIEW)
        if (isinstance(view, dict) and view.get("model_id") not in saved and _is_explorer(output)
                and isinstance(output.get("metadata", {}), dict)):
            metadata = output.setdefault("metadata", {})
            metadata[section] = {**_dict(metadata.get(section)), key: output["data"].pop(WIDGET_VIEW)}


def _stashed(notebook: dict) -> list:
    """(output, view) of every explorer output whose widget view :func:`stash_explorer_views` moved aside."""
    section, key = STASH
    found = []
    for output in _outputs(notebook):
        view = _dict(_dict(output.get("metadata")).get(section)).get(key)
        if isinstance(view, dict) and isinstance(view.get("model_id"), str):
            found.append((output, view))
    return found


def restore_live_views(model: dict, live_models) -> None:
    """Put back the widget view of every stashed explorer whose model id is in ``live_models`` (the kernel's)."""
    notebook = _notebook(model)
    if notebook is None:
        return
    section, key = STASH
    for output, view in _stashed(notebook):
        if view["model_id"] in live_models:
            output["data"][WIDGET_VIEW] = view
            stash = output["metadata"][section]
            del stash[key]
            if not stash:
                del output["metadata"][section]


async def widget_models(kernel, timeout: float = KERNEL_WAIT) -> set:
    """The ids of the widget models ``kernel`` (a jupyter_client kernel manager) holds; empty when it does not answer.

    Asked on the control channel (``comm_info_request``), which ipykernel
    answers from its own thread while a cell runs.
    """
    client = kernel.client()
    client.start_channels(shell=False, iopub=False, stdin=False, hb=False, control=True)
    try:
        request = client.session.msg("comm_info_request", {"target_name": "jupyter.widget"})
        client.control_channel.send(request)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while (left := deadline - loop.time()) > 0:
            try:
                reply = await client.control_channel.get_msg(timeout=left)
            except Exception:  # noqa: BLE001 - queue.Empty on timeout, or a closed channel
                return set()
            if _dict(reply.get("parent_header")).get("msg_id") == request["header"]["msg_id"]:
                return set(_dict(_dict(reply.get("content")).get("comms")))
        return set()
    finally:
        client.stop_channels()


def _asks_version(executable: str) -> str | None:
    """The version an interpreter reports (ipykernel's ``sys.version.split()[0]``); None if it does not run."""
    try:
        result = subprocess.run([executable, "-c", "import sys; print(sys.version.split()[0])"],
                                capture_output=True, text=True, timeout=VERSION_TIMEOUT, check=True)
    except (OSError, subprocess.SubprocessError):
        return None
    return result.stdout.strip() or None


class KernelPythons:
    """The Python version of each kernel interpreter, each asked once, in a thread of its own.

    ``python``, ``python3``, ``python3.X`` and this server's own interpreter
    are known at once (jupyter_client starts these names as the server's
    interpreter); any other is asked in a thread, so the server's event loop
    never waits for a slow interpreter.
    """

    def __init__(self):
        self._asked: dict[str, Future] = {}

    def known(self, executable: str) -> str | None:
        """The version, if it is known without waiting."""
        major, minor = sys.version_info[:2]
        if (executable in {"python", f"python{major}", f"python{major}.{minor}"}
                or os.path.realpath(executable) == os.path.realpath(sys.executable)):
            return sys.version.split()[0]
        asked = self.ask(executable)
        return asked.result() if asked.done() else None

    def ask(self, executable: str) -> Future:
        """A future of the interpreter's version; the question starts on the first call."""
        if executable not in self._asked:
            future = Future()
            future.set_running_or_notify_cancel()  # so that no waiter can cancel it
            self._asked[executable] = future
            threading.Thread(target=lambda: future.set_result(_asks_version(executable)),
                             name=f"ndcg_teach: {executable} --version", daemon=True).start()
        return self._asked[executable]

    async def version(self, executable: str, wait: float = VERSION_WAIT) -> str | None:
        """The version, waiting for it at most ``wait`` seconds (None after that; a later opening finds it)."""
        known = self.known(executable)
        if known is not None or self.ask(executable).done():
            return known
        try:
            return await asyncio.wait_for(asyncio.shield(asyncio.wrap_future(self.ask(executable))), wait)
        except asyncio.TimeoutError:
            return None


def _python_kernel(model, kernel_specs):
    """(language_info, the interpreter) of a Python notebook whose kernelspec names a Python kernel; None otherwise."""
    notebook = _notebook(model)
    if notebook is None:
        return None
    metadata = _dict(notebook.get("metadata"))
    info, name = metadata.get("language_info"), _dict(metadata.get("kernelspec")).get("name")
    if not isinstance(info, dict) or info.get("name") != "python" or not isinstance(name, str) or not name:
        return None
    try:
        spec = kernel_specs.get_kernel_spec(name)
        language, argv = str(spec.language).lower(), list(spec.argv)
    except Exception:  # noqa: BLE001 - an unknown or broken kernelspec: leave the notebook as it is
        return None
    if language != "python" or not argv or not isinstance(argv[0], str):
        return None
    return info, argv[0]


def with_version(model: dict, info: dict, version: str | None) -> dict:
    """``model`` with its notebook's ``language_info.version`` set to ``version`` (unchanged for None)."""
    if version is not None:
        model["content"]["metadata"]["language_info"] = {**info, "version": version}
    return model


def with_kernel_python(model: dict, kernel_specs, pythons: KernelPythons | None = None) -> dict:
    """``model`` with its notebook's ``language_info.version`` set to what the kernel it names reports, if known now.

    Only a Python notebook whose kernelspec names a Python kernel known to
    ``kernel_specs`` (a jupyter_client KernelSpecManager) is changed.
    """
    found = _python_kernel(model, kernel_specs)
    if found is None:
        return model
    info, executable = found
    return with_version(model, info, (pythons or KernelPythons()).known(executable))


class Opening:
    """What the contents manager's ``get`` does on top of reading a notebook (see the module's docstring)."""

    def __init__(self, serverapp, pythons: KernelPythons | None = None):
        self.serverapp, self.pythons = serverapp, pythons or KernelPythons()

    async def _live_models(self, path: str) -> set:
        sessions = self.serverapp.session_manager
        wanted = str(path).strip("/")
        for session in await sessions.list_sessions():
            if str(session.get("path", "")).strip("/") == wanted and session.get("kernel"):
                kernel = self.serverapp.kernel_manager.get_kernel(session["kernel"]["id"])
                return await widget_models(kernel)
        return set()

    async def served(self, model, path: str):
        """``model`` as served: live explorers put back, the kernel's Python version; never an error."""
        try:
            notebook = _notebook(model)
            if notebook is not None and _stashed(notebook):
                restore_live_views(model, await self._live_models(path))
            found = _python_kernel(model, self.serverapp.kernel_spec_manager)
            if found is not None:
                with_version(model, found[0], await self.pythons.version(found[1]))
        except Exception:  # noqa: BLE001 - never fail an opening: serve what Jupyter alone would
            self.serverapp.log.warning("ndcg_teach: could not prepare %s; serving it as stored", path, exc_info=True)
        return model

    def served_now(self, model, path: str):
        """For a synchronous contents manager: the kernel's Python version if already known; nothing is waited for."""
        try:
            with_kernel_python(model, self.serverapp.kernel_spec_manager, self.pythons)
        except Exception:  # noqa: BLE001 - as in served
            self.serverapp.log.warning("ndcg_teach: could not prepare %s; serving it as stored", path, exc_info=True)
        return model


def _path_of(args, kwargs) -> str:
    return kwargs.get("path", args[0] if args else "")


def wrapped_get(get, opening: Opening):
    """``get`` (a contents manager's, sync or async) returning notebooks through ``opening``."""
    if inspect.iscoroutinefunction(get):

        @functools.wraps(get)
        async def async_get(*args, **kwargs):
            return await opening.served(await get(*args, **kwargs), _path_of(args, kwargs))

        return async_get

    @functools.wraps(get)
    def sync_get(*args, **kwargs):
        return opening.served_now(get(*args, **kwargs), _path_of(args, kwargs))

    return sync_get


def _jupyter_server_extension_points():
    return [{"module": __name__}]


def _load_jupyter_server_extension(serverapp):
    contents = serverapp.contents_manager
    opening = Opening(serverapp)
    contents.register_pre_save_hook(stash_explorer_views)
    contents.get = wrapped_get(contents.get, opening)
    # Ask every Python kernel its version now, in threads, so the first lesson opened already finds it.
    try:
        for spec in serverapp.kernel_spec_manager.get_all_specs().values():
            argv = _dict(spec.get("spec")).get("argv") if isinstance(spec, dict) else None
            if isinstance(argv, list) and argv and isinstance(argv[0], str):
                opening.pythons.known(argv[0])
    except Exception:  # noqa: BLE001 - only a head start; an opening asks again
        serverapp.log.debug("ndcg_teach: could not list the kernelspecs", exc_info=True)
    serverapp.log.info("ndcg_teach: saved explorers keep their picture, and come back live on a reload while their "
                       "kernel runs; notebooks open with the kernel's Python version")
