"""RankingExplorer and CompareExplorer on the Python side: state, checks, messages, recomputation.

The front end is simulated by the messages it sends (``_handle_msg`` with the
exact shape ipywidgets delivers), and what the kernel sends back is recorded by
the comm's ``send``. The real browser is in ``tests/browser``.
"""

import asyncio
import re
import shutil
import subprocess

import pytest
import traitlets

import ndcg_teach as nt
from ndcg_teach.widgets import CompareExplorer, RankingExplorer
from ndcg_teach.widgets import explorer as explorer_module
from ndcg_teach.widgets import payload
from ndcg_teach.widgets import previews as previews_module
from ndcg_teach.widgets import webfont

ITEMS = ["B", "A", "D", "C", "E"]
GRADES = {"A": 5, "B": 4, "C": 3, "D": 2, "E": 1}


def record(widget):
    """Keep every message ``widget`` sends to the front end in ``widget.comm.messages``."""
    widget.comm.messages = []
    widget.comm.send = lambda data=None, buffers=None, **_: widget.comm.messages.append(data)
    return widget


def sent(widget):
    """``(method, sorted trait names)`` of each message sent since :func:`record` (bytes travel as buffers)."""
    return [
        (message["method"], sorted([*message.get("state", {}), *(path[0] for path in message.get("buffer_paths", []))]))
        for message in widget.comm.messages
    ]


def front_end_update(widget, **state):
    """Deliver ``state`` exactly as ipywidgets' front end does when JavaScript calls ``model.save_changes()``."""
    widget._handle_msg({"content": {"data": {"method": "update", "state": state, "buffer_paths": []}}, "buffers": []})


def front_end_custom(widget, content):
    """Deliver a custom message exactly as ``model.send(content)`` in explorer.js does."""
    widget._handle_msg({"content": {"data": {"method": "custom", "content": content}}, "buffers": []})


@pytest.fixture
def explorer():
    return RankingExplorer(ITEMS, GRADES)


@pytest.fixture
def wired(explorer):
    return record(explorer)


def expected_metrics(order, grades=GRADES, k=None, gain="linear", discount="log2", threshold=1):
    relevances = nt.relevances_from(order, grades)
    k = len(order) if k is None else k
    return {
        "ndcg": nt.ndcg(relevances, k=k, gain=gain, discount=discount),
        "dcg": nt.dcg(relevances, k=k, gain=gain, discount=discount),
        "idcg": nt.idcg(relevances, k=k, gain=gain, discount=discount),
        "cg": nt.cg(relevances, k=k),
        "precision": nt.precision_at_k(relevances, k, threshold=threshold),
        "recall": nt.recall_at_k(relevances, k, threshold=threshold),
        "ap": nt.average_precision(relevances, k=k, threshold=threshold),
        "rr": nt.reciprocal_rank(relevances, k=k, threshold=threshold),
    }


def shown_numbers(widget, panel=0):
    """The metric texts the front end will show, by data-metric key."""
    return {metric["key"]: metric["text"] for metric in widget.panels[panel]["metrics"]}


# ---- defaults --------------------------------------------------------------------------------


def test_defaults(explorer):
    assert explorer.order == ITEMS
    assert (explorer.k, explorer.gain, explorer.discount, explorer.threshold) == (5, "linear", "log2", 1)
    assert explorer.max_grade == 5
    assert explorer.labels == {item: item for item in ITEMS}
    assert explorer.pool is None
    assert explorer.notice == {}
    assert explorer.metrics == expected_metrics(ITEMS)


def test_reference_value_from_the_design_notes(explorer):
    # DESIGN.md: ranked grades [4, 5, 2, 3, 1], linear NDCG@5 = 0.95732117485131151.
    assert explorer.metrics["ndcg"] == pytest.approx(0.95732117485131151, abs=1e-15)
    assert shown_numbers(explorer)["ndcg"] == "0.9573"


def test_every_number_is_sent_to_four_decimals(explorer):
    texts = shown_numbers(explorer)
    assert list(texts) == ["ndcg", "dcg", "idcg", "cg", "precision", "recall", "ap", "rr"]
    assert texts == {key: f"{value:.4f}" for key, value in explorer.metrics.items()}
    assert all(re.fullmatch(r"\d+\.\d{4}", text) for text in texts.values())


def test_trace_is_the_library_trace(explorer):
    expected = nt.explain_ndcg([4, 5, 2, 3, 1], k=5, ranking=ITEMS)
    assert explorer.trace == expected
    assert explorer.panels[0]["formula"] == expected.formula.splitlines()[:3]
    assert explorer.panels[0]["steps"][0][:3] == ["1", "B", "4"]


def test_labels_default_to_ids_and_max_grade_grows_with_the_grades():
    widget = RankingExplorer(["x", "y"], {"x": 7, "y": 0}, labels={"x": "Xylophone"})
    assert widget.labels == {"x": "Xylophone", "y": "y"}
    assert widget.max_grade == 7


def test_repr_has_no_memory_address(explorer):
    text = repr(explorer)
    assert "0x" not in text
    assert text == (
        "RankingExplorer(order=['B', 'A', 'D', 'C', 'E'], k=5, gain='linear', discount='log2', threshold=1): "
        "NDCG@5 = 0.9573"
    )
    bundle, _ = explorer._repr_mimebundle_()
    assert bundle["text/plain"] == text


def test_importing_the_widgets_does_not_import_pyplot():
    import subprocess
    import sys

    probe = "import sys, ndcg_teach.widgets; print('matplotlib.pyplot' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout.strip() == "False"


# ---- checks at construction ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"ranking": "BADCE"}, TypeError, r"ranking must be a list of item ids \(strings\), best first\. Got 'BADCE' instead\."),
        ({"ranking": []}, ValueError, r"ranking must hold at least one item id\. Got \[\] instead\."),
        ({"ranking": [1, 2]}, TypeError, r"ranking must be a list of item ids \(strings\), best first\. Got \[1, 2\] instead\."),
        ({"ranking": ["A", "A", "B"]}, ValueError, r"ranking must name each item once; \['A'\] repeat\. Got"),
        ({"relevance": {"A": 5}}, ValueError, r"relevance must give a grade for every item; missing \['B', 'D', 'C', 'E'\]\. Got"),
        ({"relevance": {**GRADES, "Z": 1}}, ValueError, r"relevance must grade only the listed items .* \['Z'\] are not listed\."),
        ({"relevance": {**GRADES, "A": 2.5}}, ValueError, r"The grade of 'A' must be a whole number from 0 to 100\. Got 2\.5 instead\."),
        ({"relevance": {**GRADES, "A": -1}}, ValueError, r"The grade of 'A' must be a whole number from 0 to 100\. Got -1 instead\."),
        ({"relevance": {**GRADES, "A": 101}}, ValueError, r"The grade of 'A' must be a whole number from 0 to 100\. Got 101 instead\."),
        ({"k": 0}, ValueError, r"k must be a whole number from 1 to 5 \(the number of items\), or None for all\. Got 0 instead\."),
        ({"k": 6}, ValueError, r"k must be a whole number from 1 to 5 .* Got 6 instead\."),
        ({"gain": "exp"}, ValueError, r"gain must be one of 'linear', 'exponential'\. Got 'exp' instead\."),
        ({"discount": "log"}, ValueError, r"discount must be one of 'log2', 'jarvelin'\. Got 'log' instead\."),
        ({"threshold": 0}, ValueError, r"threshold must be a whole number from 1 to 5: .* Got 0 instead\."),
        ({"max_grade": 4}, ValueError, r"max_grade must be a whole number from 5 \(the highest grade, or 1\) to 100\. Got 4 instead\."),
        ({"max_grade": 5000}, ValueError, r"max_grade must be a whole number from 5 \(the highest grade, or 1\) to 100\. Got 5000 instead\."),
        ({"max_grade": 2, "relevance": dict.fromkeys(GRADES, 0), "threshold": 3}, ValueError,
         r"threshold must be a whole number from 1 to 2: .* Got 3 instead\."),
        ({"ranking": ["B", "A", "D", "C", "x\ud800"], "relevance": {**GRADES, "x\ud800": 1}}, ValueError,
         r"ranking must hold text a browser can receive, with no lone surrogate \(half of a UTF-16 pair; here U\+D800\)\. Got 'x\\ud800' instead\."),
        ({"labels": {"A": "\udc80"}}, ValueError, r"labels must hold text a browser can receive, with no lone surrogate .* here U\+DC80\)\."),
        ({"pool": [5, 4, 3, 2, 1, 2000], "gain": "exponential"}, ValueError, r"gain='exponential' needs grades below 1024: .* Got grade 2000 instead\."),
        ({"labels": ["a"]}, TypeError, r"labels must map item ids to names, .* Got \['a'\] instead\."),
    ],
)
def test_bad_arguments_are_refused(kwargs, error, message):
    arguments = {"ranking": ITEMS, "relevance": GRADES, **kwargs}
    with pytest.raises(error, match=message):
        RankingExplorer(**arguments)


def test_pool_must_hold_the_listed_grades():
    with pytest.raises(ValueError, match=r"pool must hold the grades of every judged item.*Got pool=\[5, 4\] instead\."):
        RankingExplorer(ITEMS, GRADES, pool=[5, 4])


def test_whole_float_grades_become_ints():
    widget = RankingExplorer(["A", "B"], {"A": 2.0, "B": 0})
    assert widget.relevance == {"A": 2, "B": 0}
    assert all(isinstance(grade, int) for grade in widget.relevance.values())


# ---- order: validate and repair --------------------------------------------------------------


@pytest.mark.parametrize(
    ("proposed", "repaired"),
    [
        (["E", "D", "C", "B", "A"], ["E", "D", "C", "B", "A"]),
        (["E", "Z", "A"], ["E", "A", "B", "D", "C"]),  # unknown dropped, missing appended in starting order
        (["A", "A", "C", "A"], ["A", "C", "B", "D", "E"]),  # repeats dropped
        ([], ITEMS),
    ],
)
def test_order_is_repaired(explorer, proposed, repaired):
    explorer.order = proposed
    assert explorer.order == repaired
    assert explorer.metrics == expected_metrics(repaired)


def test_order_must_be_a_list_of_strings(explorer):
    with pytest.raises(traitlets.TraitError):
        explorer.order = [1, 2, 3]
    explorer.order = "EDCBA"  # traitlets reads a string as a one-id list: an unknown id, dropped
    assert explorer.order == ITEMS


# ---- messages exactly as the front end sends them --------------------------------------------


def previews_sent(widget):
    """The preview messages (custom ``{"event": "previews"}``) sent since :func:`record`."""
    return [message["content"] for message in widget.comm.messages
            if message["method"] == "custom" and message["content"].get("event") == "previews"]


def test_a_drop_from_the_front_end_recomputes_and_sends_numbers_plots_and_steps_in_one_message(wired):
    front_end_update(wired, order=["E", "B", "A", "D", "C"])
    assert wired.order == ["E", "B", "A", "D", "C"]
    assert wired.metrics == expected_metrics(["E", "B", "A", "D", "C"])
    # No echo and no copy of `order` back: the browser that sent it already shows it.
    assert sent(wired) == [("update", ["panels"])]
    assert wired.panels[0]["order"] == ["E", "B", "A", "D", "C"]  # the order these numbers belong to


def test_the_plot_arrays_are_the_library_traces():
    widget = RankingExplorer(ITEMS, GRADES, k=3)
    plot = widget.panels[0]["plot"]
    whole = nt.explain_dcg(nt.relevances_from(ITEMS, GRADES), ranking=ITEMS)
    at_k = nt.explain_ndcg(nt.relevances_from(ITEMS, GRADES), 3, ranking=ITEMS)
    assert plot["items"] == ITEMS
    assert plot["gains"] == [row.gain for row in whole.rows]
    assert plot["shares"] == [row.contribution for row in whole.rows]
    assert plot["discounts"] == [row.discount for row in whole.rows]
    assert plot["running"] == [row.running for row in at_k.rows]
    assert plot["ideal"] == [row.ideal_running for row in at_k.rows]
    assert plot["positions"] == [1, 2, 3]
    assert plot["score"] == f"NDCG@3 = {at_k.value:.4f}"


@pytest.mark.parametrize("k", [None, 2])
def test_each_preview_is_what_the_kernel_shows_after_that_move(k):
    widget = RankingExplorer(ITEMS, GRADES, k=k, threshold=3)
    message = widget.previews("order", "D")
    assert message["item"] == "D"
    for position, destination in enumerate(message["destinations"], start=1):
        fresh = RankingExplorer(ITEMS, GRADES, k=k, threshold=3)
        fresh.move("D", position)
        panel = fresh.panels[0]
        assert destination["order"] == panel["order"] == fresh.order
        assert destination["texts"] == [metric["text"] for metric in panel["metrics"]]
        assert [row + ideal for row, ideal in zip(destination["steps"], panel["ideal_steps"])] == panel["steps"]
        assert {**panel["plot"], **destination["plot"]} == panel["plot"]


def test_a_preview_request_is_answered_for_every_item_of_a_short_list(wired):
    front_end_custom(wired, {"event": "preview", "ranking": "order", "item": "C"})
    (message,) = previews_sent(wired)
    assert (message["ranking"], message["base"], message["context"]) == ("order", ITEMS, wired.panels[0]["context"])
    assert [entry["item"] for entry in message["items"]] == ITEMS
    for entry in message["items"]:
        assert unpacked(message, entry) == shown_as_text(wired.previews("order", entry["item"])["destinations"])


def unpacked(message, entry):
    """A packed previews entry read back as the front end reads it: order, texts, step rows (by the payload schema, as
    the page reads them), score per destination."""
    n, k, m = len(message["base"]), message["k"], message["metrics"]
    texts, running = entry["texts"].split(" "), entry[payload.FIELDS["running"].packed].split(" ")
    destinations = []
    for d in range(n):
        order = [item for item in message["base"] if item != entry["item"]]
        order.insert(d, entry["item"])
        steps = payload.unpacked_steps(message, entry, d)
        destinations.append({"order": order, "texts": texts[d * m:(d + 1) * m], "steps": steps,
                             "running": running[d * k:(d + 1) * k],
                             "score": f"{message['label']} = {entry['scores'].split(' ')[d]}"})
    return destinations


def shown_as_text(destinations):
    """Python's previews with the running DCG as the 4-decimal texts the packed message carries."""
    return [{"order": d["order"], "texts": d["texts"], "steps": d["steps"],
             "running": [f"{value:.4f}" for value in d["plot"]["running"]], "score": d["plot"]["score"]}
            for d in destinations]


def test_a_long_list_previews_only_the_items_asked_for_and_pushes_them_after_each_change():
    items = [f"item {i}" for i in range(previews_module.PREVIEW_ALL_UP_TO + 1)]
    widget = record(RankingExplorer(items, {item: i % 4 for i, item in enumerate(items)}))
    front_end_custom(widget, {"event": "preview", "ranking": "order", "item": "item 3"})
    assert [[entry["item"] for entry in message["items"]] for message in previews_sent(widget)] == [["item 3"]]

    async def drop():
        front_end_update(widget, order=[items[1], items[0], *items[2:]])
        await asyncio.sleep(0)
        before = len(previews_sent(widget))
        await asyncio.sleep(previews_module.PREVIEW_AFTER + 0.05)
        return before

    assert asyncio.run(drop()) == 1  # previews wait PREVIEW_AFTER: the numbers leave first, and the drop is painted first
    pushed = previews_sent(widget)[-1]
    assert pushed["base"] == widget.order
    assert [entry["item"] for entry in pushed["items"]] == ["item 3"]


def test_a_burst_of_drops_prepares_the_previews_once(wired):
    async def drops():
        front_end_update(wired, order=["E", "B", "A", "D", "C"])
        front_end_update(wired, order=["C", "B", "A", "D", "E"])
        await asyncio.sleep(previews_module.PREVIEW_AFTER + 0.05)

    asyncio.run(drops())
    assert sent(wired) == [("update", ["panels"]), ("update", ["panels"]), ("custom", [])]
    assert previews_sent(wired)[0]["base"] == ["C", "B", "A", "D", "E"]


def test_a_bad_order_from_the_front_end_is_repaired_and_sent_back(wired):
    front_end_update(wired, order=["E", "E", "Z", "A"])
    assert wired.order == ["E", "A", "B", "D", "C"]
    repairs = [message["state"]["order"] for message in wired.comm.messages
               if message["method"] == "update" and "order" in message["state"]]
    assert repairs == [["E", "A", "B", "D", "C"]]


def test_controls_from_the_front_end_recompute(wired):
    front_end_update(wired, k=3, gain="exponential")
    assert wired.metrics == expected_metrics(ITEMS, k=3, gain="exponential")
    assert wired.panels[0]["metrics"][0]["label"] == "NDCG@3"


@pytest.mark.parametrize(
    ("grade", "shown"),
    [("9", "'9'"), ("-1", "'-1'"), ("2.5", "'2.5'"), ("", "''"), ("abc", "'abc'"), (None, "None"), (6, "6")],
)
def test_a_bad_grade_edit_is_refused_with_a_message_and_nothing_else_changes(wired, grade, shown):
    panels = wired.panels
    front_end_custom(wired, {"event": "grade", "item": "C", "grade": grade})
    assert wired.notice["kind"] == "error"
    assert wired.notice["text"] == f"The grade of 'C' must be a whole number from 0 to 5. Got {shown} instead."
    assert wired.relevance == GRADES
    assert wired.panels == panels
    assert [keys for _, keys in sent(wired)] == [["notice"]]


def test_a_good_grade_edit_recomputes(wired):
    front_end_custom(wired, {"event": "grade", "item": "E", "grade": "5"})
    assert wired.relevance["E"] == 5
    assert wired.metrics == expected_metrics(ITEMS, grades={**GRADES, "E": 5})
    assert wired.notice["text"] == "Grade of E is now 5."
    assert wired.notice["kind"] == "info"


def test_an_error_notice_clears_on_the_next_good_change(wired):
    front_end_custom(wired, {"event": "grade", "item": "C", "grade": "9"})
    front_end_update(wired, order=["A", "B", "C", "D", "E"])
    assert wired.notice == {}


def test_an_unknown_item_or_event_is_shown_as_an_error(wired):
    front_end_custom(wired, {"event": "grade", "item": "Z", "grade": "1"})
    assert wired.notice["text"].startswith("item must be one of the explorer's items")
    front_end_custom(wired, {"event": "dance"})
    assert wired.notice["text"] == "A message from the widget must have event 'preview', 'grade', 'judge' or 'action'. Got {'event': 'dance'} instead."
    front_end_custom(wired, {"event": "action", "name": "fly", "ranking": "order"})
    assert wired.notice["text"] == "action must be one of 'ideal', 'worst', 'shuffle', 'reset'. Got 'fly' instead."
    front_end_custom(wired, {"event": "action", "name": "ideal", "ranking": "order_b"})
    assert wired.notice["text"] == "ranking must be one of 'order'. Got 'order_b' instead."
    assert wired.order == ITEMS


@pytest.mark.parametrize(
    ("action", "order"),
    [("ideal", ["A", "B", "C", "D", "E"]), ("worst", ["E", "D", "C", "B", "A"])],
)
def test_order_buttons(wired, action, order):
    front_end_custom(wired, {"event": "action", "name": action, "ranking": "order"})
    assert wired.order == order
    assert wired.metrics == expected_metrics(order)


def test_ideal_gives_ndcg_one_and_worst_keeps_ties_in_order():
    widget = RankingExplorer(["a", "b", "c", "d"], {"a": 0, "b": 2, "c": 0, "d": 2})
    widget.ideal()
    assert widget.order == ["b", "d", "a", "c"]
    assert widget.metrics["ndcg"] == 1.0
    widget.worst()
    assert widget.order == ["a", "c", "b", "d"]


def test_shuffle_is_seeded_and_reset_restarts_it():
    first, second = RankingExplorer(ITEMS, GRADES, seed=7), RankingExplorer(ITEMS, GRADES, seed=7)
    runs = []
    for widget in (first, second):
        orders = []
        for _ in range(4):
            widget.shuffle()
            orders.append(widget.order)
        runs.append(orders)
    assert runs[0] == runs[1]
    assert all(order != previous for order, previous in zip(runs[0], [ITEMS, *runs[0]]))
    first.reset()
    assert first.order == ITEMS
    first.shuffle()
    assert first.order == runs[0][0]
    assert RankingExplorer(ITEMS, GRADES, seed=8).shuffle() is None


def test_each_shuffle_message_says_which_shuffle_of_the_seed_it_is(explorer):
    explorer.shuffle()
    first = explorer.notice["text"]
    explorer.shuffle()
    assert first.startswith("Shuffle 1 from seed 0: ")
    assert explorer.notice["text"] == f"Shuffle 2 from seed 0: {', '.join(explorer.order)}."
    explorer.reset()
    explorer.shuffle()
    assert explorer.notice["text"] == first


def test_reset_restores_order_and_grades(explorer):
    explorer.set_grade("E", 5)
    explorer.move("E", 1)
    explorer.reset()
    assert (explorer.order, explorer.relevance) == (ITEMS, GRADES)
    assert explorer.metrics == expected_metrics(ITEMS)


def test_the_front_end_is_every_static_script_joined_once_into_one_module():
    static = explorer_module.STATIC
    # Every script but lesson 13's DifferenceExplorer's and lesson 20's run overview's own, each joined after dom.js.
    assert sorted(explorer_module.SCRIPTS) == sorted(path.name for path in static.glob("*.js")
                                                     if path.name not in ("differences.js", "runs.js"))
    module = RankingExplorer._esm
    assert module == CompareExplorer._esm
    # One module: a name declared twice at the top level, or a second export, would not load.
    declared = re.findall(r"^(?:async function\*?|function\*?|class|const|let|var) (\w+)", module, flags=re.MULTILINE)
    assert {"h", "draw", "drawDiscount", "render"} <= set(declared)
    assert len(declared) == len(set(declared)), sorted(name for name in set(declared) if declared.count(name) > 1)
    assert re.findall(r"^export ", module, flags=re.MULTILINE) == ["export "]
    assert module.rstrip().endswith("export default { render };")


def test_the_stylesheet_is_every_static_sheet_joined_once_and_each_file_stays_short():
    static = explorer_module.STATIC
    # Every sheet but lesson 13's DifferenceExplorer's and lesson 20's run overview's own, each joined after explorer.css.
    assert sorted(explorer_module.STYLES) == sorted(path.name for path in static.glob("*.css")
                                                    if path.name not in ("differences.css", "runs.css"))
    sheets = "\n".join((static / name).read_text(encoding="utf-8") for name in explorer_module.STYLES)
    assert RankingExplorer._css == webfont.font_face() + "\n" + sheets  # the Chinese web font first (tests/test_webfont.py)
    for path in static.glob("*.*"):
        assert len(path.read_text(encoding="utf-8").splitlines()) < 500, path.name


@pytest.mark.skipif(shutil.which("node") is None, reason="node parses the module here; the browser tests load it anyway")
def test_the_joined_front_end_parses_as_a_module(tmp_path):
    script = tmp_path / "explorer.mjs"
    script.write_text(RankingExplorer._esm, encoding="utf-8")
    checked = subprocess.run([shutil.which("node"), "--check", str(script)], capture_output=True, text=True, check=False)
    assert checked.returncode == 0, checked.stderr
