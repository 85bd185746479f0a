"""Drag-to-reorder explorers: reorder a ranking and watch every score follow.

:class:`RankingExplorer` shows one ranked list; :class:`~ndcg_teach.widgets.CompareExplorer` shows
two rankings of the same items side by side with the difference in every
metric. Both share one front end, ``static/explorer.js`` and the parts joined before it (``SCRIPTS``), styled by
``explorer.css``, ``list.css`` and ``numbers.css``. What the page may change and how a refusal is shown is in
:mod:`.changes`; the previews sent ahead of a drop are in :mod:`.previews`.

Python computes, JavaScript draws. The synced list of item ids (``order``, or
``order_a`` and ``order_b``) is the source of truth: a drag in the browser
sets it, Python repairs it if needed, asks the library for every number
(:func:`~ndcg_teach.explain_ndcg` and friends, through :mod:`.panel`) and sends
back the numbers, the step rows and the plots' arrays (the browser draws the
plots as SVG). So that a drop never waits for the kernel, Python also sends
previews: the same fields for every position the learner may drop an item
at, computed ahead; the browser shows them at once and the kernel's own
answer then confirms them. Lesson 03 uses the explorer.
"""

import asyncio
import random
from pathlib import Path

import anywidget
import numpy as np
import traitlets

from ..core.binary import relevant_flags
from ..core.deprecation import renamed
from ..core.discounts import DISCOUNT_CHOICES as DISCOUNTS
from ..core.discounts import DISCOUNT_LABELS
from ..core.gains import GAIN_CHOICES as GAINS
from ..core.gains import GAIN_LABELS
from ..i18n import chosen_language, gettext, language_set, mark
from ..core.item_checks import check_labels, check_max_grade, check_ranking, check_relevance_map, check_subtopic_map, check_text
from ..core.table import rows_hidden, shortened, shown_rows
from ..core.validation import check_choice, check_k, check_threshold, shown
from . import panel as panel_numbers
from . import payload, webfont
from .changes import ACTIONS, Changes
from .messages import front_end
from .picture import static_html
from .previews import PREVIEW_AFTER, Previews, _described
from .unjudged import Judgements, check_unjudged

STATIC = Path(__file__).parent / "static"
# The front end's files, joined in this order into the one module anywidget loads (it loads it from a blob URL,
# where a relative import cannot resolve): DOM helpers, then one file per part (plots, previews, the list's rows,
# the metric cards, the step table, moving rows), then explorer.js, whose `render` ties the parts together.
SCRIPTS = ("dom.js", "plots.js", "previews.js", "rows.js", "cards.js", "steps.js", "drag.js", "explorer.js")
# Its stylesheets, joined in this order: colours, controls and layout; the list; the numbers and the narrow layouts.
STYLES = ("explorer.css", "list.css", "numbers.css")
GROUP_TITLES = {"graded": mark("graded: every grade counts"), "binary": mark("binary: relevant if grade ≥ {threshold}"),
                "diversity": mark("diversity: each subtopic counts, less each time it is covered again")}
CACHED_ORDERS = 64  # orders whose numbers are kept (the confirmed ones; previews no longer go through compute)
# The highest max_grade: the page lists one threshold choice per grade, and 2**100 - 1 keeps exponential gains finite.
GRADE_CEILING = 100



class _Explorer(Changes, Judgements, Previews, anywidget.AnyWidget):
    """State, checks and computation shared by both explorers; subclasses name their rankings."""

    _esm = "\n".join((STATIC / name).read_text(encoding="utf-8") for name in SCRIPTS)
    _css = webfont.stylesheet(*STYLES)
    # Names of the synced traits that hold the rankings; each subclass sets its own.
    _rankings = ()
    # The card groups, in the order they are shown, and their titles (see _group_title); a subclass may add its own.
    _group_titles = GROUP_TITLES
    # Controls the page does not show: settings fixed when the explorer is built (lesson 20's come from an evaluation).
    _locked = ()

    labels = traitlets.Dict(value_trait=traitlets.Unicode()).tag(sync=True)
    relevance = traitlets.Dict().tag(sync=True)
    unjudged = traitlets.List(traitlets.Unicode()).tag(sync=True)  # the kernel's: set_judged or the row's button
    max_grade = traitlets.Int(5).tag(sync=True)
    k = traitlets.Int(1).tag(sync=True)
    gain = traitlets.Enum(GAINS, default_value="linear").tag(sync=True)
    discount = traitlets.Enum(DISCOUNTS, default_value="log2").tag(sync=True)
    threshold = traitlets.Int(1).tag(sync=True)
    names = traitlets.List(traitlets.Unicode()).tag(sync=True)
    panels = traitlets.List().tag(sync=True)
    comparison = traitlets.List().tag(sync=True)
    notice = traitlets.Dict().tag(sync=True)
    # The controls' choices and the metric cards, sent once so the front end keeps no copy of them.
    choices = traitlets.Dict().tag(sync=True)
    # Where each field of a step row is, in a panel and in a packed preview (see .payload), sent once.
    payload = traitlets.Dict().tag(sync=True)
    # The learner's language ("en" or "zh-CN", the root's lang attribute) and every text the front end shows in it,
    # sent once: explorer.js holds no words of its own (see .messages).
    language = traitlets.Unicode("en").tag(sync=True)
    messages = traitlets.Dict().tag(sync=True)

    def __init__(self, orders, relevance, *, names, k, gain, discount, threshold, pool, labels, max_grade, seed,
                 metrics, language, subtopics=None, unjudged=None):
        items = orders[0]
        grades = check_relevance_map(relevance, items, GRADE_CEILING)
        self._subtopics = None if subtopics is None else check_subtopic_map(subtopics, items)
        top = max(5, *grades.values()) if max_grade is None else check_max_grade(max_grade, grades, GRADE_CEILING)
        k = len(items) if k is None else check_k(k, n=len(items))
        check_choice("gain", gain, GAINS)
        check_choice("discount", discount, DISCOUNTS)
        check_threshold(threshold, top)
        self.items = tuple(items)
        self._language = chosen_language(language)
        self._specs = panel_numbers.chosen_metrics(metrics, self._subtopics is not None)
        unjudged = check_unjudged(unjudged, items)
        self._judging = unjudged is not None
        self._groups = [group for group in self._group_titles if any(spec.group == group for spec in self._specs)]
        self._start = (tuple(tuple(order) for order in orders), dict(grades), None if pool is None else list(pool),
                       list(unjudged or []))
        self.pool = self._start[2]
        self.seed = seed
        self._random, self._shuffles = random.Random(seed), 0
        self._cache, self._wanted, self._preview_pending = {}, {name: [] for name in self._rankings}, False
        self._failure = None  # what the last recomputation could not do (see _refresh), or None
        settings = {
            **dict(zip(self._rankings, (list(order) for order in orders))),
            "relevance": grades, "unjudged": list(unjudged or []), "k": k, "gain": gain, "discount": discount, "threshold": threshold, "names": list(names),
        }
        traits = {
            **settings, "labels": check_labels(labels, items), "max_grade": top, "choices": self._choices(),
            "payload": payload.schema(self._subtopics is not None),
            "language": self._language, "messages": front_end(self._language),
        }
        super().__init__(**traits, **self._numbers(settings))
        self.observe(self._on_change, names=[*self._rankings, "relevance", "unjudged", "k", "gain", "discount", "threshold"])
        self.on_msg(self._on_front_end_message)

    # Checks. A front end sends whole values; Python repairs or refuses them here.

    def _repair(self, proposal):
        """Keep the known ids in their new order, once each; put any missing id back at the end."""
        known, seen, order = set(self.items), set(), []
        for item in proposal.value:
            if item in known and item not in seen:
                seen.add(item)
                order.append(item)
        return order + [item for item in self.items if item not in seen]

    @traitlets.validate("k")
    def _valid_k(self, proposal):
        return _as_trait_error(check_k, proposal.value, n=len(self.items))

    @traitlets.validate("threshold")
    def _valid_threshold(self, proposal):
        return int(_as_trait_error(check_threshold, proposal.value, self.max_grade))

    @traitlets.validate("relevance")
    def _valid_relevance(self, proposal):
        return _as_trait_error(check_relevance_map, proposal.value, self.items, self.max_grade)

    @traitlets.validate("max_grade")
    def _valid_max_grade(self, proposal):
        top = _as_trait_error(check_max_grade, proposal.value, self.relevance, GRADE_CEILING)
        if top < self.threshold:
            raise traitlets.TraitError(
                gettext("max_grade must be at least the threshold ({threshold}): the threshold is one of the grades. "
                        "Got {got} instead.").format(threshold=self.threshold, got=shown(proposal.value))
            )
        return top

    @traitlets.validate("labels")
    def _valid_labels(self, proposal):
        return _as_trait_error(check_labels, proposal.value, self.items)

    @traitlets.validate("names")
    def _valid_names(self, proposal):
        names = proposal.value
        if len(names) != len(self._rankings):
            message = gettext("names must be two strings, one per ranking. Got {got} instead.") \
                if len(self._rankings) == 2 else \
                gettext("names must be one string (the ranking's, shown in compare mode only). Got {got} instead.")
            raise traitlets.TraitError(message.format(got=shown(names)))
        for name in names:
            _as_trait_error(check_text, "names", name)
        return names

    @traitlets.validate("language")
    def _valid_language(self, proposal):
        if proposal.value != self._language:
            raise traitlets.TraitError(
                gettext("language is fixed when the explorer is built: build a new one with language={language!r}. "
                        "Got {got} instead of {built!r}.")
                .format(language=proposal.value, got=shown(proposal.value), built=self._language)
            )
        return proposal.value

    def _choices(self):
        return {
            "gain": [[value, GAIN_LABELS[value]] for value in GAINS],
            "discount": [[value, DISCOUNT_LABELS[value]] for value in DISCOUNTS],
            "actions": [[action, self._text(text), self._text(title)] for action, text, title in ACTIONS],
            "groups": self._groups,
            "judging": self._judging,
            "locked": list(self._locked),
        }

    def _group_title(self, group, threshold):
        """The title of a group of cards, in the explorer's language."""
        return self._text(self._group_titles[group]).format(threshold=threshold)

    def _text(self, message):
        """``message`` (marked for translation) in the explorer's language."""
        return gettext(message, self._language)

    # Computation: every number comes from ndcg_teach (through .panel).

    def _settings(self):
        names = ("relevance", "unjudged", "k", "gain", "discount", "threshold", "names", *self._rankings)
        return {name: getattr(self, name) for name in names}

    def _conventions_of(self, settings):
        return panel_numbers.Conventions(
            relevance=dict(settings["relevance"]), k=settings["k"], gain=settings["gain"], discount=settings["discount"],
            threshold=settings["threshold"], pool=None if self.pool is None else list(self.pool), specs=self._specs,
            subtopics=self._subtopics, unjudged=frozenset(settings["unjudged"]),
        )

    def _computed(self, order, conventions, context):
        """The library's numbers for ``order``; kept, so a previewed order that is then dropped is not computed twice."""
        key = (context, tuple(order))
        if key not in self._cache:
            if len(self._cache) >= CACHED_ORDERS:
                self._cache.clear()
            with language_set(self._language):  # the traces' own text (formula, notes) in the explorer's language
                self._cache[key] = panel_numbers.compute(order, conventions)
        return self._cache[key]

    def _context(self, conventions, settings, trait):
        """Fingerprint of what, besides ``trait``'s own order, its numbers depend on (in compare mode: the other order)."""
        return conventions.key(*(settings[other] for other in self._rankings if other != trait))

    def _numbers(self, settings):
        """Traces and values of every ranking, and the synced numbers the front end shows."""
        k, threshold = settings["k"], settings["threshold"]
        conventions = self._conventions_of(settings)
        computed = [self._computed(settings[trait], conventions, conventions.key()) for trait in self._rankings]
        self._shown_numbers = computed
        self._traces = [numbers.trace for numbers in computed]
        self._values = [numbers.values for numbers in computed]
        panels = []
        for trait, name, numbers in zip(self._rankings, settings["names"], computed):
            order = settings[trait]
            relevant = relevant_flags(np.asarray(numbers.grades), threshold).tolist()
            shown, fixed = numbers.shown(), panel_numbers.fixed(numbers, self._language)
            panels.append({
                **fixed,
                **shown,
                "trait": trait,
                "name": name,
                "context": self._context(conventions, settings, trait),
                "metrics": [
                    {"key": spec.key, "label": spec.title(k), "group": spec.group, "help": self._text(spec.meaning), "text": text}
                    for spec, text in zip(self._specs, shown["texts"])
                ],
                "groups": {group: self._group_title(group, threshold) for group in self._groups},
                "relevant": dict(zip(order, relevant)),
                "judged": {item: item not in settings["unjudged"] for item in order} if self._judging else None,
                # A long table: its first and last rows, None for the hidden ones (see table.ROW_LIMIT).
                "steps": [None if row is None else shown["steps"][row] + fixed["ideal_steps"][row] for row in shown_rows(k)],
                "hidden_rows": rows_hidden(k, self._language),
                "plot": {**fixed["plot"], **shown["plot"]},
                "formula": shortened(numbers.trace.formula, self._language).splitlines()[:3],
                "notes": list(numbers.trace.notes),
            })
        return {"panels": panels, "comparison": self._comparison(k, self._values)}

    def _comparison(self, k, values):
        if len(values) < 2:
            return []
        first, second = values
        return [
            {
                "key": spec.key,
                "label": spec.title(k),
                "a": f"{first[spec.key]:.4f}",
                "b": f"{second[spec.key]:.4f}",
                "delta": f"{second[spec.key] - first[spec.key]:+.4f}",
                "sign": (second[spec.key] > first[spec.key]) - (second[spec.key] < first[spec.key]),
            }
            for spec in self._specs
        ]

    def _refresh(self):
        """Recompute everything and send it in one message; previews follow ``PREVIEW_AFTER`` seconds later.

        The numbers leave at once; the previews (n computations per item) are
        prepared after them, and a burst of changes prepares them only once.
        Errors show in the widget.
        """
        try:
            numbers = self._numbers(self._settings())
            with self.hold_sync():
                self.set_trait("panels", numbers["panels"])
                self.set_trait("comparison", numbers["comparison"])
                if self.notice:
                    self.notice = {}  # a message about the previous state would now mislead
        except Exception as error:  # noqa: BLE001 - ipywidgets would only log it; the learner must see it
            self._failure = error
            self._tell(gettext("Could not update the explorer: {error}", self._language).format(error=_described(error)), "error")
            return
        loop = _running_loop()
        if loop is not None and self.comm is not None and not self._preview_pending:
            self._preview_pending = True
            loop.call_later(PREVIEW_AFTER, self._push_previews)

    def _on_change(self, change):
        self._refresh()

    def _repr_mimebundle_(self, **kwargs):
        """The live widget, and a static picture of it (``text/html``) for where no kernel runs (see :mod:`.picture`)."""
        bundle = super()._repr_mimebundle_(**kwargs)
        if bundle is None:
            return None
        data, metadata = bundle
        return {**data, "text/html": static_html(self)}, metadata

    def _conventions(self):
        return f"k={self.k}, gain={self.gain!r}, discount={self.discount!r}, threshold={self.threshold}"


class RankingExplorer(_Explorer):
    """Drag a ranked list into a new order and watch every metric, the step table and two plots follow.

    Rows move by mouse or finger (drag), by keyboard (focus a row, then
    Alt+ArrowUp / Alt+ArrowDown; plain arrows move the focus) or by the small
    up / down buttons. Controls set ``k``, the gain, the discount and the
    relevance threshold; buttons give the ideal, the worst, a shuffled
    (seeded, so reproducible) or the starting order. A grade can be edited in
    its row; a grade outside 0..``max_grade`` is refused with a message.

    Parameters
    ----------
    ranking : list of str
        Item ids in the starting ranked order, best first, e.g. ``["B", "A", "D", "C", "E"]``.
    relevance : dict of str to int
        Each item's grade, e.g. ``{"A": 5, "B": 4, "C": 3, "D": 2, "E": 1}``.
    k : int or None, default None
        Cut-off of every metric, 1..n; None uses the whole list.
    gain : {"linear", "exponential"}, default "linear"
        "linear" is ``rel``; "exponential" is ``2**rel - 1``.
    discount : {"log2", "jarvelin"}, default "log2"
        ``1/log2(i+1)``, or Järvelin and Kekäläinen's original ``1/log2(i)`` from position 2.
    threshold : int, default 1
        Smallest grade that counts as relevant for P@k, R@k, AP and RR.
    pool : list of int or None, default None
        Grades of every judged item of the query, listed or not. None builds
        the ideal order from the listed items; a pool builds it from every
        judged item (as trec_eval does), and R@k and AP then divide by the
        pool's relevant items. Grade edits keep the pool in step.
    labels : dict of str to str or None, default None
        Longer names shown next to the ids.
    max_grade : int or None, default None
        Highest grade a learner may enter, at most 100 (the page offers a
        threshold per grade); None uses ``max(5, highest grade)``.
    seed : int, default 0
        Seed of the shuffle button, so a notebook gives the same shuffles every run.
    metrics : list of str or None, default None
        Registry keys of the numbers to show, in that order (e.g.
        ``["cg"]`` in a lesson that has taught only CG, or the key of a
        metric registered with :func:`~ndcg_teach.register_metric`); None
        shows the course's default cards, ``panel.DEFAULT_CARDS`` (NDCG,
        DCG, IDCG, CG, P@k, R@k, AP, RR).
    language : {"en", "zh-CN"} or None, default None
        The language of every word the widget shows (labels, hints, notices,
        announcements, plot axes, the static picture); None takes
        :func:`~ndcg_teach.language` when the explorer is built (the Chinese
        lessons call ``nt.set_language("zh-CN")`` first). The numbers are
        the same in every language.
    subtopics : dict of str to list of float or None, default None
        Each item's grade per subtopic of the query (one row per item, the
        same number of subtopics in each), e.g. ``{"A": [1, 0], "B": [0, 2]}``:
        what the diversity cards (``"alpha_ndcg"``, ``"err_ia"``) read,
        ``relevance`` being what the others read. Required for those cards,
        fixed when the explorer is built (the page cannot change it; a grade
        edit changes ``relevance`` only), and not shown in the step table.
    unjudged : list of str or None, default None
        Items nobody judged (lesson 12): their grades are what a judge would
        say, hidden from the metrics, and each row gets a button that marks
        it judged or unjudged (:meth:`set_judged`). Cards such as
        ``"condensed_ap"`` (AP′) and ``"bpref"`` show how each convention
        reads the hole (see :mod:`ndcg_teach.widgets.unjudged`). With a
        ``pool``, it holds the judged grades only. None: no judging.

    Attributes
    ----------
    order : list of str
        The current ranking, best first (synced with the browser). Setting it
        repairs bad input: unknown ids and repeats are dropped, missing ids
        are put back at the end.
    k, gain, discount, threshold
        The controls' settings (synced). With ``order`` they are all the page
        may set; a value the checks refuse keeps the previous one, and the
        widget's notice says why (see :mod:`ndcg_teach.widgets.changes`).
    metrics : dict of str to float
        The live numbers, keyed by registry key (ndcg, dcg, idcg, cg, precision, recall, ap, rr, ...).
    trace : Trace
        The current :func:`~ndcg_teach.explain_ndcg` trace.
    language : str
        ``"en"`` or ``"zh-CN"``, fixed when the explorer is built.

    Examples
    --------
    >>> explorer = RankingExplorer(["B", "A", "D", "C", "E"], {"A": 5, "B": 4, "C": 3, "D": 2, "E": 1})
    >>> round(explorer.metrics["ndcg"], 4)
    0.9573
    >>> explorer.move("A", 1)
    >>> explorer.order, round(explorer.metrics["ndcg"], 4)
    (['A', 'B', 'D', 'C', 'E'], 0.9933)
    >>> explorer.ideal()
    >>> explorer.metrics["ndcg"]
    1.0

    In Chinese (lesson 03 of the Chinese edition), with the same numbers:

    >>> chinese = RankingExplorer(["B", "A", "D", "C", "E"], {"A": 5, "B": 4, "C": 3, "D": 2, "E": 1}, language="zh-CN")
    >>> chinese.ideal()
    >>> chinese.notice["text"], chinese.metrics["ndcg"]
    ('理想排序：A、B、C、D、E。', 1.0)
    """

    _rankings = ("order",)
    # No echo: the browser that sent an order already shows it, so one message fewer per drop.
    order = traitlets.List(traitlets.Unicode()).tag(sync=True, echo_update=False)

    @renamed(items="ranking")
    def __init__(self, ranking, relevance, k=None, *, gain="linear", discount="log2", threshold=1, pool=None,
                 labels=None, max_grade=None, seed=0, metrics=None, language=None, subtopics=None, unjudged=None):
        super().__init__(
            [check_ranking(ranking)], relevance, names=[""], k=k, gain=gain, discount=discount,
            threshold=threshold, pool=pool, labels=labels, max_grade=max_grade, seed=seed, metrics=metrics,
            language=language, subtopics=subtopics, unjudged=unjudged,
        )

    @traitlets.validate("order")
    def _valid_order(self, proposal):
        return self._repair(proposal)

    @property
    def metrics(self):
        """The live numbers as floats, keyed by registry key."""
        return dict(self._values[0])

    @property
    def subtopics(self):
        """Each item's grades per subtopic as given (checked) when the explorer was built, or None."""
        return None if self._subtopics is None else {item: list(row) for item, row in self._subtopics.items()}

    @property
    def trace(self):
        """The current :func:`~ndcg_teach.explain_ndcg` trace (cut at ``k``)."""
        return self._traces[0]

    def move(self, item, position):
        """Move ``item`` to ``position`` (1 = top); the others keep their order."""
        self._move("order", item, position)

    def ideal(self):
        """Sort the items best first (the order whose DCG is IDCG)."""
        self._reorder("order", "ideal")

    def worst(self):
        """Sort the items least relevant first."""
        self._reorder("order", "worst")

    def shuffle(self):
        """Put the items in a random order, drawn from the explorer's seeded generator."""
        self._reorder("order", "shuffle")

    def reset(self):
        """Go back to the starting order and grades (and restart the shuffle sequence)."""
        self._reorder("order", "reset")

    def __repr__(self):
        return f"RankingExplorer(order={self.order!r}, {self._conventions()}): {self.trace.metric} = {self.trace.value:.4f}"


def _running_loop():
    """The event loop running this code (the kernel's, in Jupyter), or None."""
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


def _as_trait_error(check, *args, **keywords):
    """Run a validation check for a traitlets validator, which must raise TraitError."""
    try:
        return check(*args, **keywords)
    except (TypeError, ValueError) as error:
        raise traitlets.TraitError(str(error)) from None

