"""The pages of docs/ and the READMEs: links that open, examples that print what they say, figures the code gives.

The READMEs are landing pages; what they used to hold (the reference, the explorers, the course, design notes,
benchmarks, testing) lives in docs/, one page per subject in English and its twin in Chinese (``NAME.zh-CN.md``).
tests/test_readme.py holds the READMEs' own checks; these hold every page to the same standard:

- every relative link opens a file of the repository, and a heading of it when the link names one (as GitHub
  makes a heading's anchor);
- every example followed by "prints" (输出) prints exactly that;
- every figure a page quotes from the code (rows a trace shows, how far ahead the explorer computes, the default
  cards, the number of lessons and documents, the audited documents' numbers) is the code's;
- the pictures of the explorer are real PNGs, small, described by alt text, and show the code the README gives.
"""

import ast
import contextlib
import importlib
import io
import re
import struct
from pathlib import Path

import pytest

import ndcg_teach as nt

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
ENGLISH = sorted(path for path in DOCS.glob("*.md") if not path.name.endswith(".zh-CN.md"))
CHINESE = sorted(DOCS.glob("*.zh-CN.md"))
READMES = [ROOT / "README.md", ROOT / "README.zh-CN.md"]
PAGES = [*READMES, ROOT / "CONTRIBUTING.md", *sorted((ROOT / "hub").glob("README*.md")), *ENGLISH, *CHINESE]
FENCE = re.compile(r"^```.*?^```", re.S | re.M)
LINK = re.compile(r"\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
BLOCK = r"((?:(?!```).)*)"


def name(path):
    return path.relative_to(ROOT).as_posix()


def twin(path):
    """The Chinese page of an English one, and the other way round."""
    if path.name.endswith(".zh-CN.md"):
        return path.with_name(path.name.removesuffix(".zh-CN.md") + ".md")
    return path.with_name(path.name.removesuffix(".md") + ".zh-CN.md")


def text(path):
    return path.read_text(encoding="utf-8")


def anchors(path):
    """The anchors GitHub gives the headings of a markdown file: lower case, punctuation dropped, spaces as hyphens."""
    found = set()
    for line in FENCE.sub("", text(path)).splitlines():
        heading = re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
        if heading:
            words = re.sub(r"`|\*\*|\[([^\]]*)\]\([^)]*\)", r"\1", heading.group(1)).lower()
            anchor = re.sub(r"[^\w\- ]", "", words).replace(" ", "-")
            number, unique = 0, anchor
            while unique in found:
                number += 1
                unique = f"{anchor}-{number}"
            found.add(unique)
    return found


@pytest.mark.parametrize("path", PAGES, ids=name)
def test_every_relative_link_opens_a_file_of_the_repository_and_its_heading(path):
    broken = []
    for target in LINK.findall(FENCE.sub("", text(path))):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):
            continue  # https:, mailto:
        file, _, fragment = target.partition("#")
        resolved = (path.parent / file).resolve() if file else path
        if ROOT not in resolved.parents or not resolved.exists():
            broken.append(f"{target}: no such file in the repository")
        elif fragment and resolved.suffix == ".md" and fragment not in anchors(resolved):
            broken.append(f"{target}: {name(resolved)} has no heading #{fragment}")
    assert broken == [], f"{name(path)} links to what is not there"


def test_every_page_has_its_twin_in_the_other_language():
    assert ENGLISH and [name(path) for path in [*ENGLISH, *CHINESE] if not twin(path).exists()] == []


def english_links(path):
    """The links of ``path`` to an English page of the repository that has a Chinese twin, but for the page's own
    English twin (a language switch)."""
    found = []
    for target in LINK.findall(FENCE.sub("", text(path))):
        file = target.partition("#")[0]
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I) or not file.endswith(".md") or file.endswith(".zh-CN.md"):
            continue
        linked = (path.parent / file).resolve()
        if twin(linked).exists() and linked != twin(path):
            found.append(target)
    return found


def test_a_chinese_page_links_the_chinese_twin_of_a_page():
    assert {name(path): links for path in [READMES[1], *CHINESE] if (links := english_links(path))} == {}


def test_the_check_finds_the_english_links_of_the_english_readme():
    assert "docs/trec_eval.md" in english_links(READMES[0])


@pytest.mark.parametrize("path", [path for path in ENGLISH if twin(path).exists()], ids=name)
def test_twins_have_the_same_sections_and_the_same_examples(path):
    sections = [re.findall(r"^## ", FENCE.sub("", text(page)), re.M) for page in (path, twin(path))]
    assert len(sections[0]) == len(sections[1])
    code = [re.findall(r"```python\n(.*?)```", text(page), re.S) for page in (path, twin(path))]
    assert len(code[0]) == len(code[1])


def examples(path):
    """(code, output) of every example of ``path`` that says what it prints."""
    word = "输出" if path.name.endswith(".zh-CN.md") else "prints"
    return re.findall(rf"```python\n{BLOCK}```\n\n{word}\n\n```text\n{BLOCK}```", text(path), re.S)


@pytest.mark.parametrize("path", [*ENGLISH, *CHINESE], ids=name)
def test_every_example_of_a_page_prints_what_the_page_says(path):
    for code, output in examples(path):
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            exec(compile(code, str(path), "exec"), {})
        assert printed.getvalue() == output
        assert nt.language() == "en", "the example sets the language back"


@pytest.mark.parametrize("page", ["reference", "conventions"])
def test_the_examples_that_left_the_readmes_are_run_where_they_went(page):
    # "Your own metric" and "Why is my number different?" were README examples; their pages still run them.
    for path in (DOCS / f"{page}.md", DOCS / f"{page}.zh-CN.md"):
        assert len(examples(path)) == 1, name(path)
    assert "register_metric" in examples(DOCS / "reference.md")[0][0]
    assert "compare(" in examples(DOCS / "conventions.md")[0][0]


# ---- figures quoted from the code ---------------------------------------------------------------------------------

def test_the_reference_quotes_the_rows_a_long_trace_shows():
    from ndcg_teach.core.table import HEAD_ROWS, TAIL_ROWS

    assert f"first {HEAD_ROWS} and last {TAIL_ROWS} rows" in text(DOCS / "reference.md")
    assert f"前 {HEAD_ROWS} 行和后 {TAIL_ROWS} 行" in text(DOCS / "reference.zh-CN.md")


def test_the_design_notes_quote_how_far_ahead_the_explorer_computes():
    from ndcg_teach.widgets.previews import PREVIEW_ALL_UP_TO, PREVIEW_WINDOW

    english, chinese = text(DOCS / "design.md"), text(DOCS / "design.zh-CN.md")
    assert f"up to {PREVIEW_ALL_UP_TO} items" in english and f"within {PREVIEW_WINDOW} positions" in english
    assert f"不超过 {PREVIEW_ALL_UP_TO} 个条目" in chinese and f"前后 {PREVIEW_WINDOW} 个位置" in chinese


def test_the_explorer_pages_name_the_default_cards():
    from ndcg_teach.widgets.panel import DEFAULT_CARDS

    labels = [nt.metric(key).label.format(k="k") for key in DEFAULT_CARDS]
    assert f"{', '.join(labels[:-1])} and {labels[-1]} (" in text(DOCS / "explorer.md")
    assert f"{'、'.join(labels[:-1])} 和 {labels[-1]}（" in text(DOCS / "explorer.zh-CN.md")


NUMBERS = {5: ("five", "五"), 20: ("twenty", "二十"), 21: ("twenty-one", "二十一"), 22: ("twenty-two", "二十二")}


def test_the_counts_in_words_are_the_courses():
    import build_lessons
    from ndcg_teach.course.examples import SOURCES

    lessons = {len(build_lessons.lessons(edition.directory)) for edition in build_lessons.EDITIONS}
    assert len(lessons) == 1, "both editions have the same lessons"
    (english, chinese), (five, wu) = NUMBERS[lessons.pop()], NUMBERS[len(SOURCES)]
    assert f"A course of {english} lessons" in text(READMES[0]) and f"一门{chinese}课的课程" in text(READMES[1])
    assert text(DOCS / "course.md").count(f"{english.capitalize()} lessons") == 1
    assert text(DOCS / "course.zh-CN.md").count(f"{chinese}课，") == 1
    assert f"starts from {five} documents" in text(DOCS / "course.md") and f"{five} source documents" in text(DOCS / "testing.md")
    assert f"{wu}篇" in text(DOCS / "course.zh-CN.md") and f"{wu}篇源文档" in text(DOCS / "testing.zh-CN.md")


@pytest.mark.parametrize("path", [DOCS / "course.md", DOCS / "course.zh-CN.md"], ids=name)
def test_every_number_of_the_documents_table_is_one_the_audit_read_or_computed(path):
    from ndcg_teach.course.examples import audit

    records = audit().disagreements() + audit().agreements()
    rows = [line for line in text(path).splitlines() if line.startswith("| `00")]
    assert [row[3:6] for row in rows] == (["000", "000", "001", "002", "003", "004"] if "zh-CN" in path.name
                                          else ["000", "001", "002", "003", "004"])
    for row in rows:
        source = row[3:6]
        quoted = row.split(" | ")[-1].replace("NumPy 2.0", "NumPy")  # a version, not a figure of the audit
        known = set()
        for record in (record for record in records if record.source.startswith(source)):
            known.add(str(record.published).strip())
            known.update(f"{record.computed:.{digits}f}" for digits in range(1, 17))
        figures = re.findall(r"(?<![\w.])\d+\.\d+", quoted)
        assert [figure for figure in figures if figure not in known] == [], row[:40]


def table_rows(path):
    """(modules, what it holds) of each row of the module table of a reference page."""
    rows = [line for line in text(path).splitlines() if line.startswith("| `ndcg_teach.")]
    return [(re.findall(r"`(ndcg_teach(?:\.\w+)+)`", row.split(" | ")[0]), row.split(" | ", 1)[1]) for row in rows]


@pytest.mark.parametrize("path", [DOCS / "reference.md", DOCS / "reference.zh-CN.md"], ids=name)
def test_every_module_and_name_of_the_reference_table_exists(path):
    rows = table_rows(path)
    assert len(rows) > 30
    missing = []
    for modules, holds in rows:
        found = [importlib.import_module(module) for module in modules]
        places = [*found, nt, *(value for module in found for value in vars(module).values() if isinstance(value, type))]
        for word in re.findall(r"`([A-Za-z_]\w*)(?:\([^`]*\))?`", holds):
            # Python's constants, and trec_eval's `all` line, are words of the table but no names of the package.
            if word not in {"None", "True", "False", "all"} and not any(hasattr(place, word) for place in places):
                missing.append(f"{word} ({', '.join(modules)})")
    assert missing == []


def test_both_reference_tables_list_the_same_modules():
    assert [modules for modules, _ in table_rows(DOCS / "reference.md")] == [
        modules for modules, _ in table_rows(DOCS / "reference.zh-CN.md")]


@pytest.mark.parametrize("path", [DOCS / "benchmarks.md", DOCS / "benchmarks.zh-CN.md"], ids=name)
def test_the_benchmarks_page_lists_every_script(path):
    scripts = sorted(name(script) for script in (ROOT / "benchmarks").glob("*.py"))
    assert scripts and [script for script in scripts if f"`{script}`" not in text(path)] == []


@pytest.mark.parametrize("path", [*READMES, *ENGLISH, *CHINESE], ids=name)
def test_no_page_quotes_a_time_of_day_or_a_measured_timing(path):
    # Figures that belong to one machine on one day (latency tables, "in about ten seconds") are printed by the
    # benchmarks, not typed into the pages.
    prose = re.sub(r"`[^`\n]*`", "", FENCE.sub("", text(path)))  # code (a due date, an option) is not a measurement
    assert re.findall(r"\b\d{1,2}:\d{2}(?:[–-]\d{1,2}:\d{2})? UTC|\d+(?:\.\d+)? ?(?:ms|毫秒)\b|load average \d", prose) == []
    assert re.findall(r"about (?:\w+ )?(?:seconds|minutes)|大约要?[一二三四五六七八九十几\d]+[秒分]", prose) == []


# ---- the pictures ---------------------------------------------------------------------------------------------------

def png_size(path):
    """(width, height) of a PNG file, read from its header; fails when the file is not a PNG."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{name(path)} is not a PNG"
    return struct.unpack(">II", data[16:24])


@pytest.mark.parametrize("readme", READMES, ids=name)
def test_each_readme_shows_a_small_picture_of_the_explorer_with_alt_text(readme):
    pictures = re.findall(r"!\[([^\]]*)\]\((docs/images/[^)]+\.png)\)", text(readme))
    assert len(pictures) == 1
    alt, path = pictures[0]
    if readme.name.endswith(".zh-CN.md"):
        assert path == "docs/images/explorer.zh-CN.png" and len(re.findall(r"[\u4e00-\u9fff]", alt)) >= 40
    else:
        assert path == "docs/images/explorer.png" and len(alt.split()) >= 20
    width, height = png_size(ROOT / path)
    assert 800 <= width <= 1600 and height <= 1600
    assert (ROOT / path).stat().st_size <= 120_000, "a landing page's picture stays small (tools/explorer_screenshot.py)"


@pytest.mark.parametrize("readme", READMES, ids=name)
def test_the_readme_gives_the_explorer_the_picture_shows(readme):
    import explorer_screenshot

    calls = [
        node for block in re.findall(r"```python\n(.*?)```", text(readme), re.S) for node in ast.walk(ast.parse(block))
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "RankingExplorer"
    ]
    assert len(calls) == 1
    order, grades = (ast.literal_eval(argument) for argument in calls[0].args)
    assert (order, grades) == (explorer_screenshot.ORDER, explorer_screenshot.GRADES)
    assert {keyword.arg: ast.literal_eval(keyword.value) for keyword in calls[0].keywords}["k"] == explorer_screenshot.K


@pytest.mark.parametrize("readme", READMES, ids=name)
def test_a_readme_is_a_landing_page_of_at_most_150_lines(readme):
    assert len(text(readme).splitlines()) <= 150
