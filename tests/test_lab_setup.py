"""tools/lab_setup.py and `make lab`: the course set up inside the environment, nothing in the repository changed.

Setting up once rewrote ``language_info`` in all 30 lessons on any Python but
the authors' (3.11.7), so a fresh clone showed 30 modified files before the
learner had done anything. lab_setup now writes only under the environment's
prefix; the server extension it enables serves each lesson with the kernel's
Python version instead (tests/test_server_extension.py).
"""

import hashlib
import json
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import lab_setup
import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
STORED = nbformat.read(ROOT / "notebooks" / "00-start-here.ipynb", as_version=4).metadata["language_info"]["version"]


def python_version(executable):
    try:
        result = subprocess.run([executable, "-c", "import sys; print(sys.version.split()[0])"],
                                capture_output=True, text=True, timeout=60)
    except OSError:
        return None
    return result.stdout.strip() if result.returncode == 0 else None


def interpreters():
    """{version: interpreter} of the Pythons found here: Debian's own, any python3.10-3.13 on PATH, and this one."""
    found = {}
    for name in ("/usr/bin/python3", "python3.10", "python3.11", "python3.12", "python3.13", sys.executable):
        path = shutil.which(name)
        version = path and python_version(path)
        if version:
            found.setdefault(version, path)
    return found


def repository_state():
    """`git status` and a digest of every tracked file: what a learner's clone shows."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git work tree")
    status = subprocess.run(["git", "status", "--porcelain", "--untracked-files=all"], cwd=ROOT,
                            capture_output=True, text=True, check=True).stdout
    tracked = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    digest = hashlib.sha256()
    for name in sorted(filter(None, tracked.split("\0"))):
        if (ROOT / name).is_file():
            digest.update(name.encode() + b"\0" + (ROOT / name).read_bytes())
    return status, digest.hexdigest()


INTERPRETERS = interpreters()


@pytest.mark.parametrize("version", sorted(INTERPRETERS), ids=[f"{v}{'' if v == STORED else '-not-the-lessons-own'}" for v in sorted(INTERPRETERS)])
def test_setting_up_under_any_python_changes_nothing_in_the_repository(tmp_path, version):
    # The lessons are stored by the authors' Python; Debian's /usr/bin/python3 (3.11.2) was the case that dirtied
    # every clone. An environment of each Python found, without pip: lab_setup needs only the standard library.
    env = tmp_path / "env"
    subprocess.run([INTERPRETERS[version], "-m", "venv", "--without-pip", str(env)], check=True, capture_output=True)
    python = next(path for path in (env / "bin" / "python", env / "Scripts" / "python.exe") if path.exists())
    before = repository_state()
    result = subprocess.run([str(python), "tools/lab_setup.py"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert repository_state() == before
    assert lab_setup.overrides_path(env).is_file() and lab_setup.server_config_path(env / "etc" / "jupyter").is_file()


def test_lab_setup_writes_the_environments_overrides_and_keeps_other_keys(tmp_path):
    path = lab_setup.overrides_path(tmp_path)
    assert path == tmp_path / "share/jupyter/lab/settings/overrides.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"@jupyterlab/apputils-extension:themes": {"theme": "JupyterLab Dark"}}))
    lab_setup.write_overrides(tmp_path)
    written = json.loads(path.read_text())
    assert written["@jupyterlab/apputils-extension:themes"] == {"theme": "JupyterLab Dark"}
    assert written["@jupyterlab/apputils-extension:notification"] == {"fetchNews": "false", "checkForUpdates": False}
    assert written["@jupyterlab/notebook-extension:tracker"] == {"windowingMode": "none"}


def test_the_server_extension_gets_a_drop_in_file_of_its_own_and_other_configuration_is_kept(tmp_path):
    config = tmp_path / "etc" / "jupyter"
    other = config / "jupyter_server_config.d" / "jupyterlab.json"
    other.parent.mkdir(parents=True)
    other.write_text(json.dumps({"ServerApp": {"jpserver_extensions": {"jupyterlab": True}}}))
    (config / "jupyter_server_config.py").write_text("c.ServerApp.open_browser = False\n")
    path = lab_setup.server_config_path(config)
    path.write_text(json.dumps({"ServerApp": {"jpserver_extensions": {"somebody_else": True}, "open_browser": False}}))
    assert lab_setup.main(["--prefix", str(tmp_path)]) == 0
    assert json.loads(path.read_text()) == {
        "ServerApp": {"jpserver_extensions": {"somebody_else": True, "ndcg_teach.server_extension": True}, "open_browser": False}
    }
    assert json.loads(other.read_text()) == {"ServerApp": {"jpserver_extensions": {"jupyterlab": True}}}
    assert (config / "jupyter_server_config.py").read_text() == "c.ServerApp.open_browser = False\n"
    written = path.read_text()
    lab_setup.main(["--prefix", str(tmp_path)])
    assert path.read_text() == written, "running it again changes nothing"


def test_the_environment_the_tests_run_in_enables_the_extension_as_make_lab_does():
    result = subprocess.run([sys.executable, "-m", "jupyter", "server", "extension", "list"],
                            capture_output=True, text=True, timeout=120)
    listed = result.stdout + result.stderr
    if "ndcg_teach.server_extension" not in listed:
        pytest.skip(f"{sys.prefix} was not set up by tools/lab_setup.py (make lab does it)")
    line = next(line for line in listed.splitlines() if "ndcg_teach.server_extension" in line and "OK" in line)
    assert line.strip().startswith("ndcg_teach.server_extension")
