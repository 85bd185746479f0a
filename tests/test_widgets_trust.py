"""The explorers trust nothing from the page: every value it sends is checked, and a refusal shows.

Messages are delivered exactly as ipywidgets delivers them (see
test_widgets_explorer's helpers); what the kernel sends back is recorded. A
refused value leaves a notice in the widget and the kernel's own value, in
Python and, sent back, in the page. A bounded hypothesis search sends random
trait values and custom messages and checks that the widget never crashes,
never holds an invalid value and always says when it refused something.
"""

import json
import re

import numpy as np
import pytest
import traitlets
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jupyter_client.session import json_packer
from test_widgets_explorer import GRADES, ITEMS, expected_metrics, front_end_custom, front_end_update, record

import ndcg_teach as nt
from ndcg_teach.core.gains import GAIN_CHOICES
from ndcg_teach.core.discounts import DISCOUNT_CHOICES
from ndcg_teach.core.item_checks import check_grade
from ndcg_teach.widgets import CompareExplorer, RankingExplorer
from ndcg_teach.widgets import changes as changes_module
from ndcg_teach.widgets import panel as panel_module
from ndcg_teach.widgets import previews as previews_module


@pytest.fixture
def wired():
    return record(RankingExplorer(ITEMS, GRADES, k=3))


def sent_back(widget, name):
    """The values of ``name`` the kernel sent to the page (updates and echoes) since :func:`record`."""
    return [message["state"][name] for message in widget.comm.messages
            if message["method"] in ("update", "echo_update") and name in message.get("state", {})]


def refused(widget):
    assert widget.notice["kind"] == "error", widget.notice
    return widget.notice["text"]


# ---- what the page may set ----------------------------------------------------------------------


@pytest.mark.parametrize(("name", "value"), [
    ("panels", []), ("comparison", [{"label": "x"}]), ("notice", {"text": "<b>fake</b>", "kind": "info"}),
    ("choices", {}), ("messages", {"hint": "hacked"}), ("language", "zh-CN"), ("labels", {"A": "spoof"}),
    ("names", ["a", "b", "c"]), ("relevance", {**GRADES, "A": 0}), ("max_grade", -5), ("max_grade", 5000),
    ("_esm", "export default {}"), ("layout", None), ("no_such_trait", 1),
])
def test_the_page_may_not_set_what_the_kernel_owns(wired, name, value):
    before = wired.get_state()
    front_end_update(wired, **{name: value})
    text = refused(wired)
    assert text.startswith(f"Refused {name} = {value!r} from the page, kept ")
    assert f"{name} is the kernel's to set: the page may set only the ranking, k, gain, discount and threshold." in text
    assert {key: value for key, value in wired.get_state().items() if key != "notice"} == \
           {key: value for key, value in before.items() if key != "notice"}
    if name in wired.keys:
        assert sent_back(wired, name)[-1] == wired.get_state(name)[name]  # the page is put back (a notice: the refusal)


@pytest.mark.parametrize(("state", "reason"), [
    ({"k": 0}, r"k must be a whole number from 1 to 5 \(the number of items\), or None for all\. Got 0 instead\."),
    ({"k": 99}, r"k must be a whole number from 1 to 5 .* Got 99 instead\."),
    ({"k": True}, r"k must be a whole number from 1 to 5 .* Got True instead\."),
    ({"k": 2.5}, r"The 'k' trait .* expected an int, not the float 2\.5\."),
    ({"k": "3"}, r"The 'k' trait .* expected an int, not the str '3'\."),
    ({"threshold": 0}, r"threshold must be a whole number from 1 to 5: .* Got 0 instead\."),
    ({"threshold": 9}, r"threshold must be a whole number from 1 to 5: .* Got 9 instead\."),
    ({"gain": "exp"}, r"The 'gain' trait .* expected any of \['linear', 'exponential'\], not the str 'exp'\."),
    ({"discount": None}, r"The 'discount' trait .* expected any of \['log2', 'jarvelin'\], not the NoneType None\."),
    ({"order": [1, 2, 3]}, r"The 'order' trait of a RankingExplorer instance contains an Unicode of a List which expected a unicode string, not the int 1\."),
    ({"k": 2, "threshold": 0}, r"threshold must be a whole number from 1 to 5"),  # one bad value refuses the whole message
])
def test_a_refused_control_keeps_every_value_shows_why_and_puts_the_page_back(wired, state, reason):
    kept = {name: getattr(wired, name) for name in state}
    panels = wired.panels
    front_end_update(wired, **state)
    text = refused(wired)
    changes = ", ".join(f"{name} = {value!r}" for name, value in state.items())
    assert text.startswith(f"Refused {changes} from the page, kept {', '.join(f'{n} = {v!r}' for n, v in kept.items())}. ")
    assert re.search(reason, text), text
    assert {name: getattr(wired, name) for name in state} == kept
    assert wired.panels == panels
    for name in state:
        assert sent_back(wired, name)[-1] == kept[name]


@pytest.mark.parametrize("name", ["k", "threshold"])
def test_true_is_refused_even_where_it_equals_the_value_held(name):
    # True == 1: traitlets alone would see no change, keep True unchecked, and the page would show a checkbox value.
    widget = record(RankingExplorer(ITEMS, GRADES, k=1))
    front_end_update(widget, **{name: True})
    assert type(getattr(widget, name)) is int and getattr(widget, name) == 1
    assert refused(widget).startswith(f"Refused {name} = True from the page, kept {name} = 1. ")


def test_a_good_change_after_a_refusal_clears_the_notice(wired):
    front_end_update(wired, k=0)
    front_end_update(wired, k=2)
    assert wired.k == 2 and wired.notice == {}
    assert wired.metrics == expected_metrics(ITEMS, k=2)


def test_a_repaired_order_is_applied_sent_back_and_said(wired):
    front_end_update(wired, order=["E", "E", "Z", "A"])
    assert wired.order == ["E", "A", "B", "D", "C"]
    assert sent_back(wired, "order") == [["E", "A", "B", "D", "C"]]
    assert refused(wired) == ("The order sent by the page named unknown or repeated items, or left some out; "
                              "it is now E, A, B, D, C.")


def test_a_change_whose_numbers_the_library_refuses_is_rolled_back(wired):
    # The pool holds a grade whose exponential gain float64 cannot hold: linear works, exponential cannot.
    widget = record(RankingExplorer(ITEMS, GRADES, k=3, pool=[5, 4, 3, 2, 1, 2000]))
    panels = widget.panels
    front_end_update(widget, gain="exponential")
    text = refused(widget)
    assert text.startswith("Refused gain = 'exponential' from the page, kept gain = 'linear'. Could not update the explorer: "
                           "ValueError: gain='exponential' needs grades below 1024")
    assert widget.gain == "linear" and widget.panels == panels
    assert sent_back(widget, "gain")[-1] == "linear"


def test_a_grade_edit_whose_numbers_cannot_be_computed_leaves_grades_and_pool_as_they_were(monkeypatch):
    widget = record(RankingExplorer(ITEMS, GRADES, k=3, pool=[5, 4, 3, 2, 1, 1]))
    compute = panel_module.compute

    def failing(order, conventions):
        if conventions.relevance["E"] == 0:
            raise RuntimeError("no numbers for this grade")
        return compute(order, conventions)

    monkeypatch.setattr(panel_module, "compute", failing)
    front_end_custom(widget, {"event": "grade", "item": "E", "grade": "0"})
    assert refused(widget) == "Could not update the explorer: RuntimeError: no numbers for this grade"
    assert widget.relevance == GRADES and widget.pool == [5, 4, 3, 2, 1, 1]
    assert widget.metrics == RankingExplorer(ITEMS, GRADES, k=3, pool=[5, 4, 3, 2, 1, 1]).metrics


# ---- what Python may set ------------------------------------------------------------------------


@pytest.mark.parametrize(("value", "message"), [
    (-5, r"max_grade must be a whole number from 5 \(the highest grade, or 1\) to 100\. Got -5 instead\."),
    (4, r"max_grade must be a whole number from 5 .* Got 4 instead\."),
    (5000, r"max_grade must be a whole number from 5 .* to 100\. Got 5000 instead\."),
])
def test_max_grade_is_checked(value, message):
    explorer = RankingExplorer(ITEMS, GRADES)
    with pytest.raises(traitlets.TraitError, match=message):
        explorer.max_grade = value
    assert explorer.max_grade == 5


def test_max_grade_cannot_fall_below_the_threshold_and_a_raised_one_allows_higher_grades():
    explorer = RankingExplorer(ITEMS, dict.fromkeys(ITEMS, 1), threshold=3)
    with pytest.raises(traitlets.TraitError, match=r"max_grade must be at least the threshold \(3\): .* Got 2 instead\."):
        explorer.max_grade = 2
    explorer.max_grade = 7
    explorer.set_grade("A", 7)
    assert explorer.relevance["A"] == 7


def test_names_and_labels_are_checked():
    duel = CompareExplorer(ITEMS, ITEMS[::-1], GRADES)
    for names in (["only"], ["a", "b", "c"], []):
        with pytest.raises(traitlets.TraitError, match=r"names must be two strings, one per ranking\. Got .* instead\."):
            duel.names = names
    with pytest.raises(traitlets.TraitError, match=r"names must hold text a browser can receive, with no lone surrogate"):
        duel.names = ["a", "b\ud800"]
    assert duel.names == ["Model A", "Model B"] and "Model A" in duel._repr_mimebundle_()[0]["text/html"]
    with pytest.raises(ValueError, match=r"names must be two strings, one per ranking\. Got \['x'\] instead\."):
        CompareExplorer(ITEMS, ITEMS, GRADES, names=["x"])
    with pytest.raises(traitlets.TraitError, match=r"labels must hold text a browser can receive"):
        duel.labels = {"A": "\udc80"}


# ---- the static picture: every text escaped, every label drawn as written ------------------------


PAYLOAD = '<img src=x onerror="alert(1)">'


def test_every_text_in_the_static_picture_is_escaped():
    items = [PAYLOAD, "B & <C>"]
    explorer = RankingExplorer(items, {PAYLOAD: 2, "B & <C>": 1}, labels={"B & <C>": "<script>x</script>"})
    explorer.panels = [{**explorer.panels[0], "name": PAYLOAD,
                        "metrics": [{**metric, "label": PAYLOAD, "text": PAYLOAD} for metric in explorer.panels[0]["metrics"]]}]
    html = explorer._repr_mimebundle_()[0]["text/html"]
    assert "<img src=x" not in html and "<script>" not in html
    assert "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;" in html and "B &amp; &lt;C&gt;" in html
    duel = CompareExplorer(items, items[::-1], {PAYLOAD: 2, "B & <C>": 1}, names=[PAYLOAD, "<b>B</b>"])
    html = duel._repr_mimebundle_()[0]["text/html"]
    assert "<img src=x" not in html and "<b>B</b>" not in html and "&lt;b&gt;B&lt;/b&gt;" in html


LABELS = ["$x_$", "$$", "$\\frac$", "$a$", "a\\b", "50% $5", "{k}", "\\"]


@pytest.mark.parametrize("label", LABELS)
def test_any_label_is_drawn_as_written_and_the_widget_still_shows(label):
    explorer = RankingExplorer([label, "B"], {label: 2, "B": 1})
    data, _ = explorer._repr_mimebundle_()
    assert {"text/plain", "text/html", "application/vnd.jupyter.widget-view+json"} <= set(data)
    json_packer(data)  # what the kernel sends must encode
    duel = CompareExplorer([label, "B"], ["B", label], {label: 2, "B": 1}, names=[label, "plain"])
    assert "text/html" in duel._repr_mimebundle_()[0]


@pytest.mark.parametrize("label", [*LABELS, "x\ud800", "\udcff"])
def test_the_plots_draw_every_label_literally_without_mathtext(label):
    from ndcg_teach.plots import CumulativePlot, DiscountPlot, literal, precision_recall_plot

    plot = DiscountPlot()
    plot.draw(nt.explain_dcg([2, 1], ranking=[label, "B"]))
    assert [text.get_text() for text in plot.labels] == [literal(label), "B"]
    assert not any(text.get_parse_math() for text in plot.labels)
    cumulative = CumulativePlot()
    cumulative.draw([nt.explain_ndcg([2, 1]), nt.explain_ndcg([1, 2])], names=[label, "B"])
    legend = cumulative.axes.get_legend()
    assert legend.get_texts()[0].get_text() == f"running DCG, {literal(label)}"
    assert not any(text.get_parse_math() for text in legend.get_texts())
    precision_recall_plot(nt.precision_recall_curve([1, 0, 1], n_relevant=2), names=[label])


def test_a_lone_surrogate_is_drawn_as_its_escape():
    from ndcg_teach.plots import literal

    assert literal("x\ud800y") == "x\\ud800y" and literal("$\\frac$") == "$\\frac$"


# ---- previews: a request costs what the list's length costs, never its square --------------------


def long_explorer(n, k=None, **options):
    rng = np.random.default_rng(1)
    items = [f"doc {i}" for i in range(n)]
    return record(RankingExplorer(items, {item: int(grade) for item, grade in zip(items, rng.integers(0, 5, n))}, k=k,
                                  **options)), items


def previews_sent(widget):
    return [message["content"] for message in widget.comm.messages
            if message["method"] == "custom" and message["content"].get("event") == "previews"]


@pytest.mark.parametrize("around", [None, 0, 5, 100, 149])
def test_a_long_list_is_previewed_in_a_window_of_destinations_around_the_learner(around):
    widget, items = long_explorer(150, k=10)
    request = {"event": "preview", "ranking": "order", "item": "doc 40"}
    front_end_custom(widget, request if around is None else {**request, "around": around})
    (message,) = previews_sent(widget)
    assert message["full"] is False and "shares" not in message
    (entry,) = message["items"]
    window = previews_module.PREVIEW_WINDOW
    centre = 40 if around is None else around
    start = min(max(centre - window, 0), 150 - 2 * window - 1)
    assert (entry["item"], entry["from"], entry["start"]) == ("doc 40", 40, start)
    assert "running" not in entry
    everything = widget.previews("order", "doc 40")["destinations"]
    m = message["metrics"]
    texts = entry["texts"].split(" ")
    assert len(texts) == (2 * window + 1) * m
    for d in range(2 * window + 1):
        assert texts[d * m:(d + 1) * m] == everything[start + d]["texts"]
        assert f"{message['label']} = {entry['scores'].split(' ')[d]}" == everything[start + d]["plot"]["score"]


def test_the_bytes_a_preview_sends_grow_with_the_list_not_its_square():
    sizes = []
    for n in (500, 2000):
        widget, items = long_explorer(n)
        front_end_custom(widget, {"event": "preview", "ranking": "order", "item": items[n // 2]})
        (message,) = [m for m in widget.comm.messages if m["method"] == "custom"]
        sizes.append(len(json_packer(message)))
    assert sizes[1] < 50_000 and sizes[1] < 4.5 * sizes[0]  # the base order (n ids) is the only part that grows


def test_compare_previews_of_a_long_list_carry_the_differences():
    items = [f"d{i}" for i in range(80)]
    grades = {item: i % 4 for i, item in enumerate(items)}
    duel = record(CompareExplorer(items, items[::-1], grades, k=5))
    front_end_custom(duel, {"event": "preview", "ranking": "order_b", "item": "d3", "around": 70})
    (message,) = previews_sent(duel)
    (entry,) = message["items"]
    everything = duel.previews("order_b", "d3")["destinations"]
    m = message["metrics"]
    deltas, signs = entry["deltas"].split(" "), entry["signs"]
    for d in range(len(signs) // m):
        rows = everything[entry["start"] + d]["comparison"]
        assert deltas[d * m:(d + 1) * m] == [row["delta"] for row in rows]
        assert [{"+": 1, "-": -1, "0": 0}[sign] for sign in signs[d * m:(d + 1) * m]] == [row["sign"] for row in rows]


@pytest.mark.parametrize(("request_", "message"), [
    ({"item": "nope"}, r"A preview must name one of the explorer's items \['doc 0', .* Got 'nope' instead\."),
    ({"item": ["doc 1"]}, r"A preview must name one of the explorer's items .* Got \['doc 1'\] instead\."),
    ({"item": "doc 1", "around": 150}, r"A preview's 'around' must be a position index from 0 to 149, or absent\. Got 150 instead\."),
    ({"item": "doc 1", "around": -1}, r"A preview's 'around' must be .* Got -1 instead\."),
    ({"item": "doc 1", "around": True}, r"A preview's 'around' must be .* Got True instead\."),
    ({"item": "doc 1", "around": "3"}, r"A preview's 'around' must be .* Got '3' instead\."),
])
def test_a_bad_preview_request_is_refused_with_a_notice(request_, message):
    widget, _ = long_explorer(150)
    front_end_custom(widget, {"event": "preview", "ranking": "order", **request_})
    assert re.fullmatch(message, refused(widget))
    assert previews_sent(widget) == []


def test_a_long_step_table_shows_its_first_and_last_rows():
    widget, items = long_explorer(150)
    panel = widget.panels[0]
    steps = panel["steps"]
    assert len(steps) == 61 and steps[50] is None
    assert [row[0] for row in steps[:50] + steps[51:]] == [str(p) for p in [*range(1, 51), *range(141, 151)]]
    assert panel["hidden_rows"] == "… 90 rows hidden …"
    assert len(panel["formula"][0]) < 600  # the formula's sums are cut too
    short, _ = long_explorer(100)
    assert None not in short.panels[0]["steps"] and len(short.panels[0]["steps"]) == 100


# ---- a bounded search over what a page could send ----------------------------------------------

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-10, 10) | st.integers() | st.floats() | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=4), inner, max_size=4),
    max_leaves=10,
)
NAMES = ["k", "gain", "discount", "threshold", "relevance", "max_grade", "labels", "names", "panels",
         "comparison", "notice", "choices", "language", "messages", "_esm", "layout", "unknown"]
ORDERS = st.lists(st.sampled_from([*ITEMS, "Z", ""]), max_size=7) | st.permutations(ITEMS)
VALUES = {
    "k": st.integers(-2, 7) | JSON_VALUES,
    "threshold": st.integers(-1, 7) | JSON_VALUES,
    "gain": st.sampled_from([*GAIN_CHOICES, "exp", ""]) | JSON_VALUES,
    "discount": st.sampled_from([*DISCOUNT_CHOICES, "log"]) | JSON_VALUES,
}


def updates(rankings):
    """State updates a page could send to an explorer whose rankings are ``rankings``."""
    values = {**VALUES, **dict.fromkeys(rankings, ORDERS)}
    return st.dictionaries(st.sampled_from([*rankings, *NAMES]), JSON_VALUES, min_size=1, max_size=3).flatmap(
        lambda state: st.fixed_dictionaries({name: values.get(name, st.just(value)) for name, value in state.items()}))


UPDATES = updates(["order"])
CUSTOM = st.fixed_dictionaries(
    {"event": st.sampled_from(["preview", "grade", "action", "dance"]) | JSON_VALUES},
    optional={"item": st.sampled_from([*ITEMS, "Z"]) | JSON_VALUES, "grade": st.sampled_from(["0", "3", "5", "9", "-1", "2.5", "x"]) | JSON_VALUES,
              "name": st.sampled_from(["ideal", "worst", "shuffle", "reset", "fly"]) | JSON_VALUES,
              "ranking": st.sampled_from(["order", "order_b"]) | JSON_VALUES, "around": st.integers(-1, 5) | JSON_VALUES},
) | JSON_VALUES
MESSAGES = st.lists(st.tuples(st.just("update"), UPDATES) | st.tuples(st.just("custom"), CUSTOM), min_size=1, max_size=6)


def assert_valid(widget):
    """Every setting is one the checks accept, and the numbers shown are the library's for them."""
    assert sorted(widget.order) == sorted(ITEMS)
    assert type(widget.k) is int and 1 <= widget.k <= len(ITEMS)
    assert widget.gain in GAIN_CHOICES and widget.discount in DISCOUNT_CHOICES
    assert type(widget.threshold) is int and type(widget.max_grade) is int
    assert 1 <= widget.max_grade <= 100 and 1 <= widget.threshold <= widget.max_grade
    assert {item: check_grade(grade, item, widget.max_grade) for item, grade in widget.relevance.items()} == widget.relevance
    assert sorted(widget.relevance) == sorted(ITEMS)
    assert widget.names == [""] and widget.language == "en" and widget.labels == dict(zip(ITEMS, ITEMS))
    assert widget.panels[0]["order"] == widget.order
    expected = expected_metrics(widget.order, widget.relevance, widget.k, widget.gain, widget.discount, widget.threshold)
    assert [metric["text"] for metric in widget.panels[0]["metrics"]] == [f"{expected[key]:.4f}" for key in expected]
    assert widget.notice == {} or (isinstance(widget.notice["text"], str) and widget.notice["kind"] in ("info", "error"))
    json_packer(widget.get_state())  # the state still travels


def custom_is_valid(widget, content):
    """Whether the page's custom message asks for something the explorer does (by the library's own checks)."""
    if not isinstance(content, dict):
        return False
    event, item = content.get("event"), content.get("item")
    if event == "grade":
        try:
            check_grade(content.get("grade"), item, widget.max_grade)
        except (TypeError, ValueError):
            return False
        return isinstance(item, str) and item in widget.relevance
    if event == "action":
        return content.get("ranking") == "order" and content.get("name") in [action for action, _, _ in changes_module.ACTIONS]
    if event == "preview":
        around = content.get("around")
        return (content.get("ranking") == "order" and isinstance(item, str) and item in widget.relevance
                and (around is None or (type(around) is int and 0 <= around < len(ITEMS))))
    return False


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(MESSAGES)
def test_whatever_the_page_sends_the_widget_stays_valid_and_says_what_it_refused(messages):
    widget = record(RankingExplorer(ITEMS, GRADES, k=3))
    for kind, content in messages:
        widget.comm.messages.clear()
        if kind == "update":
            front_end_update(widget, **content)
            state = widget.get_state()
            differs = [name for name, value in content.items() if name not in state or json.loads(json.dumps(state[name])) != value]
            if differs:  # refused or repaired: the page is told why, and shown the kernel's values
                assert told_an_error(widget), (content, widget.notice)
                for name in differs:
                    if name in widget.keys:
                        assert sent_back(widget, name)[-1] == state[name]
        else:
            front_end_custom(widget, content)
            assert told_an_error(widget) != custom_is_valid(widget, content), (content, widget.notice)
        assert_valid(widget)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(updates(["order_a", "order_b"]), min_size=1, max_size=4))
def test_whatever_the_page_sends_a_compare_explorer_keeps_both_rankings_valid(messages):
    duel = record(CompareExplorer(ITEMS, ITEMS[::-1], GRADES, k=3))
    for content in messages:
        duel.comm.messages.clear()
        front_end_update(duel, **content)
        state = duel.get_state()
        if any(name not in state or json.loads(json.dumps(state[name])) != value for name, value in content.items()):
            assert told_an_error(duel), (content, duel.notice)
        assert sorted(duel.order_a) == sorted(ITEMS) == sorted(duel.order_b)
        assert duel.names == ["Model A", "Model B"] and type(duel.k) is int and 1 <= duel.threshold <= duel.max_grade
        assert [panel["order"] for panel in duel.panels] == [duel.order_a, duel.order_b]
        assert duel.differences == {key: duel.metrics["b"][key] - duel.metrics["a"][key] for key in duel.metrics["a"]}


def told_an_error(widget):
    """Whether the widget showed an error notice since :func:`record` (and shows it still)."""
    return widget.notice.get("kind") == "error" and any(notice.get("kind") == "error" for notice in sent_back(widget, "notice"))


def test_a_chinese_explorer_says_what_it_refused_in_chinese():
    widget = record(RankingExplorer(ITEMS, GRADES, k=3, language="zh-CN"))
    front_end_update(widget, panels=[])
    text = refused(widget)
    assert text.startswith("页面发来的 panels = [] 被拒绝，保留 panels = [{")
    assert text.endswith("。panels 只能由内核设定：页面只能设定排序、k、增益、折损和阈值。")
    front_end_update(widget, order=["E"])
    assert refused(widget) == "页面发来的顺序含有未知或重复的条目，或漏掉了一些；现在的顺序是 E、B、A、D、C。"
