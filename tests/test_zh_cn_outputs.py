"""What a Chinese learner sees when a lesson runs: Chinese sentences, with the course's one term per concept.

Two checks over every zh-CN lesson. First, its stored outputs (printed
streams, ``text/plain``, ``text/html``, an SVG figure's text) hold no run of
three or more English words (the rule is tests/zh_text.py's; the text of the
figures, stored as PNG, is checked by tests/test_zh_cn_figures.py, which draws
them again as SVG). Second, the
glossary's rejected variants (``Term.rejected``) appear nowhere a Chinese
reader looks (the lessons' prose, code and outputs, every *.zh-CN.md, the
catalogue, the site's words), except inside a quotation of a source document
and in the glossary's own table, which lists them on purpose.
"""

import re
from pathlib import Path

import nbformat
import pytest
import site_pages
from zh_text import ALLOWED, english_runs, english_words, visible

from ndcg_teach import i18n
from ndcg_teach.course.glossary import TERMS

ROOT = Path(__file__).resolve().parent.parent
CHINESE = sorted((ROOT / "notebooks" / "zh-CN").glob("*.zh-CN.ipynb"))
TEXTS = ("text/plain", "text/html", "image/svg+xml")
CJK_TEXT = re.compile(r"[\u4e00-\u9fff]")


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
                if {"image/png", "text/html", "application/vnd.jupyter.widget-view+json"} & set(data):
                    # the reader sees the picture, the HTML or the widget, not the text/plain beside it
                    data = {kind: value for kind, value in data.items() if kind != "text/plain"}
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


@pytest.mark.parametrize("path", CHINESE, ids=[path.name[:2] for path in CHINESE])
def test_the_chinese_lesson_prints_no_english_word(path):
    # Single words count: "rate" in a formula, "grade" in a note, "macro =" before a sum. Identifiers, measure names,
    # library names and what the learner types are not words (tests/zh_text.py's rules and its ALLOWED list).
    words = [f"cell {number}: {word}" for number, text in outputs(read(path)) if not glossary_table(text)
             for word in english_words(text)]
    assert words == []


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("Hoeffding 不等式：P(|rate - p| ≥ ε)", ["rate"]),
        ("每个意图的停止概率 R = (2^grade - 1) / 2^1", ["grade"]),
        ("macro = (0.6514 + 0.7125) / 2 = 0.6820", ["macro"]),
        ("运行结果  retriever, reranker", ["retriever", "reranker"]),
        ("RankingExplorer(order=['A', 'B'], k=3, gain='linear'): NDCG@3 = 0.6480", []),
        ("02-jarvelin：正确。linear/jarvelin 0.9894", []),
        ("ndcg_cut_10           \tall\t0.5977", []),
        ("ana [0, 0, 1]；交错顺序 bacd", []),
        ("检索器（retriever）、重排序模型（reranker）", []),
    ],
)
def test_a_single_english_word_counts_unless_typed_or_named(text, words):
    assert english_words(text) == words


def test_the_allowed_words_are_few_and_each_is_still_printed():
    printed = " ".join(text for path in CHINESE for _, text in outputs(read(path)))
    assert len(ALLOWED) <= 20 and [word for word in ALLOWED if word not in printed] == []


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


def strings(value):
    """Every string inside ``value`` (nested dicts, lists and tuples)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from strings(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from strings(item)


def chinese_texts():
    """(where, text) of everything written in Chinese for a learner, quotations removed: the lessons' prose, code
    (comments and printed strings) and outputs, every Chinese Markdown file (README, hub/, docs/), the catalogue and
    the course site's own words."""
    for path in CHINESE:
        notebook = read(path)
        for number, cell in enumerate(notebook.cells):
            yield f"{path.name} cell {number}", without_quotations(cell.source)
        for number, text in outputs(notebook):
            if not glossary_table(text):
                yield f"{path.name} cell {number} output", without_quotations(text)
    pages = sorted(ROOT.glob("*.zh-CN.md")) + sorted(ROOT.glob("*/*.zh-CN.md"))
    assert ROOT / "docs" / "instructors.zh-CN.md" in pages
    for page in pages:
        yield page.relative_to(ROOT).as_posix(), without_quotations(page.read_text(encoding="utf-8"))
    for message, translation in i18n.catalogue("zh-CN").items():
        yield f"catalogue {message!r}", without_quotations(translation)
    for text in strings(site_pages.TEXTS["zh-CN"]):
        yield "tools/site_pages.py", without_quotations(text)
    for path in sorted((ROOT / "site").rglob("*")):
        if path.suffix in (".html", ".css", ".py") and CJK_TEXT.search(path.read_text(encoding="utf-8")):
            yield str(path.relative_to(ROOT)), without_quotations(path.read_text(encoding="utf-8"))


def test_the_scan_reads_every_place_a_chinese_reader_looks():
    places = {where.split(" cell ")[0] for where, _ in chinese_texts()}
    assert {"README.zh-CN.md", "hub/README.zh-CN.md", "docs/instructors.zh-CN.md", "tools/site_pages.py"} <= places
    assert len([place for place in places if place.endswith(".ipynb")]) == len(CHINESE)


@pytest.mark.parametrize(("variant", "chosen"), REJECTED, ids=[variant for variant, _ in REJECTED])
def test_a_rejected_variant_is_nowhere_in_the_chinese_edition(variant, chosen):
    found = [where for where, text in chinese_texts() if variant in text]
    assert found == [], f"write {chosen}"


def test_every_concept_the_issue_found_mixed_has_one_term_and_its_rejected_variants():
    assert {variant for variant, _ in REJECTED} >= {"评价", "评测", "物品", "排序器", "理想顺序", "理想列表", "交互组件", "计算过程表",
                                                  "吸引力", "排序浏览器", "处理组", "真相", "累加值", "采样", "排名估计",
                                                  "全集", "完整候选目录", "负样本", "HitRate@"}
