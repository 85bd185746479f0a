"""The course site's sources (tools/course_site.py, tools/site_pages.py), without building it.

tests/browser/test_site.py builds the site and opens every page; these check
what goes into it: the staged lessons and docs pages, the links to twins and to
where a lesson runs, the glossary and the index.
"""

import argparse
import json
import re
from urllib.parse import parse_qs, urlparse

import nbformat
import pytest

from ndcg_teach.glossary import TERMS

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
        "urlpath": ["lab/tree/ndcg_teach/notebooks/zh-CN/03-x.ipynb"],
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
