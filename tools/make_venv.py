"""Create a virtual environment with pip, even where ``ensurepip`` is missing.

Debian's python3 ships without ``ensurepip`` unless ``python3-venv`` is
installed, so ``python3 -m venv`` fails there.  This script tries the normal
way first and otherwise makes the environment without pip and installs pip
from its wheel on the package index (checked against the SHA-256 the index
publishes).

Usage: python3 tools/make_venv.py .venv
"""

import hashlib
import html
import os
import re
import subprocess
import sys
import tempfile
import urllib.parse
import urllib.request
import venv
from pathlib import Path

PIP_VERSION = "26.3"


def bin_dir(env):
    return env / ("Scripts" if os.name == "nt" else "bin")


def python_of(env):
    return bin_dir(env) / ("python.exe" if os.name == "nt" else "python")


def has_ensurepip():
    if os.environ.get("NDCG_TEACH_NO_ENSUREPIP"):  # lets the test suite exercise the fallback
        return False
    try:
        import ensurepip  # noqa: F401
    except ImportError:
        return False
    return True


def pip_wheel_link(index):
    """The address and SHA-256 of pip's wheel, read from the index's simple (PEP 503) page."""
    page_url = f"{index.rstrip('/')}/pip/"
    with urllib.request.urlopen(page_url, timeout=60) as response:
        page = response.read().decode("utf-8")
    wanted = f"pip-{PIP_VERSION}-py3-none-any.whl"
    for href in re.findall(r'href="([^"]+)"', page):
        href = html.unescape(href)
        if href.split("#")[0].endswith(wanted) and "#sha256=" in href:
            address, digest = href.split("#sha256=")
            return urllib.parse.urljoin(page_url, address), digest
    sys.exit(f"make_venv: {page_url} lists no {wanted} with a SHA-256; install python3-venv instead.")


def install_pip_from_pypi(env):
    address, digest = pip_wheel_link(os.environ.get("PIP_INDEX_URL", "https://pypi.org/simple"))
    with urllib.request.urlopen(address, timeout=120) as response:
        data = response.read()
    if hashlib.sha256(data).hexdigest() != digest:
        sys.exit("make_venv: the pip wheel does not match the SHA-256 its index publishes; not installing it.")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / address.rsplit("/", 1)[-1]
        path.write_bytes(data)
        # A pip wheel can run itself: python pip.whl/pip install pip.whl
        subprocess.run([str(python_of(env)), f"{path}/pip", "install", "--no-index", "--quiet", str(path)], check=True)


def main(argv):
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
