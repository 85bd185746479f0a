"""Lesson 13's explorer: per-query scores of two systems, and every test of their difference B − A, live.

The learner drags a query's score of A or of B (a slider per score), or swaps
A's and B's scores on one query, which flips the sign of its difference; the
mean difference, the paired t-test, the randomisation test (exact over every
sign assignment when there are at most ``resamples`` of them) and the
bootstrap interval follow. Python computes, JavaScript draws: every number
comes from :mod:`ndcg_teach.statistics.significance` (``paired_t_test(b, a)`` and its
twins, so that the difference is B − A); ``static/differences.js`` only draws
what :meth:`DifferenceExplorer._summary` sends and sends back what the learner
did (custom messages, checked here; a refused one leaves a notice).
"""

from numbers import Real
from html import escape
from pathlib import Path

import anywidget
import numpy as np
import traitlets

from ..core.checks import check_two_names
from ..i18n import chosen_language, gettext, language_set, mark
from ..core.validation import check_count, check_open_unit, check_paired_scores, check_seed, shown
from . import webfont
from .picture import caption
from .paired import paired_tests, summarised_tests
from .previews import _described

STATIC = Path(__file__).parent / "static"
SYSTEMS = ("a", "b")

FRONT_END = {
    "title": mark("Per-query scores and the tests of B − A"),
    "hint": mark("Drag a score, or focus a slider and use the arrow keys; ⇄ swaps A and B on that query, "
                 "which flips the sign of its difference."),
    "query": mark("query"),
    "difference": mark("{b} − {a}"),
    "swap": mark("⇄"),
    "swap_title": mark("Swap {a} and {b} on query {query}: its difference changes sign"),
    "score_aria": mark("score of {system} on query {query}"),
    "reset": mark("Reset"),
    "reset_title": mark("Back to the starting scores"),
    "mean": mark("mean difference {b} − {a}"),
    "t_test": mark("paired t-test"),
    "randomisation": mark("randomisation test"),
    "bootstrap": mark("bootstrap {confidence} interval"),
    "plot_alt": mark("Dots: each query's difference; line: their mean; bar: the bootstrap interval; 0 in the middle."),
    "better": mark("{b} better on {up} of {n} queries, {a} on {down}"),
}
RUN = mark("Run this cell to drag the scores")


class DifferenceExplorer(anywidget.AnyWidget):
    """Two systems' per-query scores to drag, with the mean difference, t, the randomisation p and the bootstrap interval.

    Parameters
    ----------
    a, b : sequence of float
        The two systems' scores on the same queries (at least 2), each in
        [0, 1] (a metric's per-query values). The difference shown is ``b - a``.
    queries : list of str or None, default None
        Names of the queries; None numbers them ``q1, q2, ...``.
    labels : (str, str), default ("A", "B")
        What the widget calls the systems.
    resamples : int, default 10_000
        Random sign assignments and bootstrap resamples; with at most this
        many sign assignments (``2 ** queries``) the randomisation test tries
        them all and its p-value is exact.
    seed : int, default 0
        Seed of both tests' draws: the same scores give the same numbers.
    confidence : float, default 0.95
        Of the bootstrap interval.
    language : {"en", "zh-CN"} or None, default None
        The widget's words; None takes :func:`~ndcg_teach.language`.

    Examples
    --------
    >>> explorer = DifferenceExplorer([0.4, 0.5, 0.3], [0.5, 0.7, 0.35])
    >>> explorer.differences.round(4).tolist()
    [0.1, 0.2, 0.05]
    >>> explorer.swap(1)
    >>> explorer.differences.round(4).tolist(), explorer.tests["randomisation"].p_value
    ([0.1, -0.2, 0.05], 1.0)
    """

    _esm = "\n".join((STATIC / name).read_text(encoding="utf-8") for name in ("dom.js", "differences.js"))
    _css = webfont.stylesheet("explorer.css", "differences.css")

    a = traitlets.List(traitlets.Float()).tag(sync=True)
    b = traitlets.List(traitlets.Float()).tag(sync=True)
    queries = traitlets.List(traitlets.Unicode()).tag(sync=True)
    labels = traitlets.List(traitlets.Unicode()).tag(sync=True)
    summary = traitlets.Dict().tag(sync=True)
    notice = traitlets.Dict().tag(sync=True)
    language = traitlets.Unicode("en").tag(sync=True)
    messages = traitlets.Dict().tag(sync=True)

    def __init__(self, a, b, *, queries=None, labels=("A", "B"), resamples=10_000, seed=0, confidence=0.95,
                 language=None):
        first, second = check_paired_scores(a, b)
        for name, scores in (("a", first), ("b", second)):
            if ((scores < 0) | (scores > 1)).any():
                raise ValueError(gettext("{name} must hold scores from 0 to 1 (a metric's per-query values). Got "
                                         "{got} instead.").format(name=name, got=shown(list(a if name == 'a' else b))))
        names = [f"q{i}" for i in range(1, first.size + 1)] if queries is None else list(queries)
        if len(names) != first.size or len(set(names)) != len(names) or not all(isinstance(name, str) for name in names):
            raise ValueError(gettext("queries must name each of the {size} queries once, as strings. Got {got} "
                                     "instead.").format(size=first.size, got=shown(queries)))
        self._resamples = check_count("resamples", resamples, mark("how many random sign assignments and bootstrap resamples to draw"))
        self._seed = check_seed(seed)
        self._confidence = check_open_unit("confidence", confidence, mark("the share of resampled means the interval keeps"))
        self._language = chosen_language(language)
        self._start = (first.tolist(), second.tolist())
        labels = list(check_two_names("labels", labels, ("A", "B")))
        texts = {key: gettext(text, self._language) for key, text in FRONT_END.items()}
        super().__init__(a=first.tolist(), b=second.tolist(), queries=names, labels=labels, language=self._language,
                         messages=texts)
        self._refresh()
        self.observe(lambda change: self._refresh(), names=["a", "b"])
        self.on_msg(self._on_front_end_message)

    @property
    def differences(self):
        """``b - a`` per query, as a float64 array."""
        return np.asarray(self.b) - np.asarray(self.a)

    def _tests(self):
        """The library's results for the current scores: B's first, so that each is of B − A."""
        return paired_tests(self.a, self.b, self.labels, resamples=self._resamples, seed=self._seed,
                            confidence=self._confidence)

    @property
    def tests(self):
        """The current :class:`~ndcg_teach.statistics.significance.SignificanceResult` of the t-test (None when every difference
        is the same) and of the randomisation test, and the :class:`~ndcg_teach.statistics.significance.BootstrapInterval`."""
        return dict(self._results)

    def _summary(self, results):
        """What the page shows: texts to 4 decimals, and the floats it draws."""
        d = self.differences
        return {"differences": [f"{value:+.4f}" for value in d.tolist()], "values": d.tolist(),
                **summarised_tests(d, results, self._language)}

    def _refresh(self):
        with language_set(self._language):  # the results' sentences in the widget's language
            self._results = self._tests()
            self.summary = self._summary(self._results)

    # Changes a learner makes.

    def set_score(self, system, query, score):
        """Give ``system`` (``"a"`` or ``"b"``) the score ``score`` (0 to 1) on query ``query`` (its index or name)."""
        if system not in SYSTEMS:
            raise ValueError(gettext("system must be 'a' or 'b'. Got {got} instead.").format(got=shown(system)))
        index = self._index(query)
        if isinstance(score, bool) or not isinstance(score, Real) or not 0 <= score <= 1:
            raise ValueError(gettext("score must be a number from 0 to 1. Got {got} instead.")
                                    .format(got=shown(score)))
        scores = list(getattr(self, system))
        scores[index] = float(score)
        setattr(self, system, scores)

    def swap(self, query):
        """Swap A's and B's scores on ``query`` (its index or name): its difference changes sign."""
        index = self._index(query)
        a, b = list(self.a), list(self.b)
        a[index], b[index] = b[index], a[index]
        with self.hold_trait_notifications():
            self.a, self.b = a, b
        self._tell(gettext("Swapped {a} and {b} on {query}: its difference is now {difference}.", self._language).format(
            a=self.labels[0], b=self.labels[1], query=self.queries[index], difference=self.summary["differences"][index]))

    def reset(self):
        """Back to the starting scores."""
        with self.hold_trait_notifications():
            self.a, self.b = list(self._start[0]), list(self._start[1])
        self._tell(gettext("Back to the starting scores.", self._language))

    def _index(self, query):
        if isinstance(query, str) and query in self.queries:
            return self.queries.index(query)
        if isinstance(query, bool) or not isinstance(query, int) or not 0 <= query < len(self.queries):
            raise ValueError(gettext("query must be an index from 0 to {value} or one of {queries}. Got {got} "
                                     "instead.").format(value=len(self.queries) - 1, queries=shown(self.queries),
                                                        got=shown(query)))
        return query

    def set_state(self, sync_data):
        """The page sets no trait: it sends its changes as messages, checked here; a value it sent goes back."""
        self.send_state([name for name in sync_data if name in self.keys])
        self._tell(gettext("The page changes scores by messages only; kept {names} as they were.", self._language).format(
            names=", ".join(sorted(sync_data))), "error")

    def _tell(self, text, kind="info"):
        self.notice = {"text": text, "kind": kind, "serial": self.notice.get("serial", 0) + 1}

    def _on_front_end_message(self, widget, content, buffers):
        """``{"event": "score", "system", "query", "score"}``, ``{"event": "swap", "query"}`` or ``{"event": "reset"}``."""
        try:
            event = content.get("event") if isinstance(content, dict) else None
            if event == "score":
                self.set_score(content.get("system"), content.get("query"), content.get("score"))
            elif event == "swap":
                self.swap(content.get("query"))
            elif event == "reset":
                self.reset()
            else:
                raise ValueError(gettext("A message from the widget must have event 'score', 'swap' or 'reset'. "
                                         "Got {got} instead.").format(got=shown(content)))
        except (TypeError, ValueError) as error:
            self._tell(str(error), "error")
        except Exception as error:  # noqa: BLE001 - show it rather than let ipywidgets log it out of sight
            self._tell(gettext("Could not apply that change: {error}", self._language).format(error=_described(error)), "error")

    def _repr_mimebundle_(self, **kwargs):
        """The live widget, and a picture of its numbers (``text/html``) for where no kernel runs (see :mod:`.picture`)."""
        bundle = super()._repr_mimebundle_(**kwargs)
        if bundle is None:
            return None
        data, metadata = bundle
        return {**data, "text/html": self._picture()}, metadata

    def _picture(self):
        language, (a, b) = self._language, self.labels
        head = "".join(f"<th>{escape(text)}</th>" for text in (gettext(FRONT_END["query"], language), a, b,
                                                                gettext(FRONT_END["difference"], language).format(a=a, b=b)))
        rows = "".join(f"<tr><td>{escape(query)}</td><td>{x:.2f}</td><td>{y:.2f}</td><td>{difference}</td></tr>"
                       for query, x, y, difference in zip(self.queries, self.a, self.b, self.summary["differences"]))
        summary = self.summary
        lines = [summary["t"]["text"] if summary["t"] else summary["t_undefined"], summary["randomisation"]["text"],
                 summary["bootstrap"]["text"]]
        return (f'<div class="ndcg-x-static">{caption(language, RUN)}'
                f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>"
                + "".join(f"<p>{escape(line)}</p>" for line in lines) + "</div>")

    def __repr__(self):
        return f"DifferenceExplorer({len(self.queries)} queries): mean {self.labels[1]} - {self.labels[0]} = {self.summary['mean']}"
