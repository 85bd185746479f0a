"""Set Jupyter up for the course inside the current Python environment, never in a user's own settings.

Run by ``make lab`` (in .venv), by binder/postBuild (in Binder's environment)
and, for a class hub, once in the image's environment::

    python tools/lab_setup.py

It writes two files under the environment's prefix (``sys.prefix``), keeps
whatever else they hold, and changes nothing in the repository:

1. ``share/jupyter/lab/settings/overrides.json``, which JupyterLab and
   Notebook 7 read as this environment's defaults: no pop-up asking whether to
   fetch Jupyter news, no update check, and notebook windowing off (windowing
   detaches widgets scrolled out of view).
2. ``etc/jupyter/jupyter_server_config.d/ndcg_teach.json``, which enables
   :mod:`ndcg_teach.server_extension` in every Jupyter server of this
   environment (``jupyter lab``, ``jupyter notebook``, a hub's single-user
   server): a saved notebook keeps each widget's static picture instead of
   reopening with "model not found", and a lesson opens without an unsaved
   mark whatever the Python version. A drop-in file of its own, so no other
   server configuration is overwritten.

``--prefix DIR`` writes under another environment's prefix instead.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

SETTINGS = {
    "@jupyterlab/apputils-extension:notification": {"fetchNews": "false", "checkForUpdates": False},
    "@jupyterlab/notebook-extension:tracker": {"windowingMode": "none"},
}
"""The settings the course needs, keyed by JupyterLab plugin id, as overrides.json holds them."""

SERVER_EXTENSION = "ndcg_teach.server_extension"
"""The Jupyter server extension the course enables (see its module)."""


def overrides_path(prefix: str | Path = sys.prefix) -> Path:
    """Where JupyterLab of the environment at ``prefix`` reads its default overrides."""
    return Path(prefix) / "share" / "jupyter" / "lab" / "settings" / "overrides.json"


def server_config_path(config_dir: str | Path) -> Path:
    """The course's drop-in file in a Jupyter config directory (``<prefix>/etc/jupyter`` for an environment)."""
    return Path(config_dir) / "jupyter_server_config.d" / "ndcg_teach.json"


def _merge(path: Path, section: str, values: dict) -> Path:
    """Merge ``values`` into ``section`` of the JSON file at ``path``, keeping every other key; return ``path``."""
    current = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    current[section] = {**current.get(section, {}), **values}
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(current, indent=2) + "\n", encoding="utf-8")
    return path


def write_overrides(prefix: str | Path = sys.prefix) -> Path:
    """Merge :data:`SETTINGS` into the environment's overrides.json; return its path."""
    path = overrides_path(prefix)
    for plugin, values in SETTINGS.items():
        _merge(path, plugin, values)
    return path


def write_server_config(config_dir: str | Path) -> Path:
    """Enable the course's server extension in the Jupyter config directory ``config_dir``; return the drop-in's path."""
    path = server_config_path(config_dir)
    current = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    extensions = {**current.get("ServerApp", {}).get("jpserver_extensions", {}), SERVER_EXTENSION: True}
    return _merge(path, "ServerApp", {"jpserver_extensions": extensions})


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--prefix", type=Path, default=Path(sys.prefix), help="the environment to set up (default: this Python's)")
    args = parser.parse_args(argv)
    print(f"JupyterLab settings for the course: {write_overrides(args.prefix)}")
    print(f"Jupyter server extension {SERVER_EXTENSION}: {write_server_config(args.prefix / 'etc' / 'jupyter')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
