"""The changes a learner makes to an explorer, from Python or from the page, and how a refusal is shown.

The page may set the rankings and its controls' traits (``FROM_PAGE``); it
asks for everything else (a grade, an order button, previews) by a custom
message. Every value is checked; a value that is refused, or whose numbers
the library cannot compute, leaves every setting as it was, in Python and in
the page, and a notice in the widget says what was refused and why. Lesson 03
uses the explorer.
"""

import random
from contextlib import contextmanager
from numbers import Integral

import traitlets

from ..core import ideal_order
from ..i18n import gettext, mark
from ..core.item_checks import check_grade
from ..core.validation import shown
from .previews import _described

# The synced traits the page may set besides the rankings: what its controls change. Every other synced trait
# (panels, notice, relevance, labels, ...) is the kernel's; grades change through the "grade" message, checked there.
FROM_PAGE = ("k", "gain", "discount", "threshold")
# The settings a change may touch, restored together when a change from the page cannot be applied.
SETTINGS = ("relevance", "unjudged", "max_grade", "k", "gain", "discount", "threshold")
# The order buttons: (action, text, what it does).
ACTIONS = (
    ("ideal", mark("Ideal order"), mark("Sort best first: the order whose DCG is IDCG")),
    ("worst", mark("Worst order"), mark("Sort least relevant first")),
    ("shuffle", mark("Shuffle"), mark("Random order (seeded, so the same every run)")),
    ("reset", mark("Reset"), mark("Back to the starting order and grades")),
)


class Changes:
    """The changes half of an explorer (mixed into ``_Explorer``, which supplies the traits and the numbers)."""

    def _tell(self, text, kind="info"):
        """Show ``text`` in the widget (and announce it to screen readers); ``kind`` is "info" or "error"."""
        self.notice = {"text": text, "kind": kind, "serial": self.notice.get("serial", 0) + 1}

    # Changes a learner makes.

    def _resolve(self, ranking):
        if ranking not in self._rankings:
            raise ValueError(gettext("ranking must be one of {names}. Got {got} instead.")
                                    .format(names=', '.join(map(repr, self._rankings)), got=shown(ranking)))
        return ranking

    def _move(self, ranking, item, position):
        order = list(getattr(self, ranking))
        if item not in order:
            raise ValueError(gettext("item must be one of the explorer's items {order}. Got {got} instead.")
                                    .format(order=shown(order), got=shown(item)))
        if isinstance(position, bool) or not isinstance(position, Integral) or not 1 <= position <= len(order):
            raise ValueError(gettext("position must be a whole number from 1 to {n_order}. Got {got} instead.")
                                    .format(n_order=len(order), got=shown(position)))
        order.remove(item)
        order.insert(position - 1, item)
        setattr(self, ranking, order)

    def _reorder(self, ranking, action):
        """Apply one of the order buttons (``ACTIONS``) to ``ranking``."""
        order = list(getattr(self, ranking))
        if action == "ideal":
            setattr(self, ranking, ideal_order(order, self.relevance))
            self._tell(gettext("Ideal order: {items}.", self._language).format(items=self._listed(ranking)))
        elif action == "worst":
            # Least relevant first; a stable sort keeps tied items in their current order.
            setattr(self, ranking, sorted(order, key=self.relevance.__getitem__))
            self._tell(gettext("Worst order: {items}.", self._language).format(items=self._listed(ranking)))
        elif action == "shuffle":
            shuffled = list(order)
            while shuffled == order and len(set(order)) > 1:
                self._random.shuffle(shuffled)
            self._shuffles += 1
            setattr(self, ranking, shuffled)
            self._tell(gettext("Shuffle {count} from seed {seed}: {items}.", self._language).format(
                count=self._shuffles, seed=self.seed, items=self._listed(ranking)))
        elif action == "reset":
            start_orders, start_grades, start_pool, start_unjudged = self._start
            self._random, self._shuffles = random.Random(self.seed), 0
            self.pool = None if start_pool is None else list(start_pool)
            with self.hold_trait_notifications():
                self.relevance = dict(start_grades)
                self.unjudged = list(start_unjudged)
                setattr(self, ranking, list(start_orders[self._rankings.index(ranking)]))
            self._tell(gettext("Back to the starting order and grades: {items}.", self._language).format(items=self._listed(ranking)))
        else:
            raise ValueError(gettext("action must be one of {names}. Got {got} instead.")
                                    .format(names=', '.join(repr(name) for name, _, _ in ACTIONS), got=shown(action)))

    def set_grade(self, item, grade):
        """Give ``item`` a new grade; every number follows.

        Parameters
        ----------
        item : str
            One of the explorer's item ids.
        grade : int or str
            A whole number from 0 to ``max_grade`` (a string such as ``"3"``,
            as typed into the widget, is read as a number).

        Raises
        ------
        ValueError
            When ``item`` is unknown or ``grade`` is out of range; nothing changes then.
        """
        if item not in self.relevance:
            raise ValueError(gettext("item must be one of the explorer's items {value}. Got {got} instead.")
                                    .format(value=shown(list(self.items)), got=shown(item)))
        new = check_grade(grade, item, self.max_grade)
        old = self.relevance[item]
        if self.pool is not None and item not in self.unjudged:
            # The pool holds every judged grade of the query, this item's included: keep it in step.
            pool = list(self.pool)
            if old in pool:
                pool.remove(old)
            self.pool = [*pool, new]
        self.relevance = {**self.relevance, item: new}
        self._tell(gettext("Grade of {item} is now {grade}.", self._language).format(item=item, grade=new))

    def _listed(self, ranking):
        """The items of ``ranking`` in order, as a notice lists them ("B, A, C"; "B、A、C" in Chinese)."""
        return gettext(", ", self._language).join(getattr(self, ranking))

    def _grade_from_front_end(self, item, grade):
        """A grade typed into a row: applied, or refused with a notice in the learner's language."""
        try:
            self.set_grade(item, grade)
        except (TypeError, ValueError) as error:
            if self._language == "en" or item not in self.relevance:
                raise
            # The check's own (English) message is what English shows; other languages say the same in theirs.
            refused = gettext("The grade of {item} must be a whole number from 0 to {top}. Got {got} instead.", self._language)
            raise type(error)(refused.format(item=item, top=self.max_grade, got=shown(grade))) from error

    def _on_front_end_message(self, widget, content, buffers):
        """Handle a custom message from the browser: ``{"event": "preview" | "grade" | "action", ...}``.

        A grade or an action is applied wholly or not at all (see :meth:`_transaction`); a refusal shows in the widget.
        """
        try:
            event = content.get("event") if isinstance(content, dict) else None
            if event == "preview":
                ranking = self._resolve(content.get("ranking"))
                item, around = self._preview_request(ranking, content.get("item"), content.get("around"))
                self._want(ranking, item)
                self._send_previews(ranking, [(item, around)])
            elif event in ("grade", "action", "judge"):
                with self._transaction():
                    if event == "grade":
                        self._grade_from_front_end(content.get("item"), content.get("grade"))
                    elif event == "judge":
                        self.set_judged(content.get("item"), content.get("judged"))
                    else:
                        self._reorder(self._resolve(content.get("ranking")), content.get("name"))
            else:
                raise ValueError(
                    gettext("A message from the widget must have event 'preview', 'grade', 'judge' or 'action'. Got "
                            "{got} instead.").format(got=shown(content))
                )
        except (TypeError, ValueError) as error:
            self._tell(str(error), "error")
        except Exception as error:  # noqa: BLE001 - show it rather than let ipywidgets log it out of sight
            self._tell(gettext("Could not apply that change: {error}", self._language).format(error=_described(error)), "error")

    def _preview_request(self, ranking, item, around):
        """``(item, around)`` of a preview request, checked: a known item, and None or a position index of ``ranking``."""
        if not isinstance(item, str) or item not in self.relevance:
            raise ValueError(gettext("A preview must name one of the explorer's items {value}. Got {got} instead.")
                                    .format(value=shown(list(self.items)), got=shown(item)))
        n = len(self.items)
        if around is not None and (isinstance(around, bool) or not isinstance(around, Integral) or not 0 <= around < n):
            raise ValueError(gettext("A preview's 'around' must be a position index from 0 to {value}, or "
                                     "absent. Got {got} instead.").format(value=n - 1, got=shown(around)))
        return item, around

    # Changes from the page: what it may set, checked; a refusal leaves a notice and every value as it was.

    def set_state(self, sync_data):
        """Apply the synced values the page sent, or refuse them: a notice says why, and the kernel's values go back.

        The page may set the rankings and ``FROM_PAGE`` (its controls); every
        other synced trait is the kernel's, and a value for it is refused. A
        value the checks refuse leaves every trait of the message as it was
        (traitlets rolls the message back), and so does one whose numbers the
        library cannot compute. An order the checks repair (unknown or
        repeated ids dropped, missing ones put back) is applied, with a notice.
        """
        writable = {*self._rankings, *FROM_PAGE}
        state = {name: value for name, value in sync_data.items() if name in writable}
        refused = {name: value for name, value in sync_data.items() if name not in writable}
        reasons = [gettext("{name} is the kernel's to set: the page may set only the ranking, k, gain, discount and threshold.",
                           self._language).format(name=name) for name in refused]
        kept = {name: getattr(self, name) for name in (*state, *refused) if name in self.keys}
        try:
            for name, value in state.items():
                # Checked one by one first: inside set_state, traitlets checks only the values that changed, and
                # True (or 1.0) equals the 1 a trait may hold, so it would be kept unchecked.
                self.traits()[name]._validate(self, value)
            with self._transaction():
                super().set_state(state)
        except (traitlets.TraitError, ValueError) as error:  # a check refused a value, or the library its numbers
            refused.update(state)
            reasons.append(str(error))
        if refused:
            self.send_state([name for name in refused if name in self.keys])  # the page goes back to the kernel's values
            self._tell(gettext("Refused {changes} from the page, kept {kept}. {reasons}", self._language).format(
                changes=", ".join(f"{name} = {shown(value)}" for name, value in refused.items()),
                kept=", ".join(f"{name} = {shown(value)}" for name, value in kept.items() if name in refused) or "-",
                reasons=" ".join(reasons)), "error")
            return
        repaired = [name for name in state if name in self._rankings and getattr(self, name) != state[name]]
        if repaired:
            self._tell(gettext("The order sent by the page named unknown or repeated items, or left some out; it is now {items}.",
                               self._language).format(items=self._listed(repaired[0])), "error")

    @contextmanager
    def _transaction(self):
        """Apply a change wholly or not at all: when a check or the library refuses it, every setting goes back."""
        saved = {name: getattr(self, name) for name in (*SETTINGS, *self._rankings)}
        pool, shuffles, state = self.pool, self._shuffles, self._random.getstate()
        self._failure = None
        try:
            yield
            if self._failure is not None:
                raise ValueError(gettext("Could not update the explorer: {error}", self._language).format(error=_described(self._failure)))
        except Exception:
            self._failure = None
            self.pool, self._shuffles = pool, shuffles
            self._random.setstate(state)
            with self.hold_trait_notifications():
                for name, value in saved.items():
                    if getattr(self, name) != value:
                        self.set_trait(name, value)
            raise
