"""The README's example prints exactly what the README says it prints.

The READMEs are landing pages; the reference, the course's details and the audit of the source documents moved
to docs/ (tests/test_docs.py checks those pages), and the checks below that concern them read the page they
moved to.
"""

import contextlib
import io
import re
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"
DOCS = README.parent / "docs"


def test_readme_examples_print_what_the_readme_says():
    text = README.read_text(encoding="utf-8")
    # A code block, then "prints", then its output; (?:(?!```).)* keeps each match inside one block.
    block = r"((?:(?!```).)*)"
    examples = re.findall(rf"```python\n{block}```\n\nprints\n\n```text\n{block}```", text, re.S)
    assert len(examples) >= 2
    for code, output in examples:
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            exec(compile(code, str(README), "exec"), {})
        assert printed.getvalue() == output


def test_readme_shows_the_two_commands_and_the_pip_steps():
    text = README.read_text(encoding="utf-8")
    for command in ("make lab", "make test", "pip install -r requirements.txt", "python -m venv .venv", "python -m pytest"):
        assert command in text


def test_the_audit_summary_is_what_the_audit_says():
    # It moved from the README to the course's page, with the table of what each document got wrong.
    from ndcg_teach.course.examples import audit

    assert f"```text\n{audit().summary}\n```" in (DOCS / "course.md").read_text(encoding="utf-8")


def test_readme_starts_with_the_two_commands_before_any_api():
    text = README.read_text(encoding="utf-8")
    sections = re.findall(r"^## (.+)$", text, re.M)
    assert "two commands" in sections[0].lower()
    assert text.index("make lab") < text.index("```python")


def test_readme_names_nothing_outside_the_repository():
    text = README.read_text(encoding="utf-8")
    assert "workspace" not in text
    assert [line for line in text.splitlines() if "../" in line or "shared/seeds" in line] == []
    # One exception, said plainly for an outside user on the testing page: where the tests that read the source
    # documents look for them (a "../" right after "](" is one of the page's links into the repository).
    for page, said in (("testing.md", "not part of this repository"), ("testing.zh-CN.md", "不包含在本仓库中")):
        lines = (DOCS / page).read_text(encoding="utf-8").splitlines()
        outside = [line for line in lines if "shared/seeds" in line or re.search(r"(?<!\]\()\.\./", line)]
        assert "workspace" not in "\n".join(lines)
        assert len(outside) == 1 and "`needs_seeds`" in outside[0] and said in outside[0]
    root = README.parent
    for target in re.findall(r"\]\(([^)#]+)\)", text):
        if not target.startswith(("http://", "https://")):
            assert (root / target).exists(), f"README links to {target}, which is not in the repository"
    for path in re.findall(r"`((?:tools|notebooks|binder|tests|benchmarks)/[^`* ]+)`", text):
        assert (root / path).exists(), f"README names {path}, which is not in the repository"


# The Chinese README (README.zh-CN.md) is held to the same standard as the English one.
README_ZH = README.parent / "README.zh-CN.md"


def test_the_readmes_link_to_each_other_at_the_top():
    assert "[中文](README.zh-CN.md)" in README.read_text(encoding="utf-8").splitlines()[2]
    assert "[English](README.md)" in README_ZH.read_text(encoding="utf-8").splitlines()[2]


def test_chinese_readme_examples_print_what_it_says():
    import ndcg_teach as nt

    text = README_ZH.read_text(encoding="utf-8")
    block = r"((?:(?!```).)*)"
    examples = re.findall(rf"```python\n{block}```\n\n输出\n\n```text\n{block}```", text, re.S)
    assert examples
    for code, output in examples:
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            exec(compile(code, str(README_ZH), "exec"), {})
        assert printed.getvalue() == output
        assert nt.language() == "en", "the example sets the language back"


def test_chinese_readme_gives_the_commands_the_audit_and_the_lines_the_documents_printed():
    import ndcg_teach as nt
    from ndcg_teach.course.examples import audit, quotations

    text = README_ZH.read_text(encoding="utf-8")
    for command in ("make lab EDITION=zh-CN", "make test", "pip install -r requirements.txt", "python -m venv .venv", "python -m pytest"):
        assert command in text
    # The audit and the documents' lines moved to the course's page.
    text = (DOCS / "course.zh-CN.md").read_text(encoding="utf-8")
    with nt.language_set("zh-CN"):
        assert f"```text\n{audit().summary}\n```" in text
    rows = [line for line in text.splitlines() if line.startswith("| `00")]
    assert [row[3:6] for row in rows] == ["000", "000", "001", "002", "003", "004"]
    quoted = {quotation.chinese for quotation in quotations()}
    for row in rows:
        line = row.split(" | ")[1].strip("`")
        assert any(line in printed for printed in quoted), f"not a line the document printed: {line}"


def test_chinese_readme_links_exist_and_its_binder_badge_opens_the_chinese_edition():
    text = README_ZH.read_text(encoding="utf-8")
    for target in re.findall(r"\]\(([^)#]+)\)", text):
        if not target.startswith(("http://", "https://")):
            assert (README.parent / target).exists(), target
    assert "urlpath=lab/tree/notebooks/zh-CN/00-start-here.zh-CN.ipynb" in text
