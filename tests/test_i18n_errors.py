"""Errors a learner can meet speak the learner's language: the parameter, the requirement, then what was given.

Every ``raise`` in the package builds its message from a template marked for the catalogue (``gettext``/``_``,
``refused``) instead of writing English in place; the catalogue test (test_i18n.py) then makes sure each template
has its Chinese. Behaviour tests check that representative errors come out in Chinese under ``zh-CN`` with the
parameter's name and the given value intact, and unchanged in English.
"""

import ast
import re
from pathlib import Path

import pytest

import ndcg_teach as nt

PACKAGE = Path(nt.__file__).resolve().parent
MARKERS = {"_", "gettext", "mark", "N_", "refused"}

# Files whose raises stay English, and why.
ENGLISH_ONLY = {
    # The command line: trec_eval's command, whose messages stay worded as trec_eval's (its own lines are compared
    # byte for byte); it runs in a process of its own, where no language is ever set.
    "runs/cli.py",
    # The catalogue reader: a catalogue it cannot read cannot translate its own error; its reader is the translator.
    "i18n/po.py",
    # Invariants of the widget's field table, checked when the module is imported: a developer's error, never a learner's.
    "widgets/payload.py",
    # The package's lazy attributes raise AttributeError worded as Python's own, for tools that read it.
    "__init__.py", "statistics/__init__.py",
}
# trec_eval's own words, which ndcg_teach prints as trec_eval does (compared byte for byte with trec_eval's output).
TREC_EVAL_KEYWORD = "trec_eval"


def _marked(node):
    return isinstance(node, ast.Call) and getattr(node.func, "id", None) in MARKERS


def english_written_in(node):
    """String literals with words in ``node`` outside marked calls and trec_eval's own words: English in the code."""
    if _marked(node):
        return []
    if isinstance(node, ast.keyword) and node.arg == TREC_EVAL_KEYWORD:
        return []
    if isinstance(node, ast.JoinedStr):
        text = "".join(part.value for part in node.values if isinstance(part, ast.Constant))
        return [text] if re.search(r"[A-Za-z]{2,}", text) else []
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value] if re.search(r"[A-Za-z]{2,}\W+[A-Za-z]{2,}", node.value) else []
    return [text for child in ast.iter_child_nodes(node) for text in english_written_in(child)]


def package_files():
    for path in sorted(PACKAGE.rglob("*.py")):
        name = path.relative_to(PACKAGE).as_posix()
        if name not in ENGLISH_ONLY:
            yield name, ast.parse(path.read_text(encoding="utf-8"))


def english_raises():
    found = []
    for name, tree in package_files():
        for node in ast.walk(tree):
            if isinstance(node, ast.Raise) and node.exc is not None:
                found += [f"{name}:{node.lineno}: {text!r}" for text in english_written_in(node.exc)]
    return found


def docstrings(tree):
    """The docstring nodes of ``tree`` (module, classes, functions): text, not messages."""
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                yield first.value


def refusals_built_outside_the_catalogue():
    """Literals worded like a refusal ("... Got X instead.") that no marked call holds: a message made elsewhere."""
    found = []
    for name, tree in package_files():
        held = {id(node) for call in ast.walk(tree) if _marked(call) for node in ast.walk(call)}
        held |= {id(node) for node in docstrings(tree)}
        for node in ast.walk(tree):
            if id(node) in held:
                continue
            if isinstance(node, ast.JoinedStr):
                text = "".join(part.value for part in node.values if isinstance(part, ast.Constant))
                held |= {id(part) for part in node.values}
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                text = node.value
            else:
                continue
            if re.search(r"\b(Got|instead\.|must be|must hold)\b", text):
                found.append(f"{name}:{node.lineno}: {text!r}")
    return found


def test_every_raise_builds_its_message_from_the_catalogue():
    assert english_raises() == []


def test_no_refusal_is_worded_in_english_outside_the_catalogue():
    assert refusals_built_outside_the_catalogue() == []


def test_the_scan_finds_english_written_in_a_raise():
    # The scan itself: an f-string or a worded literal is found, a marked template and trec_eval's words are not.
    tree = ast.parse(
        'raise ValueError(f"k must be positive. Got {k} instead.")\n'
        'raise ValueError("k must be positive")\n'
        'raise ValueError(gettext("k must be positive. Got {k} instead.").format(k=k))\n'
        'raise refused(ValueError, "k", mark("a positive number"), "0")\n'
        'raise MeasureError(gettext("measure {name!r}").format(name=n), trec_eval=f"trec_eval: illegal measure {n}")\n'
        'raise TypeError(str(error))\n'
    )
    raises = [node for node in tree.body if isinstance(node, ast.Raise)]
    assert [bool(english_written_in(node.exc)) for node in raises] == [True, True, False, False, False, False]


def both(call):
    """The message of the error ``call()`` raises in English and in Chinese, and its type."""
    with pytest.raises(Exception) as english:
        call()
    with nt.language_set("zh-CN"), pytest.raises(english.type) as chinese:
        call()
    return str(english.value), str(chinese.value)


CJK = re.compile(r"[\u4e00-\u9fff]")

# (call, the English message's start, the Chinese message's start, what was given: in both messages)
REPRESENTATIVE = [
    (lambda: nt.dcg([3, -1]), "relevances must be non-negative grades; position 2 holds -1.",
     "relevances 必须是非负的相关性等级；第 2 位是 -1。", "[3, -1]"),
    (lambda: nt.ndcg([3, 2], gain="cubic"), "gain must be one of 'linear', 'exponential'.", "gain 必须是 ", "'cubic'"),
    (lambda: nt.evaluate({"q1": {"d1": 1}}, {"q1": {"d1": 0.5}}, ["ndcg_cut.0"]),
     "measure 'ndcg_cut.0': cut-offs must be positive whole numbers", "指标 'ndcg_cut.0'：截断位置必须是正整数", "'0'"),
    (lambda: nt.evaluate({"q1": {"d1": 1}}, {"q2": {"d1": 0.5}}, ["ndcg"]), "qrels and run must share at least one",
     "qrels 和 run 必须至少有一个共同的查询", "('q2',)"),
    (lambda: nt.read_qrels({"q1": {"d1": float("nan")}}), "qrels: the grade of query 'q1', item 'd1' must be a finite",
     "qrels：查询 'q1'、条目 'd1' 的等级必须是有限数。", "nan"),
    (lambda: nt.cohen_kappa(["a", "b"], ["a"]), "a and b must label the same items", "a 和 b 必须标注相同的条目", "2"),
    (lambda: nt.CascadeModel(attractiveness={0: 0.1, 1: 1.5}), "attractiveness must give each grade a probability",
     "attractiveness 必须给每个相关性等级一个 0 到 1 之间的概率", "1: 1.5"),
    (lambda: nt.kendall_tau([0.5, 0.5, 0.5], [0.1, 0.2, 0.3]), "x must not give every system the same score",
     "x 不能给每个系统相同的分数", "[0.5, 0.5, 0.5]"),
]


@pytest.mark.parametrize(("call", "english_start", "chinese_start", "given"), REPRESENTATIVE)
def test_a_representative_error_is_chinese_under_zh_cn_with_the_parameter_and_the_given_value_intact(
        call, english_start, chinese_start, given):
    english, chinese = both(call)
    assert english.startswith(english_start) and not CJK.search(english)
    assert chinese.startswith(chinese_start) and CJK.search(chinese)
    assert given in english and given in chinese
    # No English sentence left: words only in identifiers, values and names (never three English words in a row)
    assert not re.search(r"\b[a-z]{2,} [a-z]{2,} [a-z]{2,}\b", re.sub(r"'[^']*'|\([^)]*=[^)]*\)", "", chinese)), chinese
    assert english == both(call)[0]  # setting the language back leaves the English message as it was
