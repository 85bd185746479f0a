"""The repository's promises to learners: Binder gets the same pins, and no stray notebook files are committed."""

import re
import shutil
import subprocess
from pathlib import Path

import build_lessons
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


@pytest.mark.parametrize("path", [BINDER / "requirements.txt", ROOT / "requirements.txt"], ids=["binder", "learner"])
def test_requirements_are_pins_only(path):
    # Binder: a `.` line makes repo2docker copy the repository before the pip step, so every commit rebuilt that layer.
    # The learner's: its `-e .` resolved against the folder pip ran in, so the file failed from any other folder.
    lines = [line.strip() for line in path.read_text().splitlines() if line.strip()]
    assert all(PIN.match(line) or line.startswith("#") for line in lines)


def test_postbuild_installs_the_package_without_dependencies_and_cleans_up():
    commands = [line.strip() for line in (BINDER / "postBuild").read_text().splitlines() if line.strip() and not line.startswith("#")]
    install = next(line for line in commands if "pip install" in line)
    assert "--no-deps" in install and install.endswith(" .")
    assert "rm -rf build ./*.egg-info" in commands
    assert commands.index("rm -rf build ./*.egg-info") > commands.index(install)
    assert "python -m ndcg_teach.jupyter.setup" in commands


def test_binder_runs_python_3_12():
    assert (BINDER / "runtime.txt").read_text().strip() == "python-3.12"


def test_postbuild_stops_on_errors():
    lines = (BINDER / "postBuild").read_text().splitlines()
    assert lines[0].startswith("#!")
    assert next(line for line in lines[1:] if line.strip() and not line.startswith("#")) == "set -euo pipefail"
    assert (BINDER / "postBuild").stat().st_mode & 0o111


def test_postbuild_and_make_lab_never_write_a_users_own_settings():
    # The settings go into the environment (<sys.prefix>/share/jupyter/lab/settings/overrides.d/ndcg_teach.json), so
    # they reach `make lab` users and a class JupyterHub image as well as Binder, and change nobody's global settings.
    for path in (BINDER / "postBuild", ROOT / "Makefile", ROOT / "ndcg_teach" / "jupyter" / "setup.py"):
        text = path.read_text()
        assert "user-settings" not in text and "JUPYTERLAB_SETTINGS_DIR" not in text and "~/.jupyter" not in text


def test_make_lab_sets_up_jupyterlab_in_the_venv_and_allows_root():
    makefile = (ROOT / "Makefile").read_text()
    learner = makefile.split("$(VENV)/.learner:", 1)[1].split("\n\n", 1)[0]
    # The route of every install (docs/install.md): the pins, the package, then the setup command.
    steps = [line.strip() for line in learner.splitlines()[1:]]
    assert steps[1:4] == ["$(BIN)/python -m pip install --quiet -r requirements.txt",
                          "$(BIN)/python -m pip install --quiet --no-deps -e .", "$(BIN)/python -m ndcg_teach.jupyter.setup"]
    assert "ALLOW_ROOT := $(if $(filter 0,$(shell id -u 2>/dev/null)),--allow-root)" in makefile
    lab = makefile.split("\nlab:", 1)[1].split("\n\n", 1)[0]
    assert "$(BIN)/jupyter lab $(ALLOW_ROOT) --notebook-dir=$(LESSONS) $(FIRST_LESSON)" in lab


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
    # NN-slug.ipynb in notebooks/, NN-slug.zh-CN.ipynb in notebooks/zh-CN/ (twin lessons' tabs differ).
    paths = [ROOT / path for path in tracked_files() if path.startswith("notebooks/")]
    odd = [path for path in paths if not build_lessons.edition_of(path.parent).slug(path.name)]
    assert paths and odd == []
    assert {path.parent.name for path in paths} == {"notebooks", "zh-CN"}


def test_jupyterlab_offers_its_own_menus_in_chinese():
    # The Chinese edition's learners can switch JupyterLab itself to Chinese (Settings > Language).
    from jupyterlab_server.translation_utils import get_language_pack, get_language_packs

    packs, problems = get_language_packs("en")
    assert "zh_CN" in packs and not problems
    messages, problems = get_language_pack("zh_CN")
    assert not problems and messages["jupyterlab"]["Settings"] == ["设置"]


# Every module stays readable at one sitting: the package (its JavaScript and stylesheets included), the tools, the
# hub, the benchmarks and the tests each under 500 lines (issue 20).
SHORT = ("ndcg_teach", "tools", "hub", "benchmarks", "tests")


def long_modules(root):
    files = [path for folder in SHORT for path in (root / folder).rglob("*") if path.suffix in {".py", ".js", ".css"}]
    return sorted(f"{path.relative_to(root)}: {lines} lines" for path in files
                  if "node_modules" not in path.parts and (lines := len(path.read_text(encoding="utf-8").splitlines())) >= 500)


def test_no_module_reaches_500_lines():
    assert long_modules(ROOT) == []


def test_the_length_check_notices_a_long_module(tmp_path):
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "long.py").write_text("x = 1\n" * 500, encoding="utf-8")
    (tmp_path / "tools" / "short.py").write_text("x = 1\n" * 499, encoding="utf-8")
    assert long_modules(tmp_path) == ["tools/long.py: 500 lines"]


def test_make_test_fast_leaves_out_only_paths_that_exist_and_the_testing_guide_names():
    # A renamed test file would silently join the fast suite, and an unlisted one would leave it unannounced.
    import fast_suite

    assert [path for path in fast_suite.LEFT_OUT if not (ROOT / path).exists()] == []
    for guide in ("docs/testing.md", "docs/testing.zh-CN.md"):
        text = (ROOT / guide).read_text(encoding="utf-8")
        assert [path for path in fast_suite.LEFT_OUT if f"`{path}`" not in text] == [], guide
    assert "\ntest-fast: $(VENV)/.dev\n\t$(BIN)/python -m pytest --fast -n auto\n" in (ROOT / "Makefile").read_text()
