"""A judge with a known error model, and what its errors do to system rankings and significance. Lesson 15.

Real assessors disagree (Voorhees 2000), and LLM judges now grade whole
test collections (the TREC 2024 RAG track's labels came from an LLM
assessor, post-edited by people). Whether that matters is a question about
*rankings of systems*, and it can be asked without calling any model: a
:class:`SimulatedJudge` re-grades every judgement at random by a confusion
matrix (row: the true grade; column: the chance of each grade it gives),
seeded so the lesson's numbers repeat. :func:`judge_effect` re-judges a
collection several times and reports, each time, the judge's agreement with
the truth (Cohen's κ), how alike the two system rankings are (Kendall's τ)
and which significant differences survive.
"""

from dataclasses import dataclass

import numpy as np

from ..statistics.agreement import cohen_kappa
from ..core.checks import check_label_list, check_number_array, check_probability
from ..runs.evaluation import evaluate
from ..core.explained import Explained, number
from ..i18n import _, gettext, mark
from ..statistics.stability import kendall_tau
from ..core.table import Table
from ..runs.trec import read_qrels
from ..core.validation import check_count, check_open_unit, check_seed, shown

__all__ = ["SimulatedJudge", "judge_effect", "JudgeEffect"]


@dataclass(frozen=True, repr=False)
class SimulatedJudge(Explained):
    """A judge that gives grade ``j`` to an item of true grade ``i`` with probability ``confusion[i][j]``. Lesson 15.

    Build one from a full confusion matrix, or with :meth:`symmetric`,
    :meth:`lenient` or :meth:`strict`; :meth:`judge` applies it to qrels.

    Parameters
    ----------
    grades : sequence of int
        The grading scale, e.g. ``(0, 1, 2, 3)``.
    confusion : 2-D sequence of float
        One row per true grade, one column per given grade, in ``grades``
        order; each row adds up to 1.
    name : str, default "simulated judge"

    Examples
    --------
    A binary judge that misses 20% of the relevant items and calls 10% of the
    others relevant:

    >>> judge = SimulatedJudge((0, 1), [[0.9, 0.1], [0.2, 0.8]])
    >>> judge.judge({"q1": {"a": 1, "b": 0, "c": 0}}, seed=4)  # draws 0.943, 0.511, 0.976 (numpy, seed 4)
    {'q1': {'a': 1, 'b': 0, 'c': 1}}

    a (true 1) is kept since 0.943 >= 0.2; b (true 0) since 0.511 < 0.9; c's
    draw 0.976 falls in the 10% of the row for grade 0 that reads "relevant".

    >>> round(judge.agreement([0.7, 0.3]), 4)  # expected share of items it grades right: 0.7·0.9 + 0.3·0.8
    0.87
    """

    grades: tuple
    confusion: tuple
    name: str = "simulated judge"

    def __post_init__(self):
        grades = check_label_list("grades", self.grades, mark("the grading scale, e.g. (0, 1, 2, 3)"))
        if not all(isinstance(g, (int, np.integer)) and not isinstance(g, bool) for g in grades) or \
                len(set(grades)) != len(grades):
            raise ValueError(gettext("grades must be distinct whole numbers (the grading scale). Got {got} "
                                     "instead.").format(got=shown(self.grades)))
        matrix = check_number_array("confusion", self.confusion, mark("one row per true grade, one column per given grade"),
                                    ndim=2)
        if matrix.shape != (len(grades), len(grades)):
            raise ValueError(gettext("confusion must be {n_grades} x {n_grades}: one row and one column per "
                                     "grade in grades. Got shape {shape} instead.")
                                    .format(n_grades=len(grades), shape=matrix.shape))
        if (matrix < 0).any() or not np.allclose(matrix.sum(axis=1), 1.0, rtol=0, atol=1e-9):
            raise ValueError(gettext("confusion must hold probabilities from 0 to 1, each row adding up to 1 "
                                     "(the chances of each grade the judge gives). Got row sums {got} instead.")
                                    .format(got=shown(matrix.sum(axis=1).tolist())))
        object.__setattr__(self, "grades", tuple(int(g) for g in grades))
        object.__setattr__(self, "confusion", tuple(map(tuple, matrix.tolist())))

    @classmethod
    def symmetric(cls, grades=(0, 1, 2, 3), accuracy=0.8, *, name="simulated judge"):
        """A judge right with probability ``accuracy``, otherwise one grade off (up or down with equal chance).

        At the ends of the scale the one neighbour takes the whole error.

        Examples
        --------
        >>> SimulatedJudge.symmetric((0, 1, 2), 0.8).confusion
        ((0.8, 0.2, 0.0), (0.1, 0.8, 0.1), (0.0, 0.2, 0.8))
        """
        accuracy = check_probability("accuracy", accuracy, mark("the chance the judge gives the true grade"))
        size = len(check_label_list("grades", grades, mark("the grading scale")))
        matrix = np.zeros((size, size))
        for i in range(size):
            neighbours = [j for j in (i - 1, i + 1) if 0 <= j < size]
            matrix[i, i] = accuracy if neighbours else 1.0
            for j in neighbours:
                matrix[i, j] = (1 - accuracy) / len(neighbours)
        return cls(tuple(grades), matrix.round(15), name)

    @classmethod
    def lenient(cls, grades=(0, 1, 2, 3), rate=0.3, *, name="lenient judge"):
        """A judge that grades one step too high with probability ``rate`` (the top grade stays).

        Over-grading is the error reported most often for LLM judges.

        Examples
        --------
        >>> SimulatedJudge.lenient((0, 1), 0.25).confusion
        ((0.75, 0.25), (0.0, 1.0))
        """
        return cls._shifted(grades, rate, +1, name)

    @classmethod
    def strict(cls, grades=(0, 1, 2, 3), rate=0.3, *, name="strict judge"):
        """A judge that grades one step too low with probability ``rate`` (the bottom grade stays).

        Examples
        --------
        >>> SimulatedJudge.strict((0, 1), 0.25).confusion
        ((1.0, 0.0), (0.25, 0.75))
        """
        return cls._shifted(grades, rate, -1, name)

    @classmethod
    def _shifted(cls, grades, rate, step, name):
        rate = check_probability("rate", rate, mark("the chance the judge moves a grade one step"))
        size = len(check_label_list("grades", grades, mark("the grading scale")))
        matrix = np.eye(size)
        for i in range(size):
            if 0 <= i + step < size:
                matrix[i, i], matrix[i, i + step] = 1 - rate, rate
        return cls(tuple(grades), matrix, name)

    def agreement(self, shares):
        """The expected share of items this judge grades right, when true grades occur with ``shares``.

        Examples
        --------
        >>> SimulatedJudge.symmetric((0, 1), 0.9).agreement([0.5, 0.5])
        0.9
        """
        shares = check_number_array("shares", shares, mark("the share of items of each true grade"))
        if shares.size != len(self.grades) or (shares < 0).any() or not np.isclose(shares.sum(), 1.0):
            raise ValueError(gettext("shares must hold {n_grades} probabilities adding up to 1 (one per grade). "
                                     "Got {got} instead.").format(n_grades=len(self.grades),
                                                                  got=shown(shares.tolist())))
        return float(shares @ np.diag(np.array(self.confusion)))

    def judge(self, qrels, *, seed=0):
        """Re-grade every judgement of ``qrels`` with this judge's errors.

        Parameters
        ----------
        qrels : file name, path, dict, DataFrame or Qrels
            The true judgements (anything :func:`~ndcg_teach.read_qrels` reads).
            Every grade must be on the judge's scale.
        seed : int or None, default 0
            The same seed gives the same judgements.

        Returns
        -------
        dict
            ``{qid: {docno: grade}}`` with the judge's grades, ready for
            :func:`~ndcg_teach.evaluate`.
        """
        truth = read_qrels(qrels)
        unknown = sorted({float(g) for g in truth.grades if g not in self.grades})
        if unknown:
            raise ValueError(gettext("qrels must use only the judge's grades {value}; grades {unknown} are not "
                                     "on its scale. Got {got} instead.").format(value=shown(list(self.grades)),
                                                                                unknown=shown(unknown),
                                                                                got=shown(qrels)))
        judged = {}
        for qid, docno, grade in zip(truth.qids, truth.docnos, self._given(truth.grades, seed)):
            judged.setdefault(qid.decode(), {})[docno.decode()] = grade
        return judged

    def regrade(self, grades, *, seed=0):
        """The grades this judge gives to items whose true grades are ``grades``, in the same order. Lessons 15 and 21.

        :meth:`judge` re-grades qrels this way; lesson 21 re-labels nugget
        assignments (0 not_support, 1 partial_support, 2 support).

        Parameters
        ----------
        grades : sequence of int
            True grades, each on the judge's scale.
        seed : int or None, default 0

        Examples
        --------
        >>> SimulatedJudge.lenient((0, 1, 2), 0.5).regrade([0, 1, 2, 2], seed=1)  # draws 0.51, 0.95, 0.14, 0.95
        [1, 2, 2, 2]
        """
        given = check_label_list("grades", grades, mark("true grades, each on the judge's scale"))
        unknown = sorted({g for g in given if g not in self.grades}, key=repr)
        if unknown:
            raise ValueError(gettext("grades must use only the judge's grades {value}; {unknown} are not on its scale. "
                                     "Got {got} instead.").format(value=shown(list(self.grades)), unknown=shown(unknown),
                                                                  got=shown(grades)))
        return self._given(given, seed)

    def _given(self, grades, seed):
        """The grades given to items of true ``grades`` (all on the scale): one uniform draw per item, in order."""
        rng = np.random.default_rng(check_seed(seed))
        index = {grade: i for i, grade in enumerate(self.grades)}
        rows = np.array([index[g] for g in grades], dtype=np.int64)
        cumulative = np.cumsum(np.array(self.confusion), axis=1)
        draws = rng.random(rows.size)
        given = (draws[:, None] >= cumulative[rows]).sum(axis=1).clip(max=len(self.grades) - 1)
        return [self.grades[column] for column in given]

    def _parts(self):
        language = self.language
        names = [str(g) for g in self.grades]
        corner = _("true \\ given", language)
        rows = tuple((name, *map(float, row)) for name, row in zip(names, self.confusion))
        table = Table(None, (corner, *names), rows, align="l" + "r" * len(names), shown_headers=(corner, *names))
        formula = (_("P(given grade j | true grade i) = confusion[i][j]; each row adds up to 1", language),)
        diagonal = _(", ", language).join(_("{item}: {label}", language).format(item=g, label=number(self.confusion[i][i]))
                                          for i, g in enumerate(self.grades))
        notes = (_("chance of the true grade, per grade: {diagonal}", language).format(diagonal=diagonal),)
        return _("{name}: confusion matrix", language).format(name=self.name), (table,), formula, notes


@dataclass(frozen=True, repr=False)
class JudgeEffect(Explained):
    """What a simulated judge did to the systems' ranking and their significant differences (from :func:`judge_effect`).
    Lesson 15.

    Attributes
    ----------
    value : float
        Mean Kendall's τ between the ranking under the true judgements and under the judge's.
    measure : str
    systems : tuple of str
    truth : tuple of float
        Each system's mean score under the true judgements.
    judged : tuple of tuple of float
        Each trial's mean scores under the judge's judgements.
    kappas, taus : tuple of float
        Per trial: Cohen's κ of the judge's grades against the true ones (1 when both use one grade only);
        τ of the two rankings (0 when one of them ties every system: there is no order to compare).
    significant : int
        System pairs significantly different (paired t-test at ``alpha``) under the true judgements.
    kept, lost, gained, reversed : tuple of int
        Per trial: significant pairs still significant the same way; no longer significant; significant only
        under the judge; significant the other way round.
    alpha : float
    """

    value: float
    measure: str
    systems: tuple
    truth: tuple
    judged: tuple
    kappas: tuple
    taus: tuple
    significant: int
    kept: tuple
    lost: tuple
    gained: tuple
    reversed: tuple
    alpha: float
    judge_name: str = "simulated judge"

    def _parts(self):
        language = self.language
        trials = tuple((t, float(k), float(tau), kept, lost, gained, rev) for t, (k, tau, kept, lost, gained, rev)
                       in enumerate(zip(self.kappas, self.taus, self.kept, self.lost, self.gained, self.reversed), 1))
        headers = ("trial", "κ", "τ", "kept", "lost", "gained", "reversed")
        shown_headers = (_("trial", language), "κ", "τ", _("kept", language), _("lost", language),
                         _("gained", language), _("reversed", language))
        per_trial = Table(_("each re-judging; system pairs significant under the true judgements: {significant}",
                            language)
                          .format(significant=self.significant), headers, trials, align="rrrrrrr",
                          shown_headers=shown_headers)
        order = np.argsort(-np.array(self.truth), kind="stable")
        scores = Table(_("{measure} by system: true judgements and the first re-judging", language).format(
            measure=self.measure), ("system", "truth", "judge"),
            tuple((self.systems[k], float(self.truth[k]), float(self.judged[0][k])) for k in order), align="lrr",
            shown_headers=(_("system", language), _("true judgements", language), self.judge_name))
        formula = (
            _("mean κ = {kappa}, mean τ = {tau} over {trials} re-judgings", language).format(
                kappa=number(float(np.mean(self.kappas))), tau=number(self.value), trials=len(self.taus)),
            _("significant at α = {alpha:g}: paired t-test on per-query {measure} for each of {pairs} system pairs",
              language).format(alpha=self.alpha, measure=self.measure,
                               pairs=len(self.systems) * (len(self.systems) - 1) // 2),
        )
        notes = (_("kept + lost + reversed = the pairs significant under the true judgements; a reversed pair is "
                   "significant both times, with opposite winners", language),)
        title = _("{judge} against the true judgements: mean Kendall's τ = {tau:.4f}", language).format(
            judge=self.judge_name, tau=self.value)
        return title, (scores, per_trial), formula, notes


def _significance(per_query, alpha):
    """For every system pair: +1 / -1 when the first / second is significantly better (paired t-test), else 0."""
    from ..statistics.significance import paired_t_test  # SciPy on first use

    signs = {}
    names = list(per_query)
    for i, first in enumerate(names):
        for second in names[i + 1:]:
            differences = per_query[first] - per_query[second]
            if np.all(differences == differences[0]):
                signs[first, second] = int(np.sign(differences[0])) if differences[0] else 0
                continue
            result = paired_t_test(per_query[first], per_query[second])
            signs[first, second] = int(np.sign(result.mean_difference)) if result.p_value < alpha else 0
    return signs


def _per_query(qrels, runs, measure, queries):
    values = {}
    for name, run in runs.items():
        result = evaluate(qrels, run, [measure], complete=True)
        by_query = dict(zip(result.queries, result.per_query[result.measures[0]]))
        values[name] = np.array([by_query.get(q, 0.0) for q in queries])
    return values


def judge_effect(qrels, runs, judge, *, measure="ndcg_cut.10", trials=10, seed=0, alpha=0.05):
    """Re-judge a collection with ``judge`` ``trials`` times; compare the rankings and significant pairs. Lesson 15.

    Each trial re-grades every judgement (:meth:`SimulatedJudge.judge`,
    seed ``seed + trial``), scores every run with :func:`~ndcg_teach.evaluate`
    (trec_eval's rules, every judged query counted), and compares with the
    true judgements: Cohen's κ of the grades, Kendall's τ of the system
    rankings, and which system pairs a paired t-test finds significant.

    Parameters
    ----------
    qrels : file name, path, dict, DataFrame or Qrels
        The true judgements.
    runs : mapping of str to run
        ``{system name: run}``, each run anything :func:`~ndcg_teach.evaluate` reads. At least 2.
    judge : SimulatedJudge
    measure : str, default "ndcg_cut.10"
        One trec_eval or ir_measures name.
    trials : int, default 10
    seed : int, default 0
    alpha : float, default 0.05

    Returns
    -------
    JudgeEffect

    Examples
    --------
    >>> qrels = {"q1": {"a": 1, "b": 0, "c": 1}, "q2": {"a": 0, "b": 1, "c": 1}, "q3": {"a": 1, "b": 1, "c": 0}}
    >>> runs = {"good": {q: {d: 1.0 for d, g in docs.items() if g} for q, docs in qrels.items()},
    ...         "poor": {q: {d: 1.0 for d, g in docs.items() if not g} for q, docs in qrels.items()}}
    >>> effect = judge_effect(qrels, runs, SimulatedJudge.symmetric((0, 1), 1.0), measure="P.2", trials=2)
    >>> effect.taus, effect.kappas  # a judge that is always right changes nothing
    ((1.0, 1.0), (1.0, 1.0))
    """
    if not isinstance(judge, SimulatedJudge):
        raise TypeError(gettext("judge must be a SimulatedJudge. Got {got} instead.").format(got=shown(judge)))
    if not hasattr(runs, "items") or len(runs) < 2:
        raise TypeError(gettext("runs must map at least 2 system names to their runs, e.g. {{'bm25': run}}. Got "
                                "{got} instead.").format(got=shown(runs)))
    trials = check_count("trials", trials, mark("how many times to re-judge the collection"))
    seed = check_seed(seed)
    alpha = check_open_unit("alpha", alpha, mark("the significance level"))
    truth = read_qrels(qrels)
    truth_dict = {}
    for qid, docno, grade in zip(truth.qids, truth.docnos, truth.grades):
        truth_dict.setdefault(qid.decode(), {})[docno.decode()] = float(grade)
    queries = truth.queries
    true_scores = _per_query(truth_dict, runs, measure, queries)
    systems = tuple(str(name) for name in runs)
    means = [float(true_scores[name].mean()) for name in runs]
    true_signs = _significance(true_scores, alpha)
    flat_truth = [truth_dict[q][d] for q in queries for d in sorted(truth_dict[q])]
    judged_means, kappas, taus, kept, lost, gained, reversed_ = [], [], [], [], [], [], []
    for trial in range(trials):
        judged = judge.judge(truth_dict, seed=None if seed is None else seed + trial)
        scores = _per_query(judged, runs, measure, queries)
        judged_means.append(tuple(float(scores[name].mean()) for name in runs))
        flat = [judged[q][d] for q in queries for d in sorted(truth_dict[q])]
        kappas.append(cohen_kappa(flat_truth, flat, labels=list(judge.grades)).value if len(set(flat_truth + flat)) > 1
                      else 1.0)
        taus.append(_tau(means, judged_means[-1]))
        signs = _significance(scores, alpha)
        pairs = [(true_signs[p], signs[p]) for p in true_signs]
        kept.append(sum(t != 0 and t == s for t, s in pairs))
        lost.append(sum(t != 0 and s == 0 for t, s in pairs))
        gained.append(sum(t == 0 and s != 0 for t, s in pairs))
        reversed_.append(sum(t != 0 and s == -t for t, s in pairs))
    return JudgeEffect(float(np.mean(taus)), measure, systems, tuple(means), tuple(judged_means), tuple(kappas),
                       tuple(taus), sum(s != 0 for s in true_signs.values()), tuple(kept), tuple(lost), tuple(gained),
                       tuple(reversed_), alpha, judge.name)


def _tau(first, second):
    """Kendall's τ-b, or 1.0 when both rankings tie every system (nothing can be out of order)."""
    if len(set(first)) == 1 or len(set(second)) == 1:
        return 1.0 if len(set(first)) == len(set(second)) == 1 else 0.0
    return kendall_tau(list(first), list(second)).value
