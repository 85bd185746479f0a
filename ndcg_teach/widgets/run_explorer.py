"""Lesson 20's run explorer: a whole run's per-query scores, or two runs' differences, and any query opened below.

:class:`RunExplorer` stacks two widgets. On top, :class:`RunOverview`
(``static/runs.js``) draws one bar per query, lowest first (for two runs: the
difference B − A, where B loses most first), the means and the paired tests
of :mod:`ndcg_teach.statistics.significance` (for one run: the run as changed against the
run as evaluated), and lists the worst queries. Choosing a query (a click, the
keyboard, or :meth:`RunExplorer.open_query`) opens it below in a
:class:`~ndcg_teach.widgets.QueryExplorer`, whose drags and judgements update
the query's bar, the means and the tests as soon as the kernel has them;
:meth:`RunExplorer.reset` undoes every change. With two runs a judgement is a
judgement of the query: both runs' values of the query follow it.

Every number comes from the library: the per-query values and the means from
the :class:`~ndcg_teach.Evaluation` (:class:`~ndcg_teach.runs.exploring.RunScores`),
the tests from :mod:`.paired`. The overview's bars keep their places while
the learner works: they are sorted once, by the values as evaluated.
"""

from html import escape
from pathlib import Path

import anywidget
import ipywidgets
import numpy as np
import traitlets

from ..core.checks import check_two_names
from ..runs.exploring import RunScores
from ..i18n import chosen_language, gettext, language_set, mark
from ..core.validation import check_count, check_open_unit, check_seed, shown
from .paired import paired_tests, summarised_tests
from .previews import _described
from .explorer import _running_loop
from .run_query import QueryExplorer

STATIC = Path(__file__).parent / "static"
WORST = 10  # the worst queries listed as buttons under the bars
# Seconds between a change and its resampling tests, so that the bars and the means are painted first.
RESAMPLE_AFTER = 0.05
FRONT_END = {
    "title_one": mark("{measure} of run {run}: {n} queries, lowest first"),
    "title_two": mark("{measure}: {b} − {a} on {n} queries, where {b} loses most first"),
    "as_evaluated": mark("as evaluated"),
    "as_changed": mark("with your changes"),
    "mean_of": mark("mean of {run}"),
    "difference": mark("mean difference {b} − {a}"),
    "t_test": mark("paired t-test"),
    "randomisation": mark("randomisation test"),
    "bootstrap": mark("bootstrap {confidence} interval"),
    "better": mark("{b} better on {up} of {n} queries, {a} on {down}"),
    "plot": mark("One bar per query; click a bar, or focus the plot and use ← / → and Enter, to open the query below."),
    "bar": mark("query {query}: {value}"),
    "bar_changed": mark("query {query}: {value} (was {start})"),
    "worst": mark("Worst queries"),
    "open_title": mark("Open query {query} below"),
    "opens": mark("A query opens in"),
    "reset": mark("Reset every change"),
    "reset_title": mark("Every query back to its ranking and judgements as evaluated"),
    "open": mark("Open below: query {query} of {run}."),
}
RUN = mark("Run this cell to open the queries")


class RunOverview(anywidget.AnyWidget):
    """The top of a :class:`RunExplorer`: the bars, the means, the tests and the worst queries (drawn by runs.js).

    The page sends what the learner chose (``{"event": "open", "query", "run"}``, ``{"event": "reset"}``);
    its owner, the :class:`RunExplorer`, answers.
    """

    _esm = "\n".join((STATIC / name).read_text(encoding="utf-8") for name in ("dom.js", "runs.js"))
    _css = "\n".join((STATIC / name).read_text(encoding="utf-8") for name in ("explorer.css", "differences.css", "runs.css"))

    labels = traitlets.List(traitlets.Unicode()).tag(sync=True)
    queries = traitlets.List(traitlets.Unicode()).tag(sync=True)  # lowest first, as evaluated
    bars = traitlets.Dict().tag(sync=True)
    summary = traitlets.Dict().tag(sync=True)
    opened = traitlets.Dict().tag(sync=True)  # {"query", "run"}: what the explorer below shows
    notice = traitlets.Dict().tag(sync=True)
    language = traitlets.Unicode("en").tag(sync=True)
    messages = traitlets.Dict().tag(sync=True)

    def set_state(self, sync_data):
        """The page sets no trait: it sends what the learner chose as messages; a value it sent goes back."""
        self.send_state([name for name in sync_data if name in self.keys])

    def __repr__(self):
        return f"RunOverview({len(self.queries)} queries)"


class RunExplorer(ipywidgets.VBox):
    """A run's per-query scores as bars, lowest first, with the mean and its paired tests; any query opens below.

    Parameters
    ----------
    result : Evaluation
        The run, from :func:`~ndcg_teach.evaluate` (A, the baseline, when ``other`` is given).
    other : Evaluation or None, default None
        A second run on the same judgements (B): the bars are then B − A
        per query, and the tests are of B − A. None: the tests compare the run
        as changed here (B) with the run as evaluated (A).
    measure : str or None, default None
        The measure of the bars, the means and the tests (its cut-off and
        gains are the step table's); None takes the first evaluated one the explorer can show.
    labels : (str, str), default ("A", "B")
        What the widget calls the two runs.
    opened : str or None, default None
        The query to open first; None opens the worst one.
    language : {"en", "zh-CN"} or None, default None
        The widget's words; None takes :func:`~ndcg_teach.language`.
    resamples, seed, confidence
        Of the randomisation test and the bootstrap interval, as in :class:`~ndcg_teach.widgets.DifferenceExplorer`.

    Attributes
    ----------
    scores : RunScores
        The per-query values, as evaluated and as changed here.
    explorer : QueryExplorer
        The query open below.
    tests : dict
        The current results of the t-test (None when every difference is
        the same), the randomisation test and the bootstrap interval.

    Examples
    --------
    >>> import ndcg_teach as nt
    >>> qrels = {"q1": {"a": 1}, "q2": {"b": 1}, "q3": {"c": 1}}
    >>> run = {"q1": {"a": 0.9, "x": 0.1}, "q2": {"x": 0.9, "b": 0.1}, "q3": {"y": 0.9, "z": 0.5, "c": 0.1}}
    >>> explorer = RunExplorer(nt.evaluate(qrels, run, ["recip_rank"]))
    >>> explorer.scores.worst_first(), explorer.explorer.qid  # the worst query opens first
    (['q3', 'q2', 'q1'], 'q3')
    >>> explorer.explorer.move("c", 1)
    >>> [round(mean, 4) for mean in explorer.scores.means()], explorer.summary["mean"]
    ([0.6111, 0.8333], '+0.2222')
    """

    def __init__(self, result, other=None, measure=None, *, labels=("A", "B"), opened=None, language=None,
                 resamples=10_000, seed=0, confidence=0.95):
        self.scores = RunScores(result, other, measure)
        self._language = chosen_language(language)
        self._resamples = check_count("resamples", resamples, mark("how many random sign assignments and bootstrap resamples to draw"))
        self._seed = check_seed(seed)
        self._confidence = check_open_unit("confidence", confidence, mark("the share of resampled means the interval keeps"))
        labels = list(check_two_names("labels", labels, ("A", "B")))
        self._explorers, self._syncing, self._resampling = {}, False, False
        self._order = self.scores.worst_first()
        self._place = {qid: i for i, qid in enumerate(self._order)}
        texts = {key: gettext(text, self._language) for key, text in FRONT_END.items()}
        self.overview = RunOverview(labels=labels, queries=self._order, language=self._language, messages=texts,
                                    opened={})
        self.overview.on_msg(self._on_front_end_message)
        super().__init__([self.overview])
        self._refresh()
        self.open_query(self._order[0] if opened is None else opened)

    # What is open below.

    @property
    def explorer(self):
        """The :class:`~ndcg_teach.widgets.QueryExplorer` of the query open below."""
        return self._explorer(self._opened["run"], self._opened["query"])

    @property
    def differences(self):
        """``b - a`` per paired query (``scores.queries``' order): the bars, before they are sorted."""
        return self.scores.differences()

    def open_query(self, qid, run=None):
        """Open query ``qid`` below, in run ``run`` (0 for A, 1 for B; None: B when there are two runs).

        A query opened before comes back as it was left.
        """
        run = len(self.scores.runs) - 1 if run is None else run
        if isinstance(run, bool) or run not in range(len(self.scores.runs)):
            raise ValueError(gettext("run must be 0 (A) or 1 (B), the runs the explorer holds. Got {got} instead.")
                             .format(got=shown(run)))
        if qid not in self._place:
            raise ValueError(gettext("qid must be one of the explorer's queries, e.g. {example!r}. Got {got} instead.")
                             .format(example=self._order[0], got=shown(qid)))
        explorer = self._explorer(run, qid)
        self._opened = {"query": qid, "run": run}
        self.children = (self.overview, explorer)
        self.overview.opened = dict(self._opened)
        name = self.overview.labels[run] if len(self.scores.runs) == 2 else self.scores.runs[0].run_id or "A"
        self._tell(gettext(FRONT_END["open"], self._language).format(query=qid, run=name))

    def _explorer(self, run, qid):
        """The explorer of ``qid`` in ``run``, built the first time it is asked for (about 20 ms for 100 items)."""
        key = (run, qid)
        if key not in self._explorers:
            explorer = QueryExplorer(self.scores.runs[run], qid, self.scores.measure, language=self._language,
                                     scores=self.scores, run=run)
            self._explorers[key] = explorer
            explorer.observe(lambda change, key=key: self._on_explorer_change(key), names=["panels"])
        return self._explorers[key]

    def reset(self):
        """Every query back to its ranking and judgements as evaluated; the query open below stays open."""
        self.scores.reset()
        old, self._explorers = list(self._explorers.values()), {}
        opened = dict(self._opened)
        self._refresh()
        self.open_query(opened["query"], opened["run"])
        for explorer in old:  # no longer shown or reachable: their models leave the page too
            explorer.close()

    # Changes made below reach the bars, the means and the tests.

    def _on_explorer_change(self, key):
        if self._syncing:
            return
        try:
            run, qid = key
            explorer = self._explorers[key]
            self.scores.set(run, qid, explorer.metrics)
            if len(self.scores.runs) == 2:
                self._share_judgements(explorer, (1 - run, qid))
            self._refresh()
        except Exception as error:  # noqa: BLE001 - an observer's error would only be logged: show it
            self._tell(gettext("Could not update the explorer: {error}", self._language).format(error=_described(error)),
                       "error")

    def _share_judgements(self, source, key):
        """A judgement is the query's, not one run's: give the other run's explorer of the query the same grades,
        unjudged items and pool, and its values to the scores."""
        target = self._explorer(*key)
        shared = [item for item in target.items if item in source.relevance]
        relevance = {**target.relevance, **{item: source.relevance[item] for item in shared}}
        unjudged = [item for item in target.items if (item in source.unjudged if item in source.relevance
                                                      else item in target.unjudged)]
        judged = relevance != target.relevance or unjudged != target.unjudged
        if not judged and list(source.pool) == list(target.pool):
            return
        self._syncing = True
        try:
            target.pool = list(source.pool)
            if judged:
                with target.hold_trait_notifications():
                    target.relevance, target.unjudged = relevance, unjudged
            else:
                target._refresh()  # only the pool changed (an item the other run did not retrieve)
        finally:
            self._syncing = False
        self.scores.set(key[0], key[1], target.metrics)

    def _refresh(self):
        """The bars, the means and the t-test from the scores at once; the resampling tests (about a second on 2,000
        queries) a moment later in a kernel, once for a burst of changes, and at once elsewhere."""
        scores = self.scores
        a, b = scores.pair()
        now, was = (b, a) if len(scores.runs) == 1 else (b - a, np.subtract(*reversed(scores.pair(evaluated=True))))
        values, starts = [0.0] * len(now), [0.0] * len(now)
        for qid, value, start in zip(scores.queries, now.tolist(), was.tolist()):
            values[self._place[qid]], starts[self._place[qid]] = value, start
        two = len(scores.runs) == 2
        with self.overview.hold_sync():
            self.overview.bars = {
                "values": values, "start": starts, "texts": [f"{value:+.4f}" if two else f"{value:.4f}" for value in values],
                "changed": sorted(self._place[qid] for qid in scores.changed()),
                "low": min(0.0, *values), "high": max(0.0 if two else 1.0, *values),
                "means": [f"{mean:.4f}" for mean in scores.means()], "measure": scores.measure,
                "run": scores.runs[0].run_id, "two": two,
            }
            self._summarise(resampled=False)
        loop = _running_loop()
        if loop is None or self.overview.comm is None:
            self._summarise(resampled=True)
        elif not self._resampling:
            self._resampling = True
            loop.call_later(RESAMPLE_AFTER, self._resample)

    def _resample(self):
        self._resampling = False
        try:
            self._summarise(resampled=True)
        except Exception as error:  # noqa: BLE001 - as in _on_explorer_change
            self._tell(gettext("Could not update the explorer: {error}", self._language).format(error=_described(error)),
                       "error")

    def _summarise(self, resampled):
        """The tests of the pair as the scores hold it now (``resampled``: with the randomisation test and the bootstrap)."""
        a, b = self.scores.pair()
        with language_set(self._language):  # the tests' sentences in the widget's language
            self.tests = paired_tests(a, b, self.overview.labels, resamples=self._resamples, seed=self._seed,
                                      confidence=self._confidence, resampled=resampled)
            self.summary = summarised_tests(b - a, self.tests, self._language, self._confidence)
        self.overview.summary = self.summary

    # The page.

    def _on_front_end_message(self, widget, content, buffers):
        """``{"event": "open", "query": qid, "run": 0 | 1}`` or ``{"event": "reset"}``; a refusal shows as a notice."""
        try:
            event = content.get("event") if isinstance(content, dict) else None
            if event == "open":
                self.open_query(content.get("query"), content.get("run"))
            elif event == "reset":
                self.reset()
            else:
                raise ValueError(gettext("A message from the widget must have event 'open' or 'reset'. Got {got} "
                                         "instead.").format(got=shown(content)))
        except (TypeError, ValueError) as error:
            self._tell(str(error), "error")
        except Exception as error:  # noqa: BLE001 - show it rather than let ipywidgets log it out of sight
            self._tell(gettext("Could not apply that change: {error}", self._language).format(error=_described(error)),
                       "error")

    def _tell(self, text, kind="info"):
        notice = self.overview.notice
        self.overview.notice = {"text": text, "kind": kind, "serial": notice.get("serial", 0) + 1}

    def _repr_mimebundle_(self, **kwargs):
        """The live widget, and a small picture (``text/html``) for where no kernel runs: the means, the tests and
        the worst queries (see :mod:`.picture` for why)."""
        data = super()._repr_mimebundle_(**kwargs)  # ipywidgets: the data alone (None once closed)
        return None if data is None else {**data, "text/html": self._picture()}

    def _picture(self):
        language, bars, summary = self._language, self.overview.bars, self.summary
        texts = self.overview.messages
        saved = gettext(mark("{run}: this is a picture of the explorer as it was saved; in a running notebook the live "
                             "widget shows instead."), language)
        a, b = self.overview.labels
        title = (texts["title_two"] if bars["two"] else texts["title_one"]).format(
            measure=bars["measure"], run=bars["run"], n=len(self._order), a=a, b=b)
        rows = "".join(f"<tr><td>{escape(qid)}</td><td>{escape(bars['texts'][i])}</td></tr>"
                       for i, qid in enumerate(self._order[:WORST]))
        head = f"<th>{escape(gettext(mark('query'), language))}</th><th>{escape(bars['measure'])}</th>"
        lines = [summary["t"]["text"] if summary["t"] else summary["t_undefined"], summary["randomisation"]["text"],
                 summary["bootstrap"]["text"]]
        return (f'<div class="ndcg-x-static"><p>{escape(saved).format(run=f"<b>{escape(gettext(RUN, language))}</b>")}</p>'
                f"<h4>{escape(title)}</h4><p>{escape(texts['worst'])}</p>"
                f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>"
                + "".join(f"<p>{escape(line)}</p>" for line in lines) + "</div>")

    def __repr__(self):
        a, b = self.scores.means()
        return (f"RunExplorer({len(self._order)} queries, {self.scores.measure}): mean {a:.4f} -> {b:.4f}, "
                f"query {self._opened['query']!r} open")
