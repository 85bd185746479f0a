"""Lesson 21: evaluating generated answers: nugget scores, citation precision, what the context allows."""

import ndcg_teach as nt

from ..i18n import mark
from .framework import Exercise, Inputs, _number_judge

LESSON = "21-evaluating-generated-answers"


def _scores(inp: Inputs):
    return nt.nugget_scores(inp["importance"], inp["support"])


def _weighted_over_count(inp: Inputs) -> float:
    """The weighted credit divided by the number of nuggets instead of by the weights."""
    scores = _scores(inp)
    total = len(scores.importance) - sum(i == "okay" for i in scores.importance) / 2
    return scores.weighted * total / len(scores.importance)


def _precise_alone(inp: Inputs) -> float:
    """Citation precision if only a passage that supports its sentence by itself counted."""
    result = nt.citation_support(**inp)
    return sum(v == "alone" for verdicts in result.verdicts for v in verdicts) / sum(map(len, result.verdicts))


def _precision_of_supported(inp: Inputs) -> float:
    """Citation precision over the citations of supported sentences only."""
    result = nt.citation_support(**inp)
    cited = sum(len(verdicts) for ok, verdicts in zip(result.supported, result.verdicts) if ok)
    return sum(v in ("alone", "needed") for verdicts in result.verdicts for v in verdicts) / cited


def _precision_keeping_irrelevant(inp: Inputs) -> float:
    result = nt.citation_support(**inp)
    return sum(v != "unsupported" for verdicts in result.verdicts for v in verdicts) / sum(map(len, result.verdicts))


def _in_context(inp: Inputs) -> set:
    return {fact for facts in inp["context"].values() for fact in facts}


def _best_faithful(inp: Inputs) -> float:
    """The strict vital score of an answer that fully states every nugget its context states, and nothing else."""
    stated = _in_context(inp)
    return nt.nugget_scores(list(inp["nuggets"].values()),
                            ["support" if n in stated else "not_support" for n in inp["nuggets"]]).vital_strict


def _ceiling(inp: Inputs, kinds=("vital",)) -> float:
    """The share of the nuggets of the given kinds that some context passage states."""
    chosen = [n for n, importance in inp["nuggets"].items() if importance in kinds]
    return sum(n in _in_context(inp) for n in chosen) / len(chosen)


def _vital_mentions(inp: Inputs) -> float:
    """Vital nuggets counted once per passage that states them, over the vital nuggets."""
    vital = [n for n, importance in inp["nuggets"].items() if importance == "vital"]
    return sum(n in facts for facts in inp["context"].values() for n in vital) / len(vital)


LESSON_EXERCISES = (
    Exercise(
        "21-vital-strict",
        LESSON,
        "the strict vital score of an answer to seven nuggets",
        "number",
        inputs={"importance": ["vital", "okay", "vital", "okay", "vital", "okay", "okay"],
                "support": ["support", "partial_support", "partial_support", "support", "not_support", "support",
                            "partial_support"]},
        judge=_number_judge(
            lambda inp: _scores(inp).vital_strict,
            mark("Keep the vital nuggets only; count 1 for each one the answer supports and 0 for the rest, partial "
                 "support included; divide by the number of vital nuggets."),
            [
                (lambda inp: _scores(inp).vital, mark("You gave partial support half a point: that is the vital "
                                                       "score; the strict one gives it none.")),
                (lambda inp: _scores(inp).all_strict, mark("You averaged over every nugget: the vital score keeps the "
                                                            "vital ones only.")),
                (lambda inp: _scores(inp).all, mark("That is the all score, with partial credit: keep the vital "
                                                     "nuggets, and give partial support nothing.")),
            ],
        ),
        right=mark("Only one of the three vital nuggets is fully stated; the partly stated one earns nothing here."),
    ),
    Exercise(
        "21-weighted",
        LESSON,
        "the weighted nugget score (vital 1, okay 1/2, partial support 1/2) of an answer to five nuggets",
        "number",
        inputs={"importance": ["vital", "vital", "okay", "okay", "okay"],
                "support": ["support", "partial_support", "support", "not_support", "partial_support"]},
        judge=_number_judge(
            lambda inp: _scores(inp).weighted,
            mark("Multiply each nugget's credit (1, 1/2 or 0) by its weight (1 if vital, 1/2 if okay), add them, and "
                 "divide by the sum of the weights."),
            [
                (lambda inp: _scores(inp).all, mark("That is the all score: every nugget weighs the same. Give an okay "
                                                     "nugget half a vital one's weight.")),
                (lambda inp: _scores(inp).weighted_strict, mark("You gave partial support no credit: that is the "
                                                                 "strict weighted score; here it earns 1/2.")),
                (_weighted_over_count, mark("You divided by the number of nuggets; divide by the sum of their "
                                            "weights, so that an answer supporting every nugget scores 1.")),
            ],
        ),
        right=mark("The okay nuggets move the score half as much as the vital ones, in both directions."),
    ),
    Exercise(
        "21-citation-precision",
        LESSON,
        "ALCE's citation precision of an answer of four sentences",
        "number",
        inputs={"claims": [["n1"], ["n2", "n3"], ["n4"], ["n1"]],
                "citations": [["p1", "p3"], ["p2", "p3"], ["p4"], ["p2"]],
                "passages": {"p1": ["n1"], "p2": ["n1", "n2"], "p3": ["n3"], "p4": ["n6"]}},
        judge=_number_judge(
            lambda inp: nt.citation_support(**inp).precision,
            mark("For each sentence whose citations together state its facts, a citation counts unless it states "
                 "none of them alone and the others suffice without it; a citation of an unsupported sentence never "
                 "counts. Divide by every citation of the answer."),
            [
                (lambda inp: nt.citation_support(**inp).recall, mark("That is citation recall, a share of "
                                                                      "sentences; precision is a share of citations.")),
                (_precise_alone, mark("You counted only the passages that support their sentence alone; a passage "
                                      "needed together with another counts too.")),
                (_precision_of_supported, mark("You left out the citations of the unsupported sentence; they count "
                                               "against precision.")),
                (_precision_keeping_irrelevant, mark("You kept a citation the sentence does not need: the sentence's "
                                                     "other citation states its fact without it.")),
            ],
        ),
        right=mark("Two of the six citations are wasted: one the sentence did not need, one for a fact no passage "
                   "states."),
    ),
    Exercise(
        "21-faithful-ceiling",
        LESSON,
        "the highest strict vital score a faithful answer can reach from five passages",
        "number",
        inputs={"nuggets": {"n1": "vital", "n2": "vital", "n3": "okay", "n4": "vital", "n5": "okay", "n6": "okay",
                            "n7": "vital"},
                "context": {"p1": ["n1", "n3"], "p2": ["n1"], "p3": ["n3", "n5"], "p4": ["n6"], "p5": ["n2", "n7"]}},
        judge=_number_judge(
            _best_faithful,
            mark("A faithful answer states only what its context states: find the vital nuggets some passage "
                 "states, each once, and divide by all the vital nuggets of the query."),
            [
                (lambda inp: _ceiling(inp, ("vital", "okay")), mark("You counted every nugget; the vital score keeps "
                                                                     "the vital ones only.")),
                (_vital_mentions, mark("You counted a vital nugget once per passage that states it; the answer can "
                                       "state it only once.")),
            ],
        ),
        right=mark("No passage states n4: no faithful answer can support it, however good the generator. That share "
                   "of the nuggets in the context is the retriever's part of the answer's score."),
    ),
)
