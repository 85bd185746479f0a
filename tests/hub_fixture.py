"""The fixture shared by the live class-hub tests (test_hub_live.py, test_hub_graded.py), loaded as a plugin by the
root conftest.py."""

import fcntl
import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def hub_environment():
    """Build .venv-hub (Node.js included) and hub/node_modules as `make hub` does (quick when they are up to date);
    skip, with npm's reason, where npm cannot install the proxy (no registry)."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("MAKE")}
    # One build at a time: the hub's files run as one group on one pytest-xdist worker (tests/parallel.py), but a
    # session fixture runs once in every process that asks for it, and two builds would write the same folders.
    (ROOT / "build").mkdir(exist_ok=True)
    with open(ROOT / "build" / "hub-environment.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        subprocess.run(["make", ".venv-hub/.hub"], cwd=ROOT, env=env, check=True, capture_output=True)
        proxy = subprocess.run(["make", "hub/node_modules/.package-lock.json"], cwd=ROOT, env=env, capture_output=True,
                               text=True)
    if proxy.returncode:
        pytest.skip(f"npm could not install the hub's proxy here: {(proxy.stderr or proxy.stdout).strip().splitlines()[-1:]}")
    return ROOT / ".venv-hub" / "bin" / "python"
