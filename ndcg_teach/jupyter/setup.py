"""``python -m ndcg_teach.jupyter.setup``: set Jupyter up for the course in this Python environment, and say what is set.

Installing ndcg_teach from its wheel (``pip install ndcg_teach-*.whl``)
already enables the course's Jupyter server extension
(:mod:`ndcg_teach.jupyter.server_extension`): the wheel carries
``etc/jupyter/jupyter_server_config.d/ndcg_teach.json``, which pip puts under
the environment's prefix, as jupyterlab, nbgrader and jupyter-server-proxy
ship theirs. Two things pip does not do, this command does, inside the
environment (``sys.prefix``) and never in anyone's own settings:

1. JupyterLab's and Notebook 7's defaults for this environment, in a file of
   the course's own, ``share/jupyter/lab/settings/overrides.d/ndcg_teach.json``:
   no pop-up asking whether to fetch Jupyter news, no update check, and
   notebook windowing off (windowing detaches widgets scrolled out of view).
   A learner may still change each of them in Settings. A library should not
   change these for every environment it is installed in, so the install
   alone leaves them as they are.
2. The server extension's file, where the install did not write it: an
   editable install (``pip install -e .``, as ``make lab`` makes) installs no
   data files.

``--check`` changes nothing: it says what is missing and exits with 1 if
anything is. ``--prefix DIR`` sets up another environment. docs/install.md
shows every route that runs it.

>>> settings_path("/env").as_posix()
'/env/share/jupyter/lab/settings/overrides.d/ndcg_teach.json'
>>> server_config_path("/env/etc/jupyter").as_posix()
'/env/etc/jupyter/jupyter_server_config.d/ndcg_teach.json'
"""
# pytest skips the doctests of a file named setup.py whose text names Python's packaging tools: leave them unnamed here.

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

SERVER_EXTENSION = "ndcg_teach.jupyter.server_extension"
"""The Jupyter server extension the course enables (see its module)."""

OLD_SERVER_EXTENSION = "ndcg_teach.server_extension"
"""Its path in ndcg_teach 0.1: :func:`write_server_config` drops it, or the server would load the extension twice."""

SERVER_CONFIG = {"ServerApp": {"jpserver_extensions": {SERVER_EXTENSION: True}}}
"""What the wheel's ``etc/jupyter/jupyter_server_config.d/ndcg_teach.json`` holds."""

SETTINGS = {
    "@jupyterlab/apputils-extension:notification": {"fetchNews": "false", "checkForUpdates": False},
    "@jupyterlab/notebook-extension:tracker": {"windowingMode": "none"},
}
"""The JupyterLab settings the course needs, keyed by plugin id, as an overrides file holds them."""


def settings_path(prefix: str | Path = sys.prefix) -> Path:
    """The course's JupyterLab defaults in the environment at ``prefix`` (read by JupyterLab and Notebook 7)."""
    return Path(prefix) / "share" / "jupyter" / "lab" / "settings" / "overrides.d" / "ndcg_teach.json"


def server_config_path(config_dir: str | Path) -> Path:
    """The course's drop-in file in a Jupyter config directory (``<prefix>/etc/jupyter`` for an environment)."""
    return Path(config_dir) / "jupyter_server_config.d" / "ndcg_teach.json"


def _read(path: Path) -> dict:
    """The JSON object in ``path``; {} when it is missing or holds something else."""
    try:
        value = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return value if isinstance(value, dict) else {}


def _write(path: Path, value: dict) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(value, indent=2) + "\n", encoding="utf-8")
    return path


def settings_written(prefix: str | Path = sys.prefix) -> bool:
    """Whether the environment at ``prefix`` holds every setting of :data:`SETTINGS`."""
    current = _read(settings_path(prefix))
    return all(current.get(plugin, {}).get(key) == value
               for plugin, values in SETTINGS.items() for key, value in values.items())


def write_settings(prefix: str | Path = sys.prefix) -> Path:
    """Write :data:`SETTINGS` into the course's overrides file, keeping any other key it holds; return its path."""
    path = settings_path(prefix)
    current = _read(path)
    for plugin, values in SETTINGS.items():
        current[plugin] = {**current.get(plugin, {}), **values}
    return _write(path, current)


def server_extension_written(config_dir: str | Path) -> bool:
    """Whether the drop-in file in ``config_dir`` enables the course's server extension (under its own path only)."""
    extensions = _read(server_config_path(config_dir)).get("ServerApp", {}).get("jpserver_extensions", {})
    return extensions.get(SERVER_EXTENSION) is True and OLD_SERVER_EXTENSION not in extensions


def write_server_config(config_dir: str | Path) -> Path:
    """Enable the course's server extension in the Jupyter config directory ``config_dir``; return the drop-in's path.

    Other keys of the file are kept (another tool may have added some).
    """
    path = server_config_path(config_dir)
    current = _read(path)
    server = current.setdefault("ServerApp", {})
    extensions = {name: on for name, on in server.get("jpserver_extensions", {}).items() if name != OLD_SERVER_EXTENSION}
    server["jpserver_extensions"] = {**extensions, SERVER_EXTENSION: True}
    return _write(path, current)


def _enabled_by_jupyter() -> bool | None:
    """Whether this environment's Jupyter server would load the extension (every config layer read as the server reads
    them, so a user's file that disables it counts); None where jupyter_server is not installed."""
    try:
        from jupyter_core.paths import jupyter_config_path
        from jupyter_server.extension.config import ExtensionConfigManager
    except ImportError:
        return None
    return bool(ExtensionConfigManager(read_config_path=jupyter_config_path()).get_jpserver_extensions().get(SERVER_EXTENSION))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ndcg_teach.jupyter.setup", description=__doc__.splitlines()[0].split(": ", 1)[1])
    parser.add_argument("--prefix", type=Path, default=Path(sys.prefix), help="the environment to set up (default: this Python's)")
    parser.add_argument("--check", action="store_true", help="change nothing; exit with 1 if anything is missing")
    args = parser.parse_args(argv)
    config_dir = args.prefix / "etc" / "jupyter"
    missing = []
    if server_extension_written(config_dir):
        print(f"Jupyter server extension {SERVER_EXTENSION}: enabled by {server_config_path(config_dir)}")
    elif args.check:
        missing.append(f"Jupyter server extension {SERVER_EXTENSION}: not enabled in {config_dir}")
    else:
        print(f"Jupyter server extension {SERVER_EXTENSION}: enabled, written to {write_server_config(config_dir)}")
    if settings_written(args.prefix):
        print(f"JupyterLab settings (no news pop-up, no update check, windowing off): in {settings_path(args.prefix)}")
    elif args.check:
        missing.append(f"JupyterLab settings: not in {settings_path(args.prefix)}")
    else:
        print(f"JupyterLab settings (no news pop-up, no update check, windowing off): written to {write_settings(args.prefix)}")
    if args.prefix.resolve() == Path(sys.prefix).resolve() and _enabled_by_jupyter() is False and not missing:
        missing.append(f"Jupyter server extension {SERVER_EXTENSION}: disabled by another Jupyter configuration file "
                       "(`jupyter server extension list` shows which)")
    for line in missing:
        print(line, file=sys.stderr)
    if missing and args.check:
        again = "" if args.prefix.resolve() == Path(sys.prefix).resolve() else f" --prefix {args.prefix}"
        print(f"Run `python -m ndcg_teach.jupyter.setup{again}` to set them up.", file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
