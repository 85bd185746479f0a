"""ndcg_teach.jupyter.setup (``python -m ndcg_teach.jupyter.setup``) and the wheel's data file: the course set up inside the environment.

The wheel enables the server extension itself (tests/browser/test_wheel_install.py installs it); the command writes
what pip does not, only under the environment's prefix: a learner's own settings and the repository stay as they were.
"""

import hashlib
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ndcg_teach.jupyter import setup

ROOT = Path(__file__).resolve().parent.parent


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


def run_setup(*arguments, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "ndcg_teach.jupyter.setup", *arguments], cwd=cwd, capture_output=True, text=True,
                          timeout=120)


def test_the_wheels_data_file_is_what_the_command_writes():
    # Read as written (tomllib is not in Python 3.10's standard library).
    line = '\ndata-files = {"etc/jupyter/jupyter_server_config.d" = ["jupyter-config/jupyter_server_config.d/ndcg_teach.json"]}\n'
    assert line in (ROOT / "pyproject.toml").read_text()
    shipped = json.loads((ROOT / "jupyter-config/jupyter_server_config.d/ndcg_teach.json").read_text())
    assert shipped == setup.SERVER_CONFIG


def test_setting_up_writes_under_the_prefix_only_and_changes_nothing_in_the_repository(tmp_path):
    before = repository_state()
    result = run_setup("--prefix", str(tmp_path))
    assert result.returncode == 0, result.stderr
    assert repository_state() == before
    written = sorted(path.relative_to(tmp_path).as_posix() for path in tmp_path.rglob("*") if path.is_file())
    assert written == ["etc/jupyter/jupyter_server_config.d/ndcg_teach.json",
                       "share/jupyter/lab/settings/overrides.d/ndcg_teach.json"]
    assert json.loads((tmp_path / written[1]).read_text()) == setup.SETTINGS


def test_check_says_what_is_missing_and_fails_until_set_up(tmp_path):
    missing = run_setup("--check", "--prefix", str(tmp_path), cwd=tmp_path)
    assert missing.returncode == 1 and not list(tmp_path.iterdir()), "--check writes nothing"
    assert "server extension ndcg_teach.jupyter.server_extension: not enabled" in missing.stderr
    assert "JupyterLab settings: not in" in missing.stderr
    assert f"python -m ndcg_teach.jupyter.setup --prefix {tmp_path}" in missing.stderr
    assert run_setup("--prefix", str(tmp_path), cwd=tmp_path).returncode == 0
    assert run_setup("--check", "--prefix", str(tmp_path), cwd=tmp_path).returncode == 0


def test_the_settings_file_keeps_other_keys_and_the_users_own_overrides_are_not_touched(tmp_path):
    path = setup.settings_path(tmp_path)
    assert path == tmp_path / "share/jupyter/lab/settings/overrides.d/ndcg_teach.json"
    own = tmp_path / "share/jupyter/lab/settings/overrides.json"
    own.parent.mkdir(parents=True)
    own.write_text(json.dumps({"@jupyterlab/apputils-extension:themes": {"theme": "JupyterLab Dark"}}))
    path.parent.mkdir()
    path.write_text(json.dumps({"@jupyterlab/notebook-extension:tracker": {"lineNumbers": True}}))
    setup.write_settings(tmp_path)
    assert json.loads(own.read_text()) == {"@jupyterlab/apputils-extension:themes": {"theme": "JupyterLab Dark"}}
    written = json.loads(path.read_text())
    assert written["@jupyterlab/notebook-extension:tracker"] == {"lineNumbers": True, "windowingMode": "none"}
    assert written["@jupyterlab/apputils-extension:notification"] == {"fetchNews": "false", "checkForUpdates": False}


def test_the_server_extension_gets_a_drop_in_file_of_its_own_and_other_configuration_is_kept(tmp_path):
    config = tmp_path / "etc" / "jupyter"
    other = config / "jupyter_server_config.d" / "jupyterlab.json"
    other.parent.mkdir(parents=True)
    other.write_text(json.dumps({"ServerApp": {"jpserver_extensions": {"jupyterlab": True}}}))
    (config / "jupyter_server_config.py").write_text("c.ServerApp.open_browser = False\n")
    path = setup.server_config_path(config)
    path.write_text(json.dumps({"ServerApp": {"jpserver_extensions": {"somebody_else": True}, "open_browser": False}}))
    assert setup.main(["--prefix", str(tmp_path)]) == 0
    assert json.loads(path.read_text()) == {
        "ServerApp": {"jpserver_extensions": {"somebody_else": True, "ndcg_teach.jupyter.server_extension": True}, "open_browser": False}
    }
    assert json.loads(other.read_text()) == {"ServerApp": {"jpserver_extensions": {"jupyterlab": True}}}
    assert (config / "jupyter_server_config.py").read_text() == "c.ServerApp.open_browser = False\n"
    written = path.read_text()
    setup.main(["--prefix", str(tmp_path)])
    assert path.read_text() == written, "running it again changes nothing"


def test_the_extensions_path_of_0_1_is_replaced_by_its_path_in_the_jupyter_room(tmp_path):
    # Under both names, a Jupyter server would load the extension twice (the old path still imports, for one release).
    config = tmp_path / "etc" / "jupyter"
    path = setup.server_config_path(config)
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"ServerApp": {"jpserver_extensions": {"ndcg_teach.server_extension": True,
                                                                      "ndcg_teach.jupyter.server_extension": True}}}))
    assert not setup.server_extension_written(config) and setup.main(["--prefix", str(tmp_path), "--check"]) == 1
    assert setup.main(["--prefix", str(tmp_path)]) == 0
    assert json.loads(path.read_text()) == {"ServerApp": {"jpserver_extensions": {setup.SERVER_EXTENSION: True}}}


@pytest.mark.parametrize("broken", ["", "[1, 2]", "{not json"])
def test_a_broken_file_of_ours_is_written_anew(tmp_path, broken):
    for path in (setup.server_config_path(tmp_path / "etc" / "jupyter"), setup.settings_path(tmp_path)):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(broken)
    assert setup.main(["--prefix", str(tmp_path)]) == 0
    assert setup.server_extension_written(tmp_path / "etc" / "jupyter") and setup.settings_written(tmp_path)


def test_tools_lab_setup_runs_the_same_command(tmp_path):
    result = subprocess.run([sys.executable, "tools/lab_setup.py", "--prefix", str(tmp_path)], cwd=ROOT,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert setup.server_extension_written(tmp_path / "etc" / "jupyter") and setup.settings_written(tmp_path)


def test_the_environment_the_tests_run_in_enables_the_extension_as_make_lab_does():
    result = subprocess.run([sys.executable, "-m", "jupyter", "server", "extension", "list"],
                            capture_output=True, text=True, timeout=120)
    listed = re.sub(r"\x1b\[[0-9;]*m", "", result.stdout + result.stderr)
    if "ndcg_teach.jupyter.server_extension" not in listed:
        pytest.skip(f"{sys.prefix} was not set up by `python -m ndcg_teach.jupyter.setup` (make lab does it)")
    lines = [line.strip() for line in listed.splitlines() if line.strip().startswith("ndcg_teach.jupyter.server_extension")]
    assert "enabled" in lines[0] and lines[-1].endswith("OK"), listed


DOCS = [ROOT / "docs" / "install.md", ROOT / "docs" / "install.zh-CN.md"]


@pytest.mark.parametrize("page", DOCS, ids=[page.name for page in DOCS])
def test_the_install_page_links_to_files_that_exist_and_shows_the_route(page):
    text = page.read_text(encoding="utf-8")
    for target in re.findall(r"\]\(([^)#\s]+)\)", text):
        if "://" not in target:
            assert (page.parent / target).exists(), target
    for command in ("python -m ndcg_teach.jupyter.setup\n", "python -m ndcg_teach.jupyter.setup --check", "make lab EDITION=zh-CN",
                    "python -m pip install -r requirements.txt .", "python -m pip wheel --no-deps -w dist ."):
        assert command in text, command


def test_both_editions_of_the_install_page_show_the_same_commands():
    def commands(page):
        blocks = re.findall(r"```(?:sh|dockerfile)\n(.*?)```", page.read_text(encoding="utf-8"), re.S)
        return [re.sub(r"\s+#.*|<[^>]+>|notebooks/\S+", "", line).strip() for block in blocks for line in block.splitlines()]

    english, chinese = (commands(page) for page in DOCS)
    assert english == chinese
