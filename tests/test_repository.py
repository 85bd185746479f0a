"""The repository's promises to learners: Binder gets the same pins, and no stray notebook files are committed."""

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BINDER = ROOT / "binder"
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;]+)\s*(;.*)?$")


def pins(path):
    """{normalised name: (version, marker)} of the ``name==version`` lines of a requirements file."""
    found = {}
    for line in path.read_text().splitlines():
        match = PIN.match(line.strip())
        if match:
            name = re.sub(r"[-_.]+", "-", match.group(1)).lower()
            found[name] = (match.group(2), (match.group(3) or "").strip())
    return found


def test_binder_pins_what_requirements_txt_pins():
    learner, binder = pins(ROOT / "requirements.txt"), pins(BINDER / "requirements.txt")
    assert learner, "requirements.txt pins nothing"
    assert binder == learner


def test_binder_pins_every_package_of_the_widget_protocol():
    assert {"jupyterlab", "notebook", "ipywidgets", "jupyterlab-widgets", "anywidget"} <= set(
        pins(BINDER / "requirements.txt")
    )


def test_binder_requirements_end_by_installing_the_repository():
    lines = [line.strip() for line in (BINDER / "requirements.txt").read_text().splitlines() if line.strip()]
    assert lines[-1] == "."
    assert all(PIN.match(line) or line.startswith("#") for line in lines[:-1])


def test_binder_runs_python_3_12():
    assert (BINDER / "runtime.txt").read_text().strip() == "python-3.12"


def test_postbuild_stops_on_errors_and_writes_the_two_settings():
    script = (BINDER / "postBuild").read_text()
    lines = script.splitlines()
    assert lines[0].startswith("#!")
    assert next(line for line in lines[1:] if line.strip() and not line.startswith("#")) == "set -euo pipefail"
    assert '"fetchNews": "false"' in script
    assert '"windowingMode": "none"' in script
    assert (BINDER / "postBuild").stat().st_mode & 0o111


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is needed to run postBuild")
def test_postbuild_writes_settings_jupyterlab_can_read(tmp_path):
    import json

    subprocess.run(
        ["bash", str(BINDER / "postBuild")],
        env={"HOME": str(tmp_path), "PATH": "/usr/bin:/bin", "JUPYTERLAB_SETTINGS_DIR": str(tmp_path / "settings")},
        check=True,
    )
    notification = tmp_path / "settings/@jupyterlab/apputils-extension/notification.jupyterlab-settings"
    tracker = tmp_path / "settings/@jupyterlab/notebook-extension/tracker.jupyterlab-settings"
    assert json.loads(notification.read_text()) == {"fetchNews": "false"}
    assert json.loads(tracker.read_text()) == {"windowingMode": "none"}


def tracked_files():
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git work tree")
    result = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True)
    return result.stdout.splitlines()


def test_no_untitled_notebooks_or_checkpoints_are_committed():
    stray = [
        path
        for path in tracked_files()
        if Path(path).name.lower().startswith("untitled") or ".ipynb_checkpoints" in Path(path).parts
    ]
    assert stray == []


def test_notebooks_folder_holds_only_lessons():
    names = [Path(path).name for path in tracked_files() if path.startswith("notebooks/")]
    odd = [name for name in names if not re.match(r"^\d\d-[a-z0-9-]+\.ipynb$", name)]
    assert odd == []
