"""Lesson 21: evaluating generated answers: nugget scores, citation precision, what the context allows."""

import ndcg_teach as nt

from ..i18n import mark
from .framework import Exercise, Inputs, _number_judge
from .questions import question, right, wrong

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

# Questions to think about (ndcg_teach.exercises.questions): they ask why, not how much.
LESSON_EXERCISES += (
    question(
        "21-a-wrong-sentence",
        LESSON,
        "what removing a wrong sentence does to an answer's nugget score",
        mark("The lesson's Moon answer has five sentences; sentence 4 wrongly says that Earth's shadow causes the phases, "
             "and the answer's all score is 2/3.\n"
             "A second answer is the same without sentence 4.\n"
             "What is the second answer's all score?"),
        wrong(mark("Higher than 2/3: the nugget score no longer counts the wrong sentence against it."),
              mark("A nugget score counts the nuggets an answer supports and nothing else: the wrong sentence supported "
                   "none, so removing it changes no label.")),
        right(mark("2/3 as well."),
              mark("Every nugget keeps its label: n5 is not supported with sentence 4 or without it.\n"
                   "A nugget score, like recall, counts what an answer gets right and never what it gets wrong; sentence 4 "
                   "costs something in citation support and faithfulness instead.")),
        wrong(mark("Lower than 2/3: sentence 4 names Earth's shadow, the subject of nugget n5, so it earned partial "
                   "support for n5."),
              mark("Partial support means the answer states part of the nugget; sentence 4 states the opposite of n5, so "
                   "n5 was not supported, and naming a nugget's subject earns nothing.")),
        wrong(mark("Lower than 2/3: with one sentence fewer the answer covers less."),
              mark("A nugget score counts nuggets, not sentences: sentence 4 supported no nugget, so the answer without "
                   "it supports just as many.")),
    ),
    question(
        "21-one-more-citation",
        LESSON,
        "what an unneeded citation does to citation recall and precision",
        mark("Sentence 1 of the Moon answer says that the Moon makes no light of its own (n1) and cites p1, which states "
             "n1.\n"
             "The writer adds a second citation to it, p2, which states n2 and n3.\n"
             "What happens to the answer's citation recall (0.6000) and citation precision (0.6667)?"),
        wrong(mark("Nothing: p1 still supports the sentence, so an extra citation does no harm."),
              mark("Citation precision counts every citation of the answer: a citation that does not support its "
                   "sentence alone, where the others suffice without it, is irrelevant and counts against precision.")),
        wrong(mark("Recall falls: the cited passages now state facts the sentence does not."),
              mark("Passages support a sentence when together they state every one of its facts; what else they state "
                   "does not matter, so the sentence stays supported.")),
        wrong(mark("Precision rises: a reader has more passages to check the sentence against."),
              mark("Precision is the share of citations that are not irrelevant; a citation that gives the sentence "
                   "nothing it needs lowers it, whatever it offers a reader.")),
        right(mark("Recall stays 0.6000; precision falls to 4/7 = 0.5714."),
              mark("The sentence is still supported, so recall does not move.\n"
                   "p2 states nothing the sentence says, and p1 suffices without it: p2 is irrelevant, one more citation "
                   "that is not precise, and precision becomes 4 of 7.")),
    ),
    question(
        "21-true-but-unfaithful",
        LESSON,
        "what true statements from a generator's memory do to its nugget scores and its faithfulness",
        mark("17 of system D's statements each state a nugget that its context (the five passages its generator read) "
             "does not state: they come from the generator's memory, and each is true.\n"
             "What do such statements do to D's scores?"),
        right(mark("They raise its nugget scores and lower its faithfulness."),
              mark("The assessors mark a nugget supported wherever the answer states it, so memory earns nugget credit "
                   "(D ranks second by the vital scores); faithfulness counts each such statement as one its context "
                   "does not support.")),
        wrong(mark("They raise its faithfulness: a true statement is a faithful one."),
              mark("Faithfulness asks whether the context supports a statement, not whether it is true: a statement its "
                   "context does not state lowers faithfulness however true it is.")),
        wrong(mark("They lower its nugget scores: a nugget score penalises what the context does not hold."),
              mark("Nuggets are assigned by reading the answer against the nuggets, not against the context: a nugget "
                   "the answer states is supported wherever the statement came from.")),
        wrong(mark("Neither changes: only a statement its cited passages support counts in either score."),
              mark("That is citation recall's rule.\n"
                   "Faithfulness checks every statement against the whole context, cited or not, and nugget assignment "
                   "reads the whole answer.")),
    ),
    question(
        "21-agreement-is-not-enough",
        LESSON,
        "why a judge that agrees better with the assessors can rank the systems worse",
        mark("The partial-as-full judge agrees with the assessors better than the lenient judge (κ 0.86 against 0.71), "
             "yet by the strict vital score it ranks the four systems no better (mean τ 0.400 against 0.450).\n"
             "How can both hold?"),
        wrong(mark("κ and τ measure the same agreement, so the gap between them is chance."),
              mark("κ counts how far the labels agree beyond chance; τ asks whether the order of the systems survives.\n"
                   "A few wrong labels that all favour one system move τ a lot and κ little.")),
        wrong(mark("Its errors do not depend on the system, so it raises every system alike and cannot change the "
                   "order: τ below 1 comes from the random draws alone."),
              mark("The errors do not depend on the system, but their effect does, through what each system's answers "
                   "hold: an answer with more partial support gains more.")),
        right(mark("All its errors fall on partial support, and B's answers hold most of it: few wrong labels, but they "
                   "lift one system far more than the others."),
              mark("By the strict vital score it raises B by 0.2258 and C by nothing, enough to reorder systems that "
                   "are close.\n"
                   "Look at a judge's confusion matrix and at each system's bias, not at κ alone.")),
        wrong(mark("The quadratic-weighted κ would show the problem: it punishes a jump from partial to full support."),
              mark("A jump from partial to full support is one step, which the quadratic weights punish least: this "
                   "judge's quadratic-weighted κ is 0.95, higher still.")),
    ),
)
