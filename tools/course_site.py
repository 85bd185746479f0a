"""Build the course site: both editions as static HTML from the lessons' stored outputs (``make site``).

Sphinx with myst-nb and sphinx-book-theme (configured in site/conf.py)
renders every lesson as it was last executed: nothing runs a kernel.  The
explorers appear as the static pictures their outputs carry; formulas are
typeset by MathJax, taken from npm's ``mathjax`` package (checked against the
registry's SHA-512 and kept in build/cache) and copied into the build, so the
site needs no CDN and works offline, search included.

Each edition (``en/`` and ``zh-CN/``) has the lessons, a glossary built from
``ndcg_teach.course.glossary`` and the pages of docs/ in its language (tools/site_docs.py); every page links
to its twin in the other edition, and every lesson to where it runs: Binder,
and the class hub's nbgitpuller link when ``--hub-url`` is given.
``index.html`` at the top lets a reader choose the edition.

Usage (from the repository root)::

    python tools/course_site.py                                        # build/site
    python tools/course_site.py --hub-url https://hub.example.edu      # with each lesson's class-hub link
    python tools/course_site.py --out DIR --repo-url https://github.com/me/fork --branch main
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import time
from pathlib import Path
from urllib.parse import urlsplit

import nbformat

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "hub"))

from build_lessons import EDITIONS, NAVIGATION_TAG, REPOSITORY, ROOT, Edition, binder_url, lessons, twin_edition  # noqa: E402
import site_docs  # noqa: E402
from site_pages import TEXTS, glossary_page, index_page, landing_page  # noqa: E402

import settings as hub_settings  # noqa: E402 (hub/settings.py: the class hub's own nbgitpuller link)

OUT = ROOT / "build" / "site"
STAGE = ROOT / "build" / "site-src"
CACHE = ROOT / "build" / "cache"
CONFIG = ROOT / "site"
MATHJAX_VERSION = "3.2.2"
MATHJAX_INTEGRITY = "sha512-Bt+SSVU8eBG27zChVewOicYs7Xsdt40qm4+UpHyX7k0/O9NliPc+x77k1/FEsPsjKPZGJvtRZM1vO+geW0OhGw=="
# What the site needs of MathJax's es5 build: TeX in, HTML-CSS out, the menu and the extensions TeX loads on demand.
MATHJAX_PARTS = ("tex-chtml.js", "input/tex/extensions", "output/chtml", "ui", "a11y")
# A markdown link to a lesson file, ``[text](<folder>NN-slug<suffix>.ipynb#fragment)``.
LESSON_LINK = r"\[(?P<text>[^\]]+)\]\({folder}(?P<file>\d\d-[^)#\s/]*\.ipynb)(?:#[^)\s]*)?\)"


def mathjax(stage: Path) -> Path:
    """MathJax's files in ``stage/_mathjax/mathjax``, from npm's tarball (fetched once, then read from build/cache)."""
    tarball = CACHE / f"mathjax-{MATHJAX_VERSION}.tgz"
    if not tarball.exists():
        if shutil.which("npm") is None:
            raise SystemExit("The site needs npm to fetch MathJax once (Debian: apt-get install npm). Found no npm on PATH.")
        CACHE.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            ["npm", "pack", f"mathjax@{MATHJAX_VERSION}", "--silent", "--pack-destination", str(CACHE)],
            check=True, stdout=subprocess.DEVNULL,
        )
    digest = "sha512-" + base64.b64encode(hashlib.sha512(tarball.read_bytes()).digest()).decode()
    if digest != MATHJAX_INTEGRITY:
        tarball.unlink()
        raise SystemExit(f"{tarball.name} must match the registry's {MATHJAX_INTEGRITY}. Got {digest} instead; removed it.")
    target = stage / "_mathjax" / "mathjax"
    shutil.rmtree(target, ignore_errors=True)
    prefixes = tuple(f"package/es5/{part}" for part in MATHJAX_PARTS)
    with tarfile.open(tarball) as archive:
        for member in archive.getmembers():
            if member.isfile() and member.name.startswith(prefixes):
                destination = target / member.name.removeprefix("package/es5/")
                destination.parent.mkdir(parents=True, exist_ok=True)
                destination.write_bytes(archive.extractfile(member).read())
    return target.parent


def hub_address(text: str) -> str:
    """``text`` if it is an http(s) address with a host: the only kind of hub URL the site writes into its pages."""
    parts = urlsplit(text)
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        raise ValueError(f"--hub-url must be the class hub's http:// or https:// address, such as https://hub.example.edu. Got {text!r} instead.")
    return text


def hub_link(hub: str, repo: str, branch: str | None, path: str) -> str:
    """nbgitpuller's link that clones (or updates) ``repo`` on the class hub and opens ``path`` of it in JupyterLab:
    the class hub's own link (hub/settings.py), on the hub at ``hub``."""
    return f"{hub_address(hub).rstrip('/')}/hub/user-redirect{hub_settings.pull_path(repo, branch, path)}"


def page(edition: Edition, path: Path) -> str:
    """A lesson's page name: its ``NN-slug``, the same in both editions (so zh-CN/03-….html is 03's twin)."""
    return edition.slug(path.name)


def staged_lesson(path: Path, edition: Edition) -> nbformat.NotebookNode:
    """The lesson without its navigation cells (the site has its own), its links made to fit the site's pages.

    A link to a lesson of the same edition names the page's source (``NN-slug.ipynb``), which Sphinx resolves;
    a link to the other edition, outside this edition's build, becomes plain HTML to the twin page.
    """
    notebook = nbformat.read(path, as_version=4)
    notebook.cells = [cell for cell in notebook.cells if NAVIGATION_TAG not in cell.metadata.get("tags", [])]
    twin = twin_edition(edition)
    to_twin = re.compile(LESSON_LINK.format(folder=re.escape(edition.to_twin)))
    same = re.compile(LESSON_LINK.format(folder=""))

    def plain(match: re.Match) -> str:
        return f'<a href="../{twin.language}/{twin.slug(match["file"]) or "index"}.html">{match["text"]}</a>'

    def staged(match: re.Match) -> str:
        slug = edition.slug(match["file"])
        return f"[{match['text']}]({slug}.ipynb)" if slug else match[0]

    for cell in notebook.cells:
        if cell.cell_type == "markdown":
            cell.source = same.sub(staged, to_twin.sub(plain, cell.source))
    return notebook


def stage_edition(stage: Path, edition: Edition, args: argparse.Namespace, mathjax_dir: Path) -> tuple[Path, Path]:
    """Write ``edition``'s pages and settings under ``stage``; return (source folder, settings file)."""
    source = stage / edition.language
    shutil.rmtree(source, ignore_errors=True)
    source.mkdir(parents=True)
    texts, twin = TEXTS[edition.language], twin_edition(edition)
    paths = lessons(edition.directory)
    for path in paths:
        nbformat.write(staged_lesson(path, edition), source / f"{page(edition, path)}.ipynb")
    pages = [page(edition, path) for path in paths]
    docs = site_docs.stage_docs(source, edition, args.branch)
    (source / "index.md").write_text(index_page(texts, pages, binder_url(paths[0].name, edition), docs), encoding="utf-8")
    (source / "glossary.md").write_text(glossary_page(edition.language), encoding="utf-8")
    twin_pages = {page(twin, path) for path in lessons(twin.directory)} | set(site_docs.pages(twin))
    twins = {name: name if name in twin_pages else "index" for name in [*pages, *docs]}
    twins.update({name: name for name in ("index", "glossary")})
    run = {}
    for path in paths:
        links = {"binder": binder_url(path.name, edition)}
        if args.hub_url:
            links["hub"] = hub_link(args.hub_url, args.repo_url, args.branch, f"notebooks/{edition.folder}{path.name}")
        run[page(edition, path)] = links
    settings = {
        "project": texts["project"],
        "sphinx_language": texts["sphinx_language"],
        "labels": texts["labels"],
        "twin_root": f"../{twin.language}/",
        "twin_language": twin.language,
        "twins": twins,
        "run": run,
        "mathjax_dir": str(mathjax_dir),
    }
    settings_file = stage / f"{edition.language}.json"
    settings_file.write_text(json.dumps(settings, ensure_ascii=False, indent=1), encoding="utf-8")
    return source, settings_file


def build(out: Path = OUT, stage: Path = STAGE, hub_url: str | None = None, repo_url: str | None = None, branch: str | None = None) -> Path:
    """Build both editions into ``out`` (its old contents are replaced); return ``out``."""
    args = argparse.Namespace(hub_url=hub_url, repo_url=repo_url or f"https://github.com/{REPOSITORY}", branch=branch)
    stage.mkdir(parents=True, exist_ok=True)
    mathjax_dir = mathjax(stage)
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    builds = []
    for edition in EDITIONS:
        shutil.rmtree(stage / f"{edition.language}-html", ignore_errors=True)
        source, settings = stage_edition(stage, edition, args, mathjax_dir)
        # Sphinx writes into the stage: myst-nb puts its jupyter_execute folder beside the output, one per edition.
        command = [
            sys.executable, "-m", "sphinx", "-b", "html", "-q", "-W", "--keep-going", "-c", str(CONFIG),
            "-d", str(stage / f"{edition.language}-doctrees"), str(source), str(stage / f"{edition.language}-html" / "html"),
        ]
        environment = {**os.environ, "NDCG_SITE_SETTINGS": str(settings)}
        builds.append((edition, subprocess.Popen(command, env=environment, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)))
    failures = []
    for edition, process in builds:
        output, _ = process.communicate()
        if process.returncode:
            failures.append(f"{edition.language}:\n{output}")
    if failures:
        raise SystemExit("Sphinx failed:\n" + "\n".join(failures))
    for edition in EDITIONS:
        shutil.move(stage / f"{edition.language}-html" / "html", out / edition.language)
    (out / "index.html").write_text(landing_page([(edition.language, TEXTS[edition.language]) for edition in EDITIONS]), encoding="utf-8")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT, help=f"where the site goes (default: {OUT.relative_to(ROOT)})")
    parser.add_argument("--hub-url", help="the class hub, e.g. https://hub.example.edu: adds each lesson's nbgitpuller link")
    parser.add_argument("--repo-url", help=f"the repository the hub pulls (default: https://github.com/{REPOSITORY})")
    parser.add_argument("--branch", help="the branch the hub pulls (default: the repository's default branch)")
    args = parser.parse_args(argv)
    if args.hub_url:
        try:
            hub_address(args.hub_url)
        except ValueError as error:
            parser.error(str(error))
    started = time.perf_counter()
    out = build(args.out, hub_url=args.hub_url, repo_url=args.repo_url, branch=args.branch)
    pages = sum(1 for _ in out.rglob("*.html"))
    print(f"{pages} pages in {out} ({time.perf_counter() - started:.1f} s); open {out / 'index.html'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
