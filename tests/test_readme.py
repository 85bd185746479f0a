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
