"""What the explorers send ahead of a drop: the numbers each move of an item would give, computed by the library.

So that a drop never waits for the kernel, Python sends previews: for an item
the learner points at, what the widget would show after each destination of
that item. The browser shows them the moment the item is dropped, and the
kernel's own numbers then confirm them (see ``static/previews.js``).

What a preview request costs grows with the list, never with its square:

- a list of up to ``PREVIEW_ALL_UP_TO`` items gets every item's previews at
  once, with the step rows and the plots' arrays of every destination;
- a longer list gets, per request, the metric texts of the destinations
  within ``PREVIEW_WINDOW`` positions of where the learner is (the item's own
  position, or where a drag has reached); the step table and the plots wait
  for the kernel's confirmation. The browser asks for the next window as a
  drag nears the edge of the one it holds.

Lesson 03 uses the explorer.
"""

import numpy as np

from ..i18n import gettext
from . import panel as panel_numbers
from . import payload

# Up to this many items, every item's previews are sent after each change; beyond, the items the learner
# points at, focuses or last moved. Packed and computed in one vectorised pass, a 40-item list's previews for
# every item take about 40 ms and 0.7 MB.
PREVIEW_ALL_UP_TO = 60
# Beyond PREVIEW_ALL_UP_TO, a request is answered with the destinations this many positions either side of where
# the learner is: 2 * 30 + 1 rows of the list's length to compute, and a few kilobytes to send.
PREVIEW_WINDOW = 30
# Seconds between a change and its previews: the browser paints the drop and takes the kernel's confirmation
# first, and only then reads the previews, which would otherwise land in the frames after the drop.
PREVIEW_AFTER = 0.15


class Previews:
    """The previews half of an explorer (mixed into ``_Explorer``, which supplies the settings and the numbers)."""

    def _moves(self, ranking, moves):
        """The library's arrays for ``moves`` (``(item, destinations)`` pairs) in ``ranking``, in one vectorised pass."""
        settings = self._settings()
        conventions = self._conventions_of(settings)
        return settings, conventions, panel_numbers.compute_moves(settings[ranking], moves, conventions)

    def _comparisons(self, ranking, values, rows):
        """In compare mode, the comparison rows after each of ``rows`` (indices into ``values``' arrays), else None."""
        if len(self._rankings) < 2:
            return None
        index = self._rankings.index(ranking)
        comparisons = []
        for row in rows:
            both = [*self._values]
            both[index] = {key: float(array[row]) for key, array in values.items()}
            comparisons.append(self._comparison(self.k, both))
        return comparisons

    def previews(self, ranking, item):
        """What the widget would show if ``item`` were dropped at each position of ``ranking``, from the library.

        Returns one entry per position 1..n (the item's own position
        included) with the order, the metric texts, the step rows (ideal
        columns excepted: no reorder changes them), the plots' arrays and, in
        compare mode, the comparison rows. All destinations are computed in
        one pass through the registry's batch functions; the browser receives
        the same numbers packed (see ``_send_previews``), and reads the step
        rows and the plots' arrays from them by :mod:`.payload`'s schema.
        """
        settings, conventions, moved = self._moves(ranking, [(item, range(len(self.items)))])
        label = self._shown_numbers[self._rankings.index(ranking)].trace.metric
        comparisons = self._comparisons(ranking, moved.values, range(len(moved.indices)))
        destinations = []
        for row, order in enumerate(moved.orders()):
            grades = conventions.relevances(order)
            shown = {
                "order": list(order),
                "texts": [f"{moved.values[spec.key][row]:.4f}" for spec in self._specs],
                "steps": [
                    payload.step_row({"position": p + 1, "item": order[p], "grade": grades[p], "gain": moved.gains[row, p],
                                      "discount": moved.discounts[p], "contribution": moved.shares[row, p],
                                      "running": moved.running[row, p],
                                      "coverage": None if moved.coverage is None else moved.coverage[row, p]},
                                     fields=conventions.fields)
                    for p in range(conventions.k)
                ],
                "plot": payload.plot_arrays(
                    {"item": list(order), "gain": moved.gains[row].tolist(), "contribution": moved.shares[row].tolist(),
                     "running": moved.running[row].tolist()},
                    len(order), conventions.k, f"{label} = {moved.score[row]:.4f}"),
            }
            if comparisons is not None:
                shown["comparison"] = comparisons[row]
            destinations.append(shown)
        return {"item": item, "destinations": destinations}

    def _window(self, base, item, around):
        """The destinations (0-based) a request for ``item`` near index ``around`` is answered with."""
        n = len(base)
        if n <= PREVIEW_ALL_UP_TO:
            return range(n)
        centre = base.index(item) if around is None else around
        start = min(max(centre - PREVIEW_WINDOW, 0), max(n - 2 * PREVIEW_WINDOW - 1, 0))
        return range(start, min(start + 2 * PREVIEW_WINDOW + 1, n))

    def _send_previews(self, ranking, wanted):
        """Send the previews of ``wanted`` (``(item, around)`` pairs) in ``ranking`` in one message.

        A list of up to ``PREVIEW_ALL_UP_TO`` items gets every item, every
        destination, and ``full`` previews: the step rows' fields packed as
        :mod:`.payload` says (what no move changes, each item's grade and gain,
        each position's discount, each item's gain × discount at each
        position, once; per destination the running DCG). A longer
        list gets each wanted item's window of destinations, metric texts only.
        Per destination: the metric texts and the NDCG score, and in compare
        mode the differences and their signs, as space-separated 4-decimal texts.
        """
        base = list(getattr(self, ranking))
        full = len(base) <= PREVIEW_ALL_UP_TO
        items = [(item, None) for item in base] if full else list(dict(wanted).items())
        moves = [(item, self._window(base, item, around)) for item, around in items]
        settings, conventions, moved = self._moves(ranking, moves)
        values = np.column_stack([moved.values[spec.key] for spec in self._specs]) if moves else np.zeros((0, len(self._specs)))
        deltas = self._deltas(ranking, values)
        entries, row = [], 0
        for item, destinations in moves:
            rows = slice(row, row + len(destinations))
            row += len(destinations)
            entry = {"item": item, "from": base.index(item), "start": destinations.start,
                     "texts": panel_numbers.texts(values[rows]), "scores": panel_numbers.texts(moved.score[rows])}
            if full:
                per_destination = {"running": moved.running[rows].ravel(),
                                   "coverage": None if moved.coverage is None else moved.coverage[rows].ravel().tolist()}
                entry.update({field.packed: field.pack(per_destination[field.key])
                              for field in conventions.fields if field.by == "destination"})
            if deltas is not None:
                entry["deltas"] = " ".join(f"{delta:+.4f}" for delta in deltas[rows].ravel().tolist())
                entry["signs"] = "".join("+" if delta > 0 else "-" if delta < 0 else "0" for delta in deltas[rows].ravel().tolist())
            entries.append(entry)
        message = {
            "event": "previews", "ranking": ranking, "base": base, "full": full,
            "context": self._context(conventions, settings, ranking),
            "k": conventions.k, "metrics": len(self._specs), "label": self._shown_numbers[self._rankings.index(ranking)].trace.metric,
            "items": entries,
        }
        if full:
            grades = conventions.relevances(base)
            # What the NDCG trace reads: an unjudged item as grade 0, through the explorer's Query.
            gains, shares, discounts = panel_numbers.shares(conventions.query(base).grades, conventions)
            per_message = {"grade": grades, "gain": gains, "discount": discounts[:conventions.k], "contribution": shares.ravel()}
            message.update({field.packed: field.pack(per_message[field.key])
                            for field in conventions.fields if field.packed and field.by != "destination"})
        self.send(message)

    def _deltas(self, ranking, values):
        """In compare mode, ``b - a`` of every metric after each move (rows of ``values``), else None."""
        if len(self._rankings) < 2:
            return None
        index = self._rankings.index(ranking)
        other = np.array([self._values[1 - index][spec.key] for spec in self._specs])
        return other - values if index == 0 else values - other

    def _push_previews(self):
        """After a change: previews of the items the learner is most likely to move next, in every ranking."""
        self._preview_pending = False
        try:
            for ranking in self._rankings:
                self._send_previews(ranking, [(item, None) for item in self._wanted[ranking]])
        except Exception as error:  # noqa: BLE001 - as in _refresh
            self._tell(gettext("Could not prepare the previews: {error}", self._language).format(error=_described(error)), "error")

    def _want(self, ranking, item):
        """Remember ``item`` as one the learner is about to move (the two most recent per ranking)."""
        wanted = [other for other in self._wanted[ranking] if other != item]
        self._wanted[ranking] = [item, *wanted][:2]


def _described(error):
    """An unexpected error as a notice quotes it: its type and its message."""
    return f"{type(error).__name__}: {error}"
