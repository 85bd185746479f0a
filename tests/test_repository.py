"""The repository's promises to learners: Binder gets the same pins, and no stray notebook files are committed."""

import re
import shutil
import subprocess
import sys
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


def test_binder_requirements_are_pins_only_so_the_pip_layer_stays_cached():
    # A `.` line makes repo2docker copy the repository before the pip step, so every commit rebuilt that layer.
    lines = [line.strip() for line in (BINDER / "requirements.txt").read_text().splitlines() if line.strip()]
    assert all(PIN.match(line) or line.startswith("#") for line in lines)


def test_postbuild_installs_the_package_without_dependencies_and_cleans_up():
    commands = [line.strip() for line in (BINDER / "postBuild").read_text().splitlines() if line.strip() and not line.startswith("#")]
    install = next(line for line in commands if "pip install" in line)
    assert "--no-deps" in install and install.endswith(" .")
    assert "rm -rf build ./*.egg-info" in commands
    assert commands.index("rm -rf build ./*.egg-info") > commands.index(install)
    assert "python tools/lab_setup.py" in commands


def test_binder_runs_python_3_12():
    assert (BINDER / "runtime.txt").read_text().strip() == "python-3.12"


def test_postbuild_stops_on_errors():
    lines = (BINDER / "postBuild").read_text().splitlines()
    assert lines[0].startswith("#!")
    assert next(line for line in lines[1:] if line.strip() and not line.startswith("#")) == "set -euo pipefail"
    assert (BINDER / "postBuild").stat().st_mode & 0o111


def test_postbuild_and_make_lab_never_write_a_users_own_settings():
    # The settings go into the environment (<sys.prefix>/share/jupyter/lab/settings/overrides.json), so they
    # reach `make lab` users and a class JupyterHub image as well as Binder, and change nobody's global settings.
    for path in (BINDER / "postBuild", ROOT / "Makefile", ROOT / "tools" / "lab_setup.py"):
        text = path.read_text()
        assert "user-settings" not in text and "JUPYTERLAB_SETTINGS_DIR" not in text and "~/.jupyter" not in text


def test_make_lab_sets_up_jupyterlab_in_the_venv_and_allows_root():
    makefile = (ROOT / "Makefile").read_text()
    learner = makefile.split("$(VENV)/.learner:", 1)[1].split("\n\n", 1)[0]
    assert "$(BIN)/python tools/lab_setup.py" in learner
    assert "ALLOW_ROOT := $(if $(filter 0,$(shell id -u 2>/dev/null)),--allow-root)" in makefile
    lab = makefile.split("\nlab:", 1)[1].split("\n\n", 1)[0]
    assert "$(BIN)/jupyter lab $(ALLOW_ROOT) $(FIRST_LESSON)" in lab


@pytest.mark.skipif(shutil.which("make") is None, reason="make is needed")
@pytest.mark.parametrize("uid, expected", [(0, "--allow-root"), (1000, "")])
def test_allow_root_is_passed_only_to_root(tmp_path, uid, expected):
    # A fake `id` on the PATH stands for the user make runs as.
    fake = tmp_path / "id"
    fake.write_text(f"#!/bin/sh\necho {uid}\n")
    fake.chmod(0o755)
    result = subprocess.run(
        ["make", "-s", "-f", str(ROOT / "Makefile"), "--eval", "show-allow-root: ; @echo [$(ALLOW_ROOT)]", "show-allow-root"],
        env={"PATH": f"{tmp_path}:/usr/bin:/bin"}, capture_output=True, text=True, check=True,
    )
    assert result.stdout.strip() == f"[{expected}]"


def load_lab_setup():
    import importlib.util

    spec = importlib.util.spec_from_file_location("lab_setup", ROOT / "tools" / "lab_setup.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_lab_setup_writes_the_environments_overrides_and_keeps_other_keys(tmp_path):
    import json

    lab_setup = load_lab_setup()
    path = lab_setup.overrides_path(tmp_path)
    assert path == tmp_path / "share/jupyter/lab/settings/overrides.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"@jupyterlab/apputils-extension:themes": {"theme": "JupyterLab Dark"}}))
    lab_setup.write_overrides(tmp_path)
    written = json.loads(path.read_text())
    assert written["@jupyterlab/apputils-extension:themes"] == {"theme": "JupyterLab Dark"}
    assert written["@jupyterlab/apputils-extension:notification"] == {"fetchNews": "false", "checkForUpdates": False}
    assert written["@jupyterlab/notebook-extension:tracker"] == {"windowingMode": "none"}


def test_lab_setup_gives_lessons_the_kernels_language_info(tmp_path):
    # JupyterLab replaces language_info with the kernel's on opening; any difference showed an unsaved mark.
    import nbformat

    lab_setup = load_lab_setup()
    lesson = ROOT / "notebooks" / "00-start-here.ipynb"
    (tmp_path / lesson.name).write_bytes(lesson.read_bytes())
    other = {**nbformat.read(lesson, as_version=4).metadata["language_info"], "version": "3.12.99"}
    assert lab_setup.stamp_language_info(tmp_path, other) == [tmp_path / lesson.name]
    assert nbformat.read(tmp_path / lesson.name, as_version=4).metadata["language_info"] == other
    assert lab_setup.stamp_language_info(tmp_path, other) == [], "a lesson that already matches is not rewritten"
    # In a child process: importing ipykernel here would install its comm manager under the widget tests.
    script = (
        "import json, sys; sys.path.insert(0, 'tools'); import lab_setup; "
        "from ipykernel.ipkernel import IPythonKernel; "
        "print(lab_setup.kernel_language_info() == IPythonKernel.language_info)"
    )
    result = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.stdout.strip() == "True", result.stderr


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


def test_jupyterlab_offers_its_own_menus_in_chinese():
    # The Chinese edition's learners can switch JupyterLab itself to Chinese (Settings > Language).
    from jupyterlab_server.translation_utils import get_language_pack, get_language_packs

    packs, problems = get_language_packs("en")
    assert "zh_CN" in packs and not problems
    messages, problems = get_language_pack("zh_CN")
    assert not problems and messages["jupyterlab"]["Settings"] == ["设置"]
