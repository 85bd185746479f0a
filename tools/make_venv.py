"""Create a virtual environment with pip, even where ``ensurepip`` is missing.

Debian's python3 ships without ``ensurepip`` unless ``python3-venv`` is
installed, so ``python3 -m venv`` fails there.  This script tries the normal
way first and otherwise makes the environment without pip and installs pip
from its wheel on PyPI (checked against the SHA-256 PyPI publishes).

Usage: python3 tools/make_venv.py .venv
"""

import hashlib
import json
import os
import subprocess
import sys
import tempfile
import urllib.request
import venv
from pathlib import Path

PIP_VERSION = "26.3"


def bin_dir(env: Path) -> Path:
    return env / ("Scripts" if os.name == "nt" else "bin")


def python_of(env: Path) -> Path:
    return bin_dir(env) / ("python.exe" if os.name == "nt" else "python")


def has_ensurepip() -> bool:
    if os.environ.get("NDCG_TEACH_NO_ENSUREPIP"):  # lets the test suite exercise the fallback
        return False
    try:
        import ensurepip  # noqa: F401
    except ImportError:
        return False
    return True


def install_pip_from_pypi(env: Path) -> None:
    with urllib.request.urlopen(f"https://pypi.org/pypi/pip/{PIP_VERSION}/json", timeout=60) as response:
        release = json.load(response)
    wheel = next(f for f in release["urls"] if f["filename"].endswith(".whl"))
    with urllib.request.urlopen(wheel["url"], timeout=120) as response:
        data = response.read()
    if hashlib.sha256(data).hexdigest() != wheel["digests"]["sha256"]:
        sys.exit(f"make_venv: the pip wheel from PyPI does not match its published SHA-256; not installing it.")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / wheel["filename"]
        path.write_bytes(data)
        # A pip wheel can run itself: python pip.whl/pip install pip.whl
        subprocess.run([str(python_of(env)), f"{path}/pip", "install", "--no-index", "--quiet", str(path)], check=True)


def main(argv: list[str]) -> None:
    if len(argv) != 2:
        sys.exit("usage: python3 tools/make_venv.py ENV_DIR")
    env = Path(argv[1])
    if python_of(env).exists() and subprocess.run([str(python_of(env)), "-m", "pip", "--version"], capture_output=True).returncode == 0:
        return
    if has_ensurepip():
        venv.create(env, with_pip=True, clear=True)
    else:
        print("make_venv: this Python has no ensurepip (Debian without python3-venv); installing pip from PyPI.")
        venv.create(env, with_pip=False, clear=True)
        install_pip_from_pypi(env)
    subprocess.run([str(python_of(env)), "-m", "pip", "install", "--quiet", "--upgrade", f"pip=={PIP_VERSION}"], check=True)


if __name__ == "__main__":
    main(sys.argv)
