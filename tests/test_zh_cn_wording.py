"""How the Chinese edition reads, beyond its terms: constructions a style guide rejects, one boilerplate, Chinese
punctuation in Chinese printed lines, and code comments in Chinese.

- "少了将近八倍", "低估了三倍", "小好几倍": a quantity cannot shrink by a multiple (write 只有……的八分之一);
- 对数 is a logarithm: "the number of pairs" is 对的总数 or 顺序对个数, never 对数 beside logarithms;
- every exercise heading is ``**练习 N：**`` and every solutions section opens with the same request to do the
  exercises first;
- a printed line with Chinese in it uses full-width punctuation next to the Chinese (``偏差：`` not ``偏差:``),
  except where it quotes a source document (lesson 07 prints their lines verbatim) or a title in 《》;
- a code comment of the Chinese edition is written in Chinese (the lesson's markers and a proper name aside);
- every ``**`` of the Chinese Markdown (lessons, READMEs, docs/) opens or closes bold as CommonMark reads it: a
  closing ``**`` after full-width punctuation and before a Chinese character (``**练习 1：**上面``) is no closing
  at all, and JupyterLab, GitHub and the course site then print the asterisks.
"""

import io
import re
import tokenize
import unicodedata
from pathlib import Path

import nbformat
import pytest
from test_zh_cn_outputs import glossary_table, outputs

from ndcg_teach.course.examples import QUOTATIONS

ROOT = Path(__file__).resolve().parent.parent
CHINESE = sorted((ROOT / "notebooks" / "zh-CN").glob("*.zh-CN.ipynb"))
IDS = [path.name[:2] for path in CHINESE]
PAGES = sorted([ROOT / "README.zh-CN.md", ROOT / "hub" / "README.zh-CN.md", *(ROOT / "docs").glob("*.zh-CN.md")])
NOT_MARKUP = re.compile(r"```.*?```|`[^`\n]*`|\$\$.*?\$\$|\$[^$\n]*\$", re.S)
STRONG = re.compile(r"(?<!\*)\*\*(?!\*)")
SHRINK_BY_TIMES = re.compile(r"(?:少|低估|小|减少|降低|缩小|缩短)了?(?:将近|大约|约|好)?[一二三四五六七八九十几百千\d.]+倍")
PAIRS_AS_LOG = re.compile(r"一致的对数|颠倒的对数|text\{对数\}|/\s*对数")
HEADING = re.compile(r"\*\*练习 ?\d+[^*\n]{0,12}\*\*")
RIGHT_HEADING = re.compile(r"\*\*练习 \d+(?:（[^）]*）)?：\*\*")
LEAD_IN = "*请先自己做练习，再往下读。*"
HALF_WIDTH = re.compile(r"[\u4e00-\u9fff][,;:!?](?!\d)|[,;:!?] ?[\u4e00-\u9fff]")
QUOTED = {quote.chinese.strip() for quote in QUOTATIONS}


def read(path):
    return nbformat.read(path, as_version=4)


def prose(notebook):
    return [(number, cell.source) for number, cell in enumerate(notebook.cells) if cell.cell_type == "markdown"]


@pytest.mark.parametrize("path", CHINESE, ids=IDS)
def test_nothing_shrinks_by_a_multiple_and_a_count_of_pairs_is_not_a_logarithm(path):
    texts = prose(read(path)) + list(outputs(read(path)))
    found = [f"cell {number}: {match.group()}" for number, text in texts
             for pattern in (SHRINK_BY_TIMES, PAIRS_AS_LOG) for match in pattern.finditer(text)]
    assert found == []


@pytest.mark.parametrize("path", CHINESE, ids=IDS)
def test_one_exercise_heading_and_one_lead_in(path):
    notebook = read(path)
    assert len(HEADING.findall("\n".join(text for _, text in prose(notebook)))) >= (0 if path.name.startswith("06") else 2)
    headings = [heading for _, text in prose(notebook) for heading in HEADING.findall(text)]
    assert [heading for heading in headings if not RIGHT_HEADING.fullmatch(heading)] == []  # lesson 06 has none: its two challenges
    solutions = [text for _, text in prose(notebook) if "## 参考答案" in text]
    assert len(solutions) == 1 and solutions[0].split("## 参考答案", 1)[1].lstrip().startswith(LEAD_IN)


@pytest.mark.parametrize("path", CHINESE, ids=IDS)
def test_a_chinese_printed_line_uses_chinese_punctuation(path):
    wrong = []
    for number, text in outputs(read(path)):
        if glossary_table(text):
            continue
        for line in text.splitlines():
            if line.strip() in QUOTED or path.name.startswith("07") and "print(" in line:
                continue  # a source document's line (or code) quoted as printed
            wrong += [f"cell {number}: {line.strip()}" for _ in HALF_WIDTH.finditer(re.sub(r"《[^》]*》", "", line))]
    assert wrong == []


def _kind(character):
    """CommonMark's three kinds of neighbour of a delimiter run: whitespace (or the line's edge), punctuation, other."""
    if character.isspace():
        return "space"
    return "punct" if unicodedata.category(character)[0] in "PS" else "other"


def broken_bold(text):
    """Each ``**`` that CommonMark cannot read as the opening (1st, 3rd, ...) or closing (2nd, 4th, ...) of bold."""
    found = []
    # code and formulas hide their asterisks but keep their edges: a backtick or $ beside ** is punctuation
    for line in NOT_MARKUP.sub(lambda hidden: hidden.group()[0] + "x" + hidden.group()[-1], text).splitlines():
        for index, run in enumerate(STRONG.finditer(line)):
            before = _kind(line[run.start() - 1] if run.start() else " ")
            after = _kind(line[run.end()] if run.end() < len(line) else " ")
            left = after != "space" and (after != "punct" or before != "other")
            right = before != "space" and (before != "punct" or after != "other")
            if not (left if index % 2 == 0 else right):
                found.append(line[max(0, run.start() - 12):run.end() + 12])
    return found


@pytest.mark.parametrize("path", CHINESE + PAGES, ids=IDS + [str(page.relative_to(ROOT)) for page in PAGES])
def test_bold_opens_and_closes_where_it_is_meant_to(path):
    texts = [text for _, text in prose(read(path))] if path.suffix == ".ipynb" else [path.read_text(encoding="utf-8")]
    assert [snippet for text in texts for snippet in broken_bold(text)] == []


def comments(source):
    """The comments of a cell's code (``%magic`` lines read as comments and skipped)."""
    tokens = tokenize.generate_tokens(io.StringIO(source.replace("%", "#%") + "\n").readline)
    return [token.string for token in tokens if token.type == tokenize.COMMENT and not token.string.startswith("#%")]


@pytest.mark.parametrize("path", CHINESE, ids=IDS)
def test_code_comments_are_chinese(path):
    english = [comment for cell in read(path).cells if cell.cell_type == "code" for comment in comments(cell.source)
               if re.search(r"[A-Za-z]{3}", comment) and not re.search(r"[\u4e00-\u9fff]", comment)
               and "NBVAL" not in comment and "“" not in comment]
    assert english == []


@pytest.mark.parametrize(
    ("text", "pattern", "found"),
    [
        ("交错实验少了将近八倍", SHRINK_BY_TIMES, True),
        ("它把价值低估了将近三倍", SHRINK_BY_TIMES, True),
        ("约为前者的八分之一", SHRINK_BY_TIMES, False),
        ("是真值的三倍多", SHRINK_BY_TIMES, False),
        ("要小好几倍", SHRINK_BY_TIMES, True),
        ("多一位小数要一百倍的会话", SHRINK_BY_TIMES, False),
        ("是日志策略的多少倍", SHRINK_BY_TIMES, False),
        ("（先后一致的对数 − 先后颠倒的对数）", PAIRS_AS_LOG, True),
        ("NDCG 的对数折损", PAIRS_AS_LOG, False),
        ("偏差: 0.5", HALF_WIDTH, True),
        ("偏差：0.5, 0.6", HALF_WIDTH, False),
    ],
)
def test_the_patterns_on_small_examples(text, pattern, found):
    assert bool(pattern.search(text)) is found


@pytest.mark.parametrize(
    ("text", "broken"),
    [
        ("**练习 1：**上面的两个系统", True),
        ("**练习 1：** 上面的两个系统", False),
        ("**思考题 1**：系统 A 和 B", False),
        ("文档 002 的代码再**按输入顺序**求和", False),
        ("- **A.** DCG 只计算第 1 位", False),
        ("**练习 1：**`[3, 0, 2, 1]` 的 CG", False),
        ("`a**b` 与 $x**2$ 不是粗体", False),
    ],
)
def test_broken_bold_on_small_examples(text, broken):
    assert bool(broken_bold(text)) is broken
