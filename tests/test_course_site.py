"""The course site's sources (tools/course_site.py, tools/site_pages.py), without building it.

tests/browser/test_site.py builds the site and opens every page; these check
what goes into it: the staged lessons and docs pages, the links to twins and to
where a lesson runs, the glossary and the index.
"""

import argparse
import os
import json
import re
from urllib.parse import parse_qs, urlparse

import nbformat
import pytest

from ndcg_teach.course.glossary import TERMS

import course_site
import site_docs
import site_pages
from build_lessons import EDITIONS, NAVIGATION_TAG, binder_url, lessons

EN, ZH = EDITIONS


def test_the_hub_link_is_nbgitpullers_and_opens_the_lesson_in_the_clone():
    link = course_site.hub_link("https://hub.example.edu/", "https://github.com/ndcg-teach/ndcg_teach.git", "main", "notebooks/zh-CN/03-x.ipynb")
    url = urlparse(link)
    assert (url.scheme, url.netloc, url.path) == ("https", "hub.example.edu", "/hub/user-redirect/git-pull")
    assert parse_qs(url.query) == {
        "repo": ["https://github.com/ndcg-teach/ndcg_teach.git"],
        "urlpath": ["lab/tree/ndcg_teach.git/notebooks/zh-CN/03-x.ipynb"],  # nbgitpuller keeps .git in the folder's name
        "branch": ["main"],
    }
    assert "branch" not in parse_qs(urlparse(course_site.hub_link("https://h", "https://g/o/r", None, "n.ipynb")).query)


@pytest.mark.parametrize("edition", EDITIONS, ids=[edition.language for edition in EDITIONS])
def test_a_staged_lesson_drops_its_navigation_and_links_plainly_to_the_other_edition(edition):
    start = next(path for path in lessons(edition.directory) if path.name.startswith("00-"))
    staged = course_site.staged_lesson(start, edition)
    saved = nbformat.read(start, as_version=4)
    assert not [cell for cell in staged.cells if NAVIGATION_TAG in cell.metadata.get("tags", [])]
    assert len(staged.cells) == len(saved.cells) - 2
    other = ZH if edition is EN else EN
    text = "\n".join(cell.source for cell in staged.cells if cell.cell_type == "markdown")
    assert f"]({edition.to_twin}" not in text
    if edition is EN:  # lesson 00 points Chinese readers to their edition
        assert f'<a href="../{other.language}/{edition.slug(start.name)}.html">' in text
    links = re.findall(r"\]\(([^)]+\.ipynb)\)", text)
    # Links to lessons of the same edition name the staged pages, NN-slug.ipynb, in both editions.
    assert links and all(re.fullmatch(r"\d\d-[a-z0-9-]+\.ipynb", link) for link in links)


@pytest.mark.parametrize("hub", [None, "https://hub.example.edu"])
def test_each_edition_is_staged_with_its_pages_twins_and_run_links(tmp_path, hub):
    args = argparse.Namespace(hub_url=hub, repo_url="https://github.com/ndcg-teach/ndcg_teach", branch=None)
    for edition in EDITIONS:
        source, settings_file = course_site.stage_edition(tmp_path, edition, args, tmp_path / "_mathjax")
        settings = json.loads(settings_file.read_text(encoding="utf-8"))
        paths = lessons(edition.directory)
        slugs = [edition.slug(path.name) for path in paths]
        assert sorted(path.stem for path in source.glob("*.ipynb")) == slugs
        docs = site_docs.pages(edition)
        assert {"course", "reference", "conventions", "explorer", "instructors", "testing", "design", "benchmarks"} <= set(docs)
        assert {path.name for path in source.glob("*.md")} == {"index.md", "glossary.md", *(f"{name}.md" for name in docs)}
        assert sorted(path.name for path in (source / "images").iterdir()) == ["explorer.png", "explorer.zh-CN.png"]
        index = (source / "index.md").read_text(encoding="utf-8")
        assert index.index(slugs[0]) < index.index(slugs[-1]) < index.index("glossary") < index.index("\ncourse\n")
        assert index.index("\ncourse\n") < index.index("\nreference\n") < index.index("\nbenchmarks\n")
        other = ZH if edition is EN else EN
        assert settings["twin_root"] == f"../{other.language}/"
        for name in docs:
            assert settings["twins"][name] == (name if name in site_docs.pages(other) else "index")
        for path, slug in zip(paths, slugs):
            assert settings["twins"][slug] == slug and (other.directory / other.file(slug)).exists()
            run = settings["run"][slug]
            assert run["binder"] == binder_url(path.name, edition)
            if hub:
                assert f"notebooks%2F{edition.folder.replace('/', '%2F')}{path.stem}.ipynb" in run["hub"]
            else:
                assert "hub" not in run


@pytest.mark.parametrize("language", ["en", "zh-CN"])
def test_the_glossary_page_holds_every_term_of_the_library(language):
    page = site_pages.glossary_page(language)
    for term in TERMS:
        assert f"\n{term.chinese if language == 'zh-CN' else term.english}\n   " in page
        assert (term.meaning_zh if language == "zh-CN" else term.meaning) in page
        assert (term.english if language == "zh-CN" else term.chinese) in page


def test_the_landing_page_offers_both_editions_in_their_own_languages():
    page = site_pages.landing_page([(language, site_pages.TEXTS[language]) for language in ("en", "zh-CN")])
    assert 'href="en/index.html" lang="en"' in page and 'href="zh-CN/index.html" lang="zh-CN"' in page


@pytest.mark.parametrize("edition", EDITIONS, ids=[edition.language for edition in EDITIONS])
def test_a_staged_docs_page_links_to_the_sites_pages_and_to_github_for_the_rest(edition):
    chinese = edition.language == "zh-CN"
    lesson = "../notebooks/zh-CN/08-why-libraries-disagree.zh-CN.ipynb" if chinese else "../notebooks/08-why-libraries-disagree.ipynb"
    page = "reference.zh-CN.md" if chinese else "reference.md"
    text = (
        f"[a]({page}#how) [b]({lesson}) [c](../CONTRIBUTING.md) [d](images/explorer.png) [e](#here) [f](https://x.org)\n"
        f"[g](no-such-page.md#x) [h]({'reference.md' if chinese else 'reference.zh-CN.md'})\n"
        f"```python\n[kept](reference.md)\n```\n"
    )
    staged = site_docs.staged_doc(text, edition, branch="main")
    blob = "https://github.com/ndcg-teach/ndcg_teach/blob/main/"
    assert staged == (
        f"[a](reference.md#how) [b](08-why-libraries-disagree.ipynb) [c]({blob}CONTRIBUTING.md) [d](images/explorer.png)"
        f" [e](#here) [f](https://x.org)\n[g]({blob}docs/no-such-page.md#x) [h]({blob}docs/{'reference.md' if chinese else 'reference.zh-CN.md'})\n"
        "```python\n[kept](reference.md)\n```\n"
    )
    # A lesson of the other edition is not in this edition's build: it stays a link to the file.
    other = "../notebooks/08-why-libraries-disagree.ipynb" if chinese else "../notebooks/zh-CN/08-why-libraries-disagree.zh-CN.ipynb"
    assert site_docs.staged_doc(f"[x]({other})", edition) == f"[x](https://github.com/ndcg-teach/ndcg_teach/blob/HEAD/{other[3:]})"


@pytest.mark.parametrize("address", ["javascript:alert(1)", "JavaScript://hub.example.edu/%0aalert(1)", "data:text/html,<script>x</script>",
                                     "hub.example.edu", "ftp://hub.example.edu", "https://", ""])
def test_the_hub_address_must_be_http_or_https_with_a_host(address):
    with pytest.raises(ValueError, match=r"^--hub-url must be the class hub's http:// or https:// address, .* Got .* instead\.$"):
        course_site.hub_link(address, "https://github.com/ndcg-teach/ndcg_teach", None, "notebooks/00-start-here.ipynb")


def test_the_command_refuses_a_javascript_hub_url_before_building_anything(capsys):
    with pytest.raises(SystemExit) as stop:
        course_site.main(["--hub-url", "javascript:alert(document.cookie)", "--out", "/nonexistent/never-built"])
    assert stop.value.code == 2
    assert "--hub-url must be the class hub's http:// or https:// address" in capsys.readouterr().err


HOSTILE = 'https://hub.example.edu/"><script>alert(1)</script><a x="'


def test_a_hostile_hub_url_is_escaped_in_the_page_sphinx_builds(tmp_path):
    """The site's own settings, template and conf.py, with Sphinx, on one page: the hub's link stays inside its href."""
    pytest.importorskip("myst_nb", reason="the site's tools (requirements-instructor.txt) need Python 3.11 or newer")
    import subprocess
    import sys

    args = argparse.Namespace(hub_url=HOSTILE, repo_url="https://github.com/ndcg-teach/ndcg_teach", branch="main")
    (tmp_path / "_mathjax").mkdir()
    source, settings_file = course_site.stage_edition(tmp_path, EN, args, tmp_path / "_mathjax")
    settings = json.loads(settings_file.read_text(encoding="utf-8"))
    first = next(iter(settings["run"]))
    page = tmp_path / "one"
    page.mkdir()
    (page / f"{first}.md").write_text("# One lesson\n\nText.\n", encoding="utf-8")
    (page / "index.md").write_text(f"# Index\n\n```{{toctree}}\n{first}\n```\n", encoding="utf-8")
    build = subprocess.run([sys.executable, "-m", "sphinx", "-b", "html", "-q", "-c", str(course_site.CONFIG), str(page), str(tmp_path / "html")],
                           env={**os.environ, "NDCG_SITE_SETTINGS": str(settings_file)}, capture_output=True, text=True)
    assert build.returncode == 0, build.stdout + build.stderr
    html = (tmp_path / "html" / f"{first}.html").read_text(encoding="utf-8")
    assert "<script>alert(1)</script>" not in html and '"><a x="' not in html
    links = re.findall(r'<a class="ndcg-run-link ndcg-run-hub" href="([^"]*)">', html)
    assert len(links) == 1 and links[0].startswith("https://hub.example.edu/&#34;&gt;&lt;script&gt;alert(1)&lt;/script&gt;")
    assert links[0].endswith("/hub/user-redirect/git-pull?repo=https%3A%2F%2Fgithub.com%2Fndcg-teach%2Fndcg_teach&amp;branch=main"
                             f"&amp;urlpath=lab%2Ftree%2Fndcg_teach%2Fnotebooks%2F{first}.ipynb")
