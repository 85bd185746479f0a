"""What a Chinese learner sees when a lesson runs: Chinese sentences, with the course's one term per concept.

Two checks over every zh-CN lesson. First, its stored outputs (printed
streams, ``text/plain``, ``text/html``, an SVG figure's text) hold no run of
three or more English words (the rule is tests/zh_text.py's; the text of the
figures, stored as PNG, is checked by tests/test_zh_cn_figures.py, which draws
them again as SVG). Second, the
glossary's rejected variants (``Term.rejected``) appear nowhere in the Chinese
prose, outputs, catalogue or README.zh-CN, except inside a quotation of a
source document and in the glossary's own table, which lists them on purpose.
"""

import re
from pathlib import Path

import nbformat
import pytest
from zh_text import english_runs, visible

from ndcg_teach import i18n
from ndcg_teach.glossary import TERMS

ROOT = Path(__file__).resolve().parent.parent
CHINESE = sorted((ROOT / "notebooks" / "zh-CN").glob("*.zh-CN.ipynb"))
TEXTS = ("text/plain", "text/html", "image/svg+xml")


def outputs(notebook):
    """(cell number, text) of every output a learner reads."""
    for number, cell in enumerate(notebook.cells):
        for output in cell.get("outputs", []) if cell.cell_type == "code" else []:
            if output.output_type == "stream":
                yield number, output.text
            elif output.output_type == "error":
                yield number, f"{output.ename}: {output.evalue}"
            else:
                data = output.get("data", {})
                for kind in TEXTS:
                    if kind in data:
                        text = data[kind]
                        yield number, visible(text) if kind != "text/plain" else text
                        if kind == "text/html":
                            break  # text/plain is the same table for a reader without HTML


def read(path):
    return nbformat.read(path, as_version=4)


def glossary_table(text):
    """True for the glossary's own table: its English column and its variants are there on purpose."""
    return text.lstrip().startswith(i18n.gettext("Glossary: the course's terms, and the traps in the source documents", "zh-CN"))


@pytest.mark.parametrize("path", CHINESE, ids=[path.name[:2] for path in CHINESE])
def test_the_chinese_lesson_prints_no_english_sentence(path):
    runs = [f"cell {number}: {run}" for number, text in outputs(read(path)) if not glossary_table(text)
            for run in english_runs(text)]
    assert runs == []


@pytest.mark.parametrize(
    ("text", "runs"),
    [
        ("sum of grades = 10", ["sum of grades"]),
        ("NDCG and RBP prefer 'B, C, D first'", []),
        ("B better on 4 queries", []),
        ("the explorer above shows it", ["the explorer above shows it"]),
        ("精确率（precision at rank k）= 0.5", []),
        ("ndcg_cut.10 recip_rank P@5 set_language", []),
        ("Kendall τ_b 系数，Tukey HSD 检验，scikit-learn 与 trec_eval", []),
        ("<Evaluation of 31 queries>", []),
        ("i  item  grade  gain", ["item grade gain"]),
    ],
)
def test_a_run_is_three_english_words_not_names_or_identifiers(text, runs):
    assert english_runs(text) == runs


# ---- one term per concept ------------------------------------------------------------------------------------------

QUOTED = re.compile(r"“[^”]*”|「[^」]*」|『[^』]*』|«[^»]*»|《[^》]*》")
REJECTED = sorted({variant: term.chinese for term in TERMS for variant in term.rejected}.items())


def without_quotations(text):
    """``text`` without quotations: a quoted source document may use any variant."""
    return "\n".join(QUOTED.sub(" ", line) for line in text.splitlines() if not line.lstrip().startswith(">"))


def chinese_texts():
    """(where, text) of everything written in Chinese for a learner, quotations removed."""
    for path in CHINESE:
        notebook = read(path)
        for number, cell in enumerate(notebook.cells):
            if cell.cell_type == "markdown":
                yield f"{path.name} cell {number}", without_quotations(cell.source)
        for number, text in outputs(notebook):
            if not glossary_table(text):
                yield f"{path.name} cell {number} output", without_quotations(text)
    pages = [ROOT / "README.zh-CN.md", *sorted((ROOT / "docs").glob("*.zh-CN.md"))]
    assert ROOT / "docs" / "instructors.zh-CN.md" in pages
    for page in pages:
        yield page.relative_to(ROOT).as_posix(), without_quotations(page.read_text(encoding="utf-8"))
    for message, translation in i18n.catalogue("zh-CN").items():
        yield f"catalogue {message!r}", without_quotations(translation)


@pytest.mark.parametrize(("variant", "chosen"), REJECTED, ids=[variant for variant, _ in REJECTED])
def test_a_rejected_variant_is_nowhere_in_the_chinese_edition(variant, chosen):
    found = [where for where, text in chinese_texts() if variant in text]
    assert found == [], f"write {chosen}"


def test_every_concept_the_issue_found_mixed_has_one_term_and_its_rejected_variants():
    assert {variant for variant, _ in REJECTED} >= {"评价", "评测", "物品", "排序器", "理想顺序", "理想列表", "交互组件", "计算过程表"}
