"""tools/make_venv.py: finding pip's wheel on a simple index when ensurepip is missing."""

import hashlib
import http.server
import importlib.util
import threading
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "tools" / "make_venv.py"


@pytest.fixture(scope="module")
def make_venv():
    spec = importlib.util.spec_from_file_location("make_venv", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def index(tmp_path, make_venv):
    """A throw-away simple index on 127.0.0.1 whose pip page lists a wheel with a wrong digest."""
    wheel = f"pip-{make_venv.PIP_VERSION}-py3-none-any.whl"
    (tmp_path / "pip").mkdir()
    (tmp_path / "files").mkdir()
    (tmp_path / "files" / wheel).write_bytes(b"not really a wheel")
    digest = hashlib.sha256(b"something else").hexdigest()
    (tmp_path / "pip" / "index.html").write_text(
        f'<a href="../files/pip-1.0-py3-none-any.whl#sha256={"0" * 64}">old</a>'
        f'<a href="../files/{wheel}#sha256={digest}">{wheel}</a>'
    )

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, directory=str(tmp_path), **kwargs)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Quiet)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}", wheel, digest
    server.shutdown()


def test_finds_the_pinned_wheel_and_its_digest(make_venv, index):
    url, wheel, digest = index
    address, found = make_venv.pip_wheel_link(url)
    assert address == f"{url}/files/{wheel}"
    assert found == digest


def test_refuses_a_wheel_whose_digest_does_not_match(make_venv, index, tmp_path, monkeypatch):
    url, _, _ = index
    monkeypatch.setenv("PIP_INDEX_URL", url)
    with pytest.raises(SystemExit, match="does not match the SHA-256"):
        make_venv.install_pip_from_pypi(tmp_path / "env")
