"""A small made-up collection of generated answers, with nuggets, passages, runs and assessors' labels. Lesson 21.

Everything here is synthetic, drawn by :func:`answer_collection` from a fixed
seed (``ndcg_teach/runs/data/README.md`` gives the recipe); nothing is downloaded
and every number repeats. Twelve queries each have six to nine nuggets, vital
or okay, and thirty passages: half of them state one or two nuggets (each
nugget at least once, popular nuggets many times), half state none. A passage's
grade follows from its facts: 2 when it states a vital nugget, 1 when it states
okay nuggets only, 0 otherwise.

Four systems answer every query. Each retrieves 20 passages, and its
generator reads the top 5 and writes statements that cite them:

- **A**: a retriever that avoids passages repeating what it already has, and a
  careful generator (states what the context holds, cites the passage that
  states it);
- **B**: A's retriever, and a generator that hedges: it states as many nuggets,
  but half of them only in part;
- **C**: a retriever that ranks passages on the most common nuggets first
  (many relevant passages, few distinct nuggets), and A's careful generator;
- **D**: a weaker retriever, and a generator that fills gaps from memory: it
  states nuggets its context lacks, cites passages that do not say what it
  says, and adds claims of its own.

The assessors' labels (``assignments``) are what each answer does with each
nugget, by construction: support when a statement states it, partial support
when only a hedged statement does.
"""

from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from ...core.explained import Explained
from ...i18n import _, mark
from ...core.table import Table
from ...core.validation import check_choice

__all__ = ["answer_collection", "AnswerCollection", "Statement"]

SEED = 2024
QUERIES, PASSAGES, DEPTH, CONTEXT = 12, 30, 20, 5
SYSTEMS = {
    "A": ("diverse", "careful", mark("avoids repeating what it already retrieved; careful generator")),
    "B": ("diverse", "hedging", mark("A's retriever; a generator that states half of its nuggets only in part")),
    "C": ("redundant", "careful", mark("ranks passages on the most common nuggets first; careful generator")),
    "D": ("weak", "filler", mark("a weaker retriever; a generator that fills gaps from memory and invents claims")),
}
# Per generator: chance to state a nugget the context holds (vital, okay), chance the statement is hedged (partial),
# chance of an extra citation of a passage that does not state it, chance of citing a wrong passage instead.
GENERATORS = {"careful": (0.9, 0.75, 0.15, 0.15, 0.0), "hedging": (0.95, 0.85, 0.5, 0.0, 0.0),
              "filler": (0.85, 0.6, 0.2, 0.1, 0.35)}
MEMORY = (0.45, 0.25)  # the filler's chance to state a nugget its context lacks (vital, okay)


@dataclass(frozen=True)
class Statement:
    """One statement of an answer: the facts it states, whether only in part, and the passages it cites. Lesson 21.

    Attributes
    ----------
    facts : tuple of str
        Nugget ids (``"n3"``), or ids of claims no passage states (``"x1"``).
    partial : bool
        True when the statement states its nuggets only in part (hedged, a detail missing).
    cites : tuple of str
        Passage ids, in the order cited.
    """

    facts: tuple
    partial: bool
    cites: tuple


@dataclass(frozen=True, repr=False, eq=False)
class AnswerCollection(Explained):
    """The made-up collection of lesson 21 (from :func:`answer_collection`). Lesson 21.

    Attributes
    ----------
    nuggets : dict
        ``{query: {nugget: "vital" or "okay"}}``.
    passages : dict
        ``{query: {passage: tuple of the nuggets it states}}``.
    qrels : dict
        ``{query: {passage: grade}}``: 2 for a vital nugget stated, 1 for okay ones only, 0 for none.
    runs : dict
        ``{system: {query: {passage: score}}}``: each system's 20 passages (higher score first).
    answers : dict
        ``{system: {query: tuple of Statement}}``.
    assignments : dict
        ``{system: {query: {nugget: label}}}``: the assessors' labels.
    context_depth : int
        How many of the top passages the generators read (5).
    """

    nuggets: dict = field(repr=False)
    passages: dict = field(repr=False)
    qrels: dict = field(repr=False)
    runs: dict = field(repr=False)
    answers: dict = field(repr=False)
    assignments: dict = field(repr=False)
    context_depth: int = CONTEXT

    @property
    def queries(self):
        """The query ids."""
        return tuple(self.nuggets)

    @property
    def systems(self):
        """The system names."""
        return tuple(self.runs)

    def ranking(self, system, query):
        """A system's passages for a query, best first."""
        run = self.runs[check_choice("system", system, self.systems)][check_choice("query", query, self.queries)]
        return sorted(run, key=run.get, reverse=True)

    def context(self, system, query):
        """``{passage: facts}`` of the passages the system's generator read (its top :attr:`context_depth`), in order.

        Examples
        --------
        >>> collection = answer_collection()
        >>> list(collection.context("A", "q01")) == collection.ranking("A", "q01")[:5]
        True
        """
        return {p: list(self.passages[query][p]) for p in self.ranking(system, query)[: self.context_depth]}

    def claims(self, system, query):
        """The facts of each statement of the system's answer, as :func:`~ndcg_teach.citation_support` reads them."""
        return [list(s.facts) for s in self._answer(system, query)]

    def citations(self, system, query):
        """The passages each statement of the system's answer cites."""
        return [list(s.cites) for s in self._answer(system, query)]

    def nugget_judgements(self, query, passages=None):
        """One row per passage (all of the query's, or those given, in order), one column per nugget: 1 where the
        passage states the nugget. As :func:`~ndcg_teach.subtopic_recall` reads subtopics.

        Examples
        --------
        >>> collection = answer_collection()
        >>> rows = collection.nugget_judgements("q01")
        >>> len(rows) == 30 and all(any(row[j] for row in rows) for j in range(len(collection.nuggets["q01"])))
        True
        """
        nuggets = list(self.nuggets[check_choice("query", query, self.queries)])
        chosen = self.passages[query] if passages is None else passages
        return [[int(n in self.passages[query][p]) for n in nuggets] for p in chosen]

    def _answer(self, system, query):
        return self.answers[check_choice("system", system, self.systems)][check_choice("query", query, self.queries)]

    def _parts(self):
        language = self.language
        nuggets = [len(found) for found in self.nuggets.values()]
        vital = [sum(v == "vital" for v in found.values()) for found in self.nuggets.values()]
        relevant = [sum(g > 0 for g in grades.values()) for grades in self.qrels.values()]
        statements = [len(answer) for by_query in self.answers.values() for answer in by_query.values()]
        rows = ((_("queries", language), len(self.nuggets)),
                (_("nuggets per query (mean)", language), float(np.mean(nuggets))),
                (_("vital nuggets per query (mean)", language), float(np.mean(vital))),
                (_("passages per query", language), PASSAGES),
                (_("passages stating a nugget, per query (mean)", language), float(np.mean(relevant))),
                (_("passages each system retrieves", language), DEPTH),
                (_("passages the generator reads", language), self.context_depth),
                (_("statements per answer (mean)", language), float(np.mean(statements))))
        summary = Table(None, ("", "value"), rows, align="lr", shown_headers=("", _("value", language)))
        systems = Table(None, ("system", "what it does"),
                        tuple((name, _(about, language)) for name, (_r, _g, about) in SYSTEMS.items()),
                        align="ll", shown_headers=(_("system", language), _("what it does", language)))
        title = _("a made-up collection of generated answers (synthetic, seed {seed})", language).format(seed=SEED)
        return title, (summary, systems), (), ()


@lru_cache(maxsize=None)
def answer_collection():
    """Lesson 21's made-up collection: 12 queries, their nuggets and passages, 4 systems' runs and answers. Lesson 21.

    Synthetic from end to end (see the module's docstring for how it is drawn):
    it teaches how generated answers are scored, not how any real system does.
    The same object is returned on every call; treat it as read-only.

    Returns
    -------
    AnswerCollection

    Examples
    --------
    >>> collection = answer_collection()
    >>> collection.queries[:3], collection.systems
    (('q01', 'q02', 'q03'), ('A', 'B', 'C', 'D'))
    >>> collection.nuggets["q01"]["n1"] in ("vital", "okay")
    True
    """
    rng = np.random.default_rng(SEED)
    nuggets, passages, qrels = {}, {}, {}
    runs = {system: {} for system in SYSTEMS}
    answers = {system: {} for system in SYSTEMS}
    assignments = {system: {} for system in SYSTEMS}
    for q in range(1, QUERIES + 1):
        query = f"q{q:02d}"
        importance, popularity = _nuggets(rng)
        nuggets[query] = importance
        passages[query] = _passages(rng, importance, popularity)
        qrels[query] = {p: 2 if any(importance[n] == "vital" for n in facts) else int(bool(facts))
                        for p, facts in passages[query].items()}
        for system, (retriever, generator, _about) in SYSTEMS.items():
            ranking = _retrieve(rng, retriever, passages[query], popularity)
            runs[system][query] = {p: float(DEPTH - i) for i, p in enumerate(ranking)}
            context = {p: passages[query][p] for p in ranking[:CONTEXT]}
            answer = _generate(rng, generator, importance, context)
            answers[system][query] = answer
            assignments[system][query] = _assess(importance, answer)
    return AnswerCollection(nuggets, passages, qrels, runs, answers, assignments)


def _nuggets(rng):
    """``({nugget: importance}, popularity)``: 6-9 nuggets, at least two of each kind; vital ones tend to be common."""
    m = int(rng.integers(6, 10))
    while True:
        vital = rng.random(m) < 0.45
        if 2 <= vital.sum() <= m - 2:
            break
    popularity = rng.gamma(1.0, 1.0, m) * np.where(vital, 2.0, 1.0)
    return {f"n{j + 1}": "vital" if vital[j] else "okay" for j in range(m)}, popularity / popularity.sum()


def _passages(rng, importance, popularity):
    """30 passages: each nugget stated once, more passages stating one or two popular nuggets, the rest none."""
    names = list(importance)
    facts = [(name,) for name in names]
    while len(facts) < PASSAGES // 2:
        size = 1 if rng.random() < 0.7 else 2
        facts.append(tuple(sorted((str(n) for n in rng.choice(names, size=size, replace=False, p=popularity)),
                                  key=names.index)))
    facts += [()] * (PASSAGES - len(facts))
    order = rng.permutation(PASSAGES)
    return {f"p{i + 1:02d}": facts[j] for i, j in enumerate(order)}


def _retrieve(rng, retriever, passages, popularity):
    """The retriever's top 20 passage ids, best first."""
    ids = list(passages)
    relevant = np.array([bool(passages[p]) for p in ids], dtype=float)
    if retriever == "weak":
        scores = 0.9 * relevant + rng.normal(0, 0.8, len(ids))
    else:
        scores = 1.5 * relevant + rng.normal(0, 0.5, len(ids))
    if retriever == "redundant":
        common = np.argsort(-popularity)[:2]
        scores += np.array([2.0 * any(f"n{j + 1}" in passages[p] for j in common) for p in ids])
    order = [ids[i] for i in np.argsort(-scores, kind="stable")]
    if retriever != "diverse":
        return order[:DEPTH]
    score_of = dict(zip(ids, scores))
    chosen, seen, left = [], set(), order[:DEPTH]
    while left:  # maximal marginal relevance: a passage repeating a nugget already chosen loses 1.5
        best = max(left, key=lambda p: score_of[p] - 1.5 * bool(set(passages[p]) & seen))
        chosen.append(best)
        seen |= set(passages[best])
        left.remove(best)
    return chosen


def _generate(rng, generator, importance, context):
    """The statements one generator writes from its context (``{passage: facts}``, best first)."""
    state_vital, state_okay, hedge, extra, wrong = GENERATORS[generator]
    ids = list(context)
    met = list(dict.fromkeys(n for p in ids for n in context[p]))  # nuggets in the order the context gives them
    stated = [n for n in met if rng.random() < (state_vital if importance[n] == "vital" else state_okay)] or met[:1]
    statements, i = [], 0
    while i < len(stated):
        group = tuple(stated[i:i + 2]) if i + 1 < len(stated) and rng.random() < 0.25 else (stated[i],)
        i += len(group)
        cites = []
        for n in group:
            source = next(p for p in ids if n in context[p])
            others = [p for p in ids if n not in context[p]]
            if others and rng.random() < wrong:
                source = others[int(rng.integers(len(others)))]
            cites += [source] if source not in cites else []
        spare = [p for p in ids if p not in cites and not set(group) & set(context[p])]
        if spare and rng.random() < extra:
            cites.append(spare[int(rng.integers(len(spare)))])
        statements.append(Statement(group, bool(rng.random() < hedge), tuple(cites)))
    if generator == "filler":
        for n in (n for n in importance if n not in met):
            if rng.random() < MEMORY[importance[n] == "okay"]:
                statements.append(Statement((n,), bool(rng.random() < hedge), (ids[int(rng.integers(len(ids)))],)))
        for x in range(int(rng.integers(1, 3))):
            statements.append(Statement((f"x{x + 1}",), False, (ids[int(rng.integers(len(ids)))],)))
        statements = [statements[j] for j in rng.permutation(len(statements))]
    return tuple(statements)


def _assess(importance, answer):
    """What the answer does with each nugget: support if a statement states it fully, partial if only hedged ones do."""
    labels = {}
    for n in importance:
        found = [s.partial for s in answer if n in s.facts]
        labels[n] = "not_support" if not found else "partial_support" if all(found) else "support"
    return labels
