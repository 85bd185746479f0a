"""The course site (tools/course_site.py) in a real browser: every page, offline.

The site is built once into a temporary folder and served from 127.0.0.1;
the browser may fetch nothing from anywhere else (a CDN would show up here).
Every page of both editions is opened, and each must load without an error,
show its pictures (the explorers' static pictures included), have MathJax's
output in place of every formula, link to its twin in the other edition and,
for a lesson, to Binder; every internal link must reach a page (and an
element, for a link with a fragment) that exists.  The search box must find
words in both languages.  A few pages are screenshot wide and narrow, light
and dark, for a person to look at.
"""

import functools
import http.server
import shutil
import threading
from pathlib import Path
from urllib.parse import unquote, urldefrag, urlparse

import build_lessons
import course_site
import nbformat
import pytest
from conftest import missing

pytestmark = pytest.mark.browser
pytest.importorskip("myst_nb", reason="the site's tools (requirements-instructor.txt) need Python 3.11 or newer")

ROOT = Path(__file__).resolve().parents[2]
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
SHOTS = [
    ("en/03-ideal-ranking-ndcg.html", "light"),
    ("en/06-playground.html", "dark"),
    ("zh-CN/03-ideal-ranking-ndcg.html", "dark"),
    ("zh-CN/glossary.html", "light"),
    ("index.html", "light"),
]
# Run in the page once it has loaded: MathJax's typesetting done, then what the page shows.
PAGE_FACTS = """async () => {
    if (window.MathJax && MathJax.startup) { await MathJax.startup.promise; }
    const images = [...document.images];
    const maths = [...document.querySelectorAll(".math")];
    return {
        language: document.documentElement.lang,
        images: images.length,
        broken_images: images.filter((image) => !image.complete || image.naturalWidth === 0).map((image) => image.alt || image.src.slice(0, 80)),
        pictures: document.querySelectorAll(".ndcg-x-static").length,
        picture_images: document.querySelectorAll(".ndcg-x-static img").length,
        maths: maths.length,
        raw_maths: maths.filter((node) => !node.querySelector("mjx-container")).map((node) => node.textContent.slice(0, 60)),
        typeset: document.querySelectorAll("mjx-container").length,
        twin: (document.querySelector("a.ndcg-twin") || {}).href || null,
        binder: (document.querySelector("a.ndcg-run-binder") || {}).href || null,
        links: [...document.querySelectorAll("a[href]")].map((link) => link.href),
        ids: [...document.querySelectorAll("[id]")].map((node) => node.id),
    };
}"""


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *arguments):
        pass


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The built site, served on 127.0.0.1 for as long as the module's tests run."""
    if shutil.which("npm") is None and not (course_site.CACHE / f"mathjax-{course_site.MATHJAX_VERSION}.tgz").exists():
        missing("no npm on PATH to fetch MathJax (Debian: apt-get install npm)")
    tmp = tmp_path_factory.mktemp("site")
    out = course_site.build(tmp / "site", tmp / "stage")
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(out)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield out, f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    thread.join(timeout=10)


# Every address but 127.0.0.1, where the site is served, fails to resolve in this module's browser (conftest.py's
# fixture reads BROWSER_ARGS), so a page loads as it would offline; a request that fails is a problem, one for another
# host named as such. Nothing goes through the test per request: routing every request through it, with a context
# per page, made this module cost 90 CPU s against 78 now.
OFFLINE = "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"
BROWSER_ARGS = (OFFLINE,)


def open_page(context, url):
    """Open ``url`` in a new page of ``context``; (page, facts, problems): what the page shows, and what went wrong."""
    page = context.new_page()
    problems = []
    origin = "{0.scheme}://{0.netloc}".format(urlparse(url))

    def failed(request):
        if request.url.startswith(origin) or request.url.startswith("data:"):
            problems.append(f"failed: {request.url} ({request.failure})")
        else:
            problems.append(f"asked for {request.url}")

    page.on("requestfailed", failed)
    page.on("response", lambda response: response.status >= 400 and problems.append(f"{response.status} {response.url}"))
    page.on("console", lambda message: message.type == "error" and problems.append(f"console: {message.text}"))
    page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
    page.goto(url, wait_until="load")
    return page, page.evaluate(PAGE_FACTS), problems


def visit(browser, url, viewport=(1280, 900), scheme="light"):
    """Open ``url`` in a context of its own: (page, context, facts, problems)."""
    context = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]}, color_scheme=scheme)
    page, facts, problems = open_page(context, url)
    return page, context, facts, problems


def widget_pictures(notebook_path):
    """(explorers, pictures in them) of a lesson: its widget outputs, and the images their static HTML holds."""
    notebook = nbformat.read(notebook_path, as_version=4)
    views = [output["data"] for cell in notebook.cells for output in cell.get("outputs", []) if WIDGET_VIEW in output.get("data", {})]
    return len(views), sum("".join(view["text/html"]).count("<img ") for view in views)


def test_every_page_loads_offline_with_its_pictures_formulas_and_links(browser, site):
    out, base = site
    # The pages; the theme also copies two template fragments into _static, which are not pages.
    pages = sorted(path.relative_to(out).as_posix() for path in out.rglob("*.html") if "_static" not in path.parts)
    lessons = {
        f"{edition.language}/{edition.slug(path.name)}.html": path
        for edition in build_lessons.EDITIONS
        for path in build_lessons.lessons(edition.directory)
    }
    assert set(lessons) <= set(pages)
    seen = {}
    # One context for every page, each page opened and closed in turn.
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        for name in pages:
            page, facts, problems = open_page(context, f"{base}/{name}")
            page.close()
            assert not problems, f"{name}: {problems}"
            assert not facts["broken_images"], f"{name}: pictures that did not load: {facts['broken_images']}"
            assert not facts["raw_maths"], f"{name}: formulas left as TeX: {facts['raw_maths']}"
            seen[name] = facts
    finally:
        context.close()
    for name, path in lessons.items():
        facts, edition = seen[name], name.split("/")[0]
        assert facts["language"] == ("zh-CN" if edition == "zh-CN" else "en")
        # Every explorer of the lesson shows as its saved picture: the ranking, its numbers and its plots.
        assert (facts["pictures"], facts["picture_images"]) == widget_pictures(path), name
        if "$" in "".join(cell.source for cell in nbformat.read(path, as_version=4).cells if cell.cell_type == "markdown"):
            assert facts["typeset"] > 0 and facts["maths"] > 0, f"{name}: its formulas were not typeset"
        assert facts["binder"] == build_lessons.binder_url(path.name, build_lessons.EDITIONS[edition == "zh-CN"]), name
        twin = urlparse(facts["twin"]).path.lstrip("/")
        assert twin in seen and twin.split("/")[0] != edition and Path(twin).name[:2] == path.name[:2], f"{name} -> {twin}"
    for name, facts in seen.items():
        assert facts["twin"] is None or urlparse(facts["twin"]).path.lstrip("/") in seen, name
        for link in facts["links"]:
            if not link.startswith(base):
                continue
            target, fragment = urldefrag(link)
            path = urlparse(target).path.lstrip("/") or "index.html"
            path = f"{path}index.html" if path.endswith("/") else path
            assert (out / path).is_file(), f"{name} links to {link}, which does not exist"
            if fragment and path in seen:
                assert unquote(fragment) in seen[path]["ids"], f"{name} links to {link}, which has no #{fragment}"


@pytest.mark.parametrize(("edition", "word"), [("en", "discount"), ("zh-CN", "折损")])
def test_the_search_box_finds_a_word_offline(browser, site, edition, word):
    out, base = site
    page, context, _, problems = visit(browser, f"{base}/{edition}/search.html?q={word}")
    try:
        results = page.locator("#search-results ul.search li")
        results.first.wait_for(timeout=30_000)
        assert results.count() >= 3
        assert not problems
    finally:
        context.close()


@pytest.mark.parametrize(("name", "scheme"), SHOTS)
def test_pages_look_right_wide_and_narrow(browser, site, screenshots, name, scheme):
    out, base = site
    for width, height in ((1280, 900), (390, 844)):
        page, context, facts, problems = visit(browser, f"{base}/{name}", (width, height), scheme)
        try:
            assert not problems
            overflow = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
            assert overflow <= 1, f"{name} is {overflow}px wider than a {width}px window"
            stem = name.replace("/", "-").removesuffix(".html")
            page.screenshot(path=str(screenshots / f"site-{stem}-{width}-{scheme}.png"))
        finally:
            context.close()
