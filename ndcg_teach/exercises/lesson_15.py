"""Lesson 15: judges and agreement: Cohen's and Fleiss' κ, stable system rankings, many systems."""

import itertools

import ndcg_teach as nt

from ..i18n import mark
from .framework import Exercise, Inputs, _number_judge

LESSON = "15-judges-and-agreement"


def _raw_agreement(inp: Inputs) -> float:
    return sum(x == y for x, y in zip(inp["a"], inp["b"])) / len(inp["a"])


def _pooled_kappa(inp: Inputs) -> float:
    """Scott's π: chance from the two judges' labels pooled (what Fleiss' κ gives for two judges)."""
    return nt.fleiss_kappa([list(pair) for pair in zip(inp["a"], inp["b"])]).value


def _swapped_share(inp: Inputs) -> float:
    pairs = list(itertools.combinations(range(len(inp["x"])), 2))
    swapped = sum((inp["x"][i] - inp["x"][j]) * (inp["y"][i] - inp["y"][j]) < 0 for i, j in pairs)
    return swapped / len(pairs)


def _pairs(systems: int) -> int:
    return systems * (systems - 1) // 2


LESSON_EXERCISES = (
    Exercise(
        "15-cohen-kappa",
        LESSON,
        "Cohen's κ of two assessors' binary labels of ten documents",
        "number",
        inputs={"a": [1, 1, 0, 1, 0, 0, 1, 1, 0, 1], "b": [1, 0, 0, 1, 0, 1, 1, 1, 0, 0]},
        judge=_number_judge(
            lambda inp: nt.cohen_kappa(inp["a"], inp["b"]).value,
            mark("κ = (p_o - p_e) / (1 - p_e): p_o is the share of documents labelled alike, p_e the agreement "
                 "expected from each assessor's own share of 1s and 0s."),
            [
                (_raw_agreement, mark("That is p_o, the raw agreement; κ removes the agreement expected by chance.")),
                (
                    _pooled_kappa,
                    mark("You pooled the two assessors' labels for p_e (Scott's π, Fleiss' κ); Cohen's κ takes each "
                         "assessor's own shares."),
                ),
            ],
        ),
        right=mark("They agree on 7 documents of 10, but half of that agreement is what chance gives."),
    ),
    Exercise(
        "15-fleiss-kappa",
        LESSON,
        "Fleiss' κ of four judges labelling five documents",
        "number",
        inputs={"ratings": [[1, 1, 1, 1], [1, 1, 0, 1], [0, 0, 0, 1], [0, 0, 0, 0], [1, 0, 1, 0]]},
        judge=_number_judge(
            lambda inp: nt.fleiss_kappa(inp["ratings"]).value,
            mark("For each document, P_i = (Σ_j n_ij² - r) / (r(r - 1)); then κ = (P̄ - P_e) / (1 - P_e) with "
                 "P_e = Σ_j p_j² from the labels' shares over all documents."),
            [
                (
                    lambda inp: nt.fleiss_kappa(inp["ratings"]).observed,
                    mark("That is P̄, the mean agreement of the judge pairs; remove the chance agreement P_e."),
                ),
            ],
        ),
        right=mark("Two documents are unanimous, three split: the judges agree only a little beyond chance."),
    ),
    Exercise(
        "15-kendall-tau",
        LESSON,
        "Kendall's τ between two rankings of five systems",
        "number",
        inputs={"x": [0.52, 0.48, 0.45, 0.40, 0.33], "y": [0.47, 0.49, 0.42, 0.44, 0.30]},
        judge=_number_judge(
            lambda inp: nt.kendall_tau(inp["x"], inp["y"]).value,
            mark("Count the system pairs that the two evaluations order differently; without ties "
                 "τ = 1 - 2 · (swapped pairs) / (all pairs)."),
            [
                (_swapped_share, mark("That is the share of swapped pairs; τ = 1 - 2 · that share.")),
                (
                    lambda inp: 1 - _swapped_share(inp),
                    mark("That is the share of pairs kept; each swapped pair counts against τ as much as a kept "
                         "one counts for it: τ = 1 - 2 · (share swapped)."),
                ),
            ],
        ),
        right=mark("Two neighbouring pairs swap: τ falls well below Voorhees's 0.9, though no system moves more "
                   "than one place."),
    ),
    Exercise(
        "15-family-wise",
        LESSON,
        "chance of at least one false winner among every pair of six equal systems",
        "number",
        inputs={"systems": 6, "alpha": 0.05},
        judge=_number_judge(
            lambda inp: 1 - (1 - inp["alpha"]) ** _pairs(inp["systems"]),
            mark("Count the pairs first: k systems give k(k - 1)/2 of them; then 1 - (1 - α) to the power of "
                 "the pairs."),
            [
                (
                    lambda inp: 1 - (1 - inp["alpha"]) ** inp["systems"],
                    mark("You counted systems; the tests are run on pairs of systems, k(k - 1)/2 of them."),
                ),
                (
                    lambda inp: inp["alpha"] * _pairs(inp["systems"]),
                    mark("α times the pairs is Bonferroni's upper bound, not the chance: use 1 - (1 - α)^pairs."),
                ),
            ],
        ),
        right=mark("Fifteen tests at 5% crown a false winner about half the time: why Tukey's HSD tests the "
                   "family at once."),
    ),
)
