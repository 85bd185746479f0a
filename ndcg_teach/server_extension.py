"""A Jupyter server extension that keeps a saved lesson reopening cleanly.

``python tools/lab_setup.py`` enables it in the environment (``make lab``,
Binder's postBuild, a class hub's image). It does two things:

- **Saving** (a pre-save hook): ipywidgets saves no widget state by default,
  so a saved output's widget view points at a model that no longer exists
  once the kernel is gone, and a reopened notebook shows "Error displaying
  widget: model not found". For every output whose widget model is not saved
  with the notebook, the hook drops the widget view and keeps the output's
  other views: the explorers' static picture (``text/html``, "Run this cell
  to drag the rows") and ``text/plain``. Running the cell shows the live
  widget again. Outputs whose state is saved, and outputs with nothing else
  to show, are kept as they are.
- **Opening**: JupyterLab and Notebook 7 replace a notebook's
  ``language_info`` with the kernel's when the kernel starts, and any
  difference (the lessons are executed on the author's Python) marks the
  notebook as changed before anything has run. A Python notebook is served
  with the Python version of the kernel it names, so it opens unchanged; the
  file on disk is not touched.

>>> notebook = {"metadata": {}, "cells": [{"cell_type": "code", "outputs": [{"output_type": "display_data",
...     "data": {WIDGET_VIEW: {"model_id": "a1"}, "text/html": "<p>picture</p>", "text/plain": "explorer"}}]}]}
>>> strip_unsaved_widget_views({"type": "notebook", "content": notebook})
>>> sorted(notebook["cells"][0]["outputs"][0]["data"])
['text/html', 'text/plain']
"""

from __future__ import annotations

import functools
import inspect
import os
import subprocess
import sys

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"


def _saved_models(notebook: dict) -> set:
    return set(notebook.get("metadata", {}).get("widgets", {}).get(WIDGET_STATE, {}).get("state", {}))


def strip_unsaved_widget_views(model: dict, **kwargs) -> None:
    """Pre-save hook: drop the widget view of every output whose model state is not saved with the notebook."""
    if model.get("type") != "notebook" or not isinstance(model.get("content"), dict):
        return
    notebook = model["content"]
    saved = _saved_models(notebook)
    for cell in notebook.get("cells", []):
        for output in cell.get("outputs", []) or []:
            data = output.get("data") or {}
            view = data.get(WIDGET_VIEW)
            if view is not None and len(data) > 1 and view.get("model_id") not in saved:
                del data[WIDGET_VIEW]


@functools.lru_cache(maxsize=None)
def _python_version(executable: str) -> str | None:
    """The version a kernel started with ``executable`` reports (ipykernel's ``sys.version.split()[0]``)."""
    major, minor = sys.version_info[:2]
    if executable in {"python", f"python{major}", f"python{major}.{minor}"} or os.path.realpath(executable) == os.path.realpath(sys.executable):
        # jupyter_client starts these names as the server's own interpreter.
        return sys.version.split()[0]
    try:
        result = subprocess.run([executable, "-c", "import sys; print(sys.version.split()[0])"],
                                capture_output=True, text=True, timeout=30, check=True)
    except (OSError, subprocess.SubprocessError):
        return None
    return result.stdout.strip() or None


def with_kernel_python(model: dict, kernel_specs) -> dict:
    """``model`` with its notebook's ``language_info.version`` set to what the kernel it names will report.

    Only a Python notebook whose kernelspec names a Python kernel known to
    ``kernel_specs`` (a jupyter_client KernelSpecManager) is changed.
    """
    if model.get("type") != "notebook" or not isinstance(model.get("content"), dict):
        return model
    metadata = model["content"].get("metadata", {})
    info, name = metadata.get("language_info"), metadata.get("kernelspec", {}).get("name")
    if not isinstance(info, dict) or info.get("name") != "python" or not name:
        return model
    try:
        spec = kernel_specs.get_kernel_spec(name)
    except Exception:  # noqa: BLE001 - an unknown or broken kernelspec: leave the notebook as it is
        return model
    if spec.language.lower() != "python" or not spec.argv:
        return model
    version = _python_version(spec.argv[0])
    if version is not None:
        metadata["language_info"] = {**info, "version": version}
    return model


def _serving_kernel_python(get, kernel_specs):
    """``get`` (a contents manager's, sync or async) returning notebooks through :func:`with_kernel_python`."""
    if inspect.iscoroutinefunction(get):

        @functools.wraps(get)
        async def async_get(*args, **kwargs):
            return with_kernel_python(await get(*args, **kwargs), kernel_specs)

        return async_get

    @functools.wraps(get)
    def sync_get(*args, **kwargs):
        return with_kernel_python(get(*args, **kwargs), kernel_specs)

    return sync_get


def _jupyter_server_extension_points():
    return [{"module": "ndcg_teach.server_extension"}]


def _load_jupyter_server_extension(serverapp):
    contents = serverapp.contents_manager
    contents.register_pre_save_hook(strip_unsaved_widget_views)
    contents.get = _serving_kernel_python(contents.get, serverapp.kernel_spec_manager)
    serverapp.log.info("ndcg_teach: saved notebooks keep a widget's picture; notebooks open with the kernel's Python version")
