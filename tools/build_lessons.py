"""Keep the lessons' navigation cells and the contents list of 00-start-here current.

Every lesson (notebooks/NN-slug.ipynb) opens with a navigation cell (previous /
contents / next and an "Open in Binder" badge) and ends with one (previous /
contents / next).  00-start-here holds the contents list in a cell tagged
``contents``.  This script writes all of them from the lessons' titles (their
first ``# `` heading), so nobody edits them by hand and they cannot drift.

Usage (from the repository root)::

    python tools/build_lessons.py            # refresh navigation and contents, strip widget state
    python tools/build_lessons.py --check    # change nothing; exit 1 and say what drifted
    python tools/build_lessons.py --execute  # also re-execute the notebooks first (authors)
    python tools/build_lessons.py --execute 03-ideal-ranking-ndcg.ipynb   # only these
    python tools/build_lessons.py --readme   # print the contents table for README.md

The lesson template, tools/lesson_template.ipynb (kept out of notebooks/ so
that learners do not take it for a lesson), is executed and stripped like the
lessons but gets no navigation.  When README.md holds the
markers ``<!-- lessons:start -->`` and ``<!-- lessons:end -->``, the table
between them is kept current (and checked) like the navigation.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
README = ROOT / "README.md"
TEMPLATE = ROOT / "tools" / "lesson_template.ipynb"

REPOSITORY = "ndcg-teach/ndcg_teach"
"""The GitHub owner/name that Binder builds the course from."""

START = "00-start-here.ipynb"
NAVIGATION_TAG = "navigation"
CONTENTS_TAG = "contents"
GENERATED = "<!-- Written by tools/build_lessons.py: edit the lesson titles, not this cell. -->"
LESSON_NAME = re.compile(r"^(\d\d)-[a-z0-9]+(?:-[a-z0-9]+)*\.ipynb$")
README_START, README_END = "<!-- lessons:start -->", "<!-- lessons:end -->"
KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}


def binder_url(lesson: str) -> str:
    """The Binder link that opens ``lesson`` in JupyterLab."""
    return f"https://mybinder.org/v2/gh/{REPOSITORY}/HEAD?urlpath=lab/tree/notebooks/{lesson}"


def binder_badge(lesson: str) -> str:
    return f"[![Open in Binder](https://mybinder.org/badge_logo.svg)]({binder_url(lesson)})"


def lessons(directory: Path = NOTEBOOKS) -> list[Path]:
    """The lessons in course order: notebooks named NN-slug.ipynb."""
    return sorted(path for path in directory.glob("*.ipynb") if LESSON_NAME.match(path.name))


def notebooks(directory: Path = NOTEBOOKS) -> list[Path]:
    """Every notebook of the course: the lessons, and the template when ``directory`` is the course's own."""
    found = lessons(directory)
    if directory == NOTEBOOKS and TEMPLATE.exists():
        found.append(TEMPLATE)
    return found


def title(notebook: nbformat.NotebookNode, name: str) -> str:
    """The text of the lesson's first ``# `` heading."""
    for cell in notebook.cells:
        if cell.cell_type == "markdown" and NAVIGATION_TAG not in cell.metadata.get("tags", []):
            for line in cell.source.splitlines():
                if line.startswith("# "):
                    return line[2:].strip()
    raise ValueError(f"{name} needs a title: a markdown line starting with '# '. Found none.")


def label(name: str, lesson_title: str) -> str:
    return f"{LESSON_NAME.match(name).group(1)} · {lesson_title}"


def navigation(entries: list[tuple[str, str]], index: int, badge: bool) -> str:
    """Markdown of the navigation cell for the lesson at ``index`` of ``entries`` (name, title)."""
    links = []
    if index > 0:
        links.append(f"[← {label(*entries[index - 1])}]({entries[index - 1][0]})")
    links.append(f"[Contents]({START}#Contents)")
    if index + 1 < len(entries):
        links.append(f"[{label(*entries[index + 1])} →]({entries[index + 1][0]})")
    lines = [GENERATED, " | ".join(links)]
    if badge:
        lines += ["", binder_badge(entries[index][0])]
    return "\n".join(lines)


def contents(entries: list[tuple[str, str]]) -> str:
    """Markdown of the contents cell of 00-start-here."""
    lines = ["## Contents", "", GENERATED]
    lines += [f"- [{label(name, lesson_title)}]({name})" for name, lesson_title in entries]
    return "\n".join(lines)


def readme_table(entries: list[tuple[str, str]]) -> str:
    """The contents table for README.md, each lesson with its Binder link."""
    lines = ["| Lesson | Open |", "|---|---|"]
    lines += [
        f"| [{label(name, lesson_title)}](notebooks/{name}) | [Binder]({binder_url(name)}) |"
        for name, lesson_title in entries
    ]
    return "\n".join(lines)


def readme_with_table(text: str, entries: list[tuple[str, str]]) -> str:
    """``text`` with the contents table between the README markers replaced; unchanged without markers."""
    if README_START not in text or README_END not in text:
        return text
    before, rest = text.split(README_START, 1)
    after = rest.split(README_END, 1)[1]
    return f"{before}{README_START}\n{readme_table(entries)}\n{README_END}{after}"


def _navigation_cell(source: str, cell_id: str) -> nbformat.NotebookNode:
    cell = nbformat.v4.new_markdown_cell(source, metadata={"tags": [NAVIGATION_TAG]})
    cell.id = cell_id
    return cell


def refreshed(notebook: nbformat.NotebookNode, entries: list[tuple[str, str]], index: int | None) -> nbformat.NotebookNode:
    """A copy of ``notebook`` with current navigation (when ``index`` is given), contents and no widget state."""
    notebook = nbformat.from_dict(notebook)
    notebook.metadata.pop("widgets", None)
    notebook.metadata["kernelspec"] = dict(KERNELSPEC)
    if index is None:
        return notebook
    cells = [cell for cell in notebook.cells if NAVIGATION_TAG not in cell.metadata.get("tags", [])]
    name = entries[index][0]
    if name == START:
        tagged = [cell for cell in cells if CONTENTS_TAG in cell.metadata.get("tags", [])]
        if len(tagged) != 1:
            raise ValueError(f"{START} needs exactly one cell tagged {CONTENTS_TAG!r}. Found {len(tagged)}.")
        tagged[0].source = contents(entries)
    top = _navigation_cell(navigation(entries, index, badge=True), "navigation-top")
    bottom = _navigation_cell(navigation(entries, index, badge=False), "navigation-bottom")
    notebook.cells = [top, *cells, bottom]
    return notebook


def _entries(paths: list[Path]) -> list[tuple[str, str]]:
    return [(path.name, title(nbformat.read(path, as_version=4), path.name)) for path in paths]


def _plan(directory: Path) -> list[tuple[Path, nbformat.NotebookNode, nbformat.NotebookNode]]:
    """(path, as saved, as it should be) for every notebook."""
    ordered = lessons(directory)
    entries = _entries(ordered)
    plan = []
    for path in notebooks(directory):
        saved = nbformat.read(path, as_version=4)
        index = ordered.index(path) if path in ordered else None
        plan.append((path, saved, refreshed(saved, entries, index)))
    return plan


def drift(directory: Path = NOTEBOOKS, readme: Path | None = README) -> list[str]:
    """What is out of date, one line per notebook (and README.md); empty when everything is current."""
    problems = []
    if readme is not None and readme.exists():
        text = readme.read_text(encoding="utf-8")
        if readme_with_table(text, _entries(lessons(directory))) != text:
            problems.append(f"{readme.name}: the contents table is out of date")
    for path, saved, wanted in _plan(directory):
        if nbformat.writes(saved) == nbformat.writes(wanted):
            continue
        reasons = []
        if "widgets" in saved.metadata:
            reasons.append("widget state is saved")
        if saved.metadata.get("kernelspec") != wanted.metadata["kernelspec"]:
            reasons.append("the kernelspec is not python3")
        if [cell.source for cell in saved.cells] != [cell.source for cell in wanted.cells] or [
            cell.metadata for cell in saved.cells
        ] != [cell.metadata for cell in wanted.cells]:
            reasons.append("navigation or contents are out of date")
        problems.append(f"{path.name}: {', '.join(reasons) or 'cell ids differ'}")
    return problems


def execute(path: Path) -> nbformat.NotebookNode:
    """Run ``path`` top to bottom in a fresh python3 kernel started in its folder."""
    from nbclient import NotebookClient

    notebook = nbformat.read(path, as_version=4)
    client = NotebookClient(
        notebook,
        timeout=600,
        kernel_name="python3",
        record_timing=False,
        resources={"metadata": {"path": str(path.parent)}},
    )
    client.execute()
    return notebook


def build(directory: Path = NOTEBOOKS, run: list[str] | None = None) -> list[Path]:
    """Execute the notebooks named in ``run`` (all when it is empty), refresh all; return the paths written."""
    if run is not None:
        by_name = {path.name: path for path in notebooks(directory)}
        chosen = notebooks(directory) if not run else [by_name.get(Path(name).name, directory / Path(name).name) for name in run]
        for path in chosen:
            print(f"executing {path.name}", flush=True)
            nbformat.write(execute(path), path)
    written = []
    if README.exists() and directory == NOTEBOOKS:
        text = README.read_text(encoding="utf-8")
        wanted_text = readme_with_table(text, _entries(lessons(directory)))
        if wanted_text != text:
            README.write_text(wanted_text, encoding="utf-8")
            written.append(README)
    for path, saved, wanted in _plan(directory):
        if nbformat.writes(saved) != nbformat.writes(wanted):
            nbformat.write(wanted, path)
            written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 when anything drifted")
    parser.add_argument("--execute", action="store_true", help="re-execute the notebooks before refreshing")
    parser.add_argument("--readme", action="store_true", help="print the contents table for README.md")
    parser.add_argument("notebook", nargs="*", help="with --execute: only these notebooks (file names)")
    args = parser.parse_args(argv)
    if args.readme:
        print(readme_table(_entries(lessons())))
        return 0
    if args.check:
        problems = drift()
        for problem in problems:
            print(problem)
        if problems:
            print("Run `python tools/build_lessons.py` to bring them up to date.")
            return 1
        print(f"{len(notebooks())} notebooks: navigation, contents and metadata are current.")
        return 0
    written = build(run=args.notebook if args.execute else None)
    print(f"refreshed {len(written)} notebook(s)" + "".join(f"\n  {path.name}" for path in written))
    return 0


if __name__ == "__main__":
    sys.exit(main())
