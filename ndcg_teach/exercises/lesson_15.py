"""Lesson 15: judges and agreement: Cohen's and Fleiss' κ, stable system rankings, many systems."""

import itertools

import ndcg_teach as nt

from ..i18n import mark
from .framework import Exercise, Inputs, _number_judge
from .questions import question, right, wrong

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

# Questions to think about (ndcg_teach.exercises.questions): they ask why, not how much.
LESSON_EXERCISES += (
    question(
        "15-raw-agreement",
        LESSON,
        "why 92.5% agreement can be a modest κ",
        mark("Two assessors agree on 370 of 400 documents, 92.5%, but both call most documents relevant.\n"
             "Why is Cohen's κ lower than 92.5% suggests?"),
        wrong(mark("κ leaves out the documents both call relevant."),
              mark("They count in the observed agreement like every other; κ subtracts what chance would give, it drops no label.")),
        right(mark("Two judges labelling at random with those rates would also agree often, and κ counts only the agreement beyond that chance."),
              mark("When both judges call most documents relevant, chance alone makes them agree on many; κ = (p_o - p_e) / (1 - p_e) removes that share.")),
        wrong(mark("400 documents are too few for κ."),
              mark("The number of documents affects how sure we can be of κ, not its value; the gap comes from chance agreement.")),
        wrong(mark("κ counts a disagreement by one grade as half a disagreement."),
              mark("That is weighted κ, for graded labels; here the labels are relevant or not, and plain κ's correction is for chance.")),
    ),
    question(
        "15-the-poor-judge",
        LESSON,
        "why a judge right 30% of the time still keeps the order of systems",
        mark("A simulated judge gives the true grade only 30% of the time (plain κ 0.03), yet its rankings of the systems stay close to the truth.\n"
             "Why?"),
        wrong(mark("Its errors are independent and spread over 800 judgements, so they average out."),
              mark("Independent errors alone do not keep an order: the uninformative judge gives the true grade more often than this one (35% of the time against 30%), and its rankings are a draw.")),
        wrong(mark("Kendall's τ cannot fall far with only six systems."),
              mark("τ can fall to -1: the uninformative judge's τ went far below 0.")),
        wrong(mark("Plain κ under-rates every judge, so 0.03 really means good agreement."),
              mark("Plain κ is right about what it measures: this judge gives the exact grade little more often than chance. What it misses is that the errors are near misses.")),
        right(mark("Each of its errors is one grade off, so its grades still carry the order of the documents."),
              mark("A grade-3 document still gets 2 or 3, a grade-0 one 0 or 1: its quadratic weighted κ is 0.62, and it is the order the grades keep, not the number of errors, that keeps a ranking.")),
    ),
)
