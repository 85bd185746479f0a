"""The README's example prints exactly what the README says it prints."""

import contextlib
import io
import re
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


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


def test_readme_audit_summary_is_what_the_audit_says():
    from ndcg_teach.examples import audit

    assert f"```text\n{audit().summary}\n```" in README.read_text(encoding="utf-8")


def test_readme_starts_with_the_two_commands_before_any_api():
    text = README.read_text(encoding="utf-8")
    sections = re.findall(r"^## (.+)$", text, re.M)
    assert "two commands" in sections[0].lower()
    assert text.index("make lab") < text.index("```python")


def test_readme_names_nothing_outside_the_repository():
    text = README.read_text(encoding="utf-8")
    assert "../" not in text and "shared/seeds" not in text and "workspace" not in text
    root = README.parent
    for target in re.findall(r"\]\(([^)#]+)\)", text):
        if not target.startswith(("http://", "https://")):
            assert (root / target).exists(), f"README links to {target}, which is not in the repository"
    for path in re.findall(r"`((?:tools|notebooks|binder|tests|benchmarks)/[^`* ]+)`", text):
        assert (root / path).exists(), f"README names {path}, which is not in the repository"
