"""Small BEIR-style test collections for retrieval for RAG, made by code, and macro vs micro means. Lesson 17.

BEIR (Thakur et al. 2021) reports nDCG@10 on many small collections and
averages them, collection by collection. Retrieval for RAG is judged the
same way: a retriever fetches 100 passages, a reranker reorders them, and
the generator reads the top 10. The four collections here imitate the
shapes of BEIR's (their sizes, grading scales and judging styles), not their
data: every query, passage and judgement is drawn by :func:`rag_collection`
from a fixed seed, so nothing is downloaded and every number repeats
(``ndcg_teach/runs/data/README.md`` says how).

Each collection has two runs on the same queries: ``"retriever"`` (the top
100 of a first-stage retriever that misses some relevant passages
entirely, by vocabulary mismatch) and ``"reranker"`` (the same 100 passages
reordered by a better model: it can lift what was retrieved, never add
what was not). ``qrels`` are the judgements as a collection would ship them;
``complete_qrels`` grade every candidate passage, the truth a real
collection never has, to show what unjudged passages hide.

:func:`macro_micro` averages per-query values across collections both ways:
the macro mean (each collection counts once, as BEIR does) and the micro mean
(each query counts once, so large collections dominate).
"""

from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from ..core.checks import check_number_array
from ..runs.evaluation import Evaluation
from ..core.explained import Explained, number
from ..i18n import _, gettext, mark
from ..core.table import Table
from ..core.validation import check_choice, shown

__all__ = ["rag_collection", "rag_collections", "RagCollection", "macro_micro", "MacroMicro"]


@dataclass(frozen=True)
class _Recipe:
    """How one collection is drawn (the numbers data/README.md documents)."""

    seed: int
    queries: int
    candidates: int  # passages per query with a true grade
    relevant: tuple  # (fewest, most) relevant passages per query
    grades: tuple  # chances of grades 1, 2, ... among the relevant
    separation: float  # how far above the non-relevant passages each grade's true match lies
    mismatch: float  # chance a relevant passage shares no words with its query: lexical matching loses it
    partial: float  # chance it shares few: lexical matching ranks it well below its worth
    retriever_noise: float
    reranker_noise: float
    judging: str  # "relevant only", "relevant and top 10", "pooled"
    description: str


RECIPES = {
    "claims": _Recipe(101, 30, 200, (1, 3), (1.0,), 3.0, 0.1, 0.15, 0.6, 0.4, "relevant only",
                      mark("scientific claims and the abstracts that support them (shaped like BEIR's SciFact): few "
                           "relevant passages per query, binary grades, only relevant passages judged")),
    "nutrition": _Recipe(102, 40, 250, (5, 30), (0.7, 0.3), 1.8, 0.2, 0.2, 0.6, 0.4, "relevant and top 10",
                         mark("medical questions with many graded answers (shaped like BEIR's NFCorpus): grades 1-2, "
                              "many relevant passages, the retriever's top 10 judged too")),
    "pandemic": _Recipe(103, 12, 300, (20, 60), (0.6, 0.4), 2.0, 0.1, 0.35, 0.6, 0.35, "pooled",
                        mark("pandemic questions judged by pooling other systems (shaped like BEIR's TREC-COVID): "
                             "grades 1-2, judged only where three older systems' top 15 reached, so this reranker "
                             "finds unjudged passages")),
    "finance": _Recipe(104, 25, 200, (1, 4), (1.0,), 2.0, 0.2, 0.25, 0.7, 0.4, "relevant only",
                       mark("financial opinion questions (shaped like BEIR's FiQA): few relevant answers, binary "
                            "grades, many phrased unlike the question")),
}
COLLECTIONS = tuple(RECIPES)
"""The collection names, in the order lesson 17 shows them."""
DEPTH = 100  # passages each run returns per query
POOL_DEPTH, POOL_SYSTEMS = 15, 3
LOST, DEMOTED, OLDER_NOISE = -6.0, -2.5, 0.8


@dataclass(frozen=True, repr=False, eq=False)
class RagCollection(Explained):
    """One small test collection: queries' judgements and two runs (from :func:`rag_collection`). Lesson 17.

    Attributes
    ----------
    name, description : str
    qrels : dict
        ``{qid: {docno: grade}}`` as the collection ships them (unjudged passages are absent).
    complete_qrels : dict
        Every candidate passage's true grade, judged or not.
    runs : dict
        ``{"retriever": run, "reranker": run}``, each ``{qid: {docno: score}}`` with 100 passages per query.
    judging : str
        How the judged passages were chosen.
    """

    name: str
    description: str
    qrels: dict = field(repr=False)
    complete_qrels: dict = field(repr=False)
    runs: dict = field(repr=False)
    judging: str = ""

    @property
    def queries(self):
        """The query ids."""
        return tuple(self.qrels)

    def _parts(self):
        language = self.language
        judged = [len(docs) for docs in self.qrels.values()]
        relevant = [sum(g > 0 for g in docs.values()) for docs in self.complete_qrels.values()]
        relevant_judged = [sum(g > 0 for g in docs.values()) for docs in self.qrels.values()]
        grades = sorted({g for docs in self.complete_qrels.values() for g in docs.values()})
        rows = ((_("queries", language), len(self.qrels)),
                (_("judged passages per query (mean)", language), float(np.mean(judged))),
                (_("relevant passages per query (mean, truth)", language), float(np.mean(relevant))),
                (_("relevant passages judged (share)", language), float(sum(relevant_judged) / sum(relevant))),
                (_("grades", language), ", ".join(str(g) for g in grades)),
                (_("runs", language), _(", ", language).join(_run_name(system, language) for system in self.runs)),
                (_("passages per run and query", language), DEPTH))
        table = Table(None, ("", "value"), rows, align="lr", shown_headers=("", _("value", language)))
        return _("{label}: {text}", language).format(label=self.name, text=_(self.description, language)), (table,), (), ()


RUN_NAMES = {"retriever": mark("retriever"), "reranker": mark("reranker")}


def _run_name(system, language):
    """A run's name as a learner reads it: its key, after its name in the learner's language when that differs."""
    shown = _(RUN_NAMES[system], language)
    return system if shown == system else _("{name} ({key})", language).format(name=shown, key=system)


def _draw(recipe, name):
    rng = np.random.default_rng(recipe.seed)
    qrels, complete, runs = {}, {}, {"retriever": {}, "reranker": {}}
    for q in range(1, recipe.queries + 1):
        qid = f"{name}-{q:02d}"
        docnos = [f"{name}-{q:02d}-{d:03d}" for d in range(recipe.candidates)]
        grades = np.zeros(recipe.candidates, dtype=np.int64)
        count = int(rng.integers(recipe.relevant[0], recipe.relevant[1] + 1))
        chosen = rng.choice(recipe.candidates, size=count, replace=False)
        grades[chosen] = 1 + rng.choice(len(recipe.grades), size=count, p=recipe.grades)
        match = grades * recipe.separation + rng.normal(0, 1.0, recipe.candidates)  # how well each passage answers
        draw = rng.random(recipe.candidates)
        penalty = np.where(grades > 0, np.where(draw < recipe.mismatch, LOST, np.where(
            draw < recipe.mismatch + recipe.partial, DEMOTED, 0.0)), 0.0)
        lexical = match + penalty  # what word overlap sees
        first_stage = lexical + rng.normal(0, recipe.retriever_noise, recipe.candidates)
        top = np.argsort(-first_stage, kind="stable")[:DEPTH]
        reranked = match[top] + rng.normal(0, recipe.reranker_noise, DEPTH)
        runs["retriever"][qid] = {docnos[d]: round(float(s), 6) for d, s in zip(top, first_stage[top])}
        runs["reranker"][qid] = {docnos[d]: round(float(s), 6) for d, s in zip(top, reranked)}
        complete[qid] = {docnos[d]: int(g) for d, g in enumerate(grades)}
        judged = set(np.flatnonzero(grades > 0))
        if recipe.judging == "relevant and top 10":
            judged |= set(top[:10])
        elif recipe.judging == "pooled":
            judged = set()
            for _system in range(POOL_SYSTEMS):
                older = lexical + rng.normal(0, OLDER_NOISE, recipe.candidates)
                judged |= set(np.argsort(-older, kind="stable")[:POOL_DEPTH])
        qrels[qid] = {docnos[d]: int(grades[d]) for d in sorted(judged)}
    return qrels, complete, runs


@lru_cache(maxsize=None)
def _cached(name):
    recipe = RECIPES[name]
    qrels, complete, runs = _draw(recipe, name)
    return qrels, complete, runs


def rag_collection(name):
    """One of the small BEIR-style collections, drawn from its fixed seed. Lesson 17.

    Parameters
    ----------
    name : {"claims", "nutrition", "pandemic", "finance"}

    Returns
    -------
    RagCollection
        Fresh dicts each call (change them freely).

    Examples
    --------
    >>> claims = rag_collection("claims")
    >>> len(claims.queries), len(claims.runs["retriever"]["claims-01"])
    (30, 100)
    >>> import ndcg_teach as nt
    >>> result = nt.evaluate(claims.qrels, claims.runs["reranker"], ["ndcg_cut.10"])
    >>> round(result["ndcg_cut.10"], 4)
    0.6514
    """
    check_choice("name", name, COLLECTIONS)
    qrels, complete, runs = _cached(name)
    copy = {"qrels": {q: dict(d) for q, d in qrels.items()}, "complete": {q: dict(d) for q, d in complete.items()},
            "runs": {system: {q: dict(d) for q, d in run.items()} for system, run in runs.items()}}
    recipe = RECIPES[name]
    return RagCollection(name, recipe.description, copy["qrels"], copy["complete"], copy["runs"], recipe.judging)


def rag_collections():
    """All four collections, by name, in lesson 17's order. Lesson 17.

    Examples
    --------
    >>> {name: len(collection.queries) for name, collection in rag_collections().items()}
    {'claims': 30, 'nutrition': 40, 'pandemic': 12, 'finance': 25}
    """
    return {name: rag_collection(name) for name in COLLECTIONS}


@dataclass(frozen=True, repr=False)
class MacroMicro(Explained):
    """Per-collection means and the two averages across collections (from :func:`macro_micro`). Lesson 17.

    Attributes
    ----------
    collections : tuple of str
    queries : tuple of int
    means : tuple of float
        Each collection's mean over its queries.
    macro : float
        The mean of the collection means (each collection weighs the same).
    micro : float
        The mean over every query of every collection (each query weighs the same).
    measure : str
    """

    collections: tuple
    queries: tuple
    means: tuple
    macro: float
    micro: float
    measure: str = ""

    def _parts(self):
        language = self.language
        rows = tuple((name, count, float(mean)) for name, count, mean in zip(self.collections, self.queries,
                                                                              self.means))
        table = Table(None, ("collection", "queries", "mean"), rows, align="lrr",
                      shown_headers=(_("collection", language), _("queries", language),
                                     _("mean {measure}", language).format(measure=self.measure).strip()))
        means = " + ".join(number(m) for m in self.means)
        weighted = " + ".join(f"{q}·{number(m)}" for q, m in zip(self.queries, self.means))
        formula = (
            f"{_('macro', language)} = ({means}) / {len(self.means)} = {number(self.macro)}",
            f"{_('micro', language)} = ({weighted}) / {sum(self.queries)} = {number(self.micro)}",
        )
        notes = (_("macro: every collection counts once (BEIR's average); micro: every query counts once, so the "
                   "collections with more queries weigh more", language),)
        title = _("macro mean {macro:.4f}, micro mean {micro:.4f}", language).format(macro=self.macro, micro=self.micro)
        return title, (table,), formula, notes


def macro_micro(per_collection, measure=None):
    """The macro and micro means of a per-query measure across collections. Lesson 17.

    Parameters
    ----------
    per_collection : mapping of str to (Evaluation, sequence of float, or mapping of str to float)
        Each collection's per-query values: an :class:`~ndcg_teach.Evaluation`
        (with ``measure``), a list of values, or ``{qid: value}``.
    measure : str or None
        Which measure of the Evaluations; None takes each one's first.

    Returns
    -------
    MacroMicro

    Examples
    --------
    >>> result = macro_micro({"small": [1.0, 0.0], "large": [0.5, 0.5, 0.5, 0.5, 0.5, 0.5]})
    >>> result.macro, result.micro  # (0.5 + 0.5) / 2; (1 + 0 + 6·0.5) / 8
    (0.5, 0.5)
    >>> result = macro_micro({"small": [1.0, 1.0], "large": [0.2] * 6})
    >>> round(result.macro, 4), round(result.micro, 4)  # (1 + 0.2) / 2; (2 + 1.2) / 8
    (0.6, 0.4)
    """
    if not hasattr(per_collection, "items") or not per_collection:
        raise TypeError(gettext("per_collection must map each collection's name to its per-query values (an "
                                "Evaluation, a list, or {{qid: value}}). Got {got} instead.")
                               .format(got=shown(per_collection)))
    names, counts, means, every = [], [], [], []
    shown_measure = measure or ""
    for name, values in per_collection.items():
        if isinstance(values, Evaluation):
            chosen = values.measures[0] if measure is None else values._measure(measure).name
            shown_measure = chosen
            array = np.asarray(values.per_query[chosen], dtype=np.float64)
        else:
            array = check_number_array(f"per_collection[{name!r}]", list(values.values()) if hasattr(values, "values")
                                       and not isinstance(values, np.ndarray) else values, mark("one value per query"))
        if array.size == 0:
            raise ValueError(gettext("per_collection[{name!r}] must hold at least one query's value. Got none "
                                     "instead.").format(name=name))
        names.append(str(name))
        counts.append(int(array.size))
        means.append(float(array.mean()))
        every.append(array)
    return MacroMicro(tuple(names), tuple(counts), tuple(means), float(np.mean(means)),
                      float(np.concatenate(every).mean()), shown_measure)
