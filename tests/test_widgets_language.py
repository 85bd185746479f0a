"""The explorers in Chinese (``language="zh-CN"``): every word translated, every number the English explorer's.

The English widget's own texts are checked in test_widgets_explorer.py and
test_widgets_picture.py; here a Chinese explorer is built next to an English
one and driven through the same changes.
"""

import re
import string

import pytest
import traitlets
from test_widgets_explorer import front_end_custom, front_end_update

import ndcg_teach as nt
from ndcg_teach.widgets import CompareExplorer, RankingExplorer
from ndcg_teach.widgets import messages as messages_module
from ndcg_teach.widgets import payload

ITEMS = ["B", "A", "D", "C", "E"]
GRADES = {"A": 5, "B": 4, "C": 3, "D": 2, "E": 1}
DUEL_B = ["E", "A", "B", "C", "D"]
CJK = re.compile(r"[\u4e00-\u9fff]")
SCRIPT = RankingExplorer._esm  # the front end's files joined, as anywidget loads them


def english_words(text):
    """Whether ``text`` holds an English word (4 letters or more, not an acronym such as IDCG) outside its {placeholders}."""
    return re.search(r"(?<![A-Za-z])[A-Za-z][a-z]{3,}", re.sub(r"\{[^}]*\}", "", text)) is not None


def string_literals(script):
    """The texts of the script's string and template literals, comments left out."""
    code = re.sub(r"^\s*//.*$", "", script, flags=re.MULTILINE)
    return re.findall(r"\"((?:[^\"\\\n]|\\.)*)\"", code) + re.findall(r"`([^`]*)`", code)


def placeholders(text):
    return sorted(field for _, field, _, _ in string.Formatter().parse(text) if field is not None)


def numbers_of(panel):
    """Everything in a panel that is a number, an id or a formula label: what must not change with the language."""
    return {
        "order": panel["order"], "texts": panel["texts"], "steps": panel["steps"], "ideal_steps": panel["ideal_steps"],
        "plot": panel["plot"], "relevant": panel["relevant"], "trait": panel["trait"], "context": panel["context"],
        "metrics": [(m["key"], m["label"], m["group"], m["text"]) for m in panel["metrics"]],
    }


def both(make):
    return make("en"), make("zh-CN")


def test_the_front_end_messages_are_chinese_with_the_same_keys_and_placeholders():
    english, chinese = RankingExplorer(ITEMS, GRADES).messages, RankingExplorer(ITEMS, GRADES, language="zh-CN").messages
    assert english == messages_module.FRONT_END
    assert set(chinese) == set(english)
    for key, text in english.items():
        assert placeholders(chinese[key]) == placeholders(text), key
        if english_words(text):
            assert CJK.search(chinese[key]) and not english_words(chinese[key].replace("explain_ndcg", "")), (key, chinese[key])


def test_every_text_the_script_shows_comes_from_the_messages():
    script = SCRIPT
    direct = re.findall(r"\bt\(\"(\w+)\"", script)
    chosen = [key for pair in re.findall(r"\bt\([^\"()]*\? \"(\w+)\" : \"(\w+)\"", script) for key in pair]
    assert set(direct + chosen) == set(messages_module.FRONT_END)
    # No copy of a phrase stays in the script's strings.
    phrases = [text for text in messages_module.FRONT_END.values() if " " in text.strip()]
    assert [literal for literal in string_literals(script) if any(text in literal for text in phrases)] == []


def test_the_kernel_side_texts_are_chinese():
    explorer = RankingExplorer(ITEMS, GRADES, k=3, language="zh-CN")
    panel = explorer.panels[0]
    texts = [
        *(text for _, *pair in explorer.choices["actions"] for text in pair),
        *(metric["help"] for metric in panel["metrics"]),
        *panel["groups"].values(),
        *(column["text"] for column in panel["columns"][1:]),  # the first is the position's symbol, i
    ]
    assert all(CJK.search(text) for text in texts), texts
    assert panel["columns"][0]["text"] == "i"
    assert panel["groups"]["binary"] == "二元指标：等级 ≥ 1 算相关"
    assert [action[1] for action in explorer.choices["actions"]] == ["理想排序", "最差排序", "打乱", "重置"]


def test_a_judged_item_the_list_misses_is_named_in_the_explorers_language():
    # The trace keeps "(not retrieved)" as data; the step table shows it in the explorer's language.
    chinese = RankingExplorer(["x", "y"], {"x": 1, "y": 0}, k=2, pool=[3, 1, 0], language="zh-CN")
    english = RankingExplorer(["x", "y"], {"x": 1, "y": 0}, k=2, pool=[3, 1, 0], language="en")
    ideal_item = payload.COLUMNS.index("ideal_item")
    assert chinese.panels[0]["steps"][0][ideal_item] == "（未检索到）"
    assert english.panels[0]["steps"][0][ideal_item] == "(not retrieved)"


def test_a_chinese_explorer_shows_the_english_ones_numbers_through_every_change():
    english, chinese = both(lambda language: RankingExplorer(ITEMS, GRADES, k=3, threshold=2, language=language))
    for explorer in (english, chinese):
        explorer.move("E", 1)
        front_end_update(explorer, k=4, gain="exponential")
        front_end_custom(explorer, {"event": "grade", "item": "C", "grade": "5"})
        explorer.shuffle()
    assert english.order == chinese.order
    assert english.metrics == chinese.metrics
    assert numbers_of(english.panels[0]) == numbers_of(chinese.panels[0])
    assert english.previews("order", "A") == chinese.previews("order", "A")


def test_a_chinese_compare_explorer_shows_the_english_ones_numbers():
    english, chinese = both(lambda language: CompareExplorer(ITEMS, DUEL_B, GRADES, k=3, language=language))
    for explorer in (english, chinese):
        explorer.move("b", "A", 1)
    assert english.comparison == chinese.comparison
    assert english.metrics == chinese.metrics
    assert [numbers_of(panel) for panel in english.panels] == [numbers_of(panel) for panel in chinese.panels]
    assert english.previews("order_b", "C") == chinese.previews("order_b", "C")
    assert (english.names, chinese.names) == (["Model A", "Model B"], ["模型 A", "模型 B"])
    assert CompareExplorer(ITEMS, DUEL_B, GRADES, names=("ranker", "BM25"), language="zh-CN").names == ["ranker", "BM25"]


@pytest.mark.parametrize(
    ("action", "expected"),
    [
        (lambda e: e.ideal(), "理想排序：A、B、C、D、E。"),
        (lambda e: e.worst(), "最差排序：E、D、C、B、A。"),
        (lambda e: e.reset(), "已重置为初始的顺序和相关性等级：B、A、D、C、E。"),
        (lambda e: e.set_grade("E", 4), "E 的相关性等级已改为 4。"),
    ],
)
def test_notices_in_chinese(action, expected):
    explorer = RankingExplorer(ITEMS, GRADES, language="zh-CN")
    action(explorer)
    assert explorer.notice["text"] == expected


def test_the_shuffle_notice_in_chinese_names_the_seed_and_the_order():
    explorer = RankingExplorer(ITEMS, GRADES, seed=7, language="zh-CN")
    explorer.shuffle()
    assert explorer.notice["text"] == f"第 1 次打乱（随机种子 7）：{'、'.join(explorer.order)}。"


@pytest.mark.parametrize(("grade", "shown"), [("9", "'9'"), ("abc", "'abc'"), (None, "None")])
def test_a_refused_grade_edit_is_explained_in_chinese(grade, shown):
    explorer = RankingExplorer(ITEMS, GRADES, language="zh-CN")
    front_end_custom(explorer, {"event": "grade", "item": "C", "grade": grade})
    assert explorer.notice == {"text": f"C 的相关性等级必须是 0 到 5 之间的整数，而输入的是 {shown}。", "kind": "error", "serial": 1}
    assert explorer.relevance == GRADES


def test_an_unexpected_error_notice_keeps_the_error_and_says_the_rest_in_chinese(monkeypatch):
    explorer = RankingExplorer(ITEMS, GRADES, language="zh-CN")

    def broken(*args, **kwargs):
        raise RuntimeError("the library is broken")

    monkeypatch.setattr(explorer, "_numbers", broken)
    explorer.k = 3
    assert explorer.notice["text"] == "探索器无法更新：RuntimeError: the library is broken"


def test_language_none_takes_the_learners_language_when_the_explorer_is_built():
    with nt.language_set("zh-CN"):
        chinese = RankingExplorer(ITEMS, GRADES)
        duel = CompareExplorer(ITEMS, DUEL_B, GRADES)
        english = RankingExplorer(ITEMS, GRADES, language="en")
    assert (chinese.language, duel.language, english.language) == ("zh-CN", "zh-CN", "en")
    assert duel.names == ["模型 A", "模型 B"]
    chinese.ideal()  # after the with block: still Chinese
    assert chinese.notice["text"] == "理想排序：A、B、C、D、E。"
    assert RankingExplorer(ITEMS, GRADES).language == "en"


@pytest.mark.parametrize(
    ("value", "error", "match"),
    [
        ("zh", ValueError, r"language must be one of 'en', 'zh-CN'\. Got 'zh' instead\."),
        (3, TypeError, r"language must be one of 'en', 'zh-CN'\. Got 3 \(int\) instead\."),
    ],
)
def test_an_unknown_language_is_refused_by_name(value, error, match):
    with pytest.raises(error, match=match):
        RankingExplorer(ITEMS, GRADES, language=value)
    with pytest.raises(error, match=match):
        CompareExplorer(ITEMS, DUEL_B, GRADES, language=value)


def test_the_language_is_fixed_once_the_explorer_is_built():
    explorer = RankingExplorer(ITEMS, GRADES, language="zh-CN")
    with pytest.raises(traitlets.TraitError, match=r"language is fixed when the explorer is built: build a new one with language='en'\. Got 'en' instead of 'zh-CN'\."):
        explorer.language = "en"
    assert explorer.language == "zh-CN"


def test_the_chinese_static_picture():
    explorer = RankingExplorer(ITEMS, GRADES, k=3, language="zh-CN")
    html = explorer._repr_mimebundle_()[0]["text/html"]
    assert "<b>运行这个单元格后即可拖动各行</b>：这张图片是该单元格显示探索器时的样子" in html
    assert "<th>位置</th><th>条目</th><th></th><th>等级</th><th></th>" in html
    assert html.count("<td>在截断位置 k 之后</td>") == len(ITEMS) - 3
    assert 'alt="DCG 累加值与 IDCG 累加值对比"' in html
    assert "Run this cell" not in html and "below k" not in html
