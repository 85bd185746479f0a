"""The Chinese edition (notebooks/zh-CN/): a twin of every English lesson, with the same code and the same checked numbers.

Its prose is Chinese and uses the glossary's terms; the source documents'
trap words appear only where a lesson quotes a document or explains the trap.
The code is the same token for token, except that a string literal a learner
reads (a printed line, a figure's label) may be its Chinese translation: it
then holds Chinese (or full-width punctuation, or a symbol such as κ for
"kappa") and keeps every ``{field}`` of the English one.
"""

import io
import re
import tokenize
from pathlib import Path

import build_lessons
import nbformat
import pytest
from nbval.plugin import find_comment_markers

from ndcg_teach.course.examples import QUOTATIONS
from ndcg_teach.course.glossary import TERMS

ROOT = Path(__file__).resolve().parent.parent
ENGLISH = ROOT / "notebooks"
CHINESE = ENGLISH / "zh-CN"
SET_LANGUAGE = 'nt.set_language("zh-CN")'
FIXED = {
    "Why it matters": "为什么重要",
    "You will learn": "学习目标",
    "Contents": "目录",
    "Try it": "动手试试",
    "Summary": "小结",
    "Exercises": "练习",
    "References": "参考文献",
    "Solutions": "参考答案",
}
# A number, with its minus sign unless the dash joins it to a word ("grade-3" is 等级 3 in Chinese).
NUMBER = re.compile(r"(?<![\w-])-?\d+(?:\.\d+)?(?:e[-+]?\d+)?|(?<=[\w-])\d+(?:\.\d+)?")
CJK = re.compile(r"[\u3400-\u9fff]")
LATIN = re.compile(r"[A-Za-z]")
# A trap word of the source documents, and the course's own term that must stand beside it when it is used.
TRAPS = {"准确率": "精确率", "得分": "等级", "折扣": "折损"}

TWINS = [path.name for path in build_lessons.lessons(ENGLISH)]


def chinese_twin(name):
    """The Chinese edition's file of the English lesson ``name`` (06-playground.zh-CN.ipynb)."""
    return CHINESE / build_lessons.ZH.file(build_lessons.EN.slug(name))


def read(path):
    return nbformat.read(path, as_version=4)


def code_without_comments(source):
    """The code of a cell with its comments (translatable) and the Chinese edition's language line removed."""
    lines = [line for line in source.splitlines() if line.strip() != SET_LANGUAGE]
    kept = []
    tokens = tokenize.generate_tokens(io.StringIO("\n".join(lines).replace("%matplotlib", "#%matplotlib") + "\n").readline)
    comments = {(token.start[0], token.start[1]) for token in tokens if token.type == tokenize.COMMENT}
    for number, line in enumerate(lines, start=1):
        column = next((col for row, col in sorted(comments) if row == number), None)
        text = line if column is None else line[:column]
        if line.lstrip().startswith("%matplotlib"):
            text = line
        if text.strip():
            kept.append(text.rstrip())
    return "\n".join(kept)


def code_tokens(source):
    """The tokens of a cell's code (comments and blank lines removed): (type, text), an f-string as one STRING token.

    Python 3.12 splits an f-string into parts; joining them back keeps the comparison the same on every version.
    """
    code = code_without_comments(source).replace("%", "#%") + "\n"
    lines = code.splitlines(keepends=True)
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line))
    skipped = {tokenize.COMMENT, tokenize.NL, tokenize.ENCODING}
    found, depth, start = [], 0, None
    for token in tokenize.generate_tokens(io.StringIO(code).readline):
        if token.type == FSTRING_START:
            depth += 1
            start = start or token.start
        elif token.type == FSTRING_END:
            depth -= 1
            if depth == 0:
                begin, end = offsets[start[0] - 1] + start[1], offsets[token.end[0] - 1] + token.end[1]
                found.append((tokenize.STRING, code[begin:end]))
                start = None
        elif depth == 0 and token.type not in skipped:
            found.append((token.type, token.string))
    return found


FSTRING_START, FSTRING_END = getattr(tokenize, "FSTRING_START", -1), getattr(tokenize, "FSTRING_END", -1)
LITERALS = {tokenize.STRING}
FIELD = re.compile(r"(?<!\{)\{([^{}]*)\}")
# A translated literal is written for Chinese readers: Chinese, full-width punctuation or symbols such as κ and τ.
TRANSLATED = re.compile(r"[^\x00-\x7f]")


def fields(literal):
    """The replacement fields of an f-string, in any order (a translation may move them); none for a plain string."""
    if "f" not in re.match(r"[a-zA-Z]*", literal).group().lower():
        return []
    # a field's own string literals ({'higher' if ... else 'lower'}) may be translated too
    return sorted(re.sub(r"'[^']*'|\"[^\"]*\"", "''", field) for field in FIELD.findall(literal))


def same_code(english, chinese):
    """True when the two cells' code differs only by literals translated into Chinese with the same fields."""
    mine, theirs = code_tokens(chinese), code_tokens(english)
    if code_without_comments(chinese).count("%") != code_without_comments(english).count("%") or len(mine) != len(theirs):
        return False
    return all(
        ours == original
        or (ours[0] == original[0] in LITERALS and TRANSLATED.search(ours[1]) and fields(ours[1]) == fields(original[1]))
        for ours, original in zip(mine, theirs)
    )


def code_cells(notebook):
    return [cell for cell in notebook.cells if cell.cell_type == "code"]


def prose(notebook):
    """The lesson's own markdown (not the generated navigation), without code, formulas, links' targets and HTML."""
    text = "\n".join(
        cell.source
        for cell in notebook.cells
        if cell.cell_type == "markdown" and "navigation" not in cell.metadata.get("tags", []) and "contents" not in cell.metadata.get("tags", [])
    )
    text = re.sub(r"\$\$.*?\$\$|\$[^$\n]*\$|```.*?```|`[^`\n]*`|<!--.*?-->|<[^>]+>", " ", text, flags=re.S)
    return re.sub(r"\]\([^)]*\)", "]", text)


def sections(notebook):
    """The lesson's ``## `` headings in the English edition's words: numbered ones by their number."""
    found = []
    for cell in notebook.cells:
        if cell.cell_type != "markdown" or "navigation" in cell.metadata.get("tags", []):
            continue
        for line in cell.source.splitlines():
            if line.startswith("## "):
                heading = line[3:].strip()
                number = re.match(r"(\d+)\.", heading)
                found.append(number.group(1) if number else heading)
    return found


# Lesson 07's English edition prints our English translation under each quoted line; the Chinese edition does not.
TRANSLATIONS = {quote.english for quote in QUOTATIONS}


def checked_numbers(notebook):
    """For each cell nbval checks, the numbers its text outputs print, sorted (a translation may reorder a sentence)."""
    result = []
    for cell in code_cells(notebook):
        if dict(find_comment_markers(cell.source)).get("check"):
            text = "".join(output.get("text", "") or output.get("data", {}).get("text/plain", "") for output in cell.outputs)
            text = "\n".join(line for line in text.splitlines() if line.strip() not in TRANSLATIONS)
            # a quoted document line (lesson 07 cites an untitled document by its first line) is not a computed number
            result.append(sorted(NUMBER.findall(re.sub(r"“[^”]*”", "", text))))
    return result


def test_every_english_lesson_has_a_chinese_twin_and_nothing_else_is_there():
    assert TWINS, "the English lessons are found"
    chinese = sorted(path.name for path in CHINESE.glob("*.ipynb"))
    assert chinese == [chinese_twin(name).name for name in TWINS]


@pytest.mark.parametrize("name", TWINS)
def test_the_twin_runs_the_same_code_with_the_language_set_first(name):
    # String literals may differ (a print line in Chinese); names, numbers and structure may not.
    english, chinese = read(ENGLISH / name), read(chinese_twin(name))
    first = code_cells(chinese)[0].source
    assert f"import ndcg_teach as nt\n{SET_LANGUAGE}\n" in first, "the language is set before anything is built"
    pairs = list(zip(code_cells(english), code_cells(chinese)))
    assert len(code_cells(chinese)) == len(code_cells(english))
    different = [number for number, (theirs, ours) in enumerate(pairs) if not same_code(theirs.source, ours.source)]
    assert different == [], "code cells that differ by more than translated literals"
    assert [cell.metadata.get("tags", []) for cell in code_cells(chinese)] == [
        cell.metadata.get("tags", []) for cell in code_cells(english)
    ]
    assert [list(find_comment_markers(cell.source)) for cell in code_cells(chinese)] == [
        list(find_comment_markers(cell.source)) for cell in code_cells(english)
    ]


@pytest.mark.parametrize(
    ("english", "chinese", "same"),
    [
        ('print("sum of grades", total)', 'print("等级之和", total)', True),
        ('print(f"{name} wins by {gap:.3f}")', 'print(f"{name} 以 {gap:.3f} 胜出")', True),
        ('print(f"{name} wins by {gap:.3f}")', 'print(f"{name} 以 {gap:.4f} 胜出")', False),
        ('print(f"{name} wins")', 'print(f"{other} 胜出")', False),
        ('print(f"{a} of {b} agree")', 'print(f"{b} 个中有 {a} 个一致")', True),
        ("print(f\"A is {'higher' if a > b else 'lower'}\")", "print(f\"A {'更高' if a > b else '更低'}\")", True),
        ("print(f\"A is {'higher' if a > b else 'lower'}\")", "print(f\"A {'更高' if a < b else '更低'}\")", False),
        ('ax.set_title("gain $2^{rel}-1$")', 'ax.set_title("增益 2^rel − 1")', True),
        ('grades = {"A": 3}', 'grades = {"甲": 3}', True),
        ('grades = {"A": 3}', 'grades = {"B": 3}', False),
        ('x = nt.dcg([3, 2])', 'x = nt.dcg([3, 1])', False),
        ('print("ok")', 'print("好")\nprint("多一行")', False),
    ],
)
def test_the_code_may_differ_only_by_translated_literals(english, chinese, same):
    assert same_code(english, chinese) is same


@pytest.mark.parametrize("name", TWINS)
def test_the_twin_has_the_same_sections_in_the_same_order(name):
    english = [FIXED.get(heading, heading) for heading in sections(read(ENGLISH / name))]
    english = [heading if heading in FIXED.values() or heading.isdigit() else "?" for heading in english]
    chinese = sections(read(chinese_twin(name)))
    chinese = [heading if heading in FIXED.values() or heading.isdigit() else "?" for heading in chinese]
    assert chinese == english


@pytest.mark.parametrize("name", TWINS)
def test_the_checked_outputs_print_the_same_numbers(name):
    assert checked_numbers(read(chinese_twin(name))) == checked_numbers(read(ENGLISH / name))


@pytest.mark.parametrize("name", TWINS)
def test_the_prose_is_chinese(name):
    text = prose(read(chinese_twin(name)))
    cjk, latin = len(CJK.findall(text)), len(LATIN.findall(text))
    assert cjk > latin, f"{cjk} Chinese characters against {latin} Latin letters outside code and formulas"


@pytest.mark.parametrize("name", TWINS)
def test_trap_words_appear_only_where_a_document_is_quoted_or_the_trap_is_explained(name):
    wrong = []
    notebook = read(chinese_twin(name))

    def cell_of(line):
        return next((cell.source for cell in notebook.cells if cell.cell_type == "markdown" and line[:20] in cell.source), "")

    for line in prose(notebook).splitlines():
        quoted = line.lstrip().startswith(">") or re.search(r"“[^”]*(准确率|得分|折扣)[^”]*”|「[^」]*」", line)
        # 准确率 is also the course's own word for accuracy (the glossary's term), where the cell says so
        accuracy = "准确率（accuracy" in line + cell_of(line)
        for trap, term in TRAPS.items():
            if trap in line and not quoted and term not in line and not (trap == "准确率" and accuracy):
                wrong.append(line.strip())
    assert wrong == []


@pytest.mark.parametrize("name", TWINS)
def test_the_glossary_terms_are_used_where_the_english_uses_them(name):
    # A cited paper's English title ("Cumulated gain-based evaluation of IR techniques") is not the lesson's prose.
    english = re.sub(r"^## references.*", "", prose(read(ENGLISH / name)).lower(), flags=re.S | re.M)
    chinese = prose(read(chinese_twin(name)))
    missing = []
    for term in TERMS:
        if term.english == "score":
            continue  # English prose also says "score" for a metric's value ("NDCG scores 1"), which Chinese calls 值
        head = re.sub(r"\s*\(.*\)$", "", term.english).lower()
        chinese_head = re.sub(r"（.*）$", "", term.chinese).replace(" k", "")
        if len(head) > 4 and re.search(rf"\b{re.escape(head)}\b", english) and chinese_head not in chinese:
            missing.append(f"{term.english} -> {chinese_head}")
    assert missing == []


@pytest.mark.parametrize("name", TWINS)
def test_the_twin_collapses_the_same_cells(name):
    # The cells that replay a learner's drags open collapsed in both editions.
    def hidden(path):
        return [cell.metadata.get("jupyter", {}).get("source_hidden", False) for cell in code_cells(read(path))]

    assert hidden(chinese_twin(name)) == hidden(ENGLISH / name)
