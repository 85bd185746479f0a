"""The install route of docs/install.md, as a newcomer or an instructor's image takes it: the wheel and the pins in a
new environment outside the clone, ``python -m ndcg_teach.jupyter.setup``, then a lesson run, saved and reopened.

Before, a course installed with pip reopened saved lessons with four "Error displaying widget: model not found":
nothing enabled the server extension outside the clone. The wheel now carries its Jupyter server configuration
(``etc/jupyter/jupyter_server_config.d/ndcg_teach.json``), so the install alone enables it. Everything runs from a
temporary folder (tools/wheel_route.py); pip finds the pins in its cache where it has them.
"""

import json
import re
import shutil
import subprocess
import time
import urllib.request

import build_lessons
import pytest
import wheel_route
from jupyter_harness import JupyterServer
from test_lessons_survive_browser import ERROR, LIVE, PICTURE, PLAYGROUND, reopen, run_and_save, widget_outputs

from ndcg_teach.jupyter.setup import SERVER_EXTENSION, SETTINGS


def run(python, *arguments, cwd):
    return subprocess.run([str(python), *arguments], cwd=cwd, env=wheel_route._variables(), capture_output=True, text=True,
                          timeout=300)


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """The environment made from the wheel, and what it said before and after ``python -m ndcg_teach.jupyter.setup``."""
    folder = tmp_path_factory.mktemp("wheel-route")
    start = time.perf_counter()
    wheel = wheel_route.build_wheel(folder)
    python = wheel_route.make_environment(folder / "env", wheel, cwd=folder)
    seconds = time.perf_counter() - start
    listed = run(python, "-m", "jupyter", "server", "extension", "list", cwd=folder)
    before = run(python, "-m", "ndcg_teach.jupyter.setup", "--check", cwd=folder)
    setup = run(python, "-m", "ndcg_teach.jupyter.setup", cwd=folder)
    after = run(python, "-m", "ndcg_teach.jupyter.setup", "--check", cwd=folder)
    print(f"\nwheel route: {wheel.name} {wheel.stat().st_size:,} bytes; built and installed in {seconds:.0f} s")
    return {"python": python, "folder": folder, "wheel": wheel, "listed": listed, "before": before, "setup": setup,
            "after": after}


def test_the_install_alone_enables_the_server_extension(installed):
    listed = re.sub(r"\x1b\[[0-9;]*m", "", installed["listed"].stdout + installed["listed"].stderr)
    lines = [line.strip() for line in listed.splitlines() if line.strip().startswith(SERVER_EXTENSION)]
    assert lines and "enabled" in lines[0] and lines[-1].endswith("OK"), listed


def test_the_setup_command_adds_the_settings_in_the_environment_and_then_checks_clean(installed):
    before = installed["before"]
    assert before.returncode == 1 and "JupyterLab settings: not in" in before.stderr
    assert "server extension" not in before.stderr, "the install had enabled it"
    assert installed["setup"].returncode == 0, installed["setup"].stderr
    assert installed["after"].returncode == 0, installed["after"].stderr
    environment = installed["folder"] / "env"
    written = json.loads((environment / "share/jupyter/lab/settings/overrides.d/ndcg_teach.json").read_text())
    assert written == SETTINGS


def test_the_trec_eval_command_runs_from_the_wheel(installed):
    qrels, run_file = (run(installed["python"], "-c", f"import ndcg_teach as nt; print(nt.example_files()[{i}])",
                           cwd=installed["folder"]).stdout.strip() for i in (0, 1))
    result = run(installed["python"], "-m", "ndcg_teach", qrels, run_file, "-m", "ndcg_cut.10", cwd=installed["folder"])
    assert result.returncode == 0 and result.stdout.startswith("ndcg_cut_10"), result.stderr


def settings_default(server, plugin, key):
    """The default JupyterLab serves for a setting (the schema's, or an environment's override of it)."""
    url = f"{server.base_url}/lab/api/settings/{plugin}?token={server.token}"
    with urllib.request.urlopen(url, timeout=30) as response:
        return json.loads(response.read())["schema"]["properties"][key]["default"]


@pytest.mark.browser
def test_a_lesson_run_saved_and_reopened_in_the_installed_course_shows_pictures_then_runs_live(installed, browser, screenshots):
    name = build_lessons.EN.file(PLAYGROUND)
    # course_extension=None: the server as the environment configures it, nothing added by the harness.
    with JupyterServer("lab", course_extension=None, python=installed["python"]) as server:
        assert settings_default(server, "@jupyterlab/apputils-extension:notification", "fetchNews") == "false"
        shutil.copy(build_lessons.EN.directory / name, server.root / name)
        saved = run_and_save(browser, server, name, "save", screenshots, "wheel")
        assert widget_outputs(saved) == (0, 4), "saved with each explorer's picture"
        page, lesson = reopen(browser, server, name)
        try:
            assert page.locator(PICTURE).count() == 4
            assert page.get_by_text(ERROR).count() == 0
            lesson.run_all()  # a new kernel
            page.locator(LIVE).nth(3).wait_for(timeout=120_000)
            assert page.get_by_text(ERROR).count() == 0
            page.screenshot(path=str(screenshots / "wheel-3-ran-again.png"))
        finally:
            page.close()
        assert "ndcg_teach.jupyter.server_extension | extension was successfully loaded" in server.log_text()
