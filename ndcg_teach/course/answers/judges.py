"""An LLM judge of answers, simulated: its nugget labels against assessors', and what they do to the systems. Lesson 21.

The TREC 2024 RAG track had nuggets assigned to answers both by NIST's
assessors and by an LLM, and compared the two (Pradeep et al. 2024). An LLM
judge errs in ways that can be modelled without calling one: a
:class:`~ndcg_teach.SimulatedJudge` on the support scale 0 (not_support),
1 (partial_support), 2 (support) re-labels every assignment by its confusion
matrix, seeded. :func:`nugget_judge_effect` does that several times and
reports, each time, the agreement with the assessors' labels (Cohen's κ, plain
and quadratic-weighted), how alike the two rankings of the systems are
(Kendall's τ), and how far each system's score moved (the judge's bias).
A judge may be given per system, to model a bias that depends on the system
(a judge that likes one system's style).
"""

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from ...statistics.agreement import cohen_kappa
from ...core.explained import Explained, number
from ...i18n import _, gettext, mark
from ..simulated_judges import SimulatedJudge, _tau
from ...core.table import Table
from ...core.validation import check_choice, check_count, check_seed, shown
from .nuggets import SCORES, exact_evaluation, score_name

__all__ = ["judge_assignments", "nugget_judge_effect", "NuggetJudgeEffect", "SUPPORT_GRADES"]

SUPPORT_GRADES = {"not_support": 0, "partial_support": 1, "support": 2}
"""The support labels as grades, for a :class:`~ndcg_teach.SimulatedJudge` on the scale (0, 1, 2)."""
_LABELS = {grade: label for label, grade in SUPPORT_GRADES.items()}


def _judges(judge, systems):
    """One SimulatedJudge on the scale (0, 1, 2) per system."""
    judges = dict(judge) if isinstance(judge, Mapping) else dict.fromkeys(systems, judge)
    if set(judges) != set(systems) or not all(isinstance(j, SimulatedJudge) and set(j.grades) == {0, 1, 2}
                                              for j in judges.values()):
        raise TypeError(gettext("judge must be a SimulatedJudge on the grades (0, 1, 2), or one for each system {systems}. "
                                "Got {got} instead.").format(systems=shown(list(systems)), got=shown(judge)))
    return judges


def _grades(assignments):
    """``{system: [(query, nugget, grade), ...]}`` in the assignments' own order."""
    if not hasattr(assignments, "items") or not assignments:
        raise TypeError(gettext("assignments must map each system to its labels, {{system: {{query: {{nugget: label}}}}}}. "
                                "Got {got} instead.").format(got=shown(assignments)))
    found = {}
    for system, by_query in assignments.items():
        rows = []
        for query, labels in (by_query.items() if hasattr(by_query, "items") else ()):
            for nugget, label in (labels.items() if hasattr(labels, "items") else ()):
                if label not in SUPPORT_GRADES:
                    raise ValueError(gettext("assignments must label each nugget 'support', 'partial_support' or "
                                             "'not_support'. Got {got} for {where} instead.")
                                     .format(got=shown(label), where=f"{system}/{query}/{nugget}"))
                rows.append((query, nugget, SUPPORT_GRADES[label]))
        found[str(system)] = rows
    return found


def judge_assignments(assignments, judge, *, seed=0):
    """Every nugget assignment re-labelled by a simulated judge (one per system, if given so). Lesson 21.

    Parameters
    ----------
    assignments : mapping
        ``{system: {query: {nugget id: support label}}}``: the labels to re-judge (assessors', in the lesson).
    judge : SimulatedJudge or mapping of str to SimulatedJudge
        A judge on the grades (0, 1, 2) of :data:`SUPPORT_GRADES`, or one per system.
    seed : int or None, default 0
        Each system's labels are re-judged with its own seed, drawn from this one.

    Returns
    -------
    dict
        The same shape as ``assignments``, with the judge's labels.

    Examples
    --------
    A judge that always says support, and one that never changes a label:

    >>> always = SimulatedJudge((0, 1, 2), [[0, 0, 1], [0, 0, 1], [0, 0, 1]])
    >>> judge_assignments({"S1": {"q1": {"a": "not_support", "b": "partial_support"}}}, always)
    {'S1': {'q1': {'a': 'support', 'b': 'support'}}}
    >>> faithful = SimulatedJudge.symmetric((0, 1, 2), 1.0)
    >>> judge_assignments({"S1": {"q1": {"a": "not_support"}}}, faithful)
    {'S1': {'q1': {'a': 'not_support'}}}
    """
    grades = _grades(assignments)
    judges = _judges(judge, tuple(grades))
    seeds = np.random.default_rng(check_seed(seed)).integers(0, 2**31, len(grades))
    judged = {}
    for (system, rows), system_seed in zip(grades.items(), seeds):
        given = judges[system].regrade([row[2] for row in rows], seed=int(system_seed)) if rows else []
        for (query, nugget, _grade), grade in zip(rows, given):
            judged.setdefault(system, {}).setdefault(query, {})[nugget] = _LABELS[grade]
    return judged


@dataclass(frozen=True, repr=False)
class NuggetJudgeEffect(Explained):
    """A simulated judge of answers against the assessors' nugget labels (from :func:`nugget_judge_effect`). Lesson 21.

    Attributes
    ----------
    value : float
        Mean Kendall's τ between the systems' ranking under the assessors' labels and under the judge's.
    score : str
        The nugget score the systems are ranked by (one of :data:`~ndcg_teach.course.answers.nuggets.SCORES`).
    systems : tuple of str
    assessors : tuple of float
        Each system's mean score under the assessors' labels.
    judged : tuple of tuple of float
        Per trial, each system's mean score under the judge's labels.
    bias : tuple of float
        Per system, the judge's score minus the assessors', averaged over the trials (exactly, then rounded).
    kappas, weighted_kappas, taus : tuple of float
        Per trial: Cohen's κ of the judge's labels against the assessors', plain and quadratic-weighted on the
        scale 0, 1, 2 (1 when both use one label only); τ of the two rankings of the systems.
    """

    value: float
    score: str
    systems: tuple
    assessors: tuple
    judged: tuple
    bias: tuple
    kappas: tuple
    weighted_kappas: tuple
    taus: tuple

    def _parts(self):
        language = self.language
        systems = Table(_("{score} by system: the assessors' labels and the judge's (bias: mean over {trials} "
                          "re-judgings)", language).format(score=score_name(self.score, language), trials=len(self.taus)),
                        ("system", "assessors", "judge", "bias"),
                        tuple((s, self.assessors[i], self.assessors[i] + self.bias[i], self.bias[i])
                              for i, s in enumerate(self.systems)),
                        align="lrrr", shown_headers=(_("system", language), _("assessors", language),
                                                     _("judge (mean)", language), _("bias", language)))
        best = [self.systems[int(np.argmax(trial))] for trial in self.judged]
        trials = Table(None, ("trial", "κ", "weighted κ", "τ", "best"),
                       tuple((t, k, w, tau, b) for t, (k, w, tau, b) in
                             enumerate(zip(self.kappas, self.weighted_kappas, self.taus, best), 1)),
                       align="rrrrl", shown_headers=(_("trial", language), "κ", _("quadratic weighted κ", language), "τ",
                                                     _("best system", language)))
        formula = (_("mean κ = {kappa}, mean quadratic weighted κ = {weighted}, mean τ = {tau} over {trials} re-judgings",
                     language).format(kappa=number(float(np.mean(self.kappas))),
                                      weighted=number(float(np.mean(self.weighted_kappas))), tau=number(self.value),
                                      trials=len(self.taus)),
                   _("bias = the judge's mean score - the assessors' mean score", language))
        title = _("a simulated judge against the assessors' nugget labels: mean Kendall's τ = {tau}", language).format(
            tau=number(self.value))
        return title, (systems, trials), formula, ()


def _flat(assignments):
    return [row[2] for rows in _grades(assignments).values() for row in rows]


def _kappas(reference, given):
    """Plain and quadratic-weighted κ on the scale 0, 1, 2; (1, 1) when both give one and the same label only."""
    if len(set(reference + given)) == 1:
        return 1.0, 1.0
    return (cohen_kappa(reference, given, labels=[0, 1, 2]).value,
            cohen_kappa(reference, given, labels=[0, 1, 2], weights="quadratic").value)


def nugget_judge_effect(nuggets, assignments, judge, *, score="vital_strict", trials=10, seed=0):
    """Re-judge every nugget assignment ``trials`` times; compare labels, scores and rankings with the assessors'.
    Lesson 21.

    Parameters
    ----------
    nuggets : mapping
        ``{query: {nugget id: "vital" or "okay"}}``.
    assignments : mapping
        ``{system: {query: {nugget id: support label}}}``: the assessors' labels, the reference.
    judge : SimulatedJudge or mapping of str to SimulatedJudge
        On the grades (0, 1, 2) of :data:`SUPPORT_GRADES`; a mapping gives each system its own judge.
    score : str, default "vital_strict"
        The nugget score that ranks the systems (one of :data:`~ndcg_teach.course.answers.nuggets.SCORES`).
    trials : int, default 10
    seed : int, default 0
        Trial ``t`` re-judges with seed ``seed + t``.

    Returns
    -------
    NuggetJudgeEffect

    Examples
    --------
    A judge that never errs agrees perfectly and keeps the ranking:

    >>> nuggets = {"q1": {"a": "vital", "b": "okay"}, "q2": {"c": "vital", "d": "vital"}}
    >>> assessors = {"S1": {"q1": {"a": "support", "b": "not_support"}, "q2": {"c": "support", "d": "partial_support"}},
    ...              "S2": {"q1": {"a": "not_support", "b": "support"}, "q2": {"c": "not_support", "d": "support"}}}
    >>> effect = nugget_judge_effect(nuggets, assessors, SimulatedJudge.symmetric((0, 1, 2), 1.0), trials=2)
    >>> effect.kappas, effect.taus, effect.bias
    ((1.0, 1.0), (1.0, 1.0), (0.0, 0.0))
    """
    check_choice("score", score, SCORES)
    trials = check_count("trials", trials, mark("how many times to re-judge the labels"))
    seed = check_seed(seed)
    reference = exact_evaluation(nuggets, assignments)[1]
    systems = tuple(reference[score])
    _judges(judge, systems)
    exact_means = [sum(reference[score][s], Fraction(0)) / len(reference[score][s]) for s in systems]
    flat = _flat(assignments)
    judged, moved, kappas, weighted, taus = [], [], [], [], []
    for trial in range(trials):
        labels = judge_assignments(assignments, judge, seed=None if seed is None else seed + trial)
        found = exact_evaluation(nuggets, labels)[1]
        trial_means = [sum(found[score][s], Fraction(0)) / len(found[score][s]) for s in systems]
        moved.append([m - r for m, r in zip(trial_means, exact_means)])
        judged.append(tuple(map(float, trial_means)))
        kappa, weighted_kappa = _kappas(flat, _flat(labels))
        kappas.append(kappa)
        weighted.append(weighted_kappa)
        taus.append(_tau(list(map(float, exact_means)), judged[-1]))
    bias = tuple(float(sum(column, Fraction(0)) / trials) for column in zip(*moved))
    return NuggetJudgeEffect(float(np.mean(taus)), score, systems, tuple(map(float, exact_means)), tuple(judged), bias,
                             tuple(kappas), tuple(weighted), tuple(taus))
