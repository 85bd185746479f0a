"""What a Chinese learner sees when a lesson runs: Chinese sentences, with the course's one term per concept.

Two checks over every zh-CN lesson. First, its stored outputs (printed
streams, ``text/plain``, ``text/html``, an SVG figure's text, and the labels
a figure cell draws) hold no run of three or more English words; identifiers, measure names,
acronyms, the names of people, libraries and data sets, and an English term
in brackets just after its Chinese are not words of a sentence. Second, the
glossary's rejected variants (``Term.rejected``) appear nowhere in the Chinese
prose, outputs, catalogue or README.zh-CN, except inside a quotation of a
source document and in the glossary's own table, which lists them on purpose.
"""

import html
import io
import re
import tokenize
from pathlib import Path

import nbformat
import pytest

from ndcg_teach import i18n, measures
from ndcg_teach.glossary import TERMS
from ndcg_teach.registry import metrics

ROOT = Path(__file__).resolve().parent.parent
CHINESE = sorted((ROOT / "notebooks" / "zh-CN").glob("*.zh-CN.ipynb"))
TEXTS = ("text/plain", "text/html", "image/svg+xml")

# Proper names a Chinese text writes in Latin letters: people, libraries, data sets, tools.
NAMES = {
    "scikit-learn", "sklearn", "ranx", "torchmetrics", "recommenders", "Evidently", "LightGBM", "allRank", "pandas",
    "NumPy", "SciPy", "statsmodels", "matplotlib", "Jupyter", "JupyterLab", "Binder", "Python", "Kendall", "Cohen",
    "Cohen's", "Fleiss", "Fleiss'", "Tukey", "Hoeffding", "Wilcoxon", "Student", "Voorhees", "Landis", "Koch", "Yilmaz",
    "Aslam", "Robertson", "Järvelin", "Kekäläinen", "Sakai", "Burges", "Moffat", "Zobel", "Chapelle", "Carterette",
    "Krichene", "Rendle", "Joachims", "Buckley", "Manning", "Bonferroni", "Holm", "SciFact", "NFCorpus", "FiQA", "Cranfield",
}
MATH = {"log", "exp", "ln", "min", "max", "argmin", "argmax", "sqrt", "diag", "rel"}  # names in formulas
WORD = re.compile(r"[A-Za-zÀ-ÿ][A-Za-zÀ-ÿ'’]*(?:[-_.@][A-Za-zÀ-ÿ0-9'’{}]+)*")
SEPARATOR = re.compile(r"[ \t,;:()\"'“”‘’/&+]*")
CJK = re.compile(r"[\u3400-\u9fff\uff00-\uffef\u3000-\u303f]")
# An English term in brackets right after its Chinese, 精确率（precision）: the issue allows it.
BRACKETED = re.compile(r"(?<=[\u3400-\u9fff])[（(][A-Za-z][A-Za-z '’-]*[）)]")


def measure_names():
    names = set()
    for spec in metrics():
        names |= {spec.key, spec.label.replace("@{k}", ""), *(name.split("@")[0].split(".")[0] for name in spec.names)}
    names |= {measure.name for measure in measures.TREC_EVAL}
    return {name.lower() for name in names}


MEASURES = measure_names()


def allowed(word):
    """True for what is not a word of an English sentence: identifiers, measure names, acronyms, proper names."""
    core = word.strip("'’.")
    return (
        len(core) == 1
        or re.search(r"[_@.\d{}]", core) is not None
        or re.fullmatch(r"[A-Z][A-Z0-9\-]+s?", core) is not None  # NDCG, IDCGs, BEIR, TREC-COVID
        or re.search(r"[a-z][A-Z]", core) is not None  # RankingExplorer, nDCG, HitRate
        or core.lower() in MEASURES
        or core in NAMES
        or core in MATH
    )


def english_runs(text, least=3):
    """Runs of ``least`` or more English words in ``text`` that no rule allows, line by line."""
    found = []
    for line in BRACKETED.sub("", text).splitlines():
        run, position = [], 0
        while position < len(line):
            word = WORD.match(line, position)
            if not word:
                separator = SEPARATOR.match(line, position)
                if separator.end() > position:
                    position = separator.end()
                    continue
                if len(run) >= least:
                    found.append(" ".join(run))
                run, position = [], position + 1
                continue
            if not allowed(word.group()):
                run.append(word.group())
            elif len(word.group().strip("'’.")) > 1:
                if len(run) >= least:
                    found.append(" ".join(run))
                run = []
            position = word.end()
        if len(run) >= least:
            found.append(" ".join(run))
    return found


def visible(markup):
    """The text a reader sees in HTML or SVG: no styles, scripts, comments, tags or entities."""
    markup = re.sub(r"<(style|script)\b.*?</\1>|<!--.*?-->|<metadata>.*?</metadata>", " ", markup, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", "\n", markup))


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


QUOTES = re.compile(r"""^[a-zA-Z]*('''|""\"|'|")|('''|""\"|'|")$""")
SHOWN_KEYWORDS = {"label", "title", "s", "text", "xlabel", "ylabel"}


def shown_literals(source):
    """The text of the string literals a figure cell may draw: not keys (``colours["blue"]``) nor style values (``ha="center"``)."""
    tokens = [token for token in tokenize.generate_tokens(io.StringIO(source.replace("%", "#%") + "\\n").readline)
              if token.type not in (tokenize.NL, tokenize.NEWLINE, tokenize.COMMENT, tokenize.INDENT, tokenize.DEDENT)]
    found = []
    for index, token in enumerate(tokens):
        if token.type != tokenize.STRING and token.type != getattr(tokenize, "FSTRING_START", None):
            continue
        before = [earlier.string for earlier in tokens[max(0, index - 2):index]]
        if before[-1:] == ["["] or (before[-1:] == ["="] and before[0] not in SHOWN_KEYWORDS):
            continue
        if token.type == tokenize.STRING:
            found.append(QUOTES.sub("", token.string))
        else:
            end = next(i for i in range(index, len(tokens)) if tokens[i].type == tokenize.FSTRING_END)
            found.append("".join(t.string for t in tokens[index + 1:end] if t.type == tokenize.FSTRING_MIDDLE))
    return found


@pytest.mark.parametrize("path", CHINESE, ids=[path.name[:2] for path in CHINESE])
def test_the_chinese_lesson_labels_its_figures_in_chinese(path):
    # A figure is stored as pixels; the text it draws is the cell's literals (titles, axes, legends) and the library's
    # own labels (tests/test_fonts.py reads those from the SVG the library draws).
    runs = []
    for number, cell in enumerate(read(path).cells):
        if any("image/png" in output.get("data", {}) for output in cell.get("outputs", [])):
            runs += [f"cell {number}: {run}" for literal in shown_literals(cell.source)
                     for run in english_runs(re.sub(r"\{[^{}]*\}", " ", literal), least=1)]
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

QUOTED = re.compile(r"“[^”]*”|「[^」]*」|『[^』]*』|«[^»]*»")
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
    for name in ("README.zh-CN.md", "docs/instructors.zh-CN.md"):
        yield name, without_quotations((ROOT / name).read_text(encoding="utf-8"))
    for message, translation in i18n.catalogue("zh-CN").items():
        yield f"catalogue {message!r}", without_quotations(translation)


@pytest.mark.parametrize(("variant", "chosen"), REJECTED, ids=[variant for variant, _ in REJECTED])
def test_a_rejected_variant_is_nowhere_in_the_chinese_edition(variant, chosen):
    found = [where for where, text in chinese_texts() if variant in text]
    assert found == [], f"write {chosen}"


def test_every_concept_the_issue_found_mixed_has_one_term_and_its_rejected_variants():
    assert {variant for variant, _ in REJECTED} >= {"评价", "评测", "物品", "排序器", "理想顺序", "理想列表", "交互组件", "计算过程表"}
