"""The route every install takes (docs/install.md), from a clone: build the wheel, install it with the pins into a new
environment outside the clone, set it up. ``tests/browser/test_wheel_install.py`` runs it, then a lesson in it.

Usage (from anywhere)::

    python tools/wheel_route.py DIR     # builds DIR/dist/*.whl and the environment DIR/env; prints sizes and times

The wheel is built from a copy of the repository's tracked files (as a fresh
clone holds them), so nothing is left in the clone; pip runs from ``DIR``, so
the pins file is shown to work from another folder.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

from binder_check import bin_dir, tracked_copy

ROOT = Path(__file__).resolve().parent.parent


def _variables() -> dict[str, str]:
    """This environment's variables without what would point pip or Python at the clone's own environment."""
    return {key: value for key, value in os.environ.items() if key not in {"PYTHONPATH", "VIRTUAL_ENV", "PIP_REQUIRE_VIRTUALENV"}}


def build_wheel(directory: Path) -> Path:
    """The wheel of ndcg_teach, built from a copy of the tracked files into ``directory/dist``; its path."""
    source = tracked_copy(directory / "source")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(directory / "dist"), str(source)],
                   cwd=directory, env=_variables(), check=True, capture_output=True, text=True)
    return next((directory / "dist").glob("ndcg_teach-*.whl"))


def make_environment(env: Path, wheel: Path, cwd: Path) -> Path:
    """A new environment at ``env`` with the pins of requirements.txt and ``wheel``, installed from ``cwd``; its Python."""
    subprocess.run([sys.executable, str(ROOT / "tools" / "make_venv.py"), str(env)], cwd=cwd, env=_variables(), check=True,
                   capture_output=True, text=True)
    python = bin_dir(env) / ("python.exe" if os.name == "nt" else "python")
    # --no-compile: each module is compiled when first imported, not all of them (most never imported) at install time.
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--no-compile", "-r", str(ROOT / "requirements.txt"), str(wheel)],
                   cwd=cwd, env=_variables(), check=True, capture_output=True, text=True)
    return python


def set_up(python: Path, cwd: Path) -> str:
    """``python -m ndcg_teach.jupyter.setup`` in that environment (run from ``cwd``, outside the clone); what it printed."""
    return subprocess.run([str(python), "-m", "ndcg_teach.jupyter.setup"], cwd=cwd, env=_variables(), check=True,
                          capture_output=True, text=True).stdout


def size(path: Path) -> int:
    """Bytes of every file under ``path`` (links not followed)."""
    return sum(entry.stat(follow_symlinks=False).st_size for entry in path.rglob("*") if entry.is_file() and not entry.is_symlink())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory", type=Path, help="an empty folder outside the clone")
    directory = parser.parse_args(argv).directory.resolve()
    directory.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    wheel = build_wheel(directory)
    built = time.perf_counter()
    python = make_environment(directory / "env", wheel, directory)
    installed = time.perf_counter()
    print(set_up(python, directory), end="")
    done = time.perf_counter()
    print(f"wheel: {wheel.name}, {wheel.stat().st_size:,} bytes, built in {built - start:.1f} s")
    print(f"environment: {directory / 'env'}, {size(directory / 'env') / 2**20:.0f} MiB, installed in {installed - built:.1f} s "
          f"(set up in {done - installed:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
