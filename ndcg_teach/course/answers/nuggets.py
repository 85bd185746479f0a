"""Nugget scores of generated answers, as the TREC 2024 RAG track computed them (Pradeep et al. 2024). Lesson 21.

A *nugget* is one fact a good answer to the query should contain. Each is
*vital* (a good answer must contain it) or *okay* (worth having, not
essential); the labels and the idea come from the TREC 2003 question
answering track (Voorhees 2003). An assessor, or an LLM, then reads an
answer and marks each nugget ``"support"`` (the answer states it),
``"partial_support"`` (only in part) or ``"not_support"``.

An answer's scores average the nuggets' credit: 1 for support, 1/2 for
partial support, 0 otherwise; the *strict* variants give partial support 0.
*all* averages over every nugget, *vital* over the vital ones only, and
*weighted* gives an okay nugget half the weight of a vital one:

    weighted = (Σ_vital credit + ½ Σ_okay credit) / (|vital| + ½ |okay|)

A run's score is the mean of its answers' scores over the queries
(:func:`nugget_evaluation`). Every value is computed exactly in fractions and
then rounded once to float64, so no printed digit depends on the order of the
additions.
"""

from dataclasses import dataclass
from fractions import Fraction

from ...core.explained import Explained, number
from ...i18n import _, gettext, mark
from ...core.table import Table
from ...core.validation import check_choice, shown

__all__ = ["nugget_scores", "nugget_evaluation", "NuggetScores", "NuggetEvaluation", "IMPORTANCE", "SUPPORT", "SCORES"]

IMPORTANCE = ("vital", "okay")
"""A nugget's importance: ``"vital"`` (a good answer must contain it) or ``"okay"`` (worth having)."""
SUPPORT = ("support", "partial_support", "not_support")
"""What an answer does with a nugget, as the track labels it: states it, states it in part, or not."""
SCORES = ("all", "all_strict", "vital", "vital_strict", "weighted", "weighted_strict")
"""The six scores of an answer, in the order the tables show them."""

CREDIT = {"support": Fraction(1), "partial_support": Fraction(1, 2), "not_support": Fraction(0)}
STRICT_CREDIT = {"support": Fraction(1), "partial_support": Fraction(0), "not_support": Fraction(0)}
WEIGHT = {"vital": Fraction(1), "okay": Fraction(1, 2)}
# The words a table shows for the labels and its headers (marked here, translated when shown).
_WORDS = {"vital": mark("vital"), "okay": mark("okay"), "support": mark("support"), "partial_support": mark("partial_support"),
          "not_support": mark("not_support")}
_HEADERS = (mark("nugget"), mark("importance"), mark("label"), mark("credit"), mark("strict credit"), mark("weight"))
_SCORE_NAMES = {"all": mark("all"), "all_strict": mark("all, strict"), "vital": mark("vital"),
                "vital_strict": mark("vital, strict"), "weighted": mark("weighted"),
                "weighted_strict": mark("weighted, strict")}


def score_name(score, language=None):
    """How a table names one of :data:`SCORES`, in the learner's language.

    Examples
    --------
    >>> score_name("vital_strict")
    'vital, strict'
    """
    return gettext(_SCORE_NAMES[score], language)


def _labels(name, values, choices, example):
    """``values`` as a tuple of labels from ``choices``, at least one."""
    if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__") or hasattr(values, "keys"):
        raise TypeError(gettext("{name} must be a list of labels, one per nugget, each one of {choices}, e.g. {example}. "
                                "Got {got} instead.").format(name=name, choices=", ".join(map(repr, choices)),
                                                             example=example, got=shown(values)))
    labels = tuple(values)
    wrong = [label for label in labels if not isinstance(label, str) or label not in choices]
    if wrong or not labels:
        raise ValueError(gettext("{name} must hold at least one label, each one of {choices}. Got {got} instead.")
                         .format(name=name, choices=", ".join(map(repr, choices)), got=shown(values)))
    return labels


def _checked(importance, support, nuggets):
    importance = _labels("importance", importance, IMPORTANCE, "['vital', 'okay']")
    support = _labels("support", support, SUPPORT, "['support', 'not_support']")
    if len(importance) != len(support):
        raise ValueError(gettext("importance and support must label the same nuggets, one label each. Got {n_importance} "
                                 "and {n_support} labels instead.").format(n_importance=len(importance),
                                                                           n_support=len(support)))
    if nuggets is None:
        return importance, support, tuple(f"n{i}" for i in range(1, len(importance) + 1))
    if isinstance(nuggets, (str, bytes)) or not hasattr(nuggets, "__iter__"):
        raise TypeError(gettext("nuggets must be a list of nugget ids, one per label. Got {got} instead.")
                        .format(got=shown(nuggets)))
    names = tuple(str(nugget) for nugget in nuggets)
    if len(names) != len(importance) or len(set(names)) != len(names):
        raise ValueError(gettext("nuggets must name each of the {count} nuggets once. Got {got} instead.")
                         .format(count=len(importance), got=shown(nuggets)))
    return importance, support, names


def _average(credits, weights):
    """``Σ w·c / Σ w`` as a Fraction; 0 when there is nothing to average (a query without vital nuggets)."""
    total = sum(weights, Fraction(0))
    return sum((w * c for w, c in zip(weights, credits)), Fraction(0)) / total if total else Fraction(0)


def _exact(importance, support):
    """The six scores as Fractions, in :data:`SCORES` order."""
    found = {}
    for strict, credit in ((False, CREDIT), (True, STRICT_CREDIT)):
        suffix = "_strict" if strict else ""
        credits = [credit[label] for label in support]
        found["all" + suffix] = _average(credits, [Fraction(1)] * len(credits))
        found["vital" + suffix] = _average(credits, [Fraction(importance[i] == "vital") for i in range(len(credits))])
        found["weighted" + suffix] = _average(credits, [WEIGHT[label] for label in importance])
    return tuple(found[score] for score in SCORES)


@dataclass(frozen=True, repr=False)
class NuggetScores(Explained):
    """The six nugget scores of one answer, with the nuggets they came from (from :func:`nugget_scores`). Lesson 21.

    Attributes
    ----------
    all, all_strict, vital, vital_strict, weighted, weighted_strict : float
        The scores (:data:`SCORES`); the strict ones give partial support no credit.
    nuggets, importance, support : tuple of str
        Each nugget's id, importance and support label, in the order given.
    """

    all: float
    all_strict: float
    vital: float
    vital_strict: float
    weighted: float
    weighted_strict: float
    nuggets: tuple
    importance: tuple
    support: tuple

    def as_dict(self):
        """``{score: value}`` for the six :data:`SCORES`."""
        return {score: getattr(self, score) for score in SCORES}

    def _parts(self):
        language = self.language
        rows = tuple((nugget, _(_WORDS[importance], language), _(_WORDS[label], language), float(CREDIT[label]),
                      float(STRICT_CREDIT[label]), float(WEIGHT[importance]))
                     for nugget, importance, label in zip(self.nuggets, self.importance, self.support))
        table = Table(None, _HEADERS, rows, align="lllrrr", shown_headers=tuple(_(h, language) for h in _HEADERS))
        vital = [i for i, importance in enumerate(self.importance) if importance == "vital"]

        def terms(indices, credit):
            return " + ".join(f"{float(credit[self.support[i]]):g}" for i in indices) or "0"

        def weighted(credit):
            return " + ".join(f"{float(WEIGHT[self.importance[i]]):g}·{float(credit[self.support[i]]):g}"
                              for i in range(len(self.support)))

        n, half = len(self.support), len(self.support) - len(vital)
        formula = []
        for suffix, credit in (("", CREDIT), ("_strict", STRICT_CREDIT)):
            formula += [
                f"{score_name('all' + suffix, language)} = ({terms(range(n), credit)}) / {n} = "
                f"{number(getattr(self, 'all' + suffix))}",
                f"{score_name('vital' + suffix, language)} = ({terms(vital, credit)}) / {len(vital)} = "
                f"{number(getattr(self, 'vital' + suffix))}",
                f"{score_name('weighted' + suffix, language)} = ({weighted(credit)}) / ({len(vital)} + 0.5·{half}) = "
                f"{number(getattr(self, 'weighted' + suffix))}",
            ]
        notes = [_("credit: support 1, partial_support 0.5, not_support 0; strict: partial_support 0; weight: vital 1, "
                   "okay 0.5", language)]
        if not vital:
            notes.append(_("no vital nugget: the vital scores are 0, as the track's scorer gives them", language))
        title = _("nugget scores of one answer ({n} nuggets, {vital} vital)", language).format(n=n, vital=len(vital))
        return title, (table,), tuple(formula), tuple(notes)


def nugget_scores(importance, support, *, nuggets=None):
    """The six nugget scores of one answer (Pradeep et al. 2024): all, vital and weighted, each also strict. Lesson 21.

    Parameters
    ----------
    importance : sequence of str
        Each nugget's importance, ``"vital"`` or ``"okay"`` (:data:`IMPORTANCE`).
    support : sequence of str
        What the answer does with each nugget, in the same order:
        ``"support"``, ``"partial_support"`` or ``"not_support"`` (:data:`SUPPORT`).
    nuggets : sequence of str or None, default None
        The nuggets' ids for the table; None numbers them n1, n2, ...

    Returns
    -------
    NuggetScores
        Credit 1 for support and 1/2 for partial support (0 in the strict
        scores), averaged over all nuggets, over the vital ones (0 when the
        query has none, as the track's scorer does), or weighted (vital 1,
        okay 1/2).

    Examples
    --------
    Four nuggets, two of them vital; the answer states n1 and n4, and n2 in part:

    >>> scores = nugget_scores(["vital", "vital", "okay", "okay"],
    ...                        ["support", "partial_support", "not_support", "support"])
    >>> scores.all, scores.all_strict  # (1 + 0.5 + 0 + 1) / 4 and (1 + 0 + 0 + 1) / 4
    (0.625, 0.5)
    >>> scores.vital, scores.vital_strict  # (1 + 0.5) / 2 and (1 + 0) / 2
    (0.75, 0.5)
    >>> round(scores.weighted, 4)  # (1·1 + 1·0.5 + 0.5·0 + 0.5·1) / (2 + 0.5·2) = 2 / 3
    0.6667
    """
    importance, support, names = _checked(importance, support, nuggets)
    values = [float(value) for value in _exact(importance, support)]
    return NuggetScores(*values, names, importance, support)


@dataclass(frozen=True, repr=False)
class NuggetEvaluation(Explained):
    """Every system's nugget scores over the queries (from :func:`nugget_evaluation`). Lesson 21.

    Attributes
    ----------
    systems, queries : tuple of str
    per_query : dict
        ``{score: {system: tuple of float, one per query}}`` for each of :data:`SCORES`.
    means : dict
        ``{score: {system: float}}``: the mean over the queries (computed exactly, rounded once).
    """

    systems: tuple
    queries: tuple
    per_query: dict
    means: dict

    def ranking(self, score="vital_strict"):
        """The systems, best first by ``score``'s mean (ties keep the systems' order).

        Examples
        --------
        >>> nuggets = {"q1": {"a": "vital", "b": "okay"}}
        >>> answers = {"S1": {"q1": {"a": "support", "b": "not_support"}},
        ...            "S2": {"q1": {"a": "partial_support", "b": "support"}}}
        >>> nugget_evaluation(nuggets, answers).ranking("all")
        ('S2', 'S1')
        """
        check_choice("score", score, SCORES)
        return tuple(sorted(self.systems, key=lambda system: -self.means[score][system]))

    def _parts(self):
        language = self.language
        headers = ("system", *SCORES)
        rows = tuple((system, *(self.means[score][system] for score in SCORES)) for system in self.systems)
        table = Table(None, headers, rows, align="l" + "r" * len(SCORES),
                      shown_headers=(_("system", language), *(score_name(score, language) for score in SCORES)))
        formula = (_("each score: the mean over the {n} queries of the answer's score", language)
                   .format(n=len(self.queries)),)
        title = _("nugget scores of {systems} systems over {n} queries (means)", language).format(
            systems=len(self.systems), n=len(self.queries))
        return title, (table,), formula, ()


def nugget_evaluation(nuggets, assignments):
    """Score every system's answers with :func:`nugget_scores` and average over the queries. Lesson 21.

    Parameters
    ----------
    nuggets : mapping
        ``{query: {nugget id: "vital" or "okay"}}``: each query's nuggets.
    assignments : mapping
        ``{system: {query: {nugget id: support label}}}``: for every system,
        every query of ``nuggets`` and every nugget of it, ``"support"``,
        ``"partial_support"`` or ``"not_support"``.

    Returns
    -------
    NuggetEvaluation

    Examples
    --------
    >>> nuggets = {"q1": {"a": "vital", "b": "okay"}, "q2": {"c": "vital"}}
    >>> answers = {"S1": {"q1": {"a": "support", "b": "not_support"}, "q2": {"c": "partial_support"}}}
    >>> result = nugget_evaluation(nuggets, answers)
    >>> result.per_query["all"]["S1"], result.means["all"]["S1"]  # (1/2 + 1/2) / 2
    ((0.5, 0.5), 0.5)
    >>> result.means["vital_strict"]["S1"]  # (1 + 0) / 2
    0.5
    """
    queries, exact = exact_evaluation(nuggets, assignments)
    per_query = {score: {s: tuple(map(float, v)) for s, v in found.items()} for score, found in exact.items()}
    means = {score: {s: float(sum(v, Fraction(0)) / len(v)) for s, v in found.items()} for score, found in exact.items()}
    return NuggetEvaluation(tuple(exact[SCORES[0]]), queries, per_query, means)


def exact_evaluation(nuggets, assignments):
    """``(queries, {score: {system: [Fraction per query]}})``: :func:`nugget_evaluation`'s numbers before rounding."""
    queries = _query_nuggets(nuggets)
    if not hasattr(assignments, "items") or not assignments:
        raise TypeError(gettext("assignments must map each system to its labels, {{system: {{query: {{nugget: label}}}}}}. "
                                "Got {got} instead.").format(got=shown(assignments)))
    exact = {score: {} for score in SCORES}
    for system, by_query in assignments.items():
        values = [_exact(*_answer_labels(str(system), query, nugget_ids, by_query))
                  for query, nugget_ids in queries.items()]
        for i, score in enumerate(SCORES):
            exact[score][str(system)] = [value[i] for value in values]
    return tuple(queries), exact


def _query_nuggets(nuggets):
    """``{query: {nugget: importance}}`` checked: at least one query, each with at least one nugget."""
    if not hasattr(nuggets, "items") or not nuggets or not all(hasattr(v, "items") and v for v in nuggets.values()):
        raise TypeError(gettext("nuggets must map each query to its nuggets, {{query: {{nugget: 'vital' or 'okay'}}}}, "
                                "at least one of each. Got {got} instead.").format(got=shown(nuggets)))
    for query, found in nuggets.items():
        _labels(f"nuggets[{query!r}]", list(found.values()), IMPORTANCE, "['vital', 'okay']")
    return {str(query): dict(found) for query, found in nuggets.items()}


def _answer_labels(system, query, nugget_ids, by_query):
    """(importance, support) of one answer, in the query's nugget order; every nugget must be labelled."""
    labels = by_query.get(query) if hasattr(by_query, "get") else None
    if not hasattr(labels, "get") or set(labels) != set(nugget_ids):
        raise ValueError(gettext("assignments[{system!r}][{query!r}] must label every nugget of the query, {nuggets}, "
                                 "and no other. Got {got} instead.").format(system=system, query=query,
                                                                            nuggets=shown(list(nugget_ids)),
                                                                            got=shown(labels)))
    support = _labels(f"assignments[{system!r}][{query!r}]", [labels[n] for n in nugget_ids], SUPPORT,
                      "['support', 'not_support']")
    return tuple(nugget_ids.values()), support
