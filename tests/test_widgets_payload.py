"""The explorer's payload: one schema for the step rows of the panel and the previews, and each metric once a drop."""

import importlib
import json
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from test_widgets_explorer import GRADES, ITEMS, front_end_custom, previews_sent, record, unpacked

import ndcg_teach as nt
from ndcg_teach.core.metrics.ndcg import NDCG_COLUMNS
from ndcg_teach.widgets import CompareExplorer, RankingExplorer, payload

DCG_STEPS = importlib.import_module("ndcg_teach.core.metrics.dcg").dcg_steps


def test_the_schema_is_the_step_tables_columns_and_the_page_gets_it_once():
    explorer = RankingExplorer(ITEMS, GRADES, k=3, pool=[5, 4, 3, 2, 1, 5])
    panel = explorer.panels[0]
    assert explorer.payload == payload.schema()
    assert [field["key"] for field in explorer.payload["steps"]] + explorer.payload["ideal"] == list(payload.COLUMNS)
    assert set(payload.COLUMNS) <= {column.key for column in NDCG_COLUMNS}
    assert {field["by"] for field in explorer.payload["steps"]} <= set(payload.BY)
    assert len(panel["columns"]) == len(payload.COLUMNS) == len(panel["steps"][0])
    # Each cell sits where the schema says: the running DCG of the last row is the trace's DCG@3.
    trace = explorer.trace
    last = dict(zip(payload.COLUMNS, panel["steps"][-1]))
    assert last["running"] == f"{trace.parts['dcg'].value:.4f}" and last["item"] == trace.rows[-1].item
    assert last["ideal_running"] == f"{trace.parts['idcg'].value:.4f}"
    assert [column["start"] for column in panel["columns"]].index(True) == len(payload.STEP)


def test_a_packed_preview_read_by_the_schema_is_the_kernels_panel_after_that_move():
    explorer = record(RankingExplorer(ITEMS, GRADES, k=4))
    front_end_custom(explorer, {"event": "preview", "ranking": "order", "item": "D"})
    (message,) = previews_sent(explorer)
    entry = next(entry for entry in message["items"] if entry["item"] == "D")
    for d, destination in enumerate(unpacked(message, entry)):
        fresh = RankingExplorer(ITEMS, GRADES, k=4)
        fresh.move("D", d + 1)
        panel = fresh.panels[0]
        assert destination["order"] == panel["order"]
        assert [row + ideal for row, ideal in zip(destination["steps"], panel["ideal_steps"])] == panel["steps"]


FIXED_PLOT = {"positions", "discounts", "ideal"}  # sent once with the panel: no reorder changes them


def plot_of(panel):
    """The part of a panel's plot that a reorder changes."""
    return {key: value for key, value in panel["plot"].items() if key not in FIXED_PLOT}


def same_numbers(preview, confirmed):
    """A preview's plot (numbers read from 4-decimal texts) against the kernel's (exact): same arrays, same lengths,
    the same values to the texts' precision."""
    assert list(preview) == list(confirmed)
    for key, values in confirmed.items():
        if key in ("items", "score"):
            assert preview[key] == values, key
        else:
            assert len(preview[key]) == len(values) and preview[key] == pytest.approx(values, abs=5e-5), key


@pytest.mark.parametrize("k", [2, 5])
def test_a_confirmed_drop_and_a_preview_give_the_plots_the_same_arrays(k):
    explorer = record(RankingExplorer(ITEMS, GRADES, k=k, gain="exponential"))
    front_end_custom(explorer, {"event": "preview", "ranking": "order", "item": "D"})
    (message,) = previews_sent(explorer)
    entry = next(entry for entry in message["items"] if entry["item"] == "D")
    previews = explorer.previews("order", "D")["destinations"]
    # Everything a reorder changes in the plots is in the schema; the rest comes once with the panel.
    assert set(explorer.panels[0]["plot"]) == {plotted.key for plotted in payload.PLOT} | {"score"} | FIXED_PLOT
    assert [array["key"] for array in explorer.payload["plot"]] == [plotted.key for plotted in payload.PLOT]
    for d in range(len(ITEMS)):
        fresh = RankingExplorer(ITEMS, GRADES, k=k, gain="exponential")
        fresh.move("D", d + 1)
        confirmed = plot_of(fresh.panels[0])
        assert [len(confirmed[p.key]) for p in payload.PLOT] == [5 if p.over == "list" else k for p in payload.PLOT]
        assert previews[d]["plot"] == confirmed  # Python's previews: the kernel's numbers exactly
        same_numbers(payload.unpacked_plot(message, entry, d), confirmed)  # the packed message, read by the schema


def test_the_previews_message_carries_nothing_outside_the_schema():
    explorer = record(RankingExplorer(ITEMS, GRADES, k=3))
    front_end_custom(explorer, {"event": "preview", "ranking": "order", "item": "A"})
    (message,) = previews_sent(explorer)
    packed = {field.packed for field in payload.STEP if field.packed}
    envelope = {"event", "ranking", "base", "full", "context", "k", "metrics", "label", "items"}
    assert set(message) == envelope | {field.packed for field in payload.STEP if field.packed and field.by != "destination"}
    per_entry = {"item", "from", "start", "texts", "scores"}
    assert {key for entry in message["items"] for key in entry} == per_entry | (packed - set(message))


def test_a_plot_array_must_be_a_step_field_the_previews_hold_where_it_is_drawn():
    with pytest.raises(ValueError, match=r"Plotted 'gains': field must be one of 'position', .* Got field 'gian', over 'list'"):
        payload.Plotted("gains", "gian", "list")
    with pytest.raises(ValueError, match=r"Got field 'gain', over 'all' instead\."):
        payload.Plotted("gains", "gain", "all")
    with pytest.raises(ValueError, match=r"Plotted 'running': a preview holds field 'running' for the top k positions "
                                         r"only, so it must be over 'cut'\. Got over 'list' instead\."):
        payload.Plotted("running", "running", "list")


def test_a_field_must_say_where_the_page_finds_it():
    with pytest.raises(ValueError, match=r"Field 'grade': by must be one of 'position', 'item_id', .* Got 'nowhere' instead\."):
        payload.Field("grade", "nowhere", "grades")
    with pytest.raises(ValueError, match=r"Field 'grade': a field placed by 'item' needs its packed name\. Got None instead\."):
        payload.Field("grade", "item")


def counting(run):
    """How often each metric's function, explain twin or batch function, and the DCG steps, run during ``run()``."""
    codes = {DCG_STEPS.__code__: "DCG steps"}
    for spec in nt.metrics():
        for function in (spec.function, spec.explain, spec.batch):
            if function is not None:
                codes[getattr(function, "__wrapped__", function).__code__] = spec.key
    counts = Counter()

    def profile(frame, event, arg):
        if event == "call" and frame.f_code in codes:
            counts[codes[frame.f_code]] += 1

    sys.setprofile(profile)
    try:
        run()
    finally:
        sys.setprofile(None)
    return counts


@pytest.mark.parametrize(("make", "steps"), [
    # The DCG steps of the kernel's numbers: NDCG's two (the list and the ideal), the whole list's (the discount plot).
    # Of the previews, per ranking: every move's steps, the cyclic shifts (what each item adds at each position), and
    # the batches: NDCG's two, DCG's one, IDCG's one.
    (lambda: RankingExplorer(ITEMS, GRADES, k=3), (3, 2 + 4)),
    (lambda: RankingExplorer(ITEMS, GRADES, metrics=["dcg", "err", "ndcg", "precision"]), (3, 2 + 3)),
    (lambda: RankingExplorer(ITEMS, GRADES, metrics=["precision", "rr"]), (3, 2 + 2)),  # the score the plot names
    (lambda: CompareExplorer(ITEMS, ["E", "D", "C", "B", "A"], GRADES, k=4), (3, 2 * (2 + 4))),
])
def test_a_drop_computes_each_metric_once_for_the_kernel_and_once_for_every_preview(make, steps):
    explorer = make()
    explorer.send = lambda content, buffers=None: None
    cards = [spec.key for spec in explorer._specs]
    trait = explorer._rankings[-1]
    order = list(getattr(explorer, trait))
    order.insert(3, order.pop(0))
    confirmed = counting(lambda: setattr(explorer, trait, order))
    previews = counting(explorer._push_previews)
    # The kernel's numbers: NDCG's trace once, whose parts are the DCG and IDCG cards; every other card once. In
    # compare mode the ranking that did not move is not recomputed.
    from_trace = {"ndcg": 1, "dcg": 0, "idcg": 0}
    assert {key: confirmed[key] for key in cards} == {key: from_trace.get(key, 1) for key in cards}
    assert confirmed["ndcg"] == 1
    # The previews, every destination of every item of every ranking: one batch per metric that has one; a metric
    # without one (ERR) once per destination.
    rankings, moves = len(explorer._rankings), len(ITEMS) ** 2
    assert {key: previews[key] for key in cards} == {key: rankings * (1 if nt.metric(key).batch else moves) for key in cards}
    assert (confirmed["DCG steps"], previews["DCG steps"]) == steps


def test_the_cards_taken_from_ndcgs_trace_are_what_the_registry_computes():
    explorer = RankingExplorer(ITEMS, GRADES, k=3, gain="exponential", discount="jarvelin", pool=[5, 4, 3, 2, 1, 4])
    query = nt.Query.of([GRADES[item] for item in explorer.order], pool=[5, 4, 3, 2, 1, 4], n_relevant=6)
    settings = {"gain": "exponential", "discount": "jarvelin"}
    for key in ("ndcg", "dcg", "idcg"):
        assert explorer.metrics[key] == nt.call(key, query, 3, **settings)


@pytest.mark.skipif(shutil.which("node") is None, reason="node runs previews.js here; the browser tests run it in the page")
def test_the_page_reads_a_packed_preview_by_the_schema_as_python_does(tmp_path):
    # previews.js's packedCell, run by node on a real message, against payload.unpacked_steps.
    explorer = record(RankingExplorer(ITEMS, GRADES, k=4, gain="exponential"))
    front_end_custom(explorer, {"event": "preview", "ranking": "order", "item": "C"})
    (message,) = previews_sent(explorer)
    driver = """
const [message, schema] = JSON.parse(require("fs").readFileSync(0, "utf-8"));
const rows = message.items.map((entry) => message.base.map((_, d) => {
  const next = moved(message.base, entry.from, entry.start + d);
  const index = new Map(message.base.map((item, i) => [item, i]));
  const at = next.map((item) => index.get(item));
  const held = { entry };
  return [Array.from({ length: message.k }, (_, p) => schema.steps.map((field) => packedCell(field, message, held, next, at, d, p))),
    packedPlot(schema, message, held, next, at, d)];
}));
console.log(JSON.stringify(rows));
"""
    script = tmp_path / "previews.js"
    script.write_text((Path(payload.__file__).parent / "static" / "previews.js").read_text(encoding="utf-8") + driver,
                      encoding="utf-8")
    ran = subprocess.run([shutil.which("node"), str(script)], input=json.dumps([message, explorer.payload]),
                         capture_output=True, text=True, check=True)
    read = json.loads(ran.stdout)
    assert [[steps for steps, _ in entry] for entry in read] == [
        [payload.unpacked_steps(message, entry, d) for d in range(len(ITEMS))] for entry in message["items"]]
    # The plots' arrays, read by the page by the same schema, are Python's reading of them (the score is the page's own).
    assert [[plot for _, plot in entry] for entry in read] == [
        [{key: value for key, value in payload.unpacked_plot(message, entry, d).items() if key != "score"}
         for d in range(len(ITEMS))] for entry in message["items"]]
    # C (grade 3, gain 2**3 - 1 = 7) moved to the top: 7 at discount 1, then B (gain 15) at 1 / log2(3).
    c_on_top, c_plot = read[ITEMS.index("C")][0]
    assert c_on_top[:2] == [["1", "C", "3", "7.0000", "1.0000", "7.0000", "7.0000"],
                            ["2", "B", "4", "15.0000", "0.6309", "9.4639", "16.4639"]]
    assert c_plot["items"] == ["C", "B", "A", "D", "E"] and c_plot["gains"] == [7, 15, 31, 3, 1]
    assert c_plot["running"] == [7, 16.4639, 31.9639, 33.256]  # + 3 / log2(5) = 1.2920
