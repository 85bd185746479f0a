"""The pages of docs/ on the course site (used by tools/course_site.py): which go into an edition, and their links.

Each page of docs/ is written for GitHub, where it sits beside the repository: its links name other pages
(``reference.md``), pictures (``images/explorer.png``), lessons (``../notebooks/08-....ipynb``) and files of the
repository (``../CONTRIBUTING.md``). On the site an edition holds its own language's pages, each staged under the
English page's name (``reference.md``, whichever the edition), so that a page and its twin share a name as the
lessons do. A link to a page or a lesson of the edition names its staged page, which Sphinx resolves (and checks,
fragment included); a picture stays where it is, copied beside the pages; anything else becomes a link to the file
on GitHub, since the site does not carry it.
"""

from __future__ import annotations

import re
from pathlib import Path

from build_lessons import REPOSITORY, ROOT, Edition, lessons

DOCS = ROOT / "docs"
IMAGES = "images"
# The order of the pages in an edition's table of contents; a page not named here comes after these, by name.
ORDER = ("course", "reference", "conventions", "explorer", "trec_eval", "install", "instructors", "testing", "design",
         "benchmarks")
# A markdown link's target (not an image's alt text or a link's text: those may hold anything but "](").
LINK = re.compile(r"(?<=\]\()(?P<target>[^)\s#]*)(?P<fragment>#[^)\s]*)?(?=\))")
FENCE = re.compile(r"^```.*?^```", re.S | re.M)


def source_name(page: str, edition: Edition) -> str:
    """The file of docs/ that holds ``page`` in ``edition``: ``page.md``, or ``page.zh-CN.md``."""
    return f"{page}.md" if edition.language == "en" else f"{page}.{edition.language}.md"


def pages(edition: Edition) -> list[str]:
    """The docs pages ``edition`` has, by their English names (``reference``), in the order of the contents."""
    english = [path.stem for path in DOCS.glob("*.md") if not path.name.endswith(".zh-CN.md")]
    present = [page for page in english if (DOCS / source_name(page, edition)).exists()]
    return sorted(present, key=lambda page: (ORDER.index(page) if page in ORDER else len(ORDER), page))


def github(path: str, fragment: str, branch: str | None) -> str:
    """The address of a file of the repository on GitHub (``blob`` of ``branch``, or of the default branch)."""
    return f"https://github.com/{REPOSITORY}/blob/{branch or 'HEAD'}/{path}{fragment}"


def staged_doc(text: str, edition: Edition, branch: str | None = None) -> str:
    """A docs page of ``edition`` with its links made to fit the site (see the module's docstring)."""
    present = set(pages(edition))
    slugs = {path.name: edition.slug(path.name) for path in lessons(edition.directory)}

    def fitted(match: re.Match) -> str:
        target, fragment = match["target"], match["fragment"] or ""
        if not target or re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):
            return match[0]  # a heading of this page, https:, mailto:
        path = (DOCS / target).resolve()
        relative = path.relative_to(ROOT.resolve()).as_posix() if ROOT.resolve() in path.parents else target
        if path.parent == DOCS.resolve() and path.suffix == ".md":
            page = path.name.removesuffix(".md").removesuffix(f".{edition.language}")
            if page in present and path.name == source_name(page, edition):
                return f"{page}.md{fragment}"
        if relative.startswith(f"docs/{IMAGES}/"):
            return match[0]
        if path.parent == edition.directory.resolve() and slugs.get(path.name):
            return f"{slugs[path.name]}.ipynb{fragment}"
        return github(relative, fragment, branch)

    # Code is shown as it is written: only the prose between code blocks has its links changed.
    parts, last = [], 0
    for block in FENCE.finditer(text):
        parts += [LINK.sub(fitted, text[last:block.start()]), block[0]]
        last = block.end()
    return "".join([*parts, LINK.sub(fitted, text[last:])])


def stage_docs(source: Path, edition: Edition, branch: str | None = None) -> list[str]:
    """Write ``edition``'s docs pages (and the pictures they show) into ``source``; return the pages, in order."""
    names = pages(edition)
    for page in names:
        text = (DOCS / source_name(page, edition)).read_text(encoding="utf-8")
        (source / f"{page}.md").write_text(staged_doc(text, edition, branch), encoding="utf-8")
    if (DOCS / IMAGES).is_dir():
        for picture in (DOCS / IMAGES).iterdir():
            (source / IMAGES).mkdir(exist_ok=True)
            (source / IMAGES / picture.name).write_bytes(picture.read_bytes())
    return names
