"""Keep the lessons' navigation cells and the contents list of 00-start-here current.

The course has two editions: English (notebooks/NN-slug.ipynb) and Simplified
Chinese (notebooks/zh-CN/NN-slug.zh-CN.ipynb: the edition in the file name, so
that a learner with both open can tell their tabs apart).  Every lesson opens
with a navigation cell (previous / contents / next, a link to its twin in the
other edition, and an "Open in Binder" link, text rather than the badge image
so that it reads offline too) and ends with one (previous / contents / next /
twin).  Each edition's 00-start-here holds its contents list in a cell tagged
``contents``.  This script writes all of them
from the lessons' titles (their first ``# `` heading), in the edition's
language, so nobody edits them by hand and they cannot drift.  It also writes
the cells of each lesson's questions to think about from their definitions in
ndcg_teach/exercises (tools/lesson_questions.py says how).

Usage (from the repository root)::

    python tools/build_lessons.py            # refresh navigation and contents, strip widget state
    python tools/build_lessons.py --check    # change nothing; exit 1 and say what drifted
    python tools/build_lessons.py --execute  # also re-execute the notebooks first (authors)
    python tools/build_lessons.py --execute 03-ideal-ranking-ndcg.ipynb zh-CN/03-ideal-ranking-ndcg.zh-CN.ipynb   # only these
    python tools/build_lessons.py --readme   # print the contents table for README.md

The lesson template, tools/lesson_template.ipynb (kept out of notebooks/ so
that learners do not take it for a lesson), is executed and stripped like the
lessons but gets no navigation.  When README.md (README.zh-CN.md for the
Chinese edition) holds the markers ``<!-- lessons:start -->`` and
``<!-- lessons:end -->``, the table between them is kept current (and
checked) like the navigation.
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass
from pathlib import Path

import nbformat

sys.path.insert(0, str(Path(__file__).resolve().parent))

import lesson_questions  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
README = ROOT / "README.md"
TEMPLATE = ROOT / "tools" / "lesson_template.ipynb"

REPOSITORY = "ndcg-teach/ndcg_teach"
"""The GitHub owner/name that Binder builds the course from."""

START = "00-start-here"
"""The slug of each edition's first lesson, which holds its contents list."""
NAVIGATION_TAG = "navigation"
CONTENTS_TAG = "contents"
GENERATED = "<!-- Written by tools/build_lessons.py: edit the lesson titles, not this cell. -->"
SLUG = re.compile(r"^\d\d-[a-z0-9]+(?:-[a-z0-9]+)*$")
README_START, README_END = "<!-- lessons:start -->", "<!-- lessons:end -->"
KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}


@dataclass(frozen=True)
class Edition:
    """One language edition of the course: where its lessons are and the words its generated cells use."""

    language: str
    directory: Path
    readme: Path
    folder: str  # the lessons' folder inside notebooks/: "" or "zh-CN/"
    suffix: str  # in a lesson's file name before .ipynb: "" or ".zh-CN"
    to_twin: str  # from a lesson to its twin's folder
    contents: str
    twin: str  # the link text to the twin lesson, in the twin's language
    open_in_binder: str  # the text of the Binder link
    table_headers: tuple[str, str]

    def file(self, slug: str) -> str:
        """The file name of lesson ``slug`` (``NN-slug``) in this edition."""
        return f"{slug}{self.suffix}.ipynb"

    def slug(self, name: str) -> str | None:
        """The ``NN-slug`` of this edition's lesson file ``name``; None when ``name`` is not one."""
        ending = f"{self.suffix}.ipynb"
        slug = name[: -len(ending)] if name.endswith(ending) else ""
        return slug if SLUG.match(slug) else None


EN = Edition("en", NOTEBOOKS, README, "", "", "zh-CN/", "Contents", "中文", "Open in Binder", ("Lesson", "Open"))
ZH = Edition(
    "zh-CN", NOTEBOOKS / "zh-CN", ROOT / "README.zh-CN.md", "zh-CN/", ".zh-CN", "../", "目录", "English", "在 Binder 中打开", ("课程", "打开")
)
EDITIONS = (EN, ZH)
COURSE_ID = {"en": "ndcg-teach", "zh-CN": "ndcg-teach-zh-CN"}
"""nbgrader's course of each edition (tools/assignments.py builds them; the class hub prepares their exchange folders)."""


def twin_edition(edition: Edition) -> Edition:
    """The other edition."""
    return ZH if edition == EN else EN


def twin(name: str, edition: Edition = EN) -> str:
    """The path, relative to the lesson ``name`` of ``edition``, of the same lesson in the other edition."""
    return edition.to_twin + twin_edition(edition).file(edition.slug(name))


def edition_of(directory: Path) -> Edition:
    """The edition whose lessons sit in ``directory`` (a copy elsewhere counts by its folder name)."""
    return ZH if directory.name == ZH.directory.name else EN


def binder_url(lesson: str, edition: Edition = EN) -> str:
    """The Binder link that opens ``lesson`` of ``edition`` in JupyterLab."""
    return f"https://mybinder.org/v2/gh/{REPOSITORY}/HEAD?urlpath=lab/tree/notebooks/{edition.folder}{lesson}"


def binder_link(lesson: str, edition: Edition = EN) -> str:
    """A text link, not the badge image: the image is fetched from mybinder.org and shows broken offline."""
    return f"[{edition.open_in_binder}]({binder_url(lesson, edition)})"


def lessons(directory: Path = NOTEBOOKS) -> list[Path]:
    """The lessons in course order: notebooks named NN-slug.ipynb (NN-slug.zh-CN.ipynb in the Chinese edition)."""
    edition = edition_of(directory)
    return sorted(path for path in directory.glob("*.ipynb") if edition.slug(path.name))


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
    return f"{name[:2]} · {lesson_title}"


def navigation(entries: list[tuple[str, str]], index: int, binder: bool, edition: Edition = EN) -> str:
    """Markdown of the navigation cell for the lesson at ``index`` of ``entries`` (name, title)."""
    links = []
    if index > 0:
        links.append(f"[← {label(*entries[index - 1])}]({entries[index - 1][0]})")
    links.append(f"[{edition.contents}]({edition.file(START)}#{edition.contents})")
    if index + 1 < len(entries):
        links.append(f"[{label(*entries[index + 1])} →]({entries[index + 1][0]})")
    links.append(f"[{edition.twin}]({twin(entries[index][0], edition)})")
    lines = [GENERATED, " | ".join(links)]
    if binder:
        lines += ["", binder_link(entries[index][0], edition)]
    return "\n".join(lines)


def contents(entries: list[tuple[str, str]], edition: Edition = EN) -> str:
    """Markdown of the contents cell of 00-start-here."""
    lines = [f"## {edition.contents}", "", GENERATED]
    lines += [f"- [{label(name, lesson_title)}]({name})" for name, lesson_title in entries]
    return "\n".join(lines)


def readme_table(entries: list[tuple[str, str]], edition: Edition = EN) -> str:
    """The contents table for the edition's README, each lesson with its Binder link."""
    lesson, open_ = edition.table_headers
    lines = [f"| {lesson} | {open_} |", "|---|---|"]
    lines += [
        f"| [{label(name, lesson_title)}](notebooks/{edition.folder}{name}) | [Binder]({binder_url(name, edition)}) |"
        for name, lesson_title in entries
    ]
    return "\n".join(lines)


def readme_with_table(text: str, entries: list[tuple[str, str]], edition: Edition = EN) -> str:
    """``text`` with the contents table between the README markers replaced; unchanged without markers."""
    if README_START not in text or README_END not in text:
        return text
    before, rest = text.split(README_START, 1)
    after = rest.split(README_END, 1)[1]
    return f"{before}{README_START}\n{readme_table(entries, edition)}\n{README_END}{after}"


def _navigation_cell(source: str, cell_id: str) -> nbformat.NotebookNode:
    cell = nbformat.v4.new_markdown_cell(source, metadata={"tags": [NAVIGATION_TAG]})
    cell.id = cell_id
    return cell


def refreshed(
    notebook: nbformat.NotebookNode, entries: list[tuple[str, str]], index: int | None, edition: Edition = EN
) -> nbformat.NotebookNode:
    """A copy of ``notebook`` with current navigation (when ``index`` is given), contents, no widget state and no
    execution timings (JupyterLab records them on every run; kept, they would change a lesson each time it runs)."""
    notebook = nbformat.from_dict(notebook)
    notebook.metadata.pop("widgets", None)
    for cell in notebook.cells:
        cell.metadata.pop("execution", None)
    notebook.metadata["kernelspec"] = dict(KERNELSPEC)
    if index is None:
        return notebook
    cells = [cell for cell in notebook.cells if NAVIGATION_TAG not in cell.metadata.get("tags", [])]
    name = entries[index][0]
    cells = lesson_questions.questions(cells, edition.slug(name), edition.language)
    if name == edition.file(START):
        tagged = [cell for cell in cells if CONTENTS_TAG in cell.metadata.get("tags", [])]
        if len(tagged) != 1:
            raise ValueError(f"{name} needs exactly one cell tagged {CONTENTS_TAG!r}. Found {len(tagged)}.")
        tagged[0].source = contents(entries, edition)
    top = _navigation_cell(navigation(entries, index, binder=True, edition=edition), "navigation-top")
    bottom = _navigation_cell(navigation(entries, index, binder=False, edition=edition), "navigation-bottom")
    notebook.cells = [top, *cells, bottom]
    return notebook


def _entries(paths: list[Path]) -> list[tuple[str, str]]:
    return [(path.name, title(nbformat.read(path, as_version=4), path.name)) for path in paths]


def _plan(directory: Path) -> list[tuple[Path, nbformat.NotebookNode, nbformat.NotebookNode]]:
    """(path, as saved, as it should be) for every notebook."""
    ordered = lessons(directory)
    entries = _entries(ordered)
    edition = edition_of(directory)
    plan = []
    for path in notebooks(directory):
        saved = nbformat.read(path, as_version=4)
        index = ordered.index(path) if path in ordered else None
        plan.append((path, saved, refreshed(saved, entries, index, edition)))
    return plan


def drift(directory: Path = NOTEBOOKS, readme: Path | None = README) -> list[str]:
    """What is out of date in one edition, one line per notebook (and README); empty when everything is current."""
    problems = []
    if readme is not None and readme.exists():
        text = readme.read_text(encoding="utf-8")
        if readme_with_table(text, _entries(lessons(directory)), edition_of(directory)) != text:
            problems.append(f"{readme.name}: the contents table is out of date")
    for path, saved, wanted in _plan(directory):
        if nbformat.writes(saved) == nbformat.writes(wanted):
            continue
        reasons = []
        if "widgets" in saved.metadata:
            reasons.append("widget state is saved")
        if any("execution" in cell.metadata for cell in saved.cells):
            reasons.append("cells carry execution timings")
        if saved.metadata.get("kernelspec") != wanted.metadata["kernelspec"]:
            reasons.append("the kernelspec is not python3")
        untimed = [{key: value for key, value in cell.metadata.items() if key != "execution"} for cell in saved.cells]
        if [cell.source for cell in saved.cells] != [cell.source for cell in wanted.cells] or untimed != [
            cell.metadata for cell in wanted.cells
        ]:
            reasons.append("navigation, contents or questions to think about are out of date")
        problems.append(f"{path.name}: {', '.join(reasons) or 'cell ids differ'}")
    return problems


def drift_all() -> list[str]:
    """:func:`drift` of every edition, each line starting with the edition's folder."""
    return [f"{edition.folder}{problem}" for edition in EDITIONS for problem in drift(edition.directory, edition.readme)]


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


def build(run: list[str] | None = None) -> list[Path]:
    """Execute the notebooks named in ``run`` (all of both editions when it is empty), refresh all; return the paths written.

    Names in ``run`` are relative to notebooks/ (``zh-CN/03-….ipynb`` for a Chinese lesson); the template is
    ``lesson_template.ipynb``.
    """
    if run is not None:
        everything = [path for edition in EDITIONS for path in notebooks(edition.directory)]
        by_name = {("" if path == TEMPLATE else edition_of(path.parent).folder) + path.name: path for path in everything}
        chosen = everything if not run else [by_name.get(name, NOTEBOOKS / name) for name in run]
        for path in chosen:
            print(f"executing {path.relative_to(ROOT)}", flush=True)
            nbformat.write(execute(path), path)
    written = []
    for edition in EDITIONS:
        written += _refresh(edition)
    return written


def _refresh(edition: Edition) -> list[Path]:
    written = []
    if edition.readme.exists():
        text = edition.readme.read_text(encoding="utf-8")
        wanted_text = readme_with_table(text, _entries(lessons(edition.directory)), edition)
        if wanted_text != text:
            edition.readme.write_text(wanted_text, encoding="utf-8")
            written.append(edition.readme)
    for path, saved, wanted in _plan(edition.directory):
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
        problems = drift_all()
        for problem in problems:
            print(problem)
        if problems:
            print("Run `python tools/build_lessons.py` to bring them up to date.")
            return 1
        count = sum(len(notebooks(edition.directory)) for edition in EDITIONS)
        print(f"{count} notebooks: navigation, contents and metadata are current.")
        return 0
    written = build(run=args.notebook if args.execute else None)
    print(f"refreshed {len(written)} file(s)" + "".join(f"\n  {path.relative_to(ROOT)}" for path in written))
    return 0


if __name__ == "__main__":
    sys.exit(main())
