"""Set JupyterLab up for the course inside the current Python environment, never in a user's own settings.

Run by ``make lab`` (in .venv) and by binder/postBuild (in Binder's environment):

1. Writes ``<sys.prefix>/share/jupyter/lab/settings/overrides.json``, which
   JupyterLab reads as the defaults of this environment: no pop-up asking
   whether to fetch Jupyter news, no update check, and notebook windowing off
   (windowing detaches widgets scrolled out of view). Other keys already in
   the file are kept.
2. Writes this environment's ``language_info`` into each lesson's metadata.
   JupyterLab replaces a notebook's ``language_info`` with the kernel's when it
   opens the notebook, and any difference (the lessons are executed on the
   author's Python; 3.12.x on Binder) marks a lesson as unsaved before
   anything has run. A lesson that already matches is not rewritten.

Usage (from the repository root, with the environment's python)::

    python tools/lab_setup.py
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"

SETTINGS = {
    "@jupyterlab/apputils-extension:notification": {"fetchNews": "false", "checkForUpdates": False},
    "@jupyterlab/notebook-extension:tracker": {"windowingMode": "none"},
}
"""The settings the course needs, keyed by JupyterLab plugin id, as overrides.json holds them."""


def overrides_path(prefix: str | Path = sys.prefix) -> Path:
    """Where JupyterLab of the environment at ``prefix`` reads its default overrides."""
    return Path(prefix) / "share" / "jupyter" / "lab" / "settings" / "overrides.json"


def write_overrides(prefix: str | Path = sys.prefix) -> Path:
    """Merge :data:`SETTINGS` into the environment's overrides.json; return its path."""
    path = overrides_path(prefix)
    current = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    for plugin, values in SETTINGS.items():
        current[plugin] = {**current.get(plugin, {}), **values}
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(current, indent=2) + "\n", encoding="utf-8")
    return path


def kernel_language_info() -> dict:
    """The ``language_info`` that a python3 kernel of this environment reports.

    Read in a child process, as a kernel runs: importing ipykernel here would
    install its comm machinery in the caller (the test process, whose widget
    tests then see no messages sent).
    """
    script = "import json; from ipykernel.ipkernel import IPythonKernel; print(json.dumps(IPythonKernel.language_info))"
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=120)
    return json.loads(result.stdout)


def stamp_language_info(directory: Path = NOTEBOOKS, language_info: dict | None = None) -> list[Path]:
    """Give every notebook in ``directory`` and its edition folders (zh-CN/) the kernel's ``language_info``; return the files changed."""
    import nbformat

    wanted = kernel_language_info() if language_info is None else language_info
    changed = []
    for path in sorted([*directory.glob("*.ipynb"), *directory.glob("*/*.ipynb")]):
        if ".ipynb_checkpoints" in path.parts:
            continue
        notebook = nbformat.read(path, as_version=4)
        if notebook.metadata.get("language_info") != wanted:
            notebook.metadata["language_info"] = wanted
            nbformat.write(notebook, path)
            changed.append(path)
    return changed


def main() -> int:
    path = write_overrides()
    changed = stamp_language_info()
    print(f"JupyterLab settings for the course: {path}")
    print(f"lessons given this Python's language_info: {len(changed)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
