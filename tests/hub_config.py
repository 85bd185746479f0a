"""The class hub's configuration as JupyterHub loads it, for the tests of hub/ that start no hub (test_hub.py,
test_hub_accounts.py)."""

import dbm
import os
import pwd
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from traitlets.config.loader import PyFileConfigLoader

HUB = Path(__file__).resolve().parent.parent / "hub"
sys.path.insert(0, str(HUB))

import accounts  # noqa: E402
import settings as hub_settings  # noqa: E402

ROOTED = os.geteuid() == 0


def config(tmp_path, **environ):
    """The hub's configuration as JupyterHub loads it, with ``NDCG_HUB_<name>`` = value for each keyword.

    As root, the configuration makes the instructor's Unix account (graded mode) or the shared one (workshop): they
    get a prefix of this call's own and are removed before this returns.
    """
    prefix = f"ndcgu{uuid.uuid4().hex[:6]}-"
    env = {"NDCG_HUB_STATE": str(tmp_path / "state"), "NDCG_HUB_EXCHANGE": str(tmp_path / "exchange"), "NDCG_HUB_ACCOUNT_PREFIX": prefix}
    env.update({f"NDCG_HUB_{name.upper()}": value for name, value in environ.items()})
    saved = {name: os.environ.pop(name) for name in list(os.environ) if name.startswith("NDCG_HUB_")}
    os.environ.update(env)
    try:
        return PyFileConfigLoader("jupyterhub_config.py", str(HUB)).load_config()
    finally:
        for name in env:
            os.environ.pop(name, None)
        os.environ.update(saved)
        for entry in pwd.getpwall():
            if entry.pw_name.startswith(prefix):
                accounts.remove_account(entry.pw_name)


def store_password(tmp_path, name="instructor"):
    """A stored password for ``name``, as `make hub-password` leaves it (the configuration only checks that it is there)."""
    (tmp_path / "state").mkdir(exist_ok=True)
    with dbm.open(accounts.password_store(tmp_path / "state"), "c", 0o600) as store:
        store[name.encode()] = b"$2b$12$a-bcrypt-hash"


class FakeSpawner:
    def __init__(self, admin, name, number=1):
        self.user = type("User", (), {"admin": admin, "name": name, "id": number})()


@pytest.fixture(autouse=True)
def no_runtime_folder_left(tmp_path):
    """Loading the configuration creates the students' runtime folder in /tmp (outside tmp_path): remove it."""
    yield
    subprocess.run(["rm", "-rf", str(hub_settings.read({"NDCG_HUB_STATE": str(tmp_path / "state")}).runtime_root)], check=False)
