"""`make lab` serves both editions from one root, and every relative link of every lesson opens something in it.

`make lab EDITION=zh-CN` once served notebooks/zh-CN/ alone, so the Chinese
lessons' "English" links resolved to nothing (or to the Chinese file of the
same name). Both editions are served from one root now; here every link of
every lesson, in its markdown and in its outputs, is resolved as the browser
resolves it: relative to the lesson, inside that root, to an existing file,
and to a heading of that file when it names one (JupyterLab's heading ids are
the heading's text with spaces as hyphens).
"""

import os
import re
import shlex
import shutil
import subprocess
from pathlib import Path
from urllib.parse import unquote

import build_lessons
import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
LESSONS = [path for edition in build_lessons.EDITIONS for path in build_lessons.lessons(edition.directory)]
MARKDOWN_LINK = re.compile(r"\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
HTML_LINK = re.compile(r"""(?:href|src)\s*=\s*["']([^"']+)["']""")


def make(*arguments):
    """Run make in the repository as a learner would (not as a sub-make of `make test`, which prints directories)."""
    if shutil.which("make") is None:
        pytest.skip("make is needed to read what `make lab` runs")
    env = {key: value for key, value in os.environ.items() if key not in {"MAKEFLAGS", "MAKELEVEL", "MFLAGS"}}
    return subprocess.run(["make", *arguments], cwd=ROOT, env=env, capture_output=True, text=True)


def lab_command(*variables):
    """The command `make lab` runs (its .venv taken as made), split into words."""
    result = make("-n", "-s", "-o", ".venv/.learner", "lab", *variables)
    assert result.returncode == 0, result.stderr
    return shlex.split(result.stdout.strip().splitlines()[-1])


def served_root(edition="en"):
    """The folder `make lab EDITION=...` serves (its --notebook-dir)."""
    words = lab_command(f"EDITION={edition}")
    return ROOT / next(word.split("=", 1)[1] for word in words if word.startswith("--notebook-dir="))


def test_both_editions_are_served_from_one_root_and_differ_only_in_the_first_lesson():
    english, chinese = lab_command(), lab_command("EDITION=zh-CN")
    assert english[:-1] == chinese[:-1] and "--notebook-dir=notebooks" in english
    assert (english[-1], chinese[-1]) == ("notebooks/00-start-here.ipynb", "notebooks/zh-CN/00-start-here.zh-CN.ipynb")
    assert (ROOT / english[-1]).is_file() and (ROOT / chinese[-1]).is_file()


def test_an_unknown_edition_is_refused_before_anything_is_built():
    result = make("-n", "lab", "EDITION=zh")
    assert result.returncode != 0 and result.stdout == ""
    assert "EDITION must be en or zh-CN. Got 'zh' instead." in result.stderr


def links(notebook):
    """Every link target in the notebook's markdown cells and in its outputs' HTML and markdown."""
    texts = [cell.source for cell in notebook.cells if cell.cell_type == "markdown"]
    for cell in notebook.cells:
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            texts += [data.get("text/html", ""), data.get("text/markdown", "")]
    return [target for text in texts for pattern in (MARKDOWN_LINK, HTML_LINK) for target in pattern.findall(text)]


def heading_ids(path):
    """The anchors JupyterLab gives the headings of a notebook's markdown cells."""
    ids = set()
    for cell in nbformat.read(path, as_version=4).cells:
        if cell.cell_type == "markdown":
            for line in cell.source.splitlines():
                heading = re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
                if heading:
                    text = re.sub(r"[`*_]|\[([^\]]*)\]\([^)]*\)", r"\1", heading.group(1))
                    ids.add(text.replace(" ", "-"))
    return ids


def test_both_editions_are_in_the_tree_either_edition_serves():
    root = served_root()
    assert root == served_root("zh-CN") == ROOT / "notebooks"
    assert all(root in path.parents for path in LESSONS)
    assert {path.parent.name for path in LESSONS} == {"notebooks", "zh-CN"}


@pytest.mark.parametrize("path", LESSONS, ids=[path.relative_to(ROOT).as_posix() for path in LESSONS])
def test_every_relative_link_of_a_lesson_opens_a_file_of_the_served_tree(path):
    root = served_root().resolve()
    found, broken = 0, []
    for target in links(nbformat.read(path, as_version=4)):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I) or target.startswith("#"):
            continue  # https:, mailto:, data: and links within the lesson
        found += 1
        file, _, fragment = unquote(target).partition("#")
        resolved = (path.parent / file).resolve()
        if root not in resolved.parents or not resolved.is_file():
            broken.append(f"{target}: no such file in the served tree")
        elif fragment and resolved.suffix == ".ipynb" and fragment not in heading_ids(resolved):
            broken.append(f"{target}: {resolved.name} has no heading #{fragment}")
    assert found, "every lesson links to its neighbours and its twin"
    assert broken == []
